/*
 * cmd_stats.c — `tlv stats`: converts a log and reports, per resource and
 * state, the time spent, the count of intervals and their min/mean/max
 * duration, and per processor its utilization over the trace and over
 * fixed windows; as text tables or JSON. The numbers come from libtlv
 * (tlv_stats_compute), the same the viewer's load tracks draw.
 */
#include "cli/cli.h"
#include "cli/stats_calls.h"
#include "cli/stats_instances.h"
#include "cli/stats_table.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char stats_help[] =
    "usage: tlv stats [-R DIR]... -r FILE.res [--window T] [--json] [-o OUT] LOG|-\n"
    "\n"
    "Converts LOG (or reads a standard-form trace) and reports:\n"
    " - per resource (named by its row label when it has one) and per value of\n"
    "   its \"state\" attribute: the number of intervals in that state, their\n"
    "   total, min, mean and max duration (the initial value counts from the\n"
    "   trace start, the last interval runs to the trace end; zero-length\n"
    "   intervals are left out);\n"
    " - per processor, its utilization: the time some resource on it was running\n"
    "   (state=RUNNING), over the trace span, and per window with --window. The\n"
    "   processor of a resource is its prcId attribute when some resource has one\n"
    "   (TOPPERS/FMP); otherwise the whole trace is one processor, \"CPU\" (when\n"
    "   nothing ever runs either, as in strace or ltrace traces, a one-line note\n"
    "   replaces the table);\n"
    " - per counter attribute (\"Counter\": true in the resource header) of each\n"
    "   resource: its samples, min, max, mean and time-weighted mean;\n"
    " - calls, when resources have \"enter\" and \"leave\" behaviors (strace,\n"
    "   uftrace): per name, the calls, error returns, total and self time (self\n"
    "   leaves nested calls out), like strace -c or a profiler;\n"
    " - resources whose \"state\" is \"live\" at the end (ltrace heap blocks:\n"
    "   leaks), with their \"size\", \"by\" and \"owner\";\n"
    " - the row labels the events gave (\"LabelAttribute\").\n"
    "Times are in the resource file's TimeScale; those of a clock or wall-clock trace\n"
    "(strace, perf: docs/reference.md's TimeMode) count from its start in the text\n"
    "(--json gives them as the log wrote them). No visualization rules needed.\n"
    "\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "      --attribute NAME      report the values of NAME instead of \"state\"\n"
    "      --window T            utilization per window of T time units as well\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --running ATTR=VALUE  what running means (default state=RUNNING)\n"
    "      --json                one JSON object instead of text tables\n"
    "  -o, --output OUT          write to OUT instead of standard output\n"
    "\n"
    "      --instances           instead: per actor, kind and name, the instances'\n"
    "                            count and response times (min, p50, p90, p99, max,\n"
    "                            mean, stddev, the longest execution time, the\n"
    "                            preemptions, where the worst began). Kinds: response\n"
    "                            (activation to completion), latency (wake-up to\n"
    "                            running), call (entry to return) and those the\n"
    "                            resource headers declare (\"Instances\"); see\n"
    "                            docs/timing.md\n"
    "      --kind KIND           only instances of KIND\n"
    "      --ready LIST          the ready values, comma-separated (default\n"
    "                            RUNNABLE,READY,PREEMPTED)\n"
    "\n"
    "Exit status: 0 ok; 1 written, but some lines had conversion errors; 2 bad\n"
    "usage, unreadable input or rule files with errors.\n";

#define MAX_WINDOWS 1000000

typedef struct stats_args {
    common_args c;          /* -R, -r, --allow-scripts, -o, --cpu-attribute, LOG */
    tlv_stats_options o;
    char running_attr[256];
    double window;          /* 0: none */
    int json;
    int instances;          /* --instances */
    const char *kind;       /* --kind, or NULL */
    const char *ready;      /* --ready, or NULL */
} stats_args;

