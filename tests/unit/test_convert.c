/*
 * test_convert.c — the conversion engine through the public API
 * (tlv_converter_*), with small rule files written at test time: every
 * matching rule's output in file order, nested outputs and conditions,
 * macros seeing the events of earlier outputs of the same line, conversion
 * errors with their exact text, Type(cond) expanding to several events,
 * time queries with out-of-order input, line splitting of raw bytes,
 * standard-form input, attribute queries, the canonical event text and the
 * statistics; and, when ../shared/corpus is present, asp_short.log against
 * what TLV 2.0.1 produced.
 */
#include "check.h"
#include "scratch.h"

#include "tlv/tlv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char rules_dir[PATH_MAX + 16];

/* ---- helpers ---------------------------------------------------------------- */

static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static const char *fmt(const char *f, ...)
{
    static char text[4][4096];
    static int next;
    char *t = text[next++ % 4];
    va_list ap;
    va_start(ap, f);
    vsnprintf(t, 4096, f, ap);
    va_end(ap);
    return t;
}

/* Loads tmpdir/res with tmpdir/rules as the only rule directory. Fails the
 * test (and returns NULL) when the rules do not load cleanly. */
/* A diagnostic the next load_rules must give (the end of its text), once. */
static const char *load_warning;

static tlv_rules *load_rules(const char *res, const char *const *extra_dirs, size_t nextra)
{
    const char *dirs[4] = {rules_dir};
    for (size_t i = 0; i < nextra && i < 3; i++)
        dirs[i + 1] = extra_dirs[i];
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = 1 + nextra;
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", tmpdir, res);
    tlv_rules *r = NULL;
    tlv_status st = tlv_rules_load(path, &o, &r);
    const tlv_diags *d = tlv_rules_diags(r);
    size_t expected = 0; /* the one warning cv.cnv asks for, seen */
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char text[2048];
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        const char *at = load_warning ? strstr(text, load_warning) : NULL;
        expected += at && strcmp(at, load_warning) == 0;
    }
    if (load_warning)
        CHECK_INT(expected, 1);
    if (st != TLV_OK || tlv_diags_count(d) != expected) {
        fprintf(stderr, "loading %s: status %d\n", path, (int)st);
        for (size_t i = 0; i < tlv_diags_count(d); i++) {
            char text[2048];
            tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
            fprintf(stderr, "    %s\n", text);
        }
        check_failures++;
        if (st != TLV_OK) {
            tlv_rules_free(r);
            return NULL;
        }
    }
    return r;
}

/* Collected events: their canonical lines joined by '\n', and the input
 * line and sequence number of each. */
typedef struct collector {
    char text[1 << 16];
    size_t len;
    int radix;
    size_t n;
    uint64_t lines[512];
    uint64_t seqs[512];
    int stop_after; /* stop when this many were received (0 = never) */
} collector;

static int collect(void *user, const tlv_event *ev)
{
    collector *c = user;
    char line[1024];
    size_t n = tlv_event_format(ev, c->radix, line, sizeof line);
    if (n >= sizeof line || c->len + n + 2 >= sizeof c->text) {
        fprintf(stderr, "collector overflow\n");
        check_failures++;
        return 1;
    }
    if (c->len)
        c->text[c->len++] = '\n';
    memcpy(c->text + c->len, line, n + 1);
    c->len += n;
    if (c->n < 512) {
        c->lines[c->n] = ev->input_line;
        c->seqs[c->n] = ev->seq;
    }
    c->n++;
    return c->stop_after && c->n >= (size_t)c->stop_after;
}

static void reset(collector *c)
{
    c->len = 0;
    c->text[0] = '\0';
    c->n = 0;
}

/* A converter on `rules` that collects events into *c. */
static tlv_converter *new_conv(const tlv_rules *rules, collector *c, const char *source)
{
    tlv_converter *conv = NULL;
    CHECK_INT(tlv_converter_new(rules, &conv), TLV_OK);
    if (!conv)
        exit(1);
    memset(c, 0, sizeof *c);
    c->radix = tlv_rules_time_radix(rules);
    tlv_converter_set_event_fn(conv, collect, c);
    if (source)
        tlv_converter_set_source_name(conv, source);
    return conv;
}

static tlv_status push(tlv_converter *conv, const char *line)
{
    return tlv_converter_push_line(conv, line, strlen(line));
}

/* The i-th diagnostic of the converter as formatted text. */
static const char *cdiag(const tlv_converter *conv, size_t i)
{
    static char text[4096];
    const tlv_diag *g = tlv_diags_get(tlv_converter_diags(conv), i);
    if (!g)
        return "(no such diagnostic)";
    tlv_diag_format(g, text, sizeof text);
    return text;
}

static size_t ndiags(const tlv_converter *conv)
{
    return tlv_diags_count(tlv_converter_diags(conv));
}

/* The value of res.attr at time t (or latest when t < 0 is not wanted:
 * use attr_now). */
static const char *attr_at(tlv_converter *conv, const char *res, const char *attr, int64_t t)
{
    tlv_time at = {t, 0};
    const char *v = NULL;
    if (tlv_converter_attr_at(conv, res, attr, &at, &v) != TLV_OK)
        return "(error)";
    return v;
}

static const char *attr_now(tlv_converter *conv, const char *res, const char *attr)
{
    const char *v = NULL;
    if (tlv_converter_attr_at(conv, res, attr, NULL, &v) != TLV_OK)
        return "(error)";
    return v;
}

/* ---- fixtures ---------------------------------------------------------------- */

