/*
 * test_viz_corpus.c — the shapes drawn for the corpus's asp_short against
 * what TLV 2.0.1 drew (expected/asp_short.shapes.jsonl), compared on (rule,
 * event, resource, from, to, type, text without whitespace), and every corpus
 * log drawn without rule errors. Skipped when ../shared/corpus is absent.
 */
#include "check.h"
#include "scratch.h"

#include <cjson/cJSON.h>
#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char corpus[4096];

static void strip_spaces(char *s)
{
    char *d = s;
    for (; *s; s++)
        if (*s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
            *d++ = *s;
    *d = '\0';
}

/* "rule|event|resource|from|to|type|text" */
static char *key_of(const char *rule, const char *event, const char *res, long long from,
                    long long to, const char *type, const char *text)
{
    size_t n = strlen(rule) + strlen(event) + (res ? strlen(res) : 4) + strlen(type) +
               (text ? strlen(text) : 4) + 80;
    char *k = malloc(n);
    snprintf(k, n, "%s|%s|%s|%lld|%lld|%s|%s", rule, event, res ? res : "null", from, to, type,
             text ? text : "null");
    strip_spaces(k);
    return k;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

typedef struct keys {
    char **k;
    size_t n, cap;
} keys;

static void push(keys *ks, char *k)
{
    if (ks->n == ks->cap) {
        ks->cap = ks->cap ? ks->cap * 2 : 1024;
        ks->k = realloc(ks->k, ks->cap * sizeof *ks->k);
    }
    ks->k[ks->n++] = k;
}

static void load_expected(keys *ks)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/expected/asp_short.shapes.jsonl", corpus);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        cJSON *o = cJSON_Parse(line);
        if (!o)
            continue;
        const cJSON *res = cJSON_GetObjectItem(o, "resource");
        const cJSON *text = cJSON_GetObjectItem(o, "text");
        push(ks, key_of(cJSON_GetObjectItem(o, "rule")->valuestring,
                        cJSON_GetObjectItem(o, "event")->valuestring,
                        cJSON_IsString(res) ? res->valuestring : NULL,
                        (long long)cJSON_GetObjectItem(o, "from")->valuedouble,
                        (long long)cJSON_GetObjectItem(o, "to")->valuedouble,
                        cJSON_GetObjectItem(o, "type")->valuestring,
                        cJSON_IsString(text) ? text->valuestring : NULL));
        cJSON_Delete(o);
    }
    fclose(f);
}

static tlv_shapes *draw(const char *res, const char *log, tlv_rules **rules, tlv_trace **trace)
{
    char rules_dir[4200], res_path[4200], log_path[4200];
    snprintf(rules_dir, sizeof rules_dir, "%s/rules", corpus);
    snprintf(res_path, sizeof res_path, "%s/logs/%s", corpus, res);
    snprintf(log_path, sizeof log_path, "%s/logs/%s", corpus, log);
    CHECK_INT(load_rules_in(res_path, rules_dir, rules), TLV_OK);
    CHECK_INT(tlv_trace_new(*rules, trace), TLV_OK);
    CHECK_INT(tlv_trace_load_file(*trace, log_path), TLV_OK);
    tlv_shapes *s = NULL;
    tlv_status st = tlv_shapes_build(*trace, NULL, &s);
    if (st != TLV_OK) {
        char msg[1024];
        for (size_t i = 0; i < tlv_diags_count(tlv_shapes_diags(s)) && i < 5; i++) {
            tlv_diag_format(tlv_diags_get(tlv_shapes_diags(s), i), msg, sizeof msg);
            fprintf(stderr, "%s: %s\n", res, msg);
        }
    }
    CHECK_INT(st, TLV_OK);
    return s;
}

/* Differences from the original that the spec explains:
 *  1. Spec §9.2: "An interval still open at the end of the trace closes at
 *     the trace's last time." TLV 2.0.1 dropped From/To intervals that no To
 *     event closed, so the last state of every resource and the last service
 *     call of a task that never returns (ext_tsk, dly_tsk at the end of the
 *     log; but see 3) are drawn by us and not by it: exactly shapes ending
 *     at the trace's last time. (An unclosed From that a later From of the same
 *     event on the same resource superseded is not "still open at the end",
 *     and an attribute that never changes opens nothing: neither is drawn.)
 *  2. Spec §6: "Everything downstream orders by (time, line order)." The log
 *     goes back in time at its end ([97510900] enter to unl_cpu, then
 *     [97452220] leave from unl_cpu); the original paired the two in file
 *     order and drew an interval ending before it starts (97510900 to
 *     97452220). In time order the leave comes first, so that enter has no
 *     leave, and MAIN_TASK's later calls supersede it.
 *  3. Spec §9.2: "an open interval never outlives its resource: it closes
 *     when the resource returns to its initial state". TASK1..3 call
 *     ext_tsk, which never returns: TLV 2.0.1 drew nothing, we draw the
 *     call until the task is DORMANT again (its initial state), a few
 *     hundred ticks later, not to the end of the trace. */
