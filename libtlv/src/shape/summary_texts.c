/*
 * summary_texts.c — the texts of long shapes in rows drawn from summaries
 * (summary.h). A summary paints colours, never texts, so a row with a
 * dense stretch anywhere in view (1,400 short syscalls in 50 ms) lost the
 * name of its 302 ms call too, though the call is 600 px wide. Here every
 * text primitive's shape is filed by row and by length class (lengths in
 * [2^(e-1), 2^e) trace units), each class in time order; a frame asks for
 * the texts of shapes at least `min_len` long in view, and visits only the
 * classes that can hold one, each from a binary search: a few hundred
 * shapes per row and frame, whatever the number in the row. 4 bytes per
 * text shape.
 */
#include "shape/summary.h"

#include "base/buf.h"
#include "base/parfor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A row's classes as found: exponent and count, sorted by exponent. */
typedef struct row_classes {
    int32_t *exp;
    uint32_t *count;
    size_t n, cap;
} row_classes;

typedef struct texts_work {
    const store *st;
    const prim *prims;
    size_t nprims;
    int radix;
    uint32_t *rows_by_size;
    row_classes *rows;
    int filling;              /* 0: counting the classes; 1: filling them */
    summary_texts *out;
    size_t *next;             /* per class: where its next position goes */
} texts_work;

/* Whether shape i is a text's with a length; *exp gets its class: the
 * length is in [2^(exp-1), 2^exp). */
static int text_class(const texts_work *w, size_t i, int32_t *exp)
{
    uint32_t prim, order;
    store_prim_order(w->st, i, &prim, &order);
    if (prim >= w->nprims || w->prims[prim].type != PRIM_TEXT)
        return 0;
    shape sh;
    store_get(w->st, i, &sh);
    double len = tlv_time_to_double(sh.to, w->radix) - tlv_time_to_double(sh.from, w->radix);
    if (!(len > 0) || !isfinite(len))
        return 0; /* an instant holds no text wider than a few pixels */
    int e;
    frexp(len, &e);
    *exp = e;
    return 1;
}

static long class_slot(const row_classes *rc, int32_t exp)
{
    size_t lo = 0, hi = rc->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (rc->exp[mid] < exp)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo;
}

static int count_row(texts_work *w, uint32_t r)
{
    row_classes *rc = &w->rows[r];
    size_t first, count;
    store_row_span(w->st, r, &first, &count);
    for (size_t i = first; i < first + count; i++) {
        int32_t exp;
        if (!text_class(w, i, &exp))
            continue;
        long k = class_slot(rc, exp);
        if ((size_t)k == rc->n || rc->exp[k] != exp) {
            if (GROW(rc->exp, rc->cap, rc->n + 1) < 0)
                return -1;
            size_t cap = rc->cap; /* count grows alongside exp */
            uint32_t *c = realloc(rc->count, cap * sizeof *c);
            if (!c)
                return -1;
            rc->count = c;
            memmove(rc->exp + k + 1, rc->exp + k, (rc->n - (size_t)k) * sizeof *rc->exp);
            memmove(rc->count + k + 1, rc->count + k, (rc->n - (size_t)k) * sizeof *rc->count);
            rc->exp[k] = exp;
            rc->count[k] = 0;
            rc->n++;
        }
        rc->count[k]++;
    }
    return 0;
}

/* Files row r's text shapes in its classes, in position (time) order. */
static void fill_row(texts_work *w, uint32_t r)
{
    const row_classes *rc = &w->rows[r];
    if (!rc->n)
        return;
    uint32_t base = w->out->row_first[r];
    size_t first, count;
    store_row_span(w->st, r, &first, &count);
    for (size_t i = first; i < first + count; i++) {
        int32_t exp;
        if (!text_class(w, i, &exp))
            continue;
        size_t cls = base + (size_t)class_slot(rc, exp);
        w->out->pos[w->next[cls]++] = (uint32_t)i;
    }
}

static int texts_row(void *ctx, size_t item, int worker)
{
    (void)worker;
    texts_work *w = ctx;
    uint32_t r = w->rows_by_size[item];
    if (w->filling) {
        fill_row(w, r);
        return 0;
    }
    return count_row(w, r);
}

