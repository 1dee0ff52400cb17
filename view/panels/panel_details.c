/*
 * panel_details.c — the selected shape and its details panel: a click on a
 * shape selects it (outlined on the timeline) and opens a column docked at
 * the right of the timeline with its row, rule and event, the value or
 * state it draws, start, end and duration, the standard-form events that
 * opened and closed it (a click on one centres the timeline and the
 * trace-log panel on it), and the flows into and out of it ("woken by
 * TASK2 at 1.2345 s"). The panel is docked over the bottom of the timeline
 * (it does not change the timeline's layout, so the second click of a
 * double click lands where it was aimed), or under the ruler when the
 * bottom would hide the selected shape's row: it never hides the
 * selection. `,` and `.` select the previous and next interval of the same
 * rule and event on the row; a click on empty space clears the selection;
 * `i` shows or hides the panel, its × closes it, its edge toward the rows
 * drags to resize it. Shown, height and selection are kept in the session.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEIGHT 150            /* default height at scale 1 */
#define MIN_HEIGHT 60
#define MAX_FLOWS 8           /* listed each way */
#define MAX_LINKS (2 + 2 * MAX_FLOWS)
#define BACK_SCAN 200000      /* flows looked at before a shape for the one into it */
#define C_PANEL 0xFAFAFAu
#define C_TITLE 0xE4E4E4u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x707070u
#define C_LINK 0x1F4FB4u
#define C_SELECT 0xFF7A00u

typedef struct flow_item {
    char resource[96], name[64];
    double time;
    size_t event;
    int before;               /* the last one into the row before the shape */
} flow_item;

/* A clickable line of the panel: a trace event to go to. */
typedef struct link {
    SDL_Rect r;
    size_t event;
} link;

typedef struct details_panel {
    view_panel base;
    int shown;                /* the panel is open (when something is selected) */
    int height;               /* at scale 1 */
    int resizing;             /* 1: by its top edge, 2: by its bottom edge (docked at the top) */
    int has_sel;
    view_hover sel;           /* the selected shape */
    char row_label[160], row_key[160];
    flow_item in[MAX_FLOWS], out[MAX_FLOWS];
    size_t nin, nout;
    /* a selection read from the session, found once the shapes are built */
    int pending;
    char want_key[160], want_rule[96], want_event[96];
    double want_from;
    link links[MAX_LINKS];
    size_t nlinks;
    SDL_Rect close;
    struct {                  /* log lines read for the events shown (view_log_line) */
        unsigned long long line; /* 0: none */
        int ok;
        char text[300];
    } raw[2];
} details_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int is_open(const details_panel *d) { return d->shown && d->has_sel; }

/* ---- the selection ----------------------------------------------------------------- */

static const char *row_key(const tlv_shapes *s, size_t row)
{
    tlv_row_info r;
    tlv_shapes_row(s, row, &r);
    return r.resource ? r.resource : r.label ? r.label : "";
}

typedef struct flow_scan {
    details_panel *d;
    const view_app *a;
} flow_scan;

static void add_flow(details_panel *d, const view_app *a, const tlv_flow_info *f, int into,
                     int before)
{
    flow_item *list = into ? d->in : d->out;
    size_t *n = into ? &d->nin : &d->nout;
    if (*n == MAX_FLOWS)
        return;
    flow_item *it = &list[(*n)++];
    snprintf(it->resource, sizeof it->resource, "%s", into ? f->from_resource : f->to_resource);
    snprintf(it->name, sizeof it->name, "%s", f->display_name);
    it->time = tlv_time_to_double(f->time, a->radix);
    it->event = f->event;
    it->before = before;
}

/* Whether flow f starts (end 0) or ends (end 1) on the selected shape's
 * resource, or its row when it has none. */
static int touches(const details_panel *d, const tlv_flow_info *f, int end)
{
    const char *res = end ? f->to_resource : f->from_resource;
    size_t row = end ? f->to_row : f->from_row;
    if (d->sel.resource[0] && !(row != TLV_NO_ROW && row == (size_t)d->sel.row &&
                                f->from_row == f->to_row))
        return strcmp(res, d->sel.resource) == 0;
    return row == (size_t)d->sel.row;
}

