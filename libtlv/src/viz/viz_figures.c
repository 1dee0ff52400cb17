/*
 * viz_figures.c — figure expansion: a Figures entry (a shape reference, an
 * array of them, or an object of conditions) evaluated for one interval or
 * instant, each referenced shape's primitives resolved once per argument list
 * and stored as shapes with the value of the event that opened them.
 */
#include "viz/viz_build.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The primitives of shape sd with `args`, parsed once per distinct `key`. */
int viz_prims_for_key(builder *b, const shape_def *sd, const char *const *args, size_t nargs,
                      uint32_t row, const buf *key, uint32_t *first, uint32_t *count)
{
    uint32_t id = intern_add(b->prim_keys, buf_str(key), key->len);
    if (id == UINT32_MAX || (b->unit && viz_unit_note_key(b, id, sd, args, nargs, row) < 0))
        return -1;
    if (id < b->keys_cap && b->key_count[id] != UINT32_MAX) {
        *first = b->key_first[id];
        *count = b->key_count[id];
        return *count ? 0 : -1;
    }
    size_t cap = b->keys_cap;
    if (GROW(b->key_first, cap, (size_t)id + 1) < 0)
        return -1;
    size_t cap2 = b->keys_cap;
    if (GROW(b->key_count, cap2, (size_t)id + 1) < 0)
        return -1;
    for (size_t i = b->keys_cap; i < cap; i++)
        b->key_count[i] = UINT32_MAX;
    b->keys_cap = cap;
    struct tlv_shapes *s = b->s;
    b->key_first[id] = (uint32_t)s->nprims;
    b->key_count[id] = 0;
    for (const tj_node *pn = sd->prims->type == TJ_ARRAY ? sd->prims->child : sd->prims; pn;
         pn = sd->prims->type == TJ_ARRAY ? pn->next : NULL) {
        if (GROW(s->prims, s->prims_cap, s->nprims + 1) < 0)
            return -1;
        char err[300];
        if (prim_parse(pn, args, nargs, &s->prims[s->nprims], err, sizeof err) < 0) {
            char msg[400];
            snprintf(msg, sizeof msg, "shape '%s': %s", sd->name, err);
            if (!b->unit) /* a worker's: the main builder reports it (viz_parallel.c) */
                viz_error(b, msg, NULL);
            continue;
        }
        s->nprims++;
        b->key_count[id]++;
    }
    *first = b->key_first[id];
    *count = b->key_count[id];
    if (b->unit && viz_unit_prims_made(b, id, *first, *count) < 0)
        return -1;
    return 0;
}

static int any_auto_values(const struct tlv_shapes *s, uint32_t first, uint32_t count)
{
    for (uint32_t i = 0; i < count; i++)
        if (s->prims[first + i].auto_values)
            return 1;
    return 0;
}

/* Notes which row primitives [first, first + count) belong to, so that
 * viz_fit_values can place their v(VALUE) lengths in that row's range. */
int viz_note_prim_row(builder *b, uint32_t first, uint32_t count, uint32_t row)
{
    size_t had = b->prim_row_cap;
    if (GROW(b->prim_row, b->prim_row_cap, (size_t)first + count) < 0)
        return -1;
    for (size_t i = had; i < b->prim_row_cap; i++)
        b->prim_row[i] = UINT32_MAX;
    for (uint32_t i = 0; i < count; i++)
        b->prim_row[first + i] = row;
    return 0;
}

int viz_prim_key(buf *key, const shape_def *sd, const char *const *args, size_t nargs,
                 uint32_t row)
{
    buf_clear(key);
    int rc = buf_puts(key, sd->name);
    for (size_t i = 0; i < nargs; i++)
        rc |= buf_putc(key, '\x1f') | buf_puts(key, args[i]);
    if (row != UINT32_MAX)
        rc |= buf_printf(key, "\x1e%u", (unsigned)row);
    return rc < 0 ? -1 : 0;
}

int viz_prims_for(builder *b, const shape_def *sd, const char *const *args, size_t nargs,
                  uint32_t row, uint32_t *first, uint32_t *count)
{
    buf key = BUF_INIT;
    viz_prim_key(&key, sd, args, nargs, UINT32_MAX);
    int rc = viz_prims_for_key(b, sd, args, nargs, UINT32_MAX, &key, first, count);
    /* v(VALUE) without bounds depends on the row's range: such primitives
     * are kept per row. */
    if (rc == 0 && row != UINT32_MAX && any_auto_values(b->s, *first, *count)) {
        viz_prim_key(&key, sd, args, nargs, row);
        rc = viz_prims_for_key(b, sd, args, nargs, row, &key, first, count);
        if (rc == 0)
            rc = viz_note_prim_row(b, *first, *count, row);
    }
    buf_free(&key);
    return rc;
}

