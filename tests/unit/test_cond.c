/*
 * test_cond.c — condition expressions: grammar and precedence, value
 * comparison, lookup of operands through a fake attribute table, exact error
 * messages from both entry points, and inputs built to exhaust the stack.
 */
#include "check.h"
#include "lang/cond.h"

#include <stdlib.h>
#include <string.h>

/* ---- helpers ------------------------------------------------------------ */

/* Evaluates through both entry points and insists they agree. */
static int eval_both(const char *text)
{
    char err[256] = "";
    int direct = cond_eval_text(text, strlen(text), err, sizeof err);
    cond *c = cond_compile(text, strlen(text), err, sizeof err);
    int compiled = c ? cond_eval(c, NULL, NULL) : -1;
    cond_free(c);
    if (direct != compiled) {
        fprintf(stderr, "'%s': cond_eval_text %d but cond_eval %d\n", text, direct, compiled);
        return -2;
    }
    return direct;
}

/* Checks that both entry points reject `text` with exactly `message`. */
#define CHECK_ERROR(text, message)                                             \
    do {                                                                       \
        char e1_[256] = "", e2_[256] = "";                                     \
        CHECK_INT(cond_eval_text(text, strlen(text), e1_, sizeof e1_), -1);    \
        CHECK_STR(e1_, message);                                               \
        cond *c_ = cond_compile(text, strlen(text), e2_, sizeof e2_);          \
        CHECK(c_ == NULL);                                                     \
        cond_free(c_);                                                         \
        CHECK_STR(e2_, message);                                               \
    } while (0)

static int sign(int v) { return (v > 0) - (v < 0); }

static int cmp(const char *a, const char *b)
{
    return sign(value_compare(a, strlen(a), b, strlen(b)));
}

/* A resource's attributes; records every name it was asked about. */
typedef struct attrs {
    const char *const *pairs; /* name, value, ..., NULL */
    char asked[512];
    int calls;
} attrs;

static int attr_lookup(void *ctx, const char *name, size_t n, const char **val,
                       size_t *vlen)
{
    attrs *a = ctx;
    a->calls++;
    size_t used = strlen(a->asked);
    snprintf(a->asked + used, sizeof a->asked - used, "%s%.*s", used ? "," : "", (int)n, name);
    for (const char *const *p = a->pairs; *p; p += 2) {
        if (strlen(p[0]) == n && memcmp(p[0], name, n) == 0) {
            *val = p[1];
            *vlen = strlen(p[1]);
            return 1;
        }
    }
    return 0;
}

static int eval_with(const char *text, attrs *a)
{
    char err[256] = "";
    cond *c = cond_compile(text, strlen(text), err, sizeof err);
    if (!c) {
        fprintf(stderr, "'%s': %s\n", text, err);
        return -1;
    }
    a->asked[0] = '\0';
    a->calls = 0;
    int r = cond_eval(c, attr_lookup, a);
    cond_free(c);
    return r;
}

static char *repeat(const char *unit, size_t times, const char *tail)
{
    size_t un = strlen(unit), tn = strlen(tail);
    char *s = malloc(un * times + tn + 1);
    if (!s)
        abort();
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * un, unit, un);
    memcpy(s + un * times, tail, tn + 1);
    return s;
}

/* ---- value_compare ------------------------------------------------------- */

