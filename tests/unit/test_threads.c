/*
 * test_threads.c — the API is safe on separate handles from separate
 * threads: two threads each load the rules, convert the same generated log
 * into a trace (pushed line by line) and build its shapes, at the same time;
 * both must produce exactly what one thread alone produced (every event's
 * standard-form line, every shape and row). Then rendering: two threads
 * each make a renderer, draw frames of their own shapes and free it, over
 * and over, so that renderers are made and freed while the other thread
 * draws (the fonts' process-wide state); every frame must have exactly the
 * pixels one thread alone drew. Last, two threads building shapes from ONE
 * trace at once: the second is refused with TLV_ERR_USAGE and a message on
 * its shapes (shapes.h), the first builds the same shapes as one thread
 * alone. Uses the small rule set of the e2e tests
 * (tests/e2e/mini).
 */
#include "check.h"
#include "scratch.h"
#include "text.h"

#include <tlv/render.h>
#include <tlv/tlv.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2000 /* repetitions of the mini log: 36,000 lines */
#define PAINT_ROUNDS 20 /* a shorter log for rendering */
#define PAINT_ITERATIONS 25 /* renderers made and freed by each drawing thread */
#define NFRAMES 3 /* frames drawn by each renderer */

static void make_log(text *log, int rounds)
{
    static const char *const steps[] = {
        "cpu 1 runs ctrl", "ctrl calls read(a, b)", "ctrl returns", "irq TIMER RUNNING",
        "irq TIMER IDLE", "log wakes", "cpu 1 runs log", "log sleeps", "cpu 1 runs ctrl",
        "ctrl sleeps", "cpu 1 idle", "cpu 2 runs ctrl", "ctrl sleeps", "cpu 2 idle",
        "log wakes", "cpu 1 runs log", "cpu 1 idle", "no rule matches this",
    };
    size_t nsteps = sizeof steps / sizeof *steps;
    for (int r = 0; r < rounds; r++)
        for (size_t i = 0; i < nsteps; i++)
            text_add(log, "[%ld] %s\n", 1000L * r + 50L * (long)i, steps[i]);
}

typedef struct job {
    const char *res_path, *rules_dir;
    const text *log;
    text out;
    int failed;
    int keep;             /* leave rules, trace and shapes for the caller */
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
} job;

static void describe_shapes(const tlv_shapes *s, text *out)
{
    for (size_t i = 0; i < tlv_shapes_row_count(s); i++) {
        tlv_row_info row;
        tlv_shapes_row(s, i, &row);
        text_add(out, "row %s %s\n", row.label, row.group);
    }
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        text_add(out, "%s/%s %s %zu %lld-%lld %s %s\n", sh.rule, sh.event,
               sh.resource ? sh.resource : "-", sh.row, (long long)sh.from.ticks,
               (long long)sh.to.ticks, sh.type, sh.text ? sh.text : "");
    }
}

/* Pushes the log a line at a time, as a live log would come. */
static tlv_status push_lines(tlv_trace *trace, const text *log)
{
    tlv_converter *conv = tlv_trace_converter(trace);
    const char *p = log->s;
    while (*p) {
        const char *nl = strchr(p, '\n');
        tlv_converter_push_line(conv, p, (size_t)(nl - p));
        p = nl + 1;
    }
    return tlv_trace_finish(trace);
}

