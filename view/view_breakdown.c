/*
 * view_breakdown.c — what every shown row spent its time on inside the
 * selected range (libtlv's tlv_shapes_breakdown per row; a CPU-load track's
 * busy time from tlv_stats), kept until the range, the shapes or
 * the rows shown change; as JSON for dump-state and as
 * CSV for the clipboard and files. The range panel draws and sorts it.
 */
#include "view/core.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

struct view_breakdown {
    breakdown_line *v;
    size_t n, cap;
    int valid;
    unsigned range_gen, shapes_gen;
    size_t nbands;
    const size_t *bands;
};

void breakdown_free(view_breakdown *b)
{
    if (!b)
        return;
    free(b->v);
    free(b);
}

static int push(view_breakdown *b, const breakdown_line *l)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        breakdown_line *v = realloc(b->v, cap * sizeof *v);
        if (!v)
            return -1;
        b->v = v;
        b->cap = cap;
    }
    b->v[b->n++] = *l;
    return 0;
}

/* A CPU-load track's line: the time its processors were busy in the range
 * (the whole system's: processor time, so its share of the range may reach
 * the number of processors, as `top` has it), in how many stretches, the
 * shortest, mean and longest. */
static void push_load(const view_app *a, view_breakdown *b, size_t band, long track)
{
    const view_track *k = &a->tracks.v[track];
    if (k->kind != TRACK_LOAD)
        return;
    double len = a->range1 - a->range0;
    double busy = tlv_stats_busy_in(a->tracks.stats, k->index, a->range0, a->range1);
    if (!(len > 0))
        return;
    double lo, hi;
    size_t n = tlv_stats_busy_spans(a->tracks.stats, k->index, a->range0, a->range1, &lo, &hi);
    if (!n)
        return;
    breakdown_line l = {TLV_VIEW_ROW_BLANK - 1 - band, k->name, k->name,
                        {"load", "busy", n, busy, busy / len, lo, busy / (double)n, hi}};
    push(b, &l);
}

/* The rows shown, top to bottom (collapsed groups' rows are not); a load
 * track's busy and idle time. */
static void compute(const view_app *a, view_breakdown *b)
{
    b->n = 0;
    size_t nbands;
    const size_t *bands = rows_list(a, &nbands);
    size_t nrows = bands ? nbands : tlv_shapes_row_count(a->shapes);
    tlv_time t0 = view_exact_time(a, a->range0), t1 = view_exact_time(a, a->range1);
    for (size_t k = 0; k < nrows; k++) {
        size_t row = bands ? bands[k] : k;
        if (row == TLV_VIEW_ROW_BLANK && bands && a->rows.band_track[k] >= 0)
            push_load(a, b, k, a->rows.band_track[k]);
        if (row == TLV_VIEW_ROW_BLANK)
            continue;
        tlv_row_info ri;
        tlv_shapes_row(a->shapes, row, &ri);
        tlv_breakdown_entry *e;
        size_t n;
        if (tlv_shapes_breakdown(a->shapes, row, t0, t1, &e, &n) != TLV_OK)
            continue;
        for (size_t i = 0; i < n; i++) {
            breakdown_line l = {row, ri.resource ? ri.resource : ri.label, ri.label, e[i]};
            push(b, &l);
        }
        tlv_breakdown_free(e);
    }
}

const breakdown_line *breakdown_lines(const view_app *a, size_t *count)
{
    view_breakdown *b = a->core->breakdown;
    *count = 0;
    if (!b || !a->has_range || !a->shapes)
        return NULL;
    size_t nbands;
    const size_t *bands = rows_list(a, &nbands);
    if (!b->valid || b->range_gen != a->range_gen || b->shapes_gen != a->shapes_gen ||
        b->bands != bands || b->nbands != nbands) {
        compute(a, b);
        b->valid = 1;
        b->range_gen = a->range_gen;
        b->shapes_gen = a->shapes_gen;
        b->bands = bands;
        b->nbands = nbands;
    }
    *count = b->n;
    return b->v;
}

