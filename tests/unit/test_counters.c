/*
 * test_counters.c — counter attributes through the public API: which
 * attributes are counters, their samples (initial value, changes, values
 * that are not numbers left out, a resource created on first use), the
 * statistics (min, max, mean, time-weighted mean), declared bounds, the
 * sample in force at a time, and the errors in declaring one.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char resh[] =
    "{\"t\":{\"Proc\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"heap\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":0,"
    "\"Counter\":true,\"DisplayName\":\"Heap bytes\"},"
    "\"load\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Counter\":true,"
    "\"Min\":0,\"Max\":100},"
    "\"id\":{\"VariableType\":\"Number\",\"AllocationType\":\"Static\"},"
    "\"depth\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\"},"
    "\"mixed\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\"}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"t\"],"
    "\"DynamicResources\":{\"Proc\":\"P\\\\d+\"},"
    "\"Resources\":{\"A\":{\"Type\":\"Proc\",\"Attributes\":{\"heap\":10}},"
    "\"B\":{\"Type\":\"Proc\"}}}";

/* A's heap: 10 (initial) from 0, 30 from 20, "lots" (left out) at 40, 0 at
 * 60; the trace ends at 100. A's load: empty initially (left out), 50 at 40.
 * P7 appears at 80 with heap 0 and sets 4 there. A's depth, not declared a
 * counter, is only ever a number (1 at 10, 3 at 30); its mixed is a number,
 * then a word. */
static const char *const lines[] = {
    "[0]A.state=RUNNING", "[10]A.depth=1", "[20]A.heap=30", "[30]A.depth=3",
    "[40]A.heap=lots",    "[40]A.load=50", "[50]A.mixed=2", "[60]A.heap=0",
    "[70]A.mixed=x",      "[80]P7.heap=4", "[100]B.state=RUNNING",
};

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

/* tlv_counters_compute_numeric: the declared counters and A.depth (the only
 * other attribute all of whose values are numbers and that changes; not
 * state, a word; not mixed, a word at last; not id, never set). */
static void test_numeric(const tlv_trace *trace)
{
    tlv_counters *cs;
    CHECK_INT(tlv_counters_compute_numeric(trace, &cs), TLV_OK);
    /* A.heap A.load A.depth B.heap B.load P7.heap P7.load */
    CHECK_INT(tlv_counters_count(cs), 7);
    CHECK_INT(tlv_counters_find(cs, "A", "depth"), 2);
    CHECK_INT(tlv_counters_find(cs, "A", "mixed"), -1);
    CHECK_INT(tlv_counters_find(cs, "A", "state"), -1);
    CHECK_INT(tlv_counters_find(cs, "A", "id"), -1);
    CHECK_INT(tlv_counters_find(cs, "B", "load"), 4);
    tlv_counter_info in;
    tlv_counters_get(cs, 2, &in);
    CHECK_STR(in.attribute, "depth");
    CHECK_INT(in.declared, 0);
    CHECK_INT(in.nsamples, 2);
    CHECK(near(in.min, 1) && near(in.max, 3));
    size_t n;
    const tlv_counter_sample *s = tlv_counters_samples(cs, 2, &n);
    CHECK(n == 2 && s[0].time.ticks == 10 && near(s[1].value, 3));
    tlv_counters_get(cs, 0, &in);
    CHECK_INT(in.declared, 1);
    CHECK_INT(in.nsamples, 3); /* as tlv_counters_compute has it */
    tlv_counters_free(cs);
    CHECK_INT(tlv_counters_compute_numeric(NULL, &cs), TLV_ERR_USAGE);
}

