/*
 * cmd_check.c — `tlv check`: validates rule and resource files without a
 * log and lists every problem found as file:line:col: message.
 */
#include "cli/cli.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char check_help[] =
    "usage: tlv check [-R DIR]... [-r FILE.res] [FILE...]\n"
    "       tlv check [-R DIR]... -r FILE.res [--unmatched FILE] [--std] [--json] LOG\n"
    "\n"
    "Checks rule files (.cnv .resh .viz) and resource files (.res) without a log:\n"
    "the JSON dialect, that every regex compiles, that templates and macro names\n"
    "are well formed, and that the types, attributes, behaviors, shapes and\n"
    "targets they refer to exist. With -r, the resource file is checked together\n"
    "with every target it requests from the rule path.\n"
    "\n"
    "Every problem is listed (not only the first) as file:line:col: message.\n"
    "\n"
    "With a LOG (any file not named .res .resh .cnv or .viz), the rules are then\n"
    "tried on it without writing a trace: each conversion rule is listed with\n"
    "the number of lines it matched (a warning for a rule that matched none),\n"
    "then the lines no rule matched (the first 20; --unmatched FILE writes all\n"
    "of them as 'LINE: text') and the conversion errors.\n"
    "\n"
    "Then the consistency report: every event of the log that contradicts the\n"
    "state the trace is in, by what the rule set declares impossible for its\n"
    "resources (\"Impossible\" in the resource headers: a task switched out that\n"
    "was not running, switched in on a second CPU, a resource entering a state\n"
    "it cannot re-enter) and, when the resource file says \"InTimeOrder\": true,\n"
    "lines whose time goes back — each as 'LOG:LINE: inconsistent: what\n"
    "[Type.check]' (the first 1000), then every declared check with its count\n"
    "and first line. Such events are the log's problem, not the rules': they\n"
    "do not change the exit status.\n"
    "\n"
    "      --json                with a LOG: the matches per rule, the counts and\n"
    "                            the consistency report as one JSON object on\n"
    "                            standard output (problems still go to stderr)\n"
    UNMATCHED_OPTION_HELP
    STD_OPTION_HELP
    "      --allow-scripts       with a LOG: let external-process rules run, as for\n"
    "                            'tlv convert'\n"
    "\n"
    "Exit status: 0 no errors (warnings allowed), 1 errors found, 2 bad usage.\n";

static int is_rule_file(const char *path)
{
    static const char *const exts[] = {".res", ".resh", ".cnv", ".viz"};
    size_t n = strlen(path);
    for (size_t i = 0; i < 4; i++) {
        size_t e = strlen(exts[i]);
        if (n > e && strcmp(path + n - e, exts[i]) == 0)
            return 1;
    }
    return 0;
}

/* The matches per rule, the counts and the consistency report as JSON on
 * stdout. Returns 0, or -1 when it could not be written. */
static int print_json(const tlv_rules *rules, tlv_converter *conv, const char *log,
                      const tlv_convert_stats *cs)
{
    cJSON *o = cJSON_CreateObject();
    json_put(o, "log", cJSON_CreateString(log));
    json_put(o, "lines_read", cJSON_CreateNumber((double)cs->lines_read));
    json_put(o, "lines_matched", cJSON_CreateNumber((double)cs->lines_matched));
    json_put(o, "events", cJSON_CreateNumber((double)cs->events));
    json_put(o, "errors", cJSON_CreateNumber((double)tlv_diags_errors(tlv_converter_diags(conv))));
    cJSON *list = cJSON_CreateArray();
    for (size_t i = 0; i < tlv_rules_cnv_rule_count(rules) && !tlv_rules_is_standard_form(rules);
         i++) {
        tlv_cnv_rule_info ri;
        tlv_rules_cnv_rule(rules, i, &ri);
        cJSON *r = cJSON_CreateObject();
        json_put(r, "file", cJSON_CreateString(ri.file));
        json_put(r, "line", cJSON_CreateNumber((double)ri.line));
        json_put(r, "regex", cJSON_CreateString(ri.regex));
        json_put(r, "matched", cJSON_CreateNumber((double)tlv_converter_rule_matches(conv, i)));
        json_push(list, r);
    }
    json_put(o, "rules", list);
    json_put(o, "consistency", consistency_json(conv, tlv_rules_time_radix(rules)));
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    int rc = text && printf("%s\n", text) >= 0 && fflush(stdout) == 0 ? 0 : -1;
    cJSON_free(text);
    if (rc < 0)
        fprintf(stderr, "%s: error writing the JSON report\n", prog);
    return rc;
}

/* Tries the rules on a log: matches per rule, unmatched lines, errors, and
 * the consistency report. */
