/*
 * server.c — a tiny forking server to record with every recorder
 * (samples/linux/record*.sh; samples/linux/server/): the main process
 * starts two threads that hand a counter back and forth under a mutex and a
 * condition variable (they block in futex), forks three workers that each
 * block reading a request from a pipe, write a file under /tmp and answer
 * through another pipe — only the first allocates memory, the others have no
 * heap activity of their own — then sends the requests, reads the answers,
 * waits for the workers and joins the threads.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 3
#define ROUNDS 4

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn_changed = PTHREAD_COND_INITIALIZER;
static int turn;

static void nap(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* Thread `me` (0 or 1) waits for its turn ROUNDS times, then passes it on. */
static void *ping(void *arg)
{
    int me = (int)(long)arg;
    for (int i = 0; i < ROUNDS; i++) {
        pthread_mutex_lock(&lock);
        while (turn != me)
            pthread_cond_wait(&turn_changed, &lock);
        nap(1);
        turn = 1 - me;
        pthread_cond_broadcast(&turn_changed);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

/* A worker: blocks until its request comes, writes a file, answers. */
static void work(int n, int in, int out)
{
    char req[32];
    ssize_t got = read(in, req, sizeof req - 1);
    if (got <= 0)
        _exit(1);
    req[got] = '\0';
    char *copy = NULL;
    if (n == 0) /* the only worker with heap activity */
        copy = strdup(req);
    char path[64];
    snprintf(path, sizeof path, "/tmp/tlv-server-%d.txt", n);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
        if (write(fd, req, (size_t)got) != got)
            _exit(2);
        close(fd);
        unlink(path);
    }
    nap(2);
    if (write(out, "ok", 2) != 2)
        _exit(3);
    free(copy);
    _exit(0);
}

int main(void)
{
    int req[WORKERS][2], ans[2];
    if (pipe(ans) < 0)
        return 1;
    pthread_t t[2];
    for (long i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, ping, (void *)i);
    pid_t child[WORKERS];
    for (int n = 0; n < WORKERS; n++) {
        if (pipe(req[n]) < 0)
            return 1;
        child[n] = fork();
        if (child[n] == 0)
            work(n, req[n][0], ans[1]);
    }
    char *log = malloc(256);
    for (int n = 0; n < WORKERS; n++) {
        nap(3);
        snprintf(log, 256, "request %d", n);
        if (write(req[n][1], log, strlen(log)) < 0)
            return 1;
    }
    char buf[2];
    for (int n = 0; n < WORKERS; n++)
        if (read(ans[0], buf, sizeof buf) != 2)
            return 1;
    for (int n = 0; n < WORKERS; n++)
        waitpid(child[n], NULL, 0);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    free(log);
    printf("%d workers answered\n", WORKERS);
    return 0;
}
