/*
 * export.c — the table of export formats (tlv/export.h) and the exporter
 * handle: what the formats share (the intervals and their layout, made
 * once on first use), the options, and the message of a failing call.
 *
 * Adding a format: a new file export_NAME.c defining `const export_writer
 * export_NAME` (export_impl.h: write_stream for a stream, write_file for a
 * file made by name), and one row below (with its declaration beside the
 * table). `tlv export --format`, its --help and its error for an unknown
 * format are built from the table, and tests/e2e/test_export.sh runs every
 * row (docs/architecture.md, "Adding an export format").
 */
#include "export/export_impl.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const export_writer export_chrome, export_csv, export_shapes, export_flows, export_sqlite;

/* One row per format: its public description and its writer. The first is
 * the default of `tlv export`. */
static const struct format_row {
    tlv_export_format info;
    const export_writer *writer;
} formats[] = {
    {{"chrome", "Chrome Trace Event JSON, for Perfetto UI and chrome://tracing", 0}, &export_chrome},
    {{"csv", "one RFC 4180 row per drawn interval", 0}, &export_csv},
    {{"shapes", "the drawn primitives as JSON Lines (as 'tlv shapes')", 0}, &export_shapes},
    {{"flows", "the flows between rows as JSON Lines ('tlv shapes --flows')", 0}, &export_flows},
    {{"sqlite", "a SQLite database for SQL (docs/sql.md)", 1}, &export_sqlite},
};

#define NFORMATS (sizeof formats / sizeof formats[0])

size_t tlv_export_format_count(void) { return NFORMATS; }

const tlv_export_format *tlv_export_format_get(size_t i)
{
    return i < NFORMATS ? &formats[i].info : NULL;
}

static const struct format_row *find_row(const char *name)
{
    for (size_t i = 0; name && i < NFORMATS; i++)
        if (strcmp(formats[i].info.name, name) == 0)
            return &formats[i];
    return NULL;
}

const tlv_export_format *tlv_export_format_find(const char *name)
{
    const struct format_row *row = find_row(name);
    return row ? &row->info : NULL;
}

double tlv_export_us_per_unit(const char *scale)
{
    static const struct {
        const char *name;
        double us;
    } units[] = {{"s", 1e6},  {"ms", 1e3},        {"us", 1},         {"\xc2\xb5s", 1},
                 {"\xce\xbcs", 1}, {"ns", 1e-3}, {"ps", 1e-6}};
    for (size_t i = 0; scale && i < sizeof units / sizeof *units; i++)
        if (strcmp(scale, units[i].name) == 0)
            return units[i].us;
    return 0;
}

/* ---- the handle -------------------------------------------------------------------- */

tlv_status export_fail(tlv_exporter *ex, tlv_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ex->error, sizeof ex->error, fmt, ap);
    va_end(ap);
    return st;
}

/* The markers, names and all, in memory of the exporter's own. */
static int copy_markers(tlv_exporter *ex, const tlv_export_marker *m, size_t n)
{
    ex->opts.markers = NULL;
    ex->opts.nmarkers = 0;
    if (!n)
        return 0;
    ex->markers = calloc(n, sizeof *ex->markers);
    if (!ex->markers)
        return -1;
    ex->opts.markers = ex->markers;
    for (size_t i = 0; i < n; i++) {
        ex->markers[i] = m[i];
        ex->markers[i].name = strdup(m[i].name ? m[i].name : "");
        ex->opts.nmarkers = i + 1; /* freed so far */
        if (!ex->markers[i].name)
            return -1;
    }
    return 0;
}

tlv_status tlv_exporter_new(const tlv_rules *rules, const tlv_trace *trace,
                            const tlv_shapes *shapes, const tlv_export_options *opts,
                            tlv_exporter **out)
{
    if (!out)
        return TLV_ERR_USAGE;
    *out = NULL;
    if (!rules || !trace || !shapes)
        return TLV_ERR_USAGE;
    tlv_exporter *ex = calloc(1, sizeof *ex);
    if (!ex)
        return TLV_ERR_NOMEM;
    ex->rules = rules;
    ex->trace = trace;
    ex->shapes = shapes;
    ex->radix = tlv_rules_time_radix(rules);
    tlv_export_options defaults = TLV_EXPORT_OPTIONS_INIT;
    ex->opts = defaults;
    /* the members the caller's struct has (struct_size 0: the first layout) */
    size_t size = opts && opts->struct_size ? opts->struct_size : sizeof *opts;
    if (opts)
        memcpy(&ex->opts, opts, size < sizeof ex->opts ? size : sizeof ex->opts);
    ex->opts.struct_size = sizeof ex->opts;
    if (ex->opts.source && !(ex->opts.source = strdup(ex->opts.source))) {
        free(ex);
        return TLV_ERR_NOMEM;
    }
    if (copy_markers(ex, opts ? ex->opts.markers : NULL, opts ? ex->opts.nmarkers : 0) < 0) {
        tlv_exporter_free(ex);
        return TLV_ERR_NOMEM;
    }
    *out = ex;
    return TLV_OK;
}

void tlv_exporter_free(tlv_exporter *ex)
{
    if (!ex)
        return;
    for (size_t i = 0; i < ex->opts.nmarkers; i++)
        free((char *)ex->markers[i].name);
    free(ex->markers);
    free((char *)ex->opts.source);
    free(ex->intervals.v);
    layout_free(&ex->layout);
    free(ex);
}

