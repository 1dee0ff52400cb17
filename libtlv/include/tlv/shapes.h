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

#include "tlv/trace.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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
/* tlv_shapes_build with the shape cache (docs/cache.md, "The shapes"):
 * when the trace is a trace cache file's as it stands (loaded by
 * tlv_trace_load_file_cached or tlv_trace_resume_cached from it, or
 * written into it by them or by tlv_trace_save_cache, and nothing read
 * into it since), the shapes built before from that same trace with
 * options that make the same shapes (everything but `threads`) are read
 * back from a file beside the trace cache instead of built: the same
 * shapes, rows, rules, flows, errors and status, byte for byte. Any file
 * that is not exactly that (none, stale, truncated, damaged, hostile) is
 * a miss: the shapes are built, and when `save` is not 0 the file is
 * written anew (0: the caller may write it later with
 * tlv_shapes_save_cache, e.g. on another thread). What happened is in
 * tlv_shapes_cache_note. Returns as tlv_shapes_build. */
TLV_API tlv_status tlv_shapes_build_cached(const tlv_trace *trace, const tlv_shapes_options *opts,
                                           int save, tlv_shapes **out);
/* Writes the shape cache file of shapes built by tlv_shapes_build or
 * tlv_shapes_build_cached from a trace that is a trace cache's (else
 * TLV_ERR_USAGE: no cache for them), under a temporary name renamed over
 * the old file. Reads the shapes and their trace's names only: it may run
 * on another thread while others read the same shapes, not while the
 * trace grows. Adds what it did to tlv_shapes_cache_note. Returns TLV_OK,
 * TLV_ERR_IO (not written: the note says why), TLV_ERR_NOMEM or
 * TLV_ERR_USAGE. */
TLV_API tlv_status tlv_shapes_save_cache(const tlv_shapes *shapes);
/* What tlv_shapes_build_cached and tlv_shapes_save_cache did: "shape cache
 * hit: FILE", "shape cache miss (REASON): FILE written", "shape cache miss
 * (REASON): not written (WHY)" or "shape cache not used (WHY)"; "" for
 * shapes built by tlv_shapes_build (and NULL). Lives as the shapes. */
TLV_API const char *tlv_shapes_cache_note(const tlv_shapes *shapes);
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

/* The bytes the library holds for the shapes, as tlv_trace_memory counts a
 * trace's (trace.h: the parts, what is counted and what is not): the
 * shapes, their indexes and summaries, what links them to events and
 * values, the flows and the names. */
TLV_API size_t tlv_shapes_memory(const tlv_shapes *shapes, tlv_memory_fn fn, void *user);

#ifdef __cplusplus
}
#endif

#endif
