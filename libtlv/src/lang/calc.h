/*
 * calc.h — exact decimal arithmetic for the $CALC{expr} macro (a tlv
 * extension): the grammar, the fixed-point numbers and their text form.
 *
 *   Expr    = Term { ("+" | "-") Term }
 *   Term    = Unary { ("*" | "/" | "%") Unary }
 *   Unary   = { "-" | "+" } Primary
 *   Primary = Number | "(" Expr ")"
 *   Number  = digits [ "." digits ] | "." digits | "0x" hexdigits
 *
 * Numbers are held exactly as value / 10^scale in 64 bits (at most 18
 * digits, as $SUM). `+` `-` `%` give as many fraction digits as the more
 * precise operand (so $CALC{1.50+1} is 2.50, like $SUM{1.50,1}); `*` is
 * exact and `/` is rounded (half away from zero) to 6 fraction digits or the
 * more precise operand's, both without trailing fraction zeros ($CALC{1.5*2}
 * is 3, $CALC{10/4} is 2.5, $CALC{1/3} is 0.333333). `%` is the remainder
 * of truncating division (its sign is the dividend's).
 */
#ifndef TLV_CALC_H
#define TLV_CALC_H

#include "base/buf.h"

#include <stddef.h>
#include <stdint.h>

/* Parentheses and unary signs nested deeper than this are an error. */
#define CALC_MAX_DEPTH 100

/* A number: value / 10^scale, 0 <= scale <= 18. */
typedef struct calc_num {
    int64_t value;
    int scale;
} calc_num;

/* Evaluates text[0..len) and appends the result's text to out. Returns 0,
 * or -1 with the reason appended to err, naming the bad operand or operator
 * and its column: "'abc' is not a number (column 3)", "division by zero
 * (column 2)", "expected a number after '*' (column 3)", "missing ')'",
 * "unexpected ')' (column 4)", "empty expression", "the result is too large
 * (column 4)" — the column of the operator whose result overflowed. */
int calc_eval(const char *text, size_t len, buf *out, buf *err);

/* Same, giving the number instead of its text. */
int calc_eval_num(const char *text, size_t len, calc_num *out, buf *err);

/* Appends n's text: digits, '.' and exactly n.scale fraction digits, '-'
 * in front when negative ("-0.50", "31"). */
int calc_format(calc_num n, buf *out);

#endif
