/*
 * render.c — drawing a view of the shapes (render.h): the layout of a view
 * (label column, time ruler, one band per row), the ruler's ticks and their
 * time text, the frame itself on any SDL_Renderer (render_frame, which the
 * interactive viewer calls on its window's renderer), and tlv_render_rgba,
 * which runs the same frame on a software renderer over the caller's pixels
 * — no window, no display, no SDL_Init.
 *
 * Rows with more shapes in view than about two per pixel column are drawn
 * from the store's per-column summary instead of shape by shape, so a frame
 * costs in proportion to its pixels.
 */
#include "base/abi.h"
#include "render/render_impl.h"


#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define COLOR_BACKGROUND 0xFFFFFFFFu
#define COLOR_BAND_ALT 0xFFF3F4F6u   /* every other row */
#define COLOR_SEPARATOR 0xFFDEDEDEu  /* between rows */
#define COLOR_GROUP_LINE 0xFFA8A8A8u /* above the first row of a group */
#define COLOR_GRID 0xFFEAEAEAu       /* at major ticks, behind shapes */
#define COLOR_BORDER 0xFF909090u     /* label column and ruler edges */
#define COLOR_RULER 0xFFF0F0F0u
#define COLOR_TICK 0xFF606060u
#define COLOR_RULER_TEXT 0xFF404040u
#define COLOR_LABEL 0xFF000000u
#define COLOR_GROUP 0xFF808080u
#define COLOR_REFERENCE 0xFFDDE3EBu  /* behind the ruler's reference time */

/* Font sizes in points; pixels = points * 96 / 72 at scale 1. */
#define PT_TO_PX (96.0f / 72.0f)
#define LABEL_PT 9.0f
#define RULER_PT 8.0f

/* Shapes reaching further than this beyond the view are cut to it, so that
 * float coordinates keep sub-pixel precision at any zoom. */
#define AREA_REACH 1e6

/* ---- layout ------------------------------------------------------------------- */

static float view_scale(const tlv_view *v) { return v->scale > 0 ? v->scale : 1.0f; }

/* The label column's width: the view's, or one that depends only on the
 * view's width (tlv_view_x must agree with the frame without fonts). */
static int view_label_w(const tlv_view *v)
{
    int w = v->label_width;
    if (w <= 0) {
        float s = view_scale(v);
        w = v->width / 6;
        w = w < (int)(60 * s) ? (int)(60 * s) : w > (int)(240 * s) ? (int)(240 * s) : w;
        w = w > v->width / 2 ? v->width / 2 : w;
    }
    return w >= v->width ? (v->width > 1 ? v->width - 1 : 0) : w;
}

void render_layout_of(const tlv_view *v, size_t nrows, render_layout *l)
{
    memset(l, 0, sizeof *l);
    l->width = v->width;
    l->height = v->height;
    l->scale = view_scale(v);
    l->label_w = view_label_w(v);
    l->ruler_h = v->ruler_height > 0 ? v->ruler_height : (int)lroundf(24 * l->scale);
    l->ruler_h = l->ruler_h > v->height ? v->height : l->ruler_h;
    l->rows = v->rows;
    l->shape_rows = nrows;
    l->nrows = nrows = v->rows ? v->row_count : nrows;
    int space = v->height - l->ruler_h;
    l->row_h = v->row_height > 0 ? v->row_height : nrows && space > 0 ? (double)space / (double)nrows : 1;
    l->first_row = v->first_row > 0 ? (size_t)v->first_row : 0;
    l->first_row = l->first_row > nrows ? nrows : l->first_row;
    double fit = space > 0 ? ceil(space / l->row_h) : 0;
    l->end_row = l->first_row + (fit < (double)nrows ? (size_t)fit : nrows);
    l->end_row = l->end_row > nrows ? nrows : l->end_row;
}

size_t render_row_id(const render_layout *l, size_t pos)
{
    if (pos >= l->nrows)
        return TLV_VIEW_ROW_BLANK;
    size_t row = l->rows ? l->rows[pos] : pos;
    return row < l->shape_rows ? row : TLV_VIEW_ROW_BLANK;
}

double render_row_top(const render_layout *l, size_t pos)
{
    return l->ruler_h + ((double)pos - (double)l->first_row) * l->row_h;
}

long render_row_at(const render_layout *l, double y)
{
    if (y < l->ruler_h || l->row_h <= 0)
        return -1;
    double r = floor((y - l->ruler_h) / l->row_h) + (double)l->first_row;
    return r < (double)l->nrows ? (long)r : -1;
}

static double timeline_w(const tlv_view *v)
{
    int w = v->width - view_label_w(v);
    return w > 1 ? w : 1;
}

/* The caller's view over a zeroed one, whatever its layout (abi.h). */
static tlv_view view_in(const tlv_view *v)
{
    tlv_view full;
    memset(&full, 0, sizeof full);
    abi_read_in(&full, sizeof full, v, ABI_VIEW_0_1);
    return full;
}

double tlv_view_x(const tlv_view *caller, double t)
{
    tlv_view view = view_in(caller), *v = &view;
    return view_label_w(v) + (t - v->t0) * timeline_w(v) / (v->t1 - v->t0);
}

double tlv_view_time(const tlv_view *caller, double x)
{
    tlv_view view = view_in(caller), *v = &view;
    return v->t0 + (x - view_label_w(v)) * (v->t1 - v->t0) / timeline_w(v);
}

static void layout_fill(const tlv_view *caller, const tlv_shapes *s, tlv_view_layout *out)
{
    tlv_view view = view_in(caller), *v = &view;
    render_layout l;
    render_layout_of(v, s ? s->nrows : 0, &l);
    out->label_width = l.label_w;
    out->ruler_height = l.ruler_h;
    out->row_height = l.row_h;
    out->row_count = l.nrows;
    out->first_row = l.first_row;
    out->end_row = l.end_row;
}

void tlv_view_get_layout_sized(const tlv_view *v, const tlv_shapes *s, tlv_view_layout *out,
                               size_t size)
{
    ABI_FILL_OUT(tlv_view_layout, layout_fill, out, size, v, s);
}

long tlv_view_row_at(const tlv_view *caller, const tlv_shapes *s, double y)
{
    tlv_view view = view_in(caller), *v = &view;
    render_layout l;
    render_layout_of(v, s ? s->nrows : 0, &l);
    long pos = render_row_at(&l, y);
    size_t row = pos < 0 ? TLV_VIEW_ROW_BLANK : render_row_id(&l, (size_t)pos);
    return row == TLV_VIEW_ROW_BLANK ? -1 : (long)row;
}

/* Pixels a label needs at LABEL_PT, guessed without fonts: about 7 px for
 * a Latin character and 12 for a wide one. */
static int guess_text_width(const char *s)
{
    int w = 0;
    for (; s && *s; s++)
        if (((unsigned char)*s & 0xC0) != 0x80)
            w += (unsigned char)*s < 0x80 ? 7 : 12;
    return w;
}