static const char types_resh[] =
    "{\"hdr\": {\n"
    "  \"Task\": {\n"
    "    \"Attributes\": {\n"
    "      \"state\": {\"VariableType\": \"String\", \"Default\": \"DORMANT\"},\n"
    "      \"id\": {\"VariableType\": \"Number\"},\n"
    "      \"note\": {\"VariableType\": \"String\"}\n"
    "    },\n"
    "    \"Behaviors\": {\n"
    "      \"preempt\": {}, \"dispatch\": {},\n"
    "      \"go\": {\"Arguments\": {\"a\": \"String\"}},\n"
    "      \"log\": {\"Arguments\": {\"a\": \"String\", \"b\": \"String\"}}\n"
    "    }\n"
    "  },\n"
    "  \"Ctx\": {\"Attributes\": {\"name\": {\"VariableType\": \"String\"}}}\n"
    "}}\n";

#define T "\\\\[(?<t>-?\\\\d+)\\\\] "

/* Rules of target "cv", in this order. */
static const char cv_cnv[] =
    "{\"cv\": {\n"
    /* two rules match "mark": both outputs, in file order */
    "  \"^" T "mark (?<v>\\\\w+)$\": \"[${t}]TASK1.go(first-${v})\",\n"
    "  \"^" T "mark .*$\": \"[${t}]TASK1.go(second)\",\n"
    /* nested arrays and condition objects */
    "  \"^" T "nest (?<v>\\\\w+)$\": [\n"
    "    \"[${t}]TASK1.go(n1)\",\n"
    "    [\"[${t}]TASK1.go(n2)\",\n"
    "     {\"${v}==yes\": [\"[${t}]TASK1.go(yes1)\", \"[${t}]TASK1.go(yes2)\"],\n"
    "      \"${v}!=yes\": \"[${t}]TASK1.go(no)\",\n"
    "      \"true\": {\"${v}==yes\": \"[${t}]TASK1.go(deep)\"}}],\n"
    "    \"[${t}]TASK1.go(n3)\"\n"
    "  ],\n"
    /* the TOPPERS dispatch: preempt the running task, then dispatch */
    "  \"^" T "dispatch to task (?<id>\\\\d+)\\\\.$\": [\n"
    "    {\"$EXIST{Task(state==RUNNING)}\": [\n"
    "      \"[${t}]$RES_NAME{Task(state==RUNNING)}.preempt()\",\n"
    "      \"[${t}]$RES_NAME{Task(state==RUNNING)}.state=RUNNABLE\"]},\n"
    "    \"[${t}]$RES_NAME{Task(id==${id})}.dispatch()\",\n"
    "    \"[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING\",\n"
    "    \"[${t}]CurrentContext.name=$RES_NAME{Task(state==RUNNING)}\"\n"
    "  ],\n"
    /* conditions on $ATTR */
    "  \"^" T "task (?<id>\\\\d+) becomes (?<s>\\\\w+)\\\\.$\": [\n"
    "    {\"$ATTR{Task(id==${id}).state}==DORMANT && ${s}==RUNNABLE\": "
    "\"[${t}]$RES_NAME{Task(id==${id})}.go(activate)\",\n"
    "     \"$ATTR{Task(id==${id}).state}==RUNNING && ${s}==DORMANT\": "
    "\"[${t}]$RES_NAME{Task(id==${id})}.go(exit)\"},\n"
    "    \"[${t}]$RES_NAME{Task(id==${id})}.state=${s}\"\n"
    "  ],\n"
    /* $RES_NAME of a condition that may match 0 or 2 resources */
    "  \"^" T "name of state (?<s>\\\\w+)$\": \"[${t}]$RES_NAME{Task(state==${s})}.go(x)\",\n"
    /* anything as resource / attribute name */
    "  \"^" T "set (?<r>\\\\w+) (?<a>\\\\w+)=(?<v>.*)$\": \"[${t}]${r}.${a}=${v}\",\n"
    "  \"^" T "call (?<r>\\\\w+) (?<b>\\\\w+)$\": \"[${t}]${r}.${b}(1)\",\n"
    /* Type(cond) in a template */
    "  \"^" T "stop all$\": \"[${t}]Task(state!=DORMANT).state=DORMANT\",\n"
    /* time queries */
    "  \"^" T "query (?<q>-?\\\\d+)$\": "
    "\"[${t}]CurrentContext.name=$ATTR{[${q}]TASK1.state}/$COUNT{[${q}]Task(state==RUNNING)}\",\n"
    /* $ATTR with the resource's own properties, $RES_DISPLAYNAME, $RES_COLOR */
    "  \"^" T "props$\": \"[${t}]TASK2.log($ATTR{TASK2._name}/$ATTR{TASK2._type}/"
    "$ATTR{TASK2._displayName}, $RES_DISPLAYNAME{TASK2}/$RES_COLOR{TASK2}/$RES_COLOR{TASK1})\",\n"
    /* a malformed condition */
    /* regex forms that hide or vary their literal text */
    "  \"(?i)^" T "shout (?<v>\\\\w+)$\": \"[${t}]TASK1.go(i-${v})\",\n"
    "  \"^" T "(?:alpha|beta)-(?<v>\\\\w+)$\": \"[${t}]TASK1.go(alt-${v})\",\n"
    "  \"^" T "\\\\x41BC(?<v>\\\\w+)$\": \"[${t}]TASK1.go(hex-${v})\",\n"
    "  \"^" T "\\\\Qa.b\\\\E(?<v>\\\\w+)$\": \"[${t}]TASK1.go(q-${v})\",\n"
    "  \"^" T "(?:opt)?tail(?<v>\\\\d)$\": \"[${t}]TASK1.go(opt-${v})\",\n"
    "  \"^" T "zz|^" T "yy$\": \"[${t}]TASK1.go(top-alt)\",\n"
    "  \"^" T "badcond$\": {\"$ATTR{TASK1.state}==RUNNABLE &&\": \"[${t}]TASK1.go(x)\"}\n"
    "}}\n";

