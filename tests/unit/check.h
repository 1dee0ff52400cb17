/*
 * check.h — the unit tests' assertion macros. A failed check prints where and
 * why and makes the test exit 1 at the end; SKIP() exits 77, which ctest
 * reports as skipped (used when ../shared/corpus is absent).
 */
#ifndef TLV_TEST_CHECK_H
#define TLV_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_failures;

#define CHECK(cond)                                                            \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_INT(a, b)                                                        \
    do {                                                                       \
        long long va_ = (long long)(a), vb_ = (long long)(b);                  \
        if (va_ != vb_) {                                                      \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__,    \
                    __LINE__, #a, va_, vb_);                                   \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_STR(a, b)                                                        \
    do {                                                                       \
        const char *sa_ = (a), *sb_ = (b);                                     \
        if (!sa_ || !sb_ || strcmp(sa_, sb_) != 0) {                           \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, \
                    __LINE__, #a, sa_ ? sa_ : "(null)", sb_ ? sb_ : "(null)"); \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

/* Checks an unterminated (pointer, length) pair against a C string. */
#define CHECK_MEM(p, n, b)                                                     \
    do {                                                                       \
        const char *pa_ = (p), *sb_ = (b);                                     \
        size_t na_ = (n);                                                      \
        if (!pa_ || na_ != strlen(sb_) || memcmp(pa_, sb_, na_) != 0) {        \
            fprintf(stderr, "%s:%d: %s == \"%.*s\", expected \"%s\"\n",        \
                    __FILE__, __LINE__, #p, pa_ ? (int)na_ : 6,                \
                    pa_ ? pa_ : "(null)", sb_);                                \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define SKIP(why)                                                              \
    do {                                                                       \
        printf("SKIP: %s\n", why);                                             \
        exit(77);                                                              \
    } while (0)

#define CHECK_DONE()                                                           \
    (check_failures ? (fprintf(stderr, "%d check(s) failed\n", check_failures), 1) : 0)

#endif
