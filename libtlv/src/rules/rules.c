/*
 * rules.c — the tlv_rules handle: reading the resource file, finding each
 * requested target in the rule search path (spec §3), merging the members
 * of a target across the files of one directory, and building the model and
 * the compiled conversion rules from them.
 */
#include "base/abi.h"
#include "rules/rules_impl.h"

#include "base/buf.h"
#include "rules/check.h"
#include "base/locate.h"
#include "base/time_human.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

const char *tlv_version(void) { return TLV_VERSION_STRING; }

const char *tlv_status_string(tlv_status s)
{
    switch (s) {
    case TLV_OK: return "ok";
    case TLV_ERR_IO: return "input/output error";
    case TLV_ERR_SYNTAX: return "syntax error";
    case TLV_ERR_RULE: return "rule error";
    case TLV_ERR_CONVERT: return "conversion error";
    case TLV_ERR_USAGE: return "usage error";
    case TLV_ERR_SCRIPT: return "external-process rule error";
    case TLV_ERR_NOMEM: return "out of memory";
    }
    return "unknown status";
}

void tlv_rules_options_init_sized(tlv_rules_options *o, size_t size)
{
    /* Every default is a zero; an older, shorter layout is zeroed as far as it goes. */
    memset(o, 0, size);
    if (size >= sizeof o->struct_size)
        o->struct_size = size;
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static void add_dir(struct tlv_rules *r, const char *d, size_t n)
{
    if (n == 0)
        return;
    char *s = xstrndup(d, n);
    if (!s)
        return;
    for (size_t i = 0; i < r->ndirs; i++)
        if (strcmp(r->dirs[i], s) == 0) {
            free(s);
            return;
        }
    char **nd = realloc(r->dirs, (r->ndirs + 1) * sizeof *nd);
    if (!nd) {
        free(s);
        return;
    }
    r->dirs = nd;
    r->dirs[r->ndirs++] = s;
}

static void build_search_path(struct tlv_rules *r, const tlv_rules_options *o)
{
    for (size_t i = 0; i < o->n_search_dirs; i++)
        add_dir(r, o->search_dirs[i], strlen(o->search_dirs[i]));
    const char *env = o->rules_path_env ? o->rules_path_env : getenv("TLV_RULES_PATH");
    while (env && *env) {
        const char *colon = strchr(env, ':');
        size_t n = colon ? (size_t)(colon - env) : strlen(env);
        add_dir(r, env, n);
        env = colon ? colon + 1 : NULL;
    }
    if (o->no_default_dirs)
        return;
    char installed[4200];
    if (locate_installed_rules(installed, sizeof installed))
        add_dir(r, installed, strlen(installed));
    else if (is_dir(TLV_SOURCE_RULES_DIR)) /* running from a build tree */
        add_dir(r, TLV_SOURCE_RULES_DIR, strlen(TLV_SOURCE_RULES_DIR));
}

/* Why read_file failed, for "cannot read the file: ...". */
static const char *read_error(int err)
{
    return err == ENODATA ? "a FIFO with no writer: nothing to read" : strerror(err);
}

/* Reads and parses one file, once; later calls return the cached result. */
static loaded_file *load_file(struct tlv_rules *r, const char *path, const char *dir)
{
    for (size_t i = 0; i < r->nfiles; i++)
        if (strcmp(r->files[i].path, path) == 0)
            return &r->files[i];
    char *copy = xstrdup(path);
    if (!copy || GROW(r->files, r->files_cap, r->nfiles + 1) < 0) {
        free(copy);
        return NULL;
    }
    loaded_file *f = &r->files[r->nfiles++];
    memset(f, 0, sizeof *f);
    f->path = copy;
    f->dir = dir ? xstrdup(dir) : NULL;
    buf text = BUF_INIT;
    if (read_file(path, &text) < 0) {
        if (errno == ENOMEM)
            diags_add(&r->diags, TLV_SEV_ERROR, path, 0, 0, "out of memory while reading the file");
        else
            diags_add(&r->diags, TLV_SEV_ERROR, path, 0, 0, "cannot read the file: %s",
                      read_error(errno));
        buf_free(&text);
        return f;
    }
    tj_error err;
    f->root = tj_parse(buf_str(&text), text.len, &err);
    if (!f->root) {
        r->unreadable = 1;
        diags_add(&r->diags, TLV_SEV_ERROR, path, err.line, err.col, "%s", err.message);
    }
    else if (f->root->type != TJ_OBJECT) {
        diags_add(&r->diags, TLV_SEV_ERROR, path, f->root->line, f->root->col,
                  "the file must hold one JSON object, found %s", tj_type_name(f->root->type));
        tj_free(f->root);
        f->root = NULL;
    }
    buf_free(&text);
    return f;
}

static int has_ext(const char *name, const char *ext)
{
    size_t n = strlen(name), e = strlen(ext);
    return n > e && strcasecmp(name + n - e, ext) == 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The files of `dir` ending in `ext`, sorted by name (for a stable order). */
static char **list_dir(const char *dir, const char *ext, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) {
        if (errno == ENOMEM) /* not "no such target": the load is incomplete */
            alloc_note_failure();
        return NULL;
    }
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (!has_ext(e->d_name, ext) || GROW(names, cap, *n + 1) < 0)
            continue;
        buf p = BUF_INIT;
        if (buf_printf(&p, "%s/%s", dir, e->d_name) == 0) /* else counted by alloc.h */
            names[(*n)++] = p.data;
    }
    closedir(d);
    if (*n)
        qsort(names, *n, sizeof *names, cmp_str);
    return names;
}

