/*
 * calc.c — the $CALC{} evaluator (see calc.h): a recursive-descent parser
 * that computes as it reads, on 64-bit fixed-point decimals with 128-bit
 * intermediates, so nothing is ever rounded through a double.
 */
#include "lang/calc.h"

#include <stdint.h>
#include <string.h>

#define MAX_SCALE 18
#define DIVISION_DIGITS 6

typedef __int128 wide;

typedef struct calc {
    const char *s;
    size_t len, pos;
    int depth;
    buf *err;
} calc;

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

static int is_operator(char c)
{
    return c == '+' || c == '-' || c == '*' || c == '/' || c == '%' || c == '(' || c == ')';
}

/* Columns count UTF-8 characters, as an editor shows them. */
static size_t column_at(const calc *p, size_t pos)
{
    size_t col = 1;
    for (size_t i = 0; i < pos && i < p->len; i++)
        if (((unsigned char)p->s[i] & 0xC0) != 0x80)
            col++;
    return col;
}

/* The next non-blank character, or '\0' at the end. */
static char peek(calc *p)
{
    while (p->pos < p->len && is_blank(p->s[p->pos]))
        p->pos++;
    return p->pos < p->len ? p->s[p->pos] : '\0';
}

static int fail_at(calc *p, size_t pos, const char *what)
{
    buf_printf(p->err, "%s (column %zu)", what, column_at(p, pos));
    return -1;
}

static const int64_t pow10_table[] = {
    1LL, 10LL, 100LL, 1000LL, 10000LL, 100000LL, 1000000LL, 10000000LL, 100000000LL,
    1000000000LL, 10000000000LL, 100000000000LL, 1000000000000LL, 10000000000000LL,
    100000000000000LL, 1000000000000000LL, 10000000000000000LL, 100000000000000000LL,
    1000000000000000000LL,
};

/* 10^n for 0 <= n <= 37. */
static wide pow10_wide(int n)
{
    wide v = 1;
    while (n-- > 0)
        v *= 10;
    return v;
}

static int fits(wide v) { return v >= INT64_MIN && v <= INT64_MAX; }

/* v / 10, rounded half away from zero. */
static wide div10_round(wide v)
{
    wide q = v / 10, r = v % 10;
    if (r >= 5)
        q++;
    else if (r <= -5)
        q--;
    return q;
}

/* Makes *v at *scale fit 64 bits and MAX_SCALE digits, rounding fraction
 * digits away but none below `keep`. Returns -1 when it cannot fit. */
static int settle(wide *v, int *scale, int keep)
{
    while (*scale > 0 && *v % 10 == 0 && *scale > keep)
        *v /= 10, (*scale)--;
    while (*scale > keep && (*scale > MAX_SCALE || !fits(*v)))
        *v = div10_round(*v), (*scale)--;
    return fits(*v) && *scale <= MAX_SCALE ? 0 : -1;
}

/* Reads "0x" hexdigits at s[0..n). */
static int read_hex(const char *s, size_t n, calc_num *out)
{
    if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return -1;
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        int d = hex_digit_value((unsigned char)s[i]);
        if (d < 0 || v > (uint64_t)INT64_MAX >> 4)
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    if (v > (uint64_t)INT64_MAX)
        return -1;
    out->value = (int64_t)v;
    out->scale = 0;
    return 0;
}

/* Reads digits [ "." digits ] with at most 18 significant digits, or a
 * whole number up to 2^63 - 1 (19 digits: any 64-bit trace time, which
 * $CALC{${t}+1} reads; issue 32.2). Returns 0, -1 when it is not a number,
 * -2 when it has more digits than that. */
static int read_number(const char *s, size_t n, calc_num *out)
{
    if (read_hex(s, n, out) == 0)
        return 0;
    int64_t v = 0;
    int scale = -1, significant = 0, digits = 0, too_many = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.' && scale < 0) {
            scale = 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9')
            return -1;
        digits++;
        if (v || s[i] != '0')
            significant++;
        if (scale >= 0 && (significant > MAX_SCALE || scale >= MAX_SCALE))
            too_many = 1;
        else if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, s[i] - '0', &v))
            too_many = 1;
        if (scale >= 0)
            scale++;
    }
    if (!digits)
        return -1;
    if (too_many || (scale >= 0 && significant > MAX_SCALE))
        return -2;
    out->value = v;
    out->scale = scale < 0 ? 0 : scale;
    return 0;
}

