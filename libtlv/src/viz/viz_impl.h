/*
 * viz_impl.h — the inside of tlv_shapes, shared by the modules that build it
 * (viz*.c), read it (breakdown.c, counters.c, stats.c) and draw it
 * (render*.c); with the inside of tlv_trace (trace_impl.h) it is built from.
 */
#ifndef TLV_VIZ_IMPL_H
#define TLV_VIZ_IMPL_H

#include "base/diag.h"
#include "shape/figure.h"
#include "base/intern.h"
#include "rules/rules_impl.h"
#include "shape/store.h"
#include "shape/summary.h"
#include "trace/trace_impl.h"
#include "world/world.h"

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
    bulk values_file, events_file; /* values and events, once large, in
                              temporary files (bulk.h), or nothing */
    uint64_t *when_keys;   /* sorted (rule name id << 32 | event name id) of the
                              When events, to tell their shapes apart */
    size_t nwhen;
    flow_rec *flows;       /* by time, then trace line */
    size_t nflows, flows_cap;
    int radix;
    const char *time_scale;
    tlv_time start, end;   /* the trace's; start is its time origin */
    tlv_time_mode time_mode; /* the trace's (tlv_trace_time_mode) */
    last_error lasterr;        /* tlv_shapes_last_error */
    /* The shape cache (viz_cache.c): the options' hash (a part of its key),
     * the trace cache's identity the shapes were built from (0: none, not
     * to be cached), where their cache file is, and what became of it. */
    uint64_t options_hash, trace_id;
    int trace_finished;
    uint32_t trace_values;     /* the trace cache's world values */
    uint64_t trace_bytes;      /* the log's bytes the trace held when built */
    int identified;            /* options_hash and trace_bytes are set */
    int status;                /* what tlv_shapes_build returned */
    char *cache_path;
    char cache_note[512];
};

#endif
