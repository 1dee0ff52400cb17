/*
 * test_viz_parallel.c — shapes built on several threads
 * (tlv_shapes_options.threads) are the serial build's, exactly: every shape
 * in output order with all its fields, every row's shapes in drawing order
 * (tlv_shapes_query), the rows, the flows and the errors, in order. On a
 * rule set written here whose rules fail in several ways (a figure naming
 * no shape, a bad primitive, a macro failing for some events, a flow to no
 * resource) over many targets; on the project's samples (TOPPERS ASP and
 * FMP, plain and per-CPU, and the Linux rule sets); and on every log of
 * ../shared/corpus with its resource file (skipped without the corpus).
 * The frozen store, made on as many threads (store.c: sorted, indexed and
 * summarised row by row), is compared too: its digest (every shape in
 * canonical order, the rows, search trees, order by end and summary
 * pyramids), and the summary layers' looks, rows and digest.
 * Runs under ThreadSanitizer in CI (scripts/test.sh), without the corpus.
 */
#include "check.h"
#include "scratch.h"
#include "text.h"
#include "error_rules.h"
#include "viz/viz_impl.h"

#include <tlv/tlv.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void put_shape(text *t, const tlv_shape_info *sh)
{
    text_add(t, "%s|%s|%s|%zu|%lld.%llu|%lld.%llu|%s|%s|%d:%08x|%d:%08x|%d|%s|%zu|%zu\n", sh->rule,
        sh->event, sh->resource ? sh->resource : "-", sh->row, (long long)sh->from.ticks,
        (unsigned long long)sh->from.frac, (long long)sh->to.ticks,
        (unsigned long long)sh->to.frac, sh->type, sh->text ? sh->text : "-", sh->has_fill,
        (unsigned)sh->fill, sh->has_pen, (unsigned)sh->pen, sh->is_when,
        sh->value ? sh->value : "-", sh->from_event, sh->to_event);
}

static int put_visited(void *user, const tlv_shape_info *sh)
{
    put_shape(user, sh);
    return 0;
}

/* Everything a reader of the shapes can see, as text. */
static void dump(const tlv_shapes *s, text *t)
{
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        put_shape(t, &sh);
    }
    tlv_time lo = {INT64_MIN / 2, 0}, hi = {INT64_MAX / 2, 0};
    for (size_t r = 0; r < tlv_shapes_row_count(s); r++) {
        tlv_row_info ri;
        tlv_shapes_row(s, r, &ri);
        text_add(t, "row %zu %s %s %s\n", r, ri.label, ri.resource ? ri.resource : "-", ri.group);
        tlv_shapes_query(s, r, lo, hi, put_visited, t);
    }
    for (size_t i = 0; i < tlv_shapes_flow_count(s); i++) {
        tlv_flow_info f;
        tlv_shapes_flow(s, i, &f);
        text_add(t, "flow %s %s %s %lld %s>%s %zu>%zu\n", f.rule, f.name, f.display_name,
            (long long)f.time.ticks, f.from_resource, f.to_resource, f.from_row, f.to_row);
    }
    const tlv_diags *d = tlv_shapes_diags(s);
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char line[2048];
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
        text_add(t, "diag %s\n", line);
    }
    text_add(t, "error %s\n", tlv_shapes_last_error(s));
    const summary_looks *lk = &s->looks;
    text_add(t, "store %zu shapes, %u rows, digest %016llx\n", store_count(s->store),
             store_rows(s->store), (unsigned long long)store_digest(s->store));
    text_add(t, "layers %zu looks, %u rows, digest %016llx\n", lk->n, store_rows(lk->layers),
             (unsigned long long)store_digest(lk->layers));
    for (size_t i = 0; i < lk->n; i++)
        text_add(t, "look %zu %08x %u\n", i + 1, (unsigned)lk->look[i].color, lk->look[i].prim);
    for (uint32_t r = 0; r < lk->nrows; r++)
        for (uint32_t k = lk->row_first[r]; k < lk->row_first[r + 1]; k++)
            text_add(t, "layer %u: row %u look %u\n", k, r, lk->layer_look[k]);
}