static void test_value_compare_numbers(void)
{
    CHECK_INT(cmp("10", "9"), 1);
    CHECK_INT(cmp("9", "10"), -1);
    CHECK_INT(cmp("1.50", "1.5"), 0);
    CHECK_INT(cmp("5.", "5"), 0);
    CHECK_INT(cmp(".5", "0.5"), 0);
    CHECK_INT(cmp("007", "7"), 0);
    CHECK_INT(cmp("-0", "0"), 0);
    CHECK_INT(cmp("+0.0", "-0e5"), 0);
    CHECK_INT(cmp("+3", "3"), 0);
    CHECK_INT(cmp("-2", "-1"), -1);
    CHECK_INT(cmp("-1", "1"), -1);
    CHECK_INT(cmp("-10", "-9"), -1);
    CHECK_INT(cmp("1e3", "1000"), 0);
    CHECK_INT(cmp("1E+3", "999.9"), 1);
    CHECK_INT(cmp("1e-3", "0.001"), 0);
    CHECK_INT(cmp("0.05", "5e-2"), 0);
    CHECK_INT(cmp("10.01", "10.001"), 1);
    CHECK_INT(cmp("100", "1e2"), 0);
    CHECK_INT(cmp("0.1", "0.10000000000000001"), -1); /* exact, not doubles */
    CHECK_INT(cmp("12345678901234567891", "12345678901234567890"), 1);
    CHECK_INT(cmp("9007199254740993", "9007199254740992"), 1);
    CHECK_INT(cmp("1e400", "1e399"), 1);
    CHECK_INT(cmp("-1e400", "1e-400"), -1);
    /* not decimal numbers: compared as bytes */
    CHECK_INT(cmp("0x10", "16"), -1);
    CHECK_INT(cmp("0x10", "0x10"), 0);
    CHECK_INT(cmp("inf", "1"), 1);
    CHECK_INT(cmp("nan", "nan"), 0);
    CHECK_INT(cmp("1e", "1"), 1);
    CHECK_INT(cmp(".", "0"), -1);
    CHECK_INT(cmp("1.5.2", "1.5"), 1);
    CHECK_INT(cmp(" 1", "1"), -1);
    CHECK_INT(cmp("10", "9a"), -1);
}

static void test_value_compare_text(void)
{
    CHECK_INT(cmp("abc", "abd"), -1);
    CHECK_INT(cmp("abd", "abc"), 1);
    CHECK_INT(cmp("abc", "abcd"), -1);
    CHECK_INT(cmp("", ""), 0);
    CHECK_INT(cmp("", "a"), -1);
    CHECK_INT(cmp("RUNNING", "RUNNING"), 0);
    CHECK_INT(cmp("B", "a"), -1);
    CHECK_INT(cmp("\xe7\x8a\xb6", "z"), 1); /* bytes are unsigned */
    CHECK_INT(cmp("True", "true"), 0);
    CHECK_INT(cmp("FALSE", "false"), 0);
    CHECK_INT(cmp("false", "TRUE"), -1);
    CHECK_INT(cmp("True", "False"), 1);
    CHECK_INT(cmp("True", "truex"), -1);
    CHECK_INT(cmp("True", "1"), 1);
    /* unterminated input: only the given bytes count */
    CHECK_INT(sign(value_compare("12345", 2, "12", 2)), 0);
    CHECK_INT(sign(value_compare("1.5xyz", 3, "1.50", 4)), 0);
    CHECK_INT(sign(value_compare("truex", 4, "TRUE", 4)), 0);
    CHECK_INT(sign(value_compare(NULL, 0, "", 0)), 0);
}

/* ---- grammar ------------------------------------------------------------- */

