/*
 * trace_save.c — writing a finished trace into a cache file (trace_cache.h,
 * docs/cache.md): the world's values, resources and histories, the events
 * and their columns, and what the converter reported, each a section of
 * plain arrays, hashed as they are written. The file is made under a
 * temporary name in the cache's folder and renamed over the old one when
 * complete: a reader (another viewer of the same log) either has the old
 * file, which stays whole while mapped, or the new one.
 */
#include "base/xxh64.h"
#include "convert/consistency.h"
#include "convert/convert_impl.h"
#include "trace/trace_cache.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_BUF ((size_t)1 << 20)

/* A cache file being written: its payload goes through a buffer and into
 * the hash; the header and the directory are written last, at the start. */
typedef struct writer {
    int fd;
    uint64_t at;                /* bytes of the file so far, */
    uint64_t flushed;           /* of which written (the buffer holds the rest) */
    char *buf;
    size_t nbuf;
    xxh64_state hash;
    cache_dir_entry dir[CACHE_MAX_SECTIONS];
    uint32_t ndir;
    int failed;                 /* errno of the first failure, or 0 */
} writer;

static int write_all(int fd, const void *data, size_t n, uint64_t offset)
{
    const char *p = data;
    while (n) {
        ssize_t w = pwrite(fd, p, n > ((size_t)1 << 30) ? (size_t)1 << 30 : n, (off_t)offset);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? errno : ENOSPC;
        p += w;
        n -= (size_t)w;
        offset += (uint64_t)w;
    }
    return 0;
}

static void flush(writer *w)
{
    if (!w->failed && w->nbuf)
        w->failed = write_all(w->fd, w->buf, w->nbuf, w->flushed);
    w->flushed += w->nbuf;
    w->nbuf = 0;
}

static void put(writer *w, const void *data, size_t n)
{
    const char *p = data;
    xxh64_update(&w->hash, p, n);
    w->at += n;
    while (n) {
        size_t take = OUT_BUF - w->nbuf < n ? OUT_BUF - w->nbuf : n;
        memcpy(w->buf + w->nbuf, p, take);
        w->nbuf += take;
        p += take;
        n -= take;
        if (w->nbuf == OUT_BUF)
            flush(w);
    }
}

static void pad_to(writer *w, uint64_t align)
{
    static const char zeros[CACHE_PAGE];
    while (w->at % align) {
        uint64_t n = align - w->at % align;
        put(w, zeros, n < sizeof zeros ? (size_t)n : sizeof zeros);
    }
}

/* Starts section `id` at a multiple of `align`; what put() writes until the
 * next one is its contents. */
static void begin(writer *w, uint32_t id, uint64_t align)
{
    if (w->ndir > 0) /* the last one ends here, before the padding */
        w->dir[w->ndir - 1].bytes = w->at - w->dir[w->ndir - 1].offset;
    pad_to(w, align);
    if (w->ndir == CACHE_MAX_SECTIONS) {
        w->failed = w->failed ? w->failed : EINVAL;
        return;
    }
    w->dir[w->ndir++] = (cache_dir_entry){id, 0, w->at, 0};
}

static void section(writer *w, uint32_t id, const void *data, size_t n)
{
    begin(w, id, 8);
    if (n)
        put(w, data, n);
}

/* ---- the sections ------------------------------------------------------------------------ */

static void put_u64(writer *w, uint64_t v) { put(w, &v, sizeof v); }

static void put_pool(writer *w, uint32_t ends_id, uint32_t text_id, const intern_pool *p,
                     uint32_t first)
{
    uint32_t n = intern_count(p);
    uint64_t end = 0;
    begin(w, ends_id, 8);
    for (uint32_t i = first; i < n; i++)
        put_u64(w, end += intern_len(p, i));
    begin(w, text_id, 8);
    for (uint32_t i = first; i < n; i++)
        put(w, intern_str(p, i), intern_len(p, i));
}

