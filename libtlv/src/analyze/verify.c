/*
 * verify.c — timing requirements checked against a trace (tlv/verify.h):
 * each requirement of a file (requirements.c) becomes a verdict with its
 * worst case and where it happened, and the violations of failed ones are
 * kept for a timeline. Response checks read the instances
 * (tlv/instances.h); cpu checks the processors' busy stretches (stats.c);
 * state, followed and never checks make one pass over the events each,
 * reading only those whose name concerns them.
 */
#include "analyze/evmatch.h"
#include "analyze/requirements.h"
#include "analyze/stats_impl.h"
#include "base/abi.h"
#include "base/buf.h"
#include "base/intern.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_VIOLATIONS 100000 /* kept per requirement; all are counted */

typedef struct vrec {
    uint32_t name, check, message, resource; /* in the verdicts' pool; resource 0: none */
    int passed;
    double worst, bound;
    tlv_time time;
    uint64_t line;
    size_t violations;
    long file_line;
} vrec;

typedef struct vio {
    size_t req;
    uint32_t resource;
    tlv_time start, end;
    uint64_t line;
    double value;
} vio;

struct tlv_verdicts {
    tlv_diags diags;
    intern_pool *pool;
    vrec *v;
    size_t n, cap, failed;
    vio *vio;
    size_t nvio, vio_cap;
};

typedef struct vctx {
    const struct tlv_requirements *reqs;
    const tlv_trace *t;
    const tlv_instances *inst;
    tlv_stats *stats;
    struct tlv_verdicts *out;
    const requirement *q;
    size_t qi;
    int radix;
    const char *scale;
    int scale_exp;             /* 10^exp seconds; 1 when the TimeScale is not a time unit */
    tlv_time t0, t1;
    buf msg;
    size_t kept;               /* violations kept for this requirement */
    int failed;                /* memory */
} vctx;

/* ---- helpers ----------------------------------------------------------------------- */

static uint32_t keep(vctx *c, const char *s)
{
    uint32_t id = intern_add(c->out->pool, s ? s : "", s ? strlen(s) : 0);
    if (id == UINT32_MAX)
        c->failed = 1;
    return id;
}

/* A number for people: up to 3 decimals, no trailing zeros (as tlv stats). */
static const char *num(char *b, size_t size, double x)
{
    snprintf(b, size, "%.3f", x);
    char *dot = strchr(b, '.');
    if (dot) {
        char *end = b + strlen(b);
        while (end > dot && (end[-1] == '0' || end[-1] == '.'))
            *--end = '\0';
    }
    if (strcmp(b, "-0") == 0)
        strcpy(b, "0");
    return b;
}

