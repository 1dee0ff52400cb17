/*
 * render_raster.c — the triangles of a batch drawn straight into the RGBA32
 * frame of tlv_render_rgba, pixel for pixel as SDL 2's software renderer
 * draws SDL_RenderGeometry (the frames were defined by it, and tests and
 * users compare them), without its cost: SDL allocates, clears and blits a
 * temporary surface for every blended triangle, which made triangles most
 * of a frame at middle zooms.
 *
 * What is reproduced (SDL 2.26, src/render/SDL_render.c and
 * src/render/software/): vertices truncated to whole pixels; two triangles
 * in a row that share two vertices and make an axis-aligned rectangle are
 * drawn as a blended rectangle fill (SDL_SW_RenderGeometryRaw); every other
 * triangle is rasterised with the top-left rule at pixel centres
 * (SDL_SW_FillTriangle) and blended as its MMX blitter does. Alpha is
 * written as 255: the frame is opaque, and no later drawing reads the alpha
 * of what it draws over.
 */
#include "render/render_impl.h"

#include <string.h>

typedef struct ipt {
    int x, y;
} ipt;

/* The pixels drawn into: the target clipped by the renderer's clip. */
typedef struct raster {
    uint8_t *pixels;
    size_t pitch;
    SDL_Rect clip;
} raster;

static int rect_empty(const SDL_Rect *r) { return r->w <= 0 || r->h <= 0; }

/* SDL_IntersectRect's arithmetic: empty when either is empty or they do not
 * overlap. */
static int intersect(const SDL_Rect *a, const SDL_Rect *b, SDL_Rect *out)
{
    if (rect_empty(a) || rect_empty(b))
        return 0;
    int x0 = a->x > b->x ? a->x : b->x, y0 = a->y > b->y ? a->y : b->y;
    int x1 = a->x + a->w < b->x + b->w ? a->x + a->w : b->x + b->w;
    int y1 = a->y + a->h < b->y + b->h ? a->y + a->h : b->y + b->h;
    *out = (SDL_Rect){x0, y0, x1 - x0, y1 - y0};
    return !rect_empty(out);
}

/* ---- triangles (SDL_SW_FillTriangle with FP_BITS 1, then the blend) ------------- */

static int cross(ipt a, ipt b, int cx, int cy)
{
    return (b.x - a.x) * (cy - a.y) - (b.y - a.y) * (cx - a.x);
}

static int is_top_left(ipt a, ipt b, int clockwise)
{
    if (clockwise)
        return (a.y == b.y && a.x < b.x) || b.y < a.y;
    return (a.y == b.y && b.x < a.x) || a.y < b.y;
}

/* A vertex in half pixels, as SDL queues it: truncated to a whole pixel. */
static ipt fixed_of(const SDL_Vertex *v)
{
    ipt p = {(int)v->position.x * 2, (int)v->position.y * 2};
    return p;
}

/* One pixel of a translucent triangle: SDL's MMX blitter, channel by
 * channel, (s * a >> 8) + (d * (255 - a) >> 8). */
static void blend_pixel(uint8_t *q, SDL_Color c)
{
    unsigned a = c.a, ia = 255 - a;
    q[0] = (uint8_t)(((c.r * a) >> 8) + ((q[0] * ia) >> 8));
    q[1] = (uint8_t)(((c.g * a) >> 8) + ((q[1] * ia) >> 8));
    q[2] = (uint8_t)(((c.b * a) >> 8) + ((q[2] * ia) >> 8));
    q[3] = 255;
}

/* floor(a / b) for b > 0. */
static int floor_div(int a, int b)
{
    int q = a / b;
    return q - (a % b != 0 && a < 0);
}

/* Narrows [*x0, *x1) to the x where w + x * e >= 0. The steps e are twice
 * a difference of coordinates, so |e| >= 2 and no quotient overflows. */
static void inside(int w, int e, int *x0, int *x1)
{
    if (e == 0) {
        if (w < 0)
            *x1 = *x0; /* nowhere on this row */
        return;
    }
    if (e > 0) { /* x >= ceil(-w / e) */
        int from = -floor_div(w, e);
        if (from > *x0)
            *x0 = from > *x1 ? *x1 : from;
    } else { /* x <= floor(w / -e) */
        int to = floor_div(w, -e) + 1;
        if (to < *x1)
            *x1 = to < *x0 ? *x0 : to;
    }
}

/* n pixels of a triangle's colour from q. */
static void put_span(uint8_t *q, int n, SDL_Color c)
{
    if (c.a == 255) {
        uint8_t bytes[4] = {c.r, c.g, c.b, 255};
        uint32_t word, *p = (uint32_t *)(void *)q; /* the target is 4-aligned */
        memcpy(&word, bytes, 4);
        for (int i = 0; i < n; i++)
            p[i] = word;
        return;
    }
    for (int i = 0; i < n; i++)
        blend_pixel(q + (size_t)i * 4, c);
}

