/*
 * fuzz_cachefile.h — what the two cache-file targets (fuzz_cache: the trace
 * cache, fuzz_shapecache: the shape cache) share: a folder of their own
 * that goes when the run ends, finding the file the library wrote there,
 * and the input's edits to a copy of the genuine file (the format of the
 * edits is described in each target's opening comment).
 */
#ifndef TLV_FUZZ_CACHEFILE_H
#define TLV_FUZZ_CACHEFILE_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The whole file in memory from malloc, its size in *n; NULL when it
 * cannot be read. */
static inline unsigned char *fuzz_read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0, got;
    unsigned char *b = malloc(cap);
    while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap && !(b = realloc(b, cap *= 2)))
            break;
    }
    fclose(f);
    *n = len;
    return b;
}

/* Every file of the folder removed, then the folder (replayed in ctest,
 * the folders would pile up in /tmp). */
static inline void fuzz_remove_folder(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[600];
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    rmdir(dir);
}

/* DIR/NAME of the file in dir whose name holds `suffix` and is not a
 * temporary one, into path; 0, or -1 when there is none. */
static inline int fuzz_find_file(const char *dir, const char *suffix, char *path, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    path[0] = '\0';
    while (d && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, suffix) && !strstr(e->d_name, ".tmp"))
            snprintf(path, size, "%s/%s", dir, e->d_name);
    if (d)
        closedir(d);
    return path[0] ? 0 : -1;
}

/* The little-endian number of `bytes` bytes at p. */
static inline uint64_t fuzz_le(const uint8_t *p, int bytes)
{
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Applies the input's cut (byte 0's bit 1) and edit records to f, a copy
 * of a genuine file of `size0` bytes; the new size. Byte 0's bit 0 (mend
 * the hashes) is the caller's. */
static inline size_t fuzz_apply_edits(unsigned char *f, size_t size0, const uint8_t *data,
                                      size_t size)
{
    size_t n = size0, at = 1;
    if ((data[0] & 2) && size >= 5) {
        n = (size_t)(fuzz_le(data + 1, 4) % (size0 + 1));
        at = 5;
    }
    while (n && at + 5 <= size) {
        int kind = data[at] % 3, width = kind == 0 ? 1 : kind == 1 ? 4 : 8;
        size_t off = (size_t)(fuzz_le(data + at + 1, 4) % n);
        at += 5;
        if (at + (size_t)width > size)
            break;
        if (kind == 0)
            f[off] ^= data[at];
        else
            for (int i = 0; i < width && off + (size_t)i < n; i++)
                f[off + (size_t)i] = data[at + (size_t)i];
        at += (size_t)width;
    }
    return n;
}

#endif
