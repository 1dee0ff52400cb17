/*
 * counters.c — counter attributes of a trace (tlv/counters.h): one pass
 * over the sorted events collects, per resource and counter attribute, the
 * numeric values in time order; the statistics follow from the samples.
 * tlv_counters_compute_numeric also follows every other attribute, drops
 * one at its first value that is not a number (freeing what it had), and
 * keeps those that changed at least once.
 */
#include "base/abi.h"
#include "viz/viz_impl.h"

#include <stdlib.h>
#include <string.h>

typedef struct counter {
    size_t res, attr;
    tlv_counter_sample *s;
    size_t n, cap;
    size_t skipped;
    int started;             /* the initial value has been placed */
    int declared;            /* "Counter": true (else only numbers so far: offered) */
    int dead;                /* offered, but a value was not a number: dropped */
    tlv_counter_info info;
} counter;

struct tlv_counters {
    const tlv_trace *trace;
    counter *c;
    size_t n;
    long *first;             /* per resource: its first counter, or -1 */
};

static const attr_def *attr_of(const world *w, size_t res, size_t attr)
{
    return &w->model->types[w->res[res].type].attrs[attr];
}

int tlv_trace_attr_is_counter(const tlv_trace *t, const char *resource, const char *attr)
{
    if (!t || !resource || !attr)
        return 0;
    long ri = world_find(t->w, resource, strlen(resource));
    if (ri < 0)
        return 0;
    const res_type *type = &t->w->model->types[t->w->res[ri].type];
    long ai = model_attr_index(type, attr, strlen(attr));
    return ai >= 0 && type->attrs[ai].counter;
}

/* Reads a whole value as a number (decimal, as tlv writes them). */
static int number_of(const char *s, double *out)
{
    char *end = NULL;
    if (!*s)
        return 0;
    *out = strtod(s, &end);
    return end != s && *end == '\0';
}

static int add_sample(counter *c, tlv_time t, const char *value)
{
    double v;
    if (c->dead)
        return 0;
    if (!number_of(value, &v)) {
        c->skipped++;
        if (!c->declared) { /* not every value is a number: not a counter */
            c->dead = 1;
            free(c->s);
            c->s = NULL;
            c->n = c->cap = 0;
        }
        return 0;
    }
    if (GROW(c->s, c->cap, c->n + 1) < 0)
        return -1;
    c->s[c->n++] = (tlv_counter_sample){t, v};
    return 0;
}

/* The initial value, from where the resource's row starts. */
static int start_counter(const tlv_trace *t, counter *c, tlv_time at)
{
    c->started = 1;
    const history *h = &t->w->res[c->res].attrs[c->attr];
    double v;
    const char *init = intern_str(t->w->values, h->init);
    if (!c->declared && *init) /* an offered attribute starting at a word is none */
        return add_sample(c, at, init);
    return number_of(init, &v) ? add_sample(c, at, init) : 0;
}

/* Counters: the declared ones, and with `numeric` every other attribute. */
static int list_counters(tlv_counters *cs, int numeric)
{
    const world *w = cs->trace->w;
    cs->first = malloc((w->nres ? w->nres : 1) * sizeof *cs->first);
    if (!cs->first)
        return -1;
    size_t cap = 0;
    for (size_t r = 0; r < w->nres; r++) {
        cs->first[r] = -1;
        const res_type *type = &w->model->types[w->res[r].type];
        for (size_t a = 0; a < type->nattrs; a++) {
            if (!type->attrs[a].counter && !numeric)
                continue;
            if (GROW(cs->c, cap, cs->n + 1) < 0)
                return -1;
            if (cs->first[r] < 0)
                cs->first[r] = (long)cs->n;
            counter *c = &cs->c[cs->n++];
            memset(c, 0, sizeof *c);
            c->res = r;
            c->attr = a;
            c->declared = type->attrs[a].counter;
        }
    }
    return 0;
}

/* Whether an offered attribute's samples never vary (a forked process's
 * pid set once: a track of it would be a flat line, not data). */
static int no_quantity(const counter *c)
{
    for (size_t i = 1; i < c->n; i++)
        if (c->s[i].value != c->s[0].value)
            return 0;
    return 1;
}

/* Drops the offered attributes that are not counters after all (a value
 * not a number, never changed, or never varied), keeping the order;
 * rebuilds `first`. */
static void keep_numeric(tlv_counters *cs)
{
    size_t k = 0;
    for (size_t i = 0; i < cs->n; i++) {
        counter *c = &cs->c[i];
        if (!c->declared && (c->dead || c->n < 2 || no_quantity(c))) {
            free(c->s);
            continue;
        }
        cs->c[k++] = *c;
    }
    cs->n = k;
    for (size_t r = 0; r < cs->trace->w->nres; r++)
        cs->first[r] = -1;
    for (size_t i = cs->n; i-- > 0;)
        cs->first[cs->c[i].res] = (long)i;
}

/* The counter for (res, attribute name), or NULL. */
static counter *counter_of(tlv_counters *cs, size_t res, const char *name)
{
    for (long i = cs->first[res]; i >= 0 && (size_t)i < cs->n && cs->c[i].res == res; i++)
        if (strcmp(attr_of(cs->trace->w, res, cs->c[i].attr)->name, name) == 0)
            return &cs->c[i];
    return NULL;
}

