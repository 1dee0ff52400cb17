/*
 * test_verify.c — timing requirements (tlv/verify.h) on the trace of
 * test_instances.c, every figure worked out by hand below: each check
 * passing and failing with its worst case, where it began (time, line) and
 * its violations; durations with units; the errors of a requirements file
 * with their positions, and of requirements naming what the trace lacks.
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

/* The trace of test_instances.c (see there): one processor; A runnable
 * 0..5, 20..30, 80..90, running 5..20 (H over it 12..15), 30..40,
 * 90..100; B runnable at 20 and run 20..30, runnable again at 100. */
static const char *const lines[] = {
    "[0]A.state=RUNNABLE", "[5]A.state=RUNNING",   "[10]A.enterSVC(wai,x)",
    "[12]H.state=RUNNING", "[15]H.state=DORMANT",  "[20]B.state=RUNNABLE",
    "[20]A.state=RUNNABLE", "[20]B.state=RUNNING", "[30]B.state=DORMANT",
    "[30]A.state=RUNNING", "[35]A.leaveSVC(wai,x,0)", "[40]A.state=DORMANT",
    "[50]A.req(7)",        "[52]A.req(8)",         "[60]A.done(8)",
    "[70]A.done(7)",       "[80]A.state=RUNNABLE", "[90]A.state=RUNNING",
    "[100]B.state=RUNNABLE",
};

/* Each requirement, and what it must come to. */
static const char reqs[] =
    "{\"Requirements\": {\n"
    /* A's one whole response, 0..40 */
    "\"r1\": {\"Check\": \"response\", \"Resource\": \"A\", \"Max\": \"0.04 ms\"},\n"
    "\"r2\": {\"Check\": \"response\", \"Resource\": \"A\", \"Max\": 39},\n"
    /* latencies: A 5 and 10, B 0: every task's p50 is 5 at most; A's max 10 */
    "\"r3\": {\"Check\": \"latency\", \"Resource\": \"Task\", \"Statistic\": \"p50\", \"Max\": 5},\n"
    "\"r4\": {\"Check\": \"latency\", \"Resource\": \"Task\", \"Max\": 8},\n"
    /* RUNNABLE: A 5, 10, 10; B 0 (at the end): the first 10 (20..30, line 7) */
    "\"r5\": {\"Check\": \"state\", \"Resource\": \"Task\", \"State\": \"RUNNABLE\", \"Max\": 9},\n"
    /* busy 5..40 and 90..100: every window of 10 from 3 to 32 and from 88
     * is over 80%, the busiest (100%) from 5 */
    "\"r6\": {\"Check\": \"cpu\", \"Window\": 10, \"Max\": \"80%\"},\n"
    /* B's wake-up at 100 is never followed by its running */
    "\"r7\": {\"Check\": \"followed\", \"Event\": \"Task.state=RUNNABLE\",\n"
    "        \"FollowedBy\": \"${TARGET}.state=RUNNING\", \"Within\": 5},\n"
    /* A: 5, 10, 10: the slowest the first 10, from 20 */
    "\"r8\": {\"Check\": \"followed\", \"Event\": \"A.state=RUNNABLE\",\n"
    "        \"FollowedBy\": \"A.state=RUNNING\", \"Within\": 10},\n"
    "\"r9\": {\"Check\": \"never\", \"Resource\": \"Task\", \"State\": \"SUSPENDED\"},\n"
    "\"r10\": {\"Check\": \"never\", \"Event\": \"A.done()\"},\n"
    /* the call wai 10..35, the requests 20 and 8 */
    "\"r11\": {\"Check\": \"response\", \"Kind\": \"call\", \"Name\": \"wai\", \"Max\": 20},\n"
    "\"r12\": {\"Check\": \"response\", \"Resource\": \"A\", \"Kind\": \"request\", \"Max\": 30},\n"
    "\"r13\": {\"Check\": \"response\", \"Resource\": \"H\", \"Kind\": \"call\", \"Max\": 30}\n"
    "}}\n";

typedef struct expect {
    const char *name;
    int passed;
    double worst;
    const char *resource;
    double time;
    unsigned line;
    size_t violations;
    const char *message;
} expect;

