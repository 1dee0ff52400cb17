/*
 * export_chrome.c — the chrome format: Chrome Trace Event JSON, which
 * Perfetto UI and chrome://tracing open: a complete event ("X") per
 * interval, an instant event ("i") per When event or zero-length interval,
 * a thread per row lane and a process per group of rows (layout.c), sorted
 * as tlv sorts them, a counter track per counter attribute and flow events
 * for flow rules' arrows. Written with json_line (the bytes of cJSON,
 * without a cJSON tree per event: an export writes millions), the
 * intervals formatted on several threads (ordered_write).
 */
#include "export/export_impl.h"
#include "export/json_line.h"
#include "export/ordered_write.h"

#include <stdlib.h>
#include <string.h>

/* The elements of the traceEvents array, written with json_line (the bytes
 * of cJSON, without a cJSON tree per event: an export writes millions). */

/* Ends the element in b and writes it, after a comma unless it is the first. */
static int emit(FILE *out, json_line *b, int *first)
{
    if (fputs(*first ? "\n" : ",\n", out) < 0)
        return -1;
    *first = 0;
    return jl_write(b, out);
}

/* "KEY":STRING and "KEY":NUMBER, after a comma unless `first`. */
static void key_string(json_line *b, const char *key, const char *value, int first)
{
    jl_key(b, key, first);
    jl_string(b, value);
}

static void key_number(json_line *b, const char *key, double value, int first)
{
    jl_key(b, key, first);
    jl_number(b, value);
}

/* {"name":NAME,"ph":"M","pid":P,"tid":T,"args":{KEY: */ 
static void metadata_head(json_line *b, const char *name, size_t pid, size_t tid, const char *key)
{
    key_string(b, "name", name, 1);
    key_string(b, "ph", "M", 0);
    key_number(b, "pid", (double)pid, 0);
    key_number(b, "tid", (double)tid, 0);
    jl_raw(b, ",\"args\":");
    jl_key(b, key, 1);
}

static int metadata_string(FILE *out, json_line *b, const char *name, size_t pid, size_t tid,
                           const char *key, const char *value, int *first)
{
    metadata_head(b, name, pid, tid, key);
    jl_string(b, value);
    jl_raw(b, "}}");
    return emit(out, b, first);
}

static int metadata_number(FILE *out, json_line *b, const char *name, size_t pid, size_t tid,
                           const char *key, double value, int *first)
{
    metadata_head(b, name, pid, tid, key);
    jl_number(b, value);
    jl_raw(b, "}}");
    return emit(out, b, first);
}

static int write_metadata(FILE *out, json_line *b, const tlv_shapes *shapes,
                          const export_layout *c, int *first)
{
    int rc = 0;
    for (size_t g = 0; g < c->ngroups && rc == 0; g++) {
        const char *name = c->process_name[g] ? c->process_name[g] : "";
        size_t pid = (size_t)c->process_id[g];
        rc = metadata_string(out, b, "process_name", pid, 0, "name", name, first);
        if (rc == 0)
            rc = metadata_number(out, b, "process_sort_index", pid, 0, "sort_index", (double)g,
                                 first);
    }
    for (size_t r = 0; r < tlv_shapes_row_count(shapes) && rc == 0; r++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        for (size_t l = 0; c->used[r] && l < c->nlanes[r] && rc == 0; l++) {
            char name[512];
            snprintf(name, sizeof name, l ? "%s (%zu)" : "%s", row.label, l + 1);
            size_t tid = (size_t)layout_tid(c, r, l), pid = (size_t)layout_pid(c, r);
            rc = metadata_string(out, b, "thread_name", pid, tid, "name", name, first);
            if (rc == 0) /* tlv's row order: the lane's place among all lanes */
                rc = metadata_number(out, b, "thread_sort_index", pid, tid, "sort_index",
                                     (double)(c->first_tid[r] + l + 1), first);
        }
    }
    return rc;
}

/* "KEY":STRING for the strings of trace_event, names and texts printed
 * millions of times: escaped once each (jl_memo); KEY is plain. */
