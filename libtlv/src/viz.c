/*
 * viz.c — applying visualization rules (spec §9.2) to a trace: rows, event
 * patterns, From/To pairing and When instants, figure references with their
 * substitutions, conditions and macros, and the resulting shapes in the
 * store. The initial value of every attribute counts as a change at the
 * start of the trace; an interval still open at the end closes at the
 * trace's last time.
 */
#include "viz_impl.h"

#include "buf.h"
#include "cond.h"
#include "macro.h"
#include "stdform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER UINT32_MAX /* an interned id for text the trace never had */
#define MAX_KEPT_DIAGS 1000

/* ---- rules as read from the .viz sources --------------------------------- */

typedef struct event_def {
    const char *name;
    const char *from, *to, *when;
    const tj_node *figures;
    const char *file;
    long line, col;
} event_def;

typedef struct viz_rule {
    const char *name;
    const char *display;
    long type;              /* Target type index, -1 for a rule of its own row */
    event_def *events;
    size_t nevents;
    uint32_t name_id;       /* interned in shapes->names */
    uint32_t row;           /* for rules without Target */
    const char *file;
    long line, col;
} viz_rule;

typedef struct shape_def {
    const char *name;
    const tj_node *prims;   /* array of primitive objects */
    const char *file;
} shape_def;

/* One event as the pairing sees it: real trace events, or the initial value
 * of an attribute (a change at the start of the trace). */
typedef struct vevent {
    tlv_time time;
    uint32_t res, name, value, nargs, state_seq, line;
    uint8_t kind;
    uint8_t initial;           /* the initial value, not a trace event */
    const uint32_t *args;
} vevent;

typedef struct pattern {
    long res;               /* one resource, or -1 */
    long type;              /* with res < 0: every resource of this type, or -1 = any */
    cond *c;                /* condition, evaluated just before the event */
    int kind;               /* -1 any, else tlv_event_kind */
    uint32_t name;          /* NEVER+1 = any name */
    int has_value;
    uint32_t value;
    size_t nargs;
    uint32_t args[STD_MAX_ARGS];
} pattern;

#define ANY_NAME (NEVER - 1)

/* Substitution context of one figure evaluation. */
typedef struct subst_ctx {
    const char *target;
    const vevent *from, *to;   /* From/To events, or When event in `from` */
    int is_when;
    tlv_time end;              /* trace end, TO_TIME of an interval closed by it */
} subst_ctx;

typedef struct builder {
    struct tlv_shapes *s;
    const tlv_trace *t;
    world *w;
    macro_memo *memo;
    viz_rule *rules;
    size_t nrules, rules_cap;
    shape_def *shapes;
    size_t nshapes, shapes_cap;
    vevent *ev;                /* initial values, then the trace's events */
    size_t nev;
    size_t **per_res;          /* per resource: indexes into ev */
    size_t *per_res_n;
    uint32_t *res_row;         /* per resource: its row, or UINT32_MAX */
    intern_pool *prim_keys;    /* "shape\x1fargs" -> prim range */
    uint32_t *key_first, *key_count;
    size_t keys_cap;
    uint32_t next_order;
    uint32_t cur_value;        /* value of the event being drawn, or UINT32_MAX */
    buf a, b, err;             /* scratch */
    const viz_rule *cur_rule;
    const event_def *cur_event;
    uint32_t cur_line;
    const tlv_shapes_options *opts;
    struct event_index *index; /* events by (resource, name[, first value]) */
    size_t index_slots, index_used;
    long *cpu_attr;            /* per type: index of the CPU attribute, or -1 */
    uint32_t *cpu_values;      /* distinct CPU values (interned), sorted */
    size_t ncpus;
    uint32_t *cpu_row;         /* per CPU value index: its row */
} builder;

static void viz_error(builder *b, const char *fmt, const char *detail)
{
    char where[64];
    if (b->cur_line)
        snprintf(where, sizeof where, "trace line %u", (unsigned)b->cur_line);
    else
        snprintf(where, sizeof where, "initial values");
    if (b->cur_rule && b->cur_event)
        diags_add(&b->s->diags, TLV_SEV_ERROR, b->cur_event->file, b->cur_event->line,
                  b->cur_event->col, "rule '%s', event '%s' (%s): %s%s", b->cur_rule->name,
                  b->cur_event->name, where, fmt, detail ? detail : "");
    else
        diags_add(&b->s->diags, TLV_SEV_ERROR, NULL, 0, 0, "%s%s", fmt, detail ? detail : "");
}

/* ---- reading the rules ----------------------------------------------------- */

static const char *str_member(const tj_node *o, const char *key)
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
    d->from = str_member(e, "From");
    d->to = str_member(e, "To");
    d->when = str_member(e, "When");
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

static viz_rule *find_rule(builder *b, const char *name)
{
    for (size_t i = 0; i < b->nrules; i++)
        if (strcmp(b->rules[i].name, name) == 0)
            return &b->rules[i];
    return NULL;
}