view_breakdown *breakdown_new(void) { return calloc(1, sizeof(view_breakdown)); }

void breakdown_dump_json(const view_app *a, cJSON *o)
{
    size_t n;
    const breakdown_line *l = breakdown_lines(a, &n);
    if (!a->has_range) {
        cJSON_AddNullToObject(o, "range");
        return;
    }
    cJSON *r = cJSON_AddObjectToObject(o, "range");
    cJSON_AddNumberToObject(r, "t0", a->range0);
    cJSON_AddNumberToObject(r, "t1", a->range1);
    cJSON_AddNumberToObject(r, "length", a->range1 - a->range0);
    cJSON *rows = cJSON_AddObjectToObject(r, "rows");
    cJSON *list = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!list || i == 0 || l[i].row != l[i - 1].row)
            list = cJSON_AddArrayToObject(rows, l[i].name);
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "value", l[i].e.value);
        cJSON_AddNumberToObject(e, "total", l[i].e.total);
        cJSON_AddNumberToObject(e, "count", (double)l[i].e.count);
        cJSON_AddNumberToObject(e, "min", l[i].e.min);
        cJSON_AddNumberToObject(e, "mean", l[i].e.mean);
        cJSON_AddNumberToObject(e, "max", l[i].e.max);
        cJSON_AddStringToObject(e, "rule", l[i].e.rule);
        cJSON_AddNumberToObject(e, "share", l[i].e.share);
        json_push(list, e);
    }
}

/* A CSV field (quoted when it holds a comma, a quote or a line end), or
 * when `raw` a separator as it is. */
static void put(char **s, size_t *len, size_t *cap, const char *f, int raw)
{
    int quote = !raw && strpbrk(f, ",\"\r\n") != NULL;
    size_t need = *len + 2 * strlen(f) + 4;
    if (need > *cap) {
        size_t cap2 = *cap * 2 > need ? *cap * 2 : need;
        char *t = realloc(*s, cap2);
        if (!t)
            return;
        *s = t;
        *cap = cap2;
    }
    char *p = *s + *len;
    if (quote)
        *p++ = '"';
    for (; *f; f++) {
        if (*f == '"' && quote)
            *p++ = '"';
        *p++ = *f;
    }
    if (quote)
        *p++ = '"';
    *p = '\0';
    *len = (size_t)(p - *s);
}

char *breakdown_csv(const view_app *a, const size_t *order, size_t n)
{
    size_t count;
    const breakdown_line *l = breakdown_lines(a, &count);
    size_t len = 0, cap = 256;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[0] = '\0';
    const char *head[] = {"row", "rule", "value", "total", "percent", "count", "min", "mean", "max"};
    for (size_t i = 0; i < 9; i++) {
        put(&s, &len, &cap, head[i], 0);
        put(&s, &len, &cap, i < 8 ? "," : "\n", 1);
    }
    for (size_t k = 0; k < n && k < count; k++) {
        const breakdown_line *x = &l[order ? order[k] : k];
        char num[6][40];
        snprintf(num[0], sizeof num[0], "%.12g", x->e.total);
        snprintf(num[1], sizeof num[1], "%.4f", x->e.share * 100);
        snprintf(num[2], sizeof num[2], "%zu", x->e.count);
        snprintf(num[3], sizeof num[3], "%.12g", x->e.min);
        snprintf(num[4], sizeof num[4], "%.12g", x->e.mean);
        snprintf(num[5], sizeof num[5], "%.12g", x->e.max);
        const char *fields[] = {x->name, x->e.rule, x->e.value, num[0], num[1],
                                num[2], num[3], num[4], num[5]};
        for (size_t i = 0; i < 9; i++) {
            put(&s, &len, &cap, fields[i], 0);
            put(&s, &len, &cap, i < 8 ? "," : "\n", 1);
        }
    }
    return s;
}
