/*
 * fuzz_clock.c — libFuzzer target: the clock-time reader of $CLOCK{}
 * (libtlv/src/clock.c). The input is up to 16 times, one per line, read in
 * order as a log's lines are (one midnight-wrap memory per unit). For every
 * time and every unit (s, ms, us, ns):
 *   - the reader gives a result or a message saying why not, never both or
 *     neither, and the message quotes the text ("'...' is not a clock time"
 *     or "... is too far from 1970 ...");
 *   - the four units agree exactly: the same number of attoseconds, whatever
 *     the unit (a finer unit may only fail where a coarser one fits 64 bits
 *     and it does not);
 *   - blanks around the text change nothing;
 *   - a dated time does not depend on what came before; a time without a
 *     date lands at most 12 hours before the previous one and less than a
 *     day after it, and never before the first midnight.
 */
#include "lang/clock.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef __int128 wide;

#define ATTO ((wide)1000000000000000000LL)
#define DAY (86400 * ATTO)
#define MAX_TIMES 16

/* A result "[-]W[.F]" in units of 10^-digits s as attoseconds; 0 when the
 * text is not of that form (which is itself a failure). */
static int to_atto(const buf *b, int digits, wide *out)
{
    const char *s = buf_str(b);
    int neg = *s == '-';
    s += neg;
    if (*s < '0' || *s > '9')
        return 0;
    wide v = 0;
    while (*s >= '0' && *s <= '9')
        v = v * 10 + (*s++ - '0');
    int frac = 0;
    if (*s == '.') {
        s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9' && frac < 18 - digits) {
            v = v * 10 + (*s++ - '0');
            frac++;
        }
        if (s[-1] == '0') /* written without trailing zeros */
            return 0;
    }
    if (*s)
        return 0;
    for (; frac < 18 - digits; frac++)
        v *= 10;
    *out = neg ? -v : v;
    return 1;
}

static void check_message(const buf *err, const char *text, size_t n)
{
    const char *m = buf_str(err);
    if (m[0] != '\'' || (!strstr(m, "' is not a clock time: ") && !strstr(m, "too far from 1970")))
        __builtin_trap();
    /* the text is quoted as given (without blanks around it, up to 60 bytes) */
    while (n && (*text == ' ' || *text == '\t'))
        text++, n--;
    while (n && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--;
    size_t shown = n > 60 ? 60 : n;
    /* a NUL ends the quote (never in a log's text: the converter reads NUL
     * as U+FFFD before any macro sees it) */
    shown = strnlen(text, shown);
    if (shown && memcmp(m + 1, text, shown) != 0)
        __builtin_trap();
}

/* One time in every unit; returns 1 with its attoseconds, or 0. */
static int read_time(const char *text, size_t n, clock_wrap wraps[4], wide *atto)
{
    int ok[4];
    wide v[4] = {0};
    for (int u = 0; u < 4; u++) {
        buf out = BUF_INIT, err = BUF_INIT;
        int rc = clock_convert(text, n, 3 * u, &wraps[u], &out, &err);
        if ((rc == 0) == (err.len > 0))
            __builtin_trap();
        ok[u] = rc == 0;
        if (!ok[u])
            check_message(&err, text, n);
        else if (!to_atto(&out, 3 * u, &v[u]))
            __builtin_trap();
        buf_free(&out);
        buf_free(&err);
    }
    for (int u = 1; u < 4; u++) {
        if (ok[u] && !ok[u - 1])
            __builtin_trap(); /* fits a finer unit but not a coarser one */
        if (ok[u] && v[u] != v[0])
            __builtin_trap(); /* the units disagree */
    }
    *atto = v[0];
    return ok[0];
}

static void check_blanks(const char *text, size_t n)
{
    char padded[200];
    if (n + 4 > sizeof padded)
        return;
    memcpy(padded, " \t", 2);
    memcpy(padded + 2, text, n);
    memcpy(padded + 2 + n, "\t ", 2);
    buf a = BUF_INIT, b = BUF_INIT, err = BUF_INIT;
    int ra = clock_convert(text, n, 6, NULL, &a, &err);
    buf_clear(&err);
    int rb = clock_convert(padded, n + 4, 6, NULL, &b, &err);
    if (ra != rb || strcmp(buf_str(&a), buf_str(&b)) != 0)
        __builtin_trap();
    buf_free(&a);
    buf_free(&b);
    buf_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    clock_wrap wraps[4];
    memset(wraps, 0, sizeof wraps);
    int have_prev = 0;
    wide prev = 0;
    size_t at = 0;
    for (int k = 0; k < MAX_TIMES && at <= size; k++) {
        const char *nl = memchr(s + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - s) : size;
        const char *text = s + at;
        size_t n = end - at;
        at = end + 1;
        check_blanks(text, n);
        wide t;
        clock_wrap before = wraps[2];
        if (!read_time(text, n, wraps, &t))
            continue;
        /* is it dated? the reader decides as clock.c does, after the blanks */
        const char *p = text;
        size_t m = n;
        while (m && (*p == ' ' || *p == '\t'))
            p++, m--;
        int dated = m > 4 && p[4] == '-';
        /* seconds since 1970 (no ':' and no '-', a digit first) are never
         * wrapped either */
        int epoch = m > 0 && p[0] >= '0' && p[0] <= '9' && !memchr(p, ':', m) && !memchr(p, '-', m);
        if (dated || epoch) {
            buf alone = BUF_INIT, err = BUF_INIT;
            wide v;
            if (clock_convert(text, n, 6, NULL, &alone, &err) < 0 || !to_atto(&alone, 6, &v) ||
                v != t || memcmp(&before, &wraps[2], sizeof before) != 0)
                __builtin_trap(); /* a dated or epoch time neither reads nor moves the wrap */
            buf_free(&alone);
            buf_free(&err);
            continue;
        }
        if (t < 0)
            __builtin_trap();
        if (have_prev && (t < prev - DAY / 2 || t >= prev + DAY))
            __builtin_trap();
        prev = t;
        have_prev = 1;
    }
    return 0;
}
