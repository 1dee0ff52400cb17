/*
 * view_input.c — what the mouse and keyboard do in the viewer. SDL events
 * are translated into the input_* calls below (window coordinates scaled to
 * drawable pixels), and --script calls them directly, so a script drives the
 * viewer exactly as a person would.
 *
 * Steps, so that scripted tests can predict ranges: ←/→ (and A/D) pan by an
 * eighth of the span (Shift: a half), ↑/↓ (and W/S, +/-) zoom by 2 (Shift:
 * 4) at the anchor; a wheel notch zooms by 0.8 (Shift+wheel), pans a tenth
 * (Ctrl+wheel) or scrolls one row (wheel); Home/End show the trace's start
 * or end at the same span. Over the label column, Ctrl+wheel (and anywhere
 * Ctrl+↑/↓) changes the row height, and its right edge drags its width.
 */
#include "view/view.h"

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
    return a->follow ? a->nav.trace_t1 : zoom_anchor(a, prefer_marker);
}

static void set_first_row(view_app *a, int row)
{
    int top = view_max_first_row(a);
    a->nav.first_row = row < 0 ? 0 : row > top ? top : row;
}

/* ---- keys ------------------------------------------------------------------------- */

static void toggle_per_cpu(view_app *a)
{
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

static void add_marker(view_app *a)
{
    double t = zoom_anchor(a, 0);
    long i = markers_add(&a->markers, t, NULL);
    if (i >= 0)
        view_message(a, "marker %s added", a->markers.v[i].name);
}

/* [ and ]: select the previous/next marker and centre on it. */
static void jump_marker(view_app *a, int dir)
{
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

static void take_screenshot(view_app *a)
{
    char path[256];
    const char *base = strrchr(a->opts.input, '/');
    base = base ? base + 1 : a->opts.input;
    snprintf(path, sizeof path, "%s-view-%u.png", strcmp(base, "-") ? base : "stdin", ++a->shot_count);
    free(a->shot_path);
    if (!(a->shot_path = strdup(path))) /* else the key would do nothing, without a word */
        report_nomem("taking a screenshot of", a->opts.input);
}

/* Keys of live logs and reloading (view_live.c). Returns 1 when `key` was one. */
static int live_key(view_app *a, SDL_Keycode key, int mods)
{
    if (key == SDLK_F5 || (key == SDLK_r && mods == VIEW_MOD_CTRL))
        view_reload(a);
    else if (key == SDLK_f && mods == VIEW_MOD_SHIFT)
        live_toggle_follow(a);
    else if (key == SDLK_o && mods == VIEW_MOD_CTRL)
        view_open_prompt(a);
    else
        return 0;
    return 1;
}

/* Perfetto's and other common keys for what the arrows do, Home/End, row
 * height and the ruler's time axis. Returns 1 when `key` was one. */
static int convention_key(view_app *a, SDL_Keycode key, int mods)
{
    int shift = mods & VIEW_MOD_SHIFT, plain = !(mods & VIEW_MOD_CTRL);
    double span = a->nav.t1 - a->nav.t0;
    if ((key == SDLK_UP || key == SDLK_DOWN) && mods == VIEW_MOD_CTRL) {
        nav_begin(&a->nav, NAV_ROWS);
        sizes_step_row_height(a, key == SDLK_UP ? 1 : -1);
        return 1;
    }
    if (!plain)
        return 0;
    switch (key) {
    case SDLK_w: case SDLK_s: case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
    case SDLK_MINUS: case SDLK_KP_MINUS: {
        double f = shift && (key == SDLK_w || key == SDLK_s) ? ZOOM_KEY_SHIFT : ZOOM_KEY;
        int in = key == SDLK_w || key == SDLK_PLUS || key == SDLK_EQUALS || key == SDLK_KP_PLUS;
        nav_begin(&a->nav, NAV_KEY_ZOOM);
        nav_zoom(&a->nav, zoom_point(a, 1), in ? 1 / f : f);
        return 1;
    }
    case SDLK_a: case SDLK_d:
        nav_begin(&a->nav, NAV_KEY_PAN);
        nav_pan(&a->nav, (key == SDLK_a ? -1 : 1) * span * (shift ? PAN_KEY_SHIFT : PAN_KEY));
        return 1;
    case SDLK_HOME: case SDLK_END:
        nav_begin(&a->nav, NAV_JUMP);
        if (key == SDLK_HOME)
            nav_set(&a->nav, a->nav.trace_t0, a->nav.trace_t0 + span);
        else
            nav_set(&a->nav, a->nav.trace_t1 - span, a->nav.trace_t1);
        return 1;
    case SDLK_t:
        if (shift)
            return 0;
        sizes_next_time_axis(a);
        return 1;
    default:
        return 0;
    }
}

/* Keys that move the view. Returns 1 when `key` was one. */
static int navigation_key(view_app *a, SDL_Keycode key, int shift)
{
    double span = a->nav.t1 - a->nav.t0;
    switch (key) {
    case SDLK_LEFT:
    case SDLK_RIGHT:
        nav_begin(&a->nav, NAV_KEY_PAN);
        nav_pan(&a->nav, (key == SDLK_LEFT ? -1 : 1) * span * (shift ? PAN_KEY_SHIFT : PAN_KEY));
        return 1;
    case SDLK_UP:
    case SDLK_DOWN: {
        double f = shift ? ZOOM_KEY_SHIFT : ZOOM_KEY;
        nav_begin(&a->nav, NAV_KEY_ZOOM);
        nav_zoom(&a->nav, zoom_point(a, 1), key == SDLK_UP ? 1 / f : f);
        return 1;
    }
    case SDLK_f:
        nav_begin(&a->nav, NAV_JUMP);
        nav_fit(&a->nav);
        return 1;
    case SDLK_BACKSPACE:
        if (!nav_back(&a->nav))
            view_message(a, "no earlier view");
        set_first_row(a, a->nav.first_row);
        return 1;
    case SDLK_PAGEUP:
    case SDLK_PAGEDOWN: {
        view_areas ar;
        view_areas_of(a, &ar);
        int page = ar.row_height ? (ar.main.h - ar.ruler_h) / ar.row_height : 0;
        nav_begin(&a->nav, NAV_ROWS);
        set_first_row(a, a->nav.first_row + (key == SDLK_PAGEUP ? -page : page));
        return 1;
    }
    case SDLK_LEFTBRACKET:
    case SDLK_RIGHTBRACKET:
        jump_marker(a, key == SDLK_LEFTBRACKET ? -1 : 1);
        return 1;
    default:
        return 0;
    }
}

void input_key(view_app *a, SDL_Keycode key, int mods)
{
    view_dirty(a);
    if (a->prompt.open) { /* typing: the prompt panel takes every key, none navigates */
        view_panels_key(a, key, mods);
        return;
    }
    if (key == SDLK_F1 || key == SDLK_QUESTION) {
        a->show_help = !a->show_help;
        return;
    }
    a->show_help = 0;
    if (live_key(a, key, mods) || view_panels_key(a, key, mods) || convention_key(a, key, mods) ||
        navigation_key(a, key, mods & VIEW_MOD_SHIFT)) {
        view_hover_update(a);
        return;
    }
    switch (key) {
    case SDLK_c:
        if (!mods) /* Ctrl+C copies (where a panel offers it), never this */
            toggle_per_cpu(a);
        break;
    case SDLK_m:
        add_marker(a);
        break;
    case SDLK_DELETE:
        if (a->markers.selected >= 0)
            markers_remove(&a->markers, (size_t)a->markers.selected);
        break;
    case SDLK_z:
        range_zoom(a);
        break;
    case SDLK_ESCAPE:
        range_clear(a);
        a->has_sel = 0;
        a->show_banner = 0;
        a->markers.selected = -1;
        break;
    case SDLK_F12:
        take_screenshot(a);
        break;
    case SDLK_q:
        if (mods & VIEW_MOD_CTRL)
            a->quit = 1;
        break;
    default:
        break;
    }
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
            a->drag_recorded = 1;
        }
    }
    a->drag_x = t; /* for the macro view: the time pressed */
    a->drag_t0 = a->nav.t0;
    a->drag_t1 = a->nav.t1;
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
    double t = a->drag_t0 + input_time_at(a, x) - input_time_at(a, a->drag_x);
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
    a->show_banner = 0;
    a->drag = DRAG_NONE;
    a->drag_button = button;
    a->drag_moved = 0;
    a->drag_recorded = 0;
    a->drag_y = y;
    if (view_panels_press(a, x, y, button, clicks))
        return;
    if (button == SDL_BUTTON_LEFT && over_macro(a, x, y)) {
        macro_press(a, x);
        return;
    }
    if (button == SDL_BUTTON_LEFT && sizes_on_label_edge(a, x, y)) {
        a->drag = DRAG_LABEL_EDGE;
        a->drag_x = x;
        return;
    }
    if (!input_over_timeline(a, x, y))
        return;
    long mk = button == SDL_BUTTON_LEFT && !(mods & VIEW_MOD_SHIFT) ? marker_hit(a, x, y) : -1;
    if (mk >= 0) { /* a marker's line or name in the ruler: drag it */
        a->markers.selected = mk;
        a->drag = DRAG_MARKER;
        a->drag_x = x;
        a->drag_t0 = a->markers.v[mk].time; /* it moves by as much as the pointer */
        return;
    }
    if (button == SDL_BUTTON_LEFT && clicks >= 2) {
        view_panels_note(a, VIEW_NOTE_OPEN_SHAPE); /* the shape double-clicked, before the view moves */
        nav_begin(&a->nav, NAV_JUMP);
        nav_center(&a->nav, input_time_at(a, x));
        return;
    }
    a->drag_x = x;
    a->drag_t0 = a->nav.t0;
    a->drag_t1 = a->nav.t1;
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
    if (d == DRAG_SELECT && a->drag_moved && a->sel1 != a->sel0) {
        nav_begin(&a->nav, NAV_JUMP);
        nav_set(&a->nav, fmin(a->sel0, a->sel1), fmax(a->sel0, a->sel1));
    } else if (d == DRAG_SELECT && !a->drag_moved && a->drag_button == SDL_BUTTON_RIGHT) {
        a->has_sel = 0; /* a right click clears the selection */
    } else if (d == DRAG_RANGE && a->drag_moved) {
        range_set(a, a->range0, a->range1);
        if (a->has_range) {
            char t[64];
            view_message(a, "range %s: z zooms to it",
                         view_time_text(a, a->range1 - a->range0, 0, t, sizeof t));
        }
    } else if (d == DRAG_RANGE) {
        measure_click(a, input_time_at(a, x));
    } else if (d == DRAG_PAN && !a->drag_moved) {
        timeline_click(a, x);
    } else if (d == DRAG_MARKER && a->drag_moved) {
        view_marker_moved(a);
    }
}

