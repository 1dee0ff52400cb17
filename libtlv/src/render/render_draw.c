/*
 * render_draw.c — the vector half of the renderer: fills, thick and dashed
 * strokes, arrows, polygons, ellipses and pies, all turned into triangles
 * batched for SDL_RenderGeometry (which every SDL renderer, software
 * included, supports), with the semantics of the GDI+ calls the original
 * made (see figure.h for the primitives and render_impl.h for the pixel
 * convention).
 *
 * Each triangle is clipped to the batch's bounds before it is stored, so a
 * shape that spans millions of pixels when zoomed in costs what its visible
 * part costs, and dashes are generated only along the visible part of a
 * segment.
 *
 * Into tlv_render_rgba's RGBA32 frame (a batch with `direct`) nothing goes
 * through SDL: rectangles, axis-aligned strokes and per-column summaries
 * are filled here, row by row, and the triangles by render_raster.c.
 */
#include "render/render_impl.h"

#include "base/buf.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Vertices per SDL_RenderGeometry call at most: bounds the batch's memory
 * on frames with very many shapes. */
#define BATCH_FLUSH_AT (3 * 8192)

/* ---- the batch ------------------------------------------------------------ */

void batch_init(render_batch *b, SDL_Renderer *ren, SDL_FRect bounds)
{
    memset(b, 0, sizeof *b);
    b->ren = ren;
    b->bounds = bounds;
}

void batch_flush(render_batch *b)
{
    /* SDL queues what it draws: a failed result is its queue out of memory */
    if (b->n && b->direct) {
        if (b->ren && SDL_RenderFlush(b->ren) < 0) /* texts queued before these triangles */
            b->failed = 1;
        raster_geometry(b->direct, b->has_clip ? &b->clip : NULL, b->v, b->n);
    } else if (b->n) {
        if (SDL_RenderGeometry(b->ren, NULL, b->v, (int)b->n, NULL, 0) < 0)
            b->failed = 1;
    }
    b->n = 0;
    b->ahead = 0;
}

void batch_free(render_batch *b)
{
    free(b->v);
    b->v = NULL;
    b->n = b->cap = 0;
}

static SDL_Color color_of(uint32_t argb)
{
    SDL_Color c = {(Uint8)(argb >> 16), (Uint8)(argb >> 8), (Uint8)argb, (Uint8)(argb >> 24)};
    return c;
}

/* Stores one triangle already inside the bounds. The +0.5 maps GDI+ pixel
 * centres (integers) onto SDL's (half-integers). */
static void put_triangle(render_batch *b, const double *xy, SDL_Color c)
{
    if (b->n + b->ahead + 3 > BATCH_FLUSH_AT)
        batch_flush(b);
    if (GROW(b->v, b->cap, b->n + 3) < 0) {
        b->failed = 1;
        return;
    }
    for (int i = 0; i < 3; i++) {
        SDL_Vertex *v = &b->v[b->n++];
        v->position.x = (float)(xy[2 * i] + 0.5);
        v->position.y = (float)(xy[2 * i + 1] + 0.5);
        v->color = c;
        v->tex_coord.x = v->tex_coord.y = 0;
    }
}

/* Clips the convex polygon in[0..n-1] (x,y pairs) to one side of an axis
 * line: keeps points with sign * (coord - limit) <= 0. Returns the new
 * count (at most n + 1). */
static int clip_side(const double *in, int n, double *out, int axis, double limit, double sign)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const double *p = in + 2 * i, *q = in + 2 * ((i + 1) % n);
        double dp = sign * (p[axis] - limit), dq = sign * (q[axis] - limit);
        if (dp <= 0) {
            out[2 * m] = p[0];
            out[2 * m + 1] = p[1];
            m++;
        }
        if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) {
            double t = dp / (dp - dq);
            out[2 * m] = p[0] + t * (q[0] - p[0]);
            out[2 * m + 1] = p[1] + t * (q[1] - p[1]);
            m++;
        }
    }
    return m;
}

/* Sutherland–Hodgman against the four sides, then a fan: the clipped
 * triangle is convex, so the fan covers it exactly. */
static void put_clipped(render_batch *b, const double *tri, SDL_Color c)
{
    double a[2 * 8], z[2 * 8];
    const SDL_FRect *r = &b->bounds;
    int n = clip_side(tri, 3, a, 0, r->x, -1);
    n = clip_side(a, n, z, 0, (double)r->x + r->w, 1);
    n = clip_side(z, n, a, 1, r->y, -1);
    n = clip_side(a, n, z, 1, (double)r->y + r->h, 1);
    for (int i = 1; i + 1 < n; i++) {
        double t[6] = {z[0], z[1], z[2 * i], z[2 * i + 1], z[2 * i + 2], z[2 * i + 3]};
        put_triangle(b, t, c);
    }
}

/* Bit k set when the point is outside side k (left, right, top, bottom). */
static unsigned outcode(const SDL_FRect *r, double x, double y)
{
    return (x < r->x) | (x > (double)r->x + r->w) << 1 | (y < r->y) << 2 |
           (y > (double)r->y + r->h) << 3;
}

void batch_triangle(render_batch *b, fpoint p, fpoint q, fpoint r, uint32_t argb)
{
    if ((argb >> 24) == 0)
        return; /* fully transparent: nothing to blend */
    double t[6] = {p.x, p.y, q.x, q.y, r.x, r.y};
    for (int i = 0; i < 6; i++)
        if (!isfinite(t[i]))
            return;
    unsigned c0 = outcode(&b->bounds, t[0], t[1]), c1 = outcode(&b->bounds, t[2], t[3]),
             c2 = outcode(&b->bounds, t[4], t[5]);
    if (c0 & c1 & c2)
        return; /* wholly beyond one side */
    if ((c0 | c1 | c2) == 0)
        put_triangle(b, t, color_of(argb));
    else
        put_clipped(b, t, color_of(argb));
}

