/*
 * view_tracks.c — tracks: rows drawn as graphs above the timeline's rows.
 * The CPU-load tracks (one per processor, and the whole system) come from
 * libtlv's tlv_stats — the numbers `tlv stats` prints — and show the busy
 * share of each pixel column at any zoom; they are shown in per-CPU mode
 * (or for a trace of one processor) while switched on (key u, on at first).
 * Counter tracks show the counter attributes of the rule set, and are
 * offered for every other attribute whose values are all numbers
 * (tlv_counters_compute_numeric): those show when checked in the rows panel.
 * Which are hidden or checked and their order are kept by name; the rows
 * panel lists them, the tracks panel draws them.
 */
#include "view/core.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void clear_tracks(view_tracks *t)
{
    tlv_stats_free(t->stats);
    tlv_counters_free(t->counters);
    t->stats = NULL;
    t->counters = NULL;
    t->n = 0;
}

void tracks_free(view_tracks *t)
{
    clear_tracks(t);
    free(t->v);
    set_free(&t->hidden);
    set_free(&t->order);
    set_free(&t->offered_shown);
    memset(t, 0, sizeof *t);
}

static view_track *add(view_tracks *t)
{
    if (view_grow((void **)&t->v, &t->cap, t->n + 1, sizeof *t->v) < 0)
        return NULL;
    view_track *k = &t->v[t->n++];
    memset(k, 0, sizeof *k);
    return k;
}

static void make_load_tracks(view_tracks *t)
{
    size_t n = tlv_stats_cpu_count(t->stats);
    for (size_t c = 0; n && c <= n; c++) {
        view_track *k = add(t);
        if (!k)
            return;
        k->kind = TRACK_LOAD;
        k->max = 1;
        if (c == 0) { /* the whole system first */
            k->index = TLV_STATS_ALL_CPUS;
            snprintf(k->name, sizeof k->name, n > 1 ? "CPU load (all)" : "CPU load");
            if (n == 1)
                k->index = 0, c = n; /* one processor: it is the whole system */
            continue;
        }
        tlv_cpu_stat cpu;
        tlv_stats_cpu(t->stats, c - 1, &cpu);
        k->index = c - 1;
        snprintf(k->name, sizeof k->name, "%s load", cpu.name);
    }
}

/* A counter track of every series with data: a declared counter that
 * never leaves its baseline (its "Min", else 0: a process whose heap stays
 * at 0 bytes) is no track, and the others are drawn from that baseline (0
 * bytes is empty). Numbers the rule set does not call counters (offered: a
 * processor number) keep their own range. */
static void make_counter_tracks(view_tracks *t)
{
    for (size_t i = 0; i < tlv_counters_count(t->counters); i++) {
        tlv_counter_info c;
        tlv_counters_get(t->counters, i, &c);
        double base = c.has_bounds ? c.lower : c.declared ? 0 : c.min;
        if (!c.nsamples || (c.declared && c.min == base && c.max == base))
            continue;
        view_track *k = add(t);
        if (!k)
            return;
        k->kind = TRACK_COUNTER;
        k->index = i;
        k->offered = !c.declared;
        snprintf(k->name, sizeof k->name, "%s %s", c.resource, c.attribute);
        k->min = c.has_bounds ? c.lower : c.min < base ? c.min : base;
        k->max = c.has_bounds ? c.upper : c.max > base ? c.max : base;
        if (!(k->max > k->min))
            k->max = k->min + 1;
    }
}

/* A row's resource and label, to name counter tracks like their rows. */
typedef struct row_name {
    const char *resource, *label;
    size_t row;
} row_name;

static int by_resource(const void *x, const void *y)
{
    const row_name *a = x, *b = y;
    int c = strcmp(a->resource, b->resource);
    return c ? c : (a->row > b->row) - (a->row < b->row); /* its first row first */
}

/* Counter tracks are called what their resource's row is called (the label
 * column and the rows panel show "heap[4092]", not "P4092"); a resource
 * without a row keeps its name. The name stays the key hidden, checked and
 * moved tracks are kept by (the session), so labels changing (a live log)
 * lose nothing. O((rows + tracks) log rows), after the rows change. */
