/*
 * test_viz.c — the visualization engine through the public API, on small
 * rule sets written here: state timelines (initial values, the last interval
 * running to the end), enter/leave pairs matched on their arguments, When
 * instants, figure conditions with FROM_/TO_ values, macros in figure
 * arguments, rows (order, grouping, rule rows, per-CPU rows), queries by row
 * and time, the rule list and rules left out (skip_rules), and rule errors reported with rule, event and trace line.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char resh[] =
    "{\"v\":{\"Task\":{\"DisplayName\":\"Task\",\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"cpu\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":1}},"
    "\"Behaviors\":{\"enter\":{},\"leave\":{},\"mark\":{}}},"
    "\"Irq\":{\"DisplayName\":\"Interrupt\",\"Attributes\":{\"state\":{\"VariableType\":\"String\","
    "\"AllocationType\":\"Dynamic\",\"Default\":\"OFF\"}}}}}";

static const char res[] =
    "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"v\"],"
    "\"VisualizeRules\":[\"v\"],\"Resources\":{"
    "\"I\":{\"Type\":\"Irq\"},"
    "\"A\":{\"Type\":\"Task\",\"DisplayName\":\"Alpha\",\"Attributes\":{\"cpu\":1}},"
    "\"B\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":2}}}}";

static const char viz[] =
    "{\"v\":{\"Shapes\":{"
    "\"bar\":[{\"Type\":\"Rectangle\",\"Fill\":\"${ARG0}\"}],"
    "\"txt\":[{\"Type\":\"Text\",\"Text\":\"${ARG0}|${ARG1}\"}],"
    "\"tick\":[{\"Type\":\"Line\",\"Points\":[\"0,0\",\"0,100%\"]}]},"
    "\"VisualizeRules\":{"
    "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\",\"To\":\"${TARGET}.state\","
    "  \"Figures\":{\"${FROM_VAL}==RUN\":\"bar(ff00ff00)\",\"${FROM_VAL}==WAIT && ${TO_VAL}==RUN\":\"bar(ffff0000)\"}}}},"
    "\"calls\":{\"Target\":\"Task\",\"Shapes\":{\"c\":{\"From\":\"${TARGET}.enter()\","
    "  \"To\":\"${TARGET}.leave(${FROM_ARG0})\",\"Figures\":\"txt(${FROM_ARG0},${TO_ARG1})\"}}},"
    "\"marks\":{\"Target\":\"Task\",\"Shapes\":{\"m\":{\"When\":\"${TARGET}.mark()\",\"Figures\":\"tick\"}}},"
    "\"who\":{\"DisplayName\":\"Running\",\"Shapes\":{\"w\":{\"From\":\"Task(state!=RUN).state=RUN\","
    "  \"To\":\"${FROM_TARGET}.state\",\"Figures\":\"txt($RES_DISPLAYNAME{${FROM_TARGET}},$RES_COLOR{${FROM_TARGET}})\"}}}"
    "}}}";

/* Standard-form trace: the rules above read it without conversion. */
static const char trace_text[] =
    "[10]A.state=RUN\n"
    "[12]A.enter(open,x)\n"
    "[13]A.enter(read,y)\n"
    "[15]A.leave(open,ok)\n"
    "[20]A.state=WAIT\n"
    "[20]B.state=RUN\n"
    "[25]B.mark()\n"
    "[30]B.state=IDLE\n"
    "[30]A.state=RUN\n"
    "[40]B.mark()\n"
    "[50]A.state=IDLE\n"
    "[50]B.cpu=1\n"
    "[55]B.state=RUN\n"
    "[60]B.state=IDLE\n";

typedef struct collected {
    char lines[64][200];
    int n;
} collected;

static int collect(void *user, const tlv_shape_info *sh)
{
    collected *c = user;
    if (c->n < 64)
        snprintf(c->lines[c->n++], 200, "%s/%s %s %lld-%lld %s %s", sh->rule, sh->event,
                 sh->resource ? sh->resource : "-", (long long)sh->from.ticks,
                 (long long)sh->to.ticks, sh->type, sh->text ? sh->text : "");
    return 0;
}

