/*
 * test_consistency.c — the converter's consistency report: what a resource
 * header declares impossible ("Impossible": When / If / Says) is reported
 * for each event that does it, with its log line and a message made from
 * the state just before the event; attribute changes (any, or to a value)
 * and behaviors are watched; ${VAL}, ${ARGn}, ${TARGET}, ${TIME} and the
 * type's attributes are substituted; "InTimeOrder" reports a line whose
 * time goes back (not for a standard-form trace); counts per check are
 * exact beyond the listed 1000; bad declarations are errors at their place.
 */
#include "check.h"
#include "scratch.h"

#include "tlv/tlv.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char resh[] =
    "{\"k\":{\"Task\":{\"Attributes\":{"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"\"},"
    "\"cpu\":{\"VariableType\":\"Number\",\"AllocationType\":\"Dynamic\",\"Default\":\"\"}},"
    "\"Behaviors\":{\"exit\":{\"Arguments\":{\"status\":\"Number\"}}},\n"
    "\"Impossible\":{\n"
    "\"twice\":{\"DisplayName\":\"run twice\",\"When\":\"state=RUNNING\",\"If\":\"state==RUNNING\","
    "\"Says\":\"runs on ${VAL} while running on CPU ${cpu} (${TARGET} at ${TIME})\"},\n"
    "\"out\":{\"When\":\"state\",\"If\":\"${VAL}==SLEEPING&&state!=RUNNING&&state!=\"},\n"
    "\"dead\":{\"When\":\"exit()\",\"If\":\"state==EXITED||${ARG0}<0\","
    "\"Says\":\"exit(${ARG0}) while ${state}\"}}}}}\n";

static const char cnv[] =
    "{\"k\":{"
    "\"^(?<t>\\\\d+) (?<n>\\\\w+) runs on (?<c>\\\\d+)$\": [\"[${t}]${n}.state=RUNNING\",\"[${t}]${n}.cpu=${c}\"],"
    "\"^(?<t>\\\\d+) (?<n>\\\\w+) sleeps$\": \"[${t}]${n}.state=SLEEPING\","
    "\"^(?<t>\\\\d+) (?<n>\\\\w+) ends$\": \"[${t}]${n}.state=EXITED\","
    "\"^(?<t>\\\\d+) (?<n>\\\\w+) exit (?<s>-?\\\\d+)$\": \"[${t}]${n}.exit(${s})\"}}\n";

static void write_res(int in_order)
{
    char text[512];
    snprintf(text, sizeof text,
             "{\"ConvertRules\":[\"k\"],\"ResourceHeaders\":[\"k\"],%s\n"
             "\"Resources\":{\"A\":{\"Type\":\"Task\"},\"B\":{\"Type\":\"Task\"}}}\n",
             in_order ? "\"InTimeOrder\": true," : "");
    write_file("k.res", text);
}

static tlv_converter *convert(const char *log, int std, tlv_rules **rules)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/k.res", tmpdir);
    CHECK_INT(load_rules_in(path, tmpdir, rules), TLV_OK);
    tlv_converter *c = NULL;
    CHECK_INT(tlv_converter_new(*rules, &c), TLV_OK);
    tlv_converter_set_standard_form(c, std);
    tlv_converter_push_bytes(c, log, strlen(log));
    tlv_converter_finish(c);
    return c;
}

/* Listed contradiction i as "LINE: message [check]". */
static const char *listed(const tlv_converter *c, size_t i)
{
    static char text[1024];
    tlv_inconsistency x;
    tlv_converter_inconsistency(c, i, &x);
    snprintf(text, sizeof text, "%llu: %s [%s]", (unsigned long long)x.line,
             x.message ? x.message : "(null)", x.check ? x.check : "(null)");
    return text;
}

static void test_reports(void)
{
    write_res(0);
    tlv_rules *rules;
    tlv_converter *c = convert("10 A runs on 0\n"
                               "20 B sleeps\n"          /* first seen: nothing before */
                               "30 A runs on 1\n"       /* running twice */
                               "40 A sleeps\n"
                               "50 A sleeps\n"          /* out while not running */
                               "60 A ends\n"
                               "70 A exit 0\n"          /* exit after the end */
                               "80 B exit -1\n",        /* ${ARG0}<0 */
                               0, &rules);
    CHECK_INT(tlv_converter_inconsistency_count(c), 4);
    CHECK_INT(tlv_converter_inconsistency_listed(c), 4);
    CHECK_STR(listed(c, 0), "3: A state=RUNNING: runs on RUNNING while running on CPU 0 (A at 30) [Task.twice]");
    CHECK_STR(listed(c, 1), "5: A state=SLEEPING: impossible (out) [Task.out]");
    CHECK_STR(listed(c, 2), "7: A exit(0): exit(0) while EXITED [Task.dead]");
    CHECK_STR(listed(c, 3), "8: B exit(-1): exit(-1) while SLEEPING [Task.dead]");
    tlv_inconsistency x;
    tlv_converter_inconsistency(c, 0, &x);
    CHECK_STR(x.resource, "A");
    CHECK_INT(x.time.ticks, 30);
    CHECK_INT(tlv_converter_consistency_check_count(c), 3);
    tlv_consistency_check k;
    tlv_converter_consistency_check(c, 0, &k);
    CHECK_STR(k.check, "Task.twice");
    CHECK_STR(k.display_name, "run twice");
    CHECK_INT(k.count, 1);
    CHECK_INT(k.first_line, 3);
    tlv_converter_consistency_check(c, 2, &k);
    CHECK_STR(k.display_name, "dead");
    CHECK_INT(k.count, 2);
    CHECK_INT(k.first_line, 7);
    tlv_converter_free(c);
    tlv_rules_free(rules);
}

