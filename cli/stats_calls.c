/*
 * stats_calls.c — calls (total/self time, count, errors), leaks and row
 * labels for `tlv stats`, computed from the trace's events through the
 * public API (see stats_calls.h).
 */
#include "cli/stats_calls.h"

#include "cli/cli.h" /* json_push */
#include "cli/stats_table.h"

#include <stdlib.h>
#include <string.h>

/* An open call on a resource's stack. */
typedef struct frame {
    size_t stat;            /* index into the call_stat array */
    double start, child;    /* entry time; time spent in nested calls */
} frame;

typedef struct stack {
    frame *f;
    size_t n, cap;
} stack;

typedef struct scan {
    call_stats *out;
    size_t cap;
    const char **res_names; /* resource i's name, for finding its stack */
    stack *stacks;
    size_t nres;
} scan;

static long resource_index(const scan *sc, const char *name)
{
    for (size_t i = 0; i < sc->nres; i++)
        if (sc->res_names[i] == name || strcmp(sc->res_names[i], name) == 0)
            return (long)i;
    return -1;
}

static long stat_index(scan *sc, const char *name)
{
    call_stats *o = sc->out;
    for (size_t i = 0; i < o->ncalls; i++)
        if (strcmp(o->calls[i].name, name) == 0)
            return (long)i;
    if (o->ncalls == sc->cap) {
        size_t cap = sc->cap ? sc->cap * 2 : 32;
        call_stat *c = realloc(o->calls, cap * sizeof *c);
        if (!c)
            return -1;
        o->calls = c;
        sc->cap = cap;
    }
    call_stat *c = &o->calls[o->ncalls];
    memset(c, 0, sizeof *c);
    c->name = strdup(name);
    return c->name ? (long)o->ncalls++ : -1;
}

static int push(stack *st, size_t stat, double t)
{
    if (st->n == st->cap) {
        size_t cap = st->cap ? st->cap * 2 : 16;
        frame *f = realloc(st->f, cap * sizeof *f);
        if (!f)
            return -1;
        st->f = f;
        st->cap = cap;
    }
    st->f[st->n++] = (frame){stat, t, 0};
    return 0;
}

/* Closes the innermost open call named like the leave (and drops any
 * opened after it, whose leaves were lost). */
static void pop(scan *sc, stack *st, const tlv_event *ev, double t)
{
    size_t k = st->n;
    while (k > 0 && strcmp(sc->out->calls[st->f[k - 1].stat].name, ev->args[0]) != 0)
        k--;
    if (k == 0)
        return; /* a leave whose enter is not in the trace */
    frame *f = &st->f[k - 1];
    call_stat *c = &sc->out->calls[f->stat];
    double d = t - f->start;
    c->calls++;
    c->total += d;
    c->self += d - f->child;
    if (d > c->max)
        c->max = d;
    if (ev->nargs >= 4 && (strcmp(ev->args[3], "error") == 0 || strcmp(ev->args[3], "expected") == 0))
        c->errors++;
    st->n = k - 1;
    if (st->n > 0)
        st->f[st->n - 1].child += d;
}

static int scan_calls(scan *sc, const tlv_trace *trace, int radix)
{
    size_t n = tlv_trace_event_count(trace);
    for (size_t i = 0; i < n; i++) {
        tlv_event ev;
        tlv_trace_event(trace, i, &ev);
        if (ev.kind != TLV_EVENT_BEHAVIOR || ev.nargs < 1 || !*ev.args[0])
            continue;
        int enter = strcmp(ev.name, "enter") == 0;
        if (!enter && strcmp(ev.name, "leave") != 0)
            continue;
        long r = resource_index(sc, ev.resource);
        if (r < 0)
            continue;
        double t = tlv_time_to_double(ev.time, radix);
        if (enter) {
            long s = stat_index(sc, ev.args[0]);
            if (s < 0 || push(&sc->stacks[r], (size_t)s, t) < 0)
                return -1;
        } else {
            pop(sc, &sc->stacks[r], &ev, t);
        }
    }
    return 0;
}