static void test_comparisons(void)
{
    CHECK_INT(eval_both("a==a"), 1);
    CHECK_INT(eval_both("a==b"), 0);
    CHECK_INT(eval_both("a!=b"), 1);
    CHECK_INT(eval_both("a!=a"), 0);
    CHECK_INT(eval_both("10<9"), 0);
    CHECK_INT(eval_both("9<10"), 1);
    CHECK_INT(eval_both("10>9"), 1);
    CHECK_INT(eval_both("9<=9"), 1);
    CHECK_INT(eval_both("10<=9"), 0);
    CHECK_INT(eval_both("9>=9.0"), 1);
    CHECK_INT(eval_both("8>=9"), 0);
    CHECK_INT(eval_both("abc<abd"), 1);
    CHECK_INT(eval_both("1.50==1.5"), 1);
    CHECK_INT(eval_both("0x10==16"), 0);
    CHECK_INT(eval_both("-1<1"), 1);
    CHECK_INT(eval_both("False==false"), 1);
    CHECK_INT(eval_both("True!=TRUE"), 0);
    CHECK_INT(eval_both("DORMANT==DORMANT && RUNNABLE==RUNNABLE"), 1);
    CHECK_INT(eval_both("WAITING-SUSPENDED==WAITING-SUSPENDED"), 1);
    CHECK_INT(eval_both("WAITING==WAITING-SUSPENDED"), 0);
    CHECK_INT(eval_both("hello world==hello world"), 1);
    CHECK_INT(eval_both("hello world==helloworld"), 0);
    CHECK_INT(eval_both(" a == b "), 0);
    CHECK_INT(eval_both("\ta\t==\ta\t"), 1);
    CHECK_INT(eval_both("\r\n a==a \r\n"), 1);
    CHECK_INT(eval_both("状態==実行中"), 0);
    CHECK_INT(eval_both("状態==状態"), 1);
    /* single '=', '&', '|' are part of words */
    CHECK_INT(eval_both("a=b==a=b"), 1);
    CHECK_INT(eval_both("R&D==R&D"), 1);
    CHECK_INT(eval_both("a|b==a|b"), 1);
}

static void test_empty_operands(void)
{
    CHECK_INT(eval_both("=="), 1);
    CHECK_INT(eval_both(" == "), 1);
    CHECK_INT(eval_both("!="), 0);
    CHECK_INT(eval_both("<"), 0);
    CHECK_INT(eval_both("<="), 1);
    CHECK_INT(eval_both("==RUNNING"), 0);
    CHECK_INT(eval_both("RUNNING=="), 0);
    CHECK_INT(eval_both("!=RUNNING"), 1); /* "!=" at the start is the comparison */
    CHECK_INT(eval_both("==RUNNING || ==x"), 0);
    CHECK_INT(eval_both("== && a==a"), 1);
    CHECK_INT(eval_both("(==)"), 1);
    CHECK_INT(eval_both("!(==)"), 0);
}

static void test_booleans(void)
{
    CHECK_INT(eval_both("true"), 1);
    CHECK_INT(eval_both("True"), 1);
    CHECK_INT(eval_both("TRUE"), 1);
    CHECK_INT(eval_both("false"), 0);
    CHECK_INT(eval_both("False"), 0);
    CHECK_INT(eval_both("  fAlSe  "), 0);
    CHECK_INT(eval_both("!true"), 0);
    CHECK_INT(eval_both("!False"), 1);
    CHECK_INT(eval_both("(True)"), 1);
    CHECK_INT(eval_both("True==true"), 1);
    CHECK_INT(eval_both("True && a==a"), 1);
}

static void test_logic_and_precedence(void)
{
    CHECK_INT(eval_both("true && true"), 1);
    CHECK_INT(eval_both("true && false"), 0);
    CHECK_INT(eval_both("false || true"), 1);
    CHECK_INT(eval_both("false || false"), 0);
    CHECK_INT(eval_both("true || false && false"), 1);
    CHECK_INT(eval_both("(true || false) && false"), 0);
    CHECK_INT(eval_both("false && true || true"), 1);
    CHECK_INT(eval_both("false && (true || true)"), 0);
    CHECK_INT(eval_both("!false && false"), 0);
    CHECK_INT(eval_both("!(false && false)"), 1);
    CHECK_INT(eval_both("!a==b"), 1);
    CHECK_INT(eval_both("!(a==b)"), 1);
    CHECK_INT(eval_both("! (a==a)"), 0);
    CHECK_INT(eval_both("!!a==a"), 1);
    CHECK_INT(eval_both("!!!a==a"), 0);
    CHECK_INT(eval_both("!(a==a) || !(b==b) || c==c"), 1);
    CHECK_INT(eval_both("(a==a || b==c) && !(x!=x)"), 1);
    CHECK_INT(eval_both("(a==b || b==c) && !(x!=x)"), 0);
    CHECK_INT(eval_both("((a==a) && ((b==b) || (c==d))) && !(!(e==e))"), 1);
    CHECK_INT(eval_both("a==b || a==c || a==d || a==a"), 1);
    CHECK_INT(eval_both("a==a && a==a && a==a && a==b"), 0);
    CHECK_INT(eval_both("a==b && x==x || a==a && y==y"), 1);
    CHECK_INT(eval_both("!(a==a && b==b) || !(c==c || d==d)"), 0);
    CHECK_INT(eval_both("state==RUNNING && prcId==2"), 0);
}

