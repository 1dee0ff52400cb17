/*
 * test_store.c — the shape store (libtlv/src/store.c): canonical order;
 * overlap queries and counts against a brute-force scan of random rows (long,
 * short, zero-length and reversed intervals, fractional times), visited in
 * drawing order; empty rows and rows past the end; summary colors, both the
 * exact ones and those read from the pyramid, on constructed rows and
 * against a brute-force rule on random rows; a 100,000-shape row zoomed out;
 * a 1.1M-shape row's finer pyramid;
 * the same store frozen on one thread and on four (only this part runs
 * under ThreadSanitizer in CI).
 */
#include "check.h"

#include "shape/store.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SCALE10 1000000000000000000ull /* 10^18: radix-10 fraction scale */
#define SCALE16 (1ull << 60)           /* 16^15 */

#define RED 0xffff0000u
#define BLUE 0xff0000ffu
#define GREEN 0xff00ff00u
#define GRAY 0xff808080u

/* Primitive index -> fill; primitive 0 draws nothing a summary shows. */
enum { P_TEXT, P_RED, P_BLUE, P_GREEN, P_GRAY, NPRIMS };
static const uint32_t fills[NPRIMS] = {0, RED, BLUE, GREEN, GRAY};

/* store_get into a temporary that lives until the end of the enclosing block. */
#define GET(s, i) store_get((s), (i), &(shape){0})

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t below(uint64_t n) { return rnd() % n; }

static tlv_time at(int64_t ticks, uint64_t frac) { return (tlv_time){ticks, frac}; }

static void add(store *s, uint32_t row, tlv_time from, tlv_time to, uint32_t prim,
                uint32_t order)
{
    shape sh = {from, to, row, prim, 7, 8, 9, order};
    CHECK_INT(store_add(s, &sh), 0);
}

static void add_ticks(store *s, uint32_t row, int64_t from, int64_t to, uint32_t prim,
                      uint32_t order)
{
    add(s, row, at(from, 0), at(to, 0), prim, order);
}

static store *frozen(store *s)
{
    CHECK_INT(store_freeze(s, fills, NPRIMS), 0);
    return s;
}

/* ---- random rows and brute force ----------------------------------------- */

static tlv_time random_time(int64_t lo, int64_t hi)
{
    uint64_t frac = below(2) ? 0 : below(SCALE10);
    return at(lo + (int64_t)below((uint64_t)(hi - lo)), frac);
}

static tlv_time plus(tlv_time t, int64_t ticks, uint64_t frac)
{
    t.frac += frac;
    if (t.frac >= SCALE10) {
        t.frac -= SCALE10;
        t.ticks++;
    }
    t.ticks += ticks;
    return t;
}

static shape random_shape(uint32_t row)
{
    shape sh = {{0, 0}, {0, 0}, row, (uint32_t)below(NPRIMS), 0, 0, 0, (uint32_t)below(5000)};
    unsigned kind = (unsigned)below(100);
    if (kind < 3) { /* spanning (nearly) the whole trace */
        sh.from = random_time(-100, 500);
        sh.to = random_time(9000, 10100);
    } else if (kind < 13) {
        sh.from = sh.to = random_time(-100, 10100);
    } else if (kind < 15) { /* ends before it starts */
        sh.to = random_time(-100, 10000);
        sh.from = plus(sh.to, 1 + (int64_t)below(30), 0);
    } else {
        sh.from = random_time(-100, 10100);
        sh.to = plus(sh.from, (int64_t)below(60), below(2) ? 0 : below(SCALE10));
    }
    return sh;
}

static int compare_all_fields(const void *pa, const void *pb)
{
    const shape *a = pa, *b = pb;
    int c = (a->row > b->row) - (a->row < b->row);
    if (!c)
        c = tlv_time_cmp(a->from, b->from);
    if (!c)
        c = (a->order > b->order) - (a->order < b->order);
    if (!c)
        c = tlv_time_cmp(a->to, b->to);
    if (!c)
        c = (a->prim > b->prim) - (a->prim < b->prim);
    return c;
}

/* Rows 0..nrows-1, every third one left empty. */
static shape *random_shapes(uint32_t nrows, size_t *count)
{
    size_t n = 0, cap = 64;
    shape *all = malloc(cap * sizeof *all);
    for (uint32_t r = 0; r < nrows; r++) {
        if (r % 3 == 1)
            continue;
        size_t m = below(1500);
        for (size_t i = 0; i < m; i++) {
            if (n == cap)
                all = realloc(all, (cap *= 2) * sizeof *all);
            all[n++] = random_shape(r);
        }
    }
    *count = n;
    return all;
}

typedef struct visits {
    const store *s;
    size_t *pos;
    size_t n, cap, stop_after;
} visits;

static int record(void *ctx, const shape *sh, size_t pos)
{
    visits *v = ctx;
    (void)sh;
    if (v->n < v->cap)
        v->pos[v->n] = pos;
    v->n++;
    return v->stop_after && v->n == v->stop_after;
}

static const store *sort_store; /* brute force only, one thread */

/* Drawing order: order, then from, i.e. canonical position. */
static int by_drawing_order(const void *pa, const void *pb)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    uint32_t oa = GET(sort_store, a)->order, ob = GET(sort_store, b)->order;
    if (oa != ob)
        return oa < ob ? -1 : 1;
    return (a > b) - (a < b);
}

/* A shape ending before it starts is the instant `from`. */
static tlv_time end_of(const shape *sh)
{
    return tlv_time_cmp(sh->to, sh->from) < 0 ? sh->from : sh->to;
}

