/*
 * view_input.c — what the mouse and keyboard do in the viewer. SDL events
 * are translated into the input_* calls below (window coordinates scaled to
 * drawable pixels), and --script calls them directly, so a script drives the
 * viewer exactly as a person would. The core's keys are a table
 * (view_core_keys, with the panels' tables in view_keys.c): a key goes to the
 * one row that claims it with its modifiers, or, while a panel holds the
 * keyboard (the prompt), to that panel.
 *
 * Steps, so that scripted tests can predict ranges: ←/→ (and A/D) pan by an
 * eighth of the span (Shift: a half), ↑/↓ (and W/S, +/-) zoom by 2 (Shift:
 * 4) at the anchor; a wheel notch zooms by 0.8 (Shift+wheel), pans a tenth
 * (Ctrl+wheel) or scrolls one row (wheel); Home/End show the trace's start
 * or end at the same span. Over the label column, Ctrl+wheel (and anywhere
 * Ctrl+↑/↓) changes the row height, and its right edge drags its width.
 */
#include "view/core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PAN_KEY 0.125
#define PAN_KEY_SHIFT 0.5
#define ZOOM_KEY 2.0
#define ZOOM_KEY_SHIFT 4.0
#define ZOOM_NOTCH 0.8
#define PAN_NOTCH 0.1
#define DRAG_SLOP 3           /* pixels a press may move and still be a click */
#define EDGE_GRAB 4           /* pixels around the macro box's edges that resize it */
#define MARKER_GRAB 4         /* pixels either side of a marker's line that grab it */

/* ---- where things are ------------------------------------------------------------- */

double input_time_at(const view_app *a, double x)
{
    tlv_view v;
    view_main_view(a, &v);
    return tlv_view_time(&v, x);
}

int input_over_timeline(const view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    return a->mouse_in && x >= ar.label_w && x < ar.main.w && y >= 0 && y < ar.main.h &&
           !view_panels_cover(a, x, y);
}

static int over_macro(const view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    return x >= ar.label_w && x < ar.macro.w && y >= ar.macro.y && y < ar.macro.y + ar.macro.h;
}

static double macro_time_at(const view_app *a, double x)
{
    tlv_view mv;
    view_macro_view(a, &mv);
    return tlv_view_time(&mv, x);
}

/* Trace time per pixel of the main timeline. */
static double pixel_time(const view_app *a)
{
    view_areas ar;
    view_areas_of(a, &ar);
    return (a->nav.t1 - a->nav.t0) / fmax(1, ar.main.w - ar.label_w);
}

/* Where zooming keeps still: the selected marker when it is in view, else
 * the cursor over the timeline, else the centre. */
static double zoom_anchor(const view_app *a, int prefer_marker)
{
    const view_markers *m = &a->markers;
    if (prefer_marker && m->selected >= 0 && (size_t)m->selected < m->n) {
        double t = m->v[m->selected].time;
        if (t >= a->nav.t0 && t <= a->nav.t1)
            return t;
    }
    if (input_over_timeline(a, a->mx, a->my))
        return input_time_at(a, a->mx);
    return a->nav.t0 / 2 + a->nav.t1 / 2;
}

/* Where zooming keeps still: in follow mode the newest time, so that it
 * stays in view. */
static double zoom_point(const view_app *a, int prefer_marker)
{
    return a->core->follow ? a->nav.trace_t1 : zoom_anchor(a, prefer_marker);
}

static void set_first_row(view_app *a, int row)
{
    int top = view_max_first_row(a);
    a->nav.first_row = row < 0 ? 0 : row > top ? top : row;
}

/* ---- keys ------------------------------------------------------------------------- */

/* Each key's action, in the form of a key table's row (p is NULL: the core's). */
#define CORE_KEY(name) static void name(view_panel *p, view_app *a, SDL_Keycode key, int mods)

CORE_KEY(toggle_per_cpu)
{
    (void)p, (void)key, (void)mods;
    if (view_build_shapes(a, !a->per_cpu) < 0)
        return;
    const tlv_diags *d = tlv_shapes_diags(a->shapes);
    for (size_t i = 0; i < tlv_diags_count(d); i++)
        if (tlv_diags_get(d, i)->severity == TLV_SEV_WARNING && a->per_cpu) {
            view_message(a, "%s", tlv_diags_get(d, i)->message);
            return;
        }
    view_message(a, "per-CPU rows %s", a->per_cpu ? "on" : "off");
}

