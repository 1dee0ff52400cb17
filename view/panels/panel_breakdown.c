/*
 * panel_breakdown.c — the range panel (b; opens by itself when a range is
 * selected with Ctrl+drag): for every shown row, what it spent its time on
 * inside the range (view_breakdown.c) as a table — row, value, total and
 * share of the range (with a bar), number of intervals, min/mean/max — in a
 * band along the bottom. A click on a column's header sorts by it (again:
 * the other way); the wheel scrolls; Ctrl+C copies the table as CSV to the
 * clipboard and e saves it as LOG-range-N.csv; its x button closes it.
 */
#include "view/view.h"
#include "view/view_panels.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PANEL_LINES 11          /* the band's height in lines, at most */
#define WHEEL_LINES 3
#define C_BG 0xFFFFFFu
#define C_HEAD 0xE8EEF0u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_BAR 0x1F8A8Au
#define C_SORTED 0xD8E8E8u

enum { COL_ROW, COL_VALUE, COL_TOTAL, COL_SHARE, COL_COUNT, COL_MIN, COL_MEAN, COL_MAX, NCOLS };

static const char *const col_names[NCOLS] = {"row", "value", "total", "percent", "count",
                                             "min", "mean", "max"};
static const char *const col_titles[NCOLS] = {"Row", "Value", "Total", "% of range", "Count",
                                              "Min", "Mean", "Max"};
/* Where each column starts, in thousandths of the band's width. */
static const int col_at[NCOLS] = {0, 200, 440, 540, 680, 740, 820, 900};

typedef struct breakdown_panel {
    view_panel base;            /* first: the hooks get &base */
    int shown;                  /* not closed (it shows while there is a range) */
    unsigned seen_range;        /* a->range_gen last seen: a new range opens it */
    int sort_col, descending;   /* COL_ROW ascending: rows top to bottom */
    size_t first;               /* the top line */
    size_t *order;              /* lines in the order shown */
    size_t norder, order_cap;
    const breakdown_line *sorted_lines; /* what `order` was made for */
    int sorted_col, sorted_desc;
    unsigned csv_count;
    char *copied;               /* the last text copied, for dump-state */
} breakdown_panel;

static void destroy(view_panel *base)
{
    breakdown_panel *p = (breakdown_panel *)base;
    free(p->order);
    free(p->copied);
    free(p);
}

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int line_height(const view_app *a) { return view_text_height(a->text) + scaled(a, 3); }

/* Shown while there is a range and it was not closed; a new range opens it. */
static int shown(breakdown_panel *p, const view_app *a)
{
    if (p->seen_range != a->range_gen) {
        p->seen_range = a->range_gen;
        p->shown = p->shown || a->has_range;
        p->first = 0;
    }
    return p->shown && a->has_range;
}

static int strip_height(view_panel *base, const view_app *a, int avail)
{
    if (!shown((breakdown_panel *)base, a))
        return 0;
    int h = PANEL_LINES * line_height(a) + scaled(a, 6);
    return h > avail * 2 / 5 ? avail * 2 / 5 : h;
}

static void show(breakdown_panel *p, view_app *a, int on)
{
    p->shown = on;
    view_dirty(a);
}

/* ---- order -------------------------------------------------------------------------- */

static const breakdown_line *sort_lines; /* for the comparison only: qsort has no context */
static int sort_col;

static double number_of(const tlv_breakdown_entry *e, int col)
{
    switch (col) {
    case COL_TOTAL: return e->total;
    case COL_SHARE: return e->share;
    case COL_COUNT: return (double)e->count;
    case COL_MIN: return e->min;
    case COL_MEAN: return e->mean;
    default: return e->max;
    }
}

static int by_column(const void *pa, const void *pb)
{
    size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
    const breakdown_line *x = &sort_lines[ia], *y = &sort_lines[ib];
    int c = 0;
    if (sort_col == COL_VALUE) {
        c = strcmp(x->e.value, y->e.value);
    } else if (sort_col != COL_ROW) {
        double u = number_of(&x->e, sort_col), v = number_of(&y->e, sort_col);
        c = u < v ? -1 : u > v;
    }
    return c ? c : ia < ib ? -1 : ia > ib; /* ties keep the rows' order */
}

