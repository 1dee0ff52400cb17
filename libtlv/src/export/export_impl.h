/*
 * export_impl.h — inside libtlv-export (tlv/export.h): the exporter handle,
 * the writer each format file provides (a struct of function pointers, one
 * row of the table in export.c), and what the formats share: the drawn
 * shapes grouped into intervals (intervals.c: the primitives one rule event
 * draws over one interval, a bar and its label, are one interval) and the
 * threads and processes they are laid out on (layout.c).
 */
#ifndef TLV_EXPORT_IMPL_H
#define TLV_EXPORT_IMPL_H

#include <tlv/export.h>

#include <stddef.h>
#include <stdio.h>

/* One interval: the first shape of its group, with the group's text. */
typedef struct interval {
    tlv_shape_info sh;
    const char *text;
    size_t lane;        /* which of its row's lanes (layout.c) */
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

/* Where the intervals go for consumers whose threads hold properly nested
 * slices (Chrome, Perfetto): a row's intervals that overlap without nesting
 * go to further lanes, each lane a thread of its own ("ROW (2)"...; a row's
 * instants go in its first lane). A row whose resource has a `tid`
 * attribute (a Linux thread) is that thread (its first lane); one with a
 * `pid` attribute too is in that process, named by its main thread's row;
 * the other rows of one group (resource type, or processor) are one
 * process. The other threads and processes are numbered from 1, in tlv's
 * row order, past the real ids. Rows without intervals get none. */
typedef struct export_layout {
    size_t *first_tid;     /* per row: its first lane's track (an index of track_tid) */
    long long *track_tid;  /* per track (a row's lane): its thread id */
    size_t *nlanes;        /* per row */
    size_t *pid;           /* per row: its process's number, from 1 (0: no intervals) */
    int *used;             /* per row: 1 when it has intervals */
    long long *real_tid;   /* per row: its Linux thread id, or -1 */
    const char **groups;   /* per process - 1: the group's name (NULL: none) */
    const char **process_name; /* per process - 1 */
    long long *process_id; /* per process - 1: its id (a real pid, or a number) */
    long long *real_pid_of;/* per process - 1: its real pid, or -1 */
    size_t ngroups;
    interval **by_row;     /* the intervals by row: row r's from row_start[r], its */
    size_t *row_start;     /* row_slices[r] complete ones first, by start */
    size_t *row_slices;
} export_layout;

/* The thread id of a row's lane, and the process id of a row. */
long long layout_tid(const export_layout *c, size_t row, size_t lane);
long long layout_pid(const export_layout *c, size_t row);

/* The exporter handle (tlv/export.h). */
struct tlv_exporter {
    const tlv_rules *rules;
    const tlv_trace *trace;
    const tlv_shapes *shapes;
    tlv_export_options opts;
    tlv_export_marker *markers; /* copied, names too */
    int radix;
    int have_intervals, have_layout;
    interval_list intervals;     /* collect_intervals, on first use */
    export_layout layout;        /* layout_compute, on first use */
    char error[512];
    char warning[512];           /* tlv_exporter_warning */
};

/* Records the message of a failing call (printf-like) and returns `st`. */
tlv_status export_fail(tlv_exporter *ex, tlv_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The intervals, collected on first use; NULL when memory ran out (the
 * message recorded). */
const interval_list *export_intervals(tlv_exporter *ex);

/* The layout, computed on first use (setting the intervals' lanes); NULL
 * when memory ran out (the message recorded). */
const export_layout *export_layout_of(tlv_exporter *ex);

/* layout.c: lays out the rows of `shapes` for the intervals `l` (setting
 * each interval's lane). Returns 0, or -1 when memory ran out. */
int layout_compute(export_layout *c, const tlv_trace *trace, const tlv_shapes *shapes,
                   interval_list *l);
void layout_free(export_layout *c);

/* A trace time as a base-10 number for JSON or CSV: exact for integers and
 * radix-10 fractions, else the nearest double (%.17g). buf: 160 bytes. */
void time_text(tlv_time t, int radix, char *buf, size_t size);
/* The duration to - from (to >= from) the same way, right over the whole
 * range of times: a span past 2^63 - 1 ticks is written whole, never wrapped. */
void span_text(tlv_time from, tlv_time to, int radix, char *buf, size_t size);

/* A format's writer: one of the two is set. A stream format writes to a
 * FILE (export to a file by name opens one); a file format (a database)
 * makes the file itself. Each returns TLV_OK or a status with the message
 * recorded on the exporter. */
typedef struct export_writer {
    tlv_status (*write_stream)(tlv_exporter *ex, FILE *out);
    tlv_status (*write_file)(tlv_exporter *ex, const char *path);
} export_writer;

#endif
