/*
 * trace_impl.h — the inside of tlv_trace (trace.c): a converted trace's
 * events, compact, with the converter and world they came from. Below the
 * visualization (viz_impl.h), which reads it.
 */
#ifndef TLV_TRACE_IMPL_H
#define TLV_TRACE_IMPL_H

#include "base/diag.h"
#include <stdatomic.h>
#include <stdbool.h>
#include "base/bulk.h"
#include "base/numcol.h"
#include "rules/rules_impl.h"
#include "world/world.h"

/* One event of a trace, compact: names and values are interned in the
 * world's pools; 28 bytes, 4-aligned (a tlv_time member would make it 48).
 * Read its time with trace_time(), its input line with trace_line() and its
 * state sequence number with trace_state_seq(): those two are kept by
 * `order`, in columns of about 1.25 bytes an event (numcol.h). */
typedef struct trace_event {
    uint32_t ticks_lo, ticks_hi; /* the time's whole ticks; its fraction, when
                                    the trace has any, is frac[order] */
    uint32_t res;          /* resource index in the world */
    uint32_t name;         /* interned attribute or behavior name */
    uint32_t value;        /* attribute: interned value; behavior: first arg index */
    uint32_t nargs : 24;   /* behavior: argument count (TRACE_MAX_ARGS at most) */
    uint32_t kind : 8;     /* tlv_event_kind */
    uint32_t order;        /* position in production order (ties in time) */
} trace_event;

#define TRACE_MAX_ARGS 0xFFFFFFu

struct tlv_trace {
    const struct tlv_rules *rules;
    tlv_converter *conv;   /* owns the world */
    world *w;              /* the converter's world: resources and histories */
    trace_event *ev;       /* in memory, or once large, ev_file's mapping */
    size_t nev, cap;
    bulk ev_file;          /* the events in a temporary file (bulk.h), or nothing */
    size_t file_min;       /* events growing past this many bytes go to the file
                              (BULK_MIN_BYTES; tests set less to exercise it) */
    uint64_t *frac;        /* by event order: the time's fraction; NULL while
                              every time is whole (most logs), which saves 8
                              bytes an event */
    size_t frac_cap;
    int record_nomem;      /* an event could not be kept for want of memory:
                              the trace is incomplete (tlv_trace_update says so) */
    numcol lines;          /* by event order: the input line */
    numcol seqs;           /* by event order: world.next_seq when the event was
                              made (changes with a smaller seq came before it) */
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
    char cache_note[512];  /* what tlv_trace_load_file_cached did (trace_cache.c) */
    /* The trace cache file this trace is the trace of (read from it, or
     * written from it), for the shape cache (viz_cache.c): the file, its
     * header's hash (0: none), and the log's bytes it holds — the trace is
     * still that file's while its converter has read no more than these. */
    char *cache_path;
    uint64_t cache_id, cache_id_bytes;
    uint32_t cache_values; /* the world's values then (the file's); shape
                              builds intern more after them */
    struct cache_recorder *cache_rec; /* the lines no rule matched, kept for a cache */
    tlv_progress_fn progress;  /* tlv_trace_set_progress: told after each chunk read */
    void *progress_user;
};

/* Pushes the file at `path` ("-": standard input) from byte `from` on into
 * t's converter, without finishing: tlv_trace_load_file is this and
 * tlv_trace_finish. Returns TLV_OK, TLV_ERR_IO, TLV_ERR_NOMEM or
 * TLV_ERR_USAGE, with t's last error set. */
tlv_status trace_push_file(struct tlv_trace *t, const char *path, uint64_t from);

/* The time of an event of trace t. */
static inline tlv_time trace_time(const struct tlv_trace *t, const trace_event *e)
{
    tlv_time time = {(int64_t)((uint64_t)e->ticks_hi << 32 | e->ticks_lo),
                     t->frac ? t->frac[e->order] : 0};
    return time;
}

/* The input line of an event of trace t. */
static inline uint32_t trace_line(const struct tlv_trace *t, const trace_event *e)
{
    return numcol_get(&t->lines, e->order);
}

/* The state sequence number of an event of trace t: changes of the world's
 * state with a smaller one came before it. */
static inline uint32_t trace_state_seq(const struct tlv_trace *t, const trace_event *e)
{
    return numcol_get(&t->seqs, e->order);
}

#endif
