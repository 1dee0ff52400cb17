/*
 * bench_viz.c — how long drawing takes on a large trace, next to how long
 * converting it takes in the same run (the baseline the ratios are printed
 * against): building every shape, then rendering a full-range 1920x1080
 * frame and a deeply zoomed one (median, 99th percentile and worst of
 * 100 frames by default).
 *
 *   bench_viz [-R DIR] -r FILE.res LOG [frames]
 *
 * Goals (issue 3): shapes in under 3 s for 1,000,000 lines; each frame under
 * 16 ms at the 99th percentile. Issue 16: the shapes built (default threads)
 * in at most the conversion's time; the serial build (threads = 1) is built
 * first and printed as the baseline of the parallel one. Run by tests/bench/bench_viz.sh; not a unit test.
 */
#include "bench_util.h"

#include <tlv/render.h>
#include <tlv/tlv.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void frames(tlv_renderer *r, const tlv_shapes *s, tlv_view *v, int n, const char *what)
{
    size_t stride = (size_t)v->width * 4;
    uint8_t *px = malloc(stride * (size_t)v->height);
    double *t = calloc((size_t)n, sizeof *t);
    for (int i = 0; i < n; i++) {
        double t0 = now();
        tlv_render_rgba(r, s, v, px, stride);
        t[i] = (now() - t0) * 1000;
    }
    qsort(t, (size_t)n, sizeof *t, cmp_double);
    /* The goal is the 99th percentile: a median under 16 ms can hide the
     * frames a person notices stutter. */
    double p99 = t[(size_t)ceil(0.99 * n) - 1];
    printf("%-34s median %7.2f ms   p99 %7.2f ms   worst %7.2f ms   (goal p99 < 16 ms)  %s\n",
           what, t[n / 2], p99, t[n - 1], p99 < 16 ? "PASS" : "FAIL");
    free(t);
    free(px);
}

int main(int argc, char **argv)
{
    const char *dirs[8];
    size_t ndirs = 0;
    const char *res = NULL, *log = NULL;
    int nframes = 100;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-R") == 0 && i + 1 < argc && ndirs < 8)
            dirs[ndirs++] = argv[++i];
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            res = argv[++i];
        else if (!log)
            log = argv[i];
        else
            nframes = atoi(argv[i]);
    }
    if (!res || !log || nframes < 1) {
        fprintf(stderr, "usage: bench_viz [-R DIR]... -r FILE.res LOG [frames]\n");
        return 2;
    }
    tlv_rules *rules = bench_load_rules("bench_viz", res, dirs, ndirs);
    tlv_trace *trace;
    tlv_trace_new(rules, &trace);
    double t0 = now();
    if (tlv_trace_load_file(trace, log) == TLV_ERR_IO) {
        fprintf(stderr, "bench_viz: cannot read %s\n", log);
        return 2;
    }
    double convert_s = now() - t0;
    /* the serial build first, the baseline of the parallel one (issue 16) */
    tlv_shapes_options so = TLV_SHAPES_OPTIONS_INIT;
    so.threads = 1;
    tlv_shapes *shapes;
    t0 = now();
    tlv_shapes_build(trace, &so, &shapes);
    double serial_s = now() - t0;
    tlv_shapes_free(shapes);
    t0 = now();
    tlv_shapes_build(trace, NULL, &shapes);
    double shapes_s = now() - t0;
    printf("events %zu, shapes %zu, rows %zu\n", tlv_trace_event_count(trace),
           tlv_shapes_count(shapes), tlv_shapes_row_count(shapes));
    printf("%-34s %7.3f s  (baseline)\n", "convert into a trace", convert_s);
    printf("%-34s %7.3f s  = %.2f x convert\n", "build all shapes, 1 thread", serial_s,
           serial_s / convert_s);
    printf("%-34s %7.3f s  = %.2f x convert = %.2f x 1 thread   (goals < 3 s, <= 1 x convert)"
           "  %s\n", "build all shapes, default threads", shapes_s, shapes_s / convert_s,
           shapes_s / serial_s, shapes_s < 3 && shapes_s <= convert_s ? "PASS" : "FAIL");
    tlv_renderer *r;
    if (tlv_renderer_new(&r) == TLV_OK) {
        tlv_view v;
        tlv_view_fit(&v, shapes, 1920, 1080);
        frames(r, shapes, &v, nframes, "render full range 1920x1080");
        double mid = (v.t0 + v.t1) / 2, span = (v.t1 - v.t0) / 100000;
        v.t0 = mid - span;
        v.t1 = mid + span;
        frames(r, shapes, &v, nframes, "render 1/100000 zoom 1920x1080");
        tlv_renderer_free(r);
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return 0;
}
