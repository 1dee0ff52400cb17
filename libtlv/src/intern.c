/*
 * intern.c — interned strings (see intern.h). Strings live in large chunks
 * that never move, so their pointers stay valid; an open-addressing table
 * maps text to id.
 */
#include "intern.h"

#include "buf.h"

#include <stdlib.h>
#include <string.h>

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
};

/* Eight bytes at a time with a multiply-xorshift mix: keys are short but
 * hashed on every macro and value of every line, so bytewise FNV was too
 * slow. Not for hostile keys; collisions only cost time. */
uint64_t hash_bytes(const char *s, size_t n)
{
    const uint64_t k = 0x9e3779b97f4a7c15ULL;
    uint64_t h = (uint64_t)n * k;
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * k;
        h ^= h >> 32;
        s += 8;
        n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * k;
    h ^= h >> 29;
    return h * k ^ (h >> 32);
}

intern_pool *intern_new(void)
{
    intern_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (intern_add(p, "", 0) != 0) {
        intern_free(p);
        return NULL;
    }
    return p;
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
    size_t i = (size_t)hash_bytes(s, n) & mask;
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