static void test_counters(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        CHECK_INT(tlv_converter_push_line(conv, lines[i], strlen(lines[i])), TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);

    CHECK_INT(tlv_trace_attr_is_counter(trace, "A", "heap"), 1);
    CHECK_INT(tlv_trace_attr_is_counter(trace, "A", "state"), 0);
    CHECK_INT(tlv_trace_attr_is_counter(trace, "A", "nothere"), 0);
    CHECK_INT(tlv_trace_attr_is_counter(trace, "Z", "heap"), 0);
    CHECK_INT(tlv_trace_attr_is_counter(trace, "P7", "load"), 1);
    CHECK_INT(tlv_trace_attr_is_counter(NULL, "A", "heap"), 0);

    tlv_counters *cs;
    CHECK_INT(tlv_counters_compute(trace, &cs), TLV_OK);
    /* A.heap A.load B.heap B.load P7.heap P7.load */
    CHECK_INT(tlv_counters_count(cs), 6);
    CHECK_INT(tlv_counters_find(cs, "A", "heap"), 0);
    CHECK_INT(tlv_counters_find(cs, "B", "load"), 3);
    CHECK_INT(tlv_counters_find(cs, "P7", "heap"), 4);
    CHECK_INT(tlv_counters_find(cs, "A", "state"), -1);
    CHECK_INT(tlv_counters_find(cs, "Z", "heap"), -1);

    tlv_counter_info in;
    tlv_counters_get(cs, 0, &in);
    CHECK_STR(in.resource, "A");
    CHECK_STR(in.attribute, "heap");
    CHECK_STR(in.display_name, "Heap bytes");
    CHECK_INT(in.nsamples, 3);
    CHECK_INT(in.skipped, 1);
    CHECK(near(in.min, 0) && near(in.max, 30));
    CHECK(near(in.mean, (10 + 30 + 0) / 3.0));
    /* 10 for 20, 30 for 40 (the non-number changes nothing), 0 for 40 */
    CHECK(near(in.time_mean, (10 * 20 + 30 * 40 + 0 * 40) / 100.0));
    CHECK_INT(in.has_bounds, 0);
    size_t n;
    const tlv_counter_sample *s = tlv_counters_samples(cs, 0, &n);
    CHECK_INT(n, 3);
    CHECK(s && s[0].time.ticks == 0 && near(s[0].value, 10));
    CHECK(s && s[1].time.ticks == 20 && near(s[1].value, 30));
    CHECK(s && s[2].time.ticks == 60 && near(s[2].value, 0));
    tlv_time t = {19, 0};
    CHECK_INT(tlv_counters_sample_at(cs, 0, t), 0);
    t.ticks = 20;
    CHECK_INT(tlv_counters_sample_at(cs, 0, t), 1);
    t.ticks = 1000;
    CHECK_INT(tlv_counters_sample_at(cs, 0, t), 2);
    t.ticks = -1;
    CHECK_INT(tlv_counters_sample_at(cs, 0, t), (size_t)-1);

    tlv_counters_get(cs, 1, &in); /* A.load: declared bounds; no initial value */
    CHECK_STR(in.display_name, "load");
    CHECK_INT(in.nsamples, 1);
    CHECK_INT(in.has_bounds, 1);
    CHECK(near(in.lower, 0) && near(in.upper, 100));
    CHECK(near(in.time_mean, 50));

    tlv_counters_get(cs, 2, &in); /* B.heap: its Default at the start, never changed */
    CHECK_INT(in.nsamples, 1);
    CHECK(near(in.time_mean, 0));

    s = tlv_counters_samples(cs, 4, &n); /* P7.heap starts where P7 appears */
    CHECK_INT(n, 2);
    CHECK(s && s[0].time.ticks == 80 && near(s[0].value, 0));
    CHECK(s && s[1].time.ticks == 80 && near(s[1].value, 4));
    tlv_counters_get(cs, 4, &in);
    CHECK(near(in.time_mean, 4)); /* the zero-length initial 0 weighs nothing */

    CHECK(tlv_counters_samples(cs, 99, &n) == NULL && n == 0);
    tlv_counters_get(cs, 99, &in);
    CHECK(in.resource == NULL);
    tlv_counters_free(cs);

    CHECK_INT(tlv_counters_compute(NULL, &cs), TLV_ERR_USAGE);
    CHECK(cs == NULL);
    CHECK_INT(tlv_counters_count(NULL), 0);
    tlv_counters_free(NULL);
    test_numeric(trace);
    tlv_trace_free(trace);
}

/* The first diagnostic of loading a header with this attribute. */
static void expect_header_error(const char *attr_json, const char *want)
{
    char text[600];
    snprintf(text, sizeof text, "{\"t\":{\"Proc\":{\"Attributes\":{\"x\":%s}}}}", attr_json);
    write_file("bad/t.resh", text);
    write_file("bad/t.res", "{\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"t\"],\"Resources\":{}}");
    char res_path[PATH_MAX + 16], dir[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/bad/t.res", tmpdir);
    snprintf(dir, sizeof dir, "%s/bad", tmpdir);
    tlv_rules *r;
    CHECK_INT(load_rules_in(res_path, dir, &r), TLV_ERR_RULE);
    const tlv_diag *d = tlv_diags_get(tlv_rules_diags(r), 0);
    char msg[400] = "";
    if (d)
        tlv_diag_format(d, msg, sizeof msg);
    const char *tail = strstr(msg, "t.resh:");
    CHECK_STR(tail ? tail : msg, want);
    tlv_rules_free(r);
}

int main(void)
{
    make_tmpdir("counters");
    write_file("t.resh", resh);
    write_file("t.res", res);
    char res_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/t.res", tmpdir);
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res_path, tmpdir, &rules), TLV_OK);
    test_counters(rules);
    tlv_rules_free(rules);

    expect_header_error("{\"VariableType\":\"String\",\"Counter\":true}",
                        "t.resh:1:68: error: attribute 'x': a counter needs \"VariableType\": "
                        "\"Number\"");
    expect_header_error("{\"VariableType\":\"Number\",\"Counter\":1}",
                        "t.resh:1:68: error: attribute 'x': \"Counter\" must be true or false, "
                        "found a number");
    expect_header_error("{\"VariableType\":\"Number\",\"Counter\":true,\"Min\":\"lo\",\"Max\":1}",
                        "t.resh:1:79: error: attribute 'x': \"Min\" must be a number, found lo");
    expect_header_error("{\"VariableType\":\"Number\",\"Counter\":true,\"Max\":1}",
                        "t.resh:1:79: error: attribute 'x': give both \"Min\" and \"Max\", or "
                        "neither");
    expect_header_error("{\"VariableType\":\"Number\",\"Counter\":true,\"Min\":5,\"Max\":5}",
                        "t.resh:1:79: error: attribute 'x': \"Min\" must be less than \"Max\"");
    remove_tree(tmpdir);
    return CHECK_DONE();
}
