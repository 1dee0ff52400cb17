/*
 * panel_tracks.c — drawing the tracks (view_tracks.c) in their bands above
 * the rows: a CPU-load track as the busy share of each pixel column, filled
 * from the bottom (zoom-aware: each column asks libtlv for its own window);
 * a counter track as a step line over the range between the extremes each
 * column saw. The value under the pointer shows in a tooltip; key u turns
 * the load tracks off and on (on at first; they show in per-CPU mode).
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define C_BAND 0xF3F6FAu
#define C_LOAD 0x3C8C3Cu
#define C_COUNTER 0x2F6DB5u
#define C_TEXT 0x202020u
#define C_DIM 0x707070u

typedef struct tracks_panel {
    view_panel base;
    double *val, *lo, *hi;    /* per pixel column, reused */
    SDL_Rect *area, *line;    /* per pixel column: the filled area, the counter's line */
    size_t cap;
    long hover;               /* the track under the pointer, or -1 */
    double hover_value, hover_lo, hover_hi, hover_t;
} tracks_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int ensure(tracks_panel *t, size_t n)
{
    if (n <= t->cap)
        return 0;
    double *v = realloc(t->val, n * sizeof *v), *lo = v ? realloc(t->lo, n * sizeof *lo) : NULL;
    if (v)
        t->val = v;
    if (lo)
        t->lo = lo;
    double *hi = lo ? realloc(t->hi, n * sizeof *hi) : NULL;
    if (hi)
        t->hi = hi;
    SDL_Rect *ar = hi ? realloc(t->area, n * sizeof *ar) : NULL;
    if (ar)
        t->area = ar;
    SDL_Rect *ln = ar ? realloc(t->line, n * sizeof *ln) : NULL;
    if (!ln)
        return -1;
    t->line = ln;
    t->cap = n;
    return 0;
}

static void value_text(const view_track *k, double v, char *buf, size_t size)
{
    if (isnan(v))
        snprintf(buf, size, "-");
    else if (k->kind == TRACK_LOAD)
        snprintf(buf, size, "%.1f%%", v * 100);
    else
        snprintf(buf, size, "%.10g", v);
}

static void draw_track(tracks_panel *t, view_app *a, const tlv_view *v, const view_areas *ar,
                       size_t i, double top, double h)
{
    const view_track *k = &a->tracks.v[i];
    int x0 = ar->label_w, ncols = v->width - x0;
    int y0 = (int)floor(top), ih = (int)ceil(h);
    view_fill(a, 0, y0, v->width, ih, C_BAND, 255);
    view_fill(a, 0, y0 + ih - 1, v->width, 1, 0xD8DCE2, 255);
    int th = view_text_height(a->text);
    SDL_Rect lclip = {0, y0, x0, ih};
    SDL_RenderSetClipRect(a->ren, &lclip);
    view_text_draw(a->text, k->label, scaled(a, 4), y0 + (ih - th) / 2, C_TEXT);
    SDL_Rect clip = {x0, y0 > ar->ruler_h ? y0 : ar->ruler_h, ncols, ih};
    SDL_RenderSetClipRect(a->ren, &clip);
    if (ncols <= 0 || ensure(t, (size_t)ncols) < 0)
        return;
    tracks_values(a, i, tlv_view_time(v, x0), tlv_view_time(v, v->width), t->val, t->lo, t->hi,
                  (size_t)ncols);
    double pad = fmax(1, h * 0.08), gh = h - 2 * pad, range = k->max - k->min;
    uint32_t c = k->kind == TRACK_LOAD ? C_LOAD : C_COUNTER;
    int na = 0, nl = 0; /* drawn in two calls: SDL's software renderer pays per call */
    for (int col = 0; col < ncols; col++) {
        if (isnan(t->val[col]))
            continue;
        double f = (t->val[col] - k->min) / range, lo = (t->lo[col] - k->min) / range,
               hi = (t->hi[col] - k->min) / range;
        f = fmin(1, fmax(0, f));
        int base = (int)lround(top + pad + gh), yv = (int)lround(top + pad + gh * (1 - f));
        if (base > yv)
            t->area[na++] = (SDL_Rect){x0 + col, yv, 1, base - yv};
        if (k->kind == TRACK_COUNTER) { /* the line, over the extremes of the column */
            int yh = (int)lround(top + pad + gh * (1 - fmin(1, fmax(0, hi))));
            int yl = (int)lround(top + pad + gh * (1 - fmin(1, fmax(0, lo))));
            t->line[nl++] = (SDL_Rect){x0 + col, yh, 1, yl - yh + 2};
        }
    }
    SDL_SetRenderDrawBlendMode(a->ren, k->kind == TRACK_LOAD ? SDL_BLENDMODE_NONE
                                                             : SDL_BLENDMODE_BLEND);
    SDL_SetRenderDrawColor(a->ren, (c >> 16) & 255, (c >> 8) & 255, c & 255,
                           k->kind == TRACK_LOAD ? 255 : 70);
    SDL_RenderFillRects(a->ren, t->area, na);
    SDL_SetRenderDrawColor(a->ren, (c >> 16) & 255, (c >> 8) & 255, c & 255, 255);
    SDL_RenderFillRects(a->ren, t->line, nl);
    char mx[64];
    value_text(k, k->max, mx, sizeof mx);
    int w = view_text_width(a->text, mx);
    view_label(a, mx, v->width - w - scaled(a, 10), y0 + 1, C_DIM, C_BAND, 200);
    SDL_RenderSetClipRect(a->ren, NULL);
}

