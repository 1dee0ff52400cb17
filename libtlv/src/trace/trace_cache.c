/*
 * trace_cache.c — tlv_trace_load_file_cached: a log converted once is read
 * back from a cache file the next time (docs/cache.md). This file decides:
 * where the cache of a log lives, its key (the log's size, modification
 * time and first and last megabyte, the rule files, the standard-form
 * choice; the tlv version and the format are in the header), whether the
 * cache found is a hit, a hit on a prefix of a log that grew, or a miss,
 * and says which in the trace's cache note. Writing and reading the file
 * are trace_save.c's and trace_restore.c's.
 */
#include "base/buf.h"
#include "base/xxh64.h"
#include "convert/convert_impl.h"
#include "trace/trace_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void note(tlv_trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(tlv_trace *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->cache_note, sizeof t->cache_note, fmt, ap);
    va_end(ap);
}

const char *tlv_trace_cache_note(const tlv_trace *t) { return t ? t->cache_note : ""; }

/* ---- the key ----------------------------------------------------------------------------- */

/* XXH64 of bytes [from, from + n) of the file fd, or of what it has. */
static int hash_range(int fd, uint64_t from, uint64_t n, uint64_t *out)
{
    char *buf = malloc(CACHE_KEY_SPAN);
    if (!buf)
        return -1;
    xxh64_state s;
    xxh64_init(&s);
    while (n) {
        ssize_t r = pread(fd, buf, n < CACHE_KEY_SPAN ? (size_t)n : CACHE_KEY_SPAN, (off_t)from);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        xxh64_update(&s, buf, (size_t)r);
        from += (uint64_t)r;
        n -= (uint64_t)r;
    }
    free(buf);
    *out = xxh64_digest(&s);
    return n ? -1 : 0;
}

/* The hashes of the first and last megabyte of the log's first `size` bytes. */
static int hash_ends(int fd, uint64_t size, uint64_t *head, uint64_t *tail)
{
    uint64_t span = size < CACHE_KEY_SPAN ? size : CACHE_KEY_SPAN;
    return hash_range(fd, 0, span, head) < 0 || hash_range(fd, size - span, span, tail) < 0
               ? -1 : 0;
}

/* Adds the name and bytes of the file at `path`. */
static int hash_file(xxh64_state *s, const char *path)
{
    xxh64_update(s, path, strlen(path) + 1);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    uint64_t h;
    int rc = fd >= 0 && fstat(fd, &sb) == 0 && hash_range(fd, 0, (uint64_t)sb.st_size, &h) == 0
                 ? 0 : -1;
    if (fd >= 0)
        close(fd);
    if (rc == 0)
        xxh64_update(s, &h, sizeof h);
    return rc;
}

/* Every rule file the rules were read from: the resource file and the
 * files its targets were found in. */
static int rules_hash(const tlv_rules *r, uint64_t *out)
{
    xxh64_state s;
    xxh64_init(&s);
    if (r->res_path && hash_file(&s, r->res_path) < 0)
        return -1;
    for (size_t i = 0; i < r->nfiles; i++)
        if (hash_file(&s, r->files[i].path) < 0)
            return -1;
    *out = xxh64_digest(&s);
    return 0;
}

/* The key of the log open as fd (st: its stat). */
static int make_key(tlv_trace *t, int fd, const struct stat *st, cache_key *k)
{
    memset(k, 0, sizeof *k);
    k->log_bytes = (uint64_t)st->st_size;
    k->mtime_sec = (int64_t)st->st_mtim.tv_sec;
    k->mtime_nsec = (int64_t)st->st_mtim.tv_nsec;
    k->flags = converter_reads_standard_form(t->conv) ? CACHE_STANDARD_FORM : 0;
    char last = 0;
    if (k->log_bytes && pread(fd, &last, 1, (off_t)(k->log_bytes - 1)) == 1 && last == '\n')
        k->flags |= CACHE_ENDS_WITH_LF;
    return hash_ends(fd, k->log_bytes, &k->head_hash, &k->tail_hash) < 0 ||
                   rules_hash(t->rules, &k->rules_hash) < 0
               ? -1 : 0;
}

/* ---- where --------------------------------------------------------------------------------- */

