/*
 * panel_diff.c — the diff table of `tlv view A --compare B` (issue 28.4):
 * what `tlv diff A B` prints, as a band along the bottom, computed by
 * common/diff.c from the two loaded traces (the same figures). Shift+C
 * shows the response times (per actor and kind: count, p50, p99 and
 * maximum in each run, the change of the maximum, absolute and %), then
 * the time in each state (count and time in each run, the change), then
 * hides it; each table sorted by the largest change, the actors of one run
 * only on its last lines. The wheel scrolls it; its x button closes it.
 */
#include "view/view.h"
#include "view/view_panels.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PANEL_LINES 10          /* the band's height in lines, at most */
#define WHEEL_LINES 3
#define NARROW 900              /* a band narrower (at scale 1) drops the percentiles */
#define C_BG 0xFFFFFFu
#define C_HEAD 0xE8EEF0u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_UP 0xB02020u          /* B took longer */
#define C_DOWN 0x1F7A1Fu        /* B was quicker */

enum { HIDDEN, INSTANCES, STATES, NMODES };

typedef struct diff_panel {
    view_panel base;            /* first: the hooks get &base */
    int mode;
    size_t first;               /* the top line */
    int computed;               /* rp and runs are of the loaded traces */
    const tlv_trace *of;        /* A's trace they were computed for, */
    size_t of_events;           /* with this many events */
    diff_run runs[2];
    diff_report rp;
} diff_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int line_height(const view_app *a) { return view_text_height(a->text) + scaled(a, 3); }

static void drop(diff_panel *p)
{
    diff_report_free(&p->rp);
    diff_run_free(&p->runs[0]);
    diff_run_free(&p->runs[1]);
    p->computed = 0;
}

/* The comparison of the loaded traces; NULL while A loads (or when memory ran out). */
static const diff_report *report(diff_panel *p, view_app *a)
{
    if (!a->opts.compare_trace || !view_instances(a)) /* NULL while A loads */
        return NULL;
    if (p->computed && p->of == a->trace && p->of_events == tlv_trace_event_count(a->trace))
        return &p->rp;
    drop(p);
    /* as tlv diff: its --cpu-attribute default (prcId) is the library's NULL */
    const char *cpu = strcmp(a->opts.cpu_attribute, "prcId") == 0 ? NULL : a->opts.cpu_attribute;
    diff_settings o = {cpu, NULL, 0, NULL, "max"};
    if (diff_run_init(&p->runs[0], a->trace, &o) < 0 ||
        diff_run_init(&p->runs[1], a->opts.compare_trace, &o) < 0 ||
        diff_compute(p->runs, &o, &p->rp) < 0) {
        drop(p);
        view_message(a, "out of memory comparing %s with %s", a->opts.input, a->opts.compare_path);
        return NULL;
    }
    p->computed = 1;
    p->of = a->trace;
    p->of_events = tlv_trace_event_count(a->trace);
    return &p->rp;
}

static const diff_rows *table_of(const diff_panel *p, const diff_report *rp)
{
    return p->mode == STATES ? &rp->states : &rp->inst;
}

/* Lines: the table's rows, then "Only in A", "Only in B". */
static size_t line_count(const diff_panel *p, const diff_report *rp)
{
    return table_of(p, rp)->n + 2;
}

/* ---- layout -------------------------------------------------------------------------- */

static int strip_height(view_panel *base, const view_app *a, int avail)
{
    if (((diff_panel *)base)->mode == HIDDEN || !a->opts.compare_trace)
        return 0;
    int h = PANEL_LINES * line_height(a) + scaled(a, 6);
    return h > avail / 3 ? avail / 3 : h; /* the rest for the two runs */
}

static const SDL_Rect *area(const diff_panel *p, const view_app *a, view_areas *ar)
{
    view_areas_of(a, ar);
    return view_panel_area(ar, &p->base);
}

/* The band's lines below its title and header. */
static size_t lines_in(const view_app *a, const SDL_Rect *r)
{
    int n = (r->h - scaled(a, 4)) / line_height(a) - 2;
    return n > 0 ? (size_t)n : 0;
}

static int line_y(const view_app *a, const SDL_Rect *r, size_t k)
{
    return r->y + scaled(a, 4) + (int)(k + 2) * line_height(a);
}

