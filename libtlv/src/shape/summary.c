/*
 * summary.c — how primitives show in rows drawn from per-column summaries
 * (summary.h). A summary column takes the colour of the shape covering most
 * of it (store.c); for that to say what the shapes would draw, each
 * primitive counts only for the part of its shape's time span it covers
 * (a 6 px flag at the start of an area that runs to the next event covers an
 * instant, not the area), and paints only its band of the row (a line at 90%
 * of the row is a line there, not a full-height bar). Texts and invisible
 * primitives count for nothing.
 */
#include "shape/summary.h"

#include "base/buf.h"
#include "base/parfor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Area widths measured against: the px part of a coordinate does not change
 * with the width, its % part grows with it. */
#define WIDE 1024.0f
#define TALL 1000.0

static int is_stroke(const prim *p) { return p->type == PRIM_LINE || p->type == PRIM_ARROW; }

static int has_points(const prim *p) { return is_stroke(p) || p->type == PRIM_POLYGON; }

/* The colour a primitive shows from afar: its fill, or for a line or a shape
 * filled with nothing, its pen; 0 when it draws nothing (a text). */
static uint32_t look_color(const prim *p)
{
    if (p->type == PRIM_TEXT)
        return 0;
    if (p->has_fill && p->fill >> 24)
        return p->fill;
    if (p->has_pen && p->pen_color >> 24 && p->pen_width > 0)
        return p->pen_color;
    return 0;
}

/* The horizontal reach of a primitive at area width w (area from x = 0). */
static void reach_at(const prim *p, float w, float *x0, float *x1)
{
    frect box = prim_box(p, (frect){0, 0, w, 100});
    if (!has_points(p) || !p->npoints) {
        *x0 = fminf(box.x, box.x + box.w);
        *x1 = fmaxf(box.x, box.x + box.w);
        return;
    }
    *x0 = INFINITY;
    *x1 = -INFINITY;
    for (size_t i = 0; i < p->npoints; i++) {
        float x, y;
        prim_point(p, i, box, &x, &y);
        *x0 = fminf(*x0, x);
        *x1 = fmaxf(*x1, x);
    }
}

/* The part of its area a primitive covers when the area is far wider than
 * any pixel size in it: the % parts of its coordinates. */
static void prim_extent(const prim *p, float *x0, float *x1)
{
    float n0, n1, w0, w1;
    reach_at(p, 0, &n0, &n1);
    reach_at(p, WIDE, &w0, &w1);
    *x0 = (w0 - n0) / WIDE;
    *x1 = (w1 - n1) / WIDE;
    if (*x1 < *x0)
        *x1 = *x0;
}

/* The band a primitive paints in a row, uncut. */
static void prim_band(const prim *p, double top, double h, float scale, double *y0, double *y1)
{
    frect box = prim_box(p, (frect){0, (float)top, WIDE, (float)h});
    if (!has_points(p) || !p->npoints) {
        *y0 = fmin(box.y, box.y + box.h);
        *y1 = fmax(box.y, box.y + box.h);
        return;
    }
    *y0 = INFINITY;
    *y1 = -INFINITY;
    for (size_t i = 0; i < p->npoints; i++) {
        float x, y;
        prim_point(p, i, box, &x, &y);
        *y0 = fmin(*y0, y);
        *y1 = fmax(*y1, y);
    }
    if (is_stroke(p)) { /* the pen's width around the points (an arrow's head: twice it) */
        double pen = p->pen_width * (scale > 0 ? scale : 1) * (p->type == PRIM_ARROW ? 2 : 1);
        double half = fmax(pen, 1) / 2;
        *y0 -= half;
        *y1 += half;
    }
}

/* ---- looks, shared by the primitives that paint alike ------------------------ */

typedef struct look_key {
    uint32_t color;
    double band[4]; /* y0, y1 in a row 0 px high, then TALL px high */
} look_key;

static look_key key_of(const prim *p, uint32_t color)
{
    look_key k = {color, {0, 0, 0, 0}};
    prim_band(p, 0, 0, 1, &k.band[0], &k.band[1]);
    prim_band(p, 0, TALL, 1, &k.band[2], &k.band[3]);
    return k;
}

static uint64_t key_hash(const look_key *k)
{
    uint64_t h = 1469598103934665603ull ^ k->color;
    for (int i = 0; i < 4; i++) {
        uint64_t bits;
        memcpy(&bits, &k->band[i], sizeof bits);
        h = (h ^ bits) * 1099511628211ull;
        h ^= h >> 29;
    }
    return h;
}

static int key_equal(const look_key *a, const look_key *b)
{
    return a->color == b->color && memcmp(a->band, b->band, sizeof a->band) == 0;
}

/* Look ids of every primitive, equal keys sharing one: an open-addressed
 * table of the first primitive of each look. */
