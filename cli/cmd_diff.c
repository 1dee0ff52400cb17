/*
 * cmd_diff.c — `tlv diff A B`: two runs of one program (two logs, one
 * resource file) compared. Per actor and state, the time and count in each
 * run and the change; per actor and instance kind, the response-time
 * percentiles side by side and the change of the worst; the actors of one
 * run only. The comparison itself is common/diff.c's (the viewer's diff
 * panel shows the same); here the arguments, loading the two logs, and
 * printing it as text, CSV or JSON.
 */
#include "cli/cli.h"
#include "cli/stats_table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char diff_help[] =
    "usage: tlv diff [-R DIR]... -r FILE.res [--format text|csv|json] [-o OUT] A B\n"
    "\n"
    "Compares two runs of one program: the logs A and B, converted with the same\n"
    "rules (or standard-form traces). Prints, sorted by the largest change:\n"
    " - per actor and value of \"state\": the intervals and the time in each run,\n"
    "   and the change of the time (absolute and %);\n"
    " - per actor and instance kind (response, latency, call, and those the\n"
    "   headers declare; see tlv stats --instances): the count and the p50, p90,\n"
    "   p99 and maximum response time and the mean execution time in each run,\n"
    "   and the change of the maximum (or of --sort's figure);\n"
    " - the actors of one run only.\n"
    "Actors pair by name, or when the events labelled them by their label\n"
    "without process and thread ids (make[7915] and make[8120] are both\n"
    "\"make\"; a second one of a name is \"make #2\"). Times are in the\n"
    "resource file's TimeScale.\n"
    "\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    CACHE_OPTION_HELP
    "      --format F            text (default), csv or json\n"
    "      --kind KIND           only instances of KIND (and no state table)\n"
    "      --states              only the state table\n"
    "      --top N               only the N largest changes of each table\n"
    "      --sort FIGURE         the instances by the change of max (default), p50,\n"
    "                            p90, p99 or exec (the mean execution time)\n"
    "      --by-name             pair actors by their names only\n"
    "      --ready LIST          the ready values of the instances (default\n"
    "                            RUNNABLE,READY,PREEMPTED)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "  -o, --output OUT          write to OUT instead of standard output\n"
    "\n"
    "Exit status: 0 ok; 1 written, but a log had conversion errors; 2 bad usage,\n"
    "unreadable input or rule files with errors.\n";

typedef struct diff_args {
    common_args c;
    const char *a;            /* the first log; c.input is the second */
    const char *b;            /* the second log, while parsing */
    const char *format, *kind, *ready;
    int states_only, by_name;
    size_t top;               /* 0: every row */
    const char *sort;         /* instances: "max", "p50", "p90", "p99" or "exec" */
} diff_args;

/* One run: its rules and trace, and their comparison figures. */
typedef struct run {
    tlv_rules *rules;
    tlv_trace *trace;
    diff_run d;
} run;

typedef diff_row row;
typedef diff_rows rows;

/* ---- arguments ---------------------------------------------------------------------- */

static int diff_option(void *own, int argc, char **argv, int *i)
{
    diff_args *a = own;
    const char *s = argv[*i];
    int has_value = *i + 1 < argc;
    if (strcmp(s, "--format") == 0 && has_value)
        a->format = argv[++*i];
    else if (strcmp(s, "--kind") == 0 && has_value)
        a->kind = argv[++*i];
    else if (strcmp(s, "--ready") == 0 && has_value)
        a->ready = argv[++*i];
    else if (strcmp(s, "--sort") == 0 && has_value)
        a->sort = argv[++*i];
    else if (strcmp(s, "--states") == 0)
        a->states_only = 1;
    else if (strcmp(s, "--by-name") == 0)
        a->by_name = 1;
    else if (strcmp(s, "--top") == 0 && has_value) {
        char *end;
        errno = 0;
        unsigned long n = strtoul(argv[++*i], &end, 10);
        if (*end || !n || errno || argv[*i][0] == '-') {
            usage_error("diff", "--top needs a positive number, not '%s'", argv[*i]);
            return -1;
        }
        a->top = n;
    } else
        return 0;
    return 1;
}

/* The second log, B (the first, A, is common_args.input until
 * parse_diff_args sorts them). */
static int diff_argument(void *own, const char *arg)
{
    diff_args *a = own;
    if (a->b)
        return 0;
    a->b = arg;
    return 1;
}