/* Every history in order, as h: the resources, each one's attributes. */
#define EACH_HISTORY(wd, h)                                                          \
    for (size_t r_ = 0; r_ < (wd)->nres; r_++)                                       \
        for (size_t a_ = 0, na_ = (wd)->model->types[(wd)->res[r_].type].nattrs;     \
             a_ < na_ && ((h) = &(wd)->res[r_].attrs[a_], 1); a_++)

static void put_world(writer *w, const world *wd)
{
    put_pool(w, SEC_VALUE_ENDS, SEC_VALUE_TEXT, wd->values, 0);
    begin(w, SEC_RES, 8);
    for (size_t r = 0; r < wd->nres; r++) {
        const rt_resource *x = &wd->res[r];
        cache_res c = {(uint32_t)x->type, x->color, (uint32_t)x->dynamic, (uint32_t)x->decl};
        put(w, &c, sizeof c);
    }
    put_pool(w, SEC_RES_ENDS, SEC_RES_TEXT, wd->names, 1); /* id 0 is no resource */
    const history *h;
    begin(w, SEC_HIST, 8);
    EACH_HISTORY(wd, h) {
        cache_hist c = {h->n, h->init, h->runs ? h->nruns : 0, h->frac != NULL};
        put(w, &c, sizeof c);
    }
    begin(w, SEC_CHANGES, 8);
    EACH_HISTORY(wd, h) {
        if (h->n)
            put(w, h->c, (size_t)h->n * sizeof *h->c);
    }
    begin(w, SEC_RUNS, 8);
    EACH_HISTORY(wd, h) {
        if (h->runs && h->nruns)
            put(w, h->runs, (size_t)h->nruns * sizeof *h->runs);
    }
    begin(w, SEC_HFRAC, 8);
    EACH_HISTORY(wd, h) {
        if (h->frac && h->n)
            put(w, h->frac, (size_t)h->n * sizeof *h->frac);
    }
}

static void put_numcol(writer *w, uint32_t first_id, const numcol *c)
{
    section(w, first_id, c->base, ((c->n + NUMCOL_BLOCK - 1) / NUMCOL_BLOCK) * sizeof *c->base);
    section(w, first_id + 1, c->off, c->n);
    section(w, first_id + 2, c->apart, c->napart * sizeof *c->apart);
}

static void put_trace(writer *w, const tlv_trace *t)
{
    begin(w, SEC_EVENTS, CACHE_PAGE);
    if (t->nev)
        put(w, t->ev, t->nev * sizeof *t->ev);
    section(w, SEC_FRAC, t->frac, t->frac ? t->nev * sizeof *t->frac : 0);
    put_numcol(w, SEC_LINES_BASE, &t->lines);
    put_numcol(w, SEC_SEQS_BASE, &t->seqs);
    section(w, SEC_ARGS, t->args, t->nargs * sizeof *t->args);
}

/* The diagnostics: a file that is the log's name as given is marked so, to
 * read as the name the log is opened by next time. */
static void put_diags(writer *w, const tlv_diags *d, const char *source)
{
    uint64_t text = 0;
    begin(w, SEC_DIAGS, 8);
    for (size_t i = 0; i < d->count; i++) {
        const tlv_diag *g = &d->items[i];
        uint32_t kind = !g->file                                    ? DIAG_FILE_NONE
                        : source && strcmp(g->file, source) == 0 ? DIAG_FILE_SOURCE
                                                                 : DIAG_FILE_TEXT;
        uint64_t flen = kind == DIAG_FILE_TEXT ? strlen(g->file) : 0, mlen = strlen(g->message);
        cache_diag c = {(uint32_t)g->severity, kind, g->line, g->col, text, flen, text + flen, mlen};
        put(w, &c, sizeof c);
        text += flen + mlen;
    }
    begin(w, SEC_DIAG_TEXT, 8);
    for (size_t i = 0; i < d->count; i++) {
        const tlv_diag *g = &d->items[i];
        if (g->file && !(source && strcmp(g->file, source) == 0))
            put(w, g->file, strlen(g->file));
        put(w, g->message, strlen(g->message));
    }
}

