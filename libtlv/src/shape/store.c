/*
 * store.c — the shape store (store.h): owns the shapes, kept in one array,
 * and the read-only per-row indexes store_freeze builds over them.
 *
 * Overlap index. Frozen, a row's shapes sit at positions first..first+count-1
 * sorted by `from`. The shapes overlapping [t0, t1] are those at positions
 * <= B (the last one with from <= t1) that end at or after t0: a three-sided query,
 * answered by a priority search tree in O(log n + k). The tree is a complete
 * binary tree in heap layout (children of node i: 2i+1, 2i+2), one node per
 * shape. A node holds the shape ending latest among its subtree's shapes not
 * held higher up, and the smallest position in its subtree; the subtree's
 * other shapes are split by position, lower ones to the left. A search stops
 * at a node whose shape ends before t0 (nothing below ends later) or whose
 * smallest position is past B. Every other node either reports its shape or
 * straddles B, and at most one node per depth straddles B.
 * Counting does not walk the tree: as no shape ends before it starts, the
 * overlapping shapes are those with from <= t1 less those ending before t0 —
 * two binary searches, the second in the row's positions sorted by end.
 * A shape whose `to` is before its `from` is the instant `from`, here and in
 * summaries alike (the index uses max(from, to) as its end). A window with
 * t0 > t1 is empty. Shapes equal in (row, from, order) stay in the order
 * they were added.
 *
 * Summary rule. A shape whose prim_fill is not 0 is a candidate for a time
 * span [a, b) when its extent meets the span: the extent is [from, to) when
 * to > from, the instant `from` otherwise, narrowed to the fractions of it
 * store_set_extents gave its primitive (an instant when they are equal). Its coverage is the length of the
 * intersection (0 for an instant). The span's color is the fill of the
 * candidate with the largest coverage; equal coverage goes to the higher
 * `order` (drawn later, on top); no candidate gives 0. Summary columns are
 * such spans, [c0, c1), except that the last also holds instants at its end.
 *
 * Summaries. A column [c0, c1) of a summary gets exactly that rule, computed
 * from the shapes in view, when that is cheap: at most 4 shapes of the row in
 * view per column, or 64 per column when columns are narrower than the
 * pyramid's finest buckets (below). Otherwise the color comes from the row's
 * pyramid, built at freeze: N = 2^K equal buckets over the row's span
 * [first from, last end] and half a bucket more, N the least power of two
 * >= the row's shape count, at most 65536 — or, for a row of more than
 * 16 * 65536 shapes, >= a sixteenth of its count, at most 2^20; level L has
 * N/2^L buckets, each the union of two of level L-1: 2N nodes of 16 bytes,
 * fewer than 4 per shape. Every bucket of every level keeps the rule's winner, computed
 * exactly, the part of the bucket the winner covers, and the hull of the
 * parts all its candidates cover (both in 16-bit fractions of the bucket).
 * A column uses the coarsest level whose bucket width is <= the column width
 * (level 0 when none is). Each bucket meeting the column votes for its
 * winner's color: weighted by the length of the winner's part inside the
 * column; with weight 0 when only other candidates reach inside (something
 * is there; the winner's color is the best guess); not at all when nothing
 * reaches inside. Votes add up per color, the largest sum wins, equal sums
 * go to the color whose voters include the higher order. With buckets no
 * wider than the column, a column is colored exactly when some candidate
 * reaches into it (to 16-bit rounding), and only with the color of a shape
 * within one column of it. At most three buckets meet a column: a pyramid
 * summary costs O(ncols), an exact one O(ncols log ncols).
 *
 * A row whose filled shapes all have one fill (a summary layer's row) needs
 * only whether a column has a candidate: with more than one shape in view
 * per 4 columns it uses the pyramid whenever its buckets are no wider than
 * the columns (exact then, to 16-bit rounding, and far fewer bytes to read
 * than its shapes), and otherwise counts per column the runs of columns its
 * candidates meet; a pyramid column asks only whether some bucket would
 * vote.
 *
 * Threads. Rows are independent once the shapes are added: sorting a row,
 * its search tree, its order by end and its pyramid read the shapes and
 * write only the row's own slices, so store_freeze does them row by row on
 * store_set_threads threads (parfor.h), longest rows first; packing goes by
 * pieces of positions the same way. Nothing depends on which thread did
 * what: the frozen store is the same on any number (store_digest).
 *
 * Times become doubles with tlv_time_to_double in the radix store_set_radix
 * gave (10 by default). A summary asked in another radix, for a row with
 * fractional times, cannot use the pyramid and is computed exactly from the
 * shapes, at a cost in proportion to the shapes in view.
 */
#include "shape/store.h"

#include "base/assert.h"
#include "base/buf.h"
#include "base/bulk.h"
#include "base/parfor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_RADIX 10
#define SUMMARY_MAX_BUCKETS 65536u
/* Past 16 * 65536 shapes, a row's buckets hold about 16 shapes each, up to
 * 2^20 buckets: with 150 shapes a bucket (a 10M-shape row of a 100M-line
 * log), zoomed in to a fiftieth of the trace the columns were narrower than
 * the buckets, and each frame computed its summaries from 100k shapes a
 * layer (a tenth of a second). 1 to 2 bytes a shape (slim buckets). */
#define SUMMARY_SHAPES_PER_BIG_BUCKET 16u
#define SUMMARY_MAX_BIG_BUCKETS (1u << 20)
#define EXACT_SHAPES_PER_COLUMN 4
#define EXACT_SHAPES_PER_FINE_COLUMN 64
#define EXACT_ONE_COLOR_PER_COLUMNS 4 /* a one-colour row: exact up to 1 shape per 4 columns */
#define EXACT_MAX_COLUMNS (1u << 24)
#define QUERY_STACK_KEYS 256

/* A bucket of a pyramid: where its winner lies within it, and the hull of
 * where all its candidates lie, in 1/65535ths of the bucket. */
typedef struct kept_bucket {
    uint16_t w0, w1;
    uint16_t o0, o1;
    uint32_t order;
    uint32_t color; /* the winner's fill; 0 = no candidate */
} kept_bucket;

/* A bucket of a row whose shapes all have one fill (as a summary layer's
 * do): its color is the row's and `order` decides nothing (votes of one
 * color add up), so half the size. Empty (no candidate): w0 > w1, which a
 * kept winner never has. */
typedef struct slim_bucket {
    uint16_t w0, w1;
    uint16_t o0, o1;
} slim_bucket;

typedef struct row_index {
    uint32_t first, count;  /* shapes[first .. first + count) */
    int has_fraction;       /* some time has a fraction, so its double depends on the radix */
    kept_bucket *pyramid;   /* 2 * nbuckets nodes, root at 1; NULL when nothing is filled */
    slim_bucket *slim;      /* instead, when the row has one fill: `color` */
    uint32_t color;         /* the fill of all its filled shapes when they have one (a
                               summary layer's row), else 0 */
    uint32_t nbuckets;
    int levels;
    double base, bucket_width; /* level 0 bucket j spans base + j * bucket_width */
} row_index;

/* A shape as store_add takes it in, 40 bytes, kept until store_freeze
 * packs the shapes into columns (below); the fractions of its times (rare:
 * most traces have whole times) are kept apart, in store.frac, only when
 * some shape has one. */
typedef struct kept_shape {
    int64_t from, to; /* whole ticks */
    uint32_t row, prim, rule, event, resource, order;
} kept_shape;

/* Frozen, a store keeps its shapes in canonical order as columns, about 18
 * bytes a shape where kept_shape takes 40: the row is implicit (a row's
 * shapes are consecutive, row_index.first), the times are 32-bit offsets
 * from a 64-bit base per block of TIME_BLOCK positions (a block whose times
 * span 2^32 ticks or more keeps them whole, in `wide`), and prim, rule,
 * event and resource take 1, 2 or 4 bytes each, as the largest needs. */
#define TIME_BLOCK_SHIFT 6
#define TIME_BLOCK (1u << TIME_BLOCK_SHIFT)
#define NOT_WIDE UINT32_MAX

/* A column of 32-bit values kept in the fewest bytes that hold v + 1 for
 * every v (so UINT32_MAX, "none", costs nothing). */
typedef struct packed {
    void *at;
    unsigned width; /* 1, 2 or 4 */
} packed;

static inline uint32_t packed_get(const packed *c, size_t i)
{
    switch (c->width) {
    case 1:
        return (uint32_t)((const uint8_t *)c->at)[i] - 1u;
    case 2:
        return (uint32_t)((const uint16_t *)c->at)[i] - 1u;
    default:
        return ((const uint32_t *)c->at)[i] - 1u;
    }
}

static inline void packed_set(packed *c, size_t i, uint32_t v)
{
    switch (c->width) {
    case 1:
        ((uint8_t *)c->at)[i] = (uint8_t)(v + 1u);
        break;
    case 2:
        ((uint16_t *)c->at)[i] = (uint16_t)(v + 1u);
        break;
    default:
        ((uint32_t *)c->at)[i] = v + 1u;
    }
}

/* The width that holds v + 1 for every v whose largest v + 1 is `top`. */
static unsigned packed_width(uint32_t top)
{
    return top <= UINT8_MAX ? 1 : top <= UINT16_MAX ? 2 : 4;
}

typedef struct columns_of_shapes {
    int64_t *base;     /* per block: the least whole tick of its times */
    uint32_t *wide_at; /* per block: where its times start in `wide`, or NOT_WIDE */
    int64_t *wide;     /* the wide blocks' times, two (from, to) a position */
    size_t nwide;      /* wide blocks */
    uint32_t *off;     /* per position, two: from and to less the block's base */
    uint32_t *order;
    packed prim, rule, event, resource;
    bulk file;         /* off, order and the packed columns, once large and
                          frozen, in a temporary file (bulk.h), or nothing */
} columns_of_shapes;