/* diff's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option diff_own[] = {
    {"format", 0, "text|csv|json"},
    {"kind", 0, "KIND"},
    {"states", 0, NULL},
    {"top", 0, "N"},
    {"sort", 0, "FIGURE"},
    {"by-name", 0, NULL},
    {"ready", 0, "LIST"},
    {NULL, 0, NULL},
};

const command_options diff_options = {
    "diff", diff_help, NULL, OPT_RULES | OPT_CACHE | OPT_OUTPUT | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    diff_own, diff_option, diff_argument};

/* A then B, with the options anywhere around them. */
static int parse_diff_args(diff_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->format = "text";
    a->sort = "max";
    if (parse_options(&diff_options, &a->c, a, argc, argv) < 0 ||
        need_resource_file("diff", &a->c) < 0)
        return -1;
    a->a = a->c.input;
    a->c.input = a->b;
    /* -o over B is refused as over A (rules.input_path): it replaced B */
    a->c.rules.more_inputs[0] = a->b;
    a->c.rules.more_input_whats[0] = "the second log being read";
    if (!a->a || !a->c.input) {
        usage_error("diff", "give two logs: tlv diff -r FILE.res A B");
        return -1;
    }
    if (strcmp(a->format, "text") != 0 && strcmp(a->format, "csv") != 0 &&
        strcmp(a->format, "json") != 0) {
        usage_error("diff", "--format must be text, csv or json, not '%s'", a->format);
        return -1;
    }
    static const char *const sorts[] = {"max", "p50", "p90", "p99", "exec"};
    int known = 0;
    for (size_t i = 0; i < sizeof sorts / sizeof *sorts; i++)
        known |= strcmp(a->sort, sorts[i]) == 0;
    if (!known) {
        usage_error("diff", "--sort must be max, p50, p90, p99 or exec, not '%s'", a->sort);
        return -1;
    }
    if (a->states_only && a->kind) {
        usage_error("diff", "--states and --kind show one table each: give one");
        return -1;
    }
    return 0;
}

/* ---- the runs ----------------------------------------------------------------------- */

static void free_run(run *r)
{
    diff_run_free(&r->d);
    tlv_trace_free(r->trace);
    tlv_rules_free(r->rules);
}

static diff_settings options_of(const diff_args *a)
{
    diff_settings o = {a->c.cpu_attribute, a->ready, a->by_name, a->kind, a->sort};
    return o;
}

/* Loads one log; returns as load_trace, or EXIT_USAGE. */
static int load_run(const diff_args *a, const char *log, run *r)
{
    memset(r, 0, sizeof *r);
    int rc = load_trace(&a->c.rules, log, &r->rules, &r->trace);
    if (rc == EXIT_USAGE)
        return rc;
    diff_settings o = options_of(a);
    if (diff_run_init(&r->d, r->trace, &o) < 0)
        return report_nomem("comparing", log);
    return rc;
}

static double change(const row *r) { return diff_change(r); }

static size_t shown(const diff_args *a, const rows *t)
{
    return a->top && a->top < t->n ? a->top : t->n;
}

static const char *percent(const row *r, char *b, size_t size) { return diff_percent(r, b, size); }

/* ---- text --------------------------------------------------------------------------- */

static void set_side(table *t, int row_i, size_t col, const row *r, int side, double v)
{
    if (r->in[side])
        table_set_num(t, row_i, col, v);
    else
        table_set(t, row_i, col, "-");
}

static void set_change(table *t, int ri, size_t col, const row *r)
{
    char b[80], num[64];
    table_set_num(t, ri, col, change(r));
    snprintf(num, sizeof num, "%s", t->cells[(size_t)ri * t->ncols + col]);
    if (change(r) > 0) {
        snprintf(b, sizeof b, "+%s", num);
        table_set(t, ri, col, b);
    }
    table_set(t, ri, col + 1, percent(r, b, sizeof b));
}

static void text_states(FILE *out, const diff_args *a, const rows *t, const char *scale)
{
    static const char *const head[] = {"resource", "state", "A count", "B count", "A time",
                                       "B time",   "change", "%"};
    fprintf(out, "Time in each state (%s), by the largest change:\n", scale);
    table tb = {NULL, 8, 0, 0, 2};
    int ri = table_add_row(&tb);
    for (size_t c = 0; ri >= 0 && c < 8; c++)
        table_set(&tb, ri, c, head[c]);
    for (size_t i = 0; i < shown(a, t) && ri >= 0; i++) {
        const row *r = &t->v[i];
        if ((ri = table_add_row(&tb)) < 0)
            break;
        table_set(&tb, ri, 0, r->key);
        table_set(&tb, ri, 1, r->what);
        set_side(&tb, ri, 2, r, 0, (double)r->count[0]);
        set_side(&tb, ri, 3, r, 1, (double)r->count[1]);
        set_side(&tb, ri, 4, r, 0, r->value[0]);
        set_side(&tb, ri, 5, r, 1, r->value[1]);
        set_change(&tb, ri, 6, r);
    }
    table_print(out, &tb);
}

