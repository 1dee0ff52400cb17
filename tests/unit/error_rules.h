/*
 * error_rules.h — a rule set whose rules fail in several ways (a figure
 * naming no shape, a bad primitive, a macro failing for some events, a
 * flow to no resource) over ten targets, and a log for it: write_log()
 * writes p.res, p.resh, p.viz and p.std into the test's tmpdir. Shared by
 * the tests that compare two ways of building the same shapes
 * (test_viz_parallel.c, test_listing.c). Include after check.h, scratch.h
 * and text.h.
 */
#ifndef TLV_TEST_ERROR_RULES_H
#define TLV_TEST_ERROR_RULES_H

static const char resh[] =
    "{\"p\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"IDLE\"},"
    "\"cpu\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":1},"
    "\"id\":{\"VariableType\":\"Number\",\"AllocationType\":\"Static\",\"Default\":0}},"
    "\"Behaviors\":{\"enter\":{},\"leave\":{},\"send\":{}}}}}";

static const char viz[] =
    "{\"p\":{\"Shapes\":{"
    "\"bar\":[{\"Type\":\"Rectangle\",\"Fill\":\"${ARG0}\"}],"
    "\"len\":[{\"Type\":\"Rectangle\",\"Size\":\"v(VALUE)\",\"Fill\":\"ff0000ff\"}],"
    "\"bogus\":[{\"Type\":\"Blob\"}],"
    "\"txt\":[{\"Type\":\"Text\",\"Text\":\"${ARG0}\"}]},"
    "\"VisualizeRules\":{"
    "\"st\":{\"Target\":\"Task\",\"Shapes\":{\"s\":{\"From\":\"${TARGET}.state\","
    "  \"To\":\"${TARGET}.state\",\"Figures\":{\"${FROM_VAL}==RUN\":\"bar(ff00ff00)\","
    "  \"${FROM_VAL}==WAIT\":[\"bogus\",\"nothere(1)\",\"txt(${FROM_VAL})\"]}}}},"
    "\"calls\":{\"Target\":\"Task\",\"Shapes\":{\"c\":{\"From\":\"${TARGET}.enter()\","
    "  \"To\":\"${TARGET}.leave(${FROM_ARG0})\","
    "  \"Figures\":[\"txt(${FROM_ARG0}-${FROM_ARG1})\",\"len($RES_NAME{Task(id==${FROM_ARG1})})\"]}}},"
    "\"lens\":{\"Target\":\"Task\",\"Shapes\":{\"l\":{\"When\":\"${TARGET}.send()\","
    "  \"Figures\":\"len(${ARG0})\"}}},"
    "\"who\":{\"Shapes\":{\"w\":{\"From\":\"Task.state=RUN\",\"To\":\"${FROM_TARGET}.state\","
    "  \"Figures\":\"txt(${FROM_TARGET})\"}},"
    "  \"Flows\":{\"f\":{\"When\":\"Task.send()\",\"To\":\"${ARG1}\"}}}"
    "}}}";

/* Tasks T0..T9 in turns, with calls whose second argument names no task
 * now and then (the $RES_NAME{} of "calls" fails there), and sends. */
static void write_log(void)
{
    text t = {0};
    long time = 0;
    for (int round = 0; round < 60; round++)
        for (int k = 0; k < 10; k++) {
            text_add(&t, "[%ld]T%d.state=RUN\n", time += 3, k);
            text_add(&t, "[%ld]T%d.enter(op%d,%d)\n", time += 2, k, round % 4, (round + k) % 13);
            text_add(&t, "[%ld]T%d.send(%d,T%d)\n", time += 1, k, round % 7, (k + round) % 12);
            text_add(&t, "[%ld]T%d.leave(op%d,ok)\n", time += 2, k, round % 4);
            text_add(&t, "[%ld]T%d.state=%s\n", time += 1, k, round % 3 ? "WAIT" : "IDLE");
        }
    write_file("p.std", t.s);
    free(t.s);
    write_file("p.resh", resh);
    write_file("p.viz", viz);
    text r = {0};
    text_add(&r, "{\"TimeScale\":\"us\",\"ConvertRules\":[],\"ResourceHeaders\":[\"p\"],"
            "\"VisualizeRules\":[\"p\"],\"Resources\":{");
    for (int k = 0; k < 10; k++)
        text_add(&r, "%s\"T%d\":{\"Type\":\"Task\",\"Attributes\":{\"cpu\":%d,\"id\":%d}}",
                 k ? "," : "", k, 1 + k % 2, k);
    text_add(&r, "}}");
    write_file("p.res", r.s);
    free(r.s);
}

/* load_trace_in, a failure counted as a failed check and said. */
static tlv_status load_trace_checked(const char *res, const char *rules_dir, const char *log,
                                     tlv_rules **rules, tlv_trace **trace)
{
    tlv_status st = load_trace_in(res, rules_dir, log, rules, trace);
    if (st != TLV_OK) {
        fprintf(stderr, "%s: cannot load (%s)\n", log, tlv_status_string(st));
        check_failures++;
    }
    return st;
}

/* Writes the rule set and its log, and checks that check(res, rules_dir,
 * log, cpu) returns TLV_ERR_RULE for them plain and per CPU ("cpu"). */
static void check_error_rules(tlv_status (*check)(const char *res, const char *rules_dir,
                                                  const char *log, const char *cpu))
{
    write_log();
    char res[PATH_MAX + 16], log[PATH_MAX + 16];
    snprintf(res, sizeof res, "%s/p.res", tmpdir);
    snprintf(log, sizeof log, "%s/p.std", tmpdir);
    CHECK_INT(check(res, tmpdir, log, NULL), TLV_ERR_RULE);
    CHECK_INT(check(res, tmpdir, log, "cpu"), TLV_ERR_RULE);
}

#endif