/* x / 255, rounded, for x in [0, 255 * 255]. */
static inline uint32_t div255(uint32_t x)
{
    x += 128;
    return (x + (x >> 8)) >> 8;
}

/* Eight 16-bit lanes: two pixels' R, G, B, A at once, with GCC/Clang vector
 * extensions (portable; SSE2/NEON code where available). Translucent fills
 * of whole rows are the bulk of a zoomed-in frame. The alpha lane works out
 * to 255 (255 * 255 + 128 rounds to 255): the frame is opaque. */
typedef uint16_t u16x8 __attribute__((vector_size(16)));
typedef uint8_t u8x8 __attribute__((vector_size(8)));
typedef uint32_t u32x8 __attribute__((vector_size(32)));
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef uint16_t u16x16 __attribute__((vector_size(32)));

static void blend_row(uint8_t *q, int w, uint32_t r_a, uint32_t g_a, uint32_t b_a, uint32_t ia)
{
    const u16x8 src = {(uint16_t)r_a, (uint16_t)g_a, (uint16_t)b_a, 255 * 255,
                       (uint16_t)r_a, (uint16_t)g_a, (uint16_t)b_a, 255 * 255};
    const u16x8 inv = {(uint16_t)ia, (uint16_t)ia, (uint16_t)ia, 0,
                       (uint16_t)ia, (uint16_t)ia, (uint16_t)ia, 0};
    const u16x8 half = {128, 128, 128, 128, 128, 128, 128, 128};
    u16x16 src4, inv4, half4;
    memcpy(&src4, &src, sizeof src);
    memcpy((char *)&src4 + sizeof src, &src, sizeof src);
    memcpy(&inv4, &inv, sizeof inv);
    memcpy((char *)&inv4 + sizeof inv, &inv, sizeof inv);
    memcpy(&half4, &half, sizeof half);
    memcpy((char *)&half4 + sizeof half, &half, sizeof half);
    int x = 0;
    for (; x + 4 <= w; x += 4, q += 16) { /* four pixels at a time, the same arithmetic */
        u8x16 db;
        memcpy(&db, q, 16);
        u16x16 t = src4 + __builtin_convertvector(db, u16x16) * inv4 + half4;
        t = (t + (t >> 8)) >> 8;
        u8x16 out = __builtin_convertvector(t, u8x16);
        memcpy(q, &out, 16);
    }
    for (; x + 2 <= w; x += 2, q += 8) {
        u8x8 db;
        memcpy(&db, q, 8);
        u16x8 d = __builtin_convertvector(db, u16x8);
        u16x8 t = src + d * inv + half; /* at most 255*255+128: fits 16 bits */
        t = (t + (t >> 8)) >> 8;
        u8x8 out = __builtin_convertvector(t, u8x8);
        memcpy(q, &out, 8);
    }
    for (; x < w; x++, q += 4) {
        q[0] = (uint8_t)div255(r_a + q[0] * ia);
        q[1] = (uint8_t)div255(g_a + q[1] * ia);
        q[2] = (uint8_t)div255(b_a + q[2] * ia);
        q[3] = 255;
    }
}

/* The 4 bytes R, G, B, 255 of an opaque colour as a word (RGBA32 is those
 * bytes in that order on any machine). */
static uint32_t opaque_word(uint32_t argb)
{
    uint8_t bytes[4] = {(uint8_t)(argb >> 16), (uint8_t)(argb >> 8), (uint8_t)argb, 255};
    uint32_t w;
    memcpy(&w, bytes, 4);
    return w;
}

/* A fill of w x h pixels from `q` in the direct target (rows `pitch` bytes
 * apart): stored when opaque, else blended. */
static void fill_pixels(uint8_t *q, size_t pitch, int w, int h, uint32_t argb)
{
    uint32_t a = argb >> 24;
    if (a != 255) {
        uint32_t ra = ((argb >> 16) & 255) * a, ga = ((argb >> 8) & 255) * a, ba = (argb & 255) * a;
        for (int y = 0; y < h; y++, q += pitch)
            blend_row(q, w, ra, ga, ba, 255 - a);
        return;
    }
    uint32_t word = opaque_word(argb);
    const u32x8 words = {word, word, word, word, word, word, word, word};
    for (int y = 0; y < h; y++, q += pitch) {
        uint32_t *p = (uint32_t *)(void *)q; /* the target is 4-aligned */
        int x = 0;
        for (; x + 8 <= w; x += 8) /* eight at a time: the compiler's loop stays scalar */
            memcpy(p + x, &words, sizeof words);
        for (; x < w; x++)
            p[x] = word;
    }
}

/* SDL_IntersectRect's answer, inline: it runs for every rectangle of a
 * frame, many thousands. */
static int intersect_rect(const SDL_Rect *a, const SDL_Rect *b, SDL_Rect *out)
{
    if (a->w <= 0 || a->h <= 0 || b->w <= 0 || b->h <= 0)
        return 0;
    int x0 = a->x > b->x ? a->x : b->x, y0 = a->y > b->y ? a->y : b->y;
    int x1 = a->x + a->w < b->x + b->w ? a->x + a->w : b->x + b->w;
    int y1 = a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h;
    *out = (SDL_Rect){x0, y0, x1 - x0, y1 - y0};
    return out->w > 0 && out->h > 0;
}

/* px clipped to the direct target and the batch's clip; 0 when empty. */
static int clip_direct(const render_batch *b, SDL_Rect px, SDL_Rect *out)
{
    SDL_Rect bounds = {0, 0, b->direct->w, b->direct->h};
    return intersect_rect(&px, &bounds, out) && (!b->has_clip || intersect_rect(out, &b->clip, out));
}