static void view_fit(const tlv_shapes *s, int width, int height, tlv_view *v)
{
    memset(v, 0, sizeof *v);
    v->struct_size = sizeof *v;
    v->width = width;
    v->height = height;
    v->scale = 1;
    if (!s) {
        v->t1 = 1;
        return;
    }
    v->t0 = tlv_time_to_double(s->start, s->radix);
    v->t1 = tlv_time_to_double(s->end, s->radix);
    if (!(v->t1 > v->t0))
        v->t1 = v->t0 + 1;
    int need = 60;
    for (size_t i = 0; i < s->nrows; i++) {
        int w = guess_text_width(s->rows[i].label) + 16;
        need = w > need ? w : need;
    }
    v->label_width = need > width / 3 ? width / 3 : need;
}

void tlv_view_fit_sized(tlv_view *v, size_t size, const tlv_shapes *s, int width, int height)
{
    ABI_FILL_OUT(tlv_view, view_fit, v, size, s, width, height);
    v->struct_size = size; /* it was filled with the library's own */
}

/* ---- time text ---------------------------------------------------------------- */

/* Decimals needed to tell apart values `step` apart (0..9). */
static int decimals_for(double step)
{
    if (!(step > 0))
        return 3;
    for (int d = 0; d < 9; d++) {
        double v = step * pow(10, d);
        if (fabs(v - round(v)) < 1e-6 * v)
            return d;
    }
    return 9;
}

/* Prints v with d decimals, trailing fraction zeros removed. */
static void print_number(char *out, size_t size, double v, int d)
{
    if (fabs(v) < 0.5 * pow(10, -d))
        v = 0; /* no "-0" */
    snprintf(out, size, "%.*f", d, v);
    char *dot = strchr(out, '.');
    if (!dot)
        return;
    char *end = out + strlen(out);
    while (end > dot + 1 && end[-1] == '0')
        *--end = '\0';
    if (end == dot + 1)
        *dot = '\0';
}

/* Seconds per unit for scales that are units of time, else 0. */
static double seconds_per(const char *unit)
{
    static const struct { const char *name; double s; } units[] = {
        {"s", 1}, {"sec", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6},
        {"\xCE\xBCs", 1e-6}, {"ns", 1e-9}, {"ps", 1e-12}, {"fs", 1e-15}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcmp(unit, units[i].name) == 0)
            return units[i].s;
    return 0;
}

char *render_format_time(double t, double step, const char *time_scale, char *out, size_t size)
{
    const char *scale = time_scale ? time_scale : "";
    char *end;
    double mult = strtod(scale, &end); /* a scale such as "10ns" */
    if (end == scale || !(mult > 0))
        mult = 1;
    else
        scale = end;
    while (*scale == ' ')
        scale++;
    double unit = seconds_per(scale), v = t * mult, st = step * mult;
    static const char *const si[] = {"f", "p", "n", "u", "m", ""}, *const big[] = {"", "k", "M", "G", "T"};
    char num[64];
    if (unit > 0) { /* SI: choose the prefix by magnitude, seconds at most */
        double sec = v * unit, mag = fabs(sec) > 0 ? fabs(sec) : st > 0 ? st * unit : unit;
        int k = 5;
        while (k > 0 && mag < pow(10, 3 * (k - 5)) * (1 - 1e-6))
            k--;
        double p = pow(10, 3 * (k - 5));
        print_number(num, sizeof num, sec / p, st > 0 ? decimals_for(st * unit / p) : 3);
        snprintf(out, size, "%s %ss", num, si[k]);
        return out;
    }
    int k = 0;
    while (k < 4 && fabs(v) >= pow(10, 3 * (k + 1)) * (1 - 1e-9))
        k++;
    double p = pow(10, 3 * k);
    print_number(num, sizeof num, v / p, st > 0 ? decimals_for(st / p) : 3);
    snprintf(out, size, "%s%s%s%s", num, big[k], *scale ? " " : "", scale);
    return out;
}

char *tlv_view_time_text(double t, double step, const char *time_scale, char *buf, size_t size)
{
    if (!buf || !size)
        return buf;
    return render_format_time(t, step, time_scale, buf, size);
}

/* ---- the frame ---------------------------------------------------------------- */

/* The ruler: ticks every `step` from `origin` (0, the trace's start for
 * times of a clock, or a relative axis' origin), read as times from the
 * origin or, zoomed in so deep that they would need more than 6 digits, as
 * offsets from a reference printed once ("1.5046198 s", then "+12.4 ns"). */
typedef struct ruler {
    double step;          /* major tick spacing in trace units */
    double origin;        /* 0, the trace's start, or the relative axis' origin */
    int offset;           /* tick texts are offsets from the reference */
    double kref;          /* the reference is kref * step from the origin */
    double ref_step;      /* its precision */
} ruler;

typedef struct frame {
    SDL_Renderer *ren;
    render_fonts *fonts;
    render_state *st;
    const struct tlv_shapes *s;
    const tlv_view *v;
    render_layout l;
    render_batch b;
    SDL_Rect timeline;    /* the shapes' clip rectangle */
    ruler ru;
    int *text_x;          /* direct target: per pixel row, the columns [x0, x1)
                             where SDL drew texts (2 ints a row), or NULL */
    render_rows rows;     /* summaries or shapes */
    double x_left, x_width; /* tlv_view_x's terms, worked out once a frame */
    render_labels *labels;  /* where the shapes' texts wait to be placed */
    size_t own0, own1;    /* the bands whose texts this frame (or part) collects */
    int failed;
} frame;

/* tlv_view_x(f->v, t), the same arithmetic, without copying the view in for
 * each of the many thousand shapes of a frame. */
static double frame_x(const frame *f, double t)
{
    return f->x_left + (t - f->v->t0) * f->x_width / (f->v->t1 - f->v->t0);
}

static frect box_of(double x, double y, double w, double h)
{
    frect r = {(float)x, (float)y, (float)w, (float)h};
    return r;
}

static text_style style_of(float pt, float scale, uint32_t argb, int h, int v)
{
    text_style st = {NULL, pt * PT_TO_PX * scale, 0, argb, {(uint8_t)h, (uint8_t)v}, 0};
    return st;
}

/* Remembers the pixels a text drawn in `box` within `clip` may touch, as a
 * span of columns per pixel row. Texts at a deep zoom sit in boxes as wide
 * as the view: there the text's own width is measured and placed as
 * render_text places it. */
static void note_text(frame *f, const char *text, const text_style *st, frect box,
                      const SDL_Rect *clip)
{
    SDL_Rect r = {(int)floorf(box.x) - 1, (int)floorf(box.y) - 1, (int)ceilf(box.w) + 3,
                  (int)ceilf(box.h) + 3}, all = {0, 0, f->v->width, f->v->height};
    if (!(fabsf(box.x) < 1e6f && fabsf(box.y) < 1e6f && box.w < 1e6f && box.h < 1e6f))
        r = all;
    int w = box.w > 64 ? render_text_width(f->fonts, text, st) : -1;
    if (w >= 0 && (float)w <= box.w) {
        float at = st->align.h == 0 ? box.x : st->align.h == 1 ? box.x + (box.w - (float)w) / 2
                                                               : box.x + box.w - (float)w;
        r.x = (int)floorf(at + 0.5f) - 1; /* render_text's placing, and a pixel more */
        r.w = w + 2;
    }
    /* Vertically a line of text is about 1.2 em (1.5 with CJK fonts): 2 em
     * and a margin bound it, placed in the box as render_text places it. */
    float em = st->px < 4 ? 4 : roundf(st->px), tall = 2 * em + 4;
    if (box.h > tall && box.h < 1e6f) {
        float top = st->align.v == 0 ? box.y : st->align.v == 1 ? box.y + (box.h - tall) / 2
                                                                : box.y + box.h - tall;
        r.y = (int)floorf(top) - 1;
        r.h = (int)ceilf(tall) + 3;
    }
    if (!SDL_IntersectRect(&r, &all, &r) || (clip && !SDL_IntersectRect(&r, clip, &r)))
        return;
    if (!f->text_x) {
        if (!(f->text_x = calloc(2 * (size_t)f->v->height, sizeof *f->text_x))) {
            f->failed = 1;
            return;
        }
    }
    for (int y = r.y; y < r.y + r.h; y++) {
        int *span = &f->text_x[2 * y];
        if (span[0] >= span[1]) { /* none yet */
            span[0] = r.x;
            span[1] = r.x + r.w;
        } else {
            span[0] = r.x < span[0] ? r.x : span[0];
            span[1] = r.x + r.w > span[1] ? r.x + r.w : span[1];
        }
    }
}

