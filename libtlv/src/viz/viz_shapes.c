/*
 * viz_shapes.c — the built shapes: frozen in the store, listed in output
 * order (rule, event, resource, from), and read through the public
 * tlv_shapes_* functions.
 */
#include "base/abi.h"
#include "viz/viz_build.h"

#include <stdlib.h>
#include <string.h>

static const char *resource_name(const struct tlv_shapes *s, uint32_t res)
{
    return res == UINT32_MAX ? NULL : s->trace->w->res[res].name;
}

/* Shapes are listed by rule name, event name, resource name, then from and
 * order (unique: a total order). Shapes of one (rule, event, resource) group
 * are few groups of many shapes, and the store's canonical order (row, from,
 * order) already lists a group's shapes by from and order when they share a
 * row: so the groups are sorted (a few hundred keys), the shapes are dealt
 * into their group stably (a counting sort), and only a group spread over
 * several rows (per-CPU mode) is sorted again, by (from, order). */
typedef struct group_key {
    uint32_t rule, event, res; /* ranks of the names */
    uint32_t count, first;     /* its shapes; where they go in the output */
} group_key;

typedef struct ranked {
    const char *text;
    uint32_t id;
} ranked;

static int by_text(const void *pa, const void *pb)
{
    return strcmp(((const ranked *)pa)->text, ((const ranked *)pb)->text);
}

/* rank[id] = position of the id's text in byte order, for ids 0..n-1. */
static uint32_t *rank_texts(const char *(*text_of)(const void *, uint32_t), const void *ctx,
                            uint32_t n)
{
    ranked *r = malloc((n + 1) * sizeof *r);
    uint32_t *rank = malloc((n + 1) * sizeof *rank);
    if (!r || !rank) {
        free(r);
        free(rank);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        r[i].text = text_of(ctx, i);
        r[i].id = i;
    }
    qsort(r, n, sizeof *r, by_text);
    for (uint32_t i = 0; i < n; i++)
        rank[r[i].id] = i + 1; /* 0 is kept for "no resource" */
    free(r);
    return rank;
}

static const char *name_text(const void *ctx, uint32_t id)
{
    return intern_str(((const struct tlv_shapes *)ctx)->names, id);
}

static const char *res_text(const void *ctx, uint32_t id)
{
    return ((const struct tlv_shapes *)ctx)->trace->w->res[id].name;
}

/* The groups, numbered in order of first use: keys[id], found by their
 * ranks through an open-addressing table of ids (UINT32_MAX: free). */
typedef struct group_table {
    group_key *keys;
    uint32_t *slot;
    size_t n, cap, nslots;
} group_table;

static size_t group_hash(const group_key *k)
{
    uint64_t h = (uint64_t)k->rule * 0x9e3779b97f4a7c15ULL ^
                 (uint64_t)k->event * 0xbf58476d1ce4e5b9ULL ^ k->res;
    return (size_t)(h ^ h >> 29);
}

static void group_place(group_table *g, uint32_t id)
{
    size_t mask = g->nslots - 1, i = group_hash(&g->keys[id]) & mask;
    while (g->slot[i] != UINT32_MAX)
        i = (i + 1) & mask;
    g->slot[i] = id;
}

static int group_grow(group_table *g)
{
    size_t nslots = g->nslots ? 2 * g->nslots : 64;
    uint32_t *slot = malloc(nslots * sizeof *slot);
    group_key *keys = realloc(g->keys, nslots / 2 * sizeof *keys);
    if (keys)
        g->keys = keys;
    if (!slot || !keys) {
        free(slot);
        return -1;
    }
    memset(slot, 0xff, nslots * sizeof *slot);
    free(g->slot);
    g->slot = slot;
    g->nslots = nslots;
    g->cap = nslots / 2;
    for (uint32_t id = 0; id < g->n; id++)
        group_place(g, id);
    return 0;
}

/* The id of the group, made when new; UINT32_MAX when out of memory. */
static uint32_t group_of(group_table *g, uint32_t rule, uint32_t event, uint32_t res)
{
    if (g->n + 1 >= g->cap && group_grow(g) < 0)
        return UINT32_MAX;
    group_key k = {rule, event, res, 0, 0};
    size_t mask = g->nslots - 1;
    for (size_t i = group_hash(&k) & mask;; i = (i + 1) & mask) {
        uint32_t id = g->slot[i];
        if (id == UINT32_MAX) {
            g->keys[g->n] = k;
            g->slot[i] = (uint32_t)g->n;
            return (uint32_t)g->n++;
        }
        const group_key *o = &g->keys[id];
        if (o->rule == rule && o->event == event && o->res == res)
            return id;
    }
}

static int by_group(const void *pa, const void *pb)
{
    const group_key *x = pa, *y = pb;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    return x->res < y->res ? -1 : x->res > y->res;
}

/* A shape of a group spread over rows, for sorting it again. */
typedef struct from_key {
    tlv_time from;
    uint32_t order, index;
} from_key;

