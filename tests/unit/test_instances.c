/*
 * test_instances.c — tlv_instances through the public API on a trace made
 * by hand, every figure worked out below: a task's response (activation to
 * completion) with a preemption and a handler's interruption taken out of
 * its execution time, its scheduling latencies, a call, a kind the header
 * declares (requests paired by id, out of order), partial instances at both
 * ends, the groups' statistics and percentiles; a migration on two
 * processors; the errors of "Instances" in a header, with their positions;
 * and the usage errors.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char resh[] =
    "{\"t\":{\"Task\":{\"Attributes\":{\n"
    "  \"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"DORMANT\"}},\n"
    " \"Behaviors\":{\"enterSVC\":{\"Arguments\":{\"name\":\"String\",\"args\":\"String\"}},\n"
    "  \"leaveSVC\":{\"Arguments\":{\"name\":\"String\",\"args\":\"String\",\"ercd\":\"String\"}},\n"
    "  \"req\":{\"Arguments\":{\"id\":\"String\"}},\"done\":{\"Arguments\":{\"id\":\"String\"}}},\n"
    " \"Instances\":{\"request\":{\"From\":\"${TARGET}.req()\",\"To\":\"${TARGET}.done(${FROM_ARG0})\",\n"
    "  \"Name\":\"req ${FROM_ARG0}\"}}},\n"
    " \"Handler\":{\"Attributes\":{\n"
    "  \"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"DORMANT\"}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"t\"],\"Resources\":{"
    "\"A\":{\"Type\":\"Task\"},\"B\":{\"Type\":\"Task\"},\"H\":{\"Type\":\"Handler\"}}}";

/*
 * A: activated at 0, runs from 5 (latency 5), calls wai at 10, H interrupts
 *    it 12..15, B preempts it at 20, it runs again from 30, returns from wai
 *    at 35 (call 25, running 10..12, 15..20, 30..35 = 12) and completes at
 *    40 (response 40, running 5..12, 15..20, 30..40 = 22; 1 preemption, 1
 *    interruption). Requests 7 (50..70 = 20) and 8 (52..60 = 8) end out of
 *    order. Woken at 80, runs at 90 (latency 10), still running at the end:
 *    a partial response.
 * B: activated and run at 20 (latency 0), done at 30 (response 10); woken
 *    at 100, the last event: a partial response and a partial latency.
 * H: 12..15, response 3.
 */
static const char *const lines[] = {
    "[0]A.state=RUNNABLE", "[5]A.state=RUNNING",   "[10]A.enterSVC(wai,x)",
    "[12]H.state=RUNNING", "[15]H.state=DORMANT",  "[20]B.state=RUNNABLE",
    "[20]A.state=RUNNABLE", "[20]B.state=RUNNING", "[30]B.state=DORMANT",
    "[30]A.state=RUNNING", "[35]A.leaveSVC(wai,x,0)", "[40]A.state=DORMANT",
    "[50]A.req(7)",        "[52]A.req(8)",         "[60]A.done(8)",
    "[70]A.done(7)",       "[80]A.state=RUNNABLE", "[90]A.state=RUNNING",
    "[100]B.state=RUNNABLE",
};

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

static tlv_instance get(const tlv_instances *in, size_t i)
{
    tlv_instance x;
    tlv_instances_get(in, i, &x);
    return x;
}

static void check_instance(const tlv_instances *in, size_t i, const char *res, const char *kind,
                           const char *name, double start, double response, double exec,
                           size_t pre, size_t intr)
{
    tlv_instance x = get(in, i);
    CHECK_STR(x.resource, res);
    CHECK_STR(x.kind, kind);
    CHECK_STR(x.name, name);
    CHECK(near(tlv_time_to_double(x.start, 10), start));
    CHECK(near(x.response, response));
    if (!near(x.execution, exec))
        fprintf(stderr, "instance %zu: execution %g, expected %g\n", i, x.execution, exec);
    CHECK(near(x.execution, exec));
    CHECK_INT(x.preemptions, pre);
    CHECK_INT(x.interruptions, intr);
}

