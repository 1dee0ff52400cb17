/*
 * view_core.c — what the viewer's core offers its panels: the registry of
 * panels and the dispatch of drawing, input, notes and JSON to them (in
 * registration order, the first that uses an input event taking it), the
 * keyboard held by one panel and the prompt that one offers, the rows'
 * places, jumps and the selected marker.
 */
#include "view/core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the registry ------------------------------------------------------------------ */

static void destroy(view_panel *p)
{
    if (p->destroy)
        p->destroy(p);
    else
        free(p);
}

int view_add_panel(view_app *a, view_panel *p)
{
    if (!p) /* its constructor ran out of memory: the viewer would lack it */
        return -1;
    if (a->core->npanels == VIEW_MAX_PANELS) {
        destroy(p);
        return -1;
    }
    p->index = (int)a->core->npanels;
    a->core->panels[a->core->npanels++] = p;
    return 0;
}

void view_free_panels(view_app *a)
{
    for (size_t i = 0; i < a->core->npanels; i++)
        destroy(a->core->panels[i]);
    a->core->npanels = 0;
}

size_t view_key_owners(const view_app *a, view_key_owner *out)
{
    size_t n = 0;
    out[n++] = (view_key_owner){"view", NULL, view_core_keys, view_core_key_count};
    for (size_t i = 0; i < a->core->npanels; i++) {
        view_panel *p = a->core->panels[i];
        out[n++] = (view_key_owner){p->name, p, p->keys, p->keys ? p->nkeys : 0};
    }
    return n;
}

const SDL_Rect *view_panel_area(const view_areas *ar, const view_panel *p)
{
    return &ar->strip[p->index];
}

/* ---- dispatch ------------------------------------------------------------------------ */

/* The panels in registration order, and how many. */
static view_panel *const *panels(const view_app *a, size_t *n)
{
    *n = a->core->npanels;
    return a->core->panels;
}

void view_panels_draw(view_app *a, view_layer layer, const tlv_view *v, const view_areas *ar)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->draw)
            p[i]->draw(p[i], a, layer, v, ar);
}

int view_panels_press(view_app *a, double x, double y, int button, int clicks)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->press && p[i]->press(p[i], a, x, y, button, clicks))
            return 1;
    return 0;
}

int view_panels_wheel(view_app *a, double x, double y, double notches)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->wheel && p[i]->wheel(p[i], a, x, y, notches))
            return 1;
    return 0;
}

int view_panels_cover(const view_app *a, double x, double y)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->covers && p[i]->covers(p[i], a, x, y))
            return 1;
    return 0;
}

void view_panels_note(view_app *a, view_note what)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->note)
            p[i]->note(p[i], a, what);
}

void view_panels_save(const view_app *a, struct cJSON *o)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->save)
            p[i]->save(p[i], a, o);
}

void view_panels_load(view_app *a, const struct cJSON *o)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; o && i < n; i++)
        if (p[i]->load)
            p[i]->load(p[i], a, o);
}

void view_panels_dump(const view_app *a, struct cJSON *o)
{
    size_t n;
    view_panel *const *p = panels(a, &n);
    for (size_t i = 0; i < n; i++)
        if (p[i]->dump)
            p[i]->dump(p[i], a, o);
}

/* ---- the keyboard held by a panel; the prompt ----------------------------------------------- */

void view_grab_keys(view_app *a, view_panel *p)
{
    a->core->grab = p;
    view_dirty(a);
}

void view_release_keys(view_app *a, view_panel *p)
{
    if (a->core->grab == p)
        a->core->grab = NULL;
    view_dirty(a);
}

int view_keys_grabbed(const view_app *a)
{
    return a->core->grab != NULL;
}

void view_prompt_open(view_app *a, const char *label, const char *initial,
                      view_prompt_fn on_enter, void *user)
{
    size_t n, i = 0;
    view_panel *const *p = panels(a, &n);
    while (i < n && !p[i]->prompt)
        i++;
    view_panel *offers = i < n ? p[i] : NULL;
    if (!offers) { /* a viewer built without the prompt panel */
        view_message(a, "no prompt to ask for '%s'", label);
        return;
    }
    a->core->message[0] = '\0';
    /* SDL starts text input itself on desktops (the ? key relies on it);
     * asking again is harmless and needed where it did not. The key that
     * opened the prompt may also have queued its character as text: drop
     * it, or "g" would open a prompt holding "g". */
    SDL_StartTextInput();
    SDL_FlushEvent(SDL_TEXTINPUT);
    offers->prompt(offers, a, label, initial, on_enter, user);
    view_dirty(a);
}

/* ---- markers ------------------------------------------------------------------------------ */

const view_marker *view_selected_marker(const view_app *a)
{
    const view_markers *m = &a->markers;
    return m->selected >= 0 && (size_t)m->selected < m->n ? &m->v[m->selected] : NULL;
}

