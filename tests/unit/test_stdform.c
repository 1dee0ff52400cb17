/*
 * test_stdform.c — the standard-form line (libtlv/src/stdform.c): parsing
 * the spec's examples and the edge cases around them (whitespace, escapes,
 * nested parentheses, escaped brackets), every error with its column,
 * resource references, and the writer, checked by parsing what it writes.
 */
#include "check.h"

#include "lang/stdform.h"

#include <string.h>

#define SCALE10 1000000000000000000ull

static buf scratch = BUF_INIT;

/* Parses a line that must parse; the result points into `text`/scratch. */
static int parse(const char *text, int radix, std_line *out)
{
    const char *why = NULL;
    size_t col = 0;
    if (std_parse_line(text, strlen(text), radix, out, &scratch, &why, &col) != 0) {
        fprintf(stderr, "parse of \"%s\" failed at column %zu: %s\n", text, col,
                why ? why : "(null)");
        check_failures++;
        return -1;
    }
    return 0;
}

#define CHECK_ERROR(text, radix, why_, col_)                                   \
    do {                                                                       \
        std_line l_;                                                           \
        const char *w_ = NULL;                                                 \
        size_t c_ = 0;                                                         \
        CHECK_INT(std_parse_line((text), strlen(text), (radix), &l_, &scratch, &w_, &c_), -1); \
        CHECK_STR(w_, (why_));                                                 \
        CHECK_INT(c_, (col_));                                                 \
    } while (0)

#define CHECK_S(str, expected) CHECK_MEM((str).s, (str).n, (expected))

static void test_spec_examples(void)
{
    std_line l;
    if (parse("[1926099]LOGTASK.state=RUNNING", 10, &l) == 0) {
        CHECK_INT(l.time.ticks, 1926099);
        CHECK(l.time.frac == 0);
        CHECK_S(l.time_text, "1926099");
        CHECK_S(l.resource, "LOGTASK");
        CHECK_INT(l.has_cond, 0);
        CHECK_INT(l.is_behavior, 0);
        CHECK_S(l.name, "state");
        CHECK_S(l.value, "RUNNING");
        CHECK_INT(l.nargs, 0);
    }
    if (parse("[1946926]MAIN_TASK.enterSVC(act_tsk,tskid=2.)", 10, &l) == 0) {
        CHECK_INT(l.time.ticks, 1946926);
        CHECK_S(l.resource, "MAIN_TASK");
        CHECK_INT(l.is_behavior, 1);
        CHECK_S(l.name, "enterSVC");
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "act_tsk");
        CHECK_S(l.args[1], "tskid=2.");
    }
    if (parse("[4496802]Task(state==RUNNING).state=READY", 10, &l) == 0) {
        CHECK_INT(l.time.ticks, 4496802);
        CHECK_S(l.resource, "Task");
        CHECK_INT(l.has_cond, 1);
        CHECK_S(l.cond, "state==RUNNING");
        CHECK_S(l.name, "state");
        CHECK_S(l.value, "READY");
    }
    if (parse("[1949367]TASK1.enterSVC(ena_tex,)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "ena_tex");
        CHECK_S(l.args[1], "");
    }
    if (parse("[1945398]LOGTASK.wait()", 10, &l) == 0) {
        CHECK_INT(l.is_behavior, 1);
        CHECK_S(l.name, "wait");
        CHECK_INT(l.nargs, 0);
    }
}

static void test_resources(void)
{
    std_line l;
    if (parse("[1926099]Task(state==RUNNING && prcId==2).preempt()", 10, &l) == 0) {
        CHECK_S(l.resource, "Task");
        CHECK_S(l.cond, "state==RUNNING && prcId==2");
        CHECK_S(l.name, "preempt");
    }
    /* Dots and nested parentheses belong to the condition. */
    if (parse("[1]Task((a==1.5 || b==2) && !(c==x.y)).state=READY", 10, &l) == 0) {
        CHECK_S(l.cond, "(a==1.5 || b==2) && !(c==x.y)");
        CHECK_S(l.name, "state");
    }
    if (parse("[1]Task().x=1", 10, &l) == 0) {
        CHECK_INT(l.has_cond, 1);
        CHECK_S(l.cond, "");
    }
    /* Names are anything but ( ) . [ ] and whitespace. */
    if (parse("[1]CurrentContext_PRC1.name=タスク1", 10, &l) == 0) {
        CHECK_S(l.resource, "CurrentContext_PRC1");
        CHECK_S(l.value, "タスク1");
    }
    if (parse("[1]a=b{c}$.x=1", 10, &l) == 0)
        CHECK_S(l.resource, "a=b{c}$");
}

