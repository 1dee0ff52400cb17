/*
 * panel_tooltip.c — the tooltip: the shape under the cursor (the core's
 * a->hover, view_hover.c) as a box of lines next to the pointer: rule and
 * event, resource, value, start, end and duration. Hidden while dragging.
 */
#include "view/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

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
    snprintf(l[n++], sizeof l[0], "start: %s", h->start_text);
    snprintf(l[n++], sizeof l[0], "end: %s", h->end_text);
    snprintf(l[n++], sizeof l[0], "duration: %s", view_time_text(a, h->to - h->from, 0, dur, sizeof dur));
    for (int i = 0; i < n; i++)
        lines[i] = l[i];
    view_text_box(a, lines, n, (int)a->mx + scaled(a, 14), (int)a->my + scaled(a, 18), 0xFFFFE8);
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