static int collect(tlv_counters *cs)
{
    const tlv_trace *t = cs->trace;
    tlv_time start = tlv_trace_start(t);
    for (size_t i = 0; i < cs->n; i++)
        if (!t->w->res[cs->c[i].res].dynamic && start_counter(t, &cs->c[i], start) < 0)
            return -1;
    for (size_t i = 0; i < t->nev; i++) {
        const trace_event *e = &t->ev[i];
        if (cs->first[e->res] < 0)
            continue;
        for (long k = cs->first[e->res]; (size_t)k < cs->n && cs->c[k].res == e->res; k++)
            if (!cs->c[k].started && start_counter(t, &cs->c[k], trace_time(t, e)) < 0)
                return -1;
        if (e->kind != TLV_EVENT_ATTRIBUTE)
            continue;
        counter *c = counter_of(cs, e->res, intern_str(t->w->values, e->name));
        if (c && add_sample(c, trace_time(t, e), intern_str(t->w->values, e->value)) < 0)
            return -1;
    }
    return 0;
}

static void summarize(const tlv_trace *t, counter *c)
{
    const world *w = t->w;
    const attr_def *a = attr_of(w, c->res, c->attr);
    tlv_counter_info *in = &c->info;
    memset(in, 0, sizeof *in);
    in->resource = w->res[c->res].name;
    in->attribute = a->name;
    in->display_name = a->display ? a->display : a->name;
    in->nsamples = c->n;
    in->skipped = c->skipped;
    in->has_bounds = a->has_bounds;
    in->declared = c->declared;
    in->lower = a->lower;
    in->upper = a->upper;
    if (!c->n)
        return;
    int radix = w->radix;
    double sum = 0, weighted = 0;
    in->min = in->max = c->s[0].value;
    double end = tlv_time_to_double(tlv_trace_end(t), radix);
    double first = tlv_time_to_double(c->s[0].time, radix);
    for (size_t i = 0; i < c->n; i++) {
        double v = c->s[i].value;
        in->min = v < in->min ? v : in->min;
        in->max = v > in->max ? v : in->max;
        sum += v;
        double from = tlv_time_to_double(c->s[i].time, radix);
        double to = i + 1 < c->n ? tlv_time_to_double(c->s[i + 1].time, radix) : end;
        if (to > from)
            weighted += v * (to - from);
    }
    in->mean = sum / (double)c->n;
    in->time_mean = end > first ? weighted / (end - first) : c->s[c->n - 1].value;
}

static tlv_status compute(const tlv_trace *t, tlv_counters **out, int numeric)
{
    if (!out)
        return TLV_ERR_USAGE;
    *out = NULL;
    if (!t)
        return TLV_ERR_USAGE;
    ALLOC_WATCH;
    tlv_counters *cs = calloc(1, sizeof *cs);
    if (!cs)
        return TLV_ERR_NOMEM;
    cs->trace = t;
    if (list_counters(cs, numeric) < 0 || (cs->n && collect(cs) < 0) || ALLOC_FAILED_SINCE()) {
        tlv_counters_free(cs);
        return TLV_ERR_NOMEM;
    }
    if (numeric)
        keep_numeric(cs);
    for (size_t i = 0; i < cs->n; i++)
        summarize(t, &cs->c[i]);
    *out = cs;
    return TLV_OK;
}

tlv_status tlv_counters_compute(const tlv_trace *t, tlv_counters **out)
{
    return compute(t, out, 0);
}

tlv_status tlv_counters_compute_numeric(const tlv_trace *t, tlv_counters **out)
{
    return compute(t, out, 1);
}

void tlv_counters_free(tlv_counters *cs)
{
    if (!cs)
        return;
    for (size_t i = 0; i < cs->n; i++)
        free(cs->c[i].s);
    free(cs->c);
    free(cs->first);
    free(cs);
}

size_t tlv_counters_count(const tlv_counters *cs) { return cs ? cs->n : 0; }

long tlv_counters_find(const tlv_counters *cs, const char *resource, const char *attr)
{
    if (!cs || !resource || !attr)
        return -1;
    long ri = world_find(cs->trace->w, resource, strlen(resource));
    if (ri < 0 || (size_t)ri >= cs->trace->w->nres || cs->first[ri] < 0)
        return -1;
    for (long i = cs->first[ri]; (size_t)i < cs->n && cs->c[i].res == (size_t)ri; i++)
        if (strcmp(cs->c[i].info.attribute, attr) == 0)
            return i;
    return -1;
}

static void counter_info_fill(const tlv_counters *cs, size_t i, tlv_counter_info *out)
{
    if (cs && i < cs->n)
        *out = cs->c[i].info;
    else
        memset(out, 0, sizeof *out);
}

void tlv_counters_get_sized(const tlv_counters *cs, size_t i, tlv_counter_info *out, size_t size)
{
    ABI_FILL_OUT(tlv_counter_info, counter_info_fill, out, size, cs, i);
}

const tlv_counter_sample *tlv_counters_samples(const tlv_counters *cs, size_t i, size_t *n)
{
    if (!cs || i >= cs->n || !cs->c[i].n) {
        *n = 0;
        return NULL;
    }
    *n = cs->c[i].n;
    return cs->c[i].s;
}

size_t tlv_counters_sample_at(const tlv_counters *cs, size_t i, tlv_time t)
{
    if (!cs || i >= cs->n)
        return (size_t)-1;
    const counter *c = &cs->c[i];
    size_t lo = 0, hi = c->n; /* first sample after t */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(c->s[mid].time, t) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : (size_t)-1;
}
