/*
 * cli.h — shared pieces of the `tlv` command: argument parsing helpers,
 * diagnostics printing, the progress bar, and the subcommands' entry points.
 */
#ifndef TLV_CLI_H
#define TLV_CLI_H

#include <tlv/tlv.h>

#include <stdio.h>

#define EXIT_OK 0
#define EXIT_PARTIAL 1
#define EXIT_USAGE 2

/* Options shared by every subcommand that loads rules. */
typedef struct rule_args {
    const char *dirs[64];
    size_t ndirs;
    const char *res_path;
    int allow_scripts;
} rule_args;

/* Consumes -R DIR / -r FILE / --allow-scripts at argv[*i] (also -RDIR and
 * --rules=DIR forms). Returns 1 when consumed, 0 when not a rule option, -1
 * on a usage error (message printed). */
int parse_rule_arg(rule_args *ra, int argc, char **argv, int *i);

/* Loads rules per ra; prints every diagnostic; returns NULL on error. */
tlv_rules *load_rules(const rule_args *ra);

/* Prints up to `max` diagnostics (0 = all) and a line counting the rest. */
void print_diags(const tlv_diags *d, size_t max);

/* The name of the program for messages: "tlv". */
extern const char *prog;

void usage_error(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Progress bar on stderr, shown only on a terminal. */
typedef struct progress {
    int enabled;
    unsigned long long total_bytes; /* 0 when unknown (a pipe) */
    double start, last;
} progress;

void progress_start(progress *p, int enabled, unsigned long long total_bytes);
void progress_update(progress *p, unsigned long long bytes, unsigned long long lines);
void progress_end(progress *p);
double now_seconds(void);

/* Loads rules and converts `input` into a trace, printing diagnostics.
 * Returns EXIT_OK, EXIT_PARTIAL (conversion errors) or EXIT_USAGE (nothing
 * usable); the caller frees what was set. */
int load_trace(const rule_args *ra, const char *input, tlv_rules **rules, tlv_trace **trace);

/* Loads rules, converts `input` into a trace and builds its shapes, printing
 * diagnostics. Returns EXIT_OK, EXIT_PARTIAL (made, with errors) or
 * EXIT_USAGE (nothing usable); the caller frees what was set. */
int load_trace_and_shapes(const rule_args *ra, const char *input, const char *cpu_attribute,
                          tlv_rules **rules, tlv_trace **trace, tlv_shapes **shapes);

/* A trace time as a base-10 number for JSON or CSV: exact for integers and
 * radix-10 fractions, else the nearest double (%.17g). buf: 160 bytes. */
void time_text(tlv_time t, int radix, char *buf, size_t size);

int cmd_convert(int argc, char **argv);
int cmd_shapes(int argc, char **argv);
int cmd_render(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_view(int argc, char **argv);

#endif
