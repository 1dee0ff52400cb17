/*
 * stats_calls.h — the parts of `tlv stats` for call and allocation traces
 * (the Linux rule sets): calls paired from enter/leave behaviors per
 * resource, with total and self time like `strace -c` or a profiler; blocks
 * still live at the end (leaks); and the row labels the events gave.
 */
#ifndef TLV_VIEWER_STATS_CALLS_H
#define TLV_VIEWER_STATS_CALLS_H

#include <tlv/tlv.h>

#include <cjson/cJSON.h>
#include <stdio.h>

/* One function or system call, over every resource. */
typedef struct call_stat {
    char *name;
    size_t calls;           /* enter/leave pairs */
    size_t errors;          /* leaves whose 4th argument is "error" or "expected" */
    double total, self, max; /* durations; self leaves out the nested calls */
} call_stat;

/* A resource still "live" (its state attribute) at the end of the trace. */
typedef struct leak_stat {
    const char *resource;   /* its name ("B0x5581...") */
    const char *size;       /* its "size" attribute, or "" */
    const char *by;         /* its "by" attribute (the allocating call), or "" */
    const char *owner;      /* the label (else the name) its "owner" attribute names, or "" */
} leak_stat;

typedef struct call_stats {
    call_stat *calls;       /* by total time, longest first */
    size_t ncalls;
    double calls_total;     /* sum of the calls' self times */
    leak_stat *leaks;       /* in resource order */
    size_t nleaks;
    double leaked;          /* sum of the leaks' sizes */
} call_stats;

/* Scans the finished trace: an "enter" behavior whose first argument names
 * a call opens it on its resource, the next "leave" with the same first
 * argument on that resource closes it (and any left open above it: a
 * recursion closes innermost first). Returns 0, or -1 when memory ran out. */
int call_stats_compute(const tlv_trace *trace, int radix, call_stats *out);
void call_stats_free(call_stats *s);

/* The text sections (nothing for an empty part): calls, leaks, row labels. */
void call_stats_print(FILE *out, const call_stats *s, const tlv_trace *trace,
                      const char *time_scale);
/* The same as JSON members "calls", "leaks" and "labels" of o. */
void call_stats_json(cJSON *o, const call_stats *s, const tlv_trace *trace);

#endif
