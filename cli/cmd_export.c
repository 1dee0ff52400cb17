/*
 * cmd_export.c — `tlv export`: the drawn trace for other tools, in a format
 * of libtlv-export's table (tlv/export.h). The option --format, the help's
 * list of formats and the error for an unknown one are built from that
 * table; this file reads the options (and a viewer session's markers for
 * the sqlite format), writes the output safely (under a temporary name,
 * renamed when complete) and says what went wrong.
 */
#include "cli/cli.h"

#include <tlv/export.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char export_help_head[] =
    "usage: tlv export [--format NAME] [-R DIR]... -r FILE.res [-o OUT] [--per-cpu]\n"
    "                  [--session FILE] [--absolute-times] [--allow-scripts] LOG|-\n"
    "\n"
    "Converts LOG (or reads a standard-form trace), applies the visualization rules\n"
    "and writes the result for other tools. The primitives one rule event draws\n"
    "over one time interval (a bar and its label) make one interval. The formats\n"
    "are described in docs/export.md; the database's tables in docs/sql.md.\n"
    "\n"
    "  -f, --format NAME         the format to write (default: %s):\n";

static const char export_help_tail[] =
    "      --session FILE        sqlite: the markers of this 'tlv view' session file\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "  -o, --output OUT          write to OUT instead of standard output\n"
    "      --per-cpu             add a row per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --us-per-unit X       chrome: microseconds per trace time unit (needed when\n"
    "                            the TimeScale is not s, ms, us or ns; 1 otherwise)\n"
    "      --absolute-times      csv: times as the log wrote them (by default a clock\n"
    "                            or wall-clock trace's, such as strace's or perf's,\n"
    "                            count from its start)\n"
    "\n"
    "Exit status: 0 ok; 1 written, but some lines or rules had errors; 2 bad usage,\n"
    "unreadable input or rule files with errors.\n";

/* The help, with a line per format of the table. */
static const char *export_help_text(void)
{
    static char text[8192];
    if (text[0])
        return text;
    size_t n = (size_t)snprintf(text, sizeof text, export_help_head, tlv_export_format_get(0)->name);
    for (size_t i = 0; i < tlv_export_format_count() && n < sizeof text; i++) {
        const tlv_export_format *f = tlv_export_format_get(i);
        n += (size_t)snprintf(text + n, sizeof text - n, "      %-10s  %s%s\n", f->name, f->help,
                              f->needs_file ? " (needs -o FILE)" : "");
    }
    if (n < sizeof text)
        snprintf(text + n, sizeof text - n, "%s", export_help_tail);
    return text;
}

/* "chrome, csv, shapes, flows or sqlite", for the error of an unknown format. */
static void format_names(char *buf, size_t size)
{
    size_t n = 0, count = tlv_export_format_count();
    buf[0] = '\0';
    for (size_t i = 0; i < count && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%s", i == 0 ? "" : i + 1 == count ? " or " : ", ",
                              tlv_export_format_get(i)->name);
}

typedef struct export_args {
    common_args c; /* -R, -r, --allow-scripts, -o, --per-cpu, --cpu-attribute, LOG */
    const tlv_export_format *format;
    const char *format_name;
    double us_per_unit; /* 0: from the TimeScale */
    const char *session; /* sqlite: markers from this session file */
    int absolute_times;  /* csv: --absolute-times */
} export_args;

/* ---- arguments -------------------------------------------------------------------- */

/* export's own options. */
static int export_option(void *own, int argc, char **argv, int *i)
{
    export_args *a = own;
    const char *s = argv[*i];
    if ((strcmp(s, "-f") == 0 || strcmp(s, "--format") == 0) && *i + 1 < argc) {
        a->format_name = argv[++*i];
    } else if (strncmp(s, "--format=", 9) == 0) {
        a->format_name = s + 9;
    } else if (strcmp(s, "--absolute-times") == 0) {
        a->absolute_times = 1;
    } else if (strcmp(s, "--session") == 0 && *i + 1 < argc) {
        a->session = argv[++*i];
    } else if (strcmp(s, "--us-per-unit") == 0 && *i + 1 < argc) {
        char *end;
        a->us_per_unit = strtod(argv[++*i], &end);
        /* At most 1e15 microseconds (31 years) a unit, so that no 64-bit time
         * becomes an infinite "ts" (cJSON writes it as null). */
        if (*end || !(a->us_per_unit > 0) || !(a->us_per_unit <= 1e15)) {
            usage_error("export", "--us-per-unit needs a positive number up to 1e15, not '%s'",
                        argv[*i]);
            return -1;
        }
    } else {
        return 0;
    }
    return 1;
}

