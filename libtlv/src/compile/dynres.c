/*
 * dynres.c — compiling a resource file's "DynamicResources" (see dynres.h):
 * each pattern anchored at both ends, the display name and attribute values
 * as templates over its groups; errors name the file, position and type.
 */
#include "compile/dynres.h"

#include "base/buf.h"

#include <stdlib.h>
#include <string.h>

/* Compiles the pattern of one declaration; anchored at both ends because a
 * pattern says what a whole name looks like. */
static int compile_dyn_pattern(dyn_decl *y, const char *type, const tj_node *at,
                               const char *file, tlv_diags *d)
{
    int errcode;
    PCRE2_SIZE erroff;
    y->code = pcre2_compile((PCRE2_SPTR)y->pattern, PCRE2_ZERO_TERMINATED,
                            PCRE2_UTF | PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_DUPNAMES,
                            &errcode, &erroff, NULL);
    if (!y->code && errcode == PCRE2_ERROR_HEAP_FAILED) {
        diags_add(d, TLV_SEV_ERROR, file, at->line, at->col,
                  "out of memory while compiling the DynamicResources pattern \"%s\"", y->pattern);
        return -1;
    }
    if (!y->code) {
        char msg[256];
        pcre2_get_error_message(errcode, (PCRE2_UCHAR *)msg, sizeof msg);
        diags_add(d, TLV_SEV_ERROR, file, at->line, at->col,
                  "DynamicResources '%s': pattern \"%s\" does not compile: %s at character %zu",
                  type, y->pattern, msg, (size_t)erroff + 1);
        return -1;
    }
    pcre2_pattern_info(y->code, PCRE2_INFO_CAPTURECOUNT, &y->ngroups);
    return 0;
}

static int dyn_template(tmpl *t, const tj_node *v, const dyn_decl *y, const char *type,
                        const char *what, const char *file, tlv_diags *d)
{
    const char *txt = model_scalar_text(v);
    if (!txt) {
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "DynamicResources '%s': %s must be a string, found %s", type, what,
                  tj_type_name(v->type));
        return -1;
    }
    return tmpl_compile(t, txt, strlen(txt), y->code);
}

/* "LabelAttribute" or "GroupAttribute": the name of an attribute of the
 * type, as its index; -1 when absent or wrong (reported). */
static long dyn_attr_member(const res_type *t, const tj_node *def, const char *member,
                            const char *file, tlv_diags *d)
{
    const tj_node *v = tj_get(def, member);
    if (!v)
        return -1;
    if (v->type != TJ_STRING) {
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "DynamicResources '%s': %s must be an attribute name, found %s", def->key,
                  member, tj_type_name(v->type));
        return -1;
    }
    long i = model_attr_index(t, v->str, strlen(v->str));
    if (i < 0)
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "DynamicResources '%s': %s: type '%s' has no attribute '%s'", def->key, member,
                  t->name, v->str);
    return i;
}

/* The object form: "Match", "DisplayName", "Attributes", "LabelAttribute",
 * "GroupAttribute". */
static void read_dyn_object(const model *m, dyn_decl *y, const tj_node *def, const char *file,
                            tlv_diags *d)
{
    const res_type *t = &m->types[y->type];
    const tj_node *disp = tj_get(def, "DisplayName");
    if (disp)
        dyn_template(&y->display, disp, y, def->key, "DisplayName", file, d);
    y->label_attr = dyn_attr_member(t, def, "LabelAttribute", file, d);
    y->group_attr = dyn_attr_member(t, def, "GroupAttribute", file, d);
    const tj_node *attrs = tj_get(def, "Attributes");
    if (!attrs)
        return;
    if (attrs->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, attrs->line, attrs->col,
                  "DynamicResources '%s': Attributes must be an object, found %s", def->key,
                  tj_type_name(attrs->type));
        return;
    }
    for (const tj_node *a = attrs->child; a; a = a->next) {
        if (tj_shadowed(a))
            continue;
        long i = model_attr_index(t, a->key, strlen(a->key));
        if (i < 0) {
            diags_add(d, TLV_SEV_ERROR, file, a->key_line, a->key_col,
                      "DynamicResources '%s': type '%s' has no attribute '%s'", def->key,
                      t->name, a->key);
            continue;
        }
        tmpl_free(&y->init[i]);
        dyn_template(&y->init[i], a, y, def->key, "an attribute value", file, d);
    }
}

static void read_dyn(dyn_table *tb, const model *m, const tj_node *def, const char *file,
                     tlv_diags *d)
{
    long ti = model_type_index(m, def->key, strlen(def->key));
    if (ti < 0) {
        diags_add(d, TLV_SEV_ERROR, file, def->key_line, def->key_col,
                  "DynamicResources: type '%s' is not declared in the resource headers",
                  def->key);
        return;
    }
    const tj_node *pat = def->type == TJ_OBJECT ? tj_get(def, "Match") : def;
    if (!pat || pat->type != TJ_STRING) {
        const tj_node *at = pat ? pat : def;
        diags_add(d, TLV_SEV_ERROR, file, at->line, at->col,
                  "DynamicResources '%s': expected a pattern string, or an object with a "
                  "\"Match\" pattern string",
                  def->key);
        return;
    }
    char *copy = xstrdup(pat->str);
    if (!copy || GROW(tb->v, tb->cap, tb->n + 1) < 0) {
        free(copy);
        return;
    }
    dyn_decl *y = &tb->v[tb->n];
    memset(y, 0, sizeof *y);
    y->type = (size_t)ti;
    y->pattern = copy;
    y->file = file;
    y->line = def->key_line;
    y->col = def->key_col;
    y->ninit = m->types[ti].nattrs;
    y->init = calloc(y->ninit + 1, sizeof *y->init);
    y->label_attr = y->group_attr = -1;
    if (!y->pattern || !y->init || compile_dyn_pattern(y, def->key, pat, file, d) < 0) {
        free(y->pattern);
        free(y->init);
        return;
    }
    tb->n++;
    if (def->type == TJ_OBJECT)
        read_dyn_object(m, y, def, file, d);
}

void dyn_add(dyn_table *t, const model *m, const tj_node *dyn, const char *file, tlv_diags *d)
{
    if (dyn->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, dyn->line, dyn->col,
                  "\"DynamicResources\" must be an object of resource types, found %s",
                  tj_type_name(dyn->type));
        return;
    }
    for (const tj_node *def = dyn->child; def; def = def->next)
        if (!tj_shadowed(def))
            read_dyn(t, m, def, file, d);
}

long dyn_match(const dyn_table *t, const char *name, size_t n, pcre2_match_data **md)
{
    for (size_t i = 0; i < t->n; i++) {
        pcre2_match_data *data = pcre2_match_data_create_from_pattern(t->v[i].code, NULL);
        if (!data)
            return -1;
        int rc = pcre2_match(t->v[i].code, (PCRE2_SPTR)name, n, 0, 0, data, NULL);
        if (rc >= 0) {
            if (md)
                *md = data;
            else
                pcre2_match_data_free(data);
            return (long)i;
        }
        pcre2_match_data_free(data);
    }
    return -1;
}

void dyn_free(dyn_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        dyn_decl *y = &t->v[i];
        for (size_t j = 0; y->init && j < y->ninit; j++)
            tmpl_free(&y->init[j]);
        free(y->init);
        tmpl_free(&y->display);
        pcre2_code_free(y->code);
        free(y->pattern);
    }
    free(t->v);
    memset(t, 0, sizeof *t);
}
