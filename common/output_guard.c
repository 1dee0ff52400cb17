/*
 * output_guard.c — refusing an output that is one of the inputs: -o OUT or
 * --unmatched FILE naming the log, the resource file or a rule file that was
 * read (compared by inode, so another path to the same file is caught too).
 * Before, `--unmatched LOG` emptied the log before it was read (the run
 * said 0 lines, exit 0), and `-o LOG` replaced it once the run was done.
 */
#include "common/common.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* An output file as it is now: only an existing regular file can be an
 * input overwritten (a new file is no input; /dev/null and pipes are
 * written, not replaced). */
static int existing_file(const char *path, struct stat *st)
{
    return path && strcmp(path, "-") != 0 && stat(path, st) == 0 && S_ISREG(st->st_mode);
}

static int same_file(const struct stat *a, const struct stat *b)
{
    return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Whether `path` (an input; "-": standard input) is the file of `out`. */
static int is_input(const char *path, const struct stat *out)
{
    struct stat st;
    if (!path)
        return 0;
    if (strcmp(path, "-") == 0)
        return fstat(STDIN_FILENO, &st) == 0 && same_file(&st, out);
    return stat(path, &st) == 0 && same_file(&st, out);
}

/* "-o 'x' is the log being read" or "... is the same file as the log being
 * read, 'y'"; returns 1. */
static int refuse(const char *opt, const char *output, const char *what, const char *input)
{
    if (!input || strcmp(output, input) == 0)
        fprintf(stderr, "%s: %s '%s' is %s; refusing to write over it\n", prog, opt, output,
                what);
    else
        fprintf(stderr, "%s: %s '%s' is the same file as %s, '%s'; refusing to write over it\n",
                prog, opt, output, what, input);
    return 1;
}

/* Checks one output against every input. */
static int overwrites(const char *opt, const char *output, const rule_args *ra,
                      const tlv_rules *rules)
{
    struct stat out;
    if (!existing_file(output, &out))
        return 0;
    if (is_input(ra->input_path, &out))
        return strcmp(ra->input_path, "-") == 0
                   ? refuse(opt, output, "the log being read (standard input)", NULL)
                   : refuse(opt, output, "the log being read", ra->input_path);
    if (is_input(ra->res_path, &out))
        return refuse(opt, output, "the resource file", ra->res_path);
    for (size_t i = 0; i < sizeof ra->more_inputs / sizeof *ra->more_inputs; i++)
        if (is_input(ra->more_inputs[i], &out))
            return refuse(opt, output, ra->more_input_whats[i], ra->more_inputs[i]);
    for (size_t i = 0; i < tlv_rules_file_count(rules); i++)
        if (is_input(tlv_rules_file(rules, i), &out))
            return refuse(opt, output, "a rule file that was read", tlv_rules_file(rules, i));
    return 0;
}

/* Whether two outputs name one file: by name, or by inode when both exist. */
static int same_output(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return 0;
    return strcmp(a, b) == 0 ||
           (existing_file(a, &sa) && existing_file(b, &sb) && same_file(&sa, &sb));
}

int outputs_overwrite_inputs(const rule_args *ra, const tlv_rules *rules)
{
    enum { N = 2 + sizeof ra->more_outputs / sizeof *ra->more_outputs };
    const char *path[N] = {ra->output_path, ra->unmatched_path};
    const char *opt[N] = {"-o", "--unmatched"};
    for (size_t i = 2; i < N; i++) {
        path[i] = ra->more_outputs[i - 2];
        opt[i] = ra->more_output_opts[i - 2];
    }
    for (size_t i = 0; i < N; i++)
        if (path[i] && overwrites(opt[i], path[i], ra, rules))
            return 1;
    for (size_t i = 0; i < N; i++)
        for (size_t j = i + 1; j < N; j++)
            if (same_output(path[i], path[j])) {
                fprintf(stderr, "%s: %s and %s name the same file '%s'\n", prog, opt[i], opt[j],
                        path[j]);
                return 1;
            }
    return 0;
}
