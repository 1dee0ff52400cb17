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
    int borrowed; /* data is the caller's memory (e.g. on the stack): never
                     realloc'ed or freed; growing moves to the heap */
} buf;

#define BUF_INIT {NULL, 0, 0, 0}

/* A buffer that starts in the caller's memory, for hot paths that should not
 * allocate; buf_free() is still needed in case it grew. */
static inline void buf_init_borrowed(buf *b, char *mem, size_t size)
{
    b->data = mem;
    b->len = 0;
    b->cap = size;
    b->borrowed = 1;
    if (size)
        mem[0] = '\0';
}

int buf_grow(buf *b, size_t extra); /* the slow path of buf_reserve */

#include <string.h>

/* Copies n bytes: the short copies of the conversion's hot paths (a
 * template's literal, a group, a macro's value) without a call into memcpy,
 * with two overlapping loads and stores that stay within both ranges. */
static inline void copy_short(char *d, const char *s, size_t n)
{
    if (n > 16) {
        memcpy(d, s, n);
    } else if (n >= 8) {
        unsigned long long a, z;
        memcpy(&a, s, 8);
        memcpy(&z, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &z, 8);
    } else if (n >= 4) {
        unsigned a, z;
        memcpy(&a, s, 4);
        memcpy(&z, s + n - 4, 4);
        memcpy(d, &a, 4);
        memcpy(d + n - 4, &z, 4);
    } else if (n) {
        char a = s[0], m = s[n / 2], z = s[n - 1];
        d[0] = a;
        d[n / 2] = m;
        d[n - 1] = z;
    }
}

/* These run for every character of every converted line: inline fast paths. */
static inline int buf_reserve(buf *b, size_t extra)
{
    return b->len + extra + 1 <= b->cap ? 0 : buf_grow(b, extra);
}

static inline int buf_append(buf *b, const char *s, size_t n)
{
    if (buf_reserve(b, n) < 0)
        return -1;
    copy_short(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

static inline int buf_putc(buf *b, char c)
{
    if (buf_reserve(b, 1) < 0)
        return -1;
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
    return 0;
}

static inline int buf_puts(buf *b, const char *s) { return buf_append(b, s, strlen(s)); }
int buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_vprintf(buf *b, const char *fmt, va_list ap);
void buf_clear(buf *b); /* len = 0, keeps memory */
void buf_free(buf *b);
/* The contents as a C string ("" for an unused buffer). */
const char *buf_str(const buf *b);

/* Copies the buffer into out[size] like snprintf (cut, NUL-terminated when
 * size > 0) and returns its full length. */
size_t buf_copy_out(const buf *b, char *out, size_t size);

/* The value of a hexadecimal digit, or -1. */
int hex_digit_value(int c);

/* strdup / strndup that return NULL on allocation failure. */
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Reads a whole file into *out (NUL-terminated). Returns 0, or -1 with errno
 * set (EFBIG beyond READ_FILE_MAX bytes; ENODATA for a FIFO that had no
 * writer: opening never blocks). */
int read_file(const char *path, buf *out);

/* Files read whole are rule and resource files, a few hundred KB at most: a
 * path naming an endless device or a huge file by mistake must not take all
 * the memory. */
#define READ_FILE_MAX ((size_t)64 << 20)

/* Grows a dynamic array: ensures room for `need` elements of `size` bytes in
 * *arr whose capacity is *cap. Returns 0 or -1 on allocation failure. */
int grow_array(void **arr, size_t *cap, size_t need, size_t size);

#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof *(arr))

/* Gives back the unused end of a dynamic array of `n` elements of `size`
 * bytes: its capacity becomes n (at least 1). Growing doubles, so an array
 * that stops growing holds up to twice what it needs until shrunk. When
 * realloc fails the array stays as it was. */
void shrink_array(void **arr, size_t *cap, size_t n, size_t size);

#define SHRINK(arr, cap, n) shrink_array((void **)&(arr), &(cap), (n), sizeof *(arr))

#endif
