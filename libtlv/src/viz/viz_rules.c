/*
 * viz_rules.c — reading visualization rules (spec §9.2) and shapes (§9.1)
 * from the .viz sources the resource file names: a later definition of a rule
 * or shape replaces an earlier one; a malformed one is reported and left out.
 */
#include "viz/viz_build.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *viz_str_member(const tj_node *o, const char *key)
{
    const tj_node *v = tj_get(o, key);
    return v && v->type == TJ_STRING ? v->str : NULL;
}

static void read_event(builder *b, viz_rule *r, const tj_node *e, const char *file)
{
    if (e->type != TJ_OBJECT) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, e->line, e->col,
                  "rule '%s': event '%s' must be an object, found %s", r->name, e->key,
                  tj_type_name(e->type));
        return;
    }
    event_def *d = &r->events[r->nevents];
    memset(d, 0, sizeof *d);
    d->name = e->key;
    d->from = viz_str_member(e, "From");
    d->to = viz_str_member(e, "To");
    d->when = viz_str_member(e, "When");
    d->value = viz_str_member(e, "Value");
    d->figures = tj_get(e, "Figures");
    d->file = file;
    d->line = e->key_line;
    d->col = e->key_col;
    if (!d->when && !(d->from && d->to)) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, e->key_line, e->key_col,
                  "rule '%s', event '%s': needs \"From\" and \"To\", or \"When\"", r->name,
                  e->key);
        return;
    }
    if (!d->figures) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, e->key_line, e->key_col,
                  "rule '%s', event '%s': no \"Figures\"", r->name, e->key);
        return;
    }
    r->nevents++;
}

/* The place of NAME's index in x (UINT32_MAX there when NAME is new), or
 * NULL when memory ran out. */
static uint32_t *name_slot(viz_names *x, const char *name)
{
    if (!x->pool && !(x->pool = intern_new()))
        return NULL;
    uint32_t id = intern_add(x->pool, name, strlen(name));
    size_t n = intern_count(x->pool);
    if (id == UINT32_MAX || GROW(x->at, x->cap, n) < 0)
        return NULL;
    while (x->len < n) /* id 0, the empty name, is in every pool from the start */
        x->at[x->len++] = UINT32_MAX;
    return &x->at[id];
}

void viz_free_names(builder *b)
{
    intern_free(b->rule_names.pool);
    free(b->rule_names.at);
    intern_free(b->shape_names.pool);
    free(b->shape_names.at);
}

static void read_rule(builder *b, const tj_node *rn, const char *file)
{
    if (rn->type != TJ_OBJECT) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, rn->line, rn->col,
                  "visualization rule '%s' must be an object, found %s", rn->key,
                  tj_type_name(rn->type));
        return;
    }
    const char *style = viz_str_member(rn, "Style");
    if (style && strcasecmp(style, "Script") == 0) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, rn->key_line, rn->key_col,
                  "visualization rule '%s' is an external-process rule; tlv does not run "
                  "those for drawing",
                  rn->key);
        return;
    }
    uint32_t *at = name_slot(&b->rule_names, rn->key);
    if (!at)
        return;
    viz_rule *r = NULL; /* a later definition replaces an earlier one */
    if (*at == UINT32_MAX) {
        if (GROW(b->rules, b->rules_cap, b->nrules + 1) < 0)
            return;
        *at = (uint32_t)b->nrules;
        r = &b->rules[b->nrules++];
    } else {
        r = &b->rules[*at];
        free(r->events);
        free(r->flows);
    }
    memset(r, 0, sizeof *r);
    r->name = rn->key;
    r->display = viz_str_member(rn, "DisplayName");
    r->file = file;
    r->line = rn->key_line;
    r->col = rn->key_col;
    r->type = -1;
    const char *target = viz_str_member(rn, "Target");
    if (target) {
        r->type = model_type_index(b->w->model, target, strlen(target));
        if (r->type < 0) {
            const tj_node *tv = tj_get(rn, "Target");
            diags_add(&b->s->diags, TLV_SEV_ERROR, file, tv->line, tv->col,
                      "rule '%s': Target '%s' is not a resource type", rn->key, target);
            r->type = -2; /* draws nothing */
        }
    }
    const tj_node *evs = tj_get(rn, "Shapes");
    const tj_node *flows = tj_get(rn, "Flows");
    if (flows)
        viz_read_flows(b, r, flows, file);
    if (!evs && flows) {
        r->flows_only = 1;
        return;
    }
    if (!evs || evs->type != TJ_OBJECT) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, rn->key_line, rn->key_col,
                  "rule '%s' has no \"Shapes\" object of events", rn->key);
        return;
    }
    r->events = calloc(evs->count + 1, sizeof *r->events);
    if (!r->events)
        return;
    for (const tj_node *e = evs->child; e; e = e->next)
        if (!tj_shadowed(e))
            read_event(b, r, e, file);
}

static void read_shapes(builder *b, const tj_node *sn, const char *file)
{
    for (const tj_node *s = sn->child; s; s = s->next) {
        if (tj_shadowed(s))
            continue;
        if (s->type != TJ_ARRAY && s->type != TJ_OBJECT) {
            diags_add(&b->s->diags, TLV_SEV_ERROR, file, s->line, s->col,
                      "shape '%s' must be an array of primitives, found %s", s->key,
                      tj_type_name(s->type));
            continue;
        }
        uint32_t *at = name_slot(&b->shape_names, s->key);
        if (!at)
            return;
        if (*at == UINT32_MAX) {
            if (GROW(b->shapes, b->shapes_cap, b->nshapes + 1) < 0)
                return;
            *at = (uint32_t)b->nshapes++;
        }
        shape_def *d = &b->shapes[*at];
        d->name = s->key;
        d->prims = s;
        d->file = file;
    }
}

void viz_read_sources(builder *b)
{
    const struct tlv_rules *r = b->t->rules;
    for (size_t i = 0; i < r->nviz; i++) {
        const tj_node *n = r->viz[i].node;
        if (n->type != TJ_OBJECT)
            continue;
        const tj_node *shapes = tj_get(n, "Shapes");
        if (shapes && shapes->type == TJ_OBJECT)
            read_shapes(b, shapes, r->viz[i].file);
    }
    for (size_t i = 0; i < r->nviz; i++) {
        const tj_node *n = r->viz[i].node;
        const tj_node *rules = n->type == TJ_OBJECT ? tj_get(n, "VisualizeRules") : NULL;
        if (!rules || rules->type != TJ_OBJECT)
            continue;
        for (const tj_node *rn = rules->child; rn; rn = rn->next)
            if (!tj_shadowed(rn))
                read_rule(b, rn, r->viz[i].file);
    }
}

const shape_def *viz_find_shape(const builder *b, const char *name, size_t n)
{
    const viz_names *x = &b->shape_names;
    uint32_t id = x->pool ? intern_find(x->pool, name, n) : UINT32_MAX;
    return id < x->len && x->at[id] != UINT32_MAX ? &b->shapes[x->at[id]] : NULL;
}
