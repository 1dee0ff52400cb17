/*
 * main.c — the `tlv` command: the commands[] table, and the dispatch, the
 * command list (`tlv --help`), `tlv help [COMMAND]`, `tlv version` and the
 * unknown-command error built from it.
 *
 * Adding a command: write cli/cmd_NAME.c with `int cmd_NAME(int argc, char
 * **argv)` and `const command_options NAME_options` (its help and options),
 * declare both with CLI_COMMAND(NAME) in cli.h, and add its row below
 * (docs/architecture.md, "Adding a command").
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help_help[] =
    "usage: tlv help [COMMAND]\n"
    "\n"
    "Without COMMAND, lists the commands; with one, prints its help (what\n"
    "'tlv COMMAND --help' prints).\n"
    "\n"
    "Exit status: 0 ok; 2 unknown command.\n";

static const char version_help[] =
    "usage: tlv version\n"
    "       tlv --version\n"
    "       tlv -V\n"
    "\n"
    "Prints the version of tlv (and of libtlv, which it is built with).\n";

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const command_options help_options = {"help", help_help, NULL, 0, NULL, NULL, NULL};
static const command_options version_options = {"version", version_help, NULL, 0, NULL, NULL,
                                                NULL};

/* Every command, in the order `tlv --help` lists them. */
static const cli_command commands[] = {
    {"convert", "convert a log into a standard-form trace", cmd_convert, &convert_options},
    {"check", "check rule and resource files without a log", cmd_check, &check_options},
    {"shapes", "print the shapes the visualization rules draw, as JSON Lines", cmd_shapes,
     &shapes_options},
    {"render", "draw the timeline of a log into a PNG image", cmd_render, &render_options},
    {"export", "write the drawn trace as Chrome Trace Event JSON (Perfetto), CSV or SQLite",
     cmd_export, &export_options},
    {"query", "run SQL over a trace (a log, or a database from export)", cmd_query,
     &query_options},
    {"stats", "time spent per resource and state, CPU utilization per processor", cmd_stats,
     &stats_options},
    {"diff", "compare two runs: time per actor and state, response times, side by side",
     cmd_diff, &diff_options},
    {"verify", "check timing requirements (response times, latencies, CPU load) on a log",
     cmd_verify, &verify_options},
    {"record", "run a command under strace, ltrace, uftrace or perf sched, then view its log",
     cmd_record, &record_options},
    {"view", "open a window with the timeline of a log, to zoom, pan and mark", cmd_view,
     &view_options},
    {"completion", "print the bash or zsh completion of tlv", cmd_completion,
     &completion_options},
    {"help", "list the commands, or print one's help: tlv help COMMAND", cmd_help, &help_options},
    {"version", "print the version", cmd_version, &version_options},
};
#define NCOMMANDS (sizeof commands / sizeof *commands)

const cli_command *cli_commands(size_t *n)
{
    *n = NCOMMANDS;
    return commands;
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

/* `tlv --help`: what tlv is, then a line per row of the table. */
static void print_main_help(FILE *f)
{
    fputs("usage: tlv COMMAND [options]\n"
          "\n"
          "tlv converts text trace logs into standard-form traces with TraceLogVisualizer\n"
          "(TLV) rule files, and checks rule files.\n"
          "\n"
          "commands:\n",
          f);
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
    fputs("\n"
          "'tlv COMMAND --help' documents each command. Rule files are found with -R DIR,\n"
          "then TLV_RULES_PATH (colon-separated directories), then the installed rules.\n",
          f);
}

static int unknown_command(const char *name)
{
    fprintf(stderr, "%s: unknown command '%s'\n\n", prog, name);
    print_main_help(stderr);
    return EXIT_USAGE;
}

static int is_help_option(const char *s)
{
    return strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0;
}

static int cmd_help(int argc, char **argv)
{
    if (argc < 2) {
        print_main_help(stdout);
        return EXIT_OK;
    }
    if (is_help_option(argv[1])) {
        fputs(help_help, stdout);
        return EXIT_OK;
    }
    if (argc > 2) {
        usage_error("help", "one command at a time ('%s' and '%s' given)", argv[1], argv[2]);
        return EXIT_USAGE;
    }
    const cli_command *c = find_command(argv[1]);
    if (!c)
        return unknown_command(argv[1]);
    fputs(command_help(c->options), stdout);
    return EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
    if (argc > 1 && is_help_option(argv[1])) {
        fputs(version_help, stdout);
        return EXIT_OK;
    }
    if (argc > 1) {
        usage_error("version", "takes no arguments ('%s' given)", argv[1]);
        return EXIT_USAGE;
    }
    printf("tlv %s\n", tlv_version());
    return EXIT_OK;
}

/* Whatever went to standard output must have arrived: `tlv query >
 * /dev/full` exited 2 without a word and `tlv --help > /dev/full` exited 0.
 * Checked at exit, so that every way out is covered (a --help deep in a
 * command's option parsing calls exit); a failure there ends the process
 * with EXIT_USAGE. (close_output reports its own failure and clears the
 * error, so it is not said twice.) */
static void check_standard_output(void)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return;
    fprintf(stderr, "%s: cannot write to standard output: %s\n", prog,
            errno ? strerror(errno) : "a write failed");
    _exit(EXIT_USAGE);
}

int main(int argc, char **argv)
{
    atexit(check_standard_output);
    json_count_failures();
    sql_count_failures();
    if (argc < 2) {
        print_main_help(stderr);
        return EXIT_USAGE;
    }
    const char *name = argv[1];
    if (is_help_option(name))
        return cmd_help(1, argv + 1);
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0)
        return cmd_version(1, argv + 1);
    const cli_command *c = find_command(name);
    if (!c)
        return unknown_command(name);
    return c->run(argc - 1, argv + 1);
}