static void read_rule(builder *b, const tj_node *rn, const char *file)
{
    if (rn->type != TJ_OBJECT) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, rn->line, rn->col,
                  "visualization rule '%s' must be an object, found %s", rn->key,
                  tj_type_name(rn->type));
        return;
    }
    const char *style = str_member(rn, "Style");
    if (style && strcasecmp(style, "Script") == 0) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, rn->key_line, rn->key_col,
                  "visualization rule '%s' is an external-process rule; tlv does not run "
                  "those for drawing",
                  rn->key);
        return;
    }
    viz_rule *r = find_rule(b, rn->key); /* a later definition replaces an earlier one */
    if (!r) {
        if (GROW(b->rules, b->rules_cap, b->nrules + 1) < 0)
            return;
        r = &b->rules[b->nrules++];
    } else {
        free(r->events);
    }
    memset(r, 0, sizeof *r);
    r->name = rn->key;
    r->display = str_member(rn, "DisplayName");
    r->file = file;
    r->line = rn->key_line;
    r->col = rn->key_col;
    r->type = -1;
    const char *target = str_member(rn, "Target");
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
        shape_def *d = NULL;
        for (size_t i = 0; i < b->nshapes; i++)
            if (strcmp(b->shapes[i].name, s->key) == 0)
                d = &b->shapes[i];
        if (!d) {
            if (GROW(b->shapes, b->shapes_cap, b->nshapes + 1) < 0)
                return;
            d = &b->shapes[b->nshapes++];
        }
        d->name = s->key;
        d->prims = s;
        d->file = file;
    }
}

static void read_sources(builder *b)
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

static const shape_def *find_shape(const builder *b, const char *name, size_t n)
{
    for (size_t i = 0; i < b->nshapes; i++)
        if (strlen(b->shapes[i].name) == n && memcmp(b->shapes[i].name, name, n) == 0)
            return &b->shapes[i];
    return NULL;
}

/* ---- events, with initial values first ------------------------------------- */

/* When each resource first appears in the trace: a resource created on
 * first use has its initial values from then on, not from the start. */
static tlv_time *first_times(const builder *b)
{
    const world *w = b->w;
    tlv_time *t = calloc(w->nres + 1, sizeof *t);
    char *seen = calloc(w->nres + 1, 1);
    for (size_t i = 0; t && seen && i < b->t->nev; i++) {
        uint32_t r = b->t->ev[i].res;
        if (!seen[r]) {
            seen[r] = 1;
            t[r] = b->t->ev[i].time;
        }
    }
    free(seen);
    return t;
}

static int build_events(builder *b)
{
    const world *w = b->w;
    size_t ninit = 0;
    for (size_t r = 0; r < w->nres; r++)
        ninit += w->model->types[w->res[r].type].nattrs;
    b->nev = ninit + b->t->nev;
    b->ev = calloc(b->nev + 1, sizeof *b->ev);
    if (!b->ev)
        return -1;
    tlv_time start = tlv_trace_start(b->t);
    tlv_time *born = first_times(b);
    if (!born)
        return -1;
    size_t k = 0;
    for (size_t r = 0; r < w->nres; r++) {
        const res_type *t = &w->model->types[w->res[r].type];
        for (size_t a = 0; a < t->nattrs; a++) {
            vevent *v = &b->ev[k++];
            v->time = w->res[r].dynamic ? born[r] : start;
            v->res = (uint32_t)r;
            v->kind = TLV_EVENT_ATTRIBUTE;
            v->name = intern_add(w->values, t->attrs[a].name, t->attrs[a].name_len);
            v->value = w->res[r].attrs[a].init;
            v->state_seq = 0;
            v->initial = 1;
        }
    }
    free(born);
    for (size_t i = 0; i < b->t->nev; i++) {
        const trace_event *e = &b->t->ev[i];
        vevent *v = &b->ev[k++];
        v->time = e->time;
        v->res = e->res;
        v->kind = e->kind;
        v->name = e->name;
        v->value = e->value;
        v->nargs = e->nargs;
        v->args = e->kind == TLV_EVENT_BEHAVIOR ? b->t->args + e->value : NULL;
        v->state_seq = e->state_seq;
        v->line = e->line;
    }
    b->per_res = calloc(w->nres + 1, sizeof *b->per_res);
    b->per_res_n = calloc(w->nres + 1, sizeof *b->per_res_n);
    if (!b->per_res || !b->per_res_n)
        return -1;
    for (size_t i = 0; i < b->nev; i++)
        b->per_res_n[b->ev[i].res]++;
    for (size_t r = 0; r < w->nres; r++) {
        b->per_res[r] = malloc((b->per_res_n[r] + 1) * sizeof **b->per_res);
        if (!b->per_res[r])
            return -1;
        b->per_res_n[r] = 0;
    }
    for (size_t i = 0; i < b->nev; i++) {
        uint32_t r = b->ev[i].res;
        b->per_res[r][b->per_res_n[r]++] = i;
    }
    return 0;
}

/* ---- substitution ------------------------------------------------------------ */

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
            put_value(out, intern_str(w->values, e->args[i]), escape);
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
static int expand(builder *b, const subst_ctx *c, const char *text, int escape)
{
    substitute(b, c, text, &b->b, escape);
    if (!memchr(buf_str(&b->b), '$', b->b.len)) {
        buf_clear(&b->a);
        return buf_append(&b->a, buf_str(&b->b), b->b.len);
    }
    buf_clear(&b->err);
    if (macro_expand(b->w, b->memo, buf_str(&b->b), b->b.len, &b->a, &b->err) < 0) {
        viz_error(b, buf_str(&b->err), NULL);
        return -1;
    }
    return 0;
}

/* ---- event patterns ------------------------------------------------------------ */

static uint32_t find_id(const world *w, const char *s, size_t n)
{
    uint32_t id = intern_find(w->values, s, n);
    return id == UINT32_MAX ? NEVER : id;
}

static void trim(const char **s, size_t *n)
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
static size_t split_args(const char *s, size_t n, buf *store, const char **parts, size_t *lens,
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
    buf_putc(store, '\0');
    for (size_t i = 0; i < count; i++) {
        parts[i] = store->data + offs[i];
        lens[i] = strlen(parts[i]);
        trim(&parts[i], &lens[i]);
    }
    return count;
}