void view_marker_moved(view_app *a)
{
    const view_marker *k = view_selected_marker(a);
    char t[64];
    if (k)
        view_message(a, "marker %s moved to %s", k->name, view_time_at_text(a, k->time, 0, t, sizeof t));
}

/* ---- jumps -------------------------------------------------------------------------------- */

void view_jumped(view_app *a, double t, long event)
{
    a->jump_time = t;
    a->jump_event = event;
    view_panels_note(a, VIEW_NOTE_JUMP);
    view_dirty(a);
}

void view_show_event(view_app *a, size_t i)
{
    if (!a->trace || i >= tlv_trace_event_count(a->trace))
        return;
    tlv_event e;
    tlv_trace_event(a->trace, i, &e);
    nav_begin(&a->nav, NAV_JUMP);
    nav_center(&a->nav, tlv_time_to_double(e.time, a->radix));
    view_reveal_event_row(a, i); /* its row in sight too */
    a->focus_event = (long)i;
    view_panels_note(a, VIEW_NOTE_EVENT);
    view_dirty(a);
}

/* The position of row `row`'s band in the list of bands of view v, or -1. */
static long band_position(const tlv_view *v, const tlv_view_layout *l, size_t row)
{
    for (size_t p = 0; p < l->row_count; p++)
        if ((v->rows ? v->rows[p] : p) == row)
            return (long)p;
    return -1;
}

int view_row_band(const view_app *a, const tlv_view *v, size_t row, double *y, double *h)
{
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    long p = band_position(v, &l, row);
    if (p < 0)
        return 0;
    *y = l.ruler_height + ((double)p - (double)l.first_row) * l.row_height;
    *h = l.row_height;
    return 1;
}

int view_reveal_row(view_app *a, size_t row)
{
    if (!a->shapes)
        return 0;
    tlv_view v;
    tlv_view_layout l;
    view_main_view(a, &v);
    tlv_view_get_layout(&v, a->shapes, &l);
    long p = band_position(&v, &l, row);
    if (p < 0)
        return 0;
    double y = l.ruler_height + ((double)p - (double)l.first_row) * l.row_height;
    double bottom = v.height; /* above a panel docked over the timeline (details) */
    while (bottom > l.ruler_height + l.row_height &&
           view_panels_cover(a, v.label_width + 1, bottom - 1))
        bottom--;
    double under = l.ruler_height; /* below one docked under the ruler */
    while (under < bottom - l.row_height && view_panels_cover(a, v.label_width + 1, under))
        under++;
    if (y >= under && y + l.row_height <= bottom)
        return 1; /* wholly in sight already: nothing moves */
    long fits = l.row_height > 0 ? (long)((bottom - under) / l.row_height) : 1;
    long hidden = l.row_height > 0 ? (long)ceil((under - l.ruler_height) / l.row_height) : 0;
    long top = p - hidden - fits / 2, max = view_max_first_row(a);
    a->nav.first_row = (int)(top < 0 ? 0 : top > max ? max : top);
    view_dirty(a);
    return 1;
}

int view_reveal_event_row(view_app *a, size_t i)
{
    if (!a->trace || i >= tlv_trace_event_count(a->trace))
        return 0;
    tlv_event e;
    tlv_trace_event(a->trace, i, &e);
    long row = view_resource_row(a, e.resource, e.time);
    return row >= 0 && view_reveal_row(a, (size_t)row);
}

/* Whether a per-CPU group ("CPU 1", as tlv_shapes_options says they are
 * named) is the processor `cpu` names: as text, or as numbers ("000" is
 * "0"), as the per-CPU rows compare processors. */
static int group_is_processor(const char *group, const char *cpu)
{
    if (!group || strncmp(group, "CPU ", 4) != 0)
        return 0;
    group += 4;
    if (strcmp(group, cpu) == 0)
        return 1;
    char *e1, *e2;
    double x = strtod(group, &e1), y = strtod(cpu, &e2);
    return e1 != group && e2 != cpu && !*e1 && !*e2 && x == y;
}

long view_resource_row(const view_app *a, const char *resource, tlv_time t)
{
    size_t n = a->shapes && resource ? tlv_shapes_row_count(a->shapes) : 0;
    long first = -1;
    const char *cpu = NULL;
    for (size_t r = 0; r < n; r++) {
        tlv_row_info info;
        tlv_shapes_row(a->shapes, r, &info);
        if (!info.resource || strcmp(info.resource, resource) != 0)
            continue;
        if (first < 0) { /* its first row; in per-CPU mode, the processor it was on at t */
            first = (long)r;
            if (!a->per_cpu || !a->opts.cpu_attribute ||
                tlv_trace_attr_at(a->trace, resource, a->opts.cpu_attribute, &t, &cpu) != TLV_OK)
                return first;
        }
        if (group_is_processor(info.group, cpu))
            return (long)r;
    }
    return first;
}
