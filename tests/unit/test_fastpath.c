/*
 * test_fastpath.c — the converter's fast paths (compiled templates with
 * their macros, expand.c; the caches of resolved references and parsed
 * events) give exactly what the general path gives.
 *
 * 1. Which templates get a compiled plan: those whose macros the template
 *    alone decides; not those a substituted group could change, nor those
 *    the general path rejects (so its error messages stay the only ones).
 * 2. Differential: lines through a converter with the fast paths and one
 *    without give the same events and the same diagnostics, for templates
 *    with nested macros, plain braces, "$$", failing macros, several
 *    matches on a line, and lines holding '$', '{' or '}'.
 * 3. With ../shared/corpus present: every corpus log, converted both ways,
 *    gives the same events and diagnostics.
 */
#include "check.h"
#include "scratch.h"

#include "convert/convert_impl.h"
#include "compile/expand.h"
#include "tlv/tlv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- 1. plans ------------------------------------------------------------------ */

static int has_plan(const char *regex, const char *template)
{
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, 0, &code, &off, NULL);
    if (!re)
        return -1;
    tmpl t;
    size_t sites = 0;
    int plan = -1;
    if (tmpl_compile(&t, template, strlen(template), re) == 0 && xplan_build(&t, &sites) == 0)
        plan = t.plan != NULL;
    tmpl_free(&t);
    pcre2_code_free(re);
    return plan;
}

static void test_which_templates_compile(void)
{
    const char *re = "(?<t>\\d+) (?<a>\\S+) (?<b>\\S+)";
    CHECK_INT(has_plan(re, "[${t}]$RES_NAME{Task(id==${a})}.state=${b}"), 1);
    CHECK_INT(has_plan(re, "[${t}]$ATTR{$RES_NAME{Task(id==${a})}.state}"), 1);
    CHECK_INT(has_plan(re, "$SUM{${a},{1}}"), 1);        /* plain braces inside */
    CHECK_INT(has_plan(re, "{${a}} $COUNT{Task}"), 1);  /* braces outside are text */
    CHECK_INT(has_plan(re, "$$ATTR{TASK1.state}"), 1);  /* "$$" is a '$': a macro */
    /* no macro: the plain substitution is already fast */
    CHECK_INT(has_plan(re, "[${t}]TASK1.state=${b}"), 0);
    /* a group could continue the macro's name, or be it */
    CHECK_INT(has_plan(re, "$RES${a}{x}"), 0);
    CHECK_INT(has_plan(re, "$${a}{x}"), 0);
    /* what the general path rejects, it also reports */
    CHECK_INT(has_plan(re, "$NOPE{x}"), 0);
    CHECK_INT(has_plan(re, "$ATTR{TASK1.state"), 0);
    /* ${name:esc}: log text kept as text, with or without a plan */
    CHECK_INT(has_plan(re, "[${t}]TASK1.log(${a:esc},$COUNT{Task})"), 1);
    /* the template's own "\\{": macro.c reads it as text, a plan would not */
    CHECK_INT(has_plan(re, "\\{$COUNT{Task}"), 0);
}

/* ---- helpers ----------------------------------------------------------------------- */


static tlv_rules *load(const char *res, const char *rules_dir)
{
    tlv_rules *r = NULL;
    if (load_rules_in(res, rules_dir, &r) != TLV_OK) {
        fprintf(stderr, "cannot load %s\n", res);
        check_failures++;
        tlv_rules_free(r);
        return NULL;
    }
    return r;
}

/* Everything a conversion produced, as text: events, then diagnostics. */
typedef struct output {
    char *text;
    size_t len, cap;
    int radix;
} output;

static void out_add(output *o, const char *s, size_t n)
{
    if (o->len + n + 2 > o->cap) {
        o->cap = (o->len + n + 2) * 2;
        o->text = realloc(o->text, o->cap);
        if (!o->text)
            exit(1);
    }
    memcpy(o->text + o->len, s, n);
    o->len += n;
    o->text[o->len++] = '\n';
    o->text[o->len] = '\0';
}

static int collect(void *user, const tlv_event *ev)
{
    output *o = user;
    char line[8192];
    size_t n = tlv_event_format(ev, o->radix, line, sizeof line);
    out_add(o, line, n < sizeof line ? n : sizeof line - 1);
    return 0;
}