static void key_memo(json_line *b, jl_memo *m, const char *key_text, const char *value)
{
    jl_raw(b, key_text);
    jl_string_memo(b, m, value);
}

static void put_trace_event(json_line *b, jl_memo *m, const interval *iv,
                            const export_layout *c, double us, int radix)
{
    const tlv_shape_info *sh = &iv->sh;
    /* What a reader looks for: the drawn text, else for an interval the value
     * that opened it (the state), for an instant its event's name. */
    const char *name = iv->text              ? iv->text
                       : sh->value && !sh->is_when ? sh->value
                                                   : sh->event;
    key_memo(b, m, "{\"name\":", name);
    key_memo(b, m, ",\"cat\":", sh->rule);
    double ts = tlv_time_to_double(sh->from, radix) * us;
    if (is_instant(iv)) {
        key_string(b, "ph", "i", 0);
        key_string(b, "s", "t", 0);
        key_number(b, "ts", ts, 0);
    } else {
        key_string(b, "ph", "X", 0);
        key_number(b, "ts", ts, 0);
        key_number(b, "dur", tlv_time_span(sh->from, sh->to, radix) * us, /* not wrapped past 2^63 */
                   0);
    }
    key_number(b, "pid", (double)layout_pid(c, sh->row), 0);
    key_number(b, "tid", (double)layout_tid(c, sh->row, iv->lane), 0);
    key_memo(b, m, ",\"args\":{\"event\":", sh->event);
    if (sh->resource)
        key_memo(b, m, ",\"resource\":", sh->resource);
    if (sh->value)
        key_memo(b, m, ",\"value\":", sh->value);
    jl_raw(b, ",\"from\":");
    jl_time(b, sh->from, radix);
    jl_raw(b, sh->is_when ? ",\"next\":" : ",\"to\":");
    jl_time(b, sh->to, radix);
    jl_raw(b, "}}");
}

/* The intervals' trace events, formatted on several threads (ordered_write). */
typedef struct events_ctx {
    const interval_list *l;
    const export_layout *c;
    double us;
    int radix;
    int first;             /* no element before the first interval's */
} events_ctx;

/* Interval i's element, after a comma unless it is the array's first (as
 * emit writes them). */
static void put_event_at(void *ctx, json_line *b, jl_memo *m, size_t i)
{
    const events_ctx *e = ctx;
    jl_raw(b, e->first && i == 0 ? "\n" : ",\n");
    put_trace_event(b, m, &e->l->v[i], e->c, e->us, e->radix);
}

/* The chrome pid of the first row showing `resource`, or 0 when none does. */
static size_t resource_pid(const tlv_shapes *shapes, const export_layout *c, const char *resource)
{
    for (size_t r = 0; r < tlv_shapes_row_count(shapes); r++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, r, &row);
        if (c->used[r] && same_name(row.resource, resource))
            return (size_t)layout_pid(c, r);
    }
    return 0;
}

/* Counter attributes: a counter track ("ph":"C") per resource and counter,
 * named "LABEL ATTRIBUTE", in the process of the resource's rows (pid 0,
 * "Counters", when it has none); one event per sample. */
static int write_counters(FILE *out, json_line *b, const tlv_trace *trace,
                          const tlv_shapes *shapes, const export_layout *c, double us, int radix,
                          int *first)
{
    tlv_counters *cs = NULL;
    if (tlv_counters_compute(trace, &cs) != TLV_OK) /* it fails only for memory */
        return -2;
    int rc = 0, named_zero = 0;
    for (size_t i = 0; i < tlv_counters_count(cs) && rc == 0; i++) {
        tlv_counter_info ci;
        tlv_counters_get(cs, i, &ci);
        size_t pid = resource_pid(shapes, c, ci.resource), n = 0;
        if (pid == 0 && !named_zero) {
            named_zero = 1;
            rc = metadata_string(out, b, "process_name", 0, 0, "name", "Counters", first);
        }
        char name[512];
        snprintf(name, sizeof name, "%s %s", ci.resource, ci.display_name);
        const tlv_counter_sample *v = tlv_counters_samples(cs, i, &n);
        for (size_t k = 0; k < n && rc == 0; k++) {
            key_string(b, "name", name, 1);
            key_string(b, "ph", "C", 0);
            key_number(b, "ts", tlv_time_to_double(v[k].time, radix) * us, 0);
            key_number(b, "pid", (double)pid, 0);
            jl_raw(b, ",\"args\":");
            key_number(b, ci.attribute, v[k].value, 1);
            jl_raw(b, "}}");
            rc = emit(out, b, first);
        }
    }
    tlv_counters_free(cs);
    return rc;
}

