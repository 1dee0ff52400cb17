/*
 * test_last_error.c — every failing call on a handle leaves a message on it
 * (tlv_*_last_error), through the public API as an embedder calls it: an
 * unknown resource or attribute asked of a converter or a trace, a log that
 * cannot be opened, a conversion error, input after the event function
 * stopped, statistics of an unfinished trace, a breakdown of a row that does
 * not exist, and a view the renderer cannot draw. A later successful call
 * leaves the message alone; a fresh handle has "". Uses tests/e2e/mini.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/render.h>
#include <tlv/tlv.h>

#include <stdint.h>
#include <string.h>

static char mini[1024]; /* tests/e2e/mini of the source tree */

/* mini/NAME */
static const char *mini_file(const char *name)
{
    static char path[1100];
    snprintf(path, sizeof path, "%s/%s", mini, name);
    return path;
}

static int stop_at_second(void *user, const tlv_event *e)
{
    (void)e;
    return ++*(int *)user >= 2;
}

static void push(tlv_converter *c, const char *line, tlv_status expect)
{
    CHECK_INT(tlv_converter_push_line(c, line, strlen(line)), expect);
}

static void test_converter(const tlv_rules *rules)
{
    tlv_converter *c = NULL;
    CHECK_INT(tlv_converter_new(rules, &c), TLV_OK);
    CHECK_STR(tlv_converter_last_error(c), "");
    tlv_converter_set_source_name(c, "live.log");
    const char *v = NULL;
    CHECK_INT(tlv_converter_attr_at(c, "ghost", "state", NULL, &v), TLV_ERR_USAGE);
    CHECK_STR(tlv_converter_last_error(c), "tlv_converter_attr_at: no resource 'ghost' in the trace");
    CHECK_INT(tlv_converter_attr_at(c, "ctrl", "stat", NULL, &v), TLV_ERR_USAGE);
    CHECK_STR(tlv_converter_last_error(c),
              "tlv_converter_attr_at: resource 'ctrl' (type Task) has no attribute 'stat' "
              "(it has: state, cpu)");
    CHECK(v == NULL);
    /* Success leaves the message; a conversion error replaces it. */
    push(c, "[100] cpu 1 runs ctrl", TLV_OK);
    CHECK_INT(tlv_converter_attr_at(c, "ctrl", "state", NULL, &v), TLV_OK);
    CHECK_STR(v, "RUNNING");
    CHECK(strstr(tlv_converter_last_error(c), "has no attribute 'stat'") != NULL);
    push(c, "[200] ghost sleeps", TLV_ERR_CONVERT);
    const tlv_diag *d = tlv_diags_get(tlv_converter_diags(c), tlv_diags_count(tlv_converter_diags(c)) - 1);
    char want[600];
    snprintf(want, sizeof want, "live.log:2: %s", d ? d->message : "?");
    CHECK_STR(tlv_converter_last_error(c), want);
    CHECK(strncmp(tlv_converter_last_error(c), "live.log:2: rule \"^\\[(?<t>\\d+)\\] (?<task>\\w+) sleeps$\": ", 55) == 0);
    CHECK_INT(tlv_converter_finish(c), TLV_ERR_CONVERT);
    CHECK_STR(tlv_converter_last_error(c), "the conversion had 1 error (tlv_converter_diags lists them)");
    tlv_converter_free(c);

    /* The event function stops the conversion. */
    int seen = 0;
    CHECK_INT(tlv_converter_new(rules, &c), TLV_OK);
    tlv_converter_set_event_fn(c, stop_at_second, &seen);
    push(c, "[100] cpu 1 runs ctrl", TLV_ERR_USAGE);
    CHECK_STR(tlv_converter_last_error(c), "the event function stopped the conversion at input line 1");
    push(c, "[150] ctrl returns", TLV_ERR_USAGE);
    CHECK_STR(tlv_converter_last_error(c),
              "the event function stopped the conversion; no more input is taken");
    tlv_converter_free(c);
    CHECK_STR(tlv_converter_last_error(NULL), "");
}

