/*
 * parfor.c — independent pieces of work on several threads (parfor.h):
 * the items are handed out by one atomic counter, so a worker that finishes
 * early takes the next; allocation failures on a worker's thread are passed
 * back as the piece's failure (alloc.h: the count is per thread).
 */
#include "base/parfor.h"

#include "base/alloc.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

typedef struct parfor {
    parfor_fn fn;
    void *ctx;
    size_t n;
    atomic_size_t next;
    atomic_int failed;
} parfor;

typedef struct parfor_worker {
    parfor *p;
    int no;
    pthread_t thread;
} parfor_worker;

static void run_items(parfor *p, int worker)
{
    ALLOC_WATCH;
    while (!atomic_load(&p->failed)) {
        size_t item = atomic_fetch_add(&p->next, 1);
        if (item >= p->n)
            break;
        if (p->fn(p->ctx, item, worker) < 0 || ALLOC_FAILED_SINCE()) {
            atomic_store(&p->failed, 1);
            break;
        }
    }
}

static void *worker_main(void *arg)
{
    parfor_worker *w = arg;
    alloc_name_thread("tlv-freeze");
    run_items(w->p, w->no);
    return NULL;
}

int parfor_workers(int threads, size_t n)
{
    if (threads < 1 || n < 2)
        return 1;
    return (size_t)threads < n ? threads : (int)n;
}

int parfor_run(int threads, size_t n, parfor_fn fn, void *ctx)
{
    parfor p = {fn, ctx, n, 0, 0};
    int nworkers = parfor_workers(threads, n);
    parfor_worker *w = nworkers > 1 ? calloc((size_t)nworkers, sizeof *w) : NULL;
    int started = 0;
    for (int i = 1; w && i < nworkers; i++) {
        w[i] = (parfor_worker){&p, i, 0};
        if (pthread_create(&w[i].thread, NULL, worker_main, &w[i]) != 0)
            break; /* the calling thread and those started do it all */
        started = i;
    }
    run_items(&p, 0);
    for (int i = 1; i <= started; i++)
        pthread_join(w[i].thread, NULL);
    free(w);
    return atomic_load(&p.failed) ? -1 : 0;
}
