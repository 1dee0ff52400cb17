/*
 * model.c — reading resource headers (.resh types with their attributes and
 * behaviors) and the resources a .res file declares, checking each resource
 * against its type. Unknown members are warnings (files in the wild carry
 * extra keys); wrong types of values are errors with the exact position.
 * Data only: the "DynamicResources" declarations, which compile patterns
 * and templates, are dynres.c's.
 */
#include "model/model.h"

#include "base/buf.h"
#include "base/intern.h"
#include "lang/evpattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void name_index_free(name_index *x);

static void free_attr(attr_def *a)
{
    free(a->name);
    free(a->display);
    free(a->deflt);
}

static void free_behavior(behavior_def *b)
{
    free(b->name);
    free(b->display);
    for (size_t i = 0; i < b->nargs; i++)
        free(b->arg_names[i]);
    free(b->arg_names);
    free(b->arg_types);
}

static void free_inst(inst_def *k)
{
    free(k->kind);
    free(k->display);
    free(k->from);
    free(k->to);
    free(k->label);
}

void model_free(model *m)
{
    for (size_t i = 0; i < m->ntypes; i++) {
        res_type *t = &m->types[i];
        for (size_t j = 0; j < t->ninsts; j++)
            free_inst(&t->insts[j]);
        free(t->insts);
        for (size_t j = 0; j < t->nattrs; j++)
            free_attr(&t->attrs[j]);
        for (size_t j = 0; j < t->nbehaviors; j++)
            free_behavior(&t->behaviors[j]);
        model_free_impossible(t);
        name_index_free(&t->attrs_by_name);
        name_index_free(&t->behaviors_by_name);
        free(t->attrs);
        free(t->behaviors);
        free(t->name);
        free(t->display);
    }
    for (size_t i = 0; i < m->nres; i++) {
        res_decl *r = &m->res[i];
        size_t n = m->types[r->type].nattrs;
        for (size_t j = 0; j < n; j++)
            free(r->init[j]);
        free(r->init);
        free(r->name);
        free(r->display);
    }
    free(m->types);
    free(m->res);
    free(m->res_by_name);
    memset(m, 0, sizeof *m);
}

const char *model_scalar_text(const tj_node *v)
{
    switch (v->type) {
    case TJ_STRING:
    case TJ_NUMBER:
        return v->str;
    case TJ_TRUE:
        return "True";
    case TJ_FALSE:
        return "False";
    case TJ_NULL:
        return "";
    default:
        return NULL;
    }
}

long model_type_index(const model *m, const char *name, size_t n)
{
    for (size_t i = 0; i < m->ntypes; i++)
        if (strlen(m->types[i].name) == n && memcmp(m->types[i].name, name, n) == 0)
            return (long)i;
    return -1;
}

/* Names of a type's attributes (and behaviors) past this many are found
 * through an interning pool (keyed hashing, so crafted names cannot collide)
 * instead of a scan: adding each of 50,000 attributes scanned all those
 * before it, 10 s (issue 32, limits). Fewer are scanned, as before. */
#define NAME_INDEX_FROM 16

static long name_index_find(const name_index *x, const char *s, size_t n)
{
    uint32_t id = intern_find(x->pool, s, n);
    return id < x->cap ? x->at[id] : -1;
}

/* Records that `s` is at index i. Returns 0, or -1 when memory ran out (the
 * index is then dropped, and lookups scan again: slower, not wrong). */
static int name_index_add(name_index *x, const char *s, size_t n, long i)
{
    uint32_t id = x->pool ? intern_add(x->pool, s, n) : UINT32_MAX;
    size_t old = x->cap;
    if (id != UINT32_MAX && GROW(x->at, x->cap, (size_t)id + 1) == 0) {
        for (size_t k = old; k < x->cap; k++)
            x->at[k] = -1;
        x->at[id] = i;
        return 0;
    }
    intern_free(x->pool);
    x->pool = NULL;
    return -1;
}

static void name_index_free(name_index *x)
{
    intern_free(x->pool);
    free(x->at);
    memset(x, 0, sizeof *x);
}

