/*
 * panel_violations.c — the violations of `tlv view --requirements FILE`
 * (issue 28.3) as a marker layer: once the trace is loaded (and again
 * after it changed: a reload, a live log that grew), libtlv's
 * tlv_requirements_verify checks the requirements against it, and every
 * violation of a failed requirement becomes a red marker named after the
 * requirement at the time it began, in the layer "violations" (the marker
 * list, Shift+M, shows and hides the layer; [ and ] step through them).
 * The layer is replaced each time, never added to, so a session that kept
 * it does not double it. The status line says how many failed.
 */
#include "view/view.h"
#include "view/view_panels.h"

#include <stdlib.h>
#include <string.h>

#define LAYER "violations"
#define COLOR 0xE02020u
#define MAX_MARKERS 2000        /* more would hide the ruler; the status line says so */

typedef struct violations_panel {
    view_panel base;            /* first: the hooks get &base */
    int stale;                  /* the trace changed since the layer was made */
} violations_panel;

/* Removes the layer's markers, keeping the selection on the others. */
static void clear_layer(view_markers *m)
{
    for (size_t i = m->n; i-- > 0;)
        if (strcmp(m->v[i].layer, LAYER) == 0)
            markers_remove(m, i);
}

/* One violation as a marker of the layer; the selection and the next
 * default name ("M3") stay as they were. Returns -1 when memory ran out. */
static int add_marker(view_app *a, double t, const char *name)
{
    view_markers *m = &a->markers;
    long selected = m->selected;
    unsigned next_id = m->next_id;
    long i = markers_add(m, t, name);
    m->next_id = next_id;
    if (i < 0) {
        m->selected = selected;
        return -1;
    }
    snprintf(m->v[i].layer, sizeof m->v[i].layer, "%s", LAYER);
    m->v[i].color = COLOR;
    m->selected = selected >= i ? selected + 1 : selected;
    return 0;
}

static void add_violations(view_app *a, const tlv_verdicts *v)
{
    size_t n = tlv_verdicts_violation_count(v), added = 0;
    for (size_t i = 0; i < n && added < MAX_MARKERS; i++, added++) {
        tlv_violation x;
        tlv_verdicts_violation(v, i, &x);
        tlv_verdict r;
        tlv_verdicts_get(v, x.requirement, &r);
        if (add_marker(a, tlv_time_to_double(x.start, a->radix), r.name) < 0)
            break;
    }
    size_t failed = tlv_verdicts_failed(v), count = tlv_verdicts_count(v);
    if (!failed)
        view_message(a, "requirements: all %zu passed", count);
    else
        view_message(a, "requirements: %zu of %zu failed; %zu violations%s in the marker layer "
                     "'" LAYER "' (Shift+M lists them)", failed, count, n,
                     added < n ? " (the first shown)" : "");
}

/* Checks the requirements against the loaded trace; the layer anew. */
static void verify(violations_panel *p, view_app *a)
{
    const tlv_instances *in = view_instances(a); /* NULL while the log loads */
    if (!in)
        return;
    p->stale = 0;
    clear_layer(&a->markers);
    tlv_verdicts *v = NULL;
    tlv_status st = tlv_requirements_verify(a->opts.requirements, a->trace, in, &v);
    if (st == TLV_OK) {
        add_violations(a, v);
    } else { /* a requirement the trace cannot answer: its file, line and column */
        const tlv_diag *d = v ? tlv_diags_get(tlv_verdicts_diags(v), 0) : NULL;
        char text[600];
        if (d && tlv_diag_format(d, text, sizeof text))
            view_message(a, "requirements: %s", text);
        else
            view_message(a, "requirements: %s", tlv_trace_last_error(a->trace));
    }
    tlv_verdicts_free(v);
    view_dirty(a);
}

/* First in the frame: the markers drawn after it are the new ones. */
static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v, (void)ar;
    violations_panel *p = (violations_panel *)base;
    if (layer == VIEW_LAYER_BANDS && p->stale && a->opts.requirements && a->trace)
        verify(p, a);
}

static void note(view_panel *base, view_app *a, view_note what)
{
    (void)a;
    if (what == VIEW_NOTE_TRACE_CHANGED)
        ((violations_panel *)base)->stale = 1;
}

view_panel *violations_panel_new(void)
{
    violations_panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->stale = 1;
    p->base = (view_panel){.name = "violations", .draw = draw, .note = note};
    return &p->base;
}
