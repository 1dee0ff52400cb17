/*
 * main.c — the `tlv` command: dispatches to its subcommands.
 */
#include "cli/cli.h"

#include <string.h>

static const char main_help[] =
    "usage: tlv COMMAND [options]\n"
    "\n"
    "tlv converts text trace logs into standard-form traces with TraceLogVisualizer\n"
    "(TLV) rule files, and checks rule files.\n"
    "\n"
    "commands:\n"
    "  convert   convert a log into a standard-form trace\n"
    "  check     check rule and resource files without a log\n"
    "  shapes    print the shapes the visualization rules draw, as JSON Lines\n"
    "  render    draw the timeline of a log into a PNG image\n"
    "  export    write the drawn trace as Chrome Trace Event JSON (Perfetto), CSV or SQLite\n"
    "  query     run SQL over a trace (a log, or a database from export)\n"
    "  stats     time spent per resource and state, CPU utilization per processor\n"
    "  view      open a window with the timeline of a log, to zoom, pan and mark\n"
    "  version   print the version\n"
    "\n"
    "'tlv COMMAND --help' documents each command. Rule files are found with -R DIR,\n"
    "then TLV_RULES_PATH (colon-separated directories), then the installed rules.\n";

int main(int argc, char **argv)
{
    json_count_failures();
    sql_count_failures();
    if (argc < 2) {
        fputs(main_help, stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
        fputs(main_help, stdout);
        return EXIT_OK;
    }
    if (strcmp(cmd, "version") == 0 || strcmp(cmd, "--version") == 0) {
        printf("tlv %s\n", tlv_version());
        return EXIT_OK;
    }
    if (strcmp(cmd, "convert") == 0)
        return cmd_convert(argc - 1, argv + 1);
    if (strcmp(cmd, "shapes") == 0)
        return cmd_shapes(argc - 1, argv + 1);
    if (strcmp(cmd, "render") == 0)
        return cmd_render(argc - 1, argv + 1);
    if (strcmp(cmd, "view") == 0)
        return cmd_view(argc - 1, argv + 1);
    if (strcmp(cmd, "check") == 0)
        return cmd_check(argc - 1, argv + 1);
    if (strcmp(cmd, "export") == 0)
        return cmd_export(argc - 1, argv + 1);
    if (strcmp(cmd, "query") == 0)
        return cmd_query(argc - 1, argv + 1);
    if (strcmp(cmd, "stats") == 0)
        return cmd_stats(argc - 1, argv + 1);
    fprintf(stderr, "%s: unknown command '%s'\n\n%s", prog, cmd, main_help);
    return EXIT_USAGE;
}