long model_attr_index(const res_type *t, const char *name, size_t n)
{
    if (t->attrs_by_name.pool)
        return name_index_find(&t->attrs_by_name, name, n);
    for (size_t i = 0; i < t->nattrs; i++)
        if (t->attrs[i].name_len == n && memcmp(t->attrs[i].name, name, n) == 0)
            return (long)i;
    return -1;
}

long model_behavior_index(const res_type *t, const char *name, size_t n)
{
    if (t->behaviors_by_name.pool)
        return name_index_find(&t->behaviors_by_name, name, n);
    for (size_t i = 0; i < t->nbehaviors; i++)
        if (strlen(t->behaviors[i].name) == n && memcmp(t->behaviors[i].name, name, n) == 0)
            return (long)i;
    return -1;
}

/* Indexes a type's names once it has NAME_INDEX_FROM of them: the pool is
 * made and every name so far added, then each new one as it comes. */
static void index_attr(res_type *t)
{
    name_index *x = &t->attrs_by_name;
    if (!x->pool && t->nattrs == NAME_INDEX_FROM && (x->pool = intern_new()) != NULL) {
        for (size_t i = 0; i < t->nattrs && x->pool; i++)
            name_index_add(x, t->attrs[i].name, t->attrs[i].name_len, (long)i);
    } else if (x->pool) {
        attr_def *a = &t->attrs[t->nattrs - 1];
        name_index_add(x, a->name, a->name_len, (long)t->nattrs - 1);
    }
}

static void index_behavior(res_type *t)
{
    name_index *x = &t->behaviors_by_name;
    if (!x->pool && t->nbehaviors == NAME_INDEX_FROM && (x->pool = intern_new()) != NULL) {
        for (size_t i = 0; i < t->nbehaviors && x->pool; i++)
            name_index_add(x, t->behaviors[i].name, strlen(t->behaviors[i].name), (long)i);
    } else if (x->pool) {
        const char *b = t->behaviors[t->nbehaviors - 1].name;
        name_index_add(x, b, strlen(b), (long)t->nbehaviors - 1);
    }
}

/* A string member of an object, or NULL; wrong types are reported. */
static const char *string_member(const tj_node *obj, const char *key, const char *file,
                                 tlv_diags *d)
{
    const tj_node *v = tj_get(obj, key);
    if (!v)
        return NULL;
    if (v->type != TJ_STRING) {
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "\"%s\" must be a string, found %s", key, tj_type_name(v->type));
        return NULL;
    }
    return v->str;
}

static int parse_vtype(const char *s, vtype *out)
{
    if (strcasecmp(s, "String") == 0)
        *out = VT_STRING;
    else if (strcasecmp(s, "Number") == 0)
        *out = VT_NUMBER;
    else if (strcasecmp(s, "Boolean") == 0 || strcasecmp(s, "Bool") == 0)
        *out = VT_BOOLEAN;
    else
        return -1;
    return 0;
}

/* A counter's "Min" or "Max": a number, else reported. */
static int read_bound(const tj_node *def, const char *key, attr_def *a, double *out,
                      const char *file, tlv_diags *d)
{
    const tj_node *v = tj_get(def, key);
    if (!v)
        return 0;
    const char *txt = v->type == TJ_NUMBER || v->type == TJ_STRING ? model_scalar_text(v) : NULL;
    char *end = NULL;
    double x = txt ? strtod(txt, &end) : 0;
    if (!txt || end == txt || *end) {
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "attribute '%s': \"%s\" must be a number, found %s", a->name, key,
                  txt ? txt : tj_type_name(v->type));
        return -1;
    }
    *out = x;
    return 1;
}

