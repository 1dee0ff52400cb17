/*
 * viz_events.c — the events as visualization rules see them: the initial
 * value of every attribute (a change at the start of the trace, or when a
 * resource created on first use appears), then the trace's events; lists of
 * them per resource, and an index by (resource, name[, value]) that lets the
 * search for a closing event start at the right place.
 *
 * Threads (tlv_shapes_options.threads, parfor.h): the trace's events are
 * copied in pieces, each piece writing only its own part of the copy, so
 * the result is the same on any number of threads. (The index made
 * resource by resource on several threads cost three times the CPU of one
 * pass over the events in order, walking each resource's events across
 * the whole copy: it stays one pass.)
 */
#include "viz/viz_build.h"

#include "base/parfor.h"

#include <stdlib.h>

/* When each resource first appears in the trace: a resource created on
 * first use has its initial values from then on, not from the start. The
 * search stops once every resource was seen. */
static tlv_time *first_times(const builder *b)
{
    const world *w = b->w;
    tlv_time *t = calloc(w->nres + 1, sizeof *t);
    char *seen = calloc(w->nres + 1, 1);
    size_t unseen = w->nres;
    for (size_t i = 0; t && seen && unseen && i < b->t->nev; i++) {
        uint32_t r = b->t->ev[i].res;
        if (!seen[r]) {
            seen[r] = 1;
            unseen--;
            t[r] = trace_time(b->t, &b->t->ev[i]);
        }
    }
    free(seen);
    return t;
}

/* Trace events are copied in pieces: eight per thread, of 256 to 65536
 * events (a small trace is cut too, so that the tests comparing one thread
 * with several cover the cutting). */
typedef struct copy_work {
    builder *b;
    size_t piece;
} copy_work;

static size_t copy_piece_size(size_t nev, int threads)
{
    size_t per = nev / (8 * (size_t)(threads > 0 ? threads : 1)) + 1;
    return per < 256 ? 256 : per > 65536 ? 65536 : per;
}

static int copy_piece(void *ctx, size_t piece, int worker)
{
    (void)worker;
    const copy_work *w = ctx;
    builder *b = w->b;
    size_t lo = piece * w->piece, hi = lo + w->piece < b->t->nev ? lo + w->piece : b->t->nev;
    for (size_t i = lo; i < hi; i++) {
        const trace_event *e = &b->t->ev[i];
        vevent *v = &b->ev[b->ninit + i];
        v->time = trace_time(b->t, e);
        v->res = e->res;
        v->kind = e->kind;
        v->name = e->name;
        v->value = e->value;
        v->nargs = e->nargs;
        v->state_seq = trace_state_seq(b->t, e);
        v->line = trace_line(b->t, e);
    }
    return 0;
}

/* An array of `bytes` zeroes, in a temporary file (bulk.h) when as large as
 * the trace's own threshold for its events and the builder's copy of the
 * events and its lists together (about 60 bytes an event) would take more
 * than an eighth of the memory available: they are written once here, then
 * only read, and freed before the freeze; at 100M lines they are gigabytes
 * that anonymous memory (no swap) would have to hold to the end of the
 * rules. When they fit, memory is cheaper: every page of a file mapping
 * written costs a fault of its own, and past some gigabytes of dirty pages
 * the kernel writes them to disk (on these same cores, and holding up the
 * writer) although they are thrown away moments later. A trace whose
 * threshold was set below the default (the tests) always uses files. In
 * memory when no file can be had. */
static void *big_array(const builder *b, bulk *f, size_t bytes)
{
    size_t temps = b->nev * (sizeof *b->ev + 3 * sizeof(uint32_t));
    int file = bytes >= b->t->file_min &&
               (b->t->file_min < BULK_MIN_BYTES || !bulk_memory_spare(temps));
    if (file && bulk_new(f, bytes) == 0)
        return f->at;
    return calloc(1, bytes ? bytes : 1);
}

static void free_big(bulk *f, void *at)
{
    if (f->at)
        bulk_free(f);
    else
        free(at);
}