static size_t brute_overlaps(const store *s, uint32_t row, tlv_time t0, tlv_time t1, size_t *pos)
{
    size_t k = 0;
    if (tlv_time_cmp(t0, t1) > 0)
        return 0;
    for (size_t i = 0; i < store_count(s); i++) {
        const shape *sh = GET(s, i);
        if (sh->row == row && tlv_time_cmp(sh->from, t1) <= 0 &&
            tlv_time_cmp(end_of(sh), t0) >= 0)
            pos[k++] = i;
    }
    sort_store = s;
    qsort(pos, k, sizeof *pos, by_drawing_order);
    return k;
}

static void check_canonical(const store *s, shape *added, size_t n)
{
    CHECK_INT(store_count(s), n);
    for (size_t i = 1; i < n; i++) {
        const shape *a = GET(s, i - 1), *b = GET(s, i);
        int c = a->row != b->row ? (a->row < b->row ? -1 : 1) : tlv_time_cmp(a->from, b->from);
        CHECK(c < 0 || (c == 0 && a->order <= b->order));
    }
    qsort(added, n, sizeof *added, compare_all_fields);
    shape *got = malloc((n ? n : 1) * sizeof *got);
    for (size_t i = 0; i < n; i++)
        got[i] = *GET(s, i);
    qsort(got, n, sizeof *got, compare_all_fields);
    CHECK(n == 0 || memcmp(got, added, n * sizeof *got) == 0);
    free(got);
    CHECK(GET(s, n) == NULL);
}

/* A window: sometimes exactly at a shape's ends, sometimes reversed. */
static void random_window(const store *s, tlv_time *t0, tlv_time *t1)
{
    unsigned kind = (unsigned)below(10);
    if (kind == 0 && store_count(s)) {
        const shape *sh = GET(s, below(store_count(s)));
        *t0 = sh->to;
        *t1 = below(2) ? sh->to : sh->from;
        return;
    }
    *t0 = random_time(-300, 10300);
    if (kind == 1)
        *t1 = *t0;
    else if (kind == 2)
        *t1 = plus(*t0, 20000, 0);
    else if (kind == 3)
        *t1 = random_time(-300, 10300); /* may come before t0 */
    else
        *t1 = plus(*t0, (int64_t)below(300), below(SCALE10));
}

static void check_random_queries(const store *s, uint32_t nrows)
{
    size_t n = store_count(s);
    size_t *want = malloc((n + 1) * sizeof *want), *got = malloc((n + 1) * sizeof *got);
    for (int q = 0; q < 300; q++) {
        uint32_t row = (uint32_t)below(nrows + 2);
        tlv_time t0, t1;
        random_window(s, &t0, &t1);
        size_t k = brute_overlaps(s, row, t0, t1, want);
        visits v = {s, got, 0, n + 1, 0};
        store_query(s, row, t0, t1, record, &v);
        CHECK_INT(v.n, k);
        CHECK(v.n == k && memcmp(got, want, k * sizeof *got) == 0);
        CHECK_INT(store_count_overlapping(s, row, t0, t1), k);
        if (k > 3) { /* fn returning non-zero stops the walk */
            visits stop = {s, got, 0, n + 1, 3};
            store_query(s, row, t0, t1, record, &stop);
            CHECK_INT(stop.n, 3);
            CHECK(memcmp(got, want, 3 * sizeof *got) == 0);
        }
    }
    free(want);
    free(got);
}

static void test_random_rows(void)
{
    for (int round = 0; round < 4; round++) {
        uint32_t nrows = 1 + (uint32_t)below(8);
        size_t n;
        shape *all = random_shapes(nrows, &n);
        store *s = store_new();
        for (size_t i = 0; i < n; i++)
            CHECK_INT(store_add(s, &all[i]), 0);
        frozen(s);
        check_canonical(s, all, n);
        uint32_t last_row = 0;
        for (size_t i = 0; i < n; i++)
            if (all[i].row > last_row)
                last_row = all[i].row;
        CHECK_INT(store_rows(s), n ? last_row + 1 : 0);
        check_random_queries(s, nrows);
        store_free(s);
        free(all);
    }
}

/* Rows made of runs already in order, as rule units add them (each in the
 * order of its events), some shorter than a sorting piece, one backwards,
 * with equal starts told apart by order: sorted as from random order
 * (store_freeze sorts by finding the runs, store.c). */
static void test_rows_in_runs(void)
{
    size_t n = 0, cap = 40000;
    shape *all = malloc(cap * sizeof *all);
    for (int run = 0; run < 12; run++) {
        uint32_t row = (uint32_t)(run % 3);
        size_t len = run == 5 ? 7 : run == 8 ? 1 : 1000 + below(2000);
        int64_t t = (int64_t)below(1000);
        for (size_t k = 0; k < len && n < cap; k++, n++) {
            t += run == 9 ? -(int64_t)below(3) : (int64_t)below(3);
            tlv_time from = at(t, below(4) ? 0 : below(SCALE10));
            all[n] = (shape){from, plus(from, (int64_t)below(40), 0), row,
                             (uint32_t)below(NPRIMS), 7, 8, 9, (uint32_t)(n % 5)};
        }
    }
    store *s = store_new(), *shuffled = store_new();
    for (size_t i = 0; i < n; i++)
        CHECK_INT(store_add(s, &all[i]), 0);
    size_t *perm = malloc(n * sizeof *perm);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    for (size_t i = n; i > 1; i--) {
        size_t j = below(i), t = perm[i - 1];
        perm[i - 1] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < n; i++)
        CHECK_INT(store_add(shuffled, &all[perm[i]]), 0);
    frozen(s);
    frozen(shuffled);
    check_canonical(s, all, n);
    check_random_queries(s, 3);
    for (size_t i = 0; i < n; i++) { /* equal (row, from, order): as added, so by run */
        const shape *a = GET(s, i), *b = GET(shuffled, i);
        CHECK(a->row == b->row && tlv_time_cmp(a->from, b->from) == 0 && a->order == b->order);
    }
    free(perm);
    free(all);
    store_free(s);
    store_free(shuffled);
}

