/*
 * evcache.h — remembered event texts. Rule outputs produce the same event
 * text after the time over and over ("TASK1.state=RUNNING"); parsing it,
 * finding its resource, attribute and interned value is most of the cost of
 * an event. Those answers never go stale (resources and interned values are
 * only ever added), so the converter keeps the recent ones here, keyed by
 * the text after the time.
 */
#ifndef TLV_EVCACHE_H
#define TLV_EVCACHE_H

#include <stddef.h>
#include <stdint.h>

#define EVCACHE_MAX_ARGS 8

/* An event text resolved against the world; strings are NUL-terminated. */
typedef struct cached_event {
    size_t res;            /* resource index in the world */
    int is_behavior;
    long attr;             /* attributes: the attribute's index in its type */
    uint32_t value;        /* attributes: the interned value */
    const char *name;
    const char *value_text; /* attributes */
    const char *args[EVCACHE_MAX_ARGS];
    size_t nargs;
    const char *tail;      /* the event's standard-form line after "[time]" (NULL: not kept) */
    size_t tail_len;
    int ids;               /* name_id and arg_ids hold the ids in the world's values */
    uint32_t name_id;
    uint32_t arg_ids[EVCACHE_MAX_ARGS];
} cached_event;

typedef struct evcache evcache;

evcache *evcache_new(void);
void evcache_free(evcache *c);

/* The entry for `key`, or NULL. Valid until the next evcache_put. */
const cached_event *evcache_find(const evcache *c, const char *key, size_t n);

/* The same, first trying the slot *hint (a caller's guess: where the last
 * text of the same template was; 0 none), which spares hashing the key when
 * the text repeats; *hint becomes the key's slot. */
const cached_event *evcache_find_hinted(const evcache *c, const char *key, size_t n,
                                        uint32_t *hint);

/* Remembers ev (its strings, and its tail when not NULL, are copied) for `key`, replacing what shared its
 * slot. Events with more than EVCACHE_MAX_ARGS arguments are not kept; out
 * of memory, nothing is kept. */
void evcache_put(evcache *c, const char *key, size_t n, const cached_event *ev);

#endif