static uint8_t *direct_at(const render_batch *b, int x, int y)
{
    return (uint8_t *)b->direct->pixels + (size_t)y * (size_t)b->direct->pitch + (size_t)x * 4;
}

/* Blends a rectangle into the RGBA32 target directly (after everything
 * queued on the renderer, texts, has been drawn), clipped as the renderer
 * would. */
static void blend_rect(render_batch *b, SDL_Rect px, uint32_t argb)
{
    SDL_Rect r;
    if (!clip_direct(b, px, &r))
        return;
    if (b->ren) /* NULL: a thread drawing part of the frame, texts come later */
        SDL_RenderFlush(b->ren);
    fill_pixels(direct_at(b, r.x, r.y), (size_t)b->direct->pitch, r.w, r.h, argb);
}

/* The pixels a fill of r covers: pixel (i, j) when its centre (GDI+ integer
 * coordinates) lies in [x, x+w) x [y, y+h), as the triangles would cover it,
 * within the batch's bounds. Returns 0 when none. */
static int rect_pixels(const render_batch *b, frect r, SDL_Rect *px)
{
    if (!(r.w > 0) || !(r.h > 0))
        return 0; /* GDI+ fills nothing for an empty or negative size */
    double x0 = ceil(r.x), x1 = ceil((double)r.x + r.w);
    double y0 = ceil(r.y), y1 = ceil((double)r.y + r.h);
    double bx0 = ceil(b->bounds.x - 0.5), bx1 = ceil((double)b->bounds.x + b->bounds.w - 0.5);
    double by0 = ceil(b->bounds.y - 0.5), by1 = ceil((double)b->bounds.y + b->bounds.h - 0.5);
    x0 = x0 < bx0 ? bx0 : x0;
    x1 = x1 > bx1 ? bx1 : x1;
    y0 = y0 < by0 ? by0 : y0;
    y1 = y1 > by1 ? by1 : y1;
    if (!isfinite(x0) || !isfinite(x1) || !isfinite(y0) || !isfinite(y1) || x1 <= x0 || y1 <= y0)
        return 0;
    *px = (SDL_Rect){(int)x0, (int)y0, (int)(x1 - x0), (int)(y1 - y0)};
    return 1;
}

/* Axis-aligned fills are most of what a timeline draws, and large when
 * zoomed in: SDL's rectangle fill blends row by row, many times faster than
 * its general triangle rasteriser, so rectangles bypass the triangle batch
 * (flushing it first to keep the drawing order). */
void batch_rect(render_batch *b, frect r, uint32_t argb)
{
    SDL_Rect px;
    if ((argb >> 24) == 0 || !rect_pixels(b, r, &px))
        return;
    batch_flush(b);
    if (b->direct) {
        blend_rect(b, px, argb);
        return;
    }
    SDL_Color c = color_of(argb);
    SDL_SetRenderDrawColor(b->ren, c.r, c.g, c.b, c.a);
    if (SDL_RenderFillRect(b->ren, &px) < 0)
        b->failed = 1;
}

/* A run of columns [i, j) of one cell: its pixels, clipped. */
typedef struct col_run {
    SDL_Rect px;
    uint32_t argb;
} col_run;

static int same_cell(const column_cell *a, const column_cell *b)
{
    return a->argb == b->argb && a->y0 == b->y0 && a->y1 == b->y1;
}

void batch_columns(render_batch *b, double x, const column_cell *cells, size_t n)
{
    if (!b->direct) { /* rectangle by rectangle */
        for (size_t i = 0, j; i < n; i = j) {
            for (j = i + 1; j < n && same_cell(&cells[j], &cells[i]); j++)
                ;
            frect r = {(float)(x + (double)i), cells[i].y0, (float)(j - i),
                       cells[i].y1 - cells[i].y0};
            batch_rect(b, r, cells[i].argb);
        }
        return;
    }
    /* Into the target row by row (the runs do not overlap, so the order of
     * drawing them does not matter): a column at a time would touch a
     * cache line per pixel. */
    col_run *runs = malloc((n ? n : 1) * sizeof *runs);
    if (!runs) {
        b->failed = 1;
        return;
    }
    size_t m = 0;
    int ytop = INT_MAX, ybottom = INT_MIN;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && same_cell(&cells[j], &cells[i]); j++)
            ;
        frect r = {(float)(x + (double)i), cells[i].y0, (float)(j - i),
                   cells[i].y1 - cells[i].y0};
        SDL_Rect px;
        if ((cells[i].argb >> 24) == 0 || !rect_pixels(b, r, &px) || !clip_direct(b, px, &px))
            continue;
        runs[m++] = (col_run){px, cells[i].argb};
        ytop = px.y < ytop ? px.y : ytop;
        ybottom = px.y + px.h > ybottom ? px.y + px.h : ybottom;
    }
    if (m) { /* flushed only when something is drawn, as batch_rect does */
        batch_flush(b);
        if (b->ren)
            SDL_RenderFlush(b->ren);
    }
    for (int y = ytop; m && y < ybottom; y++)
        for (size_t k = 0; k < m; k++)
            if (y >= runs[k].px.y && y < runs[k].px.y + runs[k].px.h)
                fill_pixels(direct_at(b, runs[k].px.x, y), 0, runs[k].px.w, 1, runs[k].argb);
    free(runs);
}

/* Layer by layer, through batch_columns. */
static void layers_one_by_one(render_batch *b, double x, const column_layer *layers,
                              size_t nlayers, size_t n)
{
    column_cell *cells = malloc((n ? n : 1) * sizeof *cells);
    if (!cells) {
        b->failed = 1;
        return;
    }
    for (size_t k = 0; k < nlayers; k++) {
        column_cell on = {layers[k].argb, layers[k].y0, layers[k].y1}, off = {0, 0, 0};
        for (size_t i = 0; i < n; i++)
            cells[i] = layers[k].on[i] ? on : off;
        batch_columns(b, x, cells, n);
    }
    free(cells);
}

