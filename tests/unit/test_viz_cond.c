/*
 * test_viz_cond.c — the condition keys of Figures objects, asked again and
 * again with the same and with other values (viz_cond.c remembers the
 * answers of keys that read only interned values): every key is answered
 * for its own interval, whatever was asked before — a key reading
 * ${FROM_VAL}, ${TO_VAL}, ${TARGET}, a When event's ${ARG0}, ${FROM_TIME}
 * (never remembered), a macro ($RES_DISPLAYNAME{}), and a key that does not
 * compile (reported for every instant, with its line) — on one thread
 * and on two, with the exact shapes listed.
 */
#include "check.h"
#include "scratch.h"
#include "text.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char resh[] =
    "{\"c\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"}},"
    "\"Behaviors\":{\"mark\":{}}}}}";

static const char viz[] =
    "{\"c\":{\"Shapes\":{"
    "\"t\":[{\"Type\":\"Text\",\"Text\":\"${ARG0}\"}]},"
    "\"VisualizeRules\":{"
    "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\","
    "  \"To\":\"${TARGET}.state\",\"Figures\":{"
    "    \"${FROM_VAL}==RUN\":\"t(run)\","
    "    \"${TO_VAL}==RUN\":\"t(before-run)\","
    "    \"${TARGET}==A\":\"t(a)\","
    "    \"${FROM_TIME}>=30\":\"t(late)\","
    "    \"$RES_DISPLAYNAME{${TARGET}}==Bee\":\"t(bee)\","
    "    \"${FROM_VAL}==RUN && ${TO_VAL}==IDLE\":\"t(run-idle)\"}}}},"
    "\"marks\":{\"Target\":\"Task\",\"Shapes\":{\"m\":{\"When\":\"${TARGET}.mark()\","
    "  \"Figures\":{\"${ARG0}==x\":\"t(x)\",\"(${ARG0}==x\":\"t(bad)\"}}}}"
    "}}}";

static const char std_log[] =
    "[10]A.state=RUN\n"
    "[10]B.state=RUN\n"
    "[20]A.state=IDLE\n"
    "[20]B.state=WAIT\n"
    "[25]A.mark(x)\n"
    "[26]B.mark(y)\n"
    "[30]A.state=RUN\n"
    "[30]B.state=RUN\n"
    "[40]A.state=IDLE\n"
    "[40]B.state=IDLE\n"
    "[45]A.mark(x)\n"
    "[46]B.mark(x)\n"
    "[50]A.state=RUN\n";

/* The shapes (rule/event resource from-to text), then the errors. */
static const char expected[] =
    "marks/m A 25-45 x\n"
    "marks/m A 45-50 x\n"
    "marks/m B 46-50 x\n"
    "st/s A 10-10 before-run\n"
    "st/s A 10-10 a\n"
    "st/s A 10-20 run\n"
    "st/s A 10-20 a\n"
    "st/s A 10-20 run-idle\n"
    "st/s A 20-30 before-run\n"
    "st/s A 20-30 a\n"
    "st/s A 30-40 run\n"
    "st/s A 30-40 a\n"
    "st/s A 30-40 late\n"
    "st/s A 30-40 run-idle\n"
    "st/s A 40-50 before-run\n"
    "st/s A 40-50 a\n"
    "st/s A 40-50 late\n"
    "st/s A 50-50 run\n"
    "st/s A 50-50 a\n"
    "st/s A 50-50 late\n"
    "st/s B 10-10 before-run\n"
    "st/s B 10-10 bee\n"
    "st/s B 10-20 run\n"
    "st/s B 10-20 bee\n"
    "st/s B 20-30 before-run\n"
    "st/s B 20-30 bee\n"
    "st/s B 30-40 run\n"
    "st/s B 30-40 late\n"
    "st/s B 30-40 bee\n"
    "st/s B 30-40 run-idle\n"
    "st/s B 40-50 late\n"
    "st/s B 40-50 bee\n"
    "error rule 'marks', event 'm' (trace line 5): condition \"(x==x\": missing ')'\n"
    "error rule 'marks', event 'm' (trace line 11): condition \"(x==x\": missing ')'\n"
    "error rule 'marks', event 'm' (trace line 6): condition \"(y==x\": missing ')'\n"
    "error rule 'marks', event 'm' (trace line 12): condition \"(x==x\": missing ')'\n";

static void check_build(const tlv_trace *trace, int threads)
{
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.threads = threads;
    tlv_shapes *s = NULL;
    tlv_status st = tlv_shapes_build(trace, &o, &s);
    CHECK(s != NULL);
    if (!s)
        return;
    text t = {0};
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        text_add(&t, "%s/%s %s %lld-%lld %s\n", sh.rule, sh.event, sh.resource ? sh.resource : "-",
                 (long long)sh.from.ticks, (long long)sh.to.ticks, sh.text ? sh.text : "");
    }
    const tlv_diags *d = tlv_shapes_diags(s);
    for (size_t i = 0; i < tlv_diags_count(d); i++)
        text_add(&t, "error %s\n", tlv_diags_get(d, i)->message);
    if (strcmp(t.s, expected) != 0) {
        fprintf(stderr, "%d thread(s): got\n%s\nexpected\n%s\n", threads, t.s, expected);
        check_failures++;
    }
    CHECK_INT(st, TLV_ERR_RULE);
    free(t.s);
    tlv_shapes_free(s);
}

int main(void)
{
    make_tmpdir("viz_cond");
    write_file("c.resh", resh);
    write_file("c.viz", viz);
    write_file("c.std", std_log);
    write_file("c.res", "{\"TimeScale\":\"us\",\"ConvertRules\":[],\"ResourceHeaders\":[\"c\"],"
                        "\"VisualizeRules\":[\"c\"],\"Resources\":{"
                        "\"A\":{\"Type\":\"Task\"},\"B\":{\"Type\":\"Task\",\"DisplayName\":\"Bee\"}}}");
    char res[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(res, sizeof res, "%s/c.res", tmpdir);
    snprintf(log, sizeof log, "%s/c.std", tmpdir);
    tlv_rules *rules = NULL;
    tlv_trace *trace = NULL;
    CHECK_INT(load_rules_in(res, tmpdir, &rules), TLV_OK);
    CHECK_INT(tlv_trace_new(rules, &trace), TLV_OK);
    tlv_converter_set_standard_form(tlv_trace_converter(trace), 1);
    CHECK_INT(tlv_trace_load_file(trace, log), TLV_OK);
    check_build(trace, 1);
    check_build(trace, 2);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    if (!getenv("KEEP"))
        remove_tree(tmpdir);
    return check_failures ? 1 : 0;
}
