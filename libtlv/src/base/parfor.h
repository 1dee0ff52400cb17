/*
 * parfor.h — running independent pieces of work on several threads: the
 * store's freeze (store.c) does its per-row steps this way, on as many
 * threads as the shapes were built on (tlv_shapes_options.threads). The
 * pieces must not depend on each other and must write only what is theirs
 * (a row's own slices of shared arrays); the result is then the same
 * whatever the number of threads and whichever thread ran which piece.
 */
#ifndef TLV_PARFOR_H
#define TLV_PARFOR_H

#include <stddef.h>

/* One piece: item `item` of the work, run by worker `worker` (0 is the
 * calling thread; a worker runs one piece at a time, so scratch space kept
 * per worker is its own). Returns 0, or -1 to stop the work (no memory). */
typedef int (*parfor_fn)(void *ctx, size_t item, int worker);

/* Runs fn for items 0 .. n-1 on up to `threads` threads (the calling thread
 * one of them; 1 or less: all on the calling thread, in order). Workers
 * take the items in order, each the next not taken, so items listed
 * largest first balance best. A thread that cannot be started leaves its
 * share to the others. Returns 0, or -1 when some piece returned -1 (the
 * items not yet taken then are not run) or allocation failed. */
int parfor_run(int threads, size_t n, parfor_fn fn, void *ctx);

/* The number of workers parfor_run(threads, n, ...) may use: what scratch
 * space per worker must be made for. */
int parfor_workers(int threads, size_t n);

#endif