/* A view (store_new_view) answers as a store holding copies of the same
 * shapes on the same rows would: the shapes of each row split into layers
 * by primitive, as the summary layers are. */
static int visit_shape(void *ctx, const shape *sh, size_t pos)
{
    visits *v = ctx;
    (void)pos;
    if (v->n < v->cap)
        v->pos[v->n++] = (size_t)(sh->order);
    return 0;
}

static void test_view_matches_copy(void)
{
    for (int round = 0; round < 4; round++) {
        uint32_t nrows = 1 + (uint32_t)below(6);
        size_t n;
        shape *all = random_shapes(nrows, &n);
        for (size_t i = 0; i < n; i++)
            all[i].order = (uint32_t)i; /* unique, to tell visits apart */
        store *base = store_new(), *copy = store_new();
        for (size_t i = 0; i < n; i++)
            CHECK_INT(store_add(base, &all[i]), 0);
        CHECK(store_new_view(base) == NULL); /* not frozen yet */
        CHECK_INT(store_freeze(base, NULL, 0), 0);
        store *view = store_new_view(base);
        CHECK(view != NULL);
        CHECK(store_new_view(view) == NULL); /* no view of a view */
        CHECK_INT(store_add(view, &all[0]), -1);
        CHECK_INT(store_add_ref(view, n, 0), -1);
        /* added in reverse, to check the view sorts its references */
        for (size_t i = n; i-- > 0;) {
            shape sh = *GET(base, i);
            sh.row = sh.row * NPRIMS + sh.prim;
            CHECK_INT(store_add_ref(view, i, sh.row), 0);
            CHECK_INT(store_add(copy, &sh), 0);
        }
        CHECK_INT(store_freeze(view, fills, NPRIMS), 0);
        CHECK_INT(store_freeze(copy, fills, NPRIMS), 0);
        CHECK_INT(store_count(view), n);
        CHECK_INT(store_rows(view), store_rows(copy));
        for (size_t i = 0; i < n; i++)
            CHECK_INT(GET(view, i)->order, GET(copy, i)->order);
        size_t *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
        for (int q = 0; q < 200; q++) {
            uint32_t row = (uint32_t)below(nrows * NPRIMS + 1);
            tlv_time t0, t1;
            random_window(copy, &t0, &t1);
            visits va = {view, a, 0, n + 1, 0}, vb = {copy, b, 0, n + 1, 0};
            store_query(view, row, t0, t1, visit_shape, &va);
            store_query(copy, row, t0, t1, visit_shape, &vb);
            CHECK(va.n == vb.n && memcmp(a, b, va.n * sizeof *a) == 0);
            CHECK_INT(store_count_overlapping(view, row, t0, t1), vb.n);
            uint32_t sa[64], sb[64];
            double d0 = tlv_time_to_double(t0, 10), d1 = d0 + 1 + (double)below(20000);
            size_t cols = 1 + below(64);
            store_summary(view, row, d0, d1, 10, sa, cols);
            store_summary(copy, row, d0, d1, 10, sb, cols);
            CHECK(memcmp(sa, sb, cols * sizeof *sa) == 0);
        }
        free(a);
        free(b);
        store_free(view);
        store_free(copy);
        store_free(base);
        free(all);
    }
}

/* ---- small fixed cases ---------------------------------------------------- */

static void test_empty_and_missing_rows(void)
{
    store *s = store_new();
    CHECK_INT(store_rows(s), 0);
    frozen(s);
    CHECK_INT(store_count(s), 0);
    CHECK_INT(store_rows(s), 0);
    CHECK(GET(s, 0) == NULL);
    visits v = {s, NULL, 0, 0, 0};
    store_query(s, 0, at(-1000, 0), at(1000, 0), record, &v);
    CHECK_INT(v.n, 0);
    CHECK_INT(store_count_overlapping(s, 0, at(-1000, 0), at(1000, 0)), 0);
    uint32_t out[4] = {1, 2, 3, 4};
    store_summary(s, 0, 0, 100, 10, out, 4);
    CHECK(out[0] == 0 && out[3] == 0);
    store_free(s);

    s = store_new();
    add_ticks(s, 3, 10, 20, P_RED, 1);
    add_ticks(s, 3, 30, 25, P_BLUE, 3); /* ends before it starts: the instant 30 */
    add_ticks(s, 0, 10, 20, P_RED, 2);
    frozen(s);
    shape late = {{0, 0}, {1, 0}, 0, 0, 0, 0, 0, 0};
    CHECK_INT(store_add(s, &late), -1); /* frozen */
    CHECK_INT(store_rows(s), 4);
    for (uint32_t row = 1; row < 8; row++) {
        if (row == 3)
            continue;
        CHECK_INT(store_count_overlapping(s, row, at(0, 0), at(100, 0)), 0);
        store_query(s, row, at(0, 0), at(100, 0), record, &v);
        store_summary(s, row, 0, 100, 10, out, 4);
        CHECK(out[0] == 0 && out[1] == 0 && out[2] == 0 && out[3] == 0);
    }
    CHECK_INT(v.n, 0);
    CHECK_INT(store_count_overlapping(s, 3, at(20, 0), at(29, 0)), 1); /* ends inclusive */
    CHECK_INT(store_count_overlapping(s, 3, at(0, 0), at(10, 0)), 1);
    CHECK_INT(store_count_overlapping(s, 3, at(20, 1), at(29, 0)), 0);
    CHECK_INT(store_count_overlapping(s, 3, at(15, 0), at(14, 0)), 0); /* t0 > t1: empty */
    CHECK_INT(store_count_overlapping(s, 3, at(25, 0), at(40, 0)), 1); /* [30, 25]: at 30 */
    CHECK_INT(store_count_overlapping(s, 3, at(26, 0), at(29, 0)), 0);
    store_free(s);
    store_free(NULL);
}

