/*
 * store.h — the shape store: every drawn primitive kept once with its row,
 * time interval and resolved style, indexed per row so that "the shapes of
 * row R overlapping [t0, t1]" costs O(log n + k), and summarised per time
 * bucket at several resolutions so that drawing a zoomed-out frame costs in
 * proportion to its pixels, not to the number of shapes.
 */
#ifndef TLV_STORE_H
#define TLV_STORE_H

#include "tlv/tlv.h"

#include <stddef.h>
#include <stdint.h>

/* One drawn primitive. `from`/`to` are the shape's area in trace time;
 * `prim` indexes the caller's table of resolved primitives (style and
 * geometry); `rule`/`event`/`resource` index the caller's names (resource
 * UINT32_MAX for rules without a Target). `order` keeps the drawing order
 * (bottom to top) among shapes of one row. */
typedef struct shape {
    tlv_time from, to;
    uint32_t row;
    uint32_t prim;
    uint32_t rule;
    uint32_t event;
    uint32_t resource;
    uint32_t order;
} shape;

typedef struct store store;

/* An empty store; add shapes, then freeze it before querying. */
store *store_new(void);
void store_free(store *s);

/* A view of the frozen store `base` (which must outlive it and stay
 * frozen): a store holding no shapes of its own, only references to base's,
 * each on a row of the view's own (store_add_ref) — 4 bytes a shape where a
 * copy would take sizeof(shape). Frozen and read like any store, except that
 * store_get and the shapes visited give the base's shapes as they are, with
 * the base's `row`. NULL when base is not frozen, is a view, or no memory. */
store *store_new_view(const store *base);

/* Adds base's shape at position `pos` (store_get order) to a view, on row
 * `row`; any order (a view's canonical order is by row, then position in
 * base). Returns 0 or -1 (no memory, not a view, frozen, or a bad pos). */
int store_add_ref(store *s, size_t pos, uint32_t row);

/* Makes room for n more references in a view and gives where they go:
 * the caller writes each one's base position into (*pos)[k] and its row
 * into (*row)[k], k < n, before anything else is done to the view (threads
 * may fill parts of them at once). Written in canonical order (by row, then
 * position), the freeze need not sort them. Returns 0 or -1 (as
 * store_add_ref). */
int store_add_refs(store *s, size_t n, uint32_t **pos, uint32_t **row);

/* Appends a shape (any order). Returns 0 or -1 (no memory). Not allowed
 * after store_freeze. */
int store_add(store *s, const shape *sh);

/* Frozen stores whose packed shapes take at least `bytes` keep them in a
 * temporary file mapped into memory (bulk.h); BULK_MIN_BYTES unless set
 * (tests set 0 to exercise it on small stores). Before store_freeze. */
void store_set_file_min(store *s, size_t bytes);

/* A store that is only listed (store_count, store_get, store_rows), never
 * searched nor summarised: store_freeze sorts and packs the shapes but
 * builds no search trees, order by end or pyramids, so store_query and
 * store_summary find nothing and store_count_overlapping counts 0 in it
 * (tlv_shapes_options.listing_only). Before store_freeze; not for a view. */
void store_set_listing_only(store *s);

/* The trace's TimeRadix, needed to place fractional times in the summaries
 * built by store_freeze; call before it (default 10). A summary asked in
 * another radix is still right, but computed from the shapes. */
void store_set_radix(store *s, int radix);

/* The threads store_freeze sorts, indexes and summarises on, row by row
 * (parfor.h); 1 (the default) is the calling thread alone. The frozen store
 * is the same on any number. A view (store_new_view) starts with its base's.
 * Before store_freeze. */
void store_set_threads(store *s, int threads);
int store_threads(const store *s);

/* Sorts and indexes. `prim_fill` gives, per primitive index, the value (an
 * ARGB color, or a look id of summary.h) a summary should show for it (0 =
 * draws nothing worth summarising, e.g. text), used to build the per-row
 * summaries; equal values vote together. Returns 0 or -1. */
int store_freeze(store *s, const uint32_t *prim_fill, size_t nprims);

/* Before store_freeze: per primitive index, the part of a shape's [from, to]
 * its summary counts, as fractions x0[i] <= x1[i] of it in [0, 1] (equal:
 * the instant there). Primitives not given count their whole span. Returns
 * 0 or -1 (no memory, or frozen already). */
int store_set_extents(store *s, const float *x0, const float *x1, size_t nprims);


/* What the store holds, in bytes, for memory accounting: its shapes, the
 * per-row search indexes, and the summary pyramids, in memory; and `file`,
 * the part of the shapes kept in a temporary file mapped into memory
 * (bulk.h; large frozen stores). */
typedef struct store_bytes {
    size_t shapes, index, pyramids, file;
} store_bytes;
void store_count_bytes(const store *s, store_bytes *out);

/* A hash of everything store_freeze made: the shapes in canonical order,
 * the rows, the search trees, the order by end and the pyramids. Equal for
 * stores frozen from the same shapes alike (tests compare freezes on one
 * and on several threads). 0 when not frozen. */
uint64_t store_digest(const store *s);

size_t store_count(const store *s);
/* Shape i in canonical order (by row, then from, then order), copied into
 * *out (the store keeps shapes more compactly than `shape`). Returns out, or
 * NULL when i >= store_count. */
const shape *store_get(const store *s, size_t i, shape *out);

/* A frozen store's rows (store_rows of them) by their number of shapes,
 * most first, equal counts by index: the order in which row-by-row work
 * on several threads (parfor.h) balances best. Allocated (free it); NULL
 * when memory ran out or the store is not frozen. */
uint32_t *store_rows_longest_first(const store *s);

/* The positions of a frozen store's row: first .. first + count - 1
 * (count 0 for a row without shapes or out of range). */
void store_row_span(const store *s, uint32_t row, size_t *first, size_t *count);

/* The prim and order of the shape at position i (store_get's i, i below
 * store_count), without the rest of it. */
void store_prim_order(const store *s, size_t i, uint32_t *prim, uint32_t *order);

/* Number of rows that have shapes (row indexes are 0..store_rows()-1; a row
 * may be empty). */
uint32_t store_rows(const store *s);

/* Calls fn for every shape of `row` whose [from, to] overlaps [t0, t1]
 * (inclusive), in drawing order, with a copy of the shape (valid during the
 * call) and its position (store_get's i). fn returns 0 to go on.
 * O(log n + k). */
typedef int (*store_visit_fn)(void *ctx, const shape *sh, size_t pos);
void store_query(const store *s, uint32_t row, tlv_time t0, tlv_time t1, store_visit_fn fn,
                 void *ctx);

/* Counts the shapes of `row` overlapping [t0, t1] without visiting them,
 * as cheaply as store_query (used to decide whether to draw a summary). */
size_t store_count_overlapping(const store *s, uint32_t row, tlv_time t0, tlv_time t1);

/* Fills out[0..ncols-1] with one value per pixel column of `row` for
 * the time range [t0, t1] split into ncols equal columns: the prim_fill
 * value of the shapes covering most of that column (0 = nothing there). Cost
 * O(ncols * log n) whatever the number of shapes. */
void store_summary(const store *s, uint32_t row, double t0, double t1, int radix,
                   uint32_t *out, size_t ncols);

#endif