/* Flushes the shapes collected so far and draws a text over them; records
 * what was drawn as a text of `kind` (< 0: not recorded). Returns the
 * drawn text's width (0: nothing drawn). */
static int frame_text(frame *f, const char *text, const text_style *st, frect box,
                      const SDL_Rect *clip, int kind)
{
    if (!f->fonts || !text || !*text)
        return 0;
    batch_flush(&f->b);
    text_drawn d;
    render_text(f->fonts, text, st, box, clip, &d);
    if (f->b.direct) /* SDL's blending may leave its alpha below 255 */
        note_text(f, text, st, box, clip);
    if (d.text && kind >= 0 && texts_add(&f->st->texts, (text_kind)kind, d.text, d.at) < 0)
        f->failed = 1;
    return d.text ? d.at.w : 0;
}

static void draw_bands(frame *f)
{
    const render_layout *l = &f->l;
    for (size_t r = l->first_row; r < l->end_row; r++) {
        double top = render_row_top(l, r);
        if (r % 2)
            batch_rect(&f->b, box_of(0, top, l->width, l->row_h), COLOR_BAND_ALT);
        if (l->row_h >= 4)
            batch_rect(&f->b, box_of(0, floor(top + l->row_h) - 1, l->width, 1), COLOR_SEPARATOR);
    }
}

/* Nice spacing of ruler ticks: 1, 2 or 5 times a power of ten, at least
 * `raw`. */
static double nice_step(double raw)
{
    if (!(raw > 0) || !isfinite(raw))
        return 1;
    double p = pow(10, floor(log10(raw))), m = raw / p;
    return (m <= 1 + 1e-9 ? 1 : m <= 2 + 1e-9 ? 2 : m <= 5 + 1e-9 ? 5 : 10) * p;
}

/* Whether ticks `step` apart read as offsets from a reference: when plain
 * times would need more than 6 digits ("1.50461985 s"); then the reference
 * is the multiple of a power of ten 1000 steps long below the view's start,
 * so offsets keep 3 or 4 digits. */
static void ruler_mode(const tlv_view *v, ruler *r)
{
    double d0 = v->t0 - r->origin, d1 = v->t1 - r->origin;
    double mag = fabs(d0) > fabs(d1) ? fabs(d0) : fabs(d1);
    r->offset = mag / r->step >= 1e6;
    if (!r->offset)
        return;
    double e = floor(log10(r->step) + 1e-9);
    r->ref_step = pow(10, e + 3);
    r->kref = floor(d0 / r->ref_step) * round(r->ref_step / r->step);
}

/* The text of tick k (at origin + k * step). */
static void tick_text(const frame *f, double k, char *out, size_t size)
{
    const ruler *r = &f->ru;
    char num[64];
    double d = r->offset ? (k - r->kref) * r->step : k * r->step;
    render_format_time(d, r->step, f->s->time_scale, num, sizeof num);
    int plus = (r->offset || f->st->relative) && d > 0;
    snprintf(out, size, "%s%s", plus ? "+" : "", num);
}

/* The ruler's reference, printed once at its start: the time the ticks are
 * offsets from, and what a relative axis counts from. "" when none. */
static void reference_text(const frame *f, char *out, size_t size)
{
    const ruler *r = &f->ru;
    const render_state *st = f->st;
    char num[64];
    if (!r->offset) {
        if (st->relative)
            snprintf(out, size, "from %s", st->origin_name);
        else
            *out = '\0';
        return;
    }
    double d = r->kref * r->step;
    render_format_time(d, r->ref_step, f->s->time_scale, num, sizeof num);
    if (st->relative)
        snprintf(out, size, "%s %s%s", st->origin_name, d >= 0 ? "+" : "", num);
    else
        snprintf(out, size, "%s", num);
}

/* Where the ruler counts from without a relative axis: the trace's start
 * for times of a clock or the wall clock (tlv_shapes_time_mode), unless
 * absolute times were asked for; zero (times as they are) otherwise. */
static double trace_axis_origin(const frame *f)
{
    const struct tlv_shapes *s = f->s;
    if (f->st->absolute || (s->time_mode != TLV_TIME_CLOCK && s->time_mode != TLV_TIME_WALL))
        return 0;
    return tlv_time_to_double(s->start, s->radix);
}

/* Ruler spacing: about 100 px, widened until the widest tick text fits. */
static void choose_step(frame *f)
{
    const tlv_view *v = f->v;
    ruler *r = &f->ru;
    double px_per_unit = timeline_w(v) / (v->t1 - v->t0);
    r->origin = f->st->relative ? f->st->origin : trace_axis_origin(f);
    r->step = nice_step(100 * f->l.scale / px_per_unit);
    ruler_mode(v, r);
    text_style st = style_of(RULER_PT, f->l.scale, COLOR_RULER_TEXT, 0, 1);
    for (int i = 0; i < 8 && f->fonts; i++) {
        char a[80], b[80];
        tick_text(f, floor((v->t0 - r->origin) / r->step), a, sizeof a);
        tick_text(f, ceil((v->t1 - r->origin) / r->step), b, sizeof b);
        int wa = render_text_width(f->fonts, a, &st), wb = render_text_width(f->fonts, b, &st);
        int need = (wa > wb ? wa : wb) + (int)(12 * f->l.scale);
        if (need <= r->step * px_per_unit)
            break;
        r->step = nice_step(r->step * 1.5);
        ruler_mode(v, r);
    }
}

/* The times origin + k * step within the view: k0 and how many (bounded,
 * and counted with an integer, since k0 + 1 == k0 for huge k0). */
static long ticks_in_view(const tlv_view *v, double origin, double step, double *k0)
{
    *k0 = ceil((v->t0 - origin) / step);
    double n = floor((v->t1 - origin) / step) - *k0 + 1;
    return n < 0 ? 0 : n > 20000 ? 20000 : (long)n;
}

static void draw_grid(frame *f)
{
    const tlv_view *v = f->v;
    double k0;
    long n = ticks_in_view(v, f->ru.origin, f->ru.step, &k0);
    for (long i = 0; i < n; i++) {
        double x = floor(tlv_view_x(v, f->ru.origin + (k0 + (double)i) * f->ru.step));
        batch_rect(&f->b, box_of(x, f->l.ruler_h, 1, f->l.height - f->l.ruler_h), COLOR_GRID);
    }
}