static void fill_triangle(const raster *r, const SDL_Vertex *v0, const SDL_Vertex *v1,
                          const SDL_Vertex *v2)
{
    if (v0->color.a == 0)
        return; /* the blitter skips fully transparent pixels */
    ipt d0 = fixed_of(v0), d1 = fixed_of(v1), d2 = fixed_of(v2);
    int area = cross(d0, d1, d2.x, d2.y);
    if (area == 0)
        return; /* flat */
    int minx = d0.x < d1.x ? d0.x : d1.x, maxx = d0.x > d1.x ? d0.x : d1.x;
    int miny = d0.y < d1.y ? d0.y : d1.y, maxy = d0.y > d1.y ? d0.y : d1.y;
    minx = d2.x < minx ? d2.x : minx;
    maxx = d2.x > maxx ? d2.x : maxx;
    miny = d2.y < miny ? d2.y : miny;
    maxy = d2.y > maxy ? d2.y : maxy;
    SDL_Rect box = {minx / 2, miny / 2, (maxx - minx) / 2, (maxy - miny) / 2}; /* all even */
    if (!intersect(&box, &r->clip, &box))
        return;
    int cw = area > 0, s = cw ? 1 : -1;
    int e0x = s * (d1.y - d2.y) * 2, e1x = s * (d2.y - d0.y) * 2, e2x = s * (d0.y - d1.y) * 2;
    int e0y = s * (d2.x - d1.x) * 2, e1y = s * (d0.x - d2.x) * 2, e2y = s * (d1.x - d0.x) * 2;
    int px = box.x * 2 + 1, py = box.y * 2 + 1; /* the first pixel's centre */
    int w0r = s * cross(d1, d2, px, py), w1r = s * cross(d2, d0, px, py), w2r = s * cross(d0, d1, px, py);
    int b0 = is_top_left(d1, d2, cw) ? 0 : -1, b1 = is_top_left(d2, d0, cw) ? 0 : -1,
        b2 = is_top_left(d0, d1, cw) ? 0 : -1;
    SDL_Color c = v0->color;
    uint8_t *row = r->pixels + (size_t)box.y * r->pitch + (size_t)box.x * 4;
    if (box.w == 1) { /* a column (the sides of a box's outline): a pixel a row, no span */
        for (int y = 0; y < box.h; y++, row += r->pitch, w0r += e0y, w1r += e1y, w2r += e2y)
            if (((w0r + b0) | (w1r + b1) | (w2r + b2)) >= 0)
                put_span(row, 1, c);
        return;
    }
    for (int y = 0; y < box.h; y++, row += r->pitch) {
        /* the columns where every edge function is >= 0: the pixels SDL's
         * loop over the whole box would set; found by division in wide
         * boxes (thin slanted strokes), tested one by one in narrow ones */
        int x0 = 0, x1 = box.w;
        if (box.w >= 32) {
            inside(w0r + b0, e0x, &x0, &x1);
            inside(w1r + b1, e1x, &x0, &x1);
            inside(w2r + b2, e2x, &x0, &x1);
        } else {
            int w0 = w0r + b0, w1 = w1r + b1, w2 = w2r + b2;
            for (; x0 < x1 && (w0 | w1 | w2) < 0; x0++, w0 += e0x, w1 += e1x, w2 += e2x)
                ;
            for (x1 = x0; x1 < box.w && (w0 | w1 | w2) >= 0; x1++, w0 += e0x, w1 += e1x, w2 += e2x)
                ;
        }
        if (x0 < x1)
            put_span(row + (size_t)x0 * 4, x1 - x0, c);
        w0r += e0y;
        w1r += e1y;
        w2r += e2y;
    }
}

/* ---- rectangles found in pairs of triangles (SDL_RenderFillRectF, blended) ------ */

/* x * y / 255, truncated (SDL's DRAW_MUL). */
static unsigned draw_mul(unsigned x, unsigned y) { return x * y / 255; }

static void blend_fill_rect(const raster *r, SDL_FRect d, SDL_Color c)
{
    SDL_Rect px = {(int)d.x, (int)d.y, (int)d.w > 1 ? (int)d.w : 1, (int)d.h > 1 ? (int)d.h : 1};
    if (!intersect(&px, &r->clip, &px))
        return;
    unsigned a = c.a, ia = 255 - a;
    unsigned sr = draw_mul(c.r, a), sg = draw_mul(c.g, a), sb = draw_mul(c.b, a);
    uint8_t *row = r->pixels + (size_t)px.y * r->pitch + (size_t)px.x * 4;
    for (int y = 0; y < px.h; y++, row += r->pitch)
        for (uint8_t *q = row; q < row + (size_t)px.w * 4; q += 4) {
            q[0] = (uint8_t)(draw_mul(ia, q[0]) + sr);
            q[1] = (uint8_t)(draw_mul(ia, q[1]) + sg);
            q[2] = (uint8_t)(draw_mul(ia, q[2]) + sb);
            q[3] = 255;
        }
}