static const char cv_res[] =
    "{\"ResourceHeaders\": [\"hdr\"], \"ConvertRules\": [\"cv\"],\n"
    " \"Resources\": {\n"
    "   \"TASK1\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 1, \"state\": \"RUNNABLE\"}},\n"
    "   \"TASK2\": {\"Type\": \"Task\", \"DisplayName\": \"Second task\", \"Color\": \"a0b0c0\",\n"
    "             \"Attributes\": {\"id\": 2, \"state\": \"RUNNABLE\"}},\n"
    "   \"TASK3\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 3}},\n"
    "   \"CurrentContext\": {\"Type\": \"Ctx\", \"Attributes\": {\"name\": \"None\"}}\n"
    " }}\n";

/* Radix 16 and a rule that passes its time through. */
static const char hex_cnv[] = "{\"hex\": {\"^(?<t>\\\\S+) go$\": \"[${t}]TASK1.go(x)\"}}\n";
static const char hex_res[] =
    "{\"TimeRadix\": 16, \"ResourceHeaders\": [\"hdr\"], \"ConvertRules\": [\"hex\"],\n"
    " \"Resources\": {\"TASK1\": {\"Type\": \"Task\"}}}\n";

static const char std_res[] =
    "{\"ResourceHeaders\": [\"hdr\"], \"ConvertRules\": [\"\"],\n"
    " \"Resources\": {\"TASK1\": {\"Type\": \"Task\"}, \"TASK2\": {\"Type\": \"Task\"}}}\n";

static void setup(void)
{
    make_tmpdir("convert");
    snprintf(rules_dir, sizeof rules_dir, "%s/rules", tmpdir);
    write_file("rules/types.resh", types_resh);
    write_file("rules/cv.cnv", cv_cnv);
    write_file("rules/hex.cnv", hex_cnv);
    write_file("cv.res", cv_res);
    write_file("hex.res", hex_res);
    write_file("std.res", std_res);
}

/* ---- tests ------------------------------------------------------------------- */

static void test_every_rule_in_order(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, "log.txt");
    CHECK_INT(push(conv, "[5] mark abc"), TLV_OK);
    CHECK_STR(c.text, "[5]TASK1.go(first-abc)\n[5]TASK1.go(second)");
    /* only the second rule matches this one */
    reset(&c);
    CHECK_INT(push(conv, "[6] mark a b"), TLV_OK);
    CHECK_STR(c.text, "[6]TASK1.go(second)");
    /* no rule matches: no event, no error */
    reset(&c);
    CHECK_INT(push(conv, "nothing to see"), TLV_OK);
    CHECK_STR(c.text, "");
    CHECK_INT(ndiags(conv), 0);
    tlv_convert_stats st;
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 3);
    CHECK_INT(st.lines_matched, 2);
    CHECK_INT(st.events, 3);
    CHECK_INT(st.error_lines, 0);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    tlv_converter_free(conv);
}

static void test_nested_outputs(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, NULL);
    CHECK_INT(push(conv, "[7] nest yes"), TLV_OK);
    CHECK_STR(c.text, "[7]TASK1.go(n1)\n[7]TASK1.go(n2)\n[7]TASK1.go(yes1)\n[7]TASK1.go(yes2)\n"
                      "[7]TASK1.go(deep)\n[7]TASK1.go(n3)");
    reset(&c);
    CHECK_INT(push(conv, "[8] nest nope"), TLV_OK);
    CHECK_STR(c.text, "[8]TASK1.go(n1)\n[8]TASK1.go(n2)\n[8]TASK1.go(no)\n[8]TASK1.go(n3)");
    tlv_converter_free(conv);
}

static void test_dispatch_sees_earlier_outputs(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, "log.txt");
    /* TASK1 and TASK2 are RUNNABLE, nothing runs: no preempt */
    CHECK_INT(push(conv, "[10] dispatch to task 1."), TLV_OK);
    CHECK_STR(c.text, "[10]TASK1.dispatch()\n[10]TASK1.state=RUNNING\n"
                      "[10]CurrentContext.name=TASK1");
    /* TASK1 runs: it is preempted first, and the last output's
     * Task(state==RUNNING) sees TASK2 only */
    reset(&c);
    CHECK_INT(push(conv, "[20] dispatch to task 2."), TLV_OK);
    CHECK_STR(c.text, "[20]TASK1.preempt()\n[20]TASK1.state=RUNNABLE\n[20]TASK2.dispatch()\n"
                      "[20]TASK2.state=RUNNING\n[20]CurrentContext.name=TASK2");
    CHECK_INT(c.n, 5);
    CHECK_INT(c.lines[0], 2);
    CHECK_INT(c.lines[4], 2);
    CHECK_INT(c.seqs[0], 3);
    CHECK_INT(c.seqs[4], 7);
    CHECK_STR(attr_now(conv, "TASK1", "state"), "RUNNABLE");
    CHECK_STR(attr_now(conv, "TASK2", "state"), "RUNNING");
    CHECK_STR(attr_now(conv, "CurrentContext", "name"), "TASK2");
    CHECK_INT(ndiags(conv), 0);

    /* $ATTR conditions */
    reset(&c);
    CHECK_INT(push(conv, "[30] task 3 becomes RUNNABLE."), TLV_OK);
    CHECK_STR(c.text, "[30]TASK3.go(activate)\n[30]TASK3.state=RUNNABLE");
    reset(&c);
    CHECK_INT(push(conv, "[31] task 2 becomes DORMANT."), TLV_OK);
    CHECK_STR(c.text, "[31]TASK2.go(exit)\n[31]TASK2.state=DORMANT");
    reset(&c);
    CHECK_INT(push(conv, "[32] task 2 becomes DORMANT."), TLV_OK);
    CHECK_STR(c.text, "[32]TASK2.state=DORMANT");
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    tlv_converter_free(conv);
}

