/*
 * cmd_diff.c — `tlv diff A B`: two runs of one program (two logs, one
 * resource file) compared. Per actor and state, the time and count in each
 * run and the change; per actor and instance kind, the response-time
 * percentiles side by side and the change of the worst; the actors of one
 * run only. Rows pair by common/pairing.c's keys (a thread's label without
 * its ids), tables sort by the largest change; text, CSV or JSON. The
 * numbers are libtlv's (tlv_stats, tlv_instances), as tlv stats prints them.
 */
#include "cli/cli.h"
#include "cli/stats_table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
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

/* One run: its trace, statistics, instances and pairing keys. */
typedef struct run {
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_stats *stats;
    tlv_instances *inst;
    char **keys;
    size_t nres;
    unsigned char *present;   /* per resource: some event names it */
} run;

/* A row of either table: one key in A, B or both. */
typedef struct row {
    const char *key;          /* the actor's pairing key */
    const char *what;         /* the state, or the instance kind */
    const char *name;         /* the instance's name ("" for states) */
    int in[2];                /* present in A, in B */
    size_t count[2];
    double value[2];          /* time in the state, or the longest response */
    double p50[2], p90[2], p99[2];
    double exec[2];           /* the mean execution time; -1 when unknown */
    double key_value[2];      /* what the table sorts and the change is of */
} row;

typedef struct rows {
    row *v;
    size_t n, cap;
} rows;

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
    pairing_keys_free(r->keys, r->nres);
    free(r->present);
    tlv_instances_free(r->inst);
    tlv_stats_free(r->stats);
    tlv_trace_free(r->trace);
    tlv_rules_free(r->rules);
}

/* Loads one log; returns as load_trace, or EXIT_USAGE. */
static int load_run(const diff_args *a, const char *log, run *r)
{
    memset(r, 0, sizeof *r);
    int rc = load_trace(&a->c.rules, log, &r->rules, &r->trace);
    if (rc == EXIT_USAGE)
        return rc;
    tlv_stats_options so = TLV_STATS_OPTIONS_INIT;
    so.cpu_attribute = a->c.cpu_attribute;
    tlv_instances_options io = TLV_INSTANCES_OPTIONS_INIT;
    io.ready_values = a->ready;
    io.cpu_attribute = a->c.cpu_attribute;
    r->nres = tlv_trace_resource_count(r->trace);
    r->keys = pairing_keys(r->trace, a->by_name);
    r->present = calloc(r->nres + 1, 1);
    if (!r->keys || !r->present || tlv_stats_compute(r->trace, &so, &r->stats) != TLV_OK ||
        tlv_instances_compute(r->trace, &io, &r->inst) != TLV_OK)
        return report_nomem("comparing", log);
    size_t nev = tlv_trace_event_count(r->trace);
    for (size_t i = 0, k = 0; i < nev; i++) { /* a cursor: events of one resource come in runs */
        tlv_event e;
        tlv_trace_event(r->trace, i, &e);
        if (k < r->nres && tlv_trace_resource_name(r->trace, k) == e.resource) {
            r->present[k] = 1;
            continue;
        }
        for (k = 0; k < r->nres && tlv_trace_resource_name(r->trace, k) != e.resource; k++)
            ;
        if (k < r->nres)
            r->present[k] = 1;
    }
    return rc;
}

/* The key of the resource named `name` in run r. */
static const char *key_of(const run *r, const char *name)
{
    for (size_t k = 0; k < r->nres; k++)
        if (strcmp(tlv_trace_resource_name(r->trace, k), name) == 0)
            return r->keys[k];
    return name;
}

/* ---- rows --------------------------------------------------------------------------- */

static row *find_row(rows *t, const char *key, const char *what, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i].key, key) == 0 && strcmp(t->v[i].what, what) == 0 &&
            strcmp(t->v[i].name, name) == 0)
            return &t->v[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        row *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return NULL;
        t->v = v;
        t->cap = cap;
    }
    row *r = &t->v[t->n++];
    memset(r, 0, sizeof *r);
    r->key = key;
    r->what = what;
    r->name = name;
    return r;
}

