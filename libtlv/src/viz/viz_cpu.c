/*
 * viz_cpu.c — per-CPU mode: one row per value of the CPU attribute, under it
 * a row for each resource that was on it at some time (a task that migrated
 * has a row under each processor it was on, its shapes split at the
 * migrations), and one bar per interval in which a resource was running, on
 * the row of the processor it ran on.
 */
#include "viz/viz_build.h"

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

/* One resource's processors over time: segment k starts at start[k] (the
 * first at the beginning of the trace) on processor cpu[k] (an index into
 * b->cpu_values, or -1: none), up to the next one. */
struct cpu_segs {
    tlv_time *start;
    long *cpu;
    size_t n;
};

static int add_segment(struct cpu_segs *sg, size_t *cap, tlv_time start, long cpu)
{
    if (sg->n && sg->cpu[sg->n - 1] == cpu)
        return 0;
    if (sg->n + 1 > *cap) {
        size_t nc = *cap ? *cap * 2 : 4;
        tlv_time *st = realloc(sg->start, nc * sizeof *st);
        if (st)
            sg->start = st;
        long *cp = realloc(sg->cpu, nc * sizeof *cp);
        if (cp)
            sg->cpu = cp;
        if (!st || !cp)
            return -1;
        *cap = nc;
    }
    sg->start[sg->n] = start;
    sg->cpu[sg->n++] = cpu;
    return 0;
}

/* Each resource's processors over time, from its CPU attribute's initial
 * value and changes. Returns 0 or -1 (no memory). */
static int collect_segments(builder *b)
{
    const world *w = b->w;
    b->cpu_segs = calloc(w->nres + 1, sizeof *b->cpu_segs);
    if (!b->cpu_segs)
        return -1;
    const char *attr = b->opts->cpu_attribute;
    uint32_t name = intern_add(w->values, attr, strlen(attr));
    tlv_time begin = {0, 0};
    for (size_t r = 0; r < w->nres; r++) {
        long a = b->cpu_attr[w->res[r].type];
        if (a < 0)
            continue;
        struct cpu_segs *sg = &b->cpu_segs[r];
        size_t cap = 0;
        if (add_segment(sg, &cap, begin, cpu_index(b, w->res[r].attrs[a].init)) < 0)
            return -1;
        for (size_t k = 0; k < b->per_res_n[r]; k++) {
            const vevent *e = &b->ev[b->per_res[r][k]];
            if (e->kind == TLV_EVENT_ATTRIBUTE && !e->initial && e->name == name &&
                add_segment(sg, &cap, e->time, cpu_index(b, e->value)) < 0)
                return -1;
        }
    }
    return 0;
}

static int was_on(const struct cpu_segs *sg, long c)
{
    for (size_t k = 0; k < sg->n; k++)
        if (sg->cpu[k] == c)
            return 1;
    return 0;
}

int viz_build_cpu_rows(builder *b)
{
    const world *w = b->w;
    b->cpu_row = malloc((b->ncpus + 1) * sizeof *b->cpu_row);
    b->res_cpu_row = malloc((w->nres * b->ncpus + 1) * sizeof *b->res_cpu_row);
    if (!b->cpu_row || !b->res_cpu_row || collect_segments(b) < 0)
        return -1;
    for (size_t i = 0; i < w->nres * b->ncpus; i++)
        b->res_cpu_row[i] = UINT32_MAX;
    for (size_t c = 0; c < b->ncpus; c++) {
        buf label = BUF_INIT;
        buf_printf(&label, "CPU %s", intern_str(w->values, b->cpu_values[c]));
        b->cpu_row[c] = (uint32_t)b->s->nrows;
        int rc = viz_add_row(b->s, buf_str(&label), NULL, buf_str(&label));
        for (size_t r = 0; r < w->nres && rc == 0; r++) {
            const struct cpu_segs *sg = &b->cpu_segs[r];
            if (!sg->n || !viz_type_is_drawn(b, w->res[r].type) || !was_on(sg, (long)c))
                continue;
            b->res_cpu_row[r * b->ncpus + c] = (uint32_t)b->s->nrows;
            if (sg->cpu[0] == (long)c) /* where it starts: its row for the rest */
                b->res_row[r] = (uint32_t)b->s->nrows;
            rc = viz_add_row(b->s, world_label(w, r), w->res[r].name, buf_str(&label));
        }
        buf_free(&label);
        if (rc < 0)
            return -1;
    }
    return 0;
}

