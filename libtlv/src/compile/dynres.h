/*
 * dynres.h — resources created on first use: a resource file's
 * "DynamicResources" declarations, compiled (each pattern, and the display
 * name and attribute values as templates over its groups). Above the model
 * (it names its types and attributes) and templates; the world (world.h)
 * creates resources from them.
 */
#ifndef TLV_DYNRES_H
#define TLV_DYNRES_H

#include "base/diag.h"
#include "base/json.h"
#include "model/model.h"
#include "compile/template.h"

#include <stddef.h>
#include <stdint.h>

/* One member of a resource file's "DynamicResources": undeclared names of
 * this type that match `code` (whole name) are created on first use. The
 * display name and attribute values are templates over the pattern's groups
 * (${name}, $1). */
typedef struct dyn_decl {
    size_t type;
    char *pattern;       /* as written */
    pcre2_code *code;
    uint32_t ngroups;
    tmpl display;        /* display.text NULL when none */
    tmpl *init;          /* per attribute of the type; .text NULL when none */
    size_t ninit;        /* the type's attribute count */
    long label_attr;     /* "LabelAttribute": its last non-empty value labels
                            the row instead of the display name; -1 none */
    long group_attr;     /* "GroupAttribute": rows with equal last values sit
                            together, in order of the group's first row; -1 none */
    const char *file;
    long line, col;
} dyn_decl;

typedef struct dyn_table {
    dyn_decl *v;
    size_t n, cap;
} dyn_table;

/* Reads the "DynamicResources" object of a resource file:
 * `{ TYPE: "pattern" | { "Match": "pattern", "DisplayName": template,
 * "Attributes": { ATTR: template } } }`, with the types of model m. Unknown
 * types and attributes and patterns that do not compile are errors. */
void dyn_add(dyn_table *t, const model *m, const tj_node *dyn, const char *file, tlv_diags *d);

/* The first declaration whose pattern matches the whole of name[0..n), or
 * -1. When md is given it holds the match afterwards. */
long dyn_match(const dyn_table *t, const char *name, size_t n, pcre2_match_data **md);

void dyn_free(dyn_table *t);

#endif
