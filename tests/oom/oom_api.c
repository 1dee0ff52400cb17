/*
 * oom_api.c — the library's entry points under allocation failure, for
 * tests/oom/sweep.sh (case "api"): loads the rules, converts LOG line by
 * line through a converter and whole through a trace, builds the shapes,
 * computes statistics, counters and a breakdown, checks the rules, draws a
 * frame, and converts LOG again pushed in pieces through a trace's converter
 * (as the viewer's loader does), through the public API only. Every call either succeeds or
 * returns TLV_ERR_NOMEM with a last error (or a diagnostic) saying "out of
 * memory while ..."; the sweep compares what a successful run writes to OUT
 * with a run without failures, and checks a failed run's message.
 *
 *   oom_api RES LOG OUT    exit 0 (OUT written), 2 (out of memory, told on
 *                          stderr), 1 (anything else: a defect)
 */
#include <tlv/tlv.h> /* first: the others build on it */

#include <tlv/breakdown.h>
#include <tlv/counters.h>
#include <tlv/render.h>
#include <tlv/stats.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *log_path;

/* The outcome of one call: 0 to go on, else the exit status. A failure
 * other than running out of memory, or one without the message, is a
 * defect. */
static int outcome(const char *call, tlv_status st, const char *message)
{
    if (st == TLV_OK)
        return 0;
    if (st == TLV_ERR_NOMEM && message && strstr(message, "out of memory while")) {
        fprintf(stderr, "oom_api: %s: %s: %s\n", log_path, call, message);
        return 2;
    }
    fprintf(stderr, "oom_api: %s: %s returned %s: '%s'\n", log_path, call, tlv_status_string(st),
            message ? message : "(no message)");
    return 1;
}

/* The first diagnostic that says it ran out of memory, else "". */
static const char *nomem_diag(const tlv_diags *d)
{
    for (size_t i = 0; i < tlv_diags_count(d); i++)
        if (strstr(tlv_diags_get(d, i)->message, "out of memory while"))
            return tlv_diags_get(d, i)->message;
    return "";
}

/* The log pushed through a trace's converter, as a reader on its own
 * thread does (the viewer's loader): the pushes' statuses are not looked at,
 * so an event the trace could not keep must come out of tlv_trace_finish. */
