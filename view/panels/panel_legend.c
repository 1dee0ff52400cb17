/*
 * panel_legend.c — L: the legend of the colours in view, at the timeline's
 * top right: one line per visualization rule and value (or event) whose
 * shapes are in the visible rows and range, with the colour they are
 * filled (or drawn) with, e.g. "Task state: RUNNING" ("Service calls:
 * act_tsk,tskid=3, …" when several values share a colour). Looked up again when
 * the view changes; a row with very many shapes in view is sampled across
 * the range (so that a zoomed-out frame stays fast), which may leave out a
 * colour seen only in a few narrow shapes. Kept in the session.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ENTRIES 64     /* kept; the box shows as many as fit */
#define SLICES 32          /* a row's range is looked at in this many slices, */
#define PER_SLICE 256      /* at most this many shapes each */

typedef struct legend_entry {
    const char *name;     /* the rule's name, */
    const char *rule;     /* and its display name (both live as long as the shapes) */
    const char *value;    /* the value, or the event's name (the first seen) */
    const char *resource; /* of the first shape seen, or NULL */
    int by_resource;      /* the value has several colours: one per resource */
    uint32_t color;       /* 0xRRGGBB */
    uint32_t more_colors[5];  /* shapes of no resource with this value in other colours */
    int nmore;
    int several;          /* other values have the colour too */
} legend_entry;

typedef struct legend_panel {
    view_panel base;
    int shown;
    legend_entry e[MAX_ENTRIES];
    size_t n;
    int more;             /* more kinds than MAX_ENTRIES */
    /* what the entries are of */
    double t0, t1;
    int first_row, valid;
    unsigned gen;
    size_t nbands;
} legend_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

/* ---- looking up the colours in view ---------------------------------------------------- */

typedef struct scan {
    legend_panel *p;
    const tlv_shapes *s;
    size_t seen;
} scan;

static const char *rule_display(const tlv_shapes *s, const char *rule)
{
    for (size_t i = 0; i < tlv_shapes_rule_count(s); i++) {
        tlv_rule_info r;
        tlv_shapes_rule(s, i, &r);
        if (strcmp(r.name, rule) == 0)
            return r.display_name;
    }
    return rule;
}

static int visit(void *user, const tlv_shape_info *sh)
{
    scan *sc = user;
    legend_panel *p = sc->p;
    if (++sc->seen > PER_SLICE)
        return 1;
    uint32_t c = sh->has_fill ? sh->fill : sh->has_pen && !sh->text ? sh->pen : 0;
    if (sh->text || (c >> 24) == 0)
        return 0; /* texts, and what is not seen */
    const char *value = sh->value && *sh->value ? sh->value : sh->event;
    const char *display = NULL;
    for (int pass = 0; pass < 2; pass++) { /* by rule name, then by display name */
        for (size_t i = 0; i < p->n; i++)
            if (p->e[i].color == (c & 0xFFFFFF) &&
                (pass ? strcmp(p->e[i].rule, display) : strcmp(p->e[i].name, sh->rule)) == 0) {
                p->e[i].several |= strcmp(p->e[i].value, value) != 0;
                return 0;
            }
        if (!display)
            display = rule_display(sc->s, sh->rule);
    }
    for (size_t i = 0; !sh->resource && i < p->n; i++) { /* per-CPU bars: a task's colour each */
        legend_entry *e = &p->e[i];
        if (e->resource || strcmp(e->rule, display) != 0 || strcmp(e->value, value) != 0)
            continue;
        int have = 0;
        for (int k = 0; k < e->nmore; k++)
            have |= e->more_colors[k] == (c & 0xFFFFFF);
        if (!have && e->nmore < (int)(sizeof e->more_colors / sizeof *e->more_colors))
            e->more_colors[e->nmore++] = c & 0xFFFFFF;
        return 0;
    }
    if (p->n == MAX_ENTRIES) {
        p->more = 1;
        return 0;
    }
    p->e[p->n++] = (legend_entry){sh->rule, display, value, sh->resource, 0, c & 0xFFFFFF, {0}, 0, 0};
    return 0;
}