/* The complete interval of `row` that encloses t and began before it, the
 * deepest (the latest to begin), or NULL. A flow starts from it: consumers
 * bind a flow event to a slice of the same thread, time and category (the
 * DevTools engine: exactly those; Perfetto: the slice enclosing the time),
 * and the engine keys a flow's slices by their time, so that two anchors at
 * the flow's one time would make it one slice, and the flow would be lost. */
static const interval *enclosing(const export_layout *c, size_t row, tlv_time t)
{
    interval *const *iv = c->by_row + c->row_start[row];
    size_t lo = 0, hi = c->row_slices[row];
    while (lo < hi) { /* the first to begin at t or later */
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(iv[mid]->sh.from, t) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo, steps = 0; i-- > 0 && steps < 4096; steps++)
        if (tlv_time_cmp(iv[i]->sh.to, t) >= 0)
            return iv[i];
    return NULL;
}

/* A flow event: "ph":"s" (its start) or "f" (its end, bound to the
 * enclosing slice: "bp":"e"), on a row's lane. */
static int flow_event(FILE *out, json_line *b, const tlv_flow_info *f, const char *cat, size_t id,
                      int start, const export_layout *c, size_t row, size_t lane, double ts,
                      int *first)
{
    key_string(b, "name", f->display_name, 1);
    key_string(b, "cat", cat, 0);
    key_string(b, "ph", start ? "s" : "f", 0);
    if (!start)
        key_string(b, "bp", "e", 0);
    key_number(b, "id", (double)id, 0);
    key_number(b, "ts", ts, 0);
    key_number(b, "pid", (double)layout_pid(c, row), 0);
    key_number(b, "tid", (double)layout_tid(c, row, lane), 0);
    jl_raw(b, ",\"args\":");
    key_string(b, "rule", f->rule, 1);
    jl_raw(b, "}}");
    return emit(out, b, first);
}

/* A zero-length slice named for the flow at a row's first lane, for a flow
 * end with no slice of its own to bind to. */
static int flow_anchor(FILE *out, json_line *b, const tlv_flow_info *f, const char *cat,
                       size_t row, const export_layout *c, double ts, int *first)
{
    key_string(b, "name", f->display_name, 1);
    key_string(b, "cat", cat, 0);
    key_string(b, "ph", "X", 0);
    key_number(b, "ts", ts, 0);
    key_number(b, "dur", 0, 0);
    key_number(b, "pid", (double)layout_pid(c, row), 0);
    key_number(b, "tid", (double)layout_tid(c, row, 0), 0);
    jl_raw(b, "}");
    return emit(out, b, first);
}

/* Flow rules' arrows as flow events, ids from 1. A flow starts from the
 * slice of its source row that encloses its time (else from an anchor
 * slice there) and ends at an anchor slice on its target row, in the
 * start's category; a flow whose end has no row with intervals is left out. */