/* "Counter": true, "Min", "Max" (tlv extensions, tlv/counters.h). */
static void read_counter(attr_def *a, const tj_node *def, const char *file, tlv_diags *d)
{
    const tj_node *c = tj_get(def, "Counter");
    if (c && c->type != TJ_TRUE && c->type != TJ_FALSE) {
        diags_add(d, TLV_SEV_ERROR, file, c->line, c->col,
                  "attribute '%s': \"Counter\" must be true or false, found %s", a->name,
                  tj_type_name(c->type));
        return;
    }
    if (c)
        a->counter = c->type == TJ_TRUE;
    if (a->counter && a->type != VT_NUMBER)
        diags_add(d, TLV_SEV_ERROR, file, c ? c->line : def->line, c ? c->col : def->col,
                  "attribute '%s': a counter needs \"VariableType\": \"Number\"", a->name);
    double lo = 0, hi = 0;
    int has_lo = read_bound(def, "Min", a, &lo, file, d);
    int has_hi = read_bound(def, "Max", a, &hi, file, d);
    if (has_lo < 0 || has_hi < 0 || (!has_lo && !has_hi))
        return;
    const tj_node *at = tj_get(def, has_lo ? "Min" : "Max");
    if (has_lo != has_hi || !(lo < hi)) {
        diags_add(d, TLV_SEV_ERROR, file, at->line, at->col,
                  has_lo != has_hi ? "attribute '%s': give both \"Min\" and \"Max\", or neither"
                                   : "attribute '%s': \"Min\" must be less than \"Max\"",
                  a->name);
        return;
    }
    a->has_bounds = 1;
    a->lower = lo;
    a->upper = hi;
}

static void read_attr(attr_def *a, const tj_node *def, const char *file, tlv_diags *d)
{
    if (def->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, def->line, def->col,
                  "attribute '%s' must be an object, found %s", a->name, tj_type_name(def->type));
        return;
    }
    const char *vt = string_member(def, "VariableType", file, d);
    if (vt && parse_vtype(vt, &a->type) < 0) {
        const tj_node *v = tj_get(def, "VariableType");
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "attribute '%s': unknown VariableType '%s' (expected String, Number or Boolean)",
                  a->name, vt);
    }
    const char *disp = string_member(def, "DisplayName", file, d);
    if (disp) {
        free(a->display);
        a->display = xstrdup(disp);
    }
    const char *alloc = string_member(def, "AllocationType", file, d);
    if (alloc) {
        if (strcasecmp(alloc, "Static") == 0)
            a->is_static = 1;
        else if (strcasecmp(alloc, "Dynamic") == 0)
            a->is_static = 0;
        else {
            const tj_node *v = tj_get(def, "AllocationType");
            diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                      "attribute '%s': unknown AllocationType '%s' (expected Static or Dynamic)",
                      a->name, alloc);
        }
    }
    const tj_node *g = tj_get(def, "CanGrouping");
    if (g)
        a->can_group = g->type == TJ_TRUE;
    const tj_node *dv = tj_get(def, "Default");
    if (dv) {
        const char *txt = model_scalar_text(dv);
        if (!txt)
            diags_add(d, TLV_SEV_ERROR, file, dv->line, dv->col,
                      "attribute '%s': Default must be a string, number or boolean, found %s",
                      a->name, tj_type_name(dv->type));
        else {
            free(a->deflt);
            a->deflt = xstrdup(txt);
        }
    }
    read_counter(a, def, file, d);
}

static void read_behavior(behavior_def *b, const tj_node *def, const char *file, tlv_diags *d)
{
    if (def->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, def->line, def->col,
                  "behavior '%s' must be an object, found %s", b->name, tj_type_name(def->type));
        return;
    }
    const char *disp = string_member(def, "DisplayName", file, d);
    if (disp) {
        free(b->display);
        b->display = xstrdup(disp);
    }
    const tj_node *args = tj_get(def, "Arguments");
    if (!args)
        return;
    if (args->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, args->line, args->col,
                  "behavior '%s': Arguments must be an object, found %s", b->name,
                  tj_type_name(args->type));
        return;
    }
    for (size_t i = 0; i < b->nargs; i++)
        free(b->arg_names[i]);
    free(b->arg_names);
    free(b->arg_types);
    b->nargs = 0;
    b->arg_names = calloc(args->count ? args->count : 1, sizeof *b->arg_names);
    b->arg_types = calloc(args->count ? args->count : 1, sizeof *b->arg_types);
    if (!b->arg_names || !b->arg_types)
        return;
    for (const tj_node *a = args->child; a; a = a->next) {
        if (tj_shadowed(a))
            continue;
        vtype t = VT_STRING;
        if (a->type != TJ_STRING || parse_vtype(a->str, &t) < 0)
            diags_add(d, TLV_SEV_ERROR, file, a->line, a->col,
                      "behavior '%s': argument '%s' must be \"String\", \"Number\" or \"Boolean\"",
                      b->name, a->key);
        b->arg_names[b->nargs] = xstrdup(a->key);
        b->arg_types[b->nargs++] = t;
    }
}

