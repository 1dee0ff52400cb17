/*
 * check.c — static checks of rule references against the resource model, so
 * that `tlv check` (and loading) points at a misspelt type, attribute,
 * behavior or shape in the rule file instead of failing on some log line
 * later. Only references written literally are checked: anything built from
 * ${...} substitutions is known only at run time.
 */
#include "rules/check.h"

#include "base/buf.h"
#include "base/intern.h"
#include "compile/macro.h"

#include <string.h>

static int name_char(char c)
{
    return c && !strchr("()[]{}.$,= \t", c);
}

/* The literal name at s (up to a delimiter), or 0 when it has a '$'. */
static size_t literal_name(const char *s)
{
    size_t n = 0;
    while (name_char(s[n]))
        n++;
    return s[n] == '$' ? 0 : n;
}

static long type_of_ref(const struct tlv_rules *r, const char *s, size_t n, int has_cond)
{
    if (!has_cond) {
        long ri = model_res_index(&r->model, s, n);
        if (ri >= 0)
            return (long)r->model.res[ri].type;
    }
    long t = model_type_index(&r->model, s, n);
    if (t < 0 && !has_cond) { /* a name that will be created on first use */
        long di = dyn_match(&r->dyn, s, n, NULL);
        t = di < 0 ? -1 : (long)r->dyn.v[di].type;
    }
    return t;
}

/* Skips a balanced "(...)" at s; returns the character after it. */
static const char *skip_parens(const char *s)
{
    int depth = 0;
    for (; *s; s++) {
        if (*s == '(')
            depth++;
        else if (*s == ')' && --depth == 0)
            return s + 1;
    }
    return s;
}

static void report(struct tlv_rules *r, const char *file, long line, long col, const char *fmt,
                   const char *a, size_t an, const char *b)
{
    diags_add(&r->diags, r->ref_severity, file, line, col, fmt, (int)an, a, b);
}

/* Checks ".name" (attribute) after a reference of type t. */
static void check_member(struct tlv_rules *r, long t, const char *p, int behavior_ok,
                         const char *text, const char *file, long line, long col)
{
    if (t < 0 || *p != '.')
        return;
    size_t n = literal_name(p + 1);
    if (!n)
        return;
    const res_type *ty = &r->model.types[t];
    char next = p[1 + n];
    int is_behavior = next == '(';
    if (is_behavior && behavior_ok) {
        if (model_behavior_index(ty, p + 1, n) < 0)
            diags_add(&r->diags, r->ref_severity, file, line, col,
                      "type '%s' has no behavior '%.*s' (in \"%s\")", ty->name, (int)n, p + 1,
                      text);
        return;
    }
    if (model_attr_index(ty, p + 1, n) < 0 && strncmp(p + 1, "_name", n) != 0 &&
        strncmp(p + 1, "_displayName", n) != 0 && strncmp(p + 1, "_type", n) != 0)
        diags_add(&r->diags, r->ref_severity, file, line, col,
                  "type '%s' has no attribute '%.*s' (in \"%s\")", ty->name, (int)n, p + 1, text);
}

/* A resource reference at s: "[T]Name", "Type(cond)". Returns its type (or
 * -1 when unknown or not literal) and sets *end past it. */
static long check_ref(struct tlv_rules *r, const char *s, const char **end, const char *text,
                      const char *file, long line, long col)
{
    if (*s == '[') {
        const char *close = strchr(s, ']');
        s = close ? close + 1 : s;
    }
    size_t n = literal_name(s);
    *end = s + n;
    if (!n)
        return -1;
    int has_cond = s[n] == '(';
    long t = type_of_ref(r, s, n, has_cond);
    if (t < 0 && !has_cond && r->model.nres == 0)
        return -1; /* checking rule files alone: resource names are not known */
    if (t < 0)
        report(r, file, line, col,
               has_cond ? "no resource type named '%.*s' (in \"%s\")"
                        : "no resource or resource type named '%.*s' (in \"%s\")",
               s, n, text);
    if (has_cond)
        *end = skip_parens(s + n);
    return t;
}