static void *convert(void *arg)
{
    job *j = arg;
    tlv_rules *rules = NULL;
    tlv_trace *trace = NULL;
    tlv_shapes *shapes = NULL;
    tlv_shapes_options so = {sizeof(tlv_shapes_options), "cpu", NULL, NULL, NULL, 0, 0, 0};
    j->failed = load_rules_in(j->res_path, j->rules_dir, &rules) != TLV_OK ||
                tlv_trace_new(rules, &trace) != TLV_OK || push_lines(trace, j->log) != TLV_OK ||
                tlv_shapes_build(trace, &so, &shapes) != TLV_OK;
    for (size_t i = 0; !j->failed && i < tlv_trace_event_count(trace); i++) {
        tlv_event e;
        char line[512];
        tlv_trace_event(trace, i, &e);
        tlv_event_format(&e, 10, line, sizeof line);
        text_add(&j->out, "%s\n", line);
    }
    if (!j->failed)
        describe_shapes(shapes, &j->out);
    if (j->keep) {
        j->rules = rules;
        j->trace = trace;
        j->shapes = shapes;
        return NULL;
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return NULL;
}

/* ---- rendering ---------------------------------------------------------------- */

typedef struct painter {
    const tlv_shapes *shapes;    /* its own: made from its own rules and trace */
    tlv_view views[NFRAMES];
    uint8_t *expect[NFRAMES];    /* what one thread alone drew */
    int failed, mismatches;
} painter;

static size_t frame_bytes(const tlv_view *v) { return (size_t)v->width * 4 * (size_t)v->height; }

/* Draws p's frames with a new renderer into new buffers (NULL on failure). */
static int draw_frames(painter *p, uint8_t *out[NFRAMES])
{
    tlv_renderer *r = NULL;
    int failed = tlv_renderer_new(&r) != TLV_OK;
    for (int i = 0; i < NFRAMES; i++) {
        const tlv_view *v = &p->views[i];
        out[i] = malloc(frame_bytes(v));
        if (failed || !out[i] ||
            tlv_render_rgba(r, p->shapes, v, out[i], (size_t)v->width * 4) != TLV_OK)
            failed = 1;
    }
    tlv_renderer_free(r);
    return failed;
}

static void *paint(void *arg)
{
    painter *p = arg;
    for (int it = 0; it < PAINT_ITERATIONS; it++) {
        uint8_t *got[NFRAMES];
        p->failed += draw_frames(p, got);
        for (int i = 0; i < NFRAMES; i++) {
            if (got[i] && memcmp(got[i], p->expect[i], frame_bytes(&p->views[i])) != 0)
                p->mismatches++;
            free(got[i]);
        }
    }
    return NULL;
}

/* Pixels that are not the white background. */
static size_t inked(const uint8_t *px, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i += 4)
        k += px[i] != 255 || px[i + 1] != 255 || px[i + 2] != 255;
    return k;
}

static void check_rendering(const char *res_path, const char *rules_dir)
{
    text log = {0};
    make_log(&log, PAINT_ROUNDS);
    job made[2] = {{res_path, rules_dir, &log, {0}, 0, 1, NULL, NULL, NULL},
                   {res_path, rules_dir, &log, {0}, 0, 1, NULL, NULL, NULL}};
    painter p[2];
    memset(p, 0, sizeof p);
    for (int t = 0; t < 2; t++) {
        convert(&made[t]);
        CHECK(!made[t].failed);
        if (made[t].failed)
            goto out;
        p[t].shapes = made[t].shapes;
        /* each thread its own sizes and ranges: whole trace, zoomed, scrolled */
        for (int i = 0; i < NFRAMES; i++) {
            tlv_view *v = &p[t].views[i];
            tlv_view_fit(v, p[t].shapes, 480 + 160 * t + 40 * i, 200 + 30 * i);
            double span = v->t1 - v->t0;
            v->t1 = v->t0 + span / (1 + 3 * i + t);
            v->t0 += span / 50 * i;
            v->first_row = i == 2;
        }
        uint8_t *got[NFRAMES];
        CHECK(!draw_frames(&p[t], got));
        for (int i = 0; i < NFRAMES; i++) {
            p[t].expect[i] = got[i];
            /* bars and labels were drawn (a blank frame would prove nothing) */
            CHECK(got[i] && inked(got[i], frame_bytes(&p[t].views[i])) > 1000);
        }
    }
    pthread_t th[2];
    for (int t = 0; t < 2; t++)
        CHECK_INT(pthread_create(&th[t], NULL, paint, &p[t]), 0);
    for (int t = 0; t < 2; t++) {
        CHECK_INT(pthread_join(th[t], NULL), 0);
        CHECK_INT(p[t].failed, 0);
        CHECK_INT(p[t].mismatches, 0);
    }
out:
    for (int t = 0; t < 2; t++) {
        for (int i = 0; i < NFRAMES; i++)
            free(p[t].expect[i]);
        tlv_shapes_free(made[t].shapes);
        tlv_trace_free(made[t].trace);
        tlv_rules_free(made[t].rules);
        free(made[t].out.s);
    }
    free(log.s);
}

/* ---- two builds from one trace ------------------------------------------------ */

