/*
 * render_impl.h — the drawing module behind tlv_render_rgba, shared with the
 * interactive viewer: a whole frame drawn onto any SDL_Renderer (a software
 * renderer over a caller's pixels, or a window's), the layout of a view (where
 * the label column, the ruler and each row band are), the vector primitives
 * (render_draw.c: fills, thick and dashed strokes, arrows, ellipses, pies,
 * clipped so that far off-screen geometry stays cheap and exact) and text
 * with fonts found through fontconfig (render_text.c).
 *
 * Coordinates follow GDI+, which the original drew with: a pixel's centre is
 * at integer coordinates, so a 1-px line at y = 40 lights exactly row 40 and
 * a fill of [100, 200) lights columns 100..199.
 */
#ifndef TLV_RENDER_IMPL_H
#define TLV_RENDER_IMPL_H

#include "base/diag.h"
#include "shape/figure.h"
#include "viz/viz_impl.h"

#include <tlv/render.h>

#include <SDL.h>

#include <stddef.h>
#include <stdint.h>

/* ---- layout ------------------------------------------------------------- */

/* Where things are in a view, in pixels. Bands are counted by position in
 * the view's row list (tlv_view.rows, or every row when it is NULL); bands
 * [first_row, end_row) are (at least partly) visible. */
typedef struct render_layout {
    int width, height;
    int label_w;          /* the label column is x in [0, label_w) */
    int ruler_h;          /* the ruler is y in [0, ruler_h) */
    double row_h;         /* band height; fractional when all rows are fitted */
    size_t nrows, first_row, end_row;   /* positions in the list */
    const size_t *rows;   /* the view's list, or NULL: position p is row p */
    size_t shape_rows;    /* rows of the shapes */
    float scale;          /* HiDPI factor, >= some small positive value */
} render_layout;

/* The layout of `v` for a trace with `nrows` rows. */
void render_layout_of(const tlv_view *v, size_t nrows, render_layout *out);

/* The row drawn at position `pos` of the list: a row of the shapes, or
 * TLV_VIEW_ROW_BLANK (also for an entry that is not a row). */
size_t render_row_id(const render_layout *l, size_t pos);

/* The top pixel of the band at position `pos` (may be off-screen). */
double render_row_top(const render_layout *l, size_t pos);

/* The position of the band under pixel y, or -1 (ruler, or below the last
 * band). */
long render_row_at(const render_layout *l, double y);

/* ---- time text ---------------------------------------------------------- */

/* Writes trace time `t` (in units of `time_scale`) readably: with an SI
 * prefix chosen by magnitude when the scale is a unit of seconds ("us": 1250
 * -> "1.25 ms"), else plain with k/M/G and the scale's word ("cycles": 1500
 * -> "1.5k cycles"). `step` > 0 is the spacing of neighbouring values, which
 * decides how many decimals are kept; 0 keeps up to 3. Returns buf. */
char *render_format_time(double t, double step, const char *time_scale, char *buf,
                         size_t size);

/* ---- text (render_text.c) ------------------------------------------------ */

/* Fonts (fontconfig, SDL_ttf), the TTF_Font cache and a cache of text
 * textures for the SDL_Renderer in use. Problems (no font, no Japanese
 * glyphs) are recorded once each in the diags given at creation, which must
 * outlive it. */
typedef struct render_fonts render_fonts;

render_fonts *render_fonts_new(tlv_diags *diags);
void render_fonts_free(render_fonts *f);
/* Whether text was left out for want of memory since the last call. */
int render_fonts_out_of_memory(render_fonts *f);

/* Brackets one frame on `ren`: textures made for another renderer are
 * destroyed; textures not used during the frame are evicted at its end. */
void render_text_begin(render_fonts *f, SDL_Renderer *ren);
void render_text_end(render_fonts *f);

/* Destroys every cached texture. Call it before destroying the renderer the
 * last frame was drawn on (the cache holds that renderer's textures). */
void render_text_release(render_fonts *f);

typedef struct text_style {
    const char *family;   /* NULL = the system sans-serif */
    float px;             /* em size in pixels */
    unsigned style;       /* font_style_bits */
    uint32_t argb;
    text_align align;
    int elide_middle;     /* a text too long loses its middle ("MAIN_TA…_PRC3"), else its end */
} text_style;

/* What render_text drew: the text as drawn (NULL: nothing), valid until
 * the next frame begins, and the pixels it covers. */
typedef struct text_drawn {
    const char *text;
    SDL_Rect at;
} text_drawn;

/* Draws `text` as one line aligned in `box`, cut with an ellipsis when it
 * does not fit and clipped to box ∩ clip (the renderer's clip is put back
 * afterwards); says what it drew in *out when not NULL. Returns 0, or -1
 * when there is no usable font (nothing drawn). */
int render_text(render_fonts *f, const char *text, const text_style *st, frect box,
                const SDL_Rect *clip, text_drawn *out);

/* The width in pixels `text` would take, or -1 without a usable font. */
int render_text_width(render_fonts *f, const char *text, const text_style *st);

