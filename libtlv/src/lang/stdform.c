/*
 * stdform.c — the standard-form trace line (spec §6; contract in stdform.h):
 * the line parser, the resource-reference parser shared with macros and
 * event patterns, and the canonical writer.
 *
 * The parser makes one left-to-right pass and points into the line wherever
 * the text can be used as written. Only a line that holds a backslash has
 * text unescaped into the scratch buffer, whose room is reserved once per
 * line so that no pointer into it moves while the line is parsed.
 */
#include "lang/stdform.h"

#include <string.h>

/* A position in the text being parsed and, on failure, what went wrong and
 * where (0-based). */
typedef struct cursor {
    const char *s;
    size_t len;
    size_t pos;
    const char *why;
    size_t err_pos;
} cursor;

static int fail_at(cursor *c, size_t pos, const char *why)
{
    c->why = why;
    c->err_pos = pos;
    return -1;
}

static int is_space(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v' || ch == '\f';
}

/* Spec §6: a Name is made of anything but ( ) . [ ] and whitespace. */
static int is_name_char(char ch)
{
    return ch != '(' && ch != ')' && ch != '.' && ch != '[' && ch != ']' && !is_space(ch);
}

static void skip_spaces(cursor *c)
{
    while (c->pos < c->len && is_space(c->s[c->pos]))
        c->pos++;
}

static int at(const cursor *c, char ch) { return c->pos < c->len && c->s[c->pos] == ch; }

static std_str str_of(const char *s, size_t n)
{
    std_str r = {s, n};
    return r;
}

/* ------------------------------------------------------------------------ */
/* Unescaping                                                                */

/* Trims the piece and removes its escapes. An escaped space is text, so it
 * survives the trimming. A piece without a backslash is returned in place;
 * otherwise it is written to scratch, whose room the caller has reserved. */
static std_str clean_piece(const char *s, size_t n, int line_has_escapes, buf *scratch)
{
    while (n > 0 && is_space(*s))
        s++, n--;
    if (!line_has_escapes || !memchr(s, '\\', n)) {
        while (n > 0 && is_space(s[n - 1]))
            n--;
        return str_of(s, n);
    }
    char *out = scratch->data + scratch->len;
    size_t k = 0, keep = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\\' && i + 1 < n) { /* a lone final backslash stays as is */
            out[k++] = s[++i];
            keep = k;
            continue;
        }
        out[k++] = s[i];
        if (!is_space(s[i]))
            keep = k;
    }
    scratch->len += keep;
    scratch->data[scratch->len] = '\0';
    return str_of(out, keep);
}

/* ------------------------------------------------------------------------ */
/* Time prefix                                                               */

/* Length of the opening "[" or "\[" at the cursor, 0 when there is none. */
static size_t opening_bracket(const cursor *c)
{
    if (at(c, '['))
        return 1;
    if (at(c, '\\') && c->pos + 1 < c->len && c->s[c->pos + 1] == '[')
        return 2;
    return 0;
}

static int digit_in_radix(char ch, int radix)
{
    int d = -1;
    if (ch >= '0' && ch <= '9')
        d = ch - '0';
    else if (ch >= 'a' && ch <= 'z')
        d = ch - 'a' + 10;
    else if (ch >= 'A' && ch <= 'Z')
        d = ch - 'A' + 10;
    return d >= 0 && d < radix;
}

/* Where an "invalid digit" time went wrong, so the column can point at it. */
static size_t bad_digit_offset(const char *t, size_t n, int radix)
{
    size_t i = n > 0 && t[0] == '-';
    int seen_point = 0;
    for (; i < n; i++) {
        if (t[i] == '.' && !seen_point)
            seen_point = 1;
        else if (!digit_in_radix(t[i], radix))
            return i;
    }
    return 0;
}

