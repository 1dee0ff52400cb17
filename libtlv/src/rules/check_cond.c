/*
 * check_cond.c — static parsing of the condition expressions (spec §7) that
 * rule files contain: the condition keys of conversion outputs, the
 * conditions of figure objects, and the resource conditions of Type(...)
 * references in templates and event patterns. A malformed one is reported at
 * its file:line:col with its text and what the parser expected, by `tlv
 * check` and on loading, instead of failing on every log line that reaches
 * it.
 *
 * Conditions usually hold substitutions (${c}, $EXIST{...}) known only at run
 * time. Each is read as the operand "true" padded with spaces to the same
 * length: a substitution gives one operand (or a whole boolean) in every
 * rule set we know, and the padding keeps the columns of the parser's
 * messages right.
 */
#include "rules/check.h"

#include "base/buf.h"
#include "lang/cond.h"
#include "compile/macro.h"

#include <string.h>

/* The length of the substitution at text[i] == '$' ("${...}" or
 * "$NAME{...}", braces balanced), or 0 when there is none. */
static size_t substitution_len(const char *text, size_t len, size_t i)
{
    size_t j = i + 1;
    while (j < len && (text[j] == '_' || (text[j] >= 'A' && text[j] <= 'Z') ||
                       (text[j] >= 'a' && text[j] <= 'z')))
        j++;
    if (j >= len || text[j] != '{')
        return 0;
    int depth = 0;
    for (; j < len; j++) {
        if (text[j] == '{')
            depth++;
        else if (text[j] == '}' && --depth == 0)
            return j + 1 - i;
    }
    return 0; /* unclosed: left as written, the parser says what is wrong */
}

/* `text` with every substitution replaced by "true" and spaces. */
static int placeholder_text(const char *text, size_t len, buf *out)
{
    for (size_t i = 0; i < len;) {
        size_t n = text[i] == '$' ? substitution_len(text, len, i) : 0;
        if (!n) {
            if (buf_putc(out, text[i++]) < 0)
                return -1;
            continue;
        }
        if (buf_puts(out, "true") < 0)
            return -1;
        for (size_t k = 4; k < n; k++)
            if (buf_putc(out, ' ') < 0)
                return -1;
        i += n;
    }
    return 0;
}

void check_condition(struct tlv_rules *r, const char *what, const char *text, size_t len,
                     const char *file, long line, long col)
{
    buf b = BUF_INIT;
    char err[200];
    if (placeholder_text(text, len, &b) < 0) {
        buf_free(&b);
        diags_add(&r->diags, TLV_SEV_ERROR, file, line, col, "out of memory while checking a %s", what);
        return;
    }
    cond *c = cond_compile(buf_str(&b), b.len, err, sizeof err);
    buf_free(&b);
    if (c) {
        cond_free(c);
        return;
    }
    if (strcmp(err, "out of memory") == 0)
        diags_add(&r->diags, TLV_SEV_ERROR, file, line, col, "out of memory while checking a %s", what);
    else
        diags_add(&r->diags, r->ref_severity, file, line, col, "malformed %s \"%.*s\": %s", what,
                  (int)len, text, err);
}

static int name_char(char c) { return c && !strchr("()[]{}.$,= \t", c); }

/* Past the resource name at s: literal characters and substitutions. */
static const char *skip_name(const char *s)
{
    size_t len = strlen(s);
    size_t i = 0;
    for (;;) {
        if (name_char(s[i]))
            i++;
        else if (s[i] == '$' && substitution_len(s, len, i))
            i += substitution_len(s, len, i);
        else
            return s + i;
    }
}

/* At a reference "[T]Name(cond)..." (s), checks the condition if there is
 * one: up to its closing parenthesis, else (malformed) up to the end of the
 * reference. */
static void check_ref_condition(struct tlv_rules *r, const char *s, const char *file, long line,
                                long col)
{
    if (*s == '[') {
        const char *close = strchr(s, ']');
        if (!close)
            return;
        s = close + 1;
    }
    const char *name_end = skip_name(s);
    if (name_end == s || *name_end != '(')
        return;
    const char *open = name_end + 1, *p = open;
    int depth = 1, braces = 0;
    for (; *p; p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')' && --depth == 0)
            break;
        else if (*p == '{')
            braces++;
        else if (*p == '}' && --braces < 0)
            break; /* the end of the macro this reference is in */
    }
    if (*p == ')')
        check_condition(r, "resource condition", open, (size_t)(p - open), file, line, col);
    else
        diags_add(&r->diags, r->ref_severity, file, line, col,
                  "malformed resource condition \"%.*s\": missing ')'", (int)(p - open), open);
}

void check_resource_conditions(struct tlv_rules *r, const char *text, int event_line,
                               const char *file, long line, long col)
{
    if (!text)
        return;
    size_t len = strlen(text);
    const char *name;
    size_t nl;
    for (long at = macro_find_call(text, len, 0, &name, &nl); at >= 0;
         at = macro_find_call(text, len, (size_t)at + 1, &name, &nl))
        if (macro_flags(name, nl) & MACRO_TAKES_RESOURCE) /* not numbers or times */
            check_ref_condition(r, text + at + nl + 2, file, line, col);
    if (event_line) /* "[time]Type(cond).member..." */
        check_ref_condition(r, text + (*text == '\\'), file, line, col);
}

/* ---- visualization rules ----------------------------------------------------------- */

static void check_figure_conditions(struct tlv_rules *r, const tj_node *f, const char *file,
                                    int depth)
{
    if (!f || depth > 64 || (f->type != TJ_ARRAY && f->type != TJ_OBJECT))
        return;
    for (const tj_node *c = f->child; c; c = c->next) {
        if (f->type == TJ_OBJECT && !tj_shadowed(c))
            check_condition(r, "condition", c->key, strlen(c->key), file, c->key_line,
                            c->key_col);
        check_figure_conditions(r, c, file, depth + 1);
    }
}

static void check_rule_conditions(struct tlv_rules *r, const tj_node *rule, const char *file)
{
    const tj_node *events = tj_get(rule, "Shapes");
    for (const tj_node *e = events && events->type == TJ_OBJECT ? events->child : NULL; e;
         e = e->next) {
        if (e->type != TJ_OBJECT)
            continue;
        static const char *const keys[] = {"From", "To", "When"};
        for (size_t k = 0; k < 3; k++) {
            const tj_node *p = tj_get(e, keys[k]);
            if (p && p->type == TJ_STRING)
                check_ref_condition(r, p->str, file, p->line, p->col);
        }
        check_figure_conditions(r, tj_get(e, "Figures"), file, 0);
    }
}

void check_viz_conditions(struct tlv_rules *r)
{
    for (size_t i = 0; i < r->nviz; i++) {
        const tj_node *rules = tj_get(r->viz[i].node, "VisualizeRules");
        if (rules && rules->type != TJ_OBJECT) /* its members have no names */
            rules = NULL;
        for (const tj_node *rule = rules ? rules->child : NULL; rule; rule = rule->next)
            if (rule->type == TJ_OBJECT && !tj_get(rule, "Style"))
                check_rule_conditions(r, rule, r->viz[i].file);
    }
}