/* How `text` is drawn in at most `max_w` pixels: *drawn is the text itself
 * or its cut with an ellipsis (valid until the next frame begins), *w and
 * *h the size it takes (*h the font's whole line: ascent and descent).
 * Returns 0, or -1 when nothing would be drawn (no usable font, or not even
 * the ellipsis fits). */
int render_text_fit(render_fonts *f, const char *text, const text_style *st, float max_w,
                    const char **drawn, int *w, int *h);

/* Draws a text as render_text_fit gave it, its top-left at (x, y), clipped
 * to `clip` (NULL: not clipped). Returns 0, or -1 without a usable font. */
int render_text_at(render_fonts *f, const char *drawn, const text_style *st, int x, int y,
                   const SDL_Rect *clip);

/* ---- vector drawing (render_draw.c) ------------------------------------- */

/* Triangles collected for one SDL_RenderGeometry call. Every triangle is
 * clipped to `bounds` first: shapes zoomed to millions of pixels stay exact
 * and cheap, and the renderer never sees coordinates beyond its range. */
typedef struct render_batch {
    SDL_Renderer *ren;
    SDL_Vertex *v;
    size_t n, cap;
    SDL_FRect bounds;
    int failed;           /* an allocation failed: some triangles are lost */
    SDL_Surface *direct;  /* the renderer's RGBA32 target when we may write its
                             pixels ourselves (rectangles), else NULL */
    SDL_Rect clip;        /* the clip rectangle set on ren, when has_clip */
    int has_clip;
    size_t ahead;         /* vertices drawn ahead of the batch (a box's outline)
                             that count toward its flushing as if queued */
    int plain;            /* outlines through the batch always (tests) */
} render_batch;

void batch_init(render_batch *b, SDL_Renderer *ren, SDL_FRect bounds);
/* Draws what was collected (call before drawing anything else on ren). */
void batch_flush(render_batch *b);
void batch_free(render_batch *b);

typedef struct fpoint {
    float x, y;
} fpoint;

void batch_triangle(render_batch *b, fpoint p, fpoint q, fpoint r, uint32_t argb);
void batch_rect(render_batch *b, frect r, uint32_t argb);

/* One pixel column of a summary: a colour (0: nothing) from y0 to y1. */
typedef struct column_cell {
    uint32_t argb;
    float y0, y1;
} column_cell;

/* Fills column x + i (i < n) with cells[i], as batch_rect would fill each
 * run of equal cells. */
void batch_columns(render_batch *b, double x, const column_cell *cells, size_t n);

/* One layer of a zoomed-out row: a colour in a band [y0, y1) of it, in the
 * columns i whose on[i] is not 0. */
typedef struct column_layer {
    uint32_t argb;
    float y0, y1;
    const uint32_t *on;
} column_layer;

/* Draws the layers in turn over columns x + i (i < n), the same pixels as
 * batch_columns for each layer, one after the other; into the direct
 * target every pixel is blended once for the whole stack (a pixel whose
 * stack and colour before are those of the pixel before it gets its
 * result). */
void batch_layers(render_batch *b, double x, const column_layer *layers, size_t nlayers,
                  size_t n);

typedef struct pen_style {
    uint32_t argb;
    float width;          /* pixels; thinner than 1 draws 1 */
    dash_style dash;
} pen_style;

/* Strokes the polyline pts[0..n-1] (closed: back to pts[0]) with mitred
 * joins and flat caps, dashed as GDI+ does (pattern lengths in pen widths). */
void stroke_polyline(render_batch *b, const fpoint *pts, size_t n, int closed,
                     const pen_style *pen);

/* Draws a non-text primitive for a shape whose area is `area`; pens are
 * scaled by `scale`. */
void draw_prim(render_batch *b, const prim *p, frect area, float scale);

/* ---- triangles into an RGBA32 frame (render_raster.c) ------------------ */

/* Draws the triangles v[0..n-1] (n a multiple of 3) into `target` (RGBA32)
 * clipped to `clip` (NULL: the whole target), exactly as
 * SDL_RenderGeometry would on a software renderer over `target` with that
 * clip rectangle and blend mode BLEND, but with alpha left at 255. */
void raster_geometry(SDL_Surface *target, const SDL_Rect *clip, const SDL_Vertex *v, size_t n);

/* Draws the one triangle v[0..2] as raster_geometry draws a triangle that
 * does not pair with its neighbours into a rectangle. */
void raster_triangle(SDL_Surface *target, const SDL_Rect *clip, const SDL_Vertex *v);

/* ---- what a frame drew, and its labels (render_labels.c) ---------------- */

/* The kinds of tlv_text_kind (render.h), in the same order. */
typedef enum text_kind { TEXT_LABEL, TEXT_TICK, TEXT_REFERENCE, TEXT_ROW, TEXT_KINDS } text_kind;

typedef struct drawn_text {
    size_t text;          /* offset in render_texts.chars */
    SDL_Rect at;
} drawn_text;

/* The texts a frame drew, by kind, as drawn (cut texts with their
 * ellipsis), with the pixels they cover. */
