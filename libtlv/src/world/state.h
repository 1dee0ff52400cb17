/*
 * state.h — the history of one attribute of one resource: its changes kept
 * sorted by (time, sequence), so "the value at time T" is a binary search
 * (spec §7 requires O(log n); the original scanned every event). A log whose
 * time jumps backwards (a reset, a wrapped timer) would make every later
 * change an insertion into the middle; such changes start a new sorted run
 * instead, and runs are merged as they grow (at most ~log2 n of them).
 */
#ifndef TLV_STATE_H
#define TLV_STATE_H

#include "tlv/tlv.h"

#include <stddef.h>
#include <stdint.h>

/* A change as kept: 16 bytes, its time's fraction apart (history.frac). */
typedef struct change {
    int64_t ticks;  /* the time's whole ticks */
    uint32_t seq;   /* order of production: later lines win ties */
    uint32_t val;   /* interned value */
} change;

typedef struct history {
    change *c;      /* the runs, one after the other */
    uint64_t *frac; /* by change: its time's fraction; NULL while every one is
                       0 (most logs), which saves 8 bytes a change */
    uint32_t n, cap;
    uint32_t init;  /* value before the first change */
    uint32_t nruns; /* sorted runs in c when runs != NULL (else c is one run) */
    uint32_t *runs; /* start of each run; each run is at least twice as long
                       as the next, so there are at most HISTORY_MAX_RUNS */
} history;

#define HISTORY_MAX_RUNS 40

#define SEQ_ALL UINT32_MAX

/* Records a change. Changes usually arrive in time order; slightly
 * out-of-order ones (multi-core logs) are moved into place from the end,
 * ones further back start a new run. Returns 0 or -1 when memory ran out. */
int history_set(history *h, tlv_time t, uint32_t seq, uint32_t val);

/* The value at time `at`: the latest change with (time, seq) before
 * (at, seq_limit) — pass SEQ_ALL to see every change at `at` itself — else
 * the initial value. */
uint32_t history_at(const history *h, tlv_time at, uint32_t seq_limit);

/* The time of change i (< h->n) of the runs. */
tlv_time history_time(const history *h, uint32_t i);

/* The value after every change so far (the last in time order). */
uint32_t history_last(const history *h);

void history_free(history *h);

/* Gives back the unused end of the changes array (see shrink_array). */
void history_shrink(history *h);

/* Bytes the history's arrays hold (not the struct itself). */
size_t history_bytes(const history *h);

#endif
