/*
 * cmd_shapes.c — `tlv shapes`: converts a log (or reads a standard-form
 * trace), applies the visualization rules and prints one JSON object per
 * drawn primitive (JSON Lines, spec §11).
 */
#include "cli/cli.h"
#include "cli/json_line.h"
#include "cli/ordered_write.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char shapes_help[] =
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

/* One JSON object per line. Millions of shapes: a cJSON tree per shape
 * (allocated, printed, freed) was most of the command's time; json_line
 * writes the same bytes straight into a buffer. */

static void put_color(json_line *b, int has, uint32_t argb)
{
    if (!has) {
        jl_raw(b, "null");
        return;
    }
    char text[11] = "\"";
    for (int i = 0; i < 8; i++)
        text[1 + i] = "0123456789abcdef"[(argb >> (28 - 4 * i)) & 15];
    text[9] = '"';
    text[10] = '\0';
    jl_raw(b, text);
}

static void put_row(json_line *b, size_t row)
{
    if (row == TLV_NO_ROW)
        jl_raw(b, "null");
    else
        jl_number(b, (double)row);
}

/* The keys are plain: their printed form is written as is. The strings
 * are the shapes' names and primitives' texts, few and printed millions of
 * times: escaped once each (jl_memo). */
static void put_shape(json_line *b, jl_memo *m, const tlv_shape_info *sh, int radix)
{
    jl_raw(b, "{\"rule\":");
    jl_string_memo(b, m, sh->rule);
    jl_raw(b, ",\"event\":");
    jl_string_memo(b, m, sh->event);
    jl_raw(b, ",\"resource\":");
    jl_string_memo(b, m, sh->resource);
    jl_raw(b, ",\"from\":");
    jl_time(b, sh->from, radix);
    jl_raw(b, ",\"to\":");
    jl_time(b, sh->to, radix);
    jl_raw(b, ",\"type\":");
    jl_string_memo(b, m, sh->type);
    jl_raw(b, ",\"text\":");
    jl_string_memo(b, m, sh->text);
    jl_raw(b, ",\"fill\":");
    put_color(b, sh->has_fill, sh->fill);
    jl_raw(b, ",\"pen\":");
    put_color(b, sh->has_pen, sh->pen);
    jl_raw(b, ",\"row\":");
    jl_number(b, (double)sh->row);
    jl_raw(b, "}\n");
}

static int print_flow(FILE *out, json_line *b, const tlv_trace *trace, const tlv_flow_info *f,
                      int radix)
{
    tlv_event e;
    tlv_trace_event(trace, f->event, &e);
    jl_key(b, "rule", 1);
    jl_string(b, f->rule);
    jl_key(b, "flow", 0);
    jl_string(b, f->name);
    jl_key(b, "name", 0);
    jl_string(b, f->display_name);
    jl_key(b, "from", 0);
    jl_string(b, f->from_resource);
    jl_key(b, "to", 0);
    jl_string(b, f->to_resource);
    jl_key(b, "from_processor", 0);
    jl_string(b, f->from_processor);
    jl_key(b, "to_processor", 0);
    jl_string(b, f->to_processor);
    jl_key(b, "time", 0);
    jl_time(b, f->time, radix);
    jl_key(b, "line", 0);
    jl_number(b, (double)e.input_line);
    jl_key(b, "from_row", 0);
    put_row(b, f->from_row);
    jl_key(b, "to_row", 0);
    put_row(b, f->to_row);
    jl_raw(b, "}\n");
    return jl_write(b, out);
}

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

typedef struct shapes_ctx {
    const tlv_shapes *shapes;
    int radix;
} shapes_ctx;

/* Shape i's line (ordered_write's item). */
static void put_shape_at(void *ctx, json_line *b, jl_memo *m, size_t i)
{
    const shapes_ctx *c = ctx;
    tlv_shape_info sh;
    tlv_shapes_get(c->shapes, i, &sh);
    put_shape(b, m, &sh, c->radix);
}

/* Writes the shapes, or the flows with --flows. Returns 0, -1 when writing
 * failed, -2 when memory ran out. */
static int write_shapes(FILE *out, const shapes_args *a, const tlv_trace *trace,
                        const tlv_shapes *shapes, int radix)
{
    if (!a->flows) { /* on several threads, written in order */
        size_t n = tlv_shapes_count(shapes);
        shapes_ctx c = {shapes, radix};
        return ordered_write(out, n, ordered_write_threads(a->c.rules.threads, n), put_shape_at, &c);
    }
    json_line b = {0};
    int rc = 0;
    for (size_t i = 0; i < tlv_shapes_flow_count(shapes) && rc == 0; i++) {
        tlv_flow_info f;
        tlv_shapes_flow(shapes, i, &f);
        rc = print_flow(out, &b, trace, &f, radix);
    }
    int nomem = b.failed;
    jl_free(&b);
    return nomem ? -2 : rc; /* -2: memory ran out (cmd_shapes reports it) */
}

static int parse_shapes_args(shapes_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    if (parse_common_args("shapes", shapes_help, OPT_OUTPUT | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
                          &a->c, shapes_option, a, argc, argv) < 0 ||
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
            int w = write_shapes(out, &a, trace, shapes, tlv_rules_time_radix(rules));
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
