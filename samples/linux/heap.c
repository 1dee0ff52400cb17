/*
 * heap.c — a small allocating program for the function-call and heap
 * recorders (samples/linux/record_calls.sh, record_heap.sh): two threads each
 * build binary search trees (calloc per node, recursive insert), measure
 * their depth (recursion), keep a growing log (realloc) and free the trees
 * (recursive drop); the main thread forgets two blocks, so the heap picture
 * and `tlv stats` show leaks at exit.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct node {
    int key;
    struct node *left, *right;
} node;

static node *insert(node *t, int key)
{
    if (!t) {
        t = calloc(1, sizeof *t);
        if (t)
            t->key = key;
        return t;
    }
    if (key < t->key)
        t->left = insert(t->left, key);
    else
        t->right = insert(t->right, key);
    return t;
}

static int depth(const node *t)
{
    if (!t)
        return 0;
    int l = depth(t->left), r = depth(t->right);
    return 1 + (l > r ? l : r);
}

static void drop(node *t)
{
    if (!t)
        return;
    drop(t->left);
    drop(t->right);
    free(t);
}

/* Appends a line to a log that grows by doubling. */
static char *note(char *log, size_t *cap, const char *line)
{
    size_t used = log ? strlen(log) : 0, need = used + strlen(line) + 1;
    if (need > *cap) {
        size_t cap2 = *cap ? *cap * 2 : 16;
        while (cap2 < need)
            cap2 *= 2;
        char *grown = realloc(log, cap2);
        if (!grown)
            return log;
        if (!log)
            grown[0] = '\0';
        log = grown;
        *cap = cap2;
    }
    strcat(log, line);
    return log;
}

static void nap(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void *worker(void *arg)
{
    unsigned seed = (unsigned)(size_t)arg;
    char *log = NULL;
    size_t cap = 0;
    for (int round = 0; round < 3; round++) {
        node *t = NULL;
        for (int i = 0; i < 24; i++)
            t = insert(t, (int)(rand_r(&seed) % 1000));
        char line[64];
        snprintf(line, sizeof line, "round %d: depth %d\n", round, depth(t));
        log = note(log, &cap, line);
        nap(3);
        drop(t);
    }
    return log;
}

int main(void)
{
    pthread_t threads[2];
    for (size_t i = 0; i < 2; i++)
        pthread_create(&threads[i], NULL, worker, (void *)(i + 1));
    for (size_t i = 0; i < 2; i++) {
        char *log = NULL;
        pthread_join(threads[i], (void **)&log);
        if (log)
            fputs(log, stdout);
        free(log);
    }
    char *forgotten = malloc(100);      /* leaked: never freed */
    int *table = calloc(16, sizeof *table); /* leaked too */
    if (forgotten && table)
        snprintf(forgotten, 100, "%d", table[0]);
    return 0;
}