static int by_from(const void *pa, const void *pb)
{
    const from_key *x = pa, *y = pb;
    int c = tlv_time_cmp(x->from, y->from);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* Sorts out[0..n) (canonical positions) by (from, order) when they are not
 * in that order already. */
static int sort_group(const struct tlv_shapes *s, uint32_t *out, size_t n)
{
    shape a, b;
    size_t i = 1;
    for (; i < n; i++) {
        const shape *x = store_get(s->store, out[i - 1], &a), *y = store_get(s->store, out[i], &b);
        int c = tlv_time_cmp(x->from, y->from);
        if (c > 0 || (c == 0 && x->order > y->order))
            break;
    }
    if (i >= n)
        return 0;
    from_key *k = malloc(n * sizeof *k);
    if (!k)
        return -1;
    for (i = 0; i < n; i++) {
        const shape *x = store_get(s->store, out[i], &a);
        k[i] = (from_key){x->from, x->order, out[i]};
    }
    qsort(k, n, sizeof *k, by_from);
    for (i = 0; i < n; i++)
        out[i] = k[i].index;
    free(k);
    return 0;
}

/* s->order: the canonical positions of the shapes in output order. */
static int sort_for_output(struct tlv_shapes *s)
{
    size_t n = store_count(s->store);
    uint32_t *name_rank = rank_texts(name_text, s, intern_count(s->names));
    uint32_t *res_rank = rank_texts(res_text, s, (uint32_t)s->trace->w->nres);
    uint32_t *group = malloc((n + 1) * sizeof *group);
    group_table g = {0};
    s->order = malloc((n + 1) * sizeof *s->order);
    group_key *sorted = NULL;
    int rc = -1;
    if (!name_rank || !res_rank || !group || !s->order)
        goto out;
    uint32_t nnames = intern_count(s->names), nres = (uint32_t)s->trace->w->nres;
    for (size_t i = 0; i < n; i++) { /* each shape's group, and the groups' sizes */
        shape copy;
        const shape *sh = store_get(s->store, i, &copy);
        if (sh->rule >= nnames || sh->event >= nnames ||
            (sh->resource != UINT32_MAX && sh->resource >= nres))
            goto out; /* a name that could not be interned (out of memory) */
        group[i] = group_of(&g, name_rank[sh->rule], name_rank[sh->event],
                            sh->resource == UINT32_MAX ? 0 : res_rank[sh->resource]);
        if (group[i] == UINT32_MAX)
            goto out;
        g.keys[group[i]].count++;
    }
    sorted = malloc((g.n + 1) * sizeof *sorted);
    if (!sorted)
        goto out;
    for (size_t k = 0; k < g.n; k++) {
        sorted[k] = g.keys[k];
        sorted[k].first = (uint32_t)k; /* its id, for now */
    }
    qsort(sorted, g.n, sizeof *sorted, by_group);
    uint32_t at = 0;
    for (size_t k = 0; k < g.n; k++) { /* where each group's shapes go */
        g.keys[sorted[k].first].first = at;
        sorted[k].first = at;
        at += sorted[k].count;
    }
    for (size_t i = 0; i < n; i++) /* dealt stably: canonical order within a group */
        s->order[g.keys[group[i]].first++] = (uint32_t)i;
    rc = 0;
    for (size_t k = 0; k < g.n && rc == 0; k++)
        rc = sort_group(s, s->order + sorted[k].first, sorted[k].count);
out:
    free(name_rank);
    free(res_rank);
    free(group);
    free(g.slot);
    free(g.keys);
    free(sorted);
    return rc;
}

int viz_freeze_shapes(struct tlv_shapes *s, const tlv_shapes_options *o)
{
    store_set_threads(s->store, viz_threads(o)); /* the layers' too: a view's are its base's */
    if (o->listing_only) { /* sorted and packed only: no trees, no summary layers */
        store_set_listing_only(s->store);
        store_set_radix(s->store, s->radix);
        return store_freeze(s->store, NULL, 0);
    }
    return summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks);
}

int viz_finish_shapes(builder *b)
{
    struct tlv_shapes *s = b->s;
    /* Every shape is made: what growing reserved is waste from here on. */
    BULK_SHRINK(s->values_file, s->values, s->values_cap, s->nvalues);
    BULK_SHRINK(s->events_file, s->events, s->events_cap, 2 * s->nvalues);
    SHRINK(s->prims, s->prims_cap, s->nprims);
    if (viz_freeze_shapes(s, b->opts) < 0)
        return -1;
    return sort_for_output(s);
}

