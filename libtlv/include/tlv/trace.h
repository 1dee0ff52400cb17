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

/* tlv_trace_load_file with a cache: the converted trace of `path` is kept
 * in a file of `cache_dir` (NULL: $XDG_CACHE_HOME/tlv, else
 * $HOME/.cache/tlv; made when missing) and read back the next time the
 * same log is loaded with the same rules, instead of converting it again
 * (docs/cache.md). The cache belongs to the log's size, modification time
 * and first and last megabyte, to every rule file's name and bytes, to
 * whether the log is read as standard form and to the tlv version: when
 * any of them differs, or the file is damaged, truncated or inconsistent
 * in any way, the log is converted as by tlv_trace_load_file and the cache
 * written anew. A log that grew since (a live log: the cached one is its
 * beginning, ending with a line end) is read from the cache up to where
 * the cache ends and converted from there on. What a load from the cache
 * gives is what converting would: the events, states, resources,
 * statistics, diagnostics, status and last error, and the lines no rule
 * matched, told to the converter's unmatched-line function as conversion
 * tells them. Falls back to plain tlv_trace_load_file (no cache) for
 * standard input, a file that is not a regular file, a trace that was
 * pushed into already, a converter with an event or line function (it
 * would not be called), and rules with external-process targets (their
 * output may change from run to run). A cache that cannot be written
 * (a read-only or full disk) changes nothing but the note below. The same
 * log may be loaded by several processes at once: a cache file is written
 * under another name and renamed into place. Returns as
 * tlv_trace_load_file. */
TLV_API tlv_status tlv_trace_load_file_cached(tlv_trace *trace, const char *path,
                                              const char *cache_dir);

/* The cache for a program that reads the log itself, as it grows (a
 * viewer following a live log): on a new trace (nothing pushed yet), reads
 * the cache of the log at `path` when it is the log's or its beginning
 * (keyed as above, and ending with a line end) and sets *covered to the
 * log bytes it holds: the trace is then as if those bytes had been pushed
 * (not finished), and the caller pushes the log's bytes from *covered on.
 * *covered is 0 when there is no such cache (or it cannot be used: the
 * note says why). The lines no rule matched, from the cache and from what
 * is pushed later, go to the converter's unmatched-line function as
 * conversion tells them, and are kept for tlv_trace_save_cache. Returns
 * TLV_OK, or TLV_ERR_NOMEM (the trace is then unusable). */
TLV_API tlv_status tlv_trace_resume_cached(tlv_trace *trace, const char *path,
                                           const char *cache_dir, uint64_t *covered);

/* Writes the cache of the trace as it is (finished or not) for the log at
 * `path`, when every byte of the log was pushed and, unless the trace is
 * finished, the log ends with a line end: a later load goes on from it (and
 * finishes it). For a program that pushed the log itself after
 * tlv_trace_resume_cached (which keeps the lines no rule matched that the
 * cache holds too). Adds what it did to tlv_trace_cache_note. Returns
 * TLV_OK, TLV_ERR_IO (not written: the note says why) or TLV_ERR_USAGE
 * (no cache for this log). */
TLV_API tlv_status tlv_trace_save_cache(tlv_trace *trace, const char *path, const char *cache_dir);

/* One line saying what tlv_trace_load_file_cached did with the cache:
 * "cache hit: FILE", "cache hit on the first N bytes of the log: FILE (the
 * rest converted)", "cache miss (REASON): FILE written", "cache miss
 * (REASON): not written (WHY)" or "cache not used (WHY)"; "" when it was
 * not called. REASON names the key part that differed ("the log's size
 * changed", "the rule files changed", "written by tlv 0.1.0, this is tlv
 * 0.2.0") or what was wrong with the file ("damaged: ...", "inconsistent:
 * ..."). Lives as long as the trace. */
TLV_API const char *tlv_trace_cache_note(const tlv_trace *trace);

/* Called while tlv_trace_load_file and tlv_trace_load_file_cached read the
 * log, after each chunk converted: the log's bytes read so far (from its
 * start, a cached prefix included), its size (0 when unknown: a pipe) and
 * the lines read. For a progress bar; it must not call into the trace. */
typedef void (*tlv_progress_fn)(void *user, uint64_t bytes_read, uint64_t bytes_total,
                                uint64_t lines_read);
/* Sets (or, with NULL, clears) the trace's progress function. */
TLV_API void tlv_trace_set_progress(tlv_trace *trace, tlv_progress_fn fn, void *user);

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
/* Events first, first + 1, ... (at most n; fewer where the trace ends) into
 * out[0], out[1], ..., each as tlv_trace_event_sized(trace, i, &out[k],
 * size) describes it, the structs `size` bytes apart (the caller's sizeof
 * tlv_event). For bindings that read many events (Python's ctypes pays
 * more for a call than the library for an event): one call per batch.
 * Returns the number written, 0 when first is at or past the end. */
TLV_API size_t tlv_trace_event_range_sized(const tlv_trace *trace, size_t first, size_t n,
                                           tlv_event *out, size_t size);

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

/* The value of resource.attr before any event: from the resource file, else
 * the type's Default. The same as tlv_trace_attr_at at a time before
 * tlv_trace_start(), also when no time lies before it (a first event at
 * -2^63, where start - 1 would wrap to the end of the trace). Returns as
 * tlv_trace_attr_at does. */
TLV_API tlv_status tlv_trace_attr_initial(const tlv_trace *trace, const char *resource,
                                          const char *attr, const char **value);

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
