/*
 * bulk.c — read-only arrays in an unlinked, mapped temporary file (bulk.h).
 */
#define _GNU_SOURCE
#include "base/bulk.h"

#include "base/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/statfs.h>
#include <sys/types.h>
#include <unistd.h>

#define TMPFS_MAGIC_NUMBER 0x01021994
#define RAMFS_MAGIC_NUMBER 0x858458f6

static size_t round8(size_t n) { return (n + 7) & ~(size_t)7; }

size_t bulk_offset(const size_t *sizes, size_t i)
{
    size_t at = 0;
    for (size_t k = 0; k < i; k++)
        at += round8(sizes[k]);
    return at;
}

/* Whether dir is a directory on a file system that keeps its files on disk. */
static int on_disk(const char *dir)
{
    struct statfs fs;
    if (!dir || !*dir || statfs(dir, &fs) != 0)
        return 0;
    return fs.f_type != TMPFS_MAGIC_NUMBER && fs.f_type != RAMFS_MAGIC_NUMBER;
}

/* A new file no name refers to, in dir, or -1. */
static int unnamed_file(const char *dir)
{
#ifdef O_TMPFILE
    int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    size_t n = strlen(dir);
    char *path = malloc(n + sizeof "/tlv-bulk.XXXXXX");
    if (!path)
        return -1;
    memcpy(path, dir, n);
    memcpy(path + n, "/tlv-bulk.XXXXXX", sizeof "/tlv-bulk.XXXXXX");
    int named = mkostemp(path, O_CLOEXEC);
    if (named >= 0)
        unlink(path);
    free(path);
    return named;
}

static int temp_file(void)
{
    const char *dirs[] = {getenv("TMPDIR"), "/var/tmp", "/tmp"};
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
        if (!on_disk(dirs[i]))
            continue;
        int fd = unnamed_file(dirs[i]);
        if (fd >= 0)
            return fd;
    }
    return -1;
}

static int write_all(int fd, const void *data, size_t n)
{
    const char *p = data;
    while (n) {
        ssize_t w = write(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int bulk_new(bulk *b, size_t bytes)
{
    int saved = errno;
    b->at = NULL;
    b->bytes = 0;
    b->fd = bytes ? temp_file() : -1;
    void *at = MAP_FAILED;
    if (b->fd >= 0 && posix_fallocate(b->fd, 0, (off_t)bytes) == 0)
        at = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, b->fd, 0);
    errno = saved;
    if (at == MAP_FAILED) {
        if (b->fd >= 0)
            close(b->fd);
        b->fd = -1;
        return -1;
    }
    b->at = at;
    b->bytes = bytes;
    return 0;
}

int bulk_resize(bulk *b, size_t bytes)
{
    int saved = errno;
    if (b->fd < 0 || !bytes)
        return -1;
    int ok = bytes <= b->bytes || posix_fallocate(b->fd, 0, (off_t)bytes) == 0;
    void *at = ok ? mremap(b->at, b->bytes, bytes, MREMAP_MAYMOVE) : MAP_FAILED;
    if (at != MAP_FAILED && bytes < b->bytes && ftruncate(b->fd, (off_t)bytes) != 0) {
        /* the file keeps its tail: harmless */
    }
    errno = saved;
    if (at == MAP_FAILED)
        return -1;
    b->at = at;
    b->bytes = bytes;
    return 0;
}

int bulk_keep(bulk *out, const void *const *parts, const size_t *sizes, size_t n)
{
    int saved = errno;
    out->at = NULL;
    out->fd = -1;
    out->bytes = bulk_offset(sizes, n);
    if (!out->bytes)
        return -1;
    int fd = temp_file();
    int ok = fd >= 0;
    static const char pad[8];
    for (size_t i = 0; ok && i < n; i++)
        ok = write_all(fd, parts[i], sizes[i]) == 0 &&
             write_all(fd, pad, round8(sizes[i]) - sizes[i]) == 0;
    void *at = ok ? mmap(NULL, out->bytes, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
    if (fd >= 0)
        close(fd); /* the mapping keeps the file */
    errno = saved;
    if (at == MAP_FAILED)
        return -1;
    out->at = at;
    return 0;
}

void bulk_free(bulk *b)
{
    if (b->at) {
        munmap(b->at, b->bytes);
        if (b->fd >= 0)
            close(b->fd);
    }
    b->at = NULL;
    b->bytes = 0;
    b->fd = -1;
}

int bulk_memory_spare(size_t bytes)
{
    int saved = errno;
    FILE *f = fopen("/proc/meminfo", "r");
    errno = saved;
    if (!f)
        return 0;
    char line[128];
    unsigned long long kb = 0;
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = sscanf(line, "MemAvailable: %llu kB", &kb) == 1;
    fclose(f);
    errno = saved;
    return found && bytes / 1024 <= kb / 8;
}

/* ---- growing arrays ------------------------------------------------------------- */

int bulk_grow(bulk *f, void **at, size_t *cap, size_t need, size_t size, size_t min_bytes)
{
    if (need <= *cap)
        return 0;
    size_t n = *cap ? *cap : 8;
    while (n < need && n <= SIZE_MAX / 4 / size)
        n *= 2;
    if (n < need)
        return -1;
    if (f->at && bulk_resize(f, n * size) == 0) {
        *at = f->at;
        *cap = n;
        return 0;
    }
    if (f->at) { /* the disk is full: on in memory */
        void *mem = malloc(n * size);
        if (!mem)
            return -1;
        memcpy(mem, *at, *cap * size);
        bulk_free(f);
        *at = mem;
        *cap = n;
        return 0;
    }
    if (n * size < min_bytes || bulk_new(f, n * size) < 0) /* small, or no file */
        return grow_array(at, cap, need, size);
    if (*cap)
        memcpy(f->at, *at, *cap * size);
    free(*at);
    *at = f->at;
    *cap = n;
    return 0;
}

void bulk_shrink(bulk *f, void **at, size_t *cap, size_t n, size_t size)
{
    if (!f->at) {
        shrink_array(at, cap, n, size);
    } else if (n && n < *cap && bulk_resize(f, n * size) == 0) {
        *at = f->at;
        *cap = n;
    }
}

void bulk_release(bulk *f, void **at)
{
    if (f->at)
        bulk_free(f);
    else
        free(*at);
    *at = NULL;
}