static int collect_flow(void *user, const tlv_flow_info *f)
{
    flow_scan *s = user;
    if (touches(s->d, f, 1))
        add_flow(s->d, s->a, f, 1, 0);
    if (touches(s->d, f, 0))
        add_flow(s->d, s->a, f, 0, 0);
    return 0;
}

/* The flows into and out of the selected shape during it; with none into
 * it, the last one into its resource before it (who activated the task
 * whose running box this is). */
static void find_flows(details_panel *d, const view_app *a)
{
    d->nin = d->nout = 0;
    if (!a->shapes)
        return;
    flow_scan s = {d, a};
    tlv_shapes_flows_query(a->shapes, d->sel.start, d->sel.end, collect_flow, &s);
    if (d->nin)
        return;
    size_t i = tlv_shapes_flow_seek(a->shapes, d->sel.start);
    for (size_t k = 0; i > 0 && k < BACK_SCAN; k++) {
        tlv_flow_info f;
        tlv_shapes_flow(a->shapes, --i, &f);
        if (touches(d, &f, 1) && !touches(d, &f, 0)) {
            add_flow(d, a, &f, 1, 1);
            return;
        }
    }
}

static void select_hover(details_panel *d, view_app *a, const view_hover *h)
{
    d->has_sel = 1;
    d->pending = 0;
    d->sel = *h;
    tlv_row_info r;
    tlv_shapes_row(a->shapes, (size_t)h->row, &r);
    snprintf(d->row_label, sizeof d->row_label, "%s", r.label ? r.label : "");
    snprintf(d->row_key, sizeof d->row_key, "%s", row_key(a->shapes, (size_t)h->row));
    find_flows(d, a);
    view_dirty(a);
}

static void clear(details_panel *d, view_app *a)
{
    d->has_sel = 0;
    d->nlinks = 0;
    view_dirty(a);
}

/* A shape as the hover sees it. */
static void hover_of(const view_app *a, long row, const tlv_shape_info *sh, view_hover *h)
{
    memset(h, 0, sizeof *h);
    h->valid = 1;
    h->row = row;
    snprintf(h->rule, sizeof h->rule, "%s", sh->rule ? sh->rule : "");
    snprintf(h->event, sizeof h->event, "%s", sh->event ? sh->event : "");
    snprintf(h->resource, sizeof h->resource, "%s", sh->resource ? sh->resource : "");
    snprintf(h->text, sizeof h->text, "%s", sh->text ? sh->text : "");
    snprintf(h->value, sizeof h->value, "%s", sh->value ? sh->value : "");
    h->from = tlv_time_to_double(sh->from, a->radix);
    h->to = tlv_time_to_double(sh->to, a->radix);
    h->start = sh->from;
    h->end = sh->to;
    h->from_event = sh->from_event;
    h->to_event = sh->to_event;
    h->is_when = sh->is_when;
    view_exact_text(a, sh->from, h->start_text, sizeof h->start_text);
    view_exact_text(a, sh->to, h->end_text, sizeof h->end_text);
}

/* Looking along a row for the shape of the selection's rule and event
 * nearest before (dir < 0) or after (dir > 0) it, or at `want_from`. */
typedef struct step_query {
    const view_app *a;
    const details_panel *d;
    int dir;
    int exact;                /* dir 0: the one starting at want */
    tlv_time want;
    tlv_shape_info best;
    int found;
} step_query;

static int same_kind(const step_query *q, const tlv_shape_info *sh)
{
    const char *rule = q->exact ? q->d->want_rule : q->d->sel.rule;
    const char *event = q->exact ? q->d->want_event : q->d->sel.event;
    return strcmp(sh->rule, rule) == 0 && strcmp(sh->event, event) == 0;
}

static int step_visit(void *user, const tlv_shape_info *sh)
{
    step_query *q = user;
    if (!same_kind(q, sh))
        return 0;
    int c = tlv_time_cmp(sh->from, q->want);
    int better;
    if (q->exact) { /* the session keeps the start as a double */
        double f = tlv_time_to_double(sh->from, q->a->radix), w = q->d->want_from;
        better = fabs(f - w) <= 1e-9 * fmax(1, fabs(w)) && (!q->found || sh->text == NULL);
    } else if (q->dir < 0)
        better = c < 0 && (!q->found || tlv_time_cmp(sh->from, q->best.from) > 0);
    else
        better = c > 0 && (!q->found || tlv_time_cmp(sh->from, q->best.from) < 0);
    if (better) {
        q->best = *sh;
        q->found = 1;
    }
    return 0;
}