/* ---- arguments -------------------------------------------------------------------- */

static int parse_running(stats_args *a, const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s || !eq[1] || (size_t)(eq - s) >= sizeof a->running_attr) {
        usage_error("stats", "--running needs ATTR=VALUE, not '%s'", s);
        return -1;
    }
    memcpy(a->running_attr, s, (size_t)(eq - s));
    a->running_attr[eq - s] = '\0';
    a->o.running_attribute = a->running_attr;
    a->o.running_value = eq + 1;
    return 0;
}

static int parse_window(stats_args *a, const char *s)
{
    char *end;
    a->window = strtod(s, &end);
    if (*end || !(a->window > 0) || !isfinite(a->window)) {
        usage_error("stats", "--window needs a positive number of time units, not '%s'", s);
        return -1;
    }
    return 0;
}

/* stats' own options. */
static int stats_option(void *own, int argc, char **argv, int *i)
{
    stats_args *a = own;
    const char *s = argv[*i];
    int has_value = *i + 1 < argc;
    if (strcmp(s, "--attribute") == 0 && has_value)
        a->o.attribute = argv[++*i];
    else if (strcmp(s, "--running") == 0 && has_value)
        return parse_running(a, argv[++*i]) < 0 ? -1 : 1;
    else if (strcmp(s, "--window") == 0 && has_value)
        return parse_window(a, argv[++*i]) < 0 ? -1 : 1;
    else if (strcmp(s, "--json") == 0)
        a->json = 1;
    else if (strcmp(s, "--instances") == 0)
        a->instances = 1;
    else if (strcmp(s, "--kind") == 0 && has_value)
        a->kind = argv[++*i];
    else if (strcmp(s, "--ready") == 0 && has_value)
        a->ready = argv[++*i];
    else
        return 0;
    return 1;
}

/* stats's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option stats_own[] = {
    {"attribute", 0, "NAME"},
    {"running", 0, "ATTR=VALUE"},
    {"window", 0, "T"},
    {"json", 0, NULL},
    {"instances", 0, NULL},
    {"kind", 0, "KIND"},
    {"ready", 0, "LIST"},
    {NULL, 0, NULL},
};

const command_options stats_options = {
    "stats", stats_help, NULL,
    OPT_RULES | OPT_UNMATCHED | OPT_CACHE | OPT_OUTPUT | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    stats_own, stats_option, NULL};

static int parse_stats_args(stats_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->o.attribute = "state";
    a->o.running_attribute = "state";
    a->o.running_value = "RUNNING";
    if (parse_options(&stats_options, &a->c, a, argc, argv) < 0 ||
        need_resource_file("stats", &a->c) < 0 || need_input("stats", &a->c) < 0)
        return -1;
    a->o.cpu_attribute = a->c.cpu_attribute;
    return 0;
}

/* ---- windows ---------------------------------------------------------------------- */

typedef struct span {
    double from, to;
} span;

static size_t window_count(const tlv_stats *s, double window)
{
    double start = tlv_stats_start(s), end = tlv_stats_end(s);
    if (!(window > 0) || !(end > start))
        return 0;
    double n = ceil((end - start) / window);
    return n > MAX_WINDOWS ? MAX_WINDOWS + 1 : (size_t)n;
}

/* Window k: [start + k * window, that + window], the last cut at the end. */
static span window_at(const tlv_stats *s, double window, size_t k)
{
    double start = tlv_stats_start(s), end = tlv_stats_end(s);
    span w = {start + (double)k * window, start + (double)(k + 1) * window};
    if (w.to > end)
        w.to = end;
    return w;
}

static double span_of(const tlv_stats *s)
{
    return tlv_stats_end(s) - tlv_stats_start(s);
}

static tlv_cpu_stat cpu_at(const tlv_stats *s, size_t c)
{
    tlv_cpu_stat cpu;
    tlv_stats_cpu(s, c, &cpu);
    return cpu;
}

