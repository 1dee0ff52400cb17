/*
 * state.c — attribute histories (see state.h).
 */
#include "state.h"

#include <stdlib.h>
#include <string.h>

static int change_before(const change *c, tlv_time t, uint32_t seq)
{
    int k = tlv_time_cmp(c->t, t);
    return k < 0 || (k == 0 && c->seq < seq);
}

int history_set(history *h, tlv_time t, uint32_t seq, uint32_t val)
{
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 4;
        if (cap < h->cap)
            return -1;
        change *c = realloc(h->c, (size_t)cap * sizeof *c);
        if (!c)
            return -1;
        h->c = c;
        h->cap = cap;
    }
    uint32_t i = h->n;
    while (i > 0 && !change_before(&h->c[i - 1], t, seq))
        i--;
    if (i < h->n)
        memmove(&h->c[i + 1], &h->c[i], (size_t)(h->n - i) * sizeof *h->c);
    h->c[i].t = t;
    h->c[i].seq = seq;
    h->c[i].val = val;
    h->n++;
    return 0;
}

uint32_t history_at(const history *h, tlv_time at, uint32_t seq_limit)
{
    uint32_t lo = 0, hi = h->n; /* first index not before (at, seq_limit) */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (change_before(&h->c[mid], at, seq_limit))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? h->c[lo - 1].val : h->init;
}

uint32_t history_last(const history *h) { return h->n ? h->c[h->n - 1].val : h->init; }

void history_free(history *h)
{
    free(h->c);
    h->c = NULL;
    h->n = h->cap = 0;
}