/* ---- lookup -------------------------------------------------------------- */

static const char *const task_attrs[] = {
    "state", "RUNNING", "prcId", "2", "name", "hello world", "empty", "",
    "flag", "True", NULL,
};

static void test_lookup(void)
{
    attrs a = {task_attrs, "", 0};

    CHECK_INT(eval_with("state==RUNNING && prcId==2", &a), 1);
    CHECK_STR(a.asked, "state,prcId");

    CHECK_INT(eval_with("state==RUNNING", &a), 1);
    CHECK_STR(a.asked, "state"); /* a variable on the left: right taken literally */
    CHECK_INT(a.calls, 1);

    CHECK_INT(eval_with("RUNNING==state", &a), 1);
    CHECK_STR(a.asked, "RUNNING,state");

    CHECK_INT(eval_with("state==state", &a), 0); /* "RUNNING" vs literal "state" */
    CHECK_STR(a.asked, "state");

    CHECK_INT(eval_with("prcId==2.0", &a), 1);
    CHECK_INT(eval_with("prcId<10", &a), 1);
    CHECK_INT(eval_with("10>prcId", &a), 1);
    CHECK_INT(eval_with("prcId>=3", &a), 0);
    CHECK_INT(eval_with("name==hello world", &a), 1);
    CHECK_INT(eval_with("empty==", &a), 1);
    CHECK_INT(eval_with("==empty", &a), 1);
    CHECK_STR(a.asked, "empty"); /* empty operands are never looked up */
    CHECK_INT(eval_with("flag==true", &a), 1);
    CHECK_INT(eval_with("unknown==unknown", &a), 1);
    CHECK_STR(a.asked, "unknown,unknown");
    CHECK_INT(eval_with("state!=RUNNING", &a), 0);
    CHECK_INT(eval_with("!(state==DORMANT)", &a), 1);

    /* short-circuit: the second term is never evaluated */
    CHECK_INT(eval_with("state==IDLE && prcId==2", &a), 0);
    CHECK_STR(a.asked, "state");
    CHECK_INT(eval_with("state==RUNNING || prcId==2", &a), 1);
    CHECK_STR(a.asked, "state");
    CHECK_INT(eval_with("(state==IDLE && prcId==2) || name==x", &a), 0);
    CHECK_STR(a.asked, "state,name");

    /* booleans never reach lookup */
    CHECK_INT(eval_with("true || state==x", &a), 1);
    CHECK_INT(a.calls, 0);
}

static void test_compile_once_eval_many(void)
{
    static const char *const running2[] = {"state", "RUNNING", "prcId", "2", NULL};
    static const char *const running1[] = {"state", "RUNNING", "prcId", "1", NULL};
    static const char *const ready2[] = {"state", "READY", "prcId", "2", NULL};
    const char *text = "state==RUNNING && prcId==2";
    char err[64] = "";
    cond *c = cond_compile(text, strlen(text), err, sizeof err);
    CHECK(c != NULL);
    attrs a = {running2, "", 0}, b = {running1, "", 0}, r = {ready2, "", 0};
    for (int i = 0; i < 1000 && c; i++) {
        CHECK_INT(cond_eval(c, attr_lookup, &a), 1);
        CHECK_INT(cond_eval(c, attr_lookup, &b), 0);
        CHECK_INT(cond_eval(c, attr_lookup, &r), 0);
    }
    CHECK_INT(cond_eval(c, NULL, NULL), 0);
    cond_free(c);
    cond_free(NULL);
    CHECK_INT(cond_eval(NULL, NULL, NULL), 0);
}

