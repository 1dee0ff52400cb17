/*
 * intern.c — interned strings (see intern.h). Strings live in large chunks
 * that never move, so their pointers stay valid; an open-addressing table
 * maps text to id.
 */
#include "base/intern.h"

#include "base/buf.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

typedef struct entry {
    const char *s;
    uint32_t n;
} entry;

struct intern_pool {
    entry *items;       /* by id */
    size_t count, cap;
    uint32_t *slots;    /* hash table of id+1, 0 = empty */
    size_t nslots;
    char **chunks;      /* storage for the texts */
    size_t nchunks, chunks_cap;
    size_t chunk_used, chunk_size;
    size_t chunk_bytes;  /* the sizes of all chunks, for intern_bytes */
    hash_key key;       /* this pool's own: see hash_keyed */
};

/* ---- keyed hashing ------------------------------------------------------------ */

/* Texts come from logs and rule files an attacker may write, so the table's
 * hash is SipHash-1-3 (the keyed hash Python and Rust use for the same
 * reason) under a key of the pool's own: without the key nobody can choose
 * names that collide, and a fast unkeyed mix cannot be made safe by a seed
 * (seed-independent collisions are known for that kind of hash). Ids follow
 * insertion order, never the hash, so output does not depend on the key. */

static uint64_t rotl(uint64_t x, int b) { return x << b | x >> (64 - b); }

#define SIP_ROUND(v0, v1, v2, v3)                                                            \
    do {                                                                                     \
        v0 += v1;                                                                            \
        v1 = rotl(v1, 13) ^ v0;                                                              \
        v0 = rotl(v0, 32);                                                                   \
        v2 += v3;                                                                            \
        v3 = rotl(v3, 16) ^ v2;                                                              \
        v0 += v3;                                                                            \
        v3 = rotl(v3, 21) ^ v0;                                                              \
        v2 += v1;                                                                            \
        v1 = rotl(v1, 17) ^ v2;                                                              \
        v2 = rotl(v2, 32);                                                                   \
    } while (0)

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t w = 0;
    for (int i = 7; i >= 0; i--) /* compilers make this one load on little-endian */
        w = w << 8 | p[i];
    return w;
}

uint64_t hash_keyed(const hash_key *key, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    uint64_t v0 = key->k0 ^ 0x736f6d6570736575ULL, v1 = key->k1 ^ 0x646f72616e646f6dULL;
    uint64_t v2 = key->k0 ^ 0x6c7967656e657261ULL, v3 = key->k1 ^ 0x7465646279746573ULL;
    uint64_t b = (uint64_t)n << 56;
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t m = load_le64(p);
        v3 ^= m;
        SIP_ROUND(v0, v1, v2, v3);
        v0 ^= m;
    }
    for (size_t i = 0; i < n; i++)
        b |= (uint64_t)p[i] << (8 * i);
    v3 ^= b;
    SIP_ROUND(v0, v1, v2, v3);
    v0 ^= b;
    v2 ^= 0xff;
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    SIP_ROUND(v0, v1, v2, v3);
    return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ z >> 30) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ z >> 27) * 0x94d049bb133111ebULL;
    return z ^ z >> 31;
}

void hash_key_init(hash_key *key, const void *salt)
{
    uint64_t k[2];
    if (getrandom(k, sizeof k, GRND_NONBLOCK) == (ssize_t)sizeof k) {
        key->k0 = k[0];
        key->k1 = k[1];
        return;
    }
    /* No entropy yet (early boot) or no getrandom: the salt's address and
     * the clock still differ from handle to handle and run to run. */
    struct timespec ts = {0, 0};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)(uintptr_t)salt ^ (uint64_t)ts.tv_nsec << 20 ^ (uint64_t)ts.tv_sec ^
                 (uint64_t)time(NULL) << 32;
    key->k0 = splitmix(&x);
    key->k1 = splitmix(&x);
}

/* ---- the pool ----------------------------------------------------------------- */

intern_pool *intern_new(void)
{
    intern_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    hash_key_init(&p->key, p);
    if (intern_add(p, "", 0) != 0) {
        intern_free(p);
        return NULL;
    }
    return p;
}

