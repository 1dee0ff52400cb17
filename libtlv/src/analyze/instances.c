/*
 * instances.c — the instances of a trace's actors (tlv/instances.h): one
 * pass over the events in time order keeps, per resource, its state class
 * (idle, ready, running, unknown), the instance of each kind it has open,
 * its call stack and the open instances of the kinds its type declares;
 * and per processor the resources running on it, the last to start on top
 * (the one actually running: a handler over the task it interrupted). Each
 * resource's stretches of actually running, preemptions and interruptions
 * are kept in time order, so an instance's execution time and counts are
 * binary searches once the pass is over. Then the instances are sorted by
 * start, grouped by actor, kind and name, and each group's response times
 * sorted for its percentiles: radix sorts and a hash table, linear in the
 * instances (issue 28's goal: `tlv verify` within 1.5 times `tlv convert`).
 */
#include "analyze/evmatch.h"
#include "base/abi.h"
#include "base/buf.h"
#include "base/intern.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER EVM_NEVER
#define NO_SLOT ((size_t)-1)

enum { C_UNKNOWN, C_IDLE, C_READY, C_RUNNING };
enum { K_RESPONSE, K_LATENCY, K_CALL, K_DECLARED }; /* kind ids; declared ones follow */
enum { OPEN_NONE, OPEN_WHOLE, OPEN_PARTIAL };       /* an instance began in the trace, or before */

typedef struct seg {
    double from, to;
} seg;

/* An instance kind a type declares, compiled. */
typedef struct kdef {
    const inst_def *def;
    uint32_t kind;              /* id among the kinds */
} kdef;

typedef struct tinfo {
    uint32_t cpu_name;          /* the type's processor attribute's name id, or NEVER */
    const char *cpu_attr;       /* its name, or NULL */
    uint32_t enter[2], leave[2];/* call pairs: enter/leave, enterSVC/leaveSVC */
    kdef *kinds;
    size_t nkinds;
    int has_state;
} tinfo;

/* An instance found, whole or partial. */
typedef struct rec {
    tlv_time start, end;
    uint32_t res, kind, name;   /* name: id in the result's pool */
    uint32_t sev, eev;          /* events that began and ended it */
    int partial;
    double response, exec;
    uint32_t pre, intr;
    uint32_t group;
} rec;

typedef struct frame {
    uint32_t name;              /* the call's name (a world value id) */
    tlv_time start;
    uint32_t ev;
} frame;

/* An open instance of a declared kind. */
typedef struct pend {
    size_t k;                   /* index among its type's kinds */
    evmatch to;
    tlv_time start;
    uint32_t ev;
} pend;

typedef struct actor {
    const tinfo *ti;
    int cls, ran;
    size_t slot;                /* its processor's slot, or NO_SLOT */
    int on_top;                 /* actually running: its stretch is open */
    double top_since;
    int resp, lat;              /* OPEN_* */
    tlv_time resp_start, lat_start;
    uint32_t resp_ev, lat_ev;
    seg *segs;
    size_t nsegs, segs_cap;
    double *cum;                /* cum[i]: the stretches before segs[i] added up
                                   (long_stretch_sums; only for many stretches) */
    double *pre, *intr;         /* times it was preempted, interrupted */
    size_t npre, pre_cap, nintr, intr_cap;
    frame *stack;
    size_t nstack, stack_cap;
    pend *pend;
    size_t npend, pend_cap;
    evmatch *from;                 /* per declared kind of its type: From compiled */
} actor;

typedef struct slot {
    uint32_t value;             /* the processor attribute's value id */
    uint32_t *res;              /* running on it, in the order they began */
    size_t n, cap;
} slot;

typedef struct group {
    uint32_t res, kind, name;
    size_t first, count;        /* into members[] and sorted[] */
    size_t partial;
} group;

struct tlv_instances {
    const tlv_trace *trace;
    intern_pool *pool;          /* kinds and names */
    uint32_t *kind_ids;         /* by kind id: the kind's name in pool */
    size_t nkinds;
    rec *inst;                  /* whole instances, by start */
    size_t ninst;
    group *groups;
    size_t ngroups;
    size_t *members;            /* per group, its instances in start order */
    double *sorted;             /* per group, its response times sorted */
};

typedef struct pass {
    const tlv_trace *t;
    tlv_instances *out;
    const world *w;
    int radix;
    tlv_time t0;
    uint32_t state, running, empty;
    uint32_t *ready;
    size_t nready;
    int multi_cpu;
    tinfo *types;
    actor *a;
    size_t na;
    slot *slots;
    size_t nslots, slots_cap;
    rec *recs;
    size_t nrecs, recs_cap;
    buf scratch;
    int failed;
} pass;

/* ---- small helpers ----------------------------------------------------------------- */

static uint32_t value_id(const pass *p, const char *s)
{
    return s ? intern_find(p->w->values, s, strlen(s)) : NEVER;
}

/* Spans by tlv_time_span, right over the whole range of times (tlv_time_sub
 * wraps a span past 2^63 ticks: a trace from -2^63 to 2^63 - 1 gave -1). */
static double since_start(const pass *p, tlv_time t)
{
    return tlv_time_span(p->t0, t, p->radix);
}

static double span(const pass *p, tlv_time a, tlv_time b)
{
    return tlv_time_span(a, b, p->radix);
}

static int push_time(pass *p, double **arr, size_t *n, size_t *cap, double t)
{
    if (GROW(*arr, *cap, *n + 1) < 0)
        return p->failed = 1, -1;
    (*arr)[(*n)++] = t;
    return 0;
}

static void add_rec(pass *p, uint32_t res, uint32_t kind, uint32_t name, tlv_time start,
                    uint32_t sev, tlv_time end, uint32_t eev, int partial)
{
    if (GROW(p->recs, p->recs_cap, p->nrecs + 1) < 0) {
        p->failed = 1;
        return;
    }
    rec *r = &p->recs[p->nrecs++];
    memset(r, 0, sizeof *r);
    r->start = start;
    r->end = end;
    r->res = res;
    r->kind = kind;
    r->name = name;
    r->sev = sev;
    r->eev = eev;
    r->partial = partial;
}

