/*
 * cmd_verify.c — `tlv verify REQS LOG`: timing requirements checked in CI.
 * Reads the requirements file (libtlv's tlv_requirements_load), converts
 * the log, checks every requirement (tlv_requirements_verify) and prints
 * each one PASS or FAIL with its worst case and where (time, log line);
 * writes JUnit XML (--junit FILE) and JSON (--json FILE); exits 1 when one
 * failed.
 */
#include "cli/cli.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char verify_help[] =
    "usage: tlv verify [-R DIR]... [-r FILE.res] [-q] [--junit FILE] [--json FILE] REQS LOG|-\n"
    "\n"
    "Checks the timing requirements of the file REQS against LOG (converted, or\n"
    "a standard-form trace) and prints each requirement PASS or FAIL with its\n"
    "worst case and where it happened (resource, time, log line). REQS is JSON\n"
    "(docs/timing.md):\n"
    "\n"
    "  {\"ResourceFile\": \"app.res\",\n"
    "   \"Requirements\": {\n"
    "     \"TASK1 in 400 ms\": {\"Check\": \"response\", \"Resource\": \"TASK1\", \"Max\": \"400 ms\"},\n"
    "     \"latency\": {\"Check\": \"latency\", \"Resource\": \"Task\", \"Statistic\": \"p99\",\n"
    "                 \"Max\": \"1 ms\"},\n"
    "     \"no long waits\": {\"Check\": \"state\", \"Resource\": \"Task\", \"State\": \"WAITING\",\n"
    "                       \"Max\": \"200 ms\"},\n"
    "     \"CPU\": {\"Check\": \"cpu\", \"Window\": \"10 ms\", \"Max\": \"80%\"},\n"
    "     \"dispatched\": {\"Check\": \"followed\", \"Event\": \"TASK1.activate()\",\n"
    "                    \"FollowedBy\": \"TASK1.dispatch()\", \"Within\": \"10 ms\"},\n"
    "     \"never suspended\": {\"Check\": \"never\", \"Resource\": \"Task\",\n"
    "                         \"State\": \"SUSPENDED\"}}}\n"
    "\n"
    "  -r FILE.res               the log's resource file (default: REQS's \"ResourceFile\")\n"
    "  -R, --allow-scripts       as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "  -q, --quiet               only the PASS/FAIL lines: no violations listed, no\n"
    "                            totals\n"
    "      --junit FILE          also write the verdicts as JUnit XML (one test case\n"
    "                            per requirement), for CI systems\n"
    "      --json FILE           also write them as JSON ('-': standard output, then\n"
    "                            instead of the text)\n"
    "      --ready LIST          the ready values of the instances, comma-separated\n"
    "                            (default RUNNABLE,READY,PREEMPTED)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "\n"
    "Exit status: 0 every requirement passed; 1 one failed (or the log had\n"
    "conversion errors); 2 bad usage, an unreadable input, rule files or a\n"
    "requirements file with errors (each named as FILE:LINE:COL).\n";

#define SHOWN_VIOLATIONS 5   /* listed under a failed requirement in the text */
#define JSON_VIOLATIONS 1000 /* written per requirement in the JSON and JUnit */

typedef struct verify_args {
    common_args c;
    const char *reqs;
    const char *log; /* the second argument, while parsing */
    const char *junit, *json, *ready;
} verify_args;

static int verify_option(void *own, int argc, char **argv, int *i)
{
    verify_args *a = own;
    const char *s = argv[*i];
    int has_value = *i + 1 < argc;
    if (strcmp(s, "--junit") == 0 && has_value)
        a->junit = argv[++*i];
    else if (strcmp(s, "--json") == 0 && has_value)
        a->json = argv[++*i];
    else if (strcmp(s, "--ready") == 0 && has_value)
        a->ready = argv[++*i];
    else
        return 0;
    return 1;
}

/* The second argument: LOG (the first, REQS, is common_args.input until
 * parse_verify_args sorts them). */
static int verify_argument(void *own, const char *arg)
{
    verify_args *a = own;
    if (a->log)
        return 0;
    a->log = arg;
    return 1;
}

