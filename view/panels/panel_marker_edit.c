/*
 * panel_marker_edit.c — editing markers in the viewer: F2 or Enter renames
 * the selected marker (through the prompt), k gives it the next colour of
 * the palette, Shift+[ and Shift+] nudge it by a pixel. Also the time from
 * the selected marker to the cursor, drawn next to the cursor in the ruler.
 * The markers themselves (order, palette, dragging them in the ruler) are
 * the core's (view_markers.c, view_input.c); they reach the session file
 * with every other marker.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct marker_edit_panel {
    view_panel base;
    long target;                /* the marker being renamed */
} marker_edit_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static const view_marker *selected(const view_app *a) { return view_selected_marker(a); }

static int rename_marker(view_app *a, void *user, const char *name);

/* Shift+[ and Shift+]: the selected marker a pixel's time earlier or later. */
static void nudge(view_app *a, int dir)
{
    view_areas ar;
    view_areas_of(a, &ar);
    view_markers *m = &a->markers;
    double px = (a->nav.t1 - a->nav.t0) / fmax(1, ar.main.w - ar.label_w);
    m->selected = (long)markers_move(m, (size_t)m->selected, m->v[m->selected].time + dir * px);
    view_marker_moved(a);
}

/* Shift+[ and Shift+]: nudge the selected marker a pixel. */
static void nudge_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)p, (void)mods;
    if (!selected(a))
        view_message(a, "no marker selected (click one, or [ and ])");
    else
        nudge(a, key == SDLK_LEFTBRACKET ? -1 : 1);
    view_dirty(a);
}

/* k: the selected marker's next colour. */
static void recolor_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)p, (void)key, (void)mods;
    const view_marker *k = selected(a);
    if (!k) {
        view_message(a, "no marker selected (click one, or [ and ])");
    } else {
        uint32_t c = markers_recolor(&a->markers, (size_t)a->markers.selected);
        view_message(a, "marker %s: colour #%06x", k->name, (unsigned)c);
    }
    view_dirty(a);
}

/* F2 and Enter: rename the selected marker (Enter without one does nothing). */
static void rename_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)mods;
    marker_edit_panel *e = (marker_edit_panel *)p;
    const view_marker *k = selected(a);
    if (!k && key == SDLK_F2) {
        view_message(a, "no marker selected (click one, or [ and ])");
    } else if (k) {
        e->target = a->markers.selected;
        view_prompt_open(a, "Rename marker:", k->name, rename_marker, e);
    }
    view_dirty(a);
}

static const view_key keys[] = {
    {SDLK_F2, VIEW_KEYS_ANY, "F2 or Enter: rename the selected marker", rename_key},
    {SDLK_RETURN, VIEW_KEYS_ANY, NULL, rename_key},
    {SDLK_KP_ENTER, VIEW_KEYS_ANY, NULL, rename_key},
    {SDLK_k, VIEW_KEYS_ANY, "k: recolour it", recolor_key},
    {SDLK_LEFTBRACKET, VIEW_KEYS_SHIFT | VIEW_KEYS_CTRL_SHIFT,
     "drag it in the ruler or Shift+[ ]: move it", nudge_key},
    {SDLK_RIGHTBRACKET, VIEW_KEYS_SHIFT | VIEW_KEYS_CTRL_SHIFT, NULL, nudge_key},
};

/* Enter in the "Rename marker:" prompt: renames the marker. Returns 0, or -1
 * (the name is empty or too long; the message says so). */
static int rename_marker(view_app *a, void *user, const char *name)
{
    long target = ((marker_edit_panel *)user)->target;
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
    markers_rename_in_layer(m, (size_t)target, name); /* LAYER/NAME moves it to a layer */
    view_message(a, "marker %s renamed to %s", old, m->v[target].name);
    return 0;
}

/* "M1 +1.25 ms": the time from the selected marker to the cursor; -1 when
 * there is no selected marker or the cursor is not over the timeline. */
static int span_text(const view_app *a, char *buf, size_t size)
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

static void span_draw(view_app *a, const tlv_view *v, int ruler_h)
{
    char text[128];
    if (a->drag == DRAG_PAN || span_text(a, text, sizeof text) < 0)
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

/* ---- the panel's hooks ------------------------------------------------------------------- */

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)p;
    if (layer == VIEW_LAYER_RULER)
        span_draw(a, v, ar->ruler_h);
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    char span[128];
    (void)p;
    json_put(o, "marker_to_cursor", span_text(a, span, sizeof span) == 0
                                                     ? cJSON_CreateString(span) : cJSON_CreateNull());
}

view_panel *marker_edit_panel_new(void)
{
    marker_edit_panel *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->target = -1;
    e->base = (view_panel){.name = "marker_edit", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .dump = dump};
    return &e->base;
}