struct store {
    kept_shape *shapes;   /* the shapes added, until store_freeze packs them */
    size_t n, cap;
    bulk added_file;      /* `shapes` once past file_min: in a temporary file
                             (bulk.h), so that the shapes added before the
                             freeze are not anonymous memory; or nothing */
    columns_of_shapes col; /* the shapes once packed (col.order set) */
    uint64_t *frac;       /* by position, two each (from, to): the times'
                             fractions; NULL while every one is 0 */
    size_t frac_cap;      /* shapes frac has room for */
    int frozen;
    int listing_only;     /* store_set_listing_only: frozen without indexes */
    int radix;
    int threads;          /* store_set_threads */
    uint32_t *row_order;  /* while freezing: the rows, longest first */
    size_t file_min;      /* packed shapes this large go to a file (store_set_file_min) */
    uint32_t nrows;
    row_index *rows;
    uint32_t *tree_shape; /* per row, the search tree: the position each node holds */
    uint32_t *tree_min;   /* the smallest position in the node's subtree */
    uint32_t *by_end;     /* per row, its positions sorted by end_of() */
    uint32_t *fill;       /* prim_fill, copied */
    size_t nfill;
    float *extent;        /* per primitive, 2 fractions of [from, to] (store_set_extents) */
    size_t nextent;
    void *pyramids;        /* every row's pyramid, in one block */
    /* A view (store_new_view) keeps no shapes of its own: its shape i is
     * base->shapes[sel[i]], on row sel_row[i] (kept only until frozen). */
    const store *base;
    uint32_t *sel, *sel_row;
};

/* Where shape i of the store is kept: in the store's own arrays, or in
 * its base's at a position of its own. */
static inline const store *keeper(const store *s) { return s->base ? s->base : s; }
static inline size_t kept_at(const store *s, size_t i) { return s->base ? s->sel[i] : i; }

/* Whole tick `which` (0 from, 1 to) of the shape kept at p. */
static inline int64_t ticks_kept(const store *k, size_t p, int which)
{
    if (k->shapes)
        return which ? k->shapes[p].to : k->shapes[p].from;
    size_t b = p >> TIME_BLOCK_SHIFT;
    uint32_t w = k->col.wide_at[b];
    if (w != NOT_WIDE)
        return k->col.wide[(size_t)w + 2 * (p & (TIME_BLOCK - 1)) + (size_t)which];
    return (int64_t)((uint64_t)k->col.base[b] + k->col.off[2 * p + (size_t)which]);
}

static inline tlv_time from_at(const store *s, size_t i)
{
    const store *k = keeper(s);
    size_t p = kept_at(s, i);
    return (tlv_time){ticks_kept(k, p, 0), k->frac ? k->frac[2 * p] : 0};
}

static inline tlv_time to_at(const store *s, size_t i)
{
    const store *k = keeper(s);
    size_t p = kept_at(s, i);
    return (tlv_time){ticks_kept(k, p, 1), k->frac ? k->frac[2 * p + 1] : 0};
}

/* Where shape i ends: a shape ending before it starts is the instant `from`. */
static inline tlv_time end_at(const store *s, size_t i)
{
    tlv_time from = from_at(s, i), to = to_at(s, i);
    return tlv_time_cmp(to, from) < 0 ? from : to;
}

static inline uint32_t order_at(const store *s, size_t i)
{
    const store *k = keeper(s);
    size_t p = kept_at(s, i);
    return k->shapes ? k->shapes[p].order : k->col.order[p];
}

static inline uint32_t prim_at(const store *s, size_t i)
{
    const store *k = keeper(s);
    size_t p = kept_at(s, i);
    return k->shapes ? k->shapes[p].prim : packed_get(&k->col.prim, p);
}

/* The row of the shape kept at p, in a store that is not a view: once
 * packed, the row whose positions hold p (rows' `first` never decrease). */
