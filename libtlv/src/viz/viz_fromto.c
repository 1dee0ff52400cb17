/*
 * viz_fromto.c — From/To pairing: each event matching From opens an interval
 * that the next event matching To (after substitution of the From event)
 * closes; one still open at the end of the trace closes at its last time.
 * One a call opened ends where its resource left (returned to its initial
 * state, or went to a value in which it is absent), even if a To follows.
 */
#include "viz/viz_build.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static long find_next(builder *b, const pattern *p, long target, size_t from_index)
{
    scan_list l = viz_scan_for(b, p, target);
    long r = p->res >= 0 ? p->res : target;
    if (viz_indexed_list(b, p, r, &l) && !l.idx)
        return -1; /* no such event at all */
    for (size_t k = viz_after(&l, from_index); k < l.n; k++)
        if (viz_pattern_matches(b, p, &b->ev[viz_at(&l, k)]))
            return (long)viz_at(&l, k);
    return -1;
}

/* A To pattern met before (its text after substitution, compiled), and
 * its last search: from event `from` its first match was `at` (-1: none
 * to the end). The From events come in order, so a later From before
 * `at` closes at `at` too: the search is not made again over the same
 * events, nor the pattern compiled again (compiling and searching each
 * From's To were 10 % of `tlv shapes` at 1M lines). A rule's To usually
 * names its From's resource ("${FROM_TARGET}.state"): one text per
 * resource, TO_MEMO kept; the others are compiled and searched each time. */
#define TO_MEMO 32
typedef struct to_memo {
    char *text;
    size_t len;
    pattern p;
    size_t from;
    long at;
    int listed;    /* l is the pattern's list (made at its first search) */
    scan_list l;   /* the events it can match (find_next's) */
    size_t pos;    /* where the last search started in l */
} to_memo;

static to_memo *to_memo_find(to_memo *memo, size_t *n, const char *text, size_t len)
{
    for (size_t m = 0; m < *n; m++)
        if (memo[m].len == len && memcmp(memo[m].text, text, len) == 0)
            return &memo[m];
    return NULL;
}

/* Keeps compiled pattern *p under the text in b->a; NULL when full (or
 * out of memory): *p is then still the caller's. */
static to_memo *to_memo_add(builder *b, to_memo *memo, size_t *n, const pattern *p)
{
    if (*n == TO_MEMO)
        return NULL;
    char *text = xstrndup(buf_str(&b->a), b->a.len);
    if (!text)
        return NULL;
    memo[*n] = (to_memo){text, b->a.len, *p, SIZE_MAX, -1, 0, {NULL, 0}, 0};
    return &memo[(*n)++];
}

/* The first event after event i matching m's pattern (find_next's). */
static long to_memo_next(builder *b, to_memo *m, long target, size_t i)
{
    if (m->from != SIZE_MAX && i >= m->from && (m->at < 0 || i < (size_t)m->at))
        return m->at; /* nothing matched between m->from and m->at */
    if (!m->listed) {
        long t = target >= 0 && m->p.res < 0 ? target : -1;
        m->l = viz_scan_for(b, &m->p, t);
        if (viz_indexed_list(b, &m->p, m->p.res >= 0 ? m->p.res : t, &m->l) && !m->l.idx)
            m->l.n = 0; /* no such event at all */
        m->listed = 1;
    }
    /* the Froms come in order: the start moves on from the last one's */
    size_t k = m->from != SIZE_MAX && i >= m->from ? m->pos : viz_after(&m->l, i);
    while (k < m->l.n && viz_at(&m->l, k) <= i)
        k++;
    m->from = i;
    m->pos = k;
    m->at = -1;
    for (; k < m->l.n; k++)
        if (viz_pattern_matches(b, &m->p, &b->ev[viz_at(&m->l, k)])) {
            m->at = (long)viz_at(&m->l, k);
            break;
        }
    return m->at;
}

/* Where a call ends that its resource left without returning from it: at
 * the first change after it, before event `until` (an index in b->ev;
 * SIZE_MAX: the end of the trace), of one of its resource's attributes to
 * a value in which resources of its type are absent (viz_absent.c), or,
 * when `or_initial`, back to its own initial value — a value the attribute
 * did not have at the call. A per-processor task resource its task left on
 * migrating is NONEXISTENT: no call of it is running any more, and a later
 * To of the same resource is the return of another call. A task that
 * exited is DORMANT again: a call no To closed (ext_tsk) ends there; a To
 * closes a call whatever the task went through (the initial value may be
 * RUNNABLE, which a task also is when preempted inside a call). Returns
 * that event's index, or -1 when there is none. `i` is the call's index in
 * b->ev. */
static long call_cut(builder *b, size_t i, size_t until, int or_initial)
{
    const vevent *call = &b->ev[i];
    world *w = b->w;
    size_t r = call->res, n = b->per_res_n[r];
    const uint32_t *list = b->per_res[r];
    const res_type *t = &w->model->types[w->res[r].type];
    size_t lo = 0, hi = n; /* the first of the resource's events after the call */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (list[mid] <= i)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k < n && list[k] < until; k++) {
        const vevent *e = &b->ev[list[k]];
        if (e->kind != TLV_EVENT_ATTRIBUTE || e->initial)
            continue;
        long a = model_attr_index(t, intern_str(w->values, e->name), intern_len(w->values, e->name));
        if (a < 0 || !((or_initial && e->value == w->res[r].attrs[a].init) ||
                       viz_value_is_absent(b, r, (size_t)a, e->value)))
            continue;
        if (world_attr(w, r, (size_t)a, &call->time, call->state_seq + 1) != e->value)
            return (long)list[k];
    }
    return -1;
}