static attr_def *find_or_add_attr(res_type *t, const char *name)
{
    long i = model_attr_index(t, name, strlen(name));
    if (i >= 0)
        return &t->attrs[i];
    char *copy = xstrdup(name); /* names are looked up later: never a NULL one */
    if (!copy || GROW(t->attrs, t->attrs_cap, t->nattrs + 1) < 0) {
        free(copy);
        return NULL;
    }
    attr_def *a = &t->attrs[t->nattrs++];
    memset(a, 0, sizeof *a);
    a->name = copy;
    a->name_len = strlen(copy);
    index_attr(t);
    return a;
}

static behavior_def *find_or_add_behavior(res_type *t, const char *name)
{
    long i = model_behavior_index(t, name, strlen(name));
    if (i >= 0)
        return &t->behaviors[i];
    char *copy = xstrdup(name);
    if (!copy || GROW(t->behaviors, t->behaviors_cap, t->nbehaviors + 1) < 0) {
        free(copy);
        return NULL;
    }
    behavior_def *b = &t->behaviors[t->nbehaviors++];
    memset(b, 0, sizeof *b);
    b->name = copy;
    index_behavior(t);
    return b;
}

static void read_members(res_type *t, const tj_node *obj, int behaviors, const char *file,
                         tlv_diags *d)
{
    const char *what = behaviors ? "Behaviors" : "Attributes";
    if (obj->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, obj->line, obj->col,
                  "type '%s': %s must be an object, found %s", t->name, what,
                  tj_type_name(obj->type));
        return;
    }
    for (const tj_node *m = obj->child; m; m = m->next) {
        if (tj_shadowed(m))
            continue;
        if (behaviors) {
            behavior_def *b = find_or_add_behavior(t, m->key);
            if (b)
                read_behavior(b, m, file, d);
        } else {
            attr_def *a = find_or_add_attr(t, m->key);
            if (a)
                read_attr(a, m, file, d);
        }
    }
}

/* ---- "Instances" (a tlv extension, tlv/instances.h) ------------------------------ */

static const char *const builtin_kinds[] = {"response", "latency", "call"};

/* One string member of an instance kind, copied with its position; a
 * missing or wrong one is reported. */
static char *inst_string(const tj_node *def, const char *key, int required, const char *type,
                         const char *file, tlv_diags *d, long *line, long *col)
{
    const tj_node *v = tj_get(def, key);
    if (!v || v->type != TJ_STRING || (required && !*v->str)) {
        if (v || required)
            diags_add(d, TLV_SEV_ERROR, file, v ? v->line : def->line, v ? v->col : def->col,
                      "type '%s': instance kind '%s': \"%s\" must be %s, found %s", type,
                      def->key, key, required ? "an event pattern (a string)" : "a string",
                      v ? (v->type == TJ_STRING ? "an empty string" : tj_type_name(v->type))
                        : "nothing");
        return NULL;
    }
    *line = v->line;
    *col = v->col;
    return xstrdup(v->str);
}