static double share(double busy, double length)
{
    return length > 0 ? busy / length : 0;
}

/* ---- text ------------------------------------------------------------------------- */

/* A number for people: up to 3 decimals, no trailing zeros. Past 2^53 a
 * double no longer holds every integer, so its 17 significant digits are
 * printed as such (1.8446744073709552e+19) rather than as a wrong exact
 * integer. */
static const char *num(char *buf, size_t size, double x)
{
    if (fabs(x) >= 9007199254740992.0) {
        snprintf(buf, size, "%.17g", x);
        return buf;
    }
    snprintf(buf, size, "%.3f", x);
    char *dot = strchr(buf, '.');
    if (dot) {
        char *end = buf + strlen(buf);
        while (end > dot && (end[-1] == '0' || end[-1] == '.'))
            *--end = '\0';
    }
    if (strcmp(buf, "-0") == 0)
        strcpy(buf, "0");
    return buf;
}

#define MAX_COLS 64
/* struct table and CELL: stats_table.h */

static char *cell(table *t, size_t row, size_t col)
{
    return t->cells[row * t->ncols + col];
}

/* Rows that could not be added (no memory): a table printed short of them
 * must not pass for the statistics (write_stats compares before and after). */
static unsigned long table_failures;

static int add_row(table *t)
{
    if (t->nrows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        void *c = realloc(t->cells, cap * t->ncols * CELL);
        if (!c) {
            table_failures++;
            return -1;
        }
        t->cells = c;
        t->cap = cap;
    }
    memset(cell(t, t->nrows, 0), 0, t->ncols * CELL);
    return (int)t->nrows++;
}

static void print_table(FILE *out, table *t)
{
    size_t width[MAX_COLS] = {0};
    for (size_t r = 0; r < t->nrows; r++)
        for (size_t c = 0; c < t->ncols; c++)
            if (strlen(cell(t, r, c)) > width[c])
                width[c] = strlen(cell(t, r, c));
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t c = 0; c < t->ncols; c++) {
            int w = (int)width[c];
            if (c + 1 == t->ncols && c < t->left)
                fputs(cell(t, r, c), out); /* no trailing blanks */
            else
                fprintf(out, c < t->left ? "%-*s" : "%*s", w, cell(t, r, c));
            fputs(c + 1 < t->ncols ? "  " : "\n", out);
        }
    }
    free(t->cells);
    t->cells = NULL;
    t->nrows = t->cap = 0;
}

static void set(table *t, int row, size_t col, const char *text)
{
    snprintf(cell(t, (size_t)row, col), CELL, "%s", text);
}

static void set_num(table *t, int row, size_t col, double x)
{
    num(cell(t, (size_t)row, col), CELL, x);
}

/* The table functions for stats_calls.c (stats_table.h). */
int table_add_row(table *t)
{
    return add_row(t);
}

void table_set(table *t, int row, size_t col, const char *text)
{
    set(t, row, col, text);
}

void table_set_num(table *t, int row, size_t col, double x)
{
    set_num(t, row, col, x);
}

void table_print(FILE *out, table *t)
{
    print_table(out, t);
}

static void set_percent(table *t, int row, size_t col, double fraction)
{
    snprintf(cell(t, (size_t)row, col), CELL, "%.1f%%", fraction * 100);
}

/* The row label of resource `name` (app[1001] rather than T1001), else the
 * name. *cursor walks the resources in trace order, as the states come. */
static const char *resource_label(const tlv_trace *trace, size_t *cursor, const char *name)
{
    size_t n = tlv_trace_resource_count(trace);
    for (size_t tries = 0; tries < n; tries++, *cursor = (*cursor + 1) % n)
        if (strcmp(tlv_trace_resource_name(trace, *cursor), name) == 0) {
            const char *l = tlv_trace_resource_label(trace, *cursor);
            return l && *l ? l : name;
        }
    return name;
}