static uint32_t row_kept(const store *k, size_t p)
{
    if (k->shapes)
        return k->shapes[p].row;
    uint32_t lo = 0, hi = k->nrows; /* the last row with first <= p */
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (k->rows[mid].first <= p)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Shape i of the store, whole (a view's: its base's, with the base's row). */
static inline shape shape_at(const store *s, size_t i)
{
    const store *k = keeper(s);
    size_t p = kept_at(s, i);
    if (k->shapes) {
        const kept_shape *ks = &k->shapes[p];
        return (shape){from_at(s, i), to_at(s, i), ks->row, ks->prim, ks->rule, ks->event,
                       ks->resource, ks->order};
    }
    return (shape){from_at(s, i),
                   to_at(s, i),
                   row_kept(k, p),
                   packed_get(&k->col.prim, p),
                   packed_get(&k->col.rule, p),
                   packed_get(&k->col.event, p),
                   packed_get(&k->col.resource, p),
                   k->col.order[p]};
}

/* What a summary reads of shape i: its times, primitive and order (row,
 * rule, event and resource left 0). Each of those is a column of its own,
 * far from the others in a store of millions of shapes, so a summary that
 * reads them all touches twice the pages (and on a big trace whose pages
 * the kernel dropped, reads them back from disk) for nothing. */
static inline shape summary_shape_at(const store *s, size_t i)
{
    return (shape){from_at(s, i), to_at(s, i), 0, prim_at(s, i), 0, 0, 0, order_at(s, i)};
}

/* The row shape i is on, before store_freeze: a view puts its base's
 * shapes on rows of its own. */
static uint32_t row_at(const store *s, size_t i)
{
    return s->base ? s->sel_row[i] : row_kept(s, i);
}

static void free_columns(columns_of_shapes *c)
{
    free(c->base);
    free(c->wide_at);
    free(c->wide);
    if (c->file.at) {
        bulk_free(&c->file);
    } else {
        free(c->off);
        free(c->order);
        free(c->prim.at);
        free(c->rule.at);
        free(c->event.at);
        free(c->resource.at);
    }
    memset(c, 0, sizeof *c);
}

/* The columns of n shapes a file can hold (bulk_keep's parts), with their
 * sizes; returns how many. */
static size_t file_parts(columns_of_shapes *c, size_t n, void ***at, size_t *sizes)
{
    void **cols[] = {(void **)&c->off, (void **)&c->order, &c->prim.at, &c->rule.at,
                     &c->event.at, &c->resource.at};
    size_t bytes[] = {(2 * n + 1) * sizeof *c->off, (n + 1) * sizeof *c->order,
                      (n + 1) * c->prim.width, (n + 1) * c->rule.width,
                      (n + 1) * c->event.width, (n + 1) * c->resource.width};
    for (size_t i = 0; i < 6; i++) {
        at[i] = cols[i];
        sizes[i] = bytes[i];
    }
    return 6;
}

/* Frozen and large, the columns move to a temporary file (bulk.h): a frame
 * reads the pages of the shapes in view, and the kernel can drop the others
 * when it needs memory. Stays in memory when no file can be had. */
static void keep_columns_in_file(store *s)
{
    columns_of_shapes *c = &s->col;
    void **at[6];
    size_t sizes[6];
    size_t n = file_parts(c, s->n, at, sizes);
    if (c->file.at || !c->order || bulk_offset(sizes, n) < s->file_min)
        return;
    const void *parts[6];
    for (size_t i = 0; i < n; i++)
        parts[i] = *at[i];
    if (bulk_keep(&c->file, parts, sizes, n) < 0)
        return;
    for (size_t i = 0; i < n; i++) {
        free(*at[i]);
        *at[i] = (char *)c->file.at + bulk_offset(sizes, i);
    }
}

/* ---- building ------------------------------------------------------------ */

store *store_new(void)
{
    store *s = calloc(1, sizeof *s);
    if (s) {
        s->radix = DEFAULT_RADIX;
        s->threads = 1;
        s->file_min = BULK_MIN_BYTES;
    }
    return s;
}

store *store_new_view(const store *base)
{
    if (!base || !base->frozen || base->base)
        return NULL;
    store *s = store_new();
    if (s) {
        s->base = base;
        s->threads = base->threads;
    }
    return s;
}

int store_add_ref(store *s, size_t pos, uint32_t row)
{
    if (!s || !s->base || s->frozen || pos >= s->base->n || row == UINT32_MAX ||
        s->n >= UINT32_MAX - 1)
        return -1;
    size_t cap = s->cap;
    if (GROW(s->sel, cap, s->n + 1) < 0 || GROW(s->sel_row, s->cap, s->n + 1) < 0)
        return -1;
    s->sel[s->n] = (uint32_t)pos;
    s->sel_row[s->n++] = row;
    return 0;
}

int store_add_refs(store *s, size_t n, uint32_t **pos, uint32_t **row)
{
    if (!s || !s->base || s->frozen || n >= UINT32_MAX - 1 - s->n)
        return -1;
    if (n == 0) { /* no layer shapes (an empty trace): sel may be NULL, no room to point at */
        *pos = *row = NULL;
        return 0;
    }
    size_t cap = s->cap;
    if (GROW(s->sel, cap, s->n + n) < 0 || GROW(s->sel_row, s->cap, s->n + n) < 0)
        return -1;
    *pos = s->sel + s->n;
    *row = s->sel_row + s->n;
    s->n += n;
    return 0;
}

void store_set_file_min(store *s, size_t bytes)
{
    if (s && !s->frozen)
        s->file_min = bytes;
}

void store_set_listing_only(store *s)
{
    if (s && !s->frozen && !s->base)
        s->listing_only = 1;
}

void store_set_radix(store *s, int radix)
{
    if (s && !s->frozen)
        s->radix = radix;
}

void store_set_threads(store *s, int threads)
{
    if (s && !s->frozen)
        s->threads = threads > 1 ? threads : 1;
}

int store_threads(const store *s) { return s ? s->threads : 1; }

/* Frees what store_freeze builds over the shapes; a store whose shapes are
 * packed keeps its rows, which say where they are. */
static void drop_index(store *s)
{
    if (!s->col.order) {
        free(s->rows);
        s->rows = NULL;
        s->nrows = 0;
    }
    for (uint32_t r = 0; s->rows && r < s->nrows; r++) {
        s->rows[r].pyramid = NULL;
        s->rows[r].slim = NULL;
        s->rows[r].nbuckets = 0;
    }
    free(s->tree_shape);
    free(s->tree_min);
    free(s->by_end);
    free(s->fill);
    free(s->pyramids);
    free(s->row_order);
    s->row_order = NULL;
    s->tree_shape = s->tree_min = s->by_end = s->fill = NULL;
    s->pyramids = NULL;
    s->nfill = 0;
}

void store_free(store *s)
{
    if (!s)
        return;
    free_columns(&s->col); /* first: drop_index keeps the rows of packed shapes */
    drop_index(s);
    free(s->extent);
    BULK_RELEASE(s->added_file, s->shapes);
    free(s->frac);
    free(s->sel);
    free(s->sel_row);
    free(s);
}

/* Makes the fractions column as long as the shapes array, zeroed past
 * what it held. */
static int keep_fractions(store *s)
{
    if (s->frac && s->frac_cap >= s->cap)
        return 0;
    uint64_t *f = realloc(s->frac, 2 * s->cap * sizeof *f);
    if (!f)
        return -1;
    memset(f + 2 * s->frac_cap, 0, 2 * (s->cap - s->frac_cap) * sizeof *f);
    s->frac = f;
    s->frac_cap = s->cap;
    return 0;
}

int store_add(store *s, const shape *sh)
{
    /* Positions are 32-bit, and UINT32_MAX is no row. */
    if (!s || s->frozen || s->base || s->col.order || s->n >= UINT32_MAX - 1 ||
        sh->row == UINT32_MAX)
        return -1;
    /* Past file_min bytes the shapes as added grow in a temporary file
     * (bulk.h), as a trace's events do: at 100M lines they are 4.7 GB,
     * which anonymous memory (no swap) would hold to the end of the freeze. */
    if (BULK_GROW(s->added_file, s->shapes, s->cap, s->n + 1, s->file_min) < 0)
        return -1;
    if ((s->frac || sh->from.frac || sh->to.frac) && keep_fractions(s) < 0)
        return -1;
    if (s->frac) {
        s->frac[2 * s->n] = sh->from.frac;
        s->frac[2 * s->n + 1] = sh->to.frac;
    }
    s->shapes[s->n++] = (kept_shape){sh->from.ticks, sh->to.ticks, sh->row, sh->prim, sh->rule,
                                     sh->event, sh->resource, sh->order};
    return 0;
}

/* ---- sorting ------------------------------------------------------------------ */

/* What the store sorts by: (major, time, minor, then pos), compared inline —
 * qsort's indirect calls on whole shapes were most of a freeze. `pos`, the
 * index before sorting, makes equal keys come out the same on every run. */
typedef struct sort_key {
    int64_t ticks;
    uint64_t frac;
    uint32_t major, minor;
    uint32_t pos;
} sort_key;

static int key_less(const sort_key *a, const sort_key *b)
{
    if (a->major != b->major)
        return a->major < b->major;
    if (a->ticks != b->ticks)
        return a->ticks < b->ticks;
    if (a->frac != b->frac)
        return a->frac < b->frac;
    if (a->minor != b->minor)
        return a->minor < b->minor;
    return a->pos < b->pos;
}

#define SORT_RUN 16

static void insertion_sort(sort_key *k, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        sort_key v = k[i];
        size_t j = i;
        for (; j > 0 && key_less(&v, &k[j - 1]); j--)
            k[j] = k[j - 1];
        k[j] = v;
    }
}

static void merge_runs(const sort_key *src, sort_key *dst, size_t lo, size_t mid, size_t hi)
{
    size_t i = lo, j = mid, o = lo;
    if (mid == hi || !key_less(&src[mid], &src[mid - 1])) { /* in order already */
        memcpy(dst + lo, src + lo, (hi - lo) * sizeof *dst);
        return;
    }
    while (i < mid && j < hi)
        dst[o++] = key_less(&src[j], &src[i]) ? src[j++] : src[i++];
    memcpy(dst + o, src + i, (mid - i) * sizeof *dst);
    o += mid - i;
    memcpy(dst + o, src + j, (hi - j) * sizeof *dst);
}

static size_t min_size(size_t a, size_t b) { return a < b ? a : b; }

/* Sorts keys[0..n) using tmp[0..n) and bounds[0..n/SORT_RUN + 2), keys
 * all different (pos). A natural merge sort: the runs already in order are
 * found first (shorter ones made SORT_RUN long by insertion), then merged
 * in pairs until one is left. A row's shapes come from a few rule units,
 * each made in the order of its events, and their ends mostly follow their
 * starts: a few long runs, merged in a few passes, where merging pieces of
 * 16 took a pass per doubling over the whole row (20 at 6M shapes, past
 * what the caches hold: the freeze grew faster than the shapes). */
static void sort_keys(sort_key *keys, sort_key *tmp, uint32_t *bounds, size_t n)
{
    if (n < 2)
        return;
    size_t nruns = 0;
    for (size_t lo = 0; lo < n;) {
        size_t hi = lo + 1;
        while (hi < n && key_less(&keys[hi - 1], &keys[hi]))
            hi++;
        if (hi - lo < SORT_RUN) {
            hi = min_size(lo + SORT_RUN, n);
            insertion_sort(keys + lo, hi - lo);
        }
        bounds[nruns++] = (uint32_t)lo;
        lo = hi;
    }
    bounds[nruns] = (uint32_t)n;
    sort_key *src = keys, *dst = tmp;
    while (nruns > 1) {
        size_t merged = 0;
        for (size_t r = 0; r < nruns; r += 2, merged++) {
            size_t lo = bounds[r], mid = bounds[min_size(r + 1, nruns)];
            size_t hi = bounds[min_size(r + 2, nruns)];
            merge_runs(src, dst, lo, mid, hi);
            bounds[merged] = (uint32_t)lo;
        }
        bounds[merged] = (uint32_t)n;
        nruns = merged;
        sort_key *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys)
        memcpy(keys, src, n * sizeof *keys);
}

/* ---- per row, on several threads -------------------------------------------- */

/* The steps of a freeze that go row by row (sorting a row, its search tree,
 * its pyramid) read the shapes and write only the row's own positions of the
 * shared arrays (and its row_index), so the rows are handed to parfor_run's
 * workers (store_set_threads), longest first; each worker grows scratch
 * space of its own. What a row gets does not depend on which thread made
 * it, so the frozen store is the same on any number of threads. */
typedef struct bucket bucket;
typedef struct cover cover;

typedef struct scratch {
    sort_key *keys, *tmp;
    uint32_t *run;
    size_t len;   /* keys, tmp and run hold this many */
    bucket *node;
    cover *full;
    size_t nodes; /* node and full hold this many */
} scratch;

/* Makes keys, tmp and run hold at least len. */
static int scratch_for_row(scratch *sc, size_t len)
{
    if (len <= sc->len)
        return 0;
    free(sc->keys);
    free(sc->tmp);
    free(sc->run);
    sc->keys = malloc(len * sizeof *sc->keys);
    sc->tmp = malloc(len * sizeof *sc->tmp);
    sc->run = malloc(len * sizeof *sc->run);
    sc->len = sc->keys && sc->tmp && sc->run ? len : 0;
    return sc->len ? 0 : -1;
}

static void scratch_free(scratch *sc)
{
    free(sc->keys);
    free(sc->tmp);
    free(sc->run);
    free(sc->node);
    free(sc->full);
}

/* A step applied to one row: 0, or -1 (no memory). */
typedef int (*row_step)(store *s, row_index *r, scratch *sc, void *arg);

typedef struct row_pass {
    store *s;
    row_step step;
    void *arg;
    scratch *sc; /* per worker */
} row_pass;

static int row_piece(void *ctx, size_t item, int worker)
{
    row_pass *p = ctx;
    return p->step(p->s, &p->s->rows[p->s->row_order[item]], &p->sc[worker], p->arg);
}

static int longer_row(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* The rows (s->nrows of them, counts in s->rows) by count, longest first,
 * equal counts by index: the order parfor_run balances best. */
static uint32_t *rows_longest_first(const store *s)
{
    uint64_t *keys = malloc(((size_t)s->nrows + 1) * sizeof *keys);
    uint32_t *order = malloc(((size_t)s->nrows + 1) * sizeof *order);
    if (!keys || !order) {
        free(keys);
        free(order);
        return NULL;
    }
    for (uint32_t r = 0; r < s->nrows; r++)
        keys[r] = (uint64_t)(UINT32_MAX - s->rows[r].count) << 32 | r;
    qsort(keys, s->nrows, sizeof *keys, longer_row);
    for (uint32_t r = 0; r < s->nrows; r++)
        order[r] = (uint32_t)keys[r];
    free(keys);
    return order;
}

uint32_t *store_rows_longest_first(const store *s)
{
    return s && s->frozen && (s->rows || !s->nrows) ? rows_longest_first(s) : NULL;
}

/* s->row_order, while freezing. */
static int order_rows(store *s)
{
    s->row_order = rows_longest_first(s);
    return s->row_order ? 0 : -1;
}

/* Applies step to every row, on the store's threads. */
static int for_each_row(store *s, row_step step, void *arg)
{
    if (!s->row_order && order_rows(s) < 0)
        return -1;
    int workers = parfor_workers(s->threads, s->nrows);
    scratch *sc = calloc((size_t)workers, sizeof *sc);
    if (!sc)
        return -1;
    row_pass p = {s, step, arg, sc};
    int rc = parfor_run(s->threads, s->nrows, row_piece, &p);
    for (int i = 0; i < workers; i++)
        scratch_free(&sc[i]);
    free(sc);
    return rc;
}

/* Sorts a row's part of perm (positions in the order added) by (from,
 * order, position added). */
static int sort_row(store *s, row_index *row, scratch *sc, void *arg)
{
    uint32_t *perm = arg;
    if (scratch_for_row(sc, row->count) < 0)
        return -1;
    sort_key *keys = sc->keys;
    for (uint32_t j = 0; j < row->count; j++) {
        uint32_t i = perm[row->first + j];
        keys[j] = (sort_key){s->shapes[i].from, s->frac ? s->frac[2 * (size_t)i] : 0, 0,
                             s->shapes[i].order, i};
    }
    sort_keys(keys, sc->tmp, sc->run, row->count);
    for (uint32_t j = 0; j < row->count; j++)
        perm[row->first + j] = keys[j].pos;
    return 0;
}

/* Canonical order, found without a second copy of the shapes: a counting
 * sort by row into `perm` (positions in the order added), then each row's
 * part sorted by (from, order, position added), with keys for the longest
 * row only. perm[i] is then the shape added that goes at position i. Fills
 * in the rows' first and count. Returns 0 or -1 (no memory). */
static int sort_canonical(store *s, uint32_t *perm)
{
    uint32_t nrows = 0;
    for (size_t i = 0; i < s->n; i++)
        nrows = s->shapes[i].row + 1 > nrows ? s->shapes[i].row + 1 : nrows;
    s->rows = calloc(nrows ? nrows : 1, sizeof *s->rows);
    if (!s->rows)
        return -1;
    s->nrows = nrows;
    for (size_t i = 0; i < s->n; i++)
        s->rows[s->shapes[i].row].count++;
    uint32_t next = 0;
    for (uint32_t r = 0; r < nrows; r++) {
        s->rows[r].first = next; /* an empty row's too: `first` never decreases */
        next += s->rows[r].count;
        s->rows[r].count = 0;
    }
    for (size_t i = 0; i < s->n; i++) {
        row_index *r = &s->rows[s->shapes[i].row];
        perm[r->first + r->count++] = (uint32_t)i;
    }
    return for_each_row(s, sort_row, perm);
}

/* Allocates the columns for n shapes whose prim, rule, event and resource
 * + 1 are at most top[0..3]. */
static int alloc_columns(columns_of_shapes *c, size_t n, const uint32_t top[4])
{
    size_t blocks = (n + TIME_BLOCK - 1) / TIME_BLOCK + 1;
    packed *p[4] = {&c->prim, &c->rule, &c->event, &c->resource};
    c->base = malloc(blocks * sizeof *c->base);
    c->wide_at = malloc(blocks * sizeof *c->wide_at);
    c->off = malloc((2 * n + 1) * sizeof *c->off);
    c->order = malloc((n + 1) * sizeof *c->order);
    int ok = c->base && c->wide_at && c->off && c->order;
    for (int k = 0; k < 4; k++) {
        p[k]->width = packed_width(top[k]);
        p[k]->at = malloc((n + 1) * p[k]->width);
        ok = ok && p[k]->at;
    }
    return ok ? 0 : -1;
}

/* Packing goes by pieces of this many positions (whole blocks), on the
 * store's threads: each piece writes only its own positions and blocks. */
#define PACK_PIECE_BLOCKS 256u
#define PACK_PIECE ((size_t)TIME_BLOCK * PACK_PIECE_BLOCKS)

typedef struct pack_work {
    store *s;
    const uint32_t *perm; /* position -> the shape added that goes there */
    uint64_t *frac;       /* the fractions in canonical order, or NULL */
} pack_work;

static size_t pack_pieces(size_t n) { return (n + PACK_PIECE - 1) / PACK_PIECE; }

/* Sets the base of each block of a piece, and marks (0) those whose times
 * do not fit 32-bit offsets from it. */
static int measure_blocks(void *ctx, size_t piece, int worker)
{
    (void)worker;
    const pack_work *pw = ctx;
    const store *s = pw->s;
    const columns_of_shapes *c = &s->col;
    for (size_t b = piece * PACK_PIECE_BLOCKS;
         b < (piece + 1) * PACK_PIECE_BLOCKS && b * TIME_BLOCK < s->n; b++) {
        size_t end = (b + 1) * TIME_BLOCK < s->n ? (b + 1) * TIME_BLOCK : s->n;
        int64_t lo = INT64_MAX, hi = INT64_MIN;
        for (size_t i = b * TIME_BLOCK; i < end; i++) {
            const kept_shape *k = &s->shapes[pw->perm[i]];
            int64_t a = k->from < k->to ? k->from : k->to, z = k->from < k->to ? k->to : k->from;
            lo = a < lo ? a : lo;
            hi = z > hi ? z : hi;
        }
        c->base[b] = lo;
        c->wide_at[b] = (uint64_t)hi - (uint64_t)lo > UINT32_MAX ? 0 : NOT_WIDE;
    }
    return 0;
}

/* Sets the base of every block of positions, marks the blocks whose times
 * do not fit 32-bit offsets from it, and makes room for those. */
static int place_blocks(store *s, const uint32_t *perm)
{
    columns_of_shapes *c = &s->col;
    pack_work pw = {s, perm, NULL};
    if (parfor_run(s->threads, pack_pieces(s->n), measure_blocks, &pw) < 0)
        return -1;
    size_t nwide = 0;
    for (size_t b = 0; b * TIME_BLOCK < s->n; b++) {
        if (c->wide_at[b] == NOT_WIDE)
            continue;
        c->wide_at[b] = (uint32_t)(nwide++ * 2 * TIME_BLOCK);
        if (nwide * 2 * TIME_BLOCK >= UINT32_MAX)
            return -1;
    }
    c->nwide = nwide;
    if (nwide && !(c->wide = malloc(nwide * 2 * TIME_BLOCK * sizeof *c->wide)))
        return -1;
    return 0;
}

/* Puts shape `from` of the shapes added at position i of the columns. */
static void pack_one(store *s, size_t i, const kept_shape *k)
{
    columns_of_shapes *c = &s->col;
    size_t b = i >> TIME_BLOCK_SHIFT;
    if (c->wide_at[b] != NOT_WIDE) {
        int64_t *w = &c->wide[(size_t)c->wide_at[b] + 2 * (i & (TIME_BLOCK - 1))];
        w[0] = k->from;
        w[1] = k->to;
        c->off[2 * i] = c->off[2 * i + 1] = 0;
    } else {
        c->off[2 * i] = (uint32_t)((uint64_t)k->from - (uint64_t)c->base[b]);
        c->off[2 * i + 1] = (uint32_t)((uint64_t)k->to - (uint64_t)c->base[b]);
    }
    c->order[i] = k->order;
    packed_set(&c->prim, i, k->prim);
    packed_set(&c->rule, i, k->rule);
    packed_set(&c->event, i, k->event);
    packed_set(&c->resource, i, k->resource);
}

/* Packs a piece's positions (and their fractions). */
static int pack_piece(void *ctx, size_t piece, int worker)
{
    (void)worker;
    const pack_work *pw = ctx;
    store *s = pw->s;
    size_t end = (piece + 1) * PACK_PIECE < s->n ? (piece + 1) * PACK_PIECE : s->n;
    for (size_t i = piece * PACK_PIECE; i < end; i++) {
        size_t from = pw->perm[i];
        pack_one(s, i, &s->shapes[from]);
        if (pw->frac) {
            pw->frac[2 * i] = s->frac[2 * from];
            pw->frac[2 * i + 1] = s->frac[2 * from + 1];
        }
    }
    return 0;
}

/* The largest v + 1 of the shapes' prim, rule, event and resource. */
static void column_tops(const store *s, uint32_t top[4])
{
    top[0] = top[1] = top[2] = top[3] = 0;
    for (size_t i = 0; i < s->n; i++) {
        const kept_shape *k = &s->shapes[i];
        uint32_t v[4] = {k->prim + 1u, k->rule + 1u, k->event + 1u, k->resource + 1u};
        for (int j = 0; j < 4; j++)
            top[j] = v[j] > top[j] ? v[j] : top[j];
    }
}

/* Sorts the shapes added into canonical order and packs them into columns
 * (with their fractions, when there are any), freeing what store_add
 * grew. On failure the store is as it was. */
static int pack_shapes(store *s)
{
    uint32_t *perm = malloc((s->n ? s->n : 1) * sizeof *perm);
    uint64_t *frac = s->frac ? malloc((2 * s->n + 1) * sizeof *frac) : NULL;
    uint32_t top[4];
    column_tops(s, top);
    int rc = perm && (frac || !s->frac) ? 0 : -1;
    if (rc == 0)
        rc = sort_canonical(s, perm);
    if (rc == 0)
        rc = alloc_columns(&s->col, s->n, top);
    if (rc == 0)
        rc = place_blocks(s, perm);
    if (rc < 0) {
        free_columns(&s->col);
        free(perm);
        free(frac);
        free(s->rows);
        s->rows = NULL;
        s->nrows = 0;
        return -1;
    }
    pack_work pw = {s, perm, frac};
    parfor_run(s->threads, pack_pieces(s->n), pack_piece, &pw); /* cannot fail */
    free(perm);
    BULK_RELEASE(s->added_file, s->shapes);
    s->cap = s->n;
    if (s->frac) {
        free(s->frac);
        s->frac = frac;
        s->frac_cap = s->n;
    }
    for (uint32_t r = 0; r < s->nrows; r++)
        for (uint32_t j = 0; j < s->rows[r].count && !s->rows[r].has_fraction; j++) {
            size_t p = s->rows[r].first + (size_t)j;
            s->rows[r].has_fraction = s->frac && (s->frac[2 * p] || s->frac[2 * p + 1]);
        }
    return 0;
}

static int copy_fills(store *s, const uint32_t *prim_fill, size_t nprims)
{
    if (!prim_fill || !nprims)
        return 0;
    s->fill = malloc(nprims * sizeof *s->fill);
    if (!s->fill)
        return -1;
    memcpy(s->fill, prim_fill, nprims * sizeof *s->fill);
    s->nfill = nprims;
    return 0;
}

static uint32_t fill_of(const store *s, uint32_t prim)
{
    return prim < s->nfill ? s->fill[prim] : 0;
}

int store_set_extents(store *s, const float *x0, const float *x1, size_t nprims)
{
    if (!s || s->frozen)
        return -1;
    float *e = malloc((nprims ? nprims : 1) * 2 * sizeof *e);
    if (!e)
        return -1;
    for (size_t i = 0; i < nprims; i++) {
        e[2 * i] = x0[i] < 0 ? 0 : x0[i] > 1 ? 1 : x0[i];
        e[2 * i + 1] = x1[i] < e[2 * i] ? e[2 * i] : x1[i] > 1 ? 1 : x1[i];
    }
    free(s->extent);
    s->extent = e;
    s->nextent = nprims;
    return 0;
}

/* The part of [from, to] a summary counts for a shape (as doubles): the
 * fractions of store_set_extents; an instant when they are equal. */
static void extent_of(const store *s, const shape *sh, int radix, double *from, double *to)
{
    *from = tlv_time_to_double(sh->from, radix);
    *to = tlv_time_cmp(sh->to, sh->from) > 0 ? tlv_time_to_double(sh->to, radix) : *from;
    if (sh->prim >= s->nextent)
        return;
    double span = *to - *from, a = s->extent[2 * sh->prim], b = s->extent[2 * sh->prim + 1];
    *to = b >= 1 ? *to : *from + span * b;
    *from = *from + span * a;
}

static int compare_keys(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return (a > b) - (a < b);
}

/* Puts references added in any order into (row, position) order. */
static int sort_refs_by_row_and_pos(store *s)
{
    uint64_t *keys = malloc((s->n ? s->n : 1) * sizeof *keys);
    if (!keys)
        return -1;
    for (size_t i = 0; i < s->n; i++)
        keys[i] = (uint64_t)s->sel_row[i] << 32 | s->sel[i];
    qsort(keys, s->n, sizeof *keys, compare_keys);
    for (size_t i = 0; i < s->n; i++) {
        s->sel_row[i] = (uint32_t)(keys[i] >> 32);
        s->sel[i] = (uint32_t)keys[i];
    }
    free(keys);
    return 0;
}

/* Whether a view's references are in canonical order already (as the
 * summary layers add them: store_add_refs). */
static int view_in_order(const store *s)
{
    for (size_t i = 1; i < s->n; i++)
        if (s->sel_row[i] < s->sel_row[i - 1] ||
            (s->sel_row[i] == s->sel_row[i - 1] && s->sel[i] <= s->sel[i - 1]))
            return 0;
    return 1;
}

/* A view's canonical order: by row, then by position in the base (whose
 * order is by from, then order). References added in base order need only
 * a stable counting sort by row; in canonical order, nothing. */
static int sort_view(store *s)
{
    if (view_in_order(s))
        return 0;
    for (size_t i = 1; i < s->n; i++)
        if (s->sel[i] <= s->sel[i - 1])
            return sort_refs_by_row_and_pos(s);
    uint32_t nrows = 0;
    for (size_t i = 0; i < s->n; i++)
        nrows = s->sel_row[i] + 1 > nrows ? s->sel_row[i] + 1 : nrows;
    size_t *start = calloc((size_t)nrows + 1, sizeof *start);
    uint32_t *sel = malloc((s->n ? s->n : 1) * sizeof *sel);
    uint32_t *row = malloc((s->n ? s->n : 1) * sizeof *row);
    int rc = start && sel && row ? 0 : -1;
    if (rc == 0) {
        for (size_t i = 0; i < s->n; i++)
            start[s->sel_row[i] + 1]++;
        for (uint32_t r = 0; r < nrows; r++)
            start[r + 1] += start[r];
        for (size_t i = 0; i < s->n; i++) {
            size_t at = start[s->sel_row[i]]++;
            sel[at] = s->sel[i];
            row[at] = s->sel_row[i];
        }
        free(s->sel);
        free(s->sel_row);
        s->sel = sel;
        s->sel_row = row;
        s->cap = s->n;
        sel = row = NULL;
    }
    free(start);
    free(sel);
    free(row);
    return rc;
}

/* A view's rows (a store's are found as its shapes are packed). */
static int index_rows(store *s)
{
    s->nrows = s->n ? row_at(s, s->n - 1) + 1 : 0;
    s->rows = calloc(s->nrows ? s->nrows : 1, sizeof *s->rows);
    if (!s->rows)
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        /* sort_view put each row's shapes together: first + count covers them */
        TLV_ASSERT(i == 0 || row_at(s, i - 1) <= row_at(s, i));
        row_index *r = &s->rows[row_at(s, i)];
        if (!r->count)
            r->first = (uint32_t)i;
        r->count++;
        if (from_at(s, i).frac || to_at(s, i).frac)
            r->has_fraction = 1;
    }
    return 0;
}

/* ---- the search tree --------------------------------------------------------- */

/* Nodes in the subtree of `node` in a complete tree of m nodes. */
static uint32_t subtree_size(uint64_t node, uint64_t m)
{
    uint64_t size = 0;
    for (uint64_t lo = node, hi = node; lo < m; lo = 2 * lo + 1, hi = 2 * hi + 2)
        size += (hi < m ? hi : m - 1) - lo + 1;
    return (uint32_t)size;
}

/* Where in run[0..len) is the shape ending latest (the first of equals);
 * end[p - first] is where the shape at position p ends. */
static uint32_t latest_ending(const sort_key *end, uint32_t first, const uint32_t *run,
                              uint32_t len)
{
    uint32_t best = 0;
    const sort_key *b = &end[run[0] - first];
    for (uint32_t i = 1; i < len; i++) {
        const sort_key *e = &end[run[i] - first];
        if (e->ticks > b->ticks || (e->ticks == b->ticks && e->frac > b->frac)) {
            best = i;
            b = e;
        }
    }
    return best;
}

/* Fills the subtree of `node` with the positions in run[0..len), ascending;
 * len is the subtree's size. Scrambles run. */
static void place_subtree(store *s, const row_index *r, const sort_key *end, uint32_t *run,
                          uint32_t len, uint64_t node)
{
    if (!len)
        return;
    size_t at = r->first + node;
    uint32_t top = latest_ending(end, r->first, run, len);
    s->tree_min[at] = run[0];
    s->tree_shape[at] = run[top];
    memmove(run + top, run + top + 1, (len - top - 1) * sizeof *run);
    uint32_t left = subtree_size(2 * node + 1, r->count);
    place_subtree(s, r, end, run, left, 2 * node + 1);
    place_subtree(s, r, end, run + left, len - 1 - left, 2 * node + 2);
}

/* The row's search tree, then its positions by end. The ends are worked
 * out once, into keys: the tree compares them O(n log n) times. */
static void build_tree_and_ends(store *s, const row_index *r, scratch *sc)
{
    for (uint32_t i = 0; i < r->count; i++) {
        tlv_time end = end_at(s, r->first + i);
        sc->keys[i] = (sort_key){end.ticks, end.frac, 0, 0, r->first + i};
        sc->run[i] = r->first + i;
    }
    place_subtree(s, r, sc->keys, sc->run, r->count, 0);
    sort_keys(sc->keys, sc->tmp, sc->run, r->count); /* run: free again */
    for (uint32_t i = 0; i < r->count; i++)
        s->by_end[r->first + i] = sc->keys[i].pos;
}

static int tree_row(store *s, row_index *r, scratch *sc, void *arg)
{
    (void)arg;
    if (scratch_for_row(sc, r->count) < 0)
        return -1;
    build_tree_and_ends(s, r, sc);
    return 0;
}

static int build_trees(store *s)
{
    size_t n = s->n ? s->n : 1;
    s->tree_shape = malloc(n * sizeof *s->tree_shape);
    s->tree_min = malloc(n * sizeof *s->tree_min);
    s->by_end = malloc(n * sizeof *s->by_end);
    if (!s->tree_shape || !s->tree_min || !s->by_end)
        return -1;
    return for_each_row(s, tree_row, NULL);
}

/* ---- summary grids ----------------------------------------------------------- */

/* A bucket while candidates are added; parts in fractions of the bucket. */
struct bucket {
    double w0, w1; /* the winner's part */
    double o0, o1; /* the hull of every candidate's part */
    uint32_t order;
    uint32_t color; /* 0 = no candidate yet */
};

/* The latest-drawn shape covering a bucket whole. */
struct cover {
    uint32_t order;
    uint32_t color;
};

/* Buckets at every level in segment-tree layout: node 1 is the whole range,
 * level L bucket j is node (nb >> L) + j. A shape covering buckets whole is
 * marked once on the fewest nodes that make up its run, in `full`, and
 * pushed down to every bucket below at the end. */
typedef struct grid {
    bucket *node;
    cover *full;
    uint32_t nb;
    int levels; /* partly covered buckets are tracked on levels 0 .. levels-1 */
} grid;

/* A shape placed on a grid, in level-0 bucket units. */
typedef struct extent {
    double x0, x1;
    uint32_t inside_from, inside_to; /* the level-0 buckets [from, to) it covers whole */
    uint32_t order, color;
} extent;

/* Inline min/max: the grid's hot loops would otherwise call libm's. */
static double lesser(double a, double b) { return a < b ? a : b; }
static double greater(double a, double b) { return a > b ? a : b; }

static int wins(double cov, uint32_t order, const bucket *b)
{
    if (!b->color)
        return 1;
    double held = b->w1 - b->w0;
    return cov != held ? cov > held : order > b->order;
}

static void add_candidate(bucket *b, double p0, double p1, uint32_t order, uint32_t color)
{
    b->o0 = b->color ? lesser(b->o0, p0) : p0;
    b->o1 = b->color ? greater(b->o1, p1) : p1;
    if (wins(p1 - p0, order, b))
        *b = (bucket){p0, p1, b->o0, b->o1, order, color};
}

static void keep_cover(cover *slot, cover c)
{
    if (!slot->color || c.order > slot->order)
        *slot = c;
}

static void mark_covered(grid *g, uint32_t from, uint32_t to, cover c)
{
    for (uint32_t l = from + g->nb, r = to + g->nb; l < r; l >>= 1, r >>= 1) {
        if (l & 1)
            keep_cover(&g->full[l++], c);
        if (r & 1)
            keep_cover(&g->full[--r], c);
    }
}

/* The bucket holding x >= 0, of n. */
static uint32_t bucket_at(double x, uint32_t n)
{
    return x >= (double)n ? n - 1 : (uint32_t)x;
}

/* Bucket j of the level whose buckets are `size` level-0 buckets wide, first
 * node `level_first`. */
static void add_partial(grid *g, uint32_t level_first, double size, uint32_t j, const extent *e)
{
    double lo = j * size, hi = lo + size;
    if (lo >= e->inside_from && hi <= e->inside_to)
        return; /* covered whole: marked in `full` */
    double p0 = (greater(e->x0, lo) - lo) / size, p1 = (lesser(e->x1, hi) - lo) / size;
    add_candidate(&g->node[level_first + j], p0, greater(p0, p1), e->order, e->color);
}

/* The smallest integer >= x >= 0, without a libm call per level. */
static uint32_t round_up(double x)
{
    uint32_t i = (uint32_t)x;
    return i < x ? i + 1 : i;
}

/* Adds a shape spanning [x0, x1] (0 <= x0 <= x1 <= nb) to every level: it
 * covers some buckets whole and meets at most two others per level. */
static void grid_add(grid *g, double x0, double x1, uint32_t order, uint32_t color)
{
    extent e = {x0, x1, round_up(x0), (uint32_t)x1, order, color};
    if (e.inside_from < e.inside_to)
        mark_covered(g, e.inside_from, e.inside_to, (cover){order, color});
    uint32_t n = g->nb;
    double size = 1;
    for (int level = 0; level < g->levels; level++, n >>= 1, size *= 2) {
        uint32_t j0 = bucket_at(x0 / size, n);
        uint32_t j1 = x1 > x0 ? bucket_at(round_up(x1 / size) - 1.0, n) : j0;
        add_partial(g, n, size, j0, &e);
        if (j1 != j0)
            add_partial(g, n, size, j1, &e);
    }
}

static void grid_finish(grid *g)
{
    for (uint32_t i = 1; i < g->nb; i++)
        if (g->full[i].color) {
            keep_cover(&g->full[2 * i], g->full[i]);
            keep_cover(&g->full[2 * i + 1], g->full[i]);
        }
    for (uint32_t i = 1; i < 2 * g->nb; i++)
        if (g->full[i].color)
            add_candidate(&g->node[i], 0, 1, g->full[i].order, g->full[i].color);
}

/* Column c of a summary spans [t0 + c * width, t0 + (c + 1) * width); a
 * pyramid's level 0 is such a set of columns too. */
typedef struct columns {
    double t0, width;
    size_t n;
    int radix;
} columns;

static void add_shape(const store *s, grid *g, const columns *c, const shape *sh)
{
    uint32_t color = fill_of(s, sh->prim);
    if (!color)
        return;
    double from, to;
    extent_of(s, sh, c->radix, &from, &to);
    double x0 = (from - c->t0) / c->width, x1 = (to - c->t0) / c->width, n = (double)c->n;
    if (x1 > x0 ? x1 <= 0 || x0 >= n : x0 < 0 || x0 > n)
        return;
    if (x0 == n) /* an instant at the right edge: the last column's, not one past it */
        x0 = x1 = nextafter(n, 0);
    grid_add(g, greater(x0, 0), lesser(x1, n), sh->order, color);
}

static uint32_t bucket_count(uint32_t shapes)
{
    uint32_t nb = 1;
    while (nb < shapes && nb < SUMMARY_MAX_BUCKETS)
        nb *= 2;
    while (nb < SUMMARY_MAX_BIG_BUCKETS && shapes / SUMMARY_SHAPES_PER_BIG_BUCKET > nb)
        nb *= 2;
    return nb;
}

static int levels_of(uint32_t nb)
{
    int levels = 1;
    for (; nb > 1; nb >>= 1)
        levels++;
    return levels;
}

static int row_has_fill(const store *s, const row_index *r)
{
    for (uint32_t i = 0; i < r->count; i++)
        if (fill_of(s, prim_at(s, r->first + i)))
            return 1;
    return 0;
}

static double row_end(const store *s, const row_index *r)
{
    double end = -INFINITY;
    for (uint32_t i = 0; i < r->count; i++) {
        double from = tlv_time_to_double(from_at(s, r->first + i), s->radix);
        double to = tlv_time_to_double(to_at(s, r->first + i), s->radix);
        end = greater(end, greater(from, to));
    }
    return end;
}

static uint16_t sixteenths(double fraction)
{
    return (uint16_t)lround(fmin(fmax(fraction, 0), 1) * 65535);
}

static kept_bucket keep(const bucket *b)
{
    if (!b->color)
        return (kept_bucket){0, 0, 0, 0, 0, 0};
    return (kept_bucket){sixteenths(b->w0), sixteenths(b->w1), sixteenths(b->o0),
                         sixteenths(b->o1), b->order, b->color};
}

/* Makes node and full hold at least `nodes`. */
static int scratch_for_nodes(scratch *sc, size_t nodes)
{
    if (nodes <= sc->nodes)
        return 0;
    free(sc->node);
    free(sc->full);
    sc->node = malloc(nodes * sizeof *sc->node);
    sc->full = malloc(nodes * sizeof *sc->full);
    sc->nodes = sc->node && sc->full ? nodes : 0;
    return sc->nodes ? 0 : -1;
}

static void build_pyramid(const store *s, row_index *r, scratch *w)
{
    double base = tlv_time_to_double(from_at(s, r->first), s->radix);
    double span = row_end(s, r) - base;
    if (!(span > 0) || !isfinite(span))
        span = 1; /* everything at one instant: any width places it in bucket 0 */
    r->base = base;
    /* Half a bucket to spare after the end, so that an instant there lies
     * inside the last bucket rather than on its edge. */
    r->bucket_width = span / (r->nbuckets - 0.5);
    r->levels = levels_of(r->nbuckets);
    size_t nodes = 2 * (size_t)r->nbuckets;
    memset(w->node, 0, nodes * sizeof *w->node);
    memset(w->full, 0, nodes * sizeof *w->full);
    grid g = {w->node, w->full, r->nbuckets, r->levels};
    columns level0 = {base, r->bucket_width, r->nbuckets, s->radix};
    for (size_t i = r->first; i < r->first + (size_t)r->count; i++) {
        /* what add_shape reads: not the whole shape_at (its row is a search) */
        shape sh = {from_at(s, i), to_at(s, i), 0, prim_at(s, i), 0, 0, 0, order_at(s, i)};
        add_shape(s, &g, &level0, &sh);
    }
    grid_finish(&g);
    for (size_t i = 0; i < nodes; i++) {
        kept_bucket b = keep(&w->node[i]);
        if (r->slim)
            r->slim[i] = b.color ? (slim_bucket){b.w0, b.w1, b.o0, b.o1} : (slim_bucket){1, 0, 0, 0};
        else
            r->pyramid[i] = b;
    }
}

/* Node i of a row's pyramid, whichever way it is kept. */
static kept_bucket bucket_of(const row_index *r, size_t i)
{
    if (!r->slim)
        return r->pyramid[i];
    slim_bucket b = r->slim[i];
    if (b.w0 > b.w1)
        return (kept_bucket){0, 0, 0, 0, 0, 0};
    return (kept_bucket){b.w0, b.w1, b.o0, b.o1, 0, r->color};
}

/* The one fill of the row's shapes that have one, or 0 when they differ. */
static uint32_t single_fill(const store *s, const row_index *r)
{
    uint32_t one = 0;
    for (uint32_t i = 0; i < r->count; i++) {
        uint32_t f = fill_of(s, prim_at(s, r->first + i));
        if (f && one && f != one)
            return 0;
        one = f ? f : one;
    }
    return one;
}

/* Whether the row gets a pyramid, its size and whether it is slim. */
static int plan_pyramid(store *s, row_index *r, scratch *sc, void *arg)
{
    (void)sc;
    (void)arg;
    if (r->count && row_has_fill(s, r)) {
        r->nbuckets = bucket_count(r->count);
        r->color = single_fill(s, r);
    }
    return 0;
}

static int pyramid_row(store *s, row_index *r, scratch *sc, void *arg)
{
    (void)arg;
    if (!r->nbuckets)
        return 0;
    if (scratch_for_nodes(sc, 2 * (size_t)r->nbuckets) < 0)
        return -1;
    build_pyramid(s, r, sc);
    return 0;
}

static size_t pyramid_bytes(const row_index *r)
{
    return 2 * (size_t)r->nbuckets * (r->color ? sizeof(slim_bucket) : sizeof(kept_bucket));
}

static int build_pyramids(store *s)
{
    if (for_each_row(s, plan_pyramid, NULL) < 0)
        return -1;
    size_t total = 0;
    for (uint32_t i = 0; i < s->nrows; i++)
        total += pyramid_bytes(&s->rows[i]);
    if (!total)
        return 0;
    s->pyramids = malloc(total); /* sizes are multiples of 16 bytes: aligned for both */
    if (!s->pyramids)
        return -1;
    unsigned char *next = s->pyramids;
    for (uint32_t i = 0; i < s->nrows; i++) {
        row_index *r = &s->rows[i];
        if (!r->nbuckets)
            continue;
        if (r->color)
            r->slim = (slim_bucket *)(void *)next;
        else
            r->pyramid = (kept_bucket *)(void *)next;
        next += pyramid_bytes(r);
    }
    return for_each_row(s, pyramid_row, NULL);
}

int store_freeze(store *s, const uint32_t *prim_fill, size_t nprims)
{
    if (!s)
        return -1;
    if (s->frozen)
        return 0;
    int ordered = s->base ? sort_view(s) == 0 && index_rows(s) == 0
                          : s->col.order || pack_shapes(s) == 0;
    if (!ordered || copy_fills(s, prim_fill, nprims) < 0 ||
        (!s->listing_only && (build_trees(s) < 0 || build_pyramids(s) < 0))) {
        drop_index(s);
        return -1;
    }
    free(s->row_order); /* needed while freezing only */
    s->row_order = NULL;
    free(s->sel_row); /* the row index knows the rows now */
    s->sel_row = NULL;
    s->frozen = 1;
    keep_columns_in_file(s);
    return 0;
}

/* ---- reading ----------------------------------------------------------------- */

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

uint64_t store_digest(const store *s)
{
    if (!s || !s->frozen)
        return 0;
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < s->n; i++) {
        shape sh = shape_at(s, i);
        h = hash_bytes(h, &sh, sizeof sh); /* no padding: 2 times and 6 uint32_t */
    }
    for (uint32_t i = 0; i < s->nrows; i++) {
        const row_index *r = &s->rows[i];
        uint32_t fields[5] = {r->first, r->count, (uint32_t)r->has_fraction, r->color,
                              r->nbuckets};
        double at[2] = {r->base, r->bucket_width};
        h = hash_bytes(h, fields, sizeof fields);
        h = hash_bytes(h, at, r->nbuckets ? sizeof at : 0);
        for (size_t b = 0; b < 2 * (size_t)r->nbuckets; b++) {
            kept_bucket k = bucket_of(r, b);
            h = hash_bytes(h, &k, sizeof k);
        }
    }
    if (s->listing_only)
        return h;
    h = hash_bytes(h, s->tree_shape, s->n * sizeof *s->tree_shape);
    h = hash_bytes(h, s->tree_min, s->n * sizeof *s->tree_min);
    return hash_bytes(h, s->by_end, s->n * sizeof *s->by_end);
}