/* One pixel under a stack of layers (bit k of `stack`: layer k), blended
 * in order with fill_pixels' arithmetic. */
static uint32_t blend_stack(uint32_t pixel, uint64_t stack, const uint32_t *argb)
{
    uint8_t q[4];
    memcpy(q, &pixel, 4);
    for (; stack; stack &= stack - 1) {
        uint32_t c = argb[__builtin_ctzll(stack)], a = c >> 24;
        if (a == 255) {
            uint32_t w = opaque_word(c);
            memcpy(q, &w, 4);
            continue;
        }
        uint32_t ia = 255 - a;
        q[0] = (uint8_t)div255(((c >> 16) & 255) * a + q[0] * ia);
        q[1] = (uint8_t)div255(((c >> 8) & 255) * a + q[1] * ia);
        q[2] = (uint8_t)div255((c & 255) * a + q[2] * ia);
        q[3] = 255;
    }
    memcpy(&pixel, q, 4);
    return pixel;
}

void batch_layers(render_batch *b, double x, const column_layer *layers, size_t nlayers,
                  size_t n)
{
    if (!b->direct || nlayers > 64 || !n) {
        layers_one_by_one(b, x, layers, nlayers, n);
        return;
    }
    /* Each layer's rows of pixels, as batch_columns would fill them (they
     * do not depend on the columns), and the pixel columns of the row. */
    int y0[64], y1[64], ytop = INT_MAX, ybottom = INT_MIN, xleft = INT_MAX, xright = INT_MIN;
    uint32_t argb[64];
    for (size_t k = 0; k < nlayers; k++) {
        SDL_Rect px;
        argb[k] = layers[k].argb;
        y0[k] = y1[k] = 0;
        if ((argb[k] >> 24) == 0 ||
            !rect_pixels(b, (frect){(float)x, layers[k].y0, (float)n, layers[k].y1 - layers[k].y0},
                         &px) ||
            !clip_direct(b, px, &px))
            continue;
        y0[k] = px.y;
        y1[k] = px.y + px.h;
        xleft = px.x < xleft ? px.x : xleft; /* the same for every layer */
        xright = px.x + px.w > xright ? px.x + px.w : xright;
        ytop = px.y < ytop ? px.y : ytop;
        ybottom = y1[k] > ybottom ? y1[k] : ybottom;
    }
    uint64_t *stack = malloc(n * sizeof *stack); /* per column: the layers painting it */
    int *column_x = malloc(n * sizeof *column_x); /* per column: its pixel column, or -1 */
    if (!stack || !column_x) {
        free(stack);
        free(column_x);
        b->failed = 1;
        return;
    }
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        stack[i] = 0;
        for (size_t k = 0; k < nlayers; k++)
            if (layers[k].on[i] && y1[k] > y0[k])
                stack[i] |= 1ull << k;
        double cx = ceil(x + (double)i);
        column_x[i] = cx >= xleft && cx < xright ? (int)cx : -1;
        any |= stack[i] != 0 && column_x[i] >= 0;
    }
    any &= ytop < ybottom;
    if (any) { /* flushed only when something is drawn, as batch_rect does */
        batch_flush(b);
        if (b->ren)
            SDL_RenderFlush(b->ren);
    }
    /* Column i is pixel column ceil(x + i), as a run's rectangle puts it,
     * within the columns the layers' rectangles keep (bounds and clip). A
     * pixel row whose layers and pixels before are those of the row above
     * gets that row's result (a row's background is the same all down). */
    int width = any ? xright - xleft : 0;
    uint32_t *before = malloc(((size_t)width + 1) * 2 * sizeof *before), *after = before + width;
    uint64_t above = 0; /* the layers of the row above, when `before` holds it */
    for (int y = ytop; before && any && y < ybottom; y++) {
        uint64_t rowmask = 0;
        for (size_t k = 0; k < nlayers; k++)
            if (y >= y0[k] && y < y1[k])
                rowmask |= 1ull << k;
        uint32_t *p = (uint32_t *)(void *)direct_at(b, 0, y), *row = p + xleft;
        if (rowmask && rowmask == above && memcmp(row, before, (size_t)width * 4) == 0) {
            memcpy(row, after, (size_t)width * 4);
            continue;
        }
        above = 0;
        if (!rowmask)
            continue;
        memcpy(before, row, (size_t)width * 4);
        uint64_t last_stack = 0;
        uint32_t last_in = 0, last_out = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t st = stack[i] & rowmask;
            if (!st || column_x[i] < 0)
                continue;
            uint32_t *q = &p[column_x[i]];
            if (st != last_stack || *q != last_in) {
                last_stack = st;
                last_in = *q;
                last_out = blend_stack(*q, st, argb);
            }
            *q = last_out;
        }
        memcpy(after, row, (size_t)width * 4);
        above = rowmask;
    }
    if (any && !before)
        b->failed = 1;
    free(before);
    free(stack);
    free(column_x);
}

/* ---- strokes ---------------------------------------------------------------- */

static fpoint pt(double x, double y)
{
    fpoint p = {(float)x, (float)y};
    return p;
}

static float lo2(float a, float b) { return a < b ? a : b; }

static float hi2(float a, float b) { return a > b ? a : b; }

