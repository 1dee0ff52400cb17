/*
 * world_macros.c — the evaluators of the macros that read the world
 * (MACRO_READS_WORLD in macro.c's table): $EXIST, $COUNT, $ATTR, $RES_NAME,
 * $RES_DISPLAYNAME, $RES_COLOR over resolved resource references, and
 * $CLOCK with the conversion's clock. Macro expansion (macro.c) sits below
 * the world and calls these through the macro_host that world_macro_host
 * fills.
 */
#include "world/world.h"

#include "compile/macro.h"

#include <stdio.h>
#include <string.h>

static int single(world *w, int id, const char *arg, size_t n, const ref_result *r, buf *err)
{
    if (r->n == 1)
        return 0;
    macro_describe(err, id, arg, n);
    if (r->n == 0) {
        buf_puts(err, ": no resource matches; exactly one is needed");
        return -1;
    }
    buf_printf(err, ": %zu resources match (", r->n);
    for (size_t i = 0; i < r->n && i < 5; i++)
        buf_printf(err, "%s%s", i ? ", " : "", w->res[r->items[i]].name);
    buf_puts(err, r->n > 5 ? ", ...); exactly one is needed" : "); exactly one is needed");
    return -1;
}

static int attr_of(world *w, int id, const char *arg, size_t n, const ref_result *r, buf *val,
                   buf *err)
{
    if (r->rest_len < 2 || r->rest[0] != '.') {
        macro_describe(err, id, arg, n);
        buf_puts(err, ": expected Resource.attribute");
        return -1;
    }
    const char *name = r->rest + 1;
    size_t nl = r->rest_len - 1;
    const rt_resource *res = &w->res[r->items[0]];
    const res_type *t = &w->model->types[res->type];
    long ai = model_attr_index(t, name, nl);
    if (ai >= 0) {
        uint32_t v = world_attr(w, r->items[0], (size_t)ai, r->has_time ? &r->time : NULL,
                                SEQ_ALL);
        return buf_append(val, intern_str(w->values, v), intern_len(w->values, v));
    }
    if (nl == 5 && memcmp(name, "_name", 5) == 0)
        return buf_puts(val, res->name);
    if (nl == 12 && memcmp(name, "_displayName", 12) == 0)
        return buf_puts(val, res->display);
    if (nl == 5 && memcmp(name, "_type", 5) == 0)
        return buf_puts(val, t->name);
    macro_describe(err, id, arg, n);
    buf_printf(err, ": type '%s' has no attribute '%.*s'", t->name, (int)nl, name);
    return -1;
}

/* $CLOCK{time} or $CLOCK{time,unit}: a wall-clock time in the TimeScale (or
 * the unit given), crossing midnight with the conversion (clock.h). */
static int clock_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    world *w = state;
    const char *comma = memchr(arg, ',', n);
    const char *unit = w->time_scale ? w->time_scale : "us";
    size_t ulen = strlen(unit), tlen = comma ? (size_t)(comma - arg) : n;
    if (comma) {
        unit = comma + 1;
        ulen = n - tlen - 1;
        while (ulen && *unit == ' ')
            unit++, ulen--;
        while (ulen && unit[ulen - 1] == ' ')
            ulen--;
    }
    int digits = clock_unit_digits(unit, ulen);
    buf why = BUF_INIT;
    int rc = -1;
    if (digits < 0)
        buf_printf(&why, comma ? "unit '%.*s' is not s, ms, us or ns"
                               : "TimeScale '%.*s' is not s, ms, us or ns (name the unit: "
                                 "$CLOCK{time,us})",
                   (int)ulen, unit);
    else if (w->radix != 10)
        buf_printf(&why, "clock times need TimeRadix 10 (it is %d)", w->radix);
    else
        rc = clock_convert(arg, tlen, digits, &w->clock, val, &why);
    if (rc < 0) {
        macro_describe(err, id, arg, n);
        buf_printf(err, ": %s", buf_str(&why));
    }
    buf_free(&why);
    return rc;
}

