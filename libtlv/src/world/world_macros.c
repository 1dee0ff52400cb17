/*
 * world_macros.c — the macros that read the world (macro.h's host): $EXIST,
 * $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, $RES_COLOR over resolved
 * resource references, and $CLOCK with the conversion's clock. Macro
 * expansion (macro.c) sits below the world and calls these through the
 * macro_host that world_macro_host fills.
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

static int attr_value(world *w, const char *arg, size_t n, const ref_result *r, buf *val,
                      buf *err)
{
    if (r->rest_len < 2 || r->rest[0] != '.') {
        macro_describe(err, M_ATTR, arg, n);
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
    macro_describe(err, M_ATTR, arg, n);
    buf_printf(err, ": type '%s' has no attribute '%.*s'", t->name, (int)nl, name);
    return -1;
}

/* $CLOCK{time} or $CLOCK{time,unit}: a wall-clock time in the TimeScale (or
 * the unit given), crossing midnight with the conversion (clock.h). */
static int clock_value(world *w, const char *arg, size_t n, buf *val, buf *err)
{
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
        macro_describe(err, M_CLOCK, arg, n);
        buf_printf(err, ": %s", buf_str(&why));
    }
    buf_free(&why);
    return rc;
}

/* The macros that read the world's state, on their expanded argument. */
static int evaluate(void *state, int id, const char *arg, size_t n, buf *val, buf *err)
{
    world *w = state;
    if (id == M_CLOCK)
        return clock_value(w, arg, n, val, err);
    ref_result r = w->scratch_ref; /* reuse its array: one allocation per run, not per macro */
    char why[300];
    int rc = 0;
    if (world_resolve(w, arg, n, &r, why, sizeof why) < 0) {
        int unknown_name = strncmp(why, "no resource or resource type", 28) == 0;
        if ((id == M_EXIST || id == M_COUNT) && unknown_name) {
            r.n = 0; /* asking whether a name exists is a fair question */
        } else {
            macro_describe(err, id, arg, n);
            buf_printf(err, ": %s", why);
            w->scratch_ref = r;
            return -1;
        }
    }
    if (id != M_ATTR && r.rest_len) {
        macro_describe(err, id, arg, n);
        buf_printf(err, ": unexpected '%.*s' after the resource", (int)r.rest_len, r.rest);
        w->scratch_ref = r;
        return -1;
    }
    char tmp[32];
    switch (id) {
    case M_EXIST: rc = buf_puts(val, r.n ? "True" : "False"); break;
    case M_COUNT:
        snprintf(tmp, sizeof tmp, "%zu", r.n);
        rc = buf_puts(val, tmp);
        break;
    default:
        if (single(w, id, arg, n, &r, err) < 0) {
            rc = -1;
            break;
        }
        if (id == M_ATTR)
            rc = attr_value(w, arg, n, &r, val, err);
        else if (id == M_RES_NAME)
            rc = buf_puts(val, w->res[r.items[0]].name);
        else if (id == M_RES_DISPLAYNAME)
            rc = buf_puts(val, w->res[r.items[0]].display);
        else {
            snprintf(tmp, sizeof tmp, "%06x", (unsigned)w->res[r.items[0]].color);
            rc = buf_puts(val, tmp);
        }
    }
    w->scratch_ref = r;
    return rc;
}

void world_macro_host(world *w, macro_host *h)
{
    h->state = w;
    h->eval = evaluate;
    h->seq = &w->next_seq;
    h->static_changes = &w->static_changes;
    h->nres = &w->nres;
    h->read_dynamic = &w->read_dynamic;
}
