/*
 * stats.c — the numbers behind `tlv stats` and the viewer's load tracks
 * (tlv/stats.h): one pass over a finished trace's events (tlv_trace_event,
 * tlv_trace_attr_at) keeping, per resource, its current state and whether it
 * runs, and closing intervals as values change; then each processor's busy
 * intervals merged, with running sums so that the busy time of any window
 * is two binary searches. Durations are exact differences of trace times
 * (then doubles, for sums and means).
 */
#include "analyze/stats_impl.h"
#include "base/abi.h"
#include "viz/viz_impl.h"

#include "base/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct span {
    double from, to;
} span;

typedef struct processor {
    char *name;                     /* "CPU <value>", or "CPU" for the only one */
    const char *value;              /* the processor attribute's value, or NULL */
    span *busy;                     /* running intervals, merged and sorted */
    double *before;                 /* before[i]: busy time of busy[0..i-1] */
    size_t nbusy, cap;
    double busy_total;
} processor;

typedef tlv_state_stat state_stat;

struct tlv_stats {
    double start, end;              /* the trace's first and last times */
    const char *cpu_attribute;      /* the one used, or NULL */
    state_stat *states;             /* by resource, then state name */
    size_t nstates;
    processor *cpus;                /* ordered by value (numbers as numbers) */
    size_t ncpus;
};

/* What the pass knows about one resource. */
typedef struct track {
    const char *name;
    int has_state, has_running;
    const char *state;          /* current value of the attribute */
    tlv_time state_since;
    int running;
    tlv_time run_since;
    const char *cpu;            /* processor attribute's value, or NULL */
    state_stat *stats;          /* per state seen */
    size_t nstats, stats_cap;
} track;

typedef struct pass {
    const tlv_trace *trace;
    const tlv_stats_options *o;
    const char *cpu_attr;       /* the processor attribute used, or NULL */
    int radix;
    track *res;
    size_t nres;
    processor *cpus;
    size_t ncpus, cpus_cap;
    int failed;
} pass;


/* Right over the whole range of times: tlv_time_sub wrapped a span of more
 * than 2^63 ticks, and the statistics said -1 (issue 32.2). */
static double duration(const pass *p, tlv_time from, tlv_time to)
{
    return tlv_time_span(from, to, p->radix);
}

/* ---- states ----------------------------------------------------------------------- */

static void add_state_interval(pass *p, size_t r, const char *state, tlv_time from, tlv_time to)
{
    track *t = &p->res[r];
    if (!*state || tlv_time_cmp(from, to) >= 0)
        return; /* no value known, or zero-length: a pass-through at one instant */
    double d = duration(p, from, to);
    state_stat *s = NULL;
    for (size_t i = 0; i < t->nstats && !s; i++)
        if (strcmp(t->stats[i].state, state) == 0)
            s = &t->stats[i];
    if (!s) {
        if (GROW(t->stats, t->stats_cap, t->nstats + 1) < 0) {
            p->failed = 1;
            return;
        }
        s = &t->stats[t->nstats++];
        *s = (state_stat){t->name, state, 0, 0, d, d};
    }
    s->count++;
    s->total += d;
    s->min = d < s->min ? d : s->min;
    s->max = d > s->max ? d : s->max;
}

static void state_change(pass *p, size_t r, const char *value, tlv_time at)
{
    track *t = &p->res[r];
    if (strcmp(value, t->state) == 0)
        return; /* the same value again continues the interval */
    add_state_interval(p, r, t->state, t->state_since, at);
    t->state = value;
    t->state_since = at;
}

/* ---- processors ------------------------------------------------------------------- */

static processor *find_cpu(pass *p, const char *value)
{
    for (size_t i = 0; i < p->ncpus; i++)
        if (p->cpus[i].value == value || (value && p->cpus[i].value &&
                                          strcmp(p->cpus[i].value, value) == 0))
            return &p->cpus[i];
    if (GROW(p->cpus, p->cpus_cap, p->ncpus + 1) < 0)
        return NULL;
    processor *c = &p->cpus[p->ncpus];
    memset(c, 0, sizeof *c);
    c->value = value;
    size_t n = value ? strlen(value) + 5 : 4;
    c->name = malloc(n);
    if (!c->name)
        return NULL;
    snprintf(c->name, n, value ? "CPU %s" : "CPU", value);
    p->ncpus++;
    return c;
}