static int by_rule_then_value(const void *x, const void *y)
{
    const legend_entry *a = x, *b = y;
    int r = strcmp(a->rule, b->rule);
    r = r ? r : strcmp(a->value, b->value);
    return r || !a->by_resource ? r : strcmp(a->resource, b->resource);
}

static void refresh(legend_panel *p, const view_app *a)
{
    tlv_view v;
    view_main_view(a, &v);
    if (p->valid && p->t0 == v.t0 && p->t1 == v.t1 && p->first_row == v.first_row &&
        p->gen == a->shapes_gen && p->nbands == v.row_count)
        return;
    p->valid = 1;
    p->t0 = v.t0;
    p->t1 = v.t1;
    p->first_row = v.first_row;
    p->gen = a->shapes_gen;
    p->nbands = v.row_count;
    p->n = 0;
    p->more = 0;
    if (!a->shapes)
        return;
    tlv_view_layout l;
    tlv_view_get_layout(&v, a->shapes, &l);
    scan sc = {p, a->shapes, 0};
    for (size_t pos = l.first_row; pos < l.end_row; pos++) {
        size_t row = v.rows ? v.rows[pos] : pos;
        if (row == TLV_VIEW_ROW_BLANK)
            continue;
        for (int k = 0; k < SLICES; k++) {
            double a0 = v.t0 + (v.t1 - v.t0) * k / SLICES, a1 = v.t0 + (v.t1 - v.t0) * (k + 1) / SLICES;
            sc.seen = 0;
            tlv_shapes_query(a->shapes, row, view_exact_time(a, a0), view_exact_time(a, a1), visit, &sc);
        }
    }
    for (size_t i = 0; i < p->n; i++) /* "running task: RUNNING" in each task's colour */
        for (size_t j = 0; j < p->n; j++)
            if (i != j && p->e[i].resource && strcmp(p->e[i].rule, p->e[j].rule) == 0 &&
                strcmp(p->e[i].value, p->e[j].value) == 0)
                p->e[i].by_resource = 1;
    qsort(p->e, p->n, sizeof *p->e, by_rule_then_value);
}

/* ---- drawing ----------------------------------------------------------------------------- */

static void entry_text(const legend_entry *e, char *out, size_t size)
{
    if (e->by_resource)
        snprintf(out, size, "%s: %s (%s)", e->rule, e->value, e->resource);
    else
        snprintf(out, size, "%s: %s%s", e->rule, e->value, e->several ? ", \xE2\x80\xA6" : "");
}