/* The cache folder: dir, else $XDG_CACHE_HOME/tlv, else $HOME/.cache/tlv,
 * made (with its parents) when `make`. NULL when there is none (why says). */
static char *cache_folder(const char *dir, int make, char *why, size_t whysz)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    char path[PATH_MAX];
    int n = dir                 ? snprintf(path, sizeof path, "%s", dir)
            : xdg && xdg[0] == '/' ? snprintf(path, sizeof path, "%s/tlv", xdg)
            : home && *home        ? snprintf(path, sizeof path, "%s/.cache/tlv", home)
                                   : -1;
    if (n < 0 || (size_t)n >= sizeof path) {
        snprintf(why, whysz, "no cache folder: neither XDG_CACHE_HOME nor HOME is set");
        return NULL;
    }
    for (char *p = path + 1; make; p++) { /* mkdir -p, each part 0700 */
        char c = *p;
        if (c != '/' && c != '\0')
            continue;
        *p = '\0';
        int ok = mkdir(path, 0700) == 0 || errno == EEXIST;
        if (!ok) {
            snprintf(why, whysz, "cannot make the cache folder '%.150s': %s", path, strerror(errno));
            return NULL;
        }
        *p = c;
        if (!c)
            break;
    }
    return strdup(path);
}

/* The cache file of the log at `path` in folder `dir`: its base name, then
 * the hash of its full path (two logs of one name in two folders). */
static char *cache_file_name(const char *dir, const char *path)
{
    char full[PATH_MAX];
    const char *key = realpath(path, full) ? full : path;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    size_t n = strlen(dir) + strlen(base) + 40;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%s/%.64s-%016llx.tlvcache", dir, base,
                 (unsigned long long)xxh64(key, strlen(key)));
    return out;
}

/* ---- hit or miss -------------------------------------------------------------------------- */

/* Which key part differs: NULL when the cache is the log's (*prefix 0), or
 * the beginning of it (*prefix 1): the log grew, or the cache was made
 * while the log was read and not finished (a viewer's), which a load goes
 * on from as from a prefix. `need_prefix`: only a cache that can be gone
 * on from will do. */
static const char *compare(const cache_header *h, const cache_key *k, int fd, int need_prefix,
                           int *prefix)
{
    *prefix = 0;
    if (h->rules_hash != k->rules_hash)
        return "the rule files changed";
    if ((h->flags ^ k->flags) & CACHE_STANDARD_FORM)
        return k->flags & CACHE_STANDARD_FORM ? "the log was converted, now it is read as standard form"
                                              : "the log was read as standard form, now it is converted";
    if (h->log_bytes == k->log_bytes) {
        if (h->log_mtime_sec != k->mtime_sec || h->log_mtime_nsec != k->mtime_nsec)
            return "the log's modification time changed";
        if (h->log_head_hash != k->head_hash)
            return "the log's first megabyte changed";
        if (h->log_tail_hash != k->tail_hash)
            return "the log's last megabyte changed";
        *prefix = need_prefix || (h->flags & CACHE_UNFINISHED);
        if (*prefix && !(h->flags & CACHE_ENDS_WITH_LF))
            return "the log's last line has no line end";
        return NULL;
    }
    if (h->log_bytes > k->log_bytes || !(h->flags & CACHE_ENDS_WITH_LF))
        return "the log's size changed";
    /* Grown: the same first megabyte, and the cached last one where it was. */
    uint64_t head, tail;
    if (hash_ends(fd, h->log_bytes, &head, &tail) < 0 || head != h->log_head_hash ||
        tail != h->log_tail_hash)
        return "the log's size changed";
    *prefix = 1;
    return NULL;
}

/* ---- which cache the trace is ------------------------------------------------------------ */

/* Notes that t is now the trace of the cache file `file` (header hash id),
 * holding the log's first `bytes`: the shape cache (viz_cache.c) keys its
 * shapes by that. Out of memory, it is no cache's. */
static void identify(tlv_trace *t, const char *file, uint64_t id, uint64_t bytes)
{
    free(t->cache_path);
    t->cache_path = strdup(file);
    t->cache_id = t->cache_path ? id : 0;
    t->cache_id_bytes = bytes;
    t->cache_values = intern_count(t->w->values);
}