static void add_busy(pass *p, const char *cpu, tlv_time from, tlv_time to)
{
    if (p->cpu_attr && !cpu)
        return; /* a resource with no processor attribute runs on none of them */
    processor *c = find_cpu(p, cpu);
    if (!c || GROW(c->busy, c->cap, c->nbusy + 1) < 0) {
        p->failed = 1;
        return;
    }
    if (tlv_time_cmp(from, to) < 0)
        c->busy[c->nbusy++] = (span){tlv_time_to_double(from, p->radix),
                                     tlv_time_to_double(to, p->radix)};
}

static void running_change(pass *p, size_t r, const char *value, tlv_time at)
{
    track *t = &p->res[r];
    int running = strcmp(value, p->o->running_value) == 0;
    if (t->running && !running)
        add_busy(p, t->cpu, t->run_since, at);
    else if (!t->running && running)
        t->run_since = at;
    t->running = running;
}

static void cpu_change(pass *p, size_t r, const char *value, tlv_time at)
{
    track *t = &p->res[r];
    if (!*value)
        value = NULL; /* an empty processor value is none (a task before it first runs) */
    if (t->cpu == value || (t->cpu && value && strcmp(t->cpu, value) == 0))
        return;
    if (t->running) { /* migrated while running: the time so far stays where it ran */
        add_busy(p, t->cpu, t->run_since, at);
        t->run_since = at;
    }
    t->cpu = value;
}

/* ---- the pass --------------------------------------------------------------------- */

/* Whether some resource has the attribute (its type declares it). */
static int any_has(const tlv_trace *trace, const char *attr)
{
    const char *v;
    for (size_t r = 0; r < tlv_trace_resource_count(trace); r++)
        if (tlv_trace_attr_at(trace, tlv_trace_resource_name(trace, r), attr, NULL, &v) == TLV_OK)
            return 1;
    return 0;
}

/* Each resource's values before the first event, from the start on. */
static void init_tracks(pass *p)
{
    const char *cpu_attr = p->cpu_attr;
    tlv_time start = tlv_trace_start(p->trace);
    for (size_t r = 0; r < p->nres; r++) {
        track *t = &p->res[r];
        const char *v;
        t->name = tlv_trace_resource_name(p->trace, r);
        t->state_since = t->run_since = start;
        /* Not "at start - 1": that wraps to the end of the trace when the
         * first event is at -2^63. */
        t->has_state = tlv_trace_attr_initial(p->trace, t->name, p->o->attribute,
                                              &t->state) == TLV_OK;
        t->has_running = tlv_trace_attr_initial(p->trace, t->name, p->o->running_attribute,
                                                &v) == TLV_OK;
        t->running = t->has_running && strcmp(v, p->o->running_value) == 0;
        if (cpu_attr && tlv_trace_attr_initial(p->trace, t->name, cpu_attr, &v) == TLV_OK &&
            *v)
            t->cpu = v; /* "" (a Default of none) is no processor, not one named "CPU " */
        if (t->has_running && (!cpu_attr || t->cpu) && !find_cpu(p, t->cpu))
            p->failed = 1;
    }
}

/* The id of an attribute name among the trace's interned strings;
 * UINT32_MAX when no event has that name (or there is none). */
static uint32_t name_id(const pass *p, const char *name)
{
    return name ? intern_find(p->trace->w->values, name, strlen(name)) : UINT32_MAX;
}

static void scan_events(pass *p)
{
    /* Compared as ids, and each event's resource is its index in the world,
     * the track's (init_tracks): no string compared or searched per event,
     * and only the events that change something are read whole. */
    uint32_t state = name_id(p, p->o->attribute), cpu = name_id(p, p->cpu_attr),
             running = name_id(p, p->o->running_attribute);
    size_t n = tlv_trace_event_count(p->trace);
    for (size_t i = 0; i < n && !p->failed; i++) {
        const trace_event *te = &p->trace->ev[i];
        size_t r = te->res;
        if (te->kind != TLV_EVENT_ATTRIBUTE || r >= p->nres)
            continue;
        int is_state = p->res[r].has_state && te->name == state;
        int is_cpu = p->cpu_attr && te->name == cpu;
        int is_running = p->res[r].has_running && te->name == running;
        if (!is_state && !is_cpu && !is_running)
            continue;
        tlv_event e;
        tlv_trace_event(p->trace, i, &e);
        if (is_state)
            state_change(p, r, e.value, e.time);
        if (is_cpu)
            cpu_change(p, r, e.value, e.time);
        if (is_running)
            running_change(p, r, e.value, e.time);
    }
}

