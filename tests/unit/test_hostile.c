/*
 * test_hostile.c — the converter on hostile and broken input, through the
 * public API, with exact results: bytes that are not text (the UTF-8
 * validator at every boundary of RFC 3629, NUL at every offset of the fast
 * path), line ends split across pushes at every byte, a truncated last
 * line, a log no rule reads, 10 MB lines and the elided messages about them,
 * lines beyond 64 MB (skipped, not held),
 * many garbage lines (listed up to a limit, then counted), a catastrophically
 * backtracking rule, times beyond 64 bits in standard-form input, and times
 * going backwards (queries stay right and the run stays fast).
 */
#include "check.h"
#include "scratch.h"

#include "tlv/tlv.h"
#include "base/utf8.h"

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


/* ---- helpers ----------------------------------------------------------------- */

static void remove_files(void)
{
    const char *names[] = {"h.resh", "h.cnv", "h.res", "std.res"};
    char path[PATH_MAX + 64];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]);
        unlink(path);
    }
    rmdir(tmpdir);
}

static tlv_rules *load(const char *res)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", tmpdir, res);
    tlv_rules *r = NULL;
    if (load_rules_in(path, tmpdir, &r) != TLV_OK) {
        fprintf(stderr, "%s does not load\n", path);
        exit(1);
    }
    return r;
}

/* Events as canonical lines joined by '\n', with the input line of each. */
typedef struct collector {
    char *text;
    size_t len, cap, n;
    uint64_t lines[64];
} collector;

static int collect(void *user, const tlv_event *ev)
{
    collector *c = user;
    size_t n = tlv_event_format(ev, 10, NULL, 0);
    if (c->len + n + 2 > c->cap) {
        c->cap = (c->len + n + 2) * 2;
        c->text = realloc(c->text, c->cap);
        if (!c->text)
            exit(1);
    }
    if (c->len)
        c->text[c->len++] = '\n';
    tlv_event_format(ev, 10, c->text + c->len, n + 1);
    c->len += n;
    if (c->n < 64)
        c->lines[c->n] = ev->input_line;
    c->n++;
    return 0;
}

static tlv_converter *new_conv(const tlv_rules *rules, collector *c)
{
    tlv_converter *conv = NULL;
    if (tlv_converter_new(rules, &conv) != TLV_OK)
        exit(1);
    memset(c, 0, sizeof *c);
    tlv_converter_set_event_fn(conv, collect, c);
    tlv_converter_set_source_name(conv, "h.log");
    return conv;
}

static void free_conv(tlv_converter *conv, collector *c)
{
    tlv_converter_free(conv);
    free(c->text);
}

static const char *events(const collector *c) { return c->len ? c->text : ""; }

static const char *diag(const tlv_converter *conv, size_t i)
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

static tlv_status push(tlv_converter *conv, const char *s, size_t n)
{
    return tlv_converter_push_bytes(conv, s, n);
}

/* ---- fixtures ------------------------------------------------------------------ */

static const char h_resh[] =
    "{\"h\": {\"Task\": {\"Attributes\": {"
    "\"id\": {\"VariableType\": \"Number\", \"AllocationType\": \"Static\"},"
    "\"state\": {\"VariableType\": \"String\", \"Default\": \"IDLE\"}},"
    "\"Behaviors\": {\"hello\": {\"Arguments\": {\"who\": \"String\"}}}}}}\n";
static const char h_cnv[] =
    "{\"h\": {"
    "\"^(?<t>\\\\d+) run (?<id>\\\\d+)$\": \"[${t}]$RES_NAME{Task(id==${id})}.state=RUNNING\","
    "\"^(?<t>\\\\d+) hi (?<who>.*)$\": \"[${t}]A.hello(${who})\","
    "\"^(?<t>\\\\d+) set (?<v>\\\\w+)$\": \"[${t}]A.state=${v}\","
    "\"^(?<t>\\\\d+) (a+)+$\": \"[${t}]A.state=AS\"}}\n";
static const char h_res[] =
    "{\"ConvertRules\": [\"h\"], \"ResourceHeaders\": [\"h\"], \"Resources\": {"
    "\"A\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 1}},"
    "\"B\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 2}}}}\n";
static const char std_res[] =
    "{\"ConvertRules\": [\"\"], \"ResourceHeaders\": [\"h\"], \"Resources\": {"
    "\"A\": {\"Type\": \"Task\"}}}\n";

/* ---- the UTF-8 validator ---------------------------------------------------------- */

