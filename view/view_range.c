/*
 * view_range.c — the marks a person puts on the timeline without making
 * markers: the selected range (Ctrl+drag; what each row spent in it is the
 * range panel's breakdown; z zooms to it) and the two-point measurement
 * (Ctrl+click, Ctrl+click again), drawn over the timeline with their lengths
 * in the ruler (where they hide none of its times) or just below it. Esc
 * clears both.
 */
#include "view/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define C_RANGE 0x1F8A8Au
#define C_MEASURE 0xC0208Cu

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int time_x(const tlv_view *v, double t)
{
    double x = tlv_view_x(v, t);
    return x < -1e6 ? -1000000 : x > 1e6 ? 1000000 : (int)floor(x);
}

tlv_time view_exact_time(const view_app *a, double t)
{
    double whole = floor(t);
    whole = whole < -9.2e18 ? -9.2e18 : whole > 9.2e18 ? 9.2e18 : whole;
    uint64_t scale = 1; /* radix^F, the largest power that fits in 63 bits */
    while (scale <= (uint64_t)INT64_MAX / (uint64_t)a->radix)
        scale *= (uint64_t)a->radix;
    double f = (t - whole) * (double)scale;
    uint64_t frac = f <= 0 ? 0 : f >= (double)scale ? scale - 1 : (uint64_t)f;
    return (tlv_time){(int64_t)whole, frac};
}

void range_set(view_app *a, double t0, double t1)
{
    a->has_range = t1 != t0;
    a->range0 = fmin(t0, t1);
    a->range1 = fmax(t0, t1);
    a->range_gen++;
    view_dirty(a);
}

void range_zoom(view_app *a)
{
    if (!a->has_range) {
        view_message(a, "no range: Ctrl+drag on the timeline selects one");
        return;
    }
    nav_begin(&a->nav, NAV_JUMP);
    nav_set(&a->nav, a->range0, a->range1);
}

void measure_click(view_app *a, double t)
{
    if (a->core->measure_n >= 2)
        a->core->measure_n = 0;
    a->core->measure[a->core->measure_n++] = t;
    char d[64];
    if (a->core->measure_n == 2)
        view_message(a, "measured %s",
                     view_time_text(a, fabs(a->core->measure[1] - a->core->measure[0]), 0, d, sizeof d));
    else
        view_message(a, "Ctrl+click the second point to measure");
    view_dirty(a);
}

void range_clear(view_app *a)
{
    if (a->has_range)
        a->range_gen++;
    a->has_range = 0;
    a->core->measure_n = 0;
}

/* Whether a badge over columns [x, x + w) of the ruler would hide one of
 * its texts (a tick's value, the time reference), with a gap either side. */
static int hides_ruler_text(const view_app *a, int x, int w, int gap)
{
    for (int kind = TLV_TEXT_TICK; kind <= TLV_TEXT_REFERENCE; kind++)
        for (size_t i = 0; i < tlv_renderer_text_count(a->core->tl_ren, (tlv_text_kind)kind); i++) {
            int b[4];
            if (tlv_renderer_text(a->core->tl_ren, (tlv_text_kind)kind, i, b) &&
                x < b[0] + b[2] + gap && x + w + gap > b[0])
                return 1;
        }
    return 0;
}

/* Where the range's length goes in the ruler: the column nearest the
 * middle of [cx0, cx1] where it hides no tick and still touches the range;
 * -1 when there is none (it goes below the ruler then). */
static int badge_x(const view_app *a, int cx0, int cx1, int left, int right, int tw)
{
    int gap = scaled(a, 3), mid = (cx0 + cx1 - tw) / 2, best = -1;
    size_t n = tlv_renderer_text_count(a->core->tl_ren, TLV_TEXT_TICK);
    for (size_t i = 0; i <= 2 * n; i++) { /* the middle, then beside each tick's value */
        int b[4] = {0, 0, 0, 0}, x = mid;
        if (i > 0 && !tlv_renderer_text(a->core->tl_ren, TLV_TEXT_TICK, (i - 1) / 2, b))
            continue;
        if (i > 0)
            x = i % 2 ? b[0] + b[2] + gap : b[0] - gap - tw;
        if (x < left || x + tw > right || x >= cx1 || x + tw <= cx0 || hides_ruler_text(a, x, tw, gap))
            continue;
        if (best < 0 || abs(x - mid) < abs(best - mid))
            best = x;
    }
    return best;
}

/* A span [t0, t1] of colour c: its edges over the timeline, a bar along the
 * ruler's foot with its length on it (when there is room), and a tint over
 * the rows when `tint` (the length just below the ruler when `below`). */
static void draw_span(view_app *a, const tlv_view *v, const view_areas *ar, double t0, double t1,
                      uint32_t c, int tint, const char *prefix, int below)
{
    int x0 = time_x(v, t0), x1 = time_x(v, t1);
    int left = ar->label_w, right = v->width, top = ar->ruler_h;
    if (x1 < left || x0 > right)
        return;
    int cx0 = x0 < left ? left : x0, cx1 = x1 > right ? right : x1;
    if (tint)
        view_fill(a, cx0, top, cx1 - cx0 + 1, v->height - top, c, 28);
    if (x0 >= left)
        view_fill(a, x0, top, 1, v->height - top, c, 255);
    if (x1 <= right)
        view_fill(a, x1, top, 1, v->height - top, c, 255);
    int bar = scaled(a, 4);
    view_fill(a, cx0, top - bar, cx1 - cx0 + 1, bar, c, 255);
    char d[64], text[96];
    snprintf(text, sizeof text, "%s%s", prefix, view_time_text(a, t1 - t0, 0, d, sizeof d));
    int tw = view_text_width(a->text, text) + scaled(a, 6), th = view_text_height(a->text);
    int x = (cx0 + cx1 - tw) / 2;
    x = x < left ? left : x + tw > right ? right - tw : x;
    /* The range's length in the ruler where it hides no tick's value, else
     * just below the ruler; the measurement's below, a line lower than the
     * markers' spans (which are just below the ruler). */
    int in_ruler = below ? -1 : badge_x(a, cx0, cx1, left, right, tw);
    int y = below ? top + th + scaled(a, 6) : in_ruler >= 0 ? top - bar - th : top + scaled(a, 2);
    view_label(a, text, in_ruler >= 0 ? in_ruler : x, y, 0xFFFFFF, c, 255);
}

void range_draw(view_app *a, const tlv_view *v, const view_areas *ar)
{
    if (a->has_range || a->drag == DRAG_RANGE)
        draw_span(a, v, ar, a->range0, a->range1, C_RANGE, 1, "", 0);
    if (a->core->measure_n == 1)
        view_fill(a, time_x(v, a->core->measure[0]), ar->ruler_h, 1, v->height - ar->ruler_h,
                  C_MEASURE, 255);
    else if (a->core->measure_n == 2)
        draw_span(a, v, ar, fmin(a->core->measure[0], a->core->measure[1]),
                  fmax(a->core->measure[0], a->core->measure[1]), C_MEASURE, 0, "\xce\x94t ", 1);
}