static int assign_looks(const prim *prims, size_t nprims, summary_looks *looks, uint32_t *ids)
{
    size_t cap = 16;
    while (cap < 2 * nprims)
        cap *= 2;
    uint32_t *slot = calloc(cap, sizeof *slot); /* look id, 0 = empty */
    look_key *keys = malloc((nprims ? nprims : 1) * sizeof *keys); /* by look id - 1 */
    int rc = slot && keys ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nprims; i++) {
        uint32_t color = look_color(&prims[i]);
        ids[i] = 0;
        if (!color)
            continue;
        look_key k = key_of(&prims[i], color);
        size_t at = (size_t)key_hash(&k) & (cap - 1);
        while (slot[at] && !key_equal(&keys[slot[at] - 1], &k))
            at = (at + 1) & (cap - 1);
        if (!slot[at]) {
            if (GROW(looks->look, looks->cap, looks->n + 1) < 0) {
                rc = -1;
                break;
            }
            looks->look[looks->n] = (summary_look){color, (uint32_t)i};
            keys[looks->n] = k;
            slot[at] = (uint32_t)++looks->n;
        }
        ids[i] = slot[at];
    }
    free(slot);
    free(keys);
    return rc;
}

/* ---- vertical reach: one primitive per geometry ------------------------------ */

/* What decides how far above and below its band a primitive draws: its
 * vertical place and size, its points' heights and its pen; equal keys
 * (bit for bit) reach alike at any row height and scale. */
typedef struct reach_key {
    len_spec location_y, offset_y, size_h;
    int depth, depth_rows;
    float pen_width;
    int has_pen;
    prim_type type;
    size_t npoints;
} reach_key;

static reach_key reach_key_of(const prim *p)
{
    reach_key k;
    memset(&k, 0, sizeof k); /* padding too: keys are hashed and compared as bytes */
    k.location_y = p->location.y;
    k.offset_y = p->offset.y;
    k.size_h = p->size.h;
    k.depth = p->depth;
    k.depth_rows = p->depth_rows;
    k.pen_width = p->pen_width;
    k.has_pen = p->has_pen;
    k.type = p->type;
    k.npoints = p->npoints;
    return k;
}

static uint64_t bytes_hash(uint64_t h, const void *at, size_t n)
{
    const unsigned char *c = at;
    for (size_t i = 0; i < n; i++)
        h = (h ^ c[i]) * 1099511628211ull;
    return h;
}

static uint64_t reach_hash(const prim *p)
{
    reach_key k = reach_key_of(p);
    uint64_t h = bytes_hash(1469598103934665603ull, &k, sizeof k);
    for (size_t i = 0; i < p->npoints; i++)
        h = bytes_hash(h, &p->points[i].y, sizeof p->points[i].y);
    return h ^ h >> 29;
}

static int reach_equal(const prim *a, const prim *b)
{
    reach_key ka = reach_key_of(a), kb = reach_key_of(b);
    if (memcmp(&ka, &kb, sizeof ka) != 0)
        return 0;
    for (size_t i = 0; i < a->npoints; i++)
        if (memcmp(&a->points[i].y, &b->points[i].y, sizeof a->points[i].y) != 0)
            return 0;
    return 1;
}

/* looks->reach_prim: the first primitive of each key, in index order. */
static int find_reach(const prim *prims, size_t nprims, summary_looks *looks)
{
    size_t cap = 16, n = 0;
    while (cap < 2 * nprims)
        cap *= 2;
    uint32_t *slot = calloc(cap, sizeof *slot); /* primitive index + 1, 0 = empty */
    uint32_t *out = malloc((nprims ? nprims : 1) * sizeof *out);
    if (!slot || !out) {
        free(slot);
        free(out);
        return -1;
    }
    for (size_t i = 0; i < nprims; i++) {
        if (prims[i].type == PRIM_TEXT)
            continue;
        size_t at = (size_t)reach_hash(&prims[i]) & (cap - 1);
        while (slot[at] && !reach_equal(&prims[slot[at] - 1], &prims[i]))
            at = (at + 1) & (cap - 1);
        if (!slot[at]) {
            slot[at] = (uint32_t)i + 1;
            out[n++] = (uint32_t)i;
        }
    }
    free(slot);
    looks->reach_prim = out;
    looks->nreach = n;
    looks->has_reach = 1;
    return 0;
}

/* ---- layers: one per (row, look) -------------------------------------------- */

/* The layers are found and filled row by row, on the store's threads
 * (parfor.h): a row's layers depend only on its own shapes, and each row
 * writes only its own entries; the references go straight to their place
 * in canonical order (by layer, then position), so the layers' freeze need
 * not sort them. The same on any number of threads. */

