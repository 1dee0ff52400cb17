/*
 * cond.c — condition expressions (spec §7): the one parser, a compiled form
 * that evaluates without allocating or re-reading the text, and the value
 * comparison shared with the rest of libtlv.
 *
 * The parser emits a flat program for a single boolean accumulator:
 * comparisons and constants set it, NOT flips it, and `&&` / `||` become
 * conditional forward jumps to the end of their chain (short-circuit). Running
 * it is one loop with no recursion, so a chain of 100,000 terms is as safe as
 * one of two; only parentheses recurse in the parser, and COND_MAX_DEPTH
 * bounds them. cond_eval_text parses into a stack buffer and runs the same
 * program, so both entry points share grammar, errors and semantics.
 */
#include "lang/cond.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- values ------------------------------------------------------------- */

/* A decimal number read exactly as digits, so that comparison needs no
 * strtod (locale-dependent, rounds past 2^53) and no copy of the text:
 * value = sign * 0.D * 10^magnitude, D = the significant digits, which lie
 * in up to two runs (integer part, fraction part) of the original text. */
typedef struct decimal {
    int sign; /* -1, 0 or +1; 0 means the value is zero */
    long long magnitude;
    const char *run1, *run2;
    size_t n1, n2;
} decimal;

/* Written exponents beyond this saturate; such numbers still order by sign
 * and against ordinary ones. */
#define EXPONENT_LIMIT 1000000000000000LL

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static size_t count_digits(const char *s, size_t n, size_t i)
{
    size_t start = i;
    while (i < n && is_digit(s[i]))
        i++;
    return i - start;
}

static long long read_exponent(const char *s, size_t n)
{
    long long e = 0;
    for (size_t i = 0; i < n; i++)
        if (e < EXPONENT_LIMIT)
            e = e * 10 + (s[i] - '0');
    return e;
}

/* Drops zeros that carry no value: leading ones from the front of the
 * integer/fraction runs, trailing ones from their end. */
static void strip_insignificant_zeros(decimal *d, size_t *leading)
{
    size_t int_zeros = 0, frac_zeros = 0;
    while (int_zeros < d->n1 && d->run1[int_zeros] == '0')
        int_zeros++;
    d->run1 += int_zeros;
    d->n1 -= int_zeros;
    if (!d->n1) {
        while (frac_zeros < d->n2 && d->run2[frac_zeros] == '0')
            frac_zeros++;
        d->run2 += frac_zeros;
        d->n2 -= frac_zeros;
    }
    *leading = int_zeros + frac_zeros;
    while (d->n2 && d->run2[d->n2 - 1] == '0')
        d->n2--;
    if (!d->n2) {
        while (d->n1 && d->run1[d->n1 - 1] == '0')
            d->n1--;
    }
}

/* Accepts [+-] digits [. digits] [(e|E) [+-] digits] with at least one
 * mantissa digit — plain decimal only: no hex, inf, nan or spaces. */
static int read_decimal(const char *s, size_t n, decimal *d)
{
    size_t i = 0;
    int negative = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    size_t int_n = count_digits(s, n, i);
    d->run1 = s + i;
    d->n1 = int_n;
    i += int_n;
    d->run2 = s + i;
    d->n2 = 0;
    if (i < n && s[i] == '.') {
        i++;
        d->n2 = count_digits(s, n, i);
        d->run2 = s + i;
        i += d->n2;
    }
    if (int_n + d->n2 == 0)
        return 0;
    long long exponent = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int exp_negative = 0;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            exp_negative = s[i++] == '-';
        size_t exp_n = count_digits(s, n, i);
        if (!exp_n)
            return 0;
        exponent = read_exponent(s + i, exp_n);
        if (exp_negative)
            exponent = -exponent;
        i += exp_n;
    }
    if (i != n)
        return 0;
    size_t leading;
    strip_insignificant_zeros(d, &leading);
    d->sign = d->n1 + d->n2 == 0 ? 0 : negative ? -1 : 1;
    d->magnitude = (long long)int_n - (long long)leading + exponent;
    return 1;
}

