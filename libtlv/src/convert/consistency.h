/*
 * consistency.h — the converter's consistency report (tlv/convert.h,
 * tlv_converter_inconsistency): every event that contradicts the state the
 * trace is in, by what the rule set declares impossible for its resources
 * ("Impossible" entries of the .resh types, rules/impossible.c) and, when
 * the resource file says the log's lines come in time order
 * ("InTimeOrder"), every line whose time goes back. Each is kept with its
 * log line; counts per declaration are exact, the list is capped.
 */
#ifndef TLV_CONSISTENCY_H
#define TLV_CONSISTENCY_H

#include "base/buf.h"
#include "rules/rules_impl.h"
#include "world/world.h"

#include <stdint.h>

typedef struct consistency consistency;

/* What `rules` declares, ready to check events against (NULL when memory
 * ran out). `time_order`: check that the lines' times go forward. */
consistency *consistency_new(const struct tlv_rules *rules, int time_order);
void consistency_free(consistency *k);

/* Whether any check applies: when not, the converter skips the calls. */
int consistency_active(const consistency *k);

/* Checks the event ev just applied to resource `res` of w: an attribute
 * change (attr >= 0) was recorded with sequence number `seq`, so the state
 * just before it is the state at (ev->time, seq); for a behavior (attr < 0)
 * seq is w->next_seq. `lines`: ev came from a log line (not a standard-form
 * trace, whose lines are events in conversion order, not in time order), so
 * the time order of lines is checked. Returns 0, or -1 when memory ran out. */
int consistency_event(consistency *k, world *w, size_t res, long attr, uint32_t seq,
                      const tlv_event *ev, int lines);

/* The report (see tlv/convert.h). */
uint64_t consistency_count(const consistency *k);
size_t consistency_listed(const consistency *k);
void consistency_get(const consistency *k, const world *w, size_t i, tlv_inconsistency *out);
size_t consistency_check_count(const consistency *k);
void consistency_check_get(const consistency *k, size_t i, tlv_consistency_check *out);

/* The report and the time-order state, as the trace cache keeps them
 * (docs/cache.md, "CONSISTENCY"): appended to out as plain numbers and the
 * messages (0, or -1 out of memory); and read back into a report of the
 * same rules that has seen nothing: 0, 1 when the bytes are inconsistent
 * (k unchanged: a damaged or hostile cache) or -1 out of memory. `nres`
 * bounds the resources the list may name. */
int consistency_pack(const consistency *k, buf *out);
int consistency_unpack(consistency *k, const void *data, size_t n, size_t nres);

#endif