void tlv_shapes_free(tlv_shapes *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nprims; i++)
        prim_free(&s->prims[i]);
    free(s->prims);
    for (size_t i = 0; i < s->nrows; i++) {
        free(s->rows[i].label);
        free(s->rows[i].group);
    }
    free(s->rows);
    store_free(s->store);
    summary_looks_free(&s->looks);
    free(s->order);
    free(s->when_keys);
    BULK_RELEASE(s->values_file, s->values);
    BULK_RELEASE(s->events_file, s->events);
    free(s->flows);
    free(s->rule_name);
    free(s->rule_display);
    free(s->rule_skipped);
    intern_free(s->names);
    intern_free(s->joined);
    diags_free(&s->diags);
    free(s->cache_path);
    free(s);
}

const tlv_diags *tlv_shapes_diags(const tlv_shapes *s) { return s ? &s->diags : NULL; }

size_t tlv_shapes_row_count(const tlv_shapes *s) { return s->nrows; }

static void row_info_fill(const tlv_shapes *s, size_t row, tlv_row_info *out)
{
    memset(out, 0, sizeof *out);
    if (row >= s->nrows)
        return;
    out->label = s->rows[row].label;
    out->resource = s->rows[row].resource;
    out->group = s->rows[row].group;
}

void tlv_shapes_row_sized(const tlv_shapes *s, size_t row, tlv_row_info *out, size_t size)
{
    ABI_FILL_OUT(tlv_row_info, row_info_fill, out, size, s, row);
}

size_t tlv_shapes_rule_count(const tlv_shapes *s) { return s ? s->nrules : 0; }

static void rule_info_fill(const tlv_shapes *s, size_t i, tlv_rule_info *out)
{
    memset(out, 0, sizeof *out);
    if (!s || i >= s->nrules)
        return;
    out->name = intern_str(s->names, s->rule_name[i]);
    out->display_name = intern_str(s->names, s->rule_display[i]);
    out->skipped = s->rule_skipped[i];
}

void tlv_shapes_rule_sized(const tlv_shapes *s, size_t i, tlv_rule_info *out, size_t size)
{
    ABI_FILL_OUT(tlv_rule_info, rule_info_fill, out, size, s, i);
}

static void shape_info(const struct tlv_shapes *s, const shape *sh, tlv_shape_info *out)
{
    const prim *p = &s->prims[sh->prim];
    memset(out, 0, sizeof *out);
    out->rule = intern_str(s->names, sh->rule);
    out->event = intern_str(s->names, sh->event);
    out->resource = resource_name(s, sh->resource);
    out->row = sh->row;
    out->from = sh->from;
    out->to = sh->to;
    out->type = prim_type_name(p->type);
    out->text = p->type == PRIM_TEXT ? p->text : NULL;
    out->has_fill = p->has_fill;
    out->fill = p->fill;
    out->has_pen = p->has_pen;
    out->pen = p->pen_color;
    out->is_when = viz_shape_is_when(s, sh->rule, sh->event);
    uint32_t v = sh->order < s->nvalues ? s->values[sh->order] : UINT32_MAX;
    const uint32_t *ev = sh->order < s->nvalues ? &s->events[2 * (size_t)sh->order] : NULL;
    out->from_event = ev && ev[0] != UINT32_MAX ? ev[0] : TLV_NO_EVENT;
    out->to_event = ev && ev[1] != UINT32_MAX ? ev[1] : TLV_NO_EVENT;
    out->value = v == UINT32_MAX       ? NULL
                 : v & VALUE_OWN ? intern_str(s->joined, v & ~VALUE_OWN)
                                 : intern_str(s->trace->w->values, v);
}

size_t tlv_shapes_count(const tlv_shapes *s) { return store_count(s->store); }

static void shape_info_fill(const tlv_shapes *s, size_t i, tlv_shape_info *out)
{
    shape sh;
    shape_info(s, store_get(s->store, s->order[i], &sh), out);
}

void tlv_shapes_get_sized(const tlv_shapes *s, size_t i, tlv_shape_info *out, size_t size)
{
    ABI_FILL_OUT(tlv_shape_info, shape_info_fill, out, size, s, i);
}

size_t tlv_shapes_get_range_sized(const tlv_shapes *s, size_t first, size_t n,
                                  tlv_shape_info *out, size_t size)
{
    size_t count = s ? store_count(s->store) : 0;
    if (first >= count)
        return 0;
    if (n > count - first)
        n = count - first;
    for (size_t k = 0; k < n; k++)
        tlv_shapes_get_sized(s, first + k, (tlv_shape_info *)(void *)((char *)out + k * size),
                             size);
    return n;
}

typedef struct query_ctx {
    const struct tlv_shapes *s;
    tlv_shape_fn fn;
    void *user;
} query_ctx;

static int visit(void *ctx, const shape *sh, size_t pos)
{
    (void)pos;
    query_ctx *q = ctx;
    tlv_shape_info info;
    shape_info(q->s, sh, &info);
    return q->fn(q->user, &info);
}

void tlv_shapes_query(const tlv_shapes *s, size_t row, tlv_time t0, tlv_time t1,
                      tlv_shape_fn fn, void *user)
{
    query_ctx q = {s, fn, user};
    store_query(s->store, (uint32_t)row, t0, t1, visit, &q);
}
