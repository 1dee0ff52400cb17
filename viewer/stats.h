/*
 * stats.h — what `tlv stats` computes from a trace, through the public API
 * only: how long each resource spent in each value of an attribute, and when
 * each processor was busy (some resource on it running).
 */
#ifndef TLV_VIEWER_STATS_H
#define TLV_VIEWER_STATS_H

#include <tlv/tlv.h>

#include <stddef.h>

typedef struct stats_options {
    const char *attribute;          /* whose values are the states ("state") */
    const char *cpu_attribute;      /* names a resource's processor; NULL: prcId
                                       when some resource has it, else one processor */
    const char *running_attribute;  /* running means running_attribute == */
    const char *running_value;      /* running_value ("state", "RUNNING") */
} stats_options;

/* Time one resource spent in one state, in trace units. */
typedef struct state_stat {
    const char *resource;           /* its name, owned by the trace */
    const char *state;              /* owned by the trace */
    size_t count;
    double total, min, max;
} state_stat;

typedef struct span {
    double from, to;
} span;

typedef struct processor {
    char *name;                     /* "CPU <value>", or "CPU" for the only one */
    const char *value;              /* the processor attribute's value, or NULL */
    span *busy;                     /* running intervals, merged and sorted */
    size_t nbusy, cap;
    double busy_total;
} processor;

typedef struct trace_stats {
    double start, end;              /* the trace's first and last times */
    const char *cpu_attribute;      /* the one used, or NULL */
    state_stat *states;             /* by resource, then state name */
    size_t nstates;
    processor *cpus;                /* ordered by value (numbers as numbers) */
    size_t ncpus;
} trace_stats;

/* Scans the finished trace once. Intervals in a state are the times between
 * changes of the attribute to a different value (the initial value counts
 * from the trace start; the last runs to the trace end); zero-length ones
 * and empty values are left out. A running resource's time goes to the
 * processor its processor attribute names at that moment (a migration
 * splits it). Returns 0, or -1 when memory ran out. */
int stats_compute(const tlv_rules *rules, const tlv_trace *trace, const stats_options *opts,
                  trace_stats *out);

/* Busy time of processor p within [from, to]. O(log n + k). */
double stats_busy_in(const processor *p, double from, double to);

void stats_free(trace_stats *s);

#endif