static void test_macro_errors(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, "app.log");
    const char *re_name = "^\\[(?<t>-?\\d+)\\] name of state (?<s>\\w+)$";
    /* zero resources RUNNING */
    CHECK_INT(push(conv, "[1] name of state RUNNING"), TLV_ERR_CONVERT);
    CHECK_STR(c.text, "");
    CHECK_INT(ndiags(conv), 1);
    CHECK_STR(cdiag(conv, 0), fmt("app.log:1: error: rule \"%s\": $RES_NAME{Task(state==RUNNING)}: "
                                  "no resource matches; exactly one is needed", re_name));
    /* the run goes on: the next line converts */
    CHECK_INT(push(conv, "[2] mark x"), TLV_OK);
    CHECK_STR(c.text, "[2]TASK1.go(first-x)\n[2]TASK1.go(second)");
    /* two resources RUNNABLE */
    CHECK_INT(push(conv, "[3] name of state RUNNABLE"), TLV_ERR_CONVERT);
    CHECK_INT(ndiags(conv), 2);
    CHECK_STR(cdiag(conv, 1), fmt("app.log:3: error: rule \"%s\": $RES_NAME{Task(state==RUNNABLE)}: "
                                  "2 resources match (TASK1, TASK2); exactly one is needed",
                                  re_name));
    /* three resources DORMANT... no: TASK3 alone is DORMANT: it works */
    reset(&c);
    CHECK_INT(push(conv, "[4] name of state DORMANT"), TLV_OK);
    CHECK_STR(c.text, "[4]TASK3.go(x)");

    /* an unknown resource */
    CHECK_INT(push(conv, "[5] set NOPE state=X"), TLV_ERR_CONVERT);
    CHECK_STR(cdiag(conv, 2), "app.log:5: error: rule \"^\\[(?<t>-?\\d+)\\] set (?<r>\\w+) "
                              "(?<a>\\w+)=(?<v>.*)$\": unknown resource 'NOPE' in "
                              "'[5]NOPE.state=X'");
    /* an undeclared attribute, an undeclared behavior */
    CHECK_INT(push(conv, "[6] set TASK1 colour=red"), TLV_ERR_CONVERT);
    CHECK_STR(cdiag(conv, 3), "app.log:6: error: rule \"^\\[(?<t>-?\\d+)\\] set (?<r>\\w+) "
                              "(?<a>\\w+)=(?<v>.*)$\": resource 'TASK1' (type Task) has no "
                              "attribute 'colour'");
    CHECK_INT(push(conv, "[7] call TASK1 jump"), TLV_ERR_CONVERT);
    CHECK_STR(cdiag(conv, 4), "app.log:7: error: rule \"^\\[(?<t>-?\\d+)\\] call (?<r>\\w+) "
                              "(?<b>\\w+)$\": resource 'TASK1' (type Task) has no behavior 'jump'");
    /* a malformed rule condition */
    CHECK_INT(push(conv, "[8] badcond"), TLV_ERR_CONVERT);
    CHECK_STR(cdiag(conv, 5), "app.log:8: error: rule \"^\\[(?<t>-?\\d+)\\] badcond$\": "
                              "condition \"RUNNABLE==RUNNABLE &&\" (from \"$ATTR{TASK1.state}"
                              "==RUNNABLE &&\"): expected an operand after '&&'");
    CHECK_STR(c.text, "[4]TASK3.go(x)");

    tlv_convert_stats st;
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 8);
    CHECK_INT(st.error_lines, 6);
    CHECK_INT(st.lines_matched, 8);
    CHECK_INT(st.events, 3);
    CHECK_INT(tlv_diags_errors(tlv_converter_diags(conv)), 6);
    CHECK_INT(tlv_diags_dropped(tlv_converter_diags(conv)), 0);
    /* the run as a whole reports that the output is partial */
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    tlv_converter_free(conv);

    /* without a source name the line number still shows */
    conv = new_conv(rules, &c, NULL);
    CHECK_INT(push(conv, "[1] name of state RUNNING"), TLV_ERR_CONVERT);
    CHECK_STR(cdiag(conv, 0), fmt("line 1: error: rule \"%s\": $RES_NAME{Task(state==RUNNING)}: "
                                  "no resource matches; exactly one is needed", re_name));
    tlv_converter_free(conv);
}