static void text_states(FILE *out, const stats_args *a, const tlv_rules *rules,
                        const tlv_stats *s, const tlv_trace *trace)
{
    static const char *const head[] = {"resource", "state", "count", "total", "min", "mean",
                                       "max"};
    fprintf(out, "Time in each value of \"%s\" (%s):\n", a->o.attribute,
            tlv_rules_time_scale(rules));
    table t = {NULL, 7, 0, 0, 2};
    int r = add_row(&t);
    for (size_t c = 0; r >= 0 && c < 7; c++)
        set(&t, r, c, head[c]);
    size_t res = 0; /* the states come by resource in trace order: a cursor finds labels */
    for (size_t i = 0; i < tlv_stats_state_count(s) && r >= 0; i++) {
        tlv_state_stat st;
        tlv_stats_state(s, i, &st);
        if ((r = add_row(&t)) < 0)
            break;
        set(&t, r, 0, resource_label(trace, &res, st.resource));
        set(&t, r, 1, st.state);
        set_num(&t, r, 2, (double)st.count);
        set_num(&t, r, 3, st.total);
        set_num(&t, r, 4, st.min);
        set_num(&t, r, 5, st.total / (double)st.count);
        set_num(&t, r, 6, st.max);
    }
    print_table(out, &t);
}

/* Whether some processor was ever busy. */
static int any_busy(const tlv_stats *s)
{
    for (size_t c = 0; c < tlv_stats_cpu_count(s); c++)
        if (cpu_at(s, c).intervals)
            return 1;
    return 0;
}

/* Where the text's times count from: a clock or wall-clock trace's (strace's
 * 16-digit epochs, perf's seconds since boot) from its start, as the viewer
 * shows them; a plain trace's as they are. */
static double text_origin(const tlv_stats *s, const tlv_trace *trace)
{
    return tlv_trace_time_mode(trace) == TLV_TIME_PLAIN ? 0 : tlv_stats_start(s);
}

static void text_cpus(FILE *out, const stats_args *a, const tlv_rules *rules,
                      const tlv_stats *s, double origin)
{
    char from[64], to[64];
    const char *cpu_attr = tlv_stats_cpu_attribute(s);
    if (!cpu_attr && !any_busy(s)) {
        /* strace, uftrace, ltrace: no processors and nothing running, so no
         * table of one "CPU" at 0% */
        fprintf(out, "\nCPU utilization: no resource was ever %s=%s, and none has a processor.\n",
                a->o.running_attribute, a->o.running_value);
        return;
    }
    fprintf(out, "\nCPU utilization from %s to %s %s%s (running: %s=%s; %s%s):\n",
            num(from, sizeof from, tlv_stats_start(s) - origin),
            num(to, sizeof to, tlv_stats_end(s) - origin), tlv_rules_time_scale(rules),
            origin != 0 ? " after the trace's start" : "", a->o.running_attribute,
            a->o.running_value,
            cpu_attr ? "processors by " : "one processor", cpu_attr ? cpu_attr : "");
    table t = {NULL, 3, 0, 0, 1};
    int r = add_row(&t);
    if (r >= 0) {
        set(&t, r, 0, "processor");
        set(&t, r, 1, "busy");
        set(&t, r, 2, "utilization");
    }
    for (size_t c = 0; c < tlv_stats_cpu_count(s) && r >= 0; c++) {
        tlv_cpu_stat cpu = cpu_at(s, c);
        if ((r = add_row(&t)) < 0)
            break;
        set(&t, r, 0, cpu.name);
        set_num(&t, r, 1, cpu.busy);
        set_percent(&t, r, 2, share(cpu.busy, span_of(s)));
    }
    print_table(out, &t);
}

