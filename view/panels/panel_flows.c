/*
 * panel_flows.c — the flows of the visualization rules (tlv_shapes_flow*)
 * drawn as arrows over the shapes, from the source row to the target row at
 * the flow's time; key `o` shows or hides them. Zoomed out they are thinned
 * so that a strip of GAP pixel columns holds at most one arrow per pair of
 * rows (never more than one per column, and a dense trace stays readable):
 * each strip seeks its first flow and looks at a bounded number, so a frame
 * costs in proportion to its width, not to the flows in view.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PER_COLUMN 24         /* flows looked at per strip of columns */
#define GAP 6                 /* columns per strip, at scale 1 */
#define C_FLOW 0x1F4FB4u      /* resource to resource */
#define C_MOVE 0xD2691Eu      /* processor to processor (a migration) */
#define ALPHA 255             /* opaque: SDL fills these several times faster than blended ones */

/* Arrows of one frame as rectangles, drawn in one call per colour: the
 * shaft, the head as one row of pixels per rectangle (arrows are vertical)
 * and the dot where it starts. SDL's software renderer fills rectangles
 * many times faster than it rasterizes triangles (SDL_RenderGeometry was
 * most of this panel's time on a dense trace). */
typedef struct batch {
    SDL_Rect *r;
    size_t n, cap;
} batch;

typedef struct flows_panel {
    view_panel base;
    int shown;                /* the arrows (key o; on at first) */
    size_t drawn;             /* arrows in the last frame */
    double *band_y;           /* per row of the shapes: the middle of its band, or NAN */
    size_t nrows;
    batch arrows[2], dots[2]; /* this frame's: resource to resource [0], processor to
                                 processor [1]; the dots where they start are opaque */
} flows_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

/* band_y[row] for the rows of the view's bands. */
static int map_rows(flows_panel *f, const view_app *a, const tlv_view *v)
{
    size_t n = tlv_shapes_row_count(a->shapes);
    if (n > f->nrows) {
        double *y = realloc(f->band_y, n * sizeof *y);
        if (!y)
            return -1;
        f->band_y = y;
        f->nrows = n;
    }
    for (size_t r = 0; r < n; r++)
        f->band_y[r] = NAN;
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    for (size_t p = 0; p < l.row_count; p++) {
        size_t r = v->rows ? v->rows[p] : p;
        if (r < n)
            f->band_y[r] = l.ruler_height + ((double)p - (double)l.first_row + 0.5) * l.row_height;
    }
    return 0;
}

static void rect(batch *b, int x, int y, int w, int h)
{
    if (w > 0 && h > 0 && view_grow((void **)&b->r, &b->cap, b->n + 1, sizeof *b->r) == 0)
        b->r[b->n++] = (SDL_Rect){x, y, w, h};
}

/* An arrow of kind `k` at column x from y0 down (or up) to y1: a 2-pixel
 * shaft, a head `head` pixels long narrowing to the tip, a 4x4 dot at the
 * start. */
static void arrow(flows_panel *f, int k, const view_app *a, double x, double y0, double y1)
{
    batch *b = &f->arrows[k];
    int head = scaled(a, 6), dir = y1 > y0 ? 1 : -1, ix = (int)floor(x);
    int tip = (int)lround(y1) - dir * scaled(a, 2), neck = tip - dir * head, start = (int)lround(y0);
    if (dir > 0)
        rect(b, ix, start + 2, 2, neck - start - 2);
    else
        rect(b, ix, neck + 1, 2, start - 2 - neck - 1);
    for (int i = 0; i < head; i++) { /* from the neck (widest) to the tip */
        int half = (int)lround((double)(head - i) * 0.5);
        rect(b, ix + 1 - half, neck + dir * i, 2 * half, 1);
    }
    rect(&f->dots[k], ix - 1, start - 2, 4, 4);
}

