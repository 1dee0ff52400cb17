/*
 * test_trace.c — tlv_trace through the public API: events in (time, line)
 * order after a multi-core style out-of-order input, tlv_trace_seek, its
 * resources, and attribute queries at a time (initial values, changes at
 * the asked time itself, the end of the trace, unknown names); a growing
 * trace read between pushes with tlv_trace_update (new events merged in
 * order, behaviors' arguments readable, an unfinished line held back).
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char resh[] =
    "{\"t\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"}},"
    "\"Behaviors\":{\"mark\":{}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"t\"],\"Resources\":{"
    "\"A\":{\"Type\":\"Task\",\"Attributes\":{\"state\":\"READY\"}},\"B\":{\"Type\":\"Task\"}}}";

static const char *const lines[] = {
    "[10]A.state=RUN", "[20]A.state=WAIT", "[15]B.state=RUN", "[20]B.mark()",
    "[20]B.state=IDLE", "[30]A.state=RUN",
};

static tlv_time at(int64_t ticks)
{
    tlv_time t = {ticks, 0};
    return t;
}

static const char *value_at(const tlv_trace *trace, const char *res_name, const tlv_time *t)
{
    const char *v = "(unset)";
    CHECK_INT(tlv_trace_attr_at(trace, res_name, "state", t, &v), TLV_OK);
    return v;
}

static void test_events_and_state(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        CHECK_INT(tlv_converter_push_line(conv, lines[i], strlen(lines[i])), TLV_OK);
    tlv_time t20 = at(20);
    CHECK_STR(value_at(trace, "A", &t20), "WAIT"); /* the state so far, before finish */
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);

    CHECK_INT(tlv_trace_event_count(trace), 6);
    tlv_event e;
    tlv_trace_event(trace, 1, &e);
    CHECK_STR(e.resource, "B"); /* [15] sorted before the [20]s */
    CHECK_INT(e.time.ticks, 15);
    CHECK_INT(tlv_trace_seek(trace, at(20)), 2);
    CHECK_INT(tlv_trace_seek(trace, at(16)), 2);
    CHECK_INT(tlv_trace_seek(trace, at(0)), 0);
    CHECK_INT(tlv_trace_seek(trace, at(31)), 6);
    tlv_trace_event(trace, tlv_trace_seek(trace, at(20)), &e);
    CHECK_STR(e.name, "state"); /* line order among equal times */
    CHECK_STR(e.value, "WAIT");
    tlv_trace_event(trace, 3, &e);
    CHECK_INT(e.kind, TLV_EVENT_BEHAVIOR);
    CHECK_STR(e.name, "mark");

    tlv_time t9 = at(9), t10 = at(10), t29 = at(29);
    CHECK_STR(value_at(trace, "A", &t9), "READY");  /* resource file's initial value */
    CHECK_STR(value_at(trace, "B", &t9), "IDLE");   /* the type's Default */
    CHECK_STR(value_at(trace, "A", &t10), "RUN");   /* a change at the time itself counts */
    CHECK_STR(value_at(trace, "A", &t29), "WAIT");
    CHECK_STR(value_at(trace, "B", &t20), "IDLE");
    CHECK_STR(value_at(trace, "A", NULL), "RUN");

    CHECK_INT(tlv_trace_resource_count(trace), 2);
    CHECK_STR(tlv_trace_resource_name(trace, 1), "B");
    CHECK_STR(tlv_trace_resource_type(trace, 1), "Task");
    CHECK(tlv_trace_resource_name(trace, 2) == NULL);

    const char *v = "kept";
    CHECK_INT(tlv_trace_attr_at(trace, "C", "state", NULL, &v), TLV_ERR_USAGE);
    CHECK_INT(tlv_trace_attr_at(trace, "A", "color", NULL, &v), TLV_ERR_USAGE);
    CHECK_STR(v, "kept");
    tlv_trace_free(trace);
}

/* "time:resource.name" of every event, in order, joined by spaces. */
static void events_text(const tlv_trace *trace, char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < tlv_trace_event_count(trace) && len < size; i++) {
        tlv_event e;
        tlv_trace_event(trace, i, &e);
        len += (size_t)snprintf(out + len, size - len, "%s%lld:%s.%s%s", i ? " " : "",
                                (long long)e.time.ticks, e.resource, e.name,
                                e.kind == TLV_EVENT_BEHAVIOR && e.nargs ? e.args[0] : "");
    }
}