/* Lists of every resource's events, as positions in b->ev, in one array. */
static int build_per_resource(builder *b)
{
    const world *w = b->w;
    b->per_res = calloc(w->nres + 1, sizeof *b->per_res);
    b->per_res_n = calloc(w->nres + 1, sizeof *b->per_res_n);
    b->per_res_all = big_array(b, &b->per_res_file, b->nev * sizeof *b->per_res_all);
    if (!b->per_res || !b->per_res_n || !b->per_res_all)
        return -1;
    for (size_t i = 0; i < b->nev; i++)
        b->per_res_n[b->ev[i].res]++;
    size_t at = 0;
    for (size_t r = 0; r < w->nres; r++) {
        b->per_res[r] = b->per_res_all + at;
        at += b->per_res_n[r];
        b->per_res_n[r] = 0;
    }
    for (size_t i = 0; i < b->nev; i++) {
        uint32_t r = b->ev[i].res;
        b->per_res[r][b->per_res_n[r]++] = (uint32_t)i;
    }
    return 0;
}

int viz_build_events(builder *b)
{
    const world *w = b->w;
    size_t ninit = 0;
    for (size_t r = 0; r < w->nres; r++)
        ninit += w->model->types[w->res[r].type].nattrs;
    b->nev = ninit + b->t->nev;
    b->ninit = ninit;
    if (b->nev >= UINT32_MAX) /* positions in the lists are 32-bit */
        return -1;
    b->ev = big_array(b, &b->ev_file, (b->nev + 1) * sizeof *b->ev);
    if (!b->ev)
        return -1;
    tlv_time start = tlv_trace_start(b->t);
    tlv_time *born = first_times(b);
    if (!born)
        return -1;
    size_t k = 0;
    for (size_t r = 0; r < w->nres; r++) {
        const res_type *t = &w->model->types[w->res[r].type];
        for (size_t a = 0; a < t->nattrs; a++) {
            vevent *v = &b->ev[k++];
            v->time = w->res[r].dynamic ? born[r] : start;
            v->res = (uint32_t)r;
            v->kind = TLV_EVENT_ATTRIBUTE;
            v->name = intern_add(w->values, t->attrs[a].name, t->attrs[a].name_len);
            v->value = w->res[r].attrs[a].init;
            v->state_seq = 0;
            v->initial = 1;
        }
    }
    free(born);
    int threads = viz_threads(b->opts);
    copy_work copy = {b, copy_piece_size(b->t->nev, threads)};
    if (parfor_run(threads, (b->t->nev + copy.piece - 1) / copy.piece, copy_piece, &copy) < 0)
        return -1;
    return build_per_resource(b);
}

/* ---- the events a pattern can scan ------------------------------------------------- */

scan_list viz_scan_for(const builder *b, const pattern *p, long target)
{
    scan_list l = {NULL, b->nev};
    long r = p->res >= 0 ? p->res : target;
    if (r >= 0) {
        l.idx = b->per_res[r];
        l.n = b->per_res_n[r];
    }
    return l;
}

/* First position in l whose event index is greater than ev_index. */
size_t viz_after(const scan_list *l, size_t ev_index)
{
    if (!l->idx)
        return ev_index + 1;
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->idx[mid] <= ev_index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- events by resource and name ----------------------------------------------------- */

/* Closing patterns name a resource, an attribute or behavior, and usually a
 * value or first argument (`${FROM_TARGET}.leaveSVC(${FROM_ARG0})`): lists of
 * the events with each (resource, name) and (resource, name, value) let the
 * search for the closing event start at the right place (binary search)
 * instead of walking every later event of the resource. */
#define NO_VALUE UINT32_MAX

typedef struct event_index {
    uint32_t res, name, value; /* value NO_VALUE: the (resource, name) list */
    int used;
    uint32_t *idx;             /* in b->index_all */
    size_t n;
} event_index;

static uint64_t index_hash(uint32_t res, uint32_t name, uint32_t value)
{
    uint64_t h = ((uint64_t)res * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)name << 21) ^ value;
    h ^= h >> 31;
    return h * 0xbf58476d1ce4e5b9ULL;
}

