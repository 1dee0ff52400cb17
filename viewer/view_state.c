/*
 * view_state.c — the viewer's state as JSON (cJSON): the session file
 * (LOG.tlvsession: visible range, first row, per-CPU mode, window size,
 * markers), read before the window opens and written on exit, and the fuller
 * dump-state of scripts (adding the selection, the trace's range, the layout,
 * the cursor and the tooltip, the prompt and the search), on which the
 * tests assert. The rows model (view_rows.c) and each panel (its save, load
 * and dump hooks) write and read their own parts.
 */
#include "view.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SESSION_VERSION 1

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
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* What the session and the dump share. */
static cJSON *common_json(const view_app *a)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "visible", range_json(a->nav.t0, a->nav.t1));
    cJSON_AddNumberToObject(o, "first_row", a->nav.first_row);
    cJSON_AddBoolToObject(o, "per_cpu", a->per_cpu);
    cJSON *w = cJSON_AddObjectToObject(o, "window");
    cJSON_AddNumberToObject(w, "width", a->win_w);
    cJSON_AddNumberToObject(w, "height", a->win_h);
    cJSON_AddItemToObject(o, "markers", markers_json(&a->markers));
    cJSON *hidden = cJSON_AddArrayToObject(o, "hidden_marker_layers");
    for (int i = 0; i < a->markers.nhidden; i++)
        cJSON_AddItemToArray(hidden, cJSON_CreateString(a->markers.hidden[i]));
    cJSON_AddNumberToObject(o, "label_column", a->label_w_user); /* view_sizes.c; 0: automatic */
    cJSON_AddNumberToObject(o, "row_height", a->row_h_user);
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
        cJSON_AddItemToArray(arr, cJSON_CreateString(r.label ? r.label : ""));
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
    if (!ok) {
        fprintf(stderr, "%s view: cannot write '%s': %s\n", prog, path, strerror(errno));
        remove(tmp);
    }
    free(text);
    return ok ? 0 : -1;
}

int state_dump(const view_app *a, const char *path)
{
    cJSON *o = common_json(a);
    const view_markers *m = &a->markers;
    if (m->selected >= 0 && (size_t)m->selected < m->n)
        cJSON_AddNumberToObject(o, "selected_marker", (double)m->selected);
    else
        cJSON_AddNullToObject(o, "selected_marker");
    cJSON_AddItemToObject(o, "selection", a->has_sel ? range_json(fmin(a->sel0, a->sel1),
                                                                  fmax(a->sel0, a->sel1))
                                                     : cJSON_CreateNull());
    cJSON_AddItemToObject(o, "trace", range_json(a->nav.trace_t0, a->nav.trace_t1));
    cJSON_AddItemToObject(o, "rows", rows_json(a));
    cJSON_AddItemToObject(o, "layout", layout_json(a));
    if (input_over_timeline(a, a->mx, a->my)) {
        cJSON *c = cJSON_AddObjectToObject(o, "cursor");
        cJSON_AddNumberToObject(c, "x", a->mx);
        cJSON_AddNumberToObject(c, "y", a->my);
        cJSON_AddNumberToObject(c, "time", input_time_at(a, a->mx));
    } else {
        cJSON_AddNullToObject(o, "cursor");
    }
    cJSON_AddItemToObject(o, "tooltip", tooltip_json(a));
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
    cJSON_AddNumberToObject(o, "load_errors", (double)a->load_errors);
    cJSON_AddStringToObject(o, "message", a->message);
    breakdown_dump_json(a, o);                               /* view_breakdown.c */
    if (a->measure_n == 2) {                                 /* view_range.c */
        cJSON *m = cJSON_AddObjectToObject(o, "measure");
        cJSON_AddNumberToObject(m, "t0", a->measure[0]);
        cJSON_AddNumberToObject(m, "t1", a->measure[1]);
        cJSON_AddNumberToObject(m, "dt", a->measure[1] - a->measure[0]);
    } else {
        cJSON_AddNullToObject(o, "measure");
    }
    cJSON_AddBoolToObject(o, "follow", a->follow);          /* view_live.c */
    cJSON_AddBoolToObject(o, "live", live_active(a));
    cJSON_AddNumberToObject(o, "events", (double)tlv_trace_event_count(a->trace));
    rows_dump_json(a, o);
    sizes_dump(a, o); /* labels, ticks, time_reference, row_names, time_axis, row_name_tip */
    view_panels_dump(a, o); /* prompt, search, marker_to_cursor, rows_panel_items, log, ... */
    return write_json(o, path, a->opts.input);
}

int session_write(const view_app *a, const char *path)
{
    cJSON *o = common_json(a);
    cJSON_AddNumberToObject(o, "tlv_session", SESSION_VERSION);
    return write_json(o, path, a->opts.input);
}

/* ---- reading ---------------------------------------------------------------------- */

static int number_at(const cJSON *o, const char *key, double *out)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(n) || !isfinite(n->valuedouble))
        return 0;
    *out = n->valuedouble;
    return 1;
}

