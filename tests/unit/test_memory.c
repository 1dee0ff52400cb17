/*
 * test_memory.c — memory accounting (tlv_trace_memory, tlv_shapes_memory):
 * on a generated TOPPERS/ASP log (tlv-gen, the TLV 2.0.1 ASP rules) the
 * parts add up to the total, the events are counted at their real size,
 * and the bytes per event a viewer keeps resident — the trace plus its
 * shapes, in both row modes — stay under the bound below (issue 16). A
 * count, not a timing: the same on every machine. Skips without the corpus.
 */
#include "check.h"
#include "scratch.h"

#include "trace/trace_impl.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bytes per event of trace + shapes, as measured now plus a little. Issue
 * 16's goal is 64 at 10M lines; see
 * tests/bench/bench_mem.sh for where the rest goes. */
#define MAX_BYTES_PER_EVENT 94

typedef struct parts {
    size_t sum, events, layers, shapes, values, values_file;
    int n;
} parts;

static void note_part(void *user, const char *part, size_t bytes)
{
    parts *p = user;
    p->sum += bytes;
    p->n++;
    if (strcmp(part, "events") == 0)
        p->events = bytes;
    else if (strcmp(part, "summary layers") == 0)
        p->layers = bytes;
    else if (strcmp(part, "shapes") == 0)
        p->shapes = bytes;
    else if (strcmp(part, "shape events and values") == 0)
        p->values = bytes;
    else if (strcmp(part, "shape events and values" TLV_MEMORY_FILE_BACKED) == 0)
        p->values_file = bytes;
}

static double per_event(const tlv_trace *trace, const tlv_shapes *shapes, const char *what)
{
    parts tp = {0}, sp = {0};
    size_t t = tlv_trace_memory(trace, note_part, &tp);
    size_t s = tlv_shapes_memory(shapes, note_part, &sp);
    size_t nev = tlv_trace_event_count(trace);
    CHECK_INT(tp.sum, t);
    CHECK_INT(sp.sum, s);
    CHECK(tp.n >= 4 && sp.n >= 4);
    CHECK_INT(tlv_trace_memory(trace, NULL, NULL), t);
    CHECK_INT(tlv_shapes_memory(shapes, NULL, NULL), s);
    /* finished: the events array holds exactly the events (and the handle) */
    CHECK_INT(tp.events, sizeof(tlv_trace) + nev * sizeof(trace_event));
    /* the summary layers refer to the shapes rather than copy them: copies,
     * with their search indexes, would take more than the shapes */
    CHECK(sp.layers < sp.shapes);
    double b = (double)(t + s) / (double)nev;
    printf("%s: %zu events, %zu shapes: trace %.1f + shapes %.1f = %.1f bytes per event "
           "(bound %d)\n", what, nev, tlv_shapes_count(shapes), (double)t / (double)nev,
           (double)s / (double)nev, b, MAX_BYTES_PER_EVENT);
    CHECK(b <= MAX_BYTES_PER_EVENT);
    return b;
}

static size_t events_part(const tlv_trace *trace)
{
    parts p = {0};
    tlv_trace_memory(trace, note_part, &p);
    return p.events;
}

typedef struct two_parts {
    size_t events, file;
} two_parts;

static void note_events(void *user, const char *part, size_t bytes)
{
    two_parts *p = user;
    if (strcmp(part, "events") == 0)
        p->events = bytes;
    else if (strcmp(part, "events" TLV_MEMORY_FILE_BACKED) == 0)
        p->file = bytes;
}

/* The trace of `text` read in 5 pieces, kept open (a log that may grow, as
 * the viewer reads it); its events grow in a temporary file past file_min
 * bytes. */
static tlv_trace *read_open(const tlv_rules *rules, const char *text, size_t len, size_t file_min)
{
    tlv_trace *trace = NULL;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    trace->file_min = file_min;
    size_t chunk = len / 5 + 1;
    for (size_t at = 0; text && at < len; at += chunk) {
        size_t n = len - at < chunk ? len - at : chunk;
        CHECK_INT(tlv_converter_push_bytes(tlv_trace_converter(trace), text + at, n), TLV_OK);
        CHECK_INT(tlv_trace_update(trace), TLV_OK);
    }
    return trace;
}

