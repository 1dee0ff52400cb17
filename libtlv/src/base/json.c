/*
 * json.c — the "TLV JSON" reader (spec §2): turns the bytes of a rule or
 * resource file into a tj_node tree with positions, and reports the first
 * problem with its line, column and what was expected. Also owns freeing and
 * looking up members of that tree.
 *
 * The parser is recursive descent, but recursion is bounded by TJ_MAX_DEPTH,
 * so hostile input cannot overflow the stack; tj_free is iterative.
 */
#include "base/json.h"

#include "base/buf.h"
#include "base/intern.h"

#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct parser {
    const unsigned char *p, *end;
    long line, col;  /* position of *p */
    int after_cr;    /* last byte consumed was CR: an LF now completes CRLF */
    int depth;       /* containers currently open */
    buf scratch;     /* decoded text of the string being read */
    tj_error *err;
    int failed;      /* only the first problem is reported */
} parser;

/* ---- position tracking and error reporting --------------------------------- */

/* Consumes one byte. Columns count code points, so UTF-8 continuation bytes do
 * not advance them; CR, LF and CRLF each end exactly one line. */
static void advance(parser *ps)
{
    unsigned char c = *ps->p++;
    if (c == '\r') {
        ps->line++;
        ps->col = 1;
        ps->after_cr = 1;
        return;
    }
    if (c == '\n') {
        if (!ps->after_cr)
            ps->line++;
        ps->col = 1;
    } else if ((c & 0xC0) != 0x80) {
        ps->col++;
    }
    ps->after_cr = 0;
}

static int at_end(const parser *ps) { return ps->p >= ps->end; }

/* The current byte, or -1 at end of input. */
static int peek(const parser *ps) { return at_end(ps) ? -1 : *ps->p; }

static void fail_at(parser *ps, long line, long col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void fail_at(parser *ps, long line, long col, const char *fmt, ...)
{
    if (ps->failed)
        return;
    ps->failed = 1;
    ps->err->line = line;
    ps->err->col = col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ps->err->message, sizeof ps->err->message, fmt, ap);
    va_end(ap);
}

static void fail_nomem(parser *ps) { fail_at(ps, ps->line, ps->col, "out of memory while reading JSON"); }

/* Length of the UTF-8 sequence starting at p, or 0 when it is malformed or
 * truncated; used only to quote a whole character in messages. */
