/*
 * panel_markers.c — the marker list (Shift+M), as TLV 2.0.1 had it: the
 * markers grouped by layer in a band along the bottom, each with its colour,
 * name, time and the time since the previous marker of its layer. A click
 * on a marker selects it and goes there; a double-click renames it (typing
 * LAYER/NAME moves it to layer LAYER); its x deletes it; the box of a
 * layer's line shows or hides the whole layer (in the timeline, the
 * overview, and for [ and ]). New markers go to the layer of the last one
 * renamed into a layer. The wheel scrolls the list.
 */
#include "view/view.h"
#include "view/view_panels.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LIST_LINES 7
#define C_BG 0xFFFFFFu
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_LAYER 0xE8ECF4u
#define C_SELECTED 0xFFE9B0u

/* One line of the list: a layer's, or a marker's. */
typedef struct item {
    const char *layer;
    long marker;                /* index in a->markers, or -1 for the layer's line */
    int shown;                  /* the layer is shown */
    size_t count;               /* a layer's line: its markers */
    double delta;               /* a marker's: since the previous of its layer */
    int has_delta;
} item;

typedef struct markers_panel {
    view_panel base;
    int shown;
    size_t first;
    item *items;
    size_t nitems, cap;
    long renaming;              /* the marker the rename prompt is for */
} markers_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int line_height(const view_app *a) { return view_text_height(a->text) + scaled(a, 3); }

static int push(markers_panel *p, item it)
{
    if (p->nitems == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 32;
        item *v = realloc(p->items, cap * sizeof *v);
        if (!v)
            return -1;
        p->items = v;
        p->cap = cap;
    }
    p->items[p->nitems++] = it;
    return 0;
}

/* The lines: the default layer first, then the others by name; each
 * layer's markers in time order. */
static void build(markers_panel *p, const view_app *a)
{
    const view_markers *m = &a->markers;
    p->nitems = 0;
    const char *done = NULL; /* the last layer listed, in name order */
    for (;;) {
        const char *next = NULL;
        for (size_t i = 0; i < m->n; i++) {
            const char *l = m->v[i].layer;
            if ((!done || strcmp(l, done) > 0) && (!next || strcmp(l, next) < 0))
                next = l;
        }
        if (!next)
            break;
        size_t at = p->nitems, count = 0;
        item head = {next, -1, markers_layer_shown(m, next), 0, 0, 0};
        if (push(p, head) < 0)
            return;
        long prev = -1;
        for (size_t i = 0; i < m->n; i++) {
            if (strcmp(m->v[i].layer, next) != 0)
                continue;
            item it = {next, (long)i, head.shown, 0, prev >= 0 ? m->v[i].time - m->v[prev].time : 0,
                       prev >= 0};
            if (push(p, it) < 0)
                return;
            prev = (long)i;
            count++;
        }
        p->items[at].count = count;
        done = next;
    }
}

/* ---- geometry ------------------------------------------------------------------------ */

static int strip_height(view_panel *base, const view_app *a, int avail)
{
    if (!((markers_panel *)base)->shown)
        return 0;
    int h = LIST_LINES * line_height(a) + scaled(a, 6);
    return h > avail / 3 ? avail / 3 : h;
}

static const SDL_Rect *area(const markers_panel *p, const view_app *a, view_areas *ar)
{
    view_areas_of(a, ar);
    return view_panel_area(ar, &p->base);
}

static int top(const view_app *a, const SDL_Rect *r) { return r->y + scaled(a, 4) + line_height(a); }

static size_t visible(const view_app *a, const SDL_Rect *r)
{
    int n = (r->y + r->h - top(a, r)) / line_height(a);
    return n > 0 ? (size_t)n : 0;
}

/* Columns: box or swatch, name, time, delta; the delete button at the right. */
static int col(const SDL_Rect *r, int k, const view_app *a)
{
    static const int at[] = {0, 30, 400, 620};
    return r->x + scaled(a, 6) + (int)((long)(r->w - scaled(a, 40)) * at[k] / 1000);
}

static SDL_Rect button(const view_app *a, const SDL_Rect *r, int y)
{
    int s = line_height(a) - scaled(a, 4);
    return (SDL_Rect){r->x + r->w - s - scaled(a, 8), y + scaled(a, 2), s, s};
}

static SDL_Rect box(const view_app *a, const SDL_Rect *r, int y)
{
    int s = line_height(a) - scaled(a, 6);
    return (SDL_Rect){col(r, 0, a), y + scaled(a, 3), s, s};
}

