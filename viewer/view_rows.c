/*
 * view_rows.c — which rows the timeline shows: rows hidden one by one,
 * groups (runs of rows of one resource type, or of one processor in per-CPU
 * mode) collapsed into one band, and visualization rules hidden; the
 * rows/rules panel whose check boxes choose them (key r); the group marks
 * (▾ expanded, ▸ collapsed) and collapsed bands drawn over the timeline.
 *
 * The bands computed here are given to the renderer as tlv_view.rows; a
 * collapsed group is one blank band that this file draws on ("▸ Task (5
 * rows)"). A hidden rule is left out by rebuilding the shapes without it
 * (tlv_shapes_options.skip_rules): the store's per-column summaries of
 * zoomed-out rows could not be filtered at draw time. Everything is kept by
 * name (resource, group, rule), so it survives the per-CPU toggle and goes
 * into the session file.
 */
#include "view.h"

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

/* ---- names kept ------------------------------------------------------------------ */

typedef struct name_set {
    char **v;
    size_t n, cap;
} name_set;

static long set_find(const name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0)
            return (long)i;
    return -1;
}

static int set_has(const name_set *s, const char *name) { return set_find(s, name) >= 0; }

static void set_add(name_set *s, const char *name)
{
    if (set_has(s, name))
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;
        s->v = v;
        s->cap = cap;
    }
    char *copy = strdup(name);
    if (copy)
        s->v[s->n++] = copy;
}

static void set_remove(name_set *s, const char *name)
{
    long i = set_find(s, name);
    if (i < 0)
        return;
    free(s->v[i]);
    memmove(&s->v[i], &s->v[i + 1], (s->n - (size_t)i - 1) * sizeof *s->v);
    s->n--;
}

/* Adds or removes; returns 1 when the name is in the set afterwards. */
static int set_toggle(name_set *s, const char *name)
{
    if (set_has(s, name)) {
        set_remove(s, name);
        return 0;
    }
    set_add(s, name);
    return set_has(s, name);
}

static void set_free(name_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- groups and bands -------------------------------------------------------------- */

typedef struct group {
    const char *name;         /* "" for a row of no group; lives as long as the shapes */
    size_t first, count;      /* rows [first, first + count) */
    size_t shown;             /* of those, not hidden */
    int collapsible;          /* has a name of its own (not a lone rule row's label) */
} group;

typedef enum item_kind { ITEM_HEADER, ITEM_GROUP, ITEM_ROW, ITEM_RULE } item_kind;

/* A line of the panel: a group (index into groups), a row, a rule. */
typedef struct item {
    item_kind kind;
    size_t index;
    int indent;
} item;

struct view_rows {
    name_set hidden_rows, hidden_rules, collapsed;
    group *groups;
    size_t ngroups, groups_cap;
    size_t *bands;            /* row indexes or TLV_VIEW_ROW_BLANK (a collapsed group) */
    size_t *band_group;       /* each band's group */
    size_t nbands, bands_cap, band_group_cap;
    int built;                /* bands are those of a->shapes */
    item *items;              /* the panel's lines */
    size_t nitems, items_cap;
    int panel;                /* shown */
    long panel_first;         /* the first line shown */
};

view_rows *rows_new(void) { return calloc(1, sizeof(view_rows)); }

void rows_free(view_rows *r)
{
    if (!r)
        return;
    set_free(&r->hidden_rows);
    set_free(&r->hidden_rules);
    set_free(&r->collapsed);
    free(r->groups);
    free(r->bands);
    free(r->band_group);
    free(r->items);
    free(r);
}

/* The name a row is kept by: its resource, else its label ("CPU 1", a rule's). */
static const char *row_key(const tlv_shapes *s, size_t row)
{
    tlv_row_info i;
    tlv_shapes_row(s, row, &i);
    return i.resource ? i.resource : i.label ? i.label : "";
}

static const char *row_label(const tlv_shapes *s, size_t row)
{
    tlv_row_info i;
    tlv_shapes_row(s, row, &i);
    return i.label ? i.label : "";
}

static int grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, cap2 * size);
    if (!q)
        return -1;
    *p = q;
    *cap = cap2;
    return 0;
}