/* ---- shapes ----------------------------------------------------------------- */

/* The exact time nearest below t, for store queries. */
static tlv_time time_of(double t, int radix)
{
    tlv_time r = {0, 0};
    double fl = floor(t);
    if (!(fl > -9.2e18))
        r.ticks = INT64_MIN;
    else if (!(fl < 9.2e18))
        r.ticks = INT64_MAX;
    else {
        r.ticks = (int64_t)fl;
        uint64_t scale = 1;
        while (radix >= 2 && scale <= (uint64_t)INT64_MAX / (uint64_t)radix)
            scale *= (uint64_t)radix; /* the fraction scale of tlv_time (tlv.h) */
        double frac = (t - fl) * (double)scale;
        r.frac = frac >= (double)scale ? scale - 1 : frac > 0 ? (uint64_t)frac : 0;
    }
    return r;
}

typedef struct row_ctx {
    frame *f;
    size_t pos;           /* the band's position in the view's list */
    double top;
} row_ctx;

static double clamp_x(const frame *f, double x)
{
    double lo = -AREA_REACH, hi = f->l.width + AREA_REACH;
    return x < lo ? lo : x > hi ? hi : x;
}

/* A text primitive waits until every shape is drawn: render_labels.c
 * places the frame's texts so that none is drawn over another. */
static void add_text_prim(frame *f, size_t pos, const prim *p, frect area, double length,
                          int instant)
{
    frect box = prim_box(p, area);
    const SDL_Rect *c = &f->timeline;
    if (!f->fonts || !p->text || !*p->text || box.w < 2 || box.x > c->x + c->w ||
        box.x + box.w < c->x || pos < f->own0 || pos >= f->own1)
        return; /* nothing to draw, out of view, or another part's band */
    const render_state *st = f->st;
    double top = area.y, bottom = area.y + f->l.row_h;
    label_cand cand = {p, box, (float)top, (float)f->l.row_h, length,
                       st->has_focus && st->focus_x >= area.x && st->focus_x < area.x + area.w &&
                           st->focus_y >= top && st->focus_y < bottom, 0,
                       instant ? (float)area.x : NAN};
    if (labels_add(f->labels, &cand) < 0)
        f->failed = 1;
}

/* Whether sh was drawn for a When event: viz_when.c's sorted keys (rule
 * name << 32 | event name), looked up here, since libtlv-render reads the
 * shapes' layout but calls none of libtlv's internal functions. */
static int drawn_for_when(const struct tlv_shapes *s, const shape *sh)
{
    uint64_t key = (uint64_t)sh->rule << 32 | sh->event;
    size_t lo = 0, hi = s->nwhen;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->when_keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nwhen && s->when_keys[lo] == key;
}

static int draw_shape(void *ctx, const shape *sh, size_t pos)
{
    (void)pos;
    row_ctx *rc = ctx;
    frame *f = rc->f;
    const struct tlv_shapes *s = f->s;
    if (sh->prim >= s->nprims)
        return 0;
    double t0 = tlv_time_to_double(sh->from, s->radix), t1 = tlv_time_to_double(sh->to, s->radix);
    double x0 = clamp_x(f, frame_x(f, t0)), x1 = clamp_x(f, frame_x(f, t1));
    frect area = box_of(x0, rc->top, x1 - x0, f->l.row_h);
    const prim *p = &s->prims[sh->prim];
    if (p->type == PRIM_TEXT) /* a When shape's text happened at its start, whatever its span */
        add_text_prim(f, rc->pos, p, area, t1 - t0, t1 == t0 || drawn_for_when(s, sh));
    else
        draw_prim(&f->b, p, area, f->l.scale);
    return 0;
}

/* labels_place's drawing: a text where it was placed. */
static void draw_placed_label(void *ctx, const char *text, const text_style *st, SDL_Rect at)
{
    frame *f = ctx;
    batch_flush(&f->b);
    render_text_at(f->fonts, text, st, at.x, at.y, &f->timeline);
    frect box = box_of(at.x, at.y, at.w, at.h);
    if (f->b.direct)
        note_text(f, text, st, box, &f->timeline);
    if (texts_add(&f->st->texts, TEXT_LABEL, text, at) < 0)
        f->failed = 1;
}

/* A zoomed-out row, drawn from summaries: each look of the row (a colour in
 * a band of it, summary.h) where it paints, in drawing order. */
static void draw_summary(frame *f, uint32_t row, double top)
{
    const struct tlv_shapes *s = f->s;
    const summary_looks *sl = &s->looks;
    if (row >= sl->nrows || sl->row_first[row] == sl->row_first[row + 1])
        return;
    size_t n = (size_t)f->timeline.w, nl = sl->row_first[row + 1] - sl->row_first[row];
    uint32_t *looks = malloc(n * nl * sizeof *looks);
    column_layer *layers = malloc(nl * sizeof *layers);
    if (!looks || !layers) {
        f->failed = 1;
        nl = 0;
    }
    for (size_t k = 0; k < nl; k++) {
        uint32_t layer = sl->row_first[row] + (uint32_t)k, look = sl->layer_look[layer];
        double y0, y1;
        summary_band(sl, s->prims, look, top, f->l.row_h, f->l.scale, &y0, &y1);
        store_summary(sl->layers, layer, f->v->t0, f->v->t1, s->radix, looks + k * n, n);
        layers[k] = (column_layer){summary_color(sl, look), (float)y0, (float)y1, looks + k * n};
    }
    if (nl)
        batch_layers(&f->b, f->timeline.x, layers, nl, n);
    free(looks);
    free(layers);
}

/* A dense row drawn from summaries still gets the texts of its shapes at
 * least this wide (in pixels at scale 1): narrower ones cannot show two
 * characters and an ellipsis (render_labels.c), however sparse the row. */
#define MIN_TEXT_BOX_PX 8

/* A visible band with shapes, as planned before drawing: how its row is
 * drawn (from summaries, or shape by shape) and what that costs. */
typedef struct band_plan {
    size_t pos;           /* position in the view's list */
    uint32_t row;
    double top;
    int dense;            /* drawn from summaries */
    double cost;          /* a guess, in shapes drawn one by one */
} band_plan;

/* One band's row. The batch is flushed first, so each row's triangles make
 * batches of their own (SDL pairs triangles into rectangles within one
 * batch): whichever part of the frame draws a row draws the same pixels. */
static void draw_band(frame *f, const band_plan *b, tlv_time q0, tlv_time q1)
{
    batch_flush(&f->b);
    row_ctx rc = {f, b->pos, b->top};
    if (b->dense) {
        draw_summary(f, b->row, b->top);
        summary_texts_query(&f->s->looks.texts, f->s->store, f->s->radix, b->row,
                            tlv_time_to_double(q0, f->s->radix), tlv_time_to_double(q1, f->s->radix),
                            MIN_TEXT_BOX_PX * f->l.scale * (f->v->t1 - f->v->t0) / f->timeline.w,
                            draw_shape, &rc);
    } else {
        store_query(f->s->store, b->row, q0, q1, draw_shape, &rc);
    }
}

/* How far beyond its band anything a row draws (not its texts) may reach,
 * up and down, in pixels: the primitives' boxes and points against a band
 * at y = 0, their pens (a mitre reaches 4 half widths) and arrow heads,
 * and a margin for rounding. The vertical geometry of a primitive does not
 * depend on the shape's times. Returns 0, or -1 when some reach is not
 * finite. */
