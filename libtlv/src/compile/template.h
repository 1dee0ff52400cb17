/*
 * template.h — conversion templates: the output strings of .cnv rules, with
 * .NET Regex.Replace substitutions ($1, ${name}, $$, $&, $`, $', $+, $_),
 * parsed once per rule and expanded for every matching line exactly as
 * Regex.Replace(line, pattern, template) would (spec §8).
 */
#ifndef TLV_TEMPLATE_H
#define TLV_TEMPLATE_H

#include "base/buf.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stddef.h>

typedef enum seg_kind {
    SEG_LITERAL, SEG_GROUP, SEG_MATCH, SEG_BEFORE, SEG_AFTER, SEG_LAST_GROUP, SEG_INPUT
} seg_kind;

typedef struct tmpl_seg {
    seg_kind kind;
    size_t off, len;   /* SEG_LITERAL: bytes of tmpl.text; SEG_GROUP: entries of
                          tmpl.groups (several when a name is used by several
                          groups, PCRE2_DUPNAMES: the last one set is used) */
    unsigned group;    /* SEG_GROUP: the .NET group number */
    int top;           /* substituted outside every macro call of a std_line
                          template (tmpl_mark_std_line): its backslashes are
                          escaped (all of \\ , ( ) [ ] { } $ with ":esc") */
    unsigned char escape; /* SEG_GROUP written "${name:esc}" (a tlv extension):
                          the group's text with '\\' before each of
                          \ , ( ) [ ] { } $ — one value or argument of the
                          standard form whatever it holds, never a macro */
} tmpl_seg;

typedef struct tmpl {
    char *text;        /* the template as written (after JSON decoding) */
    size_t len;
    tmpl_seg *segs;
    size_t nsegs;
    unsigned *groups;  /* PCRE2 group numbers referenced by SEG_GROUP segments */
    size_t ngroups;
    char **unknown;    /* ${name} references to no group of the regex (kept literal) */
    size_t nunknown;
    struct xplan *plan; /* the template with its macros, compiled (expand.h); or NULL */
    void (*free_plan)(struct xplan *); /* set with plan, by whoever made it */
    size_t plan_site0;  /* xplan_first_site(plan), at hand for every line */
    int std_line;       /* makes a standard-form line: the log's text and macro
                           values put outside macro calls are escaped
                           (std_escape_log_text), so they arrive as they were */
} tmpl;

/* Parses `text` for a rule whose regex is `re` (group names and count come
 * from it). Returns 0 or -1 (no memory). */
int tmpl_compile(tmpl *t, const char *text, size_t len, const pcre2_code *re);

/* Marks a compiled template as one whose expansion is a standard-form line
 * (a .cnv output, not a condition): sets std_line and each substituted
 * segment's `top`, from the template's own macro calls ($NAME{...}). Call
 * before xplan_build. */
void tmpl_mark_std_line(tmpl *t);

/* Appends text of the log (or a macro's value) that a std_line template puts
 * outside macro calls: escaped when t->std_line, else as it is. */
int tmpl_put_text(const tmpl *t, buf *out, const char *s, size_t n);
void tmpl_free(tmpl *t);

/* The matches of one regex in one line: ovector pairs, one per match. */
typedef struct match_list {
    PCRE2_SIZE *ov;    /* 2 * (ngroups + 1) entries per match */
    size_t nmatch, cap;
    unsigned ngroups;  /* capture groups, not counting group 0 */
} match_list;

/* Finds every non-overlapping match of `re` in the subject, as
 * Regex.Replace does (after an empty match the next search starts one
 * character later). Returns the number of matches (0 = none), or a negative
 * PCRE2 error code (e.g. PCRE2_ERROR_MATCHLIMIT). `ngroups` is the regex's
 * capture count (PCRE2_INFO_CAPTURECOUNT), passed in because this runs for
 * every rule on every line. `jit`: re was JIT-compiled, and the subject is
 * valid UTF-8 (pcre2_jit_match checks neither). `literal`: text that every
 * match holds (prefilter.h), or NULL; where the rest of the subject lacks
 * it, no further search is made. */
int tmpl_find_matches(const pcre2_code *re, uint32_t ngroups, pcre2_match_data *md,
                      const char *subject, size_t len, match_list *ml,
                      pcre2_match_context *mctx, int jit, const char *literal);

/* Appends Regex.Replace(subject, re, template) to out, given the matches. */
int tmpl_expand(const tmpl *t, const char *subject, size_t len, const match_list *ml, buf *out);

/* Appends n bytes of s with a backslash before each character that the
 * standard form or the macros would read as structure (0 or -1: no memory). */
int tmpl_put_escaped(buf *out, const char *s, size_t n);

/* Appends segment `seg` of t for the match `ov` (0 or -1: no memory). */
int tmpl_put_seg(const tmpl *t, size_t seg, const char *subject, size_t len,
                 const PCRE2_SIZE *ov, buf *out);

void match_list_free(match_list *ml);

#endif
