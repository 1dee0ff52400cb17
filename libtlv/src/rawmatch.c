/*
 * rawmatch.c — reading a raw line as text and finding the rules that match
 * it (see rawmatch.h). Everything here is a pure function of the line and
 * the compiled rules.
 */
#include "rawmatch.h"

#include "expand.h"
#include "prefilter.h"
#include "rules_impl.h"
#include "utf8.h"

#include <stdlib.h>
#include <string.h>

int rm_matcher_init(rm_matcher *m, const struct tlv_rules *rules)
{
    memset(m, 0, sizeof *m);
    m->rules = rules;
    uint32_t maxgroups = 0;
    for (size_t i = 0; i < rules->nrules; i++)
        if (rules->rules[i].ngroups > maxgroups)
            maxgroups = rules->rules[i].ngroups;
    m->md = pcre2_match_data_create(maxgroups + 1, NULL);
    m->mctx = pcre2_match_context_create(NULL);
    m->candidate = calloc(rules->nrules + 1, 1);
    if (!m->md || !m->mctx || !m->candidate)
        return -1;
    /* A pathological rule must not hang a run: bound the backtracking. */
    pcre2_set_match_limit(m->mctx, 10000000);
    pcre2_set_depth_limit(m->mctx, 100000);
    return 0;
}

void rm_matcher_free(rm_matcher *m)
{
    pcre2_match_data_free(m->md);
    pcre2_match_context_free(m->mctx);
    match_list_free(&m->ml);
    free(m->candidate);
    memset(m, 0, sizeof *m);
}

void rm_batch_clear(rm_batch *b)
{
    b->nlines = b->nhits = b->nov = 0;
    buf_clear(&b->text);
}

void rm_batch_free(rm_batch *b)
{
    free(b->lines);
    free(b->hits);
    free(b->ov);
    buf_free(&b->text);
    memset(b, 0, sizeof *b);
}

/* Keeps a copy of the line with each byte that is not text read as U+FFFD. */
static void read_as_text(rm_batch *b, rm_line *l, const char *s)
{
    size_t bad = utf8_first_bad(s, l->len);
    if (bad == l->len)
        return;
    l->bad = bad;
    size_t at = b->text.len;
    l->nontext = utf8_sanitize(s, l->len, &b->text);
    if (l->nontext < 0)
        return; /* reported by the applier; the line is not matched */
    l->copied = 1;
    l->off = at;
    l->len = b->text.len - at;
}

/* Records the matches of one rule found in m->ml (or its error, n < 0). */
static int add_hit(rm_batch *b, size_t rule, int n, const match_list *ml)
{
    size_t per = 2 * ((size_t)ml->ngroups + 1);
    size_t nov = n > 0 ? (size_t)n * per : 0;
    if (GROW(b->hits, b->hits_cap, b->nhits + 1) < 0 || GROW(b->ov, b->ov_cap, b->nov + nov) < 0)
        return -1;
    b->hits[b->nhits++] = (rm_hit){(uint32_t)rule, n, b->nov};
    if (nov)
        memcpy(b->ov + b->nov, ml->ov, nov * sizeof *b->ov);
    b->nov += nov;
    return 0;
}

/* Every rule that matches the line, in rule order. A rule whose matching
 * fails ends the line's hits: the applier stops at it. */
static void match_rules(rm_matcher *m, rm_batch *b, rm_line *l, const char *line)
{
    const struct tlv_rules *rs = m->rules;
    l->plain = !m->slow && xplan_plain_subject(line, l->len);
    if (rs->prefilter)
        prefilter_scan(rs->prefilter, line, l->len, m->candidate);
    else
        memset(m->candidate, 1, rs->nrules);
    for (size_t i = 0; i < rs->nrules; i++) {
        if (!m->candidate[i])
            continue;
        const cnv_rule *r = &rs->rules[i];
        int n = tmpl_find_matches(r->code, r->ngroups, m->md, line, l->len, &m->ml, m->mctx,
                                  r->jit && !m->slow, m->slow ? NULL : r->literal);
        if (n == 0)
            continue;
        if (add_hit(b, i, n, &m->ml) < 0) {
            l->nomem = 1;
            return;
        }
        l->nhits++;
        if (n < 0)
            return;
    }
}

rm_line *rm_add_line(rm_matcher *m, rm_batch *b, const char *base, size_t off, size_t len,
                     size_t max_line, int match)
{
    if (GROW(b->lines, b->lines_cap, b->nlines + 1) < 0)
        return NULL;
    ALLOC_WATCH; /* on the matching thread, nothing else sees this thread's count */
    rm_line *l = &b->lines[b->nlines++];
    memset(l, 0, sizeof *l);
    l->off = off;
    l->len = len;
    l->hit0 = b->nhits;
    if (len > max_line) {
        l->too_long = 1;
        return l;
    }
    read_as_text(b, l, base + off);
    if (match && l->nontext >= 0)
        match_rules(m, b, l, rm_line_text(b, l, base));
    if (ALLOC_FAILED_SINCE())
        l->nomem = 1;
    return l;
}
