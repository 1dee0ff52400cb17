/*
 * viz_impl.h — the inside of tlv_trace and tlv_shapes, shared by the
 * modules that build them (trace.c, viz*.c) and draw them (render.c).
 */
#ifndef TLV_VIZ_IMPL_H
#define TLV_VIZ_IMPL_H

#include "diag.h"
#include "figure.h"
#include "intern.h"
#include "rules_impl.h"
#include "store.h"
#include "summary.h"
#include "world.h"

/* One event of a trace, compact: names and values are interned in the
 * world's pools. */
typedef struct trace_event {
    tlv_time time;
    uint32_t res;          /* resource index in the world */
    uint32_t name;         /* interned attribute or behavior name */
    uint32_t value;        /* attribute: interned value; behavior: first arg index */
    uint32_t nargs;        /* behavior: argument count */
    uint32_t state_seq;    /* world.next_seq when the event was made: changes
                              with a smaller seq came before it */
    uint32_t line;         /* input line */
    uint32_t order;        /* position in production order (ties in time) */
    uint8_t kind;          /* tlv_event_kind */
} trace_event;

struct tlv_trace {
    const struct tlv_rules *rules;
    tlv_converter *conv;   /* owns the world */
    world *w;              /* the converter's world: resources and histories */
    trace_event *ev;
    size_t nev, cap;
    uint32_t *args;        /* interned behavior arguments */
    size_t nargs, args_cap;
    const char **arg_text; /* the same as strings, made by update() and finish() */
    size_t narg_text;      /* how many of args have their text in arg_text */
    size_t nsorted;        /* ev[0, nsorted) are in (time, order) order */
    int finished;
    last_error lasterr;        /* tlv_trace_last_error */
};

typedef struct row_def {
    char *label;
    const char *resource;  /* resource name or NULL */
    char *group;
} row_def;

/* One flow (an arrow from one resource to another at an instant). */
typedef struct flow_rec {
    tlv_time time;
    uint32_t line, seq;        /* trace line of its event; order made */
    uint32_t event;            /* that event's index in the trace */
    uint32_t rule, name, display; /* interned in shapes->names */
    uint32_t from_res, to_res; /* resources of the trace's world */
    uint32_t from_cpu, to_cpu; /* processor values (world values) or UINT32_MAX */
    uint32_t from_row, to_row; /* rows, or UINT32_MAX when not shown */
} flow_rec;

struct tlv_shapes {
    const tlv_trace *trace;
    tlv_diags diags;
    intern_pool *names;    /* rule, event and type names */
    uint32_t *rule_name;   /* by rule index (tlv_shapes_rule): interned name, */
    uint32_t *rule_display;/* display name, */
    uint8_t *rule_skipped; /* and whether skip_rules named it */
    size_t nrules;
    prim *prims;           /* resolved primitives, shared by shapes */
    size_t nprims, prims_cap;
    row_def *rows;
    size_t nrows, rows_cap;
    store *store;
    summary_looks looks;   /* how primitives show in summaries (summary.h) */
    uint32_t *order;       /* shape indexes in rule, event, resource, from order */
    uint32_t *values;      /* by shape order: the From/When event's value
                              (interned in the trace's world, or with the high
                              bit set in `joined`), or UINT32_MAX */
    intern_pool *joined;   /* behaviors' arguments joined with commas */
    uint32_t *events;      /* by shape order, two each: the trace events that
                              opened and closed it, or UINT32_MAX */
    size_t events_cap;
    size_t nvalues, values_cap;
    uint64_t *when_keys;   /* sorted (rule name id << 32 | event name id) of the
                              When events, to tell their shapes apart */
    size_t nwhen;
    flow_rec *flows;       /* by time, then trace line */
    size_t nflows, flows_cap;
    int radix;
    const char *time_scale;
    tlv_time start, end;
    last_error lasterr;        /* tlv_shapes_last_error */
};

#endif
