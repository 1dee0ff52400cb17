/*
 * test_time_mode.c — times as people read them (tlv.h): the exact span text
 * in SI units, dates of wall-clock times, the resource file's "TimeMode"
 * (every value, and the errors of bad ones), and the mode and origin a
 * trace and its shapes get from it and from their times (a strace -ttt
 * epoch is wall-clock, a TOPPERS-like count plain, an uptime declared
 * "clock" a clock).
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <string.h>

static tlv_time mk(int64_t ticks, uint64_t frac)
{
    tlv_time t = {ticks, frac};
    return t;
}

static const char *span(tlv_time t, const char *scale)
{
    static char buf[160];
    tlv_time_format_span(t, 10, scale, buf, sizeof buf);
    return buf;
}

static const char *date(tlv_time t, const char *scale)
{
    static char buf[80];
    strcpy(buf, "(unset)");
    tlv_time_format_date(t, 10, scale, buf, sizeof buf);
    return buf;
}

#define CHECK_TIME(t, ticks_, frac_)                                           \
    do {                                                                       \
        tlv_time tt_ = (t);                                                    \
        CHECK_INT(tt_.ticks, (ticks_));                                        \
        CHECK(tt_.frac == (uint64_t)(frac_));                                  \
    } while (0)

#define TENTH (100000000000000000ull) /* 0.1 in the radix-10 fraction scale */

static void test_span(void)
{
    CHECK_STR(span(mk(1234567, 0), "us"), "1.234567 s");
    CHECK_STR(span(mk(302, 0), "us"), "302 us");
    CHECK_STR(span(mk(302000, 0), "us"), "302 ms");
    CHECK_STR(span(mk(0, 0), "us"), "0 s");
    CHECK_STR(span(mk(-5500, 0), "us"), "-5.5 ms");
    CHECK_STR(span(mk(0, 5 * TENTH), "us"), "500 ns");
    CHECK_STR(span(mk(1795614987897048, 0), "us"), "1795614987.897048 s");
    CHECK_STR(span(mk(1000, 0), "ns"), "1 us");
    CHECK_STR(span(mk(0, TENTH / 100), "ns"), "1 ps");   /* 0.001 ns */
    CHECK_STR(span(mk(0, TENTH / 1000), "ns"), "0.1 ps"); /* below ps stays in ps */
    CHECK_STR(span(mk(90, 0), "s"), "90 s");
    CHECK_STR(span(mk(12, 0), "ms"), "12 ms");
    CHECK_STR(span(mk(1234, 0), "cycles"), "1234 cycles");
    char buf[160];
    tlv_time_format_span(mk(255, 0), 16, "us", buf, sizeof buf); /* other radixes: as written */
    CHECK_STR(buf, "ff us");
    CHECK_INT(tlv_time_format_span(mk(1234567, 0), 10, "us", buf, 4), strlen("1.234567 s"));
    CHECK_STR(buf, "1.2");
}

static void test_date(void)
{
    CHECK_STR(date(mk(1795614987897048, 0), "us"), "2026-11-25 13:56:27.897048 UTC");
    CHECK_STR(date(mk(1795614987, 0), "s"), "2026-11-25 13:56:27 UTC");
    CHECK_STR(date(mk(1795614987000, 0), "ms"), "2026-11-25 13:56:27 UTC");
    CHECK_STR(date(mk(951782400000000000, 0), "ns"), "2000-02-29 00:00:00 UTC");
    CHECK_STR(date(mk(0, 5 * TENTH), "s"), "1970-01-01 00:00:00.5 UTC");
    CHECK_STR(date(mk(-1, 5 * TENTH), "s"), "1969-12-31 23:59:59.5 UTC");
    CHECK_STR(date(mk(1709296496789012, 0), "us"), "2024-03-01 12:34:56.789012 UTC");
    char buf[80] = "x";
    CHECK_INT(tlv_time_format_date(mk(5, 0), 10, "cycles", buf, sizeof buf), 0);
    CHECK_STR(buf, "");
    CHECK_INT(tlv_time_format_date(mk(5, 0), 16, "us", buf, sizeof buf), 0);
    CHECK_INT(tlv_time_format_date(mk(INT64_MAX, 0), 10, "s", buf, sizeof buf), 0); /* past 9999 */
}

static void test_names(void)
{
    CHECK_STR(tlv_time_mode_name(TLV_TIME_AUTO), "auto");
    CHECK_STR(tlv_time_mode_name(TLV_TIME_PLAIN), "plain");
    CHECK_STR(tlv_time_mode_name(TLV_TIME_CLOCK), "clock");
    CHECK_STR(tlv_time_mode_name(TLV_TIME_WALL), "wall-clock");
    CHECK_STR(tlv_time_mode_name((tlv_time_mode)9), "");
}

static const char resh[] =
    "{\"t\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"}}}}}";

/* Loads a standard-form rule set with `extra` members in its .res. */
static tlv_rules *rules_with(const char *extra, tlv_status want)
{
    char res[512];
    snprintf(res, sizeof res,
             "{%s\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"t\"],"
             "\"Resources\":{\"A\":{\"Type\":\"Task\"}}}", extra);
    write_file("t.resh", resh);
    write_file("t.res", res);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/t.res", tmpdir);
    tlv_rules *rules = NULL;
    CHECK_INT(load_rules_in(path, tmpdir, &rules), want);
    return rules;
}