static int parse_expr(calc *p, calc_num *out);

/* A number or a parenthesised expression. */
static int parse_primary(calc *p, calc_num *out, const char *after, size_t after_pos)
{
    char c = peek(p);
    size_t start = p->pos;
    if (c == '(') {
        if (++p->depth > CALC_MAX_DEPTH)
            return fail_at(p, start, "expression nested too deeply");
        p->pos++;
        if (parse_expr(p, out) < 0)
            return -1;
        if (peek(p) != ')') {
            if (p->pos >= p->len)
                return fail_at(p, start, "missing ')' for this '('");
            return fail_at(p, p->pos, "expected an operator or ')'");
        }
        p->pos++;
        p->depth--;
        return 0;
    }
    if (c == '\0' || is_operator(c)) {
        if (!after)
            return c == '\0' ? (buf_puts(p->err, "empty expression"), -1)
                             : (buf_printf(p->err, "unexpected '%c' (column %zu)", c,
                                           column_at(p, start)), -1);
        buf_printf(p->err, "expected a number after '%s' (column %zu)", after,
                   column_at(p, after_pos));
        return -1;
    }
    while (p->pos < p->len && !is_blank(p->s[p->pos]) && !is_operator(p->s[p->pos]))
        p->pos++;
    int rc = read_number(p->s + start, p->pos - start, out);
    if (rc < 0) {
        int n = (int)(p->pos - start);
        buf_printf(p->err, rc == -2 ? "'%.*s%s' has more digits than $CALC holds (a whole number "
                                      "within 64 bits, or 18 significant digits) (column %zu)"
                                    : "'%.*s%s' is not a number (column %zu)",
                   n > 60 ? 60 : n, p->s + start, n > 60 ? "..." : "", column_at(p, start));
        return -1;
    }
    return 0;
}

/* Signs are read in a loop, so "-----1" cannot exhaust the stack. */
static int parse_unary(calc *p, calc_num *out, const char *after, size_t after_pos)
{
    int negative = 0;
    size_t signs = 0;
    char c;
    while ((c = peek(p)) == '-' || c == '+') {
        if (++signs > CALC_MAX_DEPTH)
            return fail_at(p, p->pos, "expression nested too deeply");
        negative ^= c == '-';
        after = c == '-' ? "-" : "+";
        after_pos = p->pos++;
    }
    if (parse_primary(p, out, after, after_pos) < 0)
        return -1;
    if (negative) {
        if (out->value == INT64_MIN)
            return fail_at(p, after_pos, "the result is too large");
        out->value = -out->value;
    }
    return 0;
}

/* Brings a and b to the larger of their scales. */
static int align(calc_num *a, calc_num *b)
{
    int64_t *lower = a->scale < b->scale ? &a->value : &b->value;
    int diff = a->scale < b->scale ? b->scale - a->scale : a->scale - b->scale;
    if (__builtin_mul_overflow(*lower, pow10_table[diff], lower))
        return -1;
    a->scale = b->scale = a->scale > b->scale ? a->scale : b->scale;
    return 0;
}

static int add_sub(calc_num *a, calc_num b, char op)
{
    if (align(a, &b) < 0)
        return -1;
    return op == '+' ? (__builtin_add_overflow(a->value, b.value, &a->value) ? -1 : 0)
                     : (__builtin_sub_overflow(a->value, b.value, &a->value) ? -1 : 0);
}

static int multiply(calc_num *a, calc_num b)
{
    wide v = (wide)a->value * b.value;
    int scale = a->scale + b.scale;
    if (settle(&v, &scale, 0) < 0)
        return -1;
    a->value = (int64_t)v;
    a->scale = scale;
    return 0;
}

