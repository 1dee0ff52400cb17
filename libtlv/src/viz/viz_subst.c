/*
 * viz_subst.c — the text of event patterns, figure references and condition
 * keys made concrete: ${TARGET}, ${FROM_*}/${TO_*} (or ${VAL}, ${TIME},
 * ${ARGn} of a When event) substituted, then macros expanded.
 */
#include "viz/viz_build.h"

#include <stdlib.h>
#include <string.h>

static void put_value(buf *out, const char *s, int escape)
{
    if (escape)
        std_escape(out, s, strlen(s));
    else
        buf_puts(out, s);
}

static void put_time(buf *out, const builder *b, tlv_time t)
{
    char text[160];
    size_t n = tlv_time_format(t, b->w->radix, text, sizeof text);
    buf_append(out, text, n < sizeof text ? n : sizeof text - 1);
}

static void put_event_part(buf *out, const builder *b, const vevent *e, const char *part,
                           size_t n, int escape, tlv_time end)
{
    const world *w = b->w;
    if (n == 6 && memcmp(part, "TARGET", 6) == 0) {
        if (e)
            put_value(out, w->res[e->res].name, escape);
    } else if (n == 3 && memcmp(part, "VAL", 3) == 0) {
        if (e && e->kind == TLV_EVENT_ATTRIBUTE)
            put_value(out, intern_str(w->values, e->value), escape);
    } else if (n == 4 && memcmp(part, "TIME", 4) == 0) {
        put_time(out, b, e ? e->time : end);
    } else if (n > 3 && memcmp(part, "ARG", 3) == 0) {
        unsigned long i = strtoul(part + 3, NULL, 10);
        if (e && e->kind == TLV_EVENT_BEHAVIOR && i < e->nargs)
            put_value(out, intern_str(w->values, viz_args(b, e)[i]), escape);
    }
}

/* Length of a ${NAME} this context knows at text[i] == '$', writing its value;
 * 0 when unknown (then the text stays). */
static size_t subst_one(builder *b, const subst_ctx *c, const char *text, size_t len, size_t i,
                        buf *out, int escape)
{
    if (i + 1 >= len || text[i + 1] != '{')
        return 0;
    const char *end = memchr(text + i + 2, '}', len - i - 2);
    if (!end)
        return 0;
    const char *name = text + i + 2;
    size_t n = (size_t)(end - name);
    size_t used = n + 3;
    if (n == 6 && memcmp(name, "TARGET", 6) == 0) {
        if (c->target)
            put_value(out, c->target, escape);
        return used;
    }
    if (n > 5 && memcmp(name, "FROM_", 5) == 0 && !c->is_when) {
        put_event_part(out, b, c->from, name + 5, n - 5, escape, c->end);
        return used;
    }
    if (n > 3 && memcmp(name, "TO_", 3) == 0 && !c->is_when) {
        int value = (n == 6 && memcmp(name + 3, "VAL", 3) == 0) ||
                    (n > 6 && memcmp(name + 3, "ARG", 3) == 0);
        if (!c->to && c->open_label && value)
            put_value(out, "(open)", escape);
        else
            put_event_part(out, b, c->to, name + 3, n - 3, escape, c->end);
        return used;
    }
    if (c->is_when && ((n == 3 && memcmp(name, "VAL", 3) == 0) ||
                       (n == 4 && memcmp(name, "TIME", 4) == 0) ||
                       (n > 3 && memcmp(name, "ARG", 3) == 0))) {
        put_event_part(out, b, c->from, name, n, escape, c->end);
        return used;
    }
    return 0;
}

static void substitute(builder *b, const subst_ctx *c, const char *text, buf *out, int escape)
{
    size_t len = strlen(text);
    buf_clear(out);
    buf_append(out, "", 0);
    for (size_t i = 0; i < len; i++) {
        size_t used = text[i] == '$' ? subst_one(b, c, text, len, i, out, escape) : 0;
        if (used) {
            i += used - 1;
            continue;
        }
        buf_putc(out, text[i]);
    }
}

/* Substitutes, then expands macros; the result is in b->a. */
int viz_expand(builder *b, const subst_ctx *c, const char *text, int escape)
{
    substitute(b, c, text, &b->b, escape);
    if (!memchr(buf_str(&b->b), '$', b->b.len)) {
        buf_clear(&b->a);
        return buf_append(&b->a, buf_str(&b->b), b->b.len);
    }
    buf_clear(&b->err);
    if (macro_expand(&b->host, b->memo, buf_str(&b->b), b->b.len, &b->a, &b->err) < 0) {
        viz_error(b, buf_str(&b->err), NULL);
        return -1;
    }
    return 0;
}