/* Runs of consecutive rows with the same group name. */
static int find_groups(view_rows *r, const tlv_shapes *s)
{
    r->ngroups = 0;
    size_t n = tlv_shapes_row_count(s);
    for (size_t row = 0; row < n; row++) {
        tlv_row_info i;
        tlv_shapes_row(s, row, &i);
        const char *g = i.group ? i.group : "";
        group *last = r->ngroups ? &r->groups[r->ngroups - 1] : NULL;
        if (last && *g && strcmp(last->name, g) == 0) {
            last->count++;
            continue;
        }
        if (grow((void **)&r->groups, &r->groups_cap, r->ngroups + 1, sizeof *r->groups) < 0)
            return -1;
        r->groups[r->ngroups++] = (group){g, row, 1, 0, 0};
    }
    for (size_t k = 0; k < r->ngroups; k++) {
        group *g = &r->groups[k];
        g->collapsible = *g->name && (g->count > 1 || strcmp(row_label(s, g->first), g->name) != 0);
        for (size_t row = g->first; row < g->first + g->count; row++)
            g->shown += !set_has(&r->hidden_rows, row_key(s, row));
    }
    return 0;
}

static int is_collapsed(const view_rows *r, const group *g)
{
    return g->collapsible && set_has(&r->collapsed, g->name);
}

static int push_band(view_rows *r, size_t row, size_t g)
{
    if (grow((void **)&r->bands, &r->bands_cap, r->nbands + 1, sizeof *r->bands) < 0 ||
        grow((void **)&r->band_group, &r->band_group_cap, r->nbands + 1, sizeof *r->band_group) < 0)
        return -1;
    r->bands[r->nbands] = row;
    r->band_group[r->nbands++] = g;
    return 0;
}

void rows_refresh(view_app *a)
{
    view_rows *r = a->rows;
    if (!r)
        return;
    r->built = 0;
    r->nbands = 0;
    if (!a->shapes || find_groups(r, a->shapes) < 0 || push_band(r, 0, 0) < 0)
        return; /* without the list, every row is drawn */
    r->nbands = 0;
    for (size_t k = 0; k < r->ngroups; k++) {
        const group *g = &r->groups[k];
        if (!g->shown)
            continue;
        if (is_collapsed(r, g)) {
            if (push_band(r, TLV_VIEW_ROW_BLANK, k) < 0)
                return;
            continue;
        }
        for (size_t row = g->first; row < g->first + g->count; row++)
            if (!set_has(&r->hidden_rows, row_key(a->shapes, row)) && push_band(r, row, k) < 0)
                return;
    }
    r->built = 1;
}

const size_t *rows_list(const view_app *a, size_t *count)
{
    const view_rows *r = a->rows;
    *count = r && r->built ? r->nbands : 0;
    return r && r->built ? r->bands : NULL;
}

size_t rows_band_count(const view_app *a)
{
    const view_rows *r = a->rows;
    if (r && r->built)
        return r->nbands;
    return a->shapes ? tlv_shapes_row_count(a->shapes) : 0;
}

void rows_skip_rules(const view_app *a, const char *const **names, size_t *count)
{
    const view_rows *r = a->rows;
    *names = r ? (const char *const *)r->hidden_rules.v : NULL;
    *count = r ? r->hidden_rules.n : 0;
}

/* After a change of what is shown: new bands, textures redrawn, the
 * scroll position kept in range. */
static void bands_changed(view_app *a)
{
    rows_refresh(a);
    a->shapes_gen++;
    int top = view_max_first_row(a);
    a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
    view_hover_update(a);
    view_dirty(a);
}

/* ---- where the bands are ------------------------------------------------------------- */

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

/* The band at pixel y of the main view, or -1. */
static long band_at(const view_app *a, double y, tlv_view_layout *l)
{
    tlv_view v;
    view_main_view(a, &v);
    tlv_view_get_layout(&v, a->shapes, l);
    if (!a->rows || !a->rows->built || y < l->ruler_height || l->row_height <= 0)
        return -1;
    double p = floor((y - l->ruler_height) / l->row_height) + (double)l->first_row;
    return p >= 0 && p < (double)l->row_count && p < (double)l->end_row ? (long)p : -1;
}

/* Whether band p is the first visible band of its group (where its name is). */
static int starts_group(const view_rows *r, const tlv_view_layout *l, size_t p)
{
    return p == l->first_row || r->band_group[p - 1] != r->band_group[p];
}

static void toggle_group(view_app *a, size_t k)
{
    view_rows *r = a->rows;
    const group *g = &r->groups[k];
    int now = set_toggle(&r->collapsed, g->name);
    view_message(a, "group %s %s", g->name, now ? "collapsed" : "expanded");
    bands_changed(a);
}