static int add_states(rows *t, const run *r, int side)
{
    for (size_t i = 0; i < tlv_stats_state_count(r->stats); i++) {
        tlv_state_stat st;
        tlv_stats_state(r->stats, i, &st);
        row *w = find_row(t, key_of(r, st.resource), st.state, "");
        if (!w)
            return -1;
        w->in[side] = 1;
        w->count[side] = st.count;
        w->value[side] = w->key_value[side] = st.total;
    }
    return 0;
}

static int add_instances(rows *t, const run *r, int side, const char *kind, const char *sort)
{
    for (size_t g = 0; g < tlv_instances_group_count(r->inst); g++) {
        tlv_instance_group gr;
        tlv_instances_group(r->inst, g, &gr);
        if (!gr.count || (kind && strcmp(gr.kind, kind) != 0))
            continue;
        row *w = find_row(t, key_of(r, gr.resource), gr.kind, gr.name);
        if (!w)
            return -1;
        w->in[side] = 1;
        w->count[side] = gr.count;
        w->value[side] = gr.max;
        w->p50[side] = gr.p50;
        w->p90[side] = gr.p90;
        w->p99[side] = gr.p99;
        w->exec[side] = gr.execution_mean;
        w->key_value[side] = strcmp(sort, "p50") == 0   ? gr.p50
                             : strcmp(sort, "p90") == 0 ? gr.p90
                             : strcmp(sort, "p99") == 0 ? gr.p99
                             : strcmp(sort, "exec") == 0 ? (gr.execution_mean >= 0 ? gr.execution_mean : 0)
                                                         : gr.max;
    }
    return 0;
}

static double change(const row *r) { return r->key_value[1] - r->key_value[0]; }

static int by_change(const void *x, const void *y)
{
    const row *a = x, *b = y;
    double ca = fabs(change(a)), cb = fabs(change(b));
    if (ca != cb)
        return ca > cb ? -1 : 1;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    c = strcmp(a->what, b->what);
    return c ? c : strcmp(a->name, b->name);
}

static size_t shown(const diff_args *a, const rows *t)
{
    return a->top && a->top < t->n ? a->top : t->n;
}

/* The change in percent of A's value, as text: "+50.0%", "new", "gone". */
static const char *percent(const row *r, char *b, size_t size)
{
    if (!r->in[0] || r->key_value[0] == 0)
        snprintf(b, size, "%s", !r->in[0] ? "new" : change(r) == 0 ? "0.0%" : "new");
    else if (!r->in[1])
        snprintf(b, size, "gone");
    else
        snprintf(b, size, "%+.1f%%", 100 * change(r) / r->key_value[0]);
    return b;
}

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

/* The keys of resources present in one run and absent from the other. */
static size_t only_in(const run *r, const run *other, const char **out)
{
    size_t n = 0;
    for (size_t k = 0; k < r->nres; k++) {
        if (!r->present[k])
            continue;
        int found = 0;
        for (size_t q = 0; q < other->nres && !found; q++)
            found = other->present[q] && strcmp(other->keys[q], r->keys[k]) == 0;
        if (!found)
            out[n++] = r->keys[k];
    }
    return n;
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

typedef struct report {
    rows states, inst;
    const char **only[2];
    size_t nonly[2];
} report;

static int write_report(FILE *out, const diff_args *a, const run *runs, const report *rp)
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
    report rp;
    memset(&rp, 0, sizeof rp);
    int rc = 0;
    for (int s = 0; s < 2 && rc == 0; s++) {
        rp.only[s] = malloc((runs[s].nres + 1) * sizeof *rp.only[s]);
        if (!rp.only[s] || add_states(&rp.states, &runs[s], s) < 0 ||
            add_instances(&rp.inst, &runs[s], s, a->kind, a->sort) < 0)
            rc = -1;
        else
            rp.nonly[s] = only_in(&runs[s], &runs[1 - s], rp.only[s]);
    }
    if (rc == 0) {
        if (rp.states.n > 1)
            qsort(rp.states.v, rp.states.n, sizeof *rp.states.v, by_change);
        if (rp.inst.n > 1)
            qsort(rp.inst.v, rp.inst.n, sizeof *rp.inst.v, by_change);
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
    free(rp.states.v);
    free(rp.inst.v);
    free(rp.only[0]);
    free(rp.only[1]);
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