static int has(const collected *c, const char *line)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->lines[i], line) == 0)
            return 1;
    fprintf(stderr, "missing: %s\n", line);
    return 0;
}

static tlv_shapes *build_skipping(tlv_rules **rules, tlv_trace **trace, const char *cpu_attribute,
                                  const char *const *skip, size_t nskip)
{
    char res_path[PATH_MAX + 16], log_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/v.res", tmpdir);
    snprintf(log_path, sizeof log_path, "%s/v.std", tmpdir);
    CHECK_INT(load_rules_in(res_path, tmpdir, rules), TLV_OK);
    CHECK_INT(tlv_trace_new(*rules, trace), TLV_OK);
    CHECK_INT(tlv_trace_load_file(*trace, log_path), TLV_OK);
    tlv_shapes_options so = {sizeof(tlv_shapes_options), cpu_attribute, "state", "RUN", skip, nskip, 0, 0};
    tlv_shapes *s = NULL;
    CHECK_INT(tlv_shapes_build(*trace, &so, &s), TLV_OK);
    return s;
}

static tlv_shapes *build(tlv_rules **rules, tlv_trace **trace, const char *cpu_attribute)
{
    return build_skipping(rules, trace, cpu_attribute, NULL, 0);
}

/* Shapes of rule `rule` among all the shapes. */
static size_t count_rule(const tlv_shapes *s, const char *rule)
{
    size_t n = 0;
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        n += strcmp(sh.rule, rule) == 0;
    }
    return n;
}

/* The rule list, and skip_rules: the named rules make no shapes, the others
 * the same as before, and the rows do not change. */
static void test_skip_rules(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *all = build(&rules, &trace, NULL);
    tlv_rule_info ri;
    CHECK_INT(tlv_shapes_rule_count(all), 4);
    tlv_shapes_rule(all, 0, &ri);
    CHECK_STR(ri.name, "st");
    CHECK_STR(ri.display_name, "st");
    CHECK_INT(ri.skipped, 0);
    tlv_shapes_rule(all, 3, &ri);
    CHECK_STR(ri.name, "who");
    CHECK_STR(ri.display_name, "Running");
    tlv_shapes_rule(all, 4, &ri); /* out of range: zeroed */
    CHECK(ri.name == NULL);
    size_t calls = count_rule(all, "calls"), total = tlv_shapes_count(all);
    CHECK(calls > 0);
    const char *skip[] = {"calls", NULL, "no such rule"};
    tlv_trace *trace2;
    tlv_rules *rules2;
    tlv_shapes *s = build_skipping(&rules2, &trace2, NULL, skip, 3);
    CHECK_INT(count_rule(s, "calls"), 0);
    CHECK_INT(count_rule(s, "st"), count_rule(all, "st"));
    CHECK_INT(count_rule(s, "who"), count_rule(all, "who"));
    CHECK_INT(tlv_shapes_count(s), total - calls);
    CHECK_INT(tlv_shapes_row_count(s), tlv_shapes_row_count(all));
    CHECK_INT(tlv_shapes_rule_count(s), 4);
    tlv_shapes_rule(s, 1, &ri);
    CHECK_STR(ri.name, "calls");
    CHECK_INT(ri.skipped, 1);
    tlv_shapes_rule(s, 2, &ri);
    CHECK_INT(ri.skipped, 0);
    tlv_shapes_free(s);
    tlv_trace_free(trace2);
    tlv_rules_free(rules2);
    /* per-CPU: "perCpu" is listed first and can be left out too */
    const char *skip_cpu[] = {"perCpu"};
    s = build_skipping(&rules2, &trace2, "cpu", skip_cpu, 1);
    CHECK_INT(tlv_shapes_rule_count(s), 5);
    tlv_shapes_rule(s, 0, &ri);
    CHECK_STR(ri.name, "perCpu");
    CHECK_INT(ri.skipped, 1);
    CHECK_INT(count_rule(s, "perCpu"), 0);
    CHECK_INT(count_rule(s, "st"), count_rule(all, "st"));
    CHECK_INT(tlv_shapes_row_count(s), 6);
    tlv_shapes_free(s);
    tlv_trace_free(trace2);
    tlv_rules_free(rules2);
    tlv_shapes_free(all);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

static void all_shapes(const tlv_shapes *s, collected *c)
{
    c->n = 0;
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        collect(c, &sh);
    }
}