void viz_fit_values(builder *b)
{
    struct tlv_shapes *s = b->s;
    size_t n = s->nprims < b->prim_row_cap ? s->nprims : b->prim_row_cap;
    uint32_t nrows = 0;
    for (size_t i = 0; i < n; i++)
        if (b->prim_row[i] != UINT32_MAX && b->prim_row[i] + 1 > nrows)
            nrows = b->prim_row[i] + 1;
    double *lo = malloc((nrows + 1) * sizeof *lo), *hi = malloc((nrows + 1) * sizeof *hi);
    if (lo && hi) {
        for (uint32_t r = 0; r < nrows; r++) {
            lo[r] = INFINITY;
            hi[r] = -INFINITY;
        }
        for (size_t i = 0; i < n; i++)
            if (b->prim_row[i] != UINT32_MAX)
                prim_value_range(&s->prims[i], &lo[b->prim_row[i]], &hi[b->prim_row[i]]);
        for (size_t i = 0; i < n; i++)
            if (b->prim_row[i] != UINT32_MAX)
                prim_fit_values(&s->prims[i], lo[b->prim_row[i]], hi[b->prim_row[i]]);
    }
    free(lo);
    free(hi);
}

/* Adds one shape in drawing order, remembering its event's value by order
 * (the store sorts shapes, the order stays theirs). */
int viz_store_shape(builder *b, tlv_time from, tlv_time to, uint32_t row, uint32_t prim,
                    uint32_t rule, uint32_t event, uint32_t res)
{
    if (b->unit) /* a worker's: into its unit, merged in order later */
        return viz_unit_add_shape(b, from, to, row, prim, rule, event, res);
    struct tlv_shapes *s = b->s;
    /* Read back only when a shape is asked about: once large, in files. */
    size_t min = b->t->file_min;
    if (BULK_GROW(s->values_file, s->values, s->values_cap, (size_t)b->next_order + 1, min) < 0 ||
        BULK_GROW(s->events_file, s->events, s->events_cap, 2 * (size_t)b->next_order + 2, min) < 0)
        return -1;
    s->values[b->next_order] = b->cur_value;
    s->events[2 * (size_t)b->next_order] = b->cur_events[0];
    s->events[2 * (size_t)b->next_order + 1] = b->cur_events[1];
    s->nvalues = (size_t)b->next_order + 1;
    shape sh = {from, to, row, prim, rule, event, res, b->next_order++};
    return store_add(s->store, &sh);
}

/* A figure reference (its text after substitution) that resolved to
 * primitives the same for every row: what resolving it again would find.
 * Most intervals draw one of a few references ("state(RUNNING)"): looked
 * up by their text, they skip the parsing, the key and its lookup (a
 * quarter of drawing the intervals at 1M lines). */
typedef struct ref_memo {
    const shape_def *sd;
    uint32_t key;          /* in b->prim_keys */
    char *args;            /* its arguments, each ending in '\0' */
    size_t nargs;
} ref_memo;

void viz_free_refs(builder *b)
{
    uint32_t n = b->ref_texts ? intern_count(b->ref_texts) : 0;
    for (uint32_t i = 0; i < n && i < b->refs_cap; i++)
        free(b->refs[i].args);
    free(b->refs);
    intern_free(b->ref_texts);
    b->ref_texts = NULL;
    b->refs = NULL;
    b->refs_cap = 0;
}

/* Remembers reference `ref` (n bytes) as shape sd with these arguments,
 * whose primitives were just resolved without a row. Nothing on failure:
 * the reference is resolved again next time. */
static void remember_ref(builder *b, const char *ref, size_t n, const shape_def *sd,
                         const char *const *args, size_t nargs)
{
    buf key = BUF_INIT;
    uint32_t k = viz_prim_key(&key, sd, args, nargs, UINT32_MAX) == 0
                     ? intern_find(b->prim_keys, buf_str(&key), key.len)
                     : UINT32_MAX;
    buf_free(&key);
    if (k == UINT32_MAX)
        return;
    if (!b->ref_texts) { /* its id 0 is the empty text, which names no shape */
        if (GROW(b->refs, b->refs_cap, 1) < 0)
            return;
        b->refs[0] = (ref_memo){NULL, 0, NULL, 0};
        /* Made last: a pool without its slot 0 set would have
         * viz_free_refs free whatever that slot held. */
        if (!(b->ref_texts = intern_new()))
            return;
    }
    size_t len = 0;
    for (size_t i = 0; i < nargs; i++)
        len += strlen(args[i]) + 1;
    char *text = malloc(len + 1);
    uint32_t had = intern_count(b->ref_texts);
    if (!text || GROW(b->refs, b->refs_cap, (size_t)had + 1) < 0) {
        free(text);
        return;
    }
    uint32_t id = intern_add(b->ref_texts, ref, n);
    if (id != had) { /* known already, or no memory */
        free(text);
        return;
    }
    for (size_t i = 0, at = 0; i < nargs; i++) {
        size_t l = strlen(args[i]) + 1;
        memcpy(text + at, args[i], l);
        at += l;
    }
    b->refs[id] = (ref_memo){sd, k, text, nargs};
}