static void free_list(char **l, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(l[i]);
    free(l);
}

typedef void (*target_fn)(struct tlv_rules *r, const char *target, const tj_node *obj,
                          const char *file);

/* Finds `target` among the `ext` files of the first directory that has it
 * and calls fn for its member in each file of that directory. Returns the
 * number of files that had it. */
static size_t for_target(struct tlv_rules *r, const char *target, const char *ext, target_fn fn)
{
    for (size_t d = 0; d < r->ndirs; d++) {
        size_t n;
        char **files = list_dir(r->dirs[d], ext, &n);
        size_t found = 0;
        for (size_t i = 0; i < n; i++) {
            loaded_file *f = load_file(r, files[i], r->dirs[d]);
            const tj_node *obj = f && f->root ? tj_get(f->root, target) : NULL;
            if (obj) {
                /* Within one file the later target replaces the earlier
                 * (JSON), unlike targets of different files, which merge:
                 * the earlier one's rules are dropped, so say where. */
                diags_add_duplicates(&r->diags, f->path, obj, "target");
                fn(r, target, obj, f->path);
                found++;
            }
        }
        free_list(files, n);
        if (found)
            return found;
    }
    return 0;
}

static void add_header_target(struct tlv_rules *r, const char *target, const tj_node *obj,
                              const char *file)
{
    (void)target;
    model_add_types(&r->model, obj, file, &r->diags);
}

/* A .viz target whose parts are not objects draws nothing: said here, as an
 * error for tlv check and a warning for a run (before: nothing was said, and
 * `"Shapes":[...]` crashed tlv check). */
static int viz_target_ok(struct tlv_rules *r, const char *target, const tj_node *obj,
                         const char *file)
{
    if (obj->type != TJ_OBJECT) {
        diags_add(&r->diags, r->ref_severity, file, obj->line, obj->col,
                  "visualization target '%s' must be an object of \"Shapes\" and "
                  "\"VisualizeRules\", found %s",
                  target, tj_type_name(obj->type));
        return 0;
    }
    static const char *const parts[][2] = {{"Shapes", "shapes"}, {"VisualizeRules", "rules"}};
    for (size_t i = 0; i < 2; i++) {
        const tj_node *v = tj_get(obj, parts[i][0]);
        if (v && v->type != TJ_OBJECT)
            diags_add(&r->diags, r->ref_severity, file, v->line, v->col,
                      "visualization target '%s': \"%s\" must be an object of named %s, "
                      "found %s; not used",
                      target, parts[i][0], parts[i][1], tj_type_name(v->type));
    }
    return 1;
}

static void add_viz_target(struct tlv_rules *r, const char *target, const tj_node *obj,
                           const char *file)
{
    if (!viz_target_ok(r, obj->key ? obj->key : target, obj, file))
        return;
    if (GROW(r->viz, r->viz_cap, r->nviz + 1) < 0)
        return;
    r->viz[r->nviz].target = obj->key ? obj->key : target;
    r->viz[r->nviz].file = file;
    r->viz[r->nviz++].node = obj;
}