void rows_toggle_group_at_cursor(view_app *a)
{
    view_areas ar;
    view_areas_of(a, &ar);
    tlv_view_layout l;
    long p = a->mouse_in && a->my < ar.main.h && !rows_panel_hit(a, a->mx, a->my)
                 ? band_at(a, a->my, &l) : -1;
    if (p < 0) {
        view_message(a, "no row under the cursor");
        return;
    }
    size_t k = a->rows->band_group[p];
    if (!a->rows->groups[k].collapsible) {
        view_message(a, "this row is in no group");
        return;
    }
    toggle_group(a, k);
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

static void add_item(view_rows *r, item_kind kind, size_t index, int indent)
{
    if (grow((void **)&r->items, &r->items_cap, r->nitems + 1, sizeof *r->items) == 0)
        r->items[r->nitems++] = (item){kind, index, indent};
}

/* The panel's lines: "Rows", each group with its rows, "Rules", each rule. */
static void build_items(const view_app *a)
{
    view_rows *r = a->rows;
    r->nitems = 0;
    if (!r->built)
        return;
    add_item(r, ITEM_HEADER, 0, 0);
    for (size_t k = 0; k < r->ngroups; k++) {
        const group *g = &r->groups[k];
        if (g->collapsible)
            add_item(r, ITEM_GROUP, k, 0);
        for (size_t row = g->first; row < g->first + g->count; row++)
            add_item(r, ITEM_ROW, row, g->collapsible);
    }
    add_item(r, ITEM_HEADER, 1, 0);
    for (size_t i = 0; i < tlv_shapes_rule_count(a->shapes); i++)
        add_item(r, ITEM_RULE, i, 0);
    long top = (long)r->nitems - 1;
    r->panel_first = r->panel_first > top ? top : r->panel_first;
    r->panel_first = r->panel_first < 0 ? 0 : r->panel_first;
}

/* Check box state: 1 checked, 0 not, 2 partly (a group with some rows hidden). */
static int item_checked(const view_app *a, const item *it)
{
    const view_rows *r = a->rows;
    if (it->kind == ITEM_ROW)
        return !set_has(&r->hidden_rows, row_key(a->shapes, it->index));
    if (it->kind == ITEM_GROUP) {
        const group *g = &r->groups[it->index];
        return g->shown == g->count ? 1 : g->shown ? 2 : 0;
    }
    if (it->kind == ITEM_RULE) {
        tlv_rule_info ri;
        tlv_shapes_rule(a->shapes, it->index, &ri);
        return !set_has(&r->hidden_rules, ri.name ? ri.name : "");
    }
    return 0;
}

static const char *item_name(const view_app *a, const item *it)
{
    if (it->kind == ITEM_HEADER)
        return it->index ? "Rules" : "Rows";
    if (it->kind == ITEM_GROUP)
        return a->rows->groups[it->index].name;
    if (it->kind == ITEM_ROW)
        return row_key(a->shapes, it->index);
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

/* ---- input ----------------------------------------------------------------------------- */

int rows_panel_hit(const view_app *a, double x, double y)
{
    if (!a->rows || !a->rows->panel)
        return 0;
    panel_geom g;
    panel_geometry(a, &g);
    return x >= g.box.x && x < g.box.x + g.box.w && y >= g.box.y && y < g.box.y + g.box.h;
}

void rows_toggle_panel(view_app *a)
{
    if (!a->rows)
        return;
    a->rows->panel = !a->rows->panel;
    view_hover_update(a);
    view_dirty(a);
}

static void toggle_rule(view_app *a, const char *name)
{
    view_rows *r = a->rows;
    char *keep = strdup(name); /* name lives in the shapes about to be replaced */
    if (!keep)
        return;
    int hidden = set_toggle(&r->hidden_rules, keep);
    if (view_build_shapes(a, a->per_cpu) < 0)
        set_toggle(&r->hidden_rules, keep); /* the old shapes are kept: undo */
    else
        view_message(a, "rule %s %s", keep, hidden ? "hidden" : "shown");
    free(keep);
}

/* A group's check box: every row shown when any was hidden, else all hidden. */
static void toggle_group_rows(view_app *a, size_t k)
{
    view_rows *r = a->rows;
    const group *g = &r->groups[k];
    int show = g->shown < g->count;
    for (size_t row = g->first; row < g->first + g->count; row++) {
        if (show)
            set_remove(&r->hidden_rows, row_key(a->shapes, row));
        else
            set_add(&r->hidden_rows, row_key(a->shapes, row));
    }
    view_message(a, "rows of %s %s", g->name, show ? "shown" : "hidden");
    bands_changed(a);
}

static void panel_press(view_app *a, double x, double y)
{
    view_rows *r = a->rows;
    panel_geom g;
    panel_geometry(a, &g);
    if (y < g.list_y) { /* the title: its close button */
        if (x >= g.box.x + g.box.w - g.item_h)
            rows_toggle_panel(a);
        return;
    }
    build_items(a);
    long i = r->panel_first + (long)((y - g.list_y) / g.item_h);
    if (i < 0 || i >= (long)r->nitems || i - r->panel_first >= g.visible)
        return;
    item it = r->items[i];
    if (it.kind == ITEM_GROUP && x < box_x(a, &g, &it))
        toggle_group(a, it.index);
    else if (it.kind == ITEM_GROUP)
        toggle_group_rows(a, it.index);
    else if (it.kind == ITEM_ROW) {
        const char *key = row_key(a->shapes, it.index);
        int hidden = set_toggle(&r->hidden_rows, key);
        view_message(a, "row %s %s", key, hidden ? "hidden" : "shown");
        bands_changed(a);
    } else if (it.kind == ITEM_RULE) {
        toggle_rule(a, item_name(a, &it));
    }
}

int rows_press(view_app *a, double x, double y, int button)
{
    if (!a->rows || !a->shapes)
        return 0;
    if (rows_panel_hit(a, x, y)) {
        if (button == SDL_BUTTON_LEFT)
            panel_press(a, x, y);
        return 1;
    }
    view_areas ar;
    view_areas_of(a, &ar);
    tlv_view_layout l;
    if (button != SDL_BUTTON_LEFT || x >= ar.label_w || y >= ar.main.h)
        return 0;
    long p = band_at(a, y, &l);
    if (p < 0 || !starts_group(a->rows, &l, (size_t)p) ||
        !a->rows->groups[a->rows->band_group[p]].collapsible)
        return 0;
    toggle_group(a, a->rows->band_group[p]); /* a click on a group's name */
    return 1;
}

int rows_wheel(view_app *a, double x, double y, double notches)
{
    if (!rows_panel_hit(a, x, y))
        return 0;
    view_rows *r = a->rows;
    panel_geom g;
    panel_geometry(a, &g);
    build_items(a);
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

static void group_title(const group *g, char *buf, size_t size)
{
    snprintf(buf, size, "%s (%zu row%s)", g->name, g->shown, g->shown == 1 ? "" : "s");
}

/* A collapsed group's band: tinted across, its mark and "Task (5 rows)". */
static void draw_collapsed(view_app *a, const view_areas *ar, const group *g, double top, double h)
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

void rows_draw_bands(view_app *a, const tlv_view *v, const view_areas *ar)
{
    const view_rows *r = a->rows;
    if (!r || !r->built || !a->shapes)
        return;
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    SDL_Rect clip = {0, l.ruler_height, ar->main.w, ar->main.h - l.ruler_height};
    SDL_RenderSetClipRect(a->ren, &clip);
    int tall = l.row_height >= 36 * a->scale; /* the renderer puts the group's name above */
    for (size_t p = l.first_row; p < l.end_row; p++) {
        const group *g = &r->groups[r->band_group[p]];
        double top = l.ruler_height + ((double)p - (double)l.first_row) * l.row_height;
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
        const group *gr = &a->rows->groups[it->index];
        mark(a, mark_x(g), by, bs * 0.8, is_collapsed(a->rows, gr));
        group_title(gr, text, sizeof text);
    } else if (it->kind == ITEM_ROW) {
        snprintf(text, sizeof text, "%s", row_label(a->shapes, it->index));
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

void rows_draw_panel(view_app *a, const view_areas *ar)
{
    view_rows *r = a->rows;
    (void)ar;
    if (!r || !r->panel || !a->shapes)
        return;
    panel_geom g;
    panel_geometry(a, &g);
    build_items(a);
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
    for (long i = r->panel_first; i < (long)r->nitems && i - r->panel_first < g.visible; i++)
        draw_item(a, &g, &r->items[i], g.list_y + (int)(i - r->panel_first) * g.item_h);
    SDL_RenderSetClipRect(a->ren, NULL);
}

/* ---- JSON ------------------------------------------------------------------------------ */

static cJSON *names_json(const name_set *s)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < s->n; i++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(s->v[i]));
    return arr;
}

void rows_state_json(const view_app *a, struct cJSON *o)
{
    const view_rows *r = a->rows;
    static const name_set none;
    cJSON_AddItemToObject(o, "hidden_rows", names_json(r ? &r->hidden_rows : &none));
    cJSON_AddItemToObject(o, "hidden_rules", names_json(r ? &r->hidden_rules : &none));
    cJSON_AddItemToObject(o, "collapsed_groups", names_json(r ? &r->collapsed : &none));
    cJSON_AddBoolToObject(o, "rows_panel", r && r->panel);
}

static cJSON *bands_json(const view_app *a)
{
    const view_rows *r = a->rows;
    cJSON *arr = cJSON_CreateArray();
    for (size_t p = 0; r && r->built && p < r->nbands; p++) {
        cJSON *b = cJSON_CreateObject();
        const group *g = &r->groups[r->band_group[p]];
        if (r->bands[p] == TLV_VIEW_ROW_BLANK) {
            cJSON_AddStringToObject(b, "collapsed", g->name);
            cJSON_AddNumberToObject(b, "rows", (double)g->shown);
        } else {
            cJSON_AddNumberToObject(b, "row", (double)r->bands[p]);
            cJSON_AddStringToObject(b, "label", row_label(a->shapes, r->bands[p]));
        }
        cJSON_AddStringToObject(b, "group", g->name);
        cJSON_AddItemToArray(arr, b);
    }
    return arr;
}

/* The panel's lines with where to click them (pixels): the check box's
 * centre, and a group's mark. */
static cJSON *panel_json(const view_app *a)
{
    view_rows *r = a->rows;
    cJSON *o = cJSON_CreateObject();
    panel_geom g;
    panel_geometry(a, &g);
    build_items(a);
    cJSON_AddNumberToObject(o, "x", g.box.x);
    cJSON_AddNumberToObject(o, "width", g.box.w);
    cJSON_AddNumberToObject(o, "item_height", g.item_h);
    cJSON_AddNumberToObject(o, "first", (double)r->panel_first);
    cJSON_AddNumberToObject(o, "visible", (double)g.visible);
    cJSON *close = cJSON_AddObjectToObject(o, "close");
    cJSON_AddNumberToObject(close, "x", g.box.x + g.box.w - g.item_h / 2);
    cJSON_AddNumberToObject(close, "y", g.item_h / 2);
    static const char *const kinds[] = {"header", "group", "row", "rule"};
    cJSON *items = cJSON_AddArrayToObject(o, "items");
    int bs = scaled(a, BOX);
    for (size_t i = 0; i < r->nitems; i++) {
        const item *it = &r->items[i];
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "kind", kinds[it->kind]);
        cJSON_AddStringToObject(j, "name", item_name(a, it));
        int y = g.list_y + (int)((long)i - r->panel_first) * g.item_h + g.item_h / 2;
        if (it->kind != ITEM_HEADER) {
            int st = item_checked(a, it);
            cJSON_AddItemToObject(j, "checked", st == 2 ? cJSON_CreateString("partly")
                                                        : cJSON_CreateBool(st));
            cJSON_AddNumberToObject(j, "x", box_x(a, &g, it) + bs / 2);
        }
        if (it->kind == ITEM_GROUP) {
            cJSON_AddNumberToObject(j, "mark_x", mark_x(&g) + bs / 3);
            cJSON_AddBoolToObject(j, "collapsed", is_collapsed(r, &r->groups[it->index]));
        }
        cJSON_AddNumberToObject(j, "y", y);
        cJSON_AddItemToArray(items, j);
    }
    return o;
}

void rows_dump_json(const view_app *a, struct cJSON *o)
{
    cJSON_AddItemToObject(o, "bands", bands_json(a));
    if (a->rows && a->rows->panel && a->shapes)
        cJSON_AddItemToObject(o, "rows_panel_items", panel_json(a));
    else
        cJSON_AddNullToObject(o, "rows_panel_items");
}

static void read_names(const cJSON *arr, name_set *s)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
        if (cJSON_IsString(it))
            set_add(s, it->valuestring);
}

void rows_session_read(view_app *a, const struct cJSON *o)
{
    view_rows *r = a->rows;
    if (!r || !o)
        return;
    read_names(cJSON_GetObjectItemCaseSensitive(o, "hidden_rows"), &r->hidden_rows);
    read_names(cJSON_GetObjectItemCaseSensitive(o, "hidden_rules"), &r->hidden_rules);
    read_names(cJSON_GetObjectItemCaseSensitive(o, "collapsed_groups"), &r->collapsed);
    r->panel = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "rows_panel"));
}
