/*
 * fuzz_calc.c — libFuzzer target: the $CALC{} expression evaluator and the
 * $CLOCK{} time reader. Whatever the input, both must end with a result or
 * a message; a result $CALC writes reads back as itself (when it has at most
 * the 18 digits a literal may have), and a clock time converted to any unit
 * is a number $CALC reads, equal to the same time in seconds scaled.
 */
#include "lang/calc.h"
#include "lang/clock.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static size_t digit_count(const buf *b)
{
    size_t n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->data[i] >= '0' && b->data[i] <= '9';
    return n;
}

static void check_calc(const char *text, size_t size)
{
    buf out = BUF_INIT, again = BUF_INIT, err = BUF_INIT;
    int rc = calc_eval(text, size, &out, &err);
    if ((rc == 0) == (err.len > 0)) /* a result, or a reason: exactly one */
        __builtin_trap();
    if (rc == 0 && digit_count(&out) <= 18) {
        if (calc_eval(buf_str(&out), out.len, &again, &err) < 0 ||
            strcmp(buf_str(&out), buf_str(&again)) != 0)
            __builtin_trap();
    }
    buf_free(&out);
    buf_free(&again);
    buf_free(&err);
}

static void check_clock(const char *text, size_t size)
{
    clock_wrap wrap = {0};
    buf s = BUF_INIT, us = BUF_INIT, err = BUF_INIT;
    int a = clock_convert(text, size, 0, NULL, &s, &err);
    if ((a == 0) == (err.len > 0))
        __builtin_trap();
    buf_clear(&err);
    int b = clock_convert(text, size, 6, &wrap, &us, &err);
    /* the first time through a wrap is the time itself */
    if (a == 0 && b == 0) {
        char expr[200];
        if (s.len < 100 && digit_count(&s) <= 12 && digit_count(&us) <= 18) {
            int n = snprintf(expr, sizeof expr, "%s*1000000-%s", buf_str(&s), buf_str(&us));
            calc_num d;
            if (calc_eval_num(expr, (size_t)n, &d, &err) < 0 || d.value != 0)
                __builtin_trap();
        }
    }
    for (int k = 0; k < 3 && b == 0; k++) { /* the same time again stays on its day */
        buf again = BUF_INIT;
        if (clock_convert(text, size, 6, &wrap, &again, &err) < 0 ||
            strcmp(buf_str(&again), buf_str(&us)) != 0)
            __builtin_trap();
        buf_free(&again);
    }
    buf_free(&s);
    buf_free(&us);
    buf_free(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    check_calc(text, size);
    check_clock(text, size);
    return 0;
}