static void put_converter(writer *w, const tlv_trace *t, const cache_extra *x)
{
    converter_state cs;
    converter_get_state(t->conv, &cs);
    size_t nrules = t->rules->nrules;
    section(w, SEC_RULE_MATCHES, cs.rule_matches, nrules * sizeof *cs.rule_matches);
    section(w, SEC_TAIL_WARNED, cs.tail_warned, nrules);
    put_diags(w, tlv_converter_diags(t->conv), cs.source);
    section(w, SEC_UNMATCHED, x->unmatched, x->nunmatched * sizeof *x->unmatched);
    section(w, SEC_UNMATCHED_TEXT, x->unmatched_text, x->unmatched_len);
    begin(w, SEC_TEXTS, 8);
    put(w, cs.last_error, strlen(cs.last_error));
    put(w, t->lasterr.text, strlen(t->lasterr.text));
    buf k = BUF_INIT;
    struct consistency *c = converter_consistency(t->conv);
    if (!c || consistency_pack(c, &k) < 0)
        w->failed = w->failed ? w->failed : ENOMEM;
    section(w, SEC_CONSISTENCY, k.data, k.len);
    buf_free(&k);
}

/* SEC_META: every count the reader checks the other sections against. */
static void fill_meta(uint64_t *meta, const tlv_trace *t, const cache_extra *x)
{
    const world *wd = t->w;
    meta[M_NVALUES] = intern_count(wd->values);
    meta[M_NRES] = wd->nres;
    meta[M_NDECL] = wd->model->nres;
    meta[M_NEXT_SEQ] = wd->next_seq;
    meta[M_STATIC_CHANGES] = wd->static_changes;
    meta[M_PALETTE_NEXT] = wd->palette_next;
    meta[M_CLOCK_SEEN] = (uint64_t)wd->clock.seen;
    meta[M_CLOCK_SEC] = (uint64_t)wd->clock.sec;
    meta[M_CLOCK_ATTO] = wd->clock.atto;
    const history *h;
    EACH_HISTORY(wd, h) {
        meta[M_NHIST]++;
        meta[M_NCHANGES] += h->n;
        meta[M_NRUNS] += h->runs ? h->nruns : 0;
        meta[M_NHFRAC] += h->frac ? h->n : 0;
    }
    meta[M_NEV] = t->nev;
    meta[M_NARGS] = t->nargs;
    meta[M_HAS_FRAC] = t->frac != NULL;
    meta[M_LINES_N] = t->lines.n;
    meta[M_LINES_NAPART] = t->lines.napart;
    meta[M_SEQS_N] = t->seqs.n;
    meta[M_SEQS_NAPART] = t->seqs.napart;
    converter_state cs;
    converter_get_state(t->conv, &cs);
    const tlv_diags *d = tlv_converter_diags(t->conv);
    meta[M_CONV_ERROR_LEN] = strlen(cs.last_error);
    meta[M_TRACE_ERROR_LEN] = strlen(t->lasterr.text);
    meta[M_BYTES_READ] = cs.stats.bytes_read;
    meta[M_LINES_READ] = cs.stats.lines_read;
    meta[M_LINES_MATCHED] = cs.stats.lines_matched;
    meta[M_EVENTS] = cs.stats.events;
    meta[M_ERROR_LINES] = cs.stats.error_lines;
    meta[M_NONTEXT_LINES] = cs.nontext_lines;
    meta[M_FIRST_LOOKS_STD] = (uint64_t)(cs.first_looks_std + 1);
    meta[M_STATUS] = (uint64_t)x->status;
    meta[M_DIAG_ERRORS] = d->errors;
    meta[M_DIAG_WARNINGS] = d->warnings;
    meta[M_DIAG_DROPPED] = d->dropped;
    meta[M_NDIAGS] = d->count;
    meta[M_PRE_ERRORS] = x->pre_errors;
    meta[M_PRE_WARNINGS] = x->pre_warnings;
    meta[M_PRE_DROPPED] = x->pre_dropped;
    meta[M_PRE_NDIAGS] = x->pre_count;
    meta[M_NUNMATCHED] = x->nunmatched;
    meta[M_NRULES] = t->rules->nrules;
}

