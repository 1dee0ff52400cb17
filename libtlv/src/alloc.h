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