/* Shapes drawn in one order, added in another: the visit follows `order`. */
static void test_drawing_order(void)
{
    store *s = store_new();
    add_ticks(s, 0, 0, 1000, P_GRAY, 5);
    add_ticks(s, 0, 10, 20, P_RED, 2);
    add_ticks(s, 0, 5, 30, P_BLUE, 9);
    add_ticks(s, 0, 12, 12, P_TEXT, 2);
    add_ticks(s, 0, 40, 50, P_GREEN, 1);
    frozen(s);
    const uint32_t want_canonical[] = {5, 9, 2, 2, 1}; /* by from: 0, 5, 10, 12, 40 */
    for (size_t i = 0; i < 5; i++)
        CHECK_INT(GET(s, i)->order, want_canonical[i]);
    size_t pos[8];
    visits v = {s, pos, 0, 8, 0};
    store_query(s, 0, at(11, 0), at(45, 0), record, &v);
    CHECK_INT(v.n, 5);
    const uint32_t want_order[] = {1, 2, 2, 5, 9};
    const int64_t want_from[] = {40, 10, 12, 0, 5};
    for (size_t i = 0; i < 5 && i < v.n; i++) {
        CHECK_INT(GET(s, pos[i])->order, want_order[i]);
        CHECK_INT(GET(s, pos[i])->from.ticks, want_from[i]);
    }
    store_free(s);
}

/* ---- summaries ------------------------------------------------------------- */

/* 1000 invisible instants over [0, 100): many shapes in view, so summaries of
 * 10 columns come from the pyramid instead of the shapes. */
static void pad(store *s, uint32_t row)
{
    for (int i = 0; i < 1000; i++)
        add(s, row, at(i / 10, (uint64_t)(i % 10) * (SCALE10 / 10)),
            at(i / 10, (uint64_t)(i % 10) * (SCALE10 / 10)), P_TEXT, 100000 + (uint32_t)i);
}

static void check_columns(const store *s, uint32_t row, const uint32_t *want, const char *what)
{
    uint32_t out[10];
    store_summary(s, row, 0, 100, 10, out, 10);
    for (int i = 0; i < 10; i++)
        if (out[i] != want[i]) {
            fprintf(stderr, "%s: row %u column %d: %08x, expected %08x\n", what, row, i,
                    out[i], want[i]);
            check_failures++;
        }
}

static void test_summary_examples(int from_pyramid)
{
    const char *what = from_pyramid ? "pyramid" : "exact";
    store *s = store_new();
    add_ticks(s, 0, 0, 50, P_RED, 1);
    add_ticks(s, 0, 50, 100, P_BLUE, 2);
    add_ticks(s, 1, 0, 15, P_RED, 1); /* column 1 half covered */
    add_ticks(s, 2, 20, 23, P_RED, 1);
    add_ticks(s, 2, 25, 30, P_BLUE, 2); /* covers more of column 2 */
    add_ticks(s, 3, 0, 100, P_GRAY, 0);
    add_ticks(s, 3, 10, 20, P_RED, 5);  /* ties the background: drawn later, wins */
    add_ticks(s, 3, 30, 34, P_BLUE, 6); /* covers less than the background */
    add_ticks(s, 3, 0, 100, P_TEXT, 9); /* no fill: not summarised */
    add_ticks(s, 4, 55, 55, P_GREEN, 1); /* an instant still shows */
    add_ticks(s, 5, 30, 40, P_BLUE, 1);
    add_ticks(s, 5, 100, 100, P_GREEN, 2); /* an instant at the row's end */
    if (from_pyramid)
        for (uint32_t row = 0; row < 6; row++)
            pad(s, row);
    frozen(s);
    const uint32_t row0[10] = {RED, RED, RED, RED, RED, BLUE, BLUE, BLUE, BLUE, BLUE};
    const uint32_t row1[10] = {RED, RED};
    const uint32_t row2[10] = {0, 0, BLUE};
    const uint32_t row3[10] = {GRAY, RED, GRAY, GRAY, GRAY, GRAY, GRAY, GRAY, GRAY, GRAY};
    const uint32_t row4[10] = {0, 0, 0, 0, 0, GREEN};
    check_columns(s, 0, row0, what);
    check_columns(s, 1, row1, what);
    check_columns(s, 2, row2, what);
    check_columns(s, 3, row3, what);
    check_columns(s, 4, row4, what);
    const uint32_t row5[10] = {0, 0, 0, BLUE, 0, 0, 0, 0, 0, GREEN}; /* t1 is in the last */
    check_columns(s, 5, row5, what);
    uint32_t halves[2];
    store_summary(s, 5, 0, 200, 10, halves, 2); /* on a column edge: the column it starts */
    CHECK_INT(halves[0], BLUE);
    CHECK_INT(halves[1], GREEN);

    uint32_t out[5];
    store_summary(s, 3, -100, 400, 10, out, 5); /* columns of 100: wider than the row */
    CHECK(out[0] == 0 && out[1] == GRAY && out[2] == 0 && out[3] == 0 && out[4] == 0);
    store_summary(s, 0, 100, 0, 10, out, 5); /* no range */
    CHECK(out[0] == 0 && out[4] == 0);
    store_free(s);
}

/* Equal coverage in a column goes to the shape drawn later. */
static void test_summary_tie(void)
{
    store *s = store_new();
    add_ticks(s, 0, 20, 25, P_RED, 2);
    add_ticks(s, 0, 25, 30, P_BLUE, 1);
    add_ticks(s, 1, 20, 25, P_RED, 1);
    add_ticks(s, 1, 25, 30, P_BLUE, 2);
    frozen(s);
    uint32_t out[10];
    store_summary(s, 0, 0, 100, 10, out, 10);
    CHECK_INT(out[2], RED);
    store_summary(s, 1, 0, 100, 10, out, 10);
    CHECK_INT(out[2], BLUE);
    store_free(s);
}