static const expect want[] = {
    {"r1", 1, 40, "A", 0, 1, 0,
     "response max of A 40 us <= 40 us; worst: A at 0 us, line 1; 0 of 1 instance over"},
    {"r2", 0, 40, "A", 0, 1, 1,
     "response max of A 40 us > 39 us; worst: A at 0 us, line 1; 1 of 1 instance over"},
    {"r3", 1, 5, "A", 0, 1, 0,
     "latency p50 of A 5 us <= 5 us; that instance: A at 0 us, line 1; 1 of 3 instances over "
     "(2 actors)"},
    {"r4", 0, 10, "A", 80, 17, 1,
     "latency max of A 10 us > 8 us; worst: A at 80 us, line 17; 1 of 3 instances over "
     "(2 actors)"},
    {"r5", 0, 10, "A", 20, 7, 2,
     "state=RUNNABLE for at most 10 us > 9 us; longest: A at 20 us, line 7; 2 of 3 intervals "
     "over"},
    {"r6", 0, 1, "CPU", 5, 2, 2,
     "busy at most 100% of 10 us > 80%; busiest window: CPU from 5 us, line 2; over in 2 "
     "stretches"},
    {"r7", 0, 0, "B", 100, 19, 3,
     "Task.state=RUNNABLE not followed by ${TARGET}.state=RUNNING: 1 of 5; first: B at 100 "
     "us, line 19"},
    {"r8", 1, 10, "A", 20, 7, 0,
     "A.state=RUNNABLE followed by A.state=RUNNING within at most 10 us <= 10 us; slowest: A "
     "at 20 us, line 7; 0 of 3 over"},
    {"r9", 1, 0, NULL, 0, 0, 0, "never state=SUSPENDED"},
    {"r10", 0, 2, "A", 60, 15, 2, "A.done() happened 2 times; first: A at 60 us, line 15"},
    {"r11", 0, 25, "A", 10, 3, 1,
     "call wai max of A 25 us > 20 us; worst: A at 10 us, line 3; 1 of 1 instance over"},
    {"r12", 1, 20, "A", 50, 13, 0,
     "request req 7 max of A 20 us <= 30 us; worst: A at 50 us, line 13; 0 of 2 instances "
     "over"},
    {"r13", 0, -1, NULL, 0, 0, 0, "no whole call instance of H in the trace"},
};

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

static void check_verdicts(const tlv_verdicts *v)
{
    CHECK_INT(tlv_verdicts_count(v), sizeof want / sizeof *want);
    CHECK_INT(tlv_verdicts_failed(v), 8);
    for (size_t i = 0; i < tlv_verdicts_count(v) && i < sizeof want / sizeof *want; i++) {
        tlv_verdict d;
        tlv_verdicts_get(v, i, &d);
        const expect *w = &want[i];
        CHECK_STR(d.name, w->name);
        CHECK_INT(d.passed, w->passed);
        CHECK_STR(d.message, w->message);
        if (w->worst != 0 || !w->passed)
            CHECK(near(d.worst, w->worst) || (w->name[1] == '7'));
        CHECK(w->resource ? d.resource && strcmp(d.resource, w->resource) == 0 : !d.resource);
        CHECK(near(tlv_time_to_double(d.time, 10), w->time));
        CHECK_INT(d.line, w->line);
        CHECK_INT(d.violations, w->violations);
    }
}

/* The violations to show: r2's instance, r4's, r5's two intervals, r6's two
 * stretches (windows from 3 to 32 cover 3..42: the window from 3 is busy
 * 8 of 10, those after it more; from 88, 88..100), r7's two late
 * wake-ups and the one never followed, r10's two events, r11's call. */
