/*
 * view_marker_edit.c — editing markers in the viewer: F2 or Enter renames
 * the selected marker (through the prompt), k gives it the next colour of
 * the palette, and its line or name in the ruler can be dragged with the
 * left button to move it (Shift+[ and Shift+] nudge it by a pixel). Also the time from the selected marker to the
 * cursor, drawn next to the cursor in the ruler. The markers themselves
 * (order, palette) are view_markers.c's; they reach the session file with
 * every other marker.
 */
#include "view.h"

#include <math.h>
#include <string.h>

#define GRAB 4 /* pixels either side of a marker's line that grab it */

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static const view_marker *selected(const view_app *a)
{
    const view_markers *m = &a->markers;
    return m->selected >= 0 && (size_t)m->selected < m->n ? &m->v[m->selected] : NULL;
}

/* Shift+[ and Shift+]: the selected marker a pixel's time earlier or later. */
static void nudge(view_app *a, int dir)
{
    view_areas ar;
    view_areas_of(a, &ar);
    view_markers *m = &a->markers;
    double px = (a->nav.t1 - a->nav.t0) / fmax(1, ar.main.w - ar.label_w);
    m->selected = (long)markers_move(m, (size_t)m->selected, m->v[m->selected].time + dir * px);
    marker_drag_end(a);
}

int marker_edit_key(view_app *a, SDL_Keycode key, int mods)
{
    const view_marker *k = selected(a);
    int enter = key == SDLK_RETURN || key == SDLK_KP_ENTER;
    if ((key == SDLK_LEFTBRACKET || key == SDLK_RIGHTBRACKET) && (mods & VIEW_MOD_SHIFT)) {
        if (!k)
            view_message(a, "no marker selected (click one, or [ and ])");
        else
            nudge(a, key == SDLK_LEFTBRACKET ? -1 : 1);
        view_dirty(a);
        return 1;
    }
    if (key != SDLK_k && key != SDLK_F2 && !(enter && k))
        return 0; /* Enter without a marker is left to other uses */
    if (!k) {
        view_message(a, "no marker selected (click one, or [ and ])");
    } else if (key == SDLK_k) {
        uint32_t c = markers_recolor(&a->markers, (size_t)a->markers.selected);
        view_message(a, "marker %s: colour #%06x", k->name, (unsigned)c);
    } else {
        prompt_open(a, PROMPT_RENAME, "Rename marker:", k->name);
    }
    view_dirty(a);
    return 1;
}

int marker_rename(view_app *a, long target, const char *name)
{
    view_markers *m = &a->markers;
    size_t max = sizeof m->v[0].name - 1;
    if (target < 0 || (size_t)target >= m->n) {
        view_message(a, "the marker is gone");
        return 0; /* nothing to correct: close */
    }
    const char *p = name;
    while (*p == ' ')
        p++;
    if (!*p) {
        view_message(a, "a marker needs a name");
        return -1;
    }
    if (strlen(name) > max) {
        view_message(a, "a marker's name can be at most %zu bytes long", max);
        return -1;
    }
    char old[sizeof m->v[0].name];
    snprintf(old, sizeof old, "%s", m->v[target].name);
    markers_rename(m, (size_t)target, name);
    view_message(a, "marker %s renamed to %s", old, m->v[target].name);
    return 0;
}

long marker_hit(view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    if (y < 0 || y >= ar.ruler_h || x < ar.label_w)
        return -1;
    tlv_view v;
    view_main_view(a, &v);
    const view_markers *m = &a->markers;
    int th = view_text_height(a->text), pad = scaled(a, 3);
    for (size_t i = m->n; i > 0; i--) { /* the last drawn is on top */
        double mx = tlv_view_x(&v, m->v[i - 1].time);
        double name_end = mx + 1 + view_text_width(a->text, m->v[i - 1].name) + 2 * pad;
        if (fabs(x - mx) <= GRAB * a->scale || (x >= mx && x <= name_end && y < th))
            return (long)(i - 1);
    }
    return -1;
}

void marker_drag_to(view_app *a, double x)
{
    if (!selected(a))
        return;
    double t = a->drag_t0 + input_time_at(a, x) - input_time_at(a, a->drag_x);
    a->markers.selected = (long)markers_move(&a->markers, (size_t)a->markers.selected, t);
    view_dirty(a);
}

void marker_drag_end(view_app *a)
{
    const view_marker *k = selected(a);
    char t[64];
    if (k)
        view_message(a, "marker %s moved to %s", k->name, view_time_text(a, k->time, 0, t, sizeof t));
}

int marker_span_text(const view_app *a, char *buf, size_t size)
{
    const view_marker *k = selected(a);
    if (!k || !input_over_timeline(a, a->mx, a->my))
        return -1;
    char d[64];
    double dt = input_time_at(a, a->mx) - k->time;
    view_time_text(a, fabs(dt), 0, d, sizeof d);
    snprintf(buf, size, "%s %s%s", k->name, dt < 0 ? "-" : "+", d);
    return 0;
}

void marker_span_draw(view_app *a, const tlv_view *v, int ruler_h)
{
    char text[128];
    if (a->drag == DRAG_PAN || marker_span_text(a, text, sizeof text) < 0)
        return;
    const view_marker *k = selected(a);
    int cx = (int)floor(a->mx), kx = (int)floor(tlv_view_x(v, k->time));
    int lo = kx < cx ? kx : cx, hi = kx < cx ? cx : kx;
    lo = lo < v->label_width ? v->label_width : lo;
    int th = view_text_height(a->text), y = ruler_h - th;
    if (hi > lo)
        view_fill(a, lo, ruler_h - scaled(a, 2), hi - lo, scaled(a, 2), k->color, 200);
    int w = view_text_width(a->text, text) + 2 * scaled(a, 3), gap = scaled(a, 4);
    int x = kx <= cx ? cx + gap : cx - gap - w; /* on the side away from the marker */
    if (x + w > v->width)
        x = cx - gap - w;
    if (x < v->label_width)
        x = cx + gap;
    view_label(a, text, x, y, 0xFFFFFF, k->color, 230);
}
