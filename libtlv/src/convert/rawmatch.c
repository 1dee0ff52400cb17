/*
 * rawmatch.c — reading a raw line as text and finding the rules that match
 * it (see rawmatch.h). Everything here is a pure function of the line and
 * the compiled rules.
 */
#include "convert/rawmatch.h"

#include "compile/expand.h"
#include "compile/prefilter.h"
#include "rules/rules_impl.h"
#include "base/utf8.h"

#include <stdlib.h>
#include <string.h>

/* Adds template t to rp: its plan counts for the site range; `take`: a flat
 * plan is expanded ahead. Returns 0, or -1 when memory ran out. */
static int add_plan(rm_rule_pre *rp, const tmpl *t, int take)
{
    if (!t->plan)
        return 0;
    size_t lo = xplan_first_site(t->plan), n = xplan_site_count(t->plan), hi = lo + n;
    if (rp->nsites) {
        size_t old_hi = (size_t)rp->site_lo + rp->nsites;
        lo = lo < rp->site_lo ? lo : rp->site_lo;
        hi = hi > old_hi ? hi : old_hi;
    }
    rp->site_lo = (uint32_t)lo;
    rp->nsites = (uint32_t)(hi - lo);
    if (!take || !xplan_is_flat(t->plan) || rp->nplans >= RM_NO_PLAN)
        return 0;
    size_t cap = rp->cap;
    if (GROW(rp->plans, cap, rp->nplans + 1) < 0)
        return -1;
    cap = rp->cap;
    if (GROW(rp->first_site, cap, rp->nplans + 1) < 0)
        return -1;
    cap = rp->cap;
    if (GROW(rp->site_count, cap, rp->nplans + 1) < 0)
        return -1;
    rp->cap = cap;
    rp->plans[rp->nplans] = t;
    rp->first_site[rp->nplans] = (uint32_t)xplan_first_site(t->plan);
    rp->site_count[rp->nplans] = (uint32_t)n;
    rp->nplans++;
    rp->nspans += 2 * n;
    return 0;
}

/* Adds the templates of output o to rp. Items of a choice of several
 * branches are not expanded ahead (most are not taken on a given line); a
 * lone branch, a guard, usually is. */
static int collect_plans(rm_rule_pre *rp, const out_node *o, int take)
{
    switch (o->kind) {
    case OUT_TEMPLATE: return add_plan(rp, &o->t, take);
    case OUT_LIST:
        for (size_t i = 0; i < o->n; i++)
            if (collect_plans(rp, &o->items[i], take) < 0)
                return -1;
        return 0;
    case OUT_CHOICE:
        for (size_t i = 0; i < o->n; i++)
            if (add_plan(rp, &o->conds[i], take) < 0 ||
                collect_plans(rp, &o->items[i], take && o->n == 1) < 0)
                return -1;
        return 0;
    }
    return 0;
}

/* Finds, per rule, the templates to expand ahead (rm_rule_pre). */
static int plan_ahead(rm_matcher *m, const struct tlv_rules *rules)
{
    m->pre = calloc(rules->nrules + 1, sizeof *m->pre);
    if (!m->pre)
        return -1;
    for (size_t i = 0; i < rules->nrules; i++) {
        rm_rule_pre *rp = &m->pre[i];
        if (collect_plans(rp, &rules->rules[i].out, 1) < 0)
            return -1;
        if (!rp->nplans)
            continue;
        rp->plan_of = malloc(rp->nsites * sizeof *rp->plan_of);
        if (!rp->plan_of)
            return -1;
        for (size_t k = 0; k < rp->nsites; k++)
            rp->plan_of[k] = RM_NO_PLAN;
        for (size_t k = 0; k < rp->nplans; k++)
            rp->plan_of[rp->first_site[k] - rp->site_lo] = (uint16_t)k;
    }
    return 0;
}

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
    if (!m->md || !m->mctx || !m->candidate || plan_ahead(m, rules) < 0)
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
    if (m->pre)
        for (size_t i = 0; i < m->rules->nrules; i++) {
            free(m->pre[i].plans);
            free(m->pre[i].first_site);
            free(m->pre[i].site_count);
            free(m->pre[i].plan_of);
        }
    free(m->pre);
    memset(m, 0, sizeof *m);
}

