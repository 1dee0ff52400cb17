/*
 * test_breakdown.c — tlv_shapes_breakdown through the public API, on a small
 * rule set written here: time per state of a resource's row cut to the range
 * (an interval drawn by two primitives counted once, "When" instants left
 * out), count/min/mean/max/share, the order of the entries, per-CPU rows
 * broken down by the resource running, a range outside the trace, the
 * usage errors, and shapes of a trace still growing (tlv_trace_update).
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char resh[] =
    "{\"v\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"cpu\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":1}},"
    "\"Behaviors\":{\"mark\":{}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"v\"],"
    "\"VisualizeRules\":[\"v\"],\"Resources\":{"
    "\"A\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":1}},"
    "\"B\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":2}}}}";

/* Every state interval is drawn by a bar and a text: two primitives. */
static const char viz[] =
    "{\"v\":{\"Shapes\":{"
    "\"bar\":[{\"Type\":\"Rectangle\",\"Fill\":\"ff00ff00\"}],"
    "\"txt\":[{\"Type\":\"Text\",\"Text\":\"${ARG0}\"}],"
    "\"tick\":[{\"Type\":\"Line\",\"Points\":[\"0,0\",\"0,100%\"]}]},"
    "\"VisualizeRules\":{"
    "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\","
    "  \"To\":\"${TARGET}.state\",\"Figures\":[\"bar\",\"txt(${FROM_VAL})\"]}}},"
    "\"marks\":{\"Target\":\"Task\",\"Shapes\":{\"m\":{\"When\":\"${TARGET}.mark()\","
    "  \"Figures\":\"tick\"}}}}}}";

static const char trace_text[] =
    "[10]A.state=RUN\n"
    "[20]A.state=WAIT\n"
    "[20]B.state=RUN\n"
    "[25]B.mark()\n"
    "[30]B.state=IDLE\n"
    "[30]A.state=RUN\n"
    "[50]A.state=IDLE\n"
    "[55]B.state=RUN\n"
    "[60]B.state=IDLE\n";

static tlv_time at(int64_t ticks)
{
    tlv_time t = {ticks, 0};
    return t;
}

static tlv_shapes *build(tlv_rules **rules, tlv_trace **trace, const char *cpu_attribute)
{
    char res_path[PATH_MAX + 16], log_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/v.res", tmpdir);
    snprintf(log_path, sizeof log_path, "%s/v.std", tmpdir);
    CHECK_INT(load_rules_in(res_path, tmpdir, rules), TLV_OK);
    CHECK_INT(tlv_trace_new(*rules, trace), TLV_OK);
    CHECK_INT(tlv_trace_load_file(*trace, log_path), TLV_OK);
    tlv_shapes_options so = {sizeof(tlv_shapes_options), cpu_attribute, "state", "RUN", NULL, 0, 0, 0};
    tlv_shapes *s = NULL;
    CHECK_INT(tlv_shapes_build(*trace, &so, &s), TLV_OK);
    return s;
}

/* The row labelled `label`, or the row count when there is none. */
static size_t row_of(const tlv_shapes *s, const char *label)
{
    size_t n = tlv_shapes_row_count(s);
    for (size_t i = 0; i < n; i++) {
        tlv_row_info ri;
        tlv_shapes_row(s, i, &ri);
        if (strcmp(ri.label, label) == 0)
            return i;
    }
    fprintf(stderr, "no row %s\n", label);
    return n;
}

/* "rule/value count total min mean max share%" for each entry, joined by "; ". */
static void describe(const tlv_shapes *s, size_t row, int64_t t0, int64_t t1, char *out,
                     size_t size)
{
    tlv_breakdown_entry *e = NULL;
    size_t n = 99;
    CHECK_INT(tlv_shapes_breakdown(s, row, at(t0), at(t1), &e, &n), TLV_OK);
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++)
        len += (size_t)snprintf(out + len, size - len, "%s%s/%s %zu %g %g %g %g %.1f%%",
                                i ? "; " : "", e[i].rule, e[i].value, e[i].count, e[i].total,
                                e[i].min, e[i].mean, e[i].max, e[i].share * 100);
    tlv_breakdown_free(e);
}

