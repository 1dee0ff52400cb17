/*
 * cli.h — the tlv command's subcommands (cli/cmd_*.c, one file per command)
 * and what several of them share beyond common/common.h: a log loaded into
 * a trace and its shapes, a session's markers, and SQLite's allocator.
 */
#ifndef TLV_CLI_H
#define TLV_CLI_H

#include "common/common.h"

#include <tlv/export.h>

#include <signal.h>
#include <sqlite3.h>

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

/* The markers of a `tlv view` session file for libtlv-export (NULL
 * session: none). Returns 0, or -1 with the problem said ("tlv CMD: no
 * session 'FILE'"). Free with session_markers_free. */
int session_markers(const char *session, const char *cmd, tlv_export_marker **out, size_t *n);
void session_markers_free(tlv_export_marker *m, size_t n);

/* The locked-down SQLite connection of `tlv query` (sql_guard.c). */
typedef struct sql_guard {
    sqlite3 *db;
    double timeout;       /* --timeout SECONDS per statement; 0: none */
    double deadline;      /* now_seconds() when the statement stops; 0: none */
    const char *stopped;  /* why the progress handler stopped it, or NULL */
    char refused[512];    /* why the authorizer refused it, or "" */
    struct sigaction old; /* SIGINT's disposition before the statement */
    int have_old;
} sql_guard;
/* Locks db down (SQLite's switches, the authorizer, the progress handler).
 * Returns 0, or -1 when SQLite refused a switch. */
int sql_guard_install(sql_guard *g, sqlite3 *db, double timeout);
/* Around each statement: the deadline starts, and Ctrl+C stops the
 * statement instead of tlv (the previous SIGINT disposition comes back at
 * the end). */
void sql_guard_begin(sql_guard *g);
void sql_guard_end(sql_guard *g);
/* Whether Ctrl+C came since the last sql_guard_begin. */
int sql_guard_interrupted(void);

/* `tlv query`'s shell (query_shell.c): runs SQL typed at a terminal, or
 * read from standard input, through run (0, or -1 for an error, said). */
typedef struct query_shell_ctx {
    const char *input;                                  /* the trace's name */
    sqlite3 *db;
    int (*run)(struct query_shell_ctx *ctx, const char *sql);
    int (*set_mode)(struct query_shell_ctx *ctx, const char *mode); /* -1: unknown */
    void *user;
} query_shell_ctx;
/* Returns an exit status. */
int query_shell(query_shell_ctx *ctx);
/* The whole of f, NUL-terminated (malloc'ed), or NULL with the problem said. */
char *query_read_all(FILE *f, const char *name);

/* SQLite's allocator, counting failures (sql_alloc.c): main() installs it
 * before any other SQLite call; `tlv query` compares the count before and
 * after running SQL. */
void sql_count_failures(void);
unsigned long sql_alloc_failures(void);

/* A trace time as a base-10 number for JSON or text: exact for integers
 * and radix-10 fractions, else the nearest double (%.17g). buf: 160 bytes. */
void cli_time_text(tlv_time t, int radix, char *buf, size_t size);

/* A command (cli/cmd_NAME.c) defines its entry, called with argv[0] =
 * "NAME", and how it reads its arguments: NAME_options, with its help
 * (printed by `tlv NAME --help` and `tlv help NAME`) and its own options
 * (parse_options, `tlv completion`). main.c's commands[] table names both. */
#define CLI_COMMAND(name)                    \
    int cmd_##name(int argc, char **argv); \
    extern const command_options name##_options

CLI_COMMAND(convert);
CLI_COMMAND(shapes);
CLI_COMMAND(render);
CLI_COMMAND(check);
CLI_COMMAND(export);
CLI_COMMAND(query);
CLI_COMMAND(stats);
CLI_COMMAND(view);
CLI_COMMAND(verify);
CLI_COMMAND(record);
CLI_COMMAND(diff);
CLI_COMMAND(completion);

/* A row of main.c's commands[] table. */
typedef struct cli_command {
    const char *name;
    const char *summary; /* its line in `tlv --help` */
    int (*run)(int argc, char **argv);
    const command_options *options; /* its help and options */
} cli_command;

/* The table, in the order `tlv --help` lists it (for `tlv completion`). */
const cli_command *cli_commands(size_t *n);

#endif