static char significant_digit(const decimal *d, size_t k)
{
    return k < d->n1 ? d->run1[k] : d->run2[k - d->n1];
}

static int compare_magnitudes(const decimal *a, const decimal *b)
{
    if (a->magnitude != b->magnitude)
        return a->magnitude < b->magnitude ? -1 : 1;
    size_t an = a->n1 + a->n2, bn = b->n1 + b->n2;
    for (size_t k = 0; k < an && k < bn; k++) {
        char x = significant_digit(a, k), y = significant_digit(b, k);
        if (x != y)
            return x < y ? -1 : 1;
    }
    /* Trailing zeros are gone, so the longer one has more value left. */
    return (an > bn) - (an < bn);
}

static int compare_decimals(const decimal *a, const decimal *b)
{
    if (a->sign != b->sign)
        return a->sign < b->sign ? -1 : 1;
    if (a->sign == 0)
        return 0;
    return a->sign * compare_magnitudes(a, b);
}

static int ascii_lower(int c) { return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c; }

static int equals_ignoring_case(const char *s, size_t n, const char *word)
{
    size_t i = 0;
    for (; i < n && word[i]; i++)
        if (ascii_lower((unsigned char)s[i]) != word[i])
            return 0;
    return i == n && !word[i];
}

/* Returns 1 for true, 0 for false, -1 for anything else. */
static int read_boolean(const char *s, size_t n)
{
    if (equals_ignoring_case(s, n, "true"))
        return 1;
    if (equals_ignoring_case(s, n, "false"))
        return 0;
    return -1;
}

static int compare_bytes(const char *a, size_t an, const char *b, size_t bn)
{
    size_t common = an < bn ? an : bn;
    int c = common ? memcmp(a, b, common) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return (an > bn) - (an < bn);
}

int value_compare(const char *a, size_t an, const char *b, size_t bn)
{
    decimal x, y;
    if (read_decimal(a, an, &x) && read_decimal(b, bn, &y))
        return compare_decimals(&x, &y);
    int p = read_boolean(a, an), q = read_boolean(b, bn);
    if (p >= 0 && q >= 0)
        return (p > q) - (p < q);
    return compare_bytes(a, an, b, bn);
}

/* ---- the program ---------------------------------------------------------- */

typedef enum opcode {
    OP_EQ, OP_NE, OP_LT, OP_GT, OP_LE, OP_GE, /* set acc from a comparison */
    OP_TRUE, OP_FALSE,
    OP_NOT,
    OP_JUMP_IF_FALSE, /* && : a false term decides the chain */
    OP_JUMP_IF_TRUE   /* || : a true term decides the chain */
} opcode;

typedef struct insn {
    opcode op;
    union {
        struct {
            size_t lhs, lhs_n, rhs, rhs_n; /* operand spans in the text */
        } cmp;
        size_t target; /* jumps: index of the next instruction to run */
    } u;
} insn;

struct cond {
    size_t n;
    const char *text; /* private copy of the source; operands point into it */
    insn code[];
};

/* Starts in a caller's stack array so that small expressions — nearly all
 * of them — parse without touching the heap. */
typedef struct program {
    insn *v;
    size_t n, cap;
    insn *local;
} program;

#define LOCAL_INSNS 32

static void program_init(program *p, insn *local, size_t cap)
{
    p->v = p->local = local;
    p->n = 0;
    p->cap = cap;
}

static void program_release(program *p)
{
    if (p->v != p->local)
        free(p->v);
}

static int program_push(program *p, insn in)
{
    if (p->n == p->cap) {
        if (p->cap > SIZE_MAX / 2 / sizeof *p->v)
            return -1;
        size_t cap = p->cap * 2;
        int was_local = p->v == p->local;
        insn *v = was_local ? malloc(cap * sizeof *v) : realloc(p->v, cap * sizeof *v);
        if (!v)
            return -1;
        if (was_local)
            memcpy(v, p->local, p->n * sizeof *v);
        p->v = v;
        p->cap = cap;
    }
    p->v[p->n++] = in;
    return 0;
}