void rm_batch_clear(rm_batch *b)
{
    b->nlines = b->nhits = b->nov = b->npre = b->nspans = 0;
    buf_clear(&b->text);
    buf_clear(&b->pretext);
}

void rm_batch_free(rm_batch *b)
{
    free(b->lines);
    free(b->hits);
    free(b->ov);
    buf_free(&b->text);
    free(b->pre);
    free(b->spans);
    buf_free(&b->pretext);
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
    b->hits[b->nhits++] = (rm_hit){(uint32_t)rule, n, b->nov, RM_NO_PRE};
    if (nov)
        memcpy(b->ov + b->nov, ml->ov, nov * sizeof *b->ov);
    b->nov += nov;
    return 0;
}

/* Whether text[0, n) is "[D]" with D a decimal number as tlv_time_format
 * writes it in radix 10: digits, no leading zero (logs' times mostly are),
 * few enough to be a whole number of ticks. */
static int head_is_canonical(const char *text, size_t n, int radix)
{
    if (radix != 10 || n < 3 || n > 20 || text[0] != '[' || text[n - 1] != ']' ||
        (text[1] == '0' && n > 3))
        return 0;
    for (size_t i = 1; i + 1 < n; i++)
        if (text[i] < '0' || text[i] > '9')
            return 0;
    return 1;
}

/* Reads the event's time from text[0, before), the expansion before its
 * first macro, when it is all there. */
static void time_ahead(rm_matcher *m, rm_pre *p, const char *text, size_t before)
{
    size_t rest;
    if (std_parse_time(text, before, m->rules->radix, &m->time_memo, &p->time, &rest) == 0) {
        p->timed = 1;
        p->rest = (uint32_t)rest;
        p->head_canon = (uint32_t)head_is_canonical(text, rest, m->rules->radix);
    }
}

/* Expands the rule's templates up to their macros for its one match ov
 * (xplan_pre), for the applier to finish (xplan_finish). Memory running out
 * only leaves a template to be expanded whole. */
static void expand_ahead(rm_matcher *m, const rm_rule_pre *rp, rm_batch *b, rm_hit *h,
                         const char *line, size_t len, const PCRE2_SIZE *ov)
{
    if (b->pretext.len > UINT32_MAX / 2 || b->nspans > UINT32_MAX / 2 ||
        GROW(b->pre, b->pre_cap, b->npre + rp->nplans) < 0 ||
        GROW(b->spans, b->spans_cap, b->nspans + rp->nspans) < 0)
        return;
    rm_pre *pre = b->pre + b->npre;
    for (size_t i = 0; i < rp->nplans; i++) {
        size_t off = b->pretext.len;
        uint32_t *spans = b->spans + b->nspans;
        int ok = xplan_pre(rp->plans[i], line, len, ov, &b->pretext, spans) == 0;
        pre[i] = (rm_pre){(uint32_t)off, (uint32_t)(b->pretext.len - off), (uint32_t)b->nspans,
                          (uint32_t)ok, 0, 0, 0, {0, 0}};
        if (ok)
            time_ahead(m, &pre[i], b->pretext.data + off, rp->site_count[i] ? spans[0] : pre[i].len);
        b->nspans += 2 * rp->site_count[i];
    }
    h->pre0 = (uint32_t)b->npre;
    b->npre += rp->nplans;
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
        if (m->ahead && n == 1 && l->plain && m->pre[i].nplans)
            expand_ahead(m, &m->pre[i], b, &b->hits[b->nhits - 1], line, l->len, m->ml.ov);
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
