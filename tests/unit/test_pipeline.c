/*
 * test_pipeline.c — the two-thread conversion pipeline (pipeline.c: one
 * thread matches the lines ahead, the caller applies them) gives exactly
 * what the serial path gives: the same events with the same input lines and
 * sequence numbers, the same unmatched lines, diagnostics, statistics,
 * per-rule match counts, push and finish statuses and last error.
 *
 * Every input is converted serially and then pipelined with batches of 1, 3
 * and the default number of lines (small batches cross many batch
 * boundaries), each pushed whole, in two pieces and in 97-byte pieces (lines
 * split across pushes), and once more with the event function stopping the
 * conversion half-way; and each way once more serially and pipelined with a
 * line function (tlv_converter_set_line_fn) instead, whose lines must be
 * tlv_event_format's and the same as the event function's. Inputs:
 *   1. a synthetic log against rules of its own: CRLF, bare CR, blank lines,
 *      bytes that are not text, unmatched lines, macro errors, a regex that
 *      hits the match limit, several matches on a line, the tail trap;
 *   2. every fuzz seed and regression input in tests/fuzz (of every target:
 *      any bytes are a log) with the fuzz rules (tests/fuzz/rules);
 *   3. with ../shared/corpus present: every corpus log with its resource file
 *      (skipped otherwise).
 * Each pipelined run must really have gone through the matching thread
 * (converter_piped_lines counts the lines it matched), and a serial one not.
 */
#include "check.h"
#include "scratch.h"
#include "text.h"

#include "convert/convert_impl.h"
#include "tlv/tlv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- recording a conversion --------------------------------------------------------- */

typedef struct record {
    text out;
    int radix;
    uint64_t stop_at; /* the event function stops at this event (1-based); 0: never */
} record;

static int on_event(void *user, const tlv_event *ev)
{
    record *r = user;
    char line[8192];
    size_t n = tlv_event_format(ev, r->radix, line, sizeof line);
    text_add(&r->out, "%llu #%llu %.*s\n", (unsigned long long)ev->input_line,
             (unsigned long long)ev->seq, (int)(n < sizeof line ? n : sizeof line - 1), line);
    return r->stop_at && ev->seq + 1 == r->stop_at;
}

/* The line function (tlv_converter_set_line_fn) records the same text as
 * on_event: its line must be tlv_event_format's. */
static int on_line(void *user, const tlv_event *ev, const char *text, size_t len)
{
    record *r = user;
    char line[8192];
    size_t n = tlv_event_format(ev, r->radix, line, sizeof line);
    if (n != len || strlen(text) != len || memcmp(line, text, n < sizeof line ? n : 0) != 0) {
        if (check_failures++ < 5)
            fprintf(stderr, "line function's line differs from tlv_event_format's:\n  %.*s\n  %.*s\n",
                    (int)len, text, (int)(n < sizeof line ? n : sizeof line - 1), line);
    }
    text_add(&r->out, "%llu #%llu %.*s\n", (unsigned long long)ev->input_line,
             (unsigned long long)ev->seq, (int)len, text);
    return r->stop_at && ev->seq + 1 == r->stop_at;
}

static void on_unmatched(void *user, uint64_t line, const char *text, size_t len)
{
    record *r = user;
    text_add(&r->out, "unmatched %llu: %.*s\n", (unsigned long long)line, (int)len, text);
}

static const char *current_input; /* for messages */

typedef struct way {
    int threads;
    size_t batch_lines; /* 0: the default (and only runs of 16 KB or more) */
    size_t piece;       /* push in pieces of this many bytes; 0: whole */
    size_t split;       /* or in two pieces, the first this long; 0: not */
    int by_line;        /* events taken by a line function, not an event function */
} way;

/* Converts data one way and returns everything it produced, as text. Checks
 * that the matching thread was used exactly when it had to be. */
