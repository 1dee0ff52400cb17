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
#include "viz_impl.h"

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
    tlv_status st = load_rules_in(res, rules_dir, &rules);
    if (st == TLV_OK)
        st = tlv_trace_new(rules, &trace);
    size_t n = strlen(log);
    if (st == TLV_OK && n > 4 && strcmp(log + n - 4, ".std") == 0)
        tlv_converter_set_standard_form(tlv_trace_converter(trace), 1);
    if (st == TLV_OK) {
        tlv_status load = tlv_trace_load_file(trace, log);
        if (load != TLV_OK && load != TLV_ERR_CONVERT)
            st = load;
    }
    if (st != TLV_OK) {
        fprintf(stderr, "%s: cannot load (%s)\n", log, tlv_status_string(st));
        check_failures++;
        tlv_trace_free(trace);
        tlv_rules_free(rules);
        return TLV_ERR_USAGE;
    }
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

/* ---- rules that fail in several ways, over many targets --------------------------------- */

static const char resh[] =
    "{\"p\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"cpu\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":1},"
    "\"id\":{\"VariableType\":\"Number\",\"AllocationType\":\"Static\",\"Default\":0}},"
    "\"Behaviors\":{\"enter\":{},\"leave\":{},\"send\":{}}}}}";

static const char viz[] =
    "{\"p\":{\"Shapes\":{"
    "\"bar\":[{\"Type\":\"Rectangle\",\"Fill\":\"${ARG0}\"}],"
    "\"len\":[{\"Type\":\"Rectangle\",\"Size\":\"v(VALUE)\",\"Fill\":\"ff0000ff\"}],"
    "\"bogus\":[{\"Type\":\"Blob\"}],"
    "\"txt\":[{\"Type\":\"Text\",\"Text\":\"${ARG0}\"}]},"
    "\"VisualizeRules\":{"
    "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\","
    "  \"To\":\"${TARGET}.state\",\"Figures\":{\"${FROM_VAL}==RUN\":\"bar(ff00ff00)\","
    "  \"${FROM_VAL}==WAIT\":[\"bogus\",\"nothere(1)\",\"txt(${FROM_VAL})\"]}}}},"
    "\"calls\":{\"Target\":\"Task\",\"Shapes\":{\"c\":{\"From\":\"${TARGET}.enter()\","
    "  \"To\":\"${TARGET}.leave(${FROM_ARG0})\","
    "  \"Figures\":[\"txt(${FROM_ARG0}-${FROM_ARG1})\",\"len($RES_NAME{Task(id==${FROM_ARG1})})\"]}}},"
    "\"lens\":{\"Target\":\"Task\",\"Shapes\":{\"l\":{\"When\":\"${TARGET}.send()\","
    "  \"Figures\":\"len(${ARG0})\"}}},"
    "\"who\":{\"Shapes\":{\"w\":{\"From\":\"Task.state=RUN\",\"To\":\"${FROM_TARGET}.state\","
    "  \"Figures\":\"txt(${FROM_TARGET})\"}},"
    "  \"Flows\":{\"f\":{\"When\":\"Task.send()\",\"To\":\"${ARG1}\"}}}"
    "}}}";

/* Tasks T0..T9 in turns, with calls whose second argument names no task
 * now and then (the $RES_NAME{} of "calls" fails there), and sends. */
static void write_log(void)
{
    text t = {0};
    long time = 0;
    for (int round = 0; round < 60; round++)
        for (int k = 0; k < 10; k++) {
            text_add(&t, "[%ld]T%d.state=RUN\n", time += 3, k);
            text_add(&t, "[%ld]T%d.enter(op%d,%d)\n", time += 2, k, round % 4, (round + k) % 13);
            text_add(&t, "[%ld]T%d.send(%d,T%d)\n", time += 1, k, round % 7, (k + round) % 12);
            text_add(&t, "[%ld]T%d.leave(op%d,ok)\n", time += 2, k, round % 4);
            text_add(&t, "[%ld]T%d.state=%s\n", time += 1, k, round % 3 ? "WAIT" : "IDLE");
        }
    write_file("p.std", t.s);
    free(t.s);
    write_file("p.resh", resh);
    write_file("p.viz", viz);
    text r = {0};
    text_add(&r, "{\"TimeScale\":\"us\",\"ConvertRules\":[],\"ResourceHeaders\":[\"p\"],"
            "\"VisualizeRules\":[\"p\"],\"Resources\":{");
    for (int k = 0; k < 10; k++)
        text_add(&r, "%s\"T%d\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":%d,\"id\":%d}}",
                 k ? "," : "", k, 1 + k % 2, k);
    text_add(&r, "}}");
    write_file("p.res", r.s);
    free(r.s);
}

static void test_rule_errors(void)
{
    write_log();
    char res[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(res, sizeof res, "%s/p.res", tmpdir);
    snprintf(log, sizeof log, "%s/p.std", tmpdir);
    /* the errors are the point: made in the workers, reported in order */
    CHECK_INT(same_on_threads(res, tmpdir, log, NULL), TLV_ERR_RULE);
    CHECK_INT(same_on_threads(res, tmpdir, log, "cpu"), TLV_ERR_RULE);
}

/* ---- the samples and the corpus ------------------------------------------------------------- */

static void test_samples(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        src = ".";
    char rules[PATH_MAX], res[PATH_MAX + 64], log[2 * PATH_MAX + 64];
    snprintf(rules, sizeof rules, "%s/rules", src);
    static const char *const toppers[][3] = {{"asp", "sample", NULL}, {"asp", "tour", NULL},
                                             {"fmp", "sample", NULL}, {"fmp", "sample", "prcId"}};
    for (size_t i = 0; i < sizeof toppers / sizeof *toppers; i++) {
        snprintf(res, sizeof res, "%s/samples/%s/%s.res", src, toppers[i][0], toppers[i][1]);
        snprintf(log, sizeof log, "%s/samples/%s/%s.log", src, toppers[i][0], toppers[i][1]);
        same_on_threads(res, rules, log, toppers[i][2]);
    }
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