/* 100,000 alternating shapes: red [i, i+1) for even i, blue [i, i+0.5) for
 * odd i; red covers twice what blue covers at any zoom. */
static void test_summary_many_shapes(void)
{
    store *s = store_new();
    for (int64_t i = 0; i < 100000; i++)
        add(s, 0, at(i, 0), i % 2 ? at(i, SCALE10 / 2) : at(i + 1, 0), i % 2 ? P_BLUE : P_RED,
            (uint32_t)i);
    frozen(s);
    static uint32_t out[1000];
    store_summary(s, 0, 0, 100000, 10, out, 1000);
    int all_red = 1;
    for (int c = 0; c < 1000; c++)
        all_red &= out[c] == RED;
    CHECK(all_red);

    store_summary(s, 0, -50000, 150000, 10, out, 1000); /* columns of 200 */
    int outside_empty = 1, inside_red = 1;
    for (int c = 0; c < 1000; c++) {
        if (c < 250 || c >= 750)
            outside_empty &= out[c] == 0;
        else
            inside_red &= out[c] == RED;
    }
    CHECK(outside_empty);
    CHECK(inside_red);

    store_summary(s, 0, 0, 2000, 10, out, 1000); /* columns of 2 */
    all_red = 1;
    for (int c = 0; c < 1000; c++)
        all_red &= out[c] == RED;
    CHECK(all_red);

    store_summary(s, 0, 0, 10, 10, out, 1000); /* columns of 0.01: each shape shows */
    int exact = 1;
    for (int c = 0; c < 1000; c++) {
        int unit = c / 100, sub = c % 100;
        uint32_t want = unit % 2 == 0 ? RED : sub < 50 ? BLUE : 0;
        exact &= out[c] == want;
    }
    CHECK(exact);
    store_free(s);
}

/* Fractions mean different times in different radixes: 0.c in radix 16 is
 * 0.75, read as radix 10 it would be 0.8646. */
static void test_summary_radix(void)
{
    uint64_t three_quarters = 12ull << 56;
    for (int set = 0; set < 2; set++) {
        store *s = store_new();
        if (set)
            store_set_radix(s, 16);
        add(s, 0, at(0, 0), at(0, three_quarters), P_RED, 1);
        add(s, 0, at(0, three_quarters), at(1, 0), P_BLUE, 2);
        for (uint64_t i = 0; i < 1000; i++)
            add(s, 0, at(0, i << 50), at(0, i << 50), P_TEXT, 10 + (uint32_t)i);
        frozen(s);
        uint32_t out[8];
        store_summary(s, 0, 0, 1, 16, out, 8);
        const uint32_t want[8] = {RED, RED, RED, RED, RED, RED, BLUE, BLUE};
        for (int c = 0; c < 8; c++)
            CHECK_INT(out[c], want[c]);
        CHECK(three_quarters < SCALE16);
        store_free(s);
    }
}

/* The summary rule by brute force, on integer times and columns of integer
 * width: the fill of the shape covering most of the column, ties to the
 * higher order; an instant covers nothing but is a candidate in its column. */
static uint32_t brute_column(const store *s, uint32_t row, int64_t c0, int64_t c1, int last)
{
    int64_t best_cov = -1;
    uint32_t best_order = 0, color = 0;
    for (size_t i = 0; i < store_count(s); i++) {
        const shape *sh = GET(s, i);
        uint32_t fill = sh->prim < NPRIMS ? fills[sh->prim] : 0;
        if (sh->row != row || !fill)
            continue;
        int64_t from = sh->from.ticks, to = sh->to.ticks, cov;
        if (to > from) {
            cov = (to < c1 ? to : c1) - (from > c0 ? from : c0);
            if (cov <= 0)
                continue;
        } else {
            if (from < c0 || from > c1 || (from == c1 && !last))
                continue;
            cov = 0;
        }
        if (cov > best_cov || (cov == best_cov && sh->order > best_order)) {
            best_cov = cov;
            best_order = sh->order;
            color = fill;
        }
    }
    return color;
}

static void shuffle(uint32_t *v, size_t n)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = below(i);
        uint32_t t = v[i - 1];
        v[i - 1] = v[j];
        v[j] = t;
    }
}

static void add_random_row(store *s, uint32_t row, size_t n, const uint32_t *orders,
                           int64_t gap_from, int64_t gap_to)
{
    for (size_t i = 0; i < n; i++) {
        int64_t from = (int64_t)below(1024), len = (int64_t)below(41);
        unsigned kind = (unsigned)below(100);
        if (kind < 2)
            len = 300 + (int64_t)below(700);
        else if (kind < 12)
            len = 0;
        else if (kind < 14)
            len = -(int64_t)below(20);
        int64_t to = from + len;
        if (to >= gap_from && from < gap_to)
            continue;
        add_ticks(s, row, from, to, (uint32_t)below(NPRIMS), orders[i]);
    }
}

/* Few shapes in view: the summary is the rule itself, exactly. */
static void test_summary_exact_random(void)
{
    for (int round = 0; round < 20; round++) {
        uint32_t orders[300];
        for (uint32_t i = 0; i < 300; i++)
            orders[i] = i * 3;
        shuffle(orders, 300);
        store *s = store_new();
        add_random_row(s, 0, 300, orders, 0, 0);
        frozen(s);
        uint32_t out[128];
        const int64_t starts[] = {0, 256, -64}, widths[] = {8, 2, 16};
        for (int w = 0; w < 3; w++) {
            int64_t t0 = starts[w], cw = widths[w];
            store_summary(s, 0, (double)t0, (double)(t0 + 128 * cw), 10, out, 128);
            for (int c = 0; c < 128; c++) {
                uint32_t want = brute_column(s, 0, t0 + c * cw, t0 + (c + 1) * cw, c == 127);
                if (out[c] != want) {
                    fprintf(stderr, "exact summary round %d view %d column %d: %08x, "
                                    "expected %08x\n", round, w, c, out[c], want);
                    check_failures++;
                }
            }
        }
        store_free(s);
    }
}

