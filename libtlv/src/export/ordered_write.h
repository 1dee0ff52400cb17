/*
 * ordered_write.h — millions of output items (a JSON object per shape for
 * the shapes format, a trace event per interval for chrome) formatted on
 * several threads and written in order: the same bytes as one thread's.
 */
#ifndef TLV_ORDERED_WRITE_H
#define TLV_ORDERED_WRITE_H

#include "export/json_line.h"

#include <stddef.h>
#include <stdio.h>

/* Appends item i's text to b; m is the calling thread's own memo for
 * jl_string_memo. Called on any of the threads, for each item once: it may
 * only read what every thread reads. */
typedef void (*ow_item_fn)(void *ctx, json_line *b, jl_memo *m, size_t i);

/* The threads to format n items on: `requested` (--threads; 0 = the
 * processors online), 1 when n is too small to share. */
int ordered_write_threads(int requested, size_t n);

/* Formats items 0..n-1 with fn on `threads` threads, the calling thread one
 * of them, in chunks each thread formats into a buffer of its own (at most
 * a few wait in memory), and writes the chunks to out in order. Returns 0,
 * -1 when writing failed, -2 when memory ran out. */
int ordered_write(FILE *out, size_t n, int threads, ow_item_fn fn, void *ctx);

#endif
