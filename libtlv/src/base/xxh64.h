/*
 * xxh64.h — XXH64, the 64-bit hash of xxHash (Yann Collet's published
 * algorithm, seed 0 here), written out so that anyone can compute it from
 * the specification: the trace cache's checksums and keys (trace_cache.c,
 * docs/cache.md) use it because it reads a gigabyte in about a tenth of a
 * second, where a byte-at-a-time hash would take the cache's whole budget.
 */
#ifndef TLV_XXH64_H
#define TLV_XXH64_H

#include <stddef.h>
#include <stdint.h>

/* XXH64 of data[0..n) with seed 0, computed in pieces: init, update any
 * number of times, then digest (which leaves the state usable). */
typedef struct xxh64_state {
    uint64_t v[4];
    uint64_t total;
    unsigned char tail[32];
    size_t ntail;
} xxh64_state;

void xxh64_init(xxh64_state *s);
void xxh64_update(xxh64_state *s, const void *data, size_t n);
uint64_t xxh64_digest(const xxh64_state *s);

/* The whole of data[0..n) at once. */
uint64_t xxh64(const void *data, size_t n);

#endif
