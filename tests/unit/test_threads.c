/*
 * test_threads.c — the API is safe on separate handles from separate
 * threads: two threads each load the rules, convert the same generated log
 * into a trace (pushed line by line) and build its shapes, at the same time;
 * both must produce exactly what one thread alone produced (every event's
 * standard-form line, every shape and row). Uses the small rule set of the
 * e2e tests (tests/e2e/mini).
 */
#include "check.h"

#include <tlv/tlv.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2000 /* repetitions of the mini log: 36,000 lines */

typedef struct text {
    char *s;
    size_t n, cap;
} text;

static void append(text *t, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (t->n + (size_t)n + 1 > t->cap) {
        t->cap = (t->n + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s)
            abort();
    }
    memcpy(t->s + t->n, line, (size_t)n + 1);
    t->n += (size_t)n;
}

/* The mini log's scenario repeated with shifted times. */
static void make_log(text *log)
{
    static const char *const steps[] = {
        "cpu 1 runs ctrl", "ctrl calls read(a, b)", "ctrl returns", "irq TIMER RUNNING",
        "irq TIMER IDLE", "log wakes", "cpu 1 runs log", "log sleeps", "cpu 1 runs ctrl",
        "ctrl sleeps", "cpu 1 idle", "cpu 2 runs ctrl", "ctrl sleeps", "cpu 2 idle",
        "log wakes", "cpu 1 runs log", "cpu 1 idle", "no rule matches this",
    };
    size_t nsteps = sizeof steps / sizeof *steps;
    for (int r = 0; r < ROUNDS; r++)
        for (size_t i = 0; i < nsteps; i++)
            append(log, "[%ld] %s\n", 1000L * r + 50L * (long)i, steps[i]);
}

typedef struct job {
    const char *res_path, *rules_dir;
    const text *log;
    text out;
    int failed;
} job;

static void describe_shapes(const tlv_shapes *s, text *out)
{
    for (size_t i = 0; i < tlv_shapes_row_count(s); i++) {
        tlv_row_info row;
        tlv_shapes_row(s, i, &row);
        append(out, "row %s %s\n", row.label, row.group);
    }
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        append(out, "%s/%s %s %zu %lld-%lld %s %s\n", sh.rule, sh.event,
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
    const char *dirs[] = {j->rules_dir};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    tlv_rules *rules = NULL;
    tlv_trace *trace = NULL;
    tlv_shapes *shapes = NULL;
    tlv_shapes_options so = {"cpu", NULL, NULL, NULL, 0};
    j->failed = tlv_rules_load(j->res_path, &o, &rules) != TLV_OK ||
                tlv_trace_new(rules, &trace) != TLV_OK || push_lines(trace, j->log) != TLV_OK ||
                tlv_shapes_build(trace, &so, &shapes) != TLV_OK;
    for (size_t i = 0; !j->failed && i < tlv_trace_event_count(trace); i++) {
        tlv_event e;
        char line[512];
        tlv_trace_event(trace, i, &e);
        tlv_event_format(&e, 10, line, sizeof line);
        append(&j->out, "%s\n", line);
    }
    if (!j->failed)
        describe_shapes(shapes, &j->out);
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return NULL;
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
    make_log(&log);

    job alone = {res_path, rules_dir, &log, {0}, 0};
    convert(&alone);
    CHECK(!alone.failed);
    CHECK(alone.out.n > 100000); /* events and shapes were made */

    job two[2] = {{res_path, rules_dir, &log, {0}, 0}, {res_path, rules_dir, &log, {0}, 0}};
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
    free(log.s);
    return CHECK_DONE();
}