static int rows_reach(const frame *f, double *up, double *down)
{
    const struct tlv_shapes *s = f->s;
    const summary_looks *sl = &s->looks;
    double h = f->l.row_h, lo = 0, hi = h;
    frect area = {0, 0, 100, (float)h};
    /* one primitive of each vertical geometry when the build found them */
    size_t n = sl->has_reach ? sl->nreach : s->nprims;
    for (size_t i = 0; i < n; i++) {
        const prim *p = &s->prims[sl->has_reach ? sl->reach_prim[i] : i];
        if (p->type == PRIM_TEXT)
            continue;
        frect box = prim_box(p, area);
        double y0 = fmin(box.y, (double)box.y + box.h), y1 = fmax(box.y, (double)box.y + box.h);
        for (size_t k = 0; k < p->npoints; k++) {
            float x, y;
            prim_point(p, k, box, &x, &y);
            y0 = fmin(y0, y);
            y1 = fmax(y1, y);
        }
        double w = p->pen_width * (f->l.scale > 0 ? f->l.scale : 1), pen = 0;
        if (p->has_pen || p->type == PRIM_LINE || p->type == PRIM_ARROW)
            pen = 2 * (w > 1 ? w : 1) + (2 * w > 5 ? 2 * w : 5);
        if (!isfinite(y0) || !isfinite(y1) || !isfinite(pen))
            return -1;
        lo = fmin(lo, y0 - pen);
        hi = fmax(hi, y1 + pen);
    }
    *up = -lo + 2;
    *down = hi - h + 2;
    return 0;
}

/* The bands whose row may draw into pixel rows [y0, y1). */
static int band_reaches(const frame *f, const band_plan *b, double up, double down, int y0, int y1)
{
    return b->top - up < y1 + 1 && b->top + f->l.row_h + down > y0 - 1;
}

/* A part of the frame drawn by one thread: the pixel rows [y0, y1) of the
 * timeline, every band whose row may reach them drawn clipped to them (the
 * batch's bounds stay the timeline's, so triangles are cut as the whole
 * frame cuts them), and the texts of bands [own0, own1) collected. */
typedef struct shapes_part {
    frame f;              /* the frame's copy: a batch, clip, labels of its own */
    render_labels labels;
    const band_plan *plan;
    size_t nplan;
    double up, down;
    tlv_time q0, q1;
    int y0, y1;
    int alloc_failed;     /* an allocation of the part's thread failed */
} shapes_part;

static void *draw_part(void *arg)
{
    shapes_part *p = arg;
    unsigned long failures = alloc_failures();
    for (size_t i = 0; i < p->nplan; i++)
        if (band_reaches(&p->f, &p->plan[i], p->up, p->down, p->y0, p->y1))
            draw_band(&p->f, &p->plan[i], p->q0, p->q1);
    batch_flush(&p->f.b);
    p->alloc_failed = alloc_failures() != failures;
    return NULL;
}

/* The second thread: named for the tests' fault injection
 * (TLV_FAULT_INJECT_THREAD=tlv-draw, alloc.h). */
static void *draw_second_part(void *arg)
{
    alloc_name_thread("tlv-draw");
    return draw_part(arg);
}

static void part_init(shapes_part *p, const frame *f, const band_plan *plan, size_t nplan,
                      tlv_time q0, tlv_time q1, int y0, int y1, size_t own0, size_t own1)
{
    memset(p, 0, sizeof *p);
    p->f = *f;
    p->f.labels = &p->labels;
    p->f.own0 = own0;
    p->f.own1 = own1;
    p->f.failed = 0;
    p->f.text_x = NULL;
    batch_init(&p->f.b, NULL, f->b.bounds); /* no SDL call off the frame's thread */
    p->f.b.direct = f->b.direct;
    p->f.b.plain = f->b.plain;
    p->f.b.clip = (SDL_Rect){f->timeline.x, y0, f->timeline.w, y1 - y0};
    p->f.b.has_clip = 1;
    p->plan = plan;
    p->nplan = nplan;
    p->q0 = q0;
    p->q1 = q1;
    p->y0 = y0;
    p->y1 = y1;
}

/* The band where the guessed cost of the bands above reaches half. */
static size_t balanced_split(const band_plan *plan, size_t n)
{
    double total = 0, sum = 0;
    for (size_t i = 0; i < n; i++)
        total += plan[i].cost;
    size_t k = 0;
    while (k + 1 < n && sum + plan[k].cost / 2 < total / 2)
        sum += plan[k++].cost;
    return k ? k : 1;
}

/* The bands drawn on two threads: this one draws the pixel rows above the
 * top of the band where the work splits in half, a second thread those
 * below, each band's pixels in the same order as one thread would. Returns
 * 0, or -1 when no thread could be started (nothing drawn). */
static int draw_bands_split(frame *f, const band_plan *plan, size_t n, tlv_time q0, tlv_time q1)
{
    double up, down;
    if (n < 2 || rows_reach(f, &up, &down) < 0)
        return -1;
    size_t k = balanced_split(plan, n);
    int top = f->timeline.y, bottom = f->timeline.y + f->timeline.h;
    int y = (int)ceil(plan[k].top);
    if (y <= top || y >= bottom)
        return -1;
    shapes_part part[2];
    part_init(&part[0], f, plan, n, q0, q1, top, y, 0, plan[k].pos);
    part_init(&part[1], f, plan, n, q0, q1, y, bottom, plan[k].pos, SIZE_MAX);
    for (int i = 0; i < 2; i++) {
        part[i].up = up;
        part[i].down = down;
    }
    batch_flush(&f->b);
    pthread_t second;
    if (pthread_create(&second, NULL, draw_second_part, &part[1]) != 0) {
        batch_free(&part[0].f.b);
        batch_free(&part[1].f.b);
        return -1;
    }
    draw_part(&part[0]);
    pthread_join(second, NULL);
    for (int i = 0; i < 2; i++) { /* the texts in the order one thread collects them */
        for (size_t j = 0; j < part[i].labels.n; j++)
            if (labels_add(f->labels, &part[i].labels.c[j]) < 0)
                f->failed = 1;
        f->failed |= part[i].f.failed | part[i].f.b.failed;
        if (i == 1 && part[i].alloc_failed) /* the calling thread's count tells (alloc.h) */
            alloc_note_failure();
        batch_free(&part[i].f.b);
        labels_free(&part[i].labels);
    }
    return 0;
}

/* Threads for the shapes: the state's choice, or 2 on a machine with more
 * than one core. */
static int shape_threads(render_state *st)
{
    if (st->threads > 0)
        return st->threads;
    if (!st->cpus) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        st->cpus = n > 0 ? (int)n : 1;
#ifdef TLV_FAULT_INJECTION
        /* a sweep failing the N-th allocation of the process needs the
         * allocations in one order; TLV_FAULT_INJECT_THREAD=tlv-draw sweeps
         * the second thread's */
        const char *at = getenv("TLV_FAULT_INJECT"), *thread = getenv("TLV_FAULT_INJECT_THREAD");
        if (at && strtoul(at, NULL, 10) > 0 && !(thread && *thread))
            st->cpus = 1;
#endif
    }
    return st->cpus > 1 ? 2 : 1;
}

