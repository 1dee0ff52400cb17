/*
 * alloc.c — the counting allocation functions of alloc.h: each failure adds
 * one to the calling thread's count, which the API's calls compare before
 * and after.
 */
#define TLV_ALLOC_IMPLEMENTATION
#include "alloc.h"

/* The build force-includes alloc.h before this file's first line: the real
 * functions are declared and called here. */
#undef malloc
#undef calloc
#undef realloc
#undef strdup
#undef strndup

#include <stdlib.h>
#include <string.h>

static _Thread_local unsigned long failures;

unsigned long alloc_failures(void) { return failures; }

static void *counted(void *p, int wanted)
{
    if (!p && wanted)
        failures++;
    return p;
}

void *tlv_mem_malloc(size_t n) { return counted(malloc(n), 1); }

void *tlv_mem_calloc(size_t count, size_t size) { return counted(calloc(count, size), count && size); }

/* realloc(p, 0) may return NULL having freed p: not a failure. */
void *tlv_mem_realloc(void *p, size_t n) { return counted(realloc(p, n), n != 0); }

char *tlv_mem_strdup(const char *s) { return counted(strdup(s), 1); }

char *tlv_mem_strndup(const char *s, size_t n) { return counted(strndup(s, n), 1); }