static int resolve(cond_lookup_fn lookup, void *ctx, const char **s, size_t *n)
{
    /* An empty operand cannot name anything; skip the call. */
    return lookup && *n && lookup(ctx, *s, *n, s, n);
}

static int compare_operands(const insn *in, const char *text, cond_lookup_fn lookup,
                            void *ctx)
{
    const char *l = text + in->u.cmp.lhs, *r = text + in->u.cmp.rhs;
    size_t ln = in->u.cmp.lhs_n, rn = in->u.cmp.rhs_n;
    if (!resolve(lookup, ctx, &l, &ln))
        resolve(lookup, ctx, &r, &rn);
    int c = value_compare(l, ln, r, rn);
    switch (in->op) {
    case OP_EQ: return c == 0;
    case OP_NE: return c != 0;
    case OP_LT: return c < 0;
    case OP_GT: return c > 0;
    case OP_LE: return c <= 0;
    default: return c >= 0;
    }
}

static int run(const insn *code, size_t n, const char *text, cond_lookup_fn lookup,
               void *ctx)
{
    int acc = 0;
    size_t pc = 0;
    while (pc < n) {
        const insn *in = &code[pc++];
        switch (in->op) {
        case OP_TRUE: acc = 1; break;
        case OP_FALSE: acc = 0; break;
        case OP_NOT: acc = !acc; break;
        case OP_JUMP_IF_FALSE:
            if (!acc)
                pc = in->u.target;
            break;
        case OP_JUMP_IF_TRUE:
            if (acc)
                pc = in->u.target;
            break;
        default: acc = compare_operands(in, text, lookup, ctx); break;
        }
    }
    return acc;
}

/* ---- tokens ------------------------------------------------------------- */

typedef enum token {
    TK_END, TK_WORD, TK_OR, TK_AND, TK_NOT, TK_LPAREN, TK_RPAREN,
    TK_EQ, TK_NE, TK_LT, TK_GT, TK_LE, TK_GE
} token;

static const char *const token_text[] = {
    [TK_END] = "end of expression", [TK_WORD] = "word", [TK_OR] = "||", [TK_AND] = "&&", [TK_NOT] = "!", [TK_LPAREN] = "(",
    [TK_RPAREN] = ")", [TK_EQ] = "==", [TK_NE] = "!=", [TK_LT] = "<",
    [TK_GT] = ">", [TK_LE] = "<=", [TK_GE] = ">=",
};

static int is_comparison(token t) { return t >= TK_EQ; }

static opcode comparison_opcode(token t) { return (opcode)(OP_EQ + (t - TK_EQ)); }

/* `two` when the next character is `second`, else `one`. */
static token one_or_two(char next, char second, token two, token one, size_t *width)
{
    if (next != second)
        return one;
    *width = 2;
    return two;
}

/* Single '=', '&' and '|' are ordinary word characters: only the doubled
 * forms are operators. */
