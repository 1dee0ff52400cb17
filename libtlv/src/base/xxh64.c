/*
 * xxh64.c — XXH64 (xxh64.h): four lanes of 8-byte rounds over 32-byte
 * stripes, the lanes merged, the tail mixed in, then the avalanche.
 */
#include "base/xxh64.h"

#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* Little-endian reads: the hash is defined on bytes, whatever the host. */
static inline uint64_t read64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static inline uint32_t read32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t round64(uint64_t acc, uint64_t input)
{
    acc += input * P2;
    acc = rotl(acc, 31);
    return acc * P1;
}

static inline uint64_t merge_round(uint64_t acc, uint64_t val)
{
    acc ^= round64(0, val);
    return acc * P1 + P4;
}

void xxh64_init(xxh64_state *s)
{
    memset(s, 0, sizeof *s);
    s->v[0] = P1 + P2;
    s->v[1] = P2;
    s->v[2] = 0;
    s->v[3] = (uint64_t)0 - P1;
}

static void stripe(uint64_t *v, const unsigned char *p)
{
    v[0] = round64(v[0], read64(p));
    v[1] = round64(v[1], read64(p + 8));
    v[2] = round64(v[2], read64(p + 16));
    v[3] = round64(v[3], read64(p + 24));
}

void xxh64_update(xxh64_state *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    s->total += n;
    if (s->ntail) { /* complete the stripe begun by the last update */
        size_t take = 32 - s->ntail < n ? 32 - s->ntail : n;
        memcpy(s->tail + s->ntail, p, take);
        s->ntail += take;
        p += take;
        n -= take;
        if (s->ntail < 32)
            return;
        stripe(s->v, s->tail);
        s->ntail = 0;
    }
    for (; n >= 32; p += 32, n -= 32)
        stripe(s->v, p);
    memcpy(s->tail, p, n);
    s->ntail = n;
}

uint64_t xxh64_digest(const xxh64_state *s)
{
    uint64_t h;
    if (s->total >= 32) {
        h = rotl(s->v[0], 1) + rotl(s->v[1], 7) + rotl(s->v[2], 12) + rotl(s->v[3], 18);
        for (int i = 0; i < 4; i++)
            h = merge_round(h, s->v[i]);
    } else {
        h = P5; /* seed 0 + P5 */
    }
    h += s->total;
    const unsigned char *p = s->tail;
    size_t n = s->ntail;
    for (; n >= 8; p += 8, n -= 8)
        h = rotl(h ^ round64(0, read64(p)), 27) * P1 + P4;
    if (n >= 4) {
        h = rotl(h ^ ((uint64_t)read32(p) * P1), 23) * P2 + P3;
        p += 4;
        n -= 4;
    }
    for (; n; p++, n--)
        h = rotl(h ^ (*p * P5), 11) * P1;
    h ^= h >> 33;
    h *= P2;
    h ^= h >> 29;
    h *= P3;
    h ^= h >> 32;
    return h;
}

uint64_t xxh64(const void *data, size_t n)
{
    xxh64_state s;
    xxh64_init(&s);
    xxh64_update(&s, data, n);
    return xxh64_digest(&s);
}