/* The track under the pointer and its value in the pixel column there. */
static void find_hover(tracks_panel *t, view_app *a, const tlv_view *v, const view_areas *ar)
{
    t->hover = -1;
    const view_rows *r = &a->rows;
    if (!a->mouse_in || a->mx < ar->label_w || a->mx >= v->width || a->my >= ar->main.h ||
        !r->built || view_panels_cover(a, a->mx, a->my))
        return;
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    if (a->my < l.ruler_height || l.row_height <= 0)
        return;
    double p = floor((a->my - l.ruler_height) / l.row_height) + (double)l.first_row;
    if (p < 0 || p >= (double)r->nbands || r->band_track[(size_t)p] < 0)
        return;
    t->hover = r->band_track[(size_t)p];
    double c0 = floor(a->mx);
    t->hover_t = tlv_view_time(v, a->mx);
    tracks_values(a, (size_t)t->hover, tlv_view_time(v, c0), tlv_view_time(v, c0 + 1),
                  &t->hover_value, &t->hover_lo, &t->hover_hi, 1);
}

static void draw_tooltip(tracks_panel *t, view_app *a)
{
    if (t->hover < 0 || a->drag != DRAG_NONE)
        return;
    const view_track *k = &a->tracks.v[t->hover];
    char l[3][200], v[64], lo[64], hi[64], when[64];
    value_text(k, t->hover_value, v, sizeof v);
    value_text(k, t->hover_lo, lo, sizeof lo);
    value_text(k, t->hover_hi, hi, sizeof hi);
    snprintf(l[0], sizeof l[0], "%s", k->label);
    snprintf(l[1], sizeof l[1], "%s: %s at %s", k->kind == TRACK_LOAD ? "busy" : "value", v,
             view_time_at_text(a, t->hover_t, 0, when, sizeof when));
    snprintf(l[2], sizeof l[2], "in this pixel: %s .. %s", lo, hi);
    const char *lines[] = {l[0], l[1], l[2]};
    view_text_box(a, lines, k->kind == TRACK_LOAD ? 2 : 3, (int)a->mx + scaled(a, 14),
                  (int)a->my + scaled(a, 18), 0xFFFFE8);
}

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    tracks_panel *t = (tracks_panel *)p;
    const view_rows *r = &a->rows;
    if (layer == VIEW_LAYER_POPUP) {
        draw_tooltip(t, a);
        return;
    }
    if (layer != VIEW_LAYER_BANDS || !r->built || !a->shapes)
        return;
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    for (size_t pos = l.first_row; pos < l.end_row && pos < r->nbands; pos++)
        if (r->band_track[pos] >= 0)
            draw_track(t, a, v, ar, (size_t)r->band_track[pos],
                       l.ruler_height + ((double)pos - (double)l.first_row) * l.row_height,
                       l.row_height);
    find_hover(t, a, v, ar);
}

static void toggle(view_panel *p, view_app *a, SDL_Keycode k, int mods)
{
    (void)p, (void)k, (void)mods;
    a->tracks.load_on = !a->tracks.load_on;
    view_message(a, "CPU load tracks %s%s", a->tracks.load_on ? "on" : "off",
                 a->tracks.load_on && !a->per_cpu ? " (shown in per-CPU mode: c)" : "");
    rows_changed(a);
}

static const view_key keys[] = {
    {SDLK_u, VIEW_KEYS_PLAIN, "u: CPU-load tracks off/on (per-CPU mode)", toggle},
    {0, 0, "tracks: hover for the value; r panel: check boxes hide/show them", NULL},
};

