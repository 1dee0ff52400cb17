/*
 * trace.h — a converted trace kept in memory (tlv_trace): made from a rule
 * set, fed by its converter (a file, lines, or a log that is still
 * growing), then read: events in (time, line) order, resources, the value
 * of an attribute at a time, and the memory it holds.
 *
 * Include <tlv/tlv.h> rather than this file (shapes.h includes it too, so
 * programs that included shapes.h for these still compile).
 */
#ifndef TLV_TRACE_H
#define TLV_TRACE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A converted trace kept in memory: every event, in (time, line) order, and
 * the state of every attribute over time. */
typedef struct tlv_trace tlv_trace;

/* Creates an empty trace for logs described by `rules` (which must outlive
 * it). Feed it like a converter, then finish it. *out is NULL only on
 * TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_trace_new(const tlv_rules *rules, tlv_trace **out);
/* Frees the trace, its converter and every event (NULL is allowed). Shapes
 * built from it must be freed first. */
TLV_API void tlv_trace_free(tlv_trace *trace);

/* The converter that feeds the trace: set its source name, push lines or
 * bytes into it, then call tlv_trace_finish(). Owned by the trace. */
TLV_API tlv_converter *tlv_trace_converter(tlv_trace *trace);

/* Converts a whole file (or standard input for "-") into the trace and
 * finishes it. Returns as tlv_converter_finish, or TLV_ERR_IO. */
TLV_API tlv_status tlv_trace_load_file(tlv_trace *trace, const char *path);

/* Ends the input and sorts the events. Returns as tlv_converter_finish. */
TLV_API tlv_status tlv_trace_finish(tlv_trace *trace);

/* For a log that is still growing (a live capture, a FIFO): makes the
 * events pushed so far readable — sorted into (time, line) order with those
 * read before, their arguments resolved — without ending the input. Every
 * function below (and tlv_shapes_build) then sees the trace as far as it
 * was read; push more lines and call it again as often as wanted, then
 * tlv_trace_finish() at the end of the input. Event indexes of an earlier
 * update may shift when newer lines carry earlier times; shapes built
 * before must be rebuilt to show the new events. An unfinished last line
 * (no line end yet) is held back until its end arrives. Returns TLV_OK or
 * TLV_ERR_NOMEM. O(k log k + n) for k new events when they go before some
 * older ones, O(k log k) when they do not. */
TLV_API tlv_status tlv_trace_update(tlv_trace *trace);

/* Gives back the memory a growing trace holds in reserve for events to come
 * (its arrays grow by doubling: up to half of them): for a trace that stays
 * open, call it when the input pauses, e.g. at the current end of a log that
 * may still grow. tlv_trace_finish does it, and tlv_trace_update whenever
 * the trace has doubled since. Nothing read from the trace changes. Costs a
 * copy of the trace at most (realloc); NULL is allowed. */
TLV_API void tlv_trace_trim(tlv_trace *trace);

/* The message of the last call on `trace` that failed ("" when none has),
 * valid until the next failing call: e.g. "cannot open 'x.log': No such
 * file or directory", the converter's message for a conversion that failed,
 * "tlv_trace_attr_at: resource 'ctrl' (type Task) has no attribute 'stat'
 * (it has: state, prcId)". Also records the failures of calls that take the
 * trace and make no handle of their own (tlv_stats_compute). */
TLV_API const char *tlv_trace_last_error(const tlv_trace *trace);

/* Events in (time, line) order, after tlv_trace_finish (or
 * tlv_trace_update). The event's
 * pointers stay valid as long as the trace. */
TLV_API size_t tlv_trace_event_count(const tlv_trace *trace);
#define tlv_trace_event(trace, i, out) tlv_trace_event_sized((trace), (i), (out), sizeof *(out))
TLV_API void tlv_trace_event_sized(const tlv_trace *trace, size_t i, tlv_event *out, size_t size);

/* First and last event times (both zero for an empty trace). */
TLV_API tlv_time tlv_trace_start(const tlv_trace *trace);
TLV_API tlv_time tlv_trace_end(const tlv_trace *trace);

