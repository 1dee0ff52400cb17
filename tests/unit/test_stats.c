/*
 * test_stats.c — tlv_stats through the public API: time per state, busy
 * time per processor with a migration splitting a running interval and a
 * handler overlapping the task it interrupted (counted once), busy time of
 * windows, the whole system, load per column as a track draws it, and the
 * usage errors.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char resh[] =
    "{\"t\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"prcId\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":\"1\"}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"t\"],\"Resources\":{"
    "\"A\":{\"Type\":\"Task\",\"Attributes\":{\"prcId\":1}},"
    "\"B\":{\"Type\":\"Task\",\"Attributes\":{\"prcId\":2}},"
    "\"H\":{\"Type\":\"Task\",\"Attributes\":{\"prcId\":1}}}}";

/* A runs on CPU 1 from 0 to 40, migrates to CPU 2 at 40 and runs there to
 * 60; H runs over A on CPU 1 from 10 to 20; B runs on CPU 2 from 70 to 100. */
static const char *const lines[] = {
    "[0]A.state=RUNNING", "[10]H.state=RUNNING", "[20]H.state=IDLE", "[40]A.prcId=2",
    "[60]A.state=IDLE",   "[70]B.state=RUNNING", "[100]B.state=IDLE",
};

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

static void test_stats(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_stats *s = (tlv_stats *)1;
    tlv_converter *conv = tlv_trace_converter(trace);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        CHECK_INT(tlv_converter_push_line(conv, lines[i], strlen(lines[i])), TLV_OK);
    CHECK_INT(tlv_stats_compute(trace, NULL, &s), TLV_ERR_USAGE); /* events not ordered yet */
    CHECK(s == NULL);
    CHECK_INT(tlv_trace_update(trace), TLV_OK); /* a growing trace: its events so far */
    CHECK_INT(tlv_stats_compute(trace, NULL, &s), TLV_OK);
    CHECK_INT(tlv_stats_cpu_count(s), 2);
    tlv_stats_free(s);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);
    CHECK_INT(tlv_stats_compute(trace, NULL, &s), TLV_OK);

    CHECK_STR(tlv_stats_cpu_attribute(s), "prcId"); /* found by itself */
    CHECK(near(tlv_stats_start(s), 0) && near(tlv_stats_end(s), 100));
    CHECK_INT(tlv_stats_cpu_count(s), 2);
    tlv_cpu_stat c1, c2;
    tlv_stats_cpu(s, 0, &c1);
    tlv_stats_cpu(s, 1, &c2);
    CHECK_STR(c1.name, "CPU 1");
    CHECK_STR(c2.name, "CPU 2");
    CHECK(near(c1.busy, 40));     /* A 0..40, H inside it counted once */
    CHECK_INT(c1.intervals, 1);
    CHECK(near(c2.busy, 50));     /* A 40..60 after the migration, B 70..100 */
    CHECK_INT(c2.intervals, 2);

    CHECK(near(tlv_stats_busy_in(s, 0, 30, 50), 10));
    CHECK(near(tlv_stats_busy_in(s, 1, 50, 80), 20));
    CHECK(near(tlv_stats_busy_in(s, TLV_STATS_ALL_CPUS, 30, 80), 10 + 30));
    CHECK(near(tlv_stats_busy_in(s, 1, 80, 50), 0)); /* reversed */
    CHECK(near(tlv_stats_busy_in(s, 7, 0, 100), 0)); /* no such processor */

    double lo, hi; /* CPU 2 busy 40..60 and 70..100 */
    CHECK_INT(tlv_stats_busy_spans(s, 1, 50, 80, &lo, &hi), 2);
    CHECK(near(lo, 10) && near(hi, 10));
    CHECK_INT(tlv_stats_busy_spans(s, 1, 0, 100, &lo, &hi), 2);
    CHECK(near(lo, 20) && near(hi, 30));
    CHECK_INT(tlv_stats_busy_spans(s, TLV_STATS_ALL_CPUS, 30, 80, &lo, NULL), 3);
    CHECK(near(lo, 10));
    CHECK_INT(tlv_stats_busy_spans(s, 1, 60, 70, &lo, &hi), 0); /* idle between */
    CHECK(near(lo, 0) && near(hi, 0));
    CHECK_INT(tlv_stats_busy_spans(s, 7, 0, 100, NULL, NULL), 0);
    CHECK_INT(tlv_stats_busy_spans(NULL, 0, 0, 100, NULL, NULL), 0);

    double load[4];
    tlv_stats_load(s, 1, 0, 100, load, 4); /* columns of 25 */
    CHECK(near(load[0], 0) && near(load[1], 10.0 / 25) && near(load[2], 15.0 / 25) &&
          near(load[3], 1));
    double many[37]; /* each column searched from the last: the same as one by one */
    tlv_stats_load(s, TLV_STATS_ALL_CPUS, -5, 106, many, 37);
    for (int k = 0; k < 37; k++)
        CHECK(near(many[k], tlv_stats_busy_in(s, TLV_STATS_ALL_CPUS, -5 + 3 * k, -2 + 3 * k) / 6));
    tlv_stats_load(s, TLV_STATS_ALL_CPUS, 0, 100, load, 2); /* mean over both */
    CHECK(near(load[0], (40 + 10) / 100.0) && near(load[1], (0 + 40) / 100.0));

    /* A: IDLE 60..100 and RUNNING 0..60 (its initial IDLE is zero-length);
     * B: IDLE, RUNNING; H: IDLE (twice), RUNNING. */
    CHECK_INT(tlv_stats_state_count(s), 6);
    tlv_state_stat st;
    tlv_stats_state(s, 1, &st);
    CHECK_STR(st.resource, "A");
    CHECK_STR(st.state, "RUNNING");
    CHECK_INT(st.count, 1);
    CHECK(near(st.total, 60));
    tlv_stats_state(s, 4, &st);
    CHECK_STR(st.resource, "H");
    CHECK_INT(st.count, 2);
    CHECK(near(st.total, 10 + 80) && near(st.min, 10) && near(st.max, 80));
    tlv_stats_free(s);

    tlv_stats_options o = {0};
    o.cpu_attribute = "nothere"; /* no resource has it: runs on no processor */
    CHECK_INT(tlv_stats_compute(trace, &o, &s), TLV_OK);
    CHECK_INT(tlv_stats_cpu_count(s), 0);
    tlv_stats_free(s);
    CHECK_INT(tlv_stats_compute(NULL, NULL, &s), TLV_ERR_USAGE);
    tlv_stats_free(NULL);
    tlv_trace_free(trace);
}

int main(void)
{
    make_tmpdir("stats");
    write_file("t.resh", resh);
    write_file("t.res", res);
    char res_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/t.res", tmpdir);
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res_path, tmpdir, &rules), TLV_OK);
    test_stats(rules);
    tlv_rules_free(rules);
    remove_tree(tmpdir);
    return CHECK_DONE();
}