static void test_pairing_and_figures(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, NULL);
    collected c;
    all_shapes(s, &c);
    /* state timeline: initial IDLE [10,10] draws nothing (no figure), RUN bars,
     * WAIT->RUN drawn red by the two-value condition, the last interval of B
     * (IDLE from 60) draws nothing, A's last RUN closed at 50 */
    CHECK(has(&c, "st/s A 10-20 Rectangle "));
    CHECK(has(&c, "st/s A 20-30 Rectangle "));
    CHECK(has(&c, "st/s A 30-50 Rectangle "));
    CHECK(has(&c, "st/s B 20-30 Rectangle "));
    CHECK(has(&c, "st/s B 55-60 Rectangle "));
    /* enter/leave matched on the first argument; read never returns, and
     * ends when A returns to its initial state (IDLE at 50), with no return
     * value */
    CHECK(has(&c, "calls/c A 12-15 Text open|ok"));
    CHECK(has(&c, "calls/c A 13-50 Text read|"));
    /* When: to the next occurrence, the last to the end */
    CHECK(has(&c, "marks/m B 25-40 Line "));
    CHECK(has(&c, "marks/m B 40-60 Line "));
    /* rule without Target, resource condition just before the event, macros */
    CHECK(has(&c, "who/w - 10-20 Text Alpha|ff7f0e"));
    CHECK(has(&c, "who/w - 20-30 Text B|2ca02c"));
    CHECK(has(&c, "who/w - 30-50 Text Alpha|ff7f0e"));
    CHECK(has(&c, "who/w - 55-60 Text B|2ca02c"));
    CHECK_INT(c.n, 13);
    /* the red WAIT->RUN bar is A's [20,30] */
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        if (strcmp(sh.rule, "st") == 0 && sh.from.ticks == 20 && strcmp(sh.resource, "A") == 0)
            CHECK_INT(sh.fill, 0xffff0000);
        /* only the When event's shapes say their [from, to] is not a duration */
        CHECK_INT(sh.is_when, strcmp(sh.rule, "marks") == 0);
        /* the From event's value: the value an attribute change set (A waits
         * at 20), a behavior's arguments joined, nothing for mark() */
        int a_waits = sh.from.ticks == 20 && sh.resource && strcmp(sh.resource, "A") == 0;
        if (strcmp(sh.rule, "st") == 0 || strcmp(sh.rule, "who") == 0)
            CHECK_STR(sh.value, a_waits ? "WAIT" : "RUN");
        else if (strcmp(sh.rule, "calls") == 0)
            CHECK_STR(sh.value, sh.from.ticks == 12 ? "open,x" : "read,y");
        else
            CHECK(sh.value == NULL);
    }
    /* rows: resources of targeted types in file order (I is not drawn), then the rule row */
    CHECK_INT(tlv_shapes_row_count(s), 3);
    tlv_row_info row;
    tlv_shapes_row(s, 0, &row);
    CHECK_STR(row.label, "Alpha");
    CHECK_STR(row.resource, "A");
    CHECK_STR(row.group, "Task");
    tlv_shapes_row(s, 2, &row);
    CHECK_STR(row.label, "Running");
    CHECK(row.resource == NULL);
    /* query by row and time */
    collected q = {0};
    tlv_time t0 = {14, 0}, t1 = {16, 0};
    tlv_shapes_query(s, 0, t0, t1, collect, &q);
    CHECK_INT(q.n, 3);
    CHECK(has(&q, "calls/c A 12-15 Text open|ok"));
    CHECK(has(&q, "calls/c A 13-50 Text read|"));
    CHECK(has(&q, "st/s A 10-20 Rectangle "));
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