static void check_violations(const tlv_verdicts *v)
{
    static const struct {
        size_t req;
        double start, end;
        unsigned line;
    } vio[] = {
        {1, 0, 40, 1},    {3, 80, 90, 17},  {4, 20, 30, 7},    {4, 80, 90, 17},
        {5, 3, 42, 2},    {5, 88, 100, 18}, {6, 20, 30, 7},    {6, 80, 90, 17},
        {6, 100, 100, 19}, {9, 60, 60, 15}, {9, 70, 70, 16},   {10, 10, 35, 3},
    };
    size_t n = sizeof vio / sizeof *vio;
    CHECK_INT(tlv_verdicts_violation_count(v), n);
    for (size_t i = 0; i < n && i < tlv_verdicts_violation_count(v); i++) {
        tlv_violation x;
        tlv_verdicts_violation(v, i, &x);
        if (x.requirement != vio[i].req || !near(tlv_time_to_double(x.start, 10), vio[i].start) ||
            !near(tlv_time_to_double(x.end, 10), vio[i].end) || x.line != vio[i].line)
            fprintf(stderr, "violation %zu: requirement %zu, %g..%g, line %llu\n", i,
                    x.requirement, tlv_time_to_double(x.start, 10),
                    tlv_time_to_double(x.end, 10), (unsigned long long)x.line);
        CHECK_INT(x.requirement, vio[i].req);
        CHECK(near(tlv_time_to_double(x.start, 10), vio[i].start));
        CHECK(near(tlv_time_to_double(x.end, 10), vio[i].end));
        CHECK_INT(x.line, vio[i].line);
    }
}

/* A requirements file's errors, each at its position. */
static void check_file_errors(void)
{
    static const char bad[] =
        "{\"Requirements\": {\n"
        "\"a\": {\"Check\": \"respons\", \"Max\": 5},\n"
        "\"b\": {\"Check\": \"response\", \"Max\": \"4 mss\"},\n"
        "\"c\": {\"Check\": \"state\", \"State\": \"X\", \"Mx\": 5},\n"
        "\"d\": {\"Check\": \"latency\", \"Statistic\": \"q99\", \"Max\": 5},\n"
        "\"e\": {\"Check\": \"cpu\", \"Window\": 10, \"Max\": \"180%\"},\n"
        "\"f\": {\"Check\": \"followed\", \"Event\": \"A.go(\", \"FollowedBy\": \"A.x\", \"Within\": 1},\n"
        "\"g\": {\"Check\": \"never\"},\n"
        "\"h\": {\"Check\": \"response\"}\n"
        "}, \"Extra\": 1}\n";
    static const char *const errs[] = {
        "r.json:2:16: error: requirement 'a': \"Check\" must be one of response, latency, "
        "state, cpu, followed, never; found respons",
        "r.json:3:38: error: requirement 'b': \"Max\": '4 mss' is not a duration (a number in "
        "the trace's TimeScale, or a number and a unit: s, ms, us, ns)",
        "r.json:4:39: error: requirement 'c': unknown member 'Mx' for a state check (it takes: "
        "Resource Attribute State Max)",
        "r.json:5:40: error: requirement 'd': \"Statistic\" must be \"max\", \"mean\" or a "
        "percentile \"pNN\" (p50, p90, p99, p99.9), found q99",
        "r.json:6:44: error: requirement 'e': \"Max\" of a cpu check must be a percentage from 0 "
        "to 100 (80 or \"80%\"), found 180%",
        "r.json:7:42: error: requirement 'f': \"Event\": unbalanced parentheses in arguments",
        "r.json:8:1: error: requirement 'g': a never check needs \"State\" (with \"Resource\" and "
        "\"Attribute\") or \"Event\", one of them",
        "r.json:9:1: error: requirement 'h': a response check needs \"Max\", the longest time "
        "allowed",
        "r.json:10:4: error: unknown member 'Extra' (a requirements file has \"Requirements\", "
        "\"ResourceFile\" and \"Description\")",
    };
    tlv_requirements *r;
    CHECK_INT(tlv_requirements_parse(bad, strlen(bad), "r.json", &r), TLV_ERR_RULE);
    const tlv_diags *d = tlv_requirements_diags(r);
    CHECK_INT(tlv_diags_count(d), sizeof errs / sizeof *errs);
    for (size_t i = 0; i < tlv_diags_count(d) && i < sizeof errs / sizeof *errs; i++) {
        char text[600];
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        CHECK_STR(text, errs[i]);
    }
    CHECK_INT(tlv_requirements_count(r), 0);
    tlv_requirements_free(r);
    CHECK_INT(tlv_requirements_parse("{\"Requirements\": [", 18, "s.json", &r), TLV_ERR_SYNTAX);
    CHECK_INT(tlv_diags_count(tlv_requirements_diags(r)), 1);
    tlv_requirements_free(r);
    CHECK_INT(tlv_requirements_load("/nonexistent/r.json", &r), TLV_ERR_IO);
    char text[600];
    tlv_diag_format(tlv_diags_get(tlv_requirements_diags(r), 0), text, sizeof text);
    CHECK_STR(text, "/nonexistent/r.json: error: cannot read the requirements: No such file or "
                    "directory");
    tlv_requirements_free(r);
}