/* The id of `s` in the result's pool (kinds, names). */
static uint32_t pool_id(pass *p, const char *s, size_t n)
{
    uint32_t id = intern_add(p->out->pool, s, n);
    if (id == NEVER)
        p->failed = 1;
    return id;
}

/* ---- processors: who actually runs ------------------------------------------------- */

static void close_top(pass *p, actor *a, double at)
{
    if (!a->on_top)
        return;
    a->on_top = 0;
    if (at > a->top_since) {
        if (GROW(a->segs, a->segs_cap, a->nsegs + 1) < 0) {
            p->failed = 1;
            return;
        }
        a->segs[a->nsegs++] = (seg){a->top_since, at};
    }
}

static void open_top(actor *a, double at)
{
    a->on_top = 1;
    a->top_since = at;
}

/* Resource r starts running: it goes on top of its processor, and what ran
 * there is interrupted. */
static void start_running(pass *p, uint32_t r, double at)
{
    actor *a = &p->a[r];
    if (a->slot == NO_SLOT) {
        open_top(a, at);
        return;
    }
    slot *s = &p->slots[a->slot];
    if (s->n) {
        actor *under = &p->a[s->res[s->n - 1]];
        close_top(p, under, at);
        push_time(p, &under->intr, &under->nintr, &under->intr_cap, at);
    }
    if (GROW(s->res, s->cap, s->n + 1) < 0) {
        p->failed = 1;
        return;
    }
    s->res[s->n++] = r;
    open_top(a, at);
}

/* Resource r stops running: off its processor, and what it ran over resumes. */
static void stop_running(pass *p, uint32_t r, double at)
{
    actor *a = &p->a[r];
    close_top(p, a, at);
    if (a->slot == NO_SLOT)
        return;
    slot *s = &p->slots[a->slot];
    size_t i = s->n;
    while (i > 0 && s->res[i - 1] != r)
        i--;
    if (!i)
        return;
    int was_top = i == s->n;
    memmove(&s->res[i - 1], &s->res[i], (s->n - i) * sizeof *s->res);
    s->n--;
    if (was_top && s->n)
        open_top(&p->a[s->res[s->n - 1]], at);
}

static size_t slot_of(pass *p, uint32_t value)
{
    if (!p->multi_cpu)
        return 0;
    if (value == NEVER || value == p->empty)
        return NO_SLOT; /* no processor (yet) */
    for (size_t i = 0; i < p->nslots; i++)
        if (p->slots[i].value == value)
            return i;
    if (GROW(p->slots, p->slots_cap, p->nslots + 1) < 0) {
        p->failed = 1;
        return NO_SLOT;
    }
    p->slots[p->nslots] = (slot){value, NULL, 0, 0};
    return p->nslots++;
}

static void cpu_change(pass *p, uint32_t r, uint32_t value, double at)
{
    actor *a = &p->a[r];
    size_t to = slot_of(p, value);
    if (to == a->slot)
        return;
    int running = a->cls == C_RUNNING;
    if (running) /* a migration: off the old processor, onto the new */
        stop_running(p, r, at);
    a->slot = to;
    if (running)
        start_running(p, r, at);
}

/* ---- state classes: response, latency, preemptions ----------------------------------- */

static int class_of(const pass *p, uint32_t v)
{
    if (v == p->running)
        return C_RUNNING;
    for (size_t i = 0; i < p->nready; i++)
        if (v == p->ready[i])
            return C_READY;
    return v == p->empty ? C_UNKNOWN : C_IDLE;
}

static int active(int c) { return c == C_READY || c == C_RUNNING; }

static void state_change(pass *p, uint32_t r, uint32_t value, tlv_time t, uint32_t ev)
{
    actor *a = &p->a[r];
    int o = a->cls, c = class_of(p, value);
    if (o == c)
        return;
    double at = since_start(p, t);
    if (!active(o) && active(c)) { /* activated: from idle, or a wake-up first seen */
        a->resp = o == C_IDLE || c == C_READY ? OPEN_WHOLE : OPEN_PARTIAL;
        a->resp_start = t;
        a->resp_ev = ev;
    } else if (active(o) && !active(c) && a->resp != OPEN_NONE) { /* completed */
        add_rec(p, r, K_RESPONSE, 0, a->resp_start, a->resp_ev, t, ev,
                a->resp == OPEN_PARTIAL || c == C_UNKNOWN);
        a->resp = OPEN_NONE;
    }
    if (!active(o) && c == C_READY) { /* a wake-up */
        a->lat = OPEN_WHOLE;
        a->lat_start = t;
        a->lat_ev = ev;
    } else if (a->lat != OPEN_NONE && c != C_READY) { /* ran, or went back to sleep */
        add_rec(p, r, K_LATENCY, 0, a->lat_start, a->lat_ev, t, ev,
                a->lat == OPEN_PARTIAL || c != C_RUNNING);
        a->lat = OPEN_NONE;
    }
    if (o == C_RUNNING && c == C_READY)
        push_time(p, &a->pre, &a->npre, &a->pre_cap, at);
    a->cls = c;
    if (c == C_RUNNING) {
        a->ran = 1;
        start_running(p, r, at);
    } else if (o == C_RUNNING) {
        stop_running(p, r, at);
    }
}

/* ---- calls ------------------------------------------------------------------------- */

static void call_event(pass *p, uint32_t r, const trace_event *e, uint32_t ev, int enter)
{
    actor *a = &p->a[r];
    if (!e->nargs)
        return;
    uint32_t name = p->t->args[e->value];
    tlv_time t = trace_time(p->t, e);
    if (enter) {
        if (GROW(a->stack, a->stack_cap, a->nstack + 1) < 0) {
            p->failed = 1;
            return;
        }
        a->stack[a->nstack++] = (frame){name, t, ev};
        return;
    }
    size_t i = a->nstack;
    while (i > 0 && a->stack[i - 1].name != name)
        i--;
    if (!i)
        return; /* a return whose call began before the trace */
    /* the calls opened above it never returned that we saw: partial */
    for (size_t k = a->nstack; k-- >= i;) {
        const frame *f = &a->stack[k];
        const char *text = intern_str(p->w->values, f->name);
        add_rec(p, r, K_CALL, pool_id(p, text, strlen(text)), f->start, f->ev, t, ev, k >= i);
    }
    a->nstack = i - 1;
}

