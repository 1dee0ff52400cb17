/*
 * model.h — resource types (from .resh resource headers) and declared
 * resources (from the .res resource file): what exists before any event.
 * The bottom of conversion: data only, nothing compiled (dynres.h compiles
 * the "DynamicResources" declarations; template.h the rules' templates).
 */
#ifndef TLV_MODEL_H
#define TLV_MODEL_H

#include "base/diag.h"
#include "base/json.h"

#include <stddef.h>
#include <stdint.h>

typedef enum vtype { VT_STRING, VT_NUMBER, VT_BOOLEAN } vtype;

typedef struct attr_def {
    char *name;
    size_t name_len;     /* looked up by length first: names are compared often */
    char *display;       /* NULL when none */
    vtype type;
    int is_static;       /* AllocationType "Static" */
    int can_group;
    char *deflt;         /* Default as text; NULL when none */
    int counter;         /* "Counter": true — a quantity over time (tlv/counters.h) */
    int has_bounds;      /* "Min" and "Max" given: */
    double lower, upper;
} attr_def;

typedef struct behavior_def {
    char *name;
    char *display;
    size_t nargs;
    char **arg_names;
    vtype *arg_types;
} behavior_def;

/* An instance kind a type declares ("Instances", a tlv extension; the
 * built-in kinds are tlv/instances.h's): an instance of a resource of the
 * type runs from an event matching `from` to the next matching `to`, both
 * event patterns (lang/evpattern.h) on "${TARGET}". */
typedef struct inst_def {
    char *kind;
    char *display;       /* DisplayName, or NULL */
    char *from, *to;     /* "From", "To" */
    char *label;         /* "Name": the instance's name, a template; or NULL */
    const char *file;    /* where it was declared: the member, */
    long line, col;
    long from_line, from_col, to_line, to_col, label_line, label_col; /* its values */
} inst_def;
/* One thing a rule set declares impossible for a type ("Impossible" in a
 * .resh, model/impossible.c): an event (When) that contradicts the state the
 * resource is in just before it (If), reported with the log line by the
 * converter's consistency report (convert/consistency.c). Texts as written;
 * rules/impossible.c checks and compiles them. */
typedef struct impossible_def {
    char *name;          /* its key in "Impossible" */
    char *display;       /* DisplayName, or NULL */
    char *when;          /* "attr", "attr=VALUE" or "behavior()" */
    char *cond;          /* If: a condition on the resource, or NULL (always) */
    char *says;          /* Says: the report's text, or NULL */
    const char *file;
    long line, col;      /* of the key */
    long when_line, when_col, cond_line, cond_col;
} impossible_def;

/* Names to their indexes for a type with many attributes or behaviors (see
 * model.c): NULL pool while there are few, which are scanned. */
typedef struct name_index {
    struct intern_pool *pool;
    long *at;            /* index of the name with intern id i, or -1 */
    size_t cap;
} name_index;

typedef struct res_type {
    char *name;
    char *display;
    attr_def *attrs;
    size_t nattrs, attrs_cap;
    name_index attrs_by_name;
    behavior_def *behaviors;
    size_t nbehaviors, behaviors_cap;
    name_index behaviors_by_name;
    inst_def *insts;     /* "Instances", in declaration order */
    size_t ninsts, insts_cap;
    impossible_def *impossible;
    size_t nimpossible, impossible_cap;
    const char *file;    /* where it was declared */
    long line, col;
} res_type;

typedef struct res_decl {
    char *name;
    char *display;       /* NULL when none */
    size_t type;         /* index into model.types */
    uint32_t color;      /* 0xRRGGBB */
    int has_color;
    char **init;         /* per attribute of the type: initial text or NULL */
    long line, col;
} res_decl;

typedef struct model {
    res_type *types;
    size_t ntypes, types_cap;
    res_decl *res;
    size_t nres, res_cap;
    size_t palette_used; /* palette colors handed out to declared resources */
    uint32_t palette_taken; /* bit i: a resource of the file chose palette color i */
    struct named_index *res_by_name; /* res sorted by name (model_add_resources) */
    size_t nres_by_name; /* how many of res it covers */
} model;

void model_free(model *m);

/* Adds (or merges into an existing type of the same name) every type of one
 * header target object `{ TYPE: {...}, ... }` from `file`. */
void model_add_types(model *m, const tj_node *target, const char *file, tlv_diags *d);

/* Checks every type's "Instances" once all headers are read (a type's
 * behaviors may come from another file): patterns that do not parse, that
 * are not events of ${TARGET}, that name no attribute or behavior of the
 * type, or that use an unknown ${VARIABLE}, each reported at its value. */
void model_check_instances(const model *m, tlv_diags *d);

/* The variables of an instance kind's patterns: in "From", ${TARGET}; in
 * "To", also ${FROM_VAL}, ${FROM_ARGn} and ${FROM_TIME}; in "Name", also
 * ${TO_VAL}, ${TO_ARGn}, ${TO_TIME}. `where` is 0, 1 or 2 for them. */
int model_inst_var_known(const char *name, size_t n, int where);
/* Reads a type's "Impossible" object (model/impossible.c): each member
 * replaces one of the same name declared before. */
void model_read_impossible(res_type *t, const tj_node *obj, const char *file, tlv_diags *d);
void model_free_impossible(res_type *t);

/* Reads the "Resources" object of a resource file. Undeclared types and
 * attributes are errors naming the resource. */
void model_add_resources(model *m, const tj_node *resources, const char *file, tlv_diags *d);

/* Gives every resource without a Color one from the fixed palette, in
 * resource order, so colors are the same every run. */
void model_assign_colors(model *m);

/* The last errors of attribute queries (tlv_trace_attr_at and the like):
 * "FN: no resource 'X' in the trace" and "FN: resource 'X' (type T) has no
 * attribute 'y' (it has: a, b, c)". Return TLV_ERR_USAGE. */
tlv_status model_err_no_resource(last_error *e, const char *fn, const char *resource);
tlv_status model_err_no_attribute(last_error *e, const char *fn, const char *resource,
                                  const res_type *t, const char *attr);

/* Lookups: index or -1. */
long model_type_index(const model *m, const char *name, size_t n);
long model_attr_index(const res_type *t, const char *name, size_t n);
long model_behavior_index(const res_type *t, const char *name, size_t n);
/* The declared resource named by the n bytes at name: a binary search over
 * the index model_add_resources sorts (a scan for the resources added
 * since). */
long model_res_index(const model *m, const char *name, size_t n);

/* The text of a JSON scalar as TLV sees it: strings as is, numbers as
 * written, booleans "True"/"False", null "". Returns NULL for objects and
 * arrays. */
const char *model_scalar_text(const tj_node *v);

/* The fixed palette color for the n-th colorless resource. */
uint32_t model_palette_color(size_t n);

/* The palette color at position *k or after it that no resource of the file
 * chose itself; *k moves past it. */
uint32_t model_next_palette_color(const model *m, size_t *k);

#endif