/* A trace kept open holds up to twice its events between updates;
 * tlv_trace_trim gives that back, in memory and in the file alike. A trace
 * whose events are in the file holds the same events, and counts them as a
 * file-backed part. */
static void trim_while_open(const tlv_rules *rules, const char *log)
{
    size_t len = 0;
    char *text = read_all(log, &len);
    tlv_trace *trace = read_open(rules, text, len, BULK_MIN_BYTES);
    size_t nev = tlv_trace_event_count(trace);
    size_t exact = sizeof(tlv_trace) + nev * sizeof(trace_event);
    CHECK(events_part(trace) > exact); /* grown by doubling since the last trim */
    tlv_trace_trim(trace);
    CHECK_INT(events_part(trace), exact);
    tlv_trace_trim(NULL);

    tlv_trace *filed = read_open(rules, text, len, 1 << 20);
    CHECK_INT(tlv_trace_event_count(filed), nev);
    two_parts p = {0};
    tlv_trace_memory(filed, note_events, &p);
    CHECK_INT(p.events, sizeof(tlv_trace));
    CHECK(p.file > nev * sizeof(trace_event)); /* grown by doubling */
    tlv_trace_trim(filed);
    tlv_trace_memory(filed, note_events, &p);
    CHECK_INT(p.file, nev * sizeof(trace_event));
    CHECK(nev && memcmp(filed->ev, trace->ev, nev * sizeof(trace_event)) == 0);
    tlv_trace_free(filed);
    tlv_trace_free(trace);
    free(text);
}