/* ---- declared kinds ---------------------------------------------------------------- */

/* The variables of a declared kind's templates: ${TARGET}, and those of the
 * events that began (FROM_) and ended (TO_) the instance. */
typedef struct vars {
    pass *p;
    const char *target;
    const trace_event *from, *to;
    char time[2][160];
} vars;

static int event_var(vars *v, const trace_event *e, const char *rest, size_t n, int which,
                     const char **value, size_t *len)
{
    const pass *p = v->p;
    if (!e)
        return 0;
    if (n == 3 && memcmp(rest, "VAL", 3) == 0) {
        *value = e->kind == TLV_EVENT_ATTRIBUTE ? intern_str(p->w->values, e->value) : "";
    } else if (n == 4 && memcmp(rest, "TIME", 4) == 0) {
        tlv_time_format(trace_time(p->t, e), p->radix, v->time[which], sizeof v->time[which]);
        *value = v->time[which];
    } else if (n > 3 && memcmp(rest, "ARG", 3) == 0) {
        size_t k = (size_t)strtoul(rest + 3, NULL, 10);
        *value = e->kind == TLV_EVENT_BEHAVIOR && k < e->nargs
                     ? intern_str(p->w->values, p->t->args[e->value + k])
                     : "";
    } else {
        return 0;
    }
    *len = strlen(*value);
    return 1;
}

static int lookup_var(void *user, const char *name, size_t n, const char **value, size_t *len)
{
    vars *v = user;
    if (n == 6 && memcmp(name, "TARGET", 6) == 0) {
        *value = v->target;
        *len = strlen(v->target);
        return 1;
    }
    if (n > 5 && memcmp(name, "FROM_", 5) == 0)
        return event_var(v, v->from, name + 5, n - 5, 0, value, len);
    if (n > 3 && memcmp(name, "TO_", 3) == 0)
        return event_var(v, v->to, name + 3, n - 3, 1, value, len);
    return 0;
}

/* `text` with the variables substituted, in p->scratch. */
static const char *substitute(pass *p, const char *text, vars *v, int escape)
{
    buf_clear(&p->scratch);
    if (evp_subst(text, lookup_var, v, escape, &p->scratch) < 0 || buf_putc(&p->scratch, 0) < 0)
        return p->failed = 1, NULL;
    return p->scratch.data;
}

static void close_declared(pass *p, uint32_t r, const trace_event *e, uint32_t ev)
{
    actor *a = &p->a[r];
    for (size_t i = a->npend; i-- > 0;) { /* the innermost open one first */
        pend *q = &a->pend[i];
        if (!evmatch_matches(p->t, &q->to, e))
            continue;
        const kdef *k = &a->ti->kinds[q->k];
        uint32_t name = 0;
        if (k->def->label) {
            vars v = {p, p->w->res[r].name, &p->t->ev[q->ev], e, {"", ""}};
            const char *s = substitute(p, k->def->label, &v, 0);
            name = s ? pool_id(p, s, strlen(s)) : 0;
        }
        add_rec(p, r, k->kind, name, q->start, q->ev, trace_time(p->t, e), ev, 0);
        evmatch_free(&q->to);
        memmove(q, q + 1, (a->npend - i - 1) * sizeof *q);
        a->npend--;
        return; /* one event ends one instance */
    }
}

static void open_declared(pass *p, uint32_t r, const trace_event *e, uint32_t ev)
{
    actor *a = &p->a[r];
    for (size_t k = 0; k < a->ti->nkinds; k++) {
        if (!evmatch_matches(p->t, &a->from[k], e))
            continue;
        vars v = {p, p->w->res[r].name, e, NULL, {"", ""}};
        const char *to = substitute(p, a->ti->kinds[k].def->to, &v, 1);
        if (!to || GROW(a->pend, a->pend_cap, a->npend + 1) < 0) {
            p->failed = 1;
            return;
        }
        pend *q = &a->pend[a->npend];
        q->k = k;
        q->start = trace_time(p->t, e);
        q->ev = ev;
        if (evmatch_compile(p->t, to, &q->to, NULL) < 0) {
            p->failed = 1;
            return;
        }
        a->npend++;
    }
}

/* ---- setting up -------------------------------------------------------------------- */

/* The attribute of type t that names its processor: cpu_attr itself, else
 * the first whose name begins with it (prcIdI of TOPPERS/FMP handlers). */
static const char *type_cpu_attr(const res_type *t, const char *cpu_attr)
{
    if (!cpu_attr)
        return NULL;
    size_t n = strlen(cpu_attr);
    if (model_attr_index(t, cpu_attr, n) >= 0)
        return cpu_attr;
    for (size_t i = 0; i < t->nattrs; i++)
        if (strncmp(t->attrs[i].name, cpu_attr, n) == 0)
            return t->attrs[i].name;
    return NULL;
}

/* The id of a kind's name, adding it to the result's kinds when new. */
static uint32_t kind_id(pass *p, const char *kind)
{
    tlv_instances *o = p->out;
    for (size_t i = 0; i < o->nkinds; i++)
        if (strcmp(intern_str(o->pool, o->kind_ids[i]), kind) == 0)
            return (uint32_t)i;
    uint32_t *k = realloc(o->kind_ids, (o->nkinds + 1) * sizeof *k);
    if (!k)
        return p->failed = 1, 0;
    o->kind_ids = k;
    k[o->nkinds] = pool_id(p, kind, strlen(kind));
    return (uint32_t)o->nkinds++;
}