static void test_utf8_boundaries(void)
{
    static const struct {
        const char *s;
        size_t bad; /* offset of the first bad byte, or the length */
    } cases[] = {
        {"plain ascii", 11},  {"\x7f", 1},           {"\x80", 0},
        {"\xc1\xbf", 0},      {"\xc2\x80", 2},       {"\xdf\xbf", 2},
        {"\xc2", 0},          {"\xc2\x7f", 0},       {"\xe0\x9f\xbf", 0},
        {"\xe0\xa0\x80", 3},  {"\xed\x9f\xbf", 3},   {"\xed\xa0\x80", 0},
        {"\xef\xbf\xbf", 3},  {"\xe3\x81", 0},       {"\xf0\x8f\xbf\xbf", 0},
        {"\xf0\x90\x80\x80", 4}, {"\xf4\x8f\xbf\xbf", 4}, {"\xf4\x90\x80\x80", 0},
        {"\xf5\x80\x80\x80", 0}, {"\xff", 0},        {"ab\xe6\x97\xa5\xff", 5},
        {"12345678\xe6\x97\xa5x\xc0", 12},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t got = utf8_first_bad(cases[i].s, strlen(cases[i].s));
        if (got != cases[i].bad) {
            fprintf(stderr, "case %zu: first bad byte at %zu, expected %zu\n", i, got,
                    cases[i].bad);
            check_failures++;
        }
    }
    /* NUL at every offset, so that both the 8-byte path and the tail see one */
    char line[40];
    for (size_t at = 0; at < sizeof line; at++) {
        memset(line, 'x', sizeof line);
        line[at] = '\0';
        CHECK_INT(utf8_first_bad(line, sizeof line), at);
        line[at] = (char)0x80;
        CHECK_INT(utf8_first_bad(line, sizeof line), at);
    }
    buf b = BUF_INIT;
    CHECK_INT(utf8_sanitize("a\0b\xe3\x81\xe6\x97\xa5", 8, &b), 3);
    CHECK_MEM(b.data, b.len, "a\xef\xbf\xbd" "b\xef\xbf\xbd\xef\xbf\xbd\xe6\x97\xa5");
    buf_free(&b);
}

/* ---- bytes and line ends ------------------------------------------------------------- */

static void test_nul_and_invalid_utf8(const tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    static const char log[] = "1 hi a\0b\n2 hi \xff\xc0\xaf\n3 hi \xe6\x97\xa5\n4 run 1\0\n";
    CHECK_INT(push(conv, log, sizeof log - 1), TLV_OK);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK); /* nothing lost: no error status */
    CHECK_STR(events(&c), "[1]A.hello(a\xef\xbf\xbd" "b)\n"
                          "[2]A.hello(\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd)\n"
                          "[3]A.hello(\xe6\x97\xa5)");
    CHECK_INT(ndiags(conv), 3);
    CHECK_STR(diag(conv, 0), "h.log:1:7: warning: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD");
    CHECK_STR(diag(conv, 1), "h.log:2:6: warning: 3 bytes are not text (invalid UTF-8 or NUL), read as U+FFFD");
    /* a NUL where the rule wants digits: the line matches nothing, and says why */
    CHECK_STR(diag(conv, 2), "h.log:4:8: warning: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD");
    free_conv(conv, &c);
}

static void test_garbage_lines_are_counted(const tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    for (int i = 0; i < 150; i++)
        CHECK_INT(push(conv, "\xff\n", 2), TLV_OK);
    CHECK_INT(push(conv, "151 hi ok\n", 10), TLV_OK);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_STR(events(&c), "[151]A.hello(ok)");
    CHECK_INT(ndiags(conv), 101); /* 100 listed, then one count */
    CHECK_STR(diag(conv, 99), "h.log:100:1: warning: 1 byte is not text (invalid UTF-8 or NUL), read as U+FFFD");
    CHECK_STR(diag(conv, 100), "h.log: warning: 50 more lines had bytes that are not text, read as U+FFFD (not listed)");
    free_conv(conv, &c);
}

/* The same bytes pushed in two pieces split at every position give the same
 * events from the same lines: a CR LF split across pushes is one line end. */
static void test_line_ends_split_anywhere(const tlv_rules *rules)
{
    static const char log[] = "1 run 1\r\n2 hi a\r3 hi b\n\r\n4 hi c\r\r5 hi d\r\n6 hi e";
    static const uint64_t lines[] = {1, 2, 3, 5, 7, 8};
    const char *want = "[1]A.state=RUNNING\n[2]A.hello(a)\n[3]A.hello(b)\n[4]A.hello(c)\n"
                       "[5]A.hello(d)\n[6]A.hello(e)";
    for (size_t split = 0; split <= sizeof log - 1; split++) {
        collector c;
        tlv_converter *conv = new_conv(rules, &c);
        push(conv, log, split);
        push(conv, log + split, sizeof log - 1 - split);
        CHECK_INT(tlv_converter_finish(conv), TLV_OK);
        CHECK_STR(events(&c), want);
        CHECK_INT(c.n, 6);
        for (size_t i = 0; i < 6 && i < c.n; i++)
            CHECK_INT(c.lines[i], lines[i]);
        CHECK_INT(ndiags(conv), 0);
        tlv_convert_stats st;
        tlv_converter_stats(conv, &st);
        CHECK_INT(st.lines_read, 8);
        free_conv(conv, &c);
    }
}