/* Parses ".name", ".name=value" or ".name(args)" (or nothing) into p. */
static int parse_pattern_rest(builder *b, pattern *p, const char *rest, size_t n)
{
    p->kind = -1;
    p->name = ANY_NAME;
    trim(&rest, &n);
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
    trim(&name, &nl);
    p->name = nl ? find_id(b->w, name, nl) : ANY_NAME;
    if (k == n) /* ".state": any change of the attribute */
        return 0;
    if (rest[k] == '=') {
        p->kind = TLV_EVENT_ATTRIBUTE;
        const char *v = rest + k + 1;
        size_t vl = n - k - 1;
        trim(&v, &vl);
        buf store = BUF_INIT;
        const char *part;
        size_t plen;
        split_args(v, vl, &store, &part, &plen, 1); /* unescape */
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
    trim(&a, &al);
    if (al == 0)
        return 0; /* "()": any arguments */
    const char *parts[STD_MAX_ARGS];
    size_t lens[STD_MAX_ARGS];
    buf store = BUF_INIT;
    p->nargs = split_args(a, al, &store, parts, lens, STD_MAX_ARGS);
    for (size_t i = 0; i < p->nargs; i++)
        p->args[i] = find_id(b->w, parts[i], lens[i]);
    buf_free(&store);
    return 0;
}

static void pattern_free(pattern *p)
{
    cond_free(p->c);
    p->c = NULL;
}

/* Compiles the pattern text (already substituted and expanded). */
static int pattern_compile(builder *b, const char *text, pattern *p)
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
        pattern_free(p);
        viz_error(b, "bad event pattern (expected Resource.name, Resource.name=value or "
                     "Resource.name(args)): ", text);
        return -1;
    }
    return 0;
}

static int pattern_matches(builder *b, const pattern *p, const vevent *e)
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
            if (e->args[i] != p->args[i])
                return 0;
    }
    if (p->c) /* just before the event: earlier changes, not this one */
        return world_test(b->w, e->res, p->c, &e->time, e->state_seq);
    return 1;
}

/* ---- figures --------------------------------------------------------------------- */

static int prims_for(builder *b, const shape_def *sd, const char *const *args, size_t nargs,
                     uint32_t *first, uint32_t *count)
{
    buf key = BUF_INIT;
    buf_puts(&key, sd->name);
    for (size_t i = 0; i < nargs; i++) {
        buf_putc(&key, '\x1f');
        buf_puts(&key, args[i]);
    }
    uint32_t id = intern_add(b->prim_keys, buf_str(&key), key.len);
    buf_free(&key);
    if (id == UINT32_MAX)
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
            viz_error(b, msg, NULL);
            continue;
        }
        s->nprims++;
        b->key_count[id]++;
    }
    *first = b->key_first[id];
    *count = b->key_count[id];
    return 0;
}

/* Adds one shape in drawing order, remembering its event's value by order
 * (the store sorts shapes, the order stays theirs). */
static int store_shape(builder *b, tlv_time from, tlv_time to, uint32_t row, uint32_t prim,
                       uint32_t rule, uint32_t event, uint32_t res)
{
    struct tlv_shapes *s = b->s;
    if (GROW(s->values, s->values_cap, (size_t)b->next_order + 1) < 0)
        return -1;
    s->values[b->next_order] = b->cur_value;
    s->nvalues = (size_t)b->next_order + 1;
    shape sh = {from, to, row, prim, rule, event, res, b->next_order++};
    return store_add(s->store, &sh);
}

static int add_shapes(builder *b, const char *ref, tlv_time from, tlv_time to, uint32_t row,
                      uint32_t event_id, uint32_t res)
{
    size_t n = strlen(ref);
    const char *open = memchr(ref, '(', n);
    const char *name = ref;
    size_t nl = open ? (size_t)(open - ref) : n;
    trim(&name, &nl);
    const shape_def *sd = find_shape(b, name, nl);
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
        nargs = split_args(open + 1, (size_t)(close - 1 - (open + 1)), &store, args, lens,
                           STD_MAX_ARGS);
        for (size_t i = 0; i < nargs; i++)
            ((char *)args[i])[lens[i]] = '\0'; /* trimmed in place */
    }
    uint32_t first, count;
    int rc = prims_for(b, sd, args, nargs, &first, &count);
    buf_free(&store);
    if (rc < 0)
        return -1;
    for (uint32_t i = 0; i < count; i++)
        if (store_shape(b, from, to, row, first + i, b->cur_rule->name_id, event_id, res) < 0)
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
        if (expand(b, d->sc, f->str, 1) < 0)
            return -1;
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
        for (const tj_node *c = f->child; c; c = c->next) {
            if (tj_shadowed(c) || expand(b, d->sc, c->key, 0) < 0)
                continue;
            char err[200];
            const cond *k = world_cond(b->w, buf_str(&b->a), b->a.len, err, sizeof err);
            if (!k) {
                char msg[400];
                snprintf(msg, sizeof msg, "condition \"%s\": %s", buf_str(&b->a), err);
                viz_error(b, msg, NULL);
                continue;
            }
            if (cond_eval(k, NULL, NULL))
                eval_figures(b, c, d, depth + 1);
        }
        return 0;
    }
    viz_error(b, "Figures must be a string, an array or an object of conditions", NULL);
    return -1;
}

/* ---- pairing ------------------------------------------------------------------------ */

/* The events a pattern can match: one resource's, or all of them. */
typedef struct scan_list {
    const size_t *idx;  /* NULL: every event, in order */
    size_t n;
} scan_list;

