/*
 * test_flows.c — flows of visualization rules through the public API: the
 * "Flows" member (When, From, To, FromProcessor, ToProcessor, Condition),
 * flows in time order with their rows (a resource's, or its processor's in
 * per-CPU mode), queries by time range, flows-only rules drawing no row,
 * skipped rules making no flows, the errors (a missing To, an end naming no
 * resource) with rule, flow and trace line; and the opening and closing
 * events of shapes.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <string.h>

static const char resh[] =
    "{\"f\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"cpu\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":1}},"
    "\"Behaviors\":{\"wake\":{},\"move\":{},\"oops\":{}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"f\"],"
    "\"VisualizeRules\":[\"f\"],\"Resources\":{"
    "\"A\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":1}},"
    "\"B\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":2}}}}";

static const char viz[] =
    "{\"f\":{\"Shapes\":{\"bar\":[{\"Type\":\"Rectangle\"}]},"
    "\"VisualizeRules\":{"
    "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\","
    "  \"To\":\"${TARGET}.state\",\"Figures\":\"bar\"}}},"
    "\"fl\":{\"Target\":\"Task\",\"Flows\":{"
    "  \"wake\":{\"DisplayName\":\"woken by\",\"When\":\"${TARGET}.wake()\","
    "    \"Condition\":\"$EXIST{${ARG0}}\",\"From\":\"${ARG0}\",\"To\":\"${TARGET}\"},"
    "  \"move\":{\"When\":\"${TARGET}.move()\",\"FromProcessor\":\"${ARG0}\",\"To\":\"${TARGET}\","
    "    \"ToProcessor\":\"${ARG1}\"},"
    "  \"bad\":{\"When\":\"${TARGET}.oops()\",\"To\":\"${ARG0}\"},"
    "  \"noto\":{\"When\":\"${TARGET}.oops()\"}}},"
    "\"global\":{\"Flows\":{\"g\":{\"When\":\"B.wake()\",\"From\":\"B\",\"To\":\"A\"}}}"
    "}}}";

static const char trace_text[] =
    "[10]A.state=RUN\n"  /* line 1 */
    "[15]B.wake(A)\n"    /* 2: a flow A -> B */
    "[16]B.wake(nobody)\n" /* 3: the condition does not hold */
    "[17]A.oops(Z)\n"    /* 4: To names no resource */
    "[20]A.state=IDLE\n" /* 5 */
    "[30]A.move(1,2)\n"  /* 6: CPU 1 -> CPU 2 */
    "[30]A.cpu=2\n"      /* 7 */
    "[40]A.oops()\n";    /* 8: a blank To makes no flow */
/* and "g" (no condition) draws B -> A for both B.wake() */

static tlv_shapes *build(tlv_rules **rules, tlv_trace **trace, const char *cpu_attribute,
                         const char *skip, tlv_status expect)
{
    char res_path[PATH_MAX + 16], log_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/f.res", tmpdir);
    snprintf(log_path, sizeof log_path, "%s/f.std", tmpdir);
    CHECK_INT(load_rules_in(res_path, tmpdir, rules), TLV_OK);
    CHECK_INT(tlv_trace_new(*rules, trace), TLV_OK);
    CHECK_INT(tlv_trace_load_file(*trace, log_path), TLV_OK);
    const char *skips[] = {skip};
    tlv_shapes_options so = {sizeof(tlv_shapes_options), cpu_attribute, "state", "RUN", skips, skip ? 1 : 0, 0, 0};
    tlv_shapes *s = NULL;
    CHECK_INT(tlv_shapes_build(*trace, &so, &s), expect);
    return s;
}

static int has_diag(const tlv_shapes *s, const char *text)
{
    char line[512];
    for (size_t i = 0; i < tlv_diags_count(tlv_shapes_diags(s)); i++) {
        tlv_diag_format(tlv_diags_get(tlv_shapes_diags(s), i), line, sizeof line);
        if (strstr(line, text))
            return 1;
    }
    fprintf(stderr, "no diagnostic: %s\n", text);
    return 0;
}

static int count_flows(void *user, const tlv_flow_info *f)
{
    (void)f;
    ++*(int *)user;
    return 0;
}

