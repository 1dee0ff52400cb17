/*
 * viz_pattern.c — event patterns of visualization rules (From, To, When):
 * "Resource.name", "Resource.name=value", "Resource.name(args)", a resource
 * type for every resource of it, and a [condition] evaluated on the state
 * just before the event; compiled against the trace's world, then matched.
 */
#include "viz/viz_build.h"

#include <string.h>

static uint32_t find_id(const world *w, const char *s, size_t n)
{
    uint32_t id = intern_find(w->values, s, n);
    return id == UINT32_MAX ? NEVER : id;
}

void viz_trim(const char **s, size_t *n)
{
    while (*n && (**s == ' ' || **s == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t'))
        (*n)--;
}

/* Splits "a,b(c,d),e\,f" at top-level unescaped commas, unescaping each part
 * into `store`; parts[] point into it. Returns the number of parts. */
size_t viz_split_args(const char *s, size_t n, buf *store, const char **parts, size_t *lens,
                      size_t max)
{
    size_t count = 0, offs[STD_MAX_ARGS + 1];
    int depth = 0;
    buf_clear(store);
    buf_reserve(store, n + max + 1);
    offs[count++] = store->len;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (ch == '\\' && i + 1 < n) {
            buf_putc(store, s[++i]);
            continue;
        }
        if (ch == '(')
            depth++;
        else if (ch == ')' && depth > 0)
            depth--;
        else if (ch == ',' && depth == 0 && count < max) {
            buf_putc(store, '\0');
            offs[count++] = store->len;
            continue;
        }
        buf_putc(store, ch);
    }
    if (buf_putc(store, '\0') < 0 || !store->data)
        return 0; /* out of memory: no arguments (alloc.h counted it; the build fails) */
    for (size_t i = 0; i < count; i++) {
        parts[i] = store->data + offs[i];
        lens[i] = strlen(parts[i]);
        viz_trim(&parts[i], &lens[i]);
    }
    return count;
}

/* Parses ".name", ".name=value" or ".name(args)" (or nothing) into p. */
static int parse_pattern_rest(builder *b, pattern *p, const char *rest, size_t n)
{
    p->kind = -1;
    p->name = ANY_NAME;
    viz_trim(&rest, &n);
    if (n == 0)
        return 0;
    if (rest[0] != '.')
        return -1;
    rest++;
    n--;
    size_t k = 0;
    while (k < n && rest[k] != '=' && rest[k] != '(')
        k++;
    const char *name = rest;
    size_t nl = k;
    viz_trim(&name, &nl);
    p->name = nl ? find_id(b->w, name, nl) : ANY_NAME;
    if (k == n) /* ".state": any change of the attribute */
        return 0;
    if (rest[k] == '=') {
        p->kind = TLV_EVENT_ATTRIBUTE;
        const char *v = rest + k + 1;
        size_t vl = n - k - 1;
        viz_trim(&v, &vl);
        buf store = BUF_INIT;
        const char *part = "";
        size_t plen = 0;
        viz_split_args(v, vl, &store, &part, &plen, 1); /* unescape */
        p->has_value = 1;
        p->value = find_id(b->w, part, plen);
        buf_free(&store);
        return 0;
    }
    p->kind = TLV_EVENT_BEHAVIOR;
    const char *close = memchr(rest + k, ')', n - k);
    const char *end = rest + n;
    while (end > rest + k && end[-1] != ')')
        end--;
    if (!close || end <= rest + k + 1)
        return -1;
    const char *a = rest + k + 1;
    size_t al = (size_t)(end - 1 - a);
    viz_trim(&a, &al);
    if (al == 0)
        return 0; /* "()": any arguments */
    const char *parts[STD_MAX_ARGS];
    size_t lens[STD_MAX_ARGS];
    buf store = BUF_INIT;
    p->nargs = viz_split_args(a, al, &store, parts, lens, STD_MAX_ARGS);
    for (size_t i = 0; i < p->nargs; i++)
        p->args[i] = find_id(b->w, parts[i], lens[i]);
    buf_free(&store);
    return 0;
}

void viz_pattern_free(pattern *p)
{
    cond_free(p->c);
    p->c = NULL;
}

/* Compiles the pattern text (already substituted and expanded). */
int viz_pattern_compile(builder *b, const char *text, pattern *p)
{
    memset(p, 0, sizeof *p);
    p->res = -1;
    p->type = -1;
    int has_time = 0, has_cond = 0;
    tlv_time t;
    std_str name, ctext, rest;
    const char *why = NULL;
    if (std_parse_resource_ref(text, strlen(text), b->w->radix, &has_time, &t, &name, &has_cond,
                               &ctext, &rest, &why) < 0) {
        viz_error(b, "bad event pattern: ", text);
        return -1;
    }
    if (!has_cond)
        p->res = world_find(b->w, name.s, name.n);
    if (p->res < 0) {
        p->type = model_type_index(b->w->model, name.s, name.n);
        if (p->type < 0) {
            viz_error(b, "event pattern names no resource or resource type: ", text);
            return -1;
        }
    }
    if (has_cond) {
        char err[200];
        p->c = cond_compile(ctext.s, ctext.n, err, sizeof err);
        if (!p->c) {
            viz_error(b, "bad condition in event pattern: ", err);
            return -1;
        }
    }
    if (parse_pattern_rest(b, p, rest.s, rest.n) < 0) {
        viz_pattern_free(p);
        viz_error(b, "bad event pattern (expected Resource.name, Resource.name=value or "
                     "Resource.name(args)): ", text);
        return -1;
    }
    return 0;
}

int viz_pattern_matches(builder *b, const pattern *p, const vevent *e)
{
    if (p->res >= 0 ? e->res != (uint32_t)p->res
                    : p->type >= 0 && b->w->res[e->res].type != (size_t)p->type)
        return 0;
    if (p->kind >= 0 && e->kind != p->kind)
        return 0;
    if (p->name != ANY_NAME && e->name != p->name)
        return 0;
    if (p->has_value && e->value != p->value)
        return 0;
    if (p->kind == TLV_EVENT_BEHAVIOR) {
        if (p->nargs > e->nargs)
            return 0;
        for (size_t i = 0; i < p->nargs; i++)
            if (viz_args(b, e)[i] != p->args[i])
                return 0;
    }
    if (p->c) /* just before the event: earlier changes, not this one */
        return world_test(b->w, e->res, p->c, &e->time, e->state_seq);
    return 1;
}
