/*
 * spin.c — the program of the independent audit of issue 27
 * (samples/linux/audit/): the main process starts two threads that each burn
 * the CPU for a few milliseconds and then hand a token to the other under a
 * mutex and a condition variable (so the scheduler has run time to count and
 * the threads block in futex), forks a child that opens one file that exists
 * and one that does not, reads, sleeps and exits with status 3, waits for
 * it and joins the threads; the main process's heap grows from 100 to 300
 * bytes and is freed, the child leaks 40. Built with -pg for uftrace.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define ROUNDS 3

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static int turn;
static volatile unsigned long sink;
static char *volatile block; /* volatile: the compiler keeps its malloc */

/* Keeps the CPU busy for about `ms` milliseconds of wall time. */
static void burn(long ms)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do {
        for (int i = 0; i < 10000; i++)
            sink += (unsigned long)i;
        clock_gettime(CLOCK_MONOTONIC, &t);
    } while ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L < ms);
}

/* Thread `me` (0 or 1) burns, then passes the turn, ROUNDS times. */
static void *spinner(void *arg)
{
    int me = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&lock);
        while (turn != me)
            pthread_cond_wait(&turn_changed, &lock);
        pthread_mutex_unlock(&lock);
        burn(2);
        pthread_mutex_lock(&lock);
        turn = 1 - me;
        pthread_cond_broadcast(&turn_changed);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* The child: one open that works, one that fails, a read, a nap. */
static void child(void)
{
    char buf[64];
    int fd = open("/etc/hostname", O_RDONLY);
    if (fd >= 0) {
        if (read(fd, buf, sizeof buf) < 0)
            _exit(1);
        close(fd);
    }
    if (open("/nonexistent/tlv-audit", O_RDONLY) >= 0)
        _exit(2);
    block = malloc(40); /* the child's own block, never freed */
    struct timespec ts = {0, 3000000L};
    nanosleep(&ts, NULL);
    _exit(3);
}

int main(void)
{
    block = malloc(100);
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, spinner, (void *)i);
    pid_t pid = fork();
    if (pid == 0)
        child();
    int status = 0;
    waitpid(pid, &status, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    block = realloc(block, 300);
    free(block);
    return WIFEXITED(status) && WEXITSTATUS(status) == 3 ? 0 : 1;
}
