/*
 * panel_latency.c — the latency panel (p): the trace's instances
 * (view_instances, libtlv's tlv_instances) as a band along the bottom. On
 * the left, one line per actor, kind and name with its count and its
 * p50/p90/p99/max response times; a click on a line shows that actor. In
 * the middle, the actor's histogram of response times (on a log scale when
 * they span two decades or more, so that a few slow ones do not squash the
 * rest into one bar); a click on a bar lists its instances on the right; a
 * click on an instance selects it on the timeline (zoomed to it, its row in
 * sight, its first shape selected, so the details panel shows its
 * response, execution time and preemptions). Shift+P goes to the shown
 * actor's worst instance. The wheel scrolls the list under the pointer;
 * its x button closes it. Shown and the actor are kept in the session.
 */
#include "view/view.h"
#include "view/view_panels.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PANEL_LINES 12          /* the band's height in lines, at most */
#define BUCKETS 12
#define LOG_SPAN 100.0          /* max / min from which the histogram is on a log scale */
#define WHEEL_LINES 3
#define C_BG 0xFFFFFFu
#define C_HEAD 0xE8EEF0u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_BAR 0x1F8A8Au
#define C_BAR_SEL 0xFF7A00u
#define C_SEL 0xFFE2C4u

enum { COL_ACTOR, COL_KIND, COL_COUNT, COL_P50, COL_P90, COL_P99, COL_MAX, NCOLS };
static const char *const col_titles[NCOLS] = {"Actor", "Kind", "Count", "p50", "p90", "p99",
                                              "Max"};
/* Where each column starts, in thousandths of the list's width; in a narrow
 * list (a small window), p90 and p99 (-1) give their room to the others. */
static const int col_at[NCOLS] = {0, 190, 390, 460, 595, 730, 865};
static const int col_at_narrow[NCOLS] = {0, 235, 455, 590, -1, -1, 795};
#define NARROW_LIST 600         /* a list narrower (at scale 1) is narrow */

typedef struct latency_panel {
    view_panel base;            /* first: the hooks get &base */
    int shown;
    char res[160], kind[64], name[160]; /* the actor shown ("" res: the default) */
    int bucket;                 /* the bar whose instances are listed, or -1 */
    long selected;              /* the instance selected from the list, or -1 */
    size_t first_group, first_inst; /* the lists' top lines */
    /* the shown actor's histogram, for `of` and group `group` */
    const tlv_instances *of;
    size_t group;
    int log_scale;
    double edge[BUCKETS + 1];
    size_t count[BUCKETS];
    size_t *list;               /* the listed bar's instances, by start */
    size_t nlist, list_cap;
    int list_bucket;            /* the bar `list` is of */
} latency_panel;

static void destroy(view_panel *base)
{
    latency_panel *p = (latency_panel *)base;
    free(p->list);
    free(p);
}

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int line_height(const view_app *a) { return view_text_height(a->text) + scaled(a, 3); }

static int strip_height(view_panel *base, const view_app *a, int avail)
{
    if (!((latency_panel *)base)->shown)
        return 0;
    int h = PANEL_LINES * line_height(a) + scaled(a, 6);
    return h > avail * 2 / 5 ? avail * 2 / 5 : h;
}

/* ---- the actor and its histogram ----------------------------------------------------- */

/* The shown actor's group: the one named, else the first response group
 * with instances, else the first with any; (size_t)-1 when none. */
static size_t shown_group(latency_panel *p, const tlv_instances *in)
{
    size_t n = tlv_instances_group_count(in), g = (size_t)-1;
    if (p->res[0])
        g = tlv_instances_find_group(in, p->res, p->kind, p->name);
    for (size_t i = 0; i < n && g == (size_t)-1; i++) {
        tlv_instance_group x;
        tlv_instances_group(in, i, &x);
        if (x.count && strcmp(x.kind, "response") == 0)
            g = i;
    }
    for (size_t i = 0; i < n && g == (size_t)-1; i++) {
        tlv_instance_group x;
        tlv_instances_group(in, i, &x);
        if (x.count)
            g = i;
    }
    return g;
}