static scan_list scan_for(const builder *b, const pattern *p, long target)
{
    scan_list l = {NULL, b->nev};
    long r = p->res >= 0 ? p->res : target;
    if (r >= 0) {
        l.idx = b->per_res[r];
        l.n = b->per_res_n[r];
    }
    return l;
}

static size_t at(const scan_list *l, size_t k) { return l->idx ? l->idx[k] : k; }

/* First position in l whose event index is greater than ev_index. */
static size_t after(const scan_list *l, size_t ev_index)
{
    if (!l->idx)
        return ev_index + 1;
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->idx[mid] <= ev_index)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- events by resource and name ----------------------------------------------------- */

/* Closing patterns name a resource, an attribute or behavior, and usually a
 * value or first argument (`${FROM_TARGET}.leaveSVC(${FROM_ARG0})`): lists of
 * the events with each (resource, name) and (resource, name, value) let the
 * search for the closing event start at the right place (binary search)
 * instead of walking every later event of the resource. */
#define NO_VALUE UINT32_MAX

typedef struct event_index {
    uint32_t res, name, value; /* value NO_VALUE: the (resource, name) list */
    int used;
    size_t *idx;
    size_t n, cap;
} event_index;

static uint64_t index_hash(uint32_t res, uint32_t name, uint32_t value)
{
    uint64_t h = ((uint64_t)res * 0x9e3779b97f4a7c15ULL) ^ ((uint64_t)name << 21) ^ value;
    h ^= h >> 31;
    return h * 0xbf58476d1ce4e5b9ULL;
}

static event_index *index_slot(builder *b, uint32_t res, uint32_t name, uint32_t value,
                               int create)
{
    size_t mask = b->index_slots - 1;
    for (size_t i = index_hash(res, name, value) & mask;; i = (i + 1) & mask) {
        event_index *e = &b->index[i];
        if (!e->used) {
            if (!create)
                return NULL;
            e->used = 1;
            e->res = res;
            e->name = name;
            e->value = value;
            return e;
        }
        if (e->res == res && e->name == name && e->value == value)
            return e;
    }
}

/* Doubles the table: keys are few (resources x names x values seen), so it
 * starts small and grows, rather than being sized by the number of events. */
static int index_grow(builder *b)
{
    event_index *old = b->index;
    size_t n = b->index_slots;
    b->index_slots = n * 2;
    b->index = calloc(b->index_slots, sizeof *b->index);
    if (!b->index) {
        b->index = old;
        b->index_slots = n;
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (old[i].used)
            *index_slot(b, old[i].res, old[i].name, old[i].value, 1) = old[i];
    free(old);
    return 0;
}

static int index_add(builder *b, uint32_t res, uint32_t name, uint32_t value, size_t ev)
{
    if (b->index_used * 2 >= b->index_slots && index_grow(b) < 0)
        return -1;
    event_index *e = index_slot(b, res, name, value, 1);
    if (e->n == 0 && e->cap == 0)
        b->index_used++;
    if (GROW(e->idx, e->cap, e->n + 1) < 0)
        return -1;
    e->idx[e->n++] = ev;
    return 0;
}

static int build_index(builder *b)
{
    b->index_slots = 1024;
    b->index = calloc(b->index_slots, sizeof *b->index);
    if (!b->index)
        return -1;
    for (size_t i = 0; i < b->nev; i++) {
        const vevent *e = &b->ev[i];
        uint32_t v = e->kind == TLV_EVENT_ATTRIBUTE ? e->value : e->nargs ? e->args[0] : NO_VALUE;
        if (index_add(b, e->res, e->name, NO_VALUE, i) < 0 ||
            (v != NO_VALUE && index_add(b, e->res, e->name, v, i) < 0))
            return -1;
    }
    return 0;
}

static void free_index(builder *b)
{
    for (size_t i = 0; b->index && i < b->index_slots; i++)
        free(b->index[i].idx);
    free(b->index);
}

/* The narrowest event list a pattern on resource r can match in. */
static int indexed_list(builder *b, const pattern *p, long r, scan_list *l)
{
    if (r < 0 || p->name == ANY_NAME || !b->index)
        return 0;
    uint32_t v = p->has_value ? p->value
                 : p->kind == TLV_EVENT_BEHAVIOR && p->nargs ? p->args[0] : NO_VALUE;
    const event_index *e = index_slot(b, (uint32_t)r, p->name, v, 0);
    l->idx = e ? e->idx : NULL;
    l->n = e ? e->n : 0;
    return 1;
}

static long find_next(builder *b, const pattern *p, long target, size_t from_index)
{
    scan_list l = scan_for(b, p, target);
    long r = p->res >= 0 ? p->res : target;
    if (indexed_list(b, p, r, &l) && !l.idx)
        return -1; /* no such event at all */
    for (size_t k = after(&l, from_index); k < l.n; k++)
        if (pattern_matches(b, p, &b->ev[at(&l, k)]))
            return (long)at(&l, k);
    return -1;
}

/* shapes->values entries with this bit set are ids in shapes->joined (a
 * behavior's arguments joined), the others ids in the trace's world. */
#define VALUE_OWN 0x80000000u

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
        return e->args[0] < VALUE_OWN ? e->args[0] : UINT32_MAX;
    char mem[256];
    buf j;
    buf_init_borrowed(&j, mem, sizeof mem);
    int failed = 0;
    for (uint32_t i = 0; i < e->nargs; i++)
        failed |= (i && buf_putc(&j, ',') < 0) ||
                  buf_append(&j, intern_str(b->w->values, e->args[i]),
                             intern_len(b->w->values, e->args[i])) < 0;
    uint32_t id = failed ? UINT32_MAX : intern_add(b->s->joined, j.data, j.len);
    buf_free(&j);
    return id < VALUE_OWN ? id | VALUE_OWN : UINT32_MAX;
}

