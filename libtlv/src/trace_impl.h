/*
 * trace_impl.h — the inside of tlv_trace (trace.c): a converted trace's
 * events, compact, with the converter and world they came from. Below the
 * visualization (viz_impl.h), which reads it.
 */
#ifndef TLV_TRACE_IMPL_H
#define TLV_TRACE_IMPL_H

#include "diag.h"
#include <stdatomic.h>
#include <stdbool.h>
#include "rules_impl.h"
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
    size_t nshrunk;        /* nev when the arrays were last shrunk to fit */
    int finished;
    last_error lasterr;        /* tlv_trace_last_error */
    /* set while tlv_shapes_build runs on this trace: building evaluates the
     * world's macros, which memoize into the trace's world, so a second
     * build at the same time is refused rather than let race */
    atomic_bool building;
};

#endif