/* tlv_time_parse's reasons, prefixed for a reader who sees a whole line. */
static const char *bad_time_reason(const char *why)
{
    static const char *const reasons[][2] = {
        {"empty time", "bad time: empty time"},
        {"time has no digits", "bad time: time has no digits"},
        {"invalid digit for the radix", "bad time: invalid digit for the radix"},
        {"time does not fit in 64 bits", "bad time: time does not fit in 64 bits"},
        {"too many fraction digits", "bad time: too many fraction digits"},
        {"radix must be between 2 and 36", "bad time: radix must be between 2 and 36"},
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (why && strcmp(why, reasons[i][0]) == 0)
            return reasons[i][1];
    return "bad time";
}

/* Reads "[" Time "]" (either bracket may be backslash-escaped, as templates
 * write them), with whitespace tolerated inside the brackets and after. */
static int parse_time_prefix(cursor *c, int radix, tlv_time *t, std_str *text,
                             std_time_memo *memo)
{
    size_t open = opening_bracket(c);
    if (!open)
        return fail_at(c, c->pos, "expected '[' at the start of the line");
    size_t start = c->pos + open;
    const char *close = memchr(c->s + start, ']', c->len - start);
    if (!close)
        return fail_at(c, c->len, "expected ']' after the time");
    size_t end = (size_t)(close - c->s);
    size_t after = end + 1;
    if (end > start && c->s[end - 1] == '\\')
        end--;
    while (start < end && is_space(c->s[start]))
        start++;
    while (end > start && is_space(c->s[end - 1]))
        end--;

    const char *why = NULL;
    size_t n = end - start;
    if (memo && memo->n == n && memo->radix == radix && memcmp(memo->text, c->s + start, n) == 0) {
        *t = memo->time;
    } else if (tlv_time_parse(c->s + start, n, radix, t, &why) != TLV_OK) {
        size_t where = start;
        if (why && strcmp(why, "invalid digit for the radix") == 0)
            where += bad_digit_offset(c->s + start, end - start, radix);
        return fail_at(c, where, bad_time_reason(why));
    } else if (memo && n > 0 && n <= sizeof memo->text) {
        memcpy(memo->text, c->s + start, n);
        memo->n = n;
        memo->radix = radix;
        memo->time = *t;
    }
    *text = str_of(c->s + start, end - start);
    c->pos = after;
    skip_spaces(c);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Resource                                                                  */

/* The ')' that closes the '(' at `open`, honouring escapes; 0 when none
 * (0 can never be a closing position). */
static size_t matching_paren(const char *s, size_t len, size_t open)
{
    size_t depth = 0;
    for (size_t i = open + 1; i < len; i++) {
        char ch = s[i];
        if (ch == '\\')
            i++;
        else if (ch == '(')
            depth++;
        else if (ch == ')' && depth-- == 0)
            return i;
    }
    return 0;
}

/* Reads Name or TypeName "(" Condition ")". */
static int parse_resource(cursor *c, std_str *resource, int *has_cond, std_str *cond)
{
    size_t start = c->pos;
    while (c->pos < c->len && is_name_char(c->s[c->pos]))
        c->pos++;
    if (c->pos == start)
        return fail_at(c, start, "expected a resource name");
    *resource = str_of(c->s + start, c->pos - start);
    *has_cond = at(c, '(');
    if (!*has_cond) {
        *cond = str_of(c->s + c->pos, 0);
        return 0;
    }
    size_t close = matching_paren(c->s, c->len, c->pos);
    if (!close)
        return fail_at(c, c->pos, "unbalanced parentheses in the resource condition");
    *cond = str_of(c->s + c->pos + 1, close - c->pos - 1);
    c->pos = close + 1;
    return 0;
}

static int expect_dot(cursor *c)
{
    size_t resource_end = c->pos;
    skip_spaces(c);
    if (!at(c, '.'))
        return fail_at(c, resource_end, "expected '.' between resource and attribute");
    c->pos++;
    skip_spaces(c);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Attribute value or behavior arguments                                     */

static int add_arg(cursor *c, std_line *out, size_t start, size_t end, int escapes,
                   buf *scratch)
{
    if (out->nargs == STD_MAX_ARGS)
        return fail_at(c, start, "too many arguments");
    out->args[out->nargs++] = clean_piece(c->s + start, end - start, escapes, scratch);
    return 0;
}

/* Reads "(" Args ")" up to the end of the line. Commas split arguments only
 * outside nested parentheses, so enterSVC(act_tsk(a,b),x) has two. */
static int parse_args(cursor *c, std_line *out, int escapes, buf *scratch)
{
    size_t open = c->pos, arg_start = open + 1, depth = 0, i;
    for (i = open + 1; i < c->len; i++) {
        char ch = c->s[i];
        if (ch == '\\') {
            i++;
        } else if (ch == '(') {
            depth++;
        } else if (ch == ')') {
            if (depth == 0)
                break;
            depth--;
        } else if (ch == ',' && depth == 0) {
            if (add_arg(c, out, arg_start, i, escapes, scratch) < 0)
                return -1;
            arg_start = i + 1;
        }
    }
    if (i >= c->len)
        return fail_at(c, open, "unbalanced parentheses in arguments");
    if (add_arg(c, out, arg_start, i, escapes, scratch) < 0)
        return -1;
    if (out->nargs == 1 && out->args[0].n == 0) /* "()" and "( )" have none */
        out->nargs = 0;

    c->pos = i + 1;
    skip_spaces(c);
    if (c->pos < c->len)
        return fail_at(c, c->pos, c->s[c->pos] == ')' ? "unbalanced parentheses in arguments"
                                                      : "unexpected text after ')'");
    return 0;
}

/* Reads Attribute "=" Value or Behavior "(" Args ")". */
static int parse_event(cursor *c, std_line *out, int escapes, buf *scratch)
{
    size_t start = c->pos;
    while (c->pos < c->len && is_name_char(c->s[c->pos]) && c->s[c->pos] != '=')
        c->pos++;
    if (c->pos == start)
        return fail_at(c, start, "expected an attribute or behavior name");
    out->name = str_of(c->s + start, c->pos - start);
    skip_spaces(c);
    out->nargs = 0;
    if (at(c, '=')) {
        out->is_behavior = 0;
        out->value = clean_piece(c->s + c->pos + 1, c->len - c->pos - 1, escapes, scratch);
        return 0;
    }
    if (at(c, '(')) {
        out->is_behavior = 1;
        out->value = str_of(c->s + c->pos, 0);
        return parse_args(c, out, escapes, scratch);
    }
    return fail_at(c, c->pos, "expected '=' or '(' after the name");
}

/* ------------------------------------------------------------------------ */
/* Public parsers                                                            */

static int report(const cursor *c, const char **why, size_t *col)
{
    if (why)
        *why = c->why;
    if (col)
        *col = c->err_pos + 1;
    return -1;
}

int std_parse_time(const char *line, size_t len, int radix, std_time_memo *memo,
                   tlv_time *time, size_t *rest)
{
    cursor c = {line, len, 0, NULL, 0};
    std_str text;
    skip_spaces(&c);
    if (c.pos == len || parse_time_prefix(&c, radix, time, &text, memo) < 0)
        return -1;
    *rest = c.pos;
    return 0;
}

int std_parse_line(const char *line, size_t len, int radix, std_line *out,
                   buf *scratch, const char **why, size_t *col)
{
    return std_parse_line_memo(line, len, radix, out, scratch, NULL, why, col);
}

int std_parse_line_memo(const char *line, size_t len, int radix, std_line *out,
                        buf *scratch, std_time_memo *memo, const char **why, size_t *col)
{
    cursor c = {line, len, 0, NULL, 0};
    buf_clear(scratch);
    int escapes = len > 0 && memchr(line, '\\', len) != NULL;
    /* Unescaped text is never longer than the line: reserving that much now
     * keeps every pointer into scratch valid for the whole line. */
    if (escapes && buf_reserve(scratch, len) < 0) {
        fail_at(&c, 0, "out of memory");
        return report(&c, why, col);
    }
    skip_spaces(&c);
    if (c.pos == len) {
        fail_at(&c, 0, "empty line");
        return report(&c, why, col);
    }
    if (parse_time_prefix(&c, radix, &out->time, &out->time_text, memo) < 0 ||
        parse_resource(&c, &out->resource, &out->has_cond, &out->cond) < 0 ||
        expect_dot(&c) < 0 || parse_event(&c, out, escapes, scratch) < 0)
        return report(&c, why, col);
    return 0;
}

int std_parse_resource_ref(const char *text, size_t len, int radix,
                           int *has_time, tlv_time *time, std_str *resource,
                           int *has_cond, std_str *cond, std_str *rest,
                           const char **why)
{
    cursor c = {text, len, 0, NULL, 0};
    tlv_time t = {0, 0};
    std_str time_text, res, cnd;
    int timed, conditional;

    skip_spaces(&c);
    timed = opening_bracket(&c) > 0;
    if ((timed && parse_time_prefix(&c, radix, &t, &time_text, NULL) < 0) ||
        parse_resource(&c, &res, &conditional, &cnd) < 0)
        return report(&c, why, NULL);
    if (has_time)
        *has_time = timed;
    if (time)
        *time = t;
    if (resource)
        *resource = res;
    if (has_cond)
        *has_cond = conditional;
    if (cond)
        *cond = cnd;
    if (rest)
        *rest = str_of(text + c.pos, len - c.pos);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */

static int needs_escape(char ch) { return ch == ',' || ch == '(' || ch == ')' || ch == '\\'; }

/* Drops what a failed writer appended, so the buffer is left as it was. */
static int undo(buf *b, size_t mark)
{
    b->len = mark;
    if (b->data)
        b->data[mark] = '\0';
    return -1;
}

int std_escape(buf *b, const char *s, size_t n)
{
    size_t mark = b->len, run = 0;
    for (size_t i = 0; i < n; i++) {
        /* a space at either end would be trimmed when read back */
        if (!needs_escape(s[i]) && !((i == 0 || i == n - 1) && is_space(s[i])))
            continue;
        /* The special character opens the next run, after its backslash. */
        if (buf_append(b, s + run, i - run) < 0 || buf_putc(b, '\\') < 0)
            return undo(b, mark);
        run = i;
    }
    if (buf_append(b, s + run, n - run) < 0)
        return undo(b, mark);
    return 0;
}

int std_escape_log_text(buf *b, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] != '\\' && s[i] != '$')
        i++;
    if (i == n) /* the usual case: nothing to escape, one copy */
        return buf_append(b, s, n);
    size_t mark = b->len, run = 0;
    for (; i < n; i++) {
        if (s[i] != '\\' && s[i] != '$')
            continue;
        if (buf_append(b, s + run, i - run) < 0 || buf_putc(b, '\\') < 0)
            return undo(b, mark);
        run = i; /* the character itself opens the next run */
    }
    if (buf_append(b, s + run, n - run) < 0)
        return undo(b, mark);
    return 0;
}

static int put_text_escaped(buf *b, const char *s)
{
    return s ? std_escape(b, s, strlen(s)) : 0;
}

/* Writes "[time]" — what every line begins with. */
static int put_time(buf *b, tlv_time t, int radix)
{
    char text[160];
    size_t n = tlv_time_format(t, radix, text, sizeof text);
    if (n >= sizeof text)
        return -1;
    if (buf_putc(b, '[') < 0 || buf_append(b, text, n) < 0 || buf_putc(b, ']') < 0)
        return -1;
    return 0;
}

int std_format_attr_tail(buf *b, const char *res, const char *attr, const char *value)
{
    size_t mark = b->len;
    if (buf_puts(b, res ? res : "") < 0 || buf_putc(b, '.') < 0 ||
        buf_puts(b, attr ? attr : "") < 0 || buf_putc(b, '=') < 0 ||
        put_text_escaped(b, value) < 0)
        return undo(b, mark);
    return 0;
}

int std_format_behavior_tail(buf *b, const char *res, const char *behavior,
                             const char *const *args, size_t nargs)
{
    size_t mark = b->len;
    if (buf_puts(b, res ? res : "") < 0 || buf_putc(b, '.') < 0 ||
        buf_puts(b, behavior ? behavior : "") < 0 || buf_putc(b, '(') < 0)
        return undo(b, mark);
    for (size_t i = 0; i < nargs; i++) {
        if ((i > 0 && buf_putc(b, ',') < 0) || put_text_escaped(b, args[i]) < 0)
            return undo(b, mark);
    }
    if (buf_putc(b, ')') < 0)
        return undo(b, mark);
    return 0;
}

int std_format_attr(buf *b, tlv_time t, int radix, const char *res,
                    const char *attr, const char *value)
{
    size_t mark = b->len;
    if (put_time(b, t, radix) < 0 || std_format_attr_tail(b, res, attr, value) < 0)
        return undo(b, mark);
    return 0;
}

int std_format_behavior(buf *b, tlv_time t, int radix, const char *res,
                        const char *behavior, const char *const *args,
                        size_t nargs)
{
    size_t mark = b->len;
    if (put_time(b, t, radix) < 0 || std_format_behavior_tail(b, res, behavior, args, nargs) < 0)
        return undo(b, mark);
    return 0;
}