static void say(vctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(vctx *c, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (buf_puts(&c->msg, text) < 0)
        c->failed = 1;
}

static void say_time(vctx *c, tlv_time t)
{
    char text[160];
    tlv_time_format(t, c->radix, text, sizeof text);
    say(c, "%s %s", text, c->scale);
}

/* "; worst: RES at TIME, line N" — where a worst case began. */
static void say_where(vctx *c, const char *what, const char *res, tlv_time t, uint64_t line)
{
    say(c, "; %s: %s at ", what, res ? res : "-");
    say_time(c, t);
    if (line)
        say(c, ", line %llu", (unsigned long long)line);
    else
        say(c, " (its initial value)");
}

static void error_at(vctx *c, req_pos pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void error_at(vctx *c, req_pos pos, const char *fmt, ...)
{
    char text[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    diags_add(&c->out->diags, TLV_SEV_ERROR, c->reqs->path, pos.line, pos.col,
              "requirement '%s': %s", c->q->name, text);
}

/* A duration of the file in TimeScale units; -1 (reported) when its unit
 * cannot be taken. */
static double duration(vctx *c, const req_dur *d)
{
    if (!d->has_unit && c->scale_exp != 1 && req_duration_too_large(d->value, c->scale_exp)) {
        char largest[64];
        error_at(c, d->pos, "\"%s\": %s (in the trace's TimeScale, %s) is too large: the largest "
                 "duration is %s %s (2^63 - 1 ns)", d->key, d->text, c->scale,
                 req_largest_duration(c->scale_exp, largest, sizeof largest), c->scale);
        return -1;
    }
    if (!d->has_unit)
        return d->value;
    if (c->scale_exp == 1) {
        error_at(c, d->pos, "the trace's TimeScale is '%s', not a unit of time: write "
                 "durations as plain numbers of it", c->scale);
        return -1;
    }
    return d->value * pow(10, d->exp - c->scale_exp);
}

static double as_double(const vctx *c, tlv_time t)
{
    return tlv_time_to_double(t, c->radix);
}

/* b - a, right over the whole range of times (tlv_time_sub wraps a span
 * past 2^63 ticks: a state held from -2^63 to 2^63 - 1 lasted -1, and its
 * requirement passed as "never"). */
static double between(const vctx *c, tlv_time a, tlv_time b)
{
    return tlv_time_span(a, b, c->radix);
}

/* Whether the span from..to is over `bound`, exactly: a double holds whole
 * numbers only up to 2^53, so a span past it one tick over its bound
 * compared equal to it as a double and passed. Below 2^53, as a double. */
static int span_over(const vctx *c, tlv_time from, tlv_time to, double bound)
{
    double d = between(c, from, to);
    if (d < 9007199254740992.0 || !(bound >= 0))
        return d > bound;
    if (bound >= 18446744073709551616.0)
        return 0;
    uint64_t ticks, b = (uint64_t)bound; /* a double past 2^52 has no fraction */
    tlv_time_span_fits(from, to, c->radix, &ticks);
    return ticks > b || (ticks == b && tlv_time_sub(to, from, c->radix).frac != 0);
}

/* The span from..to for people: as num() below 2^53; past it exactly, where
 * a double printed whole numbers that lost their last digits. */
static const char *span_text(const vctx *c, char *b, size_t size, tlv_time from, tlv_time to)
{
    double d = between(c, from, to);
    uint64_t ticks;
    tlv_time_span_fits(from, to, c->radix, &ticks);
    uint64_t frac = tlv_time_sub(to, from, c->radix).frac;
    if (d < 9007199254740992.0 || (frac && c->radix != 10))
        return num(b, size, d);
    char f[160] = "";
    if (frac)
        tlv_time_format((tlv_time){0, frac}, 10, f, sizeof f); /* "0.25" */
    snprintf(b, size, "%llu%.40s", (unsigned long long)ticks, frac ? f + 1 : "");
    return b;
}

/* A time near x (in TimeScale units) for a violation that has only a double. */
static tlv_time from_double(const vctx *c, double x)
{
    char text[64];
    tlv_time t = {(int64_t)floor(x), 0};
    if (c->radix == 10 && x != floor(x)) {
        snprintf(text, sizeof text, "%.9f", x);
        const char *why;
        tlv_time_parse(text, strlen(text), 10, &t, &why);
    }
    return t;
}

/* The log line of the first event at or after time t (0 when none). */
static uint64_t line_at(const vctx *c, tlv_time t)
{
    size_t i = tlv_trace_seek(c->t, t);
    return i < c->t->nev ? trace_line(c->t, &c->t->ev[i]) : 0;
}

static void add_violation(vctx *c, const char *res, tlv_time start, tlv_time end, uint64_t line,
                          double value)
{
    if (c->kept >= MAX_VIOLATIONS)
        return;
    struct tlv_verdicts *o = c->out;
    if (GROW(o->vio, o->vio_cap, o->nvio + 1) < 0) {
        c->failed = 1;
        return;
    }
    o->vio[o->nvio++] = (vio){c->qi, res ? keep(c, res) : 0, start, end, line, value};
    c->kept++;
}

/* Ends the verdict of the current requirement. */
static void verdict(vctx *c, int passed, double worst, double bound, const char *res,
                    tlv_time t, uint64_t line, size_t violations)
{
    struct tlv_verdicts *o = c->out;
    if (passed) /* a passing requirement has no violations to show */
        o->nvio -= c->kept;
    if (GROW(o->v, o->cap, o->n + 1) < 0) {
        c->failed = 1;
        return;
    }
    vrec *v = &o->v[o->n++];
    v->name = keep(c, c->q->name);
    v->check = keep(c, req_check_names[c->q->check]);
    v->message = keep(c, c->msg.data ? c->msg.data : "");
    v->resource = res ? keep(c, res) : 0;
    v->passed = passed;
    v->worst = worst;
    v->bound = bound;
    v->time = t;
    v->line = line;
    v->violations = violations;
    v->file_line = c->q->pos.line;
    o->failed += !passed;
}

/* The resource indexes a requirement's "Resource" names: the resource, or
 * every resource of the type; every resource when it names none. -1 (and an
 * error at its position) when it names nothing of the trace. Sets
 * sel[r] for each. */
static int select_resources(vctx *c, unsigned char *sel)
{
    const world *w = c->t->w;
    const req_text *rt = &c->q->resource;
    if (!rt->s) {
        memset(sel, 1, w->nres);
        return 0;
    }
    long r = world_find(w, rt->s, strlen(rt->s));
    long type = r < 0 ? model_type_index(w->model, rt->s, strlen(rt->s)) : -1;
    if (r < 0 && type < 0) {
        error_at(c, rt->pos, "the trace has no resource or type '%s'", rt->s);
        return -1;
    }
    for (size_t i = 0; i < w->nres; i++)
        sel[i] = r >= 0 ? (long)i == r : (long)w->res[i].type == type;
    return 0;
}

/* ---- response and latency ---------------------------------------------------------- */

static double group_value(const vctx *c, size_t g, const tlv_instance_group *gr)
{
    switch (c->q->stat) {
    case STAT_MEAN:
        return gr->mean;
    case STAT_PCT:
        return tlv_instances_percentile(c->inst, g, c->q->pct);
    default:
        return gr->max;
    }
}

/* The instance a group's statistic is: the worst for max and mean, the
 * first of that response time for a percentile. */
static size_t group_where(const vctx *c, size_t g, const tlv_instance_group *gr, double value)
{
    if (c->q->stat != STAT_PCT)
        return gr->worst;
    for (size_t k = 0; k < gr->count; k++) {
        size_t i = tlv_instances_group_member(c->inst, g, k);
        tlv_instance x;
        tlv_instances_get(c->inst, i, &x);
        if (x.response == value)
            return i;
    }
    return gr->worst;
}

/* Whether a group's statistic `value` is over the bound: exactly when it
 * is an instance's response (max, a percentile). */
static int group_over(const vctx *c, size_t g, const tlv_instance_group *gr, double value,
                      double bound)
{
    if (c->q->stat == STAT_MEAN || value < 9007199254740992.0)
        return value > bound;
    tlv_instance x;
    tlv_instances_get(c->inst, group_where(c, g, gr, value), &x);
    return span_over(c, x.start, x.end, bound);
}

static const char *stat_name(const requirement *q, char *b, size_t size)
{
    if (q->stat == STAT_PCT) {
        char p[32];
        snprintf(b, size, "p%s", num(p, sizeof p, q->pct));
    } else {
        snprintf(b, size, "%s", q->stat == STAT_MEAN ? "mean" : "max");
    }
    return b;
}

static void check_response(vctx *c, unsigned char *sel)
{
    const requirement *q = c->q;
    const char *kind = q->kind.s ? q->kind.s : q->check == RC_LATENCY ? "latency" : "response";
    double bound = duration(c, &q->max);
    if (bound < 0)
        return;
    long worst_g = -1, last_r = -1;
    double worst = -1;
    size_t over = 0, total = 0, actors = 0;
    for (size_t g = 0; g < tlv_instances_group_count(c->inst); g++) {
        tlv_instance_group gr;
        tlv_instances_group(c->inst, g, &gr);
        long r = world_find(c->t->w, gr.resource, strlen(gr.resource));
        if (r < 0 || !sel[r] || strcmp(gr.kind, kind) != 0 || !gr.count ||
            (q->iname.s && strcmp(gr.name, q->iname.s) != 0))
            continue;
        actors += r != last_r; /* the groups come by resource */
        last_r = r;
        total += gr.count;
        double v = group_value(c, g, &gr);
        if (v > worst) {
            worst = v;
            worst_g = (long)g;
        }
        for (size_t k = 0; k < gr.count; k++) {
            tlv_instance x;
            tlv_instances_get(c->inst, tlv_instances_group_member(c->inst, g, k), &x);
            if (span_over(c, x.start, x.end, bound)) {
                over++;
                if (group_over(c, g, &gr, v, bound))
                    add_violation(c, gr.label, x.start, x.end, x.start_line, x.response);
            }
        }
    }
    char st[40], b1[64], b2[64];
    stat_name(q, st, sizeof st);
    const char *what = q->iname.s ? q->iname.s : "";
    if (worst_g < 0) {
        say(c, "no whole %s%s%s instance of %s in the trace", kind, *what ? " " : "", what,
            q->resource.s ? q->resource.s : "any resource");
        verdict(c, 0, -1, bound, NULL, c->t0, 0, 0);
        return;
    }
    tlv_instance_group gr;
    tlv_instances_group(c->inst, (size_t)worst_g, &gr);
    tlv_instance x;
    tlv_instances_get(c->inst, group_where(c, (size_t)worst_g, &gr, worst), &x);
    int passed = !group_over(c, (size_t)worst_g, &gr, worst, bound);
    say(c, "%s %s%s%s of %s %s %s %s %s %s", kind, *gr.name ? gr.name : "", *gr.name ? " " : "",
        st, gr.label,
        q->stat == STAT_MEAN ? num(b1, sizeof b1, worst) : span_text(c, b1, sizeof b1, x.start, x.end),
        c->scale, passed ? "<=" : ">",
        num(b2, sizeof b2, bound), c->scale);
    say_where(c, q->stat == STAT_PCT ? "that instance" : "worst", gr.label, x.start,
              x.start_line);
    say(c, "; %zu of %zu instance%s over", over, total, total == 1 ? "" : "s");
    if (actors > 1)
        say(c, " (%zu actors)", actors);
    verdict(c, passed, worst, bound, gr.label, x.start, x.start_line, passed ? 0 : over);
}

/* ---- state: the longest interval in a value ---------------------------------------- */

typedef struct track {
    uint32_t value;            /* current value id */
    tlv_time since;
    uint64_t line;             /* of the change into it; 0: the initial value */
} track;

/* Every selected resource's value of `attr` before the first event (not at
 * t0 - 1, which wrapped to the trace's end for a first event at -2^63); -1
 * when a named resource's type has no such attribute. */
static int init_tracks(vctx *c, unsigned char *sel, const char *attr, track *tr)
{
    const world *w = c->t->w;
    int any = 0;
    for (size_t r = 0; r < w->nres; r++) {
        const char *v;
        tr[r].value = EVM_NEVER;
        if (!sel[r] || tlv_trace_attr_initial(c->t, w->res[r].name, attr, &v) != TLV_OK) {
            sel[r] = 0;
            continue;
        }
        any = 1;
        tr[r].value = intern_find(w->values, v, strlen(v));
        tr[r].since = c->t0;
        tr[r].line = 0;
    }
    if (!any) {
        const req_text *at = c->q->attribute.s ? &c->q->attribute : &c->q->resource;
        req_pos pos = at->s ? at->pos : c->q->pos;
        error_at(c, pos, "no resource%s%s has an attribute '%s'",
                 c->q->resource.s ? " of " : "", c->q->resource.s ? c->q->resource.s : "", attr);
        return -1;
    }
    return 0;
}

typedef struct span_rec {
    uint32_t res;
    tlv_time from, to;
    uint64_t line;
} span_rec;

/* The intervals each selected resource spent in value `want`, in time
 * order of their ends, to fn; an interval still open at the end runs to
 * the trace's end. */
static void scan_values(vctx *c, unsigned char *sel, const char *attr, uint32_t want,
                        void (*fn)(vctx *, const span_rec *, void *), void *user)
{
    const world *w = c->t->w;
    track *tr = calloc(w->nres + 1, sizeof *tr);
    if (!tr) {
        c->failed = 1;
        return;
    }
    if (init_tracks(c, sel, attr, tr) < 0) {
        free(tr);
        return;
    }
    uint32_t name = intern_find(w->values, attr, strlen(attr));
    for (size_t i = 0; i < c->t->nev && name != EVM_NEVER; i++) {
        const trace_event *e = &c->t->ev[i];
        if (e->kind != TLV_EVENT_ATTRIBUTE || e->name != name || e->res >= w->nres ||
            !sel[e->res] || e->value == tr[e->res].value)
            continue;
        track *k = &tr[e->res];
        tlv_time t = trace_time(c->t, e);
        if (k->value == want && want != EVM_NEVER) {
            span_rec s = {e->res, k->since, t, k->line};
            fn(c, &s, user);
        }
        *k = (track){e->value, t, trace_line(c->t, e)};
    }
    for (size_t r = 0; r < w->nres; r++)
        if (sel[r] && tr[r].value == want && want != EVM_NEVER) {
            span_rec s = {(uint32_t)r, tr[r].since, c->t1, tr[r].line};
            fn(c, &s, user);
        }
    free(tr);
}

typedef struct longest {
    double bound, worst;
    span_rec at;
    size_t over, count;
} longest;

static void on_state_span(vctx *c, const span_rec *s, void *user)
{
    longest *l = user;
    double d = between(c, s->from, s->to);
    if (!(d > 0))
        return; /* zero-length: a pass-through, as tlv stats leaves it out */
    l->count++;
    if (d > l->worst) {
        l->worst = d;
        l->at = *s;
    }
    if (span_over(c, s->from, s->to, l->bound)) {
        l->over++;
        add_violation(c, world_label(c->t->w, s->res), s->from, s->to, s->line, d);
    }
}

static void check_state(vctx *c, unsigned char *sel)
{
    const requirement *q = c->q;
    const char *attr = q->attribute.s ? q->attribute.s : "state";
    longest l = {duration(c, &q->max), -1, {0, {0, 0}, {0, 0}, 0}, 0, 0};
    if (l.bound < 0)
        return;
    uint32_t want = intern_find(c->t->w->values, q->state.s, strlen(q->state.s));
    size_t nd = tlv_diags_errors(&c->out->diags);
    scan_values(c, sel, attr, want, on_state_span, &l);
    if (tlv_diags_errors(&c->out->diags) != nd)
        return;
    char b1[64], b2[64];
    if (!l.count) {
        say(c, "never %s=%s", attr, q->state.s);
        verdict(c, 1, 0, l.bound, NULL, c->t0, 0, 0);
        return;
    }
    const char *res = world_label(c->t->w, l.at.res);
    int passed = l.over == 0;
    say(c, "%s=%s for at most %s %s %s %s %s", attr, q->state.s, span_text(c, b1, sizeof b1, l.at.from, l.at.to),
        c->scale, passed ? "<=" : ">", num(b2, sizeof b2, l.bound), c->scale);
    say_where(c, "longest", res, l.at.from, l.at.line);
    say(c, "; %zu of %zu interval%s over", l.over, l.count, l.count == 1 ? "" : "s");
    verdict(c, passed, l.worst, l.bound, res, l.at.from, l.at.line, l.over);
}

/* ---- never: a state entered, an event happening ------------------------------------ */

typedef struct entries {
    size_t count;
    span_rec first;
} entries;

static void on_entry(vctx *c, const span_rec *s, void *user)
{
    entries *en = user;
    if (!en->count || tlv_time_cmp(s->from, en->first.from) < 0)
        en->first = *s;
    en->count++;
    add_violation(c, world_label(c->t->w, s->res), s->from, s->to, s->line, 1);
}

/* A resolved pattern of the file: its resource must be of the trace. */
static int compile_pattern(vctx *c, const req_text *pt, evmatch *m)
{
    char *res = NULL;
    if (evmatch_compile(c->t, pt->s, m, &res) < 0) {
        c->failed = 1;
        return -1;
    }
    int rc = res && evmatch_resource(c->t, res, m) == 0 ? 0 : -1;
    if (rc < 0)
        error_at(c, pt->pos, "the trace has no resource or type '%s'", res ? res : pt->s);
    free(res);
    return rc;
}

static void check_never_event(vctx *c)
{
    evmatch m;
    if (compile_pattern(c, &c->q->event, &m) < 0) {
        evmatch_free(&m);
        return;
    }
    size_t count = 0;
    size_t first = 0;
    for (size_t i = 0; i < c->t->nev; i++) {
        const trace_event *e = &c->t->ev[i];
        if (!evmatch_matches(c->t, &m, e))
            continue;
        if (!count++)
            first = i;
        tlv_time t = trace_time(c->t, e);
        add_violation(c, world_label(c->t->w, e->res), t, t, trace_line(c->t, e), 1);
    }
    evmatch_free(&m);
    if (!count) {
        say(c, "%s never happened", c->q->event.s);
        verdict(c, 1, 0, 0, NULL, c->t0, 0, 0);
        return;
    }
    const trace_event *e = &c->t->ev[first];
    const char *res = world_label(c->t->w, e->res);
    say(c, "%s happened %zu time%s", c->q->event.s, count, count == 1 ? "" : "s");
    say_where(c, "first", res, trace_time(c->t, e), trace_line(c->t, e));
    verdict(c, 0, (double)count, 0, res, trace_time(c->t, e), trace_line(c->t, e), count);
}

static void check_never(vctx *c, unsigned char *sel)
{
    if (c->q->event.s) {
        check_never_event(c);
        return;
    }
    const char *attr = c->q->attribute.s ? c->q->attribute.s : "state";
    uint32_t want = intern_find(c->t->w->values, c->q->state.s, strlen(c->q->state.s));
    entries en = {0, {0, {0, 0}, {0, 0}, 0}};
    size_t nd = tlv_diags_errors(&c->out->diags);
    scan_values(c, sel, attr, want, on_entry, &en);
    if (tlv_diags_errors(&c->out->diags) != nd)
        return;
    if (!en.count) {
        say(c, "never %s=%s", attr, c->q->state.s);
        verdict(c, 1, 0, 0, NULL, c->t0, 0, 0);
        return;
    }
    const char *res = world_label(c->t->w, en.first.res);
    say(c, "%s=%s entered %zu time%s", attr, c->q->state.s, en.count, en.count == 1 ? "" : "s");
    say_where(c, "first", res, en.first.from, en.first.line);
    verdict(c, 0, (double)en.count, 0, res, en.first.from, en.first.line, en.count);
}

/* ---- cpu: the busiest window ------------------------------------------------------- */

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

/* The window starts where the busy time of a window of length w changes
 * slope: lo, hi and each stretch's start and end (the n times of sp, in
 * increasing order: the stretches are merged) at s or at s + w, kept in
 * [lo, hi]; written to s in increasing order, each once; their number. Two
 * increasing sequences merged: no sort. */
static size_t breakpoints(const double *sp, size_t n, double w, double lo, double hi, double *s)
{
    size_t u = 0, i = 0, j = 0;
    s[u++] = lo;
    while (i < n || j < n) {
        double x;
        if (j == n || (i < n && clamp(sp[i], lo, hi) <= clamp(sp[j] - w, lo, hi)))
            x = clamp(sp[i++], lo, hi);
        else
            x = clamp(sp[j++] - w, lo, hi);
        if (x > s[u - 1])
            s[u++] = x;
    }
    if (hi > s[u - 1])
        s[u++] = hi;
    return u;
}

/* Adds the time covered by windows [s, s + w] for s in [a, b] (window
 * starts over the bound) to the run so far, or ends the run and starts
 * another; a finished run is a violation. */
typedef struct run {
    double from, to, worst;
    int open;
} run;

static void run_add(vctx *c, run *r, const char *name, double a, double b, double w,
                    double share, size_t *over)
{
    if (r->open && a <= r->to) {
        r->to = b + w > r->to ? b + w : r->to;
        r->worst = share > r->worst ? share : r->worst;
        return;
    }
    if (r->open) {
        tlv_time t = from_double(c, r->from);
        add_violation(c, name, t, from_double(c, r->to), line_at(c, t), r->worst);
    }
    *r = (run){a, b + w, share, 1};
    (*over)++;
}

/* The busiest window of length w on processor k: its share, and its start
 * in *at; the stretches of time covered by windows over `bound` are
 * violations (*over counts them). The busy time of the window starting at
 * s is linear in s between the breakpoints where s or s + w meets a busy
 * stretch's start or end, so the busiest window starts at one of them, and
 * between two of them the starts over the bound are one interval. */
static double busiest(vctx *c, size_t k, const char *name, double w, double bound, double *at,
                      size_t *over)
{
    const double *sp;
    size_t n = stats_cpu_spans(c->stats, k, &sp);
    double lo = as_double(c, c->t0), hi = as_double(c, c->t1) - w, best = -1;
    hi = hi < lo ? lo : hi;
    *at = lo;
    size_t m = 4 * n + 2;
    double *s = malloc(m * sizeof *s), *f = malloc(m * sizeof *f);
    if (!s || !f) {
        free(s);
        free(f);
        c->failed = 1;
        return 0;
    }
    size_t u = breakpoints(sp, 2 * n, w, lo, hi, s);
    run r = {0, 0, 0, 0};
    size_t cursor[2] = {0, 0};
    for (size_t i = 0; i < u; i++) {
        f[i] = stats_busy_in_sweep(c->stats, k, s[i], s[i] + w, cursor) / w;
        if (f[i] > best + 1e-12) {
            best = f[i];
            *at = s[i];
        }
        if (i == 0 && f[0] > bound + 1e-12)
            run_add(c, &r, name, s[0], s[0], w, f[0], over);
        if (i == 0)
            continue;
        double fa = f[i - 1], fb = f[i], a = s[i - 1], b = s[i];
        int oa = fa > bound + 1e-12, ob = fb > bound + 1e-12;
        if (!oa && !ob)
            continue;
        double x = a, y = b; /* where the linear share crosses the bound */
        if (!oa)
            x = a + (bound - fa) / (fb - fa) * (b - a);
        if (!ob)
            y = a + (bound - fa) / (fb - fa) * (b - a);
        run_add(c, &r, name, x, y, w, fa > fb ? fa : fb, over);
    }
    if (r.open) {
        tlv_time t = from_double(c, r.from);
        add_violation(c, name, t, from_double(c, r.to), line_at(c, t), r.worst);
    }
    free(s);
    free(f);
    return best;
}

static void check_cpu(vctx *c)
{
    const requirement *q = c->q;
    double w = duration(c, &q->window), span = between(c, c->t0, c->t1);
    if (w < 0)
        return;
    if (w > span) { /* busy / w over a shorter trace would pass any CPU as idle */
        char b1[64], b2[64];
        error_at(c, q->window.pos, "the window (%s %s) is longer than the trace (%s %s): no "
                 "window of that length lies in it", num(b1, sizeof b1, w), c->scale,
                 num(b2, sizeof b2, span), c->scale);
        return;
    }
    if (!c->stats && tlv_stats_compute(c->t, NULL, &c->stats) != TLV_OK) {
        c->failed = 1;
        return;
    }
    size_t ncpu = tlv_stats_cpu_count(c->stats), found = 0, over = 0;
    double worst = -1, worst_at = 0;
    const char *worst_name = NULL;
    for (size_t k = 0; k < ncpu; k++) {
        tlv_cpu_stat cs;
        tlv_stats_cpu(c->stats, k, &cs);
        if (q->processor.s && strcmp(q->processor.s, cs.name) != 0 &&
            !(cs.value && strcmp(q->processor.s, cs.value) == 0))
            continue;
        found++;
        double at;
        double share = busiest(c, k, cs.name, w, q->max_share, &at, &over);
        if (share > worst) {
            worst = share;
            worst_at = at;
            worst_name = cs.name;
        }
    }
    if (!found) {
        error_at(c, q->processor.s ? q->processor.pos : q->pos, "the trace has no processor%s%s",
                 q->processor.s ? " " : "", q->processor.s ? q->processor.s : "");
        return;
    }
    char b1[64], b2[64], b3[64];
    int passed = worst <= q->max_share + 1e-12;
    tlv_time at = from_double(c, worst_at);
    uint64_t line = line_at(c, at);
    say(c, "busy at most %s%% of %s %s %s %s%%", num(b1, sizeof b1, worst * 100),
        num(b3, sizeof b3, w), c->scale, passed ? "<=" : ">",
        num(b2, sizeof b2, q->max_share * 100));
    say(c, "; busiest window: %s from ", worst_name ? worst_name : "-");
    say_time(c, at);
    if (line)
        say(c, ", line %llu", (unsigned long long)line);
    if (!passed)
        say(c, "; over in %zu stretch%s", over, over == 1 ? "" : "es");
    verdict(c, passed, worst, q->max_share, worst_name, at, line, over);
}

/* ---- followed: A always followed by B within X -------------------------------------- */

typedef struct occurrence {
    tlv_time t;
    uint64_t line;
    uint32_t res;
} occurrence;

/* The A events waiting for one B (their substituted "FollowedBy"). */
typedef struct waiting {
    char *text;
    evmatch b;
    occurrence *a;
    size_t n, cap;
} waiting;

typedef struct followed {
    double bound, worst;
    occurrence worst_at;
    tlv_time worst_end;        /* when the slowest was followed */
    size_t count, over, missing;
    occurrence first_missing;
} followed;

static int lookup_a(void *user, const char *name, size_t n, const char **value, size_t *len)
{
    const void **ctx = user;
    const vctx *c = ctx[0];
    const trace_event *e = ctx[1];
    static const char empty[] = "";
    *value = empty;
    if (n == 6 && memcmp(name, "TARGET", 6) == 0) {
        *value = c->t->w->res[e->res].name;
    } else if (n == 3 && memcmp(name, "VAL", 3) == 0) {
        if (e->kind == TLV_EVENT_ATTRIBUTE)
            *value = intern_str(c->t->w->values, e->value);
    } else if (n > 3 && memcmp(name, "ARG", 3) == 0) {
        size_t k = (size_t)strtoul(name + 3, NULL, 10);
        if (e->kind == TLV_EVENT_BEHAVIOR && k < e->nargs)
            *value = intern_str(c->t->w->values, c->t->args[e->value + k]);
    } else {
        return 0;
    }
    *len = strlen(*value);
    return 1;
}

static void resolve(vctx *c, followed *f, waiting *wt, tlv_time t)
{
    for (size_t k = 0; k < wt->n; k++) {
        const occurrence *o = &wt->a[k];
        double d = between(c, o->t, t);
        f->count++;
        if (d > f->worst) {
            f->worst = d;
            f->worst_at = *o;
            f->worst_end = t;
        }
        if (span_over(c, o->t, t, f->bound)) {
            f->over++;
            add_violation(c, world_label(c->t->w, o->res), o->t, t, o->line, d);
        }
    }
    wt->n = 0;
}

static void free_waiting(waiting *w, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(w[i].text);
        free(w[i].a);
        evmatch_free(&w[i].b);
    }
    free(w);
}

/* The group of A events waiting for `text`, made when new. */
static waiting *waiting_for(vctx *c, waiting **ws, size_t *n, size_t *cap, const char *text)
{
    for (size_t i = 0; i < *n; i++)
        if (strcmp((*ws)[i].text, text) == 0)
            return &(*ws)[i];
    if (GROW(*ws, *cap, *n + 1) < 0)
        return c->failed = 1, NULL;
    waiting *w = &(*ws)[*n];
    memset(w, 0, sizeof *w);
    char *res = NULL;
    w->text = strdup(text);
    if (!w->text || evmatch_compile(c->t, text, &w->b, &res) < 0) {
        free(w->text);
        free(res);
        return c->failed = 1, NULL;
    }
    if (res && evmatch_resource(c->t, res, &w->b) < 0)
        w->b.name = EVM_NEVER; /* a substituted name that is no resource: never followed */
    free(res);
    (*n)++;
    return w;
}

static void scan_followed(vctx *c, evmatch *a, followed *f)
{
    waiting *ws = NULL;
    size_t nw = 0, cap = 0;
    buf text = BUF_INIT;
    for (size_t i = 0; i < c->t->nev && !c->failed; i++) {
        const trace_event *e = &c->t->ev[i];
        tlv_time t = trace_time(c->t, e);
        for (size_t k = 0; k < nw; k++)
            if (ws[k].n && evmatch_matches(c->t, &ws[k].b, e))
                resolve(c, f, &ws[k], t);
        if (!evmatch_matches(c->t, a, e))
            continue;
        const void *ctx[2] = {c, e};
        buf_clear(&text);
        if (evp_subst(c->q->followed_by.s, lookup_a, ctx, 1, &text) < 0 || buf_putc(&text, 0) < 0) {
            c->failed = 1;
            break;
        }
        waiting *w = waiting_for(c, &ws, &nw, &cap, text.data);
        if (!w || GROW(w->a, w->cap, w->n + 1) < 0) {
            c->failed = 1;
            break;
        }
        w->a[w->n++] = (occurrence){t, trace_line(c->t, e), e->res};
    }
    for (size_t k = 0; k < nw; k++) /* never followed */
        for (size_t j = 0; j < ws[k].n; j++) {
            const occurrence *o = &ws[k].a[j];
            if (!f->missing++ || tlv_time_cmp(o->t, f->first_missing.t) < 0)
                f->first_missing = *o;
            add_violation(c, world_label(c->t->w, o->res), o->t, c->t1, o->line,
                          between(c, o->t, c->t1));
        }
    buf_free(&text);
    free_waiting(ws, nw);
}

static void check_followed(vctx *c)
{
    const requirement *q = c->q;
    evmatch a;
    followed f;
    memset(&f, 0, sizeof f);
    f.bound = duration(c, &q->within);
    f.worst = -1;
    if (f.bound < 0)
        return;
    if (compile_pattern(c, &q->event, &a) < 0) {
        evmatch_free(&a);
        return;
    }
    scan_followed(c, &a, &f);
    evmatch_free(&a);
    char b1[64], b2[64];
    if (f.missing) {
        const occurrence *o = &f.first_missing;
        const char *res = world_label(c->t->w, o->res);
        say(c, "%s not followed by %s: %zu of %zu", q->event.s, q->followed_by.s, f.missing,
            f.missing + f.count);
        say_where(c, "first", res, o->t, o->line);
        verdict(c, 0, between(c, o->t, c->t1), f.bound, res, o->t, o->line, f.missing + f.over);
        return;
    }
    if (!f.count) {
        say(c, "%s never happened", q->event.s);
        verdict(c, 1, 0, f.bound, NULL, c->t0, 0, 0);
        return;
    }
    const char *res = world_label(c->t->w, f.worst_at.res);
    int passed = f.over == 0;
    say(c, "%s followed by %s within at most %s %s %s %s %s", q->event.s, q->followed_by.s,
        span_text(c, b1, sizeof b1, f.worst_at.t, f.worst_end), c->scale, passed ? "<=" : ">",
        num(b2, sizeof b2, f.bound), c->scale);
    say_where(c, "slowest", res, f.worst_at.t, f.worst_at.line);
    say(c, "; %zu of %zu over", f.over, f.count);
    verdict(c, passed, f.worst, f.bound, res, f.worst_at.t, f.worst_at.line, f.over);
}

/* ---- the whole ---------------------------------------------------------------------- */

static int scale_exp(const char *scale)
{
    static const struct {
        const char *name;
        int exp;
    } units[] = {{"s", 0}, {"ms", -3}, {"us", -6}, {"ns", -9}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcmp(units[i].name, scale) == 0)
            return units[i].exp;
    return 1;
}

static int by_start(const void *x, const void *y)
{
    const vio *a = x, *b = y;
    int t = tlv_time_cmp(a->start, b->start);
    return t ? t : a->line < b->line ? -1 : a->line > b->line;
}

static void check_one(vctx *c, unsigned char *sel)
{
    buf_clear(&c->msg);
    c->kept = 0;
    size_t errors = tlv_diags_errors(&c->out->diags);
    if ((c->q->check == RC_RESPONSE || c->q->check == RC_LATENCY || c->q->check == RC_STATE ||
         (c->q->check == RC_NEVER && c->q->state.s)) &&
        select_resources(c, sel) < 0)
        return;
    switch (c->q->check) {
    case RC_RESPONSE:
    case RC_LATENCY:
        check_response(c, sel);
        break;
    case RC_STATE:
        check_state(c, sel);
        break;
    case RC_CPU:
        check_cpu(c);
        break;
    case RC_FOLLOWED:
        check_followed(c);
        break;
    case RC_NEVER:
        check_never(c, sel);
        break;
    }
    if (tlv_diags_errors(&c->out->diags) != errors) /* no verdict on a requirement in error */
        c->out->nvio -= c->kept;
    else if (c->kept > 1) /* in time order */
        qsort(c->out->vio + c->out->nvio - c->kept, c->kept, sizeof *c->out->vio, by_start);
}

tlv_status tlv_requirements_verify(const tlv_requirements *reqs, const tlv_trace *trace,
                                   const tlv_instances *inst, tlv_verdicts **out)
{
    if (!out)
        return TLV_ERR_USAGE;
    *out = NULL;
    if (!reqs || !trace)
        return TLV_ERR_USAGE;
    if (!trace->finished && trace->nsorted != trace->nev)
        return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_USAGE,
                              "tlv_requirements_verify: the trace's latest events are not "
                              "ordered yet (call tlv_trace_update or tlv_trace_finish)");
    ALLOC_WATCH;
    struct tlv_verdicts *o = calloc(1, sizeof *o);
    if (!o)
        return TLV_ERR_NOMEM;
    *out = o;
    diags_init(&o->diags, 0);
    o->pool = intern_new();
    tlv_instances *own = NULL;
    vctx c;
    memset(&c, 0, sizeof c);
    c.reqs = reqs;
    c.t = trace;
    c.out = o;
    c.radix = tlv_rules_time_radix(trace->rules);
    c.scale = tlv_rules_time_scale(trace->rules);
    c.scale_exp = scale_exp(c.scale);
    c.t0 = tlv_trace_start(trace);
    c.t1 = tlv_trace_end(trace);
    c.inst = inst;
    unsigned char *sel = malloc(trace->w->nres + 1);
    if (!o->pool || !sel || (!inst && tlv_instances_compute(trace, NULL, &own) != TLV_OK))
        c.failed = 1;
    if (own)
        c.inst = own;
    for (size_t i = 0; i < reqs->n && !c.failed; i++) {
        c.q = &reqs->v[i];
        c.qi = o->n;
        check_one(&c, sel);
    }
    free(sel);
    buf_free(&c.msg);
    tlv_stats_free(c.stats);
    tlv_instances_free(own);
    if (c.failed || ALLOC_FAILED_SINCE() || o->diags.nomem) {
        tlv_verdicts_free(o);
        *out = NULL;
        return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_NOMEM,
                              "tlv_requirements_verify: out of memory while checking the "
                              "requirements");
    }
    return o->diags.errors ? TLV_ERR_RULE : TLV_OK;
}