static tlv_time time_of(double t)
{
    double r = floor(t);
    r = r < -9.2e18 ? -9.2e18 : r > 9.2e18 ? 9.2e18 : r;
    return (tlv_time){(int64_t)r, 0};
}

/* Searches row `row` in windows growing away from `want` (cheap when the
 * neighbour is near, whatever the row holds). */
static int step_search(step_query *q, size_t row)
{
    const view_app *a = q->a;
    double t = tlv_time_to_double(q->want, a->radix);
    double span = a->nav.trace_t1 - a->nav.trace_t0, w = fmax(span / 4096, 1e-9);
    for (;; w *= 4) {
        double lo = q->dir > 0 ? t : t - w, hi = q->dir < 0 ? t : t + w;
        if (q->exact)
            lo = t - 1, hi = t + 1;
        tlv_shapes_query(a->shapes, row, time_of(lo), time_of(hi + 1), step_visit, q);
        if (q->found || q->exact || (lo <= a->nav.trace_t0 && hi >= a->nav.trace_t1) ||
            w > 4 * span)
            return q->found;
    }
}

static void step(details_panel *d, view_app *a, int dir)
{
    if (!d->has_sel || !a->shapes)
        return;
    step_query q = {a, d, dir, 0, dir < 0 ? d->sel.start : d->sel.start, {0}, 0};
    if (!step_search(&q, (size_t)d->sel.row)) {
        view_message(a, dir < 0 ? "no earlier interval on this row" : "no later interval on this row");
        return;
    }
    view_hover h;
    hover_of(a, d->sel.row, &q.best, &h);
    select_hover(d, a, &h);
    double mid = (h.from + h.to) / 2;
    if (h.to < a->nav.t0 || h.from > a->nav.t1) { /* out of sight: bring it in */
        nav_begin(&a->nav, NAV_JUMP);
        nav_center(&a->nav, mid);
    }
}

/* After the shapes were rebuilt (or first built): find the selection again
 * by its row's name, rule, event and start, else drop it. */
static void refind(details_panel *d, view_app *a)
{
    if (!d->has_sel && !d->pending)
        return;
    if (d->has_sel) {
        snprintf(d->want_key, sizeof d->want_key, "%s", d->row_key);
        snprintf(d->want_rule, sizeof d->want_rule, "%s", d->sel.rule);
        snprintf(d->want_event, sizeof d->want_event, "%s", d->sel.event);
        d->want_from = d->sel.from;
    }
    d->has_sel = d->pending = 0;
    size_t n = a->shapes ? tlv_shapes_row_count(a->shapes) : 0;
    for (size_t row = 0; row < n; row++) {
        if (strcmp(row_key(a->shapes, row), d->want_key) != 0)
            continue;
        step_query q = {a, d, 0, 1, time_of(d->want_from), {0}, 0};
        if (step_search(&q, row)) {
            view_hover h;
            hover_of(a, (long)row, &q.best, &h);
            select_hover(d, a, &h);
            return;
        }
    }
}

/* ---- drawing ------------------------------------------------------------------------- */

/* The panel's height in pixels: its own, at most 2/3 of the timeline. */
static int panel_height(const details_panel *d, const view_app *a, const view_areas *ar)
{
    int h = scaled(a, d->height), max = (ar->main.h - ar->ruler_h) * 2 / 3;
    return h > max ? max : h;
}

/* The selected shape's band in window pixels [*y0, *y1), the part of it in
 * sight under the ruler; 0 when none of it is. */
static int selection_band(const details_panel *d, const view_app *a, const view_areas *ar,
                          int *y0, int *y1)
{
    tlv_view v;
    double y, h;
    if (!d->has_sel || !a->shapes)
        return 0;
    view_main_view(a, &v);
    if (!view_row_band(a, &v, (size_t)d->sel.row, &y, &h))
        return 0;
    double top = fmax(y, ar->ruler_h), bottom = fmin(y + h, ar->main.h);
    *y0 = ar->main.y + (int)floor(top);
    *y1 = ar->main.y + (int)ceil(bottom);
    return *y1 > *y0;
}