static event_index *index_slot(builder *b, uint32_t res, uint32_t name, uint32_t value,
                               int create)
{
    size_t mask = b->index_slots - 1;
    for (size_t i = index_hash(res, name, value) & mask;; i = (i + 1) & mask) {
        event_index *e = &b->index[i];
        if (!e->used) {
            if (!create)
                return NULL;
            e->used = 1;
            e->res = res;
            e->name = name;
            e->value = value;
            return e;
        }
        if (e->res == res && e->name == name && e->value == value)
            return e;
    }
}

/* Doubles the table: keys are few (resources x names x values seen), so it
 * starts small and grows, rather than being sized by the number of events. */
static int index_grow(builder *b)
{
    event_index *old = b->index;
    size_t n = b->index_slots;
    b->index_slots = n * 2;
    b->index = calloc(b->index_slots, sizeof *b->index);
    if (!b->index) {
        b->index = old;
        b->index_slots = n;
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (old[i].used)
            *index_slot(b, old[i].res, old[i].name, old[i].value, 1) = old[i];
    free(old);
    return 0;
}

/* Counts event ev in its list (the first pass), or puts it there (the
 * second, when every list has its place in b->index_all). */
static int index_add(builder *b, uint32_t res, uint32_t name, uint32_t value, size_t ev)
{
    if (!b->index_all && b->index_used * 2 >= b->index_slots && index_grow(b) < 0)
        return -1;
    event_index *e = index_slot(b, res, name, value, !b->index_all);
    if (!b->index_all) {
        b->index_used += e->n++ == 0;
        b->index_total++;
    } else {
        e->idx[e->n++] = (uint32_t)ev;
    }
    return 0;
}

static int index_pass(builder *b)
{
    for (size_t i = 0; i < b->nev; i++) {
        const vevent *e = &b->ev[i];
        uint32_t v = e->kind == TLV_EVENT_ATTRIBUTE ? e->value
                     : e->nargs                     ? viz_args(b, e)[0]
                                                    : NO_VALUE;
        if (index_add(b, e->res, e->name, NO_VALUE, i) < 0 ||
            (v != NO_VALUE && index_add(b, e->res, e->name, v, i) < 0))
            return -1;
    }
    return 0;
}

/* Two passes over the events: the first counts each list, the second fills
 * them in one array sized exactly (grown by doubling, lists of 8-byte
 * positions took 16 to 32 bytes an event; these take 4 or 8). */
int viz_build_index(builder *b)
{
    b->index_slots = 1024;
    b->index = calloc(b->index_slots, sizeof *b->index);
    if (!b->index || index_pass(b) < 0)
        return -1;
    b->index_all = big_array(b, &b->index_file, b->index_total * sizeof *b->index_all);
    if (!b->index_all)
        return -1;
    size_t at = 0;
    for (size_t i = 0; i < b->index_slots; i++) {
        event_index *e = &b->index[i];
        if (e->used) {
            e->idx = b->index_all + at;
            at += e->n;
            e->n = 0;
        }
    }
    return index_pass(b);
}

void viz_free_events(builder *b)
{
    free(b->index);
    b->index = NULL;
    free_big(&b->index_file, b->index_all);
    b->index_all = NULL;
    free_big(&b->per_res_file, b->per_res_all);
    b->per_res_all = NULL;
    free(b->per_res);
    b->per_res = NULL;
    free(b->per_res_n);
    b->per_res_n = NULL;
    free_big(&b->ev_file, b->ev);
    b->ev = NULL;
}

/* The narrowest event list a pattern on resource r can match in. */
int viz_indexed_list(builder *b, const pattern *p, long r, scan_list *l)
{
    if (r < 0 || p->name == ANY_NAME || !b->index_all)
        return 0;
    uint32_t v = p->has_value ? p->value
                 : p->kind == TLV_EVENT_BEHAVIOR && p->nargs ? p->args[0] : NO_VALUE;
    const event_index *e = index_slot(b, (uint32_t)r, p->name, v, 0);
    l->idx = e ? e->idx : NULL;
    l->n = e ? e->n : 0;
    return 1;
}