static int pushed_trace(const tlv_rules *rules, FILE *out)
{
    tlv_trace *trace;
    if (tlv_trace_new(rules, &trace) != TLV_OK)
        return outcome("tlv_trace_new", TLV_ERR_NOMEM, "out of memory while making a trace");
    FILE *f = fopen(log_path, "rb");
    int rc = f ? 0 : outcome("fopen", TLV_ERR_NOMEM, "out of memory while opening the log");
    char chunk[512];
    size_t n;
    while (!rc && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
        (void)tlv_converter_push_bytes(tlv_trace_converter(trace), chunk, n);
    if (f)
        fclose(f);
    if (!rc)
        rc = outcome("tlv_trace_finish", tlv_trace_finish(trace), tlv_trace_last_error(trace));
    if (!rc)
        fprintf(out, "pushed trace: %zu events\n", tlv_trace_event_count(trace));
    tlv_trace_free(trace);
    return rc;
}

static int count_event(void *user, const tlv_event *ev)
{
    (void)ev;
    ++*(size_t *)user;
    return 0;
}

/* The log pushed line by line through a converter: the event count. */
static int convert_lines(const tlv_rules *rules, FILE *out)
{
    tlv_converter *c;
    if (tlv_converter_new(rules, &c) != TLV_OK)
        return outcome("tlv_converter_new", TLV_ERR_NOMEM, "out of memory while making a converter");
    size_t events = 0;
    tlv_converter_set_event_fn(c, count_event, &events);
    FILE *f = fopen(log_path, "rb");
    int rc = f ? 0 : outcome("fopen", TLV_ERR_NOMEM, "out of memory while opening the log");
    char line[4096];
    while (!rc && fgets(line, sizeof line, f)) {
        tlv_status st = tlv_converter_push_line(c, line, strcspn(line, "\n"));
        rc = outcome("tlv_converter_push_line", st, tlv_converter_last_error(c));
    }
    if (f)
        fclose(f);
    if (!rc)
        rc = outcome("tlv_converter_finish", tlv_converter_finish(c), tlv_converter_last_error(c));
    if (!rc)
        fprintf(out, "converter: %zu events\n", events);
    tlv_converter_free(c);
    return rc;
}

static int stats_and_counters(const tlv_trace *trace, FILE *out)
{
    tlv_stats_options so = TLV_STATS_OPTIONS_INIT;
    tlv_stats *stats = NULL;
    int rc = outcome("tlv_stats_compute", tlv_stats_compute(trace, &so, &stats),
                     tlv_trace_last_error(trace));
    if (!rc) {
        fprintf(out, "stats: %zu states\n", tlv_stats_state_count(stats));
        for (size_t i = 0; i < tlv_stats_state_count(stats); i++) {
            tlv_state_stat s;
            tlv_stats_state(stats, i, &s);
            fprintf(out, "  %s %s %zu %.6g\n", s.resource, s.state, s.count, s.total);
        }
    }
    tlv_stats_free(stats);
    tlv_counters *cs = NULL;
    if (!rc)
        rc = outcome("tlv_counters_compute", tlv_counters_compute(trace, &cs),
                     "out of memory while computing the counters"); /* no handle to keep it on */
    if (!rc)
        fprintf(out, "counters: %zu\n", tlv_counters_count(cs));
    tlv_counters_free(cs);
    return rc;
}

static int shapes_and_frame(const tlv_trace *trace, FILE *out)
{
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    tlv_shapes *shapes = NULL;
    tlv_status st = tlv_shapes_build(trace, &o, &shapes);
    int rc = outcome("tlv_shapes_build", st, shapes ? tlv_shapes_last_error(shapes) : NULL);
    if (rc) {
        tlv_shapes_free(shapes);
        return rc;
    }
    size_t n = tlv_shapes_count(shapes);
    fprintf(out, "shapes: %zu in %zu rows\n", n, tlv_shapes_row_count(shapes));
    for (size_t i = 0; i < n; i++) {
        tlv_shape_info sh;
        tlv_shapes_get(shapes, i, &sh);
        fprintf(out, "  %s %s %s %lld %s\n", sh.rule, sh.event, sh.resource ? sh.resource : "-",
                (long long)sh.from.ticks, sh.text ? sh.text : "-");
    }
    tlv_breakdown_entry *e = NULL;
    size_t ne = 0;
    if (tlv_shapes_row_count(shapes)) {
        rc = outcome("tlv_shapes_breakdown",
                     tlv_shapes_breakdown(shapes, 0, tlv_trace_start(trace), tlv_trace_end(trace), &e, &ne),
                     tlv_shapes_last_error(shapes));
        if (!rc)
            fprintf(out, "breakdown of row 0: %zu entries\n", ne);
        tlv_breakdown_free(e);
    }
    tlv_renderer *r = NULL;
    if (!rc)
        rc = outcome("tlv_renderer_new", tlv_renderer_new(&r), "out of memory while loading the fonts");
    if (!rc) {
        enum { W = 200, H = 120 };
        uint8_t *pixels = calloc((size_t)W * H, 4);
        tlv_view v;
        tlv_view_fit(&v, shapes, W, H);
        rc = pixels ? outcome("tlv_render_rgba", tlv_render_rgba(r, shapes, &v, pixels, W * 4),
                              tlv_renderer_last_error(r))
                    : outcome("calloc", TLV_ERR_NOMEM, "out of memory while making the pixels");
        unsigned long sum = 0;
        for (size_t i = 0; !rc && i < (size_t)W * H * 4; i++)
            sum = sum * 31 + pixels[i];
        if (!rc)
            fprintf(out, "frame: %lx\n", sum);
        free(pixels);
    }
    tlv_renderer_free(r);
    tlv_shapes_free(shapes);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: oom_api RES LOG OUT\n");
        return 1;
    }
    const char *res = argv[1], *out_path = argv[3];
    log_path = argv[2];
    tlv_rules_options opts;
    tlv_rules_options_init(&opts);
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_load(res, &opts, &rules);
    /* no handle: documented for TLV_ERR_NOMEM only (there is then nowhere to say more) */
    int rc = outcome("tlv_rules_load", st,
                     rules ? nomem_diag(tlv_rules_diags(rules)) : "out of memory while making the rules");
    tlv_rules *checked = NULL;
    if (!rc) {
        const char *files[] = {NULL};
        st = tlv_rules_check(res, files, 0, &opts, &checked);
        rc = outcome("tlv_rules_check", st,
                     checked ? nomem_diag(tlv_rules_diags(checked)) : "out of memory while making the rules");
        tlv_rules_free(checked);
    }
    FILE *out = NULL;
    if (!rc) {
        out = fopen(out_path, "w");
        rc = out ? 0 : outcome("fopen", TLV_ERR_NOMEM, "out of memory while opening the output");
    }
    if (!rc)
        rc = convert_lines(rules, out);
    tlv_trace *trace = NULL;
    if (!rc)
        rc = outcome("tlv_trace_new", tlv_trace_new(rules, &trace), "out of memory while making a trace");
    if (!rc)
        rc = outcome("tlv_trace_load_file", tlv_trace_load_file(trace, log_path),
                     tlv_trace_last_error(trace));
    if (!rc) {
        fprintf(out, "trace: %zu events\n", tlv_trace_event_count(trace));
        rc = stats_and_counters(trace, out);
    }
    if (!rc)
        rc = shapes_and_frame(trace, out);
    tlv_trace_free(trace);
    if (!rc)
        rc = pushed_trace(rules, out);
    tlv_rules_free(rules);
    if (out && fclose(out) != 0 && !rc)
        rc = outcome("fclose", TLV_ERR_NOMEM, "out of memory while writing the output");
    if (rc)
        remove(out_path);
    return rc;
}