static char *convert(const tlv_rules *rules, const char *data, size_t len, way w,
                     uint64_t stop_at)
{
    record r = {0};
    r.radix = tlv_rules_time_radix(rules);
    r.stop_at = stop_at;
    tlv_converter *conv = NULL;
    if (tlv_converter_new(rules, &conv) != TLV_OK)
        exit(1);
    tlv_converter_set_threads(conv, w.threads);
    converter_set_batch_lines(conv, w.batch_lines);
    if (w.by_line)
        tlv_converter_set_line_fn(conv, on_line, &r);
    else
        tlv_converter_set_event_fn(conv, on_event, &r);
    tlv_converter_set_unmatched_fn(conv, on_unmatched, &r);
    size_t piece = w.piece ? w.piece : w.split ? w.split : len;
    for (size_t at = 0, k = 0; at < len; k++) {
        size_t n = len - at < piece ? len - at : piece;
        if (w.split && k > 0)
            n = len - at;
        tlv_status st = tlv_converter_push_bytes(conv, data + at, n);
        if (st != TLV_OK)
            text_add(&r.out, "push at %zu: %d %s\n", at, (int)st, tlv_converter_last_error(conv));
        at += n;
    }
    tlv_status st = tlv_converter_finish(conv);
    text_add(&r.out, "finish: %d %s\n", (int)st, tlv_converter_last_error(conv));
    const tlv_diags *d = tlv_converter_diags(conv);
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char text[4096];
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        text_add(&r.out, "diag %s\n", text);
    }
    tlv_convert_stats s;
    tlv_converter_stats(conv, &s);
    text_add(&r.out, "stats %llu %llu %llu %llu %llu\n", (unsigned long long)s.bytes_read,
        (unsigned long long)s.lines_read, (unsigned long long)s.lines_matched,
        (unsigned long long)s.events, (unsigned long long)s.error_lines);
    for (size_t i = 0; i < tlv_rules_cnv_rule_count(rules); i++)
        text_add(&r.out, "rule %zu: %llu\n", i,
                 (unsigned long long)tlv_converter_rule_matches(conv, i));
    uint64_t piped = converter_piped_lines(conv);
    int want; /* -1: none, 1: some, 0: either */
    if (w.threads == 1 || tlv_rules_is_standard_form(rules))
        want = -1; /* standard form is read serially */
    else if (w.batch_lines && !w.piece && !w.split && memchr(data, '\n', len) && !stop_at)
        want = 1; /* any run of whole lines goes through the thread */
    else if (!w.piece && !w.split && len >= (64 << 10) && memchr(data + len / 2, '\n', len / 2))
        want = 1; /* a big push does, by default */
    else
        want = 0;
    if ((want < 0 && piped) || (want > 0 && !piped)) {
        fprintf(stderr, "%s: %llu lines went through the matching thread with %d threads, "
                        "batches of %zu, pieces of %zu, split at %zu\n",
                current_input, (unsigned long long)piped, w.threads, w.batch_lines, w.piece,
                w.split);
        check_failures++;
    }
    tlv_converter_free(conv);
    return r.out.s;
}

/* The first line where the pipelined output differs, for the message. */
static void report_difference(const char *what, way w, const char *serial, const char *piped)
{
    size_t line = 1, i = 0;
    while (serial[i] && serial[i] == piped[i])
        line += serial[i++] == '\n';
    const char *a = serial + i, *b = piped + i;
    while (a > serial && a[-1] != '\n')
        a--;
    while (b > piped && b[-1] != '\n')
        b--;
    fprintf(stderr,
            "%s: %d thread(s), batches of %zu lines, pieces of %zu, split at %zu%s: differs "
            "from the serial path with an event function at output line %zu:\n  serial:    "
            "%.*s\n  this way:  %.*s\n",
            what, w.threads, w.batch_lines, w.piece, w.split, w.by_line ? ", by line" : "", line, (int)strcspn(a, "\n"), a,
            (int)strcspn(b, "\n"), b);
    check_failures++;
}

/* Compares the pipeline with the serial path every way; returns the number
 * of events the serial path produced. */
