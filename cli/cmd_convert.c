/*
 * cmd_convert.c — `tlv convert`: a raw log (or standard-form trace) in, the
 * standard-form trace out, with a progress bar on a terminal and a one-line
 * summary. The output file is written under a temporary name and renamed
 * only when complete, so an interrupted run never leaves half a trace under
 * the final name.
 */
#include "cli/cli.h"
#include "cli/event_writer.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char convert_help[] =
    "usage: tlv convert [-R DIR]... -r FILE.res [-o OUT] [--allow-scripts] [--std] [-q]\n"
    "                   [--max-errors N] [--threads N] LOG|-\n"
    "\n"
    "Converts LOG (or standard input for '-') into a standard-form trace, one\n"
    "event per line ([time]Resource.attribute=value or [time]Resource.behavior(args)).\n"
    "\n"
    "  -r, --resources FILE.res  the resource file: resources, time scale, and the\n"
    "                            rule targets to use (ConvertRules, ResourceHeaders)\n"
    "  -R, --rules DIR           a directory of rule files (*.cnv *.resh *.viz);\n"
    "                            repeatable; searched before TLV_RULES_PATH\n"
    "                            (colon-separated) and the installed rules\n"
    "  -o, --output OUT          write the trace to OUT instead of standard output\n"
    "      --allow-scripts       let external-process rules (\"$STYLE\":\"script\") run\n"
    "                            their program; without it such a rule is an error\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    "      --script-timeout MS   kill an external-process rule after MS milliseconds\n"
    "                            (default 60000)\n"
    "  -q, --quiet               no progress bar and no summary line\n"
    "      --max-errors N        print at most N conversion errors (default 20;\n"
    "                            0 = all kept, up to 1000)\n"
    "      --threads N           1: convert on one thread (the serial path); 2: one\n"
    "                            thread matches the regexes of the lines ahead while\n"
    "                            another applies them (default when there are two\n"
    "                            processors); the output is the same either way\n"
    "\n"
    "On a terminal a progress bar is shown on standard error; at the end a summary\n"
    "line gives lines read, lines matched, events written, errors and seconds.\n"
    "\n"
    "Exit status: 0 converted without errors; 1 trace written but some lines had\n"
    "conversion errors (each is reported with its line, rule and reason);\n"
    "2 bad usage, unreadable input, or rule files with errors.\n";

typedef struct convert_args {
    common_args c;          /* -R, -r, --allow-scripts, -o, -q, LOG */
    long max_errors;
    long script_timeout;
    long threads;           /* 0: the library's default */
} convert_args;

/* convert's own options. */
static int convert_option(void *own, int argc, char **argv, int *i)
{
    convert_args *a = own;
    const char *s = argv[*i];
    if (*i + 1 >= argc)
        return 0; /* both take a value */
    char *end;
    if (strcmp(s, "--max-errors") == 0) {
        a->max_errors = strtol(argv[++*i], &end, 10);
        if (*end || a->max_errors < 0) {
            usage_error("convert", "--max-errors needs a whole number, got '%s'", argv[*i]);
            return -1;
        }
    } else if (strcmp(s, "--script-timeout") == 0) {
        a->script_timeout = strtol(argv[++*i], &end, 10);
        if (*end || a->script_timeout <= 0) {
            usage_error("convert", "--script-timeout needs milliseconds, got '%s'", argv[*i]);
            return -1;
        }
    } else if (strcmp(s, "--threads") == 0) {
        a->threads = strtol(argv[++*i], &end, 10);
        if (*end || a->threads < 1 || a->threads > 2) {
            usage_error("convert", "--threads needs 1 or 2, got '%s'", argv[*i]);
            return -1;
        }
    } else {
        return 0;
    }
    return 1;
}

/* convert's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option convert_own[] = {
    {"max-errors", 0, "N"},
    {"script-timeout", 0, "MS"},
    {"threads", 0, "N"},
    {NULL, 0, NULL},
};

const command_options convert_options = {
    "convert", convert_help, NULL,
    OPT_RULES | OPT_UNMATCHED | OPT_OUTPUT | OPT_QUIET,
    convert_own, convert_option, NULL};

static int parse_convert_args(convert_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->max_errors = 20;
    if (parse_options(&convert_options, &a->c, a, argc, argv) < 0 ||
        need_resource_file("convert", &a->c) < 0 || need_input("convert", &a->c) < 0)
        return -1;
    return 0;
}

static FILE *open_input(const char *path, unsigned long long *size)
{
    *size = 0;
    if (strcmp(path, "-") == 0)
        return stdin;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOMEM)
            report_nomem("opening the log", path);
        else
            fprintf(stderr, "%s: cannot open the log '%s': %s\n", prog, path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode))
        *size = (unsigned long long)st.st_size;
    return f;
}

/* Bytes read at a time. Each push is one run of the matching thread, and
 * at either end of a run one thread waits for the other (pipeline.c): with
 * 1 MB pushes (37 for a 1M-line log) that was 20-30 ms over the busier
 * thread's CPU time, with 16 MB about 10 ms. A pipe keeps 1 MB: fread
 * waits for a whole chunk, and a live log's events should not wait. */
#define FILE_CHUNK ((size_t)16 << 20)
#define STREAM_CHUNK ((size_t)1 << 20)

/* Feeds the whole input to the converter. Returns 0, -1 on a read error, or
 * -2 when there is no memory for the chunk. */
