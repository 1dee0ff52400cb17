/*
 * options.c — the options every tlv command shares: rule options (-R, -r,
 * --allow-scripts, --std, --unmatched, --no-cache, --cache-info, --threads),
 * the common ones (-o, -q,
 * --per-cpu) in one parsing loop for every subcommand that reads a log, and
 * usage errors.
 */
#include "common/common.h"

#include <getopt.h>
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

/* A shared option: the commands whose `which` has `flag` take it (0: all). */
typedef struct shared_option {
    cli_option o;
    unsigned flag;
} shared_option;

static const shared_option shared[] = {
    {{"rules", 'R', "DIR"}, OPT_RULES},
    {{"resources", 'r', "FILE.res"}, OPT_RULES},
    {{"allow-scripts", 0, NULL}, OPT_RULES},
    {{"std", 0, NULL}, OPT_RULES},
    {{"unmatched", 0, "FILE"}, OPT_UNMATCHED},
    {{"no-cache", 0, NULL}, OPT_CACHE},
    {{"cache-info", 0, NULL}, OPT_CACHE},
    {{"output", 'o', "OUT"}, OPT_OUTPUT},
    {{"quiet", 'q', NULL}, OPT_QUIET},
    {{"per-cpu", 0, NULL}, OPT_PER_CPU},
    {{"cpu-attribute", 0, "NAME"}, OPT_CPU_ATTRIBUTE},
    {{"threads", 0, "N"}, OPT_THREADS},
    {{"help", 'h', NULL}, 0},
};
#define NSHARED (sizeof shared / sizeof *shared)

size_t shared_options(unsigned which, const cli_option **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < NSHARED; i++)
        if (!shared[i].flag || (which & shared[i].flag)) {
            if (n < max)
                out[n] = &shared[i].o;
            n++;
        }
    return n;
}

const char *command_help(const command_options *o)
{
    return o->help ? o->help : o->help_text();
}

/* The shared option `name` with `value` (NULL for a flag). 0, or -1 on a
 * usage error (printed). */
static int take_shared(const command_options *o, common_args *c, const char *name,
                       const char *value)
{
    if (strcmp(name, "help") == 0) {
        fputs(command_help(o), stdout);
        exit(EXIT_OK);
    }
    if (strcmp(name, "quiet") == 0)
        c->quiet = 1;
    else if (strcmp(name, "output") == 0)
        c->output = value;
    else if (strcmp(name, "per-cpu") == 0)
        c->cpu_attribute = c->cpu_attribute ? c->cpu_attribute : "prcId";
    else if (strcmp(name, "cpu-attribute") == 0)
        c->cpu_attribute = value;
    else if (strcmp(name, "threads") == 0) {
        char *end;
        long n = strtol(value, &end, 10);
        if (*end || n < 1 || n > 64) {
            fprintf(stderr, "%s: --threads needs a number from 1 to 64, got '%s'\n", prog, value);
            return -1;
        }
        c->rules.threads = (int)n;
    } else { /* a rule option: parse_rule_arg's checks and messages */
        char flag[64];
        snprintf(flag, sizeof flag, "--%s", name);
        char *args[] = {flag, (char *)value, NULL};
        int i = 0;
        return parse_rule_arg(&c->rules, value ? 2 : 1, args, &i) < 0 ? -1 : 0;
    }
    return 0;
}

/* The command's own option `name` with `value`, through its handler, which
 * sees {"--NAME", VALUE}. */
static int take_own(const command_options *o, void *own_args, const char *name,
                    const char *value)
{
    char flag[64];
    snprintf(flag, sizeof flag, "--%s", name);
    char *args[] = {flag, (char *)value, NULL};
    int i = 0;
    int r = o->handler ? o->handler(own_args, value ? 2 : 1, args, &i) : 0;
    if (r == 0)
        usage_error(o->cmd, "unknown option '%s'", flag);
    return r < 0 ? -1 : 0;
}

/* A word that is not an option: LOG, then the command's other arguments. */
static int take_argument(const command_options *o, common_args *c, void *own_args,
                         const char *arg)
{
    if (!c->input) {
        c->input = arg;
        return 0;
    }
    int r = o->argument ? o->argument(own_args, arg) : 0;
    if (r == 0)
        usage_error(o->cmd, "one log at a time ('%s' and '%s' given)", c->input, arg);
    return r < 0 ? -1 : 0;
}

/* Most options parse_options knows: the command's own and the shared. */
#define MAX_OPTIONS 64

typedef struct option_set {
    struct option longs[MAX_OPTIONS + 1];
    const cli_option *opt[MAX_OPTIONS];
    int own[MAX_OPTIONS];                 /* 1: the command's own */
    char shorts[3 * MAX_OPTIONS + 4];     /* "-:" then "f:" "q" ... */
    size_t n;
} option_set;

