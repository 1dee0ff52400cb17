/*
 * output.c — a command's output file, written safely: a regular file (or a
 * new one) is written under a temporary name and renamed when complete, so
 * an interrupted or failed run never leaves a half-written file under the
 * final name; a run ended by a signal removes the temporary file.
 */
#include "common/common.h"

#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
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
        forget_tmp(*tmp_path);
        cannot_write(output);
        free(*tmp_path);
        *tmp_path = NULL;
    }
    return f;
}

/* The temporary outputs of the run in progress (-o and --unmatched): a run
 * ended by a signal (Ctrl-C, kill, a closed terminal) removes them rather
 * than leave them behind. */
#define TMP_SLOTS 4
static const char *volatile tmp_in_progress[TMP_SLOTS];
static atomic_flag cleaning = ATOMIC_FLAG_INIT;

/* The first signal removes the temporary files and ends the process by that
 * signal. A second one (timeout(1) sends TERM, then KILL; a user presses
 * Ctrl-C twice) may be delivered to another thread meanwhile: it must not
 * end the process before the files are gone, so it waits there for the
 * first to finish (the handler stays installed: no SA_RESETHAND, which let
 * the second signal's default action kill the process mid-cleanup). */
static void remove_tmp_and_die(int sig)
{
    if (atomic_flag_test_and_set(&cleaning))
        for (;;)
            pause(); /* the first handler ends the process */
    for (size_t i = 0; i < TMP_SLOTS; i++) {
        const char *p = tmp_in_progress[i];
        if (p)
            unlink(p); /* async-signal-safe */
    }
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig); /* blocked in here: delivered, by default, as the handler returns */
}

static void install_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = remove_tmp_and_die;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&sa.sa_mask, sigs[i]); /* one handler at a time on this thread */
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction old;
        /* a signal ignored on entry (nohup, a background job) stays ignored */
        if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN &&
            old.sa_handler != remove_tmp_and_die)
            sigaction(sigs[i], &sa, NULL);
    }
}

void remove_tmp_on_signals(const char *tmp_path)
{
    if (!tmp_path) { /* none in progress any more */
        for (size_t i = 0; i < TMP_SLOTS; i++)
            tmp_in_progress[i] = NULL;
        return;
    }
    size_t free_slot = TMP_SLOTS;
    for (size_t i = 0; i < TMP_SLOTS; i++) {
        if (tmp_in_progress[i] == tmp_path)
            return; /* already kept */
        if (!tmp_in_progress[i] && free_slot == TMP_SLOTS)
            free_slot = i;
    }
    if (free_slot == TMP_SLOTS)
        return; /* never more than -o and --unmatched at once */
    install_handlers();
    tmp_in_progress[free_slot] = tmp_path;
}

void forget_tmp(const char *tmp_path)
{
    for (size_t i = 0; i < TMP_SLOTS; i++)
        if (tmp_path && tmp_in_progress[i] == tmp_path)
            tmp_in_progress[i] = NULL;
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
        forget_tmp(tmp_path);
        free(tmp_path);
    }
    if (failed)
        fprintf(stderr, "%s: cannot write '%s': %s\n", prog, output ? output : "standard output",
                strerror(errno));
    if (failed && f == stdout)
        clearerr(stdout); /* said here: main's check of standard output need not say it again */
    return failed ? -1 : 0;
}