static void draw_interval(builder *b, const event_def *d, const subst_ctx *sc, tlv_time from,
                          tlv_time to, long target)
{
    uint32_t res = target >= 0 ? (uint32_t)target : UINT32_MAX;
    draw_ctx dc = {sc, from, to, target >= 0 ? b->res_row[target] : b->cur_rule->row,
                   intern_add(b->s->names, d->name, strlen(d->name)), res};
    if (dc.row == UINT32_MAX)
        return;
    b->cur_value = shape_value(b, sc->from);
    eval_figures(b, d->figures, &dc, 0);
}

static void apply_from_to(builder *b, const event_def *d, const char *target_name, long target)
{
    subst_ctx sc = {target_name, NULL, NULL, 0, tlv_trace_end(b->t)};
    pattern from;
    if (expand(b, &sc, d->from, 1) < 0 || pattern_compile(b, buf_str(&b->a), &from) < 0)
        return;
    if (target >= 0 && from.res >= 0 && from.res != target) {
        pattern_free(&from); /* a targeted rule draws its own resource's events */
        return;
    }
    /* Per resource: the latest From that no To closed. It is still open at
     * the end of the trace only if no later From of the same event on the
     * same resource superseded it (a task that called ext_tsk and was later
     * activated again does not stay inside ext_tsk forever). */
    size_t *open = malloc((b->w->nres + 1) * sizeof *open);
    if (!open) {
        pattern_free(&from);
        return;
    }
    for (size_t r = 0; r < b->w->nres; r++)
        open[r] = SIZE_MAX;
    scan_list l = scan_for(b, &from, target);
    if (indexed_list(b, &from, from.res >= 0 ? from.res : target, &l) && !l.idx)
        l.n = 0;
    for (size_t k = 0; k < l.n; k++) {
        size_t i = at(&l, k);
        const vevent *e = &b->ev[i];
        if (!pattern_matches(b, &from, e))
            continue;
        open[e->res] = SIZE_MAX;
        b->cur_line = e->line;
        sc.from = e;
        sc.to = NULL;
        pattern to;
        if (expand(b, &sc, d->to, 1) < 0 || pattern_compile(b, buf_str(&b->a), &to) < 0)
            continue;
        long j = find_next(b, &to, target >= 0 && to.res < 0 ? target : -1, i);
        pattern_free(&to);
        /* An attribute that never changes in the whole trace draws nothing
         * (TOPPERS rules paint "user state 0" red on every task otherwise). */
        if (j < 0) {
            if (!e->initial)
                open[e->res] = i;
            continue;
        }
        sc.to = &b->ev[j];
        draw_interval(b, d, &sc, e->time, b->ev[j].time, target);
    }
    for (size_t r = 0; r < b->w->nres; r++) {
        if (open[r] == SIZE_MAX)
            continue;
        const vevent *e = &b->ev[open[r]];
        b->cur_line = e->line;
        sc.from = e;
        sc.to = NULL;
        draw_interval(b, d, &sc, e->time, sc.end, target);
    }
    free(open);
    pattern_free(&from);
}

static void apply_when(builder *b, const event_def *d, const char *target_name, long target)
{
    subst_ctx sc = {target_name, NULL, NULL, 1, tlv_trace_end(b->t)};
    pattern p;
    if (expand(b, &sc, d->when, 1) < 0 || pattern_compile(b, buf_str(&b->a), &p) < 0)
        return;
    scan_list l = scan_for(b, &p, target);
    for (size_t k = 0; k < l.n; k++) {
        size_t i = at(&l, k);
        const vevent *e = &b->ev[i];
        if (!pattern_matches(b, &p, e))
            continue;
        b->cur_line = e->line;
        /* until the next occurrence on the same resource */
        long j = -1;
        const size_t *ri = b->per_res[e->res];
        scan_list same = {ri, b->per_res_n[e->res]};
        for (size_t m = after(&same, i); m < same.n; m++)
            if (pattern_matches(b, &p, &b->ev[same.idx[m]])) {
                j = (long)same.idx[m];
                break;
            }
        sc.from = e;
        draw_interval(b, d, &sc, e->time, j >= 0 ? b->ev[j].time : sc.end, target);
    }
    pattern_free(&p);
}

static void apply_rule(builder *b, viz_rule *r)
{
    b->cur_rule = r;
    if (r->type == -2)
        return;
    size_t ntargets = r->type >= 0 ? b->w->nmembers[r->type] : 1;
    for (size_t ti = 0; ti < ntargets; ti++) {
        long target = r->type >= 0 ? (long)b->w->members[r->type][ti] : -1;
        const char *tname = target >= 0 ? b->w->res[target].name : NULL;
        for (size_t e = 0; e < r->nevents; e++) {
            b->cur_event = &r->events[e];
            b->cur_line = 0;
            if (r->events[e].when)
                apply_when(b, &r->events[e], tname, target);
            else
                apply_from_to(b, &r->events[e], tname, target);
        }
    }
    b->cur_event = NULL;
    b->cur_rule = NULL;
}

/* ---- rows ------------------------------------------------------------------------------ */

