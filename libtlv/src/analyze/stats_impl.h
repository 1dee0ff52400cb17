/*
 * stats_impl.h — what the analysis modules read of tlv_stats (stats.c)
 * beyond its public API: a processor's busy stretches themselves, for the
 * sliding windows of timing requirements (verify.c).
 */
#ifndef TLV_STATS_IMPL_H
#define TLV_STATS_IMPL_H

#include "tlv/tlv.h"

#include <stddef.h>

/* Processor `cpu`'s busy stretches, merged and in time order: their number,
 * and in *pairs their (from, to) times, two doubles each, in TimeScale
 * units; valid as long as the statistics. */
size_t stats_cpu_spans(const tlv_stats *s, size_t cpu, const double **pairs);

/* tlv_stats_busy_in(s, cpu, from, to) for one processor, the same figure,
 * for a sweep of windows whose starts and ends never go back: at[2] (zeroed
 * before the first window) remembers where the last one's ends fell among
 * the stretches, so each window costs a step instead of two binary searches
 * over all of them (the cpu check of `tlv verify` reads four windows per
 * stretch). */
double stats_busy_in_sweep(const tlv_stats *s, size_t cpu, double from, double to, size_t at[2]);

#endif
