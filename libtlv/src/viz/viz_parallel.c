/*
 * viz_parallel.c — applying the visualization rules on several threads
 * (tlv_shapes_options.threads). The serial loop applies rule after rule,
 * each to target after target; each (rule, target) is a unit here, and the
 * units are independent: they read the events, the index and the world's
 * histories, which nothing changes while the rules are applied. Workers
 * take units in order, each with a builder of its own (a world reader with
 * its own caches, its own macro memo, primitives, joined values and
 * scratch) and apply them into the unit's lists: its shapes, and a journal
 * of the primitive keys it used and the errors it met, in the order met.
 * The calling thread, a worker too, merges the units in the serial order as
 * they are done: it resolves each key in the shapes' own primitives (made,
 * and their errors reported, where the serial loop would make them), adds
 * the errors and the shapes (their drawing order is the merge order), then
 * applies the unit's flows itself. So the result is the serial loop's,
 * byte for byte; units done ahead wait in memory until their turn.
 *
 * Which unit a thread takes next: the calling thread takes the first one
 * not taken in the serial order (it merges that one next, so what it makes
 * is merged at once), the other workers the largest one not taken (by the
 * events the unit scans). A single target can hold half of all the shapes
 * (TOPPERS/ASP: the timer interrupt's state changes); taken in serial order
 * it started late and the other threads waited idle for it at the end.
 */
#include "viz/viz_build.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A shape made by a worker: its primitive is the `nth` of the worker's key
 * `key`; its value a world value, or (joined) at joined_at - 1 in the
 * unit's texts. Only the unit is read when merging: the worker's own
 * tables go on growing meanwhile. */
typedef struct pending_shape {
    tlv_time from, to;
    uint32_t row, key, nth, rule, event, res, value, joined_at, events[2];
} pending_shape;

/* What a unit met, in order: a primitive key used (first use in the unit),
 * with what it takes to resolve it again, or an error. */
typedef struct journal_entry {
    const event_def *event; /* the event being applied then */
    uint32_t line;          /* its trace line (0: initial values) */
    uint32_t key;           /* the worker's key id, or UINT32_MAX: an error */
    const shape_def *sd;    /* the key's shape, */
    char *text;             /* its arguments, each ending in '\0'; or the error */
    size_t nargs;
    uint32_t row;           /* the key's row, or UINT32_MAX */
    const char *file;       /* an error's place */
    long eline, col;
} journal_entry;

typedef struct viz_unit {
    viz_rule *rule;
    long target;            /* resource, or -1 (a rule without Target) */
    int worker;             /* which worker applied it */
    int taken, done;
    size_t cost;            /* events it scans (an estimate of its work) */
    pending_shape *shapes;
    size_t nshapes, shapes_cap;
    journal_entry *journal;
    size_t njournal, journal_cap;
    buf texts;              /* joined values of its shapes, each ending in '\0' */
    uint32_t last_joined;   /* the worker's id of the last one added, */
    uint32_t last_at;       /* and where it is (1 + offset) */
} viz_unit;

typedef struct worker {
    builder b;
    struct tlv_shapes s;    /* its primitives, joined values, diags */
    world reader;
    uint32_t *global_first; /* per key: its first primitive in the main shapes */
    size_t global_cap;
    int failed;             /* an allocation failed on its thread */
    struct par *p;
    pthread_t thread;
    int started;
} worker;

typedef struct par {
    builder *main;
    viz_unit *units;
    size_t nunits, next;    /* the first unit not taken in the serial order, */
    size_t *by_cost;        /* the units, largest first, */
    size_t next_big;        /* and the first of those not taken */
    worker *workers;
    int nworkers;
    int stop;               /* no more units: memory ran out */
    pthread_mutex_t mu;
    pthread_cond_t done;    /* a unit is done */
} par;

/* ---- a worker's hooks (viz_build.h) ---------------------------------------------------- */

