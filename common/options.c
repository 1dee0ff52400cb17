/*
 * options.c — the options every tlv command shares: rule options (-R, -r,
 * --allow-scripts, --std, --unmatched, --no-cache, --cache-info, --threads),
 * the common ones (-o, -q,
 * --per-cpu) in one parsing loop for every subcommand that reads a log, and
 * usage errors.
 */
#include "common/common.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *prog = "tlv";

void usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "%s %s: ", prog, cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see '%s %s --help')\n", prog, cmd);
}

int reads_standard_form(const rule_args *ra, const char *input)
{
    size_t n = input ? strlen(input) : 0;
    return ra->std_input || (n > 4 && strcmp(input + n - 4, ".std") == 0);
}

int parse_rule_arg(rule_args *ra, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    const char **slot = NULL;
    const char *val = NULL;
    if (strcmp(a, "--allow-scripts") == 0) {
        ra->allow_scripts = 1;
        return 1;
    }
    if (strcmp(a, "--std") == 0) {
        ra->std_input = 1;
        return 1;
    }
    if (strcmp(a, "--no-cache") == 0) {
        ra->no_cache = 1;
        return 1;
    }
    if (strcmp(a, "--cache-info") == 0) {
        ra->cache_info = 1;
        return 1;
    }
    if (strcmp(a, "--unmatched") == 0 || strncmp(a, "--unmatched=", 12) == 0) {
        const char *v = a[11] == '=' ? a + 12 : *i + 1 < argc ? argv[++*i] : NULL;
        if (!v || !*v) {
            fprintf(stderr, "%s: option --unmatched needs a file name\n", prog);
            return -1;
        }
        ra->unmatched_path = v;
        return 1;
    }
    if (strcmp(a, "-R") == 0 || strcmp(a, "--rules") == 0 || strncmp(a, "--rules=", 8) == 0 ||
        (strncmp(a, "-R", 2) == 0 && a[2])) {
        if (ra->ndirs == sizeof ra->dirs / sizeof *ra->dirs) {
            fprintf(stderr, "%s: too many -R options (at most 64)\n", prog);
            return -1;
        }
        slot = &ra->dirs[ra->ndirs++];
    } else if (strcmp(a, "-r") == 0 || strcmp(a, "--resources") == 0 ||
               strncmp(a, "--resources=", 12) == 0 || (strncmp(a, "-r", 2) == 0 && a[2])) {
        slot = &ra->res_path;
    } else {
        return 0;
    }
    const char *eq = strchr(a, '=');
    if (a[1] != '-' && a[2])
        val = a + 2;
    else if (a[1] == '-' && eq)
        val = eq + 1;
    else if (*i + 1 < argc)
        val = argv[++*i];
    if (!val || !*val) {
        fprintf(stderr, "%s: option %s needs a value\n", prog, a);
        return -1;
    }
    *slot = val;
    return 1;
}

/* A shared option in `which` at argv[*i]: 1 consumed, 0 not one. */
static int parse_shared_option(unsigned which, common_args *c, int argc, char **argv, int *i)
{
    const char *s = argv[*i];
    int has_value = *i + 1 < argc;
    if ((which & OPT_QUIET) && (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0))
        c->quiet = 1;
    else if ((which & OPT_OUTPUT) && (strcmp(s, "-o") == 0 || strcmp(s, "--output") == 0) &&
             has_value)
        c->output = argv[++*i];
    else if ((which & OPT_PER_CPU) && strcmp(s, "--per-cpu") == 0)
        c->cpu_attribute = c->cpu_attribute ? c->cpu_attribute : "prcId";
    else if ((which & OPT_CPU_ATTRIBUTE) && strcmp(s, "--cpu-attribute") == 0 && has_value)
        c->cpu_attribute = argv[++*i];
    else if ((which & OPT_THREADS) && strcmp(s, "--threads") == 0 && has_value) {
        char *end;
        long n = strtol(argv[++*i], &end, 10);
        if (*end || n < 1 || n > 64) {
            fprintf(stderr, "%s: --threads needs a number from 1 to 64, got '%s'\n", prog, argv[*i]);
            return -1;
        }
        c->rules.threads = (int)n;
    } else
        return 0;
    return 1;
}

int parse_common_args(const char *cmd, const char *help, unsigned which, common_args *c,
                      own_option_fn own, void *own_args, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *s = argv[i];
        int r = parse_rule_arg(&c->rules, argc, argv, &i);
        if (r == 0 && s[0] == '-' && s[1]) {
            if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
                fputs(help, stdout);
                exit(EXIT_OK);
            }
            r = parse_shared_option(which, c, argc, argv, &i);
            if (r == 0 && own)
                r = own(own_args, argc, argv, &i);
            if (r == 0) {
                usage_error(cmd, "unknown option '%s'", s);
                return -1;
            }
        } else if (r == 0 && c->input) {
            usage_error(cmd, "one log at a time ('%s' and '%s' given)", c->input, s);
            return -1;
        } else if (r == 0) {
            c->input = s;
        }
        if (r < 0)
            return -1;
    }
    return 0;
}

int need_resource_file(const char *cmd, const common_args *c)
{
    if (c->rules.res_path)
        return 0;
    usage_error(cmd, "a resource file is needed: -r FILE.res");
    return -1;
}

int need_input(const char *cmd, const common_args *c)
{
    if (c->input)
        return 0;
    usage_error(cmd, "no log given (use '-' for standard input)");
    return -1;
}