static void test_flows(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, NULL, NULL, TLV_ERR_RULE);
    CHECK(has_diag(s, "error: rule 'fl', flow 'noto': needs \"When\" (an event pattern) and "
                      "\"To\" (the resource it points to)"));
    CHECK(has_diag(s, "error: rule 'fl', event 'bad' (trace line 4): To 'Z' is not a resource"));
    CHECK_INT(tlv_shapes_row_count(s), 2); /* A, B: the flows-only rules draw no row */
    CHECK_INT(tlv_shapes_flow_count(s), 4);
    tlv_flow_info f;
    tlv_shapes_flow(s, 0, &f);
    CHECK_STR(f.rule, "fl");
    CHECK_STR(f.name, "wake");
    CHECK_STR(f.display_name, "woken by");
    CHECK_STR(f.from_resource, "A");
    CHECK_STR(f.to_resource, "B");
    CHECK(f.from_processor == NULL && f.to_processor == NULL);
    CHECK_INT(f.from_row, 0);
    CHECK_INT(f.to_row, 1);
    CHECK_INT(f.time.ticks, 15);
    tlv_event e;
    tlv_trace_event(trace, f.event, &e);
    CHECK_INT(e.input_line, 2);
    tlv_shapes_flow(s, 1, &f); /* the rule without Target, same event */
    CHECK_STR(f.rule, "global");
    CHECK_STR(f.display_name, "g");
    CHECK_STR(f.from_resource, "B");
    CHECK_STR(f.to_resource, "A");
    tlv_shapes_flow(s, 2, &f); /* no Condition: every B.wake() */
    CHECK_INT(f.time.ticks, 16);
    tlv_shapes_flow(s, 3, &f);
    CHECK_STR(f.name, "move");
    CHECK_STR(f.from_resource, "A");
    CHECK_STR(f.to_resource, "A");
    CHECK_STR(f.from_processor, "1");
    CHECK_STR(f.to_processor, "2");
    CHECK_INT(f.from_row, 0); /* not per-CPU: both ends on A's row */
    CHECK_INT(f.to_row, 0);

    tlv_time t15 = {15, 0}, t16 = {16, 0}, t29 = {29, 0}, t99 = {99, 0};
    CHECK_INT(tlv_shapes_flow_seek(s, t16), 2);
    CHECK_INT(tlv_shapes_flow_seek(s, t99), 4);
    int n = 0;
    tlv_shapes_flows_query(s, t15, t29, count_flows, &n);
    CHECK_INT(n, 3);
    n = 0;
    tlv_shapes_flows_query(s, t29, t99, count_flows, &n);
    CHECK_INT(n, 1);

    /* A's RUN bar was opened by line 1 and closed by line 5; its initial
     * IDLE has no opening event; its last IDLE runs to the end. */
    int checked = 0;
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        if (strcmp(sh.resource, "A") != 0)
            continue;
        if (sh.from.ticks == 10 && sh.to.ticks == 20) {
            tlv_trace_event(trace, sh.from_event, &e);
            CHECK_INT(e.input_line, 1);
            tlv_trace_event(trace, sh.to_event, &e);
            CHECK_INT(e.input_line, 5);
            checked++;
        } else if (sh.from.ticks == 20) {
            CHECK(sh.to_event == TLV_NO_EVENT);
            checked++;
        }
    }
    CHECK_INT(checked, 2);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

static void test_per_cpu_and_skipped(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, "cpu", NULL, TLV_ERR_RULE);
    tlv_flow_info f;
    tlv_shapes_flow(s, 3, &f);
    tlv_row_info from, to;
    tlv_shapes_row(s, f.from_row, &from);
    tlv_shapes_row(s, f.to_row, &to);
    CHECK_STR(from.label, "CPU 1"); /* the migration runs between processor rows */
    CHECK_STR(to.label, "CPU 2");
    tlv_shapes_flow(s, 0, &f);
    tlv_shapes_row(s, f.to_row, &to);
    CHECK_STR(to.resource, "B"); /* no processor named: the resource's row */
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);

    s = build(&rules, &trace, NULL, "fl", TLV_ERR_RULE);
    CHECK_INT(tlv_shapes_flow_count(s), 2); /* only the global ones */
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

int main(void)
{
    make_tmpdir("flows");
    write_file("f.resh", resh);
    write_file("f.res", res);
    write_file("f.viz", viz);
    write_file("f.std", trace_text);
    test_flows();
    test_per_cpu_and_skipped();
    remove_tree(tmpdir);
    return CHECK_DONE();
}
