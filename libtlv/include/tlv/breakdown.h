/*
 * breakdown.h — what a row of the timeline spent its time on within a time
 * range: for each value or state its intervals show (RUNNING, WAITING, a
 * call's arguments, the task running on a processor), the time inside the
 * range, the share of the range, and how many intervals with what
 * durations. TLV's "time between markers", generalised to every row.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_BREAKDOWN_H
#define TLV_BREAKDOWN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One value of one rule on a row. Times are in the trace's TimeScale units
 * and count only the part of each interval inside the range. */
typedef struct tlv_breakdown_entry {
    const char *rule;   /* the visualization rule whose intervals these are */
    const char *value;  /* what they show: the shapes' value (tlv_shape_info.value:
                           the state set, a behavior's arguments), the event's name
                           when it carries none; on a row that is not a resource's
                           (a processor's row in per-CPU mode), the name of the
                           resource each interval is drawn for */
    size_t count;       /* intervals overlapping the range */
    double total;       /* their time inside the range */
    double share;       /* total / the range's length (0..1 unless the rule's
                           intervals overlap each other) */
    double min, mean, max; /* of each interval's time inside the range */
} tlv_breakdown_entry;

/* The breakdown of row `row` of `shapes` within [t0, t1] (t0 < t1): an
 * interval is one From/To occurrence of a rule's event, however many
 * primitives draw it; "When" shapes (instants) and intervals of zero length
 * inside the range are not counted. Sets *out to an array of *count entries,
 * largest total first (then by rule and value), to be freed with
 * tlv_breakdown_free(); its strings live as long as the shapes. An empty
 * row, or a range outside the trace, gives *count 0 (and *out NULL).
 * Returns TLV_OK, TLV_ERR_USAGE (row out of range, or t0 >= t1) or
 * TLV_ERR_NOMEM. O(log n + k log k) for k primitives in the range. */
TLV_API tlv_status tlv_shapes_breakdown(const tlv_shapes *shapes, size_t row, tlv_time t0,
                                        tlv_time t1, tlv_breakdown_entry **out, size_t *count);

/* Frees an array from tlv_shapes_breakdown (NULL is allowed). */
TLV_API void tlv_breakdown_free(tlv_breakdown_entry *entries);

#ifdef __cplusplus
}
#endif

#endif