/* The lines in the order shown, sorted again when they or the column changed. */
static const size_t *ordered(const view_app *a, breakdown_panel *p, size_t *n)
{
    const breakdown_line *lines = breakdown_lines(a, n);
    if (p->sorted_lines == lines && p->norder == *n && p->sorted_col == p->sort_col &&
        p->sorted_desc == p->descending)
        return p->order;
    if (*n > p->order_cap) {
        size_t *o = realloc(p->order, *n * sizeof *o);
        if (!o) {
            *n = 0;
            return NULL;
        }
        p->order = o;
        p->order_cap = *n;
    }
    for (size_t i = 0; i < *n; i++)
        p->order[i] = i;
    sort_lines = lines;
    sort_col = p->sort_col;
    if (p->sort_col != COL_ROW && *n > 1) /* (none yet: order may still be NULL) */
        qsort(p->order, *n, sizeof *p->order, by_column);
    if (p->descending)
        for (size_t i = 0; i < *n / 2; i++) {
            size_t t = p->order[i];
            p->order[i] = p->order[*n - 1 - i];
            p->order[*n - 1 - i] = t;
        }
    p->sorted_lines = lines;
    p->norder = *n;
    p->sorted_col = p->sort_col;
    p->sorted_desc = p->descending;
    return p->order;
}

/* ---- geometry ---------------------------------------------------------------------- */

static int col_x(const SDL_Rect *r, int col, const view_app *a)
{
    return r->x + scaled(a, 6) + (int)((long)(r->w - scaled(a, 12)) * col_at[col] / 1000);
}

static int title_y(const view_app *a, const SDL_Rect *r) { return r->y + scaled(a, 4); }
static int header_y(const view_app *a, const SDL_Rect *r) { return title_y(a, r) + line_height(a); }
static int lines_y(const view_app *a, const SDL_Rect *r) { return header_y(a, r) + line_height(a); }

static size_t visible_lines(const view_app *a, const SDL_Rect *r)
{
    int n = (r->y + r->h - lines_y(a, r)) / line_height(a);
    return n > 0 ? (size_t)n : 0;
}

/* The close button: a square at the right end of the title line. */
static SDL_Rect close_box(const view_app *a, const SDL_Rect *r)
{
    int s = line_height(a) - scaled(a, 2);
    return (SDL_Rect){r->x + r->w - s - scaled(a, 4), title_y(a, r), s, s};
}

/* ---- drawing ----------------------------------------------------------------------- */