static void draw_legend(legend_panel *p, view_app *a, const view_areas *ar)
{
    refresh(p, a);
    int th = view_text_height(a->text), pad = scaled(a, 6), sw = 2 * th, line = th + scaled(a, 3);
    int room = (ar->main.h - ar->ruler_h - 2 * pad - 2 * scaled(a, 8)) / line;
    int n = (int)p->n + (p->n == 0), shown = n > room ? room - 1 : n;
    shown = shown < 0 ? 0 : shown;
    char text[240];
    int w = 0;
    for (int i = 0; i < shown && i < (int)p->n; i++) {
        entry_text(&p->e[i], text, sizeof text);
        int tw = view_text_width(a->text, text);
        w = tw > w ? tw : w;
    }
    w = w + sw + 3 * pad;
    int most = (ar->main.w - ar->label_w) / 2;
    w = p->n == 0 ? view_text_width(a->text, "no colours in view") + 2 * pad : w > most ? most : w;
    int lines = shown + (shown < n || p->more);
    int h = lines * line + 2 * pad - scaled(a, 3);
    int x = ar->main.w - w - scaled(a, 8), y = ar->ruler_h + scaled(a, 8);
    view_fill(a, x, y, w, h, 0xFFFFFF, 240);
    view_fill(a, x, y, w, 1, 0x909090, 255);
    view_fill(a, x, y + h - 1, w, 1, 0x909090, 255);
    view_fill(a, x, y, 1, h, 0x909090, 255);
    view_fill(a, x + w - 1, y, 1, h, 0x909090, 255);
    SDL_Rect clip = {x, y, w - pad, h};
    SDL_RenderSetClipRect(a->ren, &clip);
    if (p->n == 0)
        view_text_draw(a->text, "no colours in view", x + pad, y + pad, 0x606060);
    for (int i = 0; i < shown && i < (int)p->n; i++) {
        int ly = y + pad + i * line;
        const legend_entry *e = &p->e[i];
        int parts = 1 + e->nmore;
        for (int k = 0; k < parts; k++) /* the colour, or the colours side by side */
            view_fill(a, x + pad + k * sw / parts, ly + 1, (k + 1) * sw / parts - k * sw / parts, th - 2,
                      k ? e->more_colors[k - 1] : e->color, 255);
        entry_text(&p->e[i], text, sizeof text);
        view_text_draw(a->text, text, x + 2 * pad + sw, ly, 0x202020);
    }
    if (p->n && (shown < (int)p->n || p->more)) {
        if (p->more)
            snprintf(text, sizeof text, "… more");
        else
            snprintf(text, sizeof text, "… %d more", (int)p->n - shown);
        view_text_draw(a->text, text, x + 2 * pad + sw, y + pad + shown * line, 0x606060);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

/* ---- the panel's hooks --------------------------------------------------------------------- */

static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    legend_panel *p = (legend_panel *)base;
    (void)v;
    if (layer == VIEW_LAYER_PANEL && p->shown)
        draw_legend(p, a, ar);
}

static void toggle(view_panel *base, view_app *a, SDL_Keycode k, int mods)
{
    (void)k, (void)mods;
    legend_panel *p = (legend_panel *)base;
    p->shown = !p->shown;
    view_message(a, p->shown ? "legend shown (L hides it)" : "legend hidden");
    view_dirty(a);
}

static const view_key keys[] = {
    {SDLK_l, VIEW_KEYS_SHIFT, "L: legend of the colours in view", toggle},
};

static void save(view_panel *base, const view_app *a, struct cJSON *o)
{
    (void)a;
    cJSON_AddBoolToObject(o, "legend_shown", ((legend_panel *)base)->shown);
}

static void load(view_panel *base, view_app *a, const struct cJSON *o)
{
    (void)a;
    ((legend_panel *)base)->shown = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "legend_shown"));
}

static void dump(view_panel *base, const view_app *a, struct cJSON *o)
{
    legend_panel *p = (legend_panel *)base;
    if (!p->shown) {
        cJSON_AddNullToObject(o, "legend");
        return;
    }
    refresh(p, a); /* the entries as the next frame shows them */
    cJSON *arr = cJSON_AddArrayToObject(o, "legend");
    for (size_t i = 0; i < p->n; i++) {
        cJSON *e = cJSON_CreateObject();
        char color[8];
        snprintf(color, sizeof color, "%06x", (unsigned)p->e[i].color);
        cJSON_AddStringToObject(e, "rule", p->e[i].rule);
        cJSON_AddStringToObject(e, "value", p->e[i].value);
        cJSON_AddStringToObject(e, "color", color);
        cJSON_AddBoolToObject(e, "several", p->e[i].several);
        if (p->e[i].by_resource)
            cJSON_AddStringToObject(e, "resource", p->e[i].resource);
        for (int k = 0; k < p->e[i].nmore; k++) {
            snprintf(color, sizeof color, "%06x", (unsigned)p->e[i].more_colors[k]);
            json_push(cJSON_GetObjectItem(e, "more_colors") ? cJSON_GetObjectItem(e, "more_colors")
                                                                         : cJSON_AddArrayToObject(e, "more_colors"),
                                 cJSON_CreateString(color));
        }
        json_push(arr, e);
    }
}

view_panel *legend_panel_new(void)
{
    legend_panel *p = calloc(1, sizeof *p);
    if (p)
        p->base = (view_panel){.name = "legend", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                               .draw = draw, .save = save,
                               .load = load, .dump = dump};
    return p ? &p->base : NULL;
}