/* Per-CPU rows follow migration: B starts on CPU 2 and moves to CPU 1 at
 * 50, so it has a row under each, each with its part of B's timeline. */
static void test_per_cpu_rows(void)
{
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, "cpu");
    tlv_row_info row;
    CHECK_INT(tlv_shapes_row_count(s), 6); /* CPU 1, A, B, CPU 2, B, Running */
    static const char *const want[][3] = {{"CPU 1", NULL, "CPU 1"}, {"Alpha", "A", "CPU 1"},
                                          {"B", "B", "CPU 1"},      {"CPU 2", NULL, "CPU 2"},
                                          {"B", "B", "CPU 2"},      {"Running", NULL, "Running"}};
    for (size_t i = 0; i < 6; i++) {
        tlv_shapes_row(s, i, &row);
        CHECK_STR(row.label, want[i][0]);
        CHECK_STR(row.resource ? row.resource : "(none)", want[i][1] ? want[i][1] : "(none)");
        CHECK_STR(row.group, want[i][2]);
    }
    /* B ran on CPU 2 at 20 and, after migrating, on CPU 1 at 55 */
    collected c = {0};
    tlv_time t0 = {0, 0}, t1 = {100, 0};
    tlv_shapes_query(s, 0, t0, t1, collect, &c);
    CHECK(has(&c, "perCpu/running A 10-20 Rectangle "));
    CHECK(has(&c, "perCpu/running A 30-50 Rectangle "));
    CHECK(has(&c, "perCpu/running B 55-60 Text B"));
    c.n = 0;
    tlv_shapes_query(s, 3, t0, t1, collect, &c);
    CHECK(has(&c, "perCpu/running B 20-30 Rectangle "));
    CHECK_INT(c.n, 2);
    /* B's own rows: its run at 20-30 under CPU 2, at 55-60 under CPU 1,
     * its marks where they happened (25 and 40: CPU 2), the mark at 40
     * (to the next, none: the end) whole where it happened */
    c.n = 0;
    tlv_shapes_query(s, 4, t0, t1, collect, &c);
    CHECK(has(&c, "st/s B 20-30 Rectangle "));
    CHECK(has(&c, "marks/m B 25-40 Line "));
    CHECK(has(&c, "marks/m B 40-60 Line "));
    CHECK_INT(c.n, 3);
    c.n = 0;
    tlv_shapes_query(s, 2, t0, t1, collect, &c);
    CHECK(has(&c, "st/s B 55-60 Rectangle "));
    CHECK_INT(c.n, 1);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

/* An interval of a task that migrates inside it is split at the migration:
 * A's call 12-40 is on CPU 1 until 20, on CPU 2 until 30, on CPU 1 again;
 * the running bars and the state follow too. Rewrites v.std. */
static void test_per_cpu_split_at_migration(void)
{
    write_file("v.std", "[10]A.state=RUN\n[12]A.enter(work,x)\n[20]A.cpu=2\n"
                        "[30]A.cpu=1\n[40]A.leave(work,ok)\n[45]A.state=IDLE\n");
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, "cpu");
    tlv_row_info row;
    CHECK_INT(tlv_shapes_row_count(s), 6); /* CPU 1, Alpha, CPU 2, Alpha, B, Running */
    tlv_shapes_row(s, 3, &row);
    CHECK_STR(row.resource, "A");
    CHECK_STR(row.group, "CPU 2");
    collected c = {0};
    tlv_time t0 = {0, 0}, t1 = {100, 0};
    tlv_shapes_query(s, 1, t0, t1, collect, &c);
    CHECK(has(&c, "calls/c A 12-20 Text work|ok"));
    CHECK(has(&c, "calls/c A 30-40 Text work|ok"));
    CHECK(has(&c, "st/s A 10-20 Rectangle "));
    CHECK(has(&c, "st/s A 30-45 Rectangle "));
    CHECK_INT(c.n, 4);
    c.n = 0;
    tlv_shapes_query(s, 3, t0, t1, collect, &c);
    CHECK(has(&c, "calls/c A 20-30 Text work|ok"));
    CHECK(has(&c, "st/s A 20-30 Rectangle "));
    CHECK_INT(c.n, 2);
    c.n = 0;
    tlv_shapes_query(s, 2, t0, t1, collect, &c); /* CPU 2: A ran there 20-30 */
    CHECK(has(&c, "perCpu/running A 20-30 Rectangle "));
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    write_file("v.std", trace_text);
}