CORE_KEY(add_marker)
{
    (void)p, (void)key, (void)mods;
    double t = zoom_anchor(a, 0);
    long i = markers_add(&a->markers, t, NULL);
    if (i >= 0)
        view_message(a, "marker %s added", a->markers.v[i].name);
}

/* [ and ]: select the previous/next marker and centre on it. */
CORE_KEY(jump_marker)
{
    (void)p, (void)mods;
    int dir = key == SDLK_LEFTBRACKET ? -1 : 1;
    const view_markers *m = &a->markers;
    double from = a->nav.t0 / 2 + a->nav.t1 / 2, eps = pixel_time(a) / 2;
    if (m->selected >= 0 && (size_t)m->selected < m->n && m->v[m->selected].time >= a->nav.t0 &&
        m->v[m->selected].time <= a->nav.t1)
        from = m->v[m->selected].time;
    long i = dir < 0 ? markers_prev(m, from, eps) : markers_next(m, from, eps);
    if (i < 0) {
        view_message(a, "no marker %s", dir < 0 ? "before" : "after");
        return;
    }
    a->markers.selected = i;
    nav_begin(&a->nav, NAV_JUMP);
    nav_center(&a->nav, m->v[i].time);
    view_jumped(a, m->v[i].time, -1);
}

CORE_KEY(delete_marker)
{
    (void)p, (void)key, (void)mods;
    if (a->markers.selected >= 0)
        markers_remove(&a->markers, (size_t)a->markers.selected);
}

CORE_KEY(take_screenshot)
{
    (void)p, (void)key, (void)mods;
    char path[256];
    const char *base = strrchr(a->opts.input, '/');
    base = base ? base + 1 : a->opts.input;
    snprintf(path, sizeof path, "%s-view-%u.png", strcmp(base, "-") ? base : "stdin", ++a->core->shot_count);
    free(a->core->shot_path);
    if (!(a->core->shot_path = strdup(path))) /* else the key would do nothing, without a word */
        report_nomem("taking a screenshot of", a->opts.input);
}

/* Esc: no selection, range, measurement, banner or selected marker; then
 * the panels clear theirs (the search's highlight, the selected shape). */
CORE_KEY(escape)
{
    (void)p, (void)key, (void)mods;
    if (a->has_range || a->core->measure_n) /* its "z zooms to it" or "measured" would stay */
        view_message_clear(a);
    range_clear(a);
    a->core->has_sel = 0;
    a->core->show_banner = 0;
    a->markers.selected = -1;
    view_panels_note(a, VIEW_NOTE_ESCAPE);
}

CORE_KEY(zoom_range) { (void)p, (void)key, (void)mods; range_zoom(a); }
CORE_KEY(help) { (void)p, (void)key, (void)mods; a->core->show_help = !a->core->show_help; }
CORE_KEY(quit) { (void)p, (void)key, (void)mods; a->core->quit = 1; }
CORE_KEY(reload) { (void)p, (void)key, (void)mods; view_reload(a); }
CORE_KEY(follow) { (void)p, (void)key, (void)mods; live_toggle_follow(a); }
CORE_KEY(open_log) { (void)p, (void)key, (void)mods; view_open_prompt(a); }
CORE_KEY(time_axis) { (void)p, (void)key, (void)mods; sizes_next_time_axis(a); }

CORE_KEY(row_height)
{
    (void)p, (void)mods;
    nav_begin(&a->nav, NAV_ROWS);
    sizes_step_row_height(a, key == SDLK_UP ? 1 : -1);
}

/* Left/Right and A/D pan by an eighth of the span (Shift: a half). */
CORE_KEY(pan)
{
    (void)p;
    double span = a->nav.t1 - a->nav.t0;
    int back = key == SDLK_LEFT || key == SDLK_a;
    nav_begin(&a->nav, NAV_KEY_PAN);
    nav_pan(&a->nav, (back ? -1 : 1) * span * (mods & VIEW_MOD_SHIFT ? PAN_KEY_SHIFT : PAN_KEY));
}

