/*
 * buf.h — growable byte buffers and small memory helpers shared by every
 * libtlv module. A buffer always keeps a NUL after its bytes, so its data can
 * be used as a C string. Allocation failure aborts nothing: functions return
 * -1 and leave the buffer as it was, and callers report TLV_ERR_NOMEM.
 */
#ifndef TLV_BUF_H
#define TLV_BUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct buf {
    char *data; /* NUL-terminated when cap > 0; NULL when empty and unused */
    size_t len;
    size_t cap;
} buf;

#define BUF_INIT {NULL, 0, 0}

int buf_reserve(buf *b, size_t extra);
int buf_append(buf *b, const char *s, size_t n);
int buf_puts(buf *b, const char *s);
int buf_putc(buf *b, char c);
int buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_vprintf(buf *b, const char *fmt, va_list ap);
void buf_clear(buf *b); /* len = 0, keeps memory */
void buf_free(buf *b);
/* The contents as a C string ("" for an unused buffer). */
const char *buf_str(const buf *b);

/* strdup / strndup that return NULL on allocation failure. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Reads a whole file into *out (NUL-terminated). Returns 0, or -1 with errno
 * set. */
int read_file(const char *path, buf *out);

/* Grows a dynamic array: ensures room for `need` elements of `size` bytes in
 * *arr whose capacity is *cap. Returns 0 or -1 on allocation failure. */
int grow_array(void **arr, size_t *cap, size_t need, size_t size);

#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof *(arr))

#endif