static void describe_dirs(const struct tlv_rules *r, buf *b)
{
    if (!r->ndirs) {
        buf_puts(b, "no rule directory is set: use -R DIR or TLV_RULES_PATH");
        return;
    }
    buf_puts(b, "searched: ");
    for (size_t i = 0; i < r->ndirs; i++)
        buf_printf(b, "%s%s", i ? ", " : "", r->dirs[i]);
}

/* Applies fn to every target listed in the resource file's `key` array. */
static void load_targets(struct tlv_rules *r, const char *key, const char *ext, target_fn fn)
{
    const tj_node *list = tj_get(r->res_root, key);
    if (!list)
        return;
    if (list->type != TJ_ARRAY) {
        diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, list->line, list->col,
                  "\"%s\" must be an array of target names, found %s", key,
                  tj_type_name(list->type));
        return;
    }
    for (const tj_node *t = list->child; t; t = t->next) {
        if (t->type != TJ_STRING) {
            diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, t->line, t->col,
                      "\"%s\" must list target names (strings), found %s", key,
                      tj_type_name(t->type));
            continue;
        }
        if (strcmp(key, "ConvertRules") == 0 && t->str[0] == '\0') {
            r->standard_form = 1;
            continue;
        }
        if (for_target(r, t->str, ext, fn) == 0) {
            buf where = BUF_INIT;
            describe_dirs(r, &where);
            /* Conversion does not need the visualization rules: drawing reports
             * their absence as an error when it is asked for. */
            int viz = strcmp(key, "VisualizeRules") == 0;
            diags_add(&r->diags, viz ? TLV_SEV_WARNING : TLV_SEV_ERROR, r->res_path, t->line,
                      t->col, "target '%s' (%s) is not in any %s file of the rule path (%s)",
                      t->str, key, ext, buf_str(&where));
            buf_free(&where);
        }
    }
}

/* "TimeMode" (tlv.h's tlv_time_mode, by name): what the times count from.
 * Wall-clock times must be seconds of some size in radix 10 to be dates. */
static void read_time_mode(struct tlv_rules *r)
{
    const tj_node *tm = tj_get(r->res_root, "TimeMode");
    r->time_mode = TLV_TIME_AUTO;
    if (!tm)
        return;
    int exp;
    if (tm->type != TJ_STRING || time_mode_parse(tm->str, &r->time_mode) < 0) {
        r->time_mode = TLV_TIME_AUTO;
        diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, tm->line, tm->col,
                  "\"TimeMode\" must be \"auto\", \"plain\", \"clock\" or \"wall-clock\", found %s%s%s",
                  tm->type == TJ_STRING ? "'" : "", tm->type == TJ_STRING ? tm->str : tj_type_name(tm->type),
                  tm->type == TJ_STRING ? "'" : "");
    } else if (r->time_mode == TLV_TIME_WALL &&
               (!time_scale_exponent(r->time_scale, &exp) || r->radix != 10)) {
        diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, tm->line, tm->col,
                  "\"TimeMode\": \"wall-clock\" needs times in s, ms, us or ns and radix 10 "
                  "(seconds since 1970), but the TimeScale is '%s' and the TimeRadix %d",
                  r->time_scale, r->radix);
        r->time_mode = TLV_TIME_AUTO;
    }
}

static void read_settings(struct tlv_rules *r)
{
    const tj_node *ts = tj_get(r->res_root, "TimeScale");
    r->time_scale = xstrdup(ts && ts->type == TJ_STRING ? ts->str : "us");
    if (ts && ts->type != TJ_STRING)
        diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, ts->line, ts->col,
                  "\"TimeScale\" must be a string such as \"us\", found %s",
                  tj_type_name(ts->type));
    const tj_node *rx = tj_get(r->res_root, "TimeRadix");
    r->radix = 10;
    if (rx) {
        int ok = rx->type == TJ_NUMBER && rx->num >= 2 && rx->num <= 36 &&
                 rx->num == (double)(int)rx->num;
        if (rx->type == TJ_STRING) { /* "16" in quotes is common enough */
            char *end;
            long v = strtol(rx->str, &end, 10);
            ok = *end == '\0' && v >= 2 && v <= 36;
            if (ok)
                r->radix = (int)v;
        } else if (ok)
            r->radix = (int)rx->num;
        if (!ok)
            diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, rx->line, rx->col,
                      "\"TimeRadix\" must be a whole number from 2 to 36");
    }
    read_time_mode(r);
    const tj_node *order = tj_get(r->res_root, "InTimeOrder");
    r->in_time_order = order && order->type == TJ_TRUE;
    if (order && order->type != TJ_TRUE && order->type != TJ_FALSE)
        diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, order->line, order->col,
                  "\"InTimeOrder\" must be true or false, found %s", tj_type_name(order->type));
}

