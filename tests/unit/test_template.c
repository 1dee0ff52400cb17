/*
 * test_template.c — conversion templates (libtlv/src/template.c) against
 * .NET Regex.Replace(subject, pattern, template): every substitution form,
 * .NET group numbering (unnamed groups before named ones), references that
 * stay literal, text outside the match, several matches per line, and empty
 * matches (also in UTF-8 text). The expected strings are what .NET returns.
 */
#include "check.h"

#include "rules/rules_impl.h"
#include "compile/template.h"

#include <string.h>

static pcre2_code *compile(const char *pattern)
{
    int errcode;
    PCRE2_SIZE erroff;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, CNV_REGEX_OPTIONS,
                                   &errcode, &erroff, NULL);
    if (!re) {
        fprintf(stderr, "regex \"%s\" does not compile (error %d at %zu)\n", pattern, errcode,
                (size_t)erroff);
        check_failures++;
    }
    return re;
}

/* Regex.Replace(subject, pattern, templ) as libtlv computes it; the result
 * is a static buffer ("<error>" when something failed). `nmatch` gets the
 * number of matches, `unknown` the ${name} references kept literal, joined
 * with ','. */
static char result[1024];
static char unknown[256];
static int nmatch;

static const char *replace(const char *pattern, const char *templ, const char *subject)
{
    strcpy(result, "<error>");
    unknown[0] = '\0';
    nmatch = -1;
    pcre2_code *re = compile(pattern);
    if (!re)
        return result;
    tmpl t;
    if (tmpl_compile(&t, templ, strlen(templ), re) != 0) {
        fprintf(stderr, "tmpl_compile(\"%s\") failed\n", templ);
        check_failures++;
        pcre2_code_free(re);
        return result;
    }
    for (size_t i = 0; i < t.nunknown; i++) {
        if (i)
            strcat(unknown, ",");
        strncat(unknown, t.unknown[i], sizeof unknown - strlen(unknown) - 2);
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    match_list ml = {0};
    buf out = BUF_INIT;
    uint32_t ngroups = 0;
    pcre2_pattern_info(re, PCRE2_INFO_CAPTURECOUNT, &ngroups);
    nmatch = tmpl_find_matches(re, ngroups, md, subject, strlen(subject), &ml, NULL, 0, NULL);
    if (nmatch >= 0 && tmpl_expand(&t, subject, strlen(subject), &ml, &out) == 0) {
        if (out.len < sizeof result)
            memcpy(result, buf_str(&out), out.len + 1);
    }
    buf_free(&out);
    match_list_free(&ml);
    pcre2_match_data_free(md);
    tmpl_free(&t);
    pcre2_code_free(re);
    return result;
}

static void test_named_and_numbered(void)
{
    CHECK_STR(replace("\\[(?<time>\\d+)\\] task (?<id>\\d+) becomes (?<state>\\w+)\\.",
                      "[${time}]Task${id}.state=${state}", "[120] task 3 becomes RUNNING."),
              "[120]Task3.state=RUNNING");
    CHECK_STR(unknown, "");
    CHECK_INT(nmatch, 1);
    /* plain numbering */
    CHECK_STR(replace("(a)(b)(c)", "$3$2$1", "abc"), "cba");
    CHECK_STR(replace("(a)(b)(c)", "${3}-${1}", "abc"), "c-a");
    /* .NET numbering: unnamed groups first, then named ones */
    CHECK_STR(replace("(?<a>x)(y)", "$1", "xy"), "y");
    CHECK_STR(replace("(?<a>x)(y)", "$2", "xy"), "x");
    CHECK_STR(replace("(?<a>x)(y)", "${2}|${1}|${a}", "xy"), "x|y|x");
    CHECK_STR(replace("(?<b>1)(2)(?<c>3)(4)", "$1$2$3$4", "1234"), "2413");
    /* the last group ($+) is the highest .NET number: the last named one */
    CHECK_STR(replace("(?<a>x)(y)", "$+", "xy"), "x");
    CHECK_STR(replace("(x)(y)", "$+", "xy"), "y");
    /* no groups at all: $+ is the whole match */
    CHECK_STR(replace("xy", "<$+>", "axyb"), "a<xy>b");
}

static void test_special_substitutions(void)
{
    CHECK_STR(replace("b", "$$", "abc"), "a$c");
    CHECK_STR(replace("b", "$$1", "abc"), "a$1c");
    CHECK_STR(replace("b", "$$$$", "abc"), "a$$c");
    CHECK_STR(replace("(b)", "[$&]", "abc"), "a[b]c");
    CHECK_STR(replace("(b)", "[$0]", "abc"), "a[b]c");
    CHECK_STR(replace("(b)", "[${0}]", "abc"), "a[b]c");
    CHECK_STR(replace("c", "[$`]", "abcde"), "ab[ab]de");
    CHECK_STR(replace("c", "[$']", "abcde"), "ab[de]de");
    CHECK_STR(replace("c", "[$_]", "abcde"), "ab[abcde]de");
    /* $` and $' are relative to the whole input, also for a later match */
    CHECK_STR(replace("\\d", "<$`>", "a1b2"), "a<a>b<a1b>");
    CHECK_STR(replace("\\d", "<$'>", "a1b2"), "a<b2>b<>");
    /* a '$' that starts nothing stays as it is */
    CHECK_STR(replace("b", "$", "abc"), "a$c");
    CHECK_STR(replace("b", "x$", "abc"), "ax$c");
    CHECK_STR(replace("b", "$x", "abc"), "a$xc");
    CHECK_STR(replace("b", "${", "abc"), "a${c");
    CHECK_STR(replace("b", "${}", "abc"), "a${}c");
    CHECK_STR(replace("(?<n>b)", "${n", "abc"), "a${nc");
}

static void test_literal_references(void)
{
    /* ${unknown}: kept as text and recorded for a warning */
    CHECK_STR(replace("(?<id>\\d+)", "[${name}]", "7"), "[${name}]");
    CHECK_STR(unknown, "name");
    CHECK_STR(replace("(?<id>\\d+)", "${foo}${id}${bar}", "7"), "${foo}7${bar}");
    CHECK_STR(unknown, "foo,bar");
    /* ${9} and $9 beyond the group count: literal */
    CHECK_STR(replace("(a)", "$9", "a"), "$9");
    CHECK_STR(unknown, "");
    CHECK_STR(replace("(a)", "${9}", "a"), "${9}");
    CHECK_STR(replace("(a)", "$2", "a"), "$2");
    /* $12 with one group: .NET reads every digit, 12 is no group → literal */
    CHECK_STR(replace("(a)", "$12", "a"), "$12");
    /* $1 followed by a letter */
    CHECK_STR(replace("(a)", "$1x", "a"), "ax");
    /* macros are not substitutions: they reach the macro expander intact */
    CHECK_STR(replace("(?<id>\\d+)", "$EXIST{Task(id==${id})}", "4"), "$EXIST{Task(id==4)}");
    CHECK_STR(unknown, "");
    CHECK_STR(replace("(?<id>\\d+)", "$RES_NAME{Task(id==$1)}.x", "4"),
              "$RES_NAME{Task(id==4)}.x");
}

static void test_groups_that_did_not_match(void)
{
    CHECK_STR(replace("(?<a>x)?(?<b>y)", "[${a}|${b}]", "y"), "[|y]");
    CHECK_STR(replace("(x)?(y)", "[$1|$2]", "y"), "[|y]");
    CHECK_STR(replace("(?<a>x)|(?<b>y)", "[${a}${b}]", "y"), "[y]");
    /* a group past the last one that took part (PCRE2 leaves it unset) */
    CHECK_STR(replace("(y)|(x)", "[$1$2]", "y"), "[y]");
    CHECK_STR(replace("(y)|(x)", "[$2$1]", "x"), "[x]");
    /* the asp.cnv pattern with an optional argument group */
    CHECK_STR(replace("\\[(?<time>\\d+)\\] enter to (?<name>\\w+)( (?<args>.+))?\\.?",
                      "[${time}]T.enterSVC(${name}, ${args})", "[5] enter to dly_tsk."),
              "[5]T.enterSVC(dly_tsk, )");
    CHECK_STR(replace("\\[(?<time>\\d+)\\] enter to (?<name>\\w+)( (?<args>.+))?\\.?",
                      "[${time}]T.enterSVC(${name}, ${args})", "[5] enter to act_tsk 2."),
              "[5]T.enterSVC(act_tsk, 2.)");
}

static void test_duplicate_names(void)
{
    /* .NET has one group per name: with the same name in two alternatives,
     * ${a} is whichever took part, and the name counts as one number */
    CHECK_STR(replace("(?<a>x)|(?<a>y)", "[${a}|$1|$2|$+]", "y"), "[y|y|$2|y]");
    CHECK_STR(unknown, "");
    CHECK_STR(replace("(?<a>x)|(?<a>y)", "[${a}]", "x"), "[x]");
    CHECK_STR(replace("(?<a>x)(?<b>y)|(?<a>z)", "[${a}${b}|$1|$2|$3]", "z"), "[z|z||$3]");
    CHECK_STR(replace("(?<a>x)(?<b>y)|(?<a>z)", "[${a}${b}|$1|$2]", "xy"), "[xy|x|y]");
    /* unnamed groups still come first */
    CHECK_STR(replace("(?<a>x)(q)|(?<a>y)(r)", "$1$2$3", "yr"), "ry");
    /* both set: the later capture wins, as in .NET */
    CHECK_STR(replace("(?<a>x)(?<a>y)", "${a}", "xy"), "y");
}

static void test_unicode_classes(void)
{
    /* .NET's \w \d \s \b are Unicode-aware */
    CHECK_STR(replace("(?<n>\\w+)", "<${n}>", "task タスク1"), "<task> <タスク1>");
    CHECK_STR(replace("\\d+", "#", "id \xef\xbc\x91\xef\xbc\x92"), "id #");
    CHECK_STR(replace("\\s", "_", "a\xe3\x80\x80" "b"), "a_b");
}

static void test_text_outside_the_match(void)
{
    CHECK_STR(replace("b+", "X", "aabbbcc"), "aaXcc");
    CHECK_INT(nmatch, 1);
    CHECK_STR(replace("(?<v>\\d+)", "<${v}>", "id 12 and 345."), "id <12> and <345>.");
    CHECK_INT(nmatch, 2);
    CHECK_STR(replace("a", "b", "xyz"), "xyz");
    CHECK_INT(nmatch, 0);
    CHECK_STR(replace("(\\w)(\\w)", "$2$1", "abcde"), "badce");
    CHECK_INT(nmatch, 2);
}

static void test_empty_matches(void)
{
    CHECK_STR(replace("x*", "-", "abc"), "-a-b-c-");
    CHECK_INT(nmatch, 4);
    CHECK_STR(replace("b*", "-", "abc"), "-a--c-");
    CHECK_INT(nmatch, 4);
    CHECK_STR(replace("x*", "-", ""), "-");
    CHECK_INT(nmatch, 1);
    CHECK_STR(replace("^", ">", "abc"), ">abc");
    CHECK_STR(replace("$", "<", "abc"), "abc<");
    CHECK_STR(replace("\\b", "|", "ab cd"), "|ab| |cd|");
    /* UTF-8: an empty match advances by one character, never inside one */
    CHECK_STR(replace("x*", "-", "\xe3\x81\x82\xe3\x81\x84"), "-\xe3\x81\x82-\xe3\x81\x84-");
    CHECK_INT(nmatch, 3);
    CHECK_STR(replace("x*", "-", "a\xc3\xa9\xf0\x9f\x98\x80z"),
              "-a-\xc3\xa9-\xf0\x9f\x98\x80-z-");
    CHECK_STR(replace("\xe3\x81\x84*", "-", "\xe3\x81\x82\xe3\x81\x84"),
              "-\xe3\x81\x82--");
    /* named groups and UTF-8 text in the template */
    CHECK_STR(replace("(?<n>\\w+)=(?<v>.+)", "${n}は${v}", "名前=値"), "名前は値");
}

static void test_template_segments(void)
{
    /* Literal runs are merged: a template without references is one segment. */
    pcre2_code *re = compile("(?<time>\\d+)");
    if (!re)
        return;
    tmpl t;
    CHECK_INT(tmpl_compile(&t, "[${time}]A.b=c", 14, re), 0);
    CHECK_INT(t.nsegs, 3);
    CHECK_INT(t.nunknown, 0);
    CHECK_STR(t.text, "[${time}]A.b=c");
    CHECK_INT(t.len, 14);
    tmpl_free(&t);
    CHECK_INT(tmpl_compile(&t, "plain", 5, re), 0);
    CHECK_INT(t.nsegs, 1);
    tmpl_free(&t);
    pcre2_code_free(re);
}

/* The converter's way of searching: JIT-compiled, told the literal every
 * match holds. Every match is still found, and none where the rest of the
 * line lacks the literal. */
static void test_jit_and_literal_stop(void)
{
    pcre2_code *re = compile("x(\\d)");
    CHECK_INT(pcre2_jit_compile(re, PCRE2_JIT_COMPLETE), 0);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    match_list ml = {0};
    const char *s = "x1 x2 y3 x4";
    CHECK_INT(tmpl_find_matches(re, 1, md, s, strlen(s), &ml, NULL, 1, "x"), 3);
    CHECK_INT((int)ml.ov[2 * 2 * 2], 9); /* the third match, "x4", starts at 9 */
    CHECK_INT(tmpl_find_matches(re, 1, md, s, strlen(s), &ml, NULL, 0, "x"), 3);
    CHECK_INT(tmpl_find_matches(re, 1, md, "x1 y2", 5, &ml, NULL, 1, "x"), 1);
    CHECK_INT(tmpl_find_matches(re, 1, md, "y1", 2, &ml, NULL, 1, "x"), 0);
    match_list_free(&ml);
    pcre2_match_data_free(md);
    pcre2_code_free(re);
}

int main(void)
{
    test_jit_and_literal_stop();
    test_named_and_numbered();
    test_special_substitutions();
    test_literal_references();
    test_groups_that_did_not_match();
    test_duplicate_names();
    test_unicode_classes();
    test_text_outside_the_match();
    test_empty_matches();
    test_template_segments();
    return CHECK_DONE();
}