static void fill_batch(view_app *a, const batch *b, uint32_t rgb, int alpha)
{
    SDL_SetRenderDrawBlendMode(a->ren, alpha < 255 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(a->ren, (Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, (Uint8)alpha);
    SDL_RenderFillRects(a->ren, b->r, (int)b->n);
}

/* The pairs of rows already drawn in one column. */
typedef struct column {
    size_t from[PER_COLUMN], to[PER_COLUMN];
    int n;
} column;

static int seen(column *c, size_t from, size_t to)
{
    for (int i = 0; i < c->n; i++)
        if (c->from[i] == from && c->to[i] == to)
            return 1;
    c->from[c->n] = from;
    c->to[c->n] = to;
    c->n++;
    return 0;
}

static tlv_time time_at(double t, int up)
{
    double r = up ? ceil(t) : floor(t);
    r = r < -9.2e18 ? -9.2e18 : r > 9.2e18 ? 9.2e18 : r;
    return (tlv_time){(int64_t)r, 0};
}

static void draw_flows(flows_panel *f, view_app *a, const tlv_view *v, const view_areas *ar)
{
    f->drawn = 0;
    size_t total = a->shapes ? tlv_shapes_flow_count(a->shapes) : 0;
    if (!f->shown || !total || map_rows(f, a, v) < 0)
        return;
    SDL_Rect clip = {ar->label_w, ar->ruler_h, v->width - ar->label_w, v->height - ar->ruler_h};
    SDL_RenderSetClipRect(a->ren, &clip);
    f->arrows[0].n = f->arrows[1].n = f->dots[0].n = f->dots[1].n = 0;
    size_t i = tlv_shapes_flow_seek(a->shapes, time_at(v->t0, 0));
    for (int x = ar->label_w; x < v->width && i < total;) {
        tlv_flow_info fl;
        tlv_shapes_flow(a->shapes, i, &fl);
        double ft = tlv_time_to_double(fl.time, a->radix);
        if (ft > v->t1)
            break;
        int col = (int)floor(tlv_view_x(v, ft));
        col = col < x ? x : col;
        /* the flows of this strip: at most PER_COLUMN looked at, one per pair */
        int gap = scaled(a, GAP) > 1 ? scaled(a, GAP) : 1;
        double col_end = tlv_view_time(v, col + gap);
        column c = {.n = 0};
        for (int k = 0; k < PER_COLUMN && i < total; k++, i++) {
            tlv_shapes_flow(a->shapes, i, &fl);
            ft = tlv_time_to_double(fl.time, a->radix);
            if (ft >= col_end)
                break;
            if (fl.from_row == TLV_NO_ROW || fl.to_row == TLV_NO_ROW || fl.from_row == fl.to_row ||
                fl.from_row >= f->nrows || fl.to_row >= f->nrows)
                continue;
            double y0 = f->band_y[fl.from_row], y1 = f->band_y[fl.to_row];
            if (isnan(y0) || isnan(y1) || seen(&c, fl.from_row, fl.to_row))
                continue;
            arrow(f, fl.to_processor ? 1 : 0, a, tlv_view_x(v, ft), y0, y1);
            f->drawn++;
        }
        x = col + gap;
        size_t next = tlv_shapes_flow_seek(a->shapes, time_at(col_end, 0));
        i = next > i ? next : i; /* skip the rest of this column */
    }
    for (int k = 0; k < 2; k++) {
        fill_batch(a, &f->arrows[k], k ? C_MOVE : C_FLOW, ALPHA);
        fill_batch(a, &f->dots[k], k ? C_MOVE : C_FLOW, 255);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    if (layer == VIEW_LAYER_TIMELINE)
        draw_flows((flows_panel *)p, a, v, ar);
}

static void toggle(view_panel *p, view_app *a, SDL_Keycode k, int mods)
{
    (void)k, (void)mods;
    flows_panel *f = (flows_panel *)p;
    f->shown = !f->shown;
    size_t n = a->shapes ? tlv_shapes_flow_count(a->shapes) : 0;
    view_message(a, f->shown ? "flows shown (%zu in the trace)" : "flows hidden", n);
    view_dirty(a);
}

static const view_key keys[] = {
    {SDLK_o, VIEW_KEYS_PLAIN, "o: flow arrows", toggle},
};

static void save(view_panel *p, const view_app *a, struct cJSON *o)
{
    (void)a;
    cJSON_AddBoolToObject(o, "flows_shown", ((flows_panel *)p)->shown);
}

/* The session's; also --bench's, which draws its baseline frames without. */
static void load(view_panel *p, view_app *a, const struct cJSON *o)
{
    (void)a;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, "flows_shown");
    if (cJSON_IsBool(s))
        ((flows_panel *)p)->shown = cJSON_IsTrue(s);
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    const flows_panel *f = (const flows_panel *)p;
    cJSON_AddNumberToObject(o, "flows_drawn", (double)f->drawn);
    cJSON_AddNumberToObject(o, "flows_total",
                            a->shapes ? (double)tlv_shapes_flow_count(a->shapes) : 0);
}

static void destroy(view_panel *p)
{
    flows_panel *f = (flows_panel *)p;
    free(f->band_y);
    for (int k = 0; k < 2; k++) {
        free(f->arrows[k].r);
        free(f->dots[k].r);
    }
    free(p);
}

view_panel *flows_panel_new(void)
{
    flows_panel *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->shown = 1;
    f->base = (view_panel){.name = "flows", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .save = save, .load = load,
                           .dump = dump, .destroy = destroy};
    return &f->base;
}