/* The compiled form must not depend on the caller's text staying alive. */
static void test_compile_copies_text(void)
{
    char text[] = "abc==abc && (x<y)";
    char err[64] = "";
    cond *c = cond_compile(text, strlen(text), err, sizeof err);
    CHECK(c != NULL);
    memset(text, 'Z', strlen(text));
    CHECK_INT(cond_eval(c, NULL, NULL), 1);
    cond_free(c);
}

/* Only `len` bytes belong to the expression. */
static void test_unterminated_input(void)
{
    const char *text = "a==a && b==c";
    char err[64] = "";
    CHECK_INT(cond_eval_text(text, 4, err, sizeof err), 1);
    CHECK_INT(cond_eval_text(text, strlen(text), err, sizeof err), 0);
    CHECK_INT(cond_eval_text("a==b)", 4, err, sizeof err), 0);
    cond *c = cond_compile(text, 4, err, sizeof err);
    CHECK(c != NULL);
    CHECK_INT(cond_eval(c, NULL, NULL), 1);
    cond_free(c);
    CHECK_INT(cond_eval_text(NULL, 0, err, sizeof err), -1);
    CHECK_STR(err, "empty expression");
}

/* ---- errors -------------------------------------------------------------- */

static void test_errors(void)
{
    CHECK_ERROR("", "empty expression");
    CHECK_ERROR("  \t ", "empty expression");
    CHECK_ERROR("(a==b", "missing ')'");
    CHECK_ERROR("((a==b)", "missing ')'");
    CHECK_ERROR("a==b)", "unexpected ')' at column 5");
    CHECK_ERROR("(a==b) && c==d)", "unexpected ')' at column 15");
    CHECK_ERROR(")", "unexpected ')' at column 1");
    CHECK_ERROR("a==b &&", "expected an operand after '&&'");
    CHECK_ERROR("a==b && ", "expected an operand after '&&'");
    CHECK_ERROR("a==b || ", "expected an operand after '||'");
    CHECK_ERROR("a==b && && c==d", "expected an operand after '&&'");
    CHECK_ERROR("(a==b &&)", "expected an operand after '&&'");
    CHECK_ERROR("!", "expected an operand after '!'");
    CHECK_ERROR("a==a && !", "expected an operand after '!'");
    CHECK_ERROR("()", "expected an operand after '('");
    CHECK_ERROR("(", "expected an operand after '('");
    CHECK_ERROR("&& a==b", "unexpected '&&' at column 1");
    CHECK_ERROR("  || a==b", "unexpected '||' at column 3");
    CHECK_ERROR("state", "expected an operator such as '==' after 'state'");
    CHECK_ERROR("state && prcId==2", "expected an operator such as '==' after 'state'");
    CHECK_ERROR("prcId==2 && state", "expected an operator such as '==' after 'state'");
    CHECK_ERROR("(state)", "expected an operator such as '==' after 'state'");
    CHECK_ERROR("xyz", "expected an operator such as '==' after 'xyz'");
    CHECK_ERROR("true false", "expected an operator such as '==' after 'true false'");
    CHECK_ERROR("a = b", "expected an operator such as '==' after 'a = b'");
    CHECK_ERROR("a!b==c", "expected an operator such as '==' after 'a'");
    CHECK_ERROR("a==f(x)", "unexpected '(' at column 5");
    CHECK_ERROR("f(x)==1", "unexpected '(' at column 2");
    CHECK_ERROR("a==(b)", "unexpected '(' at column 4");
    CHECK_ERROR("true (a==a)", "unexpected '(' at column 6");
    CHECK_ERROR("a==b==c", "unexpected '==' at column 5");
    CHECK_ERROR("a<b<=c", "unexpected '<=' at column 4");
    CHECK_ERROR("a==b c==d", "unexpected '==' at column 7");
    CHECK_ERROR("a==b!c", "unexpected '!' at column 5");
    CHECK_ERROR("(a==b) c", "unexpected 'c' at column 8");
    CHECK_ERROR("(a==b) (c==d)", "unexpected '(' at column 8");
    CHECK_ERROR("(a==b c", "missing ')'"); /* 'b c' is one operand */
    CHECK_ERROR("(true)==x", "unexpected '==' at column 7");
    CHECK_ERROR("状態==実行)", "unexpected ')' at column 7"); /* columns count characters */
}

