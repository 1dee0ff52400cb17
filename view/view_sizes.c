/*
 * view_sizes.c — what the user chose about the timeline's legibility, and
 * what it drew as text: the label column's width (its right edge dragged),
 * the row height (Ctrl+Up/Down, Ctrl+wheel over the labels), both kept in
 * the session; the ruler's time axis (t: absolute, from the trace's start,
 * from the selected marker); the shape under the pointer, whose texts the
 * renderer places first; the full name of a row whose name the label column
 * cuts (its tooltip); and, for dump-state, the texts the renderer drew —
 * shape labels with their boxes, ruler ticks, the ruler's reference time and
 * the row names — which the tests check for overlaps and distinct ticks.
 */
#include "view/core.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define EDGE_GRAB 4       /* pixels either side of the label column's edge that grab it */
#define MIN_LABEL_W 40    /* the narrowest label column a drag leaves */
#define MIN_ROW_H 12      /* the lowest and highest rows the user can ask for */
#define MAX_ROW_H 160
#define ROW_STEP 4        /* pixels per key press or wheel notch */

/* ---- the label column ----------------------------------------------------------- */

int sizes_on_label_edge(const view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    return y >= 0 && y < ar.main.h && fabs(x - (ar.label_w - 1)) <= EDGE_GRAB * a->scale;
}

void sizes_drag_label_edge(view_app *a, double x)
{
    double w = (x + 1) / (a->scale > 0 ? a->scale : 1), most = a->px_w / a->scale - 120;
    w = w > most ? most : w;
    w = w < MIN_LABEL_W ? MIN_LABEL_W : w;
    a->core->label_w_user = (int)lround(w);
    view_dirty(a);
}

/* ---- row height ------------------------------------------------------------------ */

void sizes_set_row_height(view_app *a, int px)
{
    a->core->row_h_user = px <= 0 ? 0 : px < MIN_ROW_H ? MIN_ROW_H : px > MAX_ROW_H ? MAX_ROW_H : px;
    int top = view_max_first_row(a);
    a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
    view_dirty(a);
}

void sizes_step_row_height(view_app *a, int steps)
{
    int now = a->core->row_h_user;
    if (now <= 0) { /* from the height the rows have now */
        tlv_view v;
        tlv_view_layout l;
        view_main_view(a, &v);
        tlv_view_get_layout(&v, a->shapes, &l);
        now = (int)lround(l.row_height / a->scale);
    }
    sizes_set_row_height(a, now + steps * ROW_STEP);
    view_message(a, "rows %d px high", a->core->row_h_user);
}

/* ---- the time axis and the pointer, told to the renderer -------------------------------- */

static const char *const axis_names[] = {"absolute", "start", "marker"};

void sizes_next_time_axis(view_app *a)
{
    struct view_core *c = a->core;
    c->time_axis = (view_time_axis(a) + 1) % 3;
    c->time_axis_chosen = 1;
    const view_marker *m = view_selected_marker(a);
    if (c->time_axis == 2 && !m)
        c->time_axis = 0;
    if (c->time_axis == 0)
        view_message(a, "ruler: absolute times%s", m ? "" : " (select a marker for times from it)");
    else if (c->time_axis == 1)
        view_message(a, "ruler: times from the trace's start");
    else
        view_message(a, "ruler: times from marker %s", m->name);
    view_dirty(a);
}

