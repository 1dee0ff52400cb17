/*
 * panel_tooltip.c — the tooltip: the shape under the cursor (the core's
 * a->hover, view_hover.c) as a box of lines next to the pointer: rule and
 * event, resource, value, start, end and duration (an instant's mark: the
 * time it happened at). Hidden while dragging; placed clear of the panels
 * over the timeline (the rows panel, the details) when it can be.
 */
#include "view/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

/* Whether the w x h box at (x, y) lies on the timeline, clear of every
 * panel over it (the rows panel, the details): looked at every few pixels. */
static int clear_of_panels(const view_app *a, const view_areas *ar, int x, int y, int w, int h)
{
    if (x < ar->label_w || y < ar->ruler_h || x + w > ar->main.w || y + h > ar->main.h)
        return 0;
    int step = scaled(a, 6) > 1 ? scaled(a, 6) : 1;
    for (int py = y; py < y + h + step; py += step)
        for (int px = x; px < x + w + step; px += step)
            if (view_panels_cover(a, px < x + w ? px : x + w - 1, py < y + h ? py : y + h - 1))
                return 0;
    return 1;
}

/* Where the box goes: below right of the pointer, else below left, above
 * right or above left, whichever is first clear of the panels over the
 * timeline, so that the tooltip never hides one; else below right. */
static void place(const view_app *a, const char *const *lines, int n, int *x, int *y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    int w = 0, pad = scaled(a, 5), dx = scaled(a, 14), dy = scaled(a, 18);
    for (int i = 0; i < n; i++) {
        int lw = view_text_width(a->text, lines[i]);
        w = lw > w ? lw : w;
    }
    w += 2 * pad;
    int h = n * view_text_height(a->text) + 2 * pad, mx = (int)a->mx, my = (int)a->my;
    int above = my - dy / 2 - h; /* beside the pointer, never over it: it may meet the ruler */
    const int xs[2] = {mx + dx, mx - dx - w}, ys[2] = {my + dy, above > ar.ruler_h ? above : ar.ruler_h};
    for (int k = 0; k < 4; k++)
        if (clear_of_panels(a, &ar, xs[k & 1], ys[k >> 1], w, h)) {
            *x = xs[k & 1];
            *y = ys[k >> 1];
            return;
        }
    *x = xs[0];
    *y = ys[0];
}

static void draw_tooltip(view_app *a)
{
    const view_hover *h = &a->hover;
    if (!h->valid || a->drag != DRAG_NONE)
        return;
    char l[8][240], dur[64];
    const char *lines[8];
    int n = 0;
    snprintf(l[n++], sizeof l[0], "%s / %s", h->rule, h->event);
    if (h->resource[0])
        snprintf(l[n++], sizeof l[0], "resource: %s", h->resource);
    if (h->value[0])
        snprintf(l[n++], sizeof l[0], "value: %s", h->value);
    if (h->text[0] && strcmp(h->text, h->value) != 0)
        snprintf(l[n++], sizeof l[0], "text: %s", h->text);
    if (h->is_when) { /* a mark of an instant (an exit, a wake-up): no span to give */
        snprintf(l[n++], sizeof l[0], "at: %s", h->start_text);
    } else {
        snprintf(l[n++], sizeof l[0], "start: %s", h->start_text);
        snprintf(l[n++], sizeof l[0], "end: %s", h->end_text);
        snprintf(l[n++], sizeof l[0], "duration: %s",
                 view_time_text(a, h->to - h->from, 0, dur, sizeof dur));
    }
    for (int i = 0; i < n; i++)
        lines[i] = l[i];
    int x, y;
    place(a, lines, n, &x, &y);
    view_text_box(a, lines, n, x, y, 0xFFFFE8);
}

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)p;
    (void)v;
    (void)ar;
    if (layer == VIEW_LAYER_POPUP)
        draw_tooltip(a);
}

view_panel *tooltip_panel_new(void)
{
    view_panel *p = calloc(1, sizeof *p);
    if (p)
        *p = (view_panel){.name = "tooltip", .draw = draw};
    return p;
}
