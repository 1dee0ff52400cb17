/*
 * cond.h — condition expressions (spec §7), used in resource conditions
 * (`Task(state==RUNNING && prcId==2)`), in the condition keys of conversion
 * rules and in figure conditions:
 *
 *   Expr    = Or
 *   Or      = And { "||" And }
 *   And     = Unary { "&&" Unary }
 *   Unary   = "!" Unary | "(" Expr ")" | Compare | "true" | "false" | "True" | "False"
 *   Compare = Operand ( "==" | "!=" | "<" | ">" | "<=" | ">=" ) Operand
 *
 * Operands are bare words: everything up to an operator or a parenthesis,
 * trimmed (inner spaces kept; may be empty). When both sides read as numbers
 * (strtod-style decimal, whole text) they compare as numbers, otherwise as
 * strings in byte order; "True"/"False" (any case) compare case-insensitively
 * with each other.
 *
 * Expressions are compiled once and evaluated many times; an operand may be
 * resolved through a callback (for resource conditions: attribute names).
 */
#ifndef TLV_COND_H
#define TLV_COND_H

#include <stddef.h>

typedef struct cond cond;

/* Compiles `len` bytes. Returns NULL on a malformed expression with a
 * message in err (e.g. "expected an operator such as '==' after 'state'",
 * "missing ')'", "unexpected ')' at column 12", "empty expression"), or on
 * allocation failure ("out of memory"). Expressions nested deeper than
 * COND_MAX_DEPTH are rejected. */
cond *cond_compile(const char *text, size_t len, char *err, size_t errsz);

#define COND_MAX_DEPTH 100

void cond_free(cond *c);

/* Resolves an operand. Returns 1 and sets *val and *vlen when `name` is a
 * variable (e.g. an attribute of the resource), 0 when it is a literal. */
typedef int (*cond_lookup_fn)(void *ctx, const char *name, size_t n,
                              const char **val, size_t *vlen);

/* Evaluates. `lookup` may be NULL (all operands literal). In a comparison,
 * the left operand is resolved through `lookup` first; the right operand is
 * resolved only when the left one is a literal (so `state==RUNNING` and
 * `RUNNING==state` both compare the attribute `state` with RUNNING).
 * Returns 1 (true) or 0 (false). */
int cond_eval(const cond *c, cond_lookup_fn lookup, void *ctx);

/* Compiles and evaluates in one go (rule conditions, whose text changes on
 * every line). Returns 1, 0, or -1 with err filled on a malformed expression. */
int cond_eval_text(const char *text, size_t len, char *err, size_t errsz);

/* Compares two values as described above: <0, 0, >0. */
int value_compare(const char *a, size_t an, const char *b, size_t bn);

#endif