int sizes_tell_renderer(view_app *a)
{
    struct view_core *c = a->core;
    int changed = 0, axis = view_time_axis(a);
    /* a clock trace's own axis reads from its start (render.h); a plain
     * trace's from its start is a relative axis, "from start" */
    int relative = axis == 1 && !view_clock_trace(a), absolute = axis == 0;
    double origin = a->nav.trace_t0;
    char name[48] = "start";
    if (axis == 2) {
        const view_marker *m = view_selected_marker(a);
        relative = m != NULL; /* the marker was deleted: absolute again */
        if (m) {
            origin = m->time;
            snprintf(name, sizeof name, "%s", m->name);
        }
    }
    if (relative != c->told.relative ||
        (relative && (origin != c->told.origin || strcmp(name, c->told.name) != 0))) {
        tlv_renderer_set_time_origin(c->tl_ren, relative ? name : NULL, origin);
        c->told.relative = relative;
        c->told.origin = origin;
        snprintf(c->told.name, sizeof c->told.name, "%s", name);
        changed = 1;
    }
    if (absolute != c->told.absolute) {
        tlv_renderer_set_absolute_times(c->tl_ren, absolute);
        c->told.absolute = absolute;
        changed = 1;
    }
    const view_hover *h = &a->hover;
    int focus = h->valid && a->drag == DRAG_NONE && input_over_timeline(a, a->mx, a->my);
    if (focus != a->core->told.focus ||
        (focus && (h->row != a->core->told.row || h->from != a->core->told.from || h->to != a->core->told.to))) {
        tlv_renderer_set_focus(a->core->tl_ren, focus ? a->mx : -1, focus ? a->my : -1);
        a->core->told.focus = focus;
        a->core->told.row = h->row;
        a->core->told.from = h->from;
        a->core->told.to = h->to;
        changed = 1;
    }
    return changed;
}

/* ---- row names and dump-state ------------------------------------------------------ */

const char *sizes_cut_row_name(const view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    if (!a->shapes || !a->mouse_in || x < 0 || x >= ar.label_w || y < ar.ruler_h || y >= ar.main.h)
        return NULL;
    tlv_view v;
    view_main_view(a, &v);
    long row = tlv_view_row_at(&v, a->shapes, y);
    if (row < 0)
        return NULL;
    tlv_row_info info;
    tlv_shapes_row(a->shapes, (size_t)row, &info);
    for (size_t i = 0; i < tlv_renderer_text_count(a->core->tl_ren, TLV_TEXT_ROW); i++) {
        int box[4];
        const char *drawn = tlv_renderer_text(a->core->tl_ren, TLV_TEXT_ROW, i, box);
        if (y >= box[1] && y < box[1] + box[3])
            return strcmp(drawn, info.label) != 0 ? info.label : NULL;
    }
    return NULL;
}

static cJSON *texts_json(const view_app *a, tlv_text_kind kind, int boxes)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < tlv_renderer_text_count(a->core->tl_ren, kind); i++) {
        int box[4];
        const char *text = tlv_renderer_text(a->core->tl_ren, kind, i, box);
        if (!boxes) {
            json_push(arr, cJSON_CreateString(text));
            continue;
        }
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "text", text);
        cJSON_AddNumberToObject(o, "x", box[0]);
        cJSON_AddNumberToObject(o, "y", box[1]);
        cJSON_AddNumberToObject(o, "w", box[2]);
        cJSON_AddNumberToObject(o, "h", box[3]);
        json_push(arr, o);
    }
    return arr;
}

void sizes_dump(const view_app *a, cJSON *o)
{
    json_put(o, "labels", texts_json(a, TLV_TEXT_LABEL, 1));
    json_put(o, "ticks", texts_json(a, TLV_TEXT_TICK, 0));
    const char *ref = tlv_renderer_text(a->core->tl_ren, TLV_TEXT_REFERENCE, 0, NULL);
    json_put(o, "time_reference", ref ? cJSON_CreateString(ref) : cJSON_CreateNull());
    json_put(o, "row_names", texts_json(a, TLV_TEXT_ROW, 1));
    cJSON_AddStringToObject(o, "time_axis", axis_names[view_time_axis(a) % 3]);
    const char *cut = sizes_cut_row_name(a, a->mx, a->my);
    json_put(o, "row_name_tip", cut ? cJSON_CreateString(cut) : cJSON_CreateNull());
    cJSON_AddNumberToObject(o, "rebuild_frames", (double)a->core->rebuild_frames); /* view_load.c */
}
