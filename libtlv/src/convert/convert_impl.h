/*
 * convert_impl.h — what other libtlv modules need from a converter beyond
 * the public API: its world (resources and attribute histories) and an
 * internal event sink, so a trace can record events while the public event
 * function stays free for the caller.
 */
#ifndef TLV_CONVERT_IMPL_H
#define TLV_CONVERT_IMPL_H

#include "tlv/tlv.h"
#include "world/world.h"

world *converter_world(tlv_converter *c);

/* Called for every event after the public event function. */
void converter_set_sink(tlv_converter *c, tlv_event_fn fn, void *user);

/* What the converter already knows of the event it hands the sink, so the
 * sink need not look it up again: the index of its resource in the world,
 * and the ids in the world's values of its name, its value (attributes)
 * and its arguments (behaviors), each UINT32_MAX (args NULL) when not
 * known. Valid during the sink's call only. */
typedef struct converter_event_ids {
    size_t res;
    uint32_t name, value;
    const uint32_t *args;
} converter_event_ids;

const converter_event_ids *converter_sink_ids(const tlv_converter *c);

/* Turns the converter's fast paths (compiled templates, caches) off or on
 * (the default); the output must be the same either way, which tests check. */
void converter_set_fast_paths(tlv_converter *c, int on);

/* Whether an allocation failed at any point of the conversion so far (its
 * last error then says "out of memory while converting ..."). */
int converter_out_of_memory(const tlv_converter *c);

/* Lines per batch of the two-thread pipeline (0: its default); with a
 * non-zero value every run of complete lines goes through the pipeline,
 * however short, so tests can cross many batch boundaries with small inputs. */
void converter_set_batch_lines(tlv_converter *c, size_t lines);

/* Lines that went through the pipeline's matching thread so far. */
uint64_t converter_piped_lines(const tlv_converter *c);

/* What a trace cache (trace_cache.c) keeps of a converter besides its world
 * and gives back to a fresh one, so that the restored converter reports
 * what the one that converted the log did and can go on with more lines:
 * its counts, per-rule matches and tail warnings, the last error's text,
 * and what it noticed of the input. converter_get_state points into c
 * (valid until c changes); converter_set_state copies. */
typedef struct converter_state {
    tlv_convert_stats stats;    /* matching_cpu_ns not kept: no thread ran */
    uint64_t nontext_lines;
    int first_looks_std;
    const char *source;         /* tlv_converter_set_source_name's, or NULL */
    const char *last_error;
    const uint64_t *rule_matches; /* per conversion rule (rules->nrules) */
    const unsigned char *tail_warned;
} converter_state;
void converter_get_state(const tlv_converter *c, converter_state *out);
/* Returns 0, or -1 when a per-rule array is missing (no memory at creation). */
int converter_set_state(tlv_converter *c, const converter_state *in);

/* The converter's diagnostics, to be restored into (trace_cache.c). */
tlv_diags *converter_diags_rw(tlv_converter *c);

/* Its consistency report (consistency.h), kept in the cache too; NULL when
 * it could not be made. */
struct consistency *converter_consistency(tlv_converter *c);

/* Whether the caller listens to each event (an event or line function is
 * set): a trace loaded from a cache converts nothing, so it would not be
 * told. */
int converter_has_listeners(const tlv_converter *c);

/* Whether the input is read as standard form (the rules or
 * tlv_converter_set_standard_form say so). */
int converter_reads_standard_form(const tlv_converter *c);

/* The function told of unmatched lines, and its user (NULL when none). */
tlv_unmatched_fn converter_unmatched_fn(const tlv_converter *c, void **user);

#endif