static void read_inst(res_type *t, const tj_node *def, const char *file, tlv_diags *d)
{
    for (size_t i = 0; i < sizeof builtin_kinds / sizeof *builtin_kinds; i++)
        if (strcmp(def->key, builtin_kinds[i]) == 0) {
            diags_add(d, TLV_SEV_ERROR, file, def->key_line, def->key_col,
                      "type '%s': instance kind '%s' is built in (response, latency, call); "
                      "give yours another name", t->name, def->key);
            return;
        }
    if (def->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, def->line, def->col,
                  "type '%s': instance kind '%s' must be an object with \"From\" and \"To\", "
                  "found %s", t->name, def->key, tj_type_name(def->type));
        return;
    }
    inst_def k = {0};
    k.file = file;
    k.line = def->key_line;
    k.col = def->key_col;
    long l, c;
    k.from = inst_string(def, "From", 1, t->name, file, d, &k.from_line, &k.from_col);
    k.to = inst_string(def, "To", 1, t->name, file, d, &k.to_line, &k.to_col);
    k.label = inst_string(def, "Name", 0, t->name, file, d, &k.label_line, &k.label_col);
    char *disp = inst_string(def, "DisplayName", 0, t->name, file, d, &l, &c);
    k.display = disp;
    k.kind = xstrdup(def->key);
    size_t i = 0; /* a later declaration of the kind replaces the earlier */
    while (i < t->ninsts && strcmp(t->insts[i].kind, def->key) != 0)
        i++;
    if (!k.from || !k.to || !k.kind || (i == t->ninsts && GROW(t->insts, t->insts_cap, i + 1) < 0)) {
        free_inst(&k);
        return;
    }
    if (i < t->ninsts)
        free_inst(&t->insts[i]);
    else
        t->ninsts++;
    t->insts[i] = k;
}

static void read_insts(res_type *t, const tj_node *obj, const char *file, tlv_diags *d)
{
    if (obj->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, obj->line, obj->col,
                  "type '%s': Instances must be an object of instance kinds, found %s", t->name,
                  tj_type_name(obj->type));
        return;
    }
    for (const tj_node *m = obj->child; m; m = m->next)
        if (!tj_shadowed(m))
            read_inst(t, m, file, d);
}

int model_inst_var_known(const char *name, size_t n, int where)
{
    static const char *const fixed[] = {"TARGET", "FROM_VAL", "FROM_TIME", "TO_VAL", "TO_TIME"};
    static const int from_where[] = {0, 1, 1, 2, 2};
    for (size_t i = 0; i < 5; i++)
        if (strlen(fixed[i]) == n && memcmp(fixed[i], name, n) == 0)
            return where >= from_where[i];
    const char *prefix = where >= 2 && n > 6 && memcmp(name, "TO_ARG", 6) == 0 ? "TO_ARG"
                         : where >= 1 && n > 8 && memcmp(name, "FROM_ARG", 8) == 0 ? "FROM_ARG"
                                                                                  : NULL;
    if (!prefix)
        return 0;
    for (size_t i = strlen(prefix); i < n; i++)
        if (name[i] < '0' || name[i] > '9')
            return 0;
    return 1;
}

static int inst_var_lookup(void *user, const char *name, size_t n, const char **value,
                           size_t *len)
{
    *value = "";
    *len = 0;
    return model_inst_var_known(name, n, *(const int *)user);
}

/* Checks one pattern of an instance kind: variables, syntax, ${TARGET}, and
 * that its name is an attribute or behavior of the type. */
static void check_inst_pattern(const res_type *t, const inst_def *k, const char *key,
                               const char *text, long line, long col, int where, tlv_diags *d)
{
    size_t n;
    const char *bad = evp_unknown_var(text, inst_var_lookup, &where, &n);
    if (bad) {
        diags_add(d, TLV_SEV_ERROR, k->file, line, col + (long)(bad - text) + 1,
                  "type '%s': instance kind '%s': \"%s\": unknown variable '%.*s' (%s)",
                  t->name, k->kind, key, (int)n, bad,
                  where == 0   ? "From may use ${TARGET}"
                  : where == 1 ? "To may use ${TARGET}, ${FROM_VAL}, ${FROM_ARGn}, ${FROM_TIME}"
                               : "Name may use ${TARGET}, ${FROM_...} and ${TO_...}");
        return;
    }
    if (where == 2)
        return; /* a name, not a pattern */
    evpattern p;
    char err[200];
    size_t at = 0;
    int rc = evpattern_parse(text, strlen(text), &p, err, sizeof err, &at);
    if (rc == 0 && strcmp(p.resource, "${TARGET}") != 0) {
        snprintf(err, sizeof err, "an instance's events are its resource's: write "
                 "\"${TARGET}.%s...\", not \"%s...\"", p.name, p.resource);
        at = 1;
        rc = -1;
    } else if (rc == 0 && model_attr_index(t, p.name, strlen(p.name)) < 0 &&
               model_behavior_index(t, p.name, strlen(p.name)) < 0) {
        snprintf(err, sizeof err, "type '%s' has no attribute or behavior '%s'", t->name, p.name);
        at = strlen(p.resource) + 2;
        rc = -1;
    }
    if (rc == -1)
        diags_add(d, TLV_SEV_ERROR, k->file, line, col + (long)at,
                  "type '%s': instance kind '%s': \"%s\": %s", t->name, k->kind, key, err);
    evpattern_free(&p);
}