static int explained_extra(const char *key)
{
    static const char *const exits[] = {"|TASK1|71313743|71314012|", "|TASK2|75250546|75250815|",
                                        "|TASK3|83115737|83116029|"};
    for (size_t i = 0; i < sizeof exits / sizeof *exits; i++)
        if (strstr(key, "callSvc|callSvcEvent") && strstr(key, exits[i]))
            return 1;
    /* from|to with to == the trace's last time (98544800) */
    return strstr(key, "|98544800|") != NULL;
}

static int explained_missing(const char *key)
{
    return strstr(key, "|97510900|97452220|") != NULL;
}

static void compare_asp_short(void)
{
    keys expected = {0}, ours = {0};
    load_expected(&expected);
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = draw("asp/asp_short.res", "asp/asp_short.log", &rules, &trace);
    for (size_t i = 0; s && i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        push(&ours, key_of(sh.rule, sh.event, sh.resource, (long long)sh.from.ticks,
                           (long long)sh.to.ticks, sh.type, sh.text));
    }
    qsort(expected.k, expected.n, sizeof *expected.k, cmp_str);
    qsort(ours.k, ours.n, sizeof *ours.k, cmp_str);
    size_t i = 0, j = 0, common = 0, missing = 0, extra = 0;
    while (i < expected.n || j < ours.n) {
        int c = i == expected.n ? 1 : j == ours.n ? -1 : strcmp(expected.k[i], ours.k[j]);
        if (c == 0) {
            common++;
            i++;
            j++;
        } else if (c < 0) {
            if (!explained_missing(expected.k[i])) {
                fprintf(stderr, "expected, not drawn (unexplained): %s\n", expected.k[i]);
                missing++;
            }
            i++;
        } else {
            if (!explained_extra(ours.k[j])) {
                fprintf(stderr, "drawn, not expected (unexplained): %s\n", ours.k[j]);
                extra++;
            }
            j++;
        }
    }
    printf("asp_short: %zu expected shapes, %zu drawn, %zu in common (%.1f%% of expected, "
           "%.1f%% of drawn); unexplained: %zu missing, %zu extra\n",
           expected.n, ours.n, common, 100.0 * (double)common / (double)expected.n,
           ours.n ? 100.0 * (double)common / (double)ours.n : 0.0, missing, extra);
    CHECK_INT(expected.n, 1756);
    CHECK(common * 100 >= expected.n * 99);
    CHECK_INT(common, 1753);   /* all but the 3 primitives of difference 2 */
    CHECK_INT(ours.n, 1774);   /* the 1753 plus 12 of difference 1 and 9 of difference 3 */
    CHECK_INT(missing, 0);
    CHECK_INT(extra, 0);
    for (size_t k = 0; k < expected.n; k++)
        free(expected.k[k]);
    for (size_t k = 0; k < ours.n; k++)
        free(ours.k[k]);
    free(expected.k);
    free(ours.k);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

/* The text shape of rule callSvc on `res` starting at `from` whose text
 * starts with `prefix`: its end, or -1 when there is none. */
static long long call_end(tlv_shapes *s, const char *res, long long from, const char *prefix)
{
    for (size_t i = 0; s && i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        if (strcmp(sh.rule, "callSvc") == 0 && sh.resource && strcmp(sh.resource, res) == 0 &&
            (long long)sh.from.ticks == from && sh.text &&
            strncmp(sh.text, prefix, strlen(prefix)) == 0)
            return (long long)sh.to.ticks;
    }
    return -1;
}

/* Calls that never return end when their task does (spec §9.2): ext_tsk at
 * the task's DORMANT, a migrated task's mig_tsk on the per-processor
 * resource it left when that is NONEXISTENT (on the target side: again;
 * on the source side even though a later leaveSVC follows); calls really still
 * blocked at the end (dly_tsk, rcv_dtq) run to the end, "return (open)". */
static void open_calls_end_with_their_task(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = draw("asp/asp_short.res", "asp/asp_short.log", &rules, &trace);
    CHECK_INT(call_end(s, "TASK1", 71313743, "ext_tsk()"), 71314012);
    CHECK_INT(call_end(s, "TASK1", 71313743, "return"), 71314012);
    CHECK_INT(call_end(s, "LOGTASK", 91241582, "dly_tsk("), 98544800);
    CHECK_INT(call_end(s, "LOGTASK", 91241582, "return (open)"), 98544800);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    s = draw("fmp/fmp_short.res", "fmp/fmp_short.log", &rules, &trace);
    CHECK_INT(call_end(s, "TASK2_1", 44399719, "ext_tsk()"), 44400136);
    CHECK_INT(call_end(s, "SERVER_TASK1", 984862, "return (open)"), 120048000);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    s = draw("fmp_mig/fmp_mig.res", "fmp_mig/fmp_short.log", &rules, &trace);
    CHECK_INT(call_end(s, "PRC2_TASK1_1", 56220614, "mig_tsk("), 56220930); /* was 97266430 */
    CHECK_INT(call_end(s, "PRC2_TASK1_3", 87753848, "mig_tsk("), 87754164);
    /* the source side ends when the task leaves it (NONEXISTENT), although
     * a leaveSVC(mig_tsk) comes on it later: that is the return of the
     * task's second mig_tsk, back from processor 2 (was 56223040) */
    CHECK_INT(call_end(s, "PRC1_TASK1_1", 13035389, "mig_tsk("), 13035709);
    CHECK_INT(call_end(s, "PRC1_TASK1_1", 13035389, "return"), 13035709);
    CHECK_INT(call_end(s, "PRC1_TASK1_2", 27609511, "mig_tsk("), 27609831); /* was 71987155 */
    CHECK_INT(call_end(s, "PRC1_TASK1_3", 36107669, "mig_tsk("), 36107989); /* was 87755993 */
    /* a task preempted inside a call is RUNNABLE, its initial value: the
     * call still ends at its return */
    CHECK_INT(call_end(s, "PRC1_LOGTASK1", 983018, "return ercd=0."), 3424029);
    CHECK_INT(call_end(s, "PRC2_SERVER_TASK2", 984132, "return (open)"), 97266430);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

static void every_corpus_log_draws(void)
{
    static const char *const logs[][2] = {
        {"asp/asp_app.res", "asp/asp_app.log"},
        {"asp/asp_long.res", "asp/asp_long.log"},
        {"asp/asp_short_standard_format.res", "asp/asp_short_standard_format.log"},
        {"asp/asp_stats.res", "asp/asp_stats.log"},
        {"asp/test_short.res", "asp/test_short.log"},
        {"fmp/fmp_app.res", "fmp/fmp_app.log"},
        {"fmp/fmp_long.res", "fmp/fmp_long.log"},
        {"fmp/fmp_short.res", "fmp/fmp_short.log"},
        {"fmp/fmp_short_standard_format.res", "fmp/fmp_short_standard_format.log"},
        {"fmp_mig/fmp_mig.res", "fmp_mig/fmp_short.log"},
        {"program_asp/asp_trace_log_sample.res", "program_asp/asp_trace_log_sample.log"},
        {"program_fmp/fmp_trace_log_sample.res", "program_fmp/fmp_trace_log_sample.log"},
        {"tecs/tecs.res", "tecs/tecs.log"},
    };
    for (size_t i = 0; i < sizeof logs / sizeof *logs; i++) {
        tlv_rules *rules;
        tlv_trace *trace;
        tlv_shapes *s = draw(logs[i][0], logs[i][1], &rules, &trace);
        CHECK(s && tlv_shapes_count(s) > 0);
        if (s && tlv_shapes_count(s) == 0)
            fprintf(stderr, "%s: no shapes\n", logs[i][0]);
        tlv_shapes_free(s);
        tlv_trace_free(trace);
        tlv_rules_free(rules);
    }
}

int main(void)
{
    const char *env = getenv("TLV_CORPUS");
    const char *src = getenv("TLV_SOURCE_DIR");
    snprintf(corpus, sizeof corpus, "%s", env && *env ? env : "");
    if (!*corpus && src)
        snprintf(corpus, sizeof corpus, "%s/../shared/corpus/tlv-2.0.1", src);
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/expected/asp_short.shapes.jsonl", corpus);
    FILE *f = fopen(probe, "r");
    if (!f)
        SKIP("corpus not found (../shared/corpus/tlv-2.0.1)");
    fclose(f);
    compare_asp_short();
    open_calls_end_with_their_task();
    every_corpus_log_draws();
    return CHECK_DONE();
}