static void put_quad(render_batch *b, fpoint p, fpoint q, fpoint r, fpoint s, uint32_t argb)
{
    /* Strokes of the axis-aligned outlines and lines that make up most
     * timelines are rectangles: fill those directly (far cheaper than two
     * triangles through SDL's rasteriser, above all for the many short
     * pieces of a dashed pen). */
    if (b->direct && ((p.y == q.y && r.y == s.y && p.x == s.x && q.x == r.x) ||
                      (p.x == q.x && r.x == s.x && p.y == s.y && q.y == r.y))) {
        /* no NaN here (each took part in a comparison above): plain
         * comparisons are fminf's and fmaxf's answers, without the calls */
        float x0 = lo2(lo2(p.x, q.x), lo2(r.x, s.x)), x1 = hi2(hi2(p.x, q.x), hi2(r.x, s.x));
        float y0 = lo2(lo2(p.y, q.y), lo2(r.y, s.y)), y1 = hi2(hi2(p.y, q.y), hi2(r.y, s.y));
        frect box = {x0, y0, x1 - x0, y1 - y0};
        batch_rect(b, box, argb);
        return;
    }
    batch_triangle(b, p, q, r, argb);
    batch_triangle(b, p, r, s, argb);
}

/* The unit left normal of p -> q (zero for a zero-length segment). The
 * length of an axis-aligned segment is |dx| or |dy|, which is what hypot
 * returns for it (C11 F.10.4.3), without the call: outlines of boxes are
 * most of the strokes of a frame. */
static void normal_of(fpoint p, fpoint q, double *nx, double *ny)
{
    double dx = (double)q.x - p.x, dy = (double)q.y - p.y;
    double len = dy == 0 ? fabs(dx) : dx == 0 ? fabs(dy) : hypot(dx, dy);
    *nx = len > 0 ? -dy / len : 0;
    *ny = len > 0 ? dx / len : 0;
}

/* The offset of the stroke's edge at a vertex joining segments with normals
 * (ax,ay) and (bx,by): along their bisector, long enough to keep the stroke
 * width on both sides (a mitre), but at most 4 half-widths at sharp turns. */
static void miter(double ax, double ay, double bx, double by, double hw, double *ox, double *oy,
                  double *corner)
{
    double mx = ax + bx, my = ay + by, ml;
    if (fabs(mx) == 1 && fabs(my) == 1) /* the corner of a box: hypot(1, 1), once a stroke */
        ml = *corner > 0 ? *corner : (*corner = hypot(mx, my));
    else
        ml = hypot(mx, my);
    if (ml < 1e-9) { /* a U-turn: no bisector */
        *ox = bx * hw;
        *oy = by * hw;
        return;
    }
    mx /= ml;
    my /= ml;
    double cosh = mx * bx + my * by, len = hw / (cosh > 0.25 ? cosh : 0.25);
    *ox = mx * len;
    *oy = my * len;
}

/* The offset of a solid stroke's edge at vertex `cur` of p[0..n): along the
 * normal of the one segment there, or the miter of the two. Indices wrap
 * without %: a division each cost a box's outline more than its arithmetic. */
static void vertex_offset(const fpoint *p, size_t n, size_t cur, int has_in, int has_out,
                          double hw, double *corner, double *mx, double *my)
{
    double ix = 0, iy = 0, ox = 0, oy = 0; /* normals in and out at this vertex */
    if (has_in)
        normal_of(p[cur ? cur - 1 : n - 1], p[cur], &ix, &iy);
    if (has_out)
        normal_of(p[cur], p[cur + 1 < n ? cur + 1 : 0], &ox, &oy);
    if (!has_in) {
        *mx = ox * hw;
        *my = oy * hw;
    } else if (!has_out) {
        *mx = ix * hw;
        *my = iy * hw;
    } else {
        miter(ix, iy, ox, oy, hw, mx, my, corner);
    }
}

/* A solid stroke as a strip of quads between per-vertex offsets, so joins
 * are seamless and nothing is drawn twice (which would show with a
 * translucent pen). */
static void stroke_solid(render_batch *b, const fpoint *p, size_t n, int closed, double hw,
                         uint32_t argb)
{
    size_t nseg = closed ? n : n - 1;
    double fx = 0, fy = 0, prevx = 0, prevy = 0; /* offsets at vertex 0 and at the previous vertex */
    double corner = 0;                             /* miter's hypot(1, 1) once found */
    for (size_t i = 0; i <= nseg; i++) {           /* i <= nseg <= n */
        size_t cur = i < n ? i : 0;
        double mx, my;
        if (closed && i == nseg) { /* the closing vertex is vertex 0 */
            mx = fx;
            my = fy;
        } else {
            vertex_offset(p, n, cur, closed || i > 0, closed || i < nseg, hw, &corner, &mx, &my);
        }
        if (i == 0) {
            fx = mx;
            fy = my;
        } else {
            fpoint a = p[i - 1], c = p[cur];
            put_quad(b, pt(a.x + prevx, a.y + prevy), pt(c.x + mx, c.y + my),
                     pt(c.x - mx, c.y - my), pt(a.x - prevx, a.y - prevy), argb);
        }
        prevx = mx;
        prevy = my;
    }
}

/* GDI+ dash patterns, in pen widths: on, off, on, off, ... */
static const float *dash_pattern(dash_style d, int *n)
{
    static const float dash[] = {3, 1}, dot[] = {1, 1}, dashdot[] = {3, 1, 1, 1},
                       dashdotdot[] = {3, 1, 1, 1, 1, 1};
    switch (d) {
    case DASH_DASH: *n = 2; return dash;
    case DASH_DOT: *n = 2; return dot;
    case DASH_DASHDOT: *n = 4; return dashdot;
    case DASH_DASHDOTDOT: *n = 6; return dashdotdot;
    default: *n = 0; return NULL;
    }
}

/* Liang–Barsky: the part [*t0, *t1] of p + t (q - p), t in [0, 1], inside r
 * grown by `m`. Returns 0 when nothing is inside. */