static void draw_shapes(frame *f)
{
    const struct tlv_shapes *s = f->s;
    if (!s->store || f->timeline.w <= 0 || f->timeline.h <= 0)
        return;
    /* a little beyond the edges, for pens and arrow heads that stick out */
    tlv_time q0 = time_of(tlv_view_time(f->v, f->timeline.x - 2), s->radix);
    tlv_time q1 = time_of(tlv_view_time(f->v, f->timeline.x + f->timeline.w + 2), s->radix);
    q1.ticks = q1.ticks < INT64_MAX ? q1.ticks + (q1.frac > 0) : q1.ticks;
    q1.frac = 0;
    uint32_t nstore = store_rows(s->store);
    size_t nbands = f->l.end_row - f->l.first_row, n = 0;
    band_plan local[64], *plan = nbands <= 64 ? local : malloc(nbands * sizeof *plan);
    if (!plan) {
        f->failed = 1;
        return;
    }
    for (size_t pos = f->l.first_row; pos < f->l.end_row; pos++) {
        size_t r = render_row_id(&f->l, pos);
        if (r >= nstore) /* blank, or a row without shapes */
            continue;
        size_t count = store_count_overlapping(s->store, (uint32_t)r, q0, q1);
        int dense = f->rows == RENDER_ROWS_AUTO ? count > 2 * (size_t)f->timeline.w
                                                : f->rows == RENDER_ROWS_SUMMARY;
        /* a summary row costs about as much as a row of a shape a column */
        if (count)
            plan[n++] = (band_plan){pos, (uint32_t)r, render_row_top(&f->l, pos), dense,
                                    dense ? (double)f->timeline.w : (double)count};
    }
    f->st->drew_on = 2;
    if (!f->b.direct || shape_threads(f->st) < 2 || draw_bands_split(f, plan, n, q0, q1) < 0) {
        f->st->drew_on = 1;
        for (size_t i = 0; i < n; i++)
            draw_band(f, &plan[i], q0, q1);
    }
    if (plan != local)
        free(plan);
}

/* ---- labels and ruler ---------------------------------------------------------- */

/* Whether the band at position `pos` starts a group: its group differs from
 * the band above it (a blank band has none). */
static int group_starts(const struct tlv_shapes *s, const render_layout *l, size_t pos)
{
    size_t r = render_row_id(l, pos);
    if (r == TLV_VIEW_ROW_BLANK)
        return 0;
    const char *g = s->rows[r].group;
    if (!g || !*g || (s->rows[r].label && strcmp(g, s->rows[r].label) == 0))
        return 0;
    size_t above = pos > l->first_row ? render_row_id(l, pos - 1) : TLV_VIEW_ROW_BLANK;
    return above == TLV_VIEW_ROW_BLANK || !s->rows[above].group ||
           strcmp(g, s->rows[above].group) != 0;
}

/* One row's label: the display name, and the group's name in grey where a
 * new group starts — above the label when the band has room for two lines,
 * else before it. */
static void draw_label(frame *f, size_t pos, const SDL_Rect *clip)
{
    const render_layout *l = &f->l;
    size_t r = render_row_id(l, pos);
    if (r == TLV_VIEW_ROW_BLANK)
        return;
    const row_def *row = &f->s->rows[r];
    double top = render_row_top(l, pos), pad = 6 * l->scale, w = l->label_w - 2 * pad;
    float px = LABEL_PT * PT_TO_PX * l->scale, fit = (float)(l->row_h * 0.8);
    text_style st = style_of(LABEL_PT * (fit < px ? fit / px : 1), l->scale, COLOR_LABEL, 0, 1);
    st.elide_middle = 1; /* names often differ only at the end: MAIN_TA…_PRC3 */
    if (st.px < 6 || w < st.px)
        return; /* too small to read */
    frect box = box_of(pad, top, w, l->row_h);
    if (group_starts(f->s, l, pos)) {
        text_style gs = st;
        gs.argb = COLOR_GROUP;
        gs.elide_middle = 0; /* "Interrupt h…" reads better than "Interr…andler" */
        if (l->row_h >= 3 * st.px) {
            frame_text(f, row->group, &gs, box_of(pad, top, w, l->row_h / 2), clip, -1);
            box = box_of(pad + 8 * l->scale, top + l->row_h / 2, w - 8 * l->scale, l->row_h / 2);
        } else {
            int gw = render_text_width(f->fonts, row->group, &gs);
            double gbox = gw < 0 ? 0 : gw < w / 2 ? gw : w / 2, gap = gbox > 0 ? 6 * l->scale : 0;
            frame_text(f, row->group, &gs, box_of(pad, top, gbox, l->row_h), clip, -1);
            box = box_of(pad + gbox + gap, top, w - gbox - gap, l->row_h);
        }
    }
    frame_text(f, row->label, &st, box, clip, TEXT_ROW);
}

static void draw_labels(frame *f)
{
    const render_layout *l = &f->l;
    SDL_Rect clip = {0, l->ruler_h, l->label_w, l->height - l->ruler_h};
    for (size_t r = l->first_row; r < l->end_row; r++)
        if (r > l->first_row && group_starts(f->s, l, r))
            batch_rect(&f->b, box_of(0, floor(render_row_top(l, r)), l->width, 1), COLOR_GROUP_LINE);
    batch_rect(&f->b, box_of(l->label_w - 1, 0, 1, l->height), COLOR_BORDER);
    for (size_t r = l->first_row; r < l->end_row && f->fonts; r++)
        draw_label(f, r, &clip);
}

/* The reference in a box at the ruler's start; returns the x where the
 * box ends (the timeline's start when there is none). */
static int draw_reference(frame *f)
{
    const render_layout *l = &f->l;
    float sc = l->scale;
    char text[160];
    reference_text(f, text, sizeof text);
    text_style st = style_of(RULER_PT, sc, COLOR_RULER_TEXT, 0, 1);
    st.style = FONT_BOLD;
    int w = *text && f->fonts ? render_text_width(f->fonts, text, &st) : -1;
    if (w <= 0)
        return l->label_w;
    int pad = (int)(4 * sc), bw = w + 2 * pad, max = l->width - l->label_w;
    bw = bw > max ? max : bw;
    batch_rect(&f->b, box_of(l->label_w, 0, bw, l->ruler_h - 1), COLOR_REFERENCE);
    SDL_Rect clip = {l->label_w, 0, bw, l->ruler_h};
    frame_text(f, text, &st, box_of(l->label_w + pad, 0, bw - 2 * pad, l->ruler_h - 6 * sc), &clip,
               TEXT_REFERENCE);
    return l->label_w + bw;
}