static void draw_cell(view_app *a, const char *s, int x, int y, int right, uint32_t c)
{
    SDL_Rect clip = {x, y, right - x - scaled(a, 6), line_height(a)};
    if (clip.w <= 0)
        return;
    SDL_RenderSetClipRect(a->ren, &clip);
    view_text_draw(a->text, s, x, y, c);
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void format_cell(const view_app *a, const breakdown_line *l, int col, char *buf,
                        size_t size)
{
    switch (col) {
    case COL_ROW: snprintf(buf, size, "%s", l->label); break;
    case COL_VALUE: snprintf(buf, size, "%s", l->e.value); break;
    case COL_SHARE: snprintf(buf, size, "%.1f %%", l->e.share * 100); break;
    case COL_COUNT: snprintf(buf, size, "%zu", l->e.count); break;
    default: view_time_text(a, number_of(&l->e, col), 0, buf, size); break;
    }
}

static void draw_table(breakdown_panel *p, view_app *a, const SDL_Rect *r)
{
    if (!shown(p, a) || r->h <= 0)
        return;
    int lh = line_height(a), right = r->x + r->w;
    view_fill(a, r->x, r->y, r->w, r->h, C_BG, 255);
    view_fill(a, r->x, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    size_t n;
    const size_t *order = ordered(a, p, &n);
    const breakdown_line *lines = breakdown_lines(a, &n);
    char t0[64], t1[64], len[64], title[400];
    snprintf(title, sizeof title,
             "Range (b)  %s .. %s  length %s  -  %zu values in the shown rows   "
             "click a header to sort   Ctrl+C copy CSV   e save CSV   z zoom   Esc clear",
             view_time_at_text(a, a->range0, 0, t0, sizeof t0),
             view_time_at_text(a, a->range1, 0, t1, sizeof t1),
             view_time_text(a, a->range1 - a->range0, 0, len, sizeof len), n);
    SDL_Rect cb = close_box(a, r);
    draw_cell(a, title, r->x + scaled(a, 6), title_y(a, r), cb.x, C_DIM);
    view_fill(a, cb.x, cb.y, cb.w, cb.h, 0xE0E0E0, 255);
    view_text_draw(a->text, "x", cb.x + (cb.w - view_text_width(a->text, "x")) / 2, cb.y, C_TEXT);
    int hy = header_y(a, r);
    view_fill(a, r->x, hy, r->w, lh, C_HEAD, 255);
    for (int c = 0; c < NCOLS; c++) {
        int x = col_x(r, c, a), next = c + 1 < NCOLS ? col_x(r, c + 1, a) : right;
        char head[64];
        snprintf(head, sizeof head, "%s%s", col_titles[c],
                 c != p->sort_col ? "" : p->descending ? " \xe2\x96\xbc" : " \xe2\x96\xb2");
        if (c == p->sort_col)
            view_fill(a, x - scaled(a, 3), hy, next - x, lh, C_SORTED, 255);
        draw_cell(a, head, x, hy + scaled(a, 1), next, C_TEXT);
    }
    size_t vis = visible_lines(a, r);
    if (p->first + vis > n)
        p->first = n > vis ? n - vis : 0;
    int ly = lines_y(a, r);
    for (size_t k = 0; k < vis && p->first + k < n; k++) {
        size_t i = order[p->first + k];
        const breakdown_line *l = &lines[i];
        int y = ly + (int)k * lh;
        if (k % 2)
            view_fill(a, r->x, y, r->w, lh, 0xF6F8F8, 255);
        /* Rows in their order: the row's name on its first line only. */
        int same_row = p->sort_col == COL_ROW && p->first + k > 0 &&
                       lines[order[p->first + k - 1]].row == l->row;
        for (int c = 0; c < NCOLS; c++) {
            int x = col_x(r, c, a), next = c + 1 < NCOLS ? col_x(r, c + 1, a) : right;
            if (c == COL_ROW && same_row)
                continue;
            if (c == COL_SHARE) {
                int bw = (int)lround((next - x - scaled(a, 10)) * fmin(1, l->e.share) * 0.5);
                view_fill(a, x, y + scaled(a, 3), bw, lh - scaled(a, 6), C_BAR, 120);
            }
            char cell[256];
            format_cell(a, l, c, cell, sizeof cell);
            int tx = c == COL_SHARE ? x + (next - x) / 2 - scaled(a, 4) : x;
            draw_cell(a, cell, tx, y + scaled(a, 1), next, C_TEXT);
        }
    }
}

/* ---- input ------------------------------------------------------------------------- */

static void copy_csv(breakdown_panel *p, view_app *a)
{
    size_t n;
    const size_t *order = ordered(a, p, &n);
    char *csv = breakdown_csv(a, order, n);
    if (!csv)
        return;
    if (SDL_SetClipboardText(csv) == 0)
        view_message(a, "copied the range's %zu values as CSV", n);
    else
        view_message(a, "cannot copy: %s", SDL_GetError());
    free(p->copied);
    p->copied = csv;
}

static void save_csv(breakdown_panel *p, view_app *a)
{
    size_t n;
    const size_t *order = ordered(a, p, &n);
    char *csv = breakdown_csv(a, order, n);
    if (!csv)
        return;
    const char *base = strrchr(a->opts.input, '/');
    base = base ? base + 1 : a->opts.input;
    char path[300];
    snprintf(path, sizeof path, "%s-range-%u.csv", strcmp(base, "-") ? base : "stdin",
             ++p->csv_count);
    FILE *f = fopen(path, "w");
    if (f && fputs(csv, f) >= 0 && fclose(f) == 0)
        view_message(a, "saved %s", path);
    else
        view_message(a, "cannot write %s", path);
    free(csv);
}

static void toggle(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    breakdown_panel *p = (breakdown_panel *)base;
    if (!a->has_range)
        view_message(a, "no range: Ctrl+drag on the timeline selects one");
    show(p, a, !p->shown);
}

/* Ctrl+C and e: the table as CSV, copied or saved; nothing while it is hidden. */
static void csv_key(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)mods;
    breakdown_panel *p = (breakdown_panel *)base;
    if (!shown(p, a))
        return;
    if (key == SDLK_c)
        copy_csv(p, a);
    else
        save_csv(p, a);
}

static const view_key keys[] = {
    {SDLK_b, VIEW_KEYS_PLAIN, "b: the range's breakdown per row (click a header to sort)", toggle},
    {SDLK_c, VIEW_KEYS_CTRL, "Ctrl+C: copy the breakdown as CSV    e: save it", csv_key},
    {SDLK_e, VIEW_KEYS_PLAIN, NULL, csv_key},
};

static int inside(const SDL_Rect *r, double x, double y)
{
    return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static const SDL_Rect *area(const breakdown_panel *p, const view_app *a, view_areas *ar)
{
    view_areas_of(a, ar);
    return view_panel_area(ar, &p->base);
}

static int press(view_panel *base, view_app *a, double x, double y, int button, int clicks)
{
    breakdown_panel *p = (breakdown_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    (void)clicks;
    if (!shown(p, a) || !inside(r, x, y))
        return 0;
    SDL_Rect cb = close_box(a, r);
    if (button == SDL_BUTTON_LEFT && inside(&cb, x, y)) {
        show(p, a, 0);
        return 1;
    }
    int hy = header_y(a, r);
    if (button == SDL_BUTTON_LEFT && y >= hy && y < hy + line_height(a)) {
        int col = 0;
        for (int c = 1; c < NCOLS; c++)
            if (x >= col_x(r, c, a) - scaled(a, 3))
                col = c;
        if (col == p->sort_col) {
            p->descending = !p->descending;
        } else { /* numbers: the largest first; names: a to z */
            p->sort_col = col;
            p->descending = col >= COL_TOTAL;
        }
        p->first = 0;
        view_message(a, "sorted by %s", col_names[col]);
    }
    view_dirty(a);
    return 1;
}

static int wheel(view_panel *base, view_app *a, double x, double y, double notches)
{
    breakdown_panel *p = (breakdown_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    if (!shown(p, a) || !inside(r, x, y))
        return 0;
    long first = (long)p->first - (long)lround(notches * WHEEL_LINES);
    p->first = first < 0 ? 0 : (size_t)first; /* the end is kept when drawing */
    view_dirty(a);
    return 1;
}

/* ---- JSON -------------------------------------------------------------------------- */

static void dump(view_panel *base, const view_app *a, cJSON *o)
{
    breakdown_panel *p = (breakdown_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    cJSON *j = cJSON_AddObjectToObject(o, "range_panel");
    cJSON_AddBoolToObject(j, "shown", shown(p, a));
    cJSON_AddStringToObject(j, "sort", col_names[p->sort_col]);
    cJSON_AddBoolToObject(j, "descending", p->descending);
    if (p->copied)
        cJSON_AddStringToObject(j, "copied", p->copied);
    if (!shown(p, a))
        return;
    double k = a->px_w > 0 ? (double)a->win_w / a->px_w : 1; /* pixels to window coordinates */
    cJSON *cols = cJSON_AddObjectToObject(j, "headers");
    for (int c = 0; c < NCOLS; c++) {
        cJSON *h = cJSON_AddObjectToObject(cols, col_names[c]);
        cJSON_AddNumberToObject(h, "x", (col_x(r, c, a) + scaled(a, 4)) * k);
        cJSON_AddNumberToObject(h, "y", (header_y(a, r) + line_height(a) / 2) * k);
    }
    SDL_Rect cb = close_box(a, r);
    cJSON *c = cJSON_AddObjectToObject(j, "close");
    cJSON_AddNumberToObject(c, "x", (cb.x + cb.w / 2) * k);
    cJSON_AddNumberToObject(c, "y", (cb.y + cb.h / 2) * k);
    cJSON_AddNumberToObject(j, "first", (double)p->first);
    cJSON_AddNumberToObject(j, "visible_lines", (double)visible_lines(a, r));
    size_t n;
    const size_t *order = ordered(a, p, &n);
    const breakdown_line *lines = breakdown_lines(a, &n);
    cJSON *shown_lines = cJSON_AddArrayToObject(j, "lines");
    for (size_t i = 0; i < n; i++) {
        cJSON *l = cJSON_CreateObject();
        cJSON_AddStringToObject(l, "row", lines[order[i]].name);
        cJSON_AddStringToObject(l, "value", lines[order[i]].e.value);
        cJSON_AddNumberToObject(l, "total", lines[order[i]].e.total);
        json_push(shown_lines, l);
    }
}

/* The session keeps the range, the sort and whether the panel was closed. */
static void save(view_panel *base, const view_app *a, cJSON *o)
{
    breakdown_panel *p = (breakdown_panel *)base;
    cJSON *j = cJSON_AddObjectToObject(o, "range_state");
    cJSON_AddBoolToObject(j, "shown", p->shown);
    cJSON_AddStringToObject(j, "sort", col_names[p->sort_col]);
    cJSON_AddBoolToObject(j, "descending", p->descending);
    if (a->has_range) {
        cJSON_AddNumberToObject(j, "t0", a->range0);
        cJSON_AddNumberToObject(j, "t1", a->range1);
    }
}

static void load(view_panel *base, view_app *a, const cJSON *o)
{
    breakdown_panel *p = (breakdown_panel *)base;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "range_state");
    if (!cJSON_IsObject(j))
        return;
    const cJSON *sort = cJSON_GetObjectItemCaseSensitive(j, "sort");
    for (int c = 0; c < NCOLS && cJSON_IsString(sort); c++)
        if (strcmp(sort->valuestring, col_names[c]) == 0)
            p->sort_col = c;
    p->descending = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "descending"));
    const cJSON *t0 = cJSON_GetObjectItemCaseSensitive(j, "t0");
    const cJSON *t1 = cJSON_GetObjectItemCaseSensitive(j, "t1");
    if (cJSON_IsNumber(t0) && cJSON_IsNumber(t1) && isfinite(t0->valuedouble) &&
        isfinite(t1->valuedouble) && t1->valuedouble > t0->valuedouble)
        range_set(a, t0->valuedouble, t1->valuedouble);
    p->shown = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "shown"));
    p->seen_range = a->range_gen; /* as it was: a closed panel stays closed */
}

static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v;
    if (layer == VIEW_LAYER_PANEL)
        draw_table((breakdown_panel *)base, a, view_panel_area(ar, base));
}

static int covers(view_panel *base, const view_app *a, double x, double y)
{
    breakdown_panel *p = (breakdown_panel *)base;
    view_areas ar;
    return shown(p, a) && inside(area(p, a, &ar), x, y);
}

view_panel *breakdown_panel_new(void)
{
    breakdown_panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->sort_col = COL_ROW;
    p->base = (view_panel){.name = "range", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press,
                           .wheel = wheel, .covers = covers, .strip_height = strip_height,
                           .save = save, .load = load, .dump = dump, .destroy = destroy};
    return &p->base;
}