void tlv_verdicts_free(tlv_verdicts *o)
{
    if (!o)
        return;
    diags_free(&o->diags);
    intern_free(o->pool);
    free(o->v);
    free(o->vio);
    free(o);
}

const tlv_diags *tlv_verdicts_diags(const tlv_verdicts *o) { return o ? &o->diags : NULL; }
size_t tlv_verdicts_count(const tlv_verdicts *o) { return o ? o->n : 0; }
size_t tlv_verdicts_failed(const tlv_verdicts *o) { return o ? o->failed : 0; }
size_t tlv_verdicts_violation_count(const tlv_verdicts *o) { return o ? o->nvio : 0; }

static const char *str_or_null(const tlv_verdicts *o, uint32_t id)
{
    return id ? intern_str(o->pool, id) : NULL;
}

static void verdict_fill(const tlv_verdicts *o, size_t i, tlv_verdict *out)
{
    memset(out, 0, sizeof *out);
    if (!o || i >= o->n)
        return;
    const vrec *v = &o->v[i];
    out->name = intern_str(o->pool, v->name);
    out->check = intern_str(o->pool, v->check);
    out->passed = v->passed;
    out->message = intern_str(o->pool, v->message);
    out->worst = v->worst;
    out->bound = v->bound;
    out->resource = str_or_null(o, v->resource);
    out->time = v->time;
    out->line = v->line;
    out->violations = v->violations;
    out->file_line = v->file_line;
}

void tlv_verdicts_get_sized(const tlv_verdicts *o, size_t i, tlv_verdict *out, size_t size)
{
    ABI_FILL_OUT(tlv_verdict, verdict_fill, out, size, o, i);
}

static void violation_fill(const tlv_verdicts *o, size_t i, tlv_violation *out)
{
    memset(out, 0, sizeof *out);
    if (!o || i >= o->nvio)
        return;
    const vio *x = &o->vio[i];
    out->requirement = x->req;
    out->resource = str_or_null(o, x->resource);
    out->start = x->start;
    out->end = x->end;
    out->line = x->line;
    out->value = x->value;
}

void tlv_verdicts_violation_sized(const tlv_verdicts *o, size_t i, tlv_violation *out,
                                  size_t size)
{
    ABI_FILL_OUT(tlv_violation, violation_fill, out, size, o, i);
}
