/*
 * layout.c — where the drawn intervals go for consumers whose threads hold
 * properly nested slices (Chrome, Perfetto): each row's intervals in lanes
 * that nest, a thread per lane, a process per group of rows
 * (export_impl.h's export_layout).
 */
#include "export/export_impl.h"

#include <stdlib.h>
#include <string.h>

/* Sorts a row's intervals by start, longest first, so enclosing ones come
 * before what they enclose. */
static int by_start_longest_first(const void *pa, const void *pb)
{
    const interval *x = *(interval *const *)pa, *y = *(interval *const *)pb;
    int c = tlv_time_cmp(x->sh.from, y->sh.from);
    if (c)
        return c;
    c = tlv_time_cmp(y->sh.to, x->sh.to);
    if (c)
        return c;
    return x < y ? -1 : x > y;
}

/* A lane is a stack of the ends of the intervals open in it. */
typedef struct lane {
    tlv_time *end;
    size_t n, cap;
} lane;

/* Whether iv nests in the lane once the intervals ended before it are
 * popped; pushes it when it does. */
static int lane_take(lane *ln, const interval *iv)
{
    while (ln->n && tlv_time_cmp(ln->end[ln->n - 1], iv->sh.from) <= 0)
        ln->n--;
    if (ln->n && tlv_time_cmp(ln->end[ln->n - 1], iv->sh.to) < 0)
        return 0;
    if (ln->n == ln->cap) {
        size_t cap = ln->cap ? ln->cap * 2 : 8;
        tlv_time *e = realloc(ln->end, cap * sizeof *e);
        if (!e)
            return -1;
        ln->end = e;
        ln->cap = cap;
    }
    ln->end[ln->n++] = iv->sh.to;
    return 1;
}

/* Chrome and Perfetto require the complete events of one thread to nest: a
 * row's intervals that overlap without nesting (a call spanning two states)
 * go to further lanes. Returns the number of lanes used, or -1. */
static long assign_lanes(interval **iv, size_t n)
{
    qsort(iv, n, sizeof *iv, by_start_longest_first);
    lane *lanes = NULL;
    size_t nlanes = 0;
    long rc = 1;
    for (size_t i = 0; i < n && rc > 0; i++) {
        size_t l = 0;
        int took = 0;
        for (; l < nlanes && !took; l++)
            took = lane_take(&lanes[l], iv[i]);
        if (took < 0) {
            rc = -1;
        } else if (took) {
            iv[i]->lane = l - 1;
        } else {
            lane *grown = realloc(lanes, (nlanes + 1) * sizeof *lanes);
            if (!grown) {
                rc = -1;
                break;
            }
            lanes = grown;
            memset(&lanes[nlanes], 0, sizeof *lanes);
            iv[i]->lane = nlanes++;
            rc = lane_take(&lanes[iv[i]->lane], iv[i]) < 0 ? -1 : 1;
        }
    }
    for (size_t l = 0; l < nlanes; l++)
        free(lanes[l].end);
    free(lanes);
    return rc < 0 ? -1 : (long)(nlanes ? nlanes : 1);
}

void layout_free(export_layout *c)
{
    free(c->first_tid);
    free(c->nlanes);
    free(c->pid);
    free(c->groups);
    free(c->used);
}

static size_t group_pid(export_layout *c, const char *group)
{
    for (size_t g = 0; g < c->ngroups; g++)
        if (same_name(c->groups[g], group))
            return g + 1;
    c->groups[c->ngroups++] = group;
    return c->ngroups;
}

/* The intervals grouped by row (a counting sort): row r's are
 * (*by_row)[start[r] .. start[r + 1]). */
static int bucket_by_row(interval_list *l, size_t nrows, interval ***by_row, size_t **start)
{
    *by_row = malloc((l->n + 1) * sizeof **by_row);
    *start = calloc(nrows + 2, sizeof **start);
    if (!*by_row || !*start)
        return -1;
    for (size_t i = 0; i < l->n; i++)
        (*start)[l->v[i].sh.row + 2]++;
    for (size_t r = 0; r < nrows; r++)
        (*start)[r + 2] += (*start)[r + 1];
    for (size_t i = 0; i < l->n; i++) /* start[r + 1] is row r's next free slot */
        (*by_row)[(*start)[l->v[i].sh.row + 1]++] = &l->v[i];
    return 0;
}

/* Lanes of one row's complete events (its instants go in its first lane). */
static long row_lanes(interval **iv, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_instant(iv[i]))
            iv[k++] = iv[i];
    return assign_lanes(iv, k);
}

int layout_compute(export_layout *c, const tlv_shapes *shapes, interval_list *l)
{
    size_t nrows = tlv_shapes_row_count(shapes);
    interval **by_row = NULL;
    size_t *start = NULL;
    c->first_tid = calloc(nrows + 1, sizeof *c->first_tid);
    c->nlanes = calloc(nrows + 1, sizeof *c->nlanes);
    c->pid = calloc(nrows + 1, sizeof *c->pid);
    c->groups = calloc(nrows + 1, sizeof *c->groups);
    c->used = calloc(nrows + 1, sizeof *c->used);
    int rc = bucket_by_row(l, nrows, &by_row, &start) == 0 && c->first_tid && c->nlanes &&
             c->pid && c->groups && c->used ? 0 : -1;
    size_t next_tid = 1;
    for (size_t r = 0; r < nrows && rc == 0; r++) {
        size_t n = start[r + 1] - start[r];
        long lanes = row_lanes(by_row + start[r], n);
        if (lanes < 0)
            rc = -1;
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        c->used[r] = n > 0;
        c->nlanes[r] = (size_t)lanes;
        c->first_tid[r] = next_tid;
        next_tid += n ? (size_t)lanes : 0;
        c->pid[r] = n ? group_pid(c, row.group) : 0;
    }
    free(by_row);
    free(start);
    return rc;
}