/* a / b to `scale` fraction digits, rounded; b != 0. */
static int divide(calc_num *a, calc_num b)
{
    int scale = a->scale > b.scale ? a->scale : b.scale;
    if (scale < DIVISION_DIGITS)
        scale = DIVISION_DIGITS;
    /* a/b at `scale` = a.value * 10^(scale - a.scale + b.scale) / b.value */
    int shift = scale - a->scale + b.scale;
    wide num = a->value;
    /* Past 2^126, fewer fraction digits (a 64-bit dividend takes 10^19 more,
     * so this stops long before shift reaches 0). */
    wide magnitude = num < 0 ? -num : num;
    while (shift > 0 && magnitude > ((wide)1 << 126) / pow10_wide(shift))
        shift--, scale--;
    num *= pow10_wide(shift);
    wide q = num / b.value, r = num % b.value;
    wide twice = r < 0 ? -2 * r : 2 * r, bmag = b.value < 0 ? -(wide)b.value : (wide)b.value;
    if (twice >= bmag)
        q += (num < 0) != (b.value < 0) ? -1 : 1;
    if (settle(&q, &scale, 0) < 0)
        return -1;
    a->value = (int64_t)q;
    a->scale = scale;
    return 0;
}

static int remainder_of(calc_num *a, calc_num b)
{
    if (align(a, &b) < 0)
        return -1;
    a->value = b.value == -1 ? 0 : a->value % b.value; /* INT64_MIN % -1 traps */
    return 0;
}

static int apply(calc *p, calc_num *a, calc_num b, char op, size_t op_pos)
{
    if ((op == '/' || op == '%') && b.value == 0)
        return fail_at(p, op_pos, "division by zero");
    int rc = op == '+' || op == '-' ? add_sub(a, b, op)
           : op == '*'              ? multiply(a, b)
           : op == '/'              ? divide(a, b)
                                    : remainder_of(a, b);
    return rc < 0 ? fail_at(p, op_pos, "the result is too large") : 0;
}

static int parse_term(calc *p, calc_num *out, const char *after, size_t after_pos)
{
    if (parse_unary(p, out, after, after_pos) < 0)
        return -1;
    char op;
    while ((op = peek(p)) == '*' || op == '/' || op == '%') {
        size_t at = p->pos++;
        calc_num rhs;
        const char *name = op == '*' ? "*" : op == '/' ? "/" : "%";
        if (parse_unary(p, &rhs, name, at) < 0 || apply(p, out, rhs, op, at) < 0)
            return -1;
    }
    return 0;
}

static int parse_sum(calc *p, calc_num *out, const char *after, size_t after_pos)
{
    if (parse_term(p, out, after, after_pos) < 0)
        return -1;
    char op;
    while ((op = peek(p)) == '+' || op == '-') {
        size_t at = p->pos++;
        calc_num rhs;
        if (parse_term(p, &rhs, op == '+' ? "+" : "-", at) < 0 || apply(p, out, rhs, op, at) < 0)
            return -1;
    }
    return 0;
}

static int parse_expr(calc *p, calc_num *out)
{
    return parse_sum(p, out, p->depth ? "(" : NULL, p->pos ? p->pos - 1 : 0);
}

int calc_eval_num(const char *text, size_t len, calc_num *out, buf *err)
{
    calc p = {text, len, 0, 0, err};
    if (parse_expr(&p, out) < 0)
        return -1;
    char c = peek(&p);
    if (c == ')')
        return fail_at(&p, p.pos, "unexpected ')'");
    if (c != '\0') { /* two operands in a row: "1 2", "2(3)" */
        size_t start = p.pos, end = p.pos + 1;
        while (!is_operator(text[start]) && end < len && !is_blank(text[end]) &&
               !is_operator(text[end]))
            end++;
        buf_printf(err, "expected an operator before '%.*s' (column %zu)",
                   (int)(end - start > 60 ? 60 : end - start), text + start,
                   column_at(&p, start));
        return -1;
    }
    return 0;
}

int calc_format(calc_num n, buf *out)
{
    /* Digits from the last: the fraction, then the point, then the rest. */
    char tmp[48];
    size_t at = sizeof tmp;
    uint64_t mag = n.value < 0 ? (uint64_t)0 - (uint64_t)n.value : (uint64_t)n.value;
    tmp[--at] = '\0';
    for (int i = 0; i < n.scale; i++, mag /= 10)
        tmp[--at] = (char)('0' + mag % 10);
    if (n.scale)
        tmp[--at] = '.';
    do
        tmp[--at] = (char)('0' + mag % 10);
    while ((mag /= 10) > 0);
    if (n.value < 0)
        tmp[--at] = '-';
    return buf_puts(out, tmp + at);
}

int calc_eval(const char *text, size_t len, buf *out, buf *err)
{
    calc_num n;
    if (calc_eval_num(text, len, &n, err) < 0)
        return -1;
    return calc_format(n, out);
}