void viz_free_cpu_segments(builder *b)
{
    if (!b->cpu_segs)
        return;
    for (size_t r = 0; r < b->w->nres; r++) {
        free(b->cpu_segs[r].start);
        free(b->cpu_segs[r].cpu);
    }
    free(b->cpu_segs);
    b->cpu_segs = NULL;
    free(b->res_cpu_row);
    b->res_cpu_row = NULL;
}

/* The row of resource res while on processor c (-1: none): its row under
 * that processor, else its own row. */
static uint32_t row_on(const builder *b, size_t res, long c)
{
    uint32_t row = c >= 0 ? b->res_cpu_row[res * b->ncpus + (size_t)c] : UINT32_MAX;
    return row != UINT32_MAX ? row : b->res_row[res];
}

/* The segment of sg that time t is in (the last starting at or before t). */
static size_t segment_at(const struct cpu_segs *sg, tlv_time t)
{
    size_t lo = 1, hi = sg->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(sg->start[mid], t) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

uint32_t viz_res_row_at(const builder *b, size_t res, tlv_time t)
{
    const struct cpu_segs *sg = b->cpu_segs ? &b->cpu_segs[res] : NULL;
    if (!sg || sg->n == 0)
        return b->res_row[res];
    return row_on(b, res, sg->cpu[segment_at(sg, t)]);
}

size_t viz_res_pieces(const builder *b, size_t res, tlv_time from, tlv_time to,
                      viz_piece *out, size_t max)
{
    const struct cpu_segs *sg = b->cpu_segs ? &b->cpu_segs[res] : NULL;
    if (!sg || sg->n <= 1 || tlv_time_cmp(from, to) >= 0 || max == 0) {
        out[0] = (viz_piece){from, to, viz_res_row_at(b, res, from)};
        return 1;
    }
    size_t n = 0;
    for (size_t k = segment_at(sg, from); k < sg->n && n < max; k++) {
        if (tlv_time_cmp(sg->start[k], to) >= 0)
            break; /* starts at or after the end: nothing of it */
        tlv_time a = tlv_time_cmp(sg->start[k], from) > 0 ? sg->start[k] : from;
        tlv_time z = k + 1 < sg->n && tlv_time_cmp(sg->start[k + 1], to) < 0 ? sg->start[k + 1] : to;
        uint32_t row = row_on(b, res, sg->cpu[k]);
        if (n && out[n - 1].row == row && tlv_time_cmp(out[n - 1].to, a) == 0)
            out[n - 1].to = z; /* same row on both sides (no processor between) */
        else
            out[n++] = (viz_piece){a, z, row};
    }
    return n;
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

/* The bar of resource r running over [from, to], on the row of each
 * processor it was on meanwhile (it may have migrated while running). */
static void running_bars(builder *b, size_t r, tlv_time from, tlv_time to, uint32_t first,
                         uint32_t rule, uint32_t event)
{
    const struct cpu_segs *sg = &b->cpu_segs[r];
    for (size_t k = segment_at(sg, from); k < sg->n; k++) {
        if (k > segment_at(sg, from) && tlv_time_cmp(sg->start[k], to) >= 0)
            break;
        tlv_time a = tlv_time_cmp(sg->start[k], from) > 0 ? sg->start[k] : from;
        tlv_time z = k + 1 < sg->n && tlv_time_cmp(sg->start[k + 1], to) < 0 ? sg->start[k + 1] : to;
        for (uint32_t i = 0; sg->cpu[k] >= 0 && i < 2; i++)
            viz_store_shape(b, a, z, b->cpu_row[sg->cpu[k]], first + i, rule, event,
                            (uint32_t)r);
        if (tlv_time_cmp(z, to) >= 0)
            break;
    }
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
                tlv_time end = e ? e->time : tlv_trace_end(b->t);
                b->cur_value = open->value;
                viz_set_cur_events(b, open, e);
                running_bars(b, r, open->time, end, first, rule, event);
            }
            open = e && e->value == running ? e : NULL;
        }
    }
}
