/*
 * view_state.c — the viewer's state as JSON (cJSON): the session file
 * (LOG.tlvsession: visible range, first row, per-CPU mode, window size,
 * markers), read before the window opens and written on exit, and the fuller
 * dump-state of scripts (adding the selection, the trace's range, the layout,
 * the cursor and the tooltip, the prompt and the search), on which the
 * tests assert. The rows model (view_rows.c) and each panel (its save, load
 * and dump hooks) write and read their own parts.
 */
#include "view/core.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


/* ---- writing ------------------------------------------------------------------- */

static cJSON *range_json(double t0, double t1)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "t0", t0);
    cJSON_AddNumberToObject(o, "t1", t1);
    return o;
}

static cJSON *markers_json(const view_markers *m)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < m->n; i++) {
        cJSON *o = cJSON_CreateObject();
        char color[8];
        snprintf(color, sizeof color, "%06x", (unsigned)m->v[i].color & 0xFFFFFF);
        cJSON_AddStringToObject(o, "name", m->v[i].name);
        cJSON_AddNumberToObject(o, "time", m->v[i].time);
        cJSON_AddStringToObject(o, "color", color);
        cJSON_AddStringToObject(o, "layer", m->v[i].layer); /* "": the default layer */
        json_push(arr, o);
    }
    return arr;
}

/* What the session and the dump share. */
static cJSON *common_json(const view_app *a)
{
    cJSON *o = cJSON_CreateObject();
    json_put(o, "visible", range_json(a->nav.t0, a->nav.t1));
    cJSON_AddNumberToObject(o, "first_row", a->nav.first_row);
    cJSON_AddBoolToObject(o, "per_cpu", a->per_cpu);
    cJSON *w = cJSON_AddObjectToObject(o, "window");
    cJSON_AddNumberToObject(w, "width", a->win_w);
    cJSON_AddNumberToObject(w, "height", a->win_h);
    json_put(o, "markers", markers_json(&a->markers));
    cJSON *hidden = cJSON_AddArrayToObject(o, "hidden_marker_layers");
    for (int i = 0; i < a->markers.nhidden; i++)
        json_push(hidden, cJSON_CreateString(a->markers.hidden[i]));
    cJSON_AddNumberToObject(o, "label_column", a->core->label_w_user); /* view_sizes.c; 0: automatic */
    cJSON_AddNumberToObject(o, "row_height", a->core->row_h_user);
    rows_state_json(a, o);
    view_panels_save(a, o);
    return o;
}

static cJSON *layout_json(const view_app *a)
{
    view_areas ar;
    view_areas_of(a, &ar);
    tlv_view v;
    view_main_view(a, &v);
    tlv_view_layout l;
    tlv_view_get_layout(&v, a->shapes, &l);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "pixel_width", a->px_w);
    cJSON_AddNumberToObject(o, "pixel_height", a->px_h);
    cJSON_AddNumberToObject(o, "label_width", l.label_width);
    cJSON_AddNumberToObject(o, "ruler_height", l.ruler_height);
    cJSON_AddNumberToObject(o, "row_height", l.row_height);
    cJSON_AddNumberToObject(o, "main_height", ar.main.h);
    cJSON_AddNumberToObject(o, "macro_y", ar.macro.y);
    cJSON_AddNumberToObject(o, "macro_height", ar.macro.h);
    cJSON_AddNumberToObject(o, "status_y", ar.status.y);
    return o;
}

static cJSON *tooltip_json(const view_app *a)
{
    const view_hover *h = &a->hover;
    if (!h->valid)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    char dur[64];
    cJSON_AddNumberToObject(o, "row", (double)h->row);
    cJSON_AddStringToObject(o, "rule", h->rule);
    cJSON_AddStringToObject(o, "event", h->event);
    cJSON_AddStringToObject(o, "resource", h->resource);
    cJSON_AddStringToObject(o, "text", h->text);
    cJSON_AddStringToObject(o, "value", h->value);
    cJSON_AddNumberToObject(o, "from", h->from);
    cJSON_AddNumberToObject(o, "to", h->to);
    cJSON_AddStringToObject(o, "start", h->start_text);
    cJSON_AddStringToObject(o, "end", h->end_text);
    if (h->is_when) /* an instant's mark: the tooltip gives its time, no duration */
        cJSON_AddNullToObject(o, "duration");
    else
        cJSON_AddStringToObject(o, "duration", view_time_text(a, h->to - h->from, 0, dur, sizeof dur));
    return o;
}

