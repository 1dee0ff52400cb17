/*
 * state.c — attribute histories (see state.h): sorted runs of changes, the
 * insertion that keeps them sorted, the merging that keeps them few, and
 * the look-ups that search every run.
 */
#include "state.h"

#include <stdlib.h>
#include <string.h>

/* How far back from the end a change may be moved into place. Multi-core
 * logs are out of order by a few lines; anything further back is a jump in
 * time, whose changes would each cost a move of everything after them. */
#define NEAR 64

static int change_before(const change *c, tlv_time t, uint32_t seq)
{
    int k = tlv_time_cmp(c->t, t);
    return k < 0 || (k == 0 && c->seq < seq);
}

static uint32_t run_start(const history *h, uint32_t r) { return h->runs ? h->runs[r] : 0; }

static uint32_t run_count(const history *h) { return h->runs ? h->nruns : 1; }

static uint32_t run_end(const history *h, uint32_t r)
{
    return r + 1 < run_count(h) ? h->runs[r + 1] : h->n;
}

static int grow(history *h)
{
    if (h->n < h->cap)
        return 0;
    uint32_t cap = h->cap ? h->cap * 2 : 4;
    if (cap < h->cap)
        return -1;
    change *c = realloc(h->c, (size_t)cap * sizeof *c);
    if (!c)
        return -1;
    h->c = c;
    h->cap = cap;
    return 0;
}

/* Merges the last two runs into one. */
static int merge_last(history *h)
{
    uint32_t r = h->nruns - 2, a = h->runs[r], b = h->runs[r + 1], n = h->n;
    change *tmp = malloc((size_t)(b - a) * sizeof *tmp);
    if (!tmp)
        return -1;
    memcpy(tmp, h->c + a, (size_t)(b - a) * sizeof *tmp);
    uint32_t i = 0, j = b, k = a;
    while (i < b - a && j < n)
        h->c[k++] = change_before(&h->c[j], tmp[i].t, tmp[i].seq) ? h->c[j++] : tmp[i++];
    while (i < b - a)
        h->c[k++] = tmp[i++];
    free(tmp);
    h->nruns--;
    return 0;
}

/* Keeps every run at least twice as long as the next, which bounds their
 * number by log2 n and makes each change take part in O(log n) merges. */
static int rebalance(history *h)
{
    while (h->runs && h->nruns > 1) {
        uint32_t r = h->nruns - 1;
        if ((uint64_t)(h->n - h->runs[r]) * 2 <= (uint64_t)(h->runs[r] - h->runs[r - 1]))
            break;
        if (merge_last(h) < 0)
            return -1;
    }
    return 0;
}

static int start_run(history *h)
{
    if (!h->runs) {
        h->runs = malloc(HISTORY_MAX_RUNS * sizeof *h->runs);
        if (!h->runs)
            return -1;
        h->runs[0] = 0;
        h->nruns = 1;
    }
    if (h->nruns == HISTORY_MAX_RUNS) /* only when a merge ran out of memory */
        return -1;
    h->runs[h->nruns++] = h->n;
    return 0;
}

int history_set(history *h, tlv_time t, uint32_t seq, uint32_t val)
{
    if (grow(h) < 0)
        return -1;
    uint32_t start = run_start(h, run_count(h) - 1), i = h->n;
    while (i > start && h->n - i < NEAR && !change_before(&h->c[i - 1], t, seq))
        i--;
    if (i > start && !change_before(&h->c[i - 1], t, seq)) { /* far back: a new run */
        if (start_run(h) < 0)
            return -1;
        i = h->n;
    }
    if (i < h->n)
        memmove(&h->c[i + 1], &h->c[i], (size_t)(h->n - i) * sizeof *h->c);
    h->c[i].t = t;
    h->c[i].seq = seq;
    h->c[i].val = val;
    h->n++;
    return rebalance(h);
}

/* The last change of run r before (at, seq_limit), or NULL. */
static const change *run_at(const history *h, uint32_t r, tlv_time at, uint32_t seq_limit)
{
    uint32_t first = run_start(h, r), lo = first, hi = run_end(h, r);
    while (lo < hi) { /* first index not before (at, seq_limit) */
        uint32_t mid = lo + (hi - lo) / 2;
        if (change_before(&h->c[mid], at, seq_limit))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > first ? &h->c[lo - 1] : NULL;
}

/* The later of two changes (either may be NULL). */
static const change *later(const change *a, const change *b)
{
    if (!a || !b)
        return a ? a : b;
    return change_before(a, b->t, b->seq) ? b : a;
}

uint32_t history_at(const history *h, tlv_time at, uint32_t seq_limit)
{
    const change *best = NULL;
    for (uint32_t r = 0; r < run_count(h) && h->n; r++)
        best = later(best, run_at(h, r, at, seq_limit));
    return best ? best->val : h->init;
}

uint32_t history_last(const history *h)
{
    const change *best = NULL;
    for (uint32_t r = 0; r < run_count(h) && h->n; r++)
        best = later(best, &h->c[run_end(h, r) - 1]);
    return best ? best->val : h->init;
}

void history_shrink(history *h)
{
    uint32_t want = h->n ? h->n : 1;
    if (!h->c || h->cap <= want)
        return;
    change *c = realloc(h->c, (size_t)want * sizeof *c);
    if (c) {
        h->c = c;
        h->cap = want;
    }
}

size_t history_bytes(const history *h)
{
    return (size_t)h->cap * sizeof *h->c + (h->runs ? HISTORY_MAX_RUNS * sizeof *h->runs : 0);
}

void history_free(history *h)
{
    free(h->c);
    free(h->runs);
    h->c = NULL;
    h->runs = NULL;
    h->n = h->cap = h->nruns = 0;
}
