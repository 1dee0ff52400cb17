/*
 * panel_rows.c — the rows/rules panel (key r): check boxes that hide and show
 * rows, groups and visualization rules, and a group's mark that collapses it;
 * over the timeline, the group marks (▾ expanded, ▸ collapsed) and the
 * collapsed groups' bands ("▸ Task (5 rows)"), a click on a group's name and
 * the x key collapsing or expanding it. What is shown is the core's rows
 * model (view_rows.c); this panel only shows and changes it.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PANEL_W 300           /* the panel's width at scale 1 */
#define BOX 11                /* a check box's side */
#define INDENT 16             /* rows under a group's line */
#define C_COLLAPSED 0xDCE4F2u /* a collapsed group's band */
#define C_MARK 0x5A6E8Cu      /* the ▾ and ▸ marks */
#define C_PANEL 0xFAFAFAu
#define C_TITLE 0xE4E4E4u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x707070u
#define C_CHECK 0x286EDCu

typedef enum item_kind { ITEM_HEADER, ITEM_GROUP, ITEM_ROW, ITEM_RULE, ITEM_TRACK } item_kind;

/* A line of the panel: a group (index into groups), a row, a rule. */
typedef struct item {
    item_kind kind;
    size_t index;
    int indent;
    size_t group;             /* a row's group (its ▲▼ move it within) */
} item;

typedef struct rows_panel {
    view_panel base;
    item *items;              /* the panel's lines */
    size_t nitems, items_cap;
    int panel;                /* shown */
    long panel_first;         /* the first line shown */
} rows_panel;

/* ---- where the bands are ------------------------------------------------------------- */

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

/* The band at pixel y of the main view, or -1. */
static long band_at(const view_app *a, double y, tlv_view_layout *l)
{
    tlv_view v;
    view_main_view(a, &v);
    tlv_view_get_layout(&v, a->shapes, l);
    if (!a->rows.built || y < l->ruler_height || l->row_height <= 0)
        return -1;
    double p = floor((y - l->ruler_height) / l->row_height) + (double)l->first_row;
    return p >= 0 && p < (double)l->row_count && p < (double)l->end_row ? (long)p : -1;
}

/* Whether band p is the first visible band of its group (where its name is). */
static int starts_group(const view_rows *r, const tlv_view_layout *l, size_t p)
{
    return p == l->first_row || r->band_group[p - 1] != r->band_group[p];
}

static int panel_hit(rows_panel *rp, const view_app *a, double x, double y);

/* x: collapses or expands the group of the band under the cursor. */
static void toggle_group_at_cursor(rows_panel *rp, view_app *a)
{
    view_areas ar;
    view_areas_of(a, &ar);
    tlv_view_layout l;
    long p = a->mouse_in && a->my < ar.main.h && !panel_hit(rp, a, a->mx, a->my)
                 ? band_at(a, a->my, &l) : -1;
    if (p < 0) {
        view_message(a, "no row under the cursor");
        return;
    }
    size_t k = a->rows.band_group[p];
    if (!a->rows.groups[k].collapsible) {
        view_message(a, "this row is in no group");
        return;
    }
    rows_toggle_group(a, k);
}

/* ---- the panel's geometry -------------------------------------------------------------- */

typedef struct panel_geom {
    SDL_Rect box;             /* the whole panel */
    int item_h, pad;
    int list_y;               /* the first line's top */
    long visible;             /* lines that fit */
} panel_geom;

static void panel_geometry(const view_app *a, panel_geom *g)
{
    view_areas ar;
    view_areas_of(a, &ar);
    int w = scaled(a, PANEL_W);
    w = w > ar.main.w / 2 ? ar.main.w / 2 : w;
    g->box = (SDL_Rect){ar.main.w - w, 0, w, ar.main.h};
    g->pad = scaled(a, 6);
    int th = view_text_height(a->text);
    g->item_h = (th > scaled(a, BOX) ? th : scaled(a, BOX)) + scaled(a, 6);
    g->list_y = g->item_h + scaled(a, 2);
    long room = ar.main.h - g->list_y;
    g->visible = room > 0 ? room / g->item_h : 0;
}

static void add_item(rows_panel *r, item_kind kind, size_t index, int indent, size_t group)
{
    if (view_grow((void **)&r->items, &r->items_cap, r->nitems + 1, sizeof *r->items) == 0)
        r->items[r->nitems++] = (item){kind, index, indent, group};
}