static uint32_t behavior_id(const pass *p, const res_type *t, const char *name, int need_args)
{
    long b = model_behavior_index(t, name, strlen(name));
    if (b < 0 || (need_args && !t->behaviors[b].nargs))
        return NEVER;
    return value_id(p, name);
}

static void setup_types(pass *p, const char *state_attr, const char *cpu_attr)
{
    const model *m = p->w->model;
    for (size_t i = 0; i < 3; i++)
        kind_id(p, i == 0 ? "response" : i == 1 ? "latency" : "call");
    for (size_t i = 0; i < m->ntypes && !p->failed; i++) {
        const res_type *t = &m->types[i];
        tinfo *ti = &p->types[i];
        ti->has_state = model_attr_index(t, state_attr, strlen(state_attr)) >= 0;
        ti->cpu_attr = type_cpu_attr(t, cpu_attr);
        ti->cpu_name = value_id(p, ti->cpu_attr);
        /* calls: the entry names the call in its first argument */
        ti->enter[0] = behavior_id(p, t, "enter", 1);
        ti->leave[0] = ti->enter[0] == NEVER ? NEVER : behavior_id(p, t, "leave", 0);
        ti->enter[1] = behavior_id(p, t, "enterSVC", 1);
        ti->leave[1] = ti->enter[1] == NEVER ? NEVER : behavior_id(p, t, "leaveSVC", 0);
        ti->kinds = calloc(t->ninsts ? t->ninsts : 1, sizeof *ti->kinds);
        if (!ti->kinds) {
            p->failed = 1;
            return;
        }
        for (size_t k = 0; k < t->ninsts; k++)
            ti->kinds[ti->nkinds++] = (kdef){&t->insts[k], kind_id(p, t->insts[k].kind)};
    }
}

/* A resource's values before the first event (not at t0 - 1, which wrapped
 * at -2^63), and its declared kinds' From
 * patterns with ${TARGET} substituted. */
static void setup_actor(pass *p, uint32_t r, const char *state_attr)
{
    actor *a = &p->a[r];
    const rt_resource *res = &p->w->res[r];
    a->ti = &p->types[res->type];
    const char *v;
    a->slot = p->multi_cpu ? NO_SLOT : 0;
    if (a->ti->cpu_attr &&
        tlv_trace_attr_initial(p->t, res->name, a->ti->cpu_attr, &v) == TLV_OK)
        a->slot = slot_of(p, value_id(p, v));
    a->cls = C_UNKNOWN;
    if (a->ti->has_state && tlv_trace_attr_initial(p->t, res->name, state_attr, &v) == TLV_OK)
        a->cls = *v ? class_of(p, value_id(p, v)) : C_UNKNOWN;
    if (a->cls == C_RUNNING) {
        a->ran = 1;
        start_running(p, r, 0);
    }
    a->resp = active(a->cls) ? OPEN_PARTIAL : OPEN_NONE;
    a->lat = a->cls == C_READY ? OPEN_PARTIAL : OPEN_NONE;
    a->resp_start = a->lat_start = p->t0;
    a->resp_ev = a->lat_ev = 0;
    if (!a->ti->nkinds)
        return;
    a->from = calloc(a->ti->nkinds, sizeof *a->from);
    if (!a->from) {
        p->failed = 1;
        return;
    }
    for (size_t k = 0; k < a->ti->nkinds; k++)
        a->from[k].res = a->from[k].type = -1;
    for (size_t k = 0; k < a->ti->nkinds; k++) {
        vars vs = {p, res->name, NULL, NULL, {"", ""}};
        const char *from = substitute(p, a->ti->kinds[k].def->from, &vs, 1);
        if (!from || evmatch_compile(p->t, from, &a->from[k], NULL) < 0) {
            p->failed = 1;
            return;
        }
    }
}

/* ---- the pass ---------------------------------------------------------------------- */

static void scan(pass *p)
{
    size_t n = p->t->nev;
    for (size_t i = 0; i < n && !p->failed; i++) {
        const trace_event *e = &p->t->ev[i];
        if (e->res >= p->na)
            continue;
        actor *a = &p->a[e->res];
        const tinfo *ti = a->ti;
        if (e->kind == TLV_EVENT_ATTRIBUTE) {
            if (ti->has_state && e->name == p->state)
                state_change(p, e->res, e->value, trace_time(p->t, e), (uint32_t)i);
            if (e->name == ti->cpu_name)
                cpu_change(p, e->res, e->value, since_start(p, trace_time(p->t, e)));
        } else {
            for (int k = 0; k < 2; k++)
                if (e->name == ti->enter[k] || e->name == ti->leave[k])
                    call_event(p, e->res, e, (uint32_t)i, e->name == ti->enter[k]);
        }
        if (ti->nkinds) {
            if (a->npend)
                close_declared(p, e->res, e, (uint32_t)i);
            open_declared(p, e->res, e, (uint32_t)i);
        }
    }
}

/* What is open at the end of the trace: running stretches close there,
 * instances are partial. */
static void finish_actors(pass *p)
{
    tlv_time end = tlv_trace_end(p->t);
    uint32_t last = p->t->nev ? (uint32_t)(p->t->nev - 1) : 0;
    double at = since_start(p, end);
    for (uint32_t r = 0; r < p->na; r++) {
        actor *a = &p->a[r];
        close_top(p, a, at);
        if (a->resp != OPEN_NONE)
            add_rec(p, r, K_RESPONSE, 0, a->resp_start, a->resp_ev, end, last, 1);
        if (a->lat != OPEN_NONE)
            add_rec(p, r, K_LATENCY, 0, a->lat_start, a->lat_ev, end, last, 1);
        for (size_t i = 0; i < a->nstack; i++) {
            const char *text = intern_str(p->w->values, a->stack[i].name);
            add_rec(p, r, K_CALL, pool_id(p, text, strlen(text)), a->stack[i].start,
                    a->stack[i].ev, end, last, 1);
        }
        for (size_t i = 0; i < a->npend; i++)
            add_rec(p, r, a->ti->kinds[a->pend[i].k].kind, 0, a->pend[i].start, a->pend[i].ev,
                    end, last, 1);
    }
}