/* Docked over the bottom of the main view, its whole width — unless it
 * would hide the selected shape's row there (issue 11): then docked under
 * the ruler, or, when both would hide it, in the larger room above or
 * below the row. */
static SDL_Rect area(const details_panel *d, const view_app *a, const view_areas *ar)
{
    if (!is_open(d))
        return (SDL_Rect){0, 0, 0, 0};
    int h = panel_height(d, a, ar), top = ar->main.y + ar->ruler_h,
        bottom = ar->main.y + ar->main.h, y0, y1;
    SDL_Rect at_bottom = {ar->main.x, bottom - h, ar->main.w, h};
    if (!selection_band(d, a, ar, &y0, &y1) || y1 <= bottom - h)
        return at_bottom; /* no selection in sight, or it is above the panel */
    if (y0 >= top + h)
        return (SDL_Rect){ar->main.x, top, ar->main.w, h};
    int above = y0 - top, below = bottom - y1, min = scaled(a, MIN_HEIGHT) / 2;
    if (above >= below && above >= min)
        return (SDL_Rect){ar->main.x, top, ar->main.w, above};
    if (below >= min)
        return (SDL_Rect){ar->main.x, y1, ar->main.w, below};
    return at_bottom; /* a band as tall as the timeline: no room beside it */
}

/* The outline of the selected shape on the timeline. */
static void draw_outline(details_panel *d, view_app *a, const tlv_view *v, const view_areas *ar)
{
    double y, h;
    if (!d->has_sel || !view_row_band(a, v, (size_t)d->sel.row, &y, &h))
        return;
    double x0 = tlv_view_x(v, d->sel.from), x1 = tlv_view_x(v, d->sel.to);
    if (d->sel.is_when)
        x1 = x0 + scaled(a, 4), x0 -= scaled(a, 4);
    if (x1 < ar->label_w || x0 > v->width || y + h < ar->ruler_h || y > v->height)
        return;
    x0 = fmax(x0, ar->label_w - 2);
    x1 = fmin(x1, v->width + 2);
    int t = scaled(a, 2) > 1 ? scaled(a, 2) : 2;
    int ix = (int)floor(x0) - t, iy = (int)floor(y), iw = (int)ceil(x1 - x0) + 2 * t,
        ih = (int)ceil(h);
    SDL_Rect clip = {ar->label_w, ar->ruler_h, v->width - ar->label_w, v->height - ar->ruler_h};
    SDL_RenderSetClipRect(a->ren, &clip);
    view_fill(a, ix, iy, iw, t, C_SELECT, 255);
    view_fill(a, ix, iy + ih - t, iw, t, C_SELECT, 255);
    view_fill(a, ix, iy, t, ih, C_SELECT, 255);
    view_fill(a, ix + iw - t, iy, t, ih, C_SELECT, 255);
    SDL_RenderSetClipRect(a->ren, NULL);
}

typedef struct pen {
    view_app *a;
    const SDL_Rect *r;        /* the panel */
    int x, w, y, lh;          /* the column */
} pen;

/* One line of text, cut to the column's width; returns its rectangle. */
static SDL_Rect line(pen *p, const char *s, uint32_t rgb, int indent)
{
    SDL_Rect r = {p->x + scaled(p->a, 8) + indent, p->y, p->w - scaled(p->a, 16) - indent, p->lh};
    if (p->y + p->lh <= p->r->y + p->r->h) {
        SDL_Rect clip = r;
        SDL_RenderSetClipRect(p->a->ren, &clip);
        view_text_draw(p->a->text, s, r.x, r.y, rgb);
        SDL_RenderSetClipRect(p->a->ren, NULL);
    }
    p->y += p->lh;
    return r;
}

static void field(pen *p, const char *name, const char *value)
{
    char buf[1200];
    snprintf(buf, sizeof buf, "%s: %.1100s", name, value);
    line(p, buf, C_TEXT, 0);
}

static void add_link(details_panel *d, SDL_Rect r, size_t event)
{
    if (d->nlinks < MAX_LINKS)
        d->links[d->nlinks++] = (link){r, event};
}

/* Line `line` of the log as written, or NULL when it cannot be read again;
 * kept for the two events shown, so that a frame reads no file. */