void input_button(view_app *a, double x, double y, int button, int down, int mods, int clicks)
{
    a->mx = x;
    a->my = y;
    a->mouse_in = 1;
    if (down && a->prompt.open)
        ; /* the prompt's marker or range must stay put until it closes */
    else if (down)
        press(a, x, y, button, mods, clicks);
    else if (button == a->drag_button)
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
        double dt = (x - a->drag_x) * (a->drag_t1 - a->drag_t0) / fmax(1, ar.main.w - ar.label_w);
        nav_set(&a->nav, a->drag_t0 - dt, a->drag_t1 - dt);
        break;
    }
    case DRAG_SELECT: {
        tlv_view v;
        view_main_view(a, &v);
        a->has_sel = 1;
        a->sel0 = tlv_view_time(&v, a->drag_x);
        a->sel1 = tlv_view_time(&v, x);
        break;
    }
    case DRAG_RANGE: {
        tlv_view v;
        view_main_view(a, &v);
        double t0 = tlv_view_time(&v, a->drag_x), t1 = tlv_view_time(&v, x);
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
        double dt = macro_time_at(a, x) - a->drag_x;
        nav_set(&a->nav, a->drag_t0 + dt, a->drag_t1 + dt);
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
    if (a->drag != DRAG_NONE && !a->drag_moved) {
        double from = a->drag <= DRAG_MARKER ? a->drag_x : x; /* pan, select, marker: x pressed */
        if (fabs(x - from) >= DRAG_SLOP * a->scale || fabs(y - a->drag_y) >= DRAG_SLOP * a->scale ||
            a->drag >= DRAG_MACRO_MOVE) {
            a->drag_moved = 1;
            if (a->drag != DRAG_SELECT && a->drag != DRAG_RANGE && a->drag != DRAG_MARKER &&
                a->drag != DRAG_LABEL_EDGE && !a->drag_recorded)
                nav_begin(&a->nav, NAV_JUMP); /* one history step per drag */
        }
    }
    if (a->drag_moved)
        drag_to(a, x);
    view_hover_update(a);
    view_panels_note(a, VIEW_NOTE_POINTER);
    view_dirty(a);
}

void input_text(view_app *a, const char *utf8)
{
    if (view_panels_text(a, utf8))
        ;
    else if (strcmp(utf8, "?") == 0)
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
        a->quit = 1;
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
