/*
 * stdform.h — the standard-form trace line (spec §6): parsing one line into
 * its parts, parsing the resource part on its own (also used by macros and
 * event patterns), and writing the canonical text form.
 *
 *   Line     = "[" Time "]" Event
 *   Event    = Resource "." ( Attribute "=" Value | Behavior "(" Args ")" )
 *   Resource = Name | TypeName "(" Condition ")"
 */
#ifndef TLV_STDFORM_H
#define TLV_STDFORM_H

#include "base/buf.h"
#include "tlv/tlv.h"

#include <stddef.h>

typedef struct std_str {
    const char *s;
    size_t n;
} std_str;

#define STD_MAX_ARGS 64

typedef struct std_line {
    tlv_time time;
    std_str time_text;    /* the time as written, between the brackets */
    std_str resource;     /* Name, or TypeName when has_cond */
    int has_cond;         /* Resource was TypeName(Condition) */
    std_str cond;         /* the Condition text, raw (balanced parentheses) */
    int is_behavior;
    std_str name;         /* attribute or behavior name, trimmed */
    std_str value;        /* attribute value: trimmed, escapes removed */
    size_t nargs;         /* behaviors: number of arguments ("()" = 0) */
    std_str args[STD_MAX_ARGS]; /* trimmed, escapes removed */
} std_line;

/* The last time text parsed and its value: the events of one input line
 * nearly always share their time, so the second parse is a compare. */
typedef struct std_time_memo {
    char text[40];
    size_t n;             /* 0: empty */
    int radix;
    tlv_time time;
} std_time_memo;

/* Parses one line (without its line end). Unescaped text is written into
 * `scratch`, which is cleared first; the std_str fields point into `line`
 * or into `scratch` and are valid until either changes.
 * A leading "\[" and a closing "\]" are accepted for the brackets (templates
 * in .cnv files write them so). Returns 0, or -1 with *why set to a static
 * English phrase such as "expected '[' at the start of the line",
 * "bad time: digit 'z' is not valid in radix 10", "expected '.' between
 * resource and attribute", "unbalanced parentheses in arguments",
 * "expected '=' or '(' after the name". `*col` (1-based byte column) tells
 * where the problem is. */
int std_parse_line(const char *line, size_t len, int radix, std_line *out,
                   buf *scratch, const char **why, size_t *col);
/* Parses only the time prefix of a line, as std_parse_line does: sets *time
 * and *rest (where the resource begins, spaces skipped). Returns 0 or -1
 * (then std_parse_line gives the reason). */
int std_parse_time(const char *line, size_t len, int radix, std_time_memo *memo,
                   tlv_time *time, size_t *rest);

/* The same, using and updating `memo` (zero-initialised before first use). */
int std_parse_line_memo(const char *line, size_t len, int radix, std_line *out,
                        buf *scratch, std_time_memo *memo, const char **why, size_t *col);

/* Parses a resource reference with an optional time prefix, as written in a
 * macro argument: "[T]Type(cond)" or "Name" or "Type(cond)". On success sets
 * has_time/time (when a prefix is present), resource, has_cond, cond, and
 * *rest to the text after the resource (for "$ATTR{X.attr}" the ".attr").
 * Returns 0 or -1 with *why. */
int std_parse_resource_ref(const char *text, size_t len, int radix,
                           int *has_time, tlv_time *time, std_str *resource,
                           int *has_cond, std_str *cond, std_str *rest,
                           const char **why);

/* Appends `s` to b escaping ',' '(' ')' '\' with a backslash. */
int std_escape(buf *b, const char *s, size_t n);

/* Appends s[0, n) with a backslash before each backslash and '$': text
 * that came from a log (a captured group) or a macro's value, put into a
 * standard-form line a conversion template makes, arrives as it was (issue
 * 32.7: "C:\temp\new" became "C:tempnew"), and a '$' in it starts no macro.
 * Not ',' '(' ')': there they are the template's syntax as TLV reads it (a
 * group of "a, b" is two arguments; "${name:esc}" escapes those too).
 * Returns 0, or -1 on no memory (b as before). */
int std_escape_log_text(buf *b, const char *s, size_t n);

/* Appends the canonical line "[time]res.attr=value" (no line end). */
int std_format_attr(buf *b, tlv_time t, int radix, const char *res,
                    const char *attr, const char *value);

/* Appends the canonical line "[time]res.behavior(a,b,c)" (no line end). */
int std_format_behavior(buf *b, tlv_time t, int radix, const char *res,
                        const char *behavior, const char *const *args,
                        size_t nargs);

/* The same lines without "[time]": "res.attr=value", "res.behavior(a,b,c)"
 * (a line is "[" time "]" then this; the converter keeps the tails of the
 * event texts it remembers, evcache.h). */
int std_format_attr_tail(buf *b, const char *res, const char *attr, const char *value);
int std_format_behavior_tail(buf *b, const char *res, const char *behavior,
                             const char *const *args, size_t nargs);

#endif