/* Converts `data` with the fast paths on or off; returns the output. */
static output convert(const tlv_rules *rules, const char *data, size_t len, int fast)
{
    output o = {0};
    o.radix = tlv_rules_time_radix(rules);
    tlv_converter *conv = NULL;
    if (tlv_converter_new(rules, &conv) != TLV_OK)
        exit(1);
    converter_set_fast_paths(conv, fast);
    tlv_converter_set_event_fn(conv, collect, &o);
    tlv_converter_push_bytes(conv, data, len);
    tlv_converter_finish(conv);
    const tlv_diags *d = tlv_converter_diags(conv);
    out_add(&o, "-- diagnostics", 14);
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char text[4096];
        size_t n = tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        out_add(&o, text, n < sizeof text ? n : sizeof text - 1);
    }
    tlv_converter_free(conv);
    return o;
}

/* The first line where a and b differ, for the failure message. */
static void report_difference(const char *what, const char *a, const char *b)
{
    size_t line = 1, i = 0;
    while (a[i] && a[i] == b[i]) {
        if (a[i] == '\n')
            line++;
        i++;
    }
    const char *la = a + i, *lb = b + i;
    while (la > a && la[-1] != '\n')
        la--;
    while (lb > b && lb[-1] != '\n')
        lb--;
    fprintf(stderr, "%s: fast and general paths differ at output line %zu:\n  fast:    %.*s\n"
                    "  general: %.*s\n",
            what, line, (int)strcspn(la, "\n"), la, (int)strcspn(lb, "\n"), lb);
    check_failures++;
}

/* Converts both ways and compares; returns the number of output lines. */
static size_t agree(const char *what, const tlv_rules *rules, const char *data, size_t len)
{
    output fast = convert(rules, data, len, 1), slow = convert(rules, data, len, 0);
    size_t lines = 0;
    for (size_t i = 0; i < fast.len; i++)
        lines += fast.text[i] == '\n';
    if (strcmp(fast.text, slow.text) != 0)
        report_difference(what, fast.text, slow.text);
    free(fast.text);
    free(slow.text);
    return lines;
}

/* ---- 2. synthetic differential --------------------------------------------------------- */

static const char fp_resh[] =
    "{\"hdr\": {\n"
    "  \"Task\": {\"Attributes\": {\"state\": {\"VariableType\": \"String\", \"Default\": \"DORMANT\"},\n"
    "                              \"id\": {\"VariableType\": \"Number\"}},\n"
    "           \"Behaviors\": {\"log\": {\"Arguments\": {\"a\": \"String\", \"b\": \"String\"}}}},\n"
    "  \"Ctx\": {\"Attributes\": {\"name\": {\"VariableType\": \"String\"}}}\n"
    "}}\n";

#define T "\\\\[(?<t>\\\\d+)\\\\] "

static const char fp_cnv[] =
    "{\"fp\": {\n"
    "  \"^" T "run (?<id>\\\\S+) (?<s>\\\\S+)$\": [\n"
    "    {\"$ATTR{Task(id==${id}).state}==DORMANT && ${s}==RUNNING\": "
    "\"[${t}]$RES_NAME{Task(id==${id})}.log(start,$COUNT{Task(state==RUNNING)})\",\n"
    "     \"$EXIST{Task(state==${s})}\": \"[${t}]Ctx1.name=$RES_NAME{Task(state==${s})}\"},\n"
    "    \"[${t}]$RES_NAME{Task(id==${id})}.state=${s}\",\n"
    "    \"[${t}]Ctx1.name=$ATTR{$RES_NAME{Task(id==${id})}.state}\"\n"
    "  ],\n"
    "  \"^" T "sum (?<a>\\\\S+) (?<b>\\\\S+)$\": \"[${t}]TASK1.log($SUM{${a},${b}},{${a}})\",\n"
    "  \"^" T "brace (?<a>\\\\S+) (?<b>\\\\S+)$\": \"[${t}]TASK1.log($SUM{${a},{${b}}},x)\",\n"
    "  \"^" T "dollar$\": \"[${t}]TASK1.log($$ATTR{TASK1.state},$$)\",\n"
    "  \"^" T "res (?<b>\\\\S+)$\": \"[${t}]TASK1.log($RES${b}{TASK2},y)\",\n"
    "  \"^" T "esc (?<a>\\\\S+)$\": [\"[${t}]TASK1.log(a\\\\,b,${a})\",\n"
    "    \"[${t}]TASK1.log(1,2,3,4,5,6,7,8,9,${a})\", \"[${t}]TASK1.log(1,2,3,4,5,6,7,8,9,${a})\"],\n"
    "  \"^" T "cc (?<v>\\\\S+) (?<w>\\\\S+)$\": {\"${v}==${w}\": \"[${t}]TASK1.log(eq,${v})\",\n"
    "                                        \"${v}!=${w}\": \"[${t}]TASK1.log(ne,${v})\"},\n"
    "  \"(?<w>zz)\": \"<$COUNT{Task}>\",\n"
    /* log text with separators, braces and macros in it, kept as one argument */
    "  \"^" T "lit (?<a>.+)$\": \"[${t}]TASK1.log(${a:esc},$ATTR{TASK1.state})\",\n"
    /* a guard (a choice of one branch: its templates are expanded ahead,
     * rawmatch.c), text after the match, an optional group, two macros */
    "  \"^" T "guard (?<id>\\\\d+)( (?<o>\\\\w+))?\": {\"$EXIST{Task(id==${id})}\": "
    "\"[${t}]$RES_NAME{Task(id==${id})}.log(${o},$COUNT{Task(state==RUNNING)})\"}\n"
    "}}\n";