static void name_group(latency_panel *p, const tlv_instances *in, size_t g)
{
    tlv_instance_group x;
    tlv_instances_group(in, g, &x);
    snprintf(p->res, sizeof p->res, "%s", x.resource);
    snprintf(p->kind, sizeof p->kind, "%s", x.kind);
    snprintf(p->name, sizeof p->name, "%s", x.name);
}

/* Where a response time falls on the histogram's axis, 0 to 1. */
static double axis_of(const latency_panel *p, double v)
{
    double lo = p->edge[0], hi = p->edge[BUCKETS];
    if (hi <= lo)
        return 0;
    double f = p->log_scale ? log(v / lo) / log(hi / lo) : (v - lo) / (hi - lo);
    return f < 0 ? 0 : f > 1 ? 1 : f;
}

static int bucket_of(const latency_panel *p, double v)
{
    int b = (int)floor(axis_of(p, v) * BUCKETS);
    return b >= BUCKETS ? BUCKETS - 1 : b;
}

/* The bars of group g: BUCKETS equal steps from its min to its max, in
 * logarithms when the max is LOG_SPAN times the min or more. */
static void make_histogram(latency_panel *p, const tlv_instances *in, size_t g)
{
    tlv_instance_group x;
    tlv_instances_group(in, g, &x);
    p->of = in;
    p->group = g;
    p->list_bucket = -2; /* the list is made again */
    p->log_scale = x.count && x.min > 0 && x.max / x.min >= LOG_SPAN;
    for (int k = 0; k <= BUCKETS; k++)
        p->edge[k] = p->log_scale ? x.min * pow(x.max / x.min, (double)k / BUCKETS)
                                  : x.min + (x.max - x.min) * k / BUCKETS;
    p->edge[0] = x.min; /* exactly, whatever pow rounds */
    p->edge[BUCKETS] = x.max;
    memset(p->count, 0, sizeof p->count);
    for (size_t k = 0; k < x.count; k++) {
        tlv_instance i;
        tlv_instances_get(in, tlv_instances_group_member(in, g, k), &i);
        p->count[bucket_of(p, i.response)]++;
    }
}

/* The instances, the shown group and its histogram; NULL when there are none. */
static const tlv_instances *current(latency_panel *p, view_app *a)
{
    const tlv_instances *in = view_instances(a);
    if (!in)
        return NULL;
    size_t g = shown_group(p, in);
    if (g == (size_t)-1)
        return NULL;
    if (in != p->of || g != p->group)
        make_histogram(p, in, g);
    return in;
}

/* The listed bar's instances, by start. */
static void make_list(latency_panel *p, const tlv_instances *in)
{
    if (p->list_bucket == p->bucket)
        return;
    p->list_bucket = p->bucket;
    p->nlist = 0;
    tlv_instance_group x;
    tlv_instances_group(in, p->group, &x);
    for (size_t k = 0; k < x.count && p->bucket >= 0; k++) {
        size_t idx = tlv_instances_group_member(in, p->group, k);
        tlv_instance i;
        tlv_instances_get(in, idx, &i);
        if (bucket_of(p, i.response) != p->bucket)
            continue;
        if (view_grow((void **)&p->list, &p->list_cap, p->nlist + 1, sizeof *p->list) < 0)
            break;
        p->list[p->nlist++] = idx;
    }
}

/* ---- geometry ------------------------------------------------------------------------ */

typedef struct layout {
    SDL_Rect list, hist, inst;  /* the three columns, under the title line */
    SDL_Rect close;
    int title_y;
} layout;

