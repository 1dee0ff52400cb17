/*
 * test_bulk_fallback.c — large arrays stay in memory when no temporary file
 * can be had (bulk.c, issue 19.0): a trace's events and the shape build's
 * arrays go to an unlinked file in $TMPDIR, /var/tmp or /tmp (never a
 * tmpfs) once large; when there is no such directory, when it is read-only,
 * or when its disk is full (ENOSPC while reserving the blocks up front, or
 * while growing), they stay in (or come back to) memory and the trace and
 * its shapes are exactly those of a build kept in memory from the start.
 *
 * Runs in a mount namespace of its own (unshare, so root only; skipped
 * otherwise) where /tmp and /var/tmp are tmpfs (refused by design), TMPDIR
 * names in turn: a directory that does not exist, a read-only bind mount of
 * a directory on disk, and an overlay whose upper layer is a 128 KB tmpfs
 * (an overlay is not a tmpfs to statfs, so bulk.c takes it for a disk, and
 * it fills up for real). As a control, TMPDIR on the disk the test runs
 * from makes the arrays file-backed, so the cases above do test the way
 * back. The file sizes are small because the trace's file_min is set to
 * 4 KB (trace_impl.h), as tests/unit/test_memory.c does.
 */
#define _GNU_SOURCE
#include "check.h"

#include "base/bulk.h"
#include "trace/trace_impl.h"

#include <tlv/tlv.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#define OVERLAY_MAGIC 0x794c7630

static char log_path[PATH_MAX];

/* tlv-gen's log of `lines` lines, made in the current directory before
 * /tmp is covered (the build, and so tlv-gen, may live under /tmp, as a CI
 * clone does), then kept open and read as /proc/self/fd/N, which the
 * tmpfs mounted over /tmp does not hide. */
static void generate_log(int lines)
{
    const char *gen = getenv("TLV_GEN"), *name = "bulk-fallback.log";
    char cmd[PATH_MAX * 2];
    snprintf(cmd, sizeof cmd, "'%s' --lines %d --seed 1 -o %s", gen, lines, name);
    CHECK_INT(system(cmd), 0);
    int fd = open(name, O_RDONLY);
    CHECK(fd >= 0);
    unlink(name);
    snprintf(log_path, sizeof log_path, "/proc/self/fd/%d", fd);
}

typedef struct built {
    tlv_trace *trace;
    tlv_shapes *shapes;
    int file_backed; /* some part of the trace or the shapes was in a file */
} built;

static void note_part(void *user, const char *part, size_t bytes)
{
    size_t n = strlen(part), k = strlen(TLV_MEMORY_FILE_BACKED);
    if (bytes && n >= k && strcmp(part + n - k, TLV_MEMORY_FILE_BACKED) == 0)
        *(int *)user = 1;
}

static built build(const tlv_rules *rules, size_t file_min)
{
    built b = {0};
    CHECK_INT(tlv_trace_new(rules, &b.trace), TLV_OK);
    b.trace->file_min = file_min;
    CHECK_INT(tlv_trace_load_file(b.trace, log_path), TLV_OK);
    tlv_shapes_options so = TLV_SHAPES_OPTIONS_INIT;
    CHECK_INT(tlv_shapes_build(b.trace, &so, &b.shapes), TLV_OK);
    tlv_trace_memory(b.trace, note_part, &b.file_backed);
    tlv_shapes_memory(b.shapes, note_part, &b.file_backed);
    return b;
}

static void built_free(built *b)
{
    tlv_shapes_free(b->shapes);
    tlv_trace_free(b->trace);
}

/* One line of every field of shape i that a user sees. */
static void shape_line(const tlv_shapes *s, size_t i, char *out, size_t size)
{
    tlv_shape_info x;
    tlv_shapes_get(s, i, &x);
    snprintf(out, size, "%s|%s|%s|%zu|%lld.%u|%lld.%u|%s|%s|%u|%u|%s|%zu|%zu", x.rule, x.event,
             x.resource ? x.resource : "-", (size_t)x.row, (long long)x.from.ticks,
             (unsigned)x.from.frac, (long long)x.to.ticks, (unsigned)x.to.frac,
             x.type ? x.type : "-", x.text ? x.text : "-", (unsigned)x.fill, (unsigned)x.pen,
             x.value ? x.value : "-", (size_t)x.from_event, (size_t)x.to_event);
}

