/*
 * instances.h — the instances of a trace's actors and their timing: each
 * time a task, thread or handler was activated and ran to completion, each
 * wake-up and how late the processor came, each call and its return, and
 * any instance kind the rule set declares; with, per actor and kind, the
 * distribution of response times (count, min, percentiles, max, mean,
 * standard deviation). What `tlv stats --instances`, `tlv verify`,
 * `tlv diff` and the viewer's latency panel show.
 *
 * Kinds, for a resource whose "state" attribute is at some time "RUNNING":
 *  - "response": from its activation (its state going from an idle value —
 *    anything but running, ready or empty, e.g. DORMANT, WAITING, SLEEPING
 *    — to ready or running) to its completion (back to an idle value): a
 *    TOPPERS task from activation or release to exit or wait, a handler from
 *    entry to return, a Linux thread from wake-up to sleep.
 *  - "latency": from a wake-up (idle to ready) to the first time it runs
 *    after it: scheduling latency.
 * For a resource whose type has behaviors "enter"/"leave" or
 * "enterSVC"/"leaveSVC" and the entry names the call in its first argument:
 *  - "call": from an entry to the return of the same name (nested calls
 *    pair innermost first); the instance's name is the call's.
 * And any kind a resource header declares for a type ("Instances", see
 * docs/reference.md): from an event matching "From" to the next matching
 * "To", both on the resource.
 *
 * Within an instance: the execution time is the time the resource was
 * actually running — in the running state, and no other resource running
 * over it on its processor (a handler interrupting a task stops the task's
 * clock) — and the instance counts its preemptions (running to ready: it
 * lost the processor while ready) and interruptions (another resource ran
 * over it on its processor). A resource's processor is the value of the
 * processor attribute ("prcId" when some resource has it; the whole trace
 * is one processor otherwise); a type without that attribute uses its first
 * attribute whose name begins with it (TOPPERS/FMP handlers' prcIdI).
 *
 * Only whole instances are counted: one that began before the trace (its
 * initial value already active) or had not ended at its end is "partial",
 * counted apart. Times are in the trace's TimeScale units.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_INSTANCES_H
#define TLV_INSTANCES_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The instances of one trace, computed once. */
typedef struct tlv_instances tlv_instances;

typedef struct tlv_instances_options {
    /* The caller's sizeof(this struct) (see "ABI" in tlv.h): set by the init
     * macro; 0 means this first layout. */
    size_t struct_size;
    /* The attribute whose values are the states (NULL: "state"). */
    const char *state_attribute;
    /* The running value (NULL: "RUNNING"). */
    const char *running_value;
    /* The ready values, separated by commas (NULL: "RUNNABLE,READY,PREEMPTED"). */
    const char *ready_values;
    /* The processor attribute (NULL: "prcId" when some resource has it). */
    const char *cpu_attribute;
} tlv_instances_options;

/* Every option at its default. */
#define TLV_INSTANCES_OPTIONS_INIT {sizeof(tlv_instances_options), NULL, NULL, NULL, NULL}

/* Scans the finished trace (or a growing one after tlv_trace_update) once.
 * *out is NULL on failure. Returns TLV_OK, TLV_ERR_USAGE (NULL argument,
 * events pushed since the last update; tlv_trace_last_error says which) or
 * TLV_ERR_NOMEM. The trace must outlive the result. */
TLV_API tlv_status tlv_instances_compute(const tlv_trace *trace,
                                         const tlv_instances_options *opts,
                                         tlv_instances **out);
/* Frees the result (NULL is allowed). */
TLV_API void tlv_instances_free(tlv_instances *inst);

/* One instance. */
typedef struct tlv_instance {
    const char *resource;     /* lives as long as the trace */
    const char *kind;         /* "response", "latency", "call" or a declared kind */
    const char *name;         /* the call's name, a declared kind's "Name", or "" */
    tlv_time start, end;      /* exact trace times */
    double response;          /* end - start */
    double execution;         /* time actually running within; -1 when the
                                 resource has no running state (strace threads) */
    size_t preemptions;       /* lost the processor while ready */
    size_t interruptions;     /* another resource ran over it on its processor */
    uint64_t start_line;      /* input lines of the events that began and ended it */
    uint64_t end_line;
    size_t start_event;       /* those events' indexes (tlv_trace_event) */
    size_t end_event;
    size_t group;             /* its group (tlv_instances_group) */
} tlv_instance;

/* The instances in order of start (then of the events that began them):
 * their number, and instance i (< the count) in *out. Strings live as long
 * as the result. */
TLV_API size_t tlv_instances_count(const tlv_instances *inst);
#define tlv_instances_get(inst, i, out) tlv_instances_get_sized((inst), (i), (out), sizeof *(out))
TLV_API void tlv_instances_get_sized(const tlv_instances *inst, size_t i, tlv_instance *out,
                                     size_t size);

/* The instances of one actor (resource), kind and name, and their response
 * times. Percentiles are nearest-rank: the smallest response time with at
 * least p % of the instances at or below it. */
typedef struct tlv_instance_group {
    const char *resource;
    const char *label;        /* the resource's row label (tlv_trace_resource_label), else its name */
    const char *kind;
    const char *name;
    size_t count;             /* whole instances */
    size_t partial;           /* begun before the trace or not ended at its end */
    double min, p50, p90, p99, max, mean;
    double stddev;            /* population standard deviation */
    size_t worst;             /* the instance with the longest response (the
                                 first of equal ones); meaningless when count is 0 */
    double execution_max;     /* the longest execution time; -1 when unknown */
    double execution_mean;
    size_t preemptions;       /* over every instance */
    size_t interruptions;
} tlv_instance_group;

/* The groups, by resource in trace order, then kind (response, latency,
 * call, then declared kinds in declaration order), then name in byte order:
 * their number, and group g (< the count) in *out. A group with partial
 * instances only has count 0. */
TLV_API size_t tlv_instances_group_count(const tlv_instances *inst);
#define tlv_instances_group(inst, g, out) tlv_instances_group_sized((inst), (g), (out), sizeof *(out))
TLV_API void tlv_instances_group_sized(const tlv_instances *inst, size_t g,
                                       tlv_instance_group *out, size_t size);

/* The index (for tlv_instances_get) of the k-th instance of group g in order
 * of start (k < the group's count); (size_t)-1 when out of range. */
TLV_API size_t tlv_instances_group_member(const tlv_instances *inst, size_t g, size_t k);

/* The p-th percentile (0 < p <= 100) of group g's response times,
 * nearest-rank; 0 for an empty group or a p out of range. */
TLV_API double tlv_instances_percentile(const tlv_instances *inst, size_t g, double p);

/* The group of resource, kind and name (NULL name: ""), or (size_t)-1. */
TLV_API size_t tlv_instances_find_group(const tlv_instances *inst, const char *resource,
                                        const char *kind, const char *name);

#ifdef __cplusplus
}
#endif

#endif
