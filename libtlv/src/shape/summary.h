/*
 * summary.h — how primitives show in a zoomed-out row drawn from the
 * store's per-column summaries (store_summary): each primitive that paints
 * something gets a "look" (its colour and the band of the row it paints) and
 * the part of its shape's time span it really covers, so that a summary
 * draws what the shapes would draw at that scale: a pixel-sized marker at
 * the start of a long area stays an instant, a line stays a line, and a text
 * draws nothing (summary_texts.c files the texts of long shapes apart).
 */
#ifndef TLV_SUMMARY_H
#define TLV_SUMMARY_H

#include "shape/figure.h"
#include "shape/store.h"

#include <stddef.h>
#include <stdint.h>

/* A colour in a band of the row, shared by every primitive that paints the
 * same; `prim` is one of them (the band is computed from it when drawing,
 * for the row height at hand). */
typedef struct summary_look {
    uint32_t color; /* ARGB */
    uint32_t prim;
} summary_look;

/* The texts of the shapes of each row, by length class (summary_texts.c):
 * class c of row r (row_first[r] <= c < row_first[r + 1]) holds the text
 * shapes whose length is in [2^(class_exp[c]-1), 2^class_exp[c]), as the
 * store positions pos[class_first[c] .. class_first[c + 1]), in time
 * order. */
typedef struct summary_texts {
    uint32_t *pos;
    size_t npos;
    uint32_t *row_first;
    size_t *class_first;
    int32_t *class_exp;
    uint32_t nrows;
} summary_texts;

/* The looks, and the summary layers: one per (row, look) that has shapes,
 * kept as the rows of a store of their own whose summaries give, per pixel
 * column, whether the look paints there. A row's layers are in drawing
 * order (by the first shape of each look). */
typedef struct summary_looks {
    summary_look *look;  /* look id k (>= 1) is look[k - 1] */
    size_t n, cap;
    store *layers;
    uint32_t *layer_look; /* per layer: its look id */
    uint32_t *row_first;  /* per row r < nrows: its layers are row_first[r] .. row_first[r + 1] - 1 */
    uint32_t nrows;
    /* One primitive of each vertical geometry (band, points, pen) among
     * those that are not texts: how far beyond its band a row may draw is
     * the furthest any of these reaches (render.c, every frame drawn on two
     * threads), measured on these few rather than on every primitive (a
     * 100M-line trace has hundreds of thousands). Valid when has_reach. */
    uint32_t *reach_prim;
    size_t nreach;
    int has_reach;
    summary_texts texts;  /* the texts a summary row still draws */
} summary_looks;

/* Freezes the store `st` and builds the looks of its primitives and its
 * summary layers, for times in `radix` (as store_set_radix). Returns 0 or
 * -1 (no memory). */
int summary_freeze(store *st, int radix, const prim *prims, size_t nprims,
                   summary_looks *looks);

void summary_looks_free(summary_looks *looks);

/* Files the text shapes of the frozen store `st` by row and length class
 * (times in `radix`). Returns 0 or -1 (no memory; *out then empty). */
int summary_texts_build(const store *st, int radix, const prim *prims, size_t nprims,
                        summary_texts *out);
void summary_texts_free(summary_texts *t);
/* Bytes the index takes, for memory accounting. */
size_t summary_texts_bytes(const summary_texts *t);

/* Calls fn for the text shapes of `row` (of st, the store t was built
 * from) overlapping [t0, t1] whose length is at least min_len: the texts a
 * row drawn from summaries can still hold. By length class, each in time
 * order; fn returns 0 to go on. Visits few more shapes than it reports:
 * about (t1 - t0) / min_len per class and level of nesting. */
void summary_texts_query(const summary_texts *t, const store *st, int radix, uint32_t row,
                         double t0, double t1, double min_len, store_visit_fn fn, void *ctx);

/* The band [*y0, *y1) a look paints in a row from `top`, `h` pixels high,
 * with pens `scale` times their width; cut to the row. */
void summary_band(const summary_looks *looks, const prim *prims, uint32_t look, double top,
                  double h, float scale, double *y0, double *y1);

/* The colour of a look id (0 for none). */
uint32_t summary_color(const summary_looks *looks, uint32_t look);

#endif
