/*
 * viz_build.h — the builder that applies visualization rules to a trace
 * (tlv_shapes_build), shared by the modules that do one step each:
 *   viz.c          the driver: runs the steps in order, rule by rule
 *   viz_rules.c    reading rules and shapes from the .viz sources
 *   viz_events.c   the events as the rules see them, and their index
 *   viz_pattern.c  event patterns: compiling and matching them
 *   viz_subst.c    ${FROM_*}/${TO_*}/${TARGET} substitution and macros
 *   viz_cond.c     the condition keys of Figures objects
 *   viz_figures.c  figure references expanded to primitives in the store
 *   viz_fromto.c   From/To pairing of events into intervals
 *   viz_absent.c   the attribute values in which a resource is not there
 *   viz_when.c     When instants, and telling their shapes apart later
 *   viz_rows.c     the rows: one per resource, one per untargeted rule
 *   viz_cpu.c      per-CPU mode: processor rows and running bars
 *   viz_flows.c    "Flows": causal links from one resource to another
 *   viz_shapes.c   the built shapes: output order and the public readers
 */
#ifndef TLV_VIZ_BUILD_H
#define TLV_VIZ_BUILD_H

#include "viz/viz_impl.h"

#include "base/buf.h"
#include "lang/cond.h"
#include "compile/macro.h"
#include "lang/stdform.h"

#define NEVER UINT32_MAX /* an interned id for text the trace never had */

/* ---- rules as read from the .viz sources --------------------------------- */

typedef struct event_def {
    const char *name;
    const char *from, *to, *when;
    const char *value;      /* "Value": what each interval stands for (substituted
                               like a figure's arguments), or NULL: what its From
                               event carried */
    const tj_node *figures;
    const char *file;
    long line, col;
    uint32_t name_id;       /* interned in shapes->names before the rules are applied */
} event_def;

/* A flow of a rule's "Flows" (viz_flows.c): `ev` holds its name, When
 * pattern and position, so that errors name it as they name events. */
typedef struct flow_def {
    event_def ev;
    const char *display;
    const char *from, *to;          /* resource references (From: NULL = the event's) */
    const char *from_cpu, *to_cpu;  /* FromProcessor, ToProcessor, or NULL */
    const char *condition;          /* or NULL */
} flow_def;

typedef struct viz_rule {
    const char *name;
    const char *display;
    long type;              /* Target type index, -1 for a rule of its own row */
    event_def *events;
    size_t nevents;
    flow_def *flows;
    size_t nflows;
    int flows_only;         /* no "Shapes": draws no row of its own */
    uint32_t name_id;       /* interned in shapes->names */
    uint32_t row;           /* for rules without Target */
    const char *file;
    long line, col;
} viz_rule;

typedef struct shape_def {
    const char *name;
    const tj_node *prims;   /* array of primitive objects */
    const char *file;
} shape_def;

/* Rules or shapes by name: their index in the builder's list. A later
 * definition replaces the earlier one of its name, and figures look shapes
 * up by name, so a scan of the list per name made 100,000 rules take
 * minutes (issue 32.1). Workers read the main builder's, never add. */
typedef struct viz_names {
    intern_pool *pool;      /* the names; NULL until the first */
    uint32_t *at;           /* per name id: its index, or UINT32_MAX */
    size_t len, cap;
} viz_names;

/* One event as the pairing sees it: real trace events, or the initial value
 * of an attribute (a change at the start of the trace). */
typedef struct vevent {
    tlv_time time;
    uint32_t res, name, value, nargs, state_seq, line;
    uint8_t kind;
    uint8_t initial;           /* the initial value, not a trace event */
} vevent;                      /* a behavior's arguments: viz_args() */

typedef struct pattern {
    long res;               /* one resource, or -1 */
    long type;              /* with res < 0: every resource of this type, or -1 = any */
    cond *c;                /* condition, evaluated just before the event */
    int kind;               /* -1 any, else tlv_event_kind */
    uint32_t name;          /* NEVER+1 = any name */
    int has_value;
    uint32_t value;
    size_t nargs;
    uint32_t args[STD_MAX_ARGS];
} pattern;

#define ANY_NAME (NEVER - 1)

/* Substitution context of one figure evaluation. */
typedef struct subst_ctx {
    const char *target;
    const vevent *from, *to;   /* From/To events, or When event in `from` */
    int is_when;
    tlv_time end;              /* trace end, TO_TIME of an interval closed by it */
    int open_label;            /* still open at the trace's end: ${TO_VAL} and
                                  ${TO_ARGn} read "(open)" in figure references
                                  (conditions see them empty) */
} subst_ctx;