static void layout_of(const view_app *a, const SDL_Rect *r, layout *l)
{
    int lh = line_height(a), top = r->y + scaled(a, 4) + lh;
    int h = r->y + r->h - top, lw = r->w * 46 / 100, hw = r->w * 30 / 100;
    l->title_y = r->y + scaled(a, 4);
    l->list = (SDL_Rect){r->x, top, lw, h};
    l->hist = (SDL_Rect){r->x + lw, top, hw, h};
    l->inst = (SDL_Rect){r->x + lw + hw, top, r->w - lw - hw, h};
    int s = lh - scaled(a, 2);
    l->close = (SDL_Rect){r->x + r->w - s - scaled(a, 4), l->title_y, s, s};
}

/* Column col's left edge, or -1 when the list is too narrow for it. */
static int col_x(const view_app *a, const SDL_Rect *r, int col)
{
    int at = r->w < scaled(a, NARROW_LIST) ? col_at_narrow[col] : col_at[col];
    return at < 0 ? -1 : r->x + scaled(a, 6) + (int)((long)(r->w - scaled(a, 12)) * at / 1000);
}

/* The right edge of column col's cell: the next shown column's left edge. */
static int col_right(const view_app *a, const SDL_Rect *r, int col)
{
    for (int c = col + 1; c < NCOLS; c++)
        if (col_x(a, r, c) >= 0)
            return col_x(a, r, c);
    return r->x + r->w;
}

/* Lines of a list column under its header line: how many fit, and line k's top. */
static size_t lines_in(const view_app *a, const SDL_Rect *r)
{
    int n = (r->h - line_height(a)) / line_height(a);
    return n > 0 ? (size_t)n : 0;
}

static int line_y(const view_app *a, const SDL_Rect *r, size_t k)
{
    return r->y + (int)(k + 1) * line_height(a);
}

/* Bar k of the histogram: the column under its header line, less a line
 * above for the tallest bar's count and one at the bottom for the axis'
 * labels. */
static SDL_Rect bar_rect(const latency_panel *p, const view_app *a, const SDL_Rect *h, int k)
{
    int lh = line_height(a), x0 = h->x + scaled(a, 10), w = h->w - scaled(a, 20);
    int top = h->y + 2 * lh, bottom = h->y + h->h - lh - scaled(a, 2);
    int bx = x0 + w * k / BUCKETS, bw = x0 + w * (k + 1) / BUCKETS - bx - scaled(a, 2);
    size_t most = 1;
    for (int i = 0; i < BUCKETS; i++)
        most = p->count[i] > most ? p->count[i] : most;
    int bh = (int)lround((double)(bottom - top) * (double)p->count[k] / (double)most);
    if (p->count[k] && bh < 2)
        bh = 2;
    return (SDL_Rect){bx, bottom - bh, bw > 1 ? bw : 1, bh};
}