const char *tlv_exporter_last_error(const tlv_exporter *ex) { return ex ? ex->error : ""; }

const char *tlv_exporter_warning(const tlv_exporter *ex) { return ex ? ex->warning : ""; }

const interval_list *export_intervals(tlv_exporter *ex)
{
    if (!ex->have_intervals) {
        if (collect_intervals(ex->shapes, &ex->intervals) < 0) {
            free(ex->intervals.v);
            memset(&ex->intervals, 0, sizeof ex->intervals);
            export_fail(ex, TLV_ERR_NOMEM, "out of memory while collecting the intervals");
            return NULL;
        }
        ex->have_intervals = 1;
    }
    return &ex->intervals;
}

const export_layout *export_layout_of(tlv_exporter *ex)
{
    if (!ex->have_layout) {
        if (!export_intervals(ex))
            return NULL;
        if (layout_compute(&ex->layout, ex->trace, ex->shapes, &ex->intervals) < 0) {
            layout_free(&ex->layout);
            memset(&ex->layout, 0, sizeof ex->layout);
            export_fail(ex, TLV_ERR_NOMEM, "out of memory while laying out the rows");
            return NULL;
        }
        ex->have_layout = 1;
    }
    return &ex->layout;
}

/* ---- writing ------------------------------------------------------------------------- */

/* The row of `format`, or NULL with the message recorded. */
static const struct format_row *row_of(tlv_exporter *ex, const char *format)
{
    const struct format_row *row = find_row(format);
    if (!row)
        export_fail(ex, TLV_ERR_USAGE, "unknown export format '%s'", format ? format : "(null)");
    return row;
}

tlv_status tlv_export_write(tlv_exporter *ex, const char *format, FILE *out)
{
    if (!ex)
        return TLV_ERR_USAGE;
    if (!out)
        return export_fail(ex, TLV_ERR_USAGE, "tlv_export_write: no stream");
    const struct format_row *row = row_of(ex, format);
    if (!row)
        return TLV_ERR_USAGE;
    if (!row->writer->write_stream)
        return export_fail(ex, TLV_ERR_USAGE,
                           "the %s format writes a file by name, not a stream: use tlv_export_write_file",
                           format);
    return row->writer->write_stream(ex, out);
}

tlv_status tlv_export_write_file(tlv_exporter *ex, const char *format, const char *path)
{
    if (!ex)
        return TLV_ERR_USAGE;
    if (!path)
        return export_fail(ex, TLV_ERR_USAGE, "tlv_export_write_file: no path");
    const struct format_row *row = row_of(ex, format);
    if (!row)
        return TLV_ERR_USAGE;
    if (row->writer->write_file)
        return row->writer->write_file(ex, path);
    FILE *out = fopen(path, "wb");
    if (!out)
        return export_fail(ex, errno == ENOMEM ? TLV_ERR_NOMEM : TLV_ERR_IO, "cannot write '%s': %s",
                           path, strerror(errno));
    tlv_status st = row->writer->write_stream(ex, out);
    int closed = fclose(out);
    if (st == TLV_OK && closed != 0)
        st = export_fail(ex, TLV_ERR_IO, "cannot write '%s': %s", path, strerror(errno));
    return st;
}

/* ---- times as text ------------------------------------------------------------------ */

/* v in base 10 as "%lld" writes it (truncated to size - 1 bytes as
 * snprintf would), without printf: every exported time goes through here. */
static void int_text(long long v, char *buf, size_t size)
{
    char digits[24], *end = digits + sizeof digits, *p = end;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    if (!size)
        return;
    size_t n = (size_t)(end - p) < size ? (size_t)(end - p) : size - 1;
    memcpy(buf, p, n);
    buf[n] = '\0';
}

void time_text(tlv_time t, int radix, char *buf, size_t size)
{
    if (t.frac == 0)
        int_text((long long)t.ticks, buf, size);
    else if (radix == 10)
        tlv_time_format(t, 10, buf, size);
    else /* a fraction in another radix has no exact decimal form of bounded length */
        snprintf(buf, size, "%.17g", tlv_time_to_double(t, radix));
}

/* A duration of 2^63 ticks or more (from near -2^63 to near 2^63) does not
 * fit a tlv_time, where tlv_time_sub wrapped it to a negative number (CSV
 * durations of -1, issue 32.2); it always fits 64 unsigned bits, so it is
 * written whole. */
void span_text(tlv_time from, tlv_time to, int radix, char *buf, size_t size)
{
    uint64_t ticks;
    if (tlv_time_span_fits(from, to, radix, &ticks)) {
        time_text(tlv_time_sub(to, from, radix), radix, buf, size);
        return;
    }
    tlv_time rest = tlv_time_sub(to, from, radix);
    char frac[160] = "";
    if (rest.frac && radix == 10) {
        tlv_time_format((tlv_time){0, rest.frac}, 10, frac, sizeof frac); /* "0.25" */
        memmove(frac, frac + 1, strlen(frac)); /* ".25" */
    } else if (rest.frac) {
        snprintf(buf, size, "%.17g", tlv_time_span(from, to, radix));
        return;
    }
    snprintf(buf, size, "%llu%s", (unsigned long long)ticks, frac);
}