/* b is the in-memory build `ref` exactly: the same events, the same shapes. */
static void check_same(const built *ref, const built *b, const char *what)
{
    size_t nev = tlv_trace_event_count(ref->trace), n = tlv_shapes_count(ref->shapes);
    CHECK_INT(tlv_trace_event_count(b->trace), nev);
    CHECK(nev > 1000);
    CHECK(nev == tlv_trace_event_count(b->trace) &&
          memcmp(ref->trace->ev, b->trace->ev, nev * sizeof(trace_event)) == 0);
    CHECK_INT(tlv_shapes_count(b->shapes), n);
    size_t differ = 0;
    for (size_t i = 0; i < n && i < tlv_shapes_count(b->shapes); i++) {
        char x[1024], y[1024];
        shape_line(ref->shapes, i, x, sizeof x);
        shape_line(b->shapes, i, y, sizeof y);
        differ += strcmp(x, y) != 0;
    }
    if (differ)
        fprintf(stderr, "%s: %zu of %zu shapes differ\n", what, differ, n);
    CHECK_INT(differ, 0);
}

/* The bulk.c calls themselves: no file for a new array or kept parts, and
 * an array grown far past file_min stays whole, in memory. */
static void check_no_file(const char *what)
{
    bulk f = {0};
    errno = 1234;
    CHECK_INT(bulk_new(&f, 1 << 20), -1);
    CHECK(f.at == NULL);
    CHECK_INT(errno, 1234); /* left as it was */
    int data[256] = {1};
    const void *parts[] = {data};
    size_t sizes[] = {sizeof data};
    CHECK_INT(bulk_keep(&f, parts, sizes, 1), -1);
    CHECK(f.at == NULL);
    bulk g = {.fd = -1};
    int *arr = NULL;
    size_t cap = 0;
    int i = 0;
    for (; i < 100000 && BULK_GROW(g, arr, cap, (size_t)i + 1, 4096) == 0; i++)
        arr[i] = i;
    CHECK_INT(i, 100000); /* every growth succeeded */
    CHECK(g.at == NULL);
    int bad = 0;
    for (int k = 0; k < i; k++)
        bad += arr[k] != k;
    CHECK_INT(bad, 0);
    BULK_RELEASE(g, arr);
    if (check_failures)
        fprintf(stderr, "(in the case: %s)\n", what);
}

/* A disk that fills while an array grows in its file: the array comes back
 * to memory whole (bulk_grow's "the disk is full" way). */
static void check_fills_up(void)
{
    bulk g = {.fd = -1};
    int *arr = NULL;
    size_t cap = 0;
    int was_in_file = 0;
    int i = 0;
    for (; i < 200000 && BULK_GROW(g, arr, cap, (size_t)i + 1, 4096) == 0; i++) {
        was_in_file |= g.at != NULL;
        arr[i] = i;
    }
    CHECK_INT(i, 200000); /* every growth succeeded */
    CHECK(was_in_file);   /* it was in the file first */
    CHECK(g.at == NULL);  /* then 800 KB did not fit in 128 KB */
    int bad = 0;
    for (int k = 0; k < i; k++)
        bad += arr[k] != k;
    CHECK_INT(bad, 0);
    BULK_RELEASE(g, arr);
    bulk f = {0};
    CHECK_INT(bulk_new(&f, 1 << 20), -1); /* ENOSPC reserving the blocks */
}

/* A build with file_min 4 KB under the current TMPDIR equals ref; its
 * arrays were in a file or not, as `file_backed` says (-1: either). */
static void check_build(const tlv_rules *rules, const built *ref, int file_backed, const char *what)
{
    built b = build(rules, 4096);
    if (file_backed >= 0)
        CHECK_INT(b.file_backed, file_backed);
    check_same(ref, &b, what);
    built_free(&b);
}

static int on_disk(const char *dir)
{
    struct statfs fs;
    return statfs(dir, &fs) == 0 && fs.f_type != 0x01021994 && fs.f_type != 0x858458f6;
}

