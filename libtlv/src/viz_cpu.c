/*
 * viz_cpu.c — per-CPU mode: one row per value of the CPU attribute, the
 * resources that start on it grouped under it, and one bar per interval in
 * which a resource was running, on the row of the processor it ran on.
 */
#include "viz_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_cpu_values(const void *pa, const void *pb, const intern_pool *pool)
{
    const char *a = intern_str(pool, *(const uint32_t *)pa);
    const char *b = intern_str(pool, *(const uint32_t *)pb);
    return value_compare(a, strlen(a), b, strlen(b));
}

/* Sorting CPU values needs the pool: insertion sort, there are few of them. */
static void sort_cpu_values(builder *b)
{
    for (size_t i = 1; i < b->ncpus; i++)
        for (size_t j = i; j > 0 && cmp_cpu_values(&b->cpu_values[j - 1], &b->cpu_values[j],
                                                   b->w->values) > 0;
             j--) {
            uint32_t tmp = b->cpu_values[j];
            b->cpu_values[j] = b->cpu_values[j - 1];
            b->cpu_values[j - 1] = tmp;
        }
}

/* Whether two CPU values name one processor: "000" and "0" do (values that
 * are numbers compare as numbers, as in conditions). */
static int same_cpu(const builder *b, uint32_t x, uint32_t y)
{
    if (x == y)
        return 1;
    const char *a = intern_str(b->w->values, x), *c = intern_str(b->w->values, y);
    return value_compare(a, strlen(a), c, strlen(c)) == 0;
}

static void note_cpu_value(builder *b, uint32_t v, size_t *cap)
{
    if (intern_len(b->w->values, v) == 0)
        return; /* no processor */
    for (size_t i = 0; i < b->ncpus; i++)
        if (same_cpu(b, b->cpu_values[i], v))
            return;
    if (GROW(b->cpu_values, *cap, b->ncpus + 1) == 0)
        b->cpu_values[b->ncpus++] = v;
}

/* Finds the CPU attribute of each type and every value it takes. */
int viz_collect_cpus(builder *b)
{
    const world *w = b->w;
    const char *attr = b->opts->cpu_attribute;
    b->cpu_attr = malloc((w->model->ntypes + 1) * sizeof *b->cpu_attr);
    if (!b->cpu_attr)
        return -1;
    for (size_t t = 0; t < w->model->ntypes; t++)
        b->cpu_attr[t] = model_attr_index(&w->model->types[t], attr, strlen(attr));
    uint32_t name = intern_add(w->values, attr, strlen(attr));
    size_t cap = 0;
    /* The log's spelling first: a processor the log calls "000" is not
     * labelled with the default's "0". */
    for (int initial = 0; initial <= 1; initial++)
        for (size_t i = 0; i < b->nev; i++) {
            const vevent *e = &b->ev[i];
            if (e->initial == initial && e->kind == TLV_EVENT_ATTRIBUTE && e->name == name &&
                b->cpu_attr[w->res[e->res].type] >= 0)
                note_cpu_value(b, e->value, &cap);
        }
    sort_cpu_values(b);
    if (!b->ncpus)
        diags_add(&b->s->diags, TLV_SEV_WARNING, NULL, 0, 0,
                  "per-CPU mode: no resource has a value for attribute '%s'", attr);
    return 0;
}

static long cpu_index(const builder *b, uint32_t v)
{
    for (size_t i = 0; i < b->ncpus; i++)
        if (same_cpu(b, b->cpu_values[i], v))
            return (long)i;
    return -1;
}

uint32_t viz_cpu_row(const builder *b, uint32_t v)
{
    long c = b->cpu_row ? cpu_index(b, v) : -1;
    return c >= 0 ? b->cpu_row[c] : UINT32_MAX;
}

