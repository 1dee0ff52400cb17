/*
 * scratch.h — a unit test's scratch directory: made under $TMPDIR (or /tmp),
 * rule files and logs written into it, files read back whole, and the tree
 * removed at the end; and rule sets loaded from one directory only.
 * Header-only and static, so each test stays one program; include it after
 * check.h.
 */
#ifndef TLV_TEST_SCRATCH_H
#define TLV_TEST_SCRATCH_H

#include "tlv/tlv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char tmpdir[PATH_MAX];

/* Makes tmpdir ("tlv-test-NAME-XXXXXX"); exits when it cannot. */
static inline void make_tmpdir(const char *name)
{
    const char *base = getenv("TMPDIR");
    snprintf(tmpdir, sizeof tmpdir, "%s/tlv-test-%s-XXXXXX", base && *base ? base : "/tmp", name);
    if (!mkdtemp(tmpdir)) {
        fprintf(stderr, "mkdtemp %s: %s\n", tmpdir, strerror(errno));
        exit(1);
    }
}

/* Writes `text` to tmpdir/rel, making its directory (one level); exits when
 * it cannot. */
static inline void write_file(const char *rel, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    char *slash = strrchr(path, '/');
    *slash = '\0';
    mkdir(path, 0700);
    *slash = '/';
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

/* The whole file, NUL-terminated (its length in *len), or NULL. */
static inline char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *data = malloc(cap + 1);
    for (size_t got; data && (got = fread(data + n, 1, cap - n, f)) > 0;) {
        n += got;
        if (n == cap) {
            char *more = realloc(data, (cap *= 2) + 1);
            if (!more)
                free(data);
            data = more;
        }
    }
    fclose(f);
    if (!data)
        exit(1);
    data[n] = '\0';
    *len = n;
    return data;
}

/* Removes a directory tree (no symbolic links are made in it). */
static inline void remove_tree(const char *path)
{
    DIR *d = opendir(path);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d))) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
                continue;
            char sub[PATH_MAX + 512];
            if (snprintf(sub, sizeof sub, "%s/%s", path, e->d_name) < (int)sizeof sub)
                remove_tree(sub);
        }
        closedir(d);
    }
    remove(path);
}

/* Loads res_path with rules_dir as the only rule directory (no
 * TLV_RULES_PATH, no installed rules), so tests see only their own files. */
static inline tlv_status load_rules_in(const char *res_path, const char *rules_dir,
                                       tlv_rules **out)
{
    const char *dirs[] = {rules_dir};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    return tlv_rules_load(res_path, &o, out);
}

#endif