/* How many stretches exec_within adds up one by one before it takes the
 * rest from the running sums: an instance over a long part of the trace (a
 * task that never completes, a thread's whole life) would otherwise walk
 * every stretch of it, and a 10M-line log has such instances by the
 * thousand. Below it the sum is the one-by-one sum, bit for bit. */
#define STRETCHES_ONE_BY_ONE 64

static double clipped(const seg *s, double from, double to)
{
    double x = s->from > from ? s->from : from;
    double y = s->to < to ? s->to : to;
    return y > x ? y - x : 0;
}

/* Running sums of the stretches of every actor that has more than
 * STRETCHES_ONE_BY_ONE of them. */
static void long_stretch_sums(pass *p)
{
    for (uint32_t r = 0; r < p->na && !p->failed; r++) {
        actor *a = &p->a[r];
        if (a->nsegs <= STRETCHES_ONE_BY_ONE)
            continue;
        a->cum = malloc((a->nsegs + 1) * sizeof *a->cum);
        if (!a->cum) {
            p->failed = 1;
            return;
        }
        a->cum[0] = 0;
        for (size_t i = 0; i < a->nsegs; i++)
            a->cum[i + 1] = a->cum[i] + (a->segs[i].to - a->segs[i].from);
    }
}

/* Running time of actor a within [from, to] (times since the start). */
static double exec_within(const actor *a, double from, double to)
{
    size_t lo = 0, hi = a->nsegs; /* the first stretch ending after `from` */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a->segs[mid].to <= from)
            lo = mid + 1;
        else
            hi = mid;
    }
    double sum = 0;
    size_t i = lo, stop = lo + STRETCHES_ONE_BY_ONE;
    for (; i < a->nsegs && a->segs[i].from < to && i < stop; i++)
        sum += clipped(&a->segs[i], from, to);
    if (i < a->nsegs && a->segs[i].from < to) {
        /* Many more: segs[i .. last) lie wholly inside, the last may not. */
        size_t last_lo = i, last_hi = a->nsegs; /* the first stretch from `to` on */
        while (last_lo < last_hi) {
            size_t mid = last_lo + (last_hi - last_lo) / 2;
            if (a->segs[mid].from < to)
                last_lo = mid + 1;
            else
                last_hi = mid;
        }
        size_t last = last_lo - 1;
        sum += a->cum[last] - a->cum[i];
        sum += clipped(&a->segs[last], from, to);
    }
    return sum;
}

/* How many of the sorted times lie in [from, to). */
static size_t count_within(const double *v, size_t n, double from, double to)
{
    size_t lo = 0, hi = n, a, b;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    a = lo;
    hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < to)
            lo = mid + 1;
        else
            hi = mid;
    }
    b = lo;
    return b - a;
}

/* Execution time and counts of every instance; response and latency
 * instances of resources that never ran are dropped (a numeric state, an
 * "alive" thread: not an actor with a processor). */
static void measure(pass *p)
{
    size_t k = 0;
    for (size_t i = 0; i < p->nrecs; i++) {
        rec *r = &p->recs[i];
        const actor *a = &p->a[r->res];
        if ((r->kind == K_RESPONSE || r->kind == K_LATENCY) && !a->ran)
            continue;
        double from = since_start(p, r->start), to = since_start(p, r->end);
        r->response = span(p, r->start, r->end);
        r->exec = a->ti->has_state && a->ran ? exec_within(a, from, to) : -1;
        r->pre = (uint32_t)count_within(a->pre, a->npre, from, to);
        r->intr = (uint32_t)count_within(a->intr, a->nintr, from, to);
        p->recs[k++] = *r;
    }
    p->nrecs = k;
}

/* ---- grouping ---------------------------------------------------------------------- */

/* The order of the instances: by start, then the event that began them,
 * kind and resource. */
static int by_start(const void *x, const void *y)
{
    const rec *a = x, *b = y;
    int c = tlv_time_cmp(a->start, b->start);
    if (c)
        return c;
    if (a->sev != b->sev)
        return a->sev < b->sev ? -1 : 1;
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    return a->res < b->res ? -1 : a->res > b->res;
}

/* A record's place in by_start's order, for the radix sort: f[0] the least
 * significant field. */
typedef struct skey {
    uint32_t f[3];              /* res, kind, sev */
    uint32_t index;             /* into p->recs */
} skey;

/* Sorts *keys by f[2], then f[1], then f[0]: one stable counting pass per
 * byte, least significant first, skipping the bytes all keys share (most:
 * few kinds and resources). *keys may be swapped with *tmp. */