size_t store_count(const store *s) { return s ? s->n : 0; }

void store_count_bytes(const store *s, store_bytes *out)
{
    memset(out, 0, sizeof *out);
    if (!s)
        return;
    const columns_of_shapes *c = &s->col;
    size_t blocks = (s->n + TIME_BLOCK - 1) / TIME_BLOCK + 1;
    size_t packed_bytes = s->n * (2 * sizeof *c->off + sizeof *c->order + c->prim.width +
                                  c->rule.width + c->event.width + c->resource.width);
    if (s->base)
        out->shapes = s->cap * (sizeof *s->sel + (s->sel_row ? sizeof *s->sel_row : 0));
    else if (c->order) /* packed: in memory, or in the file */
        out->shapes = (c->file.at ? 0 : packed_bytes) + blocks * (sizeof *c->base + sizeof *c->wide_at) +
                      c->nwide * 2 * TIME_BLOCK * sizeof *c->wide;
    else if (!s->added_file.at)
        out->shapes = s->cap * sizeof *s->shapes;
    out->shapes += sizeof *s + s->frac_cap * 2 * sizeof *s->frac;
    out->file = c->file.bytes + s->added_file.bytes;
    out->index = (s->rows ? s->nrows * sizeof *s->rows : 0) + s->nfill * sizeof *s->fill +
                 s->nextent * 2 * sizeof *s->extent;
    if (s->tree_shape)
        out->index += s->n * (sizeof *s->tree_shape + sizeof *s->tree_min + sizeof *s->by_end);
    for (uint32_t r = 0; s->rows && r < s->nrows; r++)
        out->pyramids += 2 * (size_t)s->rows[r].nbuckets *
                         (s->rows[r].slim ? sizeof(slim_bucket) : s->rows[r].pyramid ? sizeof(kept_bucket) : 0);
}