void model_check_instances(const model *m, tlv_diags *d)
{
    for (size_t i = 0; i < m->ntypes; i++) {
        const res_type *t = &m->types[i];
        for (size_t j = 0; j < t->ninsts; j++) {
            const inst_def *k = &t->insts[j];
            check_inst_pattern(t, k, "From", k->from, k->from_line, k->from_col, 0, d);
            check_inst_pattern(t, k, "To", k->to, k->to_line, k->to_col, 1, d);
            if (k->label)
                check_inst_pattern(t, k, "Name", k->label, k->label_line, k->label_col, 2, d);
        }
    }
}

static res_type *find_or_add_type(model *m, const tj_node *def, const char *file)
{
    long i = model_type_index(m, def->key, strlen(def->key));
    if (i >= 0)
        return &m->types[i];
    char *copy = xstrdup(def->key);
    if (!copy || GROW(m->types, m->types_cap, m->ntypes + 1) < 0) {
        free(copy);
        return NULL;
    }
    res_type *t = &m->types[m->ntypes++];
    memset(t, 0, sizeof *t);
    t->name = copy;
    t->file = file;
    t->line = def->key_line;
    t->col = def->key_col;
    return t;
}

void model_add_types(model *m, const tj_node *target, const char *file, tlv_diags *d)
{
    if (target->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, target->line, target->col,
                  "resource header target '%s' must be an object of types, found %s",
                  target->key, tj_type_name(target->type));
        return;
    }
    for (const tj_node *def = target->child; def; def = def->next) {
        if (tj_shadowed(def))
            continue;
        if (def->type != TJ_OBJECT) {
            diags_add(d, TLV_SEV_ERROR, file, def->line, def->col,
                      "type '%s' must be an object, found %s", def->key, tj_type_name(def->type));
            continue;
        }
        res_type *t = find_or_add_type(m, def, file);
        if (!t)
            return;
        const char *disp = string_member(def, "DisplayName", file, d);
        if (disp) {
            free(t->display);
            t->display = xstrdup(disp);
        }
        const tj_node *attrs = tj_get(def, "Attributes");
        if (attrs)
            read_members(t, attrs, 0, file, d);
        const tj_node *behs = tj_get(def, "Behaviors");
        if (behs)
            read_members(t, behs, 1, file, d);
        const tj_node *insts = tj_get(def, "Instances");
        if (insts)
            read_insts(t, insts, file, d);
        const tj_node *imp = tj_get(def, "Impossible");
        if (imp)
            model_read_impossible(t, imp, file, d);
    }
}

static int parse_color(const char *s, uint32_t *out)
{
    size_t n = strlen(s);
    if (n != 6 && n != 8)
        return -1;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int dgt = hex_digit_value((unsigned char)s[i]);
        if (dgt < 0)
            return -1;
        v = v * 16 + (uint32_t)dgt;
    }
    *out = v & 0xffffff; /* an alpha byte, if any, does not apply to a resource */
    return 0;
}

static void read_resource_attrs(const model *m, res_decl *r, const tj_node *attrs,
                                const char *file, tlv_diags *d)
{
    const res_type *t = &m->types[r->type];
    if (attrs->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, attrs->line, attrs->col,
                  "resource '%s': Attributes must be an object, found %s", r->name,
                  tj_type_name(attrs->type));
        return;
    }
    for (const tj_node *a = attrs->child; a; a = a->next) {
        if (tj_shadowed(a))
            continue;
        long i = model_attr_index(t, a->key, strlen(a->key));
        if (i < 0) {
            diags_add(d, TLV_SEV_ERROR, file, a->key_line, a->key_col,
                      "resource '%s': type '%s' has no attribute '%s'", r->name, t->name, a->key);
            continue;
        }
        const char *txt = model_scalar_text(a);
        if (!txt) {
            diags_add(d, TLV_SEV_ERROR, file, a->line, a->col,
                      "resource '%s': attribute '%s' must be a string, number or boolean, found %s",
                      r->name, a->key, tj_type_name(a->type));
            continue;
        }
        free(r->init[i]);
        r->init[i] = xstrdup(txt);
    }
}