/* Up/Down, W/S and +/- zoom by 2 (Shift with the arrows or W/S: 4). */
CORE_KEY(zoom)
{
    (void)p;
    int big = (mods & VIEW_MOD_SHIFT) &&
              (key == SDLK_UP || key == SDLK_DOWN || key == SDLK_w || key == SDLK_s);
    int in = key == SDLK_UP || key == SDLK_w || key == SDLK_PLUS || key == SDLK_EQUALS ||
             key == SDLK_KP_PLUS;
    double f = big ? ZOOM_KEY_SHIFT : ZOOM_KEY;
    nav_begin(&a->nav, NAV_KEY_ZOOM);
    nav_zoom(&a->nav, zoom_point(a, 1), in ? 1 / f : f);
}

/* Home/End: the trace's start or end at the same span. */
CORE_KEY(home_end)
{
    (void)p, (void)mods;
    double span = a->nav.t1 - a->nav.t0;
    nav_begin(&a->nav, NAV_JUMP);
    if (key == SDLK_HOME)
        nav_set(&a->nav, a->nav.trace_t0, a->nav.trace_t0 + span);
    else
        nav_set(&a->nav, a->nav.trace_t1 - span, a->nav.trace_t1);
}

CORE_KEY(fit)
{
    (void)p, (void)key, (void)mods;
    nav_begin(&a->nav, NAV_JUMP);
    nav_fit(&a->nav);
}

CORE_KEY(back)
{
    (void)p, (void)key, (void)mods;
    if (!nav_back(&a->nav))
        view_message(a, "no earlier view");
    set_first_row(a, a->nav.first_row);
}

CORE_KEY(page_rows)
{
    (void)p, (void)mods;
    view_areas ar;
    view_areas_of(a, &ar);
    int page = ar.row_height ? (ar.main.h - ar.ruler_h) / ar.row_height : 0;
    nav_begin(&a->nav, NAV_ROWS);
    set_first_row(a, a->nav.first_row + (key == SDLK_PAGEUP ? -page : page));
}

#define PLAIN VIEW_KEYS_PLAIN
#define SHIFT VIEW_KEYS_SHIFT
#define CTRL VIEW_KEYS_CTRL
#define CTRL_SHIFT VIEW_KEYS_CTRL_SHIFT
#define ANY VIEW_KEYS_ANY
#define UNSHIFTED (PLAIN | CTRL | CTRL_SHIFT) /* Shift+ is another key's */

/* The core's keys, and the mouse's help. Perfetto's W/A/S/D and +/- do what
 * the arrows do. */