/* ---- the lines no rule matched, kept as the conversion goes ---------------------------- */

/* The converter's unmatched-line function while a cache may be written:
 * it keeps each line and tells the caller's function as before. */
struct cache_recorder {
    cache_extra x;
    tlv_unmatched_fn fn;  /* the caller's */
    void *user;
};

static void record_unmatched(void *user, uint64_t line, const char *text, size_t len)
{
    cache_recorder *r = user;
    if (r->fn)
        r->fn(r->user, line, text, len);
    cache_extra *x = &r->x;
    if (x->nomem)
        return;
    if (GROW(x->unmatched, x->unmatched_cap, x->nunmatched + 1) < 0 ||
        GROW(x->unmatched_text, x->unmatched_text_cap, x->unmatched_len + len + 1) < 0) {
        x->nomem = 1;
        return;
    }
    x->unmatched[x->nunmatched++] = (cache_unmatched){line, x->unmatched_len, len};
    memcpy(x->unmatched_text + x->unmatched_len, text, len);
    x->unmatched_len += len;
}

/* Puts the recorder in front of the caller's function (once). Returns it,
 * or NULL (no memory: no cache will be written). */
static cache_recorder *recorder_start(tlv_trace *t)
{
    if (t->cache_rec)
        return t->cache_rec;
    cache_recorder *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->fn = converter_unmatched_fn(t->conv, &r->user);
    tlv_converter_set_unmatched_fn(t->conv, record_unmatched, r);
    t->cache_rec = r;
    return r;
}

/* Gives the caller's function back (the lines kept stay, for a save). */
static void recorder_stop(tlv_trace *t)
{
    if (t->cache_rec)
        tlv_converter_set_unmatched_fn(t->conv, t->cache_rec->fn, t->cache_rec->user);
}

void trace_cache_free(tlv_trace *t)
{
    cache_recorder *r = t->cache_rec;
    if (!r)
        return;
    free(r->x.unmatched);
    free(r->x.unmatched_text);
    free(r);
    t->cache_rec = NULL;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* Reads the cache at `file` into t when it is the log's: 0 done (*status
 * set), 2 done up to where the cache ends, the rest to be converted (its
 * lines no rule matched are in the recorder), 1 a miss (*reason says
 * why), -1 out of memory with t unusable. */
static int try_cache(tlv_trace *t, const char *file, const char *path, const cache_key *k,
                     int fd, int need_prefix, tlv_status *status, char *reason, size_t rsz)
{
    cache_file *f;
    int rc = cache_open(file, &f, reason, rsz);
    if (rc <= 0) {
        if (rc < 0)
            snprintf(reason, rsz, "out of memory while opening it");
        return 1;
    }
    int prefix;
    const cache_header *h = cache_header_of(f);
    const char *differs = compare(h, k, fd, need_prefix, &prefix);
    if (differs) {
        snprintf(reason, rsz, "%s", differs);
        cache_close(f);
        return 1;
    }
    if (!cache_verify(f, reason, rsz)) {
        cache_close(f);
        return 1;
    }
    uint64_t covered = h->log_bytes;
    int grew = covered < k->log_bytes;
    tlv_converter_set_source_name(t->conv, path);
    rc = cache_restore(f, t, path, prefix, status, reason, rsz);
    if (rc == 0) {
        cache_recorder *r = t->cache_rec;
        cache_replay_unmatched(f, r ? r->fn : NULL, r ? r->user : NULL);
        if (r && (r->x.nunmatched || cache_copy_unmatched(f, &r->x) < 0))
            r->x.nomem = 1; /* the next cache would lack them: none is written */
    }
    if (rc == 0)
        identify(t, file, h->header_hash, covered);
    cache_close(f);
    if (rc == -1)
        snprintf(reason, rsz, "out of memory while reading it");
    if (rc == 1 || rc == -1)
        return 1;
    if (rc == -2) {
        *status = last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while reading '%s'",
                                 file);
        return -1;
    }
    if (!prefix) {
        note(t, "cache hit: %s", file);
        return 0;
    }
    if (grew)
        note(t, "cache hit on the first %llu bytes of the log: %s (the rest converted)",
             (unsigned long long)covered, file);
    else
        note(t, "cache hit: %s", file);
    return 2;
}

