/*
 * stats.c — the numbers behind `tlv stats`: one pass over a finished trace's
 * events (public API: tlv_trace_event, tlv_trace_attr_at) keeping, per
 * resource, its current state and whether it runs, and closing intervals as
 * values change. Durations are exact differences of trace times (then
 * doubles, for sums and means).
 */
#include "stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* A resource name and its index, for finding events' resources. */
typedef struct named {
    const char *name;
    size_t index;
} named;

typedef struct pass {
    const tlv_trace *trace;
    const stats_options *o;
    const char *cpu_attr;       /* the processor attribute used, or NULL */
    int radix;
    track *res;
    size_t nres;
    named *by_name;             /* sorted by name */
    processor *cpus;
    size_t ncpus, cpus_cap;
    int failed;
} pass;

static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap * 2 : 8;
    while (cap2 < need)
        cap2 *= 2;
    void *p = realloc(*arr, cap2 * size);
    if (!p)
        return -1;
    *arr = p;
    *cap = cap2;
    return 0;
}

static double duration(const pass *p, tlv_time from, tlv_time to)
{
    return tlv_time_to_double(tlv_time_sub(to, from, p->radix), p->radix);
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
        if (grow((void **)&t->stats, &t->stats_cap, t->nstats + 1, sizeof *t->stats) < 0) {
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
    if (grow((void **)&p->cpus, &p->cpus_cap, p->ncpus + 1, sizeof *p->cpus) < 0)
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
    if (!c || grow((void **)&c->busy, &c->cap, c->nbusy + 1, sizeof *c->busy) < 0) {
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
    if (t->cpu && strcmp(t->cpu, value) == 0)
        return;
    if (t->running) { /* migrated while running: the time so far stays where it ran */
        add_busy(p, t->cpu, t->run_since, at);
        t->run_since = at;
    }
    t->cpu = value;
}

/* ---- the pass --------------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named *)a)->name, ((const named *)b)->name);
}

static long find_resource(const pass *p, const char *name)
{
    named key = {name, 0};
    const named *n = bsearch(&key, p->by_name, p->nres, sizeof key, by_name);
    return n ? (long)n->index : -1;
}

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
    tlv_time before = {start.ticks - 1, start.frac}; /* no event is that early */
    for (size_t r = 0; r < p->nres; r++) {
        track *t = &p->res[r];
        const char *v;
        t->name = tlv_trace_resource_name(p->trace, r);
        p->by_name[r] = (named){t->name, r};
        t->state_since = t->run_since = start;
        t->has_state = tlv_trace_attr_at(p->trace, t->name, p->o->attribute, &before,
                                         &t->state) == TLV_OK;
        t->has_running = tlv_trace_attr_at(p->trace, t->name, p->o->running_attribute,
                                           &before, &v) == TLV_OK;
        t->running = t->has_running && strcmp(v, p->o->running_value) == 0;
        if (cpu_attr && tlv_trace_attr_at(p->trace, t->name, cpu_attr, &before, &v) == TLV_OK)
            t->cpu = v;
        if (t->has_running && (!cpu_attr || t->cpu) && !find_cpu(p, t->cpu))
            p->failed = 1;
    }
    qsort(p->by_name, p->nres, sizeof *p->by_name, by_name);
}

static void scan_events(pass *p)
{
    const char *cpu_attr = p->cpu_attr;
    size_t n = tlv_trace_event_count(p->trace);
    for (size_t i = 0; i < n && !p->failed; i++) {
        tlv_event e;
        tlv_trace_event(p->trace, i, &e);
        if (e.kind != TLV_EVENT_ATTRIBUTE)
            continue;
        long r = find_resource(p, e.resource);
        if (r < 0)
            continue;
        if (p->res[r].has_state && strcmp(e.name, p->o->attribute) == 0)
            state_change(p, (size_t)r, e.value, e.time);
        if (cpu_attr && strcmp(e.name, cpu_attr) == 0)
            cpu_change(p, (size_t)r, e.value, e.time);
        if (p->res[r].has_running && strcmp(e.name, p->o->running_attribute) == 0)
            running_change(p, (size_t)r, e.value, e.time);
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
static void merge_busy(processor *c)
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
    for (size_t i = 0; i < k; i++)
        c->busy_total += c->busy[i].to - c->busy[i].from;
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

static int collect(pass *p, trace_stats *out)
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
        merge_busy(&p->cpus[c]);
    if (p->ncpus > 1)
        qsort(p->cpus, p->ncpus, sizeof *p->cpus, by_cpu_value);
    out->cpus = p->cpus;
    out->ncpus = p->ncpus;
    p->cpus = NULL; /* now the caller's */
    p->ncpus = 0;
    return 0;
}

int stats_compute(const tlv_rules *rules, const tlv_trace *trace, const stats_options *opts,
                  trace_stats *out)
{
    memset(out, 0, sizeof *out);
    pass p = {trace, opts, opts->cpu_attribute, tlv_rules_time_radix(rules), NULL,
              tlv_trace_resource_count(trace), NULL, NULL, 0, 0, 0};
    out->start = tlv_time_to_double(tlv_trace_start(trace), p.radix);
    out->end = tlv_time_to_double(tlv_trace_end(trace), p.radix);
    p.res = calloc(p.nres + 1, sizeof *p.res);
    p.by_name = calloc(p.nres + 1, sizeof *p.by_name);
    p.failed = !p.res || !p.by_name;
    if (!p.failed && !p.cpu_attr && any_has(trace, "prcId"))
        p.cpu_attr = "prcId";
    out->cpu_attribute = p.cpu_attr;
    if (!p.failed) {
        init_tracks(&p);
        scan_events(&p);
        close_tracks(&p);
    }
    int rc = p.failed ? -1 : collect(&p, out);
    for (size_t r = 0; p.res && r < p.nres; r++)
        free(p.res[r].stats);
    free(p.res);
    free(p.by_name);
    for (size_t c = 0; c < p.ncpus; c++) {
        free(p.cpus[c].name);
        free(p.cpus[c].busy);
    }
    free(p.cpus);
    return rc;
}

double stats_busy_in(const processor *p, double from, double to)
{
    size_t lo = 0, hi = p->nbusy; /* first span ending after `from` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (p->busy[mid].to <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    double sum = 0;
    for (size_t i = lo; i < p->nbusy && p->busy[i].from < to; i++) {
        double a = p->busy[i].from > from ? p->busy[i].from : from;
        double b = p->busy[i].to < to ? p->busy[i].to : to;
        sum += b > a ? b - a : 0;
    }
    return sum;
}

void stats_free(trace_stats *s)
{
    free(s->states);
    for (size_t c = 0; c < s->ncpus; c++) {
        free(s->cpus[c].name);
        free(s->cpus[c].busy);
    }
    free(s->cpus);
    memset(s, 0, sizeof *s);
}
