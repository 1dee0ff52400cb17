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

#endif