/* Why the cache cannot serve this load, or NULL. */
static const char *unusable(const tlv_trace *t, const struct stat *st)
{
    tlv_convert_stats cs;
    tlv_converter_stats(t->conv, &cs);
    if (!S_ISREG(st->st_mode))
        return "not a regular file";
    if (t->nev || cs.lines_read || cs.bytes_read)
        return "the trace has lines already";
    if (converter_has_listeners(t->conv))
        return "an event function is set";
    if (t->rules->nscripts)
        return "the rules run external processes";
    return NULL;
}

/* What a load needs before it looks for a cache: the log open (*fd), its
 * key, the cache's file name. NULL when all is there, else why the cache
 * cannot be used (nothing to free then). */
static const char *prepare(tlv_trace *t, const char *path, const char *cache_dir, int *fd,
                           cache_key *k, char **file)
{
    static const char *const nomem = "out of memory";
    struct stat st;
    *file = NULL;
    *fd = -1;
    if (strcmp(path, "-") == 0)
        return "standard input";
    if ((*fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return "the log cannot be opened";
    const char *no = fstat(*fd, &st) != 0 ? "the log cannot be read" : unusable(t, &st);
    if (!no && make_key(t, *fd, &st, k) < 0)
        no = "the log or a rule file cannot be read";
    char why[256] = "";
    char *dir = no ? NULL : cache_folder(cache_dir, 0, why, sizeof why);
    if (!no && !dir)
        no = why[0] ? "neither XDG_CACHE_HOME nor HOME is set" : nomem;
    *file = dir ? cache_file_name(dir, path) : NULL;
    if (!no && !*file)
        no = nomem;
    free(dir);
    if (no) {
        close(*fd);
        *fd = -1;
    }
    return no;
}

/* ---- writing ------------------------------------------------------------------------------ */

/* Writes t's cache for its log (key k) into `file`, appending to
 * the note what became of it. `finished`: t was finished (tlv_trace_finish);
 * else it is saved as it is, for a load to go on from. */
static void save(tlv_trace *t, const char *cache_dir, const char *file, cache_key *k,
                 tlv_status status, int finished)
{
    tlv_convert_stats cs;
    tlv_converter_stats(t->conv, &cs);
    cache_recorder *r = t->cache_rec;
    char why[256] = "";
    size_t had = strlen(t->cache_note);
    const char *sep = had && t->cache_note[had - 1] != ' ' ? "; " : "";
    if (status != TLV_OK && status != TLV_ERR_CONVERT)
        snprintf(why, sizeof why, "the log did not load");
    else if (cs.bytes_read != k->log_bytes)
        snprintf(why, sizeof why, "the log changed while it was read");
    else if (!finished && !(k->flags & CACHE_ENDS_WITH_LF))
        snprintf(why, sizeof why, "the log's last line has no line end yet");
    else if (!r || r->x.nomem)
        snprintf(why, sizeof why, "out of memory");
    if (!why[0]) {
        const tlv_diags *d = tlv_converter_diags(t->conv);
        if (!finished) { /* what a finish would add is not there yet */
            r->x.pre_errors = d->errors;
            r->x.pre_warnings = d->warnings;
            r->x.pre_dropped = d->dropped;
            r->x.pre_count = d->count;
            k->flags |= CACHE_UNFINISHED;
        }
        r->x.status = d->errors && status == TLV_OK ? TLV_ERR_CONVERT : status;
        char *made = cache_folder(cache_dir, 1, why, sizeof why);
        uint64_t id;
        if (made && cache_save(t, k, &r->x, file, &id, why, sizeof why) == 0) {
            identify(t, file, id, k->log_bytes);
            snprintf(t->cache_note + had, sizeof t->cache_note - had, "%s%s written", sep, file);
            free(made);
            return;
        }
        free(made);
    }
    snprintf(t->cache_note + had, sizeof t->cache_note - had, "%snot written (%s)", sep, why);
}

/* ---- the public functions ----------------------------------------------------------------- */

tlv_status tlv_trace_load_file_cached(tlv_trace *t, const char *path, const char *cache_dir)
{
    t->cache_note[0] = '\0';
    int fd;
    cache_key k;
    char *file;
    const char *no = prepare(t, path, cache_dir, &fd, &k, &file);
    if (no) {
        note(t, "cache not used (%s)", no);
        char keep[sizeof t->cache_note];
        memcpy(keep, t->cache_note, sizeof keep);
        tlv_status s = tlv_trace_load_file(t, path);
        memcpy(t->cache_note, keep, sizeof keep);
        return s;
    }
    recorder_start(t); /* NULL: no memory, the cache will not be written */
    tlv_status status = TLV_OK;
    char reason[256] = "";
    int hit = try_cache(t, file, path, &k, fd, 0, &status, reason, sizeof reason);
    close(fd);
    if (hit == 1)
        note(t, "cache miss (%s): ", reason);
    if (hit == 1 || hit == 2) {
        tlv_convert_stats cs; /* a prefix's conversion goes on where it stopped */
        tlv_converter_stats(t->conv, &cs);
        status = trace_push_file(t, path, hit == 2 ? cs.bytes_read : 0);
        if (status == TLV_OK) {
            cache_recorder *r = t->cache_rec;
            const tlv_diags *d = tlv_converter_diags(t->conv);
            if (r) {
                r->x.pre_errors = d->errors;
                r->x.pre_warnings = d->warnings;
                r->x.pre_dropped = d->dropped;
                r->x.pre_count = d->count;
            }
            status = tlv_trace_finish(t); /* the last line, without its end, is read here */
        }
        if (hit == 1 || cs.bytes_read < k.log_bytes)
            save(t, cache_dir, file, &k, status, 1);
    }
    recorder_stop(t);
    trace_cache_free(t);
    free(file);
    return status;
}

tlv_status tlv_trace_resume_cached(tlv_trace *t, const char *path, const char *cache_dir,
                                   uint64_t *covered)
{
    t->cache_note[0] = '\0';
    *covered = 0;
    int fd;
    cache_key k;
    char *file;
    const char *no = prepare(t, path, cache_dir, &fd, &k, &file);
    if (no) {
        note(t, "cache not used (%s)", no);
        return TLV_OK;
    }
    recorder_start(t);
    tlv_status status = TLV_OK;
    char reason[256] = "";
    int hit = try_cache(t, file, path, &k, fd, 1, &status, reason, sizeof reason);
    close(fd);
    free(file);
    if (hit == -1)
        return status;
    if (hit == 1) {
        note(t, "cache miss (%s): ", reason); /* tlv_trace_save_cache says what became of it */
        return TLV_OK;
    }
    tlv_convert_stats cs;
    tlv_converter_stats(t->conv, &cs);
    *covered = cs.bytes_read;
    return TLV_OK;
}

tlv_status tlv_trace_save_cache(tlv_trace *t, const char *path, const char *cache_dir)
{
    int fd;
    cache_key k;
    char *file;
    size_t had = strlen(t->cache_note);
    const char *no = strcmp(path, "-") == 0 ? "standard input" : NULL;
    struct stat st;
    if (!no && (fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0) {
        no = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ? "not a regular file"
             : t->rules->nscripts                         ? "the rules run external processes"
             : make_key(t, fd, &st, &k) < 0               ? "the log or a rule file cannot be read"
                                                          : NULL;
        close(fd);
    } else if (!no) {
        no = "the log cannot be opened";
    }
    char why[256] = "";
    char *dir = no ? NULL : cache_folder(cache_dir, 0, why, sizeof why);
    file = dir ? cache_file_name(dir, path) : NULL;
    free(dir);
    if (!no && !file)
        no = why[0] ? why : "out of memory";
    if (no) {
        snprintf(t->cache_note + had, sizeof t->cache_note - had, "%snot written (%s)",
                 had ? "; " : "", no);
        return TLV_ERR_USAGE;
    }
    save(t, cache_dir, file, &k, TLV_OK, t->finished);
    free(file);
    return strstr(t->cache_note + had, "not written") ? TLV_ERR_IO : TLV_OK;
}