int viz_unit_add_shape(builder *b, tlv_time from, tlv_time to, uint32_t row, uint32_t prim,
                       uint32_t rule, uint32_t event, uint32_t res)
{
    viz_unit *u = b->unit;
    if (GROW(u->shapes, u->shapes_cap, u->nshapes + 1) < 0)
        return -1;
    uint32_t v = b->cur_value, at = 0;
    if (v != UINT32_MAX && (v & VALUE_OWN)) { /* the text, for the merge to intern */
        uint32_t id = v & ~VALUE_OWN;
        if (!u->last_at || u->last_joined != id) {
            u->last_joined = id;
            u->last_at = (uint32_t)u->texts.len + 1;
            if (buf_append(&u->texts, intern_str(b->s->joined, id),
                           intern_len(b->s->joined, id) + 1) < 0)
                return -1;
        }
        at = u->last_at;
        v = UINT32_MAX;
    }
    uint32_t key = b->prim_key[prim];
    u->shapes[u->nshapes++] = (pending_shape){from, to, row, key, prim - b->key_first[key], rule,
                                              event, res, v, at,
                                              {b->cur_events[0], b->cur_events[1]}};
    return 0;
}

static journal_entry *journal_add(builder *b)
{
    viz_unit *u = b->unit;
    if (GROW(u->journal, u->journal_cap, u->njournal + 1) < 0)
        return NULL;
    journal_entry *e = &u->journal[u->njournal++];
    memset(e, 0, sizeof *e);
    e->event = b->cur_event;
    e->line = b->cur_line;
    e->key = UINT32_MAX;
    e->row = UINT32_MAX;
    return e;
}

int viz_unit_note_key(builder *b, uint32_t key, const shape_def *sd, const char *const *args,
                      size_t nargs, uint32_t row)
{
    size_t had = b->key_unit_cap;
    if (GROW(b->key_unit, b->key_unit_cap, (size_t)key + 1) < 0)
        return -1;
    memset(b->key_unit + had, 0, (b->key_unit_cap - had) * sizeof *b->key_unit);
    if (b->key_unit[key] == b->unit_no + 1)
        return 0; /* noted in this unit already */
    size_t len = 0;
    for (size_t i = 0; i < nargs; i++)
        len += strlen(args[i]) + 1;
    journal_entry *e = journal_add(b);
    char *text = e ? malloc(len + 1) : NULL;
    if (!text)
        return -1;
    for (size_t i = 0, at = 0; i < nargs; i++) {
        size_t n = strlen(args[i]) + 1;
        memcpy(text + at, args[i], n);
        at += n;
    }
    e->key = key;
    e->sd = sd;
    e->text = text;
    e->nargs = nargs;
    e->row = row;
    b->key_unit[key] = b->unit_no + 1;
    return 0;
}

int viz_unit_prims_made(builder *b, uint32_t key, uint32_t first, uint32_t count)
{
    if (GROW(b->prim_key, b->prim_key_cap, (size_t)first + count + 1) < 0)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        b->prim_key[first + i] = key;
    return 0;
}

void viz_unit_error(builder *b, const char *file, long line, long col, const char *text)
{
    journal_entry *e = journal_add(b);
    if (e) {
        e->text = xstrdup(text);
        e->file = file;
        e->eline = line;
        e->col = col;
    }
    if (!e || !e->text)
        b->s->diags.nomem = 1; /* the worker's: tells the merge it failed */
}

/* ---- the units ---------------------------------------------------------------------------- */

static int larger_unit(const void *pa, const void *pb)
{
    const uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a < b) - (a > b);
}

/* p->by_cost: the units by cost, largest first (equal costs in the serial
 * order); the order only decides which thread does what, not the result. */
static int order_by_cost(par *p)
{
    struct keyed {
        uint64_t key; /* cost, then the serial order reversed */
        size_t unit;
    } *k = malloc((p->nunits + 1) * sizeof *k);
    if (!k)
        return -1;
    for (size_t i = 0; i < p->nunits; i++)
        k[i] = (struct keyed){(uint64_t)(p->units[i].cost < UINT32_MAX ? p->units[i].cost
                                                                        : UINT32_MAX)
                                      << 32 |
                                  (UINT32_MAX - (uint32_t)i),
                              i};
    qsort(k, p->nunits, sizeof *k, larger_unit);
    for (size_t i = 0; i < p->nunits; i++)
        p->by_cost[i] = k[i].unit;
    free(k);
    return 0;
}