static void text_windows(FILE *out, const stats_args *a, const tlv_rules *rules,
                         const tlv_stats *s, size_t nwin, double origin)
{
    char w[64];
    size_t ncpus = tlv_stats_cpu_count(s);
    fprintf(out, "\nCPU utilization per window of %s %s:\n", num(w, sizeof w, a->window),
            tlv_rules_time_scale(rules));
    size_t ncols = ncpus + 2 < MAX_COLS ? ncpus + 2 : MAX_COLS;
    table t = {NULL, ncols, 0, 0, 0};
    int r = add_row(&t);
    if (r >= 0) {
        set(&t, r, 0, "from");
        set(&t, r, 1, "to");
        for (size_t c = 2; c < ncols; c++)
            set(&t, r, c, cpu_at(s, c - 2).name);
    }
    for (size_t k = 0; k < nwin && r >= 0; k++) {
        span win = window_at(s, a->window, k);
        if ((r = add_row(&t)) < 0)
            break;
        set_num(&t, r, 0, win.from - origin);
        set_num(&t, r, 1, win.to - origin);
        for (size_t c = 2; c < ncols; c++)
            set_percent(&t, r, c, share(tlv_stats_busy_in(s, c - 2, win.from, win.to),
                                        win.to - win.from));
    }
    print_table(out, &t);
}

/* Counter attributes (tlv/counters.h): only when the rule set declares some. */
static void text_counters(FILE *out, const tlv_rules *rules, const tlv_counters *cs,
                          const tlv_trace *trace)
{
    static const char *const head[] = {"resource", "counter", "samples", "min", "max", "mean",
                                       "time-weighted mean"};
    if (!tlv_counters_count(cs))
        return;
    fprintf(out, "\nCounters (time-weighted over the trace, in %s):\n",
            tlv_rules_time_scale(rules));
    table t = {NULL, 7, 0, 0, 2};
    int r = add_row(&t);
    for (size_t c = 0; r >= 0 && c < 7; c++)
        set(&t, r, c, head[c]);
    size_t res = 0;
    for (size_t i = 0; i < tlv_counters_count(cs) && r >= 0; i++) {
        tlv_counter_info in;
        tlv_counters_get(cs, i, &in);
        if ((r = add_row(&t)) < 0)
            break;
        set(&t, r, 0, resource_label(trace, &res, in.resource));
        set(&t, r, 1, in.attribute);
        set_num(&t, r, 2, (double)in.nsamples);
        for (size_t c = 3; c < 7 && !in.nsamples; c++)
            set(&t, r, c, "-");
        if (!in.nsamples)
            continue;
        set_num(&t, r, 3, in.min);
        set_num(&t, r, 4, in.max);
        set_num(&t, r, 5, in.mean);
        set_num(&t, r, 6, in.time_mean);
    }
    print_table(out, &t);
}

/* ---- JSON ------------------------------------------------------------------------- */

static cJSON *json_counters(const tlv_counters *cs)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < tlv_counters_count(cs); i++) {
        tlv_counter_info in;
        tlv_counters_get(cs, i, &in);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "resource", in.resource);
        cJSON_AddStringToObject(o, "counter", in.attribute);
        cJSON_AddNumberToObject(o, "samples", (double)in.nsamples);
        cJSON_AddNumberToObject(o, "skipped", (double)in.skipped);
        if (in.nsamples) {
            cJSON_AddNumberToObject(o, "min", in.min);
            cJSON_AddNumberToObject(o, "max", in.max);
            cJSON_AddNumberToObject(o, "mean", in.mean);
            cJSON_AddNumberToObject(o, "timeWeightedMean", in.time_mean);
        }
        json_push(arr, o);
    }
    return arr;
}