static int clip_segment(const SDL_FRect *r, double m, fpoint p, fpoint q, double *t0, double *t1)
{
    double dx = (double)q.x - p.x, dy = (double)q.y - p.y;
    double pv[4] = {-dx, dx, -dy, dy};
    double qv[4] = {p.x - (r->x - m), (r->x + r->w + m) - p.x, p.y - (r->y - m),
                    (r->y + r->h + m) - p.y};
    *t0 = 0;
    *t1 = 1;
    for (int i = 0; i < 4; i++) {
        if (pv[i] == 0) {
            if (qv[i] < 0)
                return 0;
            continue;
        }
        double t = qv[i] / pv[i];
        if (pv[i] < 0 && t > *t0)
            *t0 = t;
        if (pv[i] > 0 && t < *t1)
            *t1 = t;
    }
    return *t0 < *t1;
}

/* One flat-capped piece [d0, d1] (distances along p -> q of length len). */
static void dash_piece(render_batch *b, fpoint p, fpoint q, double len, double d0, double d1,
                       double hw, uint32_t argb)
{
    double ux = ((double)q.x - p.x) / len, uy = ((double)q.y - p.y) / len;
    double nx = -uy * hw, ny = ux * hw;
    double ax = p.x + ux * d0, ay = p.y + uy * d0, cx = p.x + ux * d1, cy = p.y + uy * d1;
    put_quad(b, pt(ax + nx, ay + ny), pt(cx + nx, cy + ny), pt(cx - nx, cy - ny),
             pt(ax - nx, ay - ny), argb);
}

/* Dashes along one segment; `phase` is the distance along the whole
 * polyline where the segment starts, so the pattern runs on across joins.
 * Only the visible part of the segment is walked. */
static void dash_segment(render_batch *b, fpoint p, fpoint q, double phase, const float *pat,
                         int npat, double unit, double hw, uint32_t argb)
{
    double len = hypot((double)q.x - p.x, (double)q.y - p.y), t0, t1;
    if (len <= 0 || !clip_segment(&b->bounds, hw + 1, p, q, &t0, &t1))
        return;
    double period = 0;
    for (int i = 0; i < npat; i++)
        period += pat[i] * unit;
    double d = t0 * len, end = t1 * len;
    double pos = fmod(phase + d, period); /* where in the pattern d falls */
    int k = 0;
    while (pos >= pat[k] * unit) {
        pos -= pat[k] * unit;
        k = (k + 1) % npat;
    }
    while (d < end) {
        double piece = pat[k] * unit - pos, stop = d + piece < end ? d + piece : end;
        if (k % 2 == 0)
            dash_piece(b, p, q, len, d, stop, hw, argb);
        d = stop;
        pos = 0;
        k = (k + 1) % npat;
    }
}

static void stroke_dashed(render_batch *b, const fpoint *p, size_t n, int closed, double hw,
                          const pen_style *pen)
{
    int npat;
    const float *pat = dash_pattern(pen->dash, &npat);
    double unit = 2 * hw, phase = 0;
    size_t nseg = closed ? n : n - 1;
    for (size_t i = 0; i < nseg; i++) {
        fpoint a = p[i], c = p[(i + 1) % n];
        dash_segment(b, a, c, phase, pat, npat, unit, hw, pen->argb);
        phase += hypot((double)c.x - a.x, (double)c.y - a.y);
    }
}

/* Drops repeated points (they have no direction to join along). Returns the
 * new count. */
static size_t dedupe(fpoint *p, size_t n, int closed)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || p[i].x != p[m - 1].x || p[i].y != p[m - 1].y)
            p[m++] = p[i];
    while (closed && m > 1 && p[m - 1].x == p[0].x && p[m - 1].y == p[0].y)
        m--;
    return m;
}

void stroke_polyline(render_batch *b, const fpoint *pts, size_t n, int closed,
                     const pen_style *pen)
{
    if (n < 2 || (pen->argb >> 24) == 0)
        return;
    fpoint local[16], *p = n <= 16 ? local : malloc(n * sizeof *p);
    if (!p) {
        b->failed = 1;
        return;
    }
    memcpy(p, pts, n * sizeof *p);
    size_t m = dedupe(p, n, closed);
    double hw = (pen->width > 1 ? pen->width : 1) / 2.0;
    if (m >= 2) {
        int is_closed = closed && m > 2;
        if (pen->dash == DASH_SOLID)
            stroke_solid(b, p, m, is_closed, hw, pen->argb);
        else
            stroke_dashed(b, p, m, is_closed, hw, pen);
    }
    if (p != local)
        free(p);
}

/* ---- primitives --------------------------------------------------------------- */

/* An Arrow: the line up to the base of a filled head whose tip is the end
 * point; the head is about twice the pen width (GDI+'s arrow cap) but at
 * least 5 px, so thin arrows still show a head. */
static void draw_arrow(render_batch *b, fpoint p0, fpoint p1, const pen_style *pen)
{
    double dx = (double)p1.x - p0.x, dy = (double)p1.y - p0.y, len = hypot(dx, dy);
    if (len <= 0)
        return;
    double w = pen->width > 1 ? pen->width : 1, head = 2 * w > 5 ? 2 * w : 5;
    if (head > len)
        head = len;
    double ux = dx / len, uy = dy / len;
    fpoint base = pt(p1.x - ux * head, p1.y - uy * head);
    if (len > head) {
        fpoint line[2] = {p0, base};
        stroke_polyline(b, line, 2, 0, pen);
    }
    double hx = -uy * head / 2, hy = ux * head / 2;
    batch_triangle(b, p1, pt(base.x + hx, base.y + hy), pt(base.x - hx, base.y - hy), pen->argb);
}

/* Twice the signed area of the polygon (positive when clockwise on screen). */
static double signed_area2(const fpoint *p, const size_t *idx, size_t n)
{
    double a = 0;
    for (size_t i = 0; i < n; i++) {
        fpoint u = p[idx[i]], v = p[idx[(i + 1) % n]];
        a += (double)u.x * v.y - (double)v.x * u.y;
    }
    return a;
}