/* export's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option export_own[] = {
    {"format", 'f', "NAME"},
    {"session", 0, "FILE"},
    {"us-per-unit", 0, "X"},
    {"absolute-times", 0, NULL},
    {NULL, 0, NULL},
};

const command_options export_options = {
    "export", NULL, export_help_text,
    OPT_RULES | OPT_UNMATCHED | OPT_CACHE | OPT_OUTPUT | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    export_own, export_option, NULL};

static int parse_export_args(export_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->format_name = tlv_export_format_get(0)->name;
    if (parse_options(&export_options, &a->c, a, argc, argv) < 0)
        return -1;
    a->format = tlv_export_format_find(a->format_name);
    if (!a->format) {
        char names[256];
        format_names(names, sizeof names);
        usage_error("export", "unknown format '%s' (%s)", a->format_name, names);
        return -1;
    }
    if (a->format->needs_file && (!a->c.output || strcmp(a->c.output, "-") == 0)) {
        usage_error("export", "--format %s writes a database file: give -o FILE", a->format->name);
        return -1;
    }
    if (a->session && strcmp(a->format->name, "sqlite") != 0) {
        usage_error("export", "--session is for --format sqlite");
        return -1;
    }
    if (need_resource_file("export", &a->c) < 0 || need_input("export", &a->c) < 0)
        return -1;
    return 0;
}

/* ---- the command ------------------------------------------------------------------ */

/* Says what failed: running out of memory in the one wording, else the
 * library's message. */
static void report_failure(const tlv_exporter *ex, tlv_status st, const export_args *a)
{
    if (st == TLV_ERR_NOMEM)
        report_nomem(a->format->needs_file ? "writing the database of" : "writing the export of",
                     a->c.input);
    else if (*tlv_exporter_last_error(ex))
        fprintf(stderr, "%s export: %s\n", prog, tlv_exporter_last_error(ex));
}

/* A file format (the database) is made under a temporary name and renamed
 * when complete. */
static int write_file_format(tlv_exporter *ex, const export_args *a)
{
    size_t n = strlen(a->c.output) + 32;
    char *tmp = malloc(n);
    if (!tmp)
        return report_nomem("writing the database of", a->c.input), -1;
    snprintf(tmp, n, "%s.tmp.%ld", a->c.output, (long)getpid());
    unlink(tmp);
    remove_tmp_on_signals(tmp);
    tlv_status st = tlv_export_write_file(ex, a->format->name, tmp);
    int rc = st == TLV_OK ? 0 : -1;
    if (rc < 0)
        report_failure(ex, st, a);
    if (rc == 0 && rename(tmp, a->c.output) != 0) {
        fprintf(stderr, "%s export: cannot write '%s': %s\n", prog, a->c.output, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && tlv_exporter_warning(ex)[0])
        fprintf(stderr, "%s export: warning: %s: %s\n", prog, a->c.output,
                tlv_exporter_warning(ex));
    if (rc < 0)
        unlink(tmp);
    remove_tmp_on_signals(NULL);
    free(tmp);
    return rc;
}

/* A stream format, to standard output or OUT (common/output.c). */
static int write_stream_format(tlv_exporter *ex, const export_args *a)
{
    char *tmp_path = NULL;
    FILE *out = open_output(a->c.output, &tmp_path);
    remove_tmp_on_signals(tmp_path);
    if (!out)
        return -1;
    tlv_status st = tlv_export_write(ex, a->format->name, out);
    /* a failed write is said by close_output, in the words of every command */
    if (st != TLV_OK && st != TLV_ERR_IO)
        report_failure(ex, st, a);
    int rc = st == TLV_OK ? 0 : -1;
    if (close_output(out, a->c.output, tmp_path, rc == 0) < 0)
        rc = -1;
    return rc;
}

/* The µs per unit to use, saying so when the TimeScale is no time unit. */
static double time_factor(const export_args *a, const tlv_rules *rules)
{
    if (a->us_per_unit > 0 || strcmp(a->format->name, "chrome") != 0)
        return a->us_per_unit;
    const char *scale = tlv_rules_time_scale(rules);
    if (tlv_export_us_per_unit(scale) > 0)
        return 0;
    fprintf(stderr, "%s export: TimeScale '%s' is not s, ms, us or ns: one unit is written as "
            "1 us (set --us-per-unit)\n", prog, scale);
    return 1;
}

static int write_export(const export_args *a, const tlv_rules *rules, const tlv_trace *trace,
                        const tlv_shapes *shapes)
{
    tlv_export_options o = TLV_EXPORT_OPTIONS_INIT;
    o.source = a->c.input;
    o.us_per_unit = time_factor(a, rules);
    o.threads = a->c.rules.threads;
    o.absolute_times = a->absolute_times;
    tlv_export_marker *markers = NULL;
    if (session_markers(a->session, "export", &markers, &o.nmarkers) < 0)
        return -1;
    o.markers = markers;
    tlv_exporter *ex = NULL;
    tlv_status st = tlv_exporter_new(rules, trace, shapes, &o, &ex);
    int rc;
    if (st != TLV_OK) {
        report_nomem("writing the export of", a->c.input);
        rc = -1;
    } else if (a->format->needs_file)
        rc = write_file_format(ex, a);
    else
        rc = write_stream_format(ex, a);
    tlv_exporter_free(ex);
    session_markers_free(markers, o.nmarkers);
    return rc;
}

int cmd_export(int argc, char **argv)
{
    export_args a;
    if (parse_export_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    int rc = load_trace_and_shapes(&a.c.rules, a.c.input, a.c.cpu_attribute, 1, &rules, &trace,
                                   &shapes); /* listed, never drawn */
    if (rc != EXIT_USAGE && write_export(&a, rules, trace, shapes) < 0) {
        if (!nomem_reported())
            fprintf(stderr, "%s export: writing '%s' failed\n", prog, a.c.output ? a.c.output : "-");
        rc = EXIT_USAGE;
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}