static int add_row(struct tlv_shapes *s, const char *label, const char *resource,
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

static int type_is_drawn(const builder *b, size_t type)
{
    for (size_t r = 0; r < b->nrules; r++)
        if (b->rules[r].type == (long)type)
            return 1;
    return 0;
}

static int add_resource_row(builder *b, size_t res)
{
    const world *w = b->w;
    const res_type *t = &w->model->types[w->res[res].type];
    b->res_row[res] = (uint32_t)b->s->nrows;
    return add_row(b->s, w->res[res].display, w->res[res].name, t->display ? t->display : t->name);
}

/* ---- per-CPU mode ------------------------------------------------------------------ */

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

static void note_cpu_value(builder *b, uint32_t v, size_t *cap)
{
    if (intern_len(b->w->values, v) == 0)
        return; /* no processor */
    for (size_t i = 0; i < b->ncpus; i++)
        if (b->cpu_values[i] == v)
            return;
    if (GROW(b->cpu_values, *cap, b->ncpus + 1) == 0)
        b->cpu_values[b->ncpus++] = v;
}

/* Finds the CPU attribute of each type and every value it takes. */
static int collect_cpus(builder *b)
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
    for (size_t i = 0; i < b->nev; i++) {
        const vevent *e = &b->ev[i];
        if (e->kind == TLV_EVENT_ATTRIBUTE && e->name == name &&
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
        if (b->cpu_values[i] == v)
            return (long)i;
    return -1;
}

static int build_cpu_rows(builder *b)
{
    const world *w = b->w;
    b->cpu_row = malloc((b->ncpus + 1) * sizeof *b->cpu_row);
    if (!b->cpu_row)
        return -1;
    for (size_t c = 0; c < b->ncpus; c++) {
        buf label = BUF_INIT;
        buf_printf(&label, "CPU %s", intern_str(w->values, b->cpu_values[c]));
        b->cpu_row[c] = (uint32_t)b->s->nrows;
        int rc = add_row(b->s, buf_str(&label), NULL, buf_str(&label));
        if (rc == 0)
            for (size_t r = 0; r < w->nres && rc == 0; r++) {
                long a = b->cpu_attr[w->res[r].type];
                if (a < 0 || !type_is_drawn(b, w->res[r].type) ||
                    w->res[r].attrs[a].init != b->cpu_values[c])
                    continue;
                rc = add_resource_row(b, r);
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
    int rc = prims_for(b, &sd, args, 2, first, &count);
    tj_free(arr);
    return rc == 0 && count == 2 ? 0 : -1;
}

/* One bar per interval in which a resource was running, on the row of the
 * processor it ran on. */
static void draw_running(builder *b)
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
                for (uint32_t i = 0; c >= 0 && i < 2; i++)
                    store_shape(b, open->time, end, b->cpu_row[c], first + i, rule, event,
                                (uint32_t)r);
            }
            open = e && e->value == running ? e : NULL;
        }
    }
}

/* One row per resource of a type some rule targets, grouped by type in the
 * order the resource file first uses each type (in per-CPU mode, grouped
 * under their processor's row first); then one per untargeted rule. */
static int build_rows(builder *b)
{
    const world *w = b->w;
    b->res_row = malloc((w->nres + 1) * sizeof *b->res_row);
    if (!b->res_row)
        return -1;
    for (size_t i = 0; i < w->nres; i++)
        b->res_row[i] = UINT32_MAX;
    if (b->opts->cpu_attribute && (collect_cpus(b) < 0 || build_cpu_rows(b) < 0))
        return -1;
    for (size_t i = 0; i < w->nres; i++) {
        size_t type = w->res[i].type;
        if (!type_is_drawn(b, type) || b->res_row[i] != UINT32_MAX)
            continue;
        for (size_t k = 0; k < w->nmembers[type]; k++) {
            size_t m = w->members[type][k];
            if (b->res_row[m] == UINT32_MAX && add_resource_row(b, m) < 0)
                return -1;
        }
    }
    for (size_t r = 0; r < b->nrules; r++) {
        if (b->rules[r].type != -1)
            continue;
        b->rules[r].row = (uint32_t)b->s->nrows;
        const char *label = b->rules[r].display ? b->rules[r].display : b->rules[r].name;
        if (add_row(b->s, label, NULL, label) < 0)
            return -1;
    }
    return 0;
}

/* ---- results ------------------------------------------------------------------------------ */

static const char *resource_name(const struct tlv_shapes *s, uint32_t res)
{
    return res == UINT32_MAX ? NULL : s->trace->w->res[res].name;
}

/* Shapes are listed by rule name, event name, resource name, from: sort keys
 * made of the names' ranks, so qsort needs no context (and no global). */
typedef struct sort_key {
    uint32_t rule, event, res;
    tlv_time from;
    uint32_t order, index;
} sort_key;

