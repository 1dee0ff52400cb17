/*
 * diff.c — the comparison of two runs (declared in common.h): each run's statistics,
 * instances and pairing keys, the rows of both tables keyed by actor, state
 * or kind and name, their sorting by the largest change, and the actors of
 * one run only. The numbers are libtlv's (tlv_stats, tlv_instances), as
 * tlv stats prints them; printing is the caller's (tlv diff, the viewer's
 * diff panel), so that both show the same figures.
 */
#include "common/common.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the runs ----------------------------------------------------------------------- */

void diff_run_free(diff_run *r)
{
    pairing_keys_free(r->keys, r->nres);
    free(r->present);
    tlv_instances_free(r->inst);
    tlv_stats_free(r->stats);
    memset(r, 0, sizeof *r);
}

/* Which resources some event names: a cursor, as events of one resource
 * come in runs. */
static void mark_present(diff_run *r)
{
    size_t nev = tlv_trace_event_count(r->trace);
    for (size_t i = 0, k = 0; i < nev; i++) {
        tlv_event e;
        tlv_trace_event(r->trace, i, &e);
        if (k < r->nres && tlv_trace_resource_name(r->trace, k) == e.resource) {
            r->present[k] = 1;
            continue;
        }
        for (k = 0; k < r->nres && tlv_trace_resource_name(r->trace, k) != e.resource; k++)
            ;
        if (k < r->nres)
            r->present[k] = 1;
    }
}

int diff_run_init(diff_run *r, const tlv_trace *t, const diff_settings *o)
{
    memset(r, 0, sizeof *r);
    r->trace = t;
    tlv_stats_options so = TLV_STATS_OPTIONS_INIT;
    so.cpu_attribute = o->cpu_attribute;
    tlv_instances_options io = TLV_INSTANCES_OPTIONS_INIT;
    io.ready_values = o->ready;
    io.cpu_attribute = o->cpu_attribute;
    r->nres = tlv_trace_resource_count(t);
    r->keys = pairing_keys(t, o->by_name);
    r->present = calloc(r->nres + 1, 1);
    if (!r->keys || !r->present || tlv_stats_compute(t, &so, &r->stats) != TLV_OK ||
        tlv_instances_compute(t, &io, &r->inst) != TLV_OK)
        return -1;
    mark_present(r);
    return 0;
}

/* The key of the resource named `name` in run r. */
static const char *key_of(const diff_run *r, const char *name)
{
    for (size_t k = 0; k < r->nres; k++)
        if (strcmp(tlv_trace_resource_name(r->trace, k), name) == 0)
            return r->keys[k];
    return name;
}

/* ---- rows --------------------------------------------------------------------------- */

static diff_row *find_row(diff_rows *t, const char *key, const char *what, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->v[i].key, key) == 0 && strcmp(t->v[i].what, what) == 0 &&
            strcmp(t->v[i].name, name) == 0)
            return &t->v[i];
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        diff_row *v = realloc(t->v, cap * sizeof *v);
        if (!v)
            return NULL;
        t->v = v;
        t->cap = cap;
    }
    diff_row *r = &t->v[t->n++];
    memset(r, 0, sizeof *r);
    r->key = key;
    r->what = what;
    r->name = name;
    return r;
}

static int add_states(diff_rows *t, const diff_run *r, int side)
{
    for (size_t i = 0; i < tlv_stats_state_count(r->stats); i++) {
        tlv_state_stat st;
        tlv_stats_state(r->stats, i, &st);
        diff_row *w = find_row(t, key_of(r, st.resource), st.state, "");
        if (!w)
            return -1;
        w->in[side] = 1;
        w->count[side] = st.count;
        w->value[side] = w->key_value[side] = st.total;
    }
    return 0;
}

static int add_instances(diff_rows *t, const diff_run *r, int side, const char *kind, const char *sort)
{
    for (size_t g = 0; g < tlv_instances_group_count(r->inst); g++) {
        tlv_instance_group gr;
        tlv_instances_group(r->inst, g, &gr);
        if (!gr.count || (kind && strcmp(gr.kind, kind) != 0))
            continue;
        diff_row *w = find_row(t, key_of(r, gr.resource), gr.kind, gr.name);
        if (!w)
            return -1;
        w->in[side] = 1;
        w->count[side] = gr.count;
        w->value[side] = gr.max;
        w->p50[side] = gr.p50;
        w->p90[side] = gr.p90;
        w->p99[side] = gr.p99;
        w->exec[side] = gr.execution_mean;
        w->key_value[side] = strcmp(sort, "p50") == 0   ? gr.p50
                             : strcmp(sort, "p90") == 0 ? gr.p90
                             : strcmp(sort, "p99") == 0 ? gr.p99
                             : strcmp(sort, "exec") == 0 ? (gr.execution_mean >= 0 ? gr.execution_mean : 0)
                                                         : gr.max;
    }
    return 0;
}

double diff_change(const diff_row *r) { return r->key_value[1] - r->key_value[0]; }

static int by_change(const void *x, const void *y)
{
    const diff_row *a = x, *b = y;
    double ca = fabs(diff_change(a)), cb = fabs(diff_change(b));
    if (ca != cb)
        return ca > cb ? -1 : 1;
    int c = strcmp(a->key, b->key);
    if (c)
        return c;
    c = strcmp(a->what, b->what);
    return c ? c : strcmp(a->name, b->name);
}

const char *diff_percent(const diff_row *r, char *b, size_t size)
{
    if (!r->in[0] || r->key_value[0] == 0)
        snprintf(b, size, "%s", !r->in[0] ? "new" : diff_change(r) == 0 ? "0.0%" : "new");
    else if (!r->in[1])
        snprintf(b, size, "gone");
    else
        snprintf(b, size, "%+.1f%%", 100 * diff_change(r) / r->key_value[0]);
    return b;
}

/* ---- the comparison ----------------------------------------------------------------- */

/* The keys of resources present in one run and absent from the other. */
static size_t only_in(const diff_run *r, const diff_run *other, const char **out)
{
    size_t n = 0;
    for (size_t k = 0; k < r->nres; k++) {
        if (!r->present[k])
            continue;
        int found = 0;
        for (size_t q = 0; q < other->nres && !found; q++)
            found = other->present[q] && strcmp(other->keys[q], r->keys[k]) == 0;
        if (!found)
            out[n++] = r->keys[k];
    }
    return n;
}

int diff_compute(const diff_run runs[2], const diff_settings *o, diff_report *rp)
{
    memset(rp, 0, sizeof *rp);
    const char *sort = o->sort ? o->sort : "max";
    for (int s = 0; s < 2; s++) {
        rp->only[s] = malloc((runs[s].nres + 1) * sizeof *rp->only[s]);
        if (!rp->only[s] || add_states(&rp->states, &runs[s], s) < 0 ||
            add_instances(&rp->inst, &runs[s], s, o->kind, sort) < 0)
            return -1;
        rp->nonly[s] = only_in(&runs[s], &runs[1 - s], rp->only[s]);
    }
    if (rp->states.n > 1)
        qsort(rp->states.v, rp->states.n, sizeof *rp->states.v, by_change);
    if (rp->inst.n > 1)
        qsort(rp->inst.v, rp->inst.n, sizeof *rp->inst.v, by_change);
    return 0;
}

void diff_report_free(diff_report *rp)
{
    free(rp->states.v);
    free(rp->inst.v);
    free(rp->only[0]);
    free(rp->only[1]);
    memset(rp, 0, sizeof *rp);
}