static double cross3(fpoint a, fpoint b, fpoint c)
{
    return ((double)b.x - a.x) * ((double)c.y - a.y) - ((double)b.y - a.y) * ((double)c.x - a.x);
}

static int in_triangle(fpoint p, fpoint a, fpoint b, fpoint c, double sign)
{
    return sign * cross3(a, b, p) > 0 && sign * cross3(b, c, p) > 0 && sign * cross3(c, a, p) > 0;
}

/* Whether vertex i of the remaining polygon is an ear: convex, and no other
 * vertex inside the triangle it cuts off. */
static int is_ear(const fpoint *p, const size_t *idx, size_t n, size_t i, double sign)
{
    fpoint a = p[idx[(i + n - 1) % n]], c = p[idx[i]], d = p[idx[(i + 1) % n]];
    if (sign * cross3(a, c, d) <= 0)
        return 0;
    for (size_t j = 0; j < n; j++)
        if (j != i && j != (i + n - 1) % n && j != (i + 1) % n && in_triangle(p[idx[j]], a, c, d, sign))
            return 0;
    return 1;
}

/* Fills a polygon by ear clipping, which is exact for simple polygons (the
 * shapes rule files draw); when no ear is left (a self-crossing polygon),
 * the rest is filled as a fan. */
static void fill_polygon(render_batch *b, const fpoint *p, size_t n, uint32_t argb)
{
    size_t local[32], *idx = n <= 32 ? local : malloc(n * sizeof *idx);
    if (!idx) {
        b->failed = 1;
        return;
    }
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    double sign = signed_area2(p, idx, n) >= 0 ? 1 : -1;
    size_t m = n;
    while (m > 3 && n <= 512) { /* beyond 512 points the quadratic search is not worth it */
        size_t i = 0;
        while (i < m && !is_ear(p, idx, m, i, sign))
            i++;
        if (i == m)
            break;
        batch_triangle(b, p[idx[(i + m - 1) % m]], p[idx[i]], p[idx[(i + 1) % m]], argb);
        memmove(idx + i, idx + i + 1, (m - i - 1) * sizeof *idx);
        m--;
    }
    for (size_t i = 1; i + 1 < m; i++)
        batch_triangle(b, p[idx[0]], p[idx[i]], p[idx[i + 1]], argb);
    if (idx != local)
        free(idx);
}

/* Segments for a full ellipse: about one per 3 px of its outline. */
static size_t ellipse_segments(double rx, double ry)
{
    double around = 2 * M_PI * (rx > ry ? rx : ry) / 3;
    return around < 12 ? 12 : around > 720 ? 720 : (size_t)around;
}

/* The point of the ellipse (centre cx,cy, radii rx,ry) on the ray at `deg`
 * degrees, clockwise from 3 o'clock — GDI+ measures pie angles along rays,
 * not along the ellipse's parameter. */
static fpoint ellipse_ray(double cx, double cy, double rx, double ry, double deg)
{
    double a = deg * M_PI / 180, c = cos(a), s = sin(a);
    double d = hypot(ry * c, rx * s), r = d > 0 ? rx * ry / d : 0;
    return pt(cx + r * c, cy + r * s);
}

/* Fills and outlines the sector [start, start + sweep] of the ellipse in
 * `box`; a sweep of 360 or more is the whole ellipse (no radii drawn). */
static void draw_sector(render_batch *b, const prim *p, frect box, double start, double sweep,
                        const pen_style *pen)
{
    double rx = fabs(box.w) / 2, ry = fabs(box.h) / 2;
    double cx = box.x + box.w / 2.0, cy = box.y + box.h / 2.0;
    int whole = fabs(sweep) >= 360;
    if (whole)
        sweep = 360;
    size_t full = ellipse_segments(rx, ry), n = (size_t)ceil(full * fabs(sweep) / 360);
    n = n < 2 ? 2 : n;
    fpoint *pts = malloc((n + 2) * sizeof *pts);
    if (!pts) {
        b->failed = 1;
        return;
    }
    fpoint c = pt(cx, cy);
    for (size_t i = 0; i <= n; i++)
        pts[i] = ellipse_ray(cx, cy, rx, ry, start + sweep * (double)i / (double)n);
    if (p->has_fill)
        for (size_t i = 0; i < n; i++)
            batch_triangle(b, c, pts[i], pts[i + 1], p->fill);
    if (p->has_pen && whole) {
        stroke_polyline(b, pts, n, 1, pen);
    } else if (p->has_pen) { /* centre, arc, back to the centre */
        memmove(pts + 1, pts, (n + 1) * sizeof *pts);
        pts[0] = c;
        stroke_polyline(b, pts, n + 2, 1, pen);
    }
    free(pts);
}

/* The resolved points of a Line, Arrow or Polygon. */
static fpoint *prim_points(const prim *p, frect box)
{
    fpoint *pts = malloc((p->npoints ? p->npoints : 1) * sizeof *pts);
    for (size_t i = 0; pts && i < p->npoints; i++)
        prim_point(p, i, box, &pts[i].x, &pts[i].y);
    return pts;
}

/* Whether some vertex of the triangle v[0..2] is the corner of an
 * axis-aligned rectangle whose diagonal the other two make: only such a
 * triangle can pair with a neighbour into a rectangle (raster_geometry). */
static int may_pair(const SDL_Vertex *v)
{
    for (int c = 0; c < 3; c++) {
        const SDL_FPoint *p = &v[c].position, *a = &v[(c + 1) % 3].position,
                         *e = &v[(c + 2) % 3].position;
        if ((p->x == a->x && p->y == e->y) || (p->x == e->x && p->y == a->y) ||
            (p->x == a->x && p->y == a->y)) /* or two at one place */
            return 1;
    }
    return 0;
}