static int by_key(const void *pa, const void *pb)
{
    const sort_key *x = pa, *y = pb;
    if (x->rule != y->rule)
        return x->rule < y->rule ? -1 : 1;
    if (x->event != y->event)
        return x->event < y->event ? -1 : 1;
    if (x->res != y->res)
        return x->res < y->res ? -1 : 1;
    int c = tlv_time_cmp(x->from, y->from);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

typedef struct ranked {
    const char *text;
    uint32_t id;
} ranked;

static int by_text(const void *pa, const void *pb)
{
    return strcmp(((const ranked *)pa)->text, ((const ranked *)pb)->text);
}

/* rank[id] = position of the id's text in byte order, for ids 0..n-1. */
static uint32_t *rank_texts(const char *(*text_of)(const void *, uint32_t), const void *ctx,
                            uint32_t n)
{
    ranked *r = malloc((n + 1) * sizeof *r);
    uint32_t *rank = malloc((n + 1) * sizeof *rank);
    if (!r || !rank) {
        free(r);
        free(rank);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        r[i].text = text_of(ctx, i);
        r[i].id = i;
    }
    qsort(r, n, sizeof *r, by_text);
    for (uint32_t i = 0; i < n; i++)
        rank[r[i].id] = i + 1; /* 0 is kept for "no resource" */
    free(r);
    return rank;
}

static const char *name_text(const void *ctx, uint32_t id)
{
    return intern_str(((const struct tlv_shapes *)ctx)->names, id);
}

static const char *res_text(const void *ctx, uint32_t id)
{
    return ((const struct tlv_shapes *)ctx)->trace->w->res[id].name;
}

static int sort_for_output(struct tlv_shapes *s)
{
    size_t n = store_count(s->store);
    uint32_t nnames = intern_count(s->names);
    uint32_t *name_rank = rank_texts(name_text, s, nnames);
    uint32_t *res_rank = rank_texts(res_text, s, (uint32_t)s->trace->w->nres);
    sort_key *keys = malloc((n + 1) * sizeof *keys);
    s->order = malloc((n + 1) * sizeof *s->order);
    int rc = -1;
    if (name_rank && res_rank && keys && s->order) {
        for (size_t i = 0; i < n; i++) {
            const shape *sh = store_get(s->store, i);
            sort_key *k = &keys[i];
            k->rule = name_rank[sh->rule];
            k->event = name_rank[sh->event];
            k->res = sh->resource == UINT32_MAX ? 0 : res_rank[sh->resource];
            k->from = sh->from;
            k->order = sh->order;
            k->index = (uint32_t)i;
        }
        qsort(keys, n, sizeof *keys, by_key);
        for (size_t i = 0; i < n; i++)
            s->order[i] = keys[i].index;
        rc = 0;
    }
    free(name_rank);
    free(res_rank);
    free(keys);
    return rc;
}

static int finish_shapes(builder *b)
{
    struct tlv_shapes *s = b->s;
    if (summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks) < 0)
        return -1;
    return sort_for_output(s);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static uint64_t when_key(uint32_t rule_name, uint32_t event_name)
{
    return (uint64_t)rule_name << 32 | event_name;
}

/* Remembers which (rule, event) pairs are When events: a shape keeps only
 * the names, and readers need to know its [from, to] is not a duration. */
static int note_when_events(builder *b)
{
    struct tlv_shapes *s = b->s;
    size_t n = 0;
    for (size_t i = 0; i < b->nrules; i++)
        for (size_t e = 0; e < b->rules[i].nevents; e++)
            n += b->rules[i].events[e].when != NULL;
    s->when_keys = malloc((n + 1) * sizeof *s->when_keys);
    if (!s->when_keys)
        return -1;
    for (size_t i = 0; i < b->nrules; i++)
        for (size_t e = 0; e < b->rules[i].nevents; e++) {
            const event_def *d = &b->rules[i].events[e];
            if (d->when)
                s->when_keys[s->nwhen++] = when_key(
                    b->rules[i].name_id, intern_add(s->names, d->name, strlen(d->name)));
        }
    qsort(s->when_keys, s->nwhen, sizeof *s->when_keys, cmp_u64);
    return 0;
}

static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->nrules; i++)
        free(b->rules[i].events);
    free(b->rules);
    free(b->shapes);
    free(b->ev);
    if (b->per_res)
        for (size_t r = 0; r < b->w->nres; r++)
            free(b->per_res[r]);
    free(b->per_res);
    free(b->per_res_n);
    free(b->res_row);
    free_index(b);
    free(b->cpu_attr);
    free(b->cpu_values);
    free(b->cpu_row);
    intern_free(b->prim_keys);
    free(b->key_first);
    free(b->key_count);
    macro_memo_free(b->memo);
    buf_free(&b->a);
    buf_free(&b->b);
    buf_free(&b->err);
}

/* ---- rules left out ------------------------------------------------------------------------ */

static int is_skipped(const tlv_shapes_options *o, const char *name)
{
    for (size_t i = 0; o->skip_rules && i < o->n_skip_rules; i++)
        if (o->skip_rules[i] && strcmp(o->skip_rules[i], name) == 0)
            return 1;
    return 0;
}

/* Lists the rules for tlv_shapes_rule: "perCpu" first in per-CPU mode. */
static int list_rules(builder *b)
{
    struct tlv_shapes *s = b->s;
    size_t n = b->nrules + 1;
    s->rule_name = malloc(n * sizeof *s->rule_name);
    s->rule_display = malloc(n * sizeof *s->rule_display);
    s->rule_skipped = malloc(n);
    if (!s->rule_name || !s->rule_display || !s->rule_skipped)
        return -1;
    if (b->opts->cpu_attribute) {
        s->rule_name[0] = s->rule_display[0] = intern_add(s->names, "perCpu", 6);
        s->rule_skipped[0] = (uint8_t)is_skipped(b->opts, "perCpu");
        s->nrules = 1;
    }
    for (size_t i = 0; i < b->nrules; i++, s->nrules++) {
        const viz_rule *r = &b->rules[i];
        const char *d = r->display ? r->display : r->name;
        s->rule_name[s->nrules] = r->name_id;
        s->rule_display[s->nrules] = intern_add(s->names, d, strlen(d));
        s->rule_skipped[s->nrules] = (uint8_t)is_skipped(b->opts, r->name);
    }
    return 0;
}