static const char *raw_line(details_panel *d, const view_app *a, unsigned long long line)
{
    for (int k = 0; k < 2; k++)
        if (d->raw[k].line == line)
            return d->raw[k].ok ? d->raw[k].text : NULL;
    d->raw[1] = d->raw[0]; /* the older one goes */
    d->raw[0].line = line;
    d->raw[0].ok = view_log_line(a, line, d->raw[0].text, sizeof d->raw[0].text) == 0;
    return d->raw[0].ok ? d->raw[0].text : NULL;
}

static void event_lines(details_panel *d, pen *p, const char *what, size_t ev)
{
    view_app *a = p->a;
    if (ev == TLV_NO_EVENT || !a->trace || ev >= tlv_trace_event_count(a->trace)) {
        char buf[120];
        snprintf(buf, sizeof buf, "%s: %s", what,
                 strcmp(what, "opened by") == 0 ? "the initial value" : "(none: open to the end)");
        line(p, buf, C_DIM, 0);
        return;
    }
    tlv_event e;
    tlv_trace_event(a->trace, ev, &e);
    char head[120], text[300], std[300];
    tlv_event_format(&e, a->radix, std, sizeof std);
    /* The line as the log has it (when the log is not in standard form),
     * then the event it became (the link). */
    const char *raw = raw_line(d, a, (unsigned long long)e.input_line);
    snprintf(head, sizeof head, "%s: line %llu", what, (unsigned long long)e.input_line);
    line(p, head, C_TEXT, 0);
    if (raw && strcmp(raw, std) != 0)
        line(p, raw, C_DIM, scaled(a, 10));
    view_event_text(a, &e, text, sizeof text);
    add_link(d, line(p, text, C_LINK, scaled(a, 10)), ev);
}

static void flow_lines(details_panel *d, pen *p, int into)
{
    const flow_item *list = into ? d->in : d->out;
    size_t n = into ? d->nin : d->nout;
    for (size_t i = 0; i < n; i++) {
        char t[64], buf[2048];
        view_time_at_text(p->a, list[i].time, 0, t, sizeof t);
        if (into)
            snprintf(buf, sizeof buf, "%s %s at %s%s", list[i].name, list[i].resource, t,
                     list[i].before ? " (before)" : "");
        else
            snprintf(buf, sizeof buf, "-> %s at %s (%s)", list[i].resource, t, list[i].name);
        add_link(d, line(p, buf, C_LINK, 0), list[i].event);
    }
}