static cJSON *rows_json(const view_app *a)
{
    cJSON *arr = cJSON_CreateArray();
    size_t n = a->shapes ? tlv_shapes_row_count(a->shapes) : 0;
    for (size_t i = 0; i < n; i++) {
        tlv_row_info r;
        tlv_shapes_row(a->shapes, i, &r);
        json_push(arr, cJSON_CreateString(r.label ? r.label : ""));
    }
    return arr;
}

static int write_json(cJSON *o, const char *path, const char *input)
{
    static unsigned long failures_seen; /* before this tree was built */
    int incomplete = json_alloc_failures() != failures_seen;
    char *text = o && !incomplete ? cJSON_Print(o) : NULL;
    cJSON_Delete(o);
    failures_seen = json_alloc_failures();
    if (!text) {
        report_nomem("writing the state of", input);
        return -1;
    }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    ok = f && fclose(f) == 0 && ok;
    ok = ok && rename(tmp, path) == 0; /* a reader never sees half a file */
    if (!ok && errno == ENOMEM) /* fopen's own buffer: said as every allocation failure is */
        report_nomem("writing the state of", input);
    else if (!ok)
        fprintf(stderr, "%s view: cannot write '%s': %s\n", prog, path, strerror(errno));
    if (!ok)
        remove(tmp);
    free(text);
    return ok ? 0 : -1;
}

/* The trace's time mode, its origin (the absolute start, exact, in trace
 * units) and the start as the status line gives it (view_times.c). */
static void times_json(const view_app *a, cJSON *o)
{
    char origin[160] = "0", start[128];
    tlv_time_mode mode = a->trace ? tlv_trace_time_mode(a->trace) : TLV_TIME_PLAIN;
    if (a->trace)
        tlv_time_format(tlv_trace_time_origin(a->trace), a->radix, origin, sizeof origin);
    cJSON_AddStringToObject(o, "time_mode", tlv_time_mode_name(mode));
    cJSON_AddStringToObject(o, "time_origin", origin);
    view_start_text(a, start, sizeof start);
    cJSON_AddStringToObject(o, "time_start", start);
}

int state_dump(const view_app *a, const char *path)
{
    cJSON *o = common_json(a);
    const view_markers *m = &a->markers;
    if (m->selected >= 0 && (size_t)m->selected < m->n)
        cJSON_AddNumberToObject(o, "selected_marker", (double)m->selected);
    else
        cJSON_AddNullToObject(o, "selected_marker");
    json_put(o, "selection", a->core->has_sel ? range_json(fmin(a->core->sel0, a->core->sel1),
                                                                  fmax(a->core->sel0, a->core->sel1))
                                                     : cJSON_CreateNull());
    json_put(o, "trace", range_json(a->nav.trace_t0, a->nav.trace_t1));
    times_json(a, o);
    json_put(o, "rows", rows_json(a));
    json_put(o, "layout", layout_json(a));
    if (input_over_timeline(a, a->mx, a->my)) {
        cJSON *c = cJSON_AddObjectToObject(o, "cursor");
        cJSON_AddNumberToObject(c, "x", a->mx);
        cJSON_AddNumberToObject(c, "y", a->my);
        cJSON_AddNumberToObject(c, "time", input_time_at(a, a->mx));
    } else {
        cJSON_AddNullToObject(o, "cursor");
    }
    json_put(o, "tooltip", tooltip_json(a));
    cJSON_AddNumberToObject(o, "history", (double)a->nav.nhistory);
    view_load_progress lp; /* view_loader.c: how far the log is read and shown */
    loader_progress(a, &lp);
    cJSON *ld = cJSON_AddObjectToObject(o, "loading");
    cJSON_AddBoolToObject(ld, "active", lp.active);
    cJSON_AddNumberToObject(ld, "bytes", (double)lp.bytes);
    cJSON_AddNumberToObject(ld, "size", (double)lp.size);
    cJSON_AddNumberToObject(ld, "lines", (double)lp.lines);
    cJSON_AddNumberToObject(ld, "events", (double)lp.events);
    cJSON_AddNumberToObject(ld, "shown_events", (double)lp.shown_events);
    cJSON_AddNumberToObject(o, "load_errors", (double)a->core->load_errors);
    cJSON_AddStringToObject(o, "message", a->core->message);
    cJSON_AddNumberToObject(o, "inconsistent_events", /* the converter's consistency report */
                            (double)tlv_converter_inconsistency_count(tlv_trace_converter(a->trace)));
    cJSON *banner = cJSON_AddArrayToObject(o, "banner"); /* the error banner's lines, as shown */
    for (int i = 0; a->core->show_banner && i < a->core->banner_lines; i++)
        json_push(banner, cJSON_CreateString(a->core->banner[i]));
    breakdown_dump_json(a, o);                               /* view_breakdown.c */
    if (a->core->measure_n == 2) {                                 /* view_range.c */
        cJSON *m = cJSON_AddObjectToObject(o, "measure");
        cJSON_AddNumberToObject(m, "t0", a->core->measure[0]);
        cJSON_AddNumberToObject(m, "t1", a->core->measure[1]);
        cJSON_AddNumberToObject(m, "dt", a->core->measure[1] - a->core->measure[0]);
    } else {
        cJSON_AddNullToObject(o, "measure");
    }
    cJSON_AddBoolToObject(o, "follow", a->core->follow);          /* view_live.c */
    cJSON_AddBoolToObject(o, "live", live_active(a));
    cJSON_AddNumberToObject(o, "events", (double)tlv_trace_event_count(a->trace));
    /* the bytes of the trace kept in files mapped into memory (its events,
     * once past 16 MB: bulk.c), by the library's accounting */
    size_t file_backed = 0;
    tlv_trace_memory(a->trace, memory_add_file_backed, &file_backed);
    cJSON_AddNumberToObject(o, "trace_file_backed", (double)file_backed);
    rows_dump_json(a, o);
    sizes_dump(a, o); /* labels, ticks, time_reference, row_names, time_axis, row_name_tip */
    view_panels_dump(a, o); /* prompt, search, marker_to_cursor, rows_panel_items, log, ... */
    return write_json(o, path, a->opts.input);
}