/* The dump of the shapes built on `threads` threads; *status their status. */
static char *build_dump(const tlv_trace *trace, const char *cpu, int threads, tlv_status *status)
{
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.cpu_attribute = cpu;
    o.threads = threads;
    tlv_shapes *s = NULL;
    *status = tlv_shapes_build(trace, &o, &s);
    text t = {0};
    text_add(&t, "status %d\n", (int)*status);
    if (s)
        dump(s, &t);
    if (s && (*status == TLV_OK || *status == TLV_ERR_RULE)) /* frozen: a digest to compare */
        CHECK(store_digest(s->store) != 0 && store_digest(s->looks.layers) != 0);
    tlv_shapes_free(s);
    return t.s;
}

/* Builds the shapes of log (with res and rules_dir) serially and on 2, 3
 * and 8 threads, and checks they are the same. Returns the serial build's
 * status (TLV_ERR_USAGE when the log would not load). */
static tlv_status same_on_threads(const char *res, const char *rules_dir, const char *log,
                                  const char *cpu)
{
    tlv_rules *rules = NULL;
    tlv_trace *trace = NULL;
    if (load_trace_checked(res, rules_dir, log, &rules, &trace) != TLV_OK)
        return TLV_ERR_USAGE;
    tlv_status serial_st;
    char *serial = build_dump(trace, cpu, 1, &serial_st);
    static const int threads[] = {2, 3, 8};
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++) {
        tlv_status par_st;
        char *par = build_dump(trace, cpu, threads[i], &par_st);
        if (strcmp(serial, par) != 0) {
            size_t k = 0;
            while (serial[k] && serial[k] == par[k])
                k++;
            size_t from = k > 200 ? k - 200 : 0;
            fprintf(stderr, "%s%s%s: %d threads differ from 1 at byte %zu:\n1: %.300s\n%d: %.300s\n",
                    log, cpu ? " per CPU " : "", cpu ? cpu : "", threads[i], k, serial + from,
                    threads[i], par + from);
            check_failures++;
        }
        CHECK_INT(par_st, serial_st);
        free(par);
    }
    free(serial);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return serial_st;
}

/* ---- rules that fail in several ways, over many targets (error_rules.h) ------------------- */

static void test_rule_errors(void)
{
    /* the errors are the point: made in the workers, reported in order */
    check_error_rules(same_on_threads);
}

/* ---- the samples and the corpus ------------------------------------------------------------- */

static void same_sample(const char *res, const char *rules_dir, const char *log, const char *cpu)
{
    same_on_threads(res, rules_dir, log, cpu);
}

static void test_samples(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        src = ".";
    char rules[PATH_MAX], res[PATH_MAX + 64], log[2 * PATH_MAX + 64];
    snprintf(rules, sizeof rules, "%s/rules", src);
    each_toppers_sample(same_sample);
    static const char *const linux_logs[][2] = {{"calls", "make"}, {"heap", NULL},
                                                {"sched", NULL}, {"strace", NULL}};
    for (size_t i = 0; i < sizeof linux_logs / sizeof *linux_logs; i++) {
        char dir[PATH_MAX + 32];
        snprintf(dir, sizeof dir, "%s/samples/linux/%s", src, linux_logs[i][0]);
        snprintf(res, sizeof res, "%s/linux_%s.res", rules, linux_logs[i][0]);
        DIR *d = opendir(dir);
        CHECK(d != NULL);
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t n = strlen(e->d_name);
            if (n > 4 && strcmp(e->d_name + n - 4, ".log") == 0) {
                snprintf(log, sizeof log, "%s/%s", dir, e->d_name);
                same_on_threads(res, rules, log, NULL);
            }
        }
        if (d)
            closedir(d);
    }
}

static void corpus_one(const char *res, const char *log, const char *rules_dir, void *user)
{
    (void)user;
    same_on_threads(res, rules_dir, log, NULL);
    same_on_threads(res, rules_dir, log, "prcId");
}

int main(void)
{
    make_tmpdir("viz_parallel");
    test_rule_errors();
    test_samples();
    /* under ThreadSanitizer (ten times slower) the above is enough */
    const char *tsan = getenv("TLV_TSAN");
    long n = tsan && strcmp(tsan, "1") == 0 ? 0 : corpus_each_log(corpus_one, NULL);
    if (!getenv("KEEP"))
        remove_tree(tmpdir);
    if (n < 0)
        fprintf(stderr, "note: no corpus (TLV_CORPUS): the samples only\n");
    return check_failures ? 1 : 0;
}