typedef struct render_texts {
    drawn_text *v[TEXT_KINDS];
    size_t n[TEXT_KINDS], cap[TEXT_KINDS];
    char *chars;
    size_t nchars, chars_cap;
} render_texts;

void texts_clear(render_texts *t);
void texts_free(render_texts *t);
/* Returns 0, or -1 when memory ran out (the text is not recorded). */
int texts_add(render_texts *t, text_kind kind, const char *text, SDL_Rect at);
/* Text i of `kind` and where it is, or NULL. */
const char *texts_get(const render_texts *t, text_kind kind, size_t i, SDL_Rect *at);

/* A text primitive of a shape in view, waiting to be placed. */
typedef struct label_cand {
    const prim *p;
    frect box;            /* the text's box (prim_box), in pixels */
    float band_top, band_h;   /* its row band */
    double length;        /* the shape's interval, in trace units */
    int focus;            /* the shape is under the pointer */
    uint32_t seq;         /* order of collection (set by labels_add) */
    float at;             /* an instant's (a When shape's) x, pixels; NAN for an interval */
} label_cand;

typedef struct grid_node {
    SDL_Rect r;
    long next;
} grid_node;

/* The candidates of a frame, and a grid of the texts placed so far (kept
 * from frame to frame for their memory only). */
typedef struct render_labels {
    label_cand *c;
    size_t n, cap;
    long *cell;           /* first node of each cell, or -1 */
    size_t cell_cap;
    grid_node *node;
    size_t nnode, node_cap;
    int cols, rows;
} render_labels;

void labels_free(render_labels *L);
/* Returns 0, or -1 when memory ran out (the text is not drawn). */
int labels_add(render_labels *L, const label_cand *c);

typedef void (*label_draw_fn)(void *ctx, const char *text, const text_style *st, SDL_Rect at);

/* Places the candidates collected (see the file's comment) within `area`
 * (the timeline) of a width x height frame, calling draw for each text
 * placed, and forgets them. Returns 0, or -1 when memory ran out (some
 * texts may be missing). */
int labels_place(render_labels *L, render_fonts *fonts, float scale, SDL_Rect area, int width,
                 int height, label_draw_fn draw, void *ctx);

/* What a tlv_renderer keeps from frame to frame besides fonts: the labels'
 * memory, what the last frame drew, the pointer's position and the
 * ruler's origin. */
typedef struct render_state {
    render_labels labels;
    render_texts texts;
    int has_focus;
    double focus_x, focus_y;  /* pixels */
    int relative;             /* the ruler reads times from `origin` */
    double origin;
    char origin_name[64];
    int absolute;             /* a clock trace's ruler reads absolute times */
    int threads;              /* threads drawing the shapes; 0: 2 with 2+ cores */
    int cpus;                 /* the machine's cores, once asked (0: not yet) */
    int drew_on;              /* threads that drew the last frame's shapes */
    int plain_outlines;       /* boxes' outlines through the batch (tests) */
} render_state;

void render_state_free(render_state *st);

/* ---- frame (render.c) --------------------------------------------------- */

/* How a frame draws a row's shapes: from the per-column summary when more
 * than about two shapes per pixel column are in view (AUTO), or always one
 * way (tests compare the two on the same view). */
typedef enum render_rows { RENDER_ROWS_AUTO, RENDER_ROWS_DETAILED, RENDER_ROWS_SUMMARY } render_rows;

/* render_frame on a software renderer whose target surface (RGBA32) may be
 * written directly: rectangles are then blended by our own loop, several
 * times faster than SDL's generic fill (most of a timeline is rectangles). */
int render_frame_direct(SDL_Renderer *ren, SDL_Surface *target, render_fonts *fonts,
                        render_state *state, const struct tlv_shapes *s, const tlv_view *v,
                        render_rows rows);

/* Makes tlv_render_rgba draw rows always one way (RENDER_ROWS_AUTO: the
 * default). For tests. */
void render_set_rows(tlv_renderer *r, render_rows rows);

/* Makes tlv_render_rgba draw the shapes on `threads` threads (1 or 2; 0:
 * the default, 2 on a machine with more than one core). The frame's pixels
 * are the same either way. For tests and benchmarks. */
void render_set_threads(tlv_renderer *r, int threads);
/* How many threads drew the shapes of the last frame (1 or 2). */
int render_drew_on(const tlv_renderer *r);
/* Makes tlv_render_rgba draw boxes' outlines through the triangle batch
 * (plain != 0) instead of straight into the frame; the same pixels. For
 * tests. */
void render_set_plain_outlines(tlv_renderer *r, int plain);

/* Draws the whole view of `s` onto `ren`, whose output is v->width x
 * v->height pixels: background, ruler, labels, row bands and shapes.
 * `fonts` may be NULL (no text); `state` NULL is a state of its own for
 * this frame (no pointer, absolute times). Returns 0, or -1 when memory ran out (the
 * frame may be incomplete). */
int render_frame(SDL_Renderer *ren, render_fonts *fonts, const struct tlv_shapes *s,
                 const tlv_view *v);

#endif