int session_write(const view_app *a, const char *path)
{
    cJSON *o = common_json(a);
    /* The version first: a file cut short still says what it is. */
    cJSON *v = cJSON_AddNumberToObject(o, "tlv_session", SESSION_VERSION);
    if (v && cJSON_DetachItemViaPointer(o, v))
        cJSON_InsertItemInArray(o, 0, v);
    return write_json(o, path, a->opts.input);
}

/* ---- reading: session_read.c; checking and applying ---------------------------------- */

/* Each problem on stderr, once, and a line about them in the status line. */
static void session_report(view_app *a, const view_session *s)
{
    if (!s->nproblems)
        return;
    int shown = s->nproblems < SESSION_PROBLEMS_KEPT ? s->nproblems : SESSION_PROBLEMS_KEPT;
    for (int i = 0; i < shown; i++)
        fprintf(stderr, "%s view: %s: %s\n", prog, s->path, s->problems[i]);
    if (s->nproblems > shown)
        fprintf(stderr, "%s view: %s: ... and %d more problems\n", prog, s->path,
                s->nproblems - shown);
    if (a->core->session_path)
        fprintf(stderr, "%s view: %s: kept as '%s.bak' when the session is saved\n", prog, s->path,
                s->path);
    if (s->nproblems == 1)
        view_message(a, "session: %s", s->problems[0]);
    else
        view_message(a, "session: %d problems (on stderr); what could be read is used", s->nproblems);
}

void session_apply_panels(view_app *a, const view_session *s)
{
    if (!s->loaded)
        return;
    rows_session_read(a, s->doc);
    view_panels_load(a, s->doc);
}

/* Names "M<n>" restored: new markers continue after the highest n. */
static unsigned highest_default_id(const view_markers *m)
{
    unsigned hi = 0;
    for (size_t i = 0; i < m->n; i++) {
        char *end;
        unsigned long id = m->v[i].name[0] == 'M' ? strtoul(m->v[i].name + 1, &end, 10) : 0;
        if (id && !*end && id > hi && id < 1000000)
            hi = (unsigned)id;
    }
    return hi;
}

void session_apply(view_app *a, view_session *s)
{
    if (!s->loaded) {
        session_report(a, s);
        return;
    }
    cJSON *mine = common_json(a);
    session_check_parts(s, mine);
    cJSON_Delete(mine);
    session_report(a, s);
    if (s->per_cpu && !a->per_cpu)
        view_build_shapes(a, 1);
    if (s->has_range)
        nav_set(&a->nav, s->t0, s->t1);
    a->core->label_w_user = s->label_w;
    sizes_set_row_height(a, s->row_h);
    int top = view_max_first_row(a);
    a->nav.first_row = s->first_row > top ? top : s->first_row;
    markers_clear(&a->markers);
    a->markers = s->markers; /* taken over */
    a->markers.next_id = highest_default_id(&a->markers);
    memset(&s->markers, 0, sizeof s->markers);
    s->markers.selected = -1;
    view_dirty(a);
}