typedef struct layer_key {
    uint32_t row, look;
    uint32_t first_order; /* of the look's first shape in the row: its place in the drawing */
    uint32_t count;       /* the row's shapes with this look */
} layer_key;

static int by_row_then_order(const void *pa, const void *pb)
{
    const layer_key *a = pa, *b = pb;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    if (a->first_order != b->first_order)
        return a->first_order < b->first_order ? -1 : 1;
    return (a->look > b->look) - (a->look < b->look);
}

typedef struct row_layers {
    layer_key *keys; /* the row's layers, in drawing order once found */
    size_t n, cap;
} row_layers;

typedef struct layer_work {
    const store *st;
    const uint32_t *ids;
    size_t nprims;
    uint32_t *rows_by_size; /* the rows, most shapes first */
    row_layers *rows;
    uint32_t **slot;        /* per worker, per look id: its key in the row, or UINT32_MAX */
    int filling;            /* 0: finding the layers; 1: filling them */
    const uint32_t *row_first;
    size_t *next_ref;       /* per layer: where its next reference goes */
    uint32_t *pos, *ref_row;
} layer_work;

static uint32_t look_at(const layer_work *w, size_t i, uint32_t *order)
{
    uint32_t prim;
    store_prim_order(w->st, i, &prim, order);
    return prim < w->nprims ? w->ids[prim] : 0;
}

/* Row r's layers: each look its shapes show, with its first shape's order
 * and its count, in drawing order. */
static int find_row_layers(layer_work *w, uint32_t r, uint32_t *slot)
{
    row_layers *rl = &w->rows[r];
    size_t first, count;
    store_row_span(w->st, r, &first, &count);
    int rc = 0;
    for (size_t i = first; rc == 0 && i < first + count; i++) {
        uint32_t order, look = look_at(w, i, &order);
        if (!look)
            continue;
        if (slot[look] == UINT32_MAX) {
            if (GROW(rl->keys, rl->cap, rl->n + 1) < 0) {
                rc = -1;
                break;
            }
            rl->keys[rl->n] = (layer_key){r, look, order, 0};
            slot[look] = (uint32_t)rl->n++;
        }
        layer_key *k = &rl->keys[slot[look]];
        k->first_order = order < k->first_order ? order : k->first_order;
        k->count++;
    }
    for (size_t k = 0; k < rl->n; k++)
        slot[rl->keys[k].look] = UINT32_MAX;
    if (rc == 0 && rl->n > 1)
        qsort(rl->keys, rl->n, sizeof *rl->keys, by_row_then_order);
    return rc;
}

/* Puts every shape of row r with a look on its layer (the view's row). */
static void fill_row_layers(layer_work *w, uint32_t r, uint32_t *slot)
{
    const row_layers *rl = &w->rows[r];
    if (!rl->n)
        return;
    for (size_t k = 0; k < rl->n; k++)
        slot[rl->keys[k].look] = (uint32_t)k;
    size_t first, count;
    store_row_span(w->st, r, &first, &count);
    for (size_t i = first; i < first + count; i++) {
        uint32_t order, look = look_at(w, i, &order);
        if (!look)
            continue;
        uint32_t layer = w->row_first[r] + slot[look];
        size_t at = w->next_ref[layer]++;
        w->pos[at] = (uint32_t)i;
        w->ref_row[at] = layer;
    }
    for (size_t k = 0; k < rl->n; k++)
        slot[rl->keys[k].look] = UINT32_MAX;
}

static int layer_row(void *ctx, size_t item, int worker)
{
    layer_work *w = ctx;
    uint32_t r = w->rows_by_size[item];
    if (w->filling) {
        fill_row_layers(w, r, w->slot[worker]);
        return 0;
    }
    return find_row_layers(w, r, w->slot[worker]);
}

/* Numbers the layers found, row after row (looks->row_first, layer_look),
 * and gives each its place among the references (w->next_ref). Returns the
 * number of references, or SIZE_MAX (no memory). */
static size_t number_layers(layer_work *w, uint32_t nrows, summary_looks *looks)
{
    size_t nkeys = 0, nrefs = 0;
    for (uint32_t r = 0; r < nrows; r++)
        nkeys += w->rows[r].n;
    looks->row_first = calloc((size_t)nrows + 1, sizeof *looks->row_first);
    looks->layer_look = malloc((nkeys ? nkeys : 1) * sizeof *looks->layer_look);
    w->next_ref = malloc((nkeys ? nkeys : 1) * sizeof *w->next_ref);
    if (!looks->row_first || !looks->layer_look || !w->next_ref)
        return SIZE_MAX;
    looks->nrows = nrows;
    size_t layer = 0;
    for (uint32_t r = 0; r < nrows; r++) {
        looks->row_first[r] = (uint32_t)layer;
        for (size_t k = 0; k < w->rows[r].n; k++, layer++) {
            looks->layer_look[layer] = w->rows[r].keys[k].look;
            w->next_ref[layer] = nrefs;
            nrefs += w->rows[r].keys[k].count;
        }
    }
    looks->row_first[nrows] = (uint32_t)layer;
    return nrefs;
}

