/*
 * ordered_write.c — items formatted on several threads, written in order
 * (ordered_write.h). Formatting is most of writing millions of JSON
 * objects, and each item's text depends on that item alone: the items are
 * cut into chunks that the threads format into buffers of their own, and
 * the calling thread, which formats too, writes the buffers in order. At
 * most RING chunks wait in memory. On one thread it is the plain loop,
 * chunk after chunk.
 */
#include "export/ordered_write.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#define CHUNK_ITEMS 16384
#define RING 8
#define MAX_THREADS 8

typedef struct ring_slot {
    json_line b;
    int ready;         /* formatted, not written yet */
} ring_slot;

typedef struct ordered {
    ow_item_fn fn;
    void *ctx;
    size_t n, nchunks;
    size_t next;       /* the next chunk to format */
    size_t written;    /* chunks written */
    int failed;        /* -1 writing failed, -2 memory ran out: stop */
    ring_slot ring[RING];
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a chunk formatted, or written */
} ordered;

typedef struct format_thread {
    ordered *o;
    jl_memo memo;
    pthread_t thread;
    int started;
} format_thread;

/* Formats chunk c into its slot. Returns 0, or -1 when memory ran out. */
static int format_chunk(ordered *o, jl_memo *m, size_t c)
{
    json_line *b = &o->ring[c % RING].b;
    size_t end = (c + 1) * CHUNK_ITEMS < o->n ? (c + 1) * CHUNK_ITEMS : o->n;
    b->len = 0;
    for (size_t i = c * CHUNK_ITEMS; i < end && !b->failed; i++)
        o->fn(o->ctx, b, m, i);
    return b->failed ? -1 : 0;
}

/* Takes the next chunk to format when its slot is free, else SIZE_MAX.
 * Called with the lock held. */
static size_t take_chunk(ordered *o)
{
    if (o->failed || o->next >= o->nchunks || o->next >= o->written + RING)
        return SIZE_MAX;
    return o->next++;
}

/* Formats chunk c without the lock (held before and after). */
static void format_taken(ordered *o, jl_memo *m, size_t c)
{
    pthread_mutex_unlock(&o->mu);
    int rc = format_chunk(o, m, c);
    pthread_mutex_lock(&o->mu);
    o->ring[c % RING].ready = 1;
    if (rc < 0 && !o->failed)
        o->failed = -2;
    pthread_cond_broadcast(&o->cv);
}

static void *format_main(void *arg)
{
    format_thread *t = arg;
    ordered *o = t->o;
    pthread_mutex_lock(&o->mu);
    while (!o->failed && o->next < o->nchunks) {
        size_t c = take_chunk(o);
        if (c == SIZE_MAX)
            pthread_cond_wait(&o->cv, &o->mu);
        else
            format_taken(o, &t->memo, c);
    }
    pthread_mutex_unlock(&o->mu);
    return NULL;
}

/* The calling thread: writes the chunks in order as they are formatted,
 * formatting chunks itself while the next to write is not ready. */
static int write_in_order(ordered *o, jl_memo *m, FILE *out)
{
    pthread_mutex_lock(&o->mu);
    while (!o->failed && o->written < o->nchunks) {
        ring_slot *slot = &o->ring[o->written % RING];
        if (slot->ready) {
            pthread_mutex_unlock(&o->mu);
            int rc = jl_write(&slot->b, out);
            pthread_mutex_lock(&o->mu);
            slot->ready = 0;
            o->written++;
            if (rc < 0 && !o->failed)
                o->failed = -1;
            pthread_cond_broadcast(&o->cv);
            continue;
        }
        size_t c = take_chunk(o);
        if (c == SIZE_MAX)
            pthread_cond_wait(&o->cv, &o->mu);
        else
            format_taken(o, m, c);
    }
    int rc = o->failed;
    pthread_mutex_unlock(&o->mu);
    return rc;
}

int ordered_write_threads(int requested, size_t n)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int t = requested > 0 ? requested : online > 1 ? (int)online : 1;
    if (n <= CHUNK_ITEMS)
        return 1;
    return t > MAX_THREADS ? MAX_THREADS : t;
}

int ordered_write(FILE *out, size_t n, int threads, ow_item_fn fn, void *ctx)
{
    ordered o = {.fn = fn, .ctx = ctx, .n = n};
    o.nchunks = (n + CHUNK_ITEMS - 1) / CHUNK_ITEMS;
    threads = threads < 1 ? 1 : threads > MAX_THREADS ? MAX_THREADS : threads;
    format_thread *t = calloc((size_t)threads, sizeof *t);
    if (!t)
        return -2;
    pthread_mutex_init(&o.mu, NULL);
    pthread_cond_init(&o.cv, NULL);
    for (int i = 1; i < threads; i++) { /* without a thread, fewer of them */
        t[i].o = &o;
        t[i].started = pthread_create(&t[i].thread, NULL, format_main, &t[i]) == 0;
    }
    int rc = write_in_order(&o, &t[0].memo, out);
    pthread_mutex_lock(&o.mu); /* the others stop: a failure, or nothing left */
    pthread_cond_broadcast(&o.cv);
    pthread_mutex_unlock(&o.mu);
    for (int i = 0; i < threads; i++) {
        if (i && t[i].started)
            pthread_join(t[i].thread, NULL);
        jl_memo_free(&t[i].memo);
    }
    for (size_t i = 0; i < RING; i++)
        jl_free(&o.ring[i].b);
    pthread_mutex_destroy(&o.mu);
    pthread_cond_destroy(&o.cv);
    free(t);
    return rc;
}