static uint64_t put_header(writer *w, const cache_key *key)
{
    if (w->ndir > 0)
        w->dir[w->ndir - 1].bytes = w->at - w->dir[w->ndir - 1].offset;
    cache_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CACHE_MAGIC, 8);
    h.format = CACHE_FORMAT;
    h.byte_order = CACHE_BYTE_ORDER;
    h.header_bytes = CACHE_HEADER_BYTES;
    h.nsections = w->ndir;
    h.file_bytes = w->at;
    h.payload_hash = xxh64_digest(&w->hash);
    snprintf(h.version, sizeof h.version, "%s", tlv_version());
    h.log_bytes = key->log_bytes;
    h.log_mtime_sec = key->mtime_sec;
    h.log_mtime_nsec = key->mtime_nsec;
    h.log_head_hash = key->head_hash;
    h.log_tail_hash = key->tail_hash;
    h.rules_hash = key->rules_hash;
    h.flags = key->flags;
    h.layout = (uint32_t)(sizeof(trace_event) | sizeof(change) << 8);
    h.header_hash = xxh64(&h, offsetof(cache_header, header_hash));
    if (!w->failed)
        w->failed = write_all(w->fd, &h, sizeof h, 0);
    if (!w->failed)
        w->failed = write_all(w->fd, w->dir, w->ndir * sizeof *w->dir, CACHE_HEADER_BYTES);
    return h.header_hash;
}

static uint64_t write_cache(writer *w, const tlv_trace *t, const cache_key *key,
                            const cache_extra *x)
{
    static const char zeros[CACHE_PAYLOAD_START];
    uint64_t meta[META_COUNT] = {0};
    fill_meta(meta, t, x);
    w->at = w->flushed = CACHE_PAYLOAD_START; /* the header and directory come last */
    w->failed = write_all(w->fd, zeros, sizeof zeros, 0);
    xxh64_init(&w->hash);
    section(w, SEC_META, meta, sizeof meta);
    put_world(w, t->w);
    put_trace(w, t);
    put_converter(w, t, x);
    flush(w);
    return put_header(w, key);
}

int cache_save(const tlv_trace *t, const cache_key *key, const cache_extra *x,
               const char *path, uint64_t *header_hash, char *why, size_t whysz)
{
    size_t n = strlen(path);
    char *tmp = malloc(n + 8);
    writer w = {0};
    w.buf = malloc(OUT_BUF);
    if (!tmp || !w.buf) {
        free(tmp);
        free(w.buf);
        snprintf(why, whysz, "out of memory");
        return -1;
    }
    memcpy(tmp, path, n);
    memcpy(tmp + n, ".XXXXXX", 8);
    w.fd = mkstemp(tmp);
    if (w.fd < 0) {
        snprintf(why, whysz, "cannot make a file in the cache folder: %s", strerror(errno));
        free(tmp);
        free(w.buf);
        return -1;
    }
    *header_hash = write_cache(&w, t, key, x);
    if (close(w.fd) != 0 && !w.failed)
        w.failed = errno;
    if (!w.failed && rename(tmp, path) != 0)
        w.failed = errno;
    if (w.failed) {
        unlink(tmp);
        snprintf(why, whysz, "cannot write '%s': %s", path, strerror(w.failed));
    }
    free(tmp);
    free(w.buf);
    return w.failed ? -1 : 0;
}
