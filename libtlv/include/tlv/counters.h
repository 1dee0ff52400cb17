/*
 * counters.h — counter attributes: numeric attributes whose values are
 * quantities over time (heap bytes, queue length, call depth) rather than
 * states. A resource header declares one with "Counter": true (a tlv
 * extension), optionally with fixed bounds:
 *
 *   "heap": {"VariableType": "Number", "AllocationType": "Dynamic",
 *            "Default": 0, "Counter": true, "Min": 0, "Max": 65536}
 *
 * A trace's counters are read once into a snapshot (tlv_counters) giving,
 * per resource and counter attribute, its samples (the value from each
 * change on, as a step function) and their statistics. The viewer draws
 * them as counter tracks, `tlv stats` prints the statistics and
 * `tlv export --format chrome` writes them as "ph":"C" events.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_COUNTERS_H
#define TLV_COUNTERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True (1) when `attr` of resource `resource` is declared a counter, else 0
 * (also for an unknown resource or attribute). Cheap: reads the rule set. */
TLV_API int tlv_trace_attr_is_counter(const tlv_trace *trace, const char *resource,
                                      const char *attr);

/* The counters of a trace at one moment. */
typedef struct tlv_counters tlv_counters;

/* Reads every counter of the trace (after tlv_trace_finish or
 * tlv_trace_update; compute again after a later update to see new events).
 * O(n) in the trace's events, and nothing at all when no attribute is a
 * counter. *out is NULL on failure. Returns TLV_OK, TLV_ERR_USAGE (NULL
 * argument) or TLV_ERR_NOMEM. The trace must outlive the snapshot. */
TLV_API tlv_status tlv_counters_compute(const tlv_trace *trace, tlv_counters **out);

/* The same, and also every other attribute all of whose values are numbers
 * and that takes at least two values (a counter the rule set does not
 * declare: the viewer offers them as counter tracks; one whose value never
 * varies, a forked process's pid, would be a flat line). An attribute is left out at
 * its first value that is not a number (an empty initial value is no value);
 * tlv_counter_info.declared tells the two kinds apart. O(n) in the trace's
 * events; the dropped attributes' samples are freed as soon as they drop.
 * Returns as tlv_counters_compute. */
TLV_API tlv_status tlv_counters_compute_numeric(const tlv_trace *trace, tlv_counters **out);

/* Frees the snapshot (NULL is allowed). */
TLV_API void tlv_counters_free(tlv_counters *counters);

/* The counters: one per resource and counter attribute of its type, by
 * resource in trace order (tlv_trace_resource_count), then attribute in
 * declaration order. 0 for NULL. */
TLV_API size_t tlv_counters_count(const tlv_counters *counters);

/* Counter i's index, or -1 when `resource` has no counter `attr`. */
TLV_API long tlv_counters_find(const tlv_counters *counters, const char *resource,
                               const char *attr);

typedef struct tlv_counter_info {
    const char *resource;     /* resource name; lives as long as the trace */
    const char *attribute;    /* attribute name */
    const char *display_name; /* the attribute's DisplayName, else its name */
    size_t nsamples;          /* samples (tlv_counters_samples) */
    size_t skipped;           /* changes to a value that is not a number, left out */
    /* Over the samples; all 0 when there are none. */
    double min, max;
    double mean;              /* of the sample values */
    double time_mean;         /* time-weighted: each value weighs the time it held,
                                 from its sample to the next (the last: to the
                                 trace end); the plain last value when the
                                 samples span no time */
    int has_bounds;           /* "Min" and "Max" declared: */
    double lower, upper;      /* the fixed range to draw in (else min and max) */
    int declared;             /* declared "Counter": true (0: a numeric attribute that
                                 only tlv_counters_compute_numeric reads) */
} tlv_counter_info;

/* Counter i (< the count) in *out. */
#define tlv_counters_get(counters, i, out) tlv_counters_get_sized((counters), (i), (out), sizeof *(out))
TLV_API void tlv_counters_get_sized(const tlv_counters *counters, size_t i, tlv_counter_info *out,
                                    size_t size);

/* One value of a counter, holding from `time` to the next sample. */
typedef struct tlv_counter_sample {
    tlv_time time;
    double value;
} tlv_counter_sample;

/* Counter i's samples in (time, line) order: the initial value (resource
 * file or Default) at the trace start — for a resource created on first
 * use, at its first event — when it is a number, then one per change of
 * the attribute to a number. Sets *n to their number; the array lives as
 * long as the snapshot (NULL when *n is 0). */
TLV_API const tlv_counter_sample *tlv_counters_samples(const tlv_counters *counters, size_t i,
                                                       size_t *n);

/* Index of the sample of counter i in force at time t (the last one at or
 * before t), or (size_t)-1 when t is before the first. O(log n). */
TLV_API size_t tlv_counters_sample_at(const tlv_counters *counters, size_t i, tlv_time t);

#ifdef __cplusplus
}
#endif

#endif
