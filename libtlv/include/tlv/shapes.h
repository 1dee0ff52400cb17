/*
 * shapes.h — turning a converted trace into shapes with the visualization
 * rules (.viz): rows (one per resource some rule draws, one per rule without
 * a Target, or one per processor in per-CPU mode), and for each row the
 * primitives to draw over time intervals.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_SHAPES_H
#define TLV_SHAPES_H

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

/* The shapes of a trace. */
typedef struct tlv_shapes tlv_shapes;

typedef struct tlv_shapes_options {
    /* The caller's sizeof(this struct) (see "ABI" in tlv.h): set by the init
     * macro; 0 means the 0.1 layout. */
    size_t struct_size;
    /* Per-CPU mode: the attribute that names a resource's processor (the
     * TOPPERS/FMP rules use "prcId"); NULL for one row per resource. Each
     * processor gets a row "CPU n" showing which resource was running on it
     * (a bar in the resource's color with its name, rule "perCpu", event
     * "running"), followed by a row for each resource that was on it at
     * some time: a resource that migrates has a row under each processor
     * it was on, and its shapes are cut at its migrations, each part on
     * the row of the processor it was on then (an instant, When, on the
     * processor it happened on); its running bars show on each processor's
     * row while it runs there. */
    const char *cpu_attribute;
    /* What "running" means in per-CPU mode: the attribute and its value
     * (NULL: "state" and "RUNNING", as in the TOPPERS rules). The attribute
     * is also the one whose "absent" values end a call (a state resources
     * start in and never act in, as FMP's NONEXISTENT), in every mode. */
    const char *running_attribute;
    const char *running_value;
    /* Visualization rules not to apply, by name (NULL entries are ignored;
     * "perCpu" leaves out the per-CPU running bars). Their shapes are not
     * made, but the rows stay those of the whole rule set, so that row
     * indexes do not change when a rule is hidden and shown again; names
     * that are not rules are ignored. The array need only live during
     * tlv_shapes_build. */
    const char *const *skip_rules;
    size_t n_skip_rules;
    /* added after 0.1.0: how many threads apply the rules. 1 is the serial
     * path, on the calling thread alone; N > 1 applies the rules' targets
     * (a rule on one resource; a rule without Target is one) on N threads,
     * the calling thread one of them, each reading the trace through
     * caches of its own, and merges what they made in the serial order:
     * the shapes, their order, the flows and the errors are the same as
     * with 1, byte for byte. 0 (the default): the number of processors
     * online. Rules that use $CLOCK{} are applied serially whatever this
     * says (its midnight-wrap state runs from one use to the next). This
     * is not the refused kind of concurrency of the note below: it is one
     * build. */
    int threads;
    /* added after 0.1.0: 1 builds the shapes to be listed, not drawn (what
     * `tlv shapes`, `tlv export` and `tlv query` need): the shapes, their
     * order, rows, rules and flows, and what tlv_shapes_count, _get, _row,
     * _rule, _flow, _flow_seek and _flows_query return, are the same as
     * with 0, but the per-row search trees and the summaries that drawing
     * and tlv_shapes_query need are not built (a third of the build's time
     * and memory at 1M lines): tlv_shapes_query and tlv_shapes_breakdown
     * find no shape in such shapes, and the renderer draws none of them.
     * 0 (the default): everything is built. */
    int listing_only;
} tlv_shapes_options;

/* Every option at its default, for `tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;`. */
#define TLV_SHAPES_OPTIONS_INIT {sizeof(tlv_shapes_options), NULL, NULL, NULL, NULL, 0, 0, 0}

/* Applies the visualization rules of the trace's rule set. *out is set even
 * on failure (NULL only on TLV_ERR_NOMEM); rule errors (a figure naming no
 * shape, a malformed condition, a macro failing for an event) are recorded
 * with the rule, event and trace line, and the other shapes are still made.
 * Returns TLV_OK, TLV_ERR_RULE (some rule had errors) or TLV_ERR_NOMEM. The
 * trace must outlive the shapes.
 * Threads: building reads and memoizes into the trace, so two builds from
 * one trace at the same time are REFUSED, not made safe: a call made while
 * another thread is building from the same trace returns TLV_ERR_USAGE at
 * once, with empty shapes in *out whose tlv_shapes_last_error() says
 * "tlv_shapes_build: another thread is building shapes from this trace;
 * ..." (free them as usual). Build from separate traces to build in
 * parallel, or one after the other from the same trace. */
