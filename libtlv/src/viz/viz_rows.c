/*
 * viz_rows.c — the rows of the visualization: one per resource of a type some
 * rule targets, grouped by type (under their processor's row in per-CPU
 * mode), then one per rule without Target.
 */
#include "viz/viz_build.h"

#include <stdlib.h>

int viz_add_row(struct tlv_shapes *s, const char *label, const char *resource,
                const char *group)
{
    if (GROW(s->rows, s->rows_cap, s->nrows + 1) < 0)
        return -1;
    row_def *r = &s->rows[s->nrows++];
    r->label = xstrdup(label);
    r->resource = resource;
    r->group = xstrdup(group ? group : "");
    return 0;
}

int viz_type_is_drawn(const builder *b, size_t type)
{
    for (size_t r = 0; r < b->nrules; r++)
        if (b->rules[r].type == (long)type && !b->rules[r].flows_only)
            return 1;
    return 0;
}

int viz_add_resource_row(builder *b, size_t res)
{
    const world *w = b->w;
    const res_type *t = &w->model->types[w->res[res].type];
    b->res_row[res] = (uint32_t)b->s->nrows;
    return viz_add_row(b->s, world_label(w, res), w->res[res].name, t->display ? t->display : t->name);
}

/* Adds the rows of a type's resources in creation order, except that
 * resources sharing the last (non-empty) value of their "GroupAttribute"
 * (the threads of one process) follow the first of their group. */
static int add_type_rows(builder *b, size_t type)
{
    const world *w = b->w;
    for (size_t k = 0; k < w->nmembers[type]; k++) {
        size_t m = w->members[type][k];
        if (b->res_row[m] != UINT32_MAX)
            continue;
        if (viz_add_resource_row(b, m) < 0)
            return -1;
        uint32_t g = world_decl_attr_last(w, m, 1);
        if (g == UINT32_MAX)
            continue;
        for (size_t j = k + 1; j < w->nmembers[type]; j++) {
            size_t o = w->members[type][j];
            if (b->res_row[o] == UINT32_MAX && world_decl_attr_last(w, o, 1) == g &&
                viz_add_resource_row(b, o) < 0)
                return -1;
        }
    }
    return 0;
}


/* One row per resource of a type some rule targets, grouped by type in the
 * order the resource file first uses each type (in per-CPU mode, grouped
 * under their processor's row first); then one per untargeted rule. */
int viz_build_rows(builder *b)
{
    const world *w = b->w;
    b->res_row = malloc((w->nres + 1) * sizeof *b->res_row);
    if (!b->res_row)
        return -1;
    for (size_t i = 0; i < w->nres; i++)
        b->res_row[i] = UINT32_MAX;
    if (b->opts->cpu_attribute && (viz_collect_cpus(b) < 0 || viz_build_cpu_rows(b) < 0))
        return -1;
    for (size_t i = 0; i < w->nres; i++) {
        size_t type = w->res[i].type;
        if (!viz_type_is_drawn(b, type) || b->res_row[i] != UINT32_MAX)
            continue;
        if (add_type_rows(b, type) < 0)
            return -1;
    }
    for (size_t r = 0; r < b->nrules; r++) {
        if (b->rules[r].type != -1 || b->rules[r].flows_only)
            continue;
        b->rules[r].row = (uint32_t)b->s->nrows;
        const char *label = b->rules[r].display ? b->rules[r].display : b->rules[r].name;
        if (viz_add_row(b->s, label, NULL, label) < 0)
            return -1;
    }
    return 0;
}
