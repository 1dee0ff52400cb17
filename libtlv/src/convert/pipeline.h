/*
 * pipeline.h — converting on two threads: a matching thread splits a run of
 * complete lines, reads them as text and finds their rule matches
 * (rawmatch.h), batch after batch, while the calling thread applies the
 * batches in input order (templates, macros, state, events). Only the
 * matching thread's own matcher and batches, the compiled rules (read-only)
 * and the caller's bytes (read-only, valid during pipeline_run) are shared,
 * and every batch passes between the threads under one mutex; all state and
 * every callback stay on the calling thread, so the output is the serial
 * path's, byte for byte.
 */
#ifndef TLV_PIPELINE_H
#define TLV_PIPELINE_H

#include "convert/rawmatch.h"

#include <stddef.h>

typedef struct pipeline pipeline;

/* Starts the matching thread for `rules` (which must outlive it). Returns
 * NULL when it cannot (no memory, no thread): the caller converts alone. */
pipeline *pipeline_new(const struct tlv_rules *rules);

/* Stops and joins the matching thread (NULL is allowed). */
void pipeline_free(pipeline *p);

/* CPU time the matching thread has spent so far, in nanoseconds. */
uint64_t pipeline_cpu_ns(pipeline *p);

/* Lines per batch (tests make it small so that short inputs span many
 * batches); 0 restores the default. */
void pipeline_set_batch_lines(pipeline *p, size_t lines);

/* Called on the calling thread for each line, in input order, with the batch
 * holding it; `base` is the data given to pipeline_run. Returns 0 to go on,
 * non-zero to stop the run. */
typedef int (*pipeline_apply_fn)(void *ctx, const rm_batch *b, const rm_line *l,
                                 const char *base);

/* Converts data[0, len), which must end with a line feed: lines end at LF,
 * CRLF or a bare CR, as in tlv_converter_push_bytes; lines longer than
 * max_line are not read (marked too_long). `slow`: fast paths off (see
 * rm_matcher). Returns when every line is applied or `apply` asked to stop;
 * then 1 if it stopped, else 0. */
int pipeline_run(pipeline *p, const char *data, size_t len, size_t max_line, int slow,
                 pipeline_apply_fn apply, void *ctx);

#endif
