/*
 * threads.c — a tiny multi-threaded program to record with strace for the
 * Linux sample (samples/linux/record.sh): three worker threads pass a token
 * through pipes, sleep, read a file, and one of them tries to open a file
 * that does not exist (a failing system call); the main thread forks a child
 * that exits (SIGCHLD) and joins the workers.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 3

static int pipes[WORKERS + 1][2];

static void nap(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* Worker i waits for the token on pipe i, works a little, passes it on. */
static void *worker(void *arg)
{
    long i = (long)arg;
    char token;
    if (read(pipes[i][0], &token, 1) != 1)
        return NULL;
    nap(2 + i);
    int fd = open(i == 1 ? "/no/such/file" : "/proc/self/stat", O_RDONLY);
    if (fd >= 0) {
        char buf[64];
        if (read(fd, buf, sizeof buf) < 0)
            perror("read");
        close(fd);
    }
    if (write(pipes[i + 1][1], &token, 1) != 1)
        perror("write");
    return NULL;
}

int main(void)
{
    for (int i = 0; i <= WORKERS; i++)
        if (pipe(pipes[i]) < 0)
            return 1;
    pthread_t t[WORKERS];
    for (long i = 0; i < WORKERS; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    pid_t child = fork();
    if (child == 0) {
        nap(1);
        _exit(3);
    }
    if (write(pipes[0][1], "x", 1) != 1)
        return 1;
    char token;
    if (read(pipes[WORKERS][0], &token, 1) != 1)
        return 1;
    waitpid(child, NULL, 0);
    for (int i = 0; i < WORKERS; i++)
        pthread_join(t[i], NULL);
    printf("token went round %d threads\n", WORKERS);
    return 0;
}