static void test_whitespace(void)
{
    std_line l;
    if (parse("[5]TASK1.prcId = 2", 10, &l) == 0) {
        CHECK_S(l.name, "prcId");
        CHECK_S(l.value, "2");
    }
    if (parse("[5]APPLOG.str=  hello   world \t", 10, &l) == 0)
        CHECK_S(l.value, "hello   world");
    if (parse("  \t[5] X . f ( a b , c ) \r", 10, &l) == 0) {
        CHECK_S(l.resource, "X");
        CHECK_S(l.name, "f");
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "a b");
        CHECK_S(l.args[1], "c");
    }
    if (parse("[ 7 ]X.a=", 10, &l) == 0) {
        CHECK_INT(l.time.ticks, 7);
        CHECK_S(l.time_text, "7");
        CHECK_S(l.value, "");
    }
    if (parse("[5]X.f( )", 10, &l) == 0)
        CHECK_INT(l.nargs, 0);
    if (parse("[5]X.f(,)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "");
        CHECK_S(l.args[1], "");
    }
}

static void test_escapes(void)
{
    std_line l;
    if (parse("[1]X.f(a\\,b,c\\(d\\),e\\\\)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 3);
        CHECK_S(l.args[0], "a,b");
        CHECK_S(l.args[1], "c(d)");
        CHECK_S(l.args[2], "e\\");
    }
    if (parse("[1]X.a=\\[x\\]\\{y\\}\\\\z\\=", 10, &l) == 0)
        CHECK_S(l.value, "[x]{y}\\z=");
    /* An escaped space is text: trimming keeps it. */
    if (parse("[1]X.a= \\  b \\ ", 10, &l) == 0)
        CHECK_S(l.value, "  b  ");
    if (parse("[1]X.f(\\ )", 10, &l) == 0) {
        CHECK_INT(l.nargs, 1);
        CHECK_S(l.args[0], " ");
    }
    /* Unbalanced parentheses are fine when escaped. */
    if (parse("[1]X.f(\\(,\\))", 10, &l) == 0) {
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "(");
        CHECK_S(l.args[1], ")");
    }
    /* A lone backslash at the very end has nothing to escape and stays. */
    if (parse("[1]X.a=c:\\", 10, &l) == 0)
        CHECK_S(l.value, "c:\\");
    /* Escaped and plain pieces of one line all stay valid at once. */
    if (parse("[1]X.f(p,\\,,q,\\),r)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 5);
        CHECK_S(l.args[0], "p");
        CHECK_S(l.args[1], ",");
        CHECK_S(l.args[2], "q");
        CHECK_S(l.args[3], ")");
        CHECK_S(l.args[4], "r");
    }
}

static void test_nested_args(void)
{
    std_line l;
    if (parse("[1]X.enterSVC(act_tsk(foo,bar),x)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "act_tsk(foo,bar)");
        CHECK_S(l.args[1], "x");
    }
    if (parse("[1]X.f(((a)),(b,(c,d)),e)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 3);
        CHECK_S(l.args[0], "((a))");
        CHECK_S(l.args[1], "(b,(c,d))");
        CHECK_S(l.args[2], "e");
    }
    /* Escapes inside nested parentheses are removed too. */
    if (parse("[1]X.f(g(a\\,b), c)", 10, &l) == 0) {
        CHECK_INT(l.nargs, 2);
        CHECK_S(l.args[0], "g(a,b)");
    }
}

static void test_brackets_and_times(void)
{
    std_line l;
    if (parse("\\[12\\]X.a=1", 10, &l) == 0) {
        CHECK_INT(l.time.ticks, 12);
        CHECK_S(l.time_text, "12");
        CHECK_S(l.resource, "X");
        CHECK_S(l.value, "1");
    }
    if (parse("\\[12]X.a=1", 10, &l) == 0)
        CHECK_INT(l.time.ticks, 12);
    if (parse("[12\\] X.a=1", 10, &l) == 0)
        CHECK_INT(l.time.ticks, 12);
    if (parse("[0]X.a=1", 10, &l) == 0)
        CHECK_INT(l.time.ticks, 0);
    if (parse("[-3.25]X.a=1", 10, &l) == 0) {
        CHECK_INT(l.time.ticks, -4);
        CHECK(l.time.frac == SCALE10 / 4 * 3);
        CHECK_S(l.time_text, "-3.25");
    }
    if (parse("[fF]X.a=1", 16, &l) == 0)
        CHECK_INT(l.time.ticks, 255);
    if (parse("[101]X.a=1", 2, &l) == 0)
        CHECK_INT(l.time.ticks, 5);
    if (parse("[zz]X.a=1", 36, &l) == 0)
        CHECK_INT(l.time.ticks, 1295);
    /* ']' after the time's own does not end it twice. */
    if (parse("[1]X.a=[2]", 10, &l) == 0)
        CHECK_S(l.value, "[2]");
}

static void test_errors(void)
{
    CHECK_ERROR("", 10, "empty line", 1);
    CHECK_ERROR("   \t", 10, "empty line", 1);
    CHECK_ERROR("1926099]LOGTASK.state=RUNNING", 10, "expected '[' at the start of the line", 1);
    CHECK_ERROR("  X.a=1", 10, "expected '[' at the start of the line", 3);
    CHECK_ERROR("[1926099LOGTASK.state=RUNNING", 10, "expected ']' after the time", 30);
    CHECK_ERROR("[19z6]X.a=1", 10, "bad time: invalid digit for the radix", 4);
    CHECK_ERROR("[12:30]X.a=1", 10, "bad time: invalid digit for the radix", 4);
    CHECK_ERROR("[1.2.3]X.a=1", 10, "bad time: invalid digit for the radix", 5);
    CHECK_ERROR("[g]X.a=1", 16, "bad time: invalid digit for the radix", 2);
    CHECK_ERROR("[2]X.a=1", 2, "bad time: invalid digit for the radix", 2);
    CHECK_ERROR("[]X.a=1", 10, "bad time: empty time", 2);
    CHECK_ERROR("[-]X.a=1", 10, "bad time: time has no digits", 2);
    CHECK_ERROR("[ 9223372036854775808]X.a=1", 10, "bad time: time does not fit in 64 bits", 3);
    CHECK_ERROR("[0.1234567890123456789]X.a=1", 10, "bad time: too many fraction digits", 2);
    CHECK_ERROR("[1]X.a=1", 1, "bad time: radix must be between 2 and 36", 2);
    CHECK_ERROR("[1].a=1", 10, "expected a resource name", 4);
    CHECK_ERROR("[1]", 10, "expected a resource name", 4);
    CHECK_ERROR("[1]LOGTASK", 10, "expected '.' between resource and attribute", 11);
    CHECK_ERROR("[1]LOGTASK state=X", 10, "expected '.' between resource and attribute", 11);
    CHECK_ERROR("[1]Task(a==1)state=X", 10, "expected '.' between resource and attribute", 14);
    CHECK_ERROR("[1]Task(a==(1).state=X", 10, "unbalanced parentheses in the resource condition", 8);
    CHECK_ERROR("[1]X.=1", 10, "expected an attribute or behavior name", 6);
    CHECK_ERROR("[1]X.", 10, "expected an attribute or behavior name", 6);
    CHECK_ERROR("[1]X.state", 10, "expected '=' or '(' after the name", 11);
    CHECK_ERROR("[1]X.state RUNNING", 10, "expected '=' or '(' after the name", 12);
    CHECK_ERROR("[1]X.a.b=1", 10, "expected '=' or '(' after the name", 7);
    CHECK_ERROR("[1]X.f(a,b", 10, "unbalanced parentheses in arguments", 7);
    CHECK_ERROR("[1]X.f(g(a,b)", 10, "unbalanced parentheses in arguments", 7);
    CHECK_ERROR("[1]X.f(a\\)", 10, "unbalanced parentheses in arguments", 7);
    CHECK_ERROR("[1]X.f(a\\", 10, "unbalanced parentheses in arguments", 7);
    CHECK_ERROR("[1]X.f(a))", 10, "unbalanced parentheses in arguments", 10);
    CHECK_ERROR("[1]X.f(a) junk", 10, "unexpected text after ')'", 11);
    CHECK_ERROR("[1]X.f(a).g()", 10, "unexpected text after ')'", 10);
}

static void test_max_args(void)
{
    buf line = BUF_INIT;
    buf_puts(&line, "[1]X.f(");
    for (int i = 0; i < STD_MAX_ARGS; i++)
        buf_printf(&line, "%s%d", i ? "," : "", i);
    buf_puts(&line, ")");
    std_line l;
    if (parse(buf_str(&line), 10, &l) == 0) {
        CHECK_INT(l.nargs, STD_MAX_ARGS);
        CHECK_S(l.args[STD_MAX_ARGS - 1], "63");
    }
    /* One more: the column points at the argument that does not fit. */
    line.len--;
    size_t extra_col = line.len + 2;
    buf_puts(&line, ",64)");
    CHECK_ERROR(buf_str(&line), 10, "too many arguments", extra_col);
    buf_free(&line);
}

/* A long line with many escapes parses in one pass and keeps every piece. */
static void test_long_escaped_line(void)
{
    buf line = BUF_INIT;
    buf_puts(&line, "[1]X.a=");
    for (int i = 0; i < 100000; i++)
        buf_puts(&line, "\\,x");
    std_line l;
    if (parse(buf_str(&line), 10, &l) == 0) {
        CHECK_INT(l.value.n, 200000);
        CHECK(l.value.s[0] == ',' && l.value.s[1] == 'x' && l.value.s[199998] == ',');
    }
    buf_free(&line);
}

static void test_resource_refs(void)
{
    int has_time = -1, has_cond = -1;
    tlv_time t = {99, 99};
    std_str res, cond, rest;
    const char *why = NULL;

#define REF(text)                                                              \
    std_parse_resource_ref((text), strlen(text), 10, &has_time, &t, &res, &has_cond, \
                           &cond, &rest, &why)

    CHECK_INT(REF("[123]Task(state==RUNNING)"), 0);
    CHECK_INT(has_time, 1);
    CHECK_INT(t.ticks, 123);
    CHECK_S(res, "Task");
    CHECK_INT(has_cond, 1);
    CHECK_S(cond, "state==RUNNING");
    CHECK_S(rest, "");

    CHECK_INT(REF("Task(id==2).state"), 0);
    CHECK_INT(has_time, 0);
    CHECK_S(res, "Task");
    CHECK_S(cond, "id==2");
    CHECK_S(rest, ".state");

    CHECK_INT(REF("LOGTASK"), 0);
    CHECK_INT(has_time, 0);
    CHECK_INT(has_cond, 0);
    CHECK_S(res, "LOGTASK");
    CHECK_S(rest, "");

    CHECK_INT(REF("CurrentContext.name"), 0);
    CHECK_S(res, "CurrentContext");
    CHECK_INT(has_cond, 0);
    CHECK_S(rest, ".name");

    CHECK_INT(REF("[1926099]Task(state==RUNNING && prcId==1)"), 0);
    CHECK_INT(t.ticks, 1926099);
    CHECK_S(cond, "state==RUNNING && prcId==1");

    CHECK_INT(REF("[7]Task((a==1) || b==2).state"), 0);
    CHECK_S(cond, "(a==1) || b==2");
    CHECK_S(rest, ".state");

    CHECK_INT(REF("\\[8\\]X.a"), 0);
    CHECK_INT(t.ticks, 8);
    CHECK_S(res, "X");

    CHECK_INT(REF(""), -1);
    CHECK_STR(why, "expected a resource name");
    CHECK_INT(REF("[12]"), -1);
    CHECK_STR(why, "expected a resource name");
    CHECK_INT(REF("[x]Task"), -1);
    CHECK_STR(why, "bad time: invalid digit for the radix");
    CHECK_INT(REF("[]Task"), -1);
    CHECK_STR(why, "bad time: empty time");
    CHECK_INT(REF("[12Task"), -1);
    CHECK_STR(why, "expected ']' after the time");
    CHECK_INT(REF("Task(id==2"), -1);
    CHECK_STR(why, "unbalanced parentheses in the resource condition");
#undef REF

    /* The outputs other than `why` may be left out. */
    CHECK_INT(std_parse_resource_ref("X.a", 3, 10, NULL, NULL, &res, NULL, NULL, NULL, NULL), 0);
    CHECK_S(res, "X");
}

static void test_escape(void)
{
    buf b = BUF_INIT;
    CHECK_INT(std_escape(&b, "a,b(c)d\\e", 9), 0);
    CHECK_STR(buf_str(&b), "a\\,b\\(c\\)d\\\\e");
    buf_clear(&b);
    CHECK_INT(std_escape(&b, ",,", 2), 0);
    CHECK_STR(buf_str(&b), "\\,\\,");
    buf_clear(&b);
    CHECK_INT(std_escape(&b, "plain [x] {y} = text", 20), 0);
    CHECK_STR(buf_str(&b), "plain [x] {y} = text");
    buf_clear(&b);
    CHECK_INT(std_escape(&b, "", 0), 0);
    CHECK_STR(buf_str(&b), "");
    /* It appends; the length bounds what is read. */
    buf_puts(&b, "x=");
    CHECK_INT(std_escape(&b, "(1)zzz", 3), 0);
    CHECK_STR(buf_str(&b), "x=\\(1\\)");
    buf_free(&b);
}

static void test_format(void)
{
    buf b = BUF_INIT;
    tlv_time t = {1926099, 0};
    CHECK_INT(std_format_attr(&b, t, 10, "LOGTASK", "state", "RUNNING"), 0);
    CHECK_STR(buf_str(&b), "[1926099]LOGTASK.state=RUNNING");

    buf_clear(&b);
    const char *args[] = {"act_tsk", "tskid=2."};
    tlv_time t2 = {1946926, 0};
    CHECK_INT(std_format_behavior(&b, t2, 10, "MAIN_TASK", "enterSVC", args, 2), 0);
    CHECK_STR(buf_str(&b), "[1946926]MAIN_TASK.enterSVC(act_tsk,tskid=2.)");

    buf_clear(&b);
    CHECK_INT(std_format_behavior(&b, t2, 10, "T", "wait", NULL, 0), 0);
    CHECK_STR(buf_str(&b), "[1946926]T.wait()");

    buf_clear(&b);
    tlv_time t3 = {-2, SCALE10 / 2};
    CHECK_INT(std_format_attr(&b, t3, 10, "X", "a", "f(a,b)\\"), 0);
    CHECK_STR(buf_str(&b), "[-1.5]X.a=f\\(a\\,b\\)\\\\");

    buf_clear(&b);
    tlv_time t4 = {255, 0};
    const char *args2[] = {"", "(", "a,b"};
    CHECK_INT(std_format_behavior(&b, t4, 16, "X", "f", args2, 3), 0);
    CHECK_STR(buf_str(&b), "[ff]X.f(,\\(,a\\,b)");

    /* Appends to what is there. */
    buf_clear(&b);
    buf_puts(&b, "first\n");
    CHECK_INT(std_format_attr(&b, t, 10, "A", "b", "c"), 0);
    CHECK_STR(buf_str(&b), "first\n[1926099]A.b=c");
    buf_free(&b);
}

/* Values that only survive because of escaping come back unchanged. */
static void test_round_trip(void)
{
    static const char *const tricky[] = {
        "hello world", "a,b", "(", ")", "((", "))(", "f(x,y)", "\\", "\\\\", "a\\,b",
        "tail\\", "=", "a=b", "[x]", "]", "{y}", "${time}", "é, ü (ß)", "1.5", "",
        "in  ner", ",", ",,", "x)(y",
    };
    size_t n = sizeof tricky / sizeof tricky[0];
    buf b = BUF_INIT;
    tlv_time t = {-7, 3};
    for (size_t i = 0; i < n; i++) {
        std_line l;
        buf_clear(&b);
        CHECK_INT(std_format_attr(&b, t, 10, "Task(state==RUNNING && id==1)", "v", tricky[i]), 0);
        if (parse(buf_str(&b), 10, &l) == 0) {
            CHECK_S(l.value, tricky[i]);
            CHECK_S(l.resource, "Task");
            CHECK_S(l.cond, "state==RUNNING && id==1");
            CHECK_INT(tlv_time_cmp(l.time, t), 0);
        }
    }
    /* All of them as the arguments of one behavior. */
    buf_clear(&b);
    CHECK_INT(std_format_behavior(&b, t, 36, "R", "beh", tricky, n), 0);
    std_line l;
    if (parse(buf_str(&b), 36, &l) == 0) {
        CHECK_INT(l.nargs, n);
        for (size_t i = 0; i < n && i < l.nargs; i++)
            CHECK_S(l.args[i], tricky[i]);
        CHECK_INT(tlv_time_cmp(l.time, t), 0);
    }
    buf_free(&b);
}

/* The scratch buffer is cleared per line and holds only unescaped text. */
static void test_scratch_reuse(void)
{
    std_line l;
    if (parse("[1]X.a=\\(", 10, &l) == 0)
        CHECK_S(l.value, "(");
    CHECK_INT(scratch.len, 1);
    if (parse("[1]X.a=plain", 10, &l) == 0)
        CHECK_S(l.value, "plain");
    CHECK_INT(scratch.len, 0);
}

int main(void)
{
    test_spec_examples();
    test_resources();
    test_whitespace();
    test_escapes();
    test_nested_args();
    test_brackets_and_times();
    test_errors();
    test_max_args();
    test_long_escaped_line();
    test_resource_refs();
    test_escape();
    test_format();
    test_round_trip();
    test_scratch_reuse();
    buf_free(&scratch);
    return CHECK_DONE();
}