/* Whether the To pattern reads nothing of the From event: its only
 * substitution is ${TARGET} (no ${FROM_...}, no macro) and the target's
 * name has no '$'. It then expands to the same text for every From event
 * of the target, and is compiled once. */
static int to_is_fixed(const char *to, const char *target_name)
{
    if (target_name && strchr(target_name, '$'))
        return 0;
    for (const char *p = strchr(to, '$'); p; p = strchr(p + 1, '$'))
        if (strncmp(p, "${TARGET}", 9) != 0)
            return 0;
    return 1;
}

void viz_apply_from_to(builder *b, const event_def *d, const char *target_name, long target)
{
    subst_ctx sc = {target_name, NULL, NULL, 0, tlv_trace_end(b->t), 0};
    pattern from;
    if (viz_expand(b, &sc, d->from, 1) < 0 || viz_pattern_compile(b, buf_str(&b->a), &from) < 0)
        return;
    if (target >= 0 && from.res >= 0 && from.res != target) {
        viz_pattern_free(&from); /* a targeted rule draws its own resource's events */
        return;
    }
    /* Per resource: the latest From that no To closed. It is still open at
     * the end of the trace only if no later From of the same event on the
     * same resource superseded it (a task that called ext_tsk and was later
     * activated again does not stay inside ext_tsk forever). */
    size_t *open = malloc((b->w->nres + 1) * sizeof *open);
    if (!open) {
        viz_pattern_free(&from);
        return;
    }
    for (size_t r = 0; r < b->w->nres; r++)
        open[r] = SIZE_MAX;
    scan_list l = viz_scan_for(b, &from, target);
    if (viz_indexed_list(b, &from, from.res >= 0 ? from.res : target, &l) && !l.idx)
        l.n = 0;
    int to_fixed = to_is_fixed(d->to, target_name);
    to_memo memo[TO_MEMO];
    size_t nmemo = 0;
    for (size_t k = 0; k < l.n; k++) {
        size_t i = viz_at(&l, k);
        const vevent *e = &b->ev[i];
        if (!viz_pattern_matches(b, &from, e))
            continue;
        open[e->res] = SIZE_MAX;
        b->cur_line = e->line;
        sc.from = e;
        sc.to = NULL;
        long j;
        if (to_fixed && nmemo) {
            j = to_memo_next(b, &memo[0], target, i);
        } else {
            /* a failure is reported again for every From event, as its line differs */
            if (viz_expand(b, &sc, d->to, 1) < 0)
                continue;
            to_memo *m = to_memo_find(memo, &nmemo, buf_str(&b->a), b->a.len);
            pattern to;
            if (m)
                j = to_memo_next(b, m, target, i);
            else if (viz_pattern_compile(b, buf_str(&b->a), &to) < 0)
                continue;
            else if ((m = to_memo_add(b, memo, &nmemo, &to)))
                j = to_memo_next(b, m, target, i);
            else {
                j = find_next(b, &to, target >= 0 && to.res < 0 ? target : -1, i);
                viz_pattern_free(&to);
            }
        }
        /* An attribute that never changes in the whole trace draws nothing
         * (TOPPERS rules paint "user state 0" red on every task otherwise). */
        if (j < 0) {
            if (!e->initial)
                open[e->res] = i;
            continue;
        }
        /* a To after the resource left is another call's return */
        long cut = e->kind == TLV_EVENT_BEHAVIOR ? call_cut(b, i, (size_t)j, 0) : -1;
        sc.to = cut >= 0 ? NULL : &b->ev[j];
        sc.end = cut >= 0 ? b->ev[cut].time : tlv_trace_end(b->t);
        viz_draw_interval(b, d, &sc, e->time, sc.to ? b->ev[j].time : sc.end, target);
        sc.end = tlv_trace_end(b->t);
    }
    for (size_t r = 0; r < b->w->nres; r++) {
        if (open[r] == SIZE_MAX)
            continue;
        const vevent *e = &b->ev[open[r]];
        b->cur_line = e->line;
        sc.from = e;
        sc.to = NULL;
        long cut = e->kind == TLV_EVENT_BEHAVIOR ? call_cut(b, open[r], SIZE_MAX, 1) : -1;
        sc.end = cut >= 0 ? b->ev[cut].time : tlv_trace_end(b->t);
        /* a return value still to come reads "(open)"; a call its resource's
         * exit ended has none */
        sc.open_label = tlv_time_cmp(sc.end, tlv_trace_end(b->t)) == 0;
        viz_draw_interval(b, d, &sc, e->time, sc.end, target);
    }
    free(open);
    for (size_t m = 0; m < nmemo; m++) {
        free(memo[m].text);
        viz_pattern_free(&memo[m].p);
    }
    viz_pattern_free(&from);
}
