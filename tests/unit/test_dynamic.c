/*
 * test_dynamic.c — resources created on first use (the resource file's
 * "DynamicResources"): a name matching a type's pattern creates a resource
 * with the declaration's display name and attribute values; names matching
 * no pattern stay errors; the first matching declaration wins; macros see
 * the new resources at once; drawing gives them rows and starts their
 * initial values where they first appear; files without the member behave
 * as before; every malformed declaration is reported with its exact text.
 * Also the $SUM{} macro that the strace rules use to find when a call ended.
 */
#include "check.h"
#include "scratch.h"

#include "tlv/tlv.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static const char resh[] =
    "{\"dyn\":{\"Thread\":{\"DisplayName\":\"Thread\",\"Attributes\":{"
    "\"tid\":{\"VariableType\":\"Number\",\"AllocationType\":\"Static\"},"
    "\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\",\"Default\":\"new\"}},"
    "\"Behaviors\":{\"poke\":{}}},"
    "\"Process\":{\"Attributes\":{\"state\":{\"VariableType\":\"String\",\"AllocationType\":\"Dynamic\"}}}}}\n";

static const char cnv[] =
    "{\"dyn\":{"
    "\"^(?<t>\\\\d+) (?<n>\\\\S+) is (?<s>\\\\w+)$\": \"[${t}]${n}.state=${s}\","
    "\"^(?<t>\\\\d+) count$\": \"[${t}]MAIN.state=$COUNT{Thread}\","
    "\"^(?<t>\\\\d+) exists (?<n>\\\\S+)$\": \"[${t}]MAIN.state=$EXIST{${n}}\","
    "\"^(?<t>\\\\d+) sum (?<a>\\\\S*) (?<b>\\\\S*)$\": \"[${t}]MAIN.state=$SUM{${a},${b}}\"}}\n";

static const char viz[] =
    "{\"dyn\":{\"Shapes\":{\"bar\":[{\"Type\":\"Rectangle\"}]},"
    "\"VisualizeRules\":{\"st\":{\"Target\":\"Thread\",\"Shapes\":{\"s\":{"
    "\"When\":\"${TARGET}.state\",\"Figures\":\"bar\"}}}}}}\n";

/* A resource file with the given "DynamicResources" member text (or none). */
static void write_res(const char *dyn)
{
    char text[4096];
    snprintf(text, sizeof text,
             "{\"ConvertRules\":[\"dyn\"],\"ResourceHeaders\":[\"dyn\"],\"VisualizeRules\":[\"dyn\"],\n"
             "\"Resources\":{\"MAIN\":{\"Type\":\"Thread\"}}%s%s}\n",
             dyn ? ",\n\"DynamicResources\":" : "", dyn ? dyn : "");
    write_file("d.res", text);
}

static tlv_status load(tlv_rules **out)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/d.res", tmpdir);
    return load_rules_in(path, tmpdir, out);
}

/* The i-th diagnostic as text, with the temporary directory cut off. */
static const char *diag_text(const tlv_diags *d, size_t i)
{
    static char text[2048];
    const tlv_diag *g = tlv_diags_get(d, i);
    if (!g)
        return "(none)";
    tlv_diag_format(g, text, sizeof text);
    size_t n = strlen(tmpdir);
    if (strncmp(text, tmpdir, n) == 0 && text[n] == '/')
        memmove(text, text + n + 1, strlen(text + n + 1) + 1);
    return text;
}

typedef struct lines {
    char text[8192];
    size_t len;
} lines;

static int collect(void *user, const tlv_event *ev)
{
    lines *l = user;
    char line[512];
    tlv_event_format(ev, 10, line, sizeof line);
    l->len += (size_t)snprintf(l->text + l->len, sizeof l->text - l->len, "%s\n", line);
    return 0;
}

/* Converts `input` (lines separated by \n) into *out; returns the error count. */
static size_t convert(const tlv_rules *r, const char *input, lines *out, tlv_converter **keep)
{
    tlv_converter *c = NULL;
    CHECK_INT(tlv_converter_new(r, &c), TLV_OK);
    memset(out, 0, sizeof *out);
    tlv_converter_set_event_fn(c, collect, out);
    tlv_converter_push_bytes(c, input, strlen(input));
    tlv_converter_finish(c);
    size_t n = tlv_diags_count(tlv_converter_diags(c));
    *keep = c;
    return n;
}

