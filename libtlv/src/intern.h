/*
 * intern.h — a pool of interned strings: each distinct byte string gets a
 * small stable id, so attribute values can be stored as 4-byte ids and
 * compared by id. Id 0 is always the empty string.
 */
#ifndef TLV_INTERN_H
#define TLV_INTERN_H

#include <stddef.h>
#include <stdint.h>

typedef struct intern_pool intern_pool;

intern_pool *intern_new(void);
void intern_free(intern_pool *p);

/* The id of the string, adding it when new. Returns UINT32_MAX when memory
 * ran out. */
uint32_t intern_add(intern_pool *p, const char *s, size_t n);

/* The id of the string if present, else UINT32_MAX. */
uint32_t intern_find(const intern_pool *p, const char *s, size_t n);

/* The NUL-terminated text of an id, and its length. Valid as long as the
 * pool. */
const char *intern_str(const intern_pool *p, uint32_t id);
size_t intern_len(const intern_pool *p, uint32_t id);

/* Number of strings in the pool (ids are 0..count-1). */
uint32_t intern_count(const intern_pool *p);

/* Hash used by the pool, exposed for other string-keyed tables. */
uint64_t hash_bytes(const char *s, size_t n);

#endif