static void draw_ruler(frame *f)
{
    const render_layout *l = &f->l;
    const tlv_view *v = f->v;
    const ruler *ru = &f->ru;
    float sc = l->scale;
    batch_rect(&f->b, box_of(0, 0, l->width, l->ruler_h), COLOR_RULER);
    batch_rect(&f->b, box_of(0, l->ruler_h - 1, l->width, 1), COLOR_BORDER);
    batch_rect(&f->b, box_of(l->label_w - 1, 0, 1, l->ruler_h), COLOR_BORDER);
    double px = ru->step * timeline_w(v) / (v->t1 - v->t0), m = ru->step / pow(10, floor(log10(ru->step)));
    int sub = m > 1.5 && m < 2.5 ? 4 : 5;
    double k0, minor = ru->step / sub;
    long n = px / sub >= 5 * sc ? ticks_in_view(v, ru->origin, minor, &k0) : 0;
    for (long i = 0; i < n; i++)
        batch_rect(&f->b, box_of(floor(tlv_view_x(v, ru->origin + (k0 + (double)i) * minor)), l->ruler_h - 3 * sc, 1, 3 * sc),
                   COLOR_TICK);
    n = ticks_in_view(v, ru->origin, ru->step, &k0);
    for (long i = 0; i < n; i++)
        batch_rect(&f->b, box_of(floor(tlv_view_x(v, ru->origin + (k0 + (double)i) * ru->step)),
                                 l->ruler_h - 7 * sc, 1, 7 * sc), COLOR_TICK);
    int ref_end = draw_reference(f);
    SDL_Rect clip = {ref_end, 0, l->width - ref_end, l->ruler_h};
    text_style st = style_of(RULER_PT, sc, COLOR_RULER_TEXT, 0, 1);
    for (long i = 0; i < n; i++) {
        double k = k0 + (double)i, x = floor(tlv_view_x(v, ru->origin + k * ru->step));
        if (x + 3 * sc < ref_end)
            continue; /* under the reference */
        char text[80];
        tick_text(f, k, text, sizeof text);
        frame_text(f, text, &st, box_of(x + 3 * sc, 0, px - 6 * sc, l->ruler_h - 6 * sc), &clip, TEXT_TICK);
    }
    char span[64], text[80];
    render_format_time(v->t1 - v->t0, 0, f->s->time_scale, span, sizeof span);
    snprintf(text, sizeof text, "span %s", span);
    SDL_Rect corner = {0, 0, l->label_w - 1, l->ruler_h - 1};
    frame_text(f, text, &st, box_of(6 * sc, 0, l->label_w - 12 * sc, l->ruler_h - 1), &corner, -1);
}

/* SDL's blending of texts may round the destination alpha of an opaque
 * pixel down a little (255 becomes 254); the frame is opaque by design.
 * Sets it in columns [x0, x1) of pixel row y. */
static void make_opaque(SDL_Surface *target, int y, int x0, int x1)
{
    uint8_t opaque_bytes[4] = {0, 0, 0, 255};
    uint32_t mask;
    memcpy(&mask, opaque_bytes, 4);
    uint32_t *p = (uint32_t *)(void *)((uint8_t *)target->pixels + (size_t)y * (size_t)target->pitch);
    for (int x = x0; x < x1; x++) /* the target is 4-aligned */
        p[x] |= mask;
}

int render_frame(SDL_Renderer *ren, render_fonts *fonts, const struct tlv_shapes *s,
                 const tlv_view *v)
{
    return render_frame_direct(ren, NULL, fonts, NULL, s, v, RENDER_ROWS_AUTO);
}

int render_frame_direct(SDL_Renderer *ren, SDL_Surface *target, render_fonts *fonts,
                        render_state *state, const struct tlv_shapes *s, const tlv_view *v,
                        render_rows rows)
{
    render_state own = {0};
    tlv_view as_read = view_in(v); /* as tlv_view_x reads it */
    frame f = {.ren = ren, .fonts = fonts, .st = state ? state : &own, .s = s, .v = v,
               .rows = rows, .x_left = view_label_w(&as_read), .x_width = timeline_w(&as_read),
               .own1 = SIZE_MAX};
    f.labels = &f.st->labels;
    texts_clear(&f.st->texts);
    render_layout_of(v, s->nrows, &f.l);
    f.timeline = (SDL_Rect){f.l.label_w, f.l.ruler_h, v->width - f.l.label_w, v->height - f.l.ruler_h};
    render_text_begin(fonts, ren);
    SDL_RenderSetClipRect(ren, NULL);
    SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(ren, 255, 255, 255, 255);
    if (target) /* opaque white is all bytes 255: memset beats SDL's fill */
        for (int y = 0; y < target->h; y++)
            memset((uint8_t *)target->pixels + (size_t)y * (size_t)target->pitch, 255, (size_t)target->w * 4);
    else
        SDL_RenderClear(ren);
    /* every later fill blends (geometry takes the renderer's draw mode) */
    SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);
    SDL_FRect all = {-2, -2, (float)v->width + 4, (float)v->height + 4};
    batch_init(&f.b, ren, all);
    f.b.direct = target;
    f.b.plain = f.st->plain_outlines;
    choose_step(&f);
    draw_bands(&f);
    draw_grid(&f);
    batch_flush(&f.b);
    SDL_RenderSetClipRect(ren, &f.timeline);
    f.b.clip = f.timeline;
    f.b.has_clip = 1;
    f.b.bounds = (SDL_FRect){(float)f.timeline.x - 2, (float)f.timeline.y - 2,
                             (float)f.timeline.w + 4, (float)f.timeline.h + 4};
    draw_shapes(&f);
    batch_flush(&f.b);
    if (labels_place(&f.st->labels, fonts, f.l.scale, f.timeline, v->width, v->height,
                     draw_placed_label, &f) < 0)
        f.failed = 1;
    batch_flush(&f.b);
    SDL_RenderSetClipRect(ren, NULL);
    f.b.has_clip = 0;
    f.b.bounds = all;
    draw_labels(&f);
    batch_flush(&f.b);
    draw_ruler(&f);
    batch_flush(&f.b);
    if (target) { /* everything else written there is opaque already */
        if (SDL_RenderFlush(ren) < 0) /* the texts queued: SDL out of memory */
            f.failed = 1;
        for (int y = 0; f.text_x && y < v->height; y++)
            make_opaque(target, y, f.text_x[2 * y], f.text_x[2 * y + 1]);
    }
    free(f.text_x);
    int failed = f.failed || f.b.failed;
    batch_free(&f.b);
    render_text_end(fonts);
    render_state_free(&own);
    return failed ? -1 : 0;
}

/* ---- the public renderer ------------------------------------------------------ */

/* The software renderer and its surface are kept from frame to frame (and
 * remade when the size changes), so the text textures cached on the
 * renderer survive: rendering text anew every frame cost a third of it.
 * The surface wraps the caller's pixels when they are 4-byte aligned (the
 * usual case), so the frame is drawn in place: no copy. */
struct tlv_renderer {
    tlv_diags diags;
    render_fonts *fonts;
    render_state state;   /* labels' memory, the last frame's texts, pointer, origin */
    SDL_Surface *surf;
    SDL_Renderer *ren;
    int wraps;            /* surf's pixels are the caller's, set each frame */
    render_rows rows;     /* RENDER_ROWS_AUTO but in tests */
    last_error lasterr;   /* tlv_renderer_last_error */
};

void render_set_rows(tlv_renderer *r, render_rows rows)
{
    if (r)
        r->rows = rows;
}

void render_set_threads(tlv_renderer *r, int threads)
{
    if (r)
        r->state.threads = threads > 0 ? threads : 0;
}

int render_drew_on(const tlv_renderer *r) { return r ? r->state.drew_on : 0; }

void render_set_plain_outlines(tlv_renderer *r, int plain)
{
    if (r)
        r->state.plain_outlines = plain != 0;
}