static void test_bad_time_for_radix(void)
{
    tlv_rules *rules = load_rules("hex.res", NULL, 0);
    if (!rules)
        return;
    CHECK_INT(tlv_rules_time_radix(rules), 16);
    collector c;
    tlv_converter *conv = new_conv(rules, &c, "hex.log");
    CHECK_INT(push(conv, "1f go"), TLV_OK);
    CHECK_STR(c.text, "[1f]TASK1.go(x)");
    CHECK_INT(push(conv, "xyz go"), TLV_ERR_CONVERT);
    CHECK_STR(cdiag(conv, 0), "hex.log:2: error: rule \"^(?<t>\\S+) go$\": '[xyz]TASK1.go(x)' is "
                              "not a standard-form event: bad time: invalid digit for the radix "
                              "(column 2)");
    CHECK_INT(push(conv, "FF go"), TLV_OK);
    CHECK_STR(c.text, "[1f]TASK1.go(x)\n[ff]TASK1.go(x)");
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    tlv_converter_free(conv);
    tlv_rules_free(rules);
}

static void test_type_condition(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, NULL);
    /* TASK1, TASK2 RUNNABLE, TASK3 DORMANT: two events, in resource order */
    CHECK_INT(push(conv, "[40] set TASK3 note=hello world"), TLV_OK);
    reset(&c);
    CHECK_INT(push(conv, "[41] stop all"), TLV_OK);
    CHECK_STR(c.text, "[41]TASK1.state=DORMANT\n[41]TASK2.state=DORMANT");
    CHECK_STR(attr_now(conv, "TASK1", "state"), "DORMANT");
    /* none left: no event, no error */
    reset(&c);
    CHECK_INT(push(conv, "[42] stop all"), TLV_OK);
    CHECK_STR(c.text, "");
    CHECK_INT(ndiags(conv), 0);
    /* inner spaces of a value are kept */
    CHECK_STR(attr_now(conv, "TASK3", "note"), "hello world");
    tlv_converter_free(conv);
}

static void test_time_queries(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, NULL);
    /* TASK1.state: RUNNABLE initially; out-of-order changes */
    CHECK_INT(push(conv, "[100] set TASK1 state=A"), TLV_OK);
    CHECK_INT(push(conv, "[50] set TASK1 state=RUNNING"), TLV_OK);
    CHECK_INT(push(conv, "[150] set TASK1 state=C"), TLV_OK);
    CHECK_INT(push(conv, "[100] set TASK2 state=RUNNING"), TLV_OK);
    CHECK_INT(push(conv, "[-5] set TASK3 state=RUNNING"), TLV_OK);
    CHECK_INT(push(conv, "[0] set TASK3 state=DORMANT"), TLV_OK);
    reset(&c);
    CHECK_INT(push(conv, "[200] query 40"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 75"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 100"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 149"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 150"), TLV_OK);
    CHECK_INT(push(conv, "[200] query -5"), TLV_OK);
    CHECK_STR(c.text, "[200]CurrentContext.name=RUNNABLE/0\n"
                      "[200]CurrentContext.name=RUNNING/1\n"
                      "[200]CurrentContext.name=A/1\n"
                      "[200]CurrentContext.name=A/1\n"
                      "[200]CurrentContext.name=C/1\n"
                      "[200]CurrentContext.name=RUNNABLE/1");
    CHECK_INT(ndiags(conv), 0);
    /* a change inserted before an earlier query's time changes its answer */
    reset(&c);
    CHECK_INT(push(conv, "[60] set TASK1 state=Z"), TLV_OK);
    CHECK_INT(push(conv, "[60] set TASK3 state=RUNNING"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 75"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 55"), TLV_OK);
    CHECK_STR(c.text, "[60]TASK1.state=Z\n[60]TASK3.state=RUNNING\n"
                      "[200]CurrentContext.name=Z/1\n[200]CurrentContext.name=RUNNING/1");
    CHECK_INT(push(conv, "[60] set TASK3 state=DORMANT"), TLV_OK);
    CHECK_INT(push(conv, "[200] query 75"), TLV_OK);
    CHECK_STR(attr_now(conv, "CurrentContext", "name"), "Z/0");

    /* tlv_converter_attr_at: the same answers */
    CHECK_STR(attr_at(conv, "TASK1", "state", 49), "RUNNABLE");
    CHECK_STR(attr_at(conv, "TASK1", "state", 50), "RUNNING");
    CHECK_STR(attr_at(conv, "TASK1", "state", 59), "RUNNING");
    CHECK_STR(attr_at(conv, "TASK1", "state", 99), "Z");
    CHECK_STR(attr_at(conv, "TASK1", "state", 100), "A");
    CHECK_STR(attr_at(conv, "TASK1", "state", 1000), "C");
    CHECK_STR(attr_now(conv, "TASK1", "state"), "C");
    CHECK_STR(attr_at(conv, "CurrentContext", "name", 199), "None");
    CHECK_STR(attr_at(conv, "TASK3", "state", -6), "DORMANT");
    CHECK_STR(attr_at(conv, "TASK3", "state", -5), "RUNNING");
    CHECK_STR(attr_at(conv, "TASK3", "state", 0), "DORMANT");
    /* an attribute never set and without Default: empty */
    CHECK_STR(attr_now(conv, "TASK1", "note"), "");
    const char *v = "unchanged";
    CHECK_INT(tlv_converter_attr_at(conv, "NOPE", "state", NULL, &v), TLV_ERR_USAGE);
    CHECK_INT(tlv_converter_attr_at(conv, "TASK1", "nope", NULL, &v), TLV_ERR_USAGE);
    CHECK_INT(tlv_converter_attr_at(conv, "Task", "state", NULL, &v), TLV_ERR_USAGE);
    CHECK_STR(v, "unchanged");
    tlv_converter_free(conv);
}