/* A box's solid outline straight into the direct target: the eight
 * triangles of its mitred sides, as stroke_solid, put_quad and
 * put_triangle make them, drawn at once as raster_geometry draws them in
 * a batch, without the batch's copies and checks. None pairs with a
 * neighbour into a rectangle (may_pair), so each is drawn alone there too;
 * the last one is queued as it would be (a later triangle is tested with
 * it), and the others count toward the batch's flushing as if queued, so
 * later flushes fall where they would. Returns 0, having drawn nothing,
 * when the batch must draw it: not direct, dashed, a box without width or
 * height (points dropped), a side that is a rectangle, or a corner beyond
 * the batch's bounds (clipped triangles). */
static int outline_direct(render_batch *b, const fpoint *c, const pen_style *pen)
{
    if (!b->direct || b->plain || pen->dash != DASH_SOLID || (pen->argb >> 24) == 0 ||
        !(c[0].x != c[1].x && c[1].y != c[2].y))
        return 0;
    double hw = (pen->width > 1 ? pen->width : 1) / 2.0, corner = 0, ox[4], oy[4];
    for (size_t i = 0; i < 4; i++)
        vertex_offset(c, 4, i, 1, 1, hw, &corner, &ox[i], &oy[i]);
    SDL_Vertex v[24];
    SDL_Color color = color_of(pen->argb);
    for (size_t i = 1; i <= 4; i++) { /* side i: vertex i - 1 to vertex i (4: 0) */
        size_t cur = i < 4 ? i : 0;
        fpoint a = c[i - 1], e = c[cur];
        fpoint p = pt(a.x + ox[i - 1], a.y + oy[i - 1]), q = pt(e.x + ox[cur], e.y + oy[cur]),
               r = pt(e.x - ox[cur], e.y - oy[cur]), s = pt(a.x - ox[i - 1], a.y - oy[i - 1]);
        if ((p.y == q.y && r.y == s.y && p.x == s.x && q.x == r.x) ||
            (p.x == q.x && r.x == s.x && p.y == s.y && q.y == r.y))
            return 0; /* put_quad fills it as a rectangle */
        const fpoint corners[6] = {p, q, r, p, r, s};
        for (size_t j = 0; j < 6; j++) {
            fpoint k = corners[j];
            if (!isfinite(k.x) || !isfinite(k.y) || outcode(&b->bounds, k.x, k.y))
                return 0;
            SDL_Vertex *out = &v[(i - 1) * 6 + j];
            out->position.x = (float)(k.x + 0.5); /* put_triangle's */
            out->position.y = (float)(k.y + 0.5);
            out->color = color;
            out->tex_coord.x = out->tex_coord.y = 0;
        }
    }
    for (size_t t = 0; t < 8; t++)
        if (may_pair(&v[3 * t]))
            return 0;
    size_t queued = b->n + b->ahead; /* the batch as put_triangle would fill it */
    for (size_t t = 0; t < 8; t++)
        queued = queued + 3 > BATCH_FLUSH_AT ? 3 : queued + 3;
    batch_flush(b); /* what came before first, as it would be drawn */
    if (b->ren)
        SDL_RenderFlush(b->ren);
    for (size_t t = 0; t < 7; t++)
        raster_triangle(b->direct, b->has_clip ? &b->clip : NULL, &v[3 * t]);
    if (GROW(b->v, b->cap, 3) < 0) {
        b->failed = 1;
        return 1;
    }
    memcpy(b->v, &v[21], 3 * sizeof *v);
    b->n = 3;
    b->ahead = queued - 3;
    return 1;
}

static void draw_rectangle(render_batch *b, const prim *p, frect box, const pen_style *pen)
{
    if (p->has_fill)
        batch_rect(b, box, p->fill);
    if (p->has_pen && box.w >= 0 && box.h >= 0) {
        fpoint c[4] = {{box.x, box.y}, {box.x + box.w, box.y}, {box.x + box.w, box.y + box.h},
                       {box.x, box.y + box.h}};
        if (!outline_direct(b, c, pen))
            stroke_polyline(b, c, 4, 1, pen);
    }
}

static void draw_pointed(render_batch *b, const prim *p, frect box, const pen_style *pen)
{
    fpoint *pts = prim_points(p, box);
    if (!pts) {
        b->failed = 1;
        return;
    }
    if (p->type == PRIM_POLYGON && p->npoints >= 3) {
        if (p->has_fill)
            fill_polygon(b, pts, p->npoints, p->fill);
        if (p->has_pen)
            stroke_polyline(b, pts, p->npoints, 1, pen);
    } else if (p->type == PRIM_ARROW && p->npoints >= 2) {
        draw_arrow(b, pts[0], pts[1], pen);
    } else if (p->type == PRIM_LINE && p->npoints >= 2) {
        stroke_polyline(b, pts, 2, 0, pen);
    }
    free(pts);
}

void draw_prim(render_batch *b, const prim *p, frect area, float scale)
{
    frect box = prim_box(p, area);
    pen_style pen = {p->has_pen ? p->pen_color : 0, p->pen_width * (scale > 0 ? scale : 1), p->dash};
    switch (p->type) {
    case PRIM_RECTANGLE:
        draw_rectangle(b, p, box, &pen);
        break;
    case PRIM_LINE:
    case PRIM_ARROW:
    case PRIM_POLYGON:
        draw_pointed(b, p, box, &pen);
        break;
    case PRIM_ELLIPSE:
        draw_sector(b, p, box, 0, 360, &pen);
        break;
    case PRIM_PIE:
        draw_sector(b, p, box, p->arc_start, p->arc_sweep, &pen);
        break;
    case PRIM_TEXT:
        break; /* text needs fonts: render.c draws it */
    }
}