static int inside(const SDL_Rect *r, double x, double y)
{
    return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

/* ---- drawing ---------------------------------------------------------------------------- */

static void cell(view_app *a, const char *s, int x, int y, int right, uint32_t c)
{
    SDL_Rect clip = {x, y, right - x - scaled(a, 6), line_height(a)};
    if (clip.w <= 0)
        return;
    SDL_RenderSetClipRect(a->ren, &clip);
    view_text_draw(a->text, s, x, y + scaled(a, 1), c);
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void draw_list(markers_panel *p, view_app *a, const SDL_Rect *r)
{
    if (!p->shown || r->h <= 0)
        return;
    build(p, a);
    int lh = line_height(a), right = r->x + r->w;
    view_fill(a, r->x, r->y, r->w, r->h, C_BG, 255);
    view_fill(a, r->x, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    char title[300];
    snprintf(title, sizeof title,
             "Markers (Shift+M): %zu   click: go there   double-click: rename (LAYER/NAME moves it "
             "to a layer)   x: delete   a layer's box: show/hide the layer", a->markers.n);
    cell(a, title, r->x + scaled(a, 6), r->y + scaled(a, 4), right, C_DIM);
    size_t vis = visible(a, r);
    if (p->first + vis > p->nitems)
        p->first = p->nitems > vis ? p->nitems - vis : 0;
    for (size_t k = 0; k < vis && p->first + k < p->nitems; k++) {
        const item *it = &p->items[p->first + k];
        int y = top(a, r) + (int)k * lh;
        char text[200], t[64];
        if (it->marker < 0) {
            view_fill(a, r->x, y, r->w, lh, C_LAYER, 255);
            SDL_Rect b = box(a, r, y);
            view_fill(a, b.x, b.y, b.w, b.h, C_BORDER, 255);
            view_fill(a, b.x + 1, b.y + 1, b.w - 2, b.h - 2, it->shown ? 0x3A6FD0 : 0xFFFFFF, 255);
            snprintf(text, sizeof text, "layer %s - %zu marker%s%s", *it->layer ? it->layer : "(default)",
                     it->count, it->count == 1 ? "" : "s", it->shown ? "" : " (hidden)");
            cell(a, text, col(r, 1, a), y, right, C_TEXT);
            continue;
        }
        const view_marker *mk = &a->markers.v[it->marker];
        if (it->marker == a->markers.selected)
            view_fill(a, r->x, y, r->w, lh, C_SELECTED, 255);
        SDL_Rect b = box(a, r, y);
        view_fill(a, b.x + b.w / 2, b.y, b.w, b.h, mk->color, 255);
        uint32_t c = it->shown ? C_TEXT : C_DIM;
        cell(a, mk->name, col(r, 1, a), y, col(r, 2, a), c);
        cell(a, view_time_at_text(a, mk->time, 0, t, sizeof t), col(r, 2, a), y, col(r, 3, a), c);
        if (it->has_delta) {
            char d[64];
            snprintf(text, sizeof text, "\xce\x94 %s", view_time_text(a, it->delta, 0, d, sizeof d));
            cell(a, text, col(r, 3, a), y, right - lh, c);
        }
        SDL_Rect x = button(a, r, y);
        view_fill(a, x.x, x.y, x.w, x.h, 0xE0E0E0, 255);
        view_text_draw(a->text, "x", x.x + (x.w - view_text_width(a->text, "x")) / 2, x.y - scaled(a, 1),
                       C_TEXT);
    }
}

/* ---- input ------------------------------------------------------------------------------ */

static int rename_entered(view_app *a, void *user, const char *text)
{
    markers_panel *p = user;
    if (p->renaming < 0 || (size_t)p->renaming >= a->markers.n)
        return 0;
    const char *name = strrchr(text, '/');
    if (!*(name ? name + 1 : text)) {
        view_message(a, "a marker needs a name (LAYER/NAME or NAME)");
        return -1;
    }
    markers_rename_in_layer(&a->markers, (size_t)p->renaming, text);
    const view_marker *k = &a->markers.v[p->renaming];
    view_message(a, "marker %s%s%s", *k->layer ? k->layer : "", *k->layer ? "/" : "", k->name);
    return 0;
}

static void go(view_app *a, long i)
{
    a->markers.selected = i;
    nav_begin(&a->nav, NAV_JUMP);
    nav_center(&a->nav, a->markers.v[i].time);
    view_jumped(a, a->markers.v[i].time, -1);
}

static int press(view_panel *base, view_app *a, double x, double y, int button_, int clicks)
{
    markers_panel *p = (markers_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    if (!p->shown || !inside(r, x, y))
        return 0;
    view_dirty(a);
    if (button_ != SDL_BUTTON_LEFT || y < top(a, r))
        return 1;
    build(p, a);
    size_t k = p->first + (size_t)((y - top(a, r)) / line_height(a));
    if (k >= p->nitems)
        return 1;
    const item *it = &p->items[k];
    int ly = top(a, r) + (int)(k - p->first) * line_height(a);
    if (it->marker < 0) {
        SDL_Rect b = box(a, r, ly);
        b.w = col(r, 1, a) - b.x;
        if (inside(&b, x, y) || clicks >= 2) {
            int on = markers_toggle_layer(&a->markers, it->layer);
            view_message(a, "layer %s %s", *it->layer ? it->layer : "(default)", on ? "shown" : "hidden");
        }
        return 1;
    }
    SDL_Rect del = button(a, r, ly);
    if (inside(&del, x, y)) {
        char name[64];
        snprintf(name, sizeof name, "%s", a->markers.v[it->marker].name);
        markers_remove(&a->markers, (size_t)it->marker);
        view_message(a, "marker %s deleted", name);
    } else if (clicks >= 2) {
        char initial[100];
        const view_marker *mk = &a->markers.v[it->marker];
        snprintf(initial, sizeof initial, "%s%s%s", mk->layer, *mk->layer ? "/" : "", mk->name);
        p->renaming = it->marker;
        a->markers.selected = it->marker;
        view_prompt_open(a, "Rename marker (LAYER/NAME):", initial, rename_entered, p);
    } else {
        go(a, it->marker);
    }
    return 1;
}

static int wheel(view_panel *base, view_app *a, double x, double y, double notches)
{
    markers_panel *p = (markers_panel *)base;
    view_areas ar;
    if (!p->shown || !inside(area(p, a, &ar), x, y))
        return 0;
    long first = (long)p->first - (long)lround(notches * 3);
    p->first = first < 0 ? 0 : (size_t)first;
    view_dirty(a);
    return 1;
}

static void toggle(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    markers_panel *p = (markers_panel *)base;
    p->shown = !p->shown;
    int top_row = view_max_first_row(a); /* the timeline got shorter or taller */
    a->nav.first_row = a->nav.first_row > top_row ? top_row : a->nav.first_row;
    view_dirty(a);
}

static const view_key keys[] = {
    {SDLK_m, VIEW_KEYS_SHIFT, "Shift+M: marker list by layer (click: go, double-click: rename as "
                              "LAYER/NAME, x: delete, box: hide the layer)", toggle},
};

/* ---- JSON --------------------------------------------------------------------------------- */

static void save(view_panel *base, const view_app *a, cJSON *o)
{
    (void)a;
    cJSON_AddBoolToObject(o, "markers_panel", ((markers_panel *)base)->shown);
}

static void load(view_panel *base, view_app *a, const cJSON *o)
{
    (void)a;
    ((markers_panel *)base)->shown = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "markers_panel"));
}

/* The list as shown: each line's kind, layer, marker (name, time, delta)
 * and where to click it (window coordinates). */
static void dump(view_panel *base, const view_app *a, cJSON *o)
{
    markers_panel *p = (markers_panel *)base;
    cJSON *j = cJSON_AddObjectToObject(o, "markers_panel");
    cJSON_AddBoolToObject(j, "shown", p->shown);
    if (!p->shown)
        return;
    build(p, a);
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    double k = a->px_w > 0 ? (double)a->win_w / a->px_w : 1;
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    size_t vis = visible(a, r);
    for (size_t i = p->first; i < p->first + vis && i < p->nitems; i++) {
        const item *it = &p->items[i];
        int y = top(a, r) + (int)(i - p->first) * line_height(a);
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "kind", it->marker < 0 ? "layer" : "marker");
        cJSON_AddStringToObject(l, "layer", it->layer);
        cJSON_AddBoolToObject(l, "layer_shown", it->shown);
        if (it->marker >= 0) {
            cJSON_AddStringToObject(l, "name", a->markers.v[it->marker].name);
            cJSON_AddNumberToObject(l, "time", a->markers.v[it->marker].time);
            if (it->has_delta)
                cJSON_AddNumberToObject(l, "delta", it->delta);
            else
                cJSON_AddNullToObject(l, "delta");
            SDL_Rect x = button(a, r, y);
            cJSON_AddNumberToObject(l, "delete_x", (x.x + x.w / 2) * k);
        } else {
            cJSON_AddNumberToObject(l, "count", (double)it->count);
            SDL_Rect b = box(a, r, y);
            cJSON_AddNumberToObject(l, "box_x", (b.x + b.w / 2) * k);
        }
        cJSON_AddNumberToObject(l, "x", (col(r, 1, a) + scaled(a, 10)) * k);
        cJSON_AddNumberToObject(l, "y", (y + line_height(a) / 2) * k);
        json_push(lines, l);
    }
}

static void destroy(view_panel *base)
{
    free(((markers_panel *)base)->items);
    free(base);
}

static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v;
    if (layer == VIEW_LAYER_PANEL)
        draw_list((markers_panel *)base, a, view_panel_area(ar, base));
}

view_panel *markers_panel_new(void)
{
    markers_panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->renaming = -1;
    p->base = (view_panel){.name = "markers", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press,
                           .wheel = wheel, .strip_height = strip_height, .save = save,
                           .load = load, .dump = dump, .destroy = destroy};
    return &p->base;
}