const view_key view_core_keys[] = {
    {0, 0, "wheel: scroll rows    Shift+wheel: zoom at the cursor    Ctrl+wheel: pan", NULL},
    {0, 0, "left drag: pan    right drag or Shift+left drag: select a range and zoom to it", NULL},
    {0, 0, "double-click: centre there    macro view: click to jump, drag the box or its edges", NULL},
    {SDLK_LEFT, ANY, "Left/Right or A/D: pan", pan},
    {SDLK_RIGHT, ANY, NULL, pan},
    {SDLK_a, PLAIN | SHIFT, NULL, pan},
    {SDLK_d, PLAIN | SHIFT, NULL, pan},
    {SDLK_UP, PLAIN | SHIFT | CTRL_SHIFT, "Up/Down, W/S or +/-: zoom at the cursor (or the selected marker)", zoom},
    {SDLK_DOWN, PLAIN | SHIFT | CTRL_SHIFT, NULL, zoom},
    {SDLK_w, PLAIN | SHIFT, NULL, zoom},
    {SDLK_s, PLAIN | SHIFT, NULL, zoom},
    {SDLK_PLUS, PLAIN | SHIFT, NULL, zoom},
    {SDLK_EQUALS, PLAIN | SHIFT, NULL, zoom},
    {SDLK_KP_PLUS, PLAIN | SHIFT, NULL, zoom},
    {SDLK_MINUS, PLAIN | SHIFT, NULL, zoom},
    {SDLK_KP_MINUS, PLAIN | SHIFT, NULL, zoom},
    {SDLK_HOME, PLAIN | SHIFT, "Home/End: the trace's start/end", home_end},
    {SDLK_END, PLAIN | SHIFT, NULL, home_end},
    {SDLK_PAGEUP, ANY, "PageUp/PageDown: a page of rows", page_rows},
    {SDLK_PAGEDOWN, ANY, NULL, page_rows},
    {SDLK_t, PLAIN, "t: ruler times absolute/from start/from marker", time_axis},
    {SDLK_UP, CTRL, "Ctrl+Up/Down or Ctrl+wheel over the names: row height", row_height},
    {SDLK_DOWN, CTRL, NULL, row_height},
    {0, 0, "drag the names' right edge: their width", NULL},
    {SDLK_f, UNSHIFTED, "f: fit the whole trace", fit},
    {SDLK_BACKSPACE, ANY, "Backspace: previous view", back},
    {SDLK_c, PLAIN, "c: per-CPU rows on/off", toggle_per_cpu},
    {SDLK_m, UNSHIFTED, "m: marker at the cursor", add_marker},
    {SDLK_LEFTBRACKET, PLAIN | CTRL, "[ ]: previous/next marker", jump_marker},
    {SDLK_RIGHTBRACKET, PLAIN | CTRL, NULL, jump_marker},
    {SDLK_DELETE, ANY, "Delete: delete the selected marker", delete_marker},
    {0, 0, "Ctrl+drag: select a range    Ctrl+click twice: measure the time between two points", NULL},
    {SDLK_z, ANY, "z: zoom to the range", zoom_range},
    {SDLK_ESCAPE, ANY, "Esc: clear the selection, range, measurement and highlight", escape},
    {SDLK_F12, ANY, "F12: screenshot", take_screenshot},
    {SDLK_F1, ANY, "F1 or ?: this help", help},
    {SDLK_QUESTION, ANY, NULL, help},
    {SDLK_q, CTRL | CTRL_SHIFT, "Ctrl+Q: quit", quit},
    {SDLK_f, SHIFT, "live logs: Shift+F follow the newest time (LIVE/FOLLOW in the status line)", follow},
    {SDLK_F5, ANY, "F5 or Ctrl+R: reload log and rules", reload},
    {SDLK_r, CTRL, NULL, reload},
    {SDLK_o, CTRL, "Ctrl+O: open a log", open_log},
};
const size_t view_core_key_count = sizeof view_core_keys / sizeof *view_core_keys;

void input_key(view_app *a, SDL_Keycode key, int mods)
{
    view_dirty(a);
    view_panel *grab = a->core->grab;
    if (grab) { /* typing: the prompt takes every key, none navigates */
        if (grab->grabbed_key)
            grab->grabbed_key(grab, a, key, mods);
        return;
    }
    if (key != SDLK_F1 && key != SDLK_QUESTION)
        a->core->show_help = 0;
    view_key_owner owners[VIEW_MAX_PANELS + 1];
    const view_key_owner *owner;
    const view_key *k = view_keys_find(owners, view_key_owners(a, owners), key, mods, &owner);
    if (k)
        k->run(owner->panel, a, key, mods);
    view_hover_update(a);
}

/* ---- wheel ------------------------------------------------------------------------ */

void input_wheel(view_app *a, double x, double y, double notches, int mods)
{
    a->mx = x;
    a->my = y;
    a->mouse_in = 1;
    if (view_panels_wheel(a, x, y, notches)) {
        view_dirty(a);
        return;
    }
    view_areas ar;
    view_areas_of(a, &ar);
    if ((mods & VIEW_MOD_CTRL) && x < ar.label_w && y >= ar.ruler_h && y < ar.main.h) {
        nav_begin(&a->nav, NAV_ROWS); /* over the labels: the row height */
        sizes_step_row_height(a, (int)lround(notches));
    } else if (mods & VIEW_MOD_SHIFT) {
        nav_begin(&a->nav, NAV_WHEEL_ZOOM);
        nav_zoom(&a->nav, zoom_point(a, 0), pow(ZOOM_NOTCH, notches));
    } else if (mods & VIEW_MOD_CTRL) {
        nav_begin(&a->nav, NAV_WHEEL_PAN);
        nav_pan(&a->nav, -notches * PAN_NOTCH * (a->nav.t1 - a->nav.t0));
    } else {
        nav_begin(&a->nav, NAV_ROWS);
        set_first_row(a, a->nav.first_row - (int)lround(notches));
    }
    view_hover_update(a);
    view_dirty(a);
}