/* Numbers the classes row after row and places them in pos. */
static int number_classes(texts_work *w, uint32_t nrows)
{
    summary_texts *t = w->out;
    size_t nclasses = 0, npos = 0;
    for (uint32_t r = 0; r < nrows; r++)
        nclasses += w->rows[r].n;
    t->row_first = malloc(((size_t)nrows + 1) * sizeof *t->row_first);
    t->class_first = malloc((nclasses + 1) * sizeof *t->class_first);
    t->class_exp = malloc((nclasses ? nclasses : 1) * sizeof *t->class_exp);
    w->next = malloc((nclasses ? nclasses : 1) * sizeof *w->next);
    if (!t->row_first || !t->class_first || !t->class_exp || !w->next)
        return -1;
    size_t c = 0;
    for (uint32_t r = 0; r < nrows; r++) {
        t->row_first[r] = (uint32_t)c;
        for (size_t k = 0; k < w->rows[r].n; k++, c++) {
            t->class_exp[c] = w->rows[r].exp[k];
            t->class_first[c] = npos;
            w->next[c] = npos;
            npos += w->rows[r].count[k];
        }
    }
    t->row_first[nrows] = (uint32_t)c;
    t->class_first[c] = npos;
    t->nrows = nrows;
    t->npos = npos;
    t->pos = malloc((npos ? npos : 1) * sizeof *t->pos);
    return t->pos ? 0 : -1;
}

int summary_texts_build(const store *st, int radix, const prim *prims, size_t nprims,
                        summary_texts *out)
{
    summary_texts_free(out);
    uint32_t nrows = store_rows(st);
    texts_work w = {st, prims, nprims, radix, store_rows_longest_first(st), NULL, 0, out, NULL};
    w.rows = calloc((size_t)nrows + 1, sizeof *w.rows);
    int threads = store_threads(st);
    int rc = w.rows_by_size && w.rows ? 0 : -1;
    if (rc == 0)
        rc = parfor_run(threads, nrows, texts_row, &w);
    if (rc == 0)
        rc = number_classes(&w, nrows);
    w.filling = 1;
    if (rc == 0)
        rc = parfor_run(threads, nrows, texts_row, &w);
    for (uint32_t r = 0; w.rows && r < nrows; r++) {
        free(w.rows[r].exp);
        free(w.rows[r].count);
    }
    free(w.rows);
    free(w.rows_by_size);
    free(w.next);
    if (rc < 0)
        summary_texts_free(out);
    return rc;
}

void summary_texts_free(summary_texts *t)
{
    if (!t)
        return;
    free(t->pos);
    free(t->row_first);
    free(t->class_first);
    free(t->class_exp);
    memset(t, 0, sizeof *t);
}

size_t summary_texts_bytes(const summary_texts *t)
{
    if (!t->row_first)
        return 0;
    size_t nclasses = t->row_first[t->nrows];
    return t->npos * sizeof *t->pos + ((size_t)t->nrows + 1) * sizeof *t->row_first +
           (nclasses + 1) * sizeof *t->class_first + nclasses * sizeof *t->class_exp;
}

/* The first position of class c whose shape starts at or after t. */
static size_t first_from(const summary_texts *t, const store *st, int radix, size_t c, double t0)
{
    size_t lo = t->class_first[c], hi = t->class_first[c + 1];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        shape sh;
        store_get(st, t->pos[mid], &sh);
        if (tlv_time_to_double(sh.from, radix) < t0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void summary_texts_query(const summary_texts *t, const store *st, int radix, uint32_t row,
                         double t0, double t1, double min_len, store_visit_fn fn, void *ctx)
{
    if (!t->row_first || row >= t->nrows)
        return;
    for (size_t c = t->row_first[row]; c < t->row_first[row + 1]; c++) {
        double longest = ldexp(1.0, t->class_exp[c]); /* lengths are below 2^exp */
        if (longest <= min_len)
            continue;
        /* a shape of this class overlapping [t0, t1] starts after t0 - longest */
        for (size_t i = first_from(t, st, radix, c, t0 - longest); i < t->class_first[c + 1]; i++) {
            shape sh;
            store_get(st, t->pos[i], &sh);
            double from = tlv_time_to_double(sh.from, radix), to = tlv_time_to_double(sh.to, radix);
            if (from > t1)
                break;
            if (to >= t0 && to - from >= min_len && fn(ctx, &sh, t->pos[i]))
                return;
        }
    }
}
