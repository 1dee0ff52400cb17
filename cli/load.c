/*
 * load.c — a log loaded for a command: its rules read, the log converted
 * into a trace (lines no rule matched counted; a progress bar on a
 * terminal) or read from the trace cache (--no-cache, --cache-info), the
 * shapes built or read from the shape cache, every problem printed.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The library's progress function: the bar on standard error. */
static void show_progress(void *user, uint64_t bytes, uint64_t total, uint64_t lines)
{
    progress *pg = user;
    pg->total_bytes = total;
    progress_update(pg, bytes, lines);
}

int load_trace(const rule_args *ra, const char *input, tlv_rules **rules, tlv_trace **trace)
{
    *trace = NULL;
    *rules = load_rules(ra);
    if (!*rules)
        return EXIT_USAGE;
    if (tlv_trace_new(*rules, trace) != TLV_OK)
        return report_nomem("converting", input);
    if (reads_standard_form(ra, input))
        tlv_converter_set_standard_form(tlv_trace_converter(*trace), 1);
    if (ra->threads)
        tlv_converter_set_threads(tlv_trace_converter(*trace), ra->threads);
    unmatched_log um;
    if (unmatched_begin(&um, ra, tlv_trace_converter(*trace)) < 0)
        return EXIT_USAGE;
    progress pg; /* drawn only when standard error is a terminal */
    progress_start(&pg, 1, 0);
    if (pg.enabled)
        tlv_trace_set_progress(*trace, show_progress, &pg);
    tlv_status st = ra->no_cache ? tlv_trace_load_file(*trace, input)
                                 : tlv_trace_load_file_cached(*trace, input, NULL);
    tlv_trace_set_progress(*trace, NULL, NULL);
    progress_end(&pg);
    if (ra->cache_info)
        fprintf(stderr, "%s: %s\n", prog,
                ra->no_cache ? "cache not used (--no-cache)" : tlv_trace_cache_note(*trace));
    if (st == TLV_ERR_NOMEM) {
        unmatched_discard(&um);
        return report_nomem("converting", input);
    }
    if (st == TLV_ERR_IO) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, input, strerror(errno));
        unmatched_discard(&um);
        return EXIT_USAGE;
    }
    print_diags(tlv_converter_diags(tlv_trace_converter(*trace)), 20);
    consistency_summary(tlv_trace_converter(*trace), input);
    if (unmatched_end(&um, ra->unmatched_path != NULL) < 0) /* no summary line to join */
        return EXIT_USAGE;
    return st != TLV_OK ? EXIT_PARTIAL : EXIT_OK;
}

int load_trace_and_shapes(const rule_args *ra, const char *input, const char *cpu_attribute,
                          int listing_only, tlv_rules **rules, tlv_trace **trace,
                          tlv_shapes **shapes)
{
    *shapes = NULL;
    int rc = load_trace(ra, input, rules, trace);
    if (rc == EXIT_USAGE)
        return rc;
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.cpu_attribute = cpu_attribute;
    o.threads = ra->threads;
    o.listing_only = listing_only;
    tlv_status vs = ra->no_cache ? tlv_shapes_build(*trace, &o, shapes)
                                 : tlv_shapes_build_cached(*trace, &o, 1, shapes);
    if (vs == TLV_ERR_NOMEM || !*shapes)
        return report_nomem("building the shapes of", input);
    if (ra->cache_info && !ra->no_cache)
        fprintf(stderr, "%s: %s\n", prog, tlv_shapes_cache_note(*shapes));
    print_diags(tlv_shapes_diags(*shapes), 20);
    return rc == EXIT_PARTIAL || vs != TLV_OK ? EXIT_PARTIAL : EXIT_OK;
}