static void test_created_on_first_use(void)
{
    write_res("{\"Thread\":{\"Match\":\"T(?<id>\\\\d+)\",\"DisplayName\":\"thread ${id}\","
              "\"Attributes\":{\"tid\":\"${id}\"}},\"Process\":\"P\\\\d+|T9\\\\d*\"}");
    tlv_rules *r = NULL;
    CHECK_INT(load(&r), TLV_OK);
    CHECK_INT(tlv_diags_count(tlv_rules_diags(r)), 0);
    CHECK_INT(tlv_rules_resource_count(r), 1); /* declared ones only */
    lines out;
    tlv_converter *c;
    size_t errors = convert(r,
                            "1 count\n2 T10 is run\n3 count\n4 exists T11\n5 T11 is run\n"
                            "6 exists T11\n7 count\n8 P7 is up\n9 T10x is run\n10 T10 is done\n",
                            &out, &c);
    CHECK_STR(out.text, "[1]MAIN.state=1\n[2]T10.state=run\n[3]MAIN.state=2\n"
                        "[4]MAIN.state=False\n[5]T11.state=run\n[6]MAIN.state=True\n"
                        "[7]MAIN.state=3\n[8]P7.state=up\n[10]T10.state=done\n");
    /* The whole name must match: T10x is not a thread. */
    CHECK_INT(errors, 1);
    CHECK_STR(diag_text(tlv_converter_diags(c), 0),
              "line 9: error: rule \"^(?<t>\\d+) (?<n>\\S+) is (?<s>\\w+)$\": unknown resource "
              "'T10x' in '[9]T10x.state=run' (it matches no pattern of \"DynamicResources\")");
    /* The declaration's attribute template, the type's Default otherwise. */
    const char *v = NULL;
    CHECK_INT(tlv_converter_attr_at(c, "T11", "tid", NULL, &v), TLV_OK);
    CHECK_STR(v, "11");
    tlv_time t4 = {4, 0};
    CHECK_INT(tlv_converter_attr_at(c, "T11", "state", &t4, &v), TLV_OK);
    CHECK_STR(v, "new");
    tlv_converter_free(c);
    tlv_rules_free(r);
}

static void test_first_declaration_wins_and_rows(void)
{
    /* T9 matches both patterns: Thread is declared first. */
    write_res("{\"Thread\":{\"Match\":\"T(?<id>\\\\d+)\",\"DisplayName\":\"thread ${id}\"},"
              "\"Process\":\"T9\"}");
    char log[PATH_MAX + 16];
    snprintf(log, sizeof log, "%s/d.log", tmpdir);
    write_file("d.log", "5 MAIN is go\n10 T9 is run\n20 T3 is run\n30 T9 is done\n");
    tlv_rules *r = NULL;
    CHECK_INT(load(&r), TLV_OK);
    tlv_trace *t = NULL;
    CHECK_INT(tlv_trace_new(r, &t), TLV_OK);
    CHECK_INT(tlv_trace_load_file(t, log), TLV_OK);
    CHECK_INT(tlv_trace_resource_count(t), 3);
    CHECK_STR(tlv_trace_resource_name(t, 1), "T9");
    CHECK_STR(tlv_trace_resource_type(t, 1), "Thread");
    CHECK_STR(tlv_trace_resource_name(t, 2), "T3");
    tlv_shapes *s = NULL;
    CHECK_INT(tlv_shapes_build(t, NULL, &s), TLV_OK);
    /* A row per thread in order of appearance, labelled with the display name. */
    CHECK_INT(tlv_shapes_row_count(s), 3);
    tlv_row_info row;
    tlv_shapes_row(s, 1, &row);
    CHECK_STR(row.label, "thread 9");
    CHECK_STR(row.resource, "T9");
    /* T3's initial value is drawn from where T3 first appears (20), not
     * from the start of the trace (5). */
    int found = 0;
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info si;
        tlv_shapes_get(s, i, &si);
        if (si.resource && strcmp(si.resource, "T3") == 0 && si.value &&
            strcmp(si.value, "new") == 0) {
            CHECK_INT(si.from.ticks, 20);
            found = 1;
        }
    }
    CHECK(found);
    tlv_shapes_free(s);
    tlv_trace_free(t);
    tlv_rules_free(r);
}