/* The panel's lines: "Tracks", each track (when there are some), "Rows",
 * each group with its rows, "Rules", each rule. */
static void build_items(rows_panel *r, const view_app *a)
{
    r->nitems = 0;
    if (!a->rows.built)
        return;
    if (a->tracks.n)
        add_item(r, ITEM_HEADER, 2, 0, 0);
    for (size_t i = 0; i < a->tracks.n; i++)
        add_item(r, ITEM_TRACK, i, 0, 0);
    add_item(r, ITEM_HEADER, 0, 0, 0);
    for (size_t k = 0; k < a->rows.ngroups; k++) {
        const view_group *g = &a->rows.groups[k];
        if (g->collapsible)
            add_item(r, ITEM_GROUP, k, 0, 0);
        for (size_t pos = g->first; pos < g->first + g->count; pos++) {
            add_item(r, ITEM_ROW, rows_at(&a->rows, pos), g->collapsible, k);
        }
    }
    add_item(r, ITEM_HEADER, 1, 0, 0);
    for (size_t i = 0; i < tlv_shapes_rule_count(a->shapes); i++)
        add_item(r, ITEM_RULE, i, 0, 0);
    long top = (long)r->nitems - 1;
    r->panel_first = r->panel_first > top ? top : r->panel_first;
    r->panel_first = r->panel_first < 0 ? 0 : r->panel_first;
}

/* Check box state: 1 checked, 0 not, 2 partly (a group with some rows hidden). */
static int item_checked(const view_app *a, const item *it)
{
    const view_rows *r = &a->rows;
    if (it->kind == ITEM_ROW)
        return !set_has(&r->hidden_rows, rows_key(a->shapes, it->index));
    if (it->kind == ITEM_GROUP) {
        const view_group *g = &r->groups[it->index];
        return g->shown == g->count ? 1 : g->shown ? 2 : 0;
    }
    if (it->kind == ITEM_RULE) {
        tlv_rule_info ri;
        tlv_shapes_rule(a->shapes, it->index, &ri);
        return !set_has(&r->hidden_rules, ri.name ? ri.name : "");
    }
    if (it->kind == ITEM_TRACK)
        return tracks_checked(a, it->index);
    return 0;
}

static const char *item_name(const view_app *a, const item *it)
{
    if (it->kind == ITEM_HEADER)
        return it->index == 2 ? "Tracks (u: load on/off; \u25B2\u25BC move)"
               : it->index    ? "Rules"
                              : "Rows (\u25B2\u25BC move within the group)";
    if (it->kind == ITEM_TRACK)
        return a->tracks.v[it->index].name;
    if (it->kind == ITEM_GROUP)
        return a->rows.groups[it->index].name;
    if (it->kind == ITEM_ROW)
        return rows_key(a->shapes, it->index);
    tlv_rule_info ri;
    tlv_shapes_rule(a->shapes, it->index, &ri);
    return ri.name ? ri.name : "";
}

/* x of an item's ▸/▾ mark (groups) and of its check box's left edge. */
static int mark_x(const panel_geom *g) { return g->box.x + g->pad; }
static int box_x(const view_app *a, const panel_geom *g, const item *it)
{
    return g->box.x + g->pad + scaled(a, INDENT) * (it->kind == ITEM_GROUP || it->indent ? 1 : 0);
}

/* The ▲ and ▼ buttons at the right of a track's or row's line: their left
 * edges; and whether item i has each (not the first / last of its kind, or
 * of its group). */
static int up_x0(const panel_geom *g) { return g->box.x + g->box.w - g->pad - 2 * g->item_h; }
static int down_x0(const panel_geom *g) { return g->box.x + g->box.w - g->pad - g->item_h; }

static int movable(const rows_panel *r, size_t i, int dir)
{
    const item *it = &r->items[i];
    if (it->kind != ITEM_TRACK && it->kind != ITEM_ROW)
        return 0;
    size_t j = dir < 0 ? i - 1 : i + 1;
    if ((dir < 0 && i == 0) || j >= r->nitems)
        return 0;
    return r->items[j].kind == it->kind && r->items[j].group == it->group; /* a row moves
                                                                 within its group */
}

/* ---- input ----------------------------------------------------------------------------- */

static int panel_hit(rows_panel *rp, const view_app *a, double x, double y)
{
    if (!rp->panel)
        return 0;
    panel_geom g;
    panel_geometry(a, &g);
    return x >= g.box.x && x < g.box.x + g.box.w && y >= g.box.y && y < g.box.y + g.box.h;
}