/* A row whose filled shapes all have one colour (a summary layer's) has
 * faster summaries — the pyramid whenever its buckets are no wider than the
 * columns, a count per column otherwise — and they must still be the rule
 * exactly: a column has the colour when some shape is a candidate in it.
 * Views: the whole row in 64 and in 512 columns, a middle window in fine
 * columns (few shapes in view, found by the tree), the whole row in columns
 * finer than the buckets (found by looking at each shape). */
static void test_summary_one_color_random(void)
{
    for (int round = 0; round < 10; round++) {
        store *s = store_new();
        size_t n = round < 5 ? 300 : 3000;
        for (uint32_t i = 0; i < n; i++) {
            int64_t from = (int64_t)below(4096), len = (int64_t)below(41);
            unsigned kind = (unsigned)below(100);
            len = kind < 2 ? 300 + (int64_t)below(700) : kind < 12 ? 0 : len;
            if (round >= 8) /* long ones: hundreds reach into the middle window from before it */
                len = kind < 12 ? 0 : (int64_t)below(2000);
            add_ticks(s, 0, from, from + len, below(4) ? P_GREEN : P_TEXT, i);
        }
        frozen(s);
        static uint32_t out[8192];
        const int64_t starts[] = {0, 0, 2048, 0}, widths[] = {64, 8, 1, 1};
        const int counts[] = {64, 512, 64, 5000};
        for (int w = 0; w < 4; w++) {
            int64_t t0 = starts[w], cw = widths[w];
            int nc = counts[w];
            store_summary(s, 0, (double)t0, (double)(t0 + nc * cw), 10, out, (size_t)nc);
            for (int c = 0; c < nc; c++) {
                uint32_t want = brute_column(s, 0, t0 + c * cw, t0 + (c + 1) * cw, c == nc - 1);
                if (out[c] != (want ? GREEN : 0)) {
                    fprintf(stderr, "one-colour summary round %d view %d column %d: %08x, "
                                    "expected %08x\n", round, w, c, out[c], want);
                    check_failures++;
                }
            }
        }
        store_free(s);
    }
    /* a lone instant on the view's right edge: the last column's (the
     * pyramid of a one-shape row would miss it) */
    store *s = store_new();
    add_ticks(s, 0, 100, 100, P_GREEN, 1);
    frozen(s);
    uint32_t out[10];
    store_summary(s, 0, 0, 100, 10, out, 10);
    CHECK_INT(out[9], GREEN);
    CHECK_INT(out[8], 0);
    store_free(s);
}

/* A one-colour row of more than 16 * 65536 shapes gets buckets of about 16
 * shapes (not 65536 of them, 150 shapes each on a 100M-line trace, which
 * made a zoomed-in frame compute its summaries from 100k shapes a layer):
 * 1.1M instants 16 ticks apart get 2^17 buckets, 2 MiB of slim buckets;
 * columns of 200 ticks (wider than those buckets) with 12,500 shapes in
 * view come from the pyramid, still exact: an 800-tick gap shows. */
static void test_summary_big_row(void)
{
    store *s = store_new();
    const uint32_t n = 1100000;
    for (uint32_t i = 0; i < n; i++) {
        int64_t t = (int64_t)i * 16;
        if (t < 8000000 || t >= 8000800)
            add_ticks(s, 0, t, t, P_GREEN, i);
    }
    frozen(s);
    store_bytes b;
    store_count_bytes(s, &b);
    CHECK_INT(b.pyramids, 2 * 131072 * 8);
    static uint32_t out[1000];
    store_summary(s, 0, 7900000, 8100000, 10, out, 1000);
    for (int c = 0; c < 1000; c++) {
        int64_t c0 = 7900000 + (int64_t)c * 200; /* only the 4 columns inside the gap are empty */
        uint32_t want = c0 >= 8000000 && c0 + 200 <= 8000800 ? 0 : GREEN;
        CHECK_INT(out[c], want);
    }
    store_free(s);
}

/* Many shapes in view: the pyramid's colors are estimates, but a column is
 * colored exactly when some filled shape covers part of it or an instant lies
 * in it, and only with the fill of a shape near it (within a column on
 * either side). */
static void test_summary_pyramid_random(void)
{
    static uint32_t orders[3000];
    for (uint32_t i = 0; i < 3000; i++)
        orders[i] = i;
    for (int round = 0; round < 5; round++) {
        shuffle(orders, 3000);
        store *s = store_new();
        add_random_row(s, 0, 3000, orders, 400, 600);
        frozen(s);
        uint32_t out[16];
        store_summary(s, 0, 0, 1024, 10, out, 16);
        for (int c = 0; c < 16; c++) {
            int64_t c0 = c * 64, c1 = c0 + 64;
            int covered = 0, near = 0;
            for (size_t i = 0; i < store_count(s); i++) {
                const shape *sh = GET(s, i);
                uint32_t fill = fills[sh->prim];
                int64_t from = sh->from.ticks, to = sh->to.ticks > from ? sh->to.ticks : from;
                if (!fill)
                    continue;
                if (to > from ? from < c1 && to > c0 : from >= c0 && from < c1)
                    covered = 1;
                if (fill == out[c] && from <= c1 + 64 && to >= c0 - 64)
                    near = 1;
            }
            CHECK_INT(out[c] != 0, covered);
            CHECK(!out[c] || near);
        }
        CHECK(out[7] == 0 && out[8] == 0); /* [448, 576) lies in the gap */
        store_free(s);
    }
}