static void test_truncated_and_unmatched(const tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    push(conv, "1 hi x\n2 ru", 11);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_STR(events(&c), "[1]A.hello(x)");
    CHECK_INT(ndiags(conv), 1);
    CHECK_STR(diag(conv, 0), "h.log:2: warning: the last line has no line end and no rule matched it (a truncated log?)");
    free_conv(conv, &c);

    conv = new_conv(rules, &c); /* a last line without line end that matches: fine */
    push(conv, "1 hi x", 6);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_INT(ndiags(conv), 0);
    free_conv(conv, &c);

    conv = new_conv(rules, &c);
    push(conv, "noise\nnoise\n", 12);
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_STR(events(&c), "");
    CHECK_INT(ndiags(conv), 1);
    CHECK_STR(diag(conv, 0), "h.log: warning: no rule matched any of the 2 lines read");
    free_conv(conv, &c);

    conv = new_conv(rules, &c); /* an empty log says nothing */
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    CHECK_INT(ndiags(conv), 0);
    free_conv(conv, &c);
}

/* ---- size and time ------------------------------------------------------------------ */

static char *repeated(char ch, size_t n)
{
    char *s = malloc(n + 1);
    if (!s)
        exit(1);
    memset(s, ch, n);
    s[n] = '\0';
    return s;
}

static void test_ten_megabyte_lines(const tlv_rules *rules)
{
    const size_t mb10 = 10u << 20;
    char *x = repeated('x', mb10);
    memcpy(x, "1 hi ", 5);
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    push(conv, x, mb10);
    push(conv, "\n", 1);
    /* a failing one, of multi-byte characters where the message is cut: the
     * message keeps its start and its end, where the reason is */
    memcpy(x, "2 hi (", 6);
    size_t n = 6;
    for (; n + 3 <= mb10; n += 3)
        memcpy(x + n, "\xe6\x97\xa5", 3);
    push(conv, x, n);
    push(conv, "\n", 1);
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    CHECK_INT(c.n, 1);
    CHECK_INT(c.len, mb10 - 5 + strlen("[1]A.hello()"));
    CHECK_INT(ndiags(conv), 1);
    const tlv_diag *g = tlv_diags_get(tlv_converter_diags(conv), 0);
    if (!g)
        exit(CHECK_DONE() | 1);
    static const char head[] = "rule \"^(?<t>\\d+) hi (?<who>.*)$\": '[2]A.hello((\xe6\x97\xa5";
    static const char tail[] = "\xe6\x97\xa5)' is not a standard-form event: unbalanced "
                               "parentheses in arguments (column 11)";
    n = strlen(g->message);
    CHECK(n < 1600);
    CHECK(strncmp(g->message, head, strlen(head)) == 0);
    CHECK(strstr(g->message, " bytes ...] \xe6") != NULL);
    CHECK(n > strlen(tail) && strcmp(g->message + n - strlen(tail), tail) == 0);
    CHECK_INT(utf8_first_bad(g->message, n), n); /* not cut inside a character */
    free_conv(conv, &c);
    free(x);
}

/* A line beyond 64 MB is not held: skipped and reported, whether it comes in
 * pieces or whole; one of exactly 64 MB is still read. */
static void test_overlong_lines(const tlv_rules *rules)
{
    const size_t max = (size_t)64 << 20;
    char *x = repeated('x', max + 1);
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    for (size_t at = 0; at < max + 1; at += 1 << 20) /* in pieces, like the command */
        push(conv, x + at, at + (1 << 20) <= max + 1 ? 1 << 20 : max + 1 - at);
    push(conv, "\r\n1 hi after\n", 13);
    push(conv, x, max + 1); /* whole */
    push(conv, "\n", 1);
    memcpy(x, "3 hi ", 5);
    push(conv, x, max); /* exactly the limit */
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    CHECK_INT(c.n, 2);
    CHECK_INT(c.lines[0], 2);
    CHECK_INT(c.lines[1], 4);
    CHECK_INT(ndiags(conv), 2);
    CHECK_STR(diag(conv, 0), "h.log:1: error: the line is longer than 64 MB; skipped");
    CHECK_STR(diag(conv, 1), "h.log:3: error: the line is longer than 64 MB; skipped");
    tlv_convert_stats st;
    tlv_converter_stats(conv, &st);
    CHECK_INT(st.lines_read, 4);
    CHECK_INT(st.error_lines, 2);
    free_conv(conv, &c);
    free(x);
}