/* The first diagnostic of loading `extra`, as "line:col: message". */
static const char *load_error(const char *extra)
{
    static char text[400];
    tlv_rules *rules = rules_with(extra, TLV_ERR_RULE);
    const tlv_diag *d = tlv_diags_get(tlv_rules_diags(rules), 0);
    snprintf(text, sizeof text, "%ld:%ld: %s", d ? d->line : 0, d ? d->col : 0,
             d ? d->message : "(none)");
    tlv_rules_free(rules);
    return text;
}

/* The mode of a trace of `lines` with the rule set's `extra` members, and
 * its shapes'; *origin gets the trace's. */
static tlv_time_mode mode_of(const char *extra, const char *const *lines, size_t n,
                             tlv_time *origin)
{
    tlv_rules *rules = rules_with(extra, TLV_OK);
    tlv_trace *trace = NULL;
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    for (size_t i = 0; i < n; i++)
        CHECK_INT(tlv_converter_push_line(tlv_trace_converter(trace), lines[i], strlen(lines[i])),
                  TLV_OK);
    CHECK_INT(tlv_trace_finish(trace), TLV_OK);
    tlv_time_mode mode = tlv_trace_time_mode(trace);
    *origin = tlv_trace_time_origin(trace);
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    tlv_shapes *shapes = NULL;
    tlv_shapes_build(trace, &o, &shapes); /* no visualization rules: an error, still shapes */
    CHECK_INT(tlv_shapes_time_mode(shapes), mode);
    CHECK_TIME(tlv_shapes_time_origin(shapes), origin->ticks, origin->frac);
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return mode;
}

static void test_rules_and_traces(void)
{
    static const char *const epoch[] = {"[1795614987897361]A.state=RUN",
                                        "[1795614987897048]A.state=IDLE"};
    static const char *const count[] = {"[1926099]A.state=RUN", "[1946926]A.state=IDLE"};
    static const char *const uptime[] = {"[1770951259]A.state=RUN", "[1770951263]A.state=IDLE"};
    tlv_time origin;
    CHECK_INT(mode_of("\"TimeScale\":\"us\",", epoch, 2, &origin), TLV_TIME_WALL);
    CHECK_TIME(origin, 1795614987897048, 0); /* the earliest time, not the first line's */
    CHECK_INT(mode_of("\"TimeScale\":\"us\",", count, 2, &origin), TLV_TIME_PLAIN);
    CHECK_TIME(origin, 1926099, 0);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",", uptime, 2, &origin), TLV_TIME_PLAIN);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",\"TimeMode\":\"clock\",", uptime, 2, &origin),
              TLV_TIME_CLOCK);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",\"TimeMode\":\"clock\",", epoch, 2, &origin),
              TLV_TIME_WALL);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",\"TimeMode\":\"plain\",", epoch, 2, &origin),
              TLV_TIME_PLAIN);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",\"TimeMode\":\"wall-clock\",", count, 2, &origin),
              TLV_TIME_WALL);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",\"TimeMode\":\"auto\",", epoch, 2, &origin),
              TLV_TIME_WALL);
    CHECK_INT(mode_of("\"TimeScale\":\"ns\",", epoch, 2, &origin), TLV_TIME_PLAIN); /* 1.8e6 s */
    CHECK_INT(mode_of("\"TimeScale\":\"cycles\",", epoch, 2, &origin), TLV_TIME_PLAIN);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",\"TimeMode\":\"clock\",", NULL, 0, &origin),
              TLV_TIME_CLOCK);
    CHECK_TIME(origin, 0, 0);
    CHECK_INT(mode_of("\"TimeScale\":\"us\",", NULL, 0, &origin), TLV_TIME_PLAIN);

    tlv_rules *rules = rules_with("\"TimeMode\":\"clock\",", TLV_OK);
    CHECK_INT(tlv_rules_time_mode(rules), TLV_TIME_CLOCK);
    tlv_rules_free(rules);
    rules = rules_with("", TLV_OK);
    CHECK_INT(tlv_rules_time_mode(rules), TLV_TIME_AUTO);
    tlv_rules_free(rules);
    CHECK_STR(load_error("\"TimeMode\":\"wallclock\","),
              "1:13: \"TimeMode\" must be \"auto\", \"plain\", \"clock\" or \"wall-clock\", "
              "found 'wallclock'");
    CHECK_STR(load_error("\"TimeMode\":3,"),
              "1:13: \"TimeMode\" must be \"auto\", \"plain\", \"clock\" or \"wall-clock\", "
              "found a number");
    CHECK_STR(load_error("\"TimeScale\":\"cycles\",\"TimeMode\":\"wall-clock\","),
              "1:34: \"TimeMode\": \"wall-clock\" needs times in s, ms, us or ns and radix 10 "
              "(seconds since 1970), but the TimeScale is 'cycles' and the TimeRadix 10");
    CHECK_STR(load_error("\"TimeRadix\":16,\"TimeMode\":\"wall-clock\","),
              "1:28: \"TimeMode\": \"wall-clock\" needs times in s, ms, us or ns and radix 10 "
              "(seconds since 1970), but the TimeScale is 'us' and the TimeRadix 16");
}

int main(void)
{
    make_tmpdir("time-mode");
    test_span();
    test_date();
    test_names();
    test_rules_and_traces();
    remove_tree(tmpdir);
    return CHECK_DONE();
}