static size_t utf8_seq_len(const unsigned char *p, const unsigned char *end)
{
    size_t n = *p >= 0xF0 && *p <= 0xF4 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC2 ? 2 : 0;
    if (n == 0 || (size_t)(end - p) < n)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

/* Describes the character at the current position for "found ..." parts:
 * quoted when printable, "end of file" at the end, a code otherwise. */
static void describe_found(const parser *ps, char *out, size_t size)
{
    if (at_end(ps)) {
        snprintf(out, size, "end of file");
        return;
    }
    unsigned char c = *ps->p;
    if (c < 0x20 || c == 0x7F) {
        snprintf(out, size, "control character U+%04X", c);
    } else if (c < 0x80) {
        snprintf(out, size, "'%c'", c);
    } else {
        size_t n = utf8_seq_len(ps->p, ps->end);
        if (n)
            snprintf(out, size, "'%.*s'", (int)n, (const char *)ps->p);
        else
            snprintf(out, size, "invalid UTF-8 byte 0x%02X", c);
    }
}

/* Reports "expected <what>, found <current character>" at the current spot. */
static void fail_expected(parser *ps, const char *what)
{
    char found[48];
    describe_found(ps, found, sizeof found);
    fail_at(ps, ps->line, ps->col, "expected %s, found %s", what, found);
}

static void skip_space(parser *ps)
{
    while (!at_end(ps)) {
        unsigned char c = *ps->p;
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return;
        advance(ps);
    }
}

/* Hand-written files have trailing commas and empty elements (",,"); a run of
 * commas is one separator, and one before a closing bracket is harmless. */
static void skip_space_and_commas(parser *ps)
{
    for (skip_space(ps); peek(ps) == ','; skip_space(ps))
        advance(ps);
}

/* ---- nodes --------------------------------------------------------------- */

static tj_node *new_node(parser *ps, tj_type type, long line, long col)
{
    tj_node *n = calloc(1, sizeof *n);
    if (!n) {
        fail_nomem(ps);
        return NULL;
    }
    n->type = type;
    n->line = line;
    n->col = col;
    return n;
}

/* A NUL-terminated heap copy of n bytes that may themselves contain NULs. */
static char *copy_bytes(parser *ps, const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d) {
        fail_nomem(ps);
        return NULL;
    }
    if (n)
        memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

/* ---- strings ------------------------------------------------------------- */

/* Reads the four hex digits after "\u" (the parser is at the first digit). */
static long read_hex4(parser *ps)
{
    if (ps->end - ps->p < 4)
        return -1;
    long v = 0;
    for (int i = 0; i < 4; i++) {
        int d = hex_digit_value((unsigned char)ps->p[i]);
        if (d < 0)
            return -1;
        v = v * 16 + d;
    }
    for (int i = 0; i < 4; i++)
        advance(ps);
    return v;
}

static int put_utf8(buf *b, unsigned long cp)
{
    char s[4];
    size_t n;
    if (cp < 0x80) {
        s[0] = (char)cp;
        n = 1;
    } else if (cp < 0x800) {
        s[0] = (char)(0xC0 | (cp >> 6));
        s[1] = (char)(0x80 | (cp & 0x3F));
        n = 2;
    } else if (cp < 0x10000) {
        s[0] = (char)(0xE0 | (cp >> 12));
        s[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        s[2] = (char)(0x80 | (cp & 0x3F));
        n = 3;
    } else {
        s[0] = (char)(0xF0 | (cp >> 18));
        s[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        s[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
        s[3] = (char)(0x80 | (cp & 0x3F));
        n = 4;
    }
    return buf_append(b, s, n);
}

/* Decodes a \uXXXX escape (the parser is just past the 'u'), joining a
 * surrogate pair into one code point. (line, col) is the backslash. */
static int decode_unicode_escape(parser *ps, long line, long col)
{
    long cp = read_hex4(ps);
    if (cp < 0) {
        fail_at(ps, line, col, "invalid \\u escape");
        return -1;
    }
    if (cp >= 0xDC00 && cp <= 0xDFFF) {
        fail_at(ps, line, col, "invalid \\u escape: unpaired UTF-16 surrogate");
        return -1;
    }
    if (cp >= 0xD800 && cp <= 0xDBFF) {
        long low = -1;
        if (ps->end - ps->p >= 2 && ps->p[0] == '\\' && ps->p[1] == 'u') {
            advance(ps);
            advance(ps);
            low = read_hex4(ps);
        }
        if (low < 0xDC00 || low > 0xDFFF) {
            fail_at(ps, line, col, "invalid \\u escape: unpaired UTF-16 surrogate");
            return -1;
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (cp == 0) {
        /* Every name and text of the rules is a C string: a NUL would cut it
         * silently, and no rule needs one. */
        fail_at(ps, line, col, "\\u0000 (NUL) inside a string; a name or text cannot hold one");
        return -1;
    }
    if (put_utf8(&ps->scratch, (unsigned long)cp) < 0) {
        fail_nomem(ps);
        return -1;
    }
    return 0;
}

/* Decodes one backslash sequence (the parser is at the backslash). Sequences
 * JSON does not define stay as written: .cnv regexes rely on "\d", "\[". */
static int decode_escape(parser *ps, long open_line, long open_col)
{
    long line = ps->line, col = ps->col;
    advance(ps);
    if (at_end(ps)) {
        fail_at(ps, open_line, open_col, "unterminated string");
        return -1;
    }
    unsigned char c = *ps->p;
    char out;
    switch (c) {
    case '"': case '\\': case '/': out = (char)c; break;
    case 'b': out = '\b'; break;
    case 'f': out = '\f'; break;
    case 'n': out = '\n'; break;
    case 'r': out = '\r'; break;
    case 't': out = '\t'; break;
    case 'u':
        advance(ps);
        return decode_unicode_escape(ps, line, col);
    default:
        /* Keep only the backslash; the character itself is copied by the
         * caller's plain-text loop, which also tracks lines and columns. */
        if (buf_putc(&ps->scratch, '\\') < 0) {
            fail_nomem(ps);
            return -1;
        }
        return 0;
    }
    advance(ps);
    if (buf_putc(&ps->scratch, out) < 0) {
        fail_nomem(ps);
        return -1;
    }
    return 0;
}

/* The escape to write instead of a raw control character, for messages. */
static const char *control_escape(unsigned char c)
{
    switch (c) {
    case '\t': return "\\t";
    case '\b': return "\\b";
    case '\f': return "\\f";
    }
    return NULL;
}

/* A raw control character (U+0000-U+001F) inside a string is an error, as in
 * JSON: a NUL would silently cut the name or text there (a resource key
 * "blink<NUL>X" replaced "blink"). A line end inside a string is far more
 * often a missing quote than a wish, so it is reported at the opening
 * quote. */
static void fail_control(parser *ps, long open_line, long open_col)
{
    unsigned char c = *ps->p;
    const char *esc = control_escape(c);
    if (c == '\n' || c == '\r')
        fail_at(ps, open_line, open_col,
                "unterminated string: its line ends before the closing quote (a line end "
                "inside a string is written \\n)");
    else if (c == 0)
        fail_at(ps, ps->line, ps->col,
                "a NUL byte (U+0000) inside a string; a name or text cannot hold one");
    else if (esc)
        fail_at(ps, ps->line, ps->col,
                "control character U+%04X inside a string; write it as %s", c, esc);
    else
        fail_at(ps, ps->line, ps->col,
                "control character U+%04X inside a string; write it as \\u%04X", c, c);
}

/* Reads a string (the parser is at its opening quote) into ps->scratch. */
static int read_string(parser *ps)
{
    long open_line = ps->line, open_col = ps->col;
    buf_clear(&ps->scratch);
    advance(ps);
    for (;;) {
        const unsigned char *run = ps->p;
        while (!at_end(ps) && *ps->p != '"' && *ps->p != '\\' && *ps->p >= 0x20)
            advance(ps);
        if (ps->p > run && buf_append(&ps->scratch, (const char *)run,
                                      (size_t)(ps->p - run)) < 0) {
            fail_nomem(ps);
            return -1;
        }
        if (at_end(ps)) {
            fail_at(ps, open_line, open_col, "unterminated string");
            return -1;
        }
        if (*ps->p < 0x20) {
            fail_control(ps, open_line, open_col);
            return -1;
        }
        if (*ps->p == '"') {
            advance(ps);
            return 0;
        }
        if (decode_escape(ps, open_line, open_col) < 0)
            return -1;
    }
}

static tj_node *parse_string(parser *ps)
{
    tj_node *n = new_node(ps, TJ_STRING, ps->line, ps->col);
    if (!n || read_string(ps) < 0) {
        free(n);
        return NULL;
    }
    n->str_len = ps->scratch.len;
    n->str = copy_bytes(ps, buf_str(&ps->scratch), ps->scratch.len);
    if (!n->str) {
        free(n);
        return NULL;
    }
    return n;
}

/* ---- numbers and literals ------------------------------------------------- */

static int is_digit(int c) { return c >= '0' && c <= '9'; }

static int is_name_char(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* Characters that cannot directly follow a number: they would make it some
 * other token ("0x10", "1.2.3", "01", "1-2"). */
static int continues_number(int c)
{
    return is_name_char(c) || c == '.' || c == '+' || c == '-';
}

/* Consumes a run of digits; returns 0 when there was none. */
static int skip_digits(parser *ps)
{
    int any = 0;
    while (is_digit(peek(ps))) {
        advance(ps);
        any = 1;
    }
    return any;
}

/* Checks the number syntax of JSON, leaving the parser after the number. */
static int scan_number(parser *ps)
{
    if (peek(ps) == '-')
        advance(ps);
    if (peek(ps) == '0') {
        advance(ps);
    } else if (!skip_digits(ps)) {
        fail_expected(ps, "a digit after '-'");
        return -1;
    }
    if (peek(ps) == '.') {
        advance(ps);
        if (!skip_digits(ps)) {
            fail_expected(ps, "a digit after the decimal point");
            return -1;
        }
    }
    if (peek(ps) == 'e' || peek(ps) == 'E') {
        advance(ps);
        if (peek(ps) == '+' || peek(ps) == '-')
            advance(ps);
        if (!skip_digits(ps)) {
            fail_expected(ps, "a digit in the exponent");
            return -1;
        }
    }
    /* "0x10", "1.2.3", "01": say so here rather than blame the container. */
    if (continues_number(peek(ps))) {
        fail_expected(ps, "a delimiter after the number");
        return -1;
    }
    return 0;
}

/* strtod follows LC_NUMERIC; a program that called setlocale() may use ','
 * as the decimal point, so the JSON '.' is translated first. */
static double number_value(const char *text, int *nomem)
{
    const char *point = localeconv()->decimal_point;
    const char *dot = strchr(text, '.');
    if (!dot || !point || strcmp(point, ".") == 0)
        return strtod(text, NULL);
    buf local = BUF_INIT;
    if (buf_append(&local, text, (size_t)(dot - text)) < 0 ||
        buf_puts(&local, point) < 0 || buf_puts(&local, dot + 1) < 0) {
        buf_free(&local);
        *nomem = 1;
        return 0;
    }
    double v = strtod(local.data, NULL);
    buf_free(&local);
    return v;
}

static tj_node *parse_number(parser *ps)
{
    long line = ps->line, col = ps->col;
    const unsigned char *start = ps->p;
    if (scan_number(ps) < 0)
        return NULL;
    tj_node *n = new_node(ps, TJ_NUMBER, line, col);
    if (!n)
        return NULL;
    n->str_len = (size_t)(ps->p - start);
    n->str = copy_bytes(ps, (const char *)start, n->str_len);
    int nomem = 0;
    if (n->str)
        n->num = number_value(n->str, &nomem);
    if (!n->str || nomem) {
        if (nomem)
            fail_nomem(ps);
        tj_free(n);
        return NULL;
    }
    if (isinf(n->num)) {
        fail_at(ps, line, col, "number out of range");
        tj_free(n);
        return NULL;
    }
    return n;
}

/* true / false / null; returns NULL without reporting when the word is not
 * one of them, so the caller can say what it expected. */
static tj_node *parse_literal(parser *ps)
{
    static const struct { const char *word; tj_type type; } literals[] = {
        {"true", TJ_TRUE}, {"false", TJ_FALSE}, {"null", TJ_NULL},
    };
    size_t avail = (size_t)(ps->end - ps->p);
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        size_t n = strlen(literals[i].word);
        if (avail < n || memcmp(ps->p, literals[i].word, n) != 0)
            continue;
        if (avail > n && is_name_char(ps->p[n]))
            return NULL; /* "nullable", "true1": not a literal at all */
        tj_node *node = new_node(ps, literals[i].type, ps->line, ps->col);
        if (!node)
            return NULL;
        node->str = copy_bytes(ps, literals[i].word, n);
        if (!node->str) {
            free(node);
            return NULL;
        }
        node->str_len = n;
        ps->p += n; /* ASCII only, so the column moves by n */
        ps->col += (long)n;
        ps->after_cr = 0;
        return node;
    }
    return NULL;
}

/* ---- containers ----------------------------------------------------------- */

static tj_node *parse_value(parser *ps, const char *expected);

/* Opens a container at the current bracket, enforcing the depth limit that
 * keeps the recursion bounded. */
static tj_node *open_container(parser *ps, tj_type type)
{
    if (ps->depth >= TJ_MAX_DEPTH) {
        fail_at(ps, ps->line, ps->col, "nesting deeper than %d levels", TJ_MAX_DEPTH);
        return NULL;
    }
    tj_node *n = new_node(ps, type, ps->line, ps->col);
    if (!n)
        return NULL;
    ps->depth++;
    advance(ps);
    return n;
}

static void close_container(parser *ps)
{
    ps->depth--;
    advance(ps);
}

static void append_child(tj_node *parent, tj_node **tail, tj_node *child)
{
    if (*tail)
        (*tail)->next = child;
    else
        parent->child = child;
    *tail = child;
    parent->count++;
}

/* Reads `"name" : value` (the parser is at the name's opening quote). */
static tj_node *parse_member(parser *ps)
{
    long key_line = ps->line, key_col = ps->col;
    if (read_string(ps) < 0)
        return NULL;
    char *key = copy_bytes(ps, buf_str(&ps->scratch), ps->scratch.len);
    if (!key)
        return NULL;
    skip_space(ps);
    if (peek(ps) != ':') {
        fail_expected(ps, "':' after the member name");
        free(key);
        return NULL;
    }
    advance(ps);
    skip_space(ps);
    tj_node *value = parse_value(ps, "a value");
    if (!value) {
        free(key);
        return NULL;
    }
    value->key = key;
    value->key_line = key_line;
    value->key_col = key_col;
    return value;
}

/* A member's place for sorting: its key (by a hash first, so that most
 * comparisons are of two numbers, not two strings scattered in memory), then
 * its position in the object. */
typedef struct member_ref {
    uint64_t hash;
    const char *key;
    size_t index;
    tj_node *node;
} member_ref;

static int cmp_member_ref(const void *a, const void *b)
{
    const member_ref *x = a, *y = b;
    if (x->hash != y->hash)
        return x->hash < y->hash ? -1 : 1;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Links a member to the next later one with the same key (found, as the
 * keys' order does, before any other with that key). */
static void link_duplicate(tj_node *first, tj_node *later)
{
    first->shadowed = 1;
    later->earlier = first;
}

/* Objects this small are compared pairwise: no allocation, few compares. */
#define TJ_PAIRWISE_MAX 8

/* Marks every member a later member of the same object overrides and links
 * each to the previous one with its key, once per object, so that
 * tj_shadowed is constant time. Sorting by (key, position) makes this
 * O(n log n): scanning the later siblings of each member made a million
 * resources take hours. */
static int mark_duplicates(parser *ps, tj_node *obj)
{
    size_t n = obj->count;
    if (n < 2)
        return 0;
    if (n <= TJ_PAIRWISE_MAX) {
        for (tj_node *m = obj->child; m; m = m->next)
            for (tj_node *l = m->next; l; l = l->next)
                if (strcmp(l->key, m->key) == 0) {
                    link_duplicate(m, l);
                    break;
                }
        return 0;
    }
    member_ref *refs = malloc(n * sizeof *refs);
    if (!refs) {
        fail_nomem(ps);
        return -1;
    }
    size_t i = 0;
    for (tj_node *m = obj->child; m; m = m->next, i++)
        refs[i] = (member_ref){hash_fast(m->key, strlen(m->key)), m->key, i, m};
    qsort(refs, n, sizeof *refs, cmp_member_ref);
    for (i = 0; i + 1 < n; i++)
        if (refs[i].hash == refs[i + 1].hash && strcmp(refs[i].key, refs[i + 1].key) == 0)
            link_duplicate(refs[i].node, refs[i + 1].node);
    free(refs);
    return 0;
}

static tj_node *parse_object(parser *ps)
{
    tj_node *obj = open_container(ps, TJ_OBJECT), *tail = NULL;
    if (!obj)
        return NULL;
    skip_space_and_commas(ps);
    while (peek(ps) != '}') {
        if (peek(ps) != '"') {
            fail_expected(ps, "a quoted member name or '}'");
            goto fail;
        }
        tj_node *member = parse_member(ps);
        if (!member)
            goto fail;
        append_child(obj, &tail, member);
        skip_space(ps);
        if (peek(ps) == ',') {
            skip_space_and_commas(ps);
        } else if (peek(ps) != '}') {
            fail_expected(ps, "',' or '}' after an object member");
            goto fail;
        }
    }
    close_container(ps);
    if (mark_duplicates(ps, obj) < 0)
        goto fail;
    return obj;
fail:
    tj_free(obj);
    return NULL;
}

static tj_node *parse_array(parser *ps)
{
    tj_node *arr = open_container(ps, TJ_ARRAY), *tail = NULL;
    if (!arr)
        return NULL;
    skip_space_and_commas(ps);
    while (peek(ps) != ']') {
        tj_node *elem = parse_value(ps, "a value or ']'");
        if (!elem)
            goto fail;
        append_child(arr, &tail, elem);
        skip_space(ps);
        if (peek(ps) == ',') {
            skip_space_and_commas(ps);
        } else if (peek(ps) != ']') {
            fail_expected(ps, "',' or ']' after an array element");
            goto fail;
        }
    }
    close_container(ps);
    return arr;
fail:
    tj_free(arr);
    return NULL;
}

/* Parses the value at the current position; `expected` names what the
 * context allows, for the message when no value starts here. */
static tj_node *parse_value(parser *ps, const char *expected)
{
    int c = peek(ps);
    if (c == '{')
        return parse_object(ps);
    if (c == '[')
        return parse_array(ps);
    if (c == '"')
        return parse_string(ps);
    if (c == '-' || is_digit(c))
        return parse_number(ps);
    if (c == 't' || c == 'f' || c == 'n') {
        tj_node *n = parse_literal(ps);
        if (n || ps->failed)
            return n;
    }
    fail_expected(ps, expected);
    return NULL;
}

/* ---- public API ------------------------------------------------------------ */

tj_node *tj_parse(const char *text, size_t len, tj_error *err)
{
    tj_error ignored;
    parser ps = {0};
    ps.err = err ? err : &ignored;
    ps.err->line = ps.err->col = 0;
    ps.err->message[0] = '\0';
    ps.p = (const unsigned char *)(text ? text : "");
    ps.end = ps.p + (text ? len : 0);
    ps.line = ps.col = 1;
    if (ps.end - ps.p >= 3 && memcmp(ps.p, "\xEF\xBB\xBF", 3) == 0)
        ps.p += 3; /* the BOM is not a character of line 1 */

    skip_space(&ps);
    tj_node *root = parse_value(&ps, "a value");
    if (root) {
        skip_space(&ps);
        if (!at_end(&ps)) {
            fail_at(&ps, ps.line, ps.col, "unexpected text after the end of the document");
            tj_free(root);
            root = NULL;
        }
    }
    buf_free(&ps.scratch);
    return root;
}

/* Iterative so that freeing never depends on the tree's depth: each node's
 * children are spliced into the list of nodes still to free. */
void tj_free(tj_node *root)
{
    if (!root)
        return;
    tj_node *pending = root->child;
    free(root->key);
    free(root->str);
    free(root);
    while (pending) {
        tj_node *n = pending;
        if (n->child) {
            tj_node *last = n->child;
            while (last->next)
                last = last->next;
            last->next = n->next;
            n->next = n->child;
        }
        pending = n->next;
        free(n->key);
        free(n->str);
        free(n);
    }
}

const tj_node *tj_get(const tj_node *obj, const char *key)
{
    if (!obj || obj->type != TJ_OBJECT || !key)
        return NULL;
    const tj_node *found = NULL;
    for (const tj_node *m = obj->child; m; m = m->next)
        if (m->key && strcmp(m->key, key) == 0)
            found = m;
    return found;
}

int tj_shadowed(const tj_node *member)
{
    return member && member->key && member->shadowed;
}

const char *tj_type_name(tj_type t)
{
    switch (t) {
    case TJ_NULL: return "null";
    case TJ_FALSE:
    case TJ_TRUE: return "a boolean";
    case TJ_NUMBER: return "a number";
    case TJ_STRING: return "a string";
    case TJ_ARRAY: return "an array";
    case TJ_OBJECT: return "an object";
    }
    return "a value";
}