static void test_properties(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, NULL);
    CHECK_INT(push(conv, "[9] props"), TLV_OK);
    CHECK_STR(c.text, "[9]TASK2.log(TASK2/Task/Second task,Second task/a0b0c0/1f77b4)");
    tlv_converter_free(conv);
}

static void test_rule_forms(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, NULL);
    static const char *const in[] = {
        "[1] SHOUT a", "[2] shout b", "[3] beta-c", "[4] alpha-d", "[5] ABCe", "[6] a.bf",
        "[7] axbg", "[8] tail1", "[9] opttail2", "[10] yy", "[11] zz",
    };
    for (size_t i = 0; i < sizeof in / sizeof *in; i++)
        CHECK_INT(push(conv, in[i]), TLV_OK);
    CHECK_STR(c.text, "[1]TASK1.go(i-a)\n[2]TASK1.go(i-b)\n[3]TASK1.go(alt-c)\n"
                      "[4]TASK1.go(alt-d)\n[5]TASK1.go(hex-e)\n[6]TASK1.go(q-f)\n"
                      "[8]TASK1.go(opt-1)\n[9]TASK1.go(opt-2)\n[10]TASK1.go(top-alt)\n"
                      "[11]TASK1.go(top-alt)");
    CHECK_INT(ndiags(conv), 0);
    tlv_converter_free(conv);
}

static void test_push_bytes(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, "bytes.log");
    static const char data[] = "[1] mark a\r\n[2] mark b\r[3] mark c\n[4] mark d";
    CHECK_INT(tlv_converter_push_bytes(conv, data, strlen(data)), TLV_OK);
    /* the last line waits for more bytes or finish */
    CHECK_INT(c.n, 6);
    tlv_convert_stats st;
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 3);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_STR(c.text, "[1]TASK1.go(first-a)\n[1]TASK1.go(second)\n"
                      "[2]TASK1.go(first-b)\n[2]TASK1.go(second)\n"
                      "[3]TASK1.go(first-c)\n[3]TASK1.go(second)\n"
                      "[4]TASK1.go(first-d)\n[4]TASK1.go(second)");
    CHECK_INT(c.lines[0], 1);
    CHECK_INT(c.lines[3], 2);
    CHECK_INT(c.lines[5], 3);
    CHECK_INT(c.lines[7], 4);
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 4);
    CHECK_INT(st.lines_matched, 4);
    CHECK_INT(st.bytes_read, strlen(data));
    CHECK_INT(st.events, 8);
    tlv_converter_free(conv);

    /* a CRLF split across two pushes ends one line, not two; a line split
     * anywhere is joined */
    conv = new_conv(rules, &c, "bytes.log");
    CHECK_INT(tlv_converter_push_bytes(conv, "[1] mark a\r", 11), TLV_OK);
    CHECK_INT(tlv_converter_push_bytes(conv, "\n[2] ma", 7), TLV_OK);
    CHECK_INT(tlv_converter_push_bytes(conv, "rk b\r", 5), TLV_OK);
    CHECK_INT(tlv_converter_push_bytes(conv, "\n", 1), TLV_OK);
    CHECK_INT(tlv_converter_push_bytes(conv, "\r\n", 2), TLV_OK); /* an empty line */
    CHECK_INT(tlv_converter_push_bytes(conv, "[4] mark d\n", 11), TLV_OK);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_STR(c.text, "[1]TASK1.go(first-a)\n[1]TASK1.go(second)\n"
                      "[2]TASK1.go(first-b)\n[2]TASK1.go(second)\n"
                      "[4]TASK1.go(first-d)\n[4]TASK1.go(second)");
    CHECK_INT(c.lines[2], 2);
    CHECK_INT(c.lines[4], 4);
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 4);
    CHECK_INT(st.lines_matched, 3);
    CHECK_INT(st.bytes_read, 37);
    tlv_converter_free(conv);

    /* push_line ignores a trailing CR */
    conv = new_conv(rules, &c, NULL);
    CHECK_INT(push(conv, "[1] mark a\r"), TLV_OK);
    CHECK_STR(c.text, "[1]TASK1.go(first-a)\n[1]TASK1.go(second)");
    tlv_converter_free(conv);

    /* CR CR LF: a line, then an empty line */
    conv = new_conv(rules, &c, NULL);
    CHECK_INT(tlv_converter_push_bytes(conv, "[1] mark a\r\r\n[2] mark b", 23), TLV_OK);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_INT(c.n, 4);
    CHECK_INT(c.lines[2], 3);
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 3);
    tlv_converter_free(conv);

    /* an error on a line inside pushed bytes: reported, the rest converts */
    conv = new_conv(rules, &c, "bytes.log");
    static const char bad[] = "[1] mark a\n[2] name of state NONE\n[3] mark c\n";
    CHECK_INT(tlv_converter_push_bytes(conv, bad, strlen(bad)), TLV_ERR_CONVERT);
    CHECK_INT(c.n, 4);
    CHECK_INT(ndiags(conv), 1);
    CHECK(strncmp(cdiag(conv, 0), "bytes.log:2: error: rule ", 25) == 0);
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    tlv_converter_free(conv);
}

