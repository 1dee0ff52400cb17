/*
 * unmatched.c — lines no conversion rule matched are never silent: every
 * command that converts counts them, names the first few after its run,
 * and with --unmatched FILE writes each one there as "LINE: text" (through
 * a temporary file, like -o: on a full disk or a failed run the old FILE is
 * kept, where it was truncated and lost).
 */
#include "common/common.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void note_unmatched(void *user, uint64_t line, const char *text, size_t len)
{
    unmatched_log *u = user;
    if (u->count < u->show) {
        u->first[u->count] = line;
        u->first_text[u->count] = strndup(text, len < 200 ? len : 200);
    }
    u->count++;
    if (u->f && !u->failed &&
        (fprintf(u->f, "%llu: ", (unsigned long long)line) < 0 ||
         fwrite(text, 1, len, u->f) != len || fputc('\n', u->f) == EOF)) {
        u->failed = 1;
        u->error = errno;
    }
}

int unmatched_begin(unmatched_log *u, const rule_args *ra, tlv_converter *conv)
{
    memset(u, 0, sizeof *u);
    u->show = UNMATCHED_SHOWN;
    u->path = ra->unmatched_path;
    if (u->path) {
        u->f = open_output(u->path, &u->tmp_path); /* says why it could not */
        if (!u->f)
            return -1;
    }
    tlv_converter_set_unmatched_fn(conv, note_unmatched, u);
    return 0;
}

/* Prints at most `max` bytes of s, and "..." when there was more. */
static void print_cut(const char *s, size_t max)
{
    size_t n = strlen(s);
    if (n > max) {
        while (max > 0 && ((unsigned char)s[max] & 0xC0) == 0x80) /* whole characters */
            max--;
        n = max;
    }
    char *cut = strndup(s, n);
    fputs_term(cut ? cut : "", stderr); /* the log's ESC or BEL stays text on a terminal */
    fputs(n < strlen(s) ? "...\n" : "\n", stderr);
    free(cut);
}

/* Closes the file: renamed into place when `keep` and all was written. */
static int close_file(unmatched_log *u, int keep)
{
    if (!u->f)
        return 0;
    if (u->failed && keep) /* the write error was the first: say it, as close_output would */
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, u->path, strerror(u->error));
    int rc = close_output(u->f, u->path, u->tmp_path, keep && !u->failed) < 0 || u->failed ? -1 : 0;
    u->f = NULL;
    u->tmp_path = NULL;
    return rc;
}

void unmatched_discard(unmatched_log *u)
{
    close_file(u, 0);
    unmatched_end(u, 0);
}

int unmatched_end(unmatched_log *u, int report)
{
    int rc = close_file(u, 1);
    if (report && u->count) {
        fprintf(stderr, "%s: %llu line%s matched no rule", prog, (unsigned long long)u->count,
                u->count == 1 ? "" : "s");
        if (u->path && rc == 0)
            fprintf(stderr, " (all listed in %s)", u->path);
        else if (u->path)
            fprintf(stderr, " (not all of them written to %s)", u->path);
        else if (u->count > u->show)
            fprintf(stderr, " (--unmatched FILE lists them all)");
        fputs(":\n", stderr);
        for (uint64_t i = 0; i < u->count && i < u->show; i++) {
            fprintf(stderr, "  line %llu: ", (unsigned long long)u->first[i]);
            print_cut(u->first_text[i] ? u->first_text[i] : "", 100);
        }
        if (u->count > u->show)
            fprintf(stderr, "  ... and %llu more\n", (unsigned long long)(u->count - u->show));
    }
    for (size_t i = 0; i < UNMATCHED_MAX_SHOWN; i++)
        free(u->first_text[i]);
    memset(u->first_text, 0, sizeof u->first_text);
    return rc;
}