static cJSON *json_states(const tlv_stats *s, const tlv_trace *trace)
{
    cJSON *arr = cJSON_CreateArray();
    size_t res = 0;
    for (size_t i = 0; i < tlv_stats_state_count(s); i++) {
        tlv_state_stat st;
        tlv_stats_state(s, i, &st);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "resource", st.resource);
        cJSON_AddStringToObject(o, "label", resource_label(trace, &res, st.resource));
        cJSON_AddStringToObject(o, "state", st.state);
        cJSON_AddNumberToObject(o, "count", (double)st.count);
        cJSON_AddNumberToObject(o, "total", st.total);
        cJSON_AddNumberToObject(o, "min", st.min);
        cJSON_AddNumberToObject(o, "mean", st.total / (double)st.count);
        cJSON_AddNumberToObject(o, "max", st.max);
        json_push(arr, o);
    }
    return arr;
}

static cJSON *json_busy(const char *name, double busy, double length)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "processor", name);
    cJSON_AddNumberToObject(o, "busy", busy);
    cJSON_AddNumberToObject(o, "utilization", share(busy, length));
    return o;
}

static cJSON *json_windows(const stats_args *a, const tlv_stats *s, size_t nwin)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t k = 0; k < nwin; k++) {
        span win = window_at(s, a->window, k);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "from", win.from);
        cJSON_AddNumberToObject(o, "to", win.to);
        cJSON *cpus = cJSON_AddArrayToObject(o, "processors");
        for (size_t c = 0; c < tlv_stats_cpu_count(s); c++)
            json_push(cpus, json_busy(cpu_at(s, c).name,
                                                 tlv_stats_busy_in(s, c, win.from, win.to),
                                                 win.to - win.from));
        json_push(arr, o);
    }
    return arr;
}

static cJSON *json_cpus(const stats_args *a, const tlv_stats *s, size_t nwin)
{
    cJSON *o = cJSON_CreateObject();
    const char *cpu_attr = tlv_stats_cpu_attribute(s);
    json_put(o, "attribute",
                          cpu_attr ? cJSON_CreateString(cpu_attr) : cJSON_CreateNull());
    cJSON *run = cJSON_AddObjectToObject(o, "running");
    cJSON_AddStringToObject(run, "attribute", a->o.running_attribute);
    cJSON_AddStringToObject(run, "value", a->o.running_value);
    cJSON *cpus = cJSON_AddArrayToObject(o, "processors");
    for (size_t c = 0; c < tlv_stats_cpu_count(s); c++)
        json_push(cpus, json_busy(cpu_at(s, c).name, cpu_at(s, c).busy, span_of(s)));
    if (nwin) {
        cJSON_AddNumberToObject(o, "window", a->window);
        json_put(o, "windows", json_windows(a, s, nwin));
    }
    return o;
}

static int write_json(FILE *out, const stats_args *a, const tlv_rules *rules,
                      const tlv_stats *s, const tlv_counters *cs, size_t nwin,
                      const call_stats *calls, const tlv_trace *trace)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "timeScale", tlv_rules_time_scale(rules));
    cJSON_AddNumberToObject(o, "start", tlv_stats_start(s));
    cJSON_AddNumberToObject(o, "end", tlv_stats_end(s));
    cJSON_AddStringToObject(o, "attribute", a->o.attribute);
    json_put(o, "states", json_states(s, trace));
    json_put(o, "cpu", json_cpus(a, s, nwin));
    if (tlv_counters_count(cs))
        json_put(o, "counters", json_counters(cs));
    if (calls)
        call_stats_json(o, calls, trace);
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return -1;
    fprintf(out, "%s\n", text);
    free(text);
    return 0;
}

/* ---- the command ------------------------------------------------------------------ */

