/*
 * layout.c — where the drawn intervals go for consumers whose threads hold
 * properly nested slices (Chrome, Perfetto): each row's intervals in lanes
 * that nest, a thread per lane, a process per group of rows
 * (export_impl.h's export_layout).
 */
#include "export/export_impl.h"

#include <errno.h>
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
    free(c->real_tid);
    free(c->track_tid);
    free(c->process_id);
    free(c->process_name);
    free(c->by_row);
    free(c->row_start);
    free(c->row_slices);
}

/* A resource's Linux id: its attribute `name` (tid, pid) as the trace
 * ends, when that is a non-negative integer; else -1. */
static long long linux_id(const tlv_trace *trace, const char *resource, const char *name)
{
    const char *v = NULL;
    if (!resource || tlv_trace_attr_at(trace, resource, name, NULL, &v) != TLV_OK || !v || !*v)
        return -1;
    char *end;
    errno = 0;
    long long id = strtoll(v, &end, 10);
    return *end || errno || id < 0 ? -1 : id;
}

static int by_value(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* Ids that are taken by real ones, sorted, for numbering the others. */
typedef struct taken {
    long long *v;
    size_t n;
} taken;

static int is_taken(const taken *t, long long id)
{
    return t->n && bsearch(&id, t->v, t->n, sizeof *t->v, by_value) != NULL;
}

/* The next id from *next on that no real one has. */
static long long next_free(const taken *t, long long *next)
{
    while (is_taken(t, *next))
        ++*next;
    return (*next)++;
}

/* The process of row r: one per real pid, else one per group. */
static size_t row_process(export_layout *c, const tlv_row_info *row, long long pid, long long tid)
{
    for (size_t g = 0; g < c->ngroups; g++)
        if (pid >= 0 ? c->process_id[g] == pid : c->real_pid_of[g] < 0 && same_name(c->groups[g], row->group)) {
            if (pid >= 0 && tid == pid)
                c->process_name[g] = row->label; /* named by its main thread */
            return g + 1;
        }
    size_t g = c->ngroups++;
    c->groups[g] = row->group;
    c->process_id[g] = pid;
    c->real_pid_of[g] = pid;
    c->process_name[g] = pid >= 0 && tid == pid ? row->label : row->group;
    return g + 1;
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

/* Lanes of one row's complete events, which end up first in iv, sorted by
 * start (*nslices of them; its instants go in its first lane). */
static long row_lanes(interval **iv, size_t n, size_t *nslices)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!is_instant(iv[i]))
            iv[k++] = iv[i];
    *nslices = k;
    return assign_lanes(iv, k);
}

static int allocate(export_layout *c, size_t nrows)
{
    c->first_tid = calloc(nrows + 1, sizeof *c->first_tid);
    c->nlanes = calloc(nrows + 1, sizeof *c->nlanes);
    c->pid = calloc(nrows + 1, sizeof *c->pid);
    c->groups = calloc(nrows + 1, sizeof *c->groups);
    c->used = calloc(nrows + 1, sizeof *c->used);
    c->real_tid = calloc(nrows + 1, sizeof *c->real_tid);
    c->process_id = calloc(2 * (nrows + 1), sizeof *c->process_id);
    c->process_name = calloc(nrows + 1, sizeof *c->process_name);
    c->row_slices = calloc(nrows + 1, sizeof *c->row_slices);
    if (c->process_id)
        c->real_pid_of = c->process_id + nrows + 1;
    return c->first_tid && c->nlanes && c->pid && c->groups && c->used && c->real_tid &&
                   c->process_id && c->process_name && c->row_slices
               ? 0
               : -1;
}

/* The real tids and pids of the rows with intervals (-1: none), and the
 * ids they take. */
static int real_ids(export_layout *c, const tlv_trace *trace, const tlv_shapes *shapes,
                    long long *pid, taken *tids, taken *pids)
{
    size_t nrows = tlv_shapes_row_count(shapes);
    tids->v = malloc((nrows + 1) * sizeof *tids->v);
    pids->v = malloc((nrows + 1) * sizeof *pids->v);
    if (!tids->v || !pids->v)
        return -1;
    for (size_t r = 0; r < nrows; r++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        long long tid = c->used[r] ? linux_id(trace, row.resource, "tid") : -1;
        for (size_t k = 0; tid >= 0 && k < tids->n; k++)
            if (tids->v[k] == tid)
                tid = -1; /* a second row of the thread: one thread per tid */
        c->real_tid[r] = tid;
        pid[r] = tid >= 0 ? linux_id(trace, row.resource, "pid") : -1;
        if (tid >= 0)
            tids->v[tids->n++] = tid;
        if (pid[r] >= 0)
            pids->v[pids->n++] = pid[r];
    }
    qsort(tids->v, tids->n, sizeof *tids->v, by_value);
    qsort(pids->v, pids->n, sizeof *pids->v, by_value);
    return 0;
}

int layout_compute(export_layout *c, const tlv_trace *trace, const tlv_shapes *shapes,
                   interval_list *l)
{
    size_t nrows = tlv_shapes_row_count(shapes);
    long long *pid = calloc(nrows + 1, sizeof *pid);
    taken tids = {0}, pids = {0};
    int rc = pid && allocate(c, nrows) == 0 &&
                     bucket_by_row(l, nrows, &c->by_row, &c->row_start) == 0
                 ? 0
                 : -1;
    for (size_t r = 0; r < nrows && rc == 0; r++) {
        size_t n = c->row_start[r + 1] - c->row_start[r];
        long lanes = row_lanes(c->by_row + c->row_start[r], n, &c->row_slices[r]);
        if (lanes < 0)
            rc = -1;
        c->used[r] = n > 0;
        c->nlanes[r] = (size_t)lanes;
    }
    if (rc == 0)
        rc = real_ids(c, trace, shapes, pid, &tids, &pids);
    size_t ntracks = 0;
    for (size_t r = 0; r < nrows; r++)
        ntracks += c->used[r] ? c->nlanes[r] : 0;
    c->track_tid = rc == 0 ? calloc(ntracks + 1, sizeof *c->track_tid) : NULL;
    if (!c->track_tid)
        rc = -1;
    long long next_tid = 1, next_pid = 1;
    for (size_t r = 0, track = 0; r < nrows && rc == 0; r++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        c->first_tid[r] = track;
        if (!c->used[r])
            continue;
        /* lane 0 is the real thread when there is one; the others (and the
         * rows of no Linux thread) are numbered from 1, past real ids */
        for (size_t k = 0; k < c->nlanes[r]; k++, track++)
            c->track_tid[track] = k == 0 && c->real_tid[r] >= 0 ? c->real_tid[r]
                                                                 : next_free(&tids, &next_tid);
        c->pid[r] = row_process(c, &row, pid[r], c->real_tid[r]);
    }
    for (size_t g = 0; g < c->ngroups && rc == 0; g++)
        if (c->real_pid_of[g] < 0)
            c->process_id[g] = next_free(&pids, &next_pid);
    free(pid);
    free(tids.v);
    free(pids.v);
    return rc;
}

long long layout_tid(const export_layout *c, size_t row, size_t lane)
{
    return c->track_tid[c->first_tid[row] + lane];
}

long long layout_pid(const export_layout *c, size_t row)
{
    return c->pid[row] ? c->process_id[c->pid[row] - 1] : 0;
}