static void test_instances(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        CHECK_INT(tlv_converter_push_line(conv, lines[i], strlen(lines[i])), TLV_OK);
    tlv_instances *in = (tlv_instances *)1;
    CHECK_INT(tlv_instances_compute(trace, NULL, &in), TLV_ERR_USAGE); /* not ordered yet */
    CHECK(in == NULL);
    CHECK(strstr(tlv_trace_last_error(trace), "not ordered yet") != NULL);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);
    CHECK_INT(tlv_instances_compute(trace, NULL, &in), TLV_OK);

    /* By start, then the event that began it, then kind. */
    CHECK_INT(tlv_instances_count(in), 9);
    check_instance(in, 0, "A", "response", "", 0, 40, 22, 1, 1);
    check_instance(in, 1, "A", "latency", "", 0, 5, 0, 0, 0);
    check_instance(in, 2, "A", "call", "wai", 10, 25, 12, 1, 1);
    check_instance(in, 3, "H", "response", "", 12, 3, 3, 0, 0);
    check_instance(in, 4, "B", "response", "", 20, 10, 10, 0, 0);
    check_instance(in, 5, "B", "latency", "", 20, 0, 0, 0, 0);
    check_instance(in, 6, "A", "request", "req 7", 50, 20, 0, 0, 0);
    check_instance(in, 7, "A", "request", "req 8", 52, 8, 0, 0, 0);
    check_instance(in, 8, "A", "latency", "", 80, 10, 0, 0, 0);
    tlv_instance x = get(in, 2);
    CHECK_INT(x.start_line, 3);
    CHECK_INT(x.end_line, 11);
    tlv_event e;
    tlv_trace_event(trace, x.end_event, &e);
    CHECK_STR(e.name, "leaveSVC");

    /* Groups: A's response, latency, call, two requests; B's two; H's. */
    CHECK_INT(tlv_instances_group_count(in), 8);
    tlv_instance_group g;
    tlv_instances_group(in, 0, &g);
    CHECK_STR(g.resource, "A");
    CHECK_STR(g.kind, "response");
    CHECK_INT(g.count, 1);
    CHECK_INT(g.partial, 1); /* woken at 80, still running at the end */
    tlv_instances_group(in, 1, &g);
    CHECK_STR(g.kind, "latency");
    CHECK_INT(g.count, 2);
    CHECK(near(g.min, 5) && near(g.max, 10) && near(g.mean, 7.5) && near(g.stddev, 2.5));
    CHECK(near(g.p50, 5) && near(g.p90, 10) && near(g.p99, 10));
    CHECK_INT(g.worst, 8);
    CHECK(near(g.execution_max, 0));
    CHECK_INT(tlv_instances_group_member(in, 1, 0), 1);
    CHECK_INT(tlv_instances_group_member(in, 1, 1), 8);
    CHECK_INT(tlv_instances_group_member(in, 1, 2), (size_t)-1);
    tlv_instances_group(in, 3, &g);
    CHECK_STR(g.kind, "request");
    CHECK_STR(g.name, "req 7");
    tlv_instances_group(in, 5, &g);
    CHECK_STR(g.resource, "B");
    CHECK_STR(g.kind, "response");
    CHECK_INT(g.count, 1);
    CHECK_INT(g.partial, 1);
    tlv_instances_group(in, 6, &g);
    CHECK_STR(g.kind, "latency");
    CHECK_INT(g.count, 1);
    CHECK_INT(g.partial, 1);
    CHECK_INT(tlv_instances_find_group(in, "A", "request", "req 8"), 4);
    CHECK_INT(tlv_instances_find_group(in, "H", "response", NULL), 7);
    CHECK_INT(tlv_instances_find_group(in, "H", "call", NULL), (size_t)-1);
    CHECK(near(tlv_instances_percentile(in, 1, 50), 5));
    CHECK(near(tlv_instances_percentile(in, 1, 50.1), 10));
    CHECK(near(tlv_instances_percentile(in, 1, 0), 0)); /* out of range */
    tlv_instances_free(in);

    /* Other ready values: RUNNABLE is idle now, so nothing is activated
     * until it runs (an activation from idle straight to running). */
    tlv_instances_options o = TLV_INSTANCES_OPTIONS_INIT;
    o.ready_values = "READY";
    CHECK_INT(tlv_instances_compute(trace, &o, &in), TLV_OK);
    size_t g0 = tlv_instances_find_group(in, "A", "response", NULL);
    tlv_instances_group(in, g0, &g);
    CHECK_INT(g.count, 2); /* 5..20 (runnable = idle), 30..40 */
    CHECK(near(g.min, 10) && near(g.max, 15));
    tlv_instances_free(in);

    CHECK_INT(tlv_instances_compute(NULL, NULL, &in), TLV_ERR_USAGE);
    CHECK_INT(tlv_instances_compute(trace, NULL, NULL), TLV_ERR_USAGE);
    tlv_instances_free(NULL);
    CHECK_INT(tlv_instances_count(NULL), 0);
    tlv_trace_free(trace);
}