static size_t agree(const char *what, const tlv_rules *rules, const char *data, size_t len)
{
    static const size_t batches[] = {1, 3, 0};
    way pushes[] = {{1, 0, 0, 0, 0}, {1, 0, 0, len / 3 + 1, 0}, {1, 0, 97, 0, 0}};
    size_t events = 0;
    current_input = what;
    for (size_t p = 0; p < sizeof pushes / sizeof *pushes; p++) {
        char *serial = convert(rules, data, len, pushes[p], 0);
        if (p == 0) {
            /* lines of events start with a digit */
            for (const char *s = serial; *s; s = strchr(s, '\n') + 1) {
                events += *s >= '0' && *s <= '9';
                if (!strchr(s, '\n'))
                    break;
            }
        }
        for (size_t b = 0; b < sizeof batches / sizeof *batches; b++) {
            way w = pushes[p];
            w.threads = 2;
            w.batch_lines = batches[b];
            char *piped = convert(rules, data, len, w, 0);
            if (strcmp(serial, piped) != 0)
                report_difference(what, w, serial, piped);
            free(piped);
        }
        /* the line function gives the same, serially and pipelined */
        for (int threads = 1; threads <= 2; threads++) {
            way w = pushes[p];
            w.threads = threads;
            w.batch_lines = threads == 2 ? 3 : 0;
            w.by_line = 1;
            char *lines = convert(rules, data, len, w, 0);
            if (strcmp(serial, lines) != 0)
                report_difference(what, w, serial, lines);
            free(lines);
        }
        free(serial);
    }
    if (events > 1) { /* the event function stops half-way */
        way one = {1, 0, 0, 0, 0}, two = {2, 2, 0, 0, 0}, lines = {2, 2, 0, 0, 1};
        char *serial = convert(rules, data, len, one, events / 2);
        char *piped = convert(rules, data, len, two, events / 2);
        char *by_line = convert(rules, data, len, lines, events / 2);
        if (strcmp(serial, piped) != 0)
            report_difference(what, two, serial, piped);
        if (strcmp(serial, by_line) != 0)
            report_difference(what, lines, serial, by_line);
        CHECK(strstr(serial, "the event function stopped the conversion") != NULL);
        free(serial);
        free(piped);
        free(by_line);
    }
    return events;
}

/* ---- 1. synthetic ------------------------------------------------------------------ */

static const char syn_resh[] =
    "{\"hdr\": {\n"
    "  \"Task\": {\"Attributes\": {\"state\": {\"VariableType\": \"String\", \"Default\": \"DORMANT\"},\n"
    "                              \"id\": {\"VariableType\": \"Number\"}},\n"
    "           \"Behaviors\": {\"note\": {\"Arguments\": {\"a\": \"String\"}}}},\n"
    "  \"Ctx\": {\"Attributes\": {\"name\": {\"VariableType\": \"String\"}}}\n"
    "}}\n";

static const char syn_cnv[] =
    "{\"syn\": {\n"
    "  \"^\\\\[(?<t>\\\\d+)\\\\] run (?<id>\\\\d+) (?<s>\\\\w+)$\": [\n"
    "    \"[${t}]$RES_NAME{Task(id==${id})}.state=${s}\",\n"
    "    \"[${t}]Ctx1.name=$RES_NAME{Task(state==RUNNING)}\"],\n"
    "  \"^(a|aa)+$\": \"[1]TASK1.note(limit)\",\n"
    "  \"x(?<n>\\\\d)\": \"[${n}]TASK1.note(x${n})\",\n"
    "  \"^\\\\[(?<t>\\\\d+)\\\\] say (?<w>.*)$\": \"[${t}]TASK1.note(${w})\",\n"
    "  \"^\\\\[(?<t>\\\\d+)\\\\] bad$\": \"[${t}]TASK1.nosuch=1\",\n"
    /* an event for every resource a condition selects (not remembered) */
    "  \"^\\\\[(?<t>\\\\d+)\\\\] all (?<s>\\\\w+)$\": \"[${t}]Task(state==${s}).note(all)\",\n"
    /* templates the matching thread expands up to their macros (rawmatch.c):
     * a guard with an optional group, text before the match */
    "  \"^\\\\[(?<t>\\\\d+)\\\\] guard (?<id>\\\\d+)( (?<o>\\\\w+))?\": {\"$EXIST{Task(id==${id})}\":\n"
    "    \"[${t}]$RES_NAME{Task(id==${id})}.note(${o}$COUNT{Task(state==RUNNING)})\"},\n"
    "  \"(?<t>\\\\d+)\\\\] who (?<id>\\\\d+)$\": \"${t}]$RES_NAME{Task(id==${id})}.note(w)\"\n"
    "}}\n";

