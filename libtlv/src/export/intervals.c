/*
 * intervals.c — the drawn shapes as intervals, for every export format
 * but shapes and flows: the primitives one rule event draws over one interval (a bar
 * and its label) are one interval, named by the text drawn.
 */
#include "export/export_impl.h"

#include <stdlib.h>
#include <string.h>

int same_name(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether sh was drawn by the same event over the same interval as iv. */
static int same_interval(const interval *iv, const tlv_shape_info *sh)
{
    const tlv_shape_info *f = &iv->sh;
    return f->row == sh->row && f->is_when == sh->is_when && tlv_time_cmp(f->from, sh->from) == 0 &&
           tlv_time_cmp(f->to, sh->to) == 0 && same_name(f->resource, sh->resource) &&
           same_name(f->event, sh->event) && same_name(f->rule, sh->rule);
}

/* Shapes come ordered by rule, event, resource and start, and the primitives
 * of one figure are consecutive: a group is a run of equal keys. */
int collect_intervals(const tlv_shapes *shapes, interval_list *out)
{
    size_t n = tlv_shapes_count(shapes);
    for (size_t i = 0; i < n; i++) {
        tlv_shape_info sh;
        tlv_shapes_get(shapes, i, &sh);
        interval *last = out->n ? &out->v[out->n - 1] : NULL;
        if (last && same_interval(last, &sh)) {
            if (!last->text)
                last->text = sh.text;
            continue;
        }
        if (out->n == out->cap) {
            size_t cap = out->cap ? out->cap * 2 : 256;
            interval *v = realloc(out->v, cap * sizeof *v);
            if (!v)
                return -1;
            out->v = v;
            out->cap = cap;
        }
        interval *iv = &out->v[out->n++];
        iv->sh = sh;
        iv->text = sh.text;
        iv->lane = 0;
    }
    return 0;
}

int is_instant(const interval *iv)
{
    return iv->sh.is_when || tlv_time_cmp(iv->sh.from, iv->sh.to) == 0;
}