tlv_status tlv_shapes_build(const tlv_trace *t, const tlv_shapes_options *opts,
                            tlv_shapes **out)
{
    static const tlv_shapes_options defaults = {0};
    if (!opts)
        opts = &defaults;
    struct tlv_shapes *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return TLV_ERR_NOMEM;
    diags_init(&s->diags, MAX_KEPT_DIAGS);
    s->trace = t;
    s->radix = t->rules->radix;
    s->time_scale = t->rules->time_scale ? t->rules->time_scale : "us";
    s->start = tlv_trace_start(t);
    s->end = tlv_trace_end(t);
    s->names = intern_new();
    s->joined = intern_new();
    s->store = store_new();
    builder b = {0};
    b.s = s;
    b.t = t;
    b.w = t->w;
    b.memo = macro_memo_new();
    b.prim_keys = intern_new();
    b.opts = opts;
    tlv_status st = TLV_OK;
    if (!s->names || !s->joined || !s->store || !b.memo || !b.prim_keys) {
        st = TLV_ERR_NOMEM;
        goto done;
    }
    if (!t->rules->nviz)
        diags_add(&s->diags, TLV_SEV_ERROR, t->rules->res_path, 0, 0,
                  "no visualization rules: the resource file requests none in "
                  "\"VisualizeRules\", or none of its targets was found in the rule path");
    read_sources(&b);
    for (size_t i = 0; i < b.nrules; i++)
        b.rules[i].name_id = intern_add(s->names, b.rules[i].name, strlen(b.rules[i].name));
    if (build_events(&b) < 0 || build_index(&b) < 0 || build_rows(&b) < 0 ||
        note_when_events(&b) < 0 || list_rules(&b) < 0) {
        st = TLV_ERR_NOMEM;
        goto done;
    }
    if (opts->cpu_attribute && !is_skipped(opts, "perCpu"))
        draw_running(&b);
    for (size_t i = 0; i < b.nrules; i++)
        if (!is_skipped(opts, b.rules[i].name)) /* rows were made for it all the same */
            apply_rule(&b, &b.rules[i]);
    if (finish_shapes(&b) < 0)
        st = TLV_ERR_NOMEM;
done:
    builder_free(&b);
    if (st == TLV_OK && s->diags.errors)
        st = TLV_ERR_RULE;
    return st;
}

void tlv_shapes_free(tlv_shapes *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nprims; i++)
        prim_free(&s->prims[i]);
    free(s->prims);
    for (size_t i = 0; i < s->nrows; i++) {
        free(s->rows[i].label);
        free(s->rows[i].group);
    }
    free(s->rows);
    store_free(s->store);
    summary_looks_free(&s->looks);
    free(s->order);
    free(s->when_keys);
    free(s->values);
    free(s->rule_name);
    free(s->rule_display);
    free(s->rule_skipped);
    intern_free(s->names);
    intern_free(s->joined);
    diags_free(&s->diags);
    free(s);
}

const tlv_diags *tlv_shapes_diags(const tlv_shapes *s) { return s ? &s->diags : NULL; }

size_t tlv_shapes_row_count(const tlv_shapes *s) { return s->nrows; }

void tlv_shapes_row(const tlv_shapes *s, size_t row, tlv_row_info *out)
{
    memset(out, 0, sizeof *out);
    if (row >= s->nrows)
        return;
    out->label = s->rows[row].label;
    out->resource = s->rows[row].resource;
    out->group = s->rows[row].group;
}

size_t tlv_shapes_rule_count(const tlv_shapes *s) { return s ? s->nrules : 0; }

void tlv_shapes_rule(const tlv_shapes *s, size_t i, tlv_rule_info *out)
{
    memset(out, 0, sizeof *out);
    if (!s || i >= s->nrules)
        return;
    out->name = intern_str(s->names, s->rule_name[i]);
    out->display_name = intern_str(s->names, s->rule_display[i]);
    out->skipped = s->rule_skipped[i];
}

static void shape_info(const struct tlv_shapes *s, const shape *sh, tlv_shape_info *out)
{
    const prim *p = &s->prims[sh->prim];
    memset(out, 0, sizeof *out);
    out->rule = intern_str(s->names, sh->rule);
    out->event = intern_str(s->names, sh->event);
    out->resource = resource_name(s, sh->resource);
    out->row = sh->row;
    out->from = sh->from;
    out->to = sh->to;
    out->type = prim_type_name(p->type);
    out->text = p->type == PRIM_TEXT ? p->text : NULL;
    out->has_fill = p->has_fill;
    out->fill = p->fill;
    out->has_pen = p->has_pen;
    out->pen = p->pen_color;
    uint64_t key = when_key(sh->rule, sh->event);
    out->is_when = s->nwhen && bsearch(&key, s->when_keys, s->nwhen, sizeof key, cmp_u64);
    uint32_t v = sh->order < s->nvalues ? s->values[sh->order] : UINT32_MAX;
    out->value = v == UINT32_MAX       ? NULL
                 : v & VALUE_OWN ? intern_str(s->joined, v & ~VALUE_OWN)
                                 : intern_str(s->trace->w->values, v);
}

size_t tlv_shapes_count(const tlv_shapes *s) { return store_count(s->store); }

void tlv_shapes_get(const tlv_shapes *s, size_t i, tlv_shape_info *out)
{
    shape_info(s, store_get(s->store, s->order[i]), out);
}

typedef struct query_ctx {
    const struct tlv_shapes *s;
    tlv_shape_fn fn;
    void *user;
} query_ctx;

static int visit(void *ctx, const shape *sh)
{
    query_ctx *q = ctx;
    tlv_shape_info info;
    shape_info(q->s, sh, &info);
    return q->fn(q->user, &info);
}

void tlv_shapes_query(const tlv_shapes *s, size_t row, tlv_time t0, tlv_time t1,
                      tlv_shape_fn fn, void *user)
{
    query_ctx q = {s, fn, user};
    store_query(s->store, (uint32_t)row, t0, t1, visit, &q);
}