static void test_without_declarations(void)
{
    write_res(NULL);
    tlv_rules *r = NULL;
    CHECK_INT(load(&r), TLV_OK);
    lines out;
    tlv_converter *c;
    CHECK_INT(convert(r, "2 T10 is run\n", &out, &c), 1); /* input line 1 */
    CHECK_STR(diag_text(tlv_converter_diags(c), 0),
              "line 1: error: rule \"^(?<t>\\d+) (?<n>\\S+) is (?<s>\\w+)$\": unknown resource "
              "'T10' in '[2]T10.state=run'");
    tlv_converter_free(c);
    tlv_rules_free(r);
}

/* Loads a resource file with `dyn` and checks its one diagnostic. */
static void expect_error(const char *dyn, const char *expected)
{
    write_res(dyn);
    tlv_rules *r = NULL;
    CHECK_INT(load(&r), TLV_ERR_RULE);
    CHECK_INT(tlv_diags_count(tlv_rules_diags(r)), 1);
    CHECK_STR(diag_text(tlv_rules_diags(r), 0), expected);
    tlv_rules_free(r);
}

static void test_sum(void)
{
    write_res(NULL);
    tlv_rules *r = NULL;
    CHECK_INT(load(&r), TLV_OK);
    lines out;
    tlv_converter *c;
    size_t errors = convert(r,
                            "1 sum 1795281966643709 0000837\n2 sum 1.5 -2.25\n3 sum -0.001 0.0005\n"
                            "4 sum 7 \n5 sum x 1\n6 sum 999999999999999999 0.1\n",
                            &out, &c);
    CHECK_STR(out.text, "[1]MAIN.state=1795281966644546\n[2]MAIN.state=-0.75\n"
                        "[3]MAIN.state=-0.0005\n");
    CHECK_INT(errors, 3);
    CHECK_STR(diag_text(tlv_converter_diags(c), 0),
              "line 4: error: rule \"^(?<t>\\d+) sum (?<a>\\S*) (?<b>\\S*)$\": $SUM{7,}: '' is not "
              "a decimal number");
    CHECK_STR(diag_text(tlv_converter_diags(c), 1),
              "line 5: error: rule \"^(?<t>\\d+) sum (?<a>\\S*) (?<b>\\S*)$\": $SUM{x,1}: 'x' is "
              "not a decimal number");
    CHECK_STR(diag_text(tlv_converter_diags(c), 2),
              "line 6: error: rule \"^(?<t>\\d+) sum (?<a>\\S*) (?<b>\\S*)$\": "
              "$SUM{999999999999999999,0.1}: the sum is too large");
    tlv_converter_free(c);
    tlv_rules_free(r);
}

static void test_bad_declarations(void)
{
    expect_error("{\"Thread\":\"T(\\\\d+\"}",
                 "d.res:3:30: error: DynamicResources 'Thread': pattern \"T(\\d+\" does not "
                 "compile: missing closing parenthesis at character 6");
    expect_error("{\"Thred\":\"T\\\\d+\"}",
                 "d.res:3:21: error: DynamicResources: type 'Thred' is not declared in the "
                 "resource headers");
    expect_error("{\"Thread\":{\"DisplayName\":\"x\"}}",
                 "d.res:3:30: error: DynamicResources 'Thread': expected a pattern string, or "
                 "an object with a \"Match\" pattern string");
    expect_error("{\"Thread\":{\"Match\":\"T\\\\d+\",\"Attributes\":{\"prio\":\"1\"}}}",
                 "d.res:3:61: error: DynamicResources 'Thread': type 'Thread' has no attribute "
                 "'prio'");
    expect_error("[\"Thread\"]",
                 "d.res:3:20: error: \"DynamicResources\" must be an object of resource types, "
                 "found an array");
}

int main(void)
{
    make_tmpdir("dynamic");
    write_file("d.resh", resh);
    write_file("d.cnv", cnv);
    write_file("d.viz", viz);
    test_created_on_first_use();
    test_first_declaration_wins_and_rows();
    test_without_declarations();
    test_sum();
    test_bad_declarations();
    const char *names[] = {"d.res", "d.resh", "d.cnv", "d.viz", "d.log"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[PATH_MAX + 16];
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
    return check_failures ? 1 : 0;
}
