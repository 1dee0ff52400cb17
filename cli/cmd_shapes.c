/*
 * cmd_shapes.c — `tlv shapes`: converts a log (or reads a standard-form
 * trace), applies the visualization rules and prints one JSON object per
 * drawn primitive (JSON Lines, spec §11): libtlv-export's shapes format
 * (and flows format, with --flows).
 */
#include "cli/cli.h"

#include <tlv/export.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char shapes_help[] =
    "usage: tlv shapes [-R DIR]... -r FILE.res [-o OUT] [--per-cpu] [--flows] [--allow-scripts]\n"
    "                  LOG|-\n"
    "\n"
    "Converts LOG with the conversion rules (or reads it as a standard-form trace\n"
    "when the resource file says \"ConvertRules\":[\"\"]), applies the visualization\n"
    "rules, and prints one JSON object per drawn primitive, one per line:\n"
    "  {\"rule\":R,\"event\":E,\"resource\":NAME or null,\"from\":T0,\"to\":T1,\n"
    "   \"type\":\"Rectangle\"...,\"text\":STRING or null,\"fill\":\"aarrggbb\" or null,\n"
    "   \"pen\":\"aarrggbb\" or null,\"row\":N}\n"
    "ordered by rule, event, resource and start time. Times are base-10 numbers in\n"
    "trace time units.\n"
    "\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "  -o, --output OUT          write to OUT instead of standard output\n"
    "      --per-cpu             group rows per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --flows               print the flows (\"Flows\" of the rules) instead, in time\n"
    "                            order: {\"rule\",\"flow\",\"name\",\"from\",\"to\",\n"
    "                            \"from_processor\",\"to_processor\",\"time\",\"line\",\n"
    "                            \"from_row\",\"to_row\"} (null: no processor, no row)\n"
    "\n"
    "Exit status: 0 ok; 1 written, but some lines or rules had errors; 2 bad usage,\n"
    "unreadable input or rule files with errors.\n";

typedef struct shapes_args {
    common_args c; /* -R, -r, --allow-scripts, -o, --per-cpu, --cpu-attribute, LOG */
    int flows;     /* --flows */
} shapes_args;

static int shapes_option(void *own, int argc, char **argv, int *i)
{
    (void)argc;
    if (strcmp(argv[*i], "--flows") != 0)
        return 0;
    ((shapes_args *)own)->flows = 1;
    return 1;
}

/* Writes the shapes, or the flows with --flows: libtlv-export's shapes and
 * flows formats. Returns 0, -1 when writing failed, -2 when memory ran out. */
static int write_shapes(FILE *out, const shapes_args *a, const tlv_rules *rules,
                        const tlv_trace *trace, const tlv_shapes *shapes)
{
    tlv_export_options o = TLV_EXPORT_OPTIONS_INIT;
    o.threads = a->c.rules.threads;
    tlv_exporter *ex = NULL;
    if (tlv_exporter_new(rules, trace, shapes, &o, &ex) != TLV_OK)
        return -2;
    tlv_status st = tlv_export_write(ex, a->flows ? "flows" : "shapes", out);
    tlv_exporter_free(ex);
    return st == TLV_OK ? 0 : st == TLV_ERR_NOMEM ? -2 : -1;
}

/* shapes's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option shapes_own[] = {
    {"flows", 0, NULL},
    {NULL, 0, NULL},
};

const command_options shapes_options = {
    "shapes", shapes_help, NULL,
    OPT_RULES | OPT_UNMATCHED | OPT_CACHE | OPT_OUTPUT | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    shapes_own, shapes_option, NULL};

static int parse_shapes_args(shapes_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    if (parse_options(&shapes_options, &a->c, a, argc, argv) < 0 ||
        need_resource_file("shapes", &a->c) < 0 || need_input("shapes", &a->c) < 0)
        return -1;
    return 0;
}

int cmd_shapes(int argc, char **argv)
{
    shapes_args a;
    if (parse_shapes_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    int rc = load_trace_and_shapes(&a.c.rules, a.c.input, a.c.cpu_attribute, 1, &rules, &trace,
                                   &shapes);
    if (rc != EXIT_USAGE) {
        char *tmp_path;
        FILE *out = open_output(a.c.output, &tmp_path);
        remove_tmp_on_signals(tmp_path);
        if (!out) {
            rc = EXIT_USAGE;
        } else {
            int w = write_shapes(out, &a, rules, trace, shapes);
            if (w == -2)
                report_nomem("writing the shapes of", a.c.input);
            if (w < 0)
                rc = EXIT_USAGE;
            if (close_output(out, a.c.output, tmp_path, rc != EXIT_USAGE) < 0)
                rc = EXIT_USAGE;
        }
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}
