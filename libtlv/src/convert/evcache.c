/*
 * evcache.c — remembered event texts (see evcache.h): a direct-mapped table
 * of recent keys, each entry one allocation holding the key and the event's
 * strings.
 */
#include "convert/evcache.h"

#include "base/intern.h"

#include <stdlib.h>
#include <string.h>

#define EVCACHE_SLOTS 1024

typedef struct slot {
    uint64_t hash;
    char *blob;            /* key, then the event's strings; NULL: empty */
    size_t key_len;
    cached_event ev;       /* its strings point into blob */
} slot;

struct evcache {
    slot slots[EVCACHE_SLOTS];
};

/* Slots are direct-mapped, so the fast unkeyed hash will do (intern.h). */
evcache *evcache_new(void) { return calloc(1, sizeof(evcache)); }

void evcache_free(evcache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < EVCACHE_SLOTS; i++)
        free(c->slots[i].blob);
    free(c);
}

const cached_event *evcache_find(const evcache *c, const char *key, size_t n)
{
    uint64_t h = hash_fast(key, n);
    const slot *s = &c->slots[h % EVCACHE_SLOTS];
    if (!s->blob || s->hash != h || s->key_len != n || memcmp(s->blob, key, n) != 0)
        return NULL;
    return &s->ev;
}

const cached_event *evcache_find_hinted(const evcache *c, const char *key, size_t n,
                                        uint32_t *hint)
{
    if (*hint && *hint <= EVCACHE_SLOTS) {
        const slot *s = &c->slots[*hint - 1];
        if (s->blob && s->key_len == n && memcmp(s->blob, key, n) == 0)
            return &s->ev;
    }
    uint64_t h = hash_fast(key, n);
    *hint = (uint32_t)(h % EVCACHE_SLOTS) + 1;
    const slot *s = &c->slots[h % EVCACHE_SLOTS];
    if (!s->blob || s->hash != h || s->key_len != n || memcmp(s->blob, key, n) != 0)
        return NULL;
    return &s->ev;
}

/* Copies str to *at, NUL-terminated, and returns where it went. */
static const char *put_str(char **at, const char *str)
{
    size_t n = strlen(str) + 1;
    memcpy(*at, str, n);
    const char *where = *at;
    *at += n;
    return where;
}

void evcache_put(evcache *c, const char *key, size_t n, const cached_event *ev)
{
    if (ev->nargs > EVCACHE_MAX_ARGS)
        return;
    size_t need = n + strlen(ev->name) + 1 + (ev->value_text ? strlen(ev->value_text) + 1 : 0);
    for (size_t i = 0; i < ev->nargs; i++)
        need += strlen(ev->args[i]) + 1;
    if (ev->tail)
        need += ev->tail_len + 1;
    uint64_t h = hash_fast(key, n);
    slot *s = &c->slots[h % EVCACHE_SLOTS];
    free(s->blob);
    s->blob = malloc(need);
    if (!s->blob)
        return;
    memcpy(s->blob, key, n);
    char *at = s->blob + n;
    s->hash = h;
    s->key_len = n;
    s->ev = *ev;
    s->ev.name = put_str(&at, ev->name);
    s->ev.value_text = ev->value_text ? put_str(&at, ev->value_text) : NULL;
    for (size_t i = 0; i < ev->nargs; i++)
        s->ev.args[i] = put_str(&at, ev->args[i]);
    if (ev->tail) {
        memcpy(at, ev->tail, ev->tail_len);
        at[ev->tail_len] = '\0';
        s->ev.tail = at;
    }
}
