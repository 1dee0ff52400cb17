/*
 * export.h — libtlv-export: a converted trace and its shapes written for
 * other tools, in the formats of one table (`tlv export --format`, its help
 * and its error for an unknown format are built from it):
 *
 *   chrome   Chrome Trace Event JSON, for Perfetto UI (ui.perfetto.dev) and
 *            chrome://tracing
 *   csv      one RFC 4180 row per drawn interval
 *   shapes   the drawn primitives as JSON Lines (what `tlv shapes` prints)
 *   flows    the flows (arrows between rows) as JSON Lines (`tlv shapes
 *            --flows`)
 *   sqlite   a SQLite database, with Perfetto-shaped tables (docs/sql.md);
 *            written to a file by name, never to a stream
 *
 * A separate library (pkg-config libtlv-export, CMake tlv::export) so that
 * libtlv needs PCRE2 and cJSON only: this one needs SQLite as well. It uses
 * libtlv's public API only. The conventions of tlv.h hold: an opaque handle
 * (tlv_exporter) with a *_free and a *_last_error, a tlv_status from every
 * call that can fail, no printing, no exit, no global state.
 *
 * Times: chrome in microseconds (the TimeScale's unit converted, or
 * tlv_export_options.us_per_unit); csv, shapes and flows in trace units,
 * exact (base-10 numbers); sqlite both: REAL columns in trace units, and
 * the Perfetto-shaped tables in integer nanoseconds from the trace's time
 * origin (the first event), with the origin in the `metadata` table.
 */
#ifndef TLV_EXPORT_H
#define TLV_EXPORT_H

#include "tlv/tlv.h"

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* The formats                                                               */

/* One format of the table. Owned by the library (static storage); the
 * struct only grows at the end (tlv.h's ABI rules). */
typedef struct tlv_export_format {
    const char *name;  /* as `tlv export --format` takes it: "chrome", "csv", ... */
    const char *help;  /* one line saying what it writes, for a help text */
    int needs_file;    /* 1: written to a file by name (a database), never to a
                          stream: use tlv_export_write_file */
} tlv_export_format;

/* The number of formats in the table. */
TLV_API size_t tlv_export_format_count(void);
/* The i-th format, in the table's order (the first is the default of `tlv
 * export`), or NULL when out of range. */
TLV_API const tlv_export_format *tlv_export_format_get(size_t i);
/* The format named `name`, or NULL when there is none. */
TLV_API const tlv_export_format *tlv_export_format_find(const char *name);

/* Microseconds per unit of a TimeScale ("s", "ms", "us", "µs", "ns", "ps"),
 * or 0 when it is not a unit of time (then the chrome format writes one unit
 * as 1 us unless tlv_export_options.us_per_unit says otherwise). */
TLV_API double tlv_export_us_per_unit(const char *time_scale);

/* ------------------------------------------------------------------------ */
/* An exporter                                                               */

/* A marker of a viewer session, for the sqlite format's `markers` table. */
typedef struct tlv_export_marker {
    double time;       /* in trace units */
    const char *name;
    uint32_t color;    /* 0xRRGGBB */
} tlv_export_marker;

/* How to export. Start from TLV_EXPORT_OPTIONS_INIT (struct_size first:
 * tlv.h's ABI rules). */
typedef struct tlv_export_options {
    size_t struct_size;
    const char *source;       /* the input's name, recorded in the output
                                 (chrome otherData.source, sqlite meta.source); NULL: "" */
    double us_per_unit;       /* chrome: microseconds per trace unit; 0: from the
                                 TimeScale (tlv_export_us_per_unit, else 1); at
                                 most 1e15, so that no 64-bit time is infinite */
    int threads;              /* threads that format chrome and shapes; 0: the
                                 processors online, 1: the calling thread only */
    const tlv_export_marker *markers; /* sqlite: the markers table (may be NULL) */
    size_t nmarkers;
    int absolute_times;       /* csv: times as the log wrote them; 0: the times of a
                                 clock or wall-clock trace (tlv_trace_time_mode) from
                                 its start (tlv_trace_time_origin), a plain trace's
                                 as they are */
} tlv_export_options;

#define TLV_EXPORT_OPTIONS_INIT {sizeof(tlv_export_options), NULL, 0, 0, NULL, 0, 0}

/* A trace and its shapes, ready to be written in any format. What every
 * format shares (the drawn intervals, the threads and processes they are
 * laid out on) is computed once, on first use. */
typedef struct tlv_exporter tlv_exporter;

/* Makes an exporter of `trace` (converted with `rules`) and `shapes` (built
 * from it). The three must outlive the exporter; the options and markers
 * are copied. Returns TLV_OK, TLV_ERR_USAGE for a NULL argument, or
 * TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_exporter_new(const tlv_rules *rules, const tlv_trace *trace,
                                    const tlv_shapes *shapes, const tlv_export_options *opts,
                                    tlv_exporter **out);

/* Frees an exporter (NULL is fine). */
TLV_API void tlv_exporter_free(tlv_exporter *ex);

/* The message of the last call on `ex` that failed ("" until one does),
 * e.g. "SQLite: creating the tables: disk I/O error". */
TLV_API const char *tlv_exporter_last_error(const tlv_exporter *ex);

/* What the last successful write on `ex` had to change, "" when nothing:
 * the sqlite format's Perfetto-shaped tables count integer nanoseconds from
 * the trace's first event in 64 bits, so a time or duration past 2^63 ns
 * (292 years) is clamped there and this says how many were (the tables in
 * trace units hold them exactly). A program shows it as a warning, as
 * `tlv export` and `tlv query` do. */
TLV_API const char *tlv_exporter_warning(const tlv_exporter *ex);

/* Writes the trace in `format` (a name of the table) to `out`. Returns
 * TLV_OK; TLV_ERR_USAGE for an unknown format or one that needs a file;
 * TLV_ERR_IO when writing failed; TLV_ERR_NOMEM. What was written before a
 * failure stays in `out`. */
TLV_API tlv_status tlv_export_write(tlv_exporter *ex, const char *format, FILE *out);

/* Writes the trace in `format` to the file `path`: a stream format into a
 * file made or replaced there; sqlite into a new database, so `path` must
 * not exist (a program writes under a temporary name and renames it, as
 * `tlv export` does). Returns as tlv_export_write; on failure the file may
 * be left half-written. */
TLV_API tlv_status tlv_export_write_file(tlv_exporter *ex, const char *format, const char *path);

/* Writes the sqlite format into `db`, an open, empty SQLite database (e.g.
 * ":memory:", as `tlv query` does with a log), in one transaction. The
 * caller and the library must use the same SQLite library. Returns TLV_OK,
 * TLV_ERR_IO (SQLite refused: the message says why) or TLV_ERR_NOMEM. */
struct sqlite3;
TLV_API tlv_status tlv_export_sqlite_db(tlv_exporter *ex, struct sqlite3 *db);

#ifdef __cplusplus
}
#endif

#endif