/* Requirements that name what the trace lacks: errors at their values. */
static void check_trace_errors(const tlv_trace *trace)
{
    static const char text[] =
        "{\"Requirements\": {\n"
        "\"x\": {\"Check\": \"response\", \"Resource\": \"Z\", \"Max\": 5},\n"
        "\"y\": {\"Check\": \"cpu\", \"Processor\": \"CPU 7\", \"Window\": 5, \"Max\": 5},\n"
        "\"z\": {\"Check\": \"state\", \"Resource\": \"H\", \"Attribute\": \"prio\", \"State\": \"X\", \"Max\": 5},\n"
        "\"w\": {\"Check\": \"followed\", \"Event\": \"Z.go()\", \"FollowedBy\": \"A.x\", \"Within\": 5},\n"
        "\"ok\": {\"Check\": \"never\", \"Event\": \"A.nothing()\"},\n"
        "\"v\": {\"Check\": \"cpu\", \"Window\": 150, \"Max\": \"50%\"}\n"
        "}}\n";
    static const char *const errs[] = {
        "t.json:2:41: error: requirement 'x': the trace has no resource or type 'Z'",
        "t.json:3:37: error: requirement 'y': the trace has no processor CPU 7",
        "t.json:4:56: error: requirement 'z': no resource of H has an attribute 'prio'",
        "t.json:5:38: error: requirement 'w': the trace has no resource or type 'Z'",
        "t.json:7:33: error: requirement 'v': the window (150 us) is longer than the trace "
        "(100 us): no window of that length lies in it",
    };
    tlv_requirements *r;
    CHECK_INT(tlv_requirements_parse(text, strlen(text), "t.json", &r), TLV_OK);
    CHECK_INT(tlv_requirements_count(r), 6);
    CHECK_STR(tlv_requirements_name(r, 4), "ok");
    tlv_verdicts *v;
    CHECK_INT(tlv_requirements_verify(r, trace, NULL, &v), TLV_ERR_RULE);
    const tlv_diags *d = tlv_verdicts_diags(v);
    CHECK_INT(tlv_diags_count(d), sizeof errs / sizeof *errs);
    for (size_t i = 0; i < tlv_diags_count(d) && i < sizeof errs / sizeof *errs; i++) {
        char msg[600];
        tlv_diag_format(tlv_diags_get(d, i), msg, sizeof msg);
        CHECK_STR(msg, errs[i]);
    }
    CHECK_INT(tlv_verdicts_count(v), 1); /* the one without errors */
    tlv_verdicts_free(v);
    CHECK_INT(tlv_requirements_verify(NULL, trace, NULL, &v), TLV_ERR_USAGE);
    CHECK_INT(tlv_requirements_verify(r, NULL, NULL, &v), TLV_ERR_USAGE);
    tlv_requirements_free(r);
}

int main(void)
{
    make_tmpdir("verify");
    write_file("t.resh", resh);
    write_file("t.res", res);
    char res_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/t.res", tmpdir);
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res_path, tmpdir, &rules), TLV_OK);
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        CHECK_INT(tlv_converter_push_line(conv, lines[i], strlen(lines[i])), TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);

    tlv_requirements *r;
    CHECK_INT(tlv_requirements_parse(reqs, strlen(reqs), "reqs.json", &r), TLV_OK);
    CHECK_INT(tlv_diags_count(tlv_requirements_diags(r)), 0);
    tlv_verdicts *v;
    CHECK_INT(tlv_requirements_verify(r, trace, NULL, &v), TLV_OK);
    check_verdicts(v);
    check_violations(v);
    tlv_verdicts_free(v);
    tlv_requirements_free(r);

    check_file_errors();
    check_trace_errors(trace);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    remove_tree(tmpdir);
    return CHECK_DONE();
}
