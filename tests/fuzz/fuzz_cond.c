/*
 * fuzz_cond.c — libFuzzer target: condition expressions. The same text is
 * evaluated in one go (cond_eval_text) and compiled then evaluated with and
 * without an operand look-up; the two ways must agree, and value_compare
 * must be antisymmetric on the two halves of the input.
 */
#include "lang/cond.h"

#include <stdint.h>
#include <string.h>

/* Every operand that starts with a letter is a variable worth "RUNNING"
 * (or its own text reversed in length parity, to vary the results). */
static int lookup(void *ctx, const char *name, size_t n, const char **val, size_t *vlen)
{
    (void)ctx;
    if (!n || !((name[0] >= 'a' && name[0] <= 'z') || (name[0] >= 'A' && name[0] <= 'Z')))
        return 0;
    *val = n % 2 ? "RUNNING" : "2";
    *vlen = strlen(*val);
    return 1;
}

static int sign(int v) { return (v > 0) - (v < 0); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    char err1[200], err2[200];
    int direct = cond_eval_text(text, size, err1, sizeof err1);
    cond *c = cond_compile(text, size, err2, sizeof err2);
    if ((direct < 0) != (c == NULL))
        __builtin_trap();
    if (c) {
        if (cond_eval(c, NULL, NULL) != direct)
            __builtin_trap();
        int v = cond_eval(c, lookup, NULL);
        if (v != 0 && v != 1)
            __builtin_trap();
        cond_free(c);
    }
    size_t half = size / 2;
    if (sign(value_compare(text, half, text + half, size - half)) !=
        -sign(value_compare(text + half, size - half, text, half)))
        __builtin_trap();
    return 0;
}