static const char fp_res[] =
    "{\"ResourceHeaders\": [\"hdr\"], \"ConvertRules\": [\"fp\"],\n"
    " \"Resources\": {\n"
    "   \"TASK1\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 1}},\n"
    "   \"TASK2\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 2}},\n"
    "   \"TASK3\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 3}},\n"
    "   \"Ctx1\": {\"Type\": \"Ctx\"}\n"
    " }}\n";

static const char fp_log[] =
    "[1] run 1 RUNNING\n"
    "[2] run 2 RUNNING\n"
    "[3] run 1 DORMANT\n"
    "[4] run 1 RUNNING\n"
    "[5] run 9 RUNNING\n"           /* no Task(id==9): a macro error */
    "[6] run 0x2 WAITING\n"         /* no such id either */
    "[7] run 2.0 DORMANT\n"         /* 2.0 == 2 as numbers */
    "[8] run 3 RUN$NING\n"          /* '$' in the line: the general path only */
    "[9] run 3 {RUNNING}\n"
    "[10] sum 1 2\n"
    "[11] sum 1.5 -2\n"
    "[12] sum x 2\n"                /* $SUM of a non-number */
    "[13] brace 1 2\n"              /* '{2}' is no number either */
    "[14] dollar\n"
    "[15] res _NAME\n"              /* $RES_NAME{TASK2} through a group */
    "[16] res _COLOR\n"
    "[16] esc x\n"
    "[16] esc x\n"                  /* the same event texts again */
    "[17] zz zz\n"                  /* two matches on one line */
    "[18] zz\n"
    "[20] guard 1\n"
    "[21] guard 2 a\n"
    "[22] guard 9 b\n"             /* the guard fails */
    "[23] guard 3 c tail\n"        /* the tail is kept: not an event */
    "[24] lit a,b(c)[d]\\e\n"
    "[25] lit $ATTR{TASK2.state} {x} }\n"; /* macros of the log are text */