static void note(view_panel *p, view_app *a, view_note what)
{
    (void)p;
    if (what == VIEW_NOTE_TRACE_CHANGED)
        rows_changed(a); /* new events: the tracks are computed again */
}

static cJSON *names_json(const name_set *s)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < s->n; i++)
        json_push(arr, cJSON_CreateString(s->v[i]));
    return arr;
}

static void read_names(const cJSON *arr, name_set *s)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, arr)
        if (cJSON_IsString(e))
            set_add(s, e->valuestring);
}

static void save(view_panel *p, const view_app *a, struct cJSON *o)
{
    (void)p;
    cJSON *j = cJSON_AddObjectToObject(o, "tracks_state");
    cJSON_AddBoolToObject(j, "load", a->tracks.load_on);
    json_put(j, "hidden", names_json(&a->tracks.hidden));
    json_put(j, "order", names_json(&a->tracks.order));
    json_put(j, "offered_shown", names_json(&a->tracks.offered_shown));
}

static void load(view_panel *p, view_app *a, const struct cJSON *o)
{
    (void)p;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "tracks_state");
    if (!cJSON_IsObject(j))
        return;
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(j, "load");
    if (cJSON_IsBool(l))
        a->tracks.load_on = cJSON_IsTrue(l);
    set_free(&a->tracks.hidden);
    set_free(&a->tracks.order);
    read_names(cJSON_GetObjectItemCaseSensitive(j, "hidden"), &a->tracks.hidden);
    read_names(cJSON_GetObjectItemCaseSensitive(j, "order"), &a->tracks.order);
    set_free(&a->tracks.offered_shown);
    read_names(cJSON_GetObjectItemCaseSensitive(j, "offered_shown"), &a->tracks.offered_shown);
    a->tracks.of = NULL; /* put in the order read */
    if (a->shapes)
        rows_changed(a);
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    const tracks_panel *t = (const tracks_panel *)p;
    cJSON *arr = cJSON_AddArrayToObject(o, "tracks");
    for (size_t i = 0; i < a->tracks.n; i++) {
        if (!tracks_shown(a, i))
            continue;
        const view_track *k = &a->tracks.v[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", k->label);      /* as on the screen */
        cJSON_AddStringToObject(e, "key", k->name);        /* as the session keeps it */
        cJSON_AddStringToObject(e, "kind", k->kind == TRACK_LOAD ? "load" : "counter");
        cJSON_AddBoolToObject(e, "offered", k->offered); /* not declared a counter */
        cJSON_AddNumberToObject(e, "min", k->min);
        cJSON_AddNumberToObject(e, "max", k->max);
        if (k->kind == TRACK_LOAD) { /* the busy share of the visible range, as tlv stats has it */
            size_t n = k->index == TLV_STATS_ALL_CPUS ? tlv_stats_cpu_count(a->tracks.stats) : 1;
            double span = a->nav.t1 - a->nav.t0;
            double busy = tlv_stats_busy_in(a->tracks.stats, k->index, a->nav.t0, a->nav.t1);
            cJSON_AddNumberToObject(e, "busy_share", span > 0 && n ? busy / span / (double)n : 0);
        }
        json_push(arr, e);
    }
    cJSON *all = cJSON_AddArrayToObject(o, "tracks_all"); /* shown or not, in order */
    for (size_t i = 0; i < a->tracks.n; i++)
        json_push(all, cJSON_CreateString(a->tracks.v[i].name));
    if (t->hover < 0 || (size_t)t->hover >= a->tracks.n) {
        cJSON_AddNullToObject(o, "track_hover");
        return;
    }
    cJSON *h = cJSON_AddObjectToObject(o, "track_hover");
    cJSON_AddStringToObject(h, "name", a->tracks.v[t->hover].label);
    cJSON_AddNumberToObject(h, "time", t->hover_t);
    if (isnan(t->hover_value))
        cJSON_AddNullToObject(h, "value");
    else
        cJSON_AddNumberToObject(h, "value", t->hover_value);
}

static void destroy(view_panel *p)
{
    tracks_panel *t = (tracks_panel *)p;
    free(t->val);
    free(t->lo);
    free(t->hi);
    free(t->area);
    free(t->line);
    free(t);
}

view_panel *tracks_panel_new(void)
{
    tracks_panel *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->hover = -1;
    t->base = (view_panel){.name = "tracks", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .note = note, .save = save,
                           .load = load, .dump = dump, .destroy = destroy};
    return &t->base;
}