typedef struct build_job {
    const tlv_trace *trace;
    atomic_int *go;
    tlv_status st;
    tlv_shapes *shapes;
} build_job;

static void *build_from_shared(void *arg)
{
    build_job *b = arg;
    while (!atomic_load(b->go))
        ; /* both threads start at the same moment */
    tlv_shapes_options so = {sizeof(tlv_shapes_options), "cpu", NULL, NULL, NULL, 0, 0, 0};
    b->st = tlv_shapes_build(b->trace, &so, &b->shapes);
    return NULL;
}

static void check_one_trace_two_builders(const char *res_path, const char *rules_dir,
                                         const text *log)
{
    job one = {res_path, rules_dir, log, {0}, 0, 1, NULL, NULL, NULL};
    convert(&one);
    CHECK(!one.failed);
    size_t expect_count = tlv_shapes_count(one.shapes);
    int refused = 0, attempts = 0;
    for (; attempts < 200 && !refused; attempts++) {
        atomic_int go = 0;
        build_job b[2] = {{one.trace, &go, TLV_OK, NULL}, {one.trace, &go, TLV_OK, NULL}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            CHECK_INT(pthread_create(&th[i], NULL, build_from_shared, &b[i]), 0);
        atomic_store(&go, 1);
        int built = 0;
        for (int i = 0; i < 2; i++) {
            CHECK_INT(pthread_join(th[i], NULL), 0);
            CHECK(b[i].shapes != NULL);
            if (b[i].st == TLV_OK) {
                built++;
                CHECK_INT(tlv_shapes_count(b[i].shapes), expect_count);
            } else {
                CHECK_INT(b[i].st, TLV_ERR_USAGE);
                CHECK_STR(tlv_shapes_last_error(b[i].shapes),
                          "tlv_shapes_build: another thread is building shapes from this trace; "
                          "build from one trace on one thread at a time");
                CHECK_INT(tlv_shapes_count(b[i].shapes), 0);
                CHECK_INT(tlv_shapes_row_count(b[i].shapes), 0);
                refused++;
            }
            tlv_shapes_free(b[i].shapes);
        }
        CHECK(built >= 1); /* never both refused */
    }
    CHECK(refused > 0); /* the builds overlapped at least once and were refused */
    /* after the refusals the trace builds as before */
    tlv_shapes *again = NULL;
    tlv_shapes_options so = {sizeof(tlv_shapes_options), "cpu", NULL, NULL, NULL, 0, 0, 0};
    CHECK_INT(tlv_shapes_build(one.trace, &so, &again), TLV_OK);
    CHECK_INT(tlv_shapes_count(again), expect_count);
    tlv_shapes_free(again);
    tlv_shapes_free(one.shapes);
    tlv_trace_free(one.trace);
    tlv_rules_free(one.rules);
    free(one.out.s);
}

int main(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        SKIP("TLV_SOURCE_DIR is not set");
    char res_path[1100], rules_dir[1024];
    snprintf(rules_dir, sizeof rules_dir, "%s/tests/e2e/mini", src);
    snprintf(res_path, sizeof res_path, "%s/mini.res", rules_dir);
    text log = {0};
    make_log(&log, ROUNDS);

    job alone = {res_path, rules_dir, &log, {0}, 0, 0, NULL, NULL, NULL};
    convert(&alone);
    CHECK(!alone.failed);
    CHECK(alone.out.n > 100000); /* events and shapes were made */

    job two[2] = {{res_path, rules_dir, &log, {0}, 0, 0, NULL, NULL, NULL},
                  {res_path, rules_dir, &log, {0}, 0, 0, NULL, NULL, NULL}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK_INT(pthread_create(&th[i], NULL, convert, &two[i]), 0);
    for (int i = 0; i < 2; i++) {
        CHECK_INT(pthread_join(th[i], NULL), 0);
        CHECK(!two[i].failed);
        CHECK_INT(two[i].out.n, alone.out.n);
        CHECK(two[i].out.s && alone.out.s && strcmp(two[i].out.s, alone.out.s) == 0);
        free(two[i].out.s);
    }
    free(alone.out.s);
    check_rendering(res_path, rules_dir);
    check_one_trace_two_builders(res_path, rules_dir, &log);
    free(log.s);
    return CHECK_DONE();
}
