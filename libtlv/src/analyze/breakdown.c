/*
 * breakdown.c — tlv_shapes_breakdown: a row's time within a range, by rule
 * and value. The row's primitives in the range are reduced to intervals
 * (one per rule, event, resource, start and end, however many primitives
 * draw it), grouped by rule and value, and summed with each interval cut to
 * the range. Reads the shapes through their query, so it costs what the
 * range holds, not the trace.
 */
#include "viz/viz_impl.h"

#include <stdlib.h>
#include <string.h>

/* One interval of the row, cut to the range. */
typedef struct piece {
    const char *rule, *event, *resource, *value;
    tlv_time from, to;         /* uncut, to tell primitives of one interval apart */
    double inside;             /* its time inside the range */
} piece;

typedef struct collect {
    const struct tlv_shapes *s;
    int row_has_resource;
    tlv_time t0, t1;
    piece *v;
    size_t n, cap;
    int failed;
} collect;

static int add_piece(void *user, const tlv_shape_info *sh)
{
    collect *c = user;
    if (sh->is_when)
        return 0;
    tlv_time from = tlv_time_cmp(sh->from, c->t0) > 0 ? sh->from : c->t0;
    tlv_time to = tlv_time_cmp(sh->to, c->t1) < 0 ? sh->to : c->t1;
    if (tlv_time_cmp(from, to) >= 0)
        return 0; /* an instant, or only touching the range */
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        piece *v = realloc(c->v, cap * sizeof *v);
        if (!v) {
            c->failed = 1;
            return 1;
        }
        c->v = v;
        c->cap = cap;
    }
    piece *p = &c->v[c->n++];
    p->rule = sh->rule;
    p->event = sh->event;
    p->resource = sh->resource;
    /* A processor's row shows resources: what it spent its time on is them. */
    p->value = !c->row_has_resource && sh->resource ? sh->resource
               : sh->value                          ? sh->value
                                                    : sh->event;
    p->from = sh->from;
    p->to = sh->to;
    int radix = c->s->radix;
    p->inside = tlv_time_span(from, to, radix); /* not wrapped past 2^63 ticks */
    return 0;
}

static int cmp_str(const char *a, const char *b)
{
    return a == b ? 0 : !a ? -1 : !b ? 1 : strcmp(a, b);
}

/* Groups first (rule, value), then the primitives of one interval together. */
static int by_group_then_interval(const void *pa, const void *pb)
{
    const piece *a = pa, *b = pb;
    int c = cmp_str(a->rule, b->rule);
    if (!c)
        c = cmp_str(a->value, b->value);
    if (!c)
        c = cmp_str(a->event, b->event);
    if (!c)
        c = cmp_str(a->resource, b->resource);
    if (!c)
        c = tlv_time_cmp(a->from, b->from);
    if (!c)
        c = tlv_time_cmp(a->to, b->to);
    return c;
}

static int same_interval(const piece *a, const piece *b)
{
    return by_group_then_interval(a, b) == 0;
}

static int by_total_desc(const void *pa, const void *pb)
{
    const tlv_breakdown_entry *a = pa, *b = pb;
    if (a->total != b->total)
        return a->total > b->total ? -1 : 1;
    int c = cmp_str(a->rule, b->rule);
    return c ? c : cmp_str(a->value, b->value);
}

/* Sums the sorted pieces into entries, one per (rule, value). */
static size_t summarize(const piece *v, size_t n, double length, tlv_breakdown_entry *out)
{
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && same_interval(&v[i - 1], &v[i]))
            continue; /* another primitive of the same interval */
        tlv_breakdown_entry *e = count ? &out[count - 1] : NULL;
        if (!e || cmp_str(e->rule, v[i].rule) || cmp_str(e->value, v[i].value)) {
            e = &out[count++];
            memset(e, 0, sizeof *e);
            e->rule = v[i].rule;
            e->value = v[i].value;
            e->min = v[i].inside;
        }
        e->count++;
        e->total += v[i].inside;
        e->min = v[i].inside < e->min ? v[i].inside : e->min;
        e->max = v[i].inside > e->max ? v[i].inside : e->max;
    }
    for (size_t i = 0; i < count; i++) {
        out[i].mean = out[i].total / (double)out[i].count;
        out[i].share = out[i].total / length;
    }
    return count;
}

tlv_status tlv_shapes_breakdown(const tlv_shapes *s, size_t row, tlv_time t0, tlv_time t1,
                                tlv_breakdown_entry **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    if (!s)
        return TLV_ERR_USAGE;
    if (row >= s->nrows)
        return last_error_set(LAST_ERROR_OF(s), TLV_ERR_USAGE,
                              "tlv_shapes_breakdown: row %zu is not a row (there are %zu)", row,
                              s->nrows);
    if (tlv_time_cmp(t0, t1) >= 0)
        return last_error_set(LAST_ERROR_OF(s), TLV_ERR_USAGE,
                              "tlv_shapes_breakdown: the range is empty (t0 >= t1)");
    collect c = {s, s->rows[row].resource != NULL, t0, t1, NULL, 0, 0, 0};
    tlv_shapes_query(s, row, t0, t1, add_piece, &c);
    if (c.failed) {
        free(c.v);
        return last_error_set(LAST_ERROR_OF(s), TLV_ERR_NOMEM, "tlv_shapes_breakdown: out of memory while breaking the row down");
    }
    if (!c.n)
        return TLV_OK;
    qsort(c.v, c.n, sizeof *c.v, by_group_then_interval);
    tlv_breakdown_entry *e = malloc(c.n * sizeof *e);
    if (!e) {
        free(c.v);
        return last_error_set(LAST_ERROR_OF(s), TLV_ERR_NOMEM, "tlv_shapes_breakdown: out of memory while breaking the row down");
    }
    double length = tlv_time_span(t0, t1, s->radix); /* not wrapped past 2^63 ticks */
    size_t n = summarize(c.v, c.n, length, e);
    free(c.v);
    qsort(e, n, sizeof *e, by_total_desc);
    *out = e;
    *count = n;
    return TLV_OK;
}

void tlv_breakdown_free(tlv_breakdown_entry *entries) { free(entries); }