static void toggle_panel(rows_panel *rp, view_app *a)
{
    rp->panel = !rp->panel;
    view_hover_update(a);
    view_dirty(a);
}

static void panel_press(rows_panel *r, view_app *a, double x, double y)
{
    panel_geom g;
    panel_geometry(a, &g);
    if (y < g.list_y) { /* the title: its close button */
        if (x >= g.box.x + g.box.w - g.item_h)
            toggle_panel(r, a);
        return;
    }
    build_items(r, a);
    long i = r->panel_first + (long)((y - g.list_y) / g.item_h);
    if (i < 0 || i >= (long)r->nitems || i - r->panel_first >= g.visible)
        return;
    item it = r->items[i];
    int dir = x >= down_x0(&g) ? 1 : x >= up_x0(&g) ? -1 : 0;
    if (dir && movable(r, (size_t)i, dir)) { /* its ▲ or ▼ */
        if (it.kind == ITEM_TRACK)
            tracks_move(a, it.index, dir);
        else
            rows_move(a, it.index, dir);
        return;
    }
    if (it.kind == ITEM_GROUP && x < box_x(a, &g, &it))
        rows_toggle_group(a, it.index);
    else if (it.kind == ITEM_GROUP)
        rows_toggle_group_rows(a, it.index);
    else if (it.kind == ITEM_ROW) {
        const char *key = rows_key(a->shapes, it.index);
        int hidden = set_toggle(&a->rows.hidden_rows, key);
        view_message(a, "row %s %s", key, hidden ? "hidden" : "shown");
        rows_changed(a);
    } else if (it.kind == ITEM_RULE) {
        rows_toggle_rule(a, item_name(a, &it));
    } else if (it.kind == ITEM_TRACK) {
        tracks_toggle(a, it.index);
    }
}

static int press(view_panel *p, view_app *a, double x, double y, int button, int clicks)
{
    rows_panel *rp = (rows_panel *)p;
    (void)clicks;
    if (!a->shapes)
        return 0;
    if (panel_hit(rp, a, x, y)) {
        if (button == SDL_BUTTON_LEFT)
            panel_press(rp, a, x, y);
        return 1;
    }
    view_areas ar;
    view_areas_of(a, &ar);
    tlv_view_layout l;
    if (button != SDL_BUTTON_LEFT || x >= ar.label_w || y >= ar.main.h)
        return 0;
    long band = band_at(a, y, &l);
    if (band < 0 || !starts_group(&a->rows, &l, (size_t)band) ||
        !a->rows.groups[a->rows.band_group[band]].collapsible)
        return 0;
    rows_toggle_group(a, a->rows.band_group[band]); /* a click on a group's name */
    return 1;
}

static int wheel(view_panel *p, view_app *a, double x, double y, double notches)
{
    rows_panel *r = (rows_panel *)p;
    if (!panel_hit(r, a, x, y))
        return 0;
    panel_geom g;
    panel_geometry(a, &g);
    build_items(r, a);
    long top = (long)r->nitems - g.visible;
    r->panel_first -= lround(notches * 3);
    r->panel_first = r->panel_first > top ? top : r->panel_first;
    r->panel_first = r->panel_first < 0 ? 0 : r->panel_first;
    return 1;
}

/* ---- drawing ------------------------------------------------------------------------ */

