/*
 * event_writer.c — formatting and writing `tlv convert`'s events (see
 * event_writer.h). Threaded, two blocks of records take turns: the
 * converting thread fills one while the writer thread formats and writes
 * the other; they swap under a mutex once the filled block is BLOCK_BYTES
 * long, so the threads meet a few hundred times per million events, not
 * once per event. A record is the event's time, kind and argument count
 * followed by its strings, NUL-terminated: the event's own strings live
 * only until the event function returns.
 */
#include "event_writer.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#define BLOCK_BYTES ((size_t)256 << 10)

typedef struct block {
    char *data;
    size_t len, cap;
} block;

typedef struct rec_head {
    tlv_time time;
    uint32_t kind;
    uint32_t nargs;
} rec_head;

struct event_writer {
    FILE *f;
    int radix;
    int threaded;   /* the thread runs */
    int finished;
    block fill;     /* the converting thread's */
    block work;     /* the writer thread's while `ready` */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t to_writer; /* a block is ready, or done */
    pthread_cond_t to_filler; /* the ready block is written */
    int ready, done;
    int failed;     /* -1 write failed, -2 no memory (the writer's, under mu) */
    int status;     /* the converting thread's view of `failed` */
    int write_errno; /* errno of the failed write (errno is per thread) */
    uint64_t cpu_ns;
    /* the formatting side's scratch */
    char *line;
    size_t line_cap;
    const char **args;
    size_t args_cap;
};

/* Formats one event and writes its line. Returns 0, -1 write failed, -2 no memory. */
static int write_line(event_writer *w, const tlv_event *ev)
{
    size_t n = tlv_event_format(ev, w->radix, w->line, w->line_cap);
    if (n + 1 >= w->line_cap) {
        size_t cap = (n + 2) * 2;
        char *p = realloc(w->line, cap);
        if (!p)
            return -2;
        w->line = p;
        w->line_cap = cap;
        tlv_event_format(ev, w->radix, w->line, w->line_cap);
    }
    w->line[n] = '\n';
    /* one thread writes this stream: skip the lock */
    if (fwrite_unlocked(w->line, 1, n + 1, w->f) == n + 1)
        return 0;
    w->write_errno = errno; /* errno is per thread: kept for event_writer_finish */
    return -1;
}

/* Reads the string at *at and moves past it. */
static const char *take_str(const char **at)
{
    const char *s = *at;
    *at += strlen(s) + 1;
    return s;
}

/* Formats and writes every record of b. Returns 0, -1 or -2 as write_line. */
static int write_block(event_writer *w, const block *b)
{
    const char *at = b->data, *end = b->data + b->len;
    while (at < end) {
        rec_head h;
        memcpy(&h, at, sizeof h);
        at += sizeof h;
        if (h.nargs > w->args_cap) {
            const char **p = realloc(w->args, h.nargs * sizeof *p);
            if (!p)
                return -2;
            w->args = p;
            w->args_cap = h.nargs;
        }
        tlv_event ev;
        memset(&ev, 0, sizeof ev);
        ev.time = h.time;
        ev.kind = (tlv_event_kind)h.kind;
        ev.resource = take_str(&at);
        ev.name = take_str(&at);
        if (ev.kind == TLV_EVENT_ATTRIBUTE)
            ev.value = take_str(&at);
        for (uint32_t i = 0; i < h.nargs; i++)
            w->args[i] = take_str(&at);
        ev.nargs = h.nargs;
        ev.args = w->args;
        int rc = write_line(w, &ev);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void *writer_main(void *arg)
{
    event_writer *w = arg;
    prctl(PR_SET_NAME, "tlv-write", 0, 0, 0); /* top -H, gdb, tests/oom's sweep of this thread */
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (!w->ready && !w->done)
            pthread_cond_wait(&w->to_writer, &w->mu);
        if (!w->ready)
            break; /* done, and everything written */
        int failed = w->failed;
        pthread_mutex_unlock(&w->mu);
        int rc = failed ? 0 : write_block(w, &w->work); /* after a failure: only drain */
        w->work.len = 0;
        pthread_mutex_lock(&w->mu);
        if (rc < 0 && !w->failed)
            w->failed = rc;
        w->ready = 0;
        pthread_cond_signal(&w->to_filler);
    }
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0)
        w->cpu_ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

event_writer *event_writer_new(FILE *f, int radix, int threaded)
{
    event_writer *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->f = f;
    w->radix = radix;
    if (!threaded)
        return w;
    if (pthread_mutex_init(&w->mu, NULL) != 0)
        return w;
    if (pthread_cond_init(&w->to_writer, NULL) != 0)
        goto no_cw;
    if (pthread_cond_init(&w->to_filler, NULL) != 0)
        goto no_cf;
    if (pthread_create(&w->thread, NULL, writer_main, w) != 0)
        goto no_thread;
    w->threaded = 1;
    return w;
no_thread:
    pthread_cond_destroy(&w->to_filler);
no_cf:
    pthread_cond_destroy(&w->to_writer);
no_cw:
    pthread_mutex_destroy(&w->mu);
    return w; /* inline, then */
}

/* Gives the filled block to the writer thread (once it has written the
 * previous one) and takes that one back, empty. */
static void hand_over(event_writer *w)
{
    pthread_mutex_lock(&w->mu);
    while (w->ready)
        pthread_cond_wait(&w->to_filler, &w->mu);
    block b = w->work;
    w->work = w->fill;
    w->fill = b;
    w->ready = 1;
    if (w->failed)
        w->status = w->failed;
    pthread_cond_signal(&w->to_writer);
    pthread_mutex_unlock(&w->mu);
}

/* Appends n bytes of s to b; 0, or -1 when memory ran out. */
static int block_put(block *b, const void *s, size_t n)
{
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : BLOCK_BYTES + 4096;
        while (cap < b->len + n)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p)
            return -1;
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}