void check_template_refs(struct tlv_rules *r, const char *text, const char *file, long line,
                         long col, int event_line)
{
    if (!r->model.ntypes || !text)
        return; /* nothing to check against, or a template that did not compile */
    const char *name;
    size_t nl;
    size_t len = strlen(text);
    for (long at = macro_find_call(text, len, 0, &name, &nl); at >= 0;
         at = macro_find_call(text, len, (size_t)at + 1, &name, &nl)) {
        const char *end;
        unsigned flags = macro_flags(name, nl);
        if (!(flags & MACRO_TAKES_RESOURCE))
            continue; /* numbers and times, not resources */
        long t = check_ref(r, text + at + nl + 2, &end, text, file, line, col);
        if (flags & MACRO_TAKES_ATTRIBUTE)
            check_member(r, t, end, 0, text, file, line, col);
    }
    if (!event_line)
        return;
    /* "[time]Resource.member..." — the resource may be a $RES_NAME{Type(...)}. */
    const char *p = text;
    if (*p == '\\')
        p++;
    if (*p != '[')
        return;
    const char *close = strchr(p, ']');
    if (!close)
        return;
    p = close + 1;
    long t;
    const char *end;
    if (strncmp(p, "$RES_NAME{", 10) == 0) {
        size_t n = literal_name(p + 10);
        if (!n)
            return;
        t = type_of_ref(r, p + 10, n, p[10 + n] == '(');
        end = p + 10 + n;
        if (*end == '(')
            end = skip_parens(end);
        if (*end != '}')
            return;
        end++;
    } else {
        if (*p == '$')
            return;
        t = check_ref(r, p, &end, text, file, line, col);
    }
    check_member(r, t, end, 1, text, file, line, col);
}

static void check_output(struct tlv_rules *r, const out_node *o, const char *file)
{
    if (o->kind == OUT_TEMPLATE) {
        check_template_refs(r, o->t.text, file, o->line, o->col, 1);
        return;
    }
    for (size_t i = 0; i < o->n; i++) {
        if (o->conds)
            check_template_refs(r, o->conds[i].text, file, o->items[i].line, o->items[i].col, 0);
        check_output(r, &o->items[i], file);
    }
}

void check_cnv_references(struct tlv_rules *r)
{
    for (size_t i = 0; i < r->nrules; i++)
        check_output(r, &r->rules[i].out, r->rules[i].file);
}

/* ---- visualization rules -------------------------------------------------------- */

/* The "Shapes" object of a .viz target, or NULL (none, or not an object:
 * an array's members have no names; before, `"Shapes":[1]` crashed tlv
 * check). */
static const tj_node *shapes_of(const tj_node *target)
{
    const tj_node *shapes = tj_get(target, "Shapes");
    return shapes && shapes->type == TJ_OBJECT ? shapes : NULL;
}

static int shape_exists(const struct tlv_rules *r, const char *name, size_t n)
{
    if (r->shape_names)
        return intern_find(r->shape_names, name, n) != UINT32_MAX;
    for (size_t i = 0; i < r->nviz; i++) {
        const tj_node *shapes = shapes_of(r->viz[i].node);
        for (const tj_node *s = shapes ? shapes->child : NULL; s; s = s->next)
            if (strlen(s->key) == n && memcmp(s->key, name, n) == 0)
                return 1;
    }
    return 0;
}

static void check_figures(struct tlv_rules *r, const tj_node *f, const char *rule,
                          const char *file, int depth)
{
    if (!f || depth > 32)
        return;
    if (f->type == TJ_STRING) {
        size_t n = strcspn(f->str, "(");
        while (n && (f->str[n - 1] == ' ' || f->str[n - 1] == '\t'))
            n--;
        if (n && !memchr(f->str, '$', n) && !shape_exists(r, f->str, n))
            diags_add(&r->diags, r->ref_severity, file, f->line, f->col,
                      "rule '%s': figure '%.*s' names no shape of the requested targets", rule,
                      (int)n, f->str);
        return;
    }
    for (const tj_node *c = f->child; c; c = c->next)
        check_figures(r, c, rule, file, depth + 1);
}