static void drop_target(tlv_renderer *r)
{
    if (r->ren) {
        render_text_release(r->fonts);
        SDL_DestroyRenderer(r->ren);
    }
    SDL_FreeSurface(r->surf);
    r->ren = NULL;
    r->surf = NULL;
}

/* A target for w x h pixels: over `pixels` (rows `stride` bytes apart) when
 * they are aligned for 32-bit words, else a surface of our own. */
static int ensure_target(tlv_renderer *r, int w, int h, uint8_t *pixels, size_t stride)
{
    int wrap = (uintptr_t)pixels % 4 == 0 && stride % 4 == 0;
    if (r->surf && r->surf->w == w && r->surf->h == h && r->wraps == wrap &&
        (!wrap || (size_t)r->surf->pitch == stride)) {
        if (wrap)
            r->surf->pixels = pixels; /* a read-write field of SDL_Surface */
        return 0;
    }
    drop_target(r);
    r->wraps = wrap;
    r->surf = wrap ? SDL_CreateRGBSurfaceWithFormatFrom(pixels, w, h, 32, (int)stride, SDL_PIXELFORMAT_RGBA32)
                   : SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    r->ren = r->surf ? SDL_CreateSoftwareRenderer(r->surf) : NULL;
    return r->ren ? 0 : -1;
}

tlv_status tlv_renderer_new(tlv_renderer **out)
{
    ALLOC_WATCH;
    tlv_renderer *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return TLV_ERR_NOMEM;
    diags_init(&r->diags, 100);
    r->fonts = render_fonts_new(&r->diags);
    if (!r->fonts || ALLOC_FAILED_SINCE() || r->diags.nomem) {
        tlv_renderer_free(r);
        *out = NULL;
        return TLV_ERR_NOMEM;
    }
    return TLV_OK;
}

void tlv_renderer_free(tlv_renderer *r)
{
    if (!r)
        return;
    drop_target(r);
    render_fonts_free(r->fonts);
    render_state_free(&r->state);
    diags_free(&r->diags);
    free(r);
}

const tlv_diags *tlv_renderer_diags(const tlv_renderer *r) { return r ? &r->diags : NULL; }

const char *tlv_renderer_last_error(const tlv_renderer *r) { return r ? r->lasterr.text : ""; }

/* Every entry of the row list is a row of `s` or a blank band; else records
 * which is not. */
static int rows_ok(tlv_renderer *r, const tlv_view *v, const struct tlv_shapes *s)
{
    for (size_t i = 0; v->rows && i < v->row_count; i++)
        if (v->rows[i] >= s->nrows && v->rows[i] != TLV_VIEW_ROW_BLANK) {
            last_error_set(&r->lasterr, TLV_ERR_USAGE,
                           "tlv_render_rgba: view rows[%zu] is %zu, not a row (there are %zu) "
                           "nor TLV_VIEW_ROW_BLANK", i, v->rows[i], s->nrows);
            return 0;
        }
    return 1;
}

/* The view can be drawn into a buffer of that stride; else records why not. */
static int view_ok(tlv_renderer *r, const tlv_view *v, size_t stride)
{
    const char *why = NULL;
    if (v->width <= 0 || v->height <= 0 || v->width > 32768 || v->height > 32768)
        why = "width and height must be 1 to 32768 pixels";
    else if (!isfinite(v->t0) || !isfinite(v->t1) || v->t1 <= v->t0)
        why = "the time range must be finite with t1 > t0";
    else if (stride < (size_t)v->width * 4 || stride > INT_MAX)
        why = "the stride must be at least width * 4 bytes";
    else if (!isfinite(v->scale) || v->scale < 0)
        why = "the scale must be 0 or positive";
    if (why)
        last_error_set(&r->lasterr, TLV_ERR_USAGE, "tlv_render_rgba: %s (view %dx%d, t0 %g, t1 %g, "
                       "stride %zu, scale %g)", why, v->width, v->height, v->t0, v->t1, stride,
                       (double)v->scale);
    return !why;
}

tlv_status tlv_render_rgba(tlv_renderer *r, const tlv_shapes *s, const tlv_view *caller,
                           uint8_t *pixels, size_t stride)
{
    if (!r)
        return TLV_ERR_USAGE;
    if (!s || !caller || !pixels)
        return last_error_set(&r->lasterr, TLV_ERR_USAGE, "tlv_render_rgba: %s is NULL",
                              !s ? "shapes" : !caller ? "view" : "pixels");
    tlv_view view = view_in(caller), *v = &view;
    if (!view_ok(r, v, stride) || !rows_ok(r, v, s))
        return TLV_ERR_USAGE;
    ALLOC_WATCH;
    /* No SDL_ClearError/SDL_GetError on the way when all goes well: they make
     * SDL's per-thread error buffer, which SDL never frees for a thread it did
     * not create (a caller's rendering thread leaked it). SDL and SDL_ttf
     * report their failures by their results, read below. */
    if (ensure_target(r, v->width, v->height, pixels, stride) < 0)
        return last_error_set(&r->lasterr, TLV_ERR_NOMEM,
                              "tlv_render_rgba: out of memory while making the drawing surface (%s)",
                              SDL_GetError());
    int rc = render_frame_direct(r->ren, r->surf, r->fonts, &r->state, s, v, r->rows);
    if (!r->wraps)
        for (int y = 0; y < v->height; y++) /* RGBA32: bytes R, G, B, A on any machine */
            memcpy(pixels + (size_t)y * stride,
                   (const uint8_t *)r->surf->pixels + (size_t)y * (size_t)r->surf->pitch,
                   (size_t)v->width * 4);
    if (render_fonts_out_of_memory(r->fonts) | (rc != 0) | ALLOC_FAILED_SINCE())
        return last_error_set(&r->lasterr, TLV_ERR_NOMEM, "tlv_render_rgba: out of memory while drawing");
    return TLV_OK;
}

/* ---- what the last frame drew, and how the next one reads ------------------------ */

size_t tlv_renderer_text_count(const tlv_renderer *r, tlv_text_kind kind)
{
    return r && (unsigned)kind < TEXT_KINDS ? r->state.texts.n[kind] : 0;
}

const char *tlv_renderer_text(const tlv_renderer *r, tlv_text_kind kind, size_t i, int box[4])
{
    SDL_Rect at;
    const char *text = r ? texts_get(&r->state.texts, (text_kind)kind, i, &at) : NULL;
    if (text && box) {
        box[0] = at.x;
        box[1] = at.y;
        box[2] = at.w;
        box[3] = at.h;
    }
    return text;
}

void tlv_renderer_set_focus(tlv_renderer *r, double x, double y)
{
    if (!r)
        return;
    r->state.has_focus = x >= 0 && y >= 0 && isfinite(x) && isfinite(y);
    r->state.focus_x = x;
    r->state.focus_y = y;
}

void tlv_renderer_set_time_origin(tlv_renderer *r, const char *name, double origin)
{
    if (!r)
        return;
    r->state.relative = name != NULL && isfinite(origin);
    r->state.origin = r->state.relative ? origin : 0;
    snprintf(r->state.origin_name, sizeof r->state.origin_name, "%s", name ? name : "");
}

void tlv_renderer_set_absolute_times(tlv_renderer *r, int on)
{
    if (r)
        r->state.absolute = on != 0;
}