static const char syn_res[] =
    "{\"ResourceHeaders\": [\"hdr\"], \"ConvertRules\": [\"syn\"],\n"
    " \"Resources\": {\n"
    "   \"TASK1\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 1}},\n"
    "   \"TASK2\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 2}},\n"
    "   \"Ctx1\": {\"Type\": \"Ctx\"}\n"
    " }}\n";

/* Many lines of every kind, in a mixed order, with varying times. */
static char *synthetic_log(size_t *len)
{
    static const char *kinds[] = {
        "[%d] run 1 RUNNING\n", "[%d] run 2 WAITING\r\n", "[%d] run 1 DORMANT\r",
        "[%d] run 9 RUNNING\n",      /* no Task(id==9): a macro error */
        "\n", "   \t\n", "[%d] nothing to see\n",
        "[%d] say caf\xc3\xa9 \xff\xfe ok\n", /* invalid UTF-8 */
        "[%d] say nul\0here\n",               /* a NUL (written with its length) */
        "x1 x2 x3 tail %d\n",                 /* three matches, and a tail */
        "[%d] bad\n",                         /* no such attribute */
        "[%d] all RUNNING\n", "[%d] all DORMANT\n",
        "[%d] say a,b(c)\\d\n",
        "[%d] guard 1\n", "[%d] guard 2 x\n", "[%d] guard 9 y\n", "[%d] guard 1 z tail\n",
        "[%d] who 2\n", "[%d] who 7\n",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\n",   /* the match limit, now and then */
    };
    size_t nk = sizeof kinds / sizeof *kinds;
    size_t cap = 1 << 20, n = 0;
    char *log = malloc(cap);
    unsigned seed = 7;
    for (int i = 0; i < 3000; i++) {
        seed = seed * 1103515245u + 12345u;
        size_t k = (seed >> 16) % nk;
        if (i % 1400 == 700)
            k = nk - 1; /* the slow line twice */
        else if (k == nk - 1)
            k = 0;
        char line[200];
        int m = snprintf(line, sizeof line, kinds[k], i + 10);
        if (strstr(kinds[k], "nul"))
            m = snprintf(line, sizeof line, "[%d] say nul", i + 10),
            memcpy(line + m, "\0here\n", 6), m += 6;
        if (n + (size_t)m > cap)
            break;
        memcpy(log + n, line, (size_t)m);
        n += (size_t)m;
    }
    *len = n;
    return log;
}

static void test_synthetic(void)
{
    char rdir[PATH_MAX + 16], res[PATH_MAX + 16];
    snprintf(rdir, sizeof rdir, "%s/rules", tmpdir);
    mkdir(rdir, 0700);
    write_file("rules/hdr.resh", syn_resh);
    write_file("rules/syn.cnv", syn_cnv);
    write_file("syn.res", syn_res);
    snprintf(res, sizeof res, "%s/syn.res", tmpdir);
    tlv_rules *rules = NULL;
    if (load_rules_in(res, rdir, &rules) != TLV_OK) {
        fprintf(stderr, "cannot load the synthetic rules\n");
        check_failures++;
        tlv_rules_free(rules);
        return;
    }
    size_t len;
    char *log = synthetic_log(&len);
    CHECK(agree("synthetic log", rules, log, len) > 1000);
    /* the kinds of lines really occurred: one serial conversion says so */
    char *serial = convert(rules, log, len, (way){1, 0, 0, 0, 0}, 0);
    CHECK(strstr(serial, "match limit") != NULL);
    CHECK(strstr(serial, "not text (invalid UTF-8 or NUL)") != NULL);
    CHECK(strstr(serial, "has no attribute 'nosuch'") != NULL);
    CHECK(strstr(serial, "unmatched ") != NULL);
    CHECK(strstr(serial, "is kept after each of its outputs") != NULL);
    CHECK(strstr(serial, ".note(all)") != NULL);
    CHECK(strstr(serial, "#0 [10]") != NULL || strstr(serial, " #0 [") != NULL);
    free(serial);
    free(log);
    tlv_rules_free(rules);
}

