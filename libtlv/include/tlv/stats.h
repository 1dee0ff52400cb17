/*
 * stats.h — numbers about a converted trace: how long each resource spent
 * in each value of an attribute, and when each processor was busy (some
 * resource on it running), with the busy share of any time window — what
 * `tlv stats` prints and the viewer's CPU-load tracks draw.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_STATS_H
#define TLV_STATS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The statistics of one trace, computed once. */
typedef struct tlv_stats tlv_stats;

typedef struct tlv_stats_options {
    /* The caller's sizeof(this struct) (see "ABI" in tlv.h): set by the init
     * macro; 0 means the 0.1 layout. */
    size_t struct_size;
    /* Whose values are the states (NULL: "state"). */
    const char *attribute;
    /* The attribute naming a resource's processor; NULL: "prcId" when some
     * resource has it, else the whole trace is one processor "CPU". A
     * resource whose value is empty runs on no processor (yet). */
    const char *cpu_attribute;
    /* Running means running_attribute == running_value (NULL: "state" and
     * "RUNNING", as in the TOPPERS rules). */
    const char *running_attribute;
    const char *running_value;
} tlv_stats_options;

/* Every option at its default, for `tlv_stats_options o = TLV_STATS_OPTIONS_INIT;`. */
#define TLV_STATS_OPTIONS_INIT {sizeof(tlv_stats_options), NULL, NULL, NULL, NULL}

/* Scans the trace once — finished, or the events so far of a growing one
 * after tlv_trace_update (opts may be NULL for every default).
 * Intervals in a state are the times between changes of the attribute to a
 * different value (the initial value counts from the trace start; the last
 * runs to the trace end); zero-length ones and empty values are left out. A
 * running resource's time goes to the processor its processor attribute
 * names at that moment (a migration splits it); a processor's busy time is
 * the union of its resources' running intervals. *out is NULL on failure.
 * Returns TLV_OK, TLV_ERR_USAGE (events pushed since the last
 * tlv_trace_update or tlv_trace_finish, NULL argument) or
 * TLV_ERR_NOMEM. The trace must outlive the statistics. */
TLV_API tlv_status tlv_stats_compute(const tlv_trace *trace, const tlv_stats_options *opts,
                                     tlv_stats **out);
/* Frees the statistics (NULL is allowed). */
TLV_API void tlv_stats_free(tlv_stats *stats);

/* The trace's first and last times, in TimeScale units. */
TLV_API double tlv_stats_start(const tlv_stats *stats);
TLV_API double tlv_stats_end(const tlv_stats *stats);
/* The processor attribute used, or NULL when the trace is one processor. */
TLV_API const char *tlv_stats_cpu_attribute(const tlv_stats *stats);

/* Time one resource spent in one value, in TimeScale units. */
typedef struct tlv_state_stat {
    const char *resource;   /* lives as long as the trace */
    const char *state;      /* the value; lives as long as the trace */
    size_t count;           /* intervals */
    double total, min, max; /* their durations */
} tlv_state_stat;

/* The (resource, value) pairs, by resource in trace order, then value in
 * byte order: their number, and pair i (< the count) in *out. */
TLV_API size_t tlv_stats_state_count(const tlv_stats *stats);
#define tlv_stats_state(stats, i, out) tlv_stats_state_sized((stats), (i), (out), sizeof *(out))
TLV_API void tlv_stats_state_sized(const tlv_stats *stats, size_t i, tlv_state_stat *out,
                                   size_t size);

/* One processor. */
typedef struct tlv_cpu_stat {
    const char *name;       /* "CPU <value>", or "CPU" for the only one;
                               lives as long as the statistics */
    const char *value;      /* the processor attribute's value, or NULL */
    double busy;            /* busy time over the whole trace */
    size_t intervals;       /* busy intervals (after merging overlaps) */
} tlv_cpu_stat;

/* The processors, ordered by value (numbers as numbers: "CPU 2" before
 * "CPU 10"): their number, and processor i (< the count) in *out. */
TLV_API size_t tlv_stats_cpu_count(const tlv_stats *stats);
#define tlv_stats_cpu(stats, i, out) tlv_stats_cpu_sized((stats), (i), (out), sizeof *(out))
TLV_API void tlv_stats_cpu_sized(const tlv_stats *stats, size_t i, tlv_cpu_stat *out, size_t size);

/* Pass as `cpu` to mean every processor together (the whole system). */
#define TLV_STATS_ALL_CPUS ((size_t)-1)

/* Busy time of processor `cpu` within [from, to] (times in TimeScale
 * units); with TLV_STATS_ALL_CPUS, the sum over every processor. 0 for an
 * empty or reversed window or a cpu out of range. O(log n). */
TLV_API double tlv_stats_busy_in(const tlv_stats *stats, size_t cpu, double from, double to);

/* The stretches of time processor `cpu` (TLV_STATS_ALL_CPUS: any processor)
 * was busy that overlap [from, to]: returns how many, and sets *min and *max
 * (either may be NULL) to the shortest and longest part of one inside the
 * window (0 when there is none). O(log n + k) for k stretches. */
TLV_API size_t tlv_stats_busy_spans(const tlv_stats *stats, size_t cpu, double from, double to,
                                    double *min, double *max);

/* The load of processor `cpu` (or TLV_STATS_ALL_CPUS: the mean over every
 * processor) over [t0, t1] split into ncols equal columns: out[k] is the
 * busy share, 0 to 1, of column k — what a load track draws, one column per
 * pixel. O(ncols log n) whatever the zoom (columns are searched left to
 * right, each from the last: O(ncols) when zoomed in). */
TLV_API void tlv_stats_load(const tlv_stats *stats, size_t cpu, double t0, double t1,
                            double *out, size_t ncols);

#ifdef __cplusplus
}
#endif

#endif