/* Closes what is still open at the end of the trace. */
static void close_tracks(pass *p)
{
    tlv_time end = tlv_trace_end(p->trace);
    for (size_t r = 0; r < p->nres; r++) {
        track *t = &p->res[r];
        if (t->has_state)
            add_state_interval(p, r, t->state, t->state_since, end);
        if (t->has_running && t->running)
            add_busy(p, t->cpu, t->run_since, end);
    }
}

/* ---- results ---------------------------------------------------------------------- */

static int by_from(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->from < y->from ? -1 : x->from > y->from;
}

/* Several resources may run on one processor at once (a handler over the
 * task it interrupted): busy time is the union. */
static int merge_busy(processor *c)
{
    if (c->nbusy > 1) /* (a NULL array, even empty, is undefined for qsort) */
        qsort(c->busy, c->nbusy, sizeof *c->busy, by_from);
    size_t k = 0;
    for (size_t i = 0; i < c->nbusy; i++) {
        if (k && c->busy[i].from <= c->busy[k - 1].to) {
            if (c->busy[i].to > c->busy[k - 1].to)
                c->busy[k - 1].to = c->busy[i].to;
        } else {
            c->busy[k++] = c->busy[i];
        }
    }
    c->nbusy = k;
    c->busy_total = 0;
    c->before = malloc((k + 1) * sizeof *c->before);
    if (!c->before)
        return -1;
    for (size_t i = 0; i < k; i++) {
        c->before[i] = c->busy_total;
        c->busy_total += c->busy[i].to - c->busy[i].from;
    }
    c->before[k] = c->busy_total;
    return 0;
}

static int by_state(const void *a, const void *b)
{
    return strcmp(((const state_stat *)a)->state, ((const state_stat *)b)->state);
}

/* Processor values compare as numbers when both are ("CPU 2" before "CPU 10"). */
static int by_cpu_value(const void *a, const void *b)
{
    const char *x = ((const processor *)a)->value, *y = ((const processor *)b)->value;
    if (!x || !y)
        return !x - !y;
    char *ex, *ey;
    double dx = strtod(x, &ex), dy = strtod(y, &ey);
    if (*x && *y && !*ex && !*ey && dx != dy)
        return dx < dy ? -1 : 1;
    return strcmp(x, y);
}

static int collect(pass *p, tlv_stats *out)
{
    size_t n = 0;
    for (size_t r = 0; r < p->nres; r++)
        n += p->res[r].nstats;
    out->states = malloc((n + 1) * sizeof *out->states);
    if (!out->states)
        return -1;
    for (size_t r = 0; r < p->nres; r++) {
        track *t = &p->res[r];
        if (!t->nstats)
            continue;
        qsort(t->stats, t->nstats, sizeof *t->stats, by_state);
        memcpy(out->states + out->nstates, t->stats, t->nstats * sizeof *t->stats);
        out->nstates += t->nstats;
    }
    for (size_t c = 0; c < p->ncpus; c++)
        if (merge_busy(&p->cpus[c]) < 0)
            return -1;
    if (p->ncpus > 1)
        qsort(p->cpus, p->ncpus, sizeof *p->cpus, by_cpu_value);
    out->cpus = p->cpus;
    out->ncpus = p->ncpus;
    p->cpus = NULL; /* now the caller's */
    p->ncpus = 0;
    return 0;
}

static void free_cpus(processor *cpus, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        free(cpus[c].name);
        free(cpus[c].busy);
        free(cpus[c].before);
    }
    free(cpus);
}

static const char *or_default(const char *s, const char *dflt)
{
    return s ? s : dflt;
}