/* A call that never returns: still open at the end of the trace, it runs
 * there and its return value reads "(open)" (A sleeps to the end); but it
 * never outlives its resource: B's exit call ends when B is back in its
 * initial state (IDLE), even though B runs again later. Rewrites v.std. */
static void test_open_calls(void)
{
    write_file("v.std", "[10]A.state=RUN\n[12]A.enter(sleep,x)\n[14]A.state=WAIT\n"
                        "[20]B.state=RUN\n[21]B.enter(exit,y)\n[22]B.state=IDLE\n"
                        "[30]B.state=RUN\n[40]B.state=WAIT\n");
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, NULL);
    collected c;
    all_shapes(s, &c);
    CHECK(has(&c, "calls/c A 12-40 Text sleep|(open)"));
    CHECK(has(&c, "calls/c B 21-22 Text exit|"));
    int calls = 0;
    for (int i = 0; i < c.n; i++)
        calls += strncmp(c.lines[i], "calls/", 6) == 0;
    CHECK_INT(calls, 2);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    write_file("v.std", trace_text);
}

/* A call never outlives its resource even when a To follows: C is the
 * per-processor copy of A (FMP's migration rules), GONE the state D spends
 * the whole trace in and nobody acts in. A's "move" ends at 12, where A is
 * GONE; the leave at 22 returns from C's move (back to A), not from A's. A
 * task waiting or IDLE (its initial value; B stays IDLE but acts in it)
 * inside a call that returns is still in it. Rewrites v.res and v.std. */
static void test_calls_end_where_resource_leaves(void)
{
    write_file("v.res", "{\"TimeScale\":\"us\",\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"v\"],"
                        "\"VisualizeRules\":[\"v\"],\"Resources\":{"
                        "\"A\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":1}},"
                        "\"B\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":1}},"
                        "\"C\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":2,\"state\":\"GONE\"}},"
                        "\"D\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":2,\"state\":\"GONE\"}}}}");
    write_file("v.std", "[5]B.mark()\n[10]A.state=RUN\n[11]A.enter(move,2)\n"
                        "[12]A.state=GONE\n[12]C.state=RUN\n[13]C.leave(move,ok)\n"
                        "[20]C.enter(move,1)\n[21]C.state=GONE\n[21]A.state=RUN\n"
                        "[22]A.leave(move,ok)\n"
                        "[30]A.enter(sleep,x)\n[31]A.state=WAIT\n[35]A.state=RUN\n"
                        "[36]A.leave(sleep,ok)\n"
                        "[40]A.enter(wait,z)\n[41]A.state=IDLE\n[45]A.state=RUN\n"
                        "[46]A.leave(wait,done)\n[50]A.state=IDLE\n");
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, NULL);
    collected c;
    all_shapes(s, &c);
    CHECK(has(&c, "calls/c A 11-12 Text move|")); /* was 11-22 "move|ok" */
    CHECK(has(&c, "calls/c C 20-21 Text move|"));
    CHECK(has(&c, "calls/c A 30-36 Text sleep|ok"));
    CHECK(has(&c, "calls/c A 40-46 Text wait|done"));
    int calls = 0;
    for (int i = 0; i < c.n; i++)
        calls += strncmp(c.lines[i], "calls/", 6) == 0;
    CHECK_INT(calls, 4);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    write_file("v.res", res);
    write_file("v.std", trace_text);
}