/* ---- buttons and motion -------------------------------------------------------------- */

/* A press in the macro view: on an edge of the box resizes it, inside moves
 * it, elsewhere jumps there (and moves from there). */
static void macro_press(view_app *a, double x)
{
    tlv_view mv;
    view_macro_view(a, &mv);
    double bx0 = tlv_view_x(&mv, a->nav.t0), bx1 = tlv_view_x(&mv, a->nav.t1);
    double grab = EDGE_GRAB * a->scale;
    double t = tlv_view_time(&mv, x);
    if (bx1 - bx0 > 3 * grab && fabs(x - bx0) <= grab)
        a->drag = DRAG_MACRO_LEFT;
    else if (bx1 - bx0 > 3 * grab && fabs(x - bx1) <= grab)
        a->drag = DRAG_MACRO_RIGHT;
    else {
        a->drag = DRAG_MACRO_MOVE;
        if (x < bx0 || x > bx1) {
            nav_begin(&a->nav, NAV_JUMP);
            nav_center(&a->nav, t);
            a->core->drag.recorded = 1;
        }
    }
    a->core->drag.x = t; /* for the macro view: the time pressed */
    a->core->drag.t0 = a->nav.t0;
    a->core->drag.t1 = a->nav.t1;
}

/* The marker whose line or name in the ruler is at (x, y), or -1. */
static long marker_hit(view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    if (y < 0 || y >= ar.ruler_h || x < ar.label_w)
        return -1;
    tlv_view v;
    view_main_view(a, &v);
    const view_markers *m = &a->markers;
    int th = view_text_height(a->text), pad = (int)lround(3 * a->scale);
    for (size_t i = m->n; i > 0; i--) { /* the last drawn is on top */
        if (!markers_shown(m, i - 1))
            continue;
        double mx = tlv_view_x(&v, m->v[i - 1].time);
        double name_end = mx + 1 + view_text_width(a->text, m->v[i - 1].name) + 2 * pad;
        if (fabs(x - mx) <= MARKER_GRAB * a->scale || (x >= mx && x <= name_end && y < th))
            return (long)(i - 1);
    }
    return -1;
}

/* Dragging the selected marker (pressed at drag_x when it was at time
 * drag_t0) with the pointer now at x. */
static void marker_drag_to(view_app *a, double x)
{
    if (!view_selected_marker(a))
        return;
    double t = a->core->drag.t0 + input_time_at(a, x) - input_time_at(a, a->core->drag.x);
    a->markers.selected = (long)markers_move(&a->markers, (size_t)a->markers.selected, t);
    view_dirty(a);
}

/* A click (press and release in place) on the timeline selects the marker
 * under it, if any. */
static void timeline_click(view_app *a, double x)
{
    tlv_view v;
    view_main_view(a, &v);
    const view_markers *m = &a->markers;
    for (size_t i = 0; i < m->n; i++)
        if (markers_shown(m, i) && fabs(tlv_view_x(&v, m->v[i].time) - x) <= EDGE_GRAB * a->scale) {
            a->markers.selected = (long)i;
            return;
        }
    view_hover_update(a);
    view_panels_note(a, VIEW_NOTE_CLICK); /* a shape selected, or the selection cleared */
}