static int put_str(block *b, const char *s)
{
    return block_put(b, s ? s : "", (s ? strlen(s) : 0) + 1);
}

/* Copies the event into the filling block. Returns 0, or -1 on no memory. */
static int put_record(block *b, const tlv_event *ev)
{
    rec_head h = {ev->time, (uint32_t)ev->kind, (uint32_t)ev->nargs};
    if (ev->nargs > UINT32_MAX)
        return -1;
    int rc = block_put(b, &h, sizeof h) | put_str(b, ev->resource) | put_str(b, ev->name);
    if (ev->kind == TLV_EVENT_ATTRIBUTE)
        rc |= put_str(b, ev->value);
    for (size_t i = 0; i < ev->nargs; i++)
        rc |= put_str(b, ev->args[i]);
    return rc ? -1 : 0;
}

int event_writer_put(void *writer, const tlv_event *ev)
{
    event_writer *w = writer;
    if (w->status)
        return 1;
    if (!w->threaded) {
        w->status = write_line(w, ev);
        return w->status ? 1 : 0;
    }
    if (put_record(&w->fill, ev) < 0) {
        w->status = -2;
        return 1;
    }
    if (w->fill.len >= BLOCK_BYTES)
        hand_over(w);
    return w->status ? 1 : 0;
}

static void stop_thread(event_writer *w);

int event_writer_finish(event_writer *w)
{
    if (w->finished)
        return w->status;
    w->finished = 1;
    if (w->threaded)
        stop_thread(w);
    if (w->status == -1 && w->write_errno)
        errno = w->write_errno; /* for the caller's message */
    return w->status;
}

/* Hands over what is left, lets the thread write it and joins it. */
static void stop_thread(event_writer *w)
{
    if (w->fill.len && !w->status)
        hand_over(w);
    pthread_mutex_lock(&w->mu);
    w->done = 1;
    pthread_cond_signal(&w->to_writer);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    if (!w->status)
        w->status = w->failed;
}

uint64_t event_writer_cpu_ns(const event_writer *w) { return w->cpu_ns; }

void event_writer_free(event_writer *w)
{
    if (!w)
        return;
    event_writer_finish(w);
    if (w->threaded) {
        pthread_cond_destroy(&w->to_filler);
        pthread_cond_destroy(&w->to_writer);
        pthread_mutex_destroy(&w->mu);
    }
    free(w->fill.data);
    free(w->work.data);
    free(w->line);
    free(w->args);
    free(w);
}
