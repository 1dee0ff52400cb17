/*
 * failalloc.c — allocation-failure injection for the tests (never shipped).
 *
 * An LD_PRELOAD library that makes the N-th allocation of a process fail:
 * malloc, calloc, realloc, reallocarray, strdup, strndup, posix_memalign,
 * aligned_alloc, memalign and valloc. Preloaded, it sits before libc, so it
 * sees every allocation of the process: tlv's own, and those of cJSON, PCRE2,
 * SQLite, SDL2, SDL2_ttf, FreeType, fontconfig and libpng, which all allocate
 * through malloc. tests/oom/sweep.sh runs a command once for every N.
 *
 *   TLV_FAILALLOC=N          fail the N-th allocation (1-based; 0 or unset:
 *                            fail none, only count)
 *   TLV_FAILALLOC_ALL=1      fail the N-th and every later one (else only it)
 *   TLV_FAILALLOC_REPORT=F   at exit, write to F "COUNT INJECTED": how many
 *                            allocations were made, and 1 when the failure
 *                            was injected, 0 when the run ended before N
 *   TLV_FAILALLOC_SKIP=A,B   allocations called from a library whose file
 *                            name contains A or B are neither counted nor
 *                            failed, nor those the C library makes for it
 *                            (opendir, fopen) (sweep.sh: libfontconfig and
 *                            libexpat, which crash on a failed allocation
 *                            of their own; see docs/robustness.md)
 *   TLV_FAILALLOC_THREAD=T   only allocations of threads named T count
 *                            (tlv-match: the converter's matching thread,
 *                            libtlv/src/pipeline.c), whoever makes them
 *                            (tlv's or PCRE2's)
 *   TLV_FAILALLOC_FROM=A+S,.. only allocations made while a function of the
 *                            program is running count: one whose call stack
 *                            (its innermost 16 frames) returns into
 *                            [A, A+S) of the main executable (hex, relative
 *                            to where it is loaded, as `nm -S` prints a
 *                            function: address and size). So a test fails
 *                            the K-th allocation of one function (and of
 *                            what it calls: libc's fopen, libpng, libtlv),
 *                            whichever thread runs it and however many
 *                            allocations the other threads make meanwhile
 *                            (tests/e2e/test_oom_view.sh)
 *
 * Counting starts when main() does (the shim wraps __libc_start_main):
 * libraries' constructors (GLib's, which aborts on a failed allocation by
 * design) run before the program can do anything about a failure.
 *
 * Only the thread that reaches N fails; with threads, which call that is can
 * change from run to run, which is fine: every call must cope.
 *
 * It forwards to the next definitions (dlsym RTLD_NEXT), so it also runs in
 * front of AddressSanitizer's allocator (ASAN_OPTIONS=verify_asan_link_order=0).
 * dlsym may allocate while the pointers are looked up: those calls are served
 * from a small static arena, which free() recognises.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <link.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static void *(*next_malloc)(size_t);
static void *(*next_calloc)(size_t, size_t);
static void *(*next_realloc)(void *, size_t);
static void (*next_free)(void *);
static int (*next_posix_memalign)(void **, size_t, size_t);
static void *(*next_aligned_alloc)(size_t, size_t);
static void *(*next_memalign)(size_t, size_t);

static atomic_ulong count;
static unsigned long fail_at;
static int fail_all;
static atomic_int injected;
static const char *report_path;
static char skip[256];
static char only_thread[16];
static _Thread_local int in_dladdr;
/* TLV_FAILALLOC_FROM: the ranges, relative to the executable's base. */
#define MAX_FROM 16
static struct { uintptr_t lo, hi; } from[MAX_FROM];
static int nfrom;
static uintptr_t exe_base;
static _Thread_local int in_backtrace;
static int ready;
static atomic_int armed; /* main() has started */

/* The bootstrap arena for allocations made while dlsym runs. */
static _Alignas(16) char arena[64 * 1024];
static size_t arena_used;
static int in_init;

static int in_arena(const void *p)
{
    return (const char *)p >= arena && (const char *)p < arena + sizeof arena;
}

static void *arena_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n > sizeof arena - arena_used)
        return NULL;
    void *p = arena + arena_used;
    arena_used += n;
    return p;
}

static void write_report(void)
{
    if (!report_path)
        return;
    FILE *f = fopen(report_path, "w");
    if (!f)
        return;
    fprintf(f, "%lu %d\n", (unsigned long)atomic_load(&count), atomic_load(&injected));
    fclose(f);
}

/* The first object dl_iterate_phdr reports is the main program. */
static int note_exe_base(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    exe_base = (uintptr_t)info->dlpi_addr;
    return 1;
}

/* TLV_FAILALLOC_FROM: "A+S,A+S,..." in hex. */
static void parse_from(const char *spec)
{
    if (!spec || !*spec)
        return;
    dl_iterate_phdr(note_exe_base, NULL);
    while (*spec && nfrom < MAX_FROM) {
        char *end;
        uintptr_t lo = (uintptr_t)strtoull(spec, &end, 16), size = 0;
        if (*end == '+')
            size = (uintptr_t)strtoull(end + 1, &end, 16);
        from[nfrom].lo = lo;
        from[nfrom].hi = lo + size;
        nfrom++;
        spec = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            break;
    }
    if (nfrom == 0) /* nothing parsed: match nothing rather than everything */
        nfrom = 1, from[0].lo = from[0].hi = 0;
}

/* Whether the calling thread is inside a function of TLV_FAILALLOC_FROM. */
static int outside_from(void)
{
    if (!nfrom)
        return 0;
    if (in_backtrace) /* backtrace's own first allocations (it loads libgcc_s) */
        return 1;
    void *frames[16];
    in_backtrace = 1;
    int n = backtrace(frames, 16);
    in_backtrace = 0;
    for (int i = 0; i < n; i++) {
        uintptr_t off = (uintptr_t)frames[i] - exe_base;
        for (int k = 0; k < nfrom; k++)
            if (off > from[k].lo && off <= from[k].hi) /* a return address: after the call */
                return 0;
    }
    return 1;
}

static void init(void)
{
    if (ready || in_init)
        return;
    in_init = 1;
    next_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    next_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    next_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    next_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    next_posix_memalign = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    next_aligned_alloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "aligned_alloc");
    next_memalign = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "memalign");
    const char *n = getenv("TLV_FAILALLOC");
    fail_at = n ? strtoul(n, NULL, 10) : 0;
    const char *all = getenv("TLV_FAILALLOC_ALL");
    fail_all = all && *all && strcmp(all, "0") != 0;
    const char *sk = getenv("TLV_FAILALLOC_SKIP");
    if (sk)
        snprintf(skip, sizeof skip, "%s", sk);
    const char *th = getenv("TLV_FAILALLOC_THREAD");
    if (th)
        snprintf(only_thread, sizeof only_thread, "%s", th);
    parse_from(getenv("TLV_FAILALLOC_FROM"));
    report_path = getenv("TLV_FAILALLOC_REPORT");
    if (report_path && *report_path)
        atexit(write_report);
    else
        report_path = NULL;
    in_init = 0;
    ready = 1;
}

__attribute__((constructor)) static void failalloc_start(void) { init(); }

typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static int armed_main(int argc, char **argv, char **envp)
{
    atomic_store(&armed, 1);
    return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init_fn)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void),
                            void (*)(void), void *);
    start_fn next = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
    real_main = main;
    return next(armed_main, argc, argv, init_fn, fini, rtld_fini, stack_end);
}

/* Whether the code at `code` is in a library of TLV_FAILALLOC_SKIP; *is_libc
 * (when not NULL) says whether it is in the C library. */
static int in_skipped_lib(const void *code, int *is_libc)
{
    in_dladdr = 1;
    Dl_info info;
    int found = dladdr(code, &info) && info.dli_fname;
    in_dladdr = 0;
    if (!found)
        return 0;
    if (is_libc)
        *is_libc = strstr(info.dli_fname, "/libc.so") != NULL;
    char list[sizeof skip];
    memcpy(list, skip, sizeof list);
    for (char *save = NULL, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save))
        if (*name && strstr(info.dli_fname, name))
            return 1;
    return 0;
}

/* Whether the code at `caller` is in a library of TLV_FAILALLOC_SKIP, or is
 * the C library allocating for one (fontconfig's opendir: a failure there
 * made it drop fonts quietly, and the view's layout changed with exit 0). */
static int skipped(const void *caller)
{
    if (!skip[0] || in_dladdr)
        return 0;
    int is_libc = 0;
    if (in_skipped_lib(caller, &is_libc))
        return 1;
    if (!is_libc)
        return 0;
    void *frames[10];
    in_backtrace = 1;
    int n = backtrace(frames, 10);
    in_backtrace = 0;
    for (int i = 0; i < n; i++)
        if (in_skipped_lib(frames[i], NULL))
            return 1;
    return 0;
}

/* Whether the calling thread is not the one TLV_FAILALLOC_THREAD names. */
static int other_thread(void)
{
    if (!only_thread[0])
        return 0;
    char name[16] = "";
    return prctl(PR_GET_NAME, name, 0, 0, 0) != 0 || strcmp(name, only_thread) != 0;
}

/* Whether this allocation, asked for by the code at `caller`, is to fail
 * (and counts it). */
#define should_fail() should_fail_from(__builtin_return_address(0))
static int should_fail_from(const void *caller)
{
    if (!ready || in_backtrace || !atomic_load_explicit(&armed, memory_order_relaxed) || other_thread() ||
        skipped(caller) ||
        outside_from())
        return 0;
    unsigned long k = atomic_fetch_add(&count, 1) + 1;
    if (fail_at == 0 || k < fail_at || (k > fail_at && !fail_all))
        return 0;
    atomic_store(&injected, 1);
    return 1;
}

static int fail(void)
{
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    if (!ready) {
        if (in_init)
            return arena_alloc(n);
        init();
    }
    if (should_fail() && fail())
        return NULL;
    return next_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    if (!ready) {
        if (in_init) {
            if (b && a > SIZE_MAX / b)
                return NULL;
            return arena_alloc(a * b); /* static memory is zeroed */
        }
        init();
    }
    if (should_fail() && fail())
        return NULL;
    return next_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    if (!ready)
        init();
    if (in_arena(p)) {
        size_t left = (size_t)(arena + sizeof arena - (char *)p);
        void *q = malloc(n);
        if (q) /* the old block may be shorter: the arena is readable to its end */
            memcpy(q, p, n < left ? n : left);
        return q;
    }
    if (n > 0 && should_fail() && fail())
        return NULL;
    return next_realloc(p, n);
}

void *reallocarray(void *p, size_t a, size_t b)
{
    if (b && a > SIZE_MAX / b) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, a * b);
}

void free(void *p)
{
    if (!p || in_arena(p))
        return;
    if (!ready)
        init();
    next_free(p);
}

/* A malloc on behalf of the code at `caller` (strdup's caller, not strdup). */
static void *malloc_for(size_t n, const void *caller)
{
    if (!ready)
        init();
    if (should_fail_from(caller) && fail())
        return NULL;
    return next_malloc(n);
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc_for(n, __builtin_return_address(0));
    return d ? memcpy(d, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    char *d = malloc_for(n + 1, __builtin_return_address(0));
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

int posix_memalign(void **out, size_t align, size_t n)
{
    if (!ready)
        init();
    if (should_fail())
        return ENOMEM;
    return next_posix_memalign(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    if (!ready)
        init();
    if (should_fail() && fail())
        return NULL;
    return next_aligned_alloc(align, n);
}

void *memalign(size_t align, size_t n)
{
    if (!ready)
        init();
    if (should_fail() && fail())
        return NULL;
    return next_memalign(align, n);
}

void *valloc(size_t n) { return memalign((size_t)sysconf(_SC_PAGESIZE), n); }
