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

#include "buf.h"
#include "world.h"

/* Remembered macro answers, valid while the world's state is unchanged. */
typedef struct macro_memo macro_memo;
macro_memo *macro_memo_new(void);
void macro_memo_free(macro_memo *m);

/* Expands every macro of text into out (cleared first), using and filling
 * `memo` (may be NULL). Returns 0, or -1 with a message in err naming the
 * macro, e.g. "$RES_NAME{Task(id==9)}: no resource matches; exactly one is
 * needed". */
int macro_expand(world *w, macro_memo *memo, const char *text, size_t len, buf *out, buf *err);

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
int macro_eval_site(world *w, macro_memo *memo, size_t site, int id, const char *arg, size_t n,
                    buf *val, buf *err);

/* Finds the next "$NAME{" macro call in text from `from`: returns its offset
 * and sets *name and *name_len, or returns -1. Used by `tlv check`. */
long macro_find_call(const char *text, size_t len, size_t from, const char **name,
                     size_t *name_len);

#endif
