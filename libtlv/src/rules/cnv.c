/*
 * cnv.c — compiling .cnv conversion targets: each member's key is a regex
 * (compiled once with PCRE2, JIT when available), its value an output tree
 * of templates, lists and condition choices. External-process targets are
 * recognised here and kept aside. Every problem is reported with the rule's
 * file, line and column; the other rules still compile.
 */
#include "rules/rules_impl.h"

#include "base/buf.h"
#include "rules/check.h"
#include "compile/expand.h"
#include "compile/macro.h"
#include "compile/prefilter.h"

#include <stdlib.h>
#include <string.h>

static void add_diag_at(struct tlv_rules *r, const char *file, long line, long col,
                        tlv_severity sev, const char *fmt, const char *a, const char *b)
{
    diags_add(&r->diags, sev, file, line, col, fmt, a, b);
}

/* Reports unknown macros and ${name} references to no group. */
static void check_template(struct tlv_rules *r, const tmpl *t, const char *file, long line,
                           long col)
{
    const char *name;
    size_t n;
    for (long at = macro_find_call(t->text, t->len, 0, &name, &n); at >= 0;
         at = macro_find_call(t->text, t->len, (size_t)at + 1, &name, &n)) {
        if (!macro_is_known(name, n)) {
            buf known = BUF_INIT;
            macro_known_list(&known);
            diags_add(&r->diags, TLV_SEV_ERROR, file, line, col,
                      "unknown macro $%.*s in \"%s\" (known: %s)", (int)n, name, t->text,
                      buf_str(&known));
            buf_free(&known);
        }
    }
    for (size_t i = 0; i < t->nunknown; i++)
        add_diag_at(r, file, line, col, TLV_SEV_WARNING,
                    "${%s} names no group of the rule's regex and is kept as text in \"%s\"",
                    t->unknown[i], t->text);
}

static int compile_output(struct tlv_rules *r, out_node *o, const tj_node *v,
                          const pcre2_code *re, const char *file, int depth)
{
    memset(o, 0, sizeof *o);
    o->line = v->line;
    o->col = v->col;
    if (depth > 64) {
        diags_add(&r->diags, TLV_SEV_ERROR, file, v->line, v->col,
                  "outputs nested more than 64 levels deep");
        return -1;
    }
    if (v->type == TJ_STRING) {
        o->kind = OUT_TEMPLATE;
        if (tmpl_compile(&o->t, v->str, v->str_len, re) < 0)
            return -1;
        tmpl_mark_std_line(&o->t); /* the log's text in it arrives as it was */
        if (xplan_build(&o->t, &r->nsites) < 0)
            return -1;
        check_template(r, &o->t, file, v->line, v->col);
        check_resource_conditions(r, o->t.text, 1, file, v->line, v->col);
        return 0;
    }
    if (v->type != TJ_ARRAY && v->type != TJ_OBJECT) {
        diags_add(&r->diags, TLV_SEV_ERROR, file, v->line, v->col,
                  "an output must be a string, an array or an object of conditions, found %s",
                  tj_type_name(v->type));
        return -1;
    }
    o->kind = v->type == TJ_ARRAY ? OUT_LIST : OUT_CHOICE;
    o->items = calloc(v->count ? v->count : 1, sizeof *o->items);
    if (o->kind == OUT_CHOICE)
        o->conds = calloc(v->count ? v->count : 1, sizeof *o->conds);
    if (!o->items || (o->kind == OUT_CHOICE && !o->conds))
        return -1;
    for (const tj_node *c = v->child; c; c = c->next) {
        if (o->kind == OUT_CHOICE && tj_shadowed(c))
            continue;
        if (compile_output(r, &o->items[o->n], c, re, file, depth + 1) < 0) {
            o->n++; /* keep it so it is freed */
            return -1;
        }
        if (o->kind == OUT_CHOICE) {
            if (tmpl_compile(&o->conds[o->n], c->key, strlen(c->key), re) < 0 ||
                xplan_build(&o->conds[o->n], &r->nsites) < 0) {
                o->n++;
                return -1;
            }
            check_template(r, &o->conds[o->n], file, c->key_line, c->key_col);
            check_condition(r, "condition", c->key, strlen(c->key), file, c->key_line,
                            c->key_col);
            check_resource_conditions(r, c->key, 0, file, c->key_line, c->key_col);
        }
        o->n++;
    }
    return 0;
}

static void free_output(out_node *o)
{
    tmpl_free(&o->t);
    for (size_t i = 0; i < o->n; i++) {
        free_output(&o->items[i]);
        if (o->conds)
            tmpl_free(&o->conds[i]);
    }
    free(o->items);
    free(o->conds);
}

/* Whether a regex written to match from the start of the line ("^...")
 * also reaches its end: "$", "\z", "\Z", or a final greedy ".*" / ".+". */
static int reaches_line_end(const char *re)
{
    size_t n = strlen(re);
    while (n && (re[n - 1] == ' ' || re[n - 1] == '\t'))
        n--;
    size_t slashes = 0; /* backslashes before the last character */
    while (slashes + 1 < n && re[n - 2 - slashes] == '\\')
        slashes++;
    if (n && re[n - 1] == '$' && slashes % 2 == 0)
        return 1;
    if (n >= 2 && re[n - 2] == '\\' && (re[n - 1] == 'z' || re[n - 1] == 'Z') && slashes % 2 == 1)
        return 1;
    return n >= 2 && re[n - 2] == '.' && (re[n - 1] == '*' || re[n - 1] == '+') &&
           (n == 2 || re[n - 3] != '\\');
}