static int make_units(par *p)
{
    builder *b = p->main;
    size_t n = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < b->nrules; i++) {
            viz_rule *r = &b->rules[i];
            if (r->type == -2 || viz_is_skipped(b->opts, r->name))
                continue;
            size_t ntargets = r->type >= 0 ? b->w->nmembers[r->type] : 1;
            for (size_t ti = 0; ti < ntargets; ti++, n++)
                if (pass) {
                    viz_unit *u = &p->units[n];
                    u->rule = r;
                    u->target = r->type >= 0 ? (long)b->w->members[r->type][ti] : -1;
                    u->cost = (u->target >= 0 ? b->per_res_n[u->target] : b->nev) *
                              (r->nevents ? r->nevents : 1);
                }
        }
        if (!pass) {
            p->nunits = n;
            p->units = calloc(n + 1, sizeof *p->units);
            p->by_cost = malloc((n + 1) * sizeof *p->by_cost);
            if (!p->units || !p->by_cost)
                return -1;
            n = 0;
        }
    }
    return order_by_cost(p);
}

static void unit_clear(viz_unit *u)
{
    for (size_t i = 0; i < u->njournal; i++)
        free(u->journal[i].text);
    free(u->journal);
    free(u->shapes);
    buf_free(&u->texts);
    u->journal = NULL;
    u->shapes = NULL;
    u->njournal = u->nshapes = 0;
    u->last_at = 0;
}

/* What apply_rule (viz.c) does for one target, into the unit. */
static void run_unit(worker *wk, viz_unit *u, uint32_t no)
{
    ALLOC_WATCH;
    builder *b = &wk->b;
    b->unit = u;
    b->unit_no = no;
    b->cur_rule = u->rule;
    const char *tname = u->target >= 0 ? b->w->res[u->target].name : NULL;
    for (size_t e = 0; e < u->rule->nevents; e++) {
        b->cur_event = &u->rule->events[e];
        b->cur_line = 0;
        if (u->rule->events[e].when)
            viz_apply_when(b, &u->rule->events[e], tname, u->target);
        else
            viz_apply_from_to(b, &u->rule->events[e], tname, u->target);
    }
    b->cur_event = NULL;
    b->cur_rule = NULL;
    b->unit = NULL;
    u->worker = (int)(wk - wk->p->workers);
    if (ALLOC_FAILED_SINCE() || wk->s.diags.nomem)
        wk->failed = 1;
}

/* ---- the workers -------------------------------------------------------------------------- */

static int worker_init(worker *wk, par *p)
{
    builder *m = p->main;
    memset(wk, 0, sizeof *wk);
    wk->p = p;
    wk->b = *m;
    world_reader_init(&wk->reader, m->w);
    builder *b = &wk->b;
    b->w = &wk->reader;
    world_macro_host(b->w, &b->host);
    b->memo = macro_memo_new();
    b->prim_keys = intern_new();
    b->key_first = b->key_count = NULL;
    b->keys_cap = 0;
    b->prim_row = NULL;
    b->prim_row_cap = 0;
    b->absent = NULL;
    b->cond_memo = NULL; /* the main builder's is not shared */
    b->ref_texts = NULL; /* nor its references: their keys are the main builder's */
    b->refs = NULL;
    b->refs_cap = 0;
    b->a = b->b = b->err = (buf)BUF_INIT;
    b->unit = NULL;
    b->key_unit = b->prim_key = NULL;
    b->key_unit_cap = b->prim_key_cap = 0;
    b->cur_rule = NULL;
    b->cur_event = NULL;
    b->cur_line = 0;
    struct tlv_shapes *s = &wk->s;
    s->trace = m->s->trace;
    s->radix = m->s->radix;
    s->time_scale = m->s->time_scale;
    s->start = m->s->start;
    s->end = m->s->end;
    s->time_mode = m->s->time_mode;
    s->joined = intern_new();
    diags_init(&s->diags, 0);
    b->s = s;
    return b->memo && b->prim_keys && s->joined ? 0 : -1;
}