static void draw_panel(details_panel *d, view_app *a, const view_areas *ar)
{
    SDL_Rect area_r = area(d, a, ar);
    const SDL_Rect *r = &area_r;
    d->nlinks = 0;
    if (!is_open(d) || r->h <= 0)
        return;
    const view_hover *s = &d->sel;
    int lh = view_text_height(a->text) + scaled(a, 3), th = lh + scaled(a, 2);
    view_fill(a, r->x, r->y, r->w, r->h, C_PANEL, 255);
    view_fill(a, r->x, r->y, r->w, th, C_TITLE, 255);
    view_fill(a, r->x, r->y, r->w, 1, C_BORDER, 255);
    char buf[1024], dur[64];
    snprintf(buf, sizeof buf, "Details: %s%s%s%s  —  , and . previous/next on the row, i hides",
             d->row_label, strcmp(s->resource, d->row_label) && s->resource[0] ? " (" : "",
             strcmp(s->resource, d->row_label) ? s->resource : "",
             strcmp(s->resource, d->row_label) && s->resource[0] ? ")" : "");
    SDL_Rect tclip = {r->x, r->y, r->w - scaled(a, 30), th};
    SDL_RenderSetClipRect(a->ren, &tclip);
    view_text_draw(a->text, buf, r->x + scaled(a, 8), r->y + scaled(a, 2), C_TEXT);
    SDL_RenderSetClipRect(a->ren, NULL);
    int cw = view_text_width(a->text, "×") + scaled(a, 12);
    d->close = (SDL_Rect){r->x + r->w - cw, r->y, cw, th};
    view_text_draw(a->text, "×", d->close.x + scaled(a, 6), r->y + scaled(a, 2), C_TEXT);
    int col_w = r->w / 3;
    pen p = {a, r, r->x, col_w, r->y + th + scaled(a, 3), lh};
    snprintf(buf, sizeof buf, "%s / %s", s->rule, s->event);
    field(&p, "rule", buf);
    field(&p, "value", s->value[0] ? s->value : s->text[0] ? s->text : "(none)");
    field(&p, "start", s->start_text);
    const char *other = view_other_time(a, s->start, buf, sizeof buf); /* a clock's: both */
    if (other)
        field(&p, other, buf);
    field(&p, s->is_when ? "until" : "end", s->end_text);
    field(&p, s->is_when ? "to next" : "duration",
          view_time_text(a, s->to - s->from, 0, dur, sizeof dur));
    p = (pen){a, r, r->x + col_w, col_w, r->y + th + scaled(a, 3), lh};
    event_lines(d, &p, "opened by", s->from_event);
    if (!s->is_when)
        event_lines(d, &p, "closed by", s->to_event);
    p = (pen){a, r, r->x + 2 * col_w, r->w - 2 * col_w, r->y + th + scaled(a, 3), lh};
    line(&p, d->nin || d->nout ? "flows:" : "flows: none", d->nin || d->nout ? C_TEXT : C_DIM, 0);
    flow_lines(d, &p, 1);
    flow_lines(d, &p, 0);
    view_fill(a, r->x + col_w, r->y + th, 1, r->h - th, C_TITLE, 255);
    view_fill(a, r->x + 2 * col_w, r->y + th, 1, r->h - th, C_TITLE, 255);
}

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    details_panel *d = (details_panel *)p;
    if (layer == VIEW_LAYER_TIMELINE)
        draw_outline(d, a, v, ar);
    else if (layer == VIEW_LAYER_PANEL)
        draw_panel(d, a, ar);
}

/* ---- input -------------------------------------------------------------------------- */

