/*
 * prefilter.h — skipping rules that cannot match a line. Every line must be
 * tried against every conversion rule, and most rules fail on most lines;
 * running each regex costs more than the rest of the conversion. So each
 * regex is analysed once for a literal that every match must contain
 * ("] dispatch to task "), and one scan of the line finds which literals
 * occur: only those rules (and rules without a usable literal) are run.
 */
#ifndef TLV_PREFILTER_H
#define TLV_PREFILTER_H

#include <stddef.h>
#include <stdint.h>

/* The longest literal that every match of `pattern` (PCRE2 syntax, default
 * options) must contain, found conservatively: NULL when the pattern has
 * top-level alternation, inline options, or no literal of at least
 * `min_len` bytes. The result is malloc'ed. */
char *prefilter_required_literal(const char *pattern, size_t min_len);

typedef struct prefilter prefilter;

/* Builds a filter for n rules; literals[i] is rule i's required literal or
 * NULL (then rule i is always a candidate). Returns NULL on no memory. */
prefilter *prefilter_new(char *const *literals, size_t n);
void prefilter_free(prefilter *p);

/* Marks in `candidate` (n bytes, set to 0 or 1) the rules that may match
 * the line. */
void prefilter_scan(const prefilter *p, const char *line, size_t len, unsigned char *candidate);

/* True when the scan runs one automaton over the line (small literal sets),
 * false when it looks literals up in buckets (large ones). For tests. */
int prefilter_uses_automaton(const prefilter *p);

#endif