static token token_at(const char *s, size_t len, size_t i, size_t *width)
{
    *width = 1;
    if (i >= len) {
        *width = 0;
        return TK_END;
    }
    char next = i + 1 < len ? s[i + 1] : '\0';
    switch (s[i]) {
    case '(': return TK_LPAREN;
    case ')': return TK_RPAREN;
    case '!': return one_or_two(next, '=', TK_NE, TK_NOT, width);
    case '<': return one_or_two(next, '=', TK_LE, TK_LT, width);
    case '>': return one_or_two(next, '=', TK_GE, TK_GT, width);
    case '=': return one_or_two(next, '=', TK_EQ, TK_WORD, width);
    case '&': return one_or_two(next, '&', TK_AND, TK_WORD, width);
    case '|': return one_or_two(next, '|', TK_OR, TK_WORD, width);
    default: return TK_WORD;
    }
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* ---- parser ------------------------------------------------------------- */

typedef struct parser {
    const char *s;
    size_t len, pos;
    int depth; /* parentheses open */
    program *out;
    char *err;
    size_t errsz;
} parser;

static token peek(parser *p, size_t *width)
{
    while (p->pos < p->len && is_blank(p->s[p->pos]))
        p->pos++;
    return token_at(p->s, p->len, p->pos, width);
}

/* Reads an operand: up to the next operator, trimmed, possibly empty. */
static void scan_word(parser *p, size_t *start, size_t *n)
{
    size_t w;
    peek(p, &w);
    *start = p->pos;
    while (token_at(p->s, p->len, p->pos, &w) == TK_WORD)
        p->pos++;
    size_t end = p->pos;
    while (end > *start && is_blank(p->s[end - 1]))
        end--;
    *n = end - *start;
}

/* Columns count UTF-8 characters, as an editor shows them. */
static size_t column_at(const parser *p, size_t pos)
{
    size_t col = 1;
    for (size_t i = 0; i < pos; i++)
        if (((unsigned char)p->s[i] & 0xC0) != 0x80)
            col++;
    return col;
}

__attribute__((format(printf, 2, 3))) static int fail(parser *p, const char *fmt, ...)
{
    if (p->err && p->errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err, p->errsz, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Long words are cut (on a character boundary) so messages stay readable. */
#define QUOTE_MAX 60

static int quoted_length(const char *s, size_t n)
{
    if (n <= QUOTE_MAX)
        return (int)n;
    size_t cut = QUOTE_MAX;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return (int)cut;
}

static const char *quote_ellipsis(size_t n) { return n > QUOTE_MAX ? "..." : ""; }

static int fail_unexpected(parser *p)
{
    size_t w;
    token t = peek(p, &w);
    size_t col = column_at(p, p->pos);
    if (t != TK_WORD)
        return fail(p, "unexpected '%s' at column %zu", token_text[t], col);
    size_t start, n;
    scan_word(p, &start, &n);
    return fail(p, "unexpected '%.*s%s' at column %zu", quoted_length(p->s + start, n),
                p->s + start, quote_ellipsis(n), col);
}

/* `after` is the operator that asked for the operand, NULL at the start. */
static int fail_missing_operand(parser *p, const char *after, token next)
{
    if (after)
        return fail(p, "expected an operand after '%s'", after);
    if (next == TK_END)
        return fail(p, "empty expression");
    return fail_unexpected(p);
}

static int emit(parser *p, insn in)
{
    return program_push(p->out, in) < 0 ? fail(p, "out of memory") : 0;
}

static int emit_op(parser *p, opcode op) { return emit(p, (insn){.op = op}); }

#define NO_JUMP SIZE_MAX

/* A chain's jumps are emitted before its end is known; until then each one's
 * target links to the previous pending jump. */
static int emit_pending_jump(parser *p, opcode op, size_t *pending)
{
    size_t at = p->out->n;
    if (emit(p, (insn){.op = op, .u.target = *pending}) < 0)
        return -1;
    *pending = at;
    return 0;
}

static void land_pending_jumps(program *out, size_t pending)
{
    while (pending != NO_JUMP) {
        size_t previous = out->v[pending].u.target;
        out->v[pending].u.target = out->n;
        pending = previous;
    }
}

static int parse_or(parser *p, const char *after);

static int parse_comparison_or_boolean(parser *p, const char *after)
{
    size_t lhs, lhs_n, rhs, rhs_n, w;
    scan_word(p, &lhs, &lhs_n);
    token t = peek(p, &w);
    if (is_comparison(t)) {
        p->pos += w;
        scan_word(p, &rhs, &rhs_n);
        return emit(p, (insn){.op = comparison_opcode(t),
                              .u.cmp = {lhs, lhs_n, rhs, rhs_n}});
    }
    if (lhs_n == 0)
        return fail_missing_operand(p, after, t);
    if (t == TK_LPAREN)
        return fail_unexpected(p);
    int b = read_boolean(p->s + lhs, lhs_n);
    if (b >= 0)
        return emit_op(p, b ? OP_TRUE : OP_FALSE);
    return fail(p, "expected an operator such as '==' after '%.*s%s'",
                quoted_length(p->s + lhs, lhs_n), p->s + lhs, quote_ellipsis(lhs_n));
}

static int parse_group(parser *p)
{
    size_t w;
    if (p->depth >= COND_MAX_DEPTH)
        return fail(p, "expression nested too deeply");
    peek(p, &w);
    p->pos += w;
    p->depth++;
    if (parse_or(p, "(") < 0)
        return -1;
    token t = peek(p, &w);
    if (t == TK_END)
        return fail(p, "missing ')'");
    if (t != TK_RPAREN)
        return fail_unexpected(p);
    p->pos += w;
    p->depth--;
    return 0;
}

/* '!' is taken in a loop, not by recursion, so "!!!…" cannot exhaust the
 * stack; an even count cancels out. */
static int parse_unary(parser *p, const char *after)
{
    size_t negations = 0, w;
    while (peek(p, &w) == TK_NOT) {
        p->pos += w;
        negations++;
        after = "!";
    }
    int rc = peek(p, &w) == TK_LPAREN ? parse_group(p)
                                      : parse_comparison_or_boolean(p, after);
    if (rc == 0 && negations % 2)
        rc = emit_op(p, OP_NOT);
    return rc;
}

typedef int (*parse_fn)(parser *p, const char *after);

/* term { op term }, short-circuiting through `jump`. */
static int parse_chain(parser *p, const char *after, token op, opcode jump, parse_fn term)
{
    if (term(p, after) < 0)
        return -1;
    size_t pending = NO_JUMP, w;
    while (peek(p, &w) == op) {
        p->pos += w;
        if (emit_pending_jump(p, jump, &pending) < 0 || term(p, token_text[op]) < 0)
            return -1;
    }
    land_pending_jumps(p->out, pending);
    return 0;
}

static int parse_and(parser *p, const char *after)
{
    return parse_chain(p, after, TK_AND, OP_JUMP_IF_FALSE, parse_unary);
}

static int parse_or(parser *p, const char *after)
{
    return parse_chain(p, after, TK_OR, OP_JUMP_IF_TRUE, parse_and);
}

static int parse(const char *text, size_t len, program *out, char *err, size_t errsz)
{
    parser p = {text, len, 0, 0, out, err, errsz};
    size_t w;
    if (parse_or(&p, NULL) < 0)
        return -1;
    if (peek(&p, &w) != TK_END)
        return fail_unexpected(&p);
    return 0;
}

/* ---- API ---------------------------------------------------------------- */

cond *cond_compile(const char *text, size_t len, char *err, size_t errsz)
{
    insn local[LOCAL_INSNS];
    program prog;
    program_init(&prog, local, LOCAL_INSNS);
    if (parse(text, len, &prog, err, errsz) < 0) {
        program_release(&prog);
        return NULL;
    }
    cond *c = malloc(sizeof *c + prog.n * sizeof(insn) + len + 1);
    if (!c) {
        program_release(&prog);
        if (err && errsz)
            snprintf(err, errsz, "out of memory");
        return NULL;
    }
    c->n = prog.n;
    memcpy(c->code, prog.v, prog.n * sizeof(insn));
    char *copy = (char *)(c->code + prog.n);
    if (len)
        memcpy(copy, text, len);
    copy[len] = '\0';
    c->text = copy;
    program_release(&prog);
    return c;
}

void cond_free(cond *c) { free(c); }

int cond_eval(const cond *c, cond_lookup_fn lookup, void *ctx)
{
    return c ? run(c->code, c->n, c->text, lookup, ctx) : 0;
}

int cond_eval_text(const char *text, size_t len, char *err, size_t errsz)
{
    insn local[LOCAL_INSNS];
    program prog;
    program_init(&prog, local, LOCAL_INSNS);
    int result = -1;
    if (parse(text, len, &prog, err, errsz) == 0)
        result = run(prog.v, prog.n, text, NULL, NULL);
    program_release(&prog);
    return result;
}