const shape *store_get(const store *s, size_t i, shape *out)
{
    if (!s || i >= s->n)
        return NULL;
    *out = shape_at(s, i);
    return out;
}

uint32_t store_rows(const store *s) { return s && s->frozen ? s->nrows : 0; }

void store_row_span(const store *s, uint32_t row, size_t *first, size_t *count)
{
    int has = s && s->frozen && s->rows && row < s->nrows;
    *first = has ? s->rows[row].first : 0;
    *count = has ? s->rows[row].count : 0;
}

void store_prim_order(const store *s, size_t i, uint32_t *prim, uint32_t *order)
{
    *prim = prim_at(s, i);
    *order = order_at(s, i);
}

/* The row's index, or NULL when there is nothing to find in it. */
static const row_index *row_of(const store *s, uint32_t row)
{
    if (!s || !s->frozen || s->listing_only || row >= s->nrows || !s->rows[row].count)
        return NULL;
    return &s->rows[row];
}

/* How many of the row's shapes start before t (or at t too, with
 * `at_too`): they are the first ones. */
static size_t count_starting(const store *s, const row_index *r, tlv_time t, int at_too)
{
    size_t lo = 0, hi = r->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = tlv_time_cmp(from_at(s, r->first + mid), t);
        if (c < 0 || (at_too && c == 0))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many of the row's shapes have from <= t1. */
static size_t count_starting_by(const store *s, const row_index *r, tlv_time t1)
{
    return count_starting(s, r, t1, 1);
}

static size_t count_ending_before(const store *s, const row_index *r, tlv_time t0)
{
    size_t lo = 0, hi = r->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(end_at(s, s->by_end[r->first + mid]), t0) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* A search of the tree for the shapes at positions <= last ending at or
 * after t0. */
typedef struct walk {
    const store *s;
    const row_index *r;
    uint32_t last;
    tlv_time t0;
    uint64_t *keys;     /* the drawing keys of the shapes found */
    size_t found, room; /* how many so far, how many keys fit */
} walk;

/* Sorting these sorts by order, then position, i.e. then by from. */
static uint64_t drawing_key(uint32_t order, uint32_t pos)
{
    return (uint64_t)order << 32 | pos;
}

static void walk_subtree(walk *w, uint64_t node)
{
    if (node >= w->r->count || w->found == w->room)
        return;
    size_t at = w->r->first + node;
    if (w->s->tree_min[at] > w->last)
        return;
    uint32_t pos = w->s->tree_shape[at];
    if (tlv_time_cmp(end_at(w->s, pos), w->t0) < 0)
        return;
    if (pos <= w->last)
        w->keys[w->found++] = drawing_key(order_at(w->s, pos), pos);
    walk_subtree(w, 2 * node + 1);
    walk_subtree(w, 2 * node + 2);
}

/* How many shapes of the row overlap [t0, t1] (t0 <= t1). */
static size_t count_overlaps(const store *s, const row_index *r, tlv_time t0, tlv_time t1)
{
    return count_starting_by(s, r, t1) - count_ending_before(s, r, t0);
}

/* Puts the drawing keys of the row's shapes overlapping [t0, t1] (t0 <= t1)
 * in keys[0..k), k their count. */
static void find_overlaps(const store *s, const row_index *r, tlv_time t0, tlv_time t1,
                          uint64_t *keys, size_t k)
{
    size_t started = count_starting_by(s, r, t1);
    if (!started)
        return;
    walk w = {s, r, r->first + (uint32_t)started - 1, t0, keys, 0, k};
    walk_subtree(&w, 0);
}

/* Without memory to sort in, the shapes still all get visited, by `from`. */
static void visit_by_start(const store *s, const row_index *r, tlv_time t0, tlv_time t1,
                           store_visit_fn fn, void *ctx)
{
    size_t end = r->first + count_starting_by(s, r, t1);
    for (size_t i = r->first; i < end; i++)
        if (tlv_time_cmp(end_at(s, i), t0) >= 0) {
            shape sh = shape_at(s, i);
            if (fn(ctx, &sh, i))
                return;
        }
}

/* Sorts k distinct keys into increasing order with `tmp` (room for k) by
 * radix, 11 bits a pass over the bits in which they differ: a frame's
 * queries sort thousands of keys a row, where qsort's indirect comparisons
 * cost more than drawing the shapes. The order is qsort's: keys are
 * distinct. */
static void radix_sort_u64(uint64_t *keys, uint64_t *tmp, size_t k)
{
    uint64_t lo = keys[0], differ = 0;
    for (size_t i = 1; i < k; i++)
        differ |= keys[i] ^ lo;
    uint64_t *from = keys, *to = tmp;
    for (int shift = 0; shift < 64 && (differ >> shift); shift += 11) {
        if (!((differ >> shift) & 0x7FF))
            continue; /* every key has the same digit here */
        size_t count[2048] = {0};
        for (size_t i = 0; i < k; i++)
            count[(from[i] >> shift) & 0x7FF]++;
        for (size_t d = 0, sum = 0; d < 2048; d++) {
            size_t c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (size_t i = 0; i < k; i++)
            to[count[(from[i] >> shift) & 0x7FF]++] = from[i];
        uint64_t *t = from;
        from = to;
        to = t;
    }
    if (from != keys)
        memcpy(keys, from, k * sizeof *keys);
}

/* Sorts the drawing keys: by radix when there is room for it, else qsort. */
static void sort_drawing_keys(uint64_t *keys, size_t k)
{
    uint64_t on_stack[QUERY_STACK_KEYS];
    uint64_t *tmp = k <= QUERY_STACK_KEYS ? on_stack : malloc(k * sizeof *tmp);
    if (k < 32 || !tmp) /* a few keys, or no memory for the radix passes */
        qsort(keys, k, sizeof *keys, compare_keys);
    else
        radix_sort_u64(keys, tmp, k);
    if (tmp != on_stack)
        free(tmp);
}

void store_query(const store *s, uint32_t row, tlv_time t0, tlv_time t1, store_visit_fn fn,
                 void *ctx)
{
    const row_index *r = row_of(s, row);
    if (!r || !fn || tlv_time_cmp(t0, t1) > 0)
        return;
    size_t k = count_overlaps(s, r, t0, t1);
    if (!k)
        return;
    uint64_t on_stack[QUERY_STACK_KEYS];
    uint64_t *keys = k <= QUERY_STACK_KEYS ? on_stack : malloc(k * sizeof *keys);
    if (!keys) {
        visit_by_start(s, r, t0, t1, fn, ctx);
        return;
    }
    find_overlaps(s, r, t0, t1, keys, k);
    sort_drawing_keys(keys, k);
    for (size_t i = 0; i < k; i++) {
        shape sh = shape_at(s, (uint32_t)keys[i]);
        if (fn(ctx, &sh, (uint32_t)keys[i]))
            break;
    }
    if (keys != on_stack)
        free(keys);
}

size_t store_count_overlapping(const store *s, uint32_t row, tlv_time t0, tlv_time t1)
{
    const row_index *r = row_of(s, row);
    if (!r || tlv_time_cmp(t0, t1) > 0)
        return 0;
    return count_overlaps(s, r, t0, t1);
}

/* ---- summaries --------------------------------------------------------------- */

static int radix_is_valid(int radix) { return radix >= 2 && radix <= 36; }

/* radix^F, the scale of tlv_time fractions (see tlv.h). */
static uint64_t fraction_scale(int radix)
{
    uint64_t scale = 1;
    while (scale <= (uint64_t)INT64_MAX / (uint64_t)radix)
        scale *= (uint64_t)radix;
    return scale;
}

/* The time nearest below d (d finite). */
static tlv_time time_from_double(double d, int radix)
{
    if (d <= -0x1p63)
        return (tlv_time){INT64_MIN, 0};
    if (d >= 0x1p63)
        return (tlv_time){INT64_MAX, 0};
    double whole = floor(d);
    tlv_time t = {(int64_t)whole, 0};
    if (radix_is_valid(radix)) {
        uint64_t scale = fraction_scale(radix);
        double frac = (d - whole) * (double)scale;
        t.frac = frac <= 0 ? 0 : frac >= (double)scale ? scale - 1 : (uint64_t)frac;
    }
    return t;
}

/* Doubles of times are rounded: a window widened by a few ulps in exact time
 * cannot miss a shape whose doubles meet it; the grid then clips exactly. */
static double rounding_margin(double d) { return fabs(d) * 0x1p-50 + 0x1p-60; }

static tlv_time window_start(double t0, int radix)
{
    return time_from_double(t0 - rounding_margin(t0), radix);
}

static tlv_time window_end(double t1, int radix)
{
    tlv_time t = time_from_double(t1 + rounding_margin(t1), radix);
    if (!radix_is_valid(radix))
        t.frac = UINT64_MAX; /* the doubles ignore fractions: take the whole tick */
    return t;
}

static uint32_t pow2_at_least(size_t n)
{
    uint32_t p = 1;
    while (p < n)
        p *= 2;
    return p;
}

/* Marks the columns a shape is a candidate for in starts[] (+1 where its
 * run of columns starts, -1 after it): those add_shape's grid_add gives it. */
static void mark_columns(const store *s, const columns *c, const shape *sh, int32_t *starts)
{
    double from, to, n = (double)c->n;
    extent_of(s, sh, c->radix, &from, &to);
    double x0 = (from - c->t0) / c->width, x1 = (to - c->t0) / c->width;
    if (x1 > x0 ? x1 <= 0 || x0 >= n : x0 < 0 || x0 > n)
        return;
    if (x0 == n)
        x0 = x1 = nextafter(n, 0);
    x0 = greater(x0, 0);
    x1 = lesser(x1, n);
    uint32_t j0 = bucket_at(x0, (uint32_t)c->n);
    uint32_t j1 = x1 > x0 ? bucket_at(round_up(x1) - 1.0, (uint32_t)c->n) : j0;
    starts[j0]++;
    starts[j1 + 1]--;
}

static void mark_shape(const store *s, const columns *c, size_t at, int32_t *starts)
{
    shape sh = summary_shape_at(s, at);
    if (fill_of(s, sh.prim))
        mark_columns(s, c, &sh, starts);
}

/* The rule applied to each column exactly for a row whose filled shapes all
 * have one colour (a summary layer's): a column has it when some candidate
 * meets it, so a count per column does (no grid). The candidates are the
 * shapes at positions < `started` (from <= the window's end) ending at or
 * after `lo`: those starting at or after `lo` are consecutive positions,
 * read in order (on a big trace the tree's walk to each was most of a
 * zoomed-in frame: a cache miss or more a shape, and pages all over the
 * columns); those starting before `lo` and reaching it, few, are found by
 * the tree. Returns 0, or -1 when memory is short. */
static int one_color_summary(const store *s, const row_index *r, const columns *c, tlv_time lo,
                             size_t started, uint32_t *out)
{
    size_t before = count_starting(s, r, lo, 0);
    size_t straddle = before - count_ending_before(s, r, lo);
    uint64_t on_stack[QUERY_STACK_KEYS];
    int32_t *starts = calloc(c->n + 1, sizeof *starts);
    uint64_t *keys = straddle <= QUERY_STACK_KEYS ? on_stack : malloc(straddle * sizeof *keys);
    if (!starts || !keys) {
        free(starts);
        return -1;
    }
    if (straddle) {
        walk w = {s, r, r->first + (uint32_t)before - 1, lo, keys, 0, straddle};
        walk_subtree(&w, 0);
        for (size_t i = 0; i < w.found; i++)
            mark_shape(s, c, (uint32_t)keys[i], starts);
    }
    for (size_t i = r->first + before; i < r->first + started; i++)
        mark_shape(s, c, i, starts);
    int32_t on = 0;
    for (size_t i = 0; i < c->n; i++) {
        on += starts[i];
        out[i] = on > 0 ? r->color : 0;
    }
    free(starts);
    if (keys != on_stack)
        free(keys);
    return 0;
}

/* The rule applied to each column exactly. Returns -1, writing nothing, when
 * more than `limit` shapes are in view or memory is short. */
static int summary_from_shapes(const store *s, const row_index *r, const columns *c,
                               size_t limit, uint32_t *out)
{
    if (c->n > EXACT_MAX_COLUMNS)
        return -1;
    tlv_time lo = window_start(c->t0, c->radix);
    tlv_time hi = window_end(c->t0 + c->width * (double)c->n, c->radix);
    size_t k = count_overlaps(s, r, lo, hi);
    if (k > limit)
        return -1;
    if (r->color)
        return one_color_summary(s, r, c, lo, count_starting_by(s, r, hi), out);
    uint32_t nb = pow2_at_least(c->n);
    uint64_t *keys = malloc((k ? k : 1) * sizeof *keys);
    bucket *node = calloc(2 * (size_t)nb, sizeof *node);
    cover *full = calloc(2 * (size_t)nb, sizeof *full);
    int rc = -1;
    if (keys && node && full) {
        grid g = {node, full, nb, 1};
        find_overlaps(s, r, lo, hi, keys, k);
        for (size_t i = 0; i < k; i++) {
            shape sh = summary_shape_at(s, (uint32_t)keys[i]);
            add_shape(s, &g, c, &sh);
        }
        grid_finish(&g);
        for (size_t i = 0; i < c->n; i++)
            out[i] = node[nb + i].color;
        rc = 0;
    }
    free(keys);
    free(node);
    free(full);
    return rc;
}

typedef struct vote {
    uint32_t color, order;
    double weight;
} vote;

#define MAX_VOTES 4 /* buckets meeting a column: 3, one more for rounding */

/* Parts closer than this are one point to 16-bit fractions. */
#define EDGE (1.5 / 65535)

/* A column of a pyramid summary, in bucket widths from the start of the
 * bucket at hand. The view's last column also holds instants at its end. */
typedef struct span {
    double p0, p1;
    int closed;
} span;

/* How much of [a, b] lies in the column, or -1 when none of it does. An
 * instant (a == b) lies in the column it starts. */
static double part_inside(double a, double b, const span *c)
{
    if (b <= a)
        return a >= c->p0 - EDGE && (a < c->p1 - EDGE || (c->closed && a <= c->p1 + EDGE))
                   ? 0
                   : -1;
    double inside = fmin(b, c->p1) - fmax(a, c->p0);
    return inside > EDGE ? inside : -1;
}

static void add_vote(vote *votes, int *n, const kept_bucket *b, double weight)
{
    for (int i = 0; i < *n; i++)
        if (votes[i].color == b->color) {
            votes[i].weight += weight;
            if (b->order > votes[i].order)
                votes[i].order = b->order;
            return;
        }
    votes[(*n)++] = (vote){b->color, b->order, weight};
}

/* A bucket votes for its winner, weighted by the part of the winner inside
 * the column; with weight 0 when only other candidates reach inside, since
 * something is there; not at all when nothing does. */
static void vote_for(vote *votes, int *n, const kept_bucket *b, const span *c)
{
    if (!b->color)
        return;
    double weight = part_inside(b->w0 / 65535.0, b->w1 / 65535.0, c);
    if (weight < 0 && part_inside(b->o0 / 65535.0, b->o1 / 65535.0, c) >= 0)
        weight = 0;
    if (weight >= 0)
        add_vote(votes, n, b, weight);
}

/* The color of the column spanning [u0, u1) in units of buckets[0..n). */
static uint32_t column_color(const row_index *r, size_t first, uint32_t n, double u0, double u1,
                             int closed)
{
    if (u1 <= 0 || u0 >= n)
        return 0;
    vote votes[MAX_VOTES];
    int nvotes = 0;
    uint32_t j = (uint32_t)fmax(u0, 0);
    for (int seen = 0; j < n && j < u1 && seen < MAX_VOTES; j++, seen++) {
        span c = {u0 - j, u1 - j, closed};
        kept_bucket b = bucket_of(r, first + j);
        vote_for(votes, &nvotes, &b, &c);
    }
    if (!nvotes)
        return 0;
    const vote *best = &votes[0];
    for (int i = 1; i < nvotes; i++)
        if (votes[i].weight > best->weight ||
            (votes[i].weight == best->weight && votes[i].order > best->order))
            best = &votes[i];
    return best->color;
}

/* The coarsest level whose buckets are no wider than a column. */
static int level_for(const row_index *r, double column_width)
{
    int level = 0;
    while (level + 1 < r->levels && r->bucket_width * ldexp(1.0, level + 1) <= column_width)
        level++;
    return level;
}

/* part_inside(a, b, c) >= 0 without calls: the test of column_covered's
 * inner loop, run for every bucket of every column. */
static int reaches_inside(double a, double b, double p0, double p1, int closed)
{
    if (b <= a)
        return a >= p0 - EDGE && (a < p1 - EDGE || (closed && a <= p1 + EDGE));
    return lesser(b, p1) - greater(a, p0) > EDGE;
}

/* Whether some bucket meeting the column spanning [u0, u1) votes at all
 * (column_color's answer is not 0): enough for a row of one colour. */
static int column_covered(const row_index *r, size_t first, uint32_t n, double u0, double u1,
                          int closed)
{
    if (u1 <= 0 || u0 >= n)
        return 0;
    uint32_t j = u0 > 0 ? (uint32_t)u0 : 0;
    for (int seen = 0; j < n && j < u1 && seen < MAX_VOTES; j++, seen++) {
        kept_bucket b = bucket_of(r, first + j);
        const double unit = 1 / 65535.0;
        if (b.color && (reaches_inside(b.w0 * unit, b.w1 * unit, u0 - j, u1 - j, closed) ||
                        reaches_inside(b.o0 * unit, b.o1 * unit, u0 - j, u1 - j, closed)))
            return 1;
    }
    return 0;
}

static void summary_from_pyramid(const row_index *r, const columns *c, uint32_t *out)
{
    int level = level_for(r, c->width);
    double size = r->bucket_width * ldexp(1.0, level);
    uint32_t n = r->nbuckets >> level;
    for (size_t i = 0; i < c->n; i++) {
        double c0 = c->t0 + (double)i * c->width, c1 = c->t0 + (double)(i + 1) * c->width;
        double u0 = (c0 - r->base) / size, u1 = (c1 - r->base) / size;
        out[i] = r->color ? (column_covered(r, n, n, u0, u1, i + 1 == c->n) ? r->color : 0)
                              : column_color(r, n, n, u0, u1, i + 1 == c->n);
    }
}

/* How many shapes in view still make an exact summary worth its cost. */
static size_t exact_limit(const store *s, const row_index *r, const columns *c)
{
    if (c->radix != s->radix && r->has_fraction)
        return SIZE_MAX; /* the pyramid placed fractions in another radix */
    if (r->color && c->width >= r->bucket_width)
        return c->n / EXACT_ONE_COLOR_PER_COLUMNS; /* with more, the pyramid: as exact
            for one colour (to 16-bit rounding), and far fewer bytes to read than the
            shapes; a few shapes, exactly (a lone instant on the view's edge is where
            the pyramid's rounding shows) */
    size_t per = c->width < r->bucket_width ? EXACT_SHAPES_PER_FINE_COLUMN
                                            : EXACT_SHAPES_PER_COLUMN;
    return c->n > SIZE_MAX / per ? SIZE_MAX : c->n * per;
}

void store_summary(const store *s, uint32_t row, double t0, double t1, int radix,
                   uint32_t *out, size_t ncols)
{
    if (!out || !ncols)
        return;
    memset(out, 0, ncols * sizeof *out);
    const row_index *r = row_of(s, row);
    if (!r || !(r->pyramid || r->slim) || !isfinite(t0) || !isfinite(t1) || !(t1 > t0))
        return;
    columns c = {t0, (t1 - t0) / (double)ncols, ncols, radix};
    if (!(c.width > 0) || !isfinite(c.width))
        return;
    if (summary_from_shapes(s, r, &c, exact_limit(s, r, &c), out) < 0)
        summary_from_pyramid(r, &c, out);
}
