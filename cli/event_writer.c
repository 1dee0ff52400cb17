/*
 * event_writer.c — formatting and writing `tlv convert`'s events (see
 * event_writer.h). Threaded, two blocks of text take turns: the converting
 * thread appends lines to one while the writer thread writes the other;
 * they swap under a mutex once the filled block is BLOCK_BYTES long, so the
 * threads meet a few hundred times per million events, not once per event.
 * The lines come formatted from the converter (event_writer_put_line: the
 * converter keeps each event text's line after the time, so a line is
 * mostly one copy) or are formatted here (event_writer_put); the writer
 * thread only writes, so the bytes are the inline writer's by construction.
 */
#include "cli/event_writer.h"

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
    /* the inline writer's line */
    char *line;
    size_t line_cap;
};

/* Writes n bytes. Returns 0, or -1 when the write failed. */
static int write_bytes(event_writer *w, const char *s, size_t n)
{
    /* one thread writes this stream: skip the lock */
    if (fwrite_unlocked(s, 1, n, w->f) == n)
        return 0;
    w->write_errno = errno; /* errno is per thread: kept for event_writer_finish */
    return -1;
}

/* Formats one event and writes its line (inline). Returns 0, -1 write
 * failed, -2 no memory. */
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
    return write_bytes(w, w->line, n + 1);
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
        /* after a failure: only drain */
        int rc = failed ? 0 : write_bytes(w, w->work.data, w->work.len);
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

/* Makes room for n more bytes in b; 0, or -1 when memory ran out. */
static int block_reserve(block *b, size_t n)
{
    if (b->len + n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : BLOCK_BYTES + 4096;
    while (cap < b->len + n)
        cap *= 2;
    char *p = realloc(b->data, cap);
    if (!p)
        return -1;
    b->data = p;
    b->cap = cap;
    return 0;
}

/* Formats the event at the end of the filling block, with its line end.
 * Returns 0, or -1 on no memory. */
static int put_formatted(block *b, const tlv_event *ev, int radix)
{
    enum { GUESS = 256 }; /* most lines are shorter: formatted once */
    if (block_reserve(b, GUESS) < 0)
        return -1;
    size_t n = tlv_event_format(ev, radix, b->data + b->len, b->cap - b->len);
    if (n + 1 >= b->cap - b->len) {
        if (block_reserve(b, n + 2) < 0)
            return -1;
        tlv_event_format(ev, radix, b->data + b->len, b->cap - b->len);
    }
    b->data[b->len + n] = '\n';
    b->len += n + 1;
    return 0;
}

/* Appends line and its line end to the filling block. Returns 0, or -1 on
 * no memory. */
static int put_text(block *b, const char *line, size_t len)
{
    if (block_reserve(b, len + 1) < 0)
        return -1;
    memcpy(b->data + b->len, line, len);
    b->data[b->len + len] = '\n';
    b->len += len + 1;
    return 0;
}

/* After a line went into the filling block: hands it over once full. */
static int filled(event_writer *w, int rc)
{
    if (rc < 0) {
        w->status = -2;
        return 1;
    }
    if (w->fill.len >= BLOCK_BYTES)
        hand_over(w);
    return w->status ? 1 : 0;
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
    return filled(w, put_formatted(&w->fill, ev, w->radix));
}

int event_writer_put_line(void *writer, const tlv_event *ev, const char *line, size_t len)
{
    event_writer *w = writer;
    (void)ev;
    if (w->status)
        return 1;
    if (!w->threaded) {
        if (write_bytes(w, line, len) < 0 || write_bytes(w, "\n", 1) < 0)
            w->status = -1;
        return w->status ? 1 : 0;
    }
    return filled(w, put_text(&w->fill, line, len));
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
    free(w);
}