static int same_vertex(const SDL_Vertex *v, int a, int b)
{
    return v[a].position.x == v[b].position.x && v[a].position.y == v[b].position.y &&
           memcmp(&v[a].color, &v[b].color, sizeof v[a].color) == 0;
}

/* Vertex k, or the vertex of the previous triangle it repeats. */
static int remap(const int prev[3], int k, const SDL_Vertex *v)
{
    if (prev[0] < 0)
        return k;
    for (int i = 0; i < 3; i++)
        if (same_vertex(v, prev[i], k))
            return prev[i];
    return k;
}

/* SDL's test of whether the triangle k[] and the one before it (prev[]) make
 * an axis-aligned rectangle of one colour; on success *out is the rectangle
 * and *color its colour. */
static int as_rect(const SDL_Vertex *v, const int prev[3], const int k[3], SDL_FRect *out,
                   SDL_Color *color)
{
    int shared = 0;
    for (int j = 0; j < 3; j++)
        shared += prev[j] == k[0] || prev[j] == k[1] || prev[j] == k[2];
    if (shared != 2)
        return 0;
    float x0 = v[k[0]].position.x, y0 = v[k[0]].position.y, x1 = v[k[1]].position.x,
          y1 = v[k[1]].position.y, x2 = v[k[2]].position.x, y2 = v[k[2]].position.y;
    int A, B, C, C2; /* top left, bottom right, the third corner of each */
    if (x0 <= x1 && y0 <= y1)
        A = x0 <= x2 && y0 <= y2 ? k[0] : k[2];
    else
        A = x1 <= x2 && y1 <= y2 ? k[1] : k[2];
    if (x0 >= x1 && y0 >= y1)
        B = x0 >= x2 && y0 >= y2 ? k[0] : k[2];
    else
        B = x1 >= x2 && y1 >= y2 ? k[1] : k[2];
    C = k[0] != A && k[0] != B ? k[0] : k[1] != A && k[1] != B ? k[1] : k[2];
    C2 = prev[0] != A && prev[0] != B ? prev[0] : prev[1] != A && prev[1] != B ? prev[1] : prev[2];
    float ax = v[A].position.x, ay = v[A].position.y, bx = v[B].position.x, by = v[B].position.y;
    for (int i = 0; i < 2; i++) {
        const SDL_Vertex *c = &v[i == 0 ? C : C2];
        if (!((ax == c->position.x && by == c->position.y) || (ay == c->position.y && bx == c->position.x)))
            return 0;
    }
    if (memcmp(&v[A].color, &v[B].color, 4) || memcmp(&v[A].color, &v[C].color, 4) ||
        memcmp(&v[A].color, &v[C2].color, 4))
        return 0;
    *out = (SDL_FRect){ax, ay, bx - ax, by - ay};
    *color = v[k[0]].color;
    return 1;
}

void raster_geometry(SDL_Surface *target, const SDL_Rect *clip, const SDL_Vertex *v, size_t n)
{
    SDL_Rect all = {0, 0, target->w, target->h};
    raster r = {target->pixels, (size_t)target->pitch, all};
    if (clip && !intersect(&all, clip, &r.clip))
        return;
    int prev[3] = {-1, -1, -1};
    for (size_t i = 0; i + 3 <= n; i += 3) {
        int k[3] = {remap(prev, (int)i, v), remap(prev, (int)i + 1, v), remap(prev, (int)i + 2, v)};
        SDL_FRect d;
        SDL_Color c;
        if (prev[0] < 0) {
            memcpy(prev, k, sizeof k);
        } else if (as_rect(v, prev, k, &d, &c)) {
            if (d.w != 0 && d.h != 0)
                blend_fill_rect(&r, d, c);
            prev[0] = -1;
        } else {
            fill_triangle(&r, &v[prev[0]], &v[prev[1]], &v[prev[2]]);
            memcpy(prev, k, sizeof k);
        }
    }
    if (prev[0] >= 0)
        fill_triangle(&r, &v[prev[0]], &v[prev[1]], &v[prev[2]]);
}

void raster_triangle(SDL_Surface *target, const SDL_Rect *clip, const SDL_Vertex *v)
{
    SDL_Rect all = {0, 0, target->w, target->h};
    raster r = {target->pixels, (size_t)target->pitch, all};
    if (clip && !intersect(&all, clip, &r.clip))
        return;
    fill_triangle(&r, &v[0], &v[1], &v[2]);
}