/* verify's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option verify_own[] = {
    {"junit", 0, "FILE"},
    {"json", 0, "FILE"},
    {"ready", 0, "LIST"},
    {NULL, 0, NULL},
};

const command_options verify_options = {
    "verify", verify_help, NULL,
    OPT_RULES | OPT_UNMATCHED | OPT_CACHE | OPT_QUIET | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    verify_own, verify_option, verify_argument};

/* REQS then LOG, with the options anywhere around them. `rest` is unused
 * (getopt_long needs no copy of argv). */
static int parse_verify_args(verify_args *a, int argc, char **argv, char **rest)
{
    (void)rest;
    memset(a, 0, sizeof *a);
    if (parse_options(&verify_options, &a->c, a, argc, argv) < 0)
        return -1;
    a->reqs = a->c.input;
    a->c.input = a->log;
    a->c.rules.input_path = a->log; /* for the outputs-over-inputs check */
    if (!a->reqs || !a->c.input) {
        usage_error("verify", "give a requirements file and a log: tlv verify REQS LOG");
        return -1;
    }
    return 0;
}

/* ---- text ------------------------------------------------------------------------- */

static void print_violations(FILE *out, const tlv_verdicts *v, size_t req, int radix,
                             const char *scale)
{
    size_t shown = 0, total = 0;
    for (size_t i = 0; i < tlv_verdicts_violation_count(v); i++) {
        tlv_violation x;
        tlv_verdicts_violation(v, i, &x);
        if (x.requirement != req || total++ >= SHOWN_VIOLATIONS)
            continue;
        char from[160], to[160];
        cli_time_text(x.start, radix, from, sizeof from);
        cli_time_text(x.end, radix, to, sizeof to);
        fprintf(out, "      %s %s..%s %s", x.resource ? x.resource : "-", from, to, scale);
        if (x.line)
            fprintf(out, " (line %llu)", (unsigned long long)x.line);
        fputc('\n', out);
        shown++;
    }
    if (total > shown)
        fprintf(out, "      ... and %zu more\n", total - shown);
}

static void print_text(FILE *out, const verify_args *a, const tlv_verdicts *v, int radix,
                       const char *scale)
{
    for (size_t i = 0; i < tlv_verdicts_count(v); i++) {
        tlv_verdict d;
        tlv_verdicts_get(v, i, &d);
        fprintf(out, "%s  %s: %s\n", d.passed ? "PASS" : "FAIL", d.name, d.message);
        if (!d.passed && !a->c.quiet)
            print_violations(out, v, i, radix, scale);
    }
    if (!a->c.quiet) {
        size_t n = tlv_verdicts_count(v), failed = tlv_verdicts_failed(v);
        fprintf(out, "%zu requirement%s: %zu passed, %zu failed\n", n, n == 1 ? "" : "s",
                n - failed, failed);
    }
}

/* ---- JSON ------------------------------------------------------------------------- */

static cJSON *json_time(tlv_time t, int radix)
{
    char text[160];
    cli_time_text(t, radix, text, sizeof text);
    return cJSON_CreateRaw(text);
}

static cJSON *json_violations(const tlv_verdicts *v, size_t req, int radix)
{
    cJSON *arr = cJSON_CreateArray();
    size_t n = 0;
    for (size_t i = 0; i < tlv_verdicts_violation_count(v) && n < JSON_VIOLATIONS; i++) {
        tlv_violation x;
        tlv_verdicts_violation(v, i, &x);
        if (x.requirement != req)
            continue;
        cJSON *o = cJSON_CreateObject();
        json_put(o, "resource", x.resource ? cJSON_CreateString(x.resource) : cJSON_CreateNull());
        json_put(o, "start", json_time(x.start, radix));
        json_put(o, "end", json_time(x.end, radix));
        cJSON_AddNumberToObject(o, "line", (double)x.line);
        cJSON_AddNumberToObject(o, "value", x.value);
        json_push(arr, o);
        n++;
    }
    return arr;
}