static tlv_trace *test_trace(const tlv_rules *rules)
{
    tlv_trace *t = NULL;
    CHECK_INT(tlv_trace_new(rules, &t), TLV_OK);
    CHECK_STR(tlv_trace_last_error(t), "");
    CHECK_INT(tlv_trace_load_file(t, mini_file("no-such.log")), TLV_ERR_IO);
    char want[1200];
    snprintf(want, sizeof want, "cannot open '%s': No such file or directory", mini_file("no-such.log"));
    CHECK_STR(tlv_trace_last_error(t), want);
    tlv_stats *st = NULL;
    static const char line[] = "[100] cpu 1 runs ctrl"; /* pushed, not yet ordered */
    CHECK_INT(tlv_converter_push_line(tlv_trace_converter(t), line, sizeof line - 1), TLV_OK);
    CHECK_INT(tlv_stats_compute(t, NULL, &st), TLV_ERR_USAGE);
    CHECK_STR(tlv_trace_last_error(t),
              "tlv_stats_compute: the trace's latest events are not ordered yet (call "
              "tlv_trace_update or tlv_trace_finish)");
    CHECK(st == NULL);
    tlv_trace_free(t);

    CHECK_INT(tlv_trace_new(rules, &t), TLV_OK);
    CHECK_INT(tlv_trace_load_file(t, mini_file("mini.log")), TLV_OK);
    CHECK_STR(tlv_trace_last_error(t), "");
    const char *v = "untouched";
    CHECK_INT(tlv_trace_attr_at(t, "TIMER", "prio", NULL, &v), TLV_ERR_USAGE);
    CHECK_STR(tlv_trace_last_error(t),
              "tlv_trace_attr_at: resource 'TIMER' (type Irq) has no attribute 'prio' (it has: state, cpu)");
    CHECK_STR(v, "untouched");
    CHECK_INT(tlv_trace_attr_at(t, "", "state", NULL, &v), TLV_ERR_USAGE);
    CHECK_STR(tlv_trace_last_error(t), "tlv_trace_attr_at: no resource '' in the trace");
    return t;
}

static void test_shapes_and_render(const tlv_trace *t)
{
    tlv_shapes *s = NULL;
    CHECK_INT(tlv_shapes_build(t, NULL, &s), TLV_OK);
    CHECK_STR(tlv_shapes_last_error(s), "");
    tlv_breakdown_entry *e = NULL;
    size_t n = 99;
    tlv_time t0 = {0, 0}, t1 = {1000, 0};
    size_t rows = tlv_shapes_row_count(s);
    char want[200];
    CHECK_INT(tlv_shapes_breakdown(s, rows, t0, t1, &e, &n), TLV_ERR_USAGE);
    snprintf(want, sizeof want, "tlv_shapes_breakdown: row %zu is not a row (there are %zu)", rows, rows);
    CHECK_STR(tlv_shapes_last_error(s), want);
    CHECK_INT(tlv_shapes_breakdown(s, 0, t1, t0, &e, &n), TLV_ERR_USAGE);
    CHECK_STR(tlv_shapes_last_error(s), "tlv_shapes_breakdown: the range is empty (t0 >= t1)");

    tlv_renderer *r = NULL;
    CHECK_INT(tlv_renderer_new(&r), TLV_OK);
    CHECK_STR(tlv_renderer_last_error(r), "");
    static uint8_t px[64 * 32 * 4];
    tlv_view view;
    tlv_view_fit(&view, s, 64, 32);
    CHECK_INT(tlv_render_rgba(r, s, &view, px, 64 * 4), TLV_OK);
    size_t bad_rows[] = {0, TLV_VIEW_ROW_BLANK, 9};
    view.rows = bad_rows;
    view.row_count = 3;
    CHECK_INT(tlv_render_rgba(r, s, &view, px, 64 * 4), TLV_ERR_USAGE);
    snprintf(want, sizeof want,
             "tlv_render_rgba: view rows[2] is 9, not a row (there are %zu) nor TLV_VIEW_ROW_BLANK", rows);
    CHECK_STR(tlv_renderer_last_error(r), want);
    view.rows = NULL;
    CHECK_INT(tlv_render_rgba(r, s, &view, px, 63 * 4), TLV_ERR_USAGE);
    CHECK_STR(tlv_renderer_last_error(r),
              "tlv_render_rgba: the stride must be at least width * 4 bytes (view 64x32, t0 100, "
              "t1 700, stride 252, scale 1)");
    CHECK_INT(tlv_render_rgba(r, s, NULL, px, 64 * 4), TLV_ERR_USAGE);
    CHECK_STR(tlv_renderer_last_error(r), "tlv_render_rgba: view is NULL");
    tlv_renderer_free(r);
    tlv_shapes_free(s);
}

int main(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        SKIP("TLV_SOURCE_DIR is not set");
    snprintf(mini, sizeof mini, "%s/tests/e2e/mini", src);
    tlv_rules *rules = NULL;
    if (load_rules_in(mini_file("mini.res"), mini, &rules) != TLV_OK) {
        fprintf(stderr, "cannot load the mini rules\n");
        return 1;
    }
    test_converter(rules);
    tlv_trace *t = test_trace(rules);
    test_shapes_and_render(t);
    tlv_trace_free(t);
    tlv_rules_free(rules);
    return check_failures ? 1 : 0;
}