static void label_tracks(view_app *a)
{
    view_tracks *t = &a->tracks;
    size_t nrows = a->shapes ? tlv_shapes_row_count(a->shapes) : 0, n = 0;
    row_name *rows = nrows ? malloc(nrows * sizeof *rows) : NULL;
    if (nrows && !rows) /* the view ends (cmd_view.c): names half made would mislead */
        report_nomem("naming the tracks of", a->opts.input);
    for (size_t r = 0; rows && r < nrows; r++) {
        tlv_row_info info;
        tlv_shapes_row(a->shapes, r, &info);
        if (info.resource && info.label)
            rows[n++] = (row_name){info.resource, info.label, r};
    }
    if (n)
        qsort(rows, n, sizeof *rows, by_resource);
    for (size_t i = 0; i < t->n; i++) {
        view_track *k = &t->v[i];
        snprintf(k->label, sizeof k->label, "%s", k->name);
        if (k->kind != TRACK_COUNTER || !n)
            continue;
        tlv_counter_info c;
        tlv_counters_get(t->counters, k->index, &c);
        row_name key = {c.resource, NULL, 0};
        size_t lo = 0, hi = n; /* the first row of the resource */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (by_resource(&rows[mid], &key) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        if (lo < n && strcmp(rows[lo].resource, c.resource) == 0)
            snprintf(k->label, sizeof k->label, "%s %s", rows[lo].label, c.attribute);
    }
    free(rows);
}

/* Position of a track in the kept order (unnamed ones after, as made). */
static long rank(const view_tracks *t, const view_track *k)
{
    for (size_t i = 0; i < t->order.n; i++)
        if (strcmp(t->order.v[i], k->name) == 0)
            return (long)i;
    return (long)t->order.n + (long)(k - t->v);
}

static void sort_tracks(view_tracks *t)
{
    for (size_t i = 1; i < t->n; i++) /* insertion sort: a handful of tracks */
        for (size_t j = i; j > 0 && rank(t, &t->v[j - 1]) > rank(t, &t->v[j]); j--) {
            view_track tmp = t->v[j];
            t->v[j] = t->v[j - 1];
            t->v[j - 1] = tmp;
        }
}

void tracks_refresh(view_app *a)
{
    view_tracks *t = &a->tracks;
    size_t events = a->trace ? tlv_trace_event_count(a->trace) : 0;
    if (t->of == a->trace && t->of_events == events && (t->stats || !a->trace)) {
        label_tracks(a); /* the rows may have changed */
        return;
    }
    clear_tracks(t);
    t->of = a->trace;
    t->of_events = events;
    if (!a->trace)
        return;
    tlv_stats_options o = TLV_STATS_OPTIONS_INIT;
    o.cpu_attribute = a->opts.cpu_attribute;
    if (tlv_stats_compute(a->trace, &o, &t->stats) != TLV_OK ||
        tlv_counters_compute_numeric(a->trace, &t->counters) != TLV_OK) {
        report_nomem("computing the tracks of", a->opts.input); /* the viewer then stops (exit 2) */
        return;
    }
    make_load_tracks(t);
    make_counter_tracks(t);
    sort_tracks(t);
    label_tracks(a);
}

int tracks_checked(const view_app *a, size_t i)
{
    const view_tracks *t = &a->tracks;
    if (i >= t->n)
        return 0;
    if (t->v[i].offered)
        return set_has(&t->offered_shown, t->v[i].name);
    return !set_has(&t->hidden, t->v[i].name);
}

int tracks_shown(const view_app *a, size_t i)
{
    const view_tracks *t = &a->tracks;
    if (!tracks_checked(a, i))
        return 0;
    /* load: in per-CPU mode, or for a trace of one processor (nothing to group by) */
    return t->v[i].kind != TRACK_LOAD ||
           (t->load_on && (a->per_cpu || !tlv_stats_cpu_attribute(t->stats)));
}

/* After a change: the order kept is the current one, the bands new. */
static void changed(view_app *a)
{
    view_tracks *t = &a->tracks;
    set_free(&t->order);
    for (size_t i = 0; i < t->n; i++)
        set_add(&t->order, t->v[i].name);
    rows_changed(a);
}

void tracks_move(view_app *a, size_t i, int dir)
{
    view_tracks *t = &a->tracks;
    size_t j = dir < 0 ? i - 1 : i + 1;
    if (i >= t->n || (dir < 0 && i == 0) || j >= t->n)
        return;
    view_track tmp = t->v[i];
    t->v[i] = t->v[j];
    t->v[j] = tmp;
    view_message(a, "track %s moved %s", t->v[j].label, dir < 0 ? "up" : "down");
    changed(a);
}

void tracks_toggle(view_app *a, size_t i)
{
    view_tracks *t = &a->tracks;
    if (i >= t->n)
        return;
    set_toggle(t->v[i].offered ? &t->offered_shown : &t->hidden, t->v[i].name);
    changed(a);
}

static void load_values(const view_tracks *t, const view_track *k, double t0, double t1,
                        double *out, double *lo, double *hi, size_t ncols)
{
    tlv_stats_load(t->stats, k->index, t0, t1, out, ncols);
    for (size_t c = 0; c < ncols; c++) {
        if (lo)
            lo[c] = out[c];
        if (hi)
            hi[c] = out[c];
    }
}

static tlv_time time_of(double t)
{
    double r = floor(t);
    r = r < -9.2e18 ? -9.2e18 : r > 9.2e18 ? 9.2e18 : r;
    return (tlv_time){(int64_t)r, 0};
}

/* Per column: the value at its end, and the extremes of the samples in it
 * (a spike narrower than a pixel still shows). */
static void counter_values(const view_app *a, const view_track *k, double t0, double t1,
                           double *out, double *lo, double *hi, size_t ncols)
{
    const view_tracks *t = &a->tracks;
    size_t n;
    const tlv_counter_sample *s = tlv_counters_samples(t->counters, k->index, &n);
    size_t i = tlv_counters_sample_at(t->counters, k->index, time_of(t0));
    double w = (t1 - t0) / (double)(ncols ? ncols : 1);
    for (size_t c = 0; c < ncols; c++) {
        double end = t0 + w * (double)(c + 1);
        double v = i < n ? s[i].value : NAN, mn = v, mx = v;
        for (size_t j = i + 1; j < n && tlv_time_to_double(s[j].time, a->radix) <= end; j++) {
            i = j;
            v = s[j].value;
            mn = isnan(mn) || v < mn ? v : mn;
            mx = isnan(mx) || v > mx ? v : mx;
        }
        out[c] = v;
        if (lo)
            lo[c] = mn;
        if (hi)
            hi[c] = mx;
    }
}

void tracks_values(const view_app *a, size_t i, double t0, double t1, double *out, double *lo,
                   double *hi, size_t ncols)
{
    const view_tracks *t = &a->tracks;
    if (i >= t->n)
        return;
    if (t->v[i].kind == TRACK_LOAD)
        load_values(t, &t->v[i], t0, t1, out, lo, hi, ncols);
    else
        counter_values(a, &t->v[i], t0, t1, out, lo, hi, ncols);
}
