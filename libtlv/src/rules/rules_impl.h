/*
 * rules_impl.h — the inside of a tlv_rules handle: the files read from the
 * rule search path, the resource model, the compiled conversion rules and
 * the visualization rule sources, shared by the modules that use them.
 */
#ifndef TLV_RULES_IMPL_H
#define TLV_RULES_IMPL_H

#include "base/diag.h"
#include "base/json.h"
#include "compile/dynres.h"
#include "model/model.h"
#include "compile/template.h"

typedef struct loaded_file {
    char *path;
    char *dir;          /* the search directory it came from */
    tj_node *root;      /* NULL when it could not be read */
} loaded_file;

typedef enum out_kind { OUT_TEMPLATE, OUT_LIST, OUT_CHOICE } out_kind;

/* What a conversion rule produces: a template, a list of outputs, or
 * condition → output choices (each whose condition holds, in order). */
typedef struct out_node {
    out_kind kind;
    tmpl t;                 /* OUT_TEMPLATE */
    struct out_node *items; /* OUT_LIST and OUT_CHOICE */
    tmpl *conds;            /* OUT_CHOICE: one condition template per item */
    size_t n;
    long line, col;
} out_node;

typedef struct cnv_rule {
    char *regex;
    pcre2_code *code;
    uint32_t ngroups;       /* capture groups */
    int jit;                /* JIT-compiled: matched with pcre2_jit_match */
    char *literal;          /* text every match contains, for the prefilter */
    out_node out;
    const char *file;
    long line, col;         /* of the regex key */
} cnv_rule;

/* An external-process conversion target ("$STYLE":"script"). */
typedef struct script_rule {
    char *target;
    char *file_name;
    char *arguments;
    char *script;           /* inline script text, or NULL */
    const char *file;
    long line, col;
} script_rule;

/* An "Impossible" entry of a type, checked and compiled (rules/impossible.c):
 * its When as the attribute or behavior it watches, its If compiled once
 * (or, when it names ${VAL} or ${ARGn}, substituted and compiled per event). */
typedef struct impossible {
    size_t type;
    const impossible_def *def;
    int is_behavior;
    size_t index;           /* the attribute or behavior of When */
    char *value;            /* "attr=VALUE": the value; NULL: any change */
    struct cond *cond;      /* If, compiled; NULL when absent or substituted */
    int cond_subst;         /* If holds ${VAL} or ${ARGn} */
} impossible;

/* Checks every type's "Impossible" entries against the type and compiles
 * them into r->impossible (errors at their positions in the .resh). */
void impossible_compile(struct tlv_rules *r);
void impossible_free(struct tlv_rules *r);

/* One target's member object in one .viz file. */
typedef struct viz_source {
    const char *target;
    const char *file;
    const tj_node *node;
} viz_source;

struct tlv_rules {
    tlv_diags diags;
    char **dirs;
    size_t ndirs;
    int allow_scripts;
    loaded_file *files;
    size_t nfiles, files_cap;
    char *res_path;
    tj_node *res_root;
    char *time_scale;
    int radix;
    tlv_time_mode time_mode; /* "TimeMode", TLV_TIME_AUTO when not given */
    int standard_form;
    model model;
    dyn_table dyn;          /* "DynamicResources", compiled (dynres.h) */
    cnv_rule *rules;
    size_t nrules, rules_cap;
    size_t njit;            /* rules JIT-compiled, at most CNV_JIT_MAX */
    script_rule *scripts;
    size_t nscripts, scripts_cap;
    viz_source *viz;
    size_t nviz, viz_cap;
    impossible *impossible; /* what the types declare impossible, compiled */
    size_t nimpossible;
    int in_time_order;      /* "InTimeOrder": true in the resource file: the log's
                               lines come in time order */
    struct prefilter *prefilter; /* built once all rules are compiled */
    size_t nsites;          /* macros of the compiled templates (expand.h) */
    int unreadable;         /* a file could not be parsed: TLV_ERR_SYNTAX */
    int scripts_refused;    /* TLV_ERR_SCRIPT */
    int check_figures;      /* check.c: the current target's shapes are known */
    struct intern_pool *shape_names; /* check.c, while checking: every shape's name
                               (a scan per figure made 100,000 figures take
                               minutes, issue 32.1); NULL: scanned */
    tlv_severity ref_severity; /* of unknown names found by check.c: errors for
                                  tlv check, warnings when loading (the run goes
                                  on and reports each use) */
};

/* Compiles every member of one .cnv target object into rules (cnv.c). */
void cnv_compile_target(struct tlv_rules *r, const char *target, const tj_node *obj,
                        const char *file);
void cnv_free(struct tlv_rules *r);

/* Builds the literal prefilter over all compiled rules (cnv.c). */
int cnv_build_prefilter(struct tlv_rules *r);

/* Compile options used for every conversion regex. */
/* Rules JIT-compiled; the rest are interpreted (cnv.c compile_rule). */
#define CNV_JIT_MAX 20000

#define CNV_REGEX_OPTIONS (PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF | PCRE2_DUPNAMES)

#endif
