/*
 * memory.c — memory accounting (tlv_trace_memory, tlv_shapes_memory in
 * <tlv/shapes.h>): adds up what a trace and a shapes handle hold, part by
 * part, from the sizes their modules report (world.c, store.c, intern.c), so
 * that the bytes per event the viewer keeps resident can be reported by the
 * benchmark and bounded by a unit test on counts rather than on timings.
 */
#include "base/abi.h"
#include "viz/viz_impl.h"

#include <string.h>

/* Adds one part to a running total and reports it. */
typedef struct tally {
    size_t total;
    tlv_memory_fn fn;
    void *user;
} tally;

static void add(tally *t, const char *part, size_t bytes)
{
    t->total += bytes;
    if (t->fn)
        t->fn(t->user, part, bytes);
}

TLV_API size_t tlv_trace_memory(const tlv_trace *trace, tlv_memory_fn fn, void *user)
{
    tally t = {0, fn, user};
    if (!trace)
        return 0;
    add(&t, "events", sizeof *trace + (trace->ev_file.at ? 0 : trace->cap * sizeof *trace->ev) +
                          trace->frac_cap * sizeof *trace->frac);
    if (trace->ev_file.at)
        add(&t, "events" TLV_MEMORY_FILE_BACKED, trace->ev_file.bytes);
    add(&t, "event lines and sequences", numcol_bytes(&trace->lines) + numcol_bytes(&trace->seqs));
    add(&t, "event arguments", trace->args_cap * sizeof *trace->args +
                                   (trace->arg_text ? (trace->narg_text + 1) * sizeof *trace->arg_text : 0));
    world_bytes wb;
    world_count_bytes(trace->w, &wb);
    add(&t, "attribute histories", wb.histories);
    add(&t, "values and names", wb.values);
    add(&t, "resources", wb.resources);
    add(&t, "converter caches", wb.caches);
    return t.total;
}

static size_t prim_bytes(const tlv_shapes *s)
{
    size_t bytes = s->prims_cap * sizeof *s->prims;
    for (size_t i = 0; i < s->nprims; i++)
        bytes += s->prims[i].text ? strlen(s->prims[i].text) + 1 : 0;
    return bytes;
}

static size_t row_bytes(const tlv_shapes *s)
{
    size_t bytes = s->rows_cap * sizeof *s->rows;
    for (size_t i = 0; i < s->nrows; i++)
        bytes += (s->rows[i].label ? strlen(s->rows[i].label) + 1 : 0) +
                 (s->rows[i].group ? strlen(s->rows[i].group) + 1 : 0);
    return bytes;
}

TLV_API size_t tlv_shapes_memory(const tlv_shapes *s, tlv_memory_fn fn, void *user)
{
    tally t = {0, fn, user};
    if (!s)
        return 0;
    store_bytes main, layers;
    store_count_bytes(s->store, &main);
    store_count_bytes(s->looks.layers, &layers);
    add(&t, "shapes", main.shapes);
    if (main.file)
        add(&t, "shapes" TLV_MEMORY_FILE_BACKED, main.file);
    add(&t, "shape index", main.index + main.pyramids);
    add(&t, "summary layers", layers.shapes + layers.index + s->looks.cap * sizeof *s->looks.look +
                                  (s->looks.layer_look ? (s->looks.layers ? store_rows(s->looks.layers) : 0) *
                                                             sizeof *s->looks.layer_look : 0) +
                                  (s->looks.row_first ? (s->looks.nrows + 1) * sizeof *s->looks.row_first : 0) +
                                  summary_texts_bytes(&s->looks.texts));
    add(&t, "summary pyramids", layers.pyramids);
    add(&t, "shape events and values",
        (s->order ? (store_count(s->store) + 1) * sizeof *s->order : 0) +
            (s->values_file.at ? 0 : s->values_cap * sizeof *s->values) +
            (s->events_file.at ? 0 : s->events_cap * sizeof *s->events) + s->nwhen * sizeof *s->when_keys);
    if (s->values_file.at || s->events_file.at)
        add(&t, "shape events and values" TLV_MEMORY_FILE_BACKED,
            s->values_file.bytes + s->events_file.bytes);
    add(&t, "names and joined values", intern_bytes(s->names) + intern_bytes(s->joined) +
                                           s->nrules * (2 * sizeof *s->rule_name + sizeof *s->rule_skipped));
    add(&t, "primitives and rows", sizeof *s + prim_bytes(s) + row_bytes(s));
    add(&t, "flows", s->flows_cap * sizeof *s->flows);
    return t.total;
}