static int write_flows(FILE *out, json_line *b, const tlv_shapes *shapes, const export_layout *c,
                       double us, int radix, int *first)
{
    int rc = 0;
    size_t id = 0, nrows = tlv_shapes_row_count(shapes);
    for (size_t i = 0; i < tlv_shapes_flow_count(shapes) && rc == 0; i++) {
        tlv_flow_info f;
        tlv_shapes_flow(shapes, i, &f);
        if (f.from_row >= nrows || f.to_row >= nrows || !c->used[f.from_row] || !c->used[f.to_row])
            continue;
        double ts = tlv_time_to_double(f.time, radix) * us;
        const interval *from = enclosing(c, f.from_row, f.time);
        const char *cat = from ? from->sh.rule : f.rule;
        id++;
        if (from)
            rc = flow_event(out, b, &f, cat, id, 1, c, f.from_row, from->lane,
                            tlv_time_to_double(from->sh.from, radix) * us, first);
        else if ((rc = flow_anchor(out, b, &f, cat, f.from_row, c, ts, first)) == 0)
            rc = flow_event(out, b, &f, cat, id, 1, c, f.from_row, 0, ts, first);
        if (rc == 0)
            rc = flow_anchor(out, b, &f, cat, f.to_row, c, ts, first);
        if (rc == 0)
            rc = flow_event(out, b, &f, cat, id, 0, c, f.to_row, 0, ts, first);
    }
    return rc;
}

/* otherData: where the trace came from and its time unit. */
static void put_other_data(json_line *b, const tlv_exporter *ex, double us)
{
    char generator[64];
    snprintf(generator, sizeof generator, "tlv %s", tlv_version());
    jl_raw(b, "\n],\"otherData\":");
    key_string(b, "source", ex->opts.source ? ex->opts.source : "", 1);
    key_string(b, "timeScale", tlv_rules_time_scale(ex->rules), 0);
    key_number(b, "usPerUnit", us, 0);
    key_string(b, "generator", generator, 0);
    jl_raw(b, "}}\n");
}

/* The microseconds per trace unit: the option, else the TimeScale's, else 1. */
static double chrome_us(const tlv_exporter *ex)
{
    if (ex->opts.us_per_unit > 0 && ex->opts.us_per_unit <= 1e15)
        return ex->opts.us_per_unit;
    if (ex->opts.us_per_unit > 0 || ex->opts.us_per_unit != ex->opts.us_per_unit)
        return 0; /* write_chrome refuses it: a time could become infinite, "ts":null */
    double us = tlv_export_us_per_unit(tlv_rules_time_scale(ex->rules));
    return us > 0 ? us : 1;
}

static tlv_status write_chrome(tlv_exporter *ex, FILE *out)
{
    const interval_list *l = export_intervals(ex);
    const export_layout *c = l ? export_layout_of(ex) : NULL;
    if (!c)
        return TLV_ERR_NOMEM;
    double us = chrome_us(ex);
    if (!(us > 0))
        return export_fail(ex, TLV_ERR_USAGE,
                           "us_per_unit %g is beyond 1e15 microseconds a unit: the times of a "
                           "64-bit trace would not be finite", ex->opts.us_per_unit);
    int radix = ex->radix;
    int first = 1;
    json_line b = {0};
    int rc = fputs("{\"traceEvents\":[", out) < 0 ? -1 : 0;
    if (rc == 0)
        rc = write_metadata(out, &b, ex->shapes, c, &first);
    if (rc == 0) {
        events_ctx e = {l, c, us, radix, first};
        rc = ordered_write(out, l->n, ordered_write_threads(ex->opts.threads, l->n), put_event_at, &e);
        if (rc == -2)
            b.failed = 1;
        first = first && l->n == 0;
    }
    if (rc == 0)
        rc = write_counters(out, &b, ex->trace, ex->shapes, c, us, radix, &first);
    if (rc == 0)
        rc = write_flows(out, &b, ex->shapes, c, us, radix, &first);
    if (rc == 0) {
        put_other_data(&b, ex, us);
        rc = jl_write(&b, out);
    }
    int nomem = b.failed || rc == -2;
    jl_free(&b);
    if (nomem)
        return export_fail(ex, TLV_ERR_NOMEM, "out of memory while writing the export");
    if (rc < 0)
        return export_fail(ex, TLV_ERR_IO, "writing the export failed");
    return TLV_OK;
}

const export_writer export_chrome = {write_chrome, NULL};