/* Finds the layers of the frozen store `st` and puts every shape with a
 * look into the layers store, on its layer's row: a view of the shapes
 * store, so a reference rather than a copy. */
static int fill_layers(const store *st, const uint32_t *ids, size_t nprims, size_t nlooks,
                       summary_looks *looks)
{
    uint32_t nrows = store_rows(st);
    int threads = store_threads(st), workers = parfor_workers(threads, nrows);
    layer_work w = {st, ids, nprims, store_rows_longest_first(st), NULL, NULL, 0,
                    NULL, NULL, NULL, NULL};
    w.rows = calloc((size_t)nrows + 1, sizeof *w.rows);
    w.slot = calloc((size_t)workers, sizeof *w.slot);
    int rc = w.rows_by_size && w.rows && w.slot ? 0 : -1;
    for (int i = 0; rc == 0 && i < workers; i++) {
        w.slot[i] = malloc((nlooks + 1) * sizeof **w.slot);
        if (!w.slot[i])
            rc = -1;
        else
            memset(w.slot[i], 0xff, (nlooks + 1) * sizeof **w.slot);
    }
    if (rc == 0)
        rc = parfor_run(threads, nrows, layer_row, &w);
    size_t nrefs = rc == 0 ? number_layers(&w, nrows, looks) : SIZE_MAX;
    if (nrefs == SIZE_MAX || store_add_refs(looks->layers, nrefs, &w.pos, &w.ref_row) < 0)
        rc = -1;
    w.filling = 1;
    w.row_first = looks->row_first;
    if (rc == 0)
        rc = parfor_run(threads, nrows, layer_row, &w);
    for (uint32_t r = 0; w.rows && r < nrows; r++)
        free(w.rows[r].keys);
    for (int i = 0; w.slot && i < workers; i++)
        free(w.slot[i]);
    free(w.slot);
    free(w.rows);
    free(w.rows_by_size);
    free(w.next_ref);
    return rc;
}

static int build_layers(store *st, int radix, const prim *prims, size_t nprims,
                        const uint32_t *ids, summary_looks *looks)
{
    float *x0 = malloc((nprims + 1) * sizeof *x0), *x1 = malloc((nprims + 1) * sizeof *x1);
    looks->layers = store_new_view(st);
    int rc = x0 && x1 && looks->layers ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < nprims; i++)
        prim_extent(&prims[i], &x0[i], &x1[i]);
    if (rc == 0)
        rc = fill_layers(st, ids, nprims, looks->n, looks);
    if (rc == 0) {
        store_set_radix(looks->layers, radix);
        rc = store_set_extents(looks->layers, x0, x1, nprims);
    }
    if (rc == 0)
        rc = store_freeze(looks->layers, ids, nprims);
    free(x0);
    free(x1);
    return rc;
}

int summary_freeze(store *st, int radix, const prim *prims, size_t nprims,
                   summary_looks *looks)
{
    summary_looks_free(looks);
    uint32_t *ids = malloc((nprims + 1) * sizeof *ids);
    int rc = ids ? 0 : -1;
    if (rc == 0)
        rc = assign_looks(prims, nprims, looks, ids);
    if (rc == 0) {
        store_set_radix(st, radix);
        rc = store_freeze(st, NULL, 0); /* its summaries are the layers' */
    }
    if (rc == 0)
        rc = build_layers(st, radix, prims, nprims, ids, looks);
    if (rc == 0)
        rc = find_reach(prims, nprims, looks);
    if (rc == 0)
        rc = summary_texts_build(st, radix, prims, nprims, &looks->texts);
    free(ids);
    return rc;
}

void summary_looks_free(summary_looks *looks)
{
    if (!looks)
        return;
    free(looks->look);
    store_free(looks->layers);
    free(looks->layer_look);
    free(looks->row_first);
    free(looks->reach_prim);
    summary_texts_free(&looks->texts);
    memset(looks, 0, sizeof *looks);
}

uint32_t summary_color(const summary_looks *looks, uint32_t look)
{
    return look && look <= looks->n ? looks->look[look - 1].color : 0;
}

void summary_band(const summary_looks *looks, const prim *prims, uint32_t look, double top,
                  double h, float scale, double *y0, double *y1)
{
    *y0 = *y1 = top;
    if (!look || look > looks->n)
        return;
    prim_band(&prims[looks->look[look - 1].prim], top, h, scale, y0, y1);
    *y0 = fmin(fmax(*y0, top), top + h);
    *y1 = fmin(fmax(*y1, *y0), top + h);
}