static int by_total(const void *pa, const void *pb)
{
    const call_stat *a = pa, *b = pb;
    if (a->total != b->total)
        return a->total < b->total ? 1 : -1;
    return strcmp(a->name, b->name);
}

static const char *attr_or_empty(const tlv_trace *trace, const char *res, const char *attr)
{
    const char *v = NULL;
    return tlv_trace_attr_at(trace, res, attr, NULL, &v) == TLV_OK && v ? v : "";
}

/* The label of the resource named `name`, else the name. */
static const char *label_of(const tlv_trace *trace, const char *name)
{
    size_t n = tlv_trace_resource_count(trace);
    for (size_t i = 0; i < n; i++)
        if (strcmp(tlv_trace_resource_name(trace, i), name) == 0) {
            const char *l = tlv_trace_resource_label(trace, i);
            return l ? l : name;
        }
    return name;
}

static int find_leaks(const tlv_trace *trace, call_stats *o)
{
    size_t n = tlv_trace_resource_count(trace);
    for (size_t i = 0; i < n; i++) {
        const char *name = tlv_trace_resource_name(trace, i);
        if (strcmp(attr_or_empty(trace, name, "state"), "live") != 0)
            continue;
        leak_stat *l = realloc(o->leaks, (o->nleaks + 1) * sizeof *l);
        if (!l)
            return -1;
        o->leaks = l;
        l = &o->leaks[o->nleaks++];
        l->resource = name;
        l->size = attr_or_empty(trace, name, "size");
        l->by = attr_or_empty(trace, name, "by");
        const char *owner = attr_or_empty(trace, name, "owner");
        l->owner = *owner ? label_of(trace, owner) : "";
        o->leaked += atof(l->size);
    }
    return 0;
}

int call_stats_compute(const tlv_trace *trace, int radix, call_stats *out)
{
    memset(out, 0, sizeof *out);
    scan sc = {out, 0, NULL, NULL, tlv_trace_resource_count(trace)};
    sc.res_names = calloc(sc.nres + 1, sizeof *sc.res_names);
    sc.stacks = calloc(sc.nres + 1, sizeof *sc.stacks);
    int rc = -1;
    if (sc.res_names && sc.stacks) {
        for (size_t i = 0; i < sc.nres; i++)
            sc.res_names[i] = tlv_trace_resource_name(trace, i);
        rc = scan_calls(&sc, trace, radix);
    }
    for (size_t i = 0; sc.stacks && i < sc.nres; i++)
        free(sc.stacks[i].f);
    free(sc.stacks);
    free(sc.res_names);
    if (rc == 0)
        rc = find_leaks(trace, out);
    if (out->ncalls)
        qsort(out->calls, out->ncalls, sizeof *out->calls, by_total);
    for (size_t i = 0; i < out->ncalls; i++)
        out->calls_total += out->calls[i].self;
    return rc;
}

void call_stats_free(call_stats *s)
{
    for (size_t i = 0; i < s->ncalls; i++)
        free(s->calls[i].name);
    free(s->calls);
    free(s->leaks);
    memset(s, 0, sizeof *s);
}

/* ---- output ---------------------------------------------------------------------- */

static void header(table *t, const char *const *names, size_t n)
{
    int r = table_add_row(t);
    for (size_t c = 0; r >= 0 && c < n; c++)
        table_set(t, r, c, names[c]);
}