/* A live log: updates between pushes show what was read so far, in order. */
static void test_update_while_growing(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    char text[512];
    const char first[] = "[20]A.state=RUN\n[10]B.mark(x)\n[30]A.sta";
    CHECK_INT(tlv_converter_push_bytes(conv, first, strlen(first)), TLV_OK);
    CHECK_INT(tlv_trace_update(trace), TLV_OK);
    events_text(trace, text, sizeof text);
    CHECK_STR(text, "10:B.markx 20:A.state"); /* sorted; the unfinished line waits */
    CHECK_INT(tlv_trace_end(trace).ticks, 20);
    CHECK_INT(tlv_trace_seek(trace, at(15)), 1);

    const char more[] = "te=WAIT\n[15]A.mark(y)\n[40]B.state=RUN\n";
    CHECK_INT(tlv_converter_push_bytes(conv, more, strlen(more)), TLV_OK);
    CHECK_INT(tlv_trace_update(trace), TLV_OK);
    events_text(trace, text, sizeof text);
    CHECK_STR(text, "10:B.markx 15:A.marky 20:A.state 30:A.state 40:B.state");
    tlv_time t35 = at(35);
    CHECK_STR(value_at(trace, "A", &t35), "WAIT");

    CHECK_INT(tlv_trace_update(trace), TLV_OK); /* nothing new: nothing moves */
    const char last[] = "[5]B.mark(z)";
    CHECK_INT(tlv_converter_push_bytes(conv, last, strlen(last)), TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK); /* the line without an end too */
    events_text(trace, text, sizeof text);
    CHECK_STR(text, "5:B.markz 10:B.markx 15:A.marky 20:A.state 30:A.state 40:B.state");
    tlv_trace_free(trace);
}

/* Fractional times (kept apart from the events, see trace_impl.h): sorted
 * by fraction among equal ticks, read back exactly, also when the first
 * fraction comes after whole times and when a live update merges them. */
static void test_fractions(const tlv_rules *rules)
{
    tlv_trace *trace;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter *conv = tlv_trace_converter(trace);
    const char first[] = "[10]A.state=RUN\n[10.5]B.mark(a)\n[10.25]A.mark(b)\n[11]B.mark(c)\n";
    CHECK_INT(tlv_converter_push_bytes(conv, first, strlen(first)), TLV_OK);
    CHECK_INT(tlv_trace_update(trace), TLV_OK);
    char text[512];
    events_text(trace, text, sizeof text);
    CHECK_STR(text, "10:A.state 10:A.markb 10:B.marka 11:B.markc");
    const char more[] = "[10.25]B.mark(d)\n[10.125]B.state=RUN\n[12]A.mark(e)\n";
    CHECK_INT(tlv_converter_push_bytes(conv, more, strlen(more)), TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);
    events_text(trace, text, sizeof text);
    CHECK_STR(text, "10:A.state 10:B.state 10:A.markb 10:B.markd 10:B.marka 11:B.markc 12:A.marke");
    static const uint64_t quarter = 250000000000000000ull; /* 0.25 in radix 10 (18 digits) */
    static const uint64_t want[] = {0, quarter / 2, quarter, quarter, 2 * quarter, 0, 0};
    for (size_t i = 0; i < 7; i++) {
        tlv_event e;
        tlv_trace_event(trace, i, &e);
        CHECK_INT(e.time.frac, want[i]);
    }
    CHECK_INT(tlv_trace_end(trace).ticks, 12);
    tlv_time t = {10, quarter};
    CHECK_INT(tlv_trace_seek(trace, t), 2);
    tlv_trace_free(trace);
}

int main(void)
{
    make_tmpdir("trace");
    write_file("t.resh", resh);
    write_file("t.res", res);
    char res_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/t.res", tmpdir);
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res_path, tmpdir, &rules), TLV_OK);
    for (size_t i = 0; i < tlv_diags_count(tlv_rules_diags(rules)); i++)
        fprintf(stderr, "%s\n", tlv_diags_get(tlv_rules_diags(rules), i)->message);
    test_events_and_state(rules);
    test_fractions(rules);
    test_update_while_growing(rules);
    tlv_rules_free(rules);
    remove_tree(tmpdir);
    return CHECK_DONE();
}