static struct tlv_rules *rules_new(const tlv_rules_options *opts)
{
    struct tlv_rules *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    diags_init(&r->diags, 0);
    r->radix = 10;
    tlv_rules_options o; /* the caller's options over the defaults, whatever their layout */
    tlv_rules_options_init(&o);
    abi_read_in(&o, sizeof o, opts, ABI_RULES_OPTIONS_0_1);
    opts = &o;
    r->allow_scripts = opts->allow_scripts;
    r->ref_severity = TLV_SEV_WARNING;
    build_search_path(r, opts);
    return r;
}

static tlv_status status_of(const struct tlv_rules *r)
{
    if (r->diags.nomem)
        return TLV_ERR_NOMEM;
    if (r->scripts_refused)
        return TLV_ERR_SCRIPT;
    if (r->unreadable)
        return TLV_ERR_SYNTAX;
    for (size_t i = 0; i < r->diags.count; i++)
        if (r->diags.items[i].severity == TLV_SEV_ERROR)
            return r->res_root ? TLV_ERR_RULE : TLV_ERR_SYNTAX;
    return TLV_OK;
}

static void refuse_scripts(struct tlv_rules *r)
{
    if (r->allow_scripts)
        return;
    for (size_t i = 0; i < r->nscripts; i++) {
        const script_rule *s = &r->scripts[i];
        r->scripts_refused = 1;
        diags_add(&r->diags, TLV_SEV_ERROR, s->file, s->line, s->col,
                  "target '%s' is an external-process rule (it runs \"%s %s\"); it runs only "
                  "when scripts are allowed (tlv: --allow-scripts)",
                  s->target, s->file_name, s->arguments);
    }
}

/* A bare file name that is not in the current directory ("linux_sched.res")
 * is looked for in the rule search path, where the generic resource files of
 * the shipped rule sets live. Reads it into text; returns 0 or -1 (errno of
 * the first try). Sets r->res_path to the path read. */
static int read_resource_file(struct tlv_rules *r, const char *res_path, buf *text)
{
    r->res_path = xstrdup(res_path);
    if (read_file(res_path, text) == 0)
        return 0;
    int first = errno;
    if (first != ENOENT || strchr(res_path, '/'))
        return -1;
    for (size_t i = 0; i < r->ndirs; i++) {
        buf path = BUF_INIT;
        buf_printf(&path, "%s/%s", r->dirs[i], res_path);
        buf_clear(text);
        if (read_file(buf_str(&path), text) == 0) {
            free(r->res_path);
            r->res_path = xstrdup(buf_str(&path));
            buf_free(&path);
            return 0;
        }
        buf_free(&path);
    }
    errno = first;
    return -1;
}