TLV_API tlv_status tlv_shapes_build(const tlv_trace *trace, const tlv_shapes_options *opts,
                                    tlv_shapes **out);
/* Frees the shapes (NULL is allowed). */
TLV_API void tlv_shapes_free(tlv_shapes *shapes);
/* Rule errors found while building, owned by the shapes (NULL for NULL). */
TLV_API const tlv_diags *tlv_shapes_diags(const tlv_shapes *shapes);
/* The message of the last call on `shapes` that failed ("" when none has):
 * tlv_shapes_build's summary ("2 visualization rule errors (tlv_shapes_diags
 * lists them)") or a query's reason (tlv_shapes_breakdown). */
TLV_API const char *tlv_shapes_last_error(const tlv_shapes *shapes);

/* The time mode and origin of the trace the shapes were built from, as
 * tlv_trace_time_mode and tlv_trace_time_origin said when they were built
 * (the renderer reads the ruler's times from them). */
TLV_API tlv_time_mode tlv_shapes_time_mode(const tlv_shapes *shapes);
TLV_API tlv_time tlv_shapes_time_origin(const tlv_shapes *shapes);

/* Rows, top to bottom: their number, and row `row` (< the count) described
 * in *out, whose strings live as long as the shapes. */
TLV_API size_t tlv_shapes_row_count(const tlv_shapes *shapes);
typedef struct tlv_row_info {
    const char *label;        /* display name of the resource, rule or processor */
    const char *resource;     /* resource name, or NULL for a rule row / CPU row */
    const char *group;        /* the resource type's display name (or the rule's) */
} tlv_row_info;
#define tlv_shapes_row(shapes, row, out) tlv_shapes_row_sized((shapes), (row), (out), sizeof *(out))
TLV_API void tlv_shapes_row_sized(const tlv_shapes *shapes, size_t row, tlv_row_info *out,
                                  size_t size);

/* The visualization rules of the rule set, in the order they are applied
 * (the order of the .viz files, each rule where it was first defined), with
 * "perCpu" first in per-CPU mode: their number, and rule `i` (< the count)
 * in *out, whose strings live as long as the shapes. Rules left out with
 * tlv_shapes_options.skip_rules are listed too, marked skipped. */
TLV_API size_t tlv_shapes_rule_count(const tlv_shapes *shapes);
typedef struct tlv_rule_info {
    const char *name;         /* as in tlv_shape_info.rule */
    const char *display_name; /* its DisplayName, or the name when it has none */
    int skipped;              /* named in skip_rules: no shapes were made */
} tlv_rule_info;
#define tlv_shapes_rule(shapes, i, out) tlv_shapes_rule_sized((shapes), (i), (out), sizeof *(out))
TLV_API void tlv_shapes_rule_sized(const tlv_shapes *shapes, size_t i, tlv_rule_info *out,
                                   size_t size);

/* One drawn primitive, with names resolved. Pointers live as long as the
 * shapes handle. */
typedef struct tlv_shape_info {
    const char *rule;         /* rule name */
    const char *event;        /* event (shape) name within the rule */
    const char *resource;     /* NULL for rules without a Target */
    size_t row;
    tlv_time from, to;
    const char *type;         /* "Rectangle", "Line", ... */
    const char *text;         /* Text primitives: the text, else NULL */
    uint32_t fill;            /* 0xAARRGGBB; valid when has_fill */
    int has_fill;
    uint32_t pen;             /* 0xAARRGGBB; valid when has_pen */
    int has_pen;
    int is_when;              /* drawn for a "When" event: it happened at `from`;
                                 `to` is its next occurrence on the same resource
                                 (or the trace end), the area its figures are
                                 placed in, not a duration */
    const char *value;        /* what the From (or When) event carried: for an
                                 attribute change the value it set (e.g.
                                 "RUNNING" for a state bar; the initial value
                                 for an interval from the trace start); for a
                                 behavior its arguments, unescaped and joined
                                 with commas (enterSVC(dly_tsk, dlytim=10) gives
                                 "dly_tsk,dlytim=10"); NULL for a behavior
                                 without arguments */
    size_t from_event;        /* the trace event (tlv_trace_event index) that
                                 opened the shape — its From or When event —
                                 or TLV_NO_EVENT for an initial value */
    size_t to_event;          /* the trace event that closed it (its To), or
                                 TLV_NO_EVENT: a When shape, or an interval
                                 still open at the end of the trace */
} tlv_shape_info;

