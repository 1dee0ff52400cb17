/*
 * cmd_export.c — `tlv export`: the drawn trace for other tools. The shapes
 * one event draws over one interval (a bar and its label) are one interval
 * here. --format chrome writes Chrome Trace Event JSON, which Perfetto UI and
 * chrome://tracing open: a complete event per interval, an instant event per
 * When event or zero-length interval, a thread per row and a process per
 * group of rows (resource type), sorted as tlv sorts them, a counter track
 * per counter attribute and flow events for flow rules' arrows. --format csv writes one RFC 4180 row per
 * interval; --format sqlite a database (export_sqlite.c).
 */
#include "cli/cli.h"
#include "cli/export.h"
#include "cli/json_line.h"
#include "cli/ordered_write.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char export_help[] =
    "usage: tlv export [--format chrome|csv|sqlite] [-R DIR]... -r FILE.res [-o OUT] [--per-cpu]\n"
    "                  [--session FILE] [--allow-scripts] LOG|-\n"
    "\n"
    "Converts LOG (or reads a standard-form trace), applies the visualization rules\n"
    "and writes the result for other tools. The primitives one rule event draws\n"
    "over one time interval (a bar and its label) make one interval.\n"
    "\n"
    "  -f, --format chrome       Chrome Trace Event JSON (the default), for Perfetto UI\n"
    "                            (ui.perfetto.dev) and chrome://tracing: a complete\n"
    "                            event (\"X\") per interval, an instant event (\"i\") per\n"
    "                            When event or zero-length interval, named by the\n"
    "                            interval's text or value; a thread per row (a row\n"
    "                            whose intervals overlap without nesting gets extra\n"
    "                            threads \"ROW (2)\"...), a process per row group\n"
    "                            (resource type, or processor with --per-cpu), in\n"
    "                            tlv's row order (sort_index metadata); a counter\n"
    "                            track (\"C\") per counter attribute; flow events\n"
    "                            (\"s\"/\"f\") for flow rules' arrows; times\n"
    "                            in microseconds from the resource file's TimeScale\n"
    "  -f, --format csv          one row per interval: rule,event,resource,start,end,\n"
    "                            duration,value (trace time units; value is the text\n"
    "                            drawn, else what the event that opened the interval\n"
    "                            carried: the value it set, or its arguments joined\n"
    "                            with commas); RFC 4180 (CRLF, quoted when needed)\n"
    "  -f, --format sqlite       a SQLite database (needs -o FILE): resources, events,\n"
    "                            rows, intervals, counters and their samples, flows,\n"
    "                            markers (with --session); schema in docs/sql.md;\n"
    "                            query it with 'tlv query FILE SQL' or any SQLite tool\n"
    "      --session FILE        sqlite: the markers of this 'tlv view' session file\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    "  -o, --output OUT          write to OUT instead of standard output\n"
    "      --per-cpu             add a row per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --us-per-unit X       microseconds per trace time unit (needed when the\n"
    "                            TimeScale is not s, ms, us or ns; 1 otherwise)\n"
    "\n"
    "Exit status: 0 ok; 1 written, but some lines or rules had errors; 2 bad usage,\n"
    "unreadable input or rule files with errors.\n";

typedef struct export_args {
    common_args c; /* -R, -r, --allow-scripts, -o, --per-cpu, --cpu-attribute, LOG */
    const char *format;
    double us_per_unit; /* 0: from the TimeScale */
    const char *session; /* sqlite: markers from this session file */
} export_args;

/* ---- arguments -------------------------------------------------------------------- */

/* export's own options. */
static int export_option(void *own, int argc, char **argv, int *i)
{
    export_args *a = own;
    const char *s = argv[*i];
    if ((strcmp(s, "-f") == 0 || strcmp(s, "--format") == 0) && *i + 1 < argc) {
        a->format = argv[++*i];
    } else if (strncmp(s, "--format=", 9) == 0) {
        a->format = s + 9;
    } else if (strcmp(s, "--session") == 0 && *i + 1 < argc) {
        a->session = argv[++*i];
    } else if (strcmp(s, "--us-per-unit") == 0 && *i + 1 < argc) {
        char *end;
        a->us_per_unit = strtod(argv[++*i], &end);
        /* At most 1e15 microseconds (31 years) a unit, so that no 64-bit time
         * becomes an infinite "ts" (cJSON writes it as null). */
        if (*end || !(a->us_per_unit > 0) || !(a->us_per_unit <= 1e15)) {
            usage_error("export", "--us-per-unit needs a positive number up to 1e15, not '%s'",
                        argv[*i]);
            return -1;
        }
    } else {
        return 0;
    }
    return 1;
}