tlv_status tlv_stats_compute(const tlv_trace *trace, const tlv_stats_options *opts,
                             tlv_stats **out)
{
    if (!out)
        return TLV_ERR_USAGE;
    *out = NULL;
    if (!trace)
        return TLV_ERR_USAGE;
    if (!trace->finished && trace->nsorted != trace->nev) /* a growing trace: its events so far */
        return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_USAGE,
                              "tlv_stats_compute: the trace's latest events are not ordered yet "
                              "(call tlv_trace_update or tlv_trace_finish)");
    ALLOC_WATCH;
    tlv_stats_options o = TLV_STATS_OPTIONS_INIT; /* the caller's over the defaults */
    abi_read_in(&o, sizeof o, opts, ABI_STATS_OPTIONS_0_1);
    o.attribute = or_default(o.attribute, "state");
    o.running_attribute = or_default(o.running_attribute, "state");
    o.running_value = or_default(o.running_value, "RUNNING");
    tlv_stats *st = calloc(1, sizeof *st);
    if (!st)
        return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_NOMEM,
                              "tlv_stats_compute: out of memory while computing the statistics");
    pass p = {trace, &o, o.cpu_attribute, tlv_rules_time_radix(trace->rules), NULL,
              tlv_trace_resource_count(trace), NULL, 0, 0, 0};
    st->start = tlv_time_to_double(tlv_trace_start(trace), p.radix);
    st->end = tlv_time_to_double(tlv_trace_end(trace), p.radix);
    p.res = calloc(p.nres + 1, sizeof *p.res);
    p.failed = !p.res;
    if (!p.failed && !p.cpu_attr && any_has(trace, "prcId"))
        p.cpu_attr = "prcId";
    st->cpu_attribute = p.cpu_attr;
    if (!p.failed) {
        init_tracks(&p);
        scan_events(&p);
        close_tracks(&p);
    }
    int rc = p.failed ? -1 : collect(&p, st);
    for (size_t r = 0; p.res && r < p.nres; r++)
        free(p.res[r].stats);
    free(p.res);
    free_cpus(p.cpus, p.ncpus);
    if (rc < 0 || ALLOC_FAILED_SINCE()) {
        tlv_stats_free(st);
        return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_NOMEM,
                              "tlv_stats_compute: out of memory while computing the statistics");
    }
    *out = st;
    return TLV_OK;
}

void tlv_stats_free(tlv_stats *s)
{
    if (!s)
        return;
    free(s->states);
    free_cpus(s->cpus, s->ncpus);
    free(s);
}

double tlv_stats_start(const tlv_stats *s) { return s ? s->start : 0; }
double tlv_stats_end(const tlv_stats *s) { return s ? s->end : 0; }
const char *tlv_stats_cpu_attribute(const tlv_stats *s) { return s ? s->cpu_attribute : NULL; }
size_t tlv_stats_state_count(const tlv_stats *s) { return s ? s->nstates : 0; }

static void state_stat_fill(const tlv_stats *s, size_t i, tlv_state_stat *out)
{
    if (s && i < s->nstates)
        *out = s->states[i];
    else
        memset(out, 0, sizeof *out);
}

void tlv_stats_state_sized(const tlv_stats *s, size_t i, tlv_state_stat *out, size_t size)
{
    ABI_FILL_OUT(tlv_state_stat, state_stat_fill, out, size, s, i);
}

size_t tlv_stats_cpu_count(const tlv_stats *s) { return s ? s->ncpus : 0; }

static void cpu_stat_fill(const tlv_stats *s, size_t i, tlv_cpu_stat *out)
{
    memset(out, 0, sizeof *out);
    if (!s || i >= s->ncpus)
        return;
    const processor *c = &s->cpus[i];
    out->name = c->name;
    out->value = c->value;
    out->busy = c->busy_total;
    out->intervals = c->nbusy;
}

void tlv_stats_cpu_sized(const tlv_stats *s, size_t i, tlv_cpu_stat *out, size_t size)
{
    ABI_FILL_OUT(tlv_cpu_stat, cpu_stat_fill, out, size, s, i);
}

/* Busy time of p before time t: the spans ending before it whole, the one
 * around it in part. `*at` is where the last search ended, for a t at or
 * after that one: an exponential search forward from there (columns come
 * left to right, so each search is short and stays in cache); 0 for a
 * search from the start, O(log n). */
