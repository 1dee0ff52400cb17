/*
 * rawmatch.h — the stateless half of converting a raw log line: reading it
 * as text (bytes that are not text become U+FFFD), and finding which
 * conversion rules match it and where (the prefilter, then each candidate
 * regex). It reads nothing but the compiled rules, never the converter's
 * state, so it can run on another thread than the one that applies the
 * matches (pipeline.h); the serial path uses it too, one line at a time, so
 * both paths share every decision. Results are appended to a batch, in input
 * order.
 */
#ifndef TLV_RAWMATCH_H
#define TLV_RAWMATCH_H

#include "base/buf.h"
#include "lang/stdform.h"
#include "compile/template.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tlv_rules;

/* A rule that matched a line (n > 0 matches, their ovector pairs at
 * batch.ov + ov), or whose matching failed (n < 0, a PCRE2 error code).
 * pre0: where the stateless halves of its compiled templates are (see
 * rm_pre_of), or RM_NO_PRE. */
typedef struct rm_hit {
    uint32_t rule;
    int32_t n;
    size_t ov;
    uint32_t pre0;
} rm_hit;

#define RM_NO_PRE UINT32_MAX

/* A template of the hit's rule expanded up to its macros (xplan_pre): the
 * text at batch.pretext + off, its macros' argument spans at batch.spans +
 * spans. When the event's "[time]" comes whole before the first macro (as
 * in "[${time}]$RES_NAME{...}.enter()"), it is read here too (std_parse_time
 * of the text up to the first macro reads what it would read of the whole
 * expansion): its time, and where the text after it begins; and whether
 * that "[time]" is already written as tlv_event_format writes it, so the
 * applier copies it into the event's line instead of formatting the time. */
typedef struct rm_pre {
    uint32_t off, len;
    uint32_t spans;
    uint32_t ok;          /* 0: not expanded ahead (the applier expands it whole) */
    uint32_t timed;       /* time and rest hold the event's time */
    uint32_t rest;
    uint32_t head_canon;  /* timed, and text[0, rest) is "[time]" as formatted */
    tlv_time time;
} rm_pre;

/* One line and its hits, in rule order. */
typedef struct rm_line {
    size_t off, len;      /* the text: base + off, or batch.text + off when copied */
    size_t hit0, nhits;   /* batch.hits[hit0 .. hit0 + nhits) */
    size_t bad;           /* nontext != 0: offset of the first byte that is not text */
    long nontext;         /* bytes read as U+FFFD; -1: no memory for the copy */
    unsigned char copied; /* the text is the batch's copy with U+FFFD */
    unsigned char plain;  /* holds no '$', '{', '}' (compiled templates apply) */
    unsigned char too_long; /* longer than the limit: not read at all */
    unsigned char nomem;  /* an allocation failed while the line was read or matched */
} rm_line;

typedef struct rm_batch {
    rm_line *lines;
    size_t nlines, lines_cap;
    rm_hit *hits;
    size_t nhits, hits_cap;
    PCRE2_SIZE *ov;
    size_t nov, ov_cap;
    buf text;             /* the copies of lines that had bytes that are not text */
    rm_pre *pre;          /* per hit with templates expanded ahead: one per memo site */
    size_t npre, pre_cap;
    buf pretext;
    uint32_t *spans;
    size_t nspans, spans_cap;
} rm_batch;

/* Per rule: its compiled templates that the matching side expands ahead
 * (flat plans, expand.h), the memo sites of each, and which of them (if
 * any) a plan whose first site is site_lo + i is: plan_of[i]. */
typedef struct rm_rule_pre {
    const tmpl **plans;
    uint32_t *first_site, *site_count;
    size_t nplans, cap;
    uint32_t site_lo, nsites;
    uint16_t *plan_of;    /* RM_NO_PLAN: not expanded ahead */
    size_t nspans;        /* argument span bounds of all its plans */
} rm_rule_pre;

#define RM_NO_PLAN UINT16_MAX

/* What one thread needs to match: its own PCRE2 match data and context (a
 * JIT match must not share them), scratch space and the candidate flags. */
typedef struct rm_matcher {
    const struct tlv_rules *rules;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    match_list ml;
    unsigned char *candidate;
    rm_rule_pre *pre;     /* per rule */
    int slow;             /* fast paths off: no JIT, no literal skipping, no plain lines */
    int ahead;            /* expand templates ahead (rm_pre): only worth it on another
                             thread than the applier's, which would otherwise do it */
    std_time_memo time_memo; /* reading the times ahead */
} rm_matcher;

/* Returns 0, or -1 when memory ran out (then rm_matcher_free is still due). */
int rm_matcher_init(rm_matcher *m, const struct tlv_rules *rules);
void rm_matcher_free(rm_matcher *m);

void rm_batch_clear(rm_batch *b);
void rm_batch_free(rm_batch *b);

/* Appends the line base[off, off + len) to b: longer than max_line, it is
 * only marked too_long; else read as text and, when `match`, matched against
 * every rule. Returns the line's entry (valid until b grows), or NULL when
 * memory ran out for the entry itself. */
rm_line *rm_add_line(rm_matcher *m, rm_batch *b, const char *base, size_t off, size_t len,
                     size_t max_line, int match);

/* The end of the line starting at data[i]: the first CR or LF, found with
 * memchr (vectorised) rather than a byte loop, since logs are large; len
 * when there is none. */
static inline size_t rm_line_end(const char *data, size_t i, size_t len)
{
    const char *lf = memchr(data + i, '\n', len - i);
    size_t end = lf ? (size_t)(lf - data) : len;
    const char *cr = memchr(data + i, '\r', end - i);
    return cr ? (size_t)(cr - data) : end;
}

/* The stateless half of the template whose plan's first site is
 * first_site, for hit h of b (xplan_pre), or NULL when it was not expanded
 * ahead; rp: the hit's rule's, of any matcher of the same rules. */
static inline const rm_pre *rm_pre_of(const rm_batch *b, const rm_hit *h, const rm_rule_pre *rp,
                                      size_t first_site)
{
    if (h->pre0 == RM_NO_PRE)
        return NULL;
    uint16_t k = rp->plan_of[first_site - rp->site_lo];
    if (k == RM_NO_PLAN)
        return NULL;
    const rm_pre *p = &b->pre[h->pre0 + k];
    return p->ok ? p : NULL;
}

/* The text of line l of b (base as given to rm_add_line). */
static inline const char *rm_line_text(const rm_batch *b, const rm_line *l, const char *base)
{
    return (l->copied ? b->text.data : base) + l->off;
}

#endif