static void worker_free(worker *wk)
{
    builder *b = &wk->b;
    viz_free_absent(b);
    world_reader_free(&wk->reader);
    macro_memo_free(b->memo);
    viz_free_cond_memo(b);
    viz_free_refs(b);
    intern_free(b->prim_keys);
    free(b->key_first);
    free(b->key_count);
    free(b->prim_row);
    free(b->key_unit);
    free(b->prim_key);
    buf_free(&b->a);
    buf_free(&b->b);
    buf_free(&b->err);
    for (size_t i = 0; i < wk->s.nprims; i++)
        prim_free(&wk->s.prims[i]);
    free(wk->s.prims);
    intern_free(wk->s.joined);
    diags_free(&wk->s.diags);
    free(wk->global_first);
}

/* Takes the next unit, or returns SIZE_MAX when none is left: the first
 * not taken in the serial order (`first`: the calling thread's), else the
 * largest. Called with the lock held. */
static size_t take_unit(par *p, int first)
{
    while (p->next < p->nunits && p->units[p->next].taken)
        p->next++;
    while (p->next_big < p->nunits && p->units[p->by_cost[p->next_big]].taken)
        p->next_big++;
    size_t u = first ? p->next : p->next_big < p->nunits ? p->by_cost[p->next_big] : SIZE_MAX;
    if (u >= p->nunits || p->stop)
        return SIZE_MAX;
    p->units[u].taken = 1;
    return u;
}