static void check_pattern(struct tlv_rules *r, const char *pat, long target, const tj_node *at,
                          const char *file)
{
    if (!pat || !r->model.ntypes)
        return;
    long t = -1;
    const char *end = pat;
    if (strncmp(pat, "${TARGET}", 9) == 0 || strncmp(pat, "${FROM_TARGET}", 14) == 0) {
        t = strncmp(pat, "${TARGET}", 9) == 0 ? target : -1;
        end = strchr(pat, '}') + 1;
    } else if (*pat != '$') {
        t = check_ref(r, pat, &end, pat, file, at->line, at->col);
    }
    check_member(r, t, end, 1, pat, file, at->line, at->col);
}

static void check_viz_rule(struct tlv_rules *r, const tj_node *rule, const char *file)
{
    const tj_node *tv = tj_get(rule, "Target");
    long target = -1;
    if (tv && tv->type == TJ_STRING && r->model.ntypes) {
        target = model_type_index(&r->model, tv->str, strlen(tv->str));
        if (target < 0)
            diags_add(&r->diags, r->ref_severity, file, tv->line, tv->col,
                      "rule '%s': Target '%s' is not a resource type", rule->key, tv->str);
    }
    const tj_node *events = tj_get(rule, "Shapes");
    for (const tj_node *e = events && events->type == TJ_OBJECT ? events->child : NULL; e;
         e = e->next) {
        if (e->type != TJ_OBJECT)
            continue;
        static const char *const keys[] = {"From", "To", "When"};
        for (size_t k = 0; k < 3; k++) {
            const tj_node *p = tj_get(e, keys[k]);
            if (p && p->type == TJ_STRING)
                check_pattern(r, p->str, target, p, file);
        }
        if (r->check_figures)
            check_figures(r, tj_get(e, "Figures"), rule->key, file, 0);
    }
}

/* Whether the Shapes of `target` were loaded: a rule file checked alone may
 * take its shapes from another file, which then cannot be checked. */
static int target_has_shapes(const struct tlv_rules *r, const char *target)
{
    for (size_t i = 0; i < r->nviz; i++)
        if (strcmp(r->viz[i].target, target) == 0 && tj_get(r->viz[i].node, "Shapes"))
            return 1;
    return 0;
}

/* Every shape's name in one table, or NULL when memory ran out (the names
 * are then scanned). */
static struct intern_pool *shape_table(const struct tlv_rules *r)
{
    intern_pool *p = intern_new();
    for (size_t i = 0; p && i < r->nviz; i++) {
        const tj_node *shapes = shapes_of(r->viz[i].node);
        for (const tj_node *s = shapes ? shapes->child : NULL; s; s = s->next)
            if (intern_add(p, s->key, strlen(s->key)) == UINT32_MAX) {
                intern_free(p);
                return NULL;
            }
    }
    return p;
}

void check_viz_references(struct tlv_rules *r)
{
    r->shape_names = shape_table(r);
    for (size_t i = 0; i < r->nviz; i++) {
        r->check_figures = target_has_shapes(r, r->viz[i].target);
        const tj_node *rules = tj_get(r->viz[i].node, "VisualizeRules");
        if (rules && rules->type != TJ_OBJECT) /* said when it was loaded */
            rules = NULL;
        for (const tj_node *rule = rules ? rules->child : NULL; rule; rule = rule->next)
            if (rule->type == TJ_OBJECT && !tj_get(rule, "Style"))
                check_viz_rule(r, rule, r->viz[i].file);
    }
    intern_free(r->shape_names);
    r->shape_names = NULL;
    check_viz_conditions(r);
}