static void press(view_app *a, double x, double y, int button, int mods, int clicks)
{
    a->core->show_banner = 0;
    a->drag = DRAG_NONE;
    a->core->drag.button = button;
    a->core->drag.moved = 0;
    a->core->drag.recorded = 0;
    a->core->drag.y = y;
    if (view_panels_press(a, x, y, button, clicks))
        return;
    if (button == SDL_BUTTON_LEFT && over_macro(a, x, y)) {
        macro_press(a, x);
        return;
    }
    if (button == SDL_BUTTON_LEFT && sizes_on_label_edge(a, x, y)) {
        a->drag = DRAG_LABEL_EDGE;
        a->core->drag.x = x;
        return;
    }
    if (!input_over_timeline(a, x, y))
        return;
    long mk = button == SDL_BUTTON_LEFT && !(mods & VIEW_MOD_SHIFT) ? marker_hit(a, x, y) : -1;
    if (mk >= 0) { /* a marker's line or name in the ruler: drag it */
        a->markers.selected = mk;
        a->drag = DRAG_MARKER;
        a->core->drag.x = x;
        a->core->drag.t0 = a->markers.v[mk].time; /* it moves by as much as the pointer */
        return;
    }
    if (button == SDL_BUTTON_LEFT && clicks >= 2) {
        view_panels_note(a, VIEW_NOTE_OPEN_SHAPE); /* the shape double-clicked, before the view moves */
        nav_begin(&a->nav, NAV_JUMP);
        nav_center(&a->nav, input_time_at(a, x));
        return;
    }
    a->core->drag.x = x;
    a->core->drag.t0 = a->nav.t0;
    a->core->drag.t1 = a->nav.t1;
    if (button == SDL_BUTTON_LEFT && (mods & VIEW_MOD_CTRL) && !(mods & VIEW_MOD_SHIFT))
        a->drag = DRAG_RANGE; /* a range (drag) or a measurement point (click) */
    else if (button == SDL_BUTTON_RIGHT || (button == SDL_BUTTON_LEFT && (mods & VIEW_MOD_SHIFT)))
        a->drag = DRAG_SELECT;
    else if (button == SDL_BUTTON_LEFT)
        a->drag = DRAG_PAN;
}

static void release(view_app *a, double x)
{
    drag_mode d = a->drag;
    a->drag = DRAG_NONE;
    if (d == DRAG_SELECT && a->core->drag.moved && a->core->sel1 != a->core->sel0) {
        nav_begin(&a->nav, NAV_JUMP);
        nav_set(&a->nav, fmin(a->core->sel0, a->core->sel1), fmax(a->core->sel0, a->core->sel1));
    } else if (d == DRAG_SELECT && !a->core->drag.moved && a->core->drag.button == SDL_BUTTON_RIGHT) {
        a->core->has_sel = 0; /* a right click clears the selection */
    } else if (d == DRAG_RANGE && a->core->drag.moved) {
        range_set(a, a->range0, a->range1);
        if (a->has_range) {
            char t[64];
            view_message(a, "range %s: z zooms to it",
                         view_time_text(a, a->range1 - a->range0, 0, t, sizeof t));
        }
    } else if (d == DRAG_RANGE) {
        measure_click(a, input_time_at(a, x));
    } else if (d == DRAG_PAN && !a->core->drag.moved) {
        timeline_click(a, x);
    } else if (d == DRAG_MARKER && a->core->drag.moved) {
        view_marker_moved(a);
    }
}

void input_button(view_app *a, double x, double y, int button, int down, int mods, int clicks)
{
    a->mx = x;
    a->my = y;
    a->mouse_in = 1;
    if (down && a->core->grab)
        ; /* the prompt's marker or range must stay put until it closes */
    else if (down)
        press(a, x, y, button, mods, clicks);
    else if (button == a->core->drag.button)
        release(a, x);
    if (!down)
        view_panels_note(a, VIEW_NOTE_RELEASE);
    view_hover_update(a);
    view_dirty(a);
}

/* Moves the dragged thing to pointer x. */
static void drag_to(view_app *a, double x)
{
    switch (a->drag) {
    case DRAG_PAN: {
        view_areas ar;
        view_areas_of(a, &ar);
        double dt = (x - a->core->drag.x) * (a->core->drag.t1 - a->core->drag.t0) / fmax(1, ar.main.w - ar.label_w);
        nav_set(&a->nav, a->core->drag.t0 - dt, a->core->drag.t1 - dt);
        break;
    }
    case DRAG_SELECT: {
        tlv_view v;
        view_main_view(a, &v);
        a->core->has_sel = 1;
        a->core->sel0 = tlv_view_time(&v, a->core->drag.x);
        a->core->sel1 = tlv_view_time(&v, x);
        break;
    }
    case DRAG_RANGE: {
        tlv_view v;
        view_main_view(a, &v);
        double t0 = tlv_view_time(&v, a->core->drag.x), t1 = tlv_view_time(&v, x);
        a->range0 = fmin(t0, t1);
        a->range1 = fmax(t0, t1);
        break;
    }
    case DRAG_MARKER:
        marker_drag_to(a, x);
        break;
    case DRAG_LABEL_EDGE:
        sizes_drag_label_edge(a, x);
        break;
    case DRAG_MACRO_MOVE: {
        double dt = macro_time_at(a, x) - a->core->drag.x;
        nav_set(&a->nav, a->core->drag.t0 + dt, a->core->drag.t1 + dt);
        break;
    }
    case DRAG_MACRO_LEFT:
    case DRAG_MACRO_RIGHT: {
        double t = macro_time_at(a, x);
        if (a->drag == DRAG_MACRO_LEFT)
            nav_set(&a->nav, t, a->nav.t1);
        else
            nav_set(&a->nav, a->nav.t0, t);
        break;
    }
    default:
        break;
    }
}