static void test_time_order(void)
{
    write_res(1);
    tlv_rules *rules;
    const char *log = "10 A runs on 0\n20 A sleeps\n15 B sleeps\n16 B runs on 1\n30 A runs on 0\n";
    tlv_converter *c = convert(log, 0, &rules);
    CHECK_INT(tlv_converter_inconsistency_count(c), 1);
    CHECK_STR(listed(c, 0), "3: time goes back to 15 from 20 (line 2) [InTimeOrder]");
    tlv_inconsistency x;
    tlv_converter_inconsistency(c, 0, &x);
    CHECK(x.resource == NULL);
    CHECK_INT(tlv_converter_consistency_check_count(c), 4); /* the three, then InTimeOrder */
    tlv_consistency_check k;
    tlv_converter_consistency_check(c, 3, &k);
    CHECK_STR(k.check, "InTimeOrder");
    CHECK_INT(k.count, 1);
    tlv_converter_free(c);
    tlv_rules_free(rules);
    /* A standard-form trace lists events in conversion order: no time check. */
    c = convert("[20]A.state=SLEEPING\n[10]B.state=SLEEPING\n", 1, &rules);
    CHECK_INT(tlv_converter_inconsistency_count(c), 0);
    tlv_converter_free(c);
    tlv_rules_free(rules);
}

static void test_counts_beyond_the_list(void)
{
    write_res(0);
    size_t n = 1500, len = 0;
    char *log = malloc(n * 40 + 64);
    len += (size_t)sprintf(log + len, "1 A runs on 0\n");
    for (size_t i = 0; i < n; i++)
        len += (size_t)sprintf(log + len, "%zu A runs on 0\n", i + 2);
    tlv_rules *rules;
    tlv_converter *c = convert(log, 0, &rules);
    CHECK_INT(tlv_converter_inconsistency_count(c), 1500);
    CHECK_INT(tlv_converter_inconsistency_listed(c), 1000);
    CHECK_STR(listed(c, 999), "1001: A state=RUNNING: runs on RUNNING while running on CPU 0 (A at 1001) [Task.twice]");
    tlv_consistency_check k;
    tlv_converter_consistency_check(c, 0, &k);
    CHECK_INT(k.count, 1500);
    tlv_converter_free(c);
    tlv_rules_free(rules);
    free(log);
}

/* Loads a header with one bad "Impossible" entry: the one error's text. */
static const char *bad(const char *entry)
{
    static char text[1024];
    char h[2048];
    snprintf(h, sizeof h,
             "{\"k\":{\"Task\":{\"Attributes\":{\"state\":{\"VariableType\":\"String\","
             "\"AllocationType\":\"Dynamic\"}},\"Behaviors\":{\"exit\":{}},\n\"Impossible\":{%s}}}}\n",
             entry);
    write_file("k.resh", h);
    write_res(0);
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/k.res", tmpdir);
    tlv_rules *rules = NULL;
    tlv_status st = load_rules_in(path, tmpdir, &rules);
    const tlv_diags *d = tlv_rules_diags(rules);
    text[0] = '\0';
    for (size_t i = 0; i < tlv_diags_count(d); i++)
        if (tlv_diags_get(d, i)->severity == TLV_SEV_ERROR) {
            tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
            break;
        }
    CHECK(st != TLV_OK);
    tlv_rules_free(rules);
    size_t n = strlen(tmpdir);
    if (strncmp(text, tmpdir, n) == 0)
        memmove(text, text + n + 1, strlen(text + n + 1) + 1);
    return text;
}

static void test_bad_declarations(void)
{
    CHECK_STR(bad("\"x\":{\"When\":\"stat=RUNNING\"}"),
              "k.resh:2:27: error: type 'Task': Impossible 'x': When: type 'Task' has no attribute "
              "'stat' (it has: state)");
    CHECK_STR(bad("\"x\":{\"When\":\"quit()\"}"),
              "k.resh:2:27: error: type 'Task': Impossible 'x': When: type 'Task' has no behavior "
              "'quit' (it has: exit())");
    CHECK_STR(bad("\"x\":{\"When\":\"state\",\"If\":\"state==A&&\"}"),
              "k.resh:2:40: error: type 'Task': Impossible 'x': If: expected an operand after '&&'");
    CHECK_STR(bad("\"x\":{\"When\":\"state\",\"Says\":\"${bogus}\"}"),
              "k.resh:2:15: error: type 'Task': Impossible 'x': Says: '${bogus}' names nothing it "
              "can use (${VAL}, ${ARGn}, ${TARGET}, ${TIME} or an attribute of the type)");
    CHECK_STR(bad("\"x\":{\"If\":\"state==A\"}"),
              "k.resh:2:19: error: type 'Task': Impossible 'x' has no \"When\" (the event that must "
              "not happen: \"attr\", \"attr=VALUE\" or \"behavior()\")");
    CHECK_STR(bad("\"x\":\"state\""),
              "k.resh:2:19: error: type 'Task': Impossible 'x' must be an object with \"When\" (and "
              "\"If\", \"Says\", \"DisplayName\"), found a string");
    write_file("k.resh", resh);
}

int main(void)
{
    make_tmpdir("consistency");
    write_file("k.resh", resh);
    write_file("k.cnv", cnv);
    test_reports();
    test_time_order();
    test_counts_beyond_the_list();
    test_bad_declarations();
    remove_tree(tmpdir);
    CHECK_DONE();
}