static void test_long_words_are_cut_in_messages(void)
{
    char *word = repeat("x", 100, "");
    char expected[256];
    snprintf(expected, sizeof expected, "expected an operator such as '==' after '%.60s...'", word);
    CHECK_ERROR(word, expected);
    free(word);

    /* the cut never splits a UTF-8 character (3 bytes each here) */
    char *japanese = repeat("状", 30, "");
    snprintf(expected, sizeof expected, "expected an operator such as '==' after '%.60s...'",
             japanese);
    CHECK_ERROR(japanese, expected);
    free(japanese);
}

static void test_error_buffer_handling(void)
{
    char small[8];
    memset(small, '#', sizeof small);
    CHECK_INT(cond_eval_text("", 0, small, sizeof small), -1);
    CHECK_STR(small, "empty e");
    CHECK_INT(cond_eval_text("(", 1, NULL, 0), -1);
    CHECK(cond_compile("(", 1, NULL, 0) == NULL);
    char untouched[4] = "abc";
    CHECK_INT(cond_eval_text(")", 1, untouched, 0), -1);
    CHECK_STR(untouched, "abc");
}

/* ---- stress -------------------------------------------------------------- */

static void test_nesting_limit(void)
{
    char *deepest = repeat("(", COND_MAX_DEPTH, "a==a");
    char *closed = repeat(")", COND_MAX_DEPTH, "");
    char *ok = malloc(strlen(deepest) + strlen(closed) + 1);
    if (!ok)
        abort();
    strcpy(ok, deepest);
    strcat(ok, closed);
    CHECK_INT(eval_both(ok), 1);
    free(ok);
    free(deepest);
    free(closed);

    char *too_deep = repeat("(", COND_MAX_DEPTH + 1, "a==a");
    CHECK_ERROR(too_deep, "expression nested too deeply");
    free(too_deep);

    char *huge = repeat("(", 100000, "");
    CHECK_ERROR(huge, "expression nested too deeply");
    free(huge);

    /* sibling groups do not add up */
    char *siblings = repeat("(a==a) && ", 1000, "(b==b)");
    CHECK_INT(eval_both(siblings), 1);
    free(siblings);
}

static void test_huge_inputs_do_not_recurse(void)
{
    char *nots = repeat("!", 100000, "true");
    CHECK_INT(eval_both(nots), 1);
    free(nots);
    nots = repeat("!", 100001, "true");
    CHECK_INT(eval_both(nots), 0);
    free(nots);

    char *ands = repeat("a==a && ", 100000, "b==b");
    CHECK_INT(eval_both(ands), 1);
    free(ands);
    ands = repeat("a==a && ", 100000, "b==c");
    CHECK_INT(eval_both(ands), 0);
    free(ands);

    char *ors = repeat("a==b || ", 100000, "c==c");
    CHECK_INT(eval_both(ors), 1);
    free(ors);

    char *closers = repeat(")", 100000, "");
    CHECK_ERROR(closers, "unexpected ')' at column 1");
    free(closers);

    char *mixed = repeat("a==b || c==c && ", 50000, "!(d==d)");
    CHECK_INT(eval_both(mixed), 0);
    free(mixed);
}

int main(void)
{
    test_value_compare_numbers();
    test_value_compare_text();
    test_comparisons();
    test_empty_operands();
    test_booleans();
    test_logic_and_precedence();
    test_lookup();
    test_compile_once_eval_many();
    test_compile_copies_text();
    test_unterminated_input();
    test_errors();
    test_long_words_are_cut_in_messages();
    test_error_buffer_handling();
    test_nesting_limit();
    test_huge_inputs_do_not_recurse();
    return CHECK_DONE();
}