static void load_resource_file(struct tlv_rules *r, const char *res_path)
{
    buf text = BUF_INIT;
    if (read_resource_file(r, res_path, &text) < 0) {
        if (errno == ENOMEM)
            diags_add(&r->diags, TLV_SEV_ERROR, res_path, 0, 0,
                      "out of memory while reading the resource file");
        else
            diags_add(&r->diags, TLV_SEV_ERROR, res_path, 0, 0,
                      "cannot read the resource file: %s", read_error(errno));
        buf_free(&text);
        return;
    }
    tj_error err;
    r->res_root = tj_parse(buf_str(&text), text.len, &err);
    buf_free(&text);
    res_path = r->res_path;
    if (!r->res_root) {
        diags_add(&r->diags, TLV_SEV_ERROR, res_path, err.line, err.col, "%s", err.message);
        return;
    }
    if (r->res_root->type != TJ_OBJECT) {
        diags_add(&r->diags, TLV_SEV_ERROR, res_path, 1, 1,
                  "a resource file must hold one JSON object, found %s",
                  tj_type_name(r->res_root->type));
        tj_free(r->res_root);
        r->res_root = NULL;
        return;
    }
    /* Each step builds on the last: after a failed allocation the rules are
     * incomplete anyway (tlv_rules_load says so), and going on would only
     * report what follows from it. */
    ALLOC_WATCH;
    read_settings(r);
    load_targets(r, "ResourceHeaders", ".resh", add_header_target);
    model_check_instances(&r->model, &r->diags);
    impossible_compile(r);
    if (ALLOC_FAILED_SINCE())
        return;
    const tj_node *res = tj_get(r->res_root, "Resources");
    if (res)
        model_add_resources(&r->model, res, r->res_path, &r->diags);
    const tj_node *dyn = tj_get(r->res_root, "DynamicResources");
    if (dyn)
        dyn_add(&r->dyn, &r->model, dyn, r->res_path, &r->diags);
    model_assign_colors(&r->model);
    if (ALLOC_FAILED_SINCE())
        return;
    load_targets(r, "ConvertRules", ".cnv", cnv_compile_target);
    if (ALLOC_FAILED_SINCE())
        return;
    if (cnv_build_prefilter(r) < 0)
        diags_add(&r->diags, TLV_SEV_ERROR, r->res_path, 0, 0,
                  "out of memory while preparing the conversion rules");
    load_targets(r, "VisualizeRules", ".viz", add_viz_target);
    if (ALLOC_FAILED_SINCE())
        return;
    check_cnv_references(r);
    check_viz_references(r);
}

/* Any allocation that failed while the rules were read makes them
 * incomplete, whether or not the code noticed: one message says so. */
static void note_nomem(struct tlv_rules *r, int failed, const char *res_path)
{
    if (failed && !r->diags.nomem)
        diags_add(&r->diags, TLV_SEV_ERROR, res_path, 0, 0, "out of memory while reading the rules");
    r->diags.nomem |= failed;
}

tlv_status tlv_rules_load(const char *res_path, const tlv_rules_options *opts, tlv_rules **out)
{
    ALLOC_WATCH;
    struct tlv_rules *r = rules_new(opts);
    *out = r;
    if (!r)
        return TLV_ERR_NOMEM;
    load_resource_file(r, res_path);
    note_nomem(r, ALLOC_FAILED_SINCE(), res_path);
    if (r->diags.nomem)
        return TLV_ERR_NOMEM;
    if (!r->res_root) {
        int io = r->diags.count && r->diags.items[0].line == 0;
        return io ? TLV_ERR_IO : TLV_ERR_SYNTAX;
    }
    refuse_scripts(r);
    note_nomem(r, ALLOC_FAILED_SINCE(), res_path);
    return status_of(r);
}

void tlv_rules_free(tlv_rules *r)
{
    if (!r)
        return;
    cnv_free(r);
    impossible_free(r);
    dyn_free(&r->dyn);
    model_free(&r->model);
    for (size_t i = 0; i < r->nfiles; i++) {
        free(r->files[i].path);
        free(r->files[i].dir);
        tj_free(r->files[i].root);
    }
    free(r->files);
    for (size_t i = 0; i < r->ndirs; i++)
        free(r->dirs[i]);
    free(r->dirs);
    free(r->viz);
    tj_free(r->res_root);
    free(r->res_path);
    free(r->time_scale);
    diags_free(&r->diags);
    free(r);
}

const tlv_diags *tlv_rules_diags(const tlv_rules *r) { return r ? &r->diags : NULL; }

size_t tlv_rules_cnv_rule_count(const tlv_rules *r) { return r ? r->nrules : 0; }

size_t tlv_rules_file_count(const tlv_rules *r)
{
    return r ? (r->res_path != NULL) + r->nfiles : 0;
}

const char *tlv_rules_file(const tlv_rules *r, size_t i)
{
    if (!r)
        return NULL;
    if (r->res_path && i-- == 0)
        return r->res_path;
    return i < r->nfiles ? r->files[i].path : NULL;
}

void tlv_rules_cnv_rule(const tlv_rules *r, size_t i, tlv_cnv_rule_info *out)
{
    memset(out, 0, sizeof *out);
    if (!r || i >= r->nrules)
        return;
    out->regex = r->rules[i].regex;
    out->file = r->rules[i].file;
    out->line = r->rules[i].line;
    out->col = r->rules[i].col;
}

tlv_time_mode tlv_rules_time_mode(const tlv_rules *r) { return r ? r->time_mode : TLV_TIME_AUTO; }

