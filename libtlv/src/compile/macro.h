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

/* The macros, by number (macro_id): the rows of macro.c's table. */
typedef enum macro_kind {
    M_PLAIN = -1, M_EXIST, M_COUNT, M_ATTR, M_RES_NAME, M_RES_DISPLAYNAME, M_RES_COLOR, M_SUM,
    M_CALC, M_CLOCK, M_OUTCOME,
    M_NMACROS /* how many there are */
} macro_kind;

/* A macro's evaluator: appends the value of macro `id` on its (already
 * expanded) argument to val, or returns -1 with the reason in err, which
 * begins with macro_describe ("$NAME{arg}: ..."). `state` is the host's
 * (the world) for a MACRO_READS_WORLD macro, NULL for the others. */
typedef int (*macro_eval_fn)(void *state, int id, const char *arg, size_t n, buf *val,
                             buf *err);

/* What a macro is, besides its name and evaluator (macro_def.flags). */
enum {
    /* Reads the world's state: evaluated by the host's evaluator for it
     * (macro_host.evals[id]), since the world sits above this layer. */
    MACRO_READS_WORLD = 1,
    /* Its argument is a resource reference, `tlv check` resolves it against
     * the declared types (not numbers or times: $SUM, $CALC, $CLOCK). */
    MACRO_TAKES_RESOURCE = 2,
    /* The reference ends in ".attribute" ($ATTR{Task(id==1).state}). */
    MACRO_TAKES_ATTRIBUTE = 4,
    /* Never answered from the memo: the answer depends on the calls before
     * it ($CLOCK crosses midnight with the conversion). */
    MACRO_NOT_REMEMBERED = 8
};

/* One row of the macro table (macro.c), indexed by macro_kind. */
typedef struct macro_def {
    const char *name;   /* without '$': "RES_NAME" */
    unsigned flags;     /* MACRO_* */
    macro_eval_fn eval; /* NULL for MACRO_READS_WORLD: the host's evals[id] */
} macro_def;

/* The row of macro `id` (0 <= id < M_NMACROS). */
const macro_def *macro_get(int id);

/* What macros read. Expansion sits below the run-time world, which it
 * reaches only through this: the world (world_macro_host, world.h) answers
 * the macros that read its state, and shows the counters that tell whether
 * a remembered answer still holds. */
typedef struct macro_host {
    void *state;
    /* The evaluators of the MACRO_READS_WORLD macros, indexed by
     * macro_kind (NULL for the others), called with `state`. Each sets
     * *read_dynamic when it read a Dynamic attribute. */
    const macro_eval_fn *evals;
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

/* The macro's number (macro_kind), or -1 when `name` (without '$') names
 * none. */
int macro_id(const char *name, size_t n);
/* True when `name` (without '$') is a macro name. */
int macro_is_known(const char *name, size_t n);
/* The macro's flags (MACRO_*), 0 when `name` names none. */
unsigned macro_flags(const char *name, size_t n);
/* Appends the known macros, for messages: "$EXIST, $COUNT, ..., $OUTCOME".
 * Returns 0, or -1 when out of memory. */
int macro_known_list(buf *out);
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