static SDL_Rect close_box(const view_app *a, const SDL_Rect *r)
{
    int s = line_height(a);
    return (SDL_Rect){r->x + r->w - s - scaled(a, 4), r->y + scaled(a, 3), s, s};
}

/* The columns: titles and where each starts, in thousandths of the width. */
typedef struct column {
    const char *title;
    int at;
} column;

enum { MAX_COLS = 12 };

static size_t columns(const diff_panel *p, const view_app *a, const SDL_Rect *r, column *c)
{
    static const column inst[] = {{"Actor", 0},     {"Kind", 170},    {"A count", 270},
                                  {"B count", 340}, {"A p50", 410},   {"B p50", 480},
                                  {"A p99", 550},   {"B p99", 620},   {"A max", 690},
                                  {"B max", 760},   {"Change", 830},  {"%", 920}};
    static const column narrow[] = {{"Actor", 0},     {"Kind", 200},   {"A count", 330},
                                    {"B count", 420}, {"A max", 510},  {"B max", 625},
                                    {"Change", 740},  {"%", 890}};
    static const column states[] = {{"Actor", 0},    {"State", 220},  {"A count", 390},
                                    {"B count", 480}, {"A time", 570}, {"B time", 670},
                                    {"Change", 770},  {"%", 890}};
    const column *from = p->mode == STATES ? states : r->w < scaled(a, NARROW) ? narrow : inst;
    size_t n = p->mode == STATES ? sizeof states / sizeof *states
               : r->w < scaled(a, NARROW) ? sizeof narrow / sizeof *narrow
                                           : sizeof inst / sizeof *inst;
    memcpy(c, from, n * sizeof *c);
    return n;
}

static int col_x(const SDL_Rect *r, const column *c, size_t i)
{
    return r->x + (int)((long)(r->w - 8) * c[i].at / 1000) + 6;
}

/* ---- cells --------------------------------------------------------------------------- */

static void side(view_app *a, const diff_row *r, int s, double v, int is_count, char *b, size_t n)
{
    if (!r->in[s])
        snprintf(b, n, "-");
    else if (is_count)
        snprintf(b, n, "%zu", r->count[s]);
    else
        view_time_text(a, v, 0, b, n);
}

/* The text of column `title` of row r. */
static void cell(view_app *a, const diff_row *r, const char *title, char *b, size_t n)
{
    int s = title[0] == 'B';
    if (strcmp(title, "Actor") == 0)
        snprintf(b, n, "%s", r->key);
    else if (strcmp(title, "Kind") == 0)
        snprintf(b, n, "%s%s%s", r->what, r->name[0] ? " " : "", r->name);
    else if (strcmp(title, "State") == 0)
        snprintf(b, n, "%s", r->what);
    else if (strstr(title, "count"))
        side(a, r, s, 0, 1, b, n);
    else if (strstr(title, "p50"))
        side(a, r, s, r->p50[s], 0, b, n);
    else if (strstr(title, "p99"))
        side(a, r, s, r->p99[s], 0, b, n);
    else if (strstr(title, "max") || strstr(title, "time"))
        side(a, r, s, r->value[s], 0, b, n);
    else if (strcmp(title, "Change") == 0) {
        char t[64];
        double c = diff_change(r);
        snprintf(b, n, "%s%s", c > 0 ? "+" : c < 0 ? "-" : "", view_time_text(a, fabs(c), 0, t, sizeof t));
    } else
        diff_percent(r, b, n);
}

/* ---- drawing ------------------------------------------------------------------------- */

