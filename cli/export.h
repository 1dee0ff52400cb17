/*
 * export.h — what `tlv export` and `tlv query` share: the drawn shapes
 * grouped into intervals (intervals.c: the primitives one rule event draws
 * over one interval, a bar and its label, are one interval), and the SQLite
 * form of a trace (export_sqlite.c; its schema is docs/sql.md).
 */
#ifndef TLV_EXPORT_H
#define TLV_EXPORT_H

#include "cli/cli.h"

#include <sqlite3.h>

/* One interval: the first shape of its group, with the group's text. */
typedef struct interval {
    tlv_shape_info sh;
    const char *text;
    size_t lane;        /* chrome: which of its row's threads */
} interval;

typedef struct interval_list {
    interval *v;
    size_t n, cap;
} interval_list;

/* Appends the intervals of `shapes` (in the order of tlv_shapes_get) to
 * *out. Returns 0, or -1 when memory ran out. */
int collect_intervals(const tlv_shapes *shapes, interval_list *out);

/* Names equal, or both NULL. */
int same_name(const char *a, const char *b);

/* A When event's occurrence or a zero-length interval. */
int is_instant(const interval *iv);

/* What goes into a trace's database. */
typedef struct sql_source {
    const tlv_rules *rules;
    const tlv_trace *trace;
    const tlv_shapes *shapes;
    const char *input;        /* the log's name, for the meta table */
    const char *session_path; /* markers from this viewer session, or NULL */
} sql_source;

/* SQLite may run out of memory in a call whose error is then not looked at
 * (binding a value): main() gives it an allocator that counts failures
 * (before any other SQLite call), and writers compare the count before and
 * after. */
void sql_count_failures(void);
unsigned long sql_alloc_failures(void);

/* Creates the schema in the empty database `db` and fills it from `src`.
 * Returns 0, or -1 with a message printed (naming `what`, e.g. "export"). */
int sql_write_trace(sqlite3 *db, const sql_source *src, const char *what);

#endif
