/*
 * load.c — a log loaded for a command: its rules read, the log converted
 * into a trace (lines no rule matched counted; a progress bar on a
 * terminal), the shapes built, every problem printed.
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* tlv_trace_load_file's loop, with the progress bar drawn between chunks:
 * the same chunks pushed into the same converter, so the trace is the same.
 * For a file or standard input when standard error is a terminal. */
static tlv_status load_showing_progress(tlv_trace *trace, const char *input, FILE *f)
{
    struct stat sb;
    int regular = fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode);
    size_t chunk_size = regular ? (size_t)16 << 20 : (size_t)1 << 20;
    char *chunk = malloc(chunk_size);
    if (!chunk)
        return TLV_ERR_NOMEM;
    tlv_converter *conv = tlv_trace_converter(trace);
    tlv_converter_set_source_name(conv, f == stdin ? "<stdin>" : input);
    progress pg;
    progress_start(&pg, 1, regular ? (unsigned long long)sb.st_size : 0);
    size_t n;
    tlv_status st = TLV_OK;
    while (st != TLV_ERR_USAGE && st != TLV_ERR_NOMEM && (n = fread(chunk, 1, chunk_size, f)) > 0) {
        st = tlv_converter_push_bytes(conv, chunk, n);
        tlv_convert_stats cs;
        tlv_converter_stats(conv, &cs);
        progress_update(&pg, cs.bytes_read, cs.lines_read);
    }
    int failed = ferror(f);
    free(chunk);
    progress_end(&pg);
    if (failed)
        return TLV_ERR_IO;
    return st == TLV_ERR_NOMEM ? st : tlv_trace_finish(trace);
}

/* Loads the log into the trace: with a progress bar on a terminal, else
 * (into a file or a pipe) as tlv_trace_load_file does, without one. */
static tlv_status load_with_progress(tlv_trace *trace, const char *input)
{
    if (!isatty(2))
        return tlv_trace_load_file(trace, input);
    int is_stdin = strcmp(input, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(input, "rb");
    if (!f)
        return errno == ENOMEM ? TLV_ERR_NOMEM : TLV_ERR_IO;
    int saved = 0;
    tlv_status st = load_showing_progress(trace, input, f);
    if (st == TLV_ERR_IO)
        saved = errno;
    if (!is_stdin)
        fclose(f);
    if (saved)
        errno = saved;
    return st;
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
    tlv_status st = load_with_progress(*trace, input);
    if (st == TLV_ERR_NOMEM) {
        unmatched_end(&um, 0);
        return report_nomem("converting", input);
    }
    if (st == TLV_ERR_IO) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, input, strerror(errno));
        unmatched_end(&um, 0);
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
    tlv_status vs = tlv_shapes_build(*trace, &o, shapes);
    if (vs == TLV_ERR_NOMEM || !*shapes)
        return report_nomem("building the shapes of", input);
    print_diags(tlv_shapes_diags(*shapes), 20);
    return rc == EXIT_PARTIAL || vs != TLV_OK ? EXIT_PARTIAL : EXIT_OK;
}
