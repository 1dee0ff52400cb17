/*
 * utf8.c — finding and replacing the bytes of a line that are not text (see
 * utf8.h). Most log lines are ASCII without NUL, so the check looks at eight
 * bytes at a time and decodes only around bytes with the high bit set.
 */
#include "base/utf8.h"

#include <stdint.h>

/* Length of the valid sequence at s[0..n), or 0 when s[0] starts none (a
 * NUL, a stray continuation byte, an overlong form, a surrogate, a code
 * point above U+10FFFF, or a sequence cut short). The second-byte ranges are
 * those of RFC 3629's table, which rule out exactly those forms. */
static size_t seq_len(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned lo = 0x80, hi = 0xBF;
    if (c == 0)
        return 0;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF) {
        len = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return len;
}

/* True when none of the 8 bytes has the high bit set or is zero. */
static int word_is_plain(const unsigned char *p)
{
    uint64_t w;
    memcpy(&w, p, sizeof w);
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    return ((w | ((w - ones) & ~w)) & highs) == 0;
}

size_t utf8_first_bad(const char *text, size_t n)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0;
    while (i < n) {
        if (i + 8 <= n && word_is_plain(s + i)) {
            i += 8;
            continue;
        }
        size_t k = seq_len(s + i, n - i);
        if (!k)
            return i;
        i += k;
    }
    return n;
}

long utf8_sanitize(const char *text, size_t n, buf *out)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t i = 0, run = 0;
    long replaced = 0;
    /* Each bad byte becomes 3: reserve the worst case once. */
    if (n > ((size_t)-1 - 1) / 3 || buf_reserve(out, 3 * n) < 0)
        return -1;
    while (i < n) {
        size_t k = seq_len(s + i, n - i);
        if (k) {
            i += k;
            continue;
        }
        buf_append(out, text + run, i - run);
        buf_append(out, "\xEF\xBF\xBD", 3);
        replaced++;
        run = ++i;
    }
    buf_append(out, text + run, n - run);
    return replaced;
}
