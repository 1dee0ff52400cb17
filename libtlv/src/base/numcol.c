/*
 * numcol.c — a column of slowly growing 32-bit numbers (numcol.h): a base
 * per block, a byte per number, the few that do not fit kept apart.
 */
#include "base/numcol.h"

#include "base/buf.h"

#include <stdlib.h>

#define APART 255u

int numcol_add(numcol *c, uint32_t v)
{
    size_t i = c->n, b = i / NUMCOL_BLOCK;
    if (GROW(c->off, c->cap, i + 1) < 0 || GROW(c->base, c->base_cap, b + 1) < 0)
        return -1;
    if (i % NUMCOL_BLOCK == 0)
        c->base[b] = v;
    uint32_t base = c->base[b];
    if (v >= base && v - base < APART) {
        c->off[i] = (uint8_t)(v - base);
    } else {
        if (GROW(c->apart, c->apart_cap, c->napart + 1) < 0)
            return -1;
        c->apart[c->napart++] = (uint64_t)i << 32 | v;
        c->off[i] = APART;
    }
    c->n++;
    return 0;
}

void numcol_drop_last(numcol *c)
{
    c->n--;
    if (c->off[c->n] == APART)
        c->napart--;
}

uint32_t numcol_get(const numcol *c, size_t i)
{
    uint8_t o = c->off[i];
    if (o != APART)
        return c->base[i / NUMCOL_BLOCK] + o;
    size_t lo = 0, hi = c->napart; /* the first kept apart at index >= i: i's */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((c->apart[mid] >> 32) < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (uint32_t)c->apart[lo];
}

void numcol_shrink(numcol *c)
{
    SHRINK(c->off, c->cap, c->n);
    SHRINK(c->base, c->base_cap, (c->n + NUMCOL_BLOCK - 1) / NUMCOL_BLOCK);
    SHRINK(c->apart, c->apart_cap, c->napart);
}

size_t numcol_bytes(const numcol *c)
{
    return c->cap * sizeof *c->off + c->base_cap * sizeof *c->base +
           c->apart_cap * sizeof *c->apart;
}

void numcol_free(numcol *c)
{
    free(c->base);
    free(c->off);
    free(c->apart);
    *c = (numcol){0};
}
