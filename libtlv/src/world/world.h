/*
 * world.h — the resources of one conversion or trace at run time: the
 * declared resources (and, later, ones created on first use), the history of
 * every attribute, and the resolution of resource references such as
 * `LOGTASK`, `Task(state==RUNNING)` or `[1200]Task(prcId==2)` to the
 * resources they stand for.
 */
#ifndef TLV_WORLD_H
#define TLV_WORLD_H

#include "lang/clock.h"
#include "lang/cond.h"
#include "compile/dynres.h"
#include "base/intern.h"
#include "compile/macro.h"
#include "model/model.h"
#include "world/state.h"

#include <stddef.h>
#include <stdint.h>

typedef struct rt_resource {
    const char *name;      /* interned in world.names */
    size_t type;
    const char *display;   /* display name, or the name */
    uint32_t color;
    history *attrs;        /* one per attribute of the type */
    int dynamic;           /* created on first use ("DynamicResources") */
    size_t decl;           /* 1 + index of the DynamicResources declaration
                              that created it; 0 for a declared resource */
} rt_resource;

/* The result of resolving a resource reference. */
typedef struct ref_result {
    size_t *items;          /* matching resource indexes, in resource order */
    size_t n, cap;
    int has_time;
    tlv_time time;
    const char *rest;       /* text after the reference (".attr" for $ATTR) */
    size_t rest_len;
} ref_result;

typedef struct cond_cache_entry cond_cache_entry;
typedef struct resolve_cache resolve_cache;
typedef struct cond_recent cond_recent;

typedef struct world {
    const model *model;
    const dyn_table *dyn;  /* resources created on first use */
    int radix;
    intern_pool *values;   /* attribute values */
    intern_pool *names;    /* resource names: id - 1 = resource index */
    rt_resource *res;
    size_t nres, res_cap;
    size_t **members;      /* per type: resource indexes in order */
    size_t *nmembers, *members_cap;
    uint32_t next_seq;     /* sequence number of the next change; also tells
                              whether the state changed since a macro result
                              was remembered */
    uint32_t static_changes; /* events that changed a Static attribute */
    int read_dynamic;      /* set when a Dynamic attribute is read: answers
                              that read none stay right while the state changes */
    cond_cache_entry *cache;
    size_t cache_slots, cache_used;
    unsigned cache_generation; /* counts clears of the cache */
    cond_recent *recent;   /* a direct-mapped front of the cache (world.c) */
    ref_result scratch_ref; /* reused by macros so resolving allocates nothing */
    resolve_cache *resolved; /* recent world_resolve answers (world.c) */
    size_t palette_next;   /* palette color of the next resource created on first use */
    const char *time_scale; /* the resource file's TimeScale, for $CLOCK{} (NULL: "us") */
    clock_wrap clock;      /* the last $CLOCK{} time without a date (midnight wraps) */
} world;

int world_init(world *w, const model *m, const dyn_table *dyn, int radix);
void world_free(world *w);

/* What a world holds, in bytes, for memory accounting (tlv_trace_memory). */
typedef struct world_bytes {
    size_t histories;  /* every attribute's changes */
    size_t values;     /* the pool of attribute values and event names */
    size_t resources;  /* resources, their names and the per-type lists */
    size_t caches;     /* remembered conditions and resolutions */
} world_bytes;
void world_count_bytes(const world *w, world_bytes *out);

/* Gives back the unused ends of every history (history_shrink): once a log
 * is converted, what was reserved for growth is only waste. */
void world_shrink(world *w);

/* A reader of w for another thread: a copy that shares w's resources,
 * histories and pools (none of which it may change: no world_set,
 * world_create) but keeps the caches reading fills (conditions,
 * resolutions, the macros' scratch) of its own, so that readers of one
 * world may run at the same time while nothing changes w. Its $CLOCK{}
 * state starts as w's and stays its own. world_reader_free frees only what
 * the reader made. */
void world_reader_init(world *r, const world *w);
void world_reader_free(world *r);

/* Index of the resource with that name, or -1. */
long world_find(const world *w, const char *name, size_t n);

/* Creates the resource `name` when the resource file's "DynamicResources"
 * declare its type by a pattern it matches (the first such declaration wins),
 * with the declaration's display name and attribute values, else the type's
 * defaults. Returns its index, -1 when no declaration matches (or there are
 * none: files without them behave as before), -2 when memory ran out.
 * w->nres grows, which tells remembered macro answers they are stale. */
long world_create(world *w, const char *name, size_t n);

/* The value of an attribute (index into its type's attributes) at *at, or
 * after every change when at is NULL. Notes in w->read_dynamic when the
 * attribute is Dynamic. */
uint32_t world_attr(world *w, size_t res, size_t attr, const tlv_time *at,
                    uint32_t seq_limit);

/* The last non-empty value of the attribute the DynamicResources declaration
 * that created resource `res` names as its "GroupAttribute" (group) or
 * "LabelAttribute" (!group), interned in w->values; UINT32_MAX when it names
 * none, the resource was declared, or the value is empty. */
uint32_t world_decl_attr_last(const world *w, size_t res, int group);

/* The label of a resource's row: its LabelAttribute's last value, else its
 * display name (its name when it has none). */
const char *world_label(const world *w, size_t res);

/* Records an attribute change; returns 0 or -1 (no memory). */
int world_set(world *w, size_t res, size_t attr, tlv_time t, uint32_t val);

/* A compiled condition for `text`, from a cache (conditions built from log
 * values repeat). NULL with err filled when malformed. Owned by the world. */
const cond *world_cond(world *w, const char *text, size_t n, char *err, size_t errsz);

/* The value of the condition `text` alone (cond_eval with no resources:
 * literals compared), 0 or 1, remembered with the compiled condition; -1
 * with err filled when malformed (err untouched when it is the evaluation
 * that failed, as cond_eval). */
int world_cond_value(world *w, const char *text, size_t n, char *err, size_t errsz);

/* Resolves `text`: an optional "[T]" time prefix, then a resource name, a
 * type name (every resource of the type), or Type(condition) evaluated at T
 * (or after every change). Returns 0, or -1 with a message in err (bad time,
 * malformed condition, unknown resource or type). The caller frees
 * r->items. */
int world_resolve(world *w, const char *text, size_t n, ref_result *r, char *err,
                  size_t errsz);

/* Whether resource `res` satisfies condition `c` at (at, seq_limit). */
int world_test(world *w, size_t res, const cond *c, const tlv_time *at, uint32_t seq_limit);

/* Resolves only a type-and-condition (`Task` + `state==RUNNING`) at a time,
 * appending matches to r->items. seq_limit as for history_at. */
int world_select(world *w, size_t type, const cond *c, const tlv_time *at,
                 uint32_t seq_limit, ref_result *r);

/* The macro host (macro.h) of this world, for expanding macros against its
 * state (world_macros.c). h points into w: it is valid while w is. */
void world_macro_host(world *w, macro_host *h);

#endif