/* A row whose shapes all have one fill keeps its pyramid in half the
 * memory (slim buckets without color and order): its summaries are those of
 * the same row kept in full. Row 1 is row 0 plus a GRAY copy of one shape
 * drawn below it (lower order), which never wins a bucket but makes the row
 * two-colored, so kept in full; 1000 and 1001 shapes get the same buckets. */
static void test_summary_single_fill(void)
{
    store *s = store_new();
    for (uint32_t row = 0; row < 2; row++) {
        rng = 0x1234567u;
        int copied = 0;
        for (uint32_t i = 0; i < 1000; i++) {
            int64_t from = (int64_t)below(100000), len = (int64_t)below(4) ? (int64_t)below(300) : 0;
            uint32_t prim = below(5) ? P_RED : P_TEXT;
            add_ticks(s, row, from, from + len, prim, i + 1);
            if (row == 1 && i >= 500 && prim == P_RED && !copied++)
                add_ticks(s, row, from, from + len, P_GRAY, 0);
        }
    }
    frozen(s);
    rng = 0x9e3779b97f4a7c15ull;
    for (int q = 0; q < 300; q++) {
        uint32_t a[512], b[512];
        double t0 = (double)below(100000) - 1000, t1 = t0 + 1 + (double)below(200000);
        size_t cols = 1 + below(512);
        store_summary(s, 0, t0, t1, 10, a, cols);
        store_summary(s, 1, t0, t1, 10, b, cols);
        CHECK(memcmp(a, b, cols * sizeof *a) == 0);
    }
    store_free(s);
}

/* Frozen, the store packs its shapes into columns (times as offsets from a
 * base per block of 64, other fields in 1 to 4 bytes): every field comes
 * back exactly — times far apart (a block kept whole), at the int64 limits,
 * large rule, event and prim numbers, no resource — and the same when the
 * columns are kept in a temporary file (store_set_file_min 0). */
static void test_packed_fields(int in_file)
{
    const int64_t far[] = {INT64_MIN, INT64_MIN + 1, -((int64_t)1 << 40), -1, 0,
                           (int64_t)1 << 33, INT64_MAX - 1, INT64_MAX};
    size_t n = 3000;
    shape *all = malloc(n * sizeof *all);
    store *s = store_new();
    if (in_file)
        store_set_file_min(s, 0);
    for (size_t i = 0; i < n; i++) {
        shape sh = random_shape((uint32_t)below(5));
        if (i >= 2000) { /* the last blocks: huge spans and big numbers */
            sh.from.ticks = far[below(8)];
            sh.to.ticks = below(2) ? far[below(8)] : sh.from.ticks;
            sh.rule = (uint32_t)below(2) ? 70000 + (uint32_t)i : UINT32_MAX - 1;
            sh.event = (uint32_t)i * 1000;
            sh.prim = 300 + (uint32_t)i;
            sh.resource = below(2) ? UINT32_MAX : (uint32_t)i << 12;
        } else {
            sh.rule = (uint32_t)below(200);
            sh.resource = below(3) ? UINT32_MAX : (uint32_t)below(1000);
        }
        all[i] = sh;
        CHECK_INT(store_add(s, &sh), 0);
    }
    frozen(s);
    check_canonical(s, all, n);
    for (size_t i = 0; i < n; i++) { /* the fields compare_all_fields leaves out */
        shape want = all[i];
        int found = 0;
        for (size_t j = 0; j < n && !found; j++) {
            const shape *got = GET(s, j);
            found = compare_all_fields(got, &want) == 0 && got->rule == want.rule &&
                    got->event == want.event && got->resource == want.resource;
        }
        CHECK(found);
        if (!found)
            break;
    }
    check_random_queries(s, 5);
    store_bytes b;
    store_count_bytes(s, &b);
    CHECK(in_file ? b.file > n * 8 : b.file == 0);
    store_free(s);
    free(all);
}

/* Frozen on several threads (store_set_threads), a store is the one frozen
 * on one: the same digest (shapes in canonical order, rows, trees, order by
 * end, pyramids), shape for shape and summary for summary; with more shapes
 * than one piece of packing (store.c: PACK_PIECE), rows of very different
 * lengths, fractional times, blocks too wide for 32-bit offsets, and a view
 * over it frozen on as many threads as its base. */
static void test_threads_same(void)
{
    size_t n = 60000;
    store *s[2] = {store_new(), store_new()};
    store_set_threads(s[1], 4);
    CHECK_INT(store_threads(s[1]), 4);
    for (size_t i = 0; i < n; i++) {
        uint32_t row = (uint32_t)(below(4) ? below(3) : 3 + below(40));
        int64_t from = (int64_t)below(1000000) * (row == 5 ? 100000 : 1);
        tlv_time t0 = at(from, below(50) ? 0 : below(SCALE10));
        tlv_time t1 = at(from + (int64_t)below(row == 7 ? (uint64_t)1 << 40 : 500), 0);
        uint32_t prim = row == 2 ? P_RED : (uint32_t)below(NPRIMS);
        uint32_t order = (uint32_t)below(1000);
        for (int k = 0; k < 2; k++)
            add(s[k], row, t0, t1, prim, order);
    }
    for (int k = 0; k < 2; k++)
        frozen(s[k]);
    CHECK(store_digest(s[0]) != 0);
    CHECK(store_digest(s[0]) == store_digest(s[1]));
    for (size_t i = 0; i < n; i += 997)
        CHECK(compare_all_fields(GET(s[0], i), GET(s[1], i)) == 0);
    for (uint32_t row = 0; row < store_rows(s[0]); row++) {
        uint32_t a[300], b[300];
        store_summary(s[0], row, 0, 1e6, 10, a, 300);
        store_summary(s[1], row, 0, 1e6, 10, b, 300);
        CHECK(memcmp(a, b, sizeof a) == 0);
    }
    store *view[2];
    for (int k = 0; k < 2; k++) {
        view[k] = store_new_view(s[k]);
        CHECK_INT(store_threads(view[k]), k ? 4 : 1);
        for (size_t i = 0; i < n; i++)
            CHECK_INT(store_add_ref(view[k], i, GET(s[k], i)->row * NPRIMS + GET(s[k], i)->prim), 0);
        CHECK_INT(store_freeze(view[k], fills, NPRIMS), 0);
    }
    CHECK(store_digest(view[0]) != 0);
    CHECK(store_digest(view[0]) == store_digest(view[1]));
    CHECK(store_digest(view[0]) != store_digest(s[0])); /* the digest does tell stores apart */
    for (int k = 0; k < 2; k++) {
        store_free(view[k]);
        store_free(s[k]);
    }
}