typedef struct builder {
    struct tlv_shapes *s;
    const tlv_trace *t;
    world *w;
    macro_memo *memo;
    macro_host host;           /* macros read w through it */
    viz_rule *rules;
    size_t nrules, rules_cap;
    shape_def *shapes;
    size_t nshapes, shapes_cap;
    viz_names rule_names, shape_names; /* viz_rules.c */
    vevent *ev;                /* initial values, then the trace's events */
    size_t nev;
    uint32_t **per_res;        /* per resource: indexes into ev (in per_res_all) */
    size_t *per_res_n;
    uint32_t *per_res_all;
    bulk ev_file, per_res_file, index_file; /* ev, per_res_all, index_all when
                                  large: in temporary files (viz_events.c) */
    uint32_t *res_row;         /* per resource: its row, or UINT32_MAX */
    intern_pool *prim_keys;    /* "shape\x1fargs" -> prim range */
    uint32_t *key_first, *key_count;
    size_t keys_cap;
    uint32_t next_order;
    uint32_t cur_value;        /* value of the event being drawn, or UINT32_MAX */
    uint32_t cur_events[2];    /* trace event indexes opening and closing it, or
                                  UINT32_MAX (an initial value, the trace end) */
    size_t ninit;              /* ev[ninit + i] is the trace's event i */
    buf a, b, err;             /* scratch */
    const viz_rule *cur_rule;
    const event_def *cur_event;
    uint32_t cur_line;
    const tlv_shapes_options *opts;
    struct event_index *index; /* events by (resource, name[, first value]) */
    size_t index_slots, index_used, index_total;
    uint32_t *index_all;       /* every list of the index, one after another */
    long *cpu_attr;            /* per type: index of the CPU attribute, or -1 */
    uint32_t *cpu_values;      /* distinct CPU values (interned), sorted */
    size_t ncpus;
    uint32_t *cpu_row;         /* per CPU value index: its row */
    struct cpu_segs *cpu_segs; /* per resource: its processors over time (viz_cpu.c) */
    uint32_t *res_cpu_row;     /* [res * ncpus + cpu]: its row under that processor,
                                  or UINT32_MAX */
    uint32_t *prim_row;        /* per primitive with v(VALUE): its row, else UINT32_MAX */
    size_t prim_row_cap;
    struct absent_type *absent; /* per type, computed when first asked (viz_absent.c) */
    /* A worker's builder (viz_parallel.c) applies one unit at a time into
     * the unit's lists, not into the shapes: */
    struct viz_unit *unit;     /* the unit being applied, or NULL (the main builder) */
    uint32_t unit_no;          /* its number */
    uint32_t *key_unit;        /* per primitive key: 1 + the last unit that noted it */
    size_t key_unit_cap;
    uint32_t *prim_key;        /* per primitive: the key it was made for */
    size_t prim_key_cap;
    struct cond_memo *cond_memo; /* the answers of condition keys (viz_cond.c): a
                                  builder's own, NULL until the first */
    intern_pool *ref_texts;    /* figure references as expanded -> refs (viz_figures.c):
                                  a builder's own, NULL until the first */
    struct ref_memo *refs;
    size_t refs_cap;
} builder;

/* shapes->values entries with this bit set are ids in shapes->joined (a
 * behavior's arguments joined), the others ids in the trace's world. */
#define VALUE_OWN 0x80000000u

/* viz.c: reports an error of the rule and event being applied; whether the
 * options' skip_rules name a rule. */
void viz_error(builder *b, const char *fmt, const char *detail);
int viz_is_skipped(const tlv_shapes_options *o, const char *name);

/* viz_rules.c: the string member `key` of object o, or NULL (absent, or not
 * a string); reads every rule and shape of the .viz sources into b (a later
 * definition replaces an earlier one; bad ones are reported); finds a shape
 * by name (NULL when none). */
const char *viz_str_member(const tj_node *o, const char *key);
void viz_read_sources(builder *b);
const shape_def *viz_find_shape(const builder *b, const char *name, size_t n);
void viz_free_names(builder *b);

/* viz_events.c: the events a pattern can match, one resource's or all. */
typedef struct scan_list {
    const uint32_t *idx; /* NULL: every event, in order */
    size_t n;
} scan_list;