static void text_instances(FILE *out, const diff_args *a, const rows *t, const char *scale)
{
    static const char *const head[] = {"resource", "kind",   "name",   "A count", "B count",
                                       "A p50",    "B p50",  "A p90",  "B p90",   "A p99",
                                       "B p99",    "A max",  "B max",  "A exec",  "B exec",
                                       "change",   "%"};
    enum { NCOLS = sizeof head / sizeof *head };
    fprintf(out, "Response times (%s), by the largest change of the %s:\n", scale,
            strcmp(a->sort, "max") == 0    ? "maximum"
            : strcmp(a->sort, "exec") == 0 ? "mean execution time"
                                           : a->sort);
    table tb = {NULL, NCOLS, 0, 0, 3};
    int ri = table_add_row(&tb);
    for (size_t c = 0; ri >= 0 && c < NCOLS; c++)
        table_set(&tb, ri, c, head[c]);
    for (size_t i = 0; i < shown(a, t) && ri >= 0; i++) {
        const row *r = &t->v[i];
        if ((ri = table_add_row(&tb)) < 0)
            break;
        table_set(&tb, ri, 0, r->key);
        table_set(&tb, ri, 1, r->what);
        table_set(&tb, ri, 2, r->name);
        for (int s = 0; s < 2; s++) {
            set_side(&tb, ri, 3 + (size_t)s, r, s, (double)r->count[s]);
            set_side(&tb, ri, 5 + (size_t)s, r, s, r->p50[s]);
            set_side(&tb, ri, 7 + (size_t)s, r, s, r->p90[s]);
            set_side(&tb, ri, 9 + (size_t)s, r, s, r->p99[s]);
            set_side(&tb, ri, 11 + (size_t)s, r, s, r->value[s]);
            if (r->in[s] && r->exec[s] < 0)
                table_set(&tb, ri, 13 + (size_t)s, "-");
            else
                set_side(&tb, ri, 13 + (size_t)s, r, s, r->exec[s]);
        }
        set_change(&tb, ri, 15, r);
    }
    table_print(out, &tb);
}

static void text_only(FILE *out, const char *which, const char *log, const char **keys, size_t n)
{
    fprintf(out, "Only in %s (%s):", which, log);
    if (!n)
        fputs(" none", out);
    for (size_t i = 0; i < n; i++)
        fprintf(out, "%s %s", i ? "," : "", keys[i]);
    fputc('\n', out);
}

/* ---- CSV ---------------------------------------------------------------------------- */

static void csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* ",value", or "," when the run has no such row (or the column does not apply). */
static void csv_num(FILE *out, int present, double v)
{
    fputc(',', out);
    if (present)
        fprintf(out, "%.17g", v);
}

static const char csv_head[] =
    "section,actor,state_or_kind,name,a_count,b_count,a_value,b_value,change,change_percent,"
    "a_p50,b_p50,a_p90,b_p90,a_p99,b_p99,a_exec_mean,b_exec_mean\n";

/* One line per row: the value is the time in the state, or the longest
 * response time; the percentiles only for instances. */
static void csv_rows(FILE *out, const diff_args *a, const rows *t, int instances)
{
    for (size_t i = 0; i < shown(a, t); i++) {
        const row *r = &t->v[i];
        fputs(instances ? "instances," : "states,", out);
        csv_field(out, r->key);
        fputc(',', out);
        csv_field(out, r->what);
        fputc(',', out);
        csv_field(out, r->name);
        for (int s = 0; s < 2; s++)
            csv_num(out, r->in[s], (double)r->count[s]);
        for (int s = 0; s < 2; s++)
            csv_num(out, r->in[s], r->value[s]);
        fprintf(out, ",%.17g", change(r));
        csv_num(out, r->in[0] && r->in[1] && r->key_value[0] != 0,
                100 * change(r) / r->key_value[0]);
        const double *p[3] = {r->p50, r->p90, r->p99};
        for (int k = 0; k < 3; k++)
            for (int s = 0; s < 2; s++)
                csv_num(out, instances && r->in[s], p[k][s]);
        for (int s = 0; s < 2; s++)
            csv_num(out, instances && r->in[s] && r->exec[s] >= 0, r->exec[s]);
        fputc('\n', out);
    }
}

static void csv_only(FILE *out, const char *section, const char **keys, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(out, "%s,", section);
        csv_field(out, keys[i]);
        fputs(",,,,,,,,,,,,,,,,\n", out);
    }
}

/* ---- JSON --------------------------------------------------------------------------- */

static cJSON *json_side(const row *r, int side, int instances)
{
    if (!r->in[side])
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "count", (double)r->count[side]);
    if (!instances) {
        cJSON_AddNumberToObject(o, "time", r->value[side]);
        return o;
    }
    cJSON_AddNumberToObject(o, "p50", r->p50[side]);
    cJSON_AddNumberToObject(o, "p90", r->p90[side]);
    cJSON_AddNumberToObject(o, "p99", r->p99[side]);
    cJSON_AddNumberToObject(o, "max", r->value[side]);
    if (r->exec[side] >= 0)
        cJSON_AddNumberToObject(o, "executionMean", r->exec[side]);
    return o;
}

