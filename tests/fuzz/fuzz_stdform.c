/*
 * fuzz_stdform.c — libFuzzer target: the standard-form line parser
 * (std_parse_line) and the resource-reference parser in every radix the
 * first byte picks, plus two properties: a parsed time formats and parses
 * back to itself, and a parsed line written back canonically parses again
 * to the same parts.
 */
#include "lang/stdform.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void check_time_roundtrip(tlv_time t, int radix)
{
    char text[200];
    size_t n = tlv_time_format(t, radix, text, sizeof text);
    tlv_time back;
    const char *why;
    if (n >= sizeof text || tlv_time_parse(text, n, radix, &back, &why) != TLV_OK ||
        tlv_time_cmp(back, t) != 0)
        __builtin_trap();
}

static int same(std_str a, std_str b) { return a.n == b.n && (!a.n || memcmp(a.s, b.s, a.n) == 0); }

/* A plain attribute line, written back canonically, reads the same. */
static void check_write_back(const std_line *l, int radix)
{
    if (l->is_behavior || l->has_cond || memchr(l->resource.s, '=', l->resource.n) ||
        memchr(l->resource.s, 0, l->resource.n) || memchr(l->name.s, 0, l->name.n) ||
        memchr(l->name.s, '=', l->name.n))
        return;
    char *res = strndup(l->resource.s, l->resource.n), *name = strndup(l->name.s, l->name.n);
    char *val = strndup(l->value.s, l->value.n);
    buf line = BUF_INIT, scratch = BUF_INIT;
    if (res && name && val && std_format_attr(&line, l->time, radix, res, name, val) == 0) {
        std_line back;
        const char *why;
        size_t col;
        /* values with NUL or edge spaces (escaped ones survive the parser's
         * trimming, but the writer does not escape spaces) cannot survive a
         * text line unchanged */
        size_t n = l->value.n;
        int plain = strlen(val) == n && (n == 0 || (!isspace((unsigned char)val[0]) &&
                                                    !isspace((unsigned char)val[n - 1])));
        if (std_parse_line(line.data, line.len, radix, &back, &scratch, &why, &col) < 0 ||
            tlv_time_cmp(back.time, l->time) != 0 || !same(back.resource, l->resource) ||
            !same(back.name, l->name) || (plain && !same(back.value, l->value)))
            __builtin_trap();
    }
    free(res);
    free(name);
    free(val);
    buf_free(&line);
    buf_free(&scratch);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int radix = 2 + data[0] % 35; /* 2..36 */
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    std_line l;
    buf scratch = BUF_INIT;
    const char *why;
    size_t col;
    if (std_parse_line(text, len, radix, &l, &scratch, &why, &col) == 0) {
        check_time_roundtrip(l.time, radix);
        check_write_back(&l, radix);
    } else if (!why || col < 1 || col > len + 1) {
        __builtin_trap(); /* every failure says why and where */
    }
    int has_time, has_cond;
    tlv_time t;
    std_str res, cond, rest;
    std_parse_resource_ref(text, len, radix, &has_time, &t, &res, &has_cond, &cond, &rest, &why);
    buf_free(&scratch);
    return 0;
}
