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

/* Bytes the pool holds (tables and text storage), for memory accounting. */
size_t intern_bytes(const intern_pool *p);

/* A secret 128-bit key for hashing untrusted texts: each table keys its
 * own, so crafted names cannot be made to collide (see intern.c). */
typedef struct hash_key {
    uint64_t k0, k1;
} hash_key;

/* A fresh random key (from getrandom; else from salt's address and the
 * clock). */
void hash_key_init(hash_key *key, const void *salt);

/* SipHash-1-3 of the bytes under key. */
uint64_t hash_keyed(const hash_key *key, const char *s, size_t n);

/* A fast unkeyed hash, only for direct-mapped caches (no probing), where
 * texts made to collide merely make each other miss, which costs no more
 * than having no cache, and as a sort key in front of the text itself, where
 * collisions cost a text comparison each; tables that probe must use
 * hash_keyed. */
uint64_t hash_fast(const char *s, size_t n);

/* The hash the pool uses, under its own key, for other tables keyed by the
 * same kind of text. */
uint64_t intern_hash(const intern_pool *p, const char *s, size_t n);

#endif