static char *make_json(const verify_args *a, const tlv_verdicts *v, int radix, const char *scale)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "requirements", a->reqs);
    cJSON_AddStringToObject(o, "log", a->c.input);
    cJSON_AddStringToObject(o, "timeScale", scale);
    size_t n = tlv_verdicts_count(v), failed = tlv_verdicts_failed(v);
    cJSON_AddNumberToObject(o, "passed", (double)(n - failed));
    cJSON_AddNumberToObject(o, "failed", (double)failed);
    cJSON *arr = cJSON_AddArrayToObject(o, "results");
    for (size_t i = 0; i < n; i++) {
        tlv_verdict d;
        tlv_verdicts_get(v, i, &d);
        cJSON *r = cJSON_CreateObject();
        cJSON_AddStringToObject(r, "name", d.name);
        cJSON_AddStringToObject(r, "check", d.check);
        cJSON_AddBoolToObject(r, "passed", d.passed);
        cJSON_AddStringToObject(r, "message", d.message);
        json_put(r, "worst", d.worst >= 0 ? cJSON_CreateNumber(d.worst) : cJSON_CreateNull());
        cJSON_AddNumberToObject(r, "bound", d.bound);
        json_put(r, "resource", d.resource ? cJSON_CreateString(d.resource) : cJSON_CreateNull());
        json_put(r, "time", json_time(d.time, radix));
        cJSON_AddNumberToObject(r, "line", (double)d.line);
        cJSON_AddNumberToObject(r, "violationCount", (double)d.violations);
        json_put(r, "violations", json_violations(v, i, radix));
        cJSON_AddNumberToObject(r, "requirementLine", (double)d.file_line);
        json_push(arr, r);
    }
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    return text;
}

/* ---- JUnit XML ---------------------------------------------------------------------- */

static void xml_text(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s < 0x20 && *s != '\n' && *s != '\t')
                fputc(' ', f); /* not allowed in XML 1.0 */
            else
                fputc(*s, f);
        }
    }
}

static void write_junit(FILE *f, const verify_args *a, const tlv_verdicts *v, int radix,
                        const char *scale)
{
    size_t n = tlv_verdicts_count(v), failed = tlv_verdicts_failed(v);
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n  <testsuite name=\"", f);
    xml_text(f, a->reqs);
    fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\">\n", n, failed);
    for (size_t i = 0; i < n; i++) {
        tlv_verdict d;
        tlv_verdicts_get(v, i, &d);
        fputs("    <testcase classname=\"tlv.verify.", f);
        xml_text(f, d.check);
        fputs("\" name=\"", f);
        xml_text(f, d.name);
        fputs("\"", f);
        if (d.passed) {
            fputs(">\n      <system-out>", f);
            xml_text(f, d.message);
            fputs("</system-out>\n    </testcase>\n", f);
            continue;
        }
        fputs(">\n      <failure message=\"", f);
        xml_text(f, d.message);
        fputs("\" type=\"requirement\">", f);
        xml_text(f, d.message);
        size_t shown = 0;
        for (size_t k = 0; k < tlv_verdicts_violation_count(v) && shown < JSON_VIOLATIONS; k++) {
            tlv_violation x;
            tlv_verdicts_violation(v, k, &x);
            if (x.requirement != i)
                continue;
            char from[160], to[160];
            cli_time_text(x.start, radix, from, sizeof from);
            cli_time_text(x.end, radix, to, sizeof to);
            fputc('\n', f);
            xml_text(f, x.resource ? x.resource : "-");
            fprintf(f, " %s..%s %s line %llu", from, to, scale, (unsigned long long)x.line);
            shown++;
        }
        fputs("</failure>\n    </testcase>\n", f);
    }
    fputs("  </testsuite>\n</testsuites>\n", f);
}

/* ---- the command -------------------------------------------------------------------- */

/* Writes `text` (or calls junit) to path through a temporary file. */
static int write_file_out(const char *path, const char *text, const verify_args *a,
                          const tlv_verdicts *v, int radix, const char *scale)
{
    char *tmp_path;
    FILE *f = open_output(path, &tmp_path);
    remove_tmp_on_signals(tmp_path);
    if (!f)
        return -1;
    if (text)
        fprintf(f, "%s\n", text);
    else
        write_junit(f, a, v, radix, scale);
    return close_output(f, path, tmp_path, 1);
}

