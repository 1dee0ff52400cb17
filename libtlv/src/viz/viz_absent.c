/*
 * viz_absent.c — the states in which a resource is not there: a value of its
 * state attribute (`state`, or the options' running attribute) in which
 * some resource of the type spends the whole trace (it never shows up) and
 * in which no resource of the type ever does anything (no behavior event
 * while it holds it). TOPPERS/FMP's migration rules make a task's resource
 * on the processor it leaves NONEXISTENT: the state of the per-processor
 * resources of tasks that never come to that processor. A call of a
 * resource that goes into such a state ends there (viz_fromto.c). A state
 * every resource leaves (a "ready" nothing happens in) is no absence, nor
 * is a processor number nobody acted on yet. Computed once per type, when
 * first asked.
 */
#include "viz/viz_build.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CANDIDATES 16 /* more distinct initial values: an identifier, not a state */

/* One attribute of a type: the initial values of its resources and whether
 * some behavior happened in each. */
typedef struct absent_attr {
    uint32_t vals[MAX_CANDIDATES];
    unsigned char active[MAX_CANDIDATES];
    size_t n;
    int skip;                 /* Static, or too many initial values */
} absent_attr;

struct absent_type {
    int done;
    absent_attr *attrs;       /* one per attribute of the type */
};

static long candidate(const absent_attr *a, uint32_t v)
{
    for (size_t i = 0; i < a->n; i++)
        if (a->vals[i] == v)
            return (long)i;
    return -1;
}

/* Whether resource r's attribute (interned name `name`) ever changes. */
static int changes(const builder *b, size_t r, uint32_t name)
{
    for (size_t j = 0; j < b->per_res_n[r]; j++) {
        const vevent *e = &b->ev[b->per_res[r][j]];
        if (e->kind == TLV_EVENT_ATTRIBUTE && !e->initial && e->name == name)
            return 1;
    }
    return 0;
}

/* The candidates: the state values resources of the type keep all along. */
static void collect_candidates(builder *b, size_t type, absent_attr *attrs)
{
    const world *w = b->w;
    const res_type *t = &w->model->types[type];
    const char *state = b->opts->running_attribute ? b->opts->running_attribute : "state";
    long st = model_attr_index(t, state, strlen(state));
    for (size_t a = 0; a < t->nattrs; a++)
        attrs[a].skip = t->attrs[a].is_static || (long)a != st;
    if (st < 0 || attrs[st].skip)
        return;
    absent_attr *at = &attrs[st];
    uint32_t name = intern_find(w->values, t->attrs[st].name, t->attrs[st].name_len);
    for (size_t k = 0; k < w->nmembers[type] && !at->skip; k++) {
        size_t r = w->members[type][k];
        uint32_t v = w->res[r].attrs[st].init;
        if (candidate(at, v) >= 0 || changes(b, r, name))
            continue;
        if (at->n == MAX_CANDIDATES)
            at->skip = 1;
        else
            at->vals[at->n++] = v;
    }
}

/* Walks every event of the type's resources, keeping the candidate each
 * attribute holds, and marks a candidate active when a behavior happens in
 * it. Returns 0, or -1 (no memory). */
static int mark_active(builder *b, size_t type, absent_attr *attrs)
{
    world *w = b->w;
    const res_type *t = &w->model->types[type];
    size_t na = t->nattrs;
    uint32_t *names = malloc((na + 1) * sizeof *names);
    long *cur = malloc((na + 1) * sizeof *cur);
    if (!names || !cur) {
        free(names);
        free(cur);
        return -1;
    }
    for (size_t a = 0; a < na; a++)
        names[a] = intern_find(w->values, t->attrs[a].name, t->attrs[a].name_len);
    for (size_t k = 0; k < w->nmembers[type]; k++) {
        size_t r = w->members[type][k];
        for (size_t a = 0; a < na; a++)
            cur[a] = candidate(&attrs[a], w->res[r].attrs[a].init);
        for (size_t j = 0; j < b->per_res_n[r]; j++) {
            const vevent *e = &b->ev[b->per_res[r][j]];
            if (e->kind == TLV_EVENT_BEHAVIOR) {
                for (size_t a = 0; a < na; a++)
                    if (cur[a] >= 0 && !attrs[a].skip)
                        attrs[a].active[cur[a]] = 1;
            } else if (e->kind == TLV_EVENT_ATTRIBUTE) {
                for (size_t a = 0; a < na; a++)
                    if (names[a] == e->name)
                        cur[a] = candidate(&attrs[a], e->value);
            }
        }
    }
    free(names);
    free(cur);
    return 0;
}

static const absent_attr *type_attrs(builder *b, size_t type)
{
    const world *w = b->w;
    if (!b->absent) {
        b->absent = calloc(w->model->ntypes + 1, sizeof *b->absent);
        if (!b->absent)
            return NULL;
    }
    struct absent_type *at = &b->absent[type];
    if (!at->done) {
        at->done = 1;
        at->attrs = calloc(w->model->types[type].nattrs + 1, sizeof *at->attrs);
        if (at->attrs) {
            collect_candidates(b, type, at->attrs);
            if (mark_active(b, type, at->attrs) < 0) {
                free(at->attrs);
                at->attrs = NULL;
            }
        }
    }
    return at->attrs;
}

int viz_value_is_absent(builder *b, size_t res, size_t attr, uint32_t value)
{
    const absent_attr *attrs = type_attrs(b, b->w->res[res].type);
    if (!attrs || attrs[attr].skip)
        return 0;
    long c = candidate(&attrs[attr], value);
    return c >= 0 && !attrs[attr].active[c];
}

void viz_free_absent(builder *b)
{
    if (!b->absent)
        return;
    for (size_t t = 0; t < b->w->model->ntypes; t++)
        free(b->absent[t].attrs);
    free(b->absent);
    b->absent = NULL;
}
