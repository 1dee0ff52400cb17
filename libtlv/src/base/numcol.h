/*
 * numcol.h — a column of 32-bit numbers, appended in order and read by
 * index, that keeps numbers which mostly grow slowly (input lines, state
 * sequence numbers of a trace's events in the order they were made) in
 * about 1.25 bytes each rather than 4: a base per block of NUMCOL_BLOCK, and
 * per number its offset from that base in a byte; a number that does not
 * fit (below the base, or 255 or more above it) is kept whole, apart.
 */
#ifndef TLV_NUMCOL_H
#define TLV_NUMCOL_H

#include <stddef.h>
#include <stdint.h>

#define NUMCOL_BLOCK 16

typedef struct numcol {
    uint32_t *base;    /* per block: its first number */
    uint8_t *off;      /* per number: less the block's base, or 255: kept apart */
    uint64_t *apart;   /* index << 32 | number, by index */
    size_t n, cap, base_cap, napart, apart_cap;
} numcol;

/* Appends v as number n. Returns 0 or -1 (no memory; the column is as it was). */
int numcol_add(numcol *c, uint32_t v);

/* Takes back the last number appended (c->n > 0). */
void numcol_drop_last(numcol *c);

/* Number i (< c->n). */
uint32_t numcol_get(const numcol *c, size_t i);

/* Gives back what growing reserved. */
void numcol_shrink(numcol *c);

/* Bytes held. */
size_t numcol_bytes(const numcol *c);

void numcol_free(numcol *c);

#endif
