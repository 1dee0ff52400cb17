/*
 * bulk.h — large arrays that are read, no longer written, kept in an
 * unlinked temporary file on disk mapped into memory rather than in the
 * process's anonymous memory: their pages are in memory only while used,
 * and the kernel can write them out and drop them whenever it needs the
 * room (there is no swap to put anonymous memory). A finished trace's events
 * and a frozen shape store's columns live here when they are large; the
 * library's memory accounting reports them as file-backed parts, apart from
 * what is resident for certain.
 */
#ifndef TLV_BULK_H
#define TLV_BULK_H

#include <stddef.h>

/* Arrays smaller than this stay in anonymous memory: not worth a file. */
#define BULK_MIN_BYTES ((size_t)16 << 20)

/* One file-backed mapping. */
typedef struct bulk {
    void *at;      /* NULL when nothing is mapped */
    size_t bytes;  /* as mapped */
    int fd;        /* the file, for bulk_resize (bulk_new's); -1 when read-only */
} bulk;

/* A new writable file-backed mapping of `bytes` bytes (zeroes), for an
 * array that still grows: its blocks are reserved on disk up front, so that
 * writing through the mapping cannot fail later on a full disk. Returns 0,
 * or -1 (nothing mapped; errno as it was). */
int bulk_new(bulk *b, size_t bytes);

/* Makes a bulk_new mapping `bytes` long (its contents kept up to the
 * shorter length; it may move). Returns 0, or -1 (as it was). */
int bulk_resize(bulk *b, size_t bytes);

/* Copies the n parts[i] of sizes[i] bytes, one after another (each starting
 * at a multiple of 8), into a new unlinked file in a directory on disk
 * ($TMPDIR when it is on disk, else /var/tmp, else /tmp; never a tmpfs,
 * whose pages are memory after all) and maps it read-only into *out.
 * Returns 0, or -1 when no such file could be made, written or mapped (*out
 * then maps nothing, errno is left as it was, and the caller keeps the
 * arrays in memory). */
int bulk_keep(bulk *out, const void *const *parts, const size_t *sizes, size_t n);

/* Where part i of a bulk_keep starts in the mapping. */
size_t bulk_offset(const size_t *sizes, size_t i);

/* Unmaps (the file goes with it). */
void bulk_free(bulk *b);

/* Whether `bytes` more of anonymous memory is little beside what the
 * machine has available now: at most an eighth of MemAvailable
 * (/proc/meminfo). 0 when that cannot be read. For arrays that live only
 * briefly (written once, read, freed within one step), for which a file's
 * page faults and the kernel's writing back of dirty pages cost more than
 * the memory. */
int bulk_memory_spare(size_t bytes);

/* A growing array *at of *cap elements of `size` bytes: makes room for
 * `need` (doubling). While smaller than `min_bytes` it is malloc'd; past
 * that it moves to f's temporary file and grows there (doubling reserves
 * disk blocks, not memory), or stays in memory when no file can be had or
 * the disk is full. Returns 0, or -1 (no memory; the array as it was). */
int bulk_grow(bulk *f, void **at, size_t *cap, size_t need, size_t size, size_t min_bytes);

/* Gives back what growing reserved past n elements (at least 1), in memory
 * or in the file. */
void bulk_shrink(bulk *f, void **at, size_t *cap, size_t n, size_t size);

/* Frees an array of bulk_grow, in memory or in its file; *at becomes NULL. */
void bulk_release(bulk *f, void **at);

#define BULK_GROW(f, arr, cap, need, min) \
    bulk_grow(&(f), (void **)&(arr), &(cap), (need), sizeof *(arr), (min))
#define BULK_SHRINK(f, arr, cap, n) bulk_shrink(&(f), (void **)&(arr), &(cap), (n), sizeof *(arr))
#define BULK_RELEASE(f, arr) bulk_release(&(f), (void **)&(arr))

#endif