static int inside(const SDL_Rect *r, double x, double y)
{
    return r->w > 0 && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static int press(view_panel *p, view_app *a, double x, double y, int button, int clicks)
{
    (void)clicks;
    details_panel *d = (details_panel *)p;
    view_areas ar;
    view_areas_of(a, &ar);
    SDL_Rect area_r = area(d, a, &ar);
    const SDL_Rect *r = &area_r;
    if (!is_open(d) || !inside(r, x, y))
        return 0;
    if (button != SDL_BUTTON_LEFT)
        return 1;
    int under_ruler = r->y == ar.main.y + ar.ruler_h; /* docked at the top: */
    if (under_ruler ? y >= r->y + r->h - scaled(a, 4) /* the edge toward the rows resizes */
                    : y < r->y + scaled(a, 4)) {
        d->resizing = under_ruler ? 2 : 1;
        return 1;
    }
    if (inside(&d->close, x, y)) {
        d->shown = 0;
        view_dirty(a);
        return 1;
    }
    for (size_t i = 0; i < d->nlinks; i++)
        if (inside(&d->links[i].r, x, y)) {
            view_show_event(a, d->links[i].event);
            return 1;
        }
    return 1;
}

static int covers(view_panel *p, const view_app *a, double x, double y)
{
    const details_panel *d = (const details_panel *)p;
    view_areas ar;
    view_areas_of(a, &ar);
    SDL_Rect r = area(d, a, &ar);
    return is_open(d) && inside(&r, x, y);
}

/* , and .: the previous and next interval on the selected shape's row. */
static void step_key(view_panel *p, view_app *a, SDL_Keycode k, int mods)
{
    (void)mods;
    details_panel *d = (details_panel *)p;
    if (!d->has_sel)
        view_message(a, "select a shape first (click it)");
    step(d, a, k == SDLK_COMMA ? -1 : 1);
}

static void toggle(view_panel *p, view_app *a, SDL_Keycode k, int mods)
{
    (void)k, (void)mods;
    details_panel *d = (details_panel *)p;
    d->shown = !d->shown;
    if (d->shown && !d->has_sel)
        view_message(a, "details: click a shape to select it");
    view_dirty(a);
}

static const view_key keys[] = {
    {0, 0, "click a shape: select it, details below (click an event line to go there)    "
           "click empty space: clear", NULL},
    {SDLK_COMMA, VIEW_KEYS_PLAIN | VIEW_KEYS_SHIFT,
     ", and .: previous/next interval on the selected shape's row", step_key},
    {SDLK_PERIOD, VIEW_KEYS_PLAIN | VIEW_KEYS_SHIFT, NULL, step_key},
    {SDLK_i, VIEW_KEYS_PLAIN | VIEW_KEYS_SHIFT, "i: details panel", toggle},
};

static void note(view_panel *p, view_app *a, view_note what)
{
    details_panel *d = (details_panel *)p;
    if (what == VIEW_NOTE_CLICK) {
        if (a->hover.valid) {
            select_hover(d, a, &a->hover);
            d->shown = 1;
        } else if (d->has_sel) {
            clear(d, a);
        }
    } else if (what == VIEW_NOTE_TRACE_CHANGED) {
        memset(d->raw, 0, sizeof d->raw); /* read again, or another log: its lines are others */
    } else if (what == VIEW_NOTE_ESCAPE && d->has_sel) {
        clear(d, a);
    } else if (what == VIEW_NOTE_SHAPES) {
        refind(d, a);
    } else if (what == VIEW_NOTE_RELEASE) {
        d->resizing = 0;
    } else if (what == VIEW_NOTE_POINTER && d->resizing) {
        view_areas ar;
        view_areas_of(a, &ar);
        double h = (d->resizing == 2 ? a->my - (ar.main.y + ar.ruler_h)
                                     : ar.main.y + ar.main.h - a->my) / a->scale;
        d->height = (int)fmax(MIN_HEIGHT, fmin(h, a->px_h / a->scale * 0.5));
        view_dirty(a);
    }
}

/* ---- JSON --------------------------------------------------------------------------- */

static void save(view_panel *p, const view_app *a, struct cJSON *o)
{
    (void)a;
    const details_panel *d = (const details_panel *)p;
    cJSON *j = cJSON_AddObjectToObject(o, "details_panel");
    cJSON_AddBoolToObject(j, "shown", d->shown);
    cJSON_AddNumberToObject(j, "height", d->height);
    if (d->has_sel) {
        cJSON *s = cJSON_AddObjectToObject(j, "selection");
        cJSON_AddStringToObject(s, "row", d->row_key);
        cJSON_AddStringToObject(s, "rule", d->sel.rule);
        cJSON_AddStringToObject(s, "event", d->sel.event);
        cJSON_AddNumberToObject(s, "from", d->sel.from);
    }
}

static void load(view_panel *p, view_app *a, const struct cJSON *o)
{
    details_panel *d = (details_panel *)p;
    const cJSON *j = cJSON_GetObjectItemCaseSensitive(o, "details_panel");
    if (!cJSON_IsObject(j))
        return;
    d->shown = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "shown"));
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(j, "height");
    if (cJSON_IsNumber(h) && h->valuedouble >= MIN_HEIGHT && h->valuedouble < 5000)
        d->height = (int)h->valuedouble;
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "selection");
    const cJSON *row = cJSON_GetObjectItemCaseSensitive(s, "row");
    const cJSON *rule = cJSON_GetObjectItemCaseSensitive(s, "rule");
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(s, "event");
    const cJSON *from = cJSON_GetObjectItemCaseSensitive(s, "from");
    if (cJSON_IsString(row) && cJSON_IsString(rule) && cJSON_IsString(ev) && cJSON_IsNumber(from)) {
        snprintf(d->want_key, sizeof d->want_key, "%s", row->valuestring);
        snprintf(d->want_rule, sizeof d->want_rule, "%s", rule->valuestring);
        snprintf(d->want_event, sizeof d->want_event, "%s", ev->valuestring);
        d->want_from = from->valuedouble;
        d->pending = 1;
        if (a->shapes)
            refind(d, a);
    }
}

static cJSON *event_json(const view_app *a, size_t ev)
{
    if (ev == TLV_NO_EVENT || !a->trace || ev >= tlv_trace_event_count(a->trace))
        return cJSON_CreateNull();
    tlv_event e;
    tlv_trace_event(a->trace, ev, &e);
    char text[1024];
    tlv_event_format(&e, a->radix, text, sizeof text);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "line", (double)e.input_line);
    char raw[300];
    if (view_log_line(a, e.input_line, raw, sizeof raw) == 0)
        cJSON_AddStringToObject(o, "log_text", raw); /* as the log has it */
    else
        cJSON_AddNullToObject(o, "log_text");
    cJSON_AddStringToObject(o, "text", text);
    cJSON_AddNumberToObject(o, "event", (double)ev);
    return o;
}

