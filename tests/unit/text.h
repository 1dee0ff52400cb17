/*
 * text.h — a growing text that a unit test prints into (text_add, like
 * printf), to compare what two ways of doing the same thing produced
 * (test_pipeline.c, test_threads.c, test_viz_parallel.c). Header-only and
 * static; exits when memory runs out, as the tests have nothing to compare
 * then.
 */
#ifndef TLV_TEST_TEXT_H
#define TLV_TEST_TEXT_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct text {
    char *s; /* NUL-terminated once anything was added; free() it */
    size_t n, cap;
} text;

static inline void text_add(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends fmt's output to t. */
static inline void text_add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        abort();
    if (t->n + (size_t)n + 1 > t->cap) {
        t->cap = (t->n + (size_t)n + 1) * 2;
        t->s = realloc(t->s, t->cap);
        if (!t->s)
            abort();
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)n;
}

#endif
