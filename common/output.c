/*
 * output.c — a command's output file, written safely: a regular file (or a
 * new one) is written under a temporary name and renamed when complete, so
 * an interrupted or failed run never leaves a half-written file under the
 * final name; a run ended by a signal removes the temporary file.
 */
#include "common/common.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A regular file (or a new one) is written under a temporary name and renamed
 * when complete; anything else (/dev/null, a pipe, a terminal) is written
 * directly, since renaming over it would replace the device. */
static void cannot_write(const char *output)
{
    if (errno == ENOMEM) /* fopen allocates its FILE */
        report_nomem("opening the output", output);
    else
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, output, strerror(errno));
}

FILE *open_output(const char *output, char **tmp_path)
{
    *tmp_path = NULL;
    if (!output || strcmp(output, "-") == 0)
        return stdout;
    struct stat st;
    int exists = stat(output, &st) == 0;
    if (exists && !S_ISREG(st.st_mode)) {
        FILE *f = fopen(output, "wb");
        if (!f)
            cannot_write(output);
        return f;
    }
    size_t n = strlen(output) + 32;
    *tmp_path = malloc(n);
    if (!*tmp_path) {
        report_nomem("opening the output", output);
        return NULL;
    }
    snprintf(*tmp_path, n, "%s.tmp.%ld", output, (long)getpid());
    /* Before the file exists: a signal that comes the moment it is created
     * must find the handler that removes it. */
    remove_tmp_on_signals(*tmp_path);
    FILE *f = fopen(*tmp_path, "wb");
    if (!f) {
        remove_tmp_on_signals(NULL);
        cannot_write(output);
        free(*tmp_path);
        *tmp_path = NULL;
    }
    return f;
}

/* The temporary output of the run in progress: a run ended by a signal
 * (Ctrl-C, kill, a closed terminal) removes it rather than leave it behind. */
static const char *volatile tmp_in_progress;

static void remove_tmp_and_die(int sig)
{
    const char *p = tmp_in_progress;
    if (p)
        unlink(p); /* async-signal-safe */
    raise(sig);    /* the default action again (SA_RESETHAND): the status tells the signal */
}

void remove_tmp_on_signals(const char *tmp_path)
{
    tmp_in_progress = tmp_path;
    if (!tmp_path)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_tmp_and_die;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&sa.sa_mask, sigs[i]); /* one handler at a time */
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal ignored on entry (nohup, a background job) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
            sigaction(sigs[i], &sa, NULL);
    }
}

int close_output(FILE *f, const char *output, char *tmp_path, int ok)
{
    int failed = fflush(f) != 0 || ferror(f);
    if (f != stdout)
        failed |= fclose(f) != 0;
    if (tmp_path) {
        if (ok && !failed && rename(tmp_path, output) != 0)
            failed = 1;
        if (!ok || failed)
            unlink(tmp_path);
        tmp_in_progress = NULL;
        free(tmp_path);
    }
    if (failed)
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, output ? output : "standard output",
                strerror(errno));
    return failed ? -1 : 0;
}