/* Resolves the resource reference of macro `id` into w->scratch_ref (its
 * array reused: one allocation per run, not per macro). `any_count`: a name
 * that is no resource or type matches nothing rather than failing (whether
 * it exists is a fair question). Returns 0, or -1 with the reason in err. */
static int resolve_ref(world *w, int id, const char *arg, size_t n, int any_count, buf *err)
{
    ref_result r = w->scratch_ref;
    char why[300];
    int rc = world_resolve(w, arg, n, &r, why, sizeof why);
    if (rc < 0 && any_count && strncmp(why, "no resource or resource type", 28) == 0) {
        r.n = 0;
        rc = 0;
    }
    w->scratch_ref = r;
    if (rc < 0) {
        macro_describe(err, id, arg, n);
        buf_printf(err, ": %s", why);
        return -1;
    }
    if (r.rest_len && !(macro_get(id)->flags & MACRO_TAKES_ATTRIBUTE)) {
        macro_describe(err, id, arg, n);
        buf_printf(err, ": unexpected '%.*s' after the resource", (int)r.rest_len, r.rest);
        return -1;
    }
    return 0;
}

/* $EXIST{ref}: "True" when some resource matches, else "False". */
static int exist_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    world *w = state;
    if (resolve_ref(w, id, arg, n, 1, err) < 0)
        return -1;
    return buf_puts(val, w->scratch_ref.n ? "True" : "False");
}

/* $COUNT{ref}: how many resources match. */
static int count_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    world *w = state;
    if (resolve_ref(w, id, arg, n, 1, err) < 0)
        return -1;
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%zu", w->scratch_ref.n);
    return buf_puts(val, tmp);
}

/* The one resource the reference of macro `id` matches, or NULL (err says
 * why: none, or several). */
static const rt_resource *the_resource(world *w, int id, const char *arg, size_t n, buf *err)
{
    if (resolve_ref(w, id, arg, n, 0, err) < 0 || single(w, id, arg, n, &w->scratch_ref, err) < 0)
        return NULL;
    return &w->res[w->scratch_ref.items[0]];
}

/* $ATTR{ref.attribute}: the attribute's value (at a time, with @T). */
static int attr_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    world *w = state;
    if (!the_resource(w, id, arg, n, err))
        return -1;
    return attr_of(w, id, arg, n, &w->scratch_ref, val, err);
}

/* $RES_NAME{ref}: the resource's name. */
static int name_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    const rt_resource *res = the_resource(state, id, arg, n, err);
    return res ? buf_puts(val, res->name) : -1;
}

/* $RES_DISPLAYNAME{ref}: the name it is shown by. */
static int display_name_value(void *state, int id, const char *arg, size_t n, buf *val,
                              buf *err)
{
    const rt_resource *res = the_resource(state, id, arg, n, err);
    return res ? buf_puts(val, res->display) : -1;
}

/* $RES_COLOR{ref}: its colour as six hexadecimal digits. */
static int color_value(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    const rt_resource *res = the_resource(state, id, arg, n, err);
    if (!res)
        return -1;
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%06x", (unsigned)res->color);
    return buf_puts(val, tmp);
}

/* The evaluator of every MACRO_READS_WORLD row of macro.c's table
 * (test_macro checks that none is missing). */
static const macro_eval_fn world_evals[M_NMACROS] = {
    [M_EXIST] = exist_value,
    [M_COUNT] = count_value,
    [M_ATTR] = attr_value,
    [M_RES_NAME] = name_value,
    [M_RES_DISPLAYNAME] = display_name_value,
    [M_RES_COLOR] = color_value,
    [M_CLOCK] = clock_value,
};

void world_macro_host(world *w, macro_host *h)
{
    h->state = w;
    h->evals = world_evals;
    h->seq = &w->next_seq;
    h->static_changes = &w->static_changes;
    h->nres = &w->nres;
    h->read_dynamic = &w->read_dynamic;
}