static void note_color_taken(model *m, uint32_t c);
static void index_resources(model *m);

static void read_resource(model *m, const tj_node *def, const char *file, tlv_diags *d)
{
    if (def->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, def->line, def->col,
                  "resource '%s' must be an object, found %s", def->key, tj_type_name(def->type));
        return;
    }
    const char *type = string_member(def, "Type", file, d);
    if (!type) {
        if (!tj_get(def, "Type"))
            diags_add(d, TLV_SEV_ERROR, file, def->key_line, def->key_col,
                      "resource '%s' has no \"Type\"", def->key);
        return;
    }
    long ti = model_type_index(m, type, strlen(type));
    if (ti < 0) {
        const tj_node *tv = tj_get(def, "Type");
        diags_add(d, TLV_SEV_ERROR, file, tv->line, tv->col,
                  "resource '%s': type '%s' is not declared in the resource headers", def->key,
                  type);
        return;
    }
    if (GROW(m->res, m->res_cap, m->nres + 1) < 0)
        return;
    res_decl *r = &m->res[m->nres];
    memset(r, 0, sizeof *r);
    r->init = calloc(m->types[ti].nattrs + 1, sizeof *r->init);
    r->name = xstrdup(def->key);
    if (!r->init || !r->name) {
        free(r->init);
        free(r->name);
        return;
    }
    m->nres++;
    r->type = (size_t)ti;
    r->line = def->key_line;
    r->col = def->key_col;
    const char *disp = string_member(def, "DisplayName", file, d);
    if (disp)
        r->display = xstrdup(disp);
    const char *color = string_member(def, "Color", file, d);
    if (color) {
        if (parse_color(color, &r->color) == 0) {
            r->has_color = 1;
            note_color_taken(m, r->color);
        }
        else {
            const tj_node *cv = tj_get(def, "Color");
            diags_add(d, TLV_SEV_ERROR, file, cv->line, cv->col,
                      "resource '%s': Color '%s' is not a color (expected rrggbb in hexadecimal)",
                      r->name, color);
        }
    }
    const tj_node *attrs = tj_get(def, "Attributes");
    if (attrs)
        read_resource_attrs(m, r, attrs, file, d);
}

void model_add_resources(model *m, const tj_node *resources, const char *file, tlv_diags *d)
{
    if (resources->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, resources->line, resources->col,
                  "\"Resources\" must be an object, found %s", tj_type_name(resources->type));
        return;
    }
    for (const tj_node *def = resources->child; def; def = def->next) {
        if (tj_shadowed(def))
            continue;
        diags_add_duplicates(d, file, def, "resource");
        read_resource(m, def, file, d);
    }
    index_resources(m);
}

/* A resource's place in the name index: the hash of its name first, so
 * that most comparisons are of two numbers (names made to collide cost a
 * text comparison each, so sorting stays O(n log n)). */
typedef struct named_index {
    uint64_t hash;
    const char *name;
    size_t i;
} named_index;

/* The n bytes at a against the NUL-terminated b, as strcmp orders them. */
static int name_cmp(const char *a, size_t n, const char *b)
{
    size_t bn = strlen(b);
    int c = memcmp(a, b, n < bn ? n : bn);
    return c ? c : n < bn ? -1 : n > bn;
}

static int cmp_named(const void *x, const void *y)
{
    const named_index *a = x, *b = y;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    int c = strcmp(a->name, b->name);
    return c ? c : a->i < b->i ? -1 : a->i > b->i;
}

/* Sorts the declared resources for model_res_index, so that a look-up by
 * name costs a binary search: `tlv check` looked up every reference of every
 * rule by scanning every resource. Without memory for the index the look-ups
 * scan (slower, not wrong; alloc.h counts the failure). */
