/*
 * macro.h — the conversion macros (spec §8): $EXIST{}, $COUNT{}, $ATTR{},
 * $RES_NAME{}, $RES_DISPLAYNAME{}, $RES_COLOR{}, and our $SUM{a,b,...} (the
 * exact sum of decimal numbers), $CALC{expr} (exact arithmetic, calc.h) and
 * $CLOCK{time[,unit]} (wall-clock times in the TimeScale, clock.h) and
 * $OUTCOME{failed; expected} (ok / expected / error), expanded
 * innermost first against the current state of a world.
 */
#ifndef TLV_MACRO_H
#define TLV_MACRO_H

#include "base/buf.h"

#include <stddef.h>
#include <stdint.h>

/* The macros, by number (macro_id). */
typedef enum macro_kind {
    M_PLAIN = -1, M_EXIST, M_COUNT, M_ATTR, M_RES_NAME, M_RES_DISPLAYNAME, M_RES_COLOR, M_SUM,
    M_CALC, M_CLOCK, M_OUTCOME
} macro_kind;

/* What macros read. Expansion sits below the run-time world, which it
 * reaches only through this: the world (world_macro_host, world.h) answers
 * the macros that read its state, and shows the counters that tell whether
 * a remembered answer still holds. */
typedef struct macro_host {
    void *state;
    /* Appends to val the value of macro `id` (any but $SUM, $CALC and
     * $OUTCOME, which read no state) on its expanded argument. Returns 0,
     * or -1 with the reason in err, naming the macro (macro_describe). Sets
     * *read_dynamic when it read a Dynamic attribute. */
    int (*eval)(void *state, int id, const char *arg, size_t n, buf *val, buf *err);
    const uint32_t *seq;            /* changes with every change of the state */
    const uint32_t *static_changes; /* changes with every change of a Static attribute */
    const size_t *nres;             /* resources: one created changes answers */
    int *read_dynamic;
} macro_host;

/* Remembered macro answers, valid while the world's state is unchanged. */
typedef struct macro_memo macro_memo;
macro_memo *macro_memo_new(void);
void macro_memo_free(macro_memo *m);

/* Expands every macro of text into out (cleared first), using and filling
 * `memo` (may be NULL). Returns 0, or -1 with a message in err naming the
 * macro, e.g. "$RES_NAME{Task(id==9)}: no resource matches; exactly one is
 * needed". */
int macro_expand(const macro_host *host, macro_memo *memo, const char *text, size_t len, buf *out,
                 buf *err);
/* macro_expand for a standard-form line a conversion template made: the
 * value of each macro outside every other is escaped
 * (std_escape_log_text), so that it arrives as it was ($ATTR of a value
 * holding a backslash). */
int macro_expand_line(const macro_host *host, macro_memo *memo, const char *text, size_t len,
                      buf *out, buf *err);

/* True when `name` (without '$') is a macro name. */
int macro_is_known(const char *name, size_t n);
/* The macro's number for macro_eval_site, or -1 when `name` is none. */
int macro_id(const char *name, size_t n);
/* The known macros, for messages: "$EXIST, $COUNT, ..., $CLOCK". */
const char *macro_known_list(void);
/* True when the macro's argument is a resource reference (not for $SUM,
 * $CALC, $CLOCK, whose arguments are numbers and times). */
int macro_reads_resources(const char *name, size_t n);
/* True for the characters of macro names ('A'-'Z', '_'). */
int macro_name_char(char c);

/* Appends to val the value of macro `id` (from macro_id) on its expanded
 * argument, remembered per `site` (a place in a compiled template, expand.h)
 * while the world's state holds. Returns 0, or -1 with the reason in err,
 * exactly as macro_expand reports it. */
int macro_eval_site(const macro_host *host, macro_memo *memo, size_t site, int id,
                    const char *arg, size_t n, buf *val, buf *err);

/* Appends "$NAME{arg}" to err: how a macro's error begins. */
void macro_describe(buf *err, int id, const char *arg, size_t n);

/* Finds the next "$NAME{" macro call in text from `from`: returns its offset
 * and sets *name and *name_len, or returns -1. Used by `tlv check`. */
long macro_find_call(const char *text, size_t len, size_t from, const char **name,
                     size_t *name_len);

#endif