/* Processor ids that are numbers compare as numbers: a log that writes
 * "001" names the resource file's processor 1 (one "CPU 001" row, in the
 * log's spelling, not a second, empty "CPU 1"). Rewrites v.std. */
static void test_numeric_cpu_ids(void)
{
    write_file("v.std", "[10]A.state=RUN\n[11]A.cpu=001\n[20]A.state=IDLE\n"
                        "[20]B.cpu=02\n[21]B.state=RUN\n[30]B.state=IDLE\n");
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *s = build(&rules, &trace, "cpu");
    tlv_row_info row;
    CHECK_INT(tlv_shapes_row_count(s), 5); /* CPU 001, A, CPU 02, B, Running */
    tlv_shapes_row(s, 0, &row);
    CHECK_STR(row.label, "CPU 001");
    tlv_shapes_row(s, 1, &row);
    CHECK_STR(row.resource, "A");
    CHECK_STR(row.group, "CPU 001");
    tlv_shapes_row(s, 2, &row);
    CHECK_STR(row.label, "CPU 02");
    tlv_shapes_row(s, 3, &row);
    CHECK_STR(row.resource, "B");
    CHECK_STR(row.group, "CPU 02");
    collected c = {0};
    tlv_time t0 = {0, 0}, t1 = {100, 0};
    tlv_shapes_query(s, 0, t0, t1, collect, &c);
    CHECK(has(&c, "perCpu/running A 10-20 Rectangle "));
    c.n = 0;
    tlv_shapes_query(s, 2, t0, t1, collect, &c);
    CHECK(has(&c, "perCpu/running B 21-30 Rectangle "));
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    write_file("v.std", trace_text);
}

static void test_rule_errors(void)
{
    write_file("v.viz",
               "{\"v\":{\"Shapes\":{\"bar\":[{\"Type\":\"Rectangle\"}]},\"VisualizeRules\":{"
               "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\","
               "\"To\":\"${TARGET}.state\",\"Figures\":{\"${FROM_VAL}==RUN\":\"nobar\","
               "\"${FROM_VAL}==RUN &&\":\"bar\"}}}}}}}");
    char res_path[PATH_MAX + 16], log_path[PATH_MAX + 16];
    snprintf(res_path, sizeof res_path, "%s/v.res", tmpdir);
    snprintf(log_path, sizeof log_path, "%s/v.std", tmpdir);
    tlv_rules *rules;
    tlv_trace *trace;
    CHECK_INT(load_rules_in(res_path, tmpdir, &rules), TLV_OK); /* unknown shape: a warning */
    tlv_trace_new(rules, &trace);
    tlv_trace_load_file(trace, log_path);
    tlv_shapes *s;
    CHECK_INT(tlv_shapes_build(trace, NULL, &s), TLV_ERR_RULE);
    char line[512];
    tlv_diag_format(tlv_diags_get(tlv_shapes_diags(s), 0), line, sizeof line);
    CHECK(strstr(line, "error: rule 'st', event 's' (initial values): condition \"IDLE==RUN &&\": expected an operand after") != NULL);
    int found = 0;
    for (size_t i = 0; i < tlv_diags_count(tlv_shapes_diags(s)); i++) {
        tlv_diag_format(tlv_diags_get(tlv_shapes_diags(s), i), line, sizeof line);
        found |= strstr(line, "error: rule 'st', event 's' (trace line 1): figure 'nobar' names no shape") != NULL;
    }
    CHECK(found);
    tlv_shapes_free(s);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
}

int main(void)
{
    make_tmpdir("viz");
    write_file("v.resh", resh);
    write_file("v.res", res);
    write_file("v.viz", viz);
    write_file("v.std", trace_text);
    test_pairing_and_figures();
    test_per_cpu_rows();
    test_per_cpu_split_at_migration();
    test_skip_rules();
    test_numeric_cpu_ids();
    test_open_calls();
    test_calls_end_where_resource_leaves();
    test_rule_errors();
    remove_tree(tmpdir);
    return CHECK_DONE();
}