static void fill(view_app *a, int x, int y, int w, int h, uint32_t rgb)
{
    SDL_SetRenderDrawBlendMode(a->ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(a->ren, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 255);
    SDL_Rect rc = {x, y, w, h};
    SDL_RenderFillRect(a->ren, &rc);
}

static void outline(view_app *a, int x, int y, int w, int h, uint32_t rgb)
{
    fill(a, x, y, w, 1, rgb);
    fill(a, x, y + h - 1, w, 1, rgb);
    fill(a, x, y, 1, h, rgb);
    fill(a, x + w - 1, y, 1, h, rgb);
}

/* A small solid triangle in a box of `size` at (x, y): pointing down (▾,
 * expanded) or right (▸, collapsed). */
static void mark(view_app *a, double x, double y, double size, int collapsed)
{
    SDL_Color c = {(uint8_t)(C_MARK >> 16), (uint8_t)(C_MARK >> 8), (uint8_t)C_MARK, 255};
    SDL_Vertex v[3];
    memset(v, 0, sizeof v);
    if (collapsed) {
        v[0].position = (SDL_FPoint){(float)x, (float)y};
        v[1].position = (SDL_FPoint){(float)(x + size * 0.8), (float)(y + size / 2)};
        v[2].position = (SDL_FPoint){(float)x, (float)(y + size)};
    } else {
        v[0].position = (SDL_FPoint){(float)x, (float)(y + size * 0.1)};
        v[1].position = (SDL_FPoint){(float)(x + size), (float)(y + size * 0.1)};
        v[2].position = (SDL_FPoint){(float)(x + size / 2), (float)(y + size * 0.9)};
    }
    for (int i = 0; i < 3; i++)
        v[i].color = c;
    SDL_SetRenderDrawBlendMode(a->ren, SDL_BLENDMODE_NONE);
    SDL_RenderGeometry(a->ren, NULL, v, 3, NULL, 0);
}

static void group_title(const view_group *g, char *buf, size_t size)
{
    snprintf(buf, size, "%s (%zu row%s)", g->name, g->shown, g->shown == 1 ? "" : "s");
}

/* A collapsed group's band: tinted across, its mark and "Task (5 rows)". */
static void draw_collapsed(view_app *a, const view_areas *ar, const view_group *g, double top, double h)
{
    int y = (int)floor(top), hh = (int)floor(top + h) - y, th = view_text_height(a->text);
    fill(a, 0, y, ar->main.w, hh, C_COLLAPSED);
    fill(a, 0, y + hh - 1, ar->main.w, 1, C_BORDER);
    fill(a, ar->label_w - 1, y, 1, hh, C_BORDER);
    double m = fmin(scaled(a, 9), h * 0.6);
    mark(a, scaled(a, 3), top + (h - m) / 2, m, 1);
    char title[200];
    group_title(g, title, sizeof title);
    SDL_Rect clip = {0, y, ar->label_w - 1, hh};
    SDL_RenderSetClipRect(a->ren, &clip);
    view_text_draw(a->text, title, scaled(a, 3) + (int)m + scaled(a, 4), y + (hh - th) / 2, C_TEXT);
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void draw_bands(view_app *a, const tlv_view *v, const view_areas *ar)
{
    const view_rows *r = &a->rows;
    if (!r->built || !a->shapes)
        return;
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    SDL_Rect clip = {0, l.ruler_height, ar->main.w, ar->main.h - l.ruler_height};
    SDL_RenderSetClipRect(a->ren, &clip);
    int tall = l.row_height >= 36 * a->scale; /* the renderer puts the group's name above */
    for (size_t p = l.first_row; p < l.end_row; p++) {
        const view_group *g = &r->groups[r->band_group[p]];
        double top = l.ruler_height + ((double)p - (double)l.first_row) * l.row_height;
        if (r->band_track[p] >= 0)
            continue; /* a track: the tracks panel draws it */
        if (r->bands[p] == TLV_VIEW_ROW_BLANK) {
            draw_collapsed(a, ar, g, top, l.row_height);
            SDL_RenderSetClipRect(a->ren, &clip);
        } else if (g->collapsible && starts_group(r, &l, p)) {
            double line = tall ? l.row_height / 2 : l.row_height, m = fmin(scaled(a, 5), line * 0.6);
            mark(a, 0.5 * a->scale, top + (line - m) / 2, m, 0);
        }
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void check_box(view_app *a, int x, int y, int size, int state)
{
    fill(a, x, y, size, size, 0xFFFFFF);
    outline(a, x, y, size, size, C_BORDER);
    int in = size / 4 > 1 ? size / 4 : 1;
    if (state == 1)
        fill(a, x + in, y + in, size - 2 * in, size - 2 * in, C_CHECK);
    else if (state == 2)
        fill(a, x + in, y + size / 2 - 1, size - 2 * in, 2, C_CHECK);
}

/* The ▲ and ▼ of line i, when it has them. */
static void draw_moves(rows_panel *r, view_app *a, const panel_geom *g, size_t i, int y)
{
    int th = view_text_height(a->text), ty = y + (g->item_h - th) / 2;
    for (int dir = -1; dir <= 1; dir += 2) {
        if (!movable(r, i, dir))
            continue;
        int x = dir < 0 ? up_x0(g) : down_x0(g);
        fill(a, x, y + 1, g->item_h - 2, g->item_h - 2, 0xECECEC);
        const char *m = dir < 0 ? "\u25B2" : "\u25BC";
        view_text_draw(a->text, m, x + (g->item_h - view_text_width(a->text, m)) / 2, ty, C_DIM);
    }
}

static void draw_item(view_app *a, const panel_geom *g, const item *it, int y)
{
    int th = view_text_height(a->text), ty = y + (g->item_h - th) / 2, bs = scaled(a, BOX);
    int by = y + (g->item_h - bs) / 2, bx = box_x(a, g, it);
    char text[240];
    if (it->kind == ITEM_HEADER) {
        view_text_draw(a->text, item_name(a, it), g->box.x + g->pad, ty, C_DIM);
        fill(a, g->box.x + g->pad, y + g->item_h - 1, g->box.w - 2 * g->pad, 1, 0xD0D0D0);
        return;
    }
    if (it->kind == ITEM_GROUP) {
        const view_group *gr = &a->rows.groups[it->index];
        mark(a, mark_x(g), by, bs * 0.8, rows_is_collapsed(&a->rows, gr));
        group_title(gr, text, sizeof text);
    } else if (it->kind == ITEM_ROW) {
        snprintf(text, sizeof text, "%s", rows_label(a->shapes, it->index));
    } else if (it->kind == ITEM_TRACK) {
        const view_track *t = &a->tracks.v[it->index];
        snprintf(text, sizeof text, "%s%s", t->label,
                 t->kind == TRACK_LOAD && !(a->tracks.load_on && a->per_cpu) ? " (per-CPU, u)"
                 : t->offered                                               ? " (numbers)"
                                                                            : "");
    } else {
        tlv_rule_info ri;
        tlv_shapes_rule(a->shapes, it->index, &ri);
        if (ri.display_name && ri.name && strcmp(ri.display_name, ri.name) != 0)
            snprintf(text, sizeof text, "%s (%s)", ri.display_name, ri.name);
        else
            snprintf(text, sizeof text, "%s", ri.name ? ri.name : "");
    }
    check_box(a, bx, by, bs, item_checked(a, it));
    view_text_draw(a->text, text, bx + bs + scaled(a, 6), ty, C_TEXT);
}

static void draw_panel(rows_panel *r, view_app *a)
{
    if (!r->panel || !a->shapes)
        return;
    panel_geom g;
    panel_geometry(a, &g);
    build_items(r, a);
    fill(a, g.box.x, g.box.y, g.box.w, g.box.h, C_PANEL);
    fill(a, g.box.x, g.box.y, g.box.w, g.item_h, C_TITLE);
    fill(a, g.box.x, g.box.y, 1, g.box.h, C_BORDER);
    fill(a, g.box.x, g.item_h, g.box.w, 1, C_BORDER);
    SDL_Rect clip = g.box;
    SDL_RenderSetClipRect(a->ren, &clip);
    int th = view_text_height(a->text);
    view_text_draw(a->text, "Rows and rules (r)", g.box.x + g.pad, (g.item_h - th) / 2, C_TEXT);
    int cx = g.box.x + g.box.w - g.item_h / 2, cy = g.item_h / 2, d = scaled(a, 4);
    SDL_SetRenderDrawColor(a->ren, 0x40, 0x40, 0x40, 255); /* the close button: a cross */
    for (int o = 0; o < (a->scale > 1.5f ? 2 : 1); o++) {
        SDL_RenderDrawLine(a->ren, cx - d + o, cy - d, cx + d + o, cy + d);
        SDL_RenderDrawLine(a->ren, cx - d + o, cy + d, cx + d + o, cy - d);
    }
    for (long i = r->panel_first; i < (long)r->nitems && i - r->panel_first < g.visible; i++) {
        int y = g.list_y + (int)(i - r->panel_first) * g.item_h;
        draw_item(a, &g, &r->items[i], y);
        draw_moves(r, a, &g, (size_t)i, y);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

/* The panel's lines with where to click them (pixels): the check box's
 * centre, and a group's mark. */
static cJSON *panel_json(rows_panel *r, const view_app *a)
{
    cJSON *o = cJSON_CreateObject();
    panel_geom g;
    panel_geometry(a, &g);
    build_items(r, a);
    cJSON_AddNumberToObject(o, "x", g.box.x);
    cJSON_AddNumberToObject(o, "width", g.box.w);
    cJSON_AddNumberToObject(o, "item_height", g.item_h);
    cJSON_AddNumberToObject(o, "first", (double)r->panel_first);
    cJSON_AddNumberToObject(o, "visible", (double)g.visible);
    cJSON *close = cJSON_AddObjectToObject(o, "close");
    cJSON_AddNumberToObject(close, "x", g.box.x + g.box.w - g.item_h / 2);
    cJSON_AddNumberToObject(close, "y", g.item_h / 2);
    static const char *const kinds[] = {"header", "group", "row", "rule", "track"};
    cJSON *items = cJSON_AddArrayToObject(o, "items");
    int bs = scaled(a, BOX);
    for (size_t i = 0; i < r->nitems; i++) {
        const item *it = &r->items[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "kind", kinds[it->kind]);
        cJSON_AddStringToObject(j, "name", item_name(a, it));
        if (it->kind == ITEM_ROW || it->kind == ITEM_TRACK) /* as shown; name: the key */
            cJSON_AddStringToObject(j, "label", it->kind == ITEM_ROW
                                                    ? rows_label(a->shapes, it->index)
                                                    : a->tracks.v[it->index].label);
        int y = g.list_y + (int)((long)i - r->panel_first) * g.item_h + g.item_h / 2;
        if (it->kind != ITEM_HEADER) {
            int st = item_checked(a, it);
            json_put(j, "checked", st == 2 ? cJSON_CreateString("partly")
                                                        : cJSON_CreateBool(st));
            cJSON_AddNumberToObject(j, "x", box_x(a, &g, it) + bs / 2);
        }
        if (movable(r, i, -1)) /* its ▲ and ▼ */
            cJSON_AddNumberToObject(j, "up_x", up_x0(&g) + g.item_h / 2);
        if (movable(r, i, 1))
            cJSON_AddNumberToObject(j, "down_x", down_x0(&g) + g.item_h / 2);
        if (it->kind == ITEM_TRACK)
            cJSON_AddBoolToObject(j, "offered", a->tracks.v[it->index].offered);
        if (it->kind == ITEM_GROUP) {
            cJSON_AddNumberToObject(j, "mark_x", mark_x(&g) + bs / 3);
            cJSON_AddBoolToObject(j, "collapsed", rows_is_collapsed(&a->rows, &a->rows.groups[it->index]));
        }
        cJSON_AddNumberToObject(j, "y", y);
        json_push(items, j);
    }
    return o;
}

/* ---- the panel's hooks ------------------------------------------------------------------- */

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    if (layer == VIEW_LAYER_BANDS)
        draw_bands(a, v, ar);
    else if (layer == VIEW_LAYER_PANEL)
        draw_panel((rows_panel *)p, a);
}

static void panel_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    toggle_panel((rows_panel *)p, a);
}

static void group_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    toggle_group_at_cursor((rows_panel *)p, a);
}

/* r with Ctrl is the core's reload. */
static const view_key keys[] = {
    {SDLK_r, VIEW_KEYS_PLAIN | VIEW_KEYS_SHIFT | VIEW_KEYS_CTRL_SHIFT,
     "r: rows and rules panel (check boxes show and hide them)", panel_key},
    {SDLK_x, VIEW_KEYS_ANY, "x or a click on a group's name: collapse/expand the group", group_key},
    {0, 0, "r panel: \u25B2 \u25BC move a track, or a row within its group", NULL},
    {0, 0, "numeric attributes: check one to see it as a counter track", NULL},
};

static int covers(view_panel *p, const view_app *a, double x, double y)
{
    return panel_hit((rows_panel *)p, a, x, y);
}

static void save(view_panel *p, const view_app *a, struct cJSON *o)
{
    (void)a;
    cJSON_AddBoolToObject(o, "rows_panel", ((rows_panel *)p)->panel);
}

static void load(view_panel *p, view_app *a, const struct cJSON *o)
{
    (void)a;
    ((rows_panel *)p)->panel = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "rows_panel"));
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    rows_panel *r = (rows_panel *)p;
    if (r->panel && a->shapes)
        json_put(o, "rows_panel_items", panel_json(r, a));
    else
        cJSON_AddNullToObject(o, "rows_panel_items");
}

static void destroy(view_panel *p)
{
    free(((rows_panel *)p)->items);
    free(p);
}

view_panel *rows_panel_new(void)
{
    rows_panel *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->base = (view_panel){.name = "rows", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press,
                           .wheel = wheel, .covers = covers, .save = save, .load = load,
                           .dump = dump, .destroy = destroy};
    return &r->base;
}