static void test_stop(tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c, NULL);
    c.stop_after = 1;
    /* the event function asks to stop after the first event */
    CHECK_INT(push(conv, "[1] mark a"), TLV_ERR_USAGE);
    CHECK_INT(c.n, 1);
    CHECK_INT(push(conv, "[2] mark b"), TLV_ERR_USAGE);
    CHECK_INT(c.n, 1);
    tlv_converter_free(conv);

    /* no event function: the state is still updated */
    tlv_converter *quiet = NULL;
    CHECK_INT(tlv_converter_new(rules, &quiet), TLV_OK);
    CHECK_INT(tlv_converter_push_line(quiet, "[1] set TASK1 note=n1", 21), TLV_OK);
    const char *v = NULL;
    CHECK_INT(tlv_converter_attr_at(quiet, "TASK1", "note", NULL, &v), TLV_OK);
    CHECK_STR(v, "n1");
    tlv_convert_stats st;
    tlv_converter_stats(quiet, &st);
    CHECK_INT(st.events, 1);
    tlv_converter_free(quiet);
    tlv_converter_free(NULL);
}

static void test_standard_form_input(void)
{
    tlv_rules *rules = load_rules("std.res", NULL, 0);
    if (!rules)
        return;
    CHECK_INT(tlv_rules_is_standard_form(rules), 1);
    collector c;
    tlv_converter *conv = new_conv(rules, &c, "std.log");
    static const char input[] =
        "[1]TASK1.state=RUNNING\r\n"
        "garbage\n"
        "[3]TASK2.state=RUNNING\n"
        "\n"
        "   \n"
        "[5]Task(state==RUNNING).go(a\\,b, c d )\n"
        "[6]TASK9.state=X\n"
        "[7]TASK1.log(x(y)z,\\(w\\))";
    CHECK_INT(tlv_converter_push_bytes(conv, input, strlen(input)), TLV_ERR_CONVERT);
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    CHECK_STR(c.text, "[1]TASK1.state=RUNNING\n[3]TASK2.state=RUNNING\n"
                      "[5]TASK1.go(a\\,b,c d)\n[5]TASK2.go(a\\,b,c d)\n"
                      "[7]TASK1.log(x\\(y\\)z,\\(w\\))");
    CHECK_INT(c.lines[0], 1);
    CHECK_INT(c.lines[1], 3);
    CHECK_INT(c.lines[2], 6);
    CHECK_INT(c.lines[4], 8);
    CHECK_INT(ndiags(conv), 2);
    CHECK_STR(cdiag(conv, 0), "std.log:2: error: 'garbage' is not a standard-form event: expected "
                              "'[' at the start of the line (column 1)");
    CHECK_STR(cdiag(conv, 1), "std.log:7: error: unknown resource 'TASK9' in '[6]TASK9.state=X'");
    tlv_convert_stats st;
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 8);
    CHECK_INT(st.lines_matched, 4);
    CHECK_INT(st.error_lines, 2);
    CHECK_INT(st.events, 5);
    CHECK_INT(st.bytes_read, strlen(input));
    tlv_converter_free(conv);
    tlv_rules_free(rules);
}

/* A trace that `tlv convert` wrote, read back with the resource file of
 * the raw log: standard form by request, the conversion rules unused. */
static void test_standard_form_by_request(tlv_rules *raw_rules)
{
    collector c;
    tlv_converter *conv = new_conv(raw_rules, &c, "trace.std");
    tlv_converter_set_standard_form(conv, 1);
    CHECK_INT(push(conv, "[5]TASK1.go(first-abc)"), TLV_OK);
    CHECK_INT(push(conv, "[6] mark abc"), TLV_ERR_CONVERT); /* a raw line is no event */
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    CHECK_STR(c.text, "[5]TASK1.go(first-abc)");
    CHECK_INT(ndiags(conv), 1);
    CHECK_STR(cdiag(conv, 0), "trace.std:2: error: '[6] mark abc' is not a standard-form event: "
                              "expected '.' between resource and attribute (column 9)");
    tlv_converter_free(conv);
    /* without the request, the same line is converted by the rules */
    conv = new_conv(raw_rules, &c, "raw.log");
    CHECK_INT(push(conv, "[6] mark abc"), TLV_OK);
    CHECK_STR(c.text, "[6]TASK1.go(first-abc)\n[6]TASK1.go(second)");
    tlv_converter_free(conv);
}

static void test_event_format(void)
{
    const char *args[] = {"a,b", "(x)", "back\\slash", "", "inner space"};
    tlv_event ev;
    memset(&ev, 0, sizeof ev);
    ev.time.ticks = 255;
    ev.resource = "TASK1";
    ev.kind = TLV_EVENT_BEHAVIOR;
    ev.name = "enterSVC";
    ev.nargs = 5;
    ev.args = args;
    char out[256];
    size_t n = tlv_event_format(&ev, 10, out, sizeof out);
    const char *want = "[255]TASK1.enterSVC(a\\,b,\\(x\\),back\\\\slash,,inner space)";
    CHECK_STR(out, want);
    CHECK_INT(n, strlen(want));
    CHECK_INT(tlv_event_format(&ev, 16, out, sizeof out), strlen(want) - 1);
    CHECK_STR(out, "[ff]TASK1.enterSVC(a\\,b,\\(x\\),back\\\\slash,,inner space)");
    /* cut to the buffer, NUL-terminated, full length returned */
    char small[8];
    CHECK_INT(tlv_event_format(&ev, 10, small, sizeof small), strlen(want));
    CHECK_STR(small, "[255]TA");
    CHECK_INT(tlv_event_format(&ev, 10, NULL, 0), strlen(want));
    /* no arguments */
    ev.nargs = 0;
    tlv_event_format(&ev, 10, out, sizeof out);
    CHECK_STR(out, "[255]TASK1.enterSVC()");

    ev.kind = TLV_EVENT_ATTRIBUTE;
    ev.name = "state";
    ev.value = "a,b(c)\\d";
    ev.time.ticks = -3;
    tlv_event_format(&ev, 10, out, sizeof out);
    CHECK_STR(out, "[-3]TASK1.state=a\\,b\\(c\\)\\\\d");
    ev.time.ticks = 12;
    ev.time.frac = 500000000000000000ull; /* .5 in radix 10 */
    ev.value = "";
    tlv_event_format(&ev, 10, out, sizeof out);
    CHECK_STR(out, "[12.5]TASK1.state=");
}

