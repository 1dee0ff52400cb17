/*
 * cli.h — the tlv command's subcommands (cli/cmd_*.c, one file per command)
 * and what several of them share beyond common/common.h: a log loaded into
 * a trace and its shapes, and times as text.
 */
#ifndef TLV_CLI_H
#define TLV_CLI_H

#include "common/common.h"

/* Loads rules and converts `input` into a trace, printing diagnostics.
 * Returns EXIT_OK, EXIT_PARTIAL (conversion errors) or EXIT_USAGE (nothing
 * usable); the caller frees what was set. */
int load_trace(const rule_args *ra, const char *input, tlv_rules **rules, tlv_trace **trace);

/* Loads rules, converts `input` into a trace and builds its shapes, printing
 * diagnostics; `listing_only` as in tlv_shapes_options (for commands that
 * list the shapes and never draw nor query them by time). Returns EXIT_OK,
 * EXIT_PARTIAL (made, with errors) or EXIT_USAGE (nothing usable); the
 * caller frees what was set. */
int load_trace_and_shapes(const rule_args *ra, const char *input, const char *cpu_attribute,
                          int listing_only, tlv_rules **rules, tlv_trace **trace,
                          tlv_shapes **shapes);

/* A trace time as a base-10 number for JSON or CSV: exact for integers and
 * radix-10 fractions, else the nearest double (%.17g). buf: 160 bytes. */
void time_text(tlv_time t, int radix, char *buf, size_t size);
/* The duration to - from (to >= from) the same way, right over the whole range
 * of times: a span past 2^63 ticks is written whole, never wrapped. */
void span_text(tlv_time from, tlv_time to, int radix, char *buf, size_t size);

/* A command (cli/cmd_NAME.c) defines its entry, called with argv[0] =
 * "NAME", and its help text, which `tlv NAME --help` and `tlv help NAME`
 * print; main.c's commands[] table names both. */
#define CLI_COMMAND(name)                    \
    int cmd_##name(int argc, char **argv); \
    extern const char name##_help[]

CLI_COMMAND(convert);
CLI_COMMAND(shapes);
CLI_COMMAND(render);
CLI_COMMAND(check);
CLI_COMMAND(export);
CLI_COMMAND(query);
CLI_COMMAND(stats);
CLI_COMMAND(view);

#endif