/* How the trace's times are shown (tlv.h): TLV_TIME_PLAIN, TLV_TIME_CLOCK
 * or TLV_TIME_WALL, never TLV_TIME_AUTO: the resource file's "TimeMode", or
 * for "auto" and "clock" what the times are (a first time that is a date from
 * 2000 to 2099, in a TimeScale of s, ms, us or ns, is WALL). PLAIN for an
 * empty trace unless declared otherwise. Follows the trace as it grows
 * (tlv_trace_update). */
TLV_API tlv_time_mode tlv_trace_time_mode(const tlv_trace *trace);

/* The trace's time origin: the absolute time of its start (its first
 * event's time, tlv_trace_start), from which times are shown when the mode
 * is CLOCK or WALL ("1.5 ms" is origin + 1.5 ms). Zero for an empty
 * trace. */
TLV_API tlv_time tlv_trace_time_origin(const tlv_trace *trace);

/* The trace's resources: those of the rule set in resource-file order, then
 * any created while converting (in order of creation). Name and type name
 * of resource i (NULL when i is out of range) live as long as the trace. */
TLV_API size_t tlv_trace_resource_count(const tlv_trace *trace);
TLV_API const char *tlv_trace_resource_name(const tlv_trace *trace, size_t i);
TLV_API const char *tlv_trace_resource_type(const tlv_trace *trace, size_t i);
/* The label the events gave resource i's row: the last non-empty value of
 * the attribute its "DynamicResources" declaration names as "LabelAttribute"
 * ("xz[4297]"); NULL when there is none (the row then shows the display
 * name) or i is out of range. Lives as long as the trace; call after
 * tlv_trace_finish for the final label. */
TLV_API const char *tlv_trace_resource_label(const tlv_trace *trace, size_t i);

/* Index of the first event at or after time t in (time, line) order, or
 * tlv_trace_event_count() when every event is before t: iterate a time range
 * from there with tlv_trace_event(). O(log n). Call after tlv_trace_finish
 * (or tlv_trace_update). */
TLV_API size_t tlv_trace_seek(const tlv_trace *trace, tlv_time t);

/* The value of resource.attr at time *at (NULL: at the end of the trace):
 * its last change at or before *at — every change at *at itself included —
 * else its initial value from the resource file or the type's Default (ask
 * at a time before tlv_trace_start() for that initial value). Sets *value to
 * a string that lives as long as the trace. Returns TLV_OK, or TLV_ERR_USAGE
 * (and leaves *value alone) when the resource is not in the rule set or its
 * type has no such attribute. O(log n) in the number of changes of that
 * attribute; reads the trace only, so it may be called during conversion
 * (the state so far) as well as after tlv_trace_finish. */
TLV_API tlv_status tlv_trace_attr_at(const tlv_trace *trace, const char *resource,
                                     const char *attr, const tlv_time *at, const char **value);

/* ---- memory accounting ---------------------------------------------------
 * The bytes the library holds for a trace (or, tlv_shapes_memory in
 * shapes.h, for a shapes handle), counted from the structures' own sizes:
 * what is allocated (capacities, not only what is used), without malloc's
 * own overhead per block, and without the rules (shared, and independent of
 * the log's size). For a trace: its
 * events and their arguments, the attribute histories, the interned values
 * and names, the resources and the converter's caches; for shapes: the
 * shapes, their indexes and summaries, what links them to events and
 * values, the flows and the names. Divided by tlv_trace_event_count() it
 * gives the bytes per event that tests/bench/bench_mem.sh reports.
 *
 * `fn`, when not NULL, is called once per part, with a short name ("events",
 * "shapes", ...) and its bytes; the parts add up to the total returned.
 * NULL handles count 0. Cost: O(resources + rows), not O(events). */
typedef void (*tlv_memory_fn)(void *user, const char *part, size_t bytes);
/* A part whose name ends in this is not in the process's anonymous memory:
 * large finished arrays (a trace's events, a shape store's columns) are kept
 * in an unlinked temporary file on disk mapped into memory, whose pages are
 * resident only while read and which the kernel can drop whenever it needs
 * the room. The other parts are what stays resident. */
#define TLV_MEMORY_FILE_BACKED " (file-backed)"
TLV_API size_t tlv_trace_memory(const tlv_trace *trace, tlv_memory_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif
