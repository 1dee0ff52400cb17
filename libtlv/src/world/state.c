/*
 * state.c — attribute histories (see state.h): sorted runs of changes, the
 * insertion that keeps them sorted, the merging that keeps them few, and
 * the look-ups that search every run.
 */
#include "world/state.h"

#include "base/assert.h"

#include <stdlib.h>
#include <string.h>

/* How far back from the end a change may be moved into place. Multi-core
 * logs are out of order by a few lines; anything further back is a jump in
 * time, whose changes would each cost a move of everything after them. */
#define NEAR 64

/* A change with its whole time, while it is moved or compared. */
typedef struct full_change {
    tlv_time t;
    uint32_t seq, val;
} full_change;

tlv_time history_time(const history *h, uint32_t i)
{
    return (tlv_time){h->c[i].ticks, h->frac ? h->frac[i] : 0};
}

static full_change get(const history *h, uint32_t i)
{
    return (full_change){history_time(h, i), h->c[i].seq, h->c[i].val};
}

static void put(history *h, uint32_t i, full_change c)
{
    h->c[i] = (change){c.t.ticks, c.seq, c.val};
    if (h->frac)
        h->frac[i] = c.t.frac;
}

static int time_before(tlv_time a, uint32_t aseq, tlv_time t, uint32_t seq)
{
    int k = tlv_time_cmp(a, t);
    return k < 0 || (k == 0 && aseq < seq);
}

static int change_before(const history *h, uint32_t i, tlv_time t, uint32_t seq)
{
    return time_before(history_time(h, i), h->c[i].seq, t, seq);
}

static uint32_t run_start(const history *h, uint32_t r) { return h->runs ? h->runs[r] : 0; }

static uint32_t run_count(const history *h) { return h->runs ? h->nruns : 1; }

static uint32_t run_end(const history *h, uint32_t r)
{
    return r + 1 < run_count(h) ? h->runs[r + 1] : h->n;
}

/* Makes the fractions column, zeroed, at the first fraction that is not 0. */
static int keep_fractions(history *h)
{
    if (h->frac)
        return 0;
    h->frac = calloc(h->cap ? h->cap : 1, sizeof *h->frac);
    return h->frac ? 0 : -1;
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
    if (h->frac) {
        uint64_t *f = realloc(h->frac, (size_t)cap * sizeof *f);
        if (!f)
            return -1; /* h->cap stays: the next try grows both again */
        h->frac = f;
    }
    h->cap = cap;
    return 0;
}

/* Merges the last two runs into one. */
static int merge_last(history *h)
{
    TLV_ASSERT(h->runs && h->nruns >= 2);
    uint32_t r = h->nruns - 2, a = h->runs[r], b = h->runs[r + 1], n = h->n;
    full_change *tmp = malloc((size_t)(b - a) * sizeof *tmp);
    if (!tmp)
        return -1;
    for (uint32_t i = a; i < b; i++)
        tmp[i - a] = get(h, i);
    uint32_t i = 0, j = b, k = a;
    while (i < b - a && j < n)
        put(h, k++, change_before(h, j, tmp[i].t, tmp[i].seq) ? get(h, j++) : tmp[i++]);
    while (i < b - a)
        put(h, k++, tmp[i++]);
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
    if (grow(h) < 0 || (t.frac && keep_fractions(h) < 0))
        return -1;
    uint32_t start = run_start(h, run_count(h) - 1), i = h->n;
    while (i > start && h->n - i < NEAR && !change_before(h, i - 1, t, seq))
        i--;
    if (i > start && !change_before(h, i - 1, t, seq)) { /* far back: a new run */
        if (start_run(h) < 0)
            return -1;
        i = h->n;
    }
    if (i < h->n) {
        memmove(&h->c[i + 1], &h->c[i], (size_t)(h->n - i) * sizeof *h->c);
        if (h->frac)
            memmove(&h->frac[i + 1], &h->frac[i], (size_t)(h->n - i) * sizeof *h->frac);
    }
    put(h, i, (full_change){t, seq, val});
    h->n++;
    /* "the value at time T" searches each run by time: it must stay sorted */
    TLV_ASSERT(i == run_start(h, run_count(h) - 1) || change_before(h, i - 1, t, seq));
    TLV_ASSERT(i + 1 == h->n || !change_before(h, i + 1, t, seq));
    return rebalance(h);
}

#define NONE UINT32_MAX

/* The last change of run r before (at, seq_limit), or NONE. */
static uint32_t run_at(const history *h, uint32_t r, tlv_time at, uint32_t seq_limit)
{
    uint32_t first = run_start(h, r), lo = first, hi = run_end(h, r);
    while (lo < hi) { /* first index not before (at, seq_limit) */
        uint32_t mid = lo + (hi - lo) / 2;
        if (change_before(h, mid, at, seq_limit))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo > first ? lo - 1 : NONE;
}

/* The later of two changes (either may be NONE). */
static uint32_t later(const history *h, uint32_t a, uint32_t b)
{
    if (a == NONE || b == NONE)
        return a != NONE ? a : b;
    return change_before(h, a, history_time(h, b), h->c[b].seq) ? b : a;
}

uint32_t history_at(const history *h, tlv_time at, uint32_t seq_limit)
{
    uint32_t best = NONE;
    for (uint32_t r = 0; r < run_count(h) && h->n; r++)
        best = later(h, best, run_at(h, r, at, seq_limit));
    return best != NONE ? h->c[best].val : h->init;
}

uint32_t history_last(const history *h)
{
    uint32_t best = NONE;
    for (uint32_t r = 0; r < run_count(h) && h->n; r++)
        best = later(h, best, run_end(h, r) - 1);
    return best != NONE ? h->c[best].val : h->init;
}

void history_shrink(history *h)
{
    uint32_t want = h->n ? h->n : 1;
    if (!h->c || h->cap <= want)
        return;
    if (h->frac) {
        uint64_t *f = realloc(h->frac, (size_t)want * sizeof *f);
        if (!f)
            return;
        h->frac = f;
    }
    change *c = realloc(h->c, (size_t)want * sizeof *c);
    if (c) /* else the changes keep a block longer than h->cap: harmless */
        h->c = c;
    h->cap = want;
}

size_t history_bytes(const history *h)
{
    return (size_t)h->cap * (sizeof *h->c + (h->frac ? sizeof *h->frac : 0)) +
           (h->runs ? HISTORY_MAX_RUNS * sizeof *h->runs : 0);
}

void history_free(history *h)
{
    free(h->c);
    free(h->frac);
    free(h->runs);
    h->c = NULL;
    h->frac = NULL;
    h->runs = NULL;
    h->n = h->cap = h->nruns = 0;
}