static int parse_export_args(export_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->format = "chrome";
    if (parse_common_args("export", export_help, OPT_OUTPUT | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
                          &a->c, export_option, a, argc, argv) < 0)
        return -1;
    if (strcmp(a->format, "chrome") != 0 && strcmp(a->format, "csv") != 0 &&
        strcmp(a->format, "sqlite") != 0) {
        usage_error("export", "unknown format '%s' (chrome, csv or sqlite)", a->format);
        return -1;
    }
    if (strcmp(a->format, "sqlite") == 0 && (!a->c.output || strcmp(a->c.output, "-") == 0)) {
        usage_error("export", "--format sqlite writes a database file: give -o FILE");
        return -1;
    }
    if (a->session && strcmp(a->format, "sqlite") != 0) {
        usage_error("export", "--session is for --format sqlite");
        return -1;
    }
    if (need_resource_file("export", &a->c) < 0 || need_input("export", &a->c) < 0)
        return -1;
    return 0;
}

/* ---- CSV -------------------------------------------------------------------------- */

/* RFC 4180: quoted when it holds a comma, a quote or a line end; quotes doubled. */
static void csv_field(FILE *out, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
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

static void write_csv(FILE *out, const interval_list *l, int radix)
{
    fputs("rule,event,resource,start,end,duration,value\r\n", out);
    for (size_t i = 0; i < l->n; i++) {
        const interval *iv = &l->v[i];
        tlv_time end = iv->sh.is_when ? iv->sh.from : iv->sh.to;
        char start_s[160], end_s[160], dur_s[160];
        time_text(iv->sh.from, radix, start_s, sizeof start_s);
        time_text(end, radix, end_s, sizeof end_s);
        span_text(iv->sh.from, end, radix, dur_s, sizeof dur_s);
        csv_field(out, iv->sh.rule);
        fputc(',', out);
        csv_field(out, iv->sh.event);
        fputc(',', out);
        csv_field(out, iv->sh.resource);
        fprintf(out, ",%s,%s,%s,", start_s, end_s, dur_s);
        csv_field(out, iv->text ? iv->text : iv->sh.value);
        fputs("\r\n", out);
    }
}

/* ---- Chrome Trace Event JSON ------------------------------------------------------ */

/* Microseconds per unit of the TimeScale; 0 when it is not a time unit. */
static double us_per_unit(const char *scale)
{
    static const struct {
        const char *name;
        double us;
    } units[] = {{"s", 1e6},  {"ms", 1e3},        {"us", 1},         {"\xc2\xb5s", 1},
                 {"\xce\xbcs", 1}, {"ns", 1e-3}, {"ps", 1e-6}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcmp(scale, units[i].name) == 0)
            return units[i].us;
    return 0;
}

/* Sorts a row's intervals by start, longest first, so enclosing ones come
 * before what they enclose. */
static int by_start_longest_first(const void *pa, const void *pb)
{
    const interval *x = *(interval *const *)pa, *y = *(interval *const *)pb;
    int c = tlv_time_cmp(x->sh.from, y->sh.from);
    if (c)
        return c;
    c = tlv_time_cmp(y->sh.to, x->sh.to);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

/* A lane is a stack of the ends of the intervals open in it. */
typedef struct lane {
    tlv_time *end;
    size_t n, cap;
} lane;

/* Whether iv nests in the lane once the intervals ended before it are
 * popped; pushes it when it does. */
static int lane_take(lane *ln, const interval *iv)
{
    while (ln->n && tlv_time_cmp(ln->end[ln->n - 1], iv->sh.from) <= 0)
        ln->n--;
    if (ln->n && tlv_time_cmp(ln->end[ln->n - 1], iv->sh.to) < 0)
        return 0;
    if (ln->n == ln->cap) {
        size_t cap = ln->cap ? ln->cap * 2 : 8;
        tlv_time *e = realloc(ln->end, cap * sizeof *e);
        if (!e)
            return -1;
        ln->end = e;
        ln->cap = cap;
    }
    ln->end[ln->n++] = iv->sh.to;
    return 1;
}

/* Chrome and Perfetto require the complete events of one thread to nest: a
 * row's intervals that overlap without nesting (a call spanning two states)
 * go to further lanes. Returns the number of lanes used, or -1. */
static long assign_lanes(interval **iv, size_t n)
{
    qsort(iv, n, sizeof *iv, by_start_longest_first);
    lane *lanes = NULL;
    size_t nlanes = 0;
    long rc = 1;
    for (size_t i = 0; i < n && rc > 0; i++) {
        size_t l = 0;
        int took = 0;
        for (; l < nlanes && !took; l++)
            took = lane_take(&lanes[l], iv[i]);
        if (took < 0) {
            rc = -1;
        } else if (took) {
            iv[i]->lane = l - 1;
        } else {
            lane *grown = realloc(lanes, (nlanes + 1) * sizeof *lanes);
            if (!grown) {
                rc = -1;
                break;
            }
            lanes = grown;
            memset(&lanes[nlanes], 0, sizeof *lanes);
            iv[i]->lane = nlanes++;
            rc = lane_take(&lanes[iv[i]->lane], iv[i]) < 0 ? -1 : 1;
        }
    }
    for (size_t l = 0; l < nlanes; l++)
        free(lanes[l].end);
    free(lanes);
    return rc < 0 ? -1 : (long)(nlanes ? nlanes : 1);
}

/* Per row: the first thread id and the number of lanes; per group: its pid. */
typedef struct chrome_layout {
    size_t *first_tid, *nlanes, *pid;
    const char **groups;   /* by pid - 1 */
    size_t ngroups;
    int *used;             /* rows with intervals */
} chrome_layout;

static void layout_free(chrome_layout *c)
{
    free(c->first_tid);
    free(c->nlanes);
    free(c->pid);
    free(c->groups);
    free(c->used);
}

static size_t group_pid(chrome_layout *c, const char *group)
{
    for (size_t g = 0; g < c->ngroups; g++)
        if (same_name(c->groups[g], group))
            return g + 1;
    c->groups[c->ngroups++] = group;
    return c->ngroups;
}

/* The intervals grouped by row (a counting sort): row r's are
 * (*by_row)[start[r] .. start[r + 1]). */
static int bucket_by_row(interval_list *l, size_t nrows, interval ***by_row, size_t **start)
{
    *by_row = malloc((l->n + 1) * sizeof **by_row);
    *start = calloc(nrows + 2, sizeof **start);
    if (!*by_row || !*start)
        return -1;
    for (size_t i = 0; i < l->n; i++)
        (*start)[l->v[i].sh.row + 2]++;
    for (size_t r = 0; r < nrows; r++)
        (*start)[r + 2] += (*start)[r + 1];
    for (size_t i = 0; i < l->n; i++) /* start[r + 1] is row r's next free slot */
        (*by_row)[(*start)[l->v[i].sh.row + 1]++] = &l->v[i];
    return 0;
}

/* Lanes of one row's complete events (its instants go in its first lane). */
static long row_lanes(interval **iv, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_instant(iv[i]))
            iv[k++] = iv[i];
    return assign_lanes(iv, k);
}

static int lay_out_rows(chrome_layout *c, const tlv_shapes *shapes, interval_list *l)
{
    size_t nrows = tlv_shapes_row_count(shapes);
    interval **by_row = NULL;
    size_t *start = NULL;
    c->first_tid = calloc(nrows + 1, sizeof *c->first_tid);
    c->nlanes = calloc(nrows + 1, sizeof *c->nlanes);
    c->pid = calloc(nrows + 1, sizeof *c->pid);
    c->groups = calloc(nrows + 1, sizeof *c->groups);
    c->used = calloc(nrows + 1, sizeof *c->used);
    int rc = bucket_by_row(l, nrows, &by_row, &start) == 0 && c->first_tid && c->nlanes &&
             c->pid && c->groups && c->used ? 0 : -1;
    size_t next_tid = 1;
    for (size_t r = 0; r < nrows && rc == 0; r++) {
        size_t n = start[r + 1] - start[r];
        long lanes = row_lanes(by_row + start[r], n);
        if (lanes < 0)
            rc = -1;
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        c->used[r] = n > 0;
        c->nlanes[r] = (size_t)lanes;
        c->first_tid[r] = next_tid;
        next_tid += n ? (size_t)lanes : 0;
        c->pid[r] = n ? group_pid(c, row.group) : 0;
    }
    free(by_row);
    free(start);
    return rc;
}

/* The elements of the traceEvents array, written with json_line (the bytes
 * of cJSON, without a cJSON tree per event: an export writes millions). */

/* Ends the element in b and writes it, after a comma unless it is the first. */
static int emit(FILE *out, json_line *b, int *first)
{
    if (fputs(*first ? "\n" : ",\n", out) < 0)
        return -1;
    *first = 0;
    return jl_write(b, out);
}

/* "KEY":STRING and "KEY":NUMBER, after a comma unless `first`. */
static void key_string(json_line *b, const char *key, const char *value, int first)
{
    jl_key(b, key, first);
    jl_string(b, value);
}

static void key_number(json_line *b, const char *key, double value, int first)
{
    jl_key(b, key, first);
    jl_number(b, value);
}

/* {"name":NAME,"ph":"M","pid":P,"tid":T,"args":{KEY: */ 
static void metadata_head(json_line *b, const char *name, size_t pid, size_t tid, const char *key)
{
    key_string(b, "name", name, 1);
    key_string(b, "ph", "M", 0);
    key_number(b, "pid", (double)pid, 0);
    key_number(b, "tid", (double)tid, 0);
    jl_raw(b, ",\"args\":");
    jl_key(b, key, 1);
}

static int metadata_string(FILE *out, json_line *b, const char *name, size_t pid, size_t tid,
                           const char *key, const char *value, int *first)
{
    metadata_head(b, name, pid, tid, key);
    jl_string(b, value);
    jl_raw(b, "}}");
    return emit(out, b, first);
}

static int metadata_number(FILE *out, json_line *b, const char *name, size_t pid, size_t tid,
                           const char *key, double value, int *first)
{
    metadata_head(b, name, pid, tid, key);
    jl_number(b, value);
    jl_raw(b, "}}");
    return emit(out, b, first);
}

static int write_metadata(FILE *out, json_line *b, const tlv_shapes *shapes,
                          const chrome_layout *c, int *first)
{
    int rc = 0;
    for (size_t g = 0; g < c->ngroups && rc == 0; g++) {
        const char *name = c->groups[g] ? c->groups[g] : "";
        rc = metadata_string(out, b, "process_name", g + 1, 0, "name", name, first);
        if (rc == 0)
            rc = metadata_number(out, b, "process_sort_index", g + 1, 0, "sort_index", (double)g,
                                 first);
    }
    for (size_t r = 0; r < tlv_shapes_row_count(shapes) && rc == 0; r++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        for (size_t l = 0; c->used[r] && l < c->nlanes[r] && rc == 0; l++) {
            char name[512];
            snprintf(name, sizeof name, l ? "%s (%zu)" : "%s", row.label, l + 1);
            size_t tid = c->first_tid[r] + l;
            rc = metadata_string(out, b, "thread_name", c->pid[r], tid, "name", name, first);
            if (rc == 0)
                rc = metadata_number(out, b, "thread_sort_index", c->pid[r], tid, "sort_index",
                                     (double)tid, first);
        }
    }
    return rc;
}

/* "KEY":STRING for the strings of trace_event, names and texts printed
 * millions of times: escaped once each (jl_memo); KEY is plain. */
static void key_memo(json_line *b, jl_memo *m, const char *key_text, const char *value)
{
    jl_raw(b, key_text);
    jl_string_memo(b, m, value);
}

static void put_trace_event(json_line *b, jl_memo *m, const interval *iv,
                            const chrome_layout *c, double us, int radix)
{
    const tlv_shape_info *sh = &iv->sh;
    /* What a reader looks for: the drawn text, else for an interval the value
     * that opened it (the state), for an instant its event's name. */
    const char *name = iv->text              ? iv->text
                       : sh->value && !sh->is_when ? sh->value
                                                   : sh->event;
    key_memo(b, m, "{\"name\":", name);
    key_memo(b, m, ",\"cat\":", sh->rule);
    double ts = tlv_time_to_double(sh->from, radix) * us;
    if (is_instant(iv)) {
        key_string(b, "ph", "i", 0);
        key_string(b, "s", "t", 0);
        key_number(b, "ts", ts, 0);
    } else {
        key_string(b, "ph", "X", 0);
        key_number(b, "ts", ts, 0);
        key_number(b, "dur", tlv_time_span(sh->from, sh->to, radix) * us,
                   0);
    }
    key_number(b, "pid", (double)c->pid[sh->row], 0);
    key_number(b, "tid", (double)(c->first_tid[sh->row] + iv->lane), 0);
    key_memo(b, m, ",\"args\":{\"event\":", sh->event);
    if (sh->resource)
        key_memo(b, m, ",\"resource\":", sh->resource);
    if (sh->value)
        key_memo(b, m, ",\"value\":", sh->value);
    jl_raw(b, ",\"from\":");
    jl_time(b, sh->from, radix);
    jl_raw(b, sh->is_when ? ",\"next\":" : ",\"to\":");
    jl_time(b, sh->to, radix);
    jl_raw(b, "}}");
}

/* The intervals' trace events, formatted on several threads (ordered_write). */
typedef struct events_ctx {
    const interval_list *l;
    const chrome_layout *c;
    double us;
    int radix;
    int first;             /* no element before the first interval's */
} events_ctx;

/* Interval i's element, after a comma unless it is the array's first (as
 * emit writes them). */
static void put_event_at(void *ctx, json_line *b, jl_memo *m, size_t i)
{
    const events_ctx *e = ctx;
    jl_raw(b, e->first && i == 0 ? "\n" : ",\n");
    put_trace_event(b, m, &e->l->v[i], e->c, e->us, e->radix);
}

/* The chrome pid of the first row showing `resource`, or 0 when none does. */
static size_t resource_pid(const tlv_shapes *shapes, const chrome_layout *c, const char *resource)
{
    for (size_t r = 0; r < tlv_shapes_row_count(shapes); r++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        if (c->used[r] && same_name(row.resource, resource))
            return c->pid[r];
    }
    return 0;
}

/* Counter attributes: a counter track ("ph":"C") per resource and counter,
 * named "LABEL ATTRIBUTE", in the process of the resource's rows (pid 0,
 * "Counters", when it has none); one event per sample. */
static int write_counters(FILE *out, json_line *b, const tlv_trace *trace,
                          const tlv_shapes *shapes, const chrome_layout *c, double us, int radix,
                          int *first)
{
    tlv_counters *cs = NULL;
    if (tlv_counters_compute(trace, &cs) != TLV_OK)
        return -1;
    int rc = 0, named_zero = 0;
    for (size_t i = 0; i < tlv_counters_count(cs) && rc == 0; i++) {
        tlv_counter_info ci;
        tlv_counters_get(cs, i, &ci);
        size_t pid = resource_pid(shapes, c, ci.resource), n = 0;
        if (pid == 0 && !named_zero) {
            named_zero = 1;
            rc = metadata_string(out, b, "process_name", 0, 0, "name", "Counters", first);
        }
        char name[512];
        snprintf(name, sizeof name, "%s %s", ci.resource, ci.display_name);
        const tlv_counter_sample *v = tlv_counters_samples(cs, i, &n);
        for (size_t k = 0; k < n && rc == 0; k++) {
            key_string(b, "name", name, 1);
            key_string(b, "ph", "C", 0);
            key_number(b, "ts", tlv_time_to_double(v[k].time, radix) * us, 0);
            key_number(b, "pid", (double)pid, 0);
            jl_raw(b, ",\"args\":");
            key_number(b, ci.attribute, v[k].value, 1);
            jl_raw(b, "}}");
            rc = emit(out, b, first);
        }
    }
    tlv_counters_free(cs);
    return rc;
}

/* One end of a flow: "ph":"s" at its start, "f" at its end, bound to the
 * slice around that time on the row's (first) thread ("bp":"e"). */
static int flow_end(FILE *out, json_line *b, const tlv_flow_info *f, size_t id, int start,
                    size_t row, const chrome_layout *c, double ts, int *first)
{
    key_string(b, "name", f->display_name, 1);
    key_string(b, "cat", f->rule, 0);
    key_string(b, "ph", start ? "s" : "f", 0);
    if (!start)
        key_string(b, "bp", "e", 0);
    key_number(b, "id", (double)id, 0);
    key_number(b, "ts", ts, 0);
    key_number(b, "pid", (double)c->pid[row], 0);
    key_number(b, "tid", (double)c->first_tid[row], 0);
    jl_raw(b, "}");
    return emit(out, b, first);
}

/* A zero-length slice named for the flow, in the flow's category, at each
 * end: consumers bind a flow event to the slice of the same thread and time
 * (Perfetto: the enclosing one; Chrome DevTools: same time and category). */
static int flow_anchor(FILE *out, json_line *b, const tlv_flow_info *f, size_t row,
                       const chrome_layout *c, double ts, int *first)
{
    key_string(b, "name", f->display_name, 1);
    key_string(b, "cat", f->rule, 0);
    key_string(b, "ph", "X", 0);
    key_number(b, "ts", ts, 0);
    key_number(b, "dur", 0, 0);
    key_number(b, "pid", (double)c->pid[row], 0);
    key_number(b, "tid", (double)c->first_tid[row], 0);
    jl_raw(b, "}");
    return emit(out, b, first);
}

/* Flow rules' arrows as flow events, ids from 1, each end with its anchor
 * slice; a flow whose end has no row with intervals is left out. */
static int write_flows(FILE *out, json_line *b, const tlv_shapes *shapes, const chrome_layout *c,
                       double us, int radix, int *first)
{
    int rc = 0;
    size_t id = 0, nrows = tlv_shapes_row_count(shapes);
    for (size_t i = 0; i < tlv_shapes_flow_count(shapes) && rc == 0; i++) {
        tlv_flow_info f;
        tlv_shapes_flow(shapes, i, &f);
        if (f.from_row >= nrows || f.to_row >= nrows || !c->used[f.from_row] || !c->used[f.to_row])
            continue;
        double ts = tlv_time_to_double(f.time, radix) * us;
        id++;
        rc = flow_anchor(out, b, &f, f.from_row, c, ts, first);
        if (rc == 0)
            rc = flow_end(out, b, &f, id, 1, f.from_row, c, ts, first);
        if (rc == 0)
            rc = flow_anchor(out, b, &f, f.to_row, c, ts, first);
        if (rc == 0)
            rc = flow_end(out, b, &f, id, 0, f.to_row, c, ts, first);
    }
    return rc;
}

static int write_chrome(FILE *out, const tlv_rules *rules, const tlv_trace *trace,
                        const tlv_shapes *shapes, interval_list *l, double us, const char *input,
                        int threads)
{
    chrome_layout c = {0};
    if (lay_out_rows(&c, shapes, l) < 0) { /* it fails only for memory */
        layout_free(&c);
        return report_nomem("laying out the rows of", input), -1;
    }
    int radix = tlv_rules_time_radix(rules);
    int first = 1;
    json_line b = {0};
    fputs("{\"traceEvents\":[", out);
    int rc = write_metadata(out, &b, shapes, &c, &first);
    if (rc == 0) {
        events_ctx e = {l, &c, us, radix, first};
        rc = ordered_write(out, l->n, ordered_write_threads(threads, l->n), put_event_at, &e);
        if (rc == -2)
            b.failed = 1; /* reported below */
        first = first && l->n == 0;
    }
    if (rc == 0)
        rc = write_counters(out, &b, trace, shapes, &c, us, radix, &first);
    if (rc == 0)
        rc = write_flows(out, &b, shapes, &c, us, radix, &first);
    if (b.failed)
        report_nomem("writing the export of", input);
    jl_free(&b);
    cJSON *other = cJSON_CreateObject();
    cJSON_AddStringToObject(other, "source", input);
    cJSON_AddStringToObject(other, "timeScale", tlv_rules_time_scale(rules));
    cJSON_AddNumberToObject(other, "usPerUnit", us);
    char generator[64];
    snprintf(generator, sizeof generator, "tlv %s", tlv_version());
    cJSON_AddStringToObject(other, "generator", generator);
    char *text = cJSON_PrintUnformatted(other);
    cJSON_Delete(other);
    if (rc == 0 && text)
        fprintf(out, "\n],\"otherData\":%s}\n", text);
    if (!text)
        report_nomem("writing the export of", input);
    free(text);
    layout_free(&c);
    return rc == 0 && text ? 0 : -1;
}

/* ---- the command ------------------------------------------------------------------ */

/* The µs per unit to use, saying so when the TimeScale is no time unit. */
static double time_factor(const export_args *a, const tlv_rules *rules)
{
    if (a->us_per_unit > 0)
        return a->us_per_unit;
    const char *scale = tlv_rules_time_scale(rules);
    double us = us_per_unit(scale);
    if (us > 0)
        return us;
    fprintf(stderr, "%s export: TimeScale '%s' is not s, ms, us or ns: one unit is written as "
            "1 us (set --us-per-unit)\n", prog, scale);
    return 1;
}

/* The database is made under a temporary name and renamed when complete. */
static int write_sqlite(const export_args *a, const tlv_rules *rules, const tlv_trace *trace,
                        const tlv_shapes *shapes)
{
    size_t n = strlen(a->c.output) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return report_nomem("writing the database of", a->c.input), -1;
    snprintf(tmp, n, "%s.tmp.%ld", a->c.output, (long)getpid());
    unlink(tmp);
    remove_tmp_on_signals(tmp);
    sqlite3 *db = NULL;
    int rc = sqlite3_open(tmp, &db) == SQLITE_OK ? 0 : -1;
    if (rc < 0 && (!db || sqlite3_errcode(db) == SQLITE_NOMEM))
        report_nomem("writing the database of", a->c.input);
    else if (rc < 0)
        fprintf(stderr, "%s export: cannot create '%s': %s\n", prog, tmp, sqlite3_errmsg(db));
    sql_source src = {rules, trace, shapes, a->c.input, a->session};
    if (rc == 0)
        rc = sql_write_trace(db, &src, "export");
    if (sqlite3_close(db) != SQLITE_OK)
        rc = -1;
    if (rc == 0 && rename(tmp, a->c.output) != 0) {
        fprintf(stderr, "%s export: cannot write '%s': %s\n", prog, a->c.output, strerror(errno));
        rc = -1;
    }
    if (rc < 0)
        unlink(tmp);
    remove_tmp_on_signals(NULL);
    free(tmp);
    return rc;
}

static int write_export(const export_args *a, const tlv_rules *rules, const tlv_trace *trace,
                        const tlv_shapes *shapes)
{
    if (strcmp(a->format, "sqlite") == 0)
        return write_sqlite(a, rules, trace, shapes);
    interval_list l = {0};
    FILE *out = NULL;
    char *tmp_path = NULL;
    unsigned long json_failures = json_alloc_failures();
    int rc = collect_intervals(shapes, &l);
    if (rc < 0)
        report_nomem("collecting the intervals of", a->c.input);
    if (rc == 0) {
        out = open_output(a->c.output, &tmp_path);
        remove_tmp_on_signals(tmp_path);
        rc = out ? 0 : -1;
    }
    if (rc == 0 && strcmp(a->format, "csv") == 0)
        write_csv(out, &l, tlv_rules_time_radix(rules));
    else if (rc == 0)
        rc = write_chrome(out, rules, trace, shapes, &l, time_factor(a, rules), a->c.input,
                          a->c.rules.threads);
    if (json_alloc_failures() != json_failures) { /* cJSON left something out */
        report_nomem("writing the export of", a->c.input);
        rc = -1;
    }
    if (out && close_output(out, a->c.output, tmp_path, rc == 0) < 0)
        rc = -1;
    free(l.v);
    return rc;
}

int cmd_export(int argc, char **argv)
{
    export_args a;
    if (parse_export_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    int rc = load_trace_and_shapes(&a.c.rules, a.c.input, a.c.cpu_attribute, 1, &rules, &trace,
                                   &shapes); /* listed, never drawn */
    if (rc != EXIT_USAGE && write_export(&a, rules, trace, shapes) < 0) {
        if (!nomem_reported())
            fprintf(stderr, "%s export: writing '%s' failed\n", prog, a.c.output ? a.c.output : "-");
        rc = EXIT_USAGE;
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}