static cJSON *flows_json(const flow_item *list, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < n; i++) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "resource", list[i].resource);
        cJSON_AddNumberToObject(o, "time", list[i].time);
        cJSON_AddStringToObject(o, "name", list[i].name);
        cJSON_AddBoolToObject(o, "before", list[i].before);
        json_push(arr, o);
    }
    return arr;
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    const details_panel *d = (const details_panel *)p;
    if (!d->has_sel) {
        cJSON_AddNullToObject(o, "details");
    } else {
        const view_hover *s = &d->sel;
        char dur[64];
        cJSON *j = cJSON_AddObjectToObject(o, "details");
        cJSON_AddNumberToObject(j, "row", (double)s->row);
        cJSON_AddStringToObject(j, "row_label", d->row_label);
        if (s->resource[0])
            cJSON_AddStringToObject(j, "resource", s->resource);
        else
            cJSON_AddNullToObject(j, "resource");
        cJSON_AddStringToObject(j, "rule", s->rule);
        cJSON_AddStringToObject(j, "event", s->event);
        cJSON_AddStringToObject(j, "value", s->value[0] ? s->value : s->text);
        cJSON_AddNumberToObject(j, "start", s->from);
        cJSON_AddNumberToObject(j, "end", s->to);
        cJSON_AddNumberToObject(j, "duration", s->to - s->from);
        cJSON_AddStringToObject(j, "start_text", s->start_text);
        cJSON_AddStringToObject(j, "end_text", s->end_text);
        char other[128];
        const char *name = view_other_time(a, s->start, other, sizeof other);
        json_put(j, "start_other", name ? cJSON_CreateString(other) : cJSON_CreateNull());
        cJSON_AddStringToObject(j, "duration_text",
                                view_time_text(a, s->to - s->from, 0, dur, sizeof dur));
        cJSON_AddBoolToObject(j, "instant", s->is_when);
        json_put(j, "opened_by", event_json(a, s->from_event));
        json_put(j, "closed_by", event_json(a, s->to_event));
        json_put(j, "flows_in", flows_json(d->in, d->nin));
        json_put(j, "flows_out", flows_json(d->out, d->nout));
    }
    cJSON *panel = cJSON_AddObjectToObject(o, "details_panel");
    cJSON_AddBoolToObject(panel, "shown", is_open(d));
    view_areas ar;
    view_areas_of(a, &ar);
    SDL_Rect r = area(d, a, &ar);
    cJSON_AddNumberToObject(panel, "y", r.y);
    cJSON_AddNumberToObject(panel, "height", r.h);
    int y0, y1; /* where the selected shape's row is in sight, window pixels */
    if (d->has_sel && selection_band(d, a, &ar, &y0, &y1)) {
        cJSON *band = cJSON_AddObjectToObject(panel, "selection_band");
        cJSON_AddNumberToObject(band, "y", y0);
        cJSON_AddNumberToObject(band, "height", y1 - y0);
    } else {
        cJSON_AddNullToObject(panel, "selection_band");
    }
    cJSON *links = cJSON_AddArrayToObject(panel, "links"); /* as drawn last */
    for (size_t i = 0; i < d->nlinks; i++) {
        cJSON *l = cJSON_CreateObject();
        cJSON_AddNumberToObject(l, "x", d->links[i].r.x);
        cJSON_AddNumberToObject(l, "y", d->links[i].r.y);
        cJSON_AddNumberToObject(l, "w", d->links[i].r.w);
        cJSON_AddNumberToObject(l, "h", d->links[i].r.h);
        cJSON_AddNumberToObject(l, "event", (double)d->links[i].event);
        json_push(links, l);
    }
}

view_panel *details_panel_new(void)
{
    details_panel *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->height = HEIGHT;
    d->shown = 1;
    d->base = (view_panel){.name = "details", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press,
                           .covers = covers, .note = note,
                           .save = save, .load = load, .dump = dump};
    return &d->base;
}