static int same_text(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether shape i of a and of b are the same in every field. */
static int same_shape(const tlv_shapes *a, const tlv_shapes *b, size_t i)
{
    tlv_shape_info x, y;
    tlv_shapes_get(a, i, &x);
    tlv_shapes_get(b, i, &y);
    return same_text(x.rule, y.rule) && same_text(x.event, y.event) &&
           same_text(x.resource, y.resource) && x.row == y.row &&
           tlv_time_cmp(x.from, y.from) == 0 && tlv_time_cmp(x.to, y.to) == 0 &&
           same_text(x.type, y.type) && same_text(x.text, y.text) && x.fill == y.fill &&
           x.has_fill == y.has_fill && x.pen == y.pen && x.has_pen == y.has_pen &&
           x.is_when == y.is_when && same_text(x.value, y.value) &&
           x.from_event == y.from_event && x.to_event == y.to_event;
}

static tlv_trace *load_with_file_min(const tlv_rules *rules, const char *log, size_t file_min)
{
    tlv_trace *trace = NULL;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    trace->file_min = file_min;
    CHECK_INT(tlv_trace_load_file(trace, log), TLV_OK);
    return trace;
}

/* The arrays the shape build grows or sizes by the events (the builder's
 * copy of the events, its lists and index, the shapes as added, their
 * values and events) go to temporary files past the trace's file_min: built
 * so, on one thread and on three, the shapes are the in-memory build's,
 * field by field, and the shapes' values and events are counted as a
 * file-backed part, their bytes no longer in memory. */
static void filed_build(const tlv_rules *rules, const char *log)
{
    tlv_trace *mem = load_with_file_min(rules, log, SIZE_MAX);
    tlv_trace *filed = load_with_file_min(rules, log, 4096);
    tlv_shapes_options so = TLV_SHAPES_OPTIONS_INIT;
    tlv_shapes *a = NULL;
    CHECK_INT(tlv_shapes_build(mem, &so, &a), TLV_OK);
    for (int threads = 1; threads <= 3; threads += 2) {
        so.threads = threads;
        tlv_shapes *b = NULL;
        CHECK_INT(tlv_shapes_build(filed, &so, &b), TLV_OK);
        size_t n = tlv_shapes_count(a), differ = 0;
        CHECK_INT(tlv_shapes_count(b), n);
        for (size_t i = 0; i < n && i < tlv_shapes_count(b); i++)
            differ += !same_shape(a, b, i);
        CHECK_INT(differ, 0);
        parts pa = {0}, pb = {0};
        tlv_shapes_memory(a, note_part, &pa);
        tlv_shapes_memory(b, note_part, &pb);
        CHECK_INT(pa.values_file, 0);
        /* two 32-bit events and one value a shape, in the file */
        CHECK(pb.values_file >= n * 3 * sizeof(uint32_t));
        CHECK(pb.values + n * 3 * sizeof(uint32_t) <= pa.values);
        tlv_shapes_free(b);
    }
    tlv_shapes_free(a);
    tlv_trace_free(filed);
    tlv_trace_free(mem);
}

/* Generates a log of `lines` lines of `kernel` with tlv-gen, converts it
 * with the corpus rules and resource file samples/gen/RES, builds its shapes
 * (per processor when cpu_attribute is set) and checks the accounting. */
static void measure(const char *gen, const char *src, const char *rules_dir, const char *kernel,
                    const char *res, int lines, const char *cpu_attribute)
{
    char log[PATH_MAX + 32], res_path[PATH_MAX + 64], cmd[3 * PATH_MAX];
    snprintf(log, sizeof log, "%s/%s.log", tmpdir, kernel);
    snprintf(res_path, sizeof res_path, "%s/samples/gen/%s", src, res);
    snprintf(cmd, sizeof cmd, "'%s' --kernel %s --lines %d --seed 1 -o '%s'", gen, kernel, lines,
             log);
    CHECK_INT(system(cmd), 0);
    const char *dirs[] = {rules_dir};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    tlv_rules *rules = NULL;
    CHECK_INT(tlv_rules_load(res_path, &o, &rules), TLV_OK);
    tlv_trace *trace = NULL;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    CHECK_INT(tlv_trace_load_file(trace, log), TLV_OK);
    CHECK(tlv_trace_event_count(trace) > (size_t)lines); /* about two events a line */
    tlv_shapes_options so = TLV_SHAPES_OPTIONS_INIT;
    so.cpu_attribute = cpu_attribute;
    tlv_shapes *shapes = NULL;
    CHECK_INT(tlv_shapes_build(trace, &so, &shapes), TLV_OK);
    per_event(trace, shapes, cpu_attribute ? "fmp, per CPU" : "asp, per resource");
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    if (!cpu_attribute) {
        trim_while_open(rules, log);
        filed_build(rules, log);
    }
    tlv_rules_free(rules);
}

int main(void)
{
    const char *gen = getenv("TLV_GEN"), *src = getenv("TLV_SOURCE_DIR");
    const char *env = getenv("TLV_CORPUS");
    char corpus[PATH_MAX], rules_dir[PATH_MAX + 16], probe[PATH_MAX + 32];
    if (!gen || !src)
        SKIP("TLV_GEN and TLV_SOURCE_DIR not set (run through ctest)");
    snprintf(corpus, sizeof corpus, "%s", env && *env ? env : "");
    if (!*corpus)
        snprintf(corpus, sizeof corpus, "%s/../shared/corpus/tlv-2.0.1", src);
    snprintf(rules_dir, sizeof rules_dir, "%s/rules", corpus);
    snprintf(probe, sizeof probe, "%s/asp.cnv", rules_dir);
    if (access(probe, R_OK) != 0)
        SKIP("corpus not found (../shared/corpus/tlv-2.0.1)");
    CHECK_INT(tlv_trace_memory(NULL, NULL, NULL), 0);
    CHECK_INT(tlv_shapes_memory(NULL, NULL, NULL), 0);
    make_tmpdir("memory");
    measure(gen, src, rules_dir, "asp", "asp_gen.res", 200000, NULL);
    measure(gen, src, rules_dir, "fmp", "fmp_gen.res", 100000, "prcId");
    remove_tree(tmpdir);
    return CHECK_DONE();
}