static void text_in(view_app *a, const char *s, int x, int y, int right, uint32_t c)
{
    SDL_Rect clip = {x, y, right - x - scaled(a, 4), line_height(a)};
    if (clip.w <= 0)
        return;
    SDL_RenderSetClipRect(a->ren, &clip);
    view_text_draw(a->text, s, x, y, c);
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void only_line(const diff_report *rp, int s, char *b, size_t n)
{
    size_t len = (size_t)snprintf(b, n, "Only in %s:%s", s ? "B" : "A", rp->nonly[s] ? "" : " none");
    for (size_t i = 0; i < rp->nonly[s] && len < n; i++)
        len += (size_t)snprintf(b + len, n - len, "%s %s", i ? "," : "", rp->only[s][i]);
}

static void draw_line(diff_panel *p, view_app *a, const diff_report *rp, const SDL_Rect *r,
                      const column *c, size_t nc, size_t line, int y)
{
    const diff_rows *t = table_of(p, rp);
    if (line >= t->n) { /* the actors of one run only */
        char b[1000];
        only_line(rp, (int)(line - t->n), b, sizeof b);
        text_in(a, b, r->x + scaled(a, 6), y, r->x + r->w, C_DIM);
        return;
    }
    const diff_row *row = &t->v[line];
    for (size_t i = 0; i < nc; i++) {
        char b[300];
        cell(a, row, c[i].title, b, sizeof b);
        double ch = diff_change(row);
        uint32_t color = i + 2 < nc ? C_TEXT : ch > 0 ? C_UP : ch < 0 ? C_DOWN : C_DIM;
        text_in(a, b, col_x(r, c, i), y, i + 1 < nc ? col_x(r, c, i + 1) : r->x + r->w, color);
    }
}

static void draw_band(diff_panel *p, view_app *a, const SDL_Rect *r)
{
    if (r->h <= 0)
        return;
    int lh = line_height(a);
    view_fill(a, r->x, r->y, r->w, r->h, C_BG, 255);
    view_fill(a, r->x, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    SDL_Rect x = close_box(a, r);
    view_fill(a, x.x, x.y, x.w, x.h, 0xE0E0E0, 255);
    view_text_draw(a->text, "x", x.x + (x.w - view_text_width(a->text, "x")) / 2, x.y, C_TEXT);
    const diff_report *rp = report(p, a);
    char title[800];
    snprintf(title, sizeof title, "Diff (Shift+C: %s)  A: %s  B: %s  by the largest change%s",
             p->mode == STATES ? "time in each state; again hides it" : "response times; again: states",
             a->opts.input, a->opts.compare_path,
             p->mode == STATES ? "" : " of the maximum");
    text_in(a, rp ? title : "Diff (Shift+C)  waiting for the trace", r->x + scaled(a, 6),
            r->y + scaled(a, 4), x.x, C_DIM);
    if (!rp)
        return;
    column c[MAX_COLS];
    size_t nc = columns(p, a, r, c);
    int hy = r->y + scaled(a, 4) + lh;
    view_fill(a, r->x, hy, r->w, lh, C_HEAD, 255);
    for (size_t i = 0; i < nc; i++)
        text_in(a, c[i].title, col_x(r, c, i), hy + scaled(a, 1),
                i + 1 < nc ? col_x(r, c, i + 1) : r->x + r->w, C_TEXT);
    size_t n = line_count(p, rp), vis = lines_in(a, r);
    if (p->first + vis > n)
        p->first = n > vis ? n - vis : 0;
    for (size_t k = 0; k < vis && p->first + k < n; k++) {
        int y = line_y(a, r, k);
        if (k % 2)
            view_fill(a, r->x, y, r->w, lh, 0xF6F8F8, 255);
        draw_line(p, a, rp, r, c, nc, p->first + k, y + scaled(a, 1));
    }
}

static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v;
    diff_panel *p = (diff_panel *)base;
    if (layer == VIEW_LAYER_PANEL && p->mode != HIDDEN && a->opts.compare_trace)
        draw_band(p, a, view_panel_area(ar, base));
}

/* ---- input --------------------------------------------------------------------------- */

static void cycle(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    diff_panel *p = (diff_panel *)base;
    if (!a->opts.compare_trace) {
        view_message(a, "Shift+C shows the diff of two runs: open them with tlv view A --compare B");
        return;
    }
    p->mode = (p->mode + 1) % NMODES;
    p->first = 0;
    view_dirty(a);
}

static const view_key keys[] = {
    {SDLK_c, VIEW_KEYS_SHIFT, "Shift+C: --compare: the diff table (response times, states, hidden)",
     cycle},
};

static int inside(const SDL_Rect *r, double x, double y)
{
    return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static int press(view_panel *base, view_app *a, double x, double y, int button, int clicks)
{
    (void)button, (void)clicks;
    diff_panel *p = (diff_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    if (p->mode == HIDDEN || !inside(r, x, y))
        return 0;
    SDL_Rect c = close_box(a, r);
    if (inside(&c, x, y)) {
        p->mode = HIDDEN;
        view_dirty(a);
    }
    return 1;
}

static int wheel(view_panel *base, view_app *a, double x, double y, double notches)
{
    diff_panel *p = (diff_panel *)base;
    view_areas ar;
    if (p->mode == HIDDEN || !inside(area(p, a, &ar), x, y))
        return 0;
    long step = (long)lround(-notches * WHEEL_LINES), first = (long)p->first + step;
    p->first = first < 0 ? 0 : (size_t)first; /* the end is kept when drawn */
    view_dirty(a);
    return 1;
}

static int covers(view_panel *base, const view_app *a, double x, double y)
{
    diff_panel *p = (diff_panel *)base;
    view_areas ar;
    return p->mode != HIDDEN && inside(area(p, a, &ar), x, y);
}

/* ---- state --------------------------------------------------------------------------- */

static void dump_side(cJSON *o, const diff_row *r, int s, int instances)
{
    if (!r->in[s]) {
        cJSON_AddNullToObject(o, s ? "b" : "a");
        return;
    }
    cJSON *j = cJSON_AddObjectToObject(o, s ? "b" : "a");
    cJSON_AddNumberToObject(j, "count", (double)r->count[s]);
    cJSON_AddNumberToObject(j, instances ? "max" : "time", r->value[s]);
    if (!instances)
        return;
    cJSON_AddNumberToObject(j, "p50", r->p50[s]);
    cJSON_AddNumberToObject(j, "p90", r->p90[s]);
    cJSON_AddNumberToObject(j, "p99", r->p99[s]);
}

static void dump(view_panel *base, const view_app *ca, cJSON *o)
{
    diff_panel *p = (diff_panel *)base;
    view_app *a = (view_app *)ca; /* the comparison is computed when first asked for */
    if (!a->opts.compare_trace)
        return;
    static const char *const modes[] = {"hidden", "instances", "states"};
    cJSON *j = cJSON_AddObjectToObject(o, "diff_panel");
    cJSON_AddStringToObject(j, "mode", modes[p->mode]);
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    const diff_report *rp = p->mode != HIDDEN ? report(p, a) : NULL;
    if (!rp)
        return;
    column c[MAX_COLS];
    size_t nc = columns(p, a, r, c), n = line_count(p, rp), vis = lines_in(a, r);
    cJSON *cols = cJSON_AddArrayToObject(j, "columns");
    for (size_t i = 0; i < nc; i++)
        json_push(cols, cJSON_CreateString(c[i].title));
    cJSON *lines = cJSON_AddArrayToObject(j, "lines"); /* those in sight, as drawn */
    const diff_rows *t = table_of(p, rp);
    for (size_t k = 0; k < vis && p->first + k < n; k++) {
        size_t line = p->first + k;
        if (line >= t->n) {
            char b[1000];
            only_line(rp, (int)(line - t->n), b, sizeof b);
            json_push(lines, cJSON_CreateString(b));
            continue;
        }
        const diff_row *row = &t->v[line];
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "actor", row->key);
        cJSON_AddStringToObject(l, p->mode == STATES ? "state" : "kind", row->what);
        if (p->mode != STATES)
            cJSON_AddStringToObject(l, "name", row->name);
        dump_side(l, row, 0, p->mode != STATES);
        dump_side(l, row, 1, p->mode != STATES);
        cJSON_AddNumberToObject(l, "change", diff_change(row));
        cJSON *cells = cJSON_AddArrayToObject(l, "cells");
        for (size_t i = 0; i < nc; i++) {
            char b[300];
            cell(a, row, c[i].title, b, sizeof b);
            json_push(cells, cJSON_CreateString(b));
        }
        json_push(lines, l);
    }
}

static void save(view_panel *base, const view_app *a, cJSON *o)
{
    (void)a;
    cJSON_AddNumberToObject(o, "diff_panel_mode", ((diff_panel *)base)->mode);
}

static void load(view_panel *base, view_app *a, const cJSON *o)
{
    (void)a;
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, "diff_panel_mode");
    if (cJSON_IsNumber(m) && m->valueint >= 0 && m->valueint < NMODES)
        ((diff_panel *)base)->mode = m->valueint;
}

static void destroy(view_panel *base)
{
    drop((diff_panel *)base);
    free(base);
}

view_panel *diff_panel_new(void)
{
    diff_panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->base = (view_panel){.name = "diff", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press, .wheel = wheel, .covers = covers,
                           .strip_height = strip_height, .save = save, .load = load,
                           .dump = dump, .destroy = destroy};
    return &p->base;
}
