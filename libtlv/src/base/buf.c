/*
 * buf.c — growable byte buffers, file slurping and array growth: the memory
 * plumbing every other module uses so that none of them reimplements it.
 */
#include "base/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int buf_grow(buf *b, size_t extra)
{
    size_t cap = b->cap ? b->cap : 64;
    while (cap < b->len + extra + 1) {
        if (cap > ((size_t)-1) / 2)
            return -1;
        cap *= 2;
    }
    char *d = b->borrowed ? malloc(cap) : realloc(b->data, cap);
    if (!d)
        return -1;
    if (b->borrowed && b->len)
        memcpy(d, b->data, b->len);
    b->borrowed = 0;
    b->data = d;
    b->cap = cap;
    return 0;
}

int buf_vprintf(buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || buf_reserve(b, (size_t)n) < 0)
        return -1;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = buf_vprintf(b, fmt, ap);
    va_end(ap);
    return r;
}

void buf_clear(buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void buf_free(buf *b)
{
    if (!b->borrowed)
        free(b->data);
    b->borrowed = 0;
    b->data = NULL;
    b->len = b->cap = 0;
}

const char *buf_str(const buf *b) { return b->data ? b->data : ""; }

char *xstrndup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *xstrdup(const char *s) { return s ? xstrndup(s, strlen(s)) : NULL; }

/* Opens path for reading without ever blocking in open(): a FIFO with no
 * writer blocked the opening of a rule file forever (issue 32.8). Reads then
 * block as usual, so a pipe with a writer (bash's <(...)) is read whole; one
 * with none reads as empty at once. */
static FILE *open_for_reading(const char *path, int *fifo)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    int flags = fcntl(fd, F_GETFL);
    *fifo = fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
    FILE *f = flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0 ? NULL : fdopen(fd, "rb");
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return f;
}

int read_file(const char *path, buf *out)
{
    int fifo = 0;
    FILE *f = open_for_reading(path, &fifo);
    if (!f)
        return -1;
    buf_clear(out);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        int too_big = out->len + n > READ_FILE_MAX;
        if (too_big || buf_append(out, chunk, n) < 0) {
            fclose(f);
            errno = too_big ? EFBIG : ENOMEM;
            return -1;
        }
    }
    int err = ferror(f);
    fclose(f);
    if (err) {
        errno = EIO;
        return -1;
    }
    if (fifo && out->len == 0) { /* no writer: not an empty rule file */
        errno = ENODATA;
        return -1;
    }
    if (buf_append(out, "", 0) < 0) /* an empty file still gets its NUL */
        return -1;
    return 0;
}

int grow_array(void **arr, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 8;
    while (n < need)
        n *= 2;
    void *p = realloc(*arr, n * size);
    if (!p)
        return -1;
    *arr = p;
    *cap = n;
    return 0;
}

void shrink_array(void **arr, size_t *cap, size_t n, size_t size)
{
    size_t want = n ? n : 1;
    if (!*arr || *cap <= want)
        return;
    void *p = realloc(*arr, want * size);
    if (p) {
        *arr = p;
        *cap = want;
    }
}

size_t buf_copy_out(const buf *b, char *out, size_t size)
{
    if (size) {
        size_t k = b->len < size - 1 ? b->len : size - 1;
        memcpy(out, buf_str(b), k);
        out[k] = '\0';
    }
    return b->len;
}

int hex_digit_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}
