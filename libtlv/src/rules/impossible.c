/*
 * impossible.c — what the resource headers declare impossible ("Impossible"
 * entries of a type, read by model/impossible.c), checked against the types
 * and compiled once for the converter's consistency report: "When" names an
 * attribute change ("state", "state=RUNNING") or a behavior ("exit()") of
 * the type, "If" is a resource condition (section 6 of docs/reference.md)
 * that may use ${VAL} and ${ARGn}, and "Says" may use ${VAL}, ${ARGn},
 * ${TARGET}, ${TIME} and the type's attribute names. A mistake is an error
 * at its place in the .resh, as for every other rule text.
 */
#include "rules/rules_impl.h"

#include "base/buf.h"
#include "lang/cond.h"

#include <stdlib.h>
#include <string.h>

static void attr_names(const res_type *t, buf *b)
{
    for (size_t i = 0; i < t->nattrs; i++)
        buf_printf(b, "%s%s", i ? ", " : "", t->attrs[i].name);
    if (!t->nattrs)
        buf_puts(b, "none");
}

static void behavior_names(const res_type *t, buf *b)
{
    for (size_t i = 0; i < t->nbehaviors; i++)
        buf_printf(b, "%s%s()", i ? ", " : "", t->behaviors[i].name);
    if (!t->nbehaviors)
        buf_puts(b, "none");
}

static void entry_error(struct tlv_rules *r, const res_type *t, const impossible_def *e,
                        long line, long col, const char *what, const char *why)
{
    diags_add(&r->diags, TLV_SEV_ERROR, e->file, line, col, "type '%s': Impossible '%s': %s: %s",
              t->name, e->name, what, why);
}

/* Reads When into c: 0, or -1 after reporting why it names nothing. */
static int read_when(struct tlv_rules *r, const res_type *t, const impossible_def *e,
                     impossible *c)
{
    const char *w = e->when;
    size_t n = strlen(w);
    buf why = BUF_INIT;
    int rc = 0;
    if (n > 2 && strcmp(w + n - 2, "()") == 0) {
        long b = model_behavior_index(t, w, n - 2);
        c->is_behavior = 1;
        c->index = (size_t)b;
        if (b < 0) {
            buf_printf(&why, "type '%s' has no behavior '%.*s' (it has: ", t->name, (int)(n - 2),
                       w);
            behavior_names(t, &why);
            buf_puts(&why, ")");
            rc = -1;
        }
    } else {
        const char *eq = strchr(w, '=');
        size_t an = eq ? (size_t)(eq - w) : n;
        long a = model_attr_index(t, w, an);
        c->index = (size_t)a;
        if (a < 0) {
            if (strchr(w, '(') || an == 0)
                buf_printf(&why, "'%s' is not \"attr\", \"attr=VALUE\" or \"behavior()\"", w);
            else {
                buf_printf(&why, "type '%s' has no attribute '%.*s' (it has: ", t->name,
                           (int)an, w);
                attr_names(t, &why);
                buf_puts(&why, ")");
            }
            rc = -1;
        } else if (eq)
            c->value = xstrdup(eq + 1);
    }
    if (rc < 0)
        entry_error(r, t, e, e->when_line, e->when_col, "When", buf_str(&why));
    buf_free(&why);
    return rc;
}

/* Whether `name` (n bytes) is a variable Says or If may use. */
static int known_var(const res_type *t, const char *name, size_t n, int says)
{
    if ((n == 3 && memcmp(name, "VAL", 3) == 0))
        return 1;
    if (n > 3 && memcmp(name, "ARG", 3) == 0 && strspn(name + 3, "0123456789") >= n - 3)
        return 1;
    if (!says)
        return 0;
    if ((n == 6 && memcmp(name, "TARGET", 6) == 0) || (n == 4 && memcmp(name, "TIME", 4) == 0))
        return 1;
    return model_attr_index(t, name, n) >= 0;
}

/* Checks every ${...} of text; returns how many there are, -1 after
 * reporting one that names nothing. */
static int check_vars(struct tlv_rules *r, const res_type *t, const impossible_def *e,
                      const char *text, long line, long col, const char *what, int says)
{
    int count = 0;
    for (const char *p = strstr(text, "${"); p; p = strstr(p + 2, "${")) {
        const char *end = strchr(p + 2, '}');
        if (!end || !known_var(t, p + 2, (size_t)(end - p - 2), says)) {
            buf why = BUF_INIT;
            buf_printf(&why, "'%.*s' names nothing it can use (%s)",
                       end ? (int)(end - p + 1) : (int)strlen(p), p,
                       says ? "${VAL}, ${ARGn}, ${TARGET}, ${TIME} or an attribute of the type"
                            : "${VAL} or ${ARGn}");
            entry_error(r, t, e, line, col, what, buf_str(&why));
            buf_free(&why);
            return -1;
        }
        count++;
    }
    return count;
}

/* Compiles If (or checks its form, with every ${...} read as a word). */
static int read_if(struct tlv_rules *r, const res_type *t, const impossible_def *e,
                   impossible *c)
{
    int vars = check_vars(r, t, e, e->cond, e->cond_line, e->cond_col, "If", 0);
    if (vars < 0)
        return -1;
    buf text = BUF_INIT;
    for (const char *p = e->cond; *p;) {
        const char *v = strstr(p, "${");
        if (!v) {
            buf_puts(&text, p);
            break;
        }
        buf_append(&text, p, (size_t)(v - p));
        buf_puts(&text, "x");
        p = strchr(v, '}') + 1;
    }
    char err[200];
    struct cond *k = cond_compile(buf_str(&text), text.len, err, sizeof err);
    buf_free(&text);
    if (!k) {
        entry_error(r, t, e, e->cond_line, e->cond_col, "If", err);
        return -1;
    }
    if (vars) {
        cond_free(k);
        c->cond_subst = 1;
    } else
        c->cond = k;
    return 0;
}

static void compile_entry(struct tlv_rules *r, size_t type, const impossible_def *e)
{
    const res_type *t = &r->model.types[type];
    if (!e->when)
        return; /* reported when read */
    impossible c;
    memset(&c, 0, sizeof c);
    c.type = type;
    c.def = e;
    int bad = read_when(r, t, e, &c) < 0;
    bad |= e->cond && read_if(r, t, e, &c) < 0;
    bad |= e->says && check_vars(r, t, e, e->says, e->line, e->col, "Says", 1) < 0;
    size_t cap = r->nimpossible;
    if (bad || GROW(r->impossible, cap, r->nimpossible + 1) < 0) {
        free(c.value);
        cond_free(c.cond);
        return;
    }
    r->impossible[r->nimpossible++] = c;
}

void impossible_compile(struct tlv_rules *r)
{
    impossible_free(r);
    for (size_t i = 0; i < r->model.ntypes; i++)
        for (size_t j = 0; j < r->model.types[i].nimpossible; j++)
            compile_entry(r, i, &r->model.types[i].impossible[j]);
}

void impossible_free(struct tlv_rules *r)
{
    for (size_t i = 0; i < r->nimpossible; i++) {
        free(r->impossible[i].value);
        cond_free(r->impossible[i].cond);
    }
    free(r->impossible);
    r->impossible = NULL;
    r->nimpossible = 0;
}
