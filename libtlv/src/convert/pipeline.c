/*
 * pipeline.c — the matching thread and the hand-over of batches (see
 * pipeline.h). A ring of NSLOTS batches: the matching thread fills slot k
 * while the caller applies slot k - 1; a slot is either the matching
 * thread's (not ready) or the caller's (ready), switched under the mutex.
 * One run (a job) at a time; the thread waits for the next one in between.
 */
#include "convert/pipeline.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NSLOTS 4
#define DEFAULT_BATCH_LINES 1024

typedef struct slot {
    rm_batch b;
    int ready; /* filled: the caller's until it sets it back to 0 */
    int last;  /* the job's last batch */
} slot;

struct pipeline {
    rm_matcher m;            /* the matching thread's own */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t to_worker; /* a job, a free slot, abort or quit */
    pthread_cond_t to_caller; /* a ready slot, or the job is done */
    slot slots[NSLOTS];
    size_t batch_lines;
    /* the job, set by the caller while the thread is idle */
    const char *data;
    size_t len, max_line;
    int job;   /* posted and not finished */
    int abort; /* the caller stopped: produce no more */
    int quit;
    uint64_t cpu_ns; /* the thread's CPU time at the end of its last job */
};

/* Fills b with up to `lines` lines of the job from offset i on; returns
 * where it stopped. */
static size_t fill(pipeline *p, rm_batch *b, size_t i, size_t lines)
{
    const char *d = p->data;
    while (i < p->len && b->nlines < lines) {
        size_t end = rm_line_end(d, i, p->len);
        if (!rm_add_line(&p->m, b, d, i, end - i, p->max_line, 1))
            break; /* cannot happen: the lines are allocated beforehand */
        if (d[end] == '\r' && end + 1 < p->len && d[end + 1] == '\n')
            end++;
        i = end + 1;
    }
    return i;
}

/* A job's first batches are short, doubling up to batch_lines: the caller
 * waits idle for the first one of every job (one per push_bytes: `tlv
 * convert` pushes 1 MB at a time, 37 jobs for a 1M-line log), and a whole
 * batch of 1024 lines takes the matching thread about 0.4 ms. */
#define FIRST_BATCH_LINES 32

static void run_job(pipeline *p)
{
    size_t i = 0, lines = FIRST_BATCH_LINES;
    for (size_t k = 0;; k++) {
        slot *s = &p->slots[k % NSLOTS];
        pthread_mutex_lock(&p->mu);
        while (s->ready && !p->abort)
            pthread_cond_wait(&p->to_worker, &p->mu);
        int abort = p->abort;
        pthread_mutex_unlock(&p->mu);
        if (abort)
            return;
        rm_batch_clear(&s->b);
        if (lines > p->batch_lines)
            lines = p->batch_lines;
        i = fill(p, &s->b, i, lines);
        lines *= 2;
        int last = i >= p->len;
        pthread_mutex_lock(&p->mu);
        s->ready = 1;
        s->last = last;
        pthread_cond_signal(&p->to_caller);
        pthread_mutex_unlock(&p->mu);
        if (last)
            return;
    }
}