int main(void)
{
    const char *gen = getenv("TLV_GEN"), *src = getenv("TLV_SOURCE_DIR");
    if (!gen || !src)
        SKIP("TLV_GEN and TLV_SOURCE_DIR not set (run through ctest)");
    /* The builder's short-lived arrays stay in memory when small beside
     * what is available (viz_events.c): 4 KB is, SIZE_MAX never. */
    if (access("/proc/meminfo", R_OK) == 0)
        CHECK(bulk_memory_spare(4096));
    CHECK(!bulk_memory_spare(SIZE_MAX));
    if (geteuid() != 0)
        SKIP("needs root (a mount namespace with tmpfs on /tmp and /var/tmp)");
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        SKIP("cannot make a mount namespace here");
    /* Everything read from the build or source tree is read before /tmp is
     * covered; the directory on disk is kept as an open descriptor. */
    generate_log(20000);
    char res[PATH_MAX + 64];
    snprintf(res, sizeof res, "%s/samples/asp/sample.res", src);
    tlv_rules *rules = NULL;
    CHECK_INT(tlv_rules_load(res, NULL, &rules), TLV_OK);
    if (!rules)
        return CHECK_DONE();
    char disk[PATH_MAX];
    int disk_fd = open(".", O_RDONLY | O_DIRECTORY);
    CHECK(disk_fd >= 0);
    snprintf(disk, sizeof disk, "/proc/self/fd/%d", disk_fd);
    if (mount("tlvtmp", "/tmp", "tmpfs", 0, "size=64m") != 0 ||
        mount("tlvvartmp", "/var/tmp", "tmpfs", 0, "size=1m") != 0)
        SKIP("cannot mount a tmpfs on /tmp and /var/tmp");

    unsetenv("TMPDIR");
    built ref = build(rules, SIZE_MAX); /* never a file */
    CHECK(!ref.file_backed);

    /* Control: a directory on disk takes the arrays. */
    if (on_disk(disk)) {
        setenv("TMPDIR", disk, 1);
        check_build(rules, &ref, 1, "TMPDIR on disk");
    } else {
        printf("control skipped: %s is not on disk\n", disk);
    }

    /* No temporary directory at all: TMPDIR missing, the others tmpfs. */
    setenv("TMPDIR", "/nonexistent/tlv-bulk", 1);
    check_no_file("no temp dir");
    check_build(rules, &ref, 0, "no temporary directory");
    unsetenv("TMPDIR");
    check_no_file("TMPDIR unset, /var/tmp and /tmp tmpfs");

    /* A read-only directory on disk. */
    if (on_disk(disk) && mkdir("/tmp/ro", 0700) == 0 &&
        mount(disk, "/tmp/ro", NULL, MS_BIND, NULL) == 0 &&
        mount(NULL, "/tmp/ro", NULL, MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) == 0) {
        setenv("TMPDIR", "/tmp/ro", 1);
        check_no_file("read-only");
        check_build(rules, &ref, 0, "read-only TMPDIR");
    } else {
        printf("read-only case skipped: cannot bind-mount %s read-only\n", disk);
    }

    /* A full disk: an overlay (not a tmpfs to statfs) on a 128 KB tmpfs. */
    if (mkdir("/tmp/small", 0700) == 0 && mount("tlvsmall", "/tmp/small", "tmpfs", 0, "size=128k") == 0 &&
        mkdir("/tmp/small/upper", 0700) == 0 && mkdir("/tmp/small/work", 0700) == 0 &&
        mkdir("/tmp/lower", 0700) == 0 && mkdir("/tmp/full", 0700) == 0 &&
        mount("tlvfull", "/tmp/full", "overlay", 0,
              "lowerdir=/tmp/lower,upperdir=/tmp/small/upper,workdir=/tmp/small/work") == 0) {
        struct statfs fs;
        CHECK(statfs("/tmp/full", &fs) == 0 && fs.f_type == OVERLAY_MAGIC);
        setenv("TMPDIR", "/tmp/full", 1);
        check_fills_up();
        check_build(rules, &ref, -1, "full disk");
    } else {
        printf("full-disk case skipped: cannot mount an overlay on a small tmpfs: %s\n",
               strerror(errno));
    }
    built_free(&ref);
    tlv_rules_free(rules);
    return CHECK_DONE();
}