/* add_shapes for a remembered reference: as resolving it again would. */
static int add_ref_shapes(builder *b, const ref_memo *m, tlv_time from, tlv_time to,
                          uint32_t row, uint32_t event_id, uint32_t res)
{
    if (b->unit) {
        const char *args[STD_MAX_ARGS];
        const char *a = m->args;
        for (size_t i = 0; i < m->nargs; i++, a += strlen(a) + 1)
            args[i] = a;
        if (viz_unit_note_key(b, m->key, m->sd, args, m->nargs, UINT32_MAX) < 0)
            return -1;
    }
    uint32_t first = b->key_first[m->key], count = b->key_count[m->key];
    for (uint32_t i = 0; i < count; i++)
        if (viz_store_shape(b, from, to, row, first + i, b->cur_rule->name_id, event_id, res) < 0)
            return -1;
    return 0;
}

static int add_shapes(builder *b, const char *ref, tlv_time from, tlv_time to, uint32_t row,
                      uint32_t event_id, uint32_t res)
{
    size_t n = strlen(ref);
    const char *open = memchr(ref, '(', n);
    const char *name = ref;
    size_t nl = open ? (size_t)(open - ref) : n;
    viz_trim(&name, &nl);
    const shape_def *sd = viz_find_shape(b, name, nl);
    if (!sd) {
        char msg[300];
        snprintf(msg, sizeof msg, "figure '%.*s' names no shape", (int)nl, name);
        viz_error(b, msg, NULL);
        return -1;
    }
    const char *args[STD_MAX_ARGS];
    size_t lens[STD_MAX_ARGS], nargs = 0;
    buf store = BUF_INIT;
    if (open) {
        const char *close = ref + n;
        while (close > open && close[-1] != ')')
            close--;
        if (close <= open + 1 && close[-1] != ')') {
            viz_error(b, "figure reference without its ')': ", ref);
            return -1;
        }
        nargs = viz_split_args(open + 1, (size_t)(close - 1 - (open + 1)), &store, args,
                               lens, STD_MAX_ARGS);
        for (size_t i = 0; i < nargs; i++)
            ((char *)args[i])[lens[i]] = '\0'; /* trimmed in place */
    }
    uint32_t first, count;
    int rc = viz_prims_for(b, sd, args, nargs, row, &first, &count);
    if (rc == 0 && count && !any_auto_values(b->s, first, count))
        remember_ref(b, ref, n, sd, args, nargs);
    buf_free(&store);
    if (rc < 0)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        if (viz_store_shape(b, from, to, row, first + i, b->cur_rule->name_id, event_id, res) < 0)
            return -1;
    return 0;
}

typedef struct draw_ctx {
    const subst_ctx *sc;
    tlv_time from, to;
    uint32_t row, event_id, res;
} draw_ctx;

static int eval_figures(builder *b, const tj_node *f, const draw_ctx *d, int depth)
{
    if (depth > 32) {
        viz_error(b, "figures nested more than 32 levels deep", NULL);
        return -1;
    }
    if (f->type == TJ_STRING) {
        if (viz_expand(b, d->sc, f->str, 1) < 0)
            return -1;
        uint32_t known = b->ref_texts ? intern_find(b->ref_texts, buf_str(&b->a), b->a.len)
                                      : UINT32_MAX;
        if (known != UINT32_MAX && known != 0)
            return add_ref_shapes(b, &b->refs[known], d->from, d->to, d->row, d->event_id,
                                  d->res);
        char *ref = xstrndup(buf_str(&b->a), b->a.len);
        int rc = ref ? add_shapes(b, ref, d->from, d->to, d->row, d->event_id, d->res) : -1;
        free(ref);
        return rc;
    }
    if (f->type == TJ_ARRAY) {
        for (const tj_node *c = f->child; c; c = c->next)
            eval_figures(b, c, d, depth + 1);
        return 0;
    }
    if (f->type == TJ_OBJECT) {
        subst_ctx plain = *d->sc; /* conditions see a missing value as empty */
        plain.open_label = 0;
        for (const tj_node *c = f->child; c; c = c->next)
            if (!tj_shadowed(c) && viz_condition_holds(b, &plain, c->key))
                eval_figures(b, c, d, depth + 1);
        return 0;
    }
    viz_error(b, "Figures must be a string, an array or an object of conditions", NULL);
    return -1;
}