static void *worker(void *arg)
{
    pipeline *p = arg;
    /* for top -H and gdb, and the tests' failure sweep of this thread (tests/oom) */
    alloc_name_thread("tlv-match");
    pthread_mutex_lock(&p->mu);
    for (;;) {
        while (!p->job && !p->quit)
            pthread_cond_wait(&p->to_worker, &p->mu);
        if (p->quit)
            break;
        pthread_mutex_unlock(&p->mu);
        run_job(p);
        struct timespec ts;
        int timed = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0;
        pthread_mutex_lock(&p->mu);
        if (timed)
            p->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        p->job = 0;
        pthread_cond_signal(&p->to_caller);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Lines are allocated for whole batches beforehand, so filling never fails
 * half-way for want of an entry. */
static int reserve_lines(pipeline *p, size_t lines)
{
    for (int k = 0; k < NSLOTS; k++)
        if (GROW(p->slots[k].b.lines, p->slots[k].b.lines_cap, lines) < 0)
            return -1;
    p->batch_lines = lines;
    return 0;
}

pipeline *pipeline_new(const struct tlv_rules *rules)
{
    pipeline *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (rm_matcher_init(&p->m, rules) < 0 || reserve_lines(p, DEFAULT_BATCH_LINES) < 0)
        goto fail;
    p->m.ahead = 1; /* the stateless half of template expansion moves here too */
    if (pthread_mutex_init(&p->mu, NULL) != 0)
        goto fail;
    if (pthread_cond_init(&p->to_worker, NULL) != 0)
        goto fail_mu;
    if (pthread_cond_init(&p->to_caller, NULL) != 0)
        goto fail_cw;
    if (pthread_create(&p->thread, NULL, worker, p) != 0)
        goto fail_cc;
    return p;
fail_cc:
    pthread_cond_destroy(&p->to_caller);
fail_cw:
    pthread_cond_destroy(&p->to_worker);
fail_mu:
    pthread_mutex_destroy(&p->mu);
fail:
    rm_matcher_free(&p->m);
    for (int k = 0; k < NSLOTS; k++)
        rm_batch_free(&p->slots[k].b);
    free(p);
    return NULL;
}

void pipeline_free(pipeline *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->mu);
    p->quit = 1;
    pthread_cond_signal(&p->to_worker);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->to_caller);
    pthread_cond_destroy(&p->to_worker);
    pthread_mutex_destroy(&p->mu);
    rm_matcher_free(&p->m);
    for (int k = 0; k < NSLOTS; k++)
        rm_batch_free(&p->slots[k].b);
    free(p);
}

uint64_t pipeline_cpu_ns(pipeline *p)
{
    pthread_mutex_lock(&p->mu);
    uint64_t ns = p->cpu_ns;
    pthread_mutex_unlock(&p->mu);
    return ns;
}

void pipeline_set_batch_lines(pipeline *p, size_t lines)
{
    /* Called between runs, when the thread is idle. The default is already
     * allocated, so a failure leaves a smaller or the default size. */
    if (!lines || reserve_lines(p, lines) < 0)
        p->batch_lines = DEFAULT_BATCH_LINES;
}

int pipeline_run(pipeline *p, const char *data, size_t len, size_t max_line, int slow,
                 pipeline_apply_fn apply, void *ctx)
{
    pthread_mutex_lock(&p->mu);
    p->data = data;
    p->len = len;
    p->max_line = max_line;
    p->m.slow = slow;
    p->abort = 0;
    for (int k = 0; k < NSLOTS; k++)
        p->slots[k].ready = 0;
    p->job = 1;
    pthread_cond_signal(&p->to_worker);
    pthread_mutex_unlock(&p->mu);

    int stopped = 0;
    for (size_t k = 0;; k++) {
        slot *s = &p->slots[k % NSLOTS];
        pthread_mutex_lock(&p->mu);
        while (!s->ready)
            pthread_cond_wait(&p->to_caller, &p->mu);
        pthread_mutex_unlock(&p->mu);
        for (size_t i = 0; i < s->b.nlines && !stopped; i++)
            stopped = apply(ctx, &s->b, &s->b.lines[i], data) != 0;
        pthread_mutex_lock(&p->mu);
        s->ready = 0;
        int last = s->last;
        if (stopped)
            p->abort = 1;
        pthread_cond_signal(&p->to_worker);
        pthread_mutex_unlock(&p->mu);
        if (stopped || last)
            break;
    }
    pthread_mutex_lock(&p->mu);
    while (p->job)
        pthread_cond_wait(&p->to_caller, &p->mu);
    pthread_mutex_unlock(&p->mu);
    return stopped;
}