static void test_resource_rows(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, NULL);
    char text[512];
    /* A: RUN 10-20 and 30-50, WAIT 20-30, IDLE 50-60; cut to 15..45. */
    describe(s, row_of(s, "A"), 15, 45, text, sizeof text);
    CHECK_STR(text, "st/RUN 2 20 5 10 15 66.7%; st/WAIT 1 10 10 10 10 33.3%");
    /* B: IDLE 10-20 and 30-55, RUN 20-30 (its mark at 25 is an instant). */
    describe(s, row_of(s, "B"), 15, 45, text, sizeof text);
    CHECK_STR(text, "st/IDLE 2 20 5 10 15 66.7%; st/RUN 1 10 10 10 10 33.3%");
    /* The whole trace: the last interval runs to the trace's end. */
    describe(s, row_of(s, "A"), 10, 60, text, sizeof text);
    CHECK_STR(text, "st/RUN 2 30 10 15 20 60.0%; st/IDLE 1 10 10 10 10 20.0%; "
                    "st/WAIT 1 10 10 10 10 20.0%");
    /* Touching an interval's end only: not counted. */
    describe(s, row_of(s, "A"), 50, 60, text, sizeof text);
    CHECK_STR(text, "st/IDLE 1 10 10 10 10 100.0%");

    tlv_breakdown_entry *e = (tlv_breakdown_entry *)1;
    size_t n = 5;
    CHECK_INT(tlv_shapes_breakdown(s, row_of(s, "A"), at(100), at(200), &e, &n), TLV_OK);
    CHECK(e == NULL);
    CHECK_INT(n, 0);
    CHECK_INT(tlv_shapes_breakdown(s, row_of(s, "A"), at(30), at(30), &e, &n), TLV_ERR_USAGE);
    CHECK_INT(tlv_shapes_breakdown(s, row_of(s, "A"), at(40), at(30), &e, &n), TLV_ERR_USAGE);
    CHECK_INT(tlv_shapes_breakdown(s, tlv_shapes_row_count(s), at(10), at(20), &e, &n),
              TLV_ERR_USAGE);
    CHECK(e == NULL);
    CHECK_INT(n, 0);
    tlv_breakdown_free(NULL);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

/* A processor's row is broken down by the resources that ran on it. */
static void test_cpu_rows(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, "cpu");
    char text[512];
    describe(s, row_of(s, "CPU 1"), 15, 45, text, sizeof text);
    CHECK_STR(text, "perCpu/A 2 20 5 10 15 66.7%");
    describe(s, row_of(s, "CPU 2"), 0, 60, text, sizeof text);
    CHECK_STR(text, "perCpu/B 2 15 5 7.5 10 25.0%");
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

/* Shapes built from a live trace show it as far as it was read. */
static void test_growing_trace(void)
{
    char res_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/v.res", tmpdir);
    tlv_rules *rules;
    tlv_trace *trace;
    CHECK_INT(load_rules_in(res_path, tmpdir, &rules), TLV_OK);
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    tlv_converter_set_standard_form(conv, 1);
    size_t half = (size_t)(strstr(trace_text, "[25]") - trace_text);
    CHECK_INT(tlv_converter_push_bytes(conv, trace_text, half), TLV_OK);
    CHECK_INT(tlv_trace_update(trace), TLV_OK);
    tlv_shapes_options so = {sizeof(tlv_shapes_options), NULL, NULL, NULL, NULL, 0, 0, 0};
    tlv_shapes *s = NULL;
    CHECK_INT(tlv_shapes_build(trace, &so, &s), TLV_OK);
    char text[512];
    describe(s, row_of(s, "A"), 10, 60, text, sizeof text);
    CHECK_STR(text, "st/RUN 1 10 10 10 10 20.0%"); /* the trace ends at 20 so far */
    tlv_shapes_free(s);

    CHECK_INT(tlv_converter_push_bytes(conv, trace_text + half, strlen(trace_text) - half),
              TLV_OK);
    CHECK_INT(tlv_trace_update(trace), TLV_OK);
    CHECK_INT(tlv_shapes_build(trace, &so, &s), TLV_OK);
    describe(s, row_of(s, "A"), 10, 60, text, sizeof text);
    CHECK_STR(text, "st/RUN 2 30 10 15 20 60.0%; st/IDLE 1 10 10 10 10 20.0%; "
                    "st/WAIT 1 10 10 10 10 20.0%");
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

int main(void)
{
    make_tmpdir("breakdown");
    write_file("v.resh", resh);
    write_file("v.res", res);
    write_file("v.viz", viz);
    write_file("v.std", trace_text);
    test_resource_rows();
    test_cpu_rows();
    test_growing_trace();
    remove_tree(tmpdir);
    return CHECK_DONE();
}