const char *tlv_rules_time_scale(const tlv_rules *r)
{
    return r->time_scale ? r->time_scale : "us";
}

int tlv_rules_time_radix(const tlv_rules *r) { return r->radix; }

int tlv_rules_is_standard_form(const tlv_rules *r) { return r->standard_form; }

size_t tlv_rules_resource_count(const tlv_rules *r) { return r->model.nres; }

const char *tlv_rules_resource_name(const tlv_rules *r, size_t i)
{
    return i < r->model.nres ? r->model.res[i].name : NULL;
}

const char *tlv_rules_resource_display_name(const tlv_rules *r, size_t i)
{
    if (i >= r->model.nres)
        return NULL;
    return r->model.res[i].display ? r->model.res[i].display : r->model.res[i].name;
}

const char *tlv_rules_resource_type(const tlv_rules *r, size_t i)
{
    return i < r->model.nres ? r->model.types[r->model.res[i].type].name : NULL;
}

uint32_t tlv_rules_resource_color(const tlv_rules *r, size_t i)
{
    return i < r->model.nres ? r->model.res[i].color : 0;
}

/* --- checking files without a log (tlv check) ------------------------------ */

static void check_one_file(struct tlv_rules *r, const char *path)
{
    if (has_ext(path, ".res")) {
        struct tlv_rules *sub = rules_new(NULL);
        if (!sub)
            return;
        /* A resource file is checked with the same search path. */
        for (size_t i = 0; i < r->ndirs; i++)
            add_dir(sub, r->dirs[i], strlen(r->dirs[i]));
        sub->allow_scripts = 1; /* checking runs nothing */
        sub->ref_severity = TLV_SEV_ERROR;
        load_resource_file(sub, path);
        diags_merge(&r->diags, &sub->diags);
        tlv_rules_free(sub);
        return;
    }
    loaded_file *f = load_file(r, path, NULL);
    if (!f || !f->root)
        return;
    for (const tj_node *t = f->root->child; t; t = t->next) {
        if (tj_shadowed(t))
            continue;
        diags_add_duplicates(&r->diags, f->path, t, "target");
        if (has_ext(path, ".resh"))
            model_add_types(&r->model, t, f->path, &r->diags);
        else if (has_ext(path, ".cnv"))
            cnv_compile_target(r, t->key, t, f->path);
        else if (has_ext(path, ".viz"))
            add_viz_target(r, t->key, t, f->path);
        else
            diags_add(&r->diags, TLV_SEV_ERROR, path, 0, 0,
                      "unknown kind of file (expected .res, .resh, .cnv or .viz)");
        if (!has_ext(path, ".resh") && !has_ext(path, ".cnv") && !has_ext(path, ".viz"))
            break;
    }
}

tlv_status tlv_rules_check(const char *res_path, const char *const *files, size_t n_files,
                           const tlv_rules_options *opts, tlv_rules **out)
{
    ALLOC_WATCH;
    struct tlv_rules *r = rules_new(opts);
    *out = r;
    if (!r)
        return TLV_ERR_NOMEM;
    r->allow_scripts = 1; /* checking runs nothing, so script targets are fine */
    r->ref_severity = TLV_SEV_ERROR;
    for (size_t i = 0; i < n_files; i++)
        check_one_file(r, files[i]);
    model_check_instances(&r->model, &r->diags); /* once every header is read */
    impossible_compile(r); /* the .resh files' declarations */
    check_cnv_references(r); /* against the types of the .resh files given */
    check_viz_references(r);
    if (res_path) {
        struct tlv_rules *sub = rules_new(opts);
        if (!sub) {
            note_nomem(r, 1, res_path);
            return TLV_ERR_NOMEM;
        }
        sub->allow_scripts = 1;
        sub->ref_severity = TLV_SEV_ERROR;
        load_resource_file(sub, res_path);
        diags_merge(&r->diags, &sub->diags);
        tlv_rules_free(sub);
    }
    note_nomem(r, ALLOC_FAILED_SINCE(), res_path ? res_path : n_files ? files[0] : NULL);
    if (r->diags.nomem)
        return TLV_ERR_NOMEM;
    for (size_t i = 0; i < r->diags.count; i++)
        if (r->diags.items[i].severity == TLV_SEV_ERROR)
            return TLV_ERR_RULE;
    return TLV_OK;
}