/* The tail trap, for `tlv check`: a rule that matches from the start of the
 * line but may stop before its end has the rest of the line glued onto
 * every output (.NET Regex.Replace semantics, which TLV keeps). Rules
 * without '^' (TLV's own style) match inside the line by design; for every
 * rule, conversion warns when a tail is actually glued on (convert.c). */
static void check_tail_trap(struct tlv_rules *r, const tj_node *m, const char *file)
{
    if (r->ref_severity != TLV_SEV_ERROR || m->key[0] != '^' || reaches_line_end(m->key))
        return;
    diags_add(&r->diags, TLV_SEV_WARNING, file, m->key_line, m->key_col,
              "regex \"%s\" may end before the end of the line: the rest of the line is then "
              "kept after every output (\"size=1000 <0.000126>\"); end it with $ (or .*$ to "
              "drop the rest)",
              m->key);
}

static void compile_rule(struct tlv_rules *r, const tj_node *m, const char *file)
{
    check_tail_trap(r, m, file);
    int errcode;
    PCRE2_SIZE erroff;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)m->key, PCRE2_ZERO_TERMINATED,
                                     CNV_REGEX_OPTIONS, &errcode, &erroff, NULL);
    if (!code && errcode == PCRE2_ERROR_HEAP_FAILED) {
        diags_add(&r->diags, TLV_SEV_ERROR, file, m->key_line, m->key_col,
                  "out of memory while compiling the regex \"%s\"", m->key);
        return;
    }
    if (!code) {
        char msg[256];
        pcre2_get_error_message(errcode, (PCRE2_UCHAR *)msg, sizeof msg);
        diags_add(&r->diags, TLV_SEV_ERROR, file, m->key_line, m->key_col,
                  "regex \"%s\" does not compile: %s at character %zu", m->key, msg,
                  (size_t)erroff + 1);
        return;
    }
    /* Past CNV_JIT_MAX rules the interpreter matches (the same results): the
     * JIT's executable memory is handed out by a first-fit walk over its free
     * blocks, so compiling grew with the square of the rules (200,000 took
     * 7 s), while the prefilter runs few of so many regexes on a line. */
    int jit = r->njit < CNV_JIT_MAX && pcre2_jit_compile(code, PCRE2_JIT_COMPLETE) == 0;
    r->njit += jit;
    if (GROW(r->rules, r->rules_cap, r->nrules + 1) < 0) {
        pcre2_code_free(code);
        return;
    }
    cnv_rule *c = &r->rules[r->nrules++];
    memset(c, 0, sizeof *c);
    c->regex = xstrdup(m->key);
    c->code = code;
    c->jit = jit;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &c->ngroups);
    c->literal = prefilter_required_literal(m->key, 3);
    c->file = file;
    c->line = m->key_line;
    c->col = m->key_col;
    compile_output(r, &c->out, m, code, file, 0);
}

static const char *script_member(const tj_node *obj, const char *a, const char *b)
{
    const tj_node *v = tj_get(obj, a);
    if (!v)
        v = tj_get(obj, b);
    return v && v->type == TJ_STRING ? v->str : NULL;
}

static void add_script(struct tlv_rules *r, const char *target, const tj_node *obj,
                       const char *file)
{
    const char *prog = script_member(obj, "fileName", "FileName");
    if (!prog) {
        diags_add(&r->diags, TLV_SEV_ERROR, file, obj->line, obj->col,
                  "external-process target '%s' has no \"fileName\"", target);
        return;
    }
    if (GROW(r->scripts, r->scripts_cap, r->nscripts + 1) < 0)
        return;
    script_rule *s = &r->scripts[r->nscripts++];
    s->target = xstrdup(target);
    s->file_name = xstrdup(prog);
    const char *args = script_member(obj, "arguments", "Arguments");
    s->arguments = xstrdup(args ? args : "");
    const char *text = script_member(obj, "script", "Script");
    s->script = text ? xstrdup(text) : NULL;
    s->file = file;
    s->line = obj->line;
    s->col = obj->col;
}

void cnv_compile_target(struct tlv_rules *r, const char *target, const tj_node *obj,
                        const char *file)
{
    if (obj->type != TJ_OBJECT) {
        diags_add(&r->diags, TLV_SEV_ERROR, file, obj->line, obj->col,
                  "conversion target '%s' must be an object of regex: output members, found %s",
                  target, tj_type_name(obj->type));
        return;
    }
    const tj_node *style = tj_get(obj, "$STYLE");
    if (style && style->type == TJ_STRING && strcasecmp(style->str, "script") == 0) {
        add_script(r, target, obj, file);
        return;
    }
    for (const tj_node *m = obj->child; m; m = m->next)
        if (!tj_shadowed(m)) {
            diags_add_duplicates(&r->diags, file, m, "rule");
            compile_rule(r, m, file);
        }
}

void cnv_free(struct tlv_rules *r)
{
    for (size_t i = 0; i < r->nrules; i++) {
        free(r->rules[i].regex);
        free(r->rules[i].literal);
        pcre2_code_free(r->rules[i].code);
        free_output(&r->rules[i].out);
    }
    free(r->rules);
    for (size_t i = 0; i < r->nscripts; i++) {
        free(r->scripts[i].target);
        free(r->scripts[i].file_name);
        free(r->scripts[i].arguments);
        free(r->scripts[i].script);
    }
    free(r->scripts);
    prefilter_free(r->prefilter);
}

int cnv_build_prefilter(struct tlv_rules *r)
{
    char **lits = calloc(r->nrules + 1, sizeof *lits);
    if (!lits)
        return -1;
    for (size_t i = 0; i < r->nrules; i++)
        lits[i] = r->rules[i].literal;
    r->prefilter = prefilter_new(lits, r->nrules);
    free(lits);
    return r->prefilter ? 0 : -1;
}
