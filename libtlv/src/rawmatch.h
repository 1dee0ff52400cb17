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

#include "buf.h"
#include "template.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tlv_rules;

/* A rule that matched a line (n > 0 matches, their ovector pairs at
 * batch.ov + ov), or whose matching failed (n < 0, a PCRE2 error code). */
typedef struct rm_hit {
    uint32_t rule;
    int32_t n;
    size_t ov;
} rm_hit;

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
} rm_batch;

/* What one thread needs to match: its own PCRE2 match data and context (a
 * JIT match must not share them), scratch space and the candidate flags. */
typedef struct rm_matcher {
    const struct tlv_rules *rules;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    match_list ml;
    unsigned char *candidate;
    int slow;             /* fast paths off: no JIT, no literal skipping, no plain lines */
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

/* The text of line l of b (base as given to rm_add_line). */
static inline const char *rm_line_text(const rm_batch *b, const rm_line *l, const char *base)
{
    return (l->copied ? b->text.data : base) + l->off;
}

#endif