void input_motion(view_app *a, double x, double y)
{
    a->mx = x;
    a->my = y;
    a->mouse_in = 1;
    if (a->drag != DRAG_NONE && !a->core->drag.moved) {
        double from = a->drag <= DRAG_MARKER ? a->core->drag.x : x; /* pan, select, marker: x pressed */
        if (fabs(x - from) >= DRAG_SLOP * a->scale || fabs(y - a->core->drag.y) >= DRAG_SLOP * a->scale ||
            a->drag >= DRAG_MACRO_MOVE) {
            a->core->drag.moved = 1;
            if (a->drag != DRAG_SELECT && a->drag != DRAG_RANGE && a->drag != DRAG_MARKER &&
                a->drag != DRAG_LABEL_EDGE && !a->core->drag.recorded)
                nav_begin(&a->nav, NAV_JUMP); /* one history step per drag */
        }
    }
    if (a->core->drag.moved)
        drag_to(a, x);
    view_hover_update(a);
    view_panels_note(a, VIEW_NOTE_POINTER);
    view_dirty(a);
}

void input_text(view_app *a, const char *utf8)
{
    view_panel *grab = a->core->grab;
    if (grab) {
        if (grab->grabbed_text)
            grab->grabbed_text(grab, a, utf8);
    } else if (strcmp(utf8, "?") == 0)
        input_key(a, SDLK_QUESTION, 0);
    else if (strcmp(utf8, "/") == 0)
        input_key(a, SDLK_SLASH, 0);
    view_dirty(a);
}

void input_leave(view_app *a)
{
    a->mouse_in = 0;
    a->hover.valid = 0;
    view_dirty(a);
}

/* ---- SDL events ------------------------------------------------------------------- */

static int mods_of(SDL_Keymod m)
{
    return (m & KMOD_SHIFT ? VIEW_MOD_SHIFT : 0) | (m & KMOD_CTRL ? VIEW_MOD_CTRL : 0);
}

void input_sdl_event(view_app *a, const SDL_Event *e)
{
    double r = a->win_w > 0 ? (double)a->px_w / a->win_w : 1;
    switch (e->type) {
    case SDL_QUIT:
        a->core->quit = 1;
        break;
    case SDL_WINDOWEVENT:
        if (e->window.event == SDL_WINDOWEVENT_LEAVE)
            input_leave(a);
        view_update_size(a);
        view_dirty(a);
        break;
    case SDL_KEYDOWN:
        if (e->key.keysym.sym == SDLK_QUESTION || e->key.keysym.sym == SDLK_SLASH)
            break; /* comes as text input too, whatever the keyboard layout */
        input_key(a, e->key.keysym.sym, mods_of((SDL_Keymod)e->key.keysym.mod));
        break;
    case SDL_TEXTINPUT:
        input_text(a, e->text.text);
        break;
    case SDL_MOUSEMOTION:
        input_motion(a, e->motion.x * r, e->motion.y * r);
        break;
    case SDL_MOUSEBUTTONDOWN:
    case SDL_MOUSEBUTTONUP:
        input_button(a, e->button.x * r, e->button.y * r, e->button.button,
                     e->type == SDL_MOUSEBUTTONDOWN, mods_of(SDL_GetModState()), e->button.clicks);
        break;
    case SDL_MOUSEWHEEL: {
        double n = e->wheel.preciseY * (e->wheel.direction == SDL_MOUSEWHEEL_FLIPPED ? -1 : 1);
        input_wheel(a, e->wheel.mouseX * r, e->wheel.mouseY * r, n, mods_of(SDL_GetModState()));
        break;
    }
    default:
        break;
    }
}