/* Adds o unless an option of that name is there (the command's own come
 * first and win over a shared one of the same name: convert's --threads). */
static void add_option(option_set *s, const cli_option *o, int own)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->opt[i]->name, o->name) == 0)
            return;
    if (s->n == MAX_OPTIONS)
        return;
    s->longs[s->n] = (struct option){o->name, o->value ? required_argument : no_argument, NULL,
                                     (int)s->n + 256};
    s->opt[s->n] = o;
    s->own[s->n++] = own;
    if (o->short_name && !strchr(s->shorts + 2, o->short_name)) {
        size_t k = strlen(s->shorts);
        s->shorts[k++] = o->short_name;
        if (o->value)
            s->shorts[k++] = ':';
        s->shorts[k] = 0;
    }
}

static void build_option_set(option_set *s, const command_options *o)
{
    memset(s, 0, sizeof *s);
    strcpy(s->shorts, "-:"); /* arguments in order (1), a missing value is ':' */
    for (const cli_option *p = o->own; p && p->name; p++)
        add_option(s, p, 1);
    for (size_t i = 0; i < NSHARED; i++)
        if (!shared[i].flag || (o->which & shared[i].flag))
            add_option(s, &shared[i].o, 0);
}

/* The option getopt_long returned as `code` (a short name or 256 + index),
 * or -1. */
static int option_index(const option_set *s, int code)
{
    if (code >= 256)
        return code - 256;
    for (size_t i = 0; i < s->n; i++)
        if (s->opt[i]->short_name == code)
            return (int)i;
    return -1;
}

/* The option as typed, for messages: "-z", or "--bogus" without "=value". */
static void typed_option(char **argv, int optopt_seen, char *out, size_t size)
{
    if (optopt_seen) {
        snprintf(out, size, "-%c", optopt_seen);
        return;
    }
    const char *w = argv[optind - 1];
    size_t n = strcspn(w, "=");
    snprintf(out, size, "%.*s", (int)n, w);
}

/* An option getopt_long did not know may still be one the handler knows
 * (a command without a table, parse_common_args, or an option its table
 * lacks: test_man checks that none does): offered as typed at argv[at],
 * its value in the next word. 1 taken, 0 not, -1 error. */
static int legacy_option(const command_options *o, void *own_args, int argc, char **argv, int at,
                         const char *typed)
{
    if (!o->handler || at < 1 || strcmp(argv[at], typed) != 0)
        return 0; /* "--name=value", or a short option inside a bundle */
    int i = at;
    int r = o->handler(own_args, argc, argv, &i);
    if (r > 0)
        optind = i + 1;
    return r;
}

int parse_options(const command_options *o, common_args *c, void *own_args, int argc,
                  char **argv)
{
    option_set s;
    build_option_set(&s, o);
    optind = 0; /* glibc: start afresh */
    opterr = 0;
    int code, longind;
    while ((code = getopt_long(argc, argv, s.shorts, s.longs, &longind)) != -1) {
        if (code == 1) {
            if (take_argument(o, c, own_args, optarg) < 0)
                return -1;
            continue;
        }
        if (code == '?' || code == ':') {
            char typed[200];
            typed_option(argv, optopt >= 256 ? 0 : optopt, typed, sizeof typed);
            int r = code == '?' ? legacy_option(o, own_args, argc, argv, optind - 1, typed) : 0;
            if (r > 0)
                continue;
            if (r == 0 && code == '?')
                usage_error(o->cmd, "unknown option '%s'", typed);
            else if (r == 0)
                fprintf(stderr, "%s: option %s needs %s\n", prog, typed,
                        strcmp(typed, "--unmatched") == 0 ? "a file name" : "a value");
            return -1;
        }
        int k = option_index(&s, code);
        if (k < 0)
            continue;
        int r = s.own[k] ? take_own(o, own_args, s.opt[k]->name, optarg)
                         : take_shared(o, c, s.opt[k]->name, optarg);
        if (r < 0)
            return -1;
    }
    for (int i = optind; i < argc; i++) /* after "--": arguments, even "-x" */
        if (take_argument(o, c, own_args, argv[i]) < 0)
            return -1;
    c->rules.input_path = c->input; /* for the outputs-over-inputs check */
    c->rules.output_path = c->output;
    return 0;
}

int parse_common_args(const char *cmd, const char *help, unsigned which, common_args *c,
                      own_option_fn own, void *own_args, int argc, char **argv)
{
    command_options o = {cmd, help, NULL, which | OPT_RULES | OPT_UNMATCHED | OPT_CACHE, NULL, own, NULL};
    return parse_options(&o, c, own_args, argc, argv);
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
