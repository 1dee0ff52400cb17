/*
 * bench_util.h — what the C benchmarks (bench_mem.c, bench_viz.c) share: a
 * monotonic clock in seconds, and loading the rule set their command line
 * names. Header-only and static: each benchmark stays one program.
 */
#ifndef TLV_BENCH_UTIL_H
#define TLV_BENCH_UTIL_H

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The rules of `res` with the rule directories `dirs` searched first; when
 * they do not load, says so as `prog` and exits 2. */
static inline tlv_rules *bench_load_rules(const char *prog, const char *res, const char **dirs,
                                          size_t ndirs)
{
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = ndirs;
    tlv_rules *rules = NULL;
    if (tlv_rules_load(res, &o, &rules) != TLV_OK) {
        fprintf(stderr, "%s: the rules do not load (run tlv check)\n", prog);
        exit(2);
    }
    return rules;
}

#endif