int viz_build_cpu_rows(builder *b)
{
    const world *w = b->w;
    b->cpu_row = malloc((b->ncpus + 1) * sizeof *b->cpu_row);
    if (!b->cpu_row)
        return -1;
    for (size_t c = 0; c < b->ncpus; c++) {
        buf label = BUF_INIT;
        buf_printf(&label, "CPU %s", intern_str(w->values, b->cpu_values[c]));
        b->cpu_row[c] = (uint32_t)b->s->nrows;
        int rc = viz_add_row(b->s, buf_str(&label), NULL, buf_str(&label));
        if (rc == 0)
            for (size_t r = 0; r < w->nres && rc == 0; r++) {
                long a = b->cpu_attr[w->res[r].type];
                if (a < 0 || !viz_type_is_drawn(b, w->res[r].type) ||
                    !same_cpu(b, w->res[r].attrs[a].init, b->cpu_values[c]))
                    continue;
                rc = viz_add_resource_row(b, r);
                free(b->s->rows[b->s->nrows - 1].group);
                b->s->rows[b->s->nrows - 1].group = xstrdup(buf_str(&label));
            }
        buf_free(&label);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* The two primitives of a running bar in one resource's color. */
static int running_prims(builder *b, size_t res, uint32_t *first)
{
    char json[256];
    uint32_t color = b->w->res[res].color & 0xffffff;
    snprintf(json, sizeof json,
             "[{\"Type\":\"Rectangle\",\"Size\":\"100%%,90%%\",\"Location\":\"0,5%%\","
             "\"Fill\":\"99%06x\",\"Pen\":{\"Color\":\"ff%06x\"}},"
             "{\"Type\":\"Text\",\"Text\":\"${ARG0}\",\"Font\":{\"Align\":\"MiddleLeft\","
             "\"Size\":7}}]",
             (unsigned)color, (unsigned)color);
    tj_error err;
    tj_node *arr = tj_parse(json, strlen(json), &err);
    if (!arr)
        return -1;
    shape_def sd = {"perCpu running", arr, NULL};
    char hex[8];
    snprintf(hex, sizeof hex, "%06x", (unsigned)color);
    const char *args[] = {b->w->res[res].display, hex}; /* the color keeps the cache apart */
    uint32_t count;
    int rc = viz_prims_for(b, &sd, args, 2, UINT32_MAX, first, &count);
    tj_free(arr);
    return rc == 0 && count == 2 ? 0 : -1;
}

/* One bar per interval in which a resource was running, on the row of the
 * processor it ran on. */
void viz_draw_running(builder *b)
{
    const world *w = b->w;
    const char *ra = b->opts->running_attribute ? b->opts->running_attribute : "state";
    const char *rv = b->opts->running_value ? b->opts->running_value : "RUNNING";
    uint32_t rule = intern_add(b->s->names, "perCpu", 6);
    uint32_t event = intern_add(b->s->names, "running", 7);
    uint32_t running = intern_add(w->values, rv, strlen(rv));
    for (size_t r = 0; r < w->nres; r++) {
        const res_type *t = &w->model->types[w->res[r].type];
        long cpu = b->cpu_attr[w->res[r].type];
        long st = model_attr_index(t, ra, strlen(ra));
        uint32_t st_name = st >= 0 ? intern_add(w->values, t->attrs[st].name,
                                                t->attrs[st].name_len) : 0;
        uint32_t first;
        if (cpu < 0 || st < 0 || running_prims(b, r, &first) < 0)
            continue;
        const vevent *open = NULL;
        for (size_t k = 0; k <= b->per_res_n[r]; k++) {
            const vevent *e = k < b->per_res_n[r] ? &b->ev[b->per_res[r][k]] : NULL;
            if (e && !(e->kind == TLV_EVENT_ATTRIBUTE && e->name == st_name))
                continue;
            if (open) {
                uint32_t v = world_attr(b->w, r, (size_t)cpu, &open->time, open->state_seq + 1);
                long c = cpu_index(b, v);
                tlv_time end = e ? e->time : tlv_trace_end(b->t);
                b->cur_value = open->value;
                viz_set_cur_events(b, open, e);
                for (uint32_t i = 0; c >= 0 && i < 2; i++)
                    viz_store_shape(b, open->time, end, b->cpu_row[c], first + i, rule,
                                    event, (uint32_t)r);
            }
            open = e && e->value == running ? e : NULL;
        }
    }
}