/* The events (initial values first) and their lists per resource; the
 * index by (resource, name[, value]). Each returns 0 or -1 (no memory). */
int viz_build_events(builder *b);
int viz_build_index(builder *b);
/* Frees the events, their lists and the index once the rules are applied
 * (the freeze that follows needs none of them). */
void viz_free_events(builder *b);
/* The arguments of behavior event e (in the trace). */
static inline const uint32_t *viz_args(const builder *b, const vevent *e)
{
    return b->t->args + e->value;
}
/* The events p can match: those of p's resource (or of target), else all. */
scan_list viz_scan_for(const builder *b, const pattern *p, long target);
/* The event index at position k of l. */
static inline size_t viz_at(const scan_list *l, size_t k) { return l->idx ? l->idx[k] : k; }
/* The first position of l whose event index is greater than ev_index. */
size_t viz_after(const scan_list *l, size_t ev_index);
/* Narrows l to the indexed list of resource r's events p can match; 1 when
 * it did (l->idx NULL then means there are none), 0 when p is not indexed. */
int viz_indexed_list(builder *b, const pattern *p, long r, scan_list *l);

/* viz_pattern.c: spaces and tabs off both ends of s[0..n). */
void viz_trim(const char **s, size_t *n);
/* Splits "a,b(c,d),e\,f" at top-level unescaped commas into at most max
 * parts, unescaped into `store` (parts[] point into it). Returns the count. */
size_t viz_split_args(const char *s, size_t n, buf *store, const char **parts, size_t *lens,
                      size_t max);
/* Compiles an event pattern (already substituted and expanded). Returns 0,
 * or -1 (reported). viz_pattern_free frees its condition. */
int viz_pattern_compile(builder *b, const char *text, pattern *p);
void viz_pattern_free(pattern *p);
/* Whether e matches p; p's condition is tested on the state just before e. */
int viz_pattern_matches(builder *b, const pattern *p, const vevent *e);

/* viz_subst.c: substitutes c's ${...} into text (escaped for standard form
 * when `escape`), then expands macros; the result is in b->a. Returns 0, or
 * -1 (reported). */
int viz_expand(builder *b, const subst_ctx *c, const char *text, int escape);

/* viz_cond.c: whether the condition key of a Figures object holds for c;
 * a key that does not expand or compile is reported and does not hold.
 * Answers are remembered in b (viz_free_cond_memo frees them; a worker's
 * builder starts without). */
int viz_condition_holds(builder *b, const subst_ctx *c, const char *key);
void viz_free_cond_memo(builder *b);

/* viz_figures.c */
/* Notes the events that open and close the shapes drawn next. */
void viz_set_cur_events(builder *b, const vevent *from, const vevent *to);
/* The primitives of shape sd with these arguments, resolved once per
 * argument list: *first and *count in s->prims. Returns 0 or -1. */
int viz_prims_for(builder *b, const shape_def *sd, const char *const *args, size_t nargs,
                  uint32_t row, uint32_t *first, uint32_t *count);
/* Frees the figure references remembered in b (a worker's builder starts
 * without). */
void viz_free_refs(builder *b);
/* Places every v(VALUE) without bounds within its row's values (before the
 * shapes are frozen). */
void viz_fit_values(builder *b);
/* Adds one shape in drawing order, with the value of the event drawn. */
int viz_store_shape(builder *b, tlv_time from, tlv_time to, uint32_t row, uint32_t prim,
                    uint32_t rule, uint32_t event, uint32_t res);
/* Draws event d's figures over [from, to] on target's row (or the rule's). */
void viz_draw_interval(builder *b, const event_def *d, const subst_ctx *sc, tlv_time from,
                       tlv_time to, long target);

/* viz_fromto.c: draws a From/To event of the rule on target (-1: all). */
void viz_apply_from_to(builder *b, const event_def *d, const char *target_name, long target);

/* viz_absent.c: whether `value` of resource res's attribute attr is one in
 * which resources of its type are not there (they start the trace in it and
 * never act in it); viz_free_absent frees what that computed. */
int viz_value_is_absent(builder *b, size_t res, size_t attr, uint32_t value);
void viz_free_absent(builder *b);

/* viz_when.c: draws a When event of the rule on target (-1: all); notes
 * which (rule, event) names are When events (0 or -1), for
 * viz_shape_is_when. */