/* ---- the corpus ---------------------------------------------------------------- */

/* Removes every whitespace character (the original deleted spaces). */
static size_t squeeze(char *s)
{
    size_t k = 0;
    for (size_t i = 0; s[i]; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r' && s[i] != '\n' && s[i] != '\v' &&
            s[i] != '\f')
            s[k++] = s[i];
    s[k] = '\0';
    return k;
}

typedef struct lines {
    char **v;
    size_t n, cap;
} lines;

static void lines_add(lines *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 1024;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
        if (!l->v)
            exit(1);
    }
    l->v[l->n] = strdup(s);
    squeeze(l->v[l->n]);
    l->n++;
}

static void lines_free(lines *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
}

static int collect_lines(void *user, const tlv_event *ev)
{
    char line[4096];
    tlv_event_format(ev, 10, line, sizeof line);
    lines_add(user, line);
    return 0;
}

static int corpus_checks(void)
{
    const char *corpus = getenv("TLV_CORPUS");
    if (!corpus || !*corpus)
        return 0;
    char res[PATH_MAX], log[PATH_MAX], expected[PATH_MAX], rdir[PATH_MAX];
    snprintf(res, sizeof res, "%s/logs/asp/asp_short.res", corpus);
    snprintf(log, sizeof log, "%s/logs/asp/asp_short.log", corpus);
    snprintf(expected, sizeof expected, "%s/expected/asp_short.std", corpus);
    snprintf(rdir, sizeof rdir, "%s/rules", corpus);
    struct stat st;
    if (stat(res, &st) != 0 || stat(log, &st) != 0 || stat(expected, &st) != 0)
        return 0;

    tlv_rules_options o;
    tlv_rules_options_init(&o);
    const char *dirs[] = {rdir};
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    tlv_rules *rules = NULL;
    CHECK_INT(tlv_rules_load(res, &o, &rules), TLV_OK);
    tlv_converter *conv = NULL;
    CHECK_INT(tlv_converter_new(rules, &conv), TLV_OK);
    lines got = {0}, want = {0};
    tlv_converter_set_event_fn(conv, collect_lines, &got);
    size_t len;
    char *data = read_all(log, &len);
    CHECK(data != NULL);
    /* fed in uneven pieces, to cross line ends */
    for (size_t off = 0; data && off < len;) {
        size_t n = len - off < 997 ? len - off : 997;
        tlv_converter_push_bytes(conv, data + off, n);
        off += n;
    }
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_INT(ndiags(conv), 0);
    free(data);

    data = read_all(expected, &len);
    CHECK(data != NULL);
    for (char *p = data, *nl; data && *p; p = nl ? nl + 1 : p + strlen(p)) {
        nl = strchr(p, '\n');
        if (nl)
            *nl = '\0';
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", p);
        if (squeeze(copy))
            lines_add(&want, copy);
        if (!nl)
            break;
    }
    free(data);
    size_t empty = 0;
    for (size_t i = 0; i < got.n; i++)
        empty += got.v[i][0] == '\0';
    CHECK_INT(empty, 0);
    CHECK_INT(got.n, want.n);
    CHECK_INT(want.n, 3087);
    size_t shown = 0, diff = 0;
    for (size_t i = 0; i < got.n && i < want.n; i++) {
        if (strcmp(got.v[i], want.v[i]) != 0) {
            if (shown++ < 5)
                fprintf(stderr, "asp_short event %zu: got \"%s\", expected \"%s\"\n", i + 1,
                        got.v[i], want.v[i]);
            diff++;
        }
    }
    CHECK_INT(diff, 0);
    tlv_convert_stats stt;
    tlv_converter_stats(conv, &stt);
    CHECK_INT(stt.events, want.n);
    CHECK_INT(stt.error_lines, 0);
    lines_free(&got);
    lines_free(&want);
    tlv_converter_free(conv);
    tlv_rules_free(rules);
    return 1;
}

int main(void)
{
    setup();
    /* the malformed condition test_macro_errors meets on a line is known
     * from the start (statically, substitutions read as operands) */
    load_warning = "rules/cv.cnv:37:36: warning: malformed condition \"$ATTR{TASK1.state}==RUNNABLE "
                   "&&\": expected an operand after '&&'";
    tlv_rules *rules = load_rules("cv.res", NULL, 0);
    load_warning = NULL;
    if (rules) {
        test_every_rule_in_order(rules);
        test_nested_outputs(rules);
        test_dispatch_sees_earlier_outputs(rules);
        test_macro_errors(rules);
        test_type_condition(rules);
        test_time_queries(rules);
        test_properties(rules);
        test_rule_forms(rules);
        test_push_bytes(rules);
        test_stop(rules);
        test_standard_form_by_request(rules);
        tlv_rules_free(rules);
    }
    test_bad_time_for_radix();
    test_standard_form_input();
    test_event_format();
    if (!corpus_checks())
        printf("corpus not found: corpus checks skipped\n");
    remove_tree(tmpdir);
    return CHECK_DONE();
}