static double busy_before_from(const processor *p, double t, size_t *at)
{
    size_t lo = *at, step = 1, hi = lo;
    while (hi < p->nbusy && p->busy[hi].to <= t) { /* gallop to a span ending after t */
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    hi = hi < p->nbusy ? hi : p->nbusy;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->busy[mid].to <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    double sum = p->before[lo];
    if (lo < p->nbusy && p->busy[lo].from < t)
        sum += t - p->busy[lo].from;
    return sum;
}

static double busy_before(const processor *p, double t)
{
    size_t at = 0;
    return busy_before_from(p, t, &at);
}

static double cpu_busy_in(const processor *p, double from, double to)
{
    if (!(to > from) || !p->nbusy)
        return 0;
    double d = busy_before(p, to) - busy_before(p, from);
    return d > 0 ? d : 0;
}

double tlv_stats_busy_in(const tlv_stats *s, size_t cpu, double from, double to)
{
    if (!s)
        return 0;
    if (cpu != TLV_STATS_ALL_CPUS)
        return cpu < s->ncpus ? cpu_busy_in(&s->cpus[cpu], from, to) : 0;
    double sum = 0;
    for (size_t c = 0; c < s->ncpus; c++)
        sum += cpu_busy_in(&s->cpus[c], from, to);
    return sum;
}

/* Adds p's busy spans overlapping (from, to) to *n, *lo and *hi (the parts
 * inside the window). */
static void cpu_spans(const processor *p, double from, double to, size_t *n, double *lo, double *hi)
{
    size_t i = 0, j = p->nbusy; /* the first span ending after `from` */
    while (i < j) {
        size_t mid = i + (j - i) / 2;
        if (p->busy[mid].to <= from)
            i = mid + 1;
        else
            j = mid;
    }
    for (; i < p->nbusy && p->busy[i].from < to; i++) {
        double a = p->busy[i].from > from ? p->busy[i].from : from;
        double b = p->busy[i].to < to ? p->busy[i].to : to;
        if (!(b > a))
            continue;
        *lo = *n == 0 || b - a < *lo ? b - a : *lo;
        *hi = *n == 0 || b - a > *hi ? b - a : *hi;
        (*n)++;
    }
}

size_t tlv_stats_busy_spans(const tlv_stats *s, size_t cpu, double from, double to, double *min,
                            double *max)
{
    size_t n = 0;
    double lo = 0, hi = 0;
    for (size_t c = 0; s && to > from && c < s->ncpus; c++)
        if (cpu == TLV_STATS_ALL_CPUS || c == cpu)
            cpu_spans(&s->cpus[c], from, to, &n, &lo, &hi);
    if (min)
        *min = lo;
    if (max)
        *max = hi;
    return n;
}

/* Adds processor p's busy time of each column to out[k]. */
static void add_columns(const processor *p, double t0, double t1, double *out, size_t ncols)
{
    if (!p->nbusy)
        return;
    double width = (t1 - t0) / (double)ncols;
    size_t at = 0;
    double prev = busy_before_from(p, t0, &at);
    for (size_t k = 0; k < ncols; k++) {
        double b = k + 1 == ncols ? t1 : t0 + width * (double)(k + 1);
        double next = busy_before_from(p, b, &at);
        out[k] += next > prev ? next - prev : 0;
        prev = next;
    }
}

void tlv_stats_load(const tlv_stats *s, size_t cpu, double t0, double t1, double *out,
                    size_t ncols)
{
    size_t n = cpu == TLV_STATS_ALL_CPUS && s ? s->ncpus : 1;
    for (size_t k = 0; k < ncols; k++)
        out[k] = 0;
    if (!s || !ncols || !(t1 > t0) || (cpu != TLV_STATS_ALL_CPUS && cpu >= s->ncpus))
        return;
    for (size_t c = 0; c < s->ncpus; c++)
        if (cpu == TLV_STATS_ALL_CPUS || c == cpu)
            add_columns(&s->cpus[c], t0, t1, out, ncols);
    double width = (t1 - t0) / (double)ncols;
    for (size_t k = 0; k < ncols; k++) {
        double a = t0 + width * (double)k, b = k + 1 == ncols ? t1 : a + width;
        double load = b > a && n ? out[k] / ((b - a) * (double)n) : 0;
        out[k] = load < 0 ? 0 : load > 1 ? 1 : load;
    }
}

double stats_busy_in_sweep(const tlv_stats *s, size_t cpu, double from, double to, size_t at[2])
{
    if (!s || cpu >= s->ncpus)
        return 0;
    const processor *p = &s->cpus[cpu];
    if (!(to > from) || !p->nbusy)
        return 0;
    double d = busy_before_from(p, to, &at[1]) - busy_before_from(p, from, &at[0]);
    return d > 0 ? d : 0;
}

size_t stats_cpu_spans(const tlv_stats *s, size_t cpu, const double **pairs)
{
    if (!s || cpu >= s->ncpus) {
        *pairs = NULL;
        return 0;
    }
    *pairs = (const double *)s->cpus[cpu].busy; /* span is two doubles */
    return s->cpus[cpu].nbusy;
}
