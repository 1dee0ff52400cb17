/*
 * viz_shapes.c — the built shapes: frozen in the store, listed in output
 * order (rule, event, resource, from), and read through the public
 * tlv_shapes_* functions.
 */
#include "abi.h"
#include "viz_build.h"

#include <stdlib.h>
#include <string.h>

static const char *resource_name(const struct tlv_shapes *s, uint32_t res)
{
    return res == UINT32_MAX ? NULL : s->trace->w->res[res].name;
}

/* Shapes are listed by rule name, event name, resource name, from: sort keys
 * made of the names' ranks, so qsort needs no context (and no global). */
typedef struct sort_key {
    uint32_t rule, event, res;
    tlv_time from;
    uint32_t order, index;
} sort_key;

static int by_key(const void *pa, const void *pb)
{
    const sort_key *x = pa, *y = pb;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    if (x->res != y->res)
        return x->res < y->res ? -1 : 1;
    int c = tlv_time_cmp(x->from, y->from);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

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

static int sort_for_output(struct tlv_shapes *s)
{
    size_t n = store_count(s->store);
    uint32_t nnames = intern_count(s->names);
    uint32_t *name_rank = rank_texts(name_text, s, nnames);
    uint32_t *res_rank = rank_texts(res_text, s, (uint32_t)s->trace->w->nres);
    sort_key *keys = malloc((n + 1) * sizeof *keys);
    s->order = malloc((n + 1) * sizeof *s->order);
    int rc = -1;
    if (name_rank && res_rank && keys && s->order) {
        for (size_t i = 0; i < n; i++) {
            const shape *sh = store_get(s->store, i);
            sort_key *k = &keys[i];
            k->rule = name_rank[sh->rule];
            k->event = name_rank[sh->event];
            k->res = sh->resource == UINT32_MAX ? 0 : res_rank[sh->resource];
            k->from = sh->from;
            k->order = sh->order;
            k->index = (uint32_t)i;
        }
        qsort(keys, n, sizeof *keys, by_key);
        for (size_t i = 0; i < n; i++)
            s->order[i] = keys[i].index;
        rc = 0;
    }
    free(name_rank);
    free(res_rank);
    free(keys);
    return rc;
}

int viz_finish_shapes(builder *b)
{
    struct tlv_shapes *s = b->s;
    /* Every shape is made: what growing reserved is waste from here on. */
    SHRINK(s->values, s->values_cap, s->nvalues);
    SHRINK(s->events, s->events_cap, 2 * s->nvalues);
    SHRINK(s->prims, s->prims_cap, s->nprims);
    if (summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks) < 0)
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
    free(s->values);
    free(s->events);
    free(s->flows);
    free(s->rule_name);
    free(s->rule_display);
    free(s->rule_skipped);
    intern_free(s->names);
    intern_free(s->joined);
    diags_free(&s->diags);
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
    shape_info(s, store_get(s->store, s->order[i]), out);
}

void tlv_shapes_get_sized(const tlv_shapes *s, size_t i, tlv_shape_info *out, size_t size)
{
    ABI_FILL_OUT(tlv_shape_info, shape_info_fill, out, size, s, i);
}

typedef struct query_ctx {
    const struct tlv_shapes *s;
    tlv_shape_fn fn;
    void *user;
} query_ctx;

static int visit(void *ctx, const shape *sh)
{
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
