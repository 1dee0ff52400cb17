/*
 * cmd_check.c — `tlv check`: validates rule and resource files without a
 * log and lists every problem found as file:line:col: message.
 */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

static const char check_help[] =
    "usage: tlv check [-R DIR]... [-r FILE.res] [FILE...]\n"
    "\n"
    "Checks rule files (.cnv .resh .viz) and resource files (.res) without a log:\n"
    "the JSON dialect, that every regex compiles, that templates and macro names\n"
    "are well formed, and that the types, attributes, behaviors, shapes and\n"
    "targets they refer to exist. With -r, the resource file is checked together\n"
    "with every target it requests from the rule path.\n"
    "\n"
    "Every problem is listed (not only the first) as file:line:col: message.\n"
    "Exit status: 0 no errors (warnings allowed), 1 errors found, 2 bad usage.\n";

int cmd_check(int argc, char **argv)
{
    rule_args ra;
    memset(&ra, 0, sizeof ra);
    const char **files = calloc((size_t)argc, sizeof *files);
    size_t nfiles = 0;
    if (!files)
        return EXIT_USAGE;
    for (int i = 1; i < argc; i++) {
        int r = parse_rule_arg(&ra, argc, argv, &i);
        if (r < 0) {
            free(files);
            return EXIT_USAGE;
        }
        if (r > 0)
            continue;
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            fputs(check_help, stdout);
            free(files);
            return EXIT_OK;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            usage_error("check", "unknown option '%s'", argv[i]);
            free(files);
            return EXIT_USAGE;
        }
        files[nfiles++] = argv[i];
    }
    if (!nfiles && !ra.res_path) {
        usage_error("check", "nothing to check: give rule files and/or -r FILE.res");
        free(files);
        return EXIT_USAGE;
    }
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = ra.dirs;
    o.n_search_dirs = ra.ndirs;
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_check(ra.res_path, files, nfiles, &o, &rules);
    free(files);
    if (!rules)
        return EXIT_USAGE;
    const tlv_diags *d = tlv_rules_diags(rules);
    print_diags(d, 0);
    size_t errors = tlv_diags_errors(d), total = tlv_diags_count(d) + tlv_diags_dropped(d);
    fprintf(stderr, "%s check: %zu error%s, %zu warning%s\n", prog, errors, errors == 1 ? "" : "s",
            total - errors, total - errors == 1 ? "" : "s");
    tlv_rules_free(rules);
    return st == TLV_OK ? EXIT_OK : 1;
}