static void test_catastrophic_backtracking(const tlv_rules *rules)
{
    char *line = repeated('a', 5000);
    memcpy(line, "2 ", 2);
    line[4999] = 'b';
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    clock_t start = clock();
    CHECK_INT(tlv_converter_push_line(conv, line, 5000), TLV_ERR_CONVERT);
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    CHECK(secs < 30);
    CHECK_INT(tlv_converter_push_line(conv, "3 aaa", 5), TLV_OK);
    CHECK_STR(events(&c), "[3]A.state=AS");
    CHECK_STR(diag(conv, 0), "h.log:1: error: rule \"^(?<t>\\d+) (a+)+$\": match limit exceeded");
    free_conv(conv, &c);
    free(line);
}

static void test_times_beyond_64_bits(const tlv_rules *std)
{
    collector c;
    tlv_converter *conv = new_conv(std, &c);
    static const char log[] = "[9223372036854775807]A.state=MAX\n"
                              "[9223372036854775808]A.state=OVER\n"
                              "[-9223372036854775808]A.state=MIN\n"
                              "[-9223372036854775809]A.state=UNDER\n"
                              "[1.0000000000000000001]A.state=FINE\n"
                              "[5]A.state=AFTER\n";
    push(conv, log, sizeof log - 1);
    CHECK_INT(tlv_converter_finish(conv), TLV_ERR_CONVERT);
    CHECK_STR(events(&c), "[9223372036854775807]A.state=MAX\n[-9223372036854775808]A.state=MIN\n"
                          "[5]A.state=AFTER");
    CHECK_INT(ndiags(conv), 3);
    CHECK_STR(diag(conv, 0), "h.log:2: error: '[9223372036854775808]A.state=OVER' is not a "
                             "standard-form event: bad time: time does not fit in 64 bits (column 2)");
    CHECK_STR(diag(conv, 1), "h.log:4: error: '[-9223372036854775809]A.state=UNDER' is not a "
                             "standard-form event: bad time: time does not fit in 64 bits (column 2)");
    CHECK_STR(diag(conv, 2), "h.log:5: error: '[1.0000000000000000001]A.state=FINE' is not a "
                             "standard-form event: bad time: too many fraction digits (column 2)");
    free_conv(conv, &c);
}

/* A log that starts again (a reset mid-capture) twice over, 3 x 100,000
 * changes of one attribute: queries see the changes in time order, and the
 * run takes well under a second (inserting each change of the later parts
 * into the middle of one sorted array took minutes). */
static void test_time_going_backwards(const tlv_rules *rules)
{
    collector c;
    tlv_converter *conv = new_conv(rules, &c);
    tlv_converter_set_event_fn(conv, NULL, NULL);
    char line[64];
    clock_t start = clock();
    for (int part = 0; part < 3; part++)
        for (int i = 0; i < 100000; i++) {
            int n = snprintf(line, sizeof line, "%d set v%d_%d", 10 * i + part, part, i);
            tlv_converter_push_line(conv, line, (size_t)n);
        }
    double secs = (double)(clock() - start) / CLOCKS_PER_SEC;
    CHECK(secs < 20); /* about 0.3 s; under ASan a few */
    CHECK_INT(tlv_converter_finish(conv), TLV_OK);
    const char *v = NULL;
    tlv_time at = {10 * 500 + 1, 0};
    tlv_converter_attr_at(conv, "A", "state", &at, &v);
    CHECK_STR(v, "v1_500");
    at.ticks = 10 * 99999 + 2;
    tlv_converter_attr_at(conv, "A", "state", &at, &v);
    CHECK_STR(v, "v2_99999");
    at.ticks = -1;
    tlv_converter_attr_at(conv, "A", "state", &at, &v);
    CHECK_STR(v, "IDLE");
    tlv_converter_attr_at(conv, "A", "state", NULL, &v);
    CHECK_STR(v, "v2_99999");
    free_conv(conv, &c);
}

int main(void)
{
    make_tmpdir("hostile");
    write_file("h.resh", h_resh);
    write_file("h.cnv", h_cnv);
    write_file("h.res", h_res);
    write_file("std.res", std_res);
    tlv_rules *rules = load("h.res"), *std = load("std.res");

    test_utf8_boundaries();
    test_nul_and_invalid_utf8(rules);
    test_garbage_lines_are_counted(rules);
    test_line_ends_split_anywhere(rules);
    test_truncated_and_unmatched(rules);
    test_ten_megabyte_lines(rules);
    test_overlong_lines(rules);
    test_catastrophic_backtracking(rules);
    test_times_beyond_64_bits(std);
    test_time_going_backwards(rules);

    tlv_rules_free(rules);
    tlv_rules_free(std);
    remove_files();
    return CHECK_DONE();
}