static void print_calls(FILE *out, const call_stats *s, const char *time_scale)
{
    static const char *const head[] = {"call", "calls", "errors", "total", "self",
                                       "% self", "mean", "max"};
    fprintf(out, "\nCalls (enter/leave pairs; times in %s, self without nested calls):\n",
            time_scale);
    table t = {NULL, 8, 0, 0, 1};
    header(&t, head, 8);
    for (size_t i = 0; i < s->ncalls; i++) {
        const call_stat *c = &s->calls[i];
        int r = table_add_row(&t);
        if (r < 0)
            break;
        char pct[32];
        snprintf(pct, sizeof pct, "%.2f", s->calls_total > 0 ? 100 * c->self / s->calls_total : 0);
        table_set(&t, r, 0, c->name);
        table_set_num(&t, r, 1, (double)c->calls);
        table_set_num(&t, r, 2, (double)c->errors);
        table_set_num(&t, r, 3, c->total);
        table_set_num(&t, r, 4, c->self);
        table_set(&t, r, 5, pct);
        table_set_num(&t, r, 6, c->calls ? c->total / (double)c->calls : 0);
        table_set_num(&t, r, 7, c->max);
    }
    table_print(out, &t);
}

static void print_leaks(FILE *out, const call_stats *s)
{
    static const char *const head[] = {"resource", "bytes", "allocated with", "by"};
    char total[64];
    snprintf(total, sizeof total, "%.0f", s->leaked);
    fprintf(out, "\nLive at the end (leaks): %zu, %s bytes\n", s->nleaks, total);
    table t = {NULL, 4, 0, 0, 1};
    header(&t, head, 4);
    for (size_t i = 0; i < s->nleaks; i++) {
        int r = table_add_row(&t);
        if (r < 0)
            break;
        table_set(&t, r, 0, s->leaks[i].resource);
        table_set(&t, r, 1, s->leaks[i].size);
        table_set(&t, r, 2, s->leaks[i].by);
        table_set(&t, r, 3, s->leaks[i].owner);
    }
    table_print(out, &t);
}

static void print_labels(FILE *out, const tlv_trace *trace)
{
    size_t n = tlv_trace_resource_count(trace), shown = 0;
    table t = {NULL, 2, 0, 0, 2};
    for (size_t i = 0; i < n; i++) {
        const char *l = tlv_trace_resource_label(trace, i);
        if (!l)
            continue;
        if (!shown++) {
            static const char *const head[] = {"resource", "row label"};
            header(&t, head, 2);
        }
        int r = table_add_row(&t);
        if (r < 0)
            break;
        table_set(&t, r, 0, tlv_trace_resource_name(trace, i));
        table_set(&t, r, 1, l);
    }
    if (shown) {
        fputs("\nRow labels:\n", out);
        table_print(out, &t);
    }
}

void call_stats_print(FILE *out, const call_stats *s, const tlv_trace *trace,
                      const char *time_scale)
{
    if (s->ncalls)
        print_calls(out, s, time_scale);
    if (s->nleaks)
        print_leaks(out, s);
    print_labels(out, trace);
}

void call_stats_json(cJSON *o, const call_stats *s, const tlv_trace *trace)
{
    cJSON *calls = cJSON_AddArrayToObject(o, "calls");
    for (size_t i = 0; calls && i < s->ncalls; i++) {
        const call_stat *c = &s->calls[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", c->name);
        cJSON_AddNumberToObject(e, "calls", (double)c->calls);
        cJSON_AddNumberToObject(e, "errors", (double)c->errors);
        cJSON_AddNumberToObject(e, "total", c->total);
        cJSON_AddNumberToObject(e, "self", c->self);
        cJSON_AddNumberToObject(e, "max", c->max);
        json_push(calls, e);
    }
    cJSON *leaks = cJSON_AddArrayToObject(o, "leaks");
    for (size_t i = 0; leaks && i < s->nleaks; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "resource", s->leaks[i].resource);
        cJSON_AddNumberToObject(e, "bytes", atof(s->leaks[i].size));
        cJSON_AddStringToObject(e, "allocatedWith", s->leaks[i].by);
        cJSON_AddStringToObject(e, "by", s->leaks[i].owner);
        json_push(leaks, e);
    }
    cJSON *labels = cJSON_AddObjectToObject(o, "labels");
    size_t n = tlv_trace_resource_count(trace);
    for (size_t i = 0; labels && i < n; i++) {
        const char *l = tlv_trace_resource_label(trace, i);
        if (l)
            cJSON_AddStringToObject(labels, tlv_trace_resource_name(trace, i), l);
    }
}