static int pump(tlv_converter *conv, FILE *in, progress *pg, int regular_file)
{
    size_t size = regular_file ? FILE_CHUNK : STREAM_CHUNK;
    char *chunk = malloc(size);
    if (!chunk && size > STREAM_CHUNK) /* a tight memory limit: the small one, then */
        chunk = malloc(size = STREAM_CHUNK);
    if (!chunk)
        return -2;
    size_t n;
    int rc = 0;
    tlv_convert_stats st;
    while ((n = fread(chunk, 1, size, in)) > 0) {
        if (tlv_converter_push_bytes(conv, chunk, n) == TLV_ERR_USAGE) {
            rc = -1;
            break;
        }
        tlv_converter_stats(conv, &st);
        progress_update(pg, st.bytes_read, st.lines_read);
    }
    if (ferror(in))
        rc = -1;
    int saved = errno; /* for the caller's message */
    free(chunk);
    errno = saved;
    return rc;
}

static void print_summary(const tlv_converter *conv, const event_writer *w, double secs)
{
    tlv_convert_stats st;
    tlv_converter_stats(conv, &st);
    char threads[96] = "";
    uint64_t writer_ns = event_writer_cpu_ns(w);
    if (st.matching_cpu_ns && writer_ns) /* what the other threads took off the first */
        snprintf(threads, sizeof threads, " (matching thread %.2f s CPU, writer thread %.2f s CPU)",
                 (double)st.matching_cpu_ns / 1e9, (double)writer_ns / 1e9);
    else if (st.matching_cpu_ns) /* (short inputs convert on one thread: said nothing of) */
        snprintf(threads, sizeof threads, " (matching thread %.2f s CPU)",
                 (double)st.matching_cpu_ns / 1e9);
    fprintf(stderr,
            "%s: %llu lines read, %llu matched, %llu events written, %llu errors, %.2f s%s\n",
            prog, (unsigned long long)st.lines_read, (unsigned long long)st.lines_matched,
            (unsigned long long)st.events, (unsigned long long)st.error_lines, secs, threads);
}

int cmd_convert(int argc, char **argv)
{
    convert_args a;
    if (parse_convert_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    tlv_rules *rules = load_rules(&a.c.rules);
    if (!rules)
        return EXIT_USAGE;
    unsigned long long size;
    FILE *in = open_input(a.c.input, &size);
    if (!in) {
        tlv_rules_free(rules);
        return EXIT_USAGE;
    }
    char *tmp_path;
    FILE *out = open_output(a.c.output, &tmp_path);
    remove_tmp_on_signals(tmp_path);
    tlv_converter *conv = NULL;
    event_writer *writer = NULL;
    if (out) /* a writer thread when the converter gets two (the matching one) too */
        writer = event_writer_new(out, tlv_rules_time_radix(rules),
                                  a.threads != 1 && sysconf(_SC_NPROCESSORS_ONLN) > 1);
    if (!out || !writer || tlv_converter_new(rules, &conv) != TLV_OK) {
        event_writer_free(writer);
        if (out) {
            close_output(out, a.c.output, tmp_path, 0);
            report_nomem("converting", a.c.input);
        }
        if (in != stdin)
            fclose(in);
        tlv_rules_free(rules);
        return EXIT_USAGE;
    }
    static char outbuf[1 << 20];
    setvbuf(out, outbuf, _IOFBF, sizeof outbuf);
    if (reads_standard_form(&a.c.rules, a.c.input))
        tlv_converter_set_standard_form(conv, 1);
    tlv_converter_set_line_fn(conv, event_writer_put_line, writer);
    if (a.script_timeout)
        tlv_converter_set_script_timeout(conv, (int)a.script_timeout);
    if (a.threads)
        tlv_converter_set_threads(conv, (int)a.threads);
    tlv_converter_set_source_name(conv, strcmp(a.c.input, "-") == 0 ? "<stdin>" : a.c.input);
    unmatched_log um;
    if (unmatched_begin(&um, &a.c.rules, conv) < 0) {
        event_writer_free(writer);
        close_output(out, a.c.output, tmp_path, 0);
        if (in != stdin)
            fclose(in);
        tlv_converter_free(conv);
        tlv_rules_free(rules);
        return EXIT_USAGE;
    }
    progress pg;
    progress_start(&pg, !a.c.quiet, size);
    int pumped = pump(conv, in, &pg, size > 0);
    int read_failed = pumped == -1;
    tlv_status st = pumped == -2 ? TLV_ERR_NOMEM
                    : read_failed ? TLV_ERR_IO
                                  : tlv_converter_finish(conv);
    progress_end(&pg);
    int written = event_writer_finish(writer); /* the whole trace is written after this */
    if (st == TLV_ERR_NOMEM || written == -2) { /* no trace, not a partial one */
        close_output(out, a.c.output, tmp_path, 0);
        unmatched_discard(&um);
        if (in != stdin)
            fclose(in);
        event_writer_free(writer);
        tlv_converter_free(conv);
        tlv_rules_free(rules);
        return report_nomem("converting", a.c.input);
    }
    if (read_failed && written == 0)
        fprintf(stderr, "%s: error reading '%s': %s\n", prog, a.c.input, strerror(errno));
    print_diags(tlv_converter_diags(conv), (size_t)a.max_errors);
    int write_failed = close_output(out, a.c.output, tmp_path, !read_failed && written == 0) < 0 ||
                       written != 0;
    if (!a.c.quiet) {
        print_summary(conv, writer, now_seconds() - pg.start);
        consistency_summary(conv, a.c.input);
    }
    if (read_failed) /* the list is cut short, like the trace: the old one stays */
        unmatched_discard(&um);
    else
        write_failed |= unmatched_end(&um, !a.c.quiet) < 0;
    if (in != stdin)
        fclose(in);
    event_writer_free(writer);
    tlv_converter_free(conv);
    tlv_rules_free(rules);
    if (read_failed || write_failed)
        return EXIT_USAGE;
    return st == TLV_OK ? EXIT_OK : EXIT_PARTIAL;
}