static void radix_sort(skey **keys, skey **tmp, size_t n)
{
    for (int b = 0; b < 12; b++) {
        size_t count[256] = {0};
        const skey *in = *keys;
        int field = b / 4, shift = 8 * (b % 4);
        for (size_t i = 0; i < n; i++)
            count[(in[i].f[field] >> shift) & 255]++;
        if (count[(in[0].f[field] >> shift) & 255] == n)
            continue; /* every key has this byte */
        size_t at = 0;
        for (size_t d = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        skey *out = *tmp;
        for (size_t i = 0; i < n; i++)
            out[count[(in[i].f[field] >> shift) & 255]++] = in[i];
        *tmp = *keys;
        *keys = out;
    }
}

/* The records' indexes in by_start's order, in *order. An instance begins
 * at the time of the event that began it (sev; one open since before the
 * trace at its first event, 0), and the events are in time order, so
 * by_start's order is that of (sev, kind, res): a radix sort, linear where
 * qsort's comparisons took most of `tlv verify`'s analysis on a long log.
 * A record that does not begin at its event's time (none should) leaves it
 * to qsort. */
static int sort_by_start(pass *p, uint32_t **order)
{
    size_t n = p->nrecs;
    const tlv_trace *t = p->t;
    skey *keys = malloc((n + 1) * sizeof *keys), *tmp = malloc((n + 1) * sizeof *tmp);
    *order = malloc((n + 1) * sizeof **order);
    int radix = keys && tmp && *order, rc = radix ? 0 : -1;
    for (size_t i = 0; i < n && radix; i++) {
        const rec *r = &p->recs[i];
        radix = r->sev < t->nev && tlv_time_cmp(r->start, trace_time(t, &t->ev[r->sev])) == 0;
        keys[i] = (skey){{r->res, r->kind, r->sev}, (uint32_t)i};
    }
    if (radix && n)
        radix_sort(&keys, &tmp, n);
    else if (rc == 0 && n > 1)
        qsort(p->recs, n, sizeof *p->recs, by_start);
    for (size_t i = 0; i < n && rc == 0; i++)
        (*order)[i] = radix ? keys[i].index : (uint32_t)i;
    free(keys);
    free(tmp);
    return rc;
}

/* The groups: one per (resource, kind, name id), found through a hash
 * table (names are interned: one id per text). */
typedef struct gtable {
    group *g;                   /* in the order found */
    size_t n, cap;
    uint32_t *slots;            /* group index + 1; 0: empty */
    size_t nslots;              /* a power of 2, at least twice n */
} gtable;

static size_t gslot(const gtable *gt, uint32_t res, uint32_t kind, uint32_t name)
{
    uint64_t h = ((uint64_t)res * 0x9E3779B97F4A7C15u) ^ ((uint64_t)kind << 32) ^ name;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9u;
    h ^= h >> 29;
    size_t i = (size_t)h & (gt->nslots - 1);
    while (gt->slots[i]) {
        const group *g = &gt->g[gt->slots[i] - 1];
        if (g->res == res && g->kind == kind && g->name == name)
            break;
        i = (i + 1) & (gt->nslots - 1);
    }
    return i;
}

static int gtable_rehash(gtable *gt)
{
    size_t n = gt->nslots ? gt->nslots * 2 : 64;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    free(gt->slots);
    gt->slots = s;
    gt->nslots = n;
    for (size_t k = 0; k < gt->n; k++)
        gt->slots[gslot(gt, gt->g[k].res, gt->g[k].kind, gt->g[k].name)] = (uint32_t)k + 1;
    return 0;
}

/* The index of r's group, made when new; -1 when memory ran out. */
static long group_of(gtable *gt, const rec *r)
{
    if ((gt->n + 1) * 2 > gt->nslots && gtable_rehash(gt) < 0)
        return -1;
    size_t i = gslot(gt, r->res, r->kind, r->name);
    if (!gt->slots[i]) {
        if (GROW(gt->g, gt->cap, gt->n + 1) < 0)
            return -1;
        gt->g[gt->n] = (group){r->res, r->kind, r->name, 0, 0, 0};
        gt->slots[i] = (uint32_t)++gt->n;
    }
    return (long)gt->slots[i] - 1;
}

/* A group and its name's text, for ordering the groups: by resource,
 * kind, then name. */
typedef struct gref {
    const group *g;
    const char *name;
} gref;

static int by_group(const void *x, const void *y)
{
    const gref *a = x, *b = y;
    if (a->g->res != b->g->res)
        return a->g->res < b->g->res ? -1 : 1;
    if (a->g->kind != b->g->kind)
        return a->g->kind < b->g->kind ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int by_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

/* A double's bits as an unsigned number in the same order (not NaN). */
static uint64_t ordered_bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u >> 63 ? ~u : u | (uint64_t)1 << 63;
}

/* Sorts v[0..n) (response times, never NaN) increasing: a radix sort of
 * their bits, byte by byte, skipping the bytes all share (whole numbers of
 * microseconds leave the low ones zero); tmp holds 2n numbers. Short runs
 * go to qsort. */
static void sort_doubles(double *v, size_t n, uint64_t *tmp)
{
    if (n < 64) {
        qsort(v, n, sizeof *v, by_double);
        return;
    }
    uint64_t *k = tmp, *out = tmp + n;
    for (size_t i = 0; i < n; i++)
        k[i] = ordered_bits(v[i]);
    for (int shift = 0; shift < 64; shift += 8) {
        size_t count[256] = {0};
        for (size_t i = 0; i < n; i++)
            count[(k[i] >> shift) & 255]++;
        if (count[(k[0] >> shift) & 255] == n)
            continue;
        size_t at = 0;
        for (size_t d = 0; d < 256; d++) {
            size_t c = count[d];
            count[d] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            out[count[(k[i] >> shift) & 255]++] = k[i];
        uint64_t *x = k;
        k = out;
        out = x;
    }
    for (size_t i = 0; i < n; i++) {
        uint64_t u = k[i] >> 63 ? k[i] & ~((uint64_t)1 << 63) : ~k[i];
        memcpy(&v[i], &u, sizeof u);
    }
}
/* The whole instances (o->inst) and the groups (o->groups, by by_group),
 * each group's instances in start order (o->members) and response times
 * sorted (o->sorted). The records are in start order: placing each in its
 * group keeps that order, in one pass. */
static int place(pass *p, gtable *gt, const uint32_t *order, const uint32_t *gid)
{
    tlv_instances *o = p->out;
    gref *refs = malloc((gt->n + 1) * sizeof *refs);
    uint32_t *rank = malloc((gt->n + 1) * sizeof *rank);
    size_t *filled = calloc(gt->n + 1, sizeof *filled), whole = 0;
    uint64_t *tmp = NULL;
    o->groups = malloc((gt->n + 1) * sizeof *o->groups);
    int rc = -1;
    if (!refs || !rank || !filled || !o->groups)
        goto done;
    for (size_t k = 0; k < gt->n; k++)
        refs[k] = (gref){&gt->g[k], intern_str(o->pool, gt->g[k].name)};
    if (gt->n > 1)
        qsort(refs, gt->n, sizeof *refs, by_group);
    for (size_t k = 0; k < gt->n; k++) {
        rank[refs[k].g - gt->g] = (uint32_t)k;
        o->groups[k] = *refs[k].g;
        o->groups[k].first = whole;
        whole += o->groups[k].count;
    }
    o->ngroups = gt->n;
    o->members = malloc((whole + 1) * sizeof *o->members);
    o->sorted = malloc((whole + 1) * sizeof *o->sorted);
    if (!o->members || !o->sorted)
        goto done;
    for (size_t i = 0; i < p->nrecs; i++) {
        const rec *r = &p->recs[order[i]];
        if (r->partial)
            continue;
        uint32_t g = rank[gid[i]];
        size_t at = o->groups[g].first + filled[g]++;
        o->inst[o->ninst] = *r;
        o->inst[o->ninst].group = g;
        o->members[at] = o->ninst++;
        o->sorted[at] = r->response;
    }
    size_t most = 0;
    for (size_t g = 0; g < o->ngroups; g++)
        most = o->groups[g].count > most ? o->groups[g].count : most;
    tmp = malloc((2 * most + 1) * sizeof *tmp);
    if (!tmp)
        goto done;
    for (size_t g = 0; g < o->ngroups; g++)
        sort_doubles(o->sorted + o->groups[g].first, o->groups[g].count, tmp);
    rc = 0;
done:
    free(tmp);
    free(refs);
    free(rank);
    free(filled);
    return rc;
}

/* Orders the records by start and gathers them by group. */
static int collect(pass *p)
{
    tlv_instances *o = p->out;
    gtable gt;
    memset(&gt, 0, sizeof gt);
    uint32_t *gid = malloc((p->nrecs + 1) * sizeof *gid), *order = NULL;
    o->inst = malloc((p->nrecs + 1) * sizeof *o->inst);
    int rc = -1;
    if (!gid || !o->inst || sort_by_start(p, &order) < 0)
        goto done;
    for (size_t i = 0; i < p->nrecs; i++) { /* gid[i]: the group of the i-th by start */
        const rec *r = &p->recs[order[i]];
        long g = group_of(&gt, r);
        if (g < 0)
            goto done;
        gid[i] = (uint32_t)g;
        if (r->partial)
            gt.g[g].partial++;
        else
            gt.g[g].count++;
    }
    rc = place(p, &gt, order, gid);
done:
    free(order);
    free(gid);
    free(gt.g);
    free(gt.slots);
    return rc;
}

static void free_pass(pass *p)
{
    for (size_t r = 0; p->a && r < p->na; r++) {
        actor *a = &p->a[r];
        free(a->segs);
        free(a->cum);
        free(a->pre);
        free(a->intr);
        free(a->stack);
        for (size_t i = 0; i < a->npend; i++)
            evmatch_free(&a->pend[i].to);
        free(a->pend);
        for (size_t k = 0; a->from && k < a->ti->nkinds; k++)
            evmatch_free(&a->from[k]);
        free(a->from);
    }
    free(p->a);
    for (size_t i = 0; p->types && i < p->w->model->ntypes; i++)
        free(p->types[i].kinds);
    free(p->types);
    for (size_t i = 0; i < p->nslots; i++)
        free(p->slots[i].res);
    free(p->slots);
    free(p->recs);
    free(p->ready);
    buf_free(&p->scratch);
}

/* The ready values: a comma-separated list, as ids. */
static int setup_ready(pass *p, const char *list)
{
    p->ready = malloc((strlen(list) + 1) * sizeof *p->ready);
    if (!p->ready)
        return -1;
    for (const char *s = list; *s;) {
        size_t n = strcspn(s, ",");
        p->ready[p->nready++] = n ? intern_find(p->w->values, s, n) : NEVER;
        s += n + (s[n] == ',');
    }
    return 0;
}

/* Whether some resource's type has the attribute. */
static int any_type_has(const model *m, const char *attr)
{
    for (size_t i = 0; i < m->ntypes; i++)
        if (model_attr_index(&m->types[i], attr, strlen(attr)) >= 0)
            return 1;
    return 0;
}

static const char *or_default(const char *s, const char *dflt)
{
    return s ? s : dflt;
}

static tlv_status nomem(const tlv_trace *trace, pass *p)
{
    free_pass(p);
    tlv_instances_free(p->out);
    return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_NOMEM,
                          "tlv_instances_compute: out of memory while finding the instances");
}

tlv_status tlv_instances_compute(const tlv_trace *trace, const tlv_instances_options *opts,
                                 tlv_instances **out)
{
    if (!out)
        return TLV_ERR_USAGE;
    *out = NULL;
    if (!trace)
        return TLV_ERR_USAGE;
    if (!trace->finished && trace->nsorted != trace->nev)
        return last_error_set(LAST_ERROR_OF(trace), TLV_ERR_USAGE,
                              "tlv_instances_compute: the trace's latest events are not ordered "
                              "yet (call tlv_trace_update or tlv_trace_finish)");
    ALLOC_WATCH;
    tlv_instances_options o = TLV_INSTANCES_OPTIONS_INIT;
    abi_read_in(&o, sizeof o, opts, sizeof o);
    const char *state_attr = or_default(o.state_attribute, "state");
    pass p;
    memset(&p, 0, sizeof p);
    p.t = trace;
    p.w = trace->w;
    p.radix = tlv_rules_time_radix(trace->rules);
    p.t0 = tlv_trace_start(trace);
    p.state = value_id(&p, state_attr);
    p.running = value_id(&p, or_default(o.running_value, "RUNNING"));
    p.empty = intern_find(p.w->values, "", 0);
    const char *cpu_attr = o.cpu_attribute;
    if (!cpu_attr && any_type_has(p.w->model, "prcId"))
        cpu_attr = "prcId";
    p.multi_cpu = cpu_attr != NULL;
    p.na = p.w->nres;
    p.out = calloc(1, sizeof *p.out);
    if (!p.out)
        return nomem(trace, &p);
    p.out->trace = trace;
    p.out->pool = intern_new();
    p.types = calloc(p.w->model->ntypes + 1, sizeof *p.types);
    p.a = calloc(p.na + 1, sizeof *p.a);
    if (!p.out->pool || !p.types || !p.a ||
        setup_ready(&p, or_default(o.ready_values, "RUNNABLE,READY,PREEMPTED")) < 0)
        return nomem(trace, &p);
    pool_id(&p, "", 0); /* id 0: no name */
    if (!p.multi_cpu && GROW(p.slots, p.slots_cap, 1) == 0) /* the one processor */
        p.slots[p.nslots++] = (slot){NEVER, NULL, 0, 0};
    setup_types(&p, state_attr, cpu_attr);
    for (uint32_t r = 0; r < p.na && !p.failed; r++)
        setup_actor(&p, r, state_attr);
    if (!p.failed)
        scan(&p);
    if (!p.failed) {
        finish_actors(&p);
        long_stretch_sums(&p);
    }
    if (!p.failed) {
        measure(&p);
    }
    if (p.failed || collect(&p) < 0 || ALLOC_FAILED_SINCE())
        return nomem(trace, &p);
    free_pass(&p);
    *out = p.out;
    return TLV_OK;
}

void tlv_instances_free(tlv_instances *o)
{
    if (!o)
        return;
    intern_free(o->pool);
    free(o->kind_ids);
    free(o->inst);
    free(o->groups);
    free(o->members);
    free(o->sorted);
    free(o);
}

/* ---- reading the result ------------------------------------------------------------ */

size_t tlv_instances_count(const tlv_instances *o) { return o ? o->ninst : 0; }

static const char *kind_name(const tlv_instances *o, uint32_t kind)
{
    return intern_str(o->pool, o->kind_ids[kind]);
}

static void instance_fill(const tlv_instances *o, size_t i, tlv_instance *out)
{
    memset(out, 0, sizeof *out);
    if (!o || i >= o->ninst)
        return;
    const rec *r = &o->inst[i];
    const tlv_trace *t = o->trace;
    out->resource = t->w->res[r->res].name;
    out->kind = kind_name(o, r->kind);
    out->name = intern_str(o->pool, r->name);
    out->start = r->start;
    out->end = r->end;
    out->response = r->response;
    out->execution = r->exec;
    out->preemptions = r->pre;
    out->interruptions = r->intr;
    out->start_line = trace_line(t, &t->ev[r->sev]);
    out->end_line = trace_line(t, &t->ev[r->eev]);
    out->start_event = r->sev;
    out->end_event = r->eev;
    out->group = r->group;
}

void tlv_instances_get_sized(const tlv_instances *o, size_t i, tlv_instance *out, size_t size)
{
    ABI_FILL_OUT(tlv_instance, instance_fill, out, size, o, i);
}

size_t tlv_instances_group_count(const tlv_instances *o) { return o ? o->ngroups : 0; }

static double percentile(const double *sorted, size_t n, double pct)
{
    if (!n || !(pct > 0) || pct > 100)
        return 0;
    double rank = ceil(pct / 100 * (double)n - 1e-9); /* 1-based; -1e-9: 90% of 10 is 9 */
    size_t k = rank < 1 ? 1 : (size_t)rank;
    return sorted[(k > n ? n : k) - 1];
}

static void group_fill(const tlv_instances *o, size_t gi, tlv_instance_group *out)
{
    memset(out, 0, sizeof *out);
    if (!o || gi >= o->ngroups)
        return;
    const group *g = &o->groups[gi];
    const tlv_trace *t = o->trace;
    const double *v = o->sorted + g->first;
    out->resource = t->w->res[g->res].name;
    const char *label = tlv_trace_resource_label(t, g->res);
    out->label = label && *label ? label : out->resource;
    out->kind = kind_name(o, g->kind);
    out->name = intern_str(o->pool, g->name);
    out->count = g->count;
    out->partial = g->partial;
    out->execution_max = out->execution_mean = -1;
    if (!g->count)
        return;
    out->min = v[0];
    out->max = v[g->count - 1];
    out->p50 = percentile(v, g->count, 50);
    out->p90 = percentile(v, g->count, 90);
    out->p99 = percentile(v, g->count, 99);
    double sum = 0, sq = 0, exec_sum = 0;
    size_t nexec = 0;
    out->worst = o->members[g->first];
    for (size_t k = 0; k < g->count; k++) {
        const rec *r = &o->inst[o->members[g->first + k]];
        sum += r->response;
        if (r->response > o->inst[out->worst].response)
            out->worst = o->members[g->first + k];
        out->preemptions += r->pre;
        out->interruptions += r->intr;
        if (r->exec >= 0) {
            exec_sum += r->exec;
            out->execution_max = nexec++ == 0 || r->exec > out->execution_max ? r->exec
                                                                             : out->execution_max;
        }
    }
    out->mean = sum / (double)g->count;
    for (size_t k = 0; k < g->count; k++) {
        double d = v[k] - out->mean;
        sq += d * d;
    }
    out->stddev = sqrt(sq / (double)g->count);
    if (nexec)
        out->execution_mean = exec_sum / (double)nexec;
}

void tlv_instances_group_sized(const tlv_instances *o, size_t g, tlv_instance_group *out,
                               size_t size)
{
    ABI_FILL_OUT(tlv_instance_group, group_fill, out, size, o, g);
}

size_t tlv_instances_group_member(const tlv_instances *o, size_t g, size_t k)
{
    if (!o || g >= o->ngroups || k >= o->groups[g].count)
        return (size_t)-1;
    return o->members[o->groups[g].first + k];
}

double tlv_instances_percentile(const tlv_instances *o, size_t g, double pct)
{
    if (!o || g >= o->ngroups)
        return 0;
    return percentile(o->sorted + o->groups[g].first, o->groups[g].count, pct);
}

size_t tlv_instances_find_group(const tlv_instances *o, const char *resource, const char *kind,
                                const char *name)
{
    for (size_t g = 0; o && resource && kind && g < o->ngroups; g++) {
        const group *gr = &o->groups[g];
        if (strcmp(o->trace->w->res[gr->res].name, resource) == 0 &&
            strcmp(kind_name(o, gr->kind), kind) == 0 &&
            strcmp(intern_str(o->pool, gr->name), name ? name : "") == 0)
            return g;
    }
    return (size_t)-1;
}
