/*
 * test_shared_rules.c — what rules.h promises about threads: one tlv_rules,
 * loaded once, used by several threads at the same time. Each thread asks
 * the rules' own questions (tlv_rules_*), makes its own trace from them
 * (its converter fed line by line), builds the shapes, computes statistics,
 * asks a query that fails (its message lands on its own trace), and draws
 * two frames with its own renderer; everything it saw is folded into a
 * digest that must equal the digest of the same work done by one thread
 * alone. The sanitizer build (and a ThreadSanitizer build, by hand) runs it
 * too. Uses tests/e2e/mini with its log repeated.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/render.h>
#include <tlv/tlv.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define NTHREADS 3
#define REPEATS 150 /* copies of mini.log fed to each trace */
#define WIDTH 160
#define HEIGHT 64

typedef struct job {
    const tlv_rules *rules; /* shared, read-only */
    const char *log;        /* the mini log's text */
    uint64_t digest;        /* FNV-1a of everything seen */
    int failed;
} job;

static void fold(uint64_t *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++)
        *h = (*h ^ p[i]) * 1099511628211u;
}

static void fold_str(uint64_t *h, const char *s) { fold(h, s ? s : "(null)", strlen(s ? s : "(null)") + 1); }

static void fold_rules(job *j)
{
    fold_str(&j->digest, tlv_rules_time_scale(j->rules));
    for (size_t i = 0; i < tlv_rules_resource_count(j->rules); i++) {
        fold_str(&j->digest, tlv_rules_resource_name(j->rules, i));
        fold_str(&j->digest, tlv_rules_resource_type(j->rules, i));
    }
}

/* Feeds the log REPEATS times, one line at a time. */
static tlv_status feed(tlv_trace *t, const char *log)
{
    tlv_converter *c = tlv_trace_converter(t);
    for (int r = 0; r < REPEATS; r++) {
        for (const char *p = log; *p;) {
            const char *end = strchr(p, '\n');
            size_t n = end ? (size_t)(end - p) : strlen(p);
            tlv_converter_push_line(c, p, n);
            p += n + (end ? 1 : 0);
        }
    }
    return tlv_trace_finish(t);
}

static void fold_shapes(job *j, const tlv_shapes *s)
{
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info si;
        tlv_shapes_get(s, i, &si);
        fold_str(&j->digest, si.rule);
        fold_str(&j->digest, si.resource);
        fold(&j->digest, &si.from, sizeof si.from);
        fold(&j->digest, &si.to, sizeof si.to);
    }
}

static void fold_frames(job *j, const tlv_shapes *s)
{
    tlv_renderer *r = NULL;
    static _Thread_local uint8_t px[WIDTH * HEIGHT * 4];
    if (tlv_renderer_new(&r) != TLV_OK) {
        j->failed = 1;
        return;
    }
    tlv_view v;
    tlv_view_fit(&v, s, WIDTH, HEIGHT);
    for (int f = 0; f < 2; f++) {
        v.t1 = v.t0 + (v.t1 - v.t0) / (f + 1);
        if (tlv_render_rgba(r, s, &v, px, WIDTH * 4) != TLV_OK)
            j->failed = 1;
        fold(&j->digest, px, sizeof px);
    }
    tlv_renderer_free(r);
}

static void *work(void *arg)
{
    job *j = arg;
    j->digest = 1469598103934665603u;
    fold_rules(j);
    tlv_trace *t = NULL;
    tlv_shapes *s = NULL;
    tlv_stats *st = NULL;
    if (tlv_trace_new(j->rules, &t) != TLV_OK || feed(t, j->log) != TLV_OK)
        j->failed = 1;
    fold(&j->digest, &(size_t){tlv_trace_event_count(t)}, sizeof(size_t));
    const char *v = NULL;
    if (tlv_trace_attr_at(t, "ctrl", "priority", NULL, &v) != TLV_ERR_USAGE)
        j->failed = 1;
    fold_str(&j->digest, tlv_trace_last_error(t));
    if (tlv_shapes_build(t, NULL, &s) != TLV_OK || tlv_stats_compute(t, NULL, &st) != TLV_OK)
        j->failed = 1;
    fold_shapes(j, s);
    fold(&j->digest, &(double){tlv_stats_end(st)}, sizeof(double));
    fold_frames(j, s);
    tlv_stats_free(st);
    tlv_shapes_free(s);
    tlv_trace_free(t);
    return NULL;
}

int main(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        SKIP("TLV_SOURCE_DIR is not set");
    char dir[1024], res[1100], logp[1100];
    snprintf(dir, sizeof dir, "%s/tests/e2e/mini", src);
    snprintf(res, sizeof res, "%s/mini.res", dir);
    snprintf(logp, sizeof logp, "%s/mini.log", dir);
    tlv_rules *rules = NULL;
    size_t loglen = 0;
    char *log = read_all(logp, &loglen);
    if (!log || load_rules_in(res, dir, &rules) != TLV_OK) {
        fprintf(stderr, "cannot load the mini rules or log\n");
        return 1;
    }

    job alone = {rules, log, 0, 0};
    work(&alone);
    CHECK(!alone.failed);

    job jobs[NTHREADS];
    pthread_t tid[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        jobs[i] = (job){rules, log, 0, 0};
        CHECK_INT(pthread_create(&tid[i], NULL, work, &jobs[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++) {
        pthread_join(tid[i], NULL);
        CHECK(!jobs[i].failed);
        CHECK(jobs[i].digest == alone.digest);
    }
    tlv_rules_free(rules);
    free(log);
    return check_failures ? 1 : 0;
}