static void *worker_main(void *arg)
{
    worker *wk = arg;
    par *p = wk->p;
    pthread_mutex_lock(&p->mu);
    for (size_t u; (u = take_unit(p, 0)) != SIZE_MAX;) {
        pthread_mutex_unlock(&p->mu);
        run_unit(wk, &p->units[u], (uint32_t)u);
        pthread_mutex_lock(&p->mu);
        p->units[u].done = 1;
        if (wk->failed)
            p->stop = 1;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* ---- merging, in the serial order ------------------------------------------------------- */

/* Resolves a key a worker used in the main builder: makes its primitives
 * (reporting their errors) when the serial loop would have made them here. */
static int resolve_key(builder *b, worker *wk, const journal_entry *e)
{
    const char *args[STD_MAX_ARGS];
    size_t nargs = 0;
    for (const char *a = e->text; nargs < e->nargs && nargs < STD_MAX_ARGS; a += strlen(a) + 1)
        args[nargs++] = a;
    buf key = BUF_INIT;
    uint32_t first = 0, count = 0;
    b->cur_event = e->event;
    b->cur_line = e->line;
    int rc = viz_prim_key(&key, e->sd, args, nargs, e->row);
    if (rc == 0 && viz_prims_for_key(b, e->sd, args, nargs, e->row, &key, &first, &count) == 0 &&
        e->row != UINT32_MAX)
        rc = viz_note_prim_row(b, first, count, e->row);
    buf_free(&key);
    size_t had = wk->global_cap;
    if (rc < 0 || GROW(wk->global_first, wk->global_cap, (size_t)e->key + 1) < 0)
        return -1;
    for (size_t i = had; i < wk->global_cap; i++)
        wk->global_first[i] = UINT32_MAX;
    wk->global_first[e->key] = first;
    return 0;
}

/* A pending shape's value in the main shapes' terms. */
static uint32_t main_value(builder *b, const viz_unit *u, const pending_shape *sh)
{
    if (!sh->joined_at)
        return sh->value;
    const char *text = u->texts.data + sh->joined_at - 1;
    uint32_t id = intern_add(b->s->joined, text, strlen(text));
    return id < VALUE_OWN ? id | VALUE_OWN : UINT32_MAX;
}

static int merge_unit(par *p, viz_unit *u)
{
    builder *b = p->main;
    worker *wk = &p->workers[u->worker];
    int rc = 0;
    b->cur_rule = u->rule;
    for (size_t i = 0; i < u->njournal && rc == 0; i++) {
        const journal_entry *e = &u->journal[i];
        if (e->key != UINT32_MAX)
            rc = resolve_key(b, wk, e);
        else
            diags_add(&b->s->diags, TLV_SEV_ERROR, e->file, e->eline, e->col, "%s", e->text);
    }
    for (size_t i = 0; i < u->nshapes && rc == 0; i++) {
        const pending_shape *sh = &u->shapes[i];
        uint32_t prim = wk->global_first[sh->key] + sh->nth;
        b->cur_value = main_value(b, u, sh);
        b->cur_events[0] = sh->events[0];
        b->cur_events[1] = sh->events[1];
        rc = viz_store_shape(b, sh->from, sh->to, sh->row, prim, sh->rule, sh->event, sh->res);
    }
    unit_clear(u);
    if (rc == 0 && u->rule->nflows) { /* the flows: on this thread, in order */
        const char *tname = u->target >= 0 ? b->w->res[u->target].name : NULL;
        viz_apply_flows(b, u->rule, tname, u->target);
    }
    b->cur_event = NULL;
    b->cur_rule = NULL;
    return rc;
}

/* The calling thread: merges units in order as they are done, and applies
 * units itself while the next to merge is not done. */
static int run_and_merge(par *p)
{
    ALLOC_WATCH;
    int rc = 0;
    pthread_mutex_lock(&p->mu);
    for (size_t merged = 0; merged < p->nunits;) {
        if (p->units[merged].done) {
            pthread_mutex_unlock(&p->mu);
            if (rc == 0 && (merge_unit(p, &p->units[merged]) < 0 || ALLOC_FAILED_SINCE()))
                rc = -1;
            unit_clear(&p->units[merged]);
            pthread_mutex_lock(&p->mu);
            if (rc < 0)
                p->stop = 1;
            merged++;
            continue;
        }
        size_t u = take_unit(p, 1);
        if (u != SIZE_MAX) {
            pthread_mutex_unlock(&p->mu);
            run_unit(&p->workers[0], &p->units[u], (uint32_t)u);
            pthread_mutex_lock(&p->mu);
            p->units[u].done = 1;
            if (p->workers[0].failed)
                p->stop = 1;
            continue;
        }
        if (p->stop && !p->units[merged].taken)
            break; /* stopped: what was not taken will never be done */
        pthread_cond_wait(&p->done, &p->mu);
    }
    pthread_mutex_unlock(&p->mu);
    return rc;
}

int viz_apply_parallel(builder *b, int threads)
{
    par p = {0};
    p.main = b;
    if (make_units(&p) < 0) {
        free(p.units);
        free(p.by_cost);
        return -1;
    }
    if ((size_t)threads > p.nunits)
        threads = p.nunits > 1 ? (int)p.nunits : 1;
    p.workers = calloc((size_t)threads, sizeof *p.workers);
    int rc = p.workers ? 0 : -1;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.done, NULL);
    for (int i = 0; rc == 0 && i < threads; i++, p.nworkers++)
        if (worker_init(&p.workers[i], &p) < 0)
            rc = -1;
    for (int i = 1; rc == 0 && i < p.nworkers; i++) /* without a thread, fewer workers */
        p.workers[i].started = pthread_create(&p.workers[i].thread, NULL, worker_main,
                                              &p.workers[i]) == 0;
    if (rc == 0)
        rc = run_and_merge(&p);
    for (int i = 1; i < p.nworkers; i++)
        if (p.workers[i].started)
            pthread_join(p.workers[i].thread, NULL);
    for (int i = 0; i < p.nworkers; i++) {
        if (p.workers[i].failed)
            rc = -1;
        worker_free(&p.workers[i]);
    }
    for (size_t i = 0; i < p.nunits; i++)
        unit_clear(&p.units[i]);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.done);
    free(p.workers);
    free(p.units);
    free(p.by_cost);
    return rc;
}

/* ---- whether the rules allow it ---------------------------------------------------------- */

static int mentions_clock(const tj_node *n, int depth)
{
    if (!n || depth > 64)
        return depth > 64;
    if ((n->key && strstr(n->key, "CLOCK{")) || (n->type == TJ_STRING && strstr(n->str, "CLOCK{")))
        return 1;
    for (const tj_node *c = n->child; c; c = c->next)
        if (mentions_clock(c, depth + 1))
            return 1;
    return 0;
}

int viz_parallel_ok(const builder *b)
{
    const struct tlv_rules *r = b->t->rules;
    for (size_t i = 0; i < r->nviz; i++)
        if (mentions_clock(r->viz[i].node, 0))
            return 0;
    return 1;
}