void viz_apply_when(builder *b, const event_def *d, const char *target_name, long target);
int viz_note_when_events(builder *b);
int viz_shape_is_when(const struct tlv_shapes *s, uint32_t rule, uint32_t event);

/* viz_rows.c: the rows (0 or -1); one row more; whether some rule draws
 * resources of a type; a resource's row. */
int viz_build_rows(builder *b);
int viz_add_row(struct tlv_shapes *s, const char *label, const char *resource,
                const char *group);
int viz_type_is_drawn(const builder *b, size_t type);
int viz_add_resource_row(builder *b, size_t res);

/* viz_cpu.c: the CPU attribute's values, their rows (0 or -1), and the
 * bars of the intervals in which each resource ran on each processor. */
int viz_collect_cpus(builder *b);
int viz_build_cpu_rows(builder *b);
void viz_free_cpu_segments(builder *b);
void viz_draw_running(builder *b);
/* The row of resource res at time t: in per-CPU mode its row under the
 * processor it is on then, else its row. */
uint32_t viz_res_row_at(const builder *b, size_t res, tlv_time t);
/* [from, to] of resource res cut at its migrations in per-CPU mode: the
 * first pieces, at most max (max >= 1), each with the row of the processor
 * it was on; returns their count (1, the whole on its row, outside per-CPU
 * mode). When the last piece ends before `to`, more follow from there. */
typedef struct viz_piece {
    tlv_time from, to;
    uint32_t row;
} viz_piece;
size_t viz_res_pieces(const builder *b, size_t res, tlv_time from, tlv_time to,
                      viz_piece *out, size_t max);
/* The row of the processor whose CPU-attribute value is the interned id v,
 * or UINT32_MAX (not per-CPU mode, or no such processor). */
uint32_t viz_cpu_row(const builder *b, uint32_t v);

/* viz_flows.c */
void viz_read_flows(builder *b, viz_rule *r, const tj_node *flows, const char *file);
void viz_apply_flows(builder *b, const viz_rule *r, const char *target_name, long target);
int viz_finish_flows(struct tlv_shapes *s);

/* viz_figures.c: the primitives of shape sd with these arguments under
 * `key` (made by viz_prim_key), resolved once per key: *first and *count
 * in s->prims. Returns 0 or -1. A worker's builder notes the key in its
 * unit (viz_parallel.c) and reports no primitive errors: the main builder
 * reports them when it resolves the key again. */
int viz_prims_for_key(builder *b, const shape_def *sd, const char *const *args, size_t nargs,
                      uint32_t row, const buf *key, uint32_t *first, uint32_t *count);
/* The key of shape sd with these arguments (and with row, when not
 * UINT32_MAX: primitives with v(VALUE) are kept per row). */
int viz_prim_key(buf *key, const shape_def *sd, const char *const *args, size_t nargs,
                 uint32_t row);
/* Notes that the primitives [first, first + count) are v(VALUE) ones of
 * row `row`. Returns 0 or -1. */
int viz_note_prim_row(builder *b, uint32_t first, uint32_t count, uint32_t row);

/* viz_parallel.c: applying the rules' units (a rule on one target) on
 * `threads` threads, each into lists of its own, merged in the order the
 * serial loop applies them, so that the shapes, their order, the
 * primitives and the errors are the same as the serial loop's. Returns 0,
 * or -1 (no memory). */
int viz_apply_parallel(builder *b, int threads);
/* Whether the rules can be applied in parallel: not when some rule uses
 * $CLOCK{} (whose midnight-wrap state runs from one use to the next). */
int viz_parallel_ok(const builder *b);
/* The threads the shapes are built on: tlv_shapes_options.threads, or the
 * processors online (its default). The store is frozen on as many. */
int viz_threads(const tlv_shapes_options *o);
/* A worker's hooks: a shape into its unit; a primitive key used in its
 * unit (0 or -1); the primitives made for a key; an error into its unit. */
int viz_unit_add_shape(builder *b, tlv_time from, tlv_time to, uint32_t row, uint32_t prim,
                       uint32_t rule, uint32_t event, uint32_t res);
int viz_unit_note_key(builder *b, uint32_t key, const shape_def *sd, const char *const *args,
                      size_t nargs, uint32_t row);
int viz_unit_prims_made(builder *b, uint32_t key, uint32_t first, uint32_t count);
void viz_unit_error(builder *b, const char *file, long line, long col, const char *text);

/* viz_shapes.c: freezes the store and puts the shapes in output order. */
int viz_finish_shapes(builder *b);

#endif