/* References given in bulk (store_add_refs), as the summary layers give
 * them row by row on several threads: in canonical order (by row, then
 * position) the freeze keeps them as they are, in any other order it sorts
 * them; either way the view is the one store_add_ref makes. Also the row
 * spans and the prim and order read without the whole shape. */
static void test_view_refs_in_bulk(void)
{
    size_t n = 5000;
    store *s = store_new();
    for (size_t i = 0; i < n; i++) {
        int64_t from = (int64_t)below(100000);
        add(s, (uint32_t)below(5), at(from, 0), at(from + (int64_t)below(50), 0),
            (uint32_t)below(NPRIMS), (uint32_t)below(1000));
    }
    frozen(s);
    size_t first, count, total = 0;
    for (uint32_t row = 0; row < store_rows(s); row++) {
        store_row_span(s, row, &first, &count);
        CHECK(first == total && count > 0);
        for (size_t i = first; i < first + count; i++) {
            uint32_t prim, order;
            store_prim_order(s, i, &prim, &order);
            CHECK(GET(s, i)->row == row && prim == GET(s, i)->prim && order == GET(s, i)->order);
        }
        total += count;
    }
    CHECK(total == n);
    store_row_span(s, store_rows(s), &first, &count);
    CHECK(count == 0);
    /* the rows by their number of shapes, most first, ties by index */
    uint32_t *longest = store_rows_longest_first(s);
    CHECK(longest != NULL);
    for (uint32_t k = 0; longest && k + 1 < store_rows(s); k++) {
        size_t c0, c1;
        store_row_span(s, longest[k], &first, &c0);
        store_row_span(s, longest[k + 1], &first, &c1);
        CHECK(c0 > c1 || (c0 == c1 && longest[k] < longest[k + 1]));
    }
    free(longest);
    store *open_store = store_new();
    CHECK(store_rows_longest_first(open_store) == NULL); /* not frozen */
    store_free(open_store);
    /* the view's row of shape i: its row and prim (so a row's references
     * are not in position order across the base's rows) */
    store *one = store_new_view(s), *canon = store_new_view(s), *reversed = store_new_view(s);
    size_t nrefs = 0;
    for (size_t i = 0; i < n; i++)
        if (GET(s, i)->prim % 3) {
            CHECK_INT(store_add_ref(one, i, GET(s, i)->prim * 5 + GET(s, i)->row), 0);
            nrefs++;
        }
    uint32_t *pos, *row, *rpos, *rrow;
    CHECK_INT(store_add_refs(canon, nrefs, &pos, &row), 0);
    CHECK_INT(store_add_refs(reversed, nrefs, &rpos, &rrow), 0);
    size_t k = 0;
    for (uint32_t view_row = 0; view_row < 5 * NPRIMS; view_row++)
        for (size_t i = 0; i < n; i++)
            if (GET(s, i)->prim % 3 && GET(s, i)->prim * 5 + GET(s, i)->row == view_row) {
                pos[k] = rpos[nrefs - 1 - k] = (uint32_t)i;
                row[k] = rrow[nrefs - 1 - k] = view_row;
                k++;
            }
    CHECK(k == nrefs);
    CHECK_INT(store_add_refs(s, 1, &pos, &row), -1); /* not a view */
    /* none to add (a trace without layer shapes): no room, and the empty
     * view freezes (the fuzzers' UBSan saw a NULL array offset here) */
    store *empty = store_new_view(s);
    uint32_t *epos = &row[0], *erow = &row[0];
    CHECK_INT(store_add_refs(empty, 0, &epos, &erow), 0);
    CHECK(epos == NULL && erow == NULL);
    CHECK_INT(store_freeze(empty, fills, NPRIMS), 0);
    CHECK(store_count(empty) == 0);
    store_free(empty);
    store *views[3] = {one, canon, reversed};
    for (int v = 0; v < 3; v++)
        CHECK_INT(store_freeze(views[v], fills, NPRIMS), 0);
    CHECK_INT(store_add_refs(canon, 1, &pos, &row), -1); /* frozen */
    CHECK(store_digest(one) != 0);
    CHECK(store_digest(canon) == store_digest(one));
    CHECK(store_digest(reversed) == store_digest(one));
    for (int v = 0; v < 3; v++)
        store_free(views[v]);
    store_free(s);
}

int main(void)
{
    test_threads_same();
    test_view_refs_in_bulk();
    test_rows_in_runs();
    const char *tsan = getenv("TLV_TSAN"); /* CI: only the threads under ThreadSanitizer */
    if (tsan && strcmp(tsan, "1") == 0)
        return CHECK_DONE();
    test_packed_fields(0);
    test_packed_fields(1);
    test_empty_and_missing_rows();
    test_drawing_order();
    test_random_rows();
    test_view_matches_copy();
    test_summary_examples(0);
    test_summary_examples(1);
    test_summary_tie();
    test_summary_many_shapes();
    test_summary_radix();
    test_summary_exact_random();
    test_summary_pyramid_random();
    test_summary_one_color_random();
    test_summary_big_row();
    test_summary_single_fill();
    return CHECK_DONE();
}