static void read_markers(const cJSON *arr, view_markers *m)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
        const cJSON *color = cJSON_GetObjectItemCaseSensitive(it, "color");
        double t;
        if (!cJSON_IsString(name) || !number_at(it, "time", &t))
            continue;
        long i = markers_add(m, t, name->valuestring);
        if (i >= 0 && cJSON_IsString(color))
            m->v[i].color = (uint32_t)strtoul(color->valuestring, NULL, 16) & 0xFFFFFF;
        const cJSON *layer = cJSON_GetObjectItemCaseSensitive(it, "layer");
        if (i >= 0 && cJSON_IsString(layer))
            snprintf(m->v[i].layer, sizeof m->v[i].layer, "%s", layer->valuestring);
    }
    m->selected = -1;
}

static void read_session(const cJSON *o, view_session *s)
{
    const cJSON *vis = cJSON_GetObjectItemCaseSensitive(o, "visible");
    const cJSON *win = cJSON_GetObjectItemCaseSensitive(o, "window");
    s->has_range = number_at(vis, "t0", &s->t0) && number_at(vis, "t1", &s->t1) && s->t1 > s->t0;
    double v;
    if (number_at(o, "first_row", &v) && v >= 0 && v < 1e9)
        s->first_row = (int)v;
    s->per_cpu = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "per_cpu"));
    if (number_at(win, "width", &v) && v >= 16 && v <= 16384)
        s->width = (int)v;
    if (number_at(win, "height", &v) && v >= 16 && v <= 16384)
        s->height = (int)v;
    read_markers(cJSON_GetObjectItemCaseSensitive(o, "markers"), &s->markers);
    const cJSON *layer;
    cJSON_ArrayForEach(layer, cJSON_GetObjectItemCaseSensitive(o, "hidden_marker_layers"))
        if (cJSON_IsString(layer) && markers_layer_shown(&s->markers, layer->valuestring))
            markers_toggle_layer(&s->markers, layer->valuestring);
    if (number_at(o, "label_column", &v) && v >= 0 && v <= 16384)
        s->label_w = (int)v;
    if (number_at(o, "row_height", &v) && v >= 0 && v <= 1000)
        s->row_h = (int)v;
}

/* The whole file as a NUL-terminated string (at most 16 MB), or NULL. */
static char *slurp(FILE *f)
{
    size_t len = 0, cap = 4096, n;
    char *text = malloc(cap);
    while (text && (n = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *t = cap < (1u << 24) ? realloc(text, cap *= 2) : NULL;
            if (!t)
                free(text);
            text = t;
        }
    }
    if (text)
        text[len] = '\0';
    return text;
}

int session_read(const char *path, view_session *s)
{
    memset(s, 0, sizeof *s);
    s->markers.selected = -1;
    FILE *f = path ? fopen(path, "rb") : NULL;
    if (!f) {
        if (!path || errno == ENOENT)
            return 0; /* no session yet */
        fprintf(stderr, "%s view: cannot read '%s': %s\n", prog, path, strerror(errno));
        return -1;
    }
    char *text = slurp(f);
    fclose(f);
    cJSON *o = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!cJSON_IsObject(o) || !cJSON_GetObjectItemCaseSensitive(o, "tlv_session")) {
        fprintf(stderr, "%s view: '%s' is not a tlv session file; ignored (kept as '%s.bak' "
                "when the session is saved)\n", prog, path, path);
        cJSON_Delete(o);
        s->keep_backup = 1;
        return -1;
    }
    double version = 0;
    if (number_at(o, "tlv_session", &version) && version > SESSION_VERSION) {
        fprintf(stderr, "%s view: '%s' was written by a newer tlv (session version %g, this "
                "one reads %d); what this version knows is used (the file is kept as "
                "'%s.bak' when the session is saved)\n", prog, path, version, SESSION_VERSION, path);
        s->keep_backup = 1;
    }
    read_session(o, s);
    s->loaded = 1;
    s->doc = o; /* the panels read their parts later */
    return 0;
}

void session_keep_backup(const view_session *s, const char *path)
{
    if (!s->keep_backup || !path)
        return;
    size_t n = strlen(path) + 5;
    char *bak = malloc(n);
    if (!bak)
        return;
    snprintf(bak, n, "%s.bak", path);
    if (rename(path, bak) != 0 && errno != ENOENT)
        fprintf(stderr, "%s view: cannot keep '%s' as '%s': %s\n", prog, path, bak, strerror(errno));
    free(bak);
}

void session_apply_panels(view_app *a, const view_session *s)
{
    if (!s->loaded)
        return;
    rows_session_read(a, s->doc);
    view_panels_load(a, s->doc);
}

void session_free(view_session *s)
{
    markers_clear(&s->markers);
    cJSON_Delete(s->doc);
    s->doc = NULL;
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
    if (!s->loaded)
        return;
    if (s->per_cpu && !a->per_cpu)
        view_build_shapes(a, 1);
    if (s->has_range)
        nav_set(&a->nav, s->t0, s->t1);
    a->label_w_user = s->label_w;
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