static int check_log(const rule_args *ra, const char *log, int json)
{
    if (outputs_overwrite_inputs(ra, NULL)) /* the log; the rule files: load_rules */
        return EXIT_USAGE;
    tlv_rules *rules = load_rules(ra);
    if (!rules)
        return nomem_reported() ? EXIT_USAGE : 1;
    tlv_trace *trace = NULL;
    int rc = EXIT_USAGE;
    unmatched_log um = {0};
    if (tlv_trace_new(rules, &trace) != TLV_OK) {
        report_nomem("checking the rules on", log);
        goto done;
    }
    tlv_converter *conv = tlv_trace_converter(trace);
    if (reads_standard_form(ra, log))
        tlv_converter_set_standard_form(conv, 1);
    if (unmatched_begin(&um, ra, conv) < 0)
        goto done;
    um.show = UNMATCHED_MAX_SHOWN;
    tlv_status st = tlv_trace_load_file(trace, log);
    if (st == TLV_ERR_NOMEM) {
        report_nomem("checking the rules on", log);
        goto done;
    }
    if (st == TLV_ERR_IO) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, log, strerror(errno));
        goto done;
    }
    tlv_convert_stats cs;
    tlv_converter_stats(conv, &cs);
    size_t nrules = tlv_rules_cnv_rule_count(rules), unused = 0;
    for (size_t i = 0; i < nrules && !tlv_rules_is_standard_form(rules) && !json; i++) {
        tlv_cnv_rule_info ri;
        tlv_rules_cnv_rule(rules, i, &ri);
        uint64_t n = tlv_converter_rule_matches(conv, i);
        unused += n == 0;
        if (n)
            fprintf(stderr, "%s:%ld:%ld: rule \"%s\": %llu line%s\n", ri.file, ri.line, ri.col,
                    ri.regex, (unsigned long long)n, n == 1 ? "" : "s");
        else
            fprintf(stderr, "%s:%ld:%ld: warning: rule \"%s\" matched no line of %s\n", ri.file,
                    ri.line, ri.col, ri.regex, log);
    }
    print_diags(tlv_converter_diags(conv), 0);
    int write_failed = unmatched_end(&um, 1) < 0;
    if (json)
        write_failed |= print_json(rules, conv, log, &cs) < 0;
    else
        consistency_print(stderr, conv, log);
    size_t errors = tlv_diags_errors(tlv_converter_diags(conv));
    fprintf(stderr, "%s check: %llu lines read, %llu matched, %llu events, %zu error%s, %zu rule%s "
                    "matched nothing\n",
            prog, (unsigned long long)cs.lines_read, (unsigned long long)cs.lines_matched,
            (unsigned long long)cs.events, errors, errors == 1 ? "" : "s", unused,
            unused == 1 ? "" : "s");
    rc = write_failed ? EXIT_USAGE : errors ? 1 : EXIT_OK;
done:
    unmatched_discard(&um); /* written already unless the check failed */
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}

/* The words after the options: rule files, and with -r a log. */
typedef struct check_args {
    const char **files;
    size_t nfiles;
    int json; /* --json */
} check_args;

/* check's own option: --json. */
static int check_option(void *own, int argc, char **argv, int *i)
{
    (void)argc;
    if (strcmp(argv[*i], "--json") != 0)
        return 0;
    ((check_args *)own)->json = 1;
    return 1;
}

static const cli_option check_own[] = {
    {"json", 0, NULL},
    {NULL, 0, NULL},
};

/* Every argument is kept (the first too: common_args.input is not used). */
static int check_argument(void *own, const char *arg)
{
    check_args *a = own;
    a->files[a->nfiles++] = arg;
    return 1;
}

const command_options check_options = {
    "check", check_help, NULL, OPT_RULES | OPT_UNMATCHED, check_own, check_option, check_argument};

/* Parses argv: the rule options and the files; a file that is not a rule
 * or resource file is the log, when -r is given. Returns 0, or EXIT_USAGE
 * (message printed). */
static int parse_check_args(common_args *c, check_args *a, const char **log, int argc, char **argv)
{
    common_args first = {0};
    if (parse_options(&check_options, &first, a, argc, argv) < 0)
        return EXIT_USAGE;
    *c = first;
    if (first.input) /* parse_options keeps the first word apart */
        memmove(a->files + 1, a->files, a->nfiles++ * sizeof *a->files), a->files[0] = first.input;
    size_t kept = 0;
    for (size_t i = 0; i < a->nfiles; i++) {
        const char *f = a->files[i];
        if (is_rule_file(f) || !c->rules.res_path) {
            a->files[kept++] = f;
        } else if (*log) {
            usage_error("check", "one log at a time ('%s' and '%s' given)", *log, f);
            return EXIT_USAGE;
        } else {
            *log = f;
        }
    }
    a->nfiles = kept;
    return 0;
}

int cmd_check(int argc, char **argv)
{
    common_args c;
    check_args a = {calloc((size_t)argc + 1, sizeof *a.files), 0, 0};
    const char *log = NULL;
    if (!a.files)
        return report_nomem("checking", argc > 1 ? argv[argc - 1] : NULL);
    if (parse_check_args(&c, &a, &log, argc, argv) != 0) {
        free(a.files);
        return EXIT_USAGE;
    }
    rule_args ra = c.rules;
    const char **files = a.files;
    size_t nfiles = a.nfiles;
    int json = a.json;
    if (!nfiles && !ra.res_path) {
        usage_error("check", "nothing to check: give rule files and/or -r FILE.res");
        free(files);
        return EXIT_USAGE;
    }
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = ra.dirs;
    o.n_search_dirs = ra.ndirs;
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_check(ra.res_path, files, nfiles, &o, &rules);
    const char *checked = ra.res_path ? ra.res_path : files[0];
    free(files);
    if (st == TLV_ERR_NOMEM || !rules) { /* the other problems may only follow from it */
        tlv_rules_free(rules);
        return report_nomem("checking", checked);
    }
    const tlv_diags *d = tlv_rules_diags(rules);
    print_diags(d, 0);
    size_t errors = tlv_diags_errors(d), total = tlv_diags_count(d) + tlv_diags_dropped(d);
    fprintf(stderr, "%s check: %zu error%s, %zu warning%s\n", prog, errors, errors == 1 ? "" : "s",
            total - errors, total - errors == 1 ? "" : "s");
    tlv_rules_free(rules);
    if (st != TLV_OK)
        return 1;
    if (json && !log) {
        usage_error("check", "--json reports on a LOG: give one with -r FILE.res");
        return EXIT_USAGE;
    }
    ra.input_path = log; /* --unmatched must not be the log */
    return log ? check_log(&ra, log, json) : EXIT_OK;
}
