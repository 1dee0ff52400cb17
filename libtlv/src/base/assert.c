/*
 * assert.c — what a failed TLV_ASSERT does in a debug build (assert.h): the
 * library's one place that prints, since a broken invariant has no caller
 * that could be told.
 */
#include "base/assert.h"

#include <stdio.h>
#include <stdlib.h>

#ifndef NDEBUG
void tlv__assert_fail(const char *cond, const char *file, int line, const char *func)
{
    fprintf(stderr, "libtlv: %s:%d: %s: invariant failed: %s\n", file, line, func, cond);
    fflush(stderr);
    abort();
}
#else
/* An empty unit is not ISO C. */
typedef int tlv__assert_unused;
#endif