/* ---- 2. the fuzz corpus -------------------------------------------------------------- */

/* Every file under tests/fuzz/DIR/<target>/ as a log; returns how many. */
static size_t fuzz_inputs(const tlv_rules *rules, const char *src, const char *dir)
{
    char top[PATH_MAX];
    snprintf(top, sizeof top, "%s/tests/fuzz/%s", src, dir);
    DIR *t = opendir(top);
    size_t n = 0;
    for (struct dirent *sub; t && (sub = readdir(t));) {
        if (sub->d_name[0] == '.')
            continue;
        char subdir[PATH_MAX + 256];
        snprintf(subdir, sizeof subdir, "%s/%s", top, sub->d_name);
        DIR *d = opendir(subdir);
        for (struct dirent *e; d && (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[PATH_MAX * 2];
            snprintf(path, sizeof path, "%s/%s", subdir, e->d_name);
            size_t len;
            char *data = read_all(path, &len);
            if (!data)
                continue;
            agree(path, rules, data, len);
            /* and as one long log: the same bytes 200 times, past 16 KB */
            size_t big = len * 200;
            char *many = malloc(big + 1);
            for (size_t k = 0; k < 200; k++)
                memcpy(many + k * len, data, len);
            agree(path, rules, many, big);
            free(many);
            free(data);
            n++;
        }
        if (d)
            closedir(d);
    }
    if (t)
        closedir(t);
    return n;
}

static void test_fuzz_corpus(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src || !*src) {
        fprintf(stderr, "TLV_SOURCE_DIR is not set\n");
        check_failures++;
        return;
    }
    char res[PATH_MAX], rdir[PATH_MAX];
    snprintf(res, sizeof res, "%s/tests/fuzz/rules/fz.res", src);
    snprintf(rdir, sizeof rdir, "%s/tests/fuzz/rules", src);
    tlv_rules *rules = NULL;
    if (load_rules_in(res, rdir, &rules) != TLV_OK) {
        fprintf(stderr, "cannot load %s\n", res);
        check_failures++;
        tlv_rules_free(rules);
        return;
    }
    size_t n = fuzz_inputs(rules, src, "seeds") + fuzz_inputs(rules, src, "regress");
    CHECK(n >= 20);
    tlv_rules_free(rules);
}

/* ---- 3. the TLV 2.0.1 corpus --------------------------------------------------------- */

static void corpus_log(const char *res, const char *log, const char *rules_dir, void *user)
{
    (void)user;
    size_t len;
    char *data = read_all(log, &len);
    tlv_rules *rules = NULL;
    if (data && load_rules_in(res, rules_dir, &rules) == TLV_OK) {
        CHECK(agree(log, rules, data, len) > 0);
    } else {
        fprintf(stderr, "cannot convert %s with %s\n", log, res);
        check_failures++;
    }
    tlv_rules_free(rules);
    free(data);
}

/* Every corpus log with its resource file; 0 without a corpus. */
static int test_corpus(void)
{
    long n = corpus_each_log(corpus_log, NULL);
    if (n < 0)
        return 0;
    CHECK(n >= 12);
    return 1;
}

int main(void)
{
    make_tmpdir("pipeline");
    test_synthetic();
    test_fuzz_corpus();
    if (!test_corpus())
        printf("corpus not found: corpus comparison skipped\n");
    remove_tree(tmpdir);
    return CHECK_DONE();
}
