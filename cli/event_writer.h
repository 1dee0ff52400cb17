/*
 * event_writer.h — `tlv convert`'s output: every event as its standard-form
 * line (tlv_event_format), in order. Threaded, the converting thread only
 * appends each line to a block of text and a writer thread of its own
 * writes the blocks, so writing overlaps with converting. The lines come
 * from the converter (event_writer_put_line, a tlv_line_fn: mostly a copy
 * of a remembered text) or are formatted from the event (event_writer_put).
 * The bytes written are the same either way.
 */
#ifndef TLV_EVENT_WRITER_H
#define TLV_EVENT_WRITER_H

#include <tlv/tlv.h>

#include <stdint.h>
#include <stdio.h>

typedef struct event_writer event_writer;

/* Writes to f (which only the writer uses until event_writer_finish) with
 * times in `radix`; `threaded`: on a thread of its own (when one cannot be
 * started, inline). Returns NULL when memory ran out. */
event_writer *event_writer_new(FILE *f, int radix, int threaded);

/* A tlv_event_fn: takes one event. Returns 0, or 1 (stop converting) once
 * writing failed or memory ran out. */
int event_writer_put(void *writer, const tlv_event *ev);

/* A tlv_line_fn: takes one event's line (without line end). Returns as
 * event_writer_put. */
int event_writer_put_line(void *writer, const tlv_event *ev, const char *line, size_t len);

/* Writes everything taken so far and stops the thread. Returns 0, -1 when
 * writing failed, -2 when memory ran out. */
int event_writer_finish(event_writer *w);

/* CPU time the writer thread spent, in nanoseconds (0 when inline); valid
 * after event_writer_finish. */
uint64_t event_writer_cpu_ns(const event_writer *w);

/* Finishes when not yet finished, and frees (NULL is allowed). */
void event_writer_free(event_writer *w);

#endif