static void test_synthetic(void)
{
    char rdir[PATH_MAX + 16], res[PATH_MAX + 16];
    snprintf(rdir, sizeof rdir, "%s/rules", tmpdir);
    mkdir(rdir, 0700);
    write_file("rules/hdr.resh", fp_resh);
    write_file("rules/fp.cnv", fp_cnv);
    write_file("fp.res", fp_res);
    snprintf(res, sizeof res, "%s/fp.res", tmpdir);
    tlv_rules *rules = load(res, rdir);
    if (!rules)
        return;
    /* line by line too, so each line's state starts from the previous one */
    size_t lines = agree("synthetic log", rules, fp_log, strlen(fp_log));
    CHECK(lines > 30); /* events and diagnostics were produced at all */
    output o = convert(rules, fp_log, strlen(fp_log), 1);
    CHECK(strstr(o.text, "[1]TASK1.log(start,0)\n[1]TASK1.state=RUNNING\n[1]Ctx1.name=RUNNING\n"
                         "[2]TASK2.log(start,1)\n[2]Ctx1.name=TASK1\n") != NULL);
    CHECK(strstr(o.text, "[10]TASK1.log(3,{1})\n[11]TASK1.log(-0.5,{1.5})\n") != NULL);
    CHECK(strstr(o.text, "[14]TASK1.log(RUNNING,$)\n") != NULL); /* "$$ATTR{..}" expands */
    CHECK(strstr(o.text, "\n[20]TASK1.log(,1)\n[21]TASK2.log(a,1)\n[24]TASK1") != NULL);
    /* ${a:esc}: one argument whatever the log holds, and the log's macros are text */
    CHECK(strstr(o.text, "\n[24]TASK1.log(a\\,b\\(c\\)[d]\\\\e,RUNNING)\n"
                         "[25]TASK1.log($ATTR{TASK2.state} {x} },RUNNING)\n-- diagnostics\n") != NULL);
    CHECK(strstr(o.text, "line 24: error: rule \"^\\[(?<t>\\d+)\\] guard (?<id>\\d+)( (?<o>\\w+))?\": "
                         "condition \"True tail\" (from \"$EXIST{Task(id==${id})}\"): expected an "
                         "operator such as '==' after 'True tail'") != NULL); /* the tail trap */
    CHECK(strstr(o.text, "[15]TASK1.log(TASK2,y)\n[16]TASK1.log(ff7f0e,y)\n") != NULL);
    CHECK(strstr(o.text, "[16]TASK1.log(a\\,b,x)\n[16]TASK1.log(1,2,3,4,5,6,7,8,9,x)\n"
                         "[16]TASK1.log(1,2,3,4,5,6,7,8,9,x)\n[16]TASK1.log(a\\,b,x)\n") != NULL);
    CHECK(strstr(o.text, "line 13: error: rule \"^\\[(?<t>\\d+)\\] brace (?<a>\\S+) (?<b>\\S+)$\": "
                         "$SUM{1,{2}}: '{2}' is not a decimal number") != NULL);
    free(o.text);
    tlv_rules_free(rules);
}

/* More distinct conditions than the converter's condition cache holds
 * (4096), so it starts over several times while earlier texts come back:
 * every line still gets the event its condition says (a condition
 * remembered from before a clear would be freed memory: ASan would say). */
static void test_condition_cache_turnover(void)
{
    char res[PATH_MAX + 16], rdir[PATH_MAX + 16];
    snprintf(rdir, sizeof rdir, "%s/rules", tmpdir);
    snprintf(res, sizeof res, "%s/fp.res", tmpdir);
    tlv_rules *rules = load(res, rdir);
    if (!rules)
        return;
    size_t cap = 1 << 20, len = 0, elen = 0;
    char *log = malloc(cap), *expected = malloc(cap);
    for (int i = 0; i < 12000; i++) {
        /* every other line repeats one of ten texts, across the clears */
        int v = i % 2 ? i : (i / 2) % 10, eq = (i / 2) % 3 != 0;
        len += (size_t)snprintf(log + len, cap - len, "[%d] cc %d %d\n", i, v, eq ? v : v + 1);
        elen += (size_t)snprintf(expected + elen, cap - elen, "[%d]TASK1.log(%s,%d)\n", i,
                                 eq ? "eq" : "ne", v);
    }
    output o = convert(rules, log, len, 1);
    CHECK(strncmp(o.text, expected, elen) == 0);
    CHECK(strcmp(o.text + elen, "-- diagnostics\n") == 0);
    free(o.text);
    free(log);
    free(expected);
    tlv_rules_free(rules);
}

/* ---- 3. the corpus ------------------------------------------------------------------------ */

static void corpus_log(const char *res, const char *log, const char *rules_dir, void *user)
{
    size_t len;
    char *data = read_all(log, &len);
    tlv_rules *rules = data ? load(res, rules_dir) : NULL;
    if (rules) {
        agree(log, rules, data, len);
        ++*(size_t *)user;
    }
    tlv_rules_free(rules);
    free(data);
}

/* Each LOG.res of corpus/logs/SUBDIR/ with its log. */
static int test_corpus(void)
{
    size_t compared = 0;
    if (corpus_each_log(corpus_log, &compared) < 0)
        return 0;
    CHECK(compared >= 10);
    return 1;
}

int main(void)
{
    make_tmpdir("fastpath");
    test_which_templates_compile();
    test_synthetic();
    test_condition_cache_turnover();
    if (!test_corpus())
        printf("corpus not found: corpus comparison skipped\n");
    remove_tree(tmpdir);
    return CHECK_DONE();
}