/* The whole column of bar k (a click anywhere above its place picks it). */
static SDL_Rect bar_column(const latency_panel *p, const view_app *a, const SDL_Rect *h, int k)
{
    SDL_Rect b = bar_rect(p, a, h, k);
    int top = h->y + line_height(a);
    return (SDL_Rect){b.x, top, b.w, b.y + b.h - top};
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

static const char *kind_text(const tlv_instance_group *x, char *buf, size_t size)
{
    snprintf(buf, size, "%s%s%s", x->kind, x->name[0] ? " " : "", x->name);
    return buf;
}

static void draw_list(latency_panel *p, view_app *a, const tlv_instances *in, const SDL_Rect *r)
{
    int lh = line_height(a);
    view_fill(a, r->x, r->y, r->w, lh, C_HEAD, 255);
    for (int c = 0; c < NCOLS; c++)
        if (col_x(a, r, c) >= 0)
            text_in(a, col_titles[c], col_x(a, r, c), r->y + scaled(a, 1), col_right(a, r, c),
                    C_TEXT);
    size_t n = tlv_instances_group_count(in), vis = lines_in(a, r);
    if (p->first_group + vis > n)
        p->first_group = n > vis ? n - vis : 0;
    for (size_t k = 0; k < vis && p->first_group + k < n; k++) {
        size_t g = p->first_group + k;
        tlv_instance_group x;
        tlv_instances_group(in, g, &x);
        int y = line_y(a, r, k);
        if (g == p->group)
            view_fill(a, r->x, y, r->w, lh, C_SEL, 255);
        else if (k % 2)
            view_fill(a, r->x, y, r->w, lh, 0xF6F8F8, 255);
        for (int c = 0; c < NCOLS; c++) {
            if (col_x(a, r, c) < 0)
                continue;
            char cell[200];
            double v[] = {x.p50, x.p90, x.p99, x.max};
            if (c == COL_ACTOR)
                snprintf(cell, sizeof cell, "%s", x.label);
            else if (c == COL_KIND)
                kind_text(&x, cell, sizeof cell);
            else if (c == COL_COUNT)
                snprintf(cell, sizeof cell, "%zu", x.count);
            else if (!x.count)
                snprintf(cell, sizeof cell, "-");
            else
                view_time_text(a, v[c - COL_P50], 0, cell, sizeof cell);
            text_in(a, cell, col_x(a, r, c), y + scaled(a, 1), col_right(a, r, c),
                    x.count ? C_TEXT : C_DIM);
        }
    }
}

static void draw_histogram(latency_panel *p, view_app *a, const SDL_Rect *h)
{
    int lh = line_height(a), right = h->x + h->w;
    char lo[64], hi[64], head[200];
    view_fill(a, h->x, h->y, 1, h->h, C_HEAD, 255);
    view_fill(a, h->x, h->y, h->w, lh, C_HEAD, 255);
    snprintf(head, sizeof head, "Response times%s", p->log_scale ? " (log scale)" : "");
    text_in(a, head, h->x + scaled(a, 6), h->y + scaled(a, 1), right, C_TEXT);
    for (int k = 0; k < BUCKETS; k++) {
        SDL_Rect b = bar_rect(p, a, h, k);
        view_fill(a, b.x, b.y, b.w, b.h, k == p->bucket ? C_BAR_SEL : C_BAR, 255);
        if (p->count[k] && b.y - lh >= h->y + lh) { /* its count above it, when it fits */
            char n[32];
            snprintf(n, sizeof n, "%zu", p->count[k]);
            int tw = view_text_width(a->text, n);
            if (tw <= b.w + scaled(a, 2))
                view_text_draw(a->text, n, b.x + (b.w - tw) / 2, b.y - lh, C_DIM);
        }
    }
    SDL_Rect b0 = bar_rect(p, a, h, 0), bn = bar_rect(p, a, h, BUCKETS - 1);
    int axis_y = b0.y + b0.h;
    view_fill(a, b0.x, axis_y, bn.x + bn.w - b0.x, 1, C_BORDER, 255);
    view_time_text(a, p->edge[0], 0, lo, sizeof lo);
    view_time_text(a, p->edge[BUCKETS], 0, hi, sizeof hi);
    text_in(a, lo, b0.x, axis_y + scaled(a, 2), right, C_DIM);
    int hw = view_text_width(a->text, hi);
    if (bn.x + bn.w - hw > b0.x + view_text_width(a->text, lo) + scaled(a, 8))
        text_in(a, hi, bn.x + bn.w - hw, axis_y + scaled(a, 2), right + scaled(a, 4), C_DIM);
}

static void draw_instances(latency_panel *p, view_app *a, const tlv_instances *in,
                           const SDL_Rect *r)
{
    int lh = line_height(a), right = r->x + r->w;
    char head[300], lo[64], hi[64];
    view_fill(a, r->x, r->y, 1, r->h, C_HEAD, 255);
    view_fill(a, r->x, r->y, r->w, lh, C_HEAD, 255);
    if (p->bucket < 0) {
        text_in(a, "Instances: click a bar", r->x + scaled(a, 6), r->y + scaled(a, 1), right,
                C_TEXT);
        return;
    }
    make_list(p, in);
    snprintf(head, sizeof head, "%zu in %s .. %s", p->nlist,
             view_time_text(a, p->edge[p->bucket], 0, lo, sizeof lo),
             view_time_text(a, p->edge[p->bucket + 1], 0, hi, sizeof hi));
    text_in(a, head, r->x + scaled(a, 6), r->y + scaled(a, 1), right, C_TEXT);
    size_t vis = lines_in(a, r);
    if (p->first_inst + vis > p->nlist)
        p->first_inst = p->nlist > vis ? p->nlist - vis : 0;
    for (size_t k = 0; k < vis && p->first_inst + k < p->nlist; k++) {
        size_t idx = p->list[p->first_inst + k];
        tlv_instance i;
        tlv_instances_get(in, idx, &i);
        int y = line_y(a, r, k);
        if ((long)idx == p->selected)
            view_fill(a, r->x + 1, y, r->w - 1, lh, C_SEL, 255);
        char at[64], resp[64], line[200];
        snprintf(line, sizeof line, "at %s  %s",
                 view_time_at_text(a, tlv_time_to_double(i.start, a->radix), 0, at, sizeof at),
                 view_time_text(a, i.response, 0, resp, sizeof resp));
        text_in(a, line, r->x + scaled(a, 6), y + scaled(a, 1), right, 0x1F4FB4u);
    }
}

static void draw_band(latency_panel *p, view_app *a, const SDL_Rect *r)
{
    if (!p->shown || r->h <= 0)
        return;
    layout l;
    layout_of(a, r, &l);
    view_fill(a, r->x, r->y, r->w, r->h, C_BG, 255);
    view_fill(a, r->x, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    view_fill(a, l.close.x, l.close.y, l.close.w, l.close.h, 0xE0E0E0, 255);
    view_text_draw(a->text, "x", l.close.x + (l.close.w - view_text_width(a->text, "x")) / 2,
                   l.close.y, C_TEXT);
    const tlv_instances *in = current(p, a);
    char title[600];
    if (!in) {
        snprintf(title, sizeof title, "Latency (p)  %s", a->trace && view_instances(a)
                 ? "no instances in this trace" : "waiting for the trace");
        text_in(a, title, r->x + scaled(a, 6), l.title_y, l.close.x, C_DIM);
        return;
    }
    tlv_instance_group x;
    tlv_instances_group(in, p->group, &x);
    char kind[200], f[4][64];
    snprintf(title, sizeof title,
             "Latency (p)  %s %s: %zu instances%s  p50 %s  p90 %s  p99 %s  max %s   "
             "click a bar: its instances   Shift+P: the worst",
             x.label, kind_text(&x, kind, sizeof kind), x.count, x.partial ? " (and partial)" : "",
             view_time_text(a, x.p50, 0, f[0], sizeof f[0]),
             view_time_text(a, x.p90, 0, f[1], sizeof f[1]),
             view_time_text(a, x.p99, 0, f[2], sizeof f[2]),
             view_time_text(a, x.max, 0, f[3], sizeof f[3]));
    text_in(a, title, r->x + scaled(a, 6), l.title_y, l.close.x, C_DIM);
    draw_list(p, a, in, &l.list);
    draw_histogram(p, a, &l.hist);
    draw_instances(p, a, in, &l.inst);
}

static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v;
    if (layer == VIEW_LAYER_PANEL)
        draw_band((latency_panel *)base, a, view_panel_area(ar, base));
}

/* ---- selecting --------------------------------------------------------------------- */

/* Instance idx on the timeline: zoomed to it with a margin, its row in
 * sight, the shape that begins it selected (the details panel shows it). */
static void select_instance(latency_panel *p, view_app *a, const tlv_instances *in, size_t idx)
{
    tlv_instance i;
    tlv_instances_get(in, idx, &i);
    p->selected = (long)idx;
    double t0 = tlv_time_to_double(i.start, a->radix), t1 = tlv_time_to_double(i.end, a->radix);
    double pad = (t1 - t0) * 0.15 + (a->nav.trace_t1 - a->nav.trace_t0) * 1e-6;
    nav_begin(&a->nav, NAV_JUMP);
    nav_set(&a->nav, t0 - pad, t1 + pad);
    view_jumped(a, t0, (long)i.start_event);
    long row = view_resource_row(a, i.resource, i.start);
    if (row >= 0) {
        view_reveal_row(a, (size_t)row);
        view_select_shape(a, (size_t)row, i.start);
    }
    char resp[64];
    view_message(a, "%s %s%s%s instance at line %llu: %s", i.resource, i.kind, i.name[0] ? " " : "",
                 i.name, (unsigned long long)i.start_line,
                 view_time_text(a, i.response, 0, resp, sizeof resp));
    view_dirty(a);
}

static void show_group(latency_panel *p, view_app *a, const tlv_instances *in, size_t g)
{
    name_group(p, in, g);
    p->bucket = -1;
    p->first_inst = 0;
    p->selected = -1;
    current(p, a);
    view_dirty(a);
}

static void toggle(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    latency_panel *p = (latency_panel *)base;
    p->shown = !p->shown;
    view_dirty(a);
}

/* Shift+P: the shown actor's worst instance, its bar listed. */
static void worst(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    latency_panel *p = (latency_panel *)base;
    p->shown = 1;
    const tlv_instances *in = current(p, a);
    if (!in) {
        view_message(a, "no instances in this trace");
        return;
    }
    tlv_instance_group x;
    tlv_instances_group(in, p->group, &x);
    if (!x.count) {
        view_message(a, "%s %s: no whole instance", x.label, x.kind);
        return;
    }
    tlv_instance i;
    tlv_instances_get(in, x.worst, &i);
    p->bucket = bucket_of(p, i.response);
    p->first_inst = 0;
    make_list(p, in);
    for (size_t k = 0; k < p->nlist; k++)
        if (p->list[k] == x.worst)
            p->first_inst = k; /* scrolled back when drawn if past the end */
    select_instance(p, a, in, x.worst);
}

static const view_key keys[] = {
    {SDLK_p, VIEW_KEYS_PLAIN, "p: the latency panel (response-time histogram per actor)", toggle},
    {SDLK_p, VIEW_KEYS_SHIFT, "Shift+P: the shown actor's worst instance", worst},
};

/* ---- input ------------------------------------------------------------------------- */

static int inside(const SDL_Rect *r, double x, double y)
{
    return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static const SDL_Rect *area(const latency_panel *p, const view_app *a, view_areas *ar)
{
    view_areas_of(a, ar);
    return view_panel_area(ar, &p->base);
}

static void press_inside(latency_panel *p, view_app *a, const layout *l, double x, double y)
{
    const tlv_instances *in = current(p, a);
    if (!in)
        return;
    if (inside(&l->list, x, y) && y >= line_y(a, &l->list, 0)) {
        size_t g = p->first_group + (size_t)((y - line_y(a, &l->list, 0)) / line_height(a));
        if (g < tlv_instances_group_count(in))
            show_group(p, a, in, g);
        return;
    }
    for (int k = 0; k < BUCKETS && inside(&l->hist, x, y); k++) {
        SDL_Rect c = bar_column(p, a, &l->hist, k);
        if (inside(&c, x, y)) {
            p->bucket = p->count[k] ? k : -1;
            p->first_inst = 0;
            view_dirty(a);
        }
    }
    if (inside(&l->inst, x, y) && p->bucket >= 0 && y >= line_y(a, &l->inst, 0)) {
        make_list(p, in);
        size_t k = p->first_inst + (size_t)((y - line_y(a, &l->inst, 0)) / line_height(a));
        if (k < p->nlist)
            select_instance(p, a, in, p->list[k]);
    }
}

static int press(view_panel *base, view_app *a, double x, double y, int button, int clicks)
{
    latency_panel *p = (latency_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    (void)clicks;
    if (!p->shown || !inside(r, x, y))
        return 0;
    layout l;
    layout_of(a, r, &l);
    if (button != SDL_BUTTON_LEFT)
        return 1;
    if (inside(&l.close, x, y)) {
        p->shown = 0;
        view_dirty(a);
        return 1;
    }
    press_inside(p, a, &l, x, y);
    return 1;
}

static int wheel(view_panel *base, view_app *a, double x, double y, double notches)
{
    latency_panel *p = (latency_panel *)base;
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    if (!p->shown || !inside(r, x, y))
        return 0;
    layout l;
    layout_of(a, r, &l);
    size_t *first = inside(&l.inst, x, y) ? &p->first_inst : &p->first_group;
    long f = (long)*first - (long)lround(notches * WHEEL_LINES);
    *first = f < 0 ? 0 : (size_t)f; /* the end is kept when drawing */
    view_dirty(a);
    return 1;
}

static int covers(view_panel *base, const view_app *a, double x, double y)
{
    latency_panel *p = (latency_panel *)base;
    view_areas ar;
    return p->shown && inside(area(p, a, &ar), x, y);
}

static void note(view_panel *base, view_app *a, view_note what)
{
    (void)a;
    latency_panel *p = (latency_panel *)base;
    if (what == VIEW_NOTE_TRACE_CHANGED) { /* instances computed again: the bars too */
        p->of = NULL;
        p->selected = -1;
    }
}

/* ---- JSON -------------------------------------------------------------------------- */

static cJSON *at_json(cJSON *o, const view_app *a, SDL_Rect r)
{
    double k = a->px_w > 0 ? (double)a->win_w / a->px_w : 1; /* pixels to window coordinates */
    cJSON_AddNumberToObject(o, "x", (r.x + r.w / 2) * k);
    cJSON_AddNumberToObject(o, "y", (r.y + r.h / 2) * k);
    return o;
}

static void dump_group(cJSON *j, const tlv_instances *in, size_t g)
{
    tlv_instance_group x;
    tlv_instances_group(in, g, &x);
    cJSON_AddStringToObject(j, "resource", x.resource);
    cJSON_AddStringToObject(j, "kind", x.kind);
    cJSON_AddStringToObject(j, "name", x.name);
    cJSON_AddNumberToObject(j, "count", (double)x.count);
    cJSON_AddNumberToObject(j, "partial", (double)x.partial);
    if (!x.count)
        return;
    cJSON_AddNumberToObject(j, "p50", x.p50);
    cJSON_AddNumberToObject(j, "p90", x.p90);
    cJSON_AddNumberToObject(j, "p99", x.p99);
    cJSON_AddNumberToObject(j, "max", x.max);
    cJSON_AddNumberToObject(j, "worst", (double)x.worst);
}

static void dump_lists(latency_panel *p, view_app *a, const tlv_instances *in, const layout *l,
                       cJSON *j)
{
    cJSON *groups = cJSON_AddArrayToObject(j, "groups"); /* the lines in sight */
    size_t n = tlv_instances_group_count(in), vis = lines_in(a, &l->list);
    for (size_t k = 0; k < vis && p->first_group + k < n; k++) {
        cJSON *o = cJSON_CreateObject();
        dump_group(o, in, p->first_group + k);
        int y = line_y(a, &l->list, k);
        json_push(groups, at_json(o, a, (SDL_Rect){l->list.x, y, l->list.w / 4, line_height(a)}));
    }
    cJSON *bars = cJSON_AddArrayToObject(j, "buckets");
    for (int k = 0; k < BUCKETS; k++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "lo", p->edge[k]);
        cJSON_AddNumberToObject(o, "hi", p->edge[k + 1]);
        cJSON_AddNumberToObject(o, "count", (double)p->count[k]);
        json_push(bars, at_json(o, a, bar_column(p, a, &l->hist, k)));
    }
    cJSON *list = cJSON_AddArrayToObject(j, "instances"); /* the listed bar's, in sight */
    if (p->bucket >= 0)
        make_list(p, in);
    size_t ivis = lines_in(a, &l->inst);
    for (size_t k = 0; p->bucket >= 0 && k < ivis && p->first_inst + k < p->nlist; k++) {
        tlv_instance i;
        tlv_instances_get(in, p->list[p->first_inst + k], &i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "index", (double)p->list[p->first_inst + k]);
        cJSON_AddNumberToObject(o, "start", tlv_time_to_double(i.start, a->radix));
        cJSON_AddNumberToObject(o, "response", i.response);
        cJSON_AddNumberToObject(o, "start_line", (double)i.start_line);
        int y = line_y(a, &l->inst, k);
        json_push(list, at_json(o, a, (SDL_Rect){l->inst.x, y, l->inst.w / 2, line_height(a)}));
    }
    cJSON_AddNumberToObject(j, "listed", (double)p->nlist);
}

static void dump(view_panel *base, const view_app *ca, cJSON *o)
{
    latency_panel *p = (latency_panel *)base;
    view_app *a = (view_app *)ca; /* the instances are computed when first asked for */
    cJSON *j = cJSON_AddObjectToObject(o, "latency_panel");
    cJSON_AddBoolToObject(j, "shown", p->shown);
    view_areas ar;
    const SDL_Rect *r = area(p, a, &ar);
    layout l;
    layout_of(a, r, &l);
    at_json(cJSON_AddObjectToObject(j, "close"), a, l.close);
    const tlv_instances *in = p->shown ? current(p, a) : NULL;
    if (!in)
        return;
    dump_group(cJSON_AddObjectToObject(j, "group"), in, p->group);
    cJSON_AddBoolToObject(j, "log_scale", p->log_scale);
    cJSON_AddNumberToObject(j, "bucket", p->bucket);
    cJSON_AddNumberToObject(j, "selected", (double)p->selected);
    dump_lists(p, a, in, &l, j);
}

static void save(view_panel *base, const view_app *a, cJSON *o)
{
    (void)a;
    latency_panel *p = (latency_panel *)base;
    cJSON *j = cJSON_AddObjectToObject(o, "latency_state");
    cJSON_AddBoolToObject(j, "shown", p->shown);
    cJSON_AddStringToObject(j, "resource", p->res);
    cJSON_AddStringToObject(j, "kind", p->kind);
    cJSON_AddStringToObject(j, "name", p->name);
}

static void load_string(char *dst, size_t size, const cJSON *j, const char *key)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, key);
    if (cJSON_IsString(s))
        snprintf(dst, size, "%s", s->valuestring);
}

static void load(view_panel *base, view_app *a, const cJSON *o)
{
    (void)a;
    latency_panel *p = (latency_panel *)base;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "latency_state");
    if (!cJSON_IsObject(j))
        return;
    p->shown = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "shown"));
    load_string(p->res, sizeof p->res, j, "resource");
    load_string(p->kind, sizeof p->kind, j, "kind");
    load_string(p->name, sizeof p->name, j, "name");
    p->of = NULL;
}

view_panel *latency_panel_new(void)
{
    latency_panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->bucket = -1;
    p->selected = -1;
    p->list_bucket = -2;
    p->base = (view_panel){.name = "latency", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press, .wheel = wheel, .covers = covers,
                           .strip_height = strip_height, .note = note, .save = save,
                           .load = load, .dump = dump, .destroy = destroy};
    return &p->base;
}