static int report(const verify_args *a, const tlv_rules *rules, const tlv_verdicts *v)
{
    int radix = tlv_rules_time_radix(rules);
    const char *scale = tlv_rules_time_scale(rules);
    unsigned long json_failures = json_alloc_failures();
    char *json = a->json ? make_json(a, v, radix, scale) : NULL;
    if ((a->json && !json) || json_alloc_failures() != json_failures) {
        free(json);
        return report_nomem("writing the verdicts on", a->c.input);
    }
    int to_stdout = a->json && strcmp(a->json, "-") == 0;
    if (!to_stdout)
        print_text(stdout, a, v, radix, scale);
    int rc = 0;
    if (a->json && write_file_out(a->json, json, a, v, radix, scale) < 0)
        rc = -1;
    if (a->junit && write_file_out(a->junit, NULL, a, v, radix, scale) < 0)
        rc = -1;
    free(json);
    return rc < 0 ? EXIT_USAGE : tlv_verdicts_failed(v) ? EXIT_PARTIAL : EXIT_OK;
}

static int check(const verify_args *a, const tlv_requirements *reqs, const tlv_rules *rules,
                 const tlv_trace *trace)
{
    tlv_instances_options o = TLV_INSTANCES_OPTIONS_INIT;
    o.ready_values = a->ready;
    o.cpu_attribute = a->c.cpu_attribute;
    tlv_instances *in = NULL;
    tlv_verdicts *v = NULL;
    tlv_status st = tlv_instances_compute(trace, &o, &in);
    if (st == TLV_OK)
        st = tlv_requirements_verify(reqs, trace, in, &v);
    int rc;
    if (st == TLV_ERR_NOMEM) {
        rc = report_nomem("checking the requirements on", a->c.input);
    } else if (st != TLV_OK) {
        print_diags(tlv_verdicts_diags(v), 0);
        if (!v)
            fprintf(stderr, "%s verify: %s\n", prog, tlv_trace_last_error(trace));
        rc = EXIT_USAGE;
    } else {
        rc = report(a, rules, v);
    }
    tlv_verdicts_free(v);
    tlv_instances_free(in);
    return rc;
}

int cmd_verify(int argc, char **argv)
{
    verify_args a;
    char **rest = malloc(((size_t)argc + 1) * sizeof *rest);
    if (!rest)
        return report_nomem("reading the arguments", NULL);
    if (parse_verify_args(&a, argc, argv, rest) < 0) {
        free(rest);
        return EXIT_USAGE;
    }
    tlv_requirements *reqs = load_requirements(a.reqs);
    if (!reqs) {
        free(rest);
        return EXIT_USAGE;
    }
    if (!a.c.rules.res_path)
        a.c.rules.res_path = tlv_requirements_resource_file(reqs);
    /* --junit and --json must not be an input (load_rules refuses it). */
    a.c.rules.more_outputs[0] = a.junit;
    a.c.rules.more_output_opts[0] = "--junit";
    a.c.rules.more_outputs[1] = a.json;
    a.c.rules.more_output_opts[1] = "--json";
    a.c.rules.more_inputs[0] = a.reqs;
    a.c.rules.more_input_whats[0] = "the requirements file";
    int rc = EXIT_USAGE;
    tlv_rules *rules = NULL;
    tlv_trace *trace = NULL;
    if (!a.c.rules.res_path) {
        usage_error("verify", "a resource file is needed: -r FILE.res, or \"ResourceFile\" in %s",
                    a.reqs);
    } else {
        int lrc = load_trace(&a.c.rules, a.c.input, &rules, &trace);
        if (lrc != EXIT_USAGE) {
            rc = check(&a, reqs, rules, trace);
            if (lrc == EXIT_PARTIAL && rc == EXIT_OK) {
                fprintf(stderr, "%s verify: the log had conversion errors: the trace is "
                        "incomplete\n", prog);
                rc = EXIT_PARTIAL;
            }
        }
    }
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    tlv_requirements_free(reqs);
    free(rest);
    return rc;
}