size_t intern_bytes(const intern_pool *p)
{
    if (!p)
        return 0;
    return sizeof *p + p->cap * sizeof *p->items + p->nslots * sizeof *p->slots +
           p->chunks_cap * sizeof *p->chunks + p->chunk_bytes;
}

void intern_free(intern_pool *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nchunks; i++)
        free(p->chunks[i]);
    free(p->chunks);
    free(p->items);
    free(p->slots);
    free(p);
}

static const char *store_text(intern_pool *p, const char *s, size_t n)
{
    if (p->nchunks == 0 || p->chunk_used + n + 1 > p->chunk_size) {
        size_t size = n + 1 > 65536 ? n + 1 : 65536;
        if (GROW(p->chunks, p->chunks_cap, p->nchunks + 1) < 0)
            return NULL;
        char *c = malloc(size);
        if (!c)
            return NULL;
        p->chunks[p->nchunks++] = c;
        p->chunk_size = size;
        p->chunk_bytes += size;
        p->chunk_used = 0;
    }
    char *d = p->chunks[p->nchunks - 1] + p->chunk_used;
    memcpy(d, s, n);
    d[n] = '\0';
    p->chunk_used += n + 1;
    return d;
}

static size_t slot_of(const intern_pool *p, const char *s, size_t n)
{
    size_t mask = p->nslots - 1;
    size_t i = (size_t)hash_keyed(&p->key, s, n) & mask;
    for (;;) {
        uint32_t v = p->slots[i];
        if (v == 0)
            return i;
        const entry *e = &p->items[v - 1];
        if (e->n == n && memcmp(e->s, s, n) == 0)
            return i;
        i = (i + 1) & mask;
    }
}

static int rehash(intern_pool *p)
{
    size_t n = p->nslots ? p->nslots * 2 : 1024;
    uint32_t *old = p->slots;
    size_t oldn = p->nslots;
    p->slots = calloc(n, sizeof *p->slots);
    if (!p->slots) {
        p->slots = old;
        return -1;
    }
    p->nslots = n;
    for (size_t i = 0; i < oldn; i++) {
        if (old[i]) {
            const entry *e = &p->items[old[i] - 1];
            p->slots[slot_of(p, e->s, e->n)] = old[i];
        }
    }
    free(old);
    return 0;
}

uint32_t intern_find(const intern_pool *p, const char *s, size_t n)
{
    if (!p->nslots)
        return UINT32_MAX;
    uint32_t v = p->slots[slot_of(p, s, n)];
    return v ? v - 1 : UINT32_MAX;
}

uint32_t intern_add(intern_pool *p, const char *s, size_t n)
{
    if (n > UINT32_MAX - 1)
        return UINT32_MAX;
    if ((p->count + 1) * 2 > p->nslots && rehash(p) < 0)
        return UINT32_MAX;
    size_t slot = slot_of(p, s, n);
    if (p->slots[slot])
        return p->slots[slot] - 1;
    if (p->count >= UINT32_MAX - 1 || GROW(p->items, p->cap, p->count + 1) < 0)
        return UINT32_MAX;
    const char *copy = store_text(p, s, n);
    if (!copy)
        return UINT32_MAX;
    p->items[p->count].s = copy;
    p->items[p->count].n = (uint32_t)n;
    p->slots[slot] = (uint32_t)(++p->count);
    return (uint32_t)(p->count - 1);
}

const char *intern_str(const intern_pool *p, uint32_t id) { return p->items[id].s; }

size_t intern_len(const intern_pool *p, uint32_t id) { return p->items[id].n; }

uint32_t intern_count(const intern_pool *p) { return (uint32_t)p->count; }

uint64_t intern_hash(const intern_pool *p, const char *s, size_t n)
{
    return hash_keyed(&p->key, s, n);
}

uint64_t hash_fast(const char *s, size_t n)
{
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    uint64_t h = (uint64_t)n * k;
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * k;
    return h ^ (h >> 29);
}