/* "No such event" in tlv_shape_info, "no row" in tlv_flow_info. */
#define TLV_NO_EVENT ((size_t)-1)
#define TLV_NO_ROW ((size_t)-1)

/* All shapes, ordered by rule, event, resource, from (the order of
 * `tlv shapes`): their number, and shape i (< the count) in *out. */
TLV_API size_t tlv_shapes_count(const tlv_shapes *shapes);
#define tlv_shapes_get(shapes, i, out) tlv_shapes_get_sized((shapes), (i), (out), sizeof *(out))
TLV_API void tlv_shapes_get_sized(const tlv_shapes *shapes, size_t i, tlv_shape_info *out,
                                  size_t size);
/* Shapes first, first + 1, ... (at most n; fewer at the end) into out[0],
 * out[1], ..., `size` bytes apart, as tlv_shapes_get_sized gives each: one
 * call per batch for bindings. Returns the number written. */
TLV_API size_t tlv_shapes_get_range_sized(const tlv_shapes *shapes, size_t first, size_t n,
                                          tlv_shape_info *out, size_t size);

/* Calls fn for every shape of `row` overlapping [t0, t1], in drawing order.
 * O(log n + k). fn returns 0 to go on. */
typedef int (*tlv_shape_fn)(void *user, const tlv_shape_info *shape);
TLV_API void tlv_shapes_query(const tlv_shapes *shapes, size_t row, tlv_time t0, tlv_time t1,
                              tlv_shape_fn fn, void *user);

/* ---- flows ---------------------------------------------------------------
 * Causal links from one resource to another at an instant (a task activating
 * or waking another, a handler releasing a task, a migration, a fork), made
 * by the "Flows" of the visualization rules (docs/reference.md). */

typedef struct tlv_flow_info {
    const char *rule;          /* the rule's name */
    const char *name;          /* the flow's name within the rule */
    const char *display_name;  /* its DisplayName, or the name */
    const char *from_resource; /* where it starts and */
    const char *to_resource;   /* where it points (resource names) */
    const char *from_processor;/* FromProcessor / ToProcessor as expanded */
    const char *to_processor;  /* for this event, or NULL */
    size_t from_row, to_row;   /* rows of the ends: the processor's row in
                                  per-CPU mode when a processor is named, else
                                  the resource's; TLV_NO_ROW when not shown */
    tlv_time time;             /* of the event that made it */
    size_t event;              /* that event (tlv_trace_event index) */
} tlv_flow_info;

/* The flows, ordered by time then trace order: their number, and flow i
 * (< the count) in *out, whose strings live as long as the shapes. Flows
 * of rules named in skip_rules are not made. */
TLV_API size_t tlv_shapes_flow_count(const tlv_shapes *shapes);
#define tlv_shapes_flow(shapes, i, out) tlv_shapes_flow_sized((shapes), (i), (out), sizeof *(out))
TLV_API void tlv_shapes_flow_sized(const tlv_shapes *shapes, size_t i, tlv_flow_info *out,
                                   size_t size);

/* Index of the first flow at or after time t (tlv_shapes_flow_count() when
 * none is). O(log n). */
TLV_API size_t tlv_shapes_flow_seek(const tlv_shapes *shapes, tlv_time t);

/* Calls fn for every flow whose time is in [t0, t1], in order. O(log n + k).
 * fn returns 0 to go on. */
typedef int (*tlv_flow_fn)(void *user, const tlv_flow_info *flow);
TLV_API void tlv_shapes_flows_query(const tlv_shapes *shapes, tlv_time t0, tlv_time t1,
                                    tlv_flow_fn fn, void *user);

/* ---- memory accounting ---------------------------------------------------
 * The bytes the library holds for a trace or for a shapes handle, counted
 * from the structures' own sizes: what is allocated (capacities, not only
 * what is used), without malloc's own overhead per block, and without the
 * rules (shared, and independent of the log's size). For a trace: its
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
TLV_API size_t tlv_shapes_memory(const tlv_shapes *shapes, tlv_memory_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif
