/*
 * alloc.h — every allocation libtlv makes goes through here, so that a call
 * can tell whether one failed while it ran, even where the code that asked
 * coped quietly (a cache doing without, a list dropping an entry). The build
 * force-includes this header into every library source (CMakeLists.txt:
 * -include alloc.h), which turns malloc, calloc, realloc, strdup and strndup
 * into the counting versions below; free is untouched.
 *
 * The count is per thread (_Thread_local): a call reads it on entry and
 * again before it returns (ALLOC_WATCH / ALLOC_FAILED_SINCE) and returns
 * TLV_ERR_NOMEM ("out of memory while ...") when it grew. It is scratch
 * state of the calling thread, never shared between handles; a thread the
 * library starts itself must hand its count to the handle it works for.
 *
 * Failure injection (tests only). Built with the CMake option
 * TLV_FAULT_INJECTION (ON in the sanitizer build, OFF by default and so in
 * Release builds and installed libraries), the wrappers can be made to fail
 * on purpose, so that the failure paths are swept where an LD_PRELOAD
 * allocator cannot reach (AddressSanitizer owns malloc there):
 *   TLV_FAULT_INJECT=N          the N-th allocation of the process fails
 *                               (1-based; 0 or unset: none fails, counted only)
 *   TLV_FAULT_INJECT_ALL=1      ... and every later one too
 *   TLV_FAULT_INJECT_THREAD=T   only allocations of threads named T count
 *                               (e.g. tlv-match, the converter's matching
 *                               thread, pipeline.c)
 *   TLV_FAULT_INJECT_REPORT=F   at exit, "COUNT INJECTED" is written to F
 * This is the one process-wide state of the library, and it exists only in
 * builds made for the tests: without the option none of it is compiled and
 * the variables are not read. The tlv command, when built with the option,
 * sends its own allocations through the same wrappers (tests/oom/sweep.sh).
 */
#ifndef TLV_ALLOC_H
#define TLV_ALLOC_H

#include <stddef.h> /* only: this comes before each file's own feature macros */

void *tlv_mem_malloc(size_t n);
void *tlv_mem_calloc(size_t count, size_t size);
void *tlv_mem_realloc(void *p, size_t n);
char *tlv_mem_strdup(const char *s);
char *tlv_mem_strndup(const char *s, size_t n);

/* How many allocations have failed on this thread so far. */
unsigned long alloc_failures(void);

/* Counts a failure of a C library call that allocates for itself (opendir,
 * fopen: errno ENOMEM), which the wrappers do not see. */
void alloc_note_failure(void);

/* Names the calling thread (at most 15 bytes; seen in top -H, gdb, and by
 * TLV_FAULT_INJECT_THREAD and the tests' preloaded allocator). */
void alloc_name_thread(const char *name);

/* Marks the start of a call; ALLOC_FAILED_SINCE() is then true when an
 * allocation on this thread has failed since. */
#define ALLOC_WATCH unsigned long alloc_mark_ = alloc_failures()
#define ALLOC_FAILED_SINCE() (alloc_failures() != alloc_mark_)

#ifndef TLV_ALLOC_IMPLEMENTATION
#define malloc(n) tlv_mem_malloc(n)
#define calloc(a, b) tlv_mem_calloc(a, b)
#define realloc(p, n) tlv_mem_realloc(p, n)
#define strdup(s) tlv_mem_strdup(s)
#define strndup(s, n) tlv_mem_strndup(s, n)
#endif

#endif