static void index_resources(model *m)
{
    free(m->res_by_name);
    m->nres_by_name = 0;
    m->res_by_name = malloc((m->nres ? m->nres : 1) * sizeof *m->res_by_name);
    if (!m->res_by_name)
        return;
    for (size_t i = 0; i < m->nres; i++)
        m->res_by_name[i] = (named_index){hash_fast(m->res[i].name, strlen(m->res[i].name)),
                                          m->res[i].name, i};
    qsort(m->res_by_name, m->nres, sizeof *m->res_by_name, cmp_named);
    m->nres_by_name = m->nres;
}

long model_res_index(const model *m, const char *name, size_t n)
{
    named_index key = {hash_fast(name, n), NULL, 0};
    size_t lo = 0, hi = m->nres_by_name;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const named_index *e = &m->res_by_name[mid];
        int c = key.hash != e->hash ? (key.hash < e->hash ? -1 : 1) : name_cmp(name, n, e->name);
        if (c == 0)
            return (long)e->i;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    for (size_t i = m->nres_by_name; i < m->nres; i++)
        if (name_cmp(name, n, m->res[i].name) == 0)
            return (long)i;
    return -1;
}

/* Twenty well-separated hues (Tableau 20), then the same rotated. */
static const uint32_t palette[] = {
    0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2,
    0x7f7f7f, 0xbcbd22, 0x17becf, 0xaec7e8, 0xffbb78, 0x98df8a, 0xff9896,
    0xc5b0d5, 0xc49c94, 0xf7b6d2, 0xc7c7c7, 0xdbdb8d, 0x9edae5,
};

uint32_t model_palette_color(size_t n) { return palette[n % (sizeof palette / sizeof *palette)]; }

#define PALETTE_SIZE (sizeof palette / sizeof *palette)
_Static_assert(PALETTE_SIZE <= 32, "palette_taken has a bit per palette color");

/* The palette position of color c, or -1 when it is not a palette color. */
static int palette_index(uint32_t c)
{
    for (size_t i = 0; i < PALETTE_SIZE; i++)
        if (palette[i] == c)
            return (int)i;
    return -1;
}

/* Remembers a color a resource of the file asked for itself, so that no
 * colorless resource is given it; a bit per palette color keeps the question
 * constant time (a scan of every resource per resource took hours for a
 * million of them). */
static void note_color_taken(model *m, uint32_t c)
{
    int i = palette_index(c);
    if (i >= 0)
        m->palette_taken |= UINT32_C(1) << i;
}

/* Whether a resource of the file asked for this color itself. */
static int color_taken(const model *m, uint32_t c)
{
    int i = palette_index(c);
    return i >= 0 && (m->palette_taken >> i & 1);
}

uint32_t model_next_palette_color(const model *m, size_t *k)
{
    for (size_t tries = 0; tries < PALETTE_SIZE; tries++) {
        uint32_t c = model_palette_color((*k)++);
        if (!color_taken(m, c))
            return c;
    }
    return model_palette_color((*k)++); /* every palette color is taken: repeat */
}

void model_assign_colors(model *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->nres; i++)
        if (!m->res[i].has_color)
            m->res[i].color = model_next_palette_color(m, &k);
    m->palette_used = k; /* resources created on first use go on from here */
}

tlv_status model_err_no_resource(last_error *e, const char *fn, const char *resource)
{
    return last_error_set(e, TLV_ERR_USAGE, "%s: no resource '%s' in the trace", fn, resource);
}

tlv_status model_err_no_attribute(last_error *e, const char *fn, const char *resource,
                                  const res_type *t, const char *attr)
{
    char names[256] = "";
    size_t n = 0;
    for (size_t i = 0; i < t->nattrs && n < sizeof names; i++)
        n += (size_t)snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", t->attrs[i].name);
    return last_error_set(e, TLV_ERR_USAGE, "%s: resource '%s' (type %s) has no attribute '%s' (%s%s)",
                          fn, resource, t->name, attr, t->nattrs ? "it has: " : "it has none",
                          names);
}