/* Two processors: T runs on 1 from 0, migrates to 2 at 10 while running,
 * where U had been running since 5 (so U is interrupted at 10 until T stops
 * at 20); U then runs to 30. */
static const char resh2[] =
    "{\"m\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"DORMANT\"},"
    "\"prcId\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":\"1\"}}},"
    "\"Isr\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"DORMANT\"},"
    "\"prcIdI\":{\"VariableType\":\"Number\",\"AllocationType\":\"Static\"}}}}}";
static const char res2[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"m\"],\"Resources\":{"
    "\"T\":{\"Type\":\"Task\"},\"U\":{\"Type\":\"Task\",\"Attributes\":{\"prcId\":2}},"
    "\"I\":{\"Type\":\"Isr\",\"Attributes\":{\"prcIdI\":2}}}}";
static const char *const lines2[] = {
    "[0]T.state=RUNNING", "[5]U.state=RUNNING", "[10]T.prcId=2", "[20]T.state=DORMANT",
    "[22]I.state=RUNNING", "[24]I.state=DORMANT", "[30]U.state=DORMANT",
};

static void test_processors(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    for (size_t i = 0; i < sizeof lines2 / sizeof *lines2; i++)
        CHECK_INT(tlv_converter_push_line(conv, lines2[i], strlen(lines2[i])), TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);
    tlv_instances *in;
    CHECK_INT(tlv_instances_compute(trace, NULL, &in), TLV_OK);
    /* T: 0..20 running throughout (migrating moves it, interrupts nobody
     * on 1); U: 5..30, interrupted by T 10..20 and by I (on processor 2 by
     * its prcIdI) 22..24: 25 - 10 - 2 = 13. */
    CHECK_INT(tlv_instances_count(in), 3);
    check_instance(in, 0, "T", "response", "", 0, 20, 20, 0, 0);
    check_instance(in, 1, "U", "response", "", 5, 25, 13, 0, 2);
    check_instance(in, 2, "I", "response", "", 22, 2, 2, 0, 0);
    tlv_instances_free(in);
    tlv_trace_free(trace);
}

/* An instance over many stretches (more than exec_within adds up one by one):
 * A runs 10k..10k+3 and waits 10k+3..10k+10 for k = 0..199, then completes
 * at 2000: running 200 * 3 = 600, preempted 200 times. Its call from 11 to
 * 1502 begins and ends inside a stretch: 13 - 11 + 148 * 3 + 1502 - 1500 =
 * 448 running, preempted at 13, 23, ..., 1493 (149 times). */
static void test_long_instance(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    char line[64];
    CHECK_INT(tlv_converter_push_line(conv, "[0]A.state=RUNNABLE", 19), TLV_OK);
    for (int k = 0; k < 200; k++) {
        int n = snprintf(line, sizeof line, "[%d]A.state=RUNNING", 10 * k);
        CHECK_INT(tlv_converter_push_line(conv, line, (size_t)n), TLV_OK);
        if (k == 1)
            CHECK_INT(tlv_converter_push_line(conv, "[11]A.enterSVC(wai,x)", 21), TLV_OK);
        if (k == 150)
            CHECK_INT(tlv_converter_push_line(conv, "[1502]A.leaveSVC(wai,x,0)", 25), TLV_OK);
        n = snprintf(line, sizeof line, "[%d]A.state=RUNNABLE", 10 * k + 3);
        CHECK_INT(tlv_converter_push_line(conv, line, (size_t)n), TLV_OK);
    }
    CHECK_INT(tlv_converter_push_line(conv, "[2000]A.state=DORMANT", 21), TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);
    tlv_instances *in;
    CHECK_INT(tlv_instances_compute(trace, NULL, &in), TLV_OK);
    CHECK_INT(tlv_instances_count(in), 3);
    check_instance(in, 0, "A", "response", "", 0, 2000, 600, 200, 0);
    check_instance(in, 1, "A", "latency", "", 0, 0, 0, 0, 0);
    check_instance(in, 2, "A", "call", "wai", 11, 1491, 448, 149, 0);
    tlv_instances_free(in);
    tlv_trace_free(trace);
}

/* Bad "Instances": each error at its value's line and column. */
static void test_errors(void)
{
    write_file("bad/b.resh",
               "{\"b\":{\"Task\":{\"Attributes\":{\"state\":{\"VariableType\":\"String\"}},\n"
               "\"Behaviors\":{\"go\":{}},\n"
               "\"Instances\":{\n"
               "\"call\":{\"From\":\"${TARGET}.go()\",\"To\":\"${TARGET}.go()\"},\n"
               "\"a\":{\"From\":\"${TARGET}.og()\",\"To\":\"${TARGET}.go()\"},\n"
               "\"b\":{\"From\":\"Task.go()\",\"To\":\"${TARGET}.go(${FROM_AGR0})\"},\n"
               "\"c\":{\"To\":\"${TARGET}.state\"},\n"
               "\"d\":{\"From\":\"${TARGET}.go(\",\"To\":\"${TARGET}.state\",\"Name\":\"${TO_VAL}\"},\n"
               "\"e\":7}}}}\n");
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/bad/b.resh", tmpdir);
    const char *files[] = {path};
    tlv_rules *r;
    CHECK_INT(tlv_rules_check(NULL, files, 1, NULL, &r), TLV_ERR_RULE);
    const tlv_diags *d = tlv_rules_diags(r);
    static const char *const want[] = {
        "b.resh:4:1: error: type 'Task': instance kind 'call' is built in (response, latency, "
        "call); give yours another name",
        "b.resh:7:5: error: type 'Task': instance kind 'c': \"From\" must be an event pattern (a "
        "string), found nothing",
        "b.resh:9:5: error: type 'Task': instance kind 'e' must be an object with \"From\" and "
        "\"To\", found a number",
        "b.resh:5:24: error: type 'Task': instance kind 'a': \"From\": type 'Task' has no "
        "attribute or behavior 'og'",
        "b.resh:6:14: error: type 'Task': instance kind 'b': \"From\": an instance's events are "
        "its resource's: write \"${TARGET}.go...\", not \"Task...\"",
        "b.resh:6:44: error: type 'Task': instance kind 'b': \"To\": unknown variable "
        "'${FROM_AGR0}' (To may use ${TARGET}, ${FROM_VAL}, ${FROM_ARGn}, ${FROM_TIME})",
        "b.resh:8:26: error: type 'Task': instance kind 'd': \"From\": unbalanced parentheses "
        "in arguments",
    };
    size_t n = tlv_diags_count(d);
    CHECK_INT(n, sizeof want / sizeof *want);
    for (size_t i = 0; i < n && i < sizeof want / sizeof *want; i++) {
        char text[512];
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        const char *base = strstr(text, "b.resh");
        CHECK_STR(base, want[i]);
    }
    tlv_rules_free(r);
}

int main(void)
{
    make_tmpdir("instances");
    write_file("t/t.resh", resh);
    write_file("t/t.res", res);
    write_file("m/m.resh", resh2);
    write_file("m/m.res", res2);
    char res_path[PATH_MAX + 16], dir[PATH_MAX + 16];
    tlv_rules *rules;
    snprintf(res_path, sizeof res_path, "%s/t/t.res", tmpdir);
    snprintf(dir, sizeof dir, "%s/t", tmpdir);
    CHECK_INT(load_rules_in(res_path, dir, &rules), TLV_OK);
    test_instances(rules);
    test_long_instance(rules);
    tlv_rules_free(rules);
    snprintf(res_path, sizeof res_path, "%s/m/m.res", tmpdir);
    snprintf(dir, sizeof dir, "%s/m", tmpdir);
    CHECK_INT(load_rules_in(res_path, dir, &rules), TLV_OK);
    test_processors(rules);
    tlv_rules_free(rules);
    test_errors();
    remove_tree(tmpdir);
    return CHECK_DONE();
}
