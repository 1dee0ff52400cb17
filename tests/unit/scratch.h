/*
 * scratch.h — a unit test's scratch directory: made under $TMPDIR (or /tmp),
 * rule files and logs written into it, files read back whole, and the tree
 * removed at the end; rule sets loaded from one directory only; and the
 * logs of ../shared/corpus with their resource files.
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

/* Loads res_path (load_rules_in) and converts log into a new trace, read
 * as a standard-form trace when its name ends in ".std"; lines that do not
 * convert are allowed. Returns TLV_OK with *rules and *trace set, or the
 * failing status with both freed and NULL. */
static inline tlv_status load_trace_in(const char *res_path, const char *rules_dir,
                                       const char *log, tlv_rules **rules, tlv_trace **trace)
{
    *trace = NULL;
    tlv_status st = load_rules_in(res_path, rules_dir, rules);
    if (st == TLV_OK)
        st = tlv_trace_new(*rules, trace);
    size_t n = strlen(log);
    if (st == TLV_OK && n > 4 && strcmp(log + n - 4, ".std") == 0)
        tlv_converter_set_standard_form(tlv_trace_converter(*trace), 1);
    if (st == TLV_OK) {
        tlv_status load = tlv_trace_load_file(*trace, log);
        if (load != TLV_OK && load != TLV_ERR_CONVERT)
            st = load;
    }
    if (st != TLV_OK) {
        tlv_trace_free(*trace);
        tlv_rules_free(*rules);
        *trace = NULL;
        *rules = NULL;
    }
    return st;
}

/* Calls fn with the resource file, rule directory, log and CPU attribute
 * (NULL: not per CPU) of each of the project's TOPPERS samples: ASP sample
 * and tour, FMP sample plain and per CPU (prcId). TLV_SOURCE_DIR or "." is
 * the source tree. */
static inline void each_toppers_sample(void (*fn)(const char *res, const char *rules_dir,
                                                  const char *log, const char *cpu))
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        src = ".";
    char rules[PATH_MAX], res[PATH_MAX + 64], log[PATH_MAX + 64];
    snprintf(rules, sizeof rules, "%s/rules", src);
    static const char *const toppers[][3] = {{"asp", "sample", NULL}, {"asp", "tour", NULL},
                                             {"fmp", "sample", NULL}, {"fmp", "sample", "prcId"}};
    for (size_t i = 0; i < sizeof toppers / sizeof *toppers; i++) {
        snprintf(res, sizeof res, "%s/samples/%s/%s.res", src, toppers[i][0], toppers[i][1]);
        snprintf(log, sizeof log, "%s/samples/%s/%s.log", src, toppers[i][0], toppers[i][1]);
        fn(res, rules, log, toppers[i][2]);
    }
}

/* The corpus log of directory `dir` that goes with LOG.res: LOG.log, or
 * else the directory's first log by name (fmp_mig.res goes with
 * fmp_short.log). Empty when there is none. */
static inline void corpus_log_for(const char *dir, const char *res_name, char *log, size_t size)
{
    struct stat st;
    snprintf(log, size, "%s/%.*s.log", dir, (int)(strlen(res_name) - 4), res_name);
    if (stat(log, &st) == 0)
        return;
    log[0] = '\0';
    DIR *d = opendir(dir);
    char first[NAME_MAX + 1] = "";
    for (struct dirent *e; d && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".log") == 0 && (!*first || strcmp(e->d_name, first) < 0))
            snprintf(first, sizeof first, "%s", e->d_name);
    }
    if (d)
        closedir(d);
    if (*first)
        snprintf(log, size, "%s/%s", dir, first);
}

/* Calls fn with each LOG.res of $TLV_CORPUS/logs/SUBDIR/, its log
 * (corpus_log_for) and the corpus rule directory. Returns how many, or -1
 * without a corpus. */
static inline long corpus_each_log(void (*fn)(const char *res, const char *log,
                                              const char *rules_dir, void *user),
                                   void *user)
{
    const char *corpus = getenv("TLV_CORPUS");
    char logs[PATH_MAX], rdir[PATH_MAX];
    if (!corpus || !*corpus)
        return -1;
    snprintf(logs, sizeof logs, "%s/logs", corpus);
    snprintf(rdir, sizeof rdir, "%s/rules", corpus);
    DIR *top = opendir(logs);
    if (!top)
        return -1;
    long count = 0;
    for (struct dirent *sub; (sub = readdir(top));) {
        char dir[PATH_MAX + 256];
        snprintf(dir, sizeof dir, "%s/%s", logs, sub->d_name);
        DIR *d = sub->d_name[0] != '.' ? opendir(dir) : NULL;
        for (struct dirent *e; d && (e = readdir(d));) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".res") != 0)
                continue;
            char res[PATH_MAX * 2], log[PATH_MAX * 2];
            snprintf(res, sizeof res, "%s/%s", dir, e->d_name);
            corpus_log_for(dir, e->d_name, log, sizeof log);
            if (*log) {
                fn(res, log, rdir, user);
                count++;
            }
        }
        if (d)
            closedir(d);
    }
    closedir(top);
    return count;
}

#endif