static int write_stats(const stats_args *a, const tlv_rules *rules, const tlv_stats *s,
                       const tlv_counters *cs, const tlv_trace *trace)
{
    size_t nwin = window_count(s, a->window);
    if (nwin > MAX_WINDOWS) {
        usage_error("stats", "--window %g makes more than %d windows", a->window, MAX_WINDOWS);
        return -1;
    }
    char *tmp_path;
    FILE *out = open_output(a->c.output, &tmp_path);
    remove_tmp_on_signals(tmp_path);
    if (!out)
        return -1;
    int rc = 0;
    unsigned long json_failures = json_alloc_failures(), tables_short = table_failures;
    call_stats calls;
    int have_calls = call_stats_compute(trace, tlv_rules_time_radix(rules), &calls) == 0;
    if (!have_calls) /* it fails only for memory */
        rc = (report_nomem("computing the calls of", a->c.input), -1);
    else if (a->json) {
        rc = write_json(out, a, rules, s, cs, nwin, have_calls ? &calls : NULL, trace);
    } else {
        text_states(out, a, rules, s, trace);
        text_cpus(out, a, rules, s, text_origin(s, trace));
        if (nwin && (tlv_stats_cpu_attribute(s) || any_busy(s)))
            text_windows(out, a, rules, s, nwin, text_origin(s, trace));
        if (have_calls)
            call_stats_print(out, &calls, trace, tlv_rules_time_scale(rules));
        text_counters(out, rules, cs, trace);
    }
    call_stats_free(&calls);
    if (json_alloc_failures() != json_failures || table_failures != tables_short) { /* left out */
        report_nomem("writing the statistics of", a->c.input);
        rc = -1;
    }
    if (close_output(out, a->c.output, tmp_path, rc == 0) < 0)
        rc = -1;
    return rc;
}

/* --instances: the instances report instead of the statistics. */
static int stats_instances(const stats_args *a, const tlv_rules *rules, const tlv_trace *trace)
{
    tlv_instances_options o = TLV_INSTANCES_OPTIONS_INIT;
    o.state_attribute = a->o.attribute;
    o.running_value = a->o.running_value;
    o.ready_values = a->ready;
    o.cpu_attribute = a->c.cpu_attribute;
    tlv_instances *in;
    tlv_status st = tlv_instances_compute(trace, &o, &in);
    if (st == TLV_ERR_NOMEM)
        return report_nomem("finding the instances of", a->c.input);
    if (st != TLV_OK) {
        fprintf(stderr, "%s stats: %s\n", prog, tlv_trace_last_error(trace));
        return EXIT_USAGE;
    }
    char *tmp_path;
    FILE *out = open_output(a->c.output, &tmp_path);
    remove_tmp_on_signals(tmp_path);
    int rc = out ? 0 : -1;
    unsigned long json_failures = json_alloc_failures();
    if (out && instances_report(out, in, rules, a->kind, a->json) < 0)
        rc = -1;
    if (out && json_alloc_failures() != json_failures) {
        report_nomem("writing the instances of", a->c.input);
        rc = -1;
    }
    if (out && close_output(out, a->c.output, tmp_path, rc == 0) < 0)
        rc = -1;
    tlv_instances_free(in);
    return rc < 0 ? EXIT_USAGE : EXIT_OK;
}

int cmd_stats(int argc, char **argv)
{
    stats_args a;
    if (parse_stats_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    tlv_rules *rules;
    tlv_trace *trace;
    int rc = load_trace(&a.c.rules, a.c.input, &rules, &trace);
    if (rc != EXIT_USAGE && a.instances) {
        int irc = stats_instances(&a, rules, trace);
        rc = irc == EXIT_OK ? rc : irc;
    } else if (rc != EXIT_USAGE) {
        tlv_stats *s;
        tlv_counters *cs = NULL;
        tlv_status st = tlv_stats_compute(trace, &a.o, &s);
        if (st == TLV_OK)
            st = tlv_counters_compute(trace, &cs);
        if (st == TLV_ERR_NOMEM) {
            rc = report_nomem("computing the statistics of", a.c.input);
        } else if (st != TLV_OK) {
            fprintf(stderr, "%s stats: %s\n", prog, tlv_status_string(st));
            rc = EXIT_USAGE;
        } else if (write_stats(&a, rules, s, cs, trace) < 0) {
            rc = EXIT_USAGE;
        }
        tlv_counters_free(cs);
        tlv_stats_free(s);
    }
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}
