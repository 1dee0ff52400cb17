/*
 * fuzz_util.h — what the end-to-end fuzz targets share: loading a rule set
 * from a directory (the fixed one in tests/fuzz/rules, or one written for
 * the input), writing a file into a directory, and feeding a log to a trace
 * in two pieces so that lines split across pushes are exercised too.
 */
#ifndef TLV_FUZZ_UTIL_H
#define TLV_FUZZ_UTIL_H

#include "tlv/tlv.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* DIR/NAME in memory from malloc (aborts when there is none). */
static inline char *fuzz_path(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p)
        abort();
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Loads DIR/fz.res with DIR as the only rule directory; NULL on failure. */
static inline tlv_rules *fuzz_load_rules(const char *dir)
{
    char *res = fuzz_path(dir, "fz.res");
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = &dir;
    o.n_search_dirs = 1;
    o.rules_path_env = "";
    o.no_default_dirs = 1;
    tlv_rules *rules = NULL;
    if (tlv_rules_load(res, &o, &rules) != TLV_OK) {
        tlv_rules_free(rules);
        rules = NULL;
    }
    free(res);
    return rules;
}

/* The fixed rule set of tests/fuzz/rules, for a target's
 * LLVMFuzzerInitialize: a target without it has nothing to fuzz, so it
 * stops there, naming itself. */
static inline tlv_rules *fuzz_fixed_rules(const char *target)
{
    tlv_rules *rules = fuzz_load_rules(TLV_FUZZ_RULES_DIR);
    if (!rules) {
        fprintf(stderr, "%s: the rules in %s do not load\n", target, TLV_FUZZ_RULES_DIR);
        abort();
    }
    return rules;
}

/* The log converted into a new trace, pushed in two pieces split at `split`
 * (at most n) so that lines split across pushes are exercised too; NULL
 * when no trace could be made. */
static inline tlv_trace *fuzz_convert_split(const tlv_rules *rules, const char *log, size_t n,
                                            size_t split)
{
    tlv_trace *trace = NULL;
    if (tlv_trace_new(rules, &trace) != TLV_OK)
        return NULL;
    tlv_converter *conv = tlv_trace_converter(trace);
    tlv_converter_set_source_name(conv, "fuzz.log");
    if (split > n)
        split = n;
    tlv_converter_push_bytes(conv, log, split);
    tlv_converter_push_bytes(conv, log + split, n - split);
    tlv_trace_finish(trace);
    return trace;
}

static inline int fuzz_write(const char *dir, const char *name, const void *data, size_t n)
{
    char *path = fuzz_path(dir, name);
    FILE *f = fopen(path, "wb");
    free(path);
    if (!f)
        return -1;
    int ok = fwrite(data, 1, n, f) == n;
    return fclose(f) == 0 && ok ? 0 : -1;
}

static inline int fuzz_count_shape(void *user, const tlv_shape_info *shape)
{
    (void)shape;
    ++*(size_t *)user;
    return 0;
}

/* Converts the log into a trace, builds its shapes (per-CPU when `per_cpu`)
 * and reads a little of everything back. */
static inline void fuzz_convert_and_draw(const tlv_rules *rules, const char *log, size_t n,
                                         size_t split, int per_cpu)
{
    tlv_trace *trace = fuzz_convert_split(rules, log, n, split);
    if (!trace)
        return;
    const tlv_diags *d = tlv_converter_diags(tlv_trace_converter(trace));
    char line[256];
    for (size_t i = 0; i < tlv_diags_count(d); i++)
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
    size_t nev = tlv_trace_event_count(trace);
    for (size_t i = 0; i < nev; i++) {
        tlv_event ev;
        tlv_trace_event(trace, i, &ev);
        tlv_event_format(&ev, 10, line, sizeof line);
    }
    const char *v;
    tlv_time mid = tlv_trace_end(trace);
    tlv_trace_attr_at(trace, "TASK1", "state", &mid, &v);
    tlv_shapes_options so;
    memset(&so, 0, sizeof so);
    so.cpu_attribute = per_cpu ? "prcId" : NULL;
    tlv_shapes *shapes = NULL;
    tlv_shapes_build(trace, &so, &shapes);
    if (shapes) {
        size_t seen = 0;
        for (size_t r = 0; r < tlv_shapes_row_count(shapes); r++)
            tlv_shapes_query(shapes, r, tlv_trace_start(trace), mid, fuzz_count_shape, &seen);
        for (size_t i = 0; i < tlv_shapes_count(shapes); i++) {
            tlv_shape_info si;
            tlv_shapes_get(shapes, i, &si);
        }
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
}

#endif