static cJSON *json_rows(const diff_args *a, const rows *t, int instances)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < shown(a, t); i++) {
        const row *r = &t->v[i];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "actor", r->key);
        cJSON_AddStringToObject(o, instances ? "kind" : "state", r->what);
        if (instances)
            cJSON_AddStringToObject(o, "name", r->name);
        json_put(o, "a", json_side(r, 0, instances));
        json_put(o, "b", json_side(r, 1, instances));
        cJSON_AddNumberToObject(o, "change", change(r));
        if (r->in[0] && r->in[1] && r->key_value[0] != 0)
            cJSON_AddNumberToObject(o, "changePercent", 100 * change(r) / r->key_value[0]);
        else
            cJSON_AddNullToObject(o, "changePercent");
        json_push(arr, o);
    }
    return arr;
}

static cJSON *json_keys(const char **keys, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++)
        json_push(arr, cJSON_CreateString(keys[i]));
    return arr;
}

/* ---- the command -------------------------------------------------------------------- */

static int write_report(FILE *out, const diff_args *a, const run *runs, const diff_report *rp)
{
    const char *scale = tlv_rules_time_scale(runs[0].rules);
    const char *logs[2] = {a->a, a->c.input};
    int states = !a->kind, inst = !a->states_only;
    if (strcmp(a->format, "csv") == 0) {
        fputs(csv_head, out);
        if (states)
            csv_rows(out, a, &rp->states, 0);
        if (inst)
            csv_rows(out, a, &rp->inst, 1);
        csv_only(out, "only_in_a", rp->only[0], rp->nonly[0]);
        csv_only(out, "only_in_b", rp->only[1], rp->nonly[1]);
        return 0;
    }
    if (strcmp(a->format, "json") == 0) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "a", logs[0]);
        cJSON_AddStringToObject(o, "b", logs[1]);
        cJSON_AddStringToObject(o, "timeScale", scale);
        if (states)
            json_put(o, "states", json_rows(a, &rp->states, 0));
        if (inst)
            json_put(o, "instances", json_rows(a, &rp->inst, 1));
        json_put(o, "onlyInA", json_keys(rp->only[0], rp->nonly[0]));
        json_put(o, "onlyInB", json_keys(rp->only[1], rp->nonly[1]));
        char *text = cJSON_Print(o);
        cJSON_Delete(o);
        if (!text)
            return -1;
        fprintf(out, "%s\n", text);
        free(text);
        return 0;
    }
    fprintf(out, "A: %s\nB: %s\n", logs[0], logs[1]);
    if (states) {
        fputc('\n', out);
        text_states(out, a, &rp->states, scale);
    }
    if (inst) {
        fputc('\n', out);
        text_instances(out, a, &rp->inst, scale);
    }
    fputc('\n', out);
    text_only(out, "A", logs[0], rp->only[0], rp->nonly[0]);
    text_only(out, "B", logs[1], rp->only[1], rp->nonly[1]);
    return 0;
}

static int compare(const diff_args *a, const run *runs)
{
    diff_report rp;
    diff_settings o = options_of(a);
    const diff_run d[2] = {runs[0].d, runs[1].d};
    int rc = diff_compute(d, &o, &rp);
    if (rc == 0) {
        char *tmp_path;
        FILE *out = open_output(a->c.output, &tmp_path);
        remove_tmp_on_signals(tmp_path);
        unsigned long json_failures = json_alloc_failures();
        rc = out ? write_report(out, a, runs, &rp) : -1;
        if (out && (rc < 0 || json_alloc_failures() != json_failures)) {
            report_nomem("writing the comparison of", a->a);
            rc = -1;
        }
        if (out && close_output(out, a->c.output, tmp_path, rc == 0) < 0)
            rc = -1;
    } else {
        report_nomem("comparing", a->a);
    }
    diff_report_free(&rp);
    return rc;
}

int cmd_diff(int argc, char **argv)
{
    diff_args a;
    if (parse_diff_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    run runs[2];
    memset(runs, 0, sizeof runs);
    int rc = load_run(&a, a.a, &runs[0]);
    if (rc != EXIT_USAGE) {
        int rc2 = load_run(&a, a.c.input, &runs[1]);
        rc = rc2 == EXIT_USAGE ? rc2 : rc > rc2 ? rc : rc2;
    }
    if (rc != EXIT_USAGE && compare(&a, runs) < 0)
        rc = EXIT_USAGE;
    free_run(&runs[0]);
    free_run(&runs[1]);
    return rc;
}
