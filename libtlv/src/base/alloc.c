/*
 * alloc.c — the counting allocation functions of alloc.h: each failure adds
 * one to the calling thread's count, which the API's calls compare before
 * and after. In test builds (TLV_FAULT_INJECTION) they also fail the
 * allocations the environment asks for (alloc.h).
 */
#define TLV_ALLOC_IMPLEMENTATION
#include "base/alloc.h"

/* The build force-includes alloc.h before this file's first line: the real
 * functions are declared and called here. */
#undef malloc
#undef calloc
#undef realloc
#undef strdup
#undef strndup

#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

static _Thread_local unsigned long failures;

unsigned long alloc_failures(void) { return failures; }

void alloc_note_failure(void) { failures++; }

void alloc_name_thread(const char *name) { prctl(PR_SET_NAME, name, 0, 0, 0); }

static void *counted(void *p, int wanted)
{
    if (!p && wanted)
        failures++;
    return p;
}

#ifdef TLV_FAULT_INJECTION
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static pthread_once_t inject_once = PTHREAD_ONCE_INIT;
static unsigned long inject_at;   /* TLV_FAULT_INJECT */
static int inject_all;            /* TLV_FAULT_INJECT_ALL */
static char inject_thread[16];    /* TLV_FAULT_INJECT_THREAD */
static const char *inject_report; /* TLV_FAULT_INJECT_REPORT */
static atomic_ulong inject_count;
static atomic_int injected;

static void inject_write_report(void)
{
    FILE *f = fopen(inject_report, "w");
    if (!f)
        return;
    fprintf(f, "%lu %d\n", (unsigned long)atomic_load(&inject_count), atomic_load(&injected));
    fclose(f);
}

static void inject_init(void)
{
    const char *n = getenv("TLV_FAULT_INJECT");
    inject_at = n ? strtoul(n, NULL, 10) : 0;
    const char *all = getenv("TLV_FAULT_INJECT_ALL");
    inject_all = all && *all && strcmp(all, "0") != 0;
    const char *t = getenv("TLV_FAULT_INJECT_THREAD");
    if (t)
        snprintf(inject_thread, sizeof inject_thread, "%s", t);
    inject_report = getenv("TLV_FAULT_INJECT_REPORT");
    if (inject_report && *inject_report)
        atexit(inject_write_report);
}

/* Read at start-up, so that the report is written even by a run that
 * allocated nothing. */
__attribute__((constructor)) static void inject_start(void) { pthread_once(&inject_once, inject_init); }

/* Whether this allocation is to fail (and counts it). */
static int inject(void)
{
    pthread_once(&inject_once, inject_init);
    if (inject_thread[0]) {
        char name[16] = "";
        if (prctl(PR_GET_NAME, name, 0, 0, 0) != 0 || strcmp(name, inject_thread) != 0)
            return 0;
    }
    unsigned long k = atomic_fetch_add(&inject_count, 1) + 1;
    if (inject_at == 0 || k < inject_at || (k > inject_at && !inject_all))
        return 0;
    atomic_store(&injected, 1);
    errno = ENOMEM;
    return 1;
}
#define INJECT(wanted) if ((wanted) && inject()) return counted(NULL, 1)
#else
#define INJECT(wanted) (void)0
#endif

void *tlv_mem_malloc(size_t n)
{
    INJECT(1);
    return counted(malloc(n), 1);
}

void *tlv_mem_calloc(size_t count, size_t size)
{
    INJECT(count && size);
    return counted(calloc(count, size), count && size);
}

/* realloc(p, 0) may return NULL having freed p: not a failure. */
void *tlv_mem_realloc(void *p, size_t n)
{
    INJECT(n != 0);
    return counted(realloc(p, n), n != 0);
}

char *tlv_mem_strdup(const char *s)
{
    INJECT(1);
    return counted(strdup(s), 1);
}

char *tlv_mem_strndup(const char *s, size_t n)
{
    INJECT(1);
    return counted(strndup(s, n), 1);
}