/* What tlv_shape_info.value reports for a shape opened by `e`: the value an
 * attribute change set; a behavior's single argument, or its arguments
 * joined with commas (as written in the log, for tooltips and exports),
 * interned in the shapes' pool; UINT32_MAX (NULL) for none. */
static uint32_t shape_value(builder *b, const vevent *e)
{
    if (e->kind == TLV_EVENT_ATTRIBUTE)
        return e->value < VALUE_OWN ? e->value : UINT32_MAX;
    if (e->kind != TLV_EVENT_BEHAVIOR || e->nargs == 0)
        return UINT32_MAX;
    if (e->nargs == 1)
        return viz_args(b, e)[0] < VALUE_OWN ? viz_args(b, e)[0] : UINT32_MAX;
    char mem[256];
    buf j;
    buf_init_borrowed(&j, mem, sizeof mem);
    int failed = 0;
    for (uint32_t i = 0; i < e->nargs; i++)
        failed |= (i && buf_putc(&j, ',') < 0) ||
                  buf_append(&j, intern_str(b->w->values, viz_args(b, e)[i]),
                             intern_len(b->w->values, viz_args(b, e)[i])) < 0;
    uint32_t id = failed ? UINT32_MAX : intern_add(b->s->joined, j.data, j.len);
    buf_free(&j);
    return id < VALUE_OWN ? id | VALUE_OWN : UINT32_MAX;
}

/* The event's "Value" substituted for this interval (a breakdown groups
 * the strace rules' calls by name, not by arguments), interned as
 * shape_value interns its joined arguments; shape_value's when it has none
 * or it fails (the failure is reported). */
static uint32_t declared_value(builder *b, const event_def *d, const subst_ctx *sc)
{
    if (!d->value)
        return shape_value(b, sc->from);
    if (viz_expand(b, sc, d->value, 0) < 0)
        return shape_value(b, sc->from);
    uint32_t id = intern_add(b->s->joined, buf_str(&b->a), b->a.len);
    return id < VALUE_OWN ? id | VALUE_OWN : UINT32_MAX;
}

static uint32_t trace_index(const builder *b, const vevent *e)
{
    if (!e || e->initial)
        return UINT32_MAX;
    return (uint32_t)((size_t)(e - b->ev) - b->ninit);
}

void viz_set_cur_events(builder *b, const vevent *from, const vevent *to)
{
    b->cur_events[0] = trace_index(b, from);
    b->cur_events[1] = trace_index(b, to);
}

static void draw_pieces(builder *b, const event_def *d, const subst_ctx *sc,
                        const viz_piece *p, size_t n, uint32_t event, uint32_t res)
{
    for (size_t k = 0; k < n; k++) {
        draw_ctx dc = {sc, p[k].from, p[k].to, p[k].row, event, res};
        if (dc.row != UINT32_MAX)
            eval_figures(b, d->figures, &dc, 0);
    }
}

void viz_draw_interval(builder *b, const event_def *d, const subst_ctx *sc, tlv_time from,
                       tlv_time to, long target)
{
    uint32_t res = target >= 0 ? (uint32_t)target : UINT32_MAX;
    uint32_t event = d->name_id;
    b->cur_value = declared_value(b, d, sc);
    viz_set_cur_events(b, sc->from, sc->is_when ? NULL : sc->to);
    /* In per-CPU mode an interval of a task that migrated is drawn on the
     * row under each processor it was on, for the time it was there; an
     * instant (When) on the processor it happened on. */
    viz_piece pieces[16];
    if (target < 0 || sc->is_when) {
        pieces[0] = (viz_piece){from, to, target < 0 ? b->cur_rule->row
                                                      : viz_res_row_at(b, (size_t)target, from)};
        draw_pieces(b, d, sc, pieces, 1, event, res);
        return;
    }
    for (tlv_time at = from;;) {
        size_t n = viz_res_pieces(b, (size_t)target, at, to, pieces, 16);
        draw_pieces(b, d, sc, pieces, n, event, res);
        if (n < 16 || tlv_time_cmp(pieces[n - 1].to, to) >= 0)
            break;
        at = pieces[n - 1].to;
    }
}
