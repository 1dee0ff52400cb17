/*
 * viz_cache.c — the shape cache (docs/cache.md, "The shapes"): the shapes
 * built from a trace that is a trace cache file's (trace_cache.c: read from
 * it, or written from it) are kept in a file beside it, and read back the
 * next time the same trace cache is loaded and shapes are asked with the
 * same options, instead of applying the visualization rules again. Its key
 * is the trace cache file's header hash (which covers the log's key, every
 * rule file .viz included, and the tlv version), whether the trace was
 * finished, and the hash of the options that change the shapes.
 *
 * The file holds what the rules made — names, rules, primitives, rows, the
 * shapes in the store's canonical order, their output order, values and
 * events, the When keys, the flows and the rule errors — as sections of
 * plain arrays. Reading maps it, checks its header, its payload's hash and
 * every count, offset, length and index against what it indexes (shapes
 * in canonical order, the output order a permutation, ...) before any of
 * it is used; anything wrong is a miss, the shapes built anew and the file
 * written again. The store's indexes and summaries are not kept: freezing
 * the shapes read back makes them, as the build did (viz_freeze_shapes).
 */
#include "base/abi.h"
#include "base/xxh64.h"
#include "viz/viz_build.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define SC_MAGIC "TLVSHAPE"
#define SC_FORMAT 1u
#define SC_BYTE_ORDER 0x01020304u
#define SC_MAX_SECTIONS 24u
#define SC_HEADER_BYTES 128u
#define SC_PAYLOAD_START (SC_HEADER_BYTES + SC_MAX_SECTIONS * 24u)

/* The first 128 bytes, every field at its natural alignment. */
typedef struct sc_header {
    char magic[8];
    uint32_t format, byte_order;
    uint32_t nsections, layout;   /* sizeof(prim) | sizeof(flow_rec) << 16 */
    uint64_t file_bytes;
    uint64_t payload_hash;        /* XXH64 of bytes [SC_PAYLOAD_START, file_bytes) */
    char version[32];
    uint64_t trace_id;            /* the trace cache file's header hash */
    uint64_t options_hash;
    uint32_t trace_finished, reserved;
    uint8_t zero[24];
    uint64_t header_hash;         /* XXH64 of the bytes before it */
} sc_header;
_Static_assert(sizeof(sc_header) == SC_HEADER_BYTES, "the header is 128 bytes");

typedef struct sc_dir {
    uint32_t id, zero;
    uint64_t offset, bytes;
} sc_dir;

enum sc_section {
    S_META = 1, S_NAMES_ENDS, S_NAMES_TEXT, S_JOINED_ENDS, S_JOINED_TEXT, S_RULES, S_PRIMS,
    S_POINTS, S_PRIM_TEXT, S_ROWS, S_ROW_TEXT, S_SHAPES, S_SHAPE_FRAC, S_ORDER, S_VALUES,
    S_EVENTS, S_WHEN, S_FLOWS, S_DIAGS, S_DIAG_TEXT, S_EXTRA_ENDS, S_EXTRA_TEXT, S_LAST
};

enum sc_meta {
    N_SHAPES, N_PRIMS, N_POINTS, N_ROWS, N_RULES, N_NAMES, N_JOINED, N_VALUES, N_WHEN, N_FLOWS,
    N_DIAGS, N_ERRORS, N_WARNINGS, N_DROPPED, N_HAS_FRAC, N_TRACE_RES, N_TRACE_VALUES,
    N_TRACE_EVENTS, N_STATUS, N_EXTRA, META_N
};

/* A primitive's texts, by offset in S_PRIM_TEXT; length UINT64_MAX: NULL. */
typedef struct sc_prim_text {
    uint64_t text_at, text_len, font_at, font_len;
} sc_prim_text;

typedef struct sc_row {
    uint32_t resource, zero; /* the trace's resource index, or UINT32_MAX */
    uint64_t label_at, label_len, group_at, group_len;
} sc_row;

typedef struct sc_shape {
    int64_t from, to;
    uint32_t row, prim, rule, event, resource, order;
} sc_shape;

typedef struct sc_diag {
    uint32_t severity, has_file;
    int64_t line, col;
    uint64_t file_at, file_len, msg_at, msg_len;
} sc_diag;

/* ---- the key ------------------------------------------------------------------------------ */

static void hash_text(xxh64_state *h, const char *s)
{
    if (s)
        xxh64_update(h, s, strlen(s) + 1);
    else
        xxh64_update(h, "\xff", 1); /* NULL is not "" */
}

/* Which trace cache file the trace t is as it stands (bytes: what its
 * converter has read), into s: nothing (trace_id 0) unless the trace is
 * still that file's, i.e. nothing more was read into it. */
static void identify_trace(struct tlv_shapes *s, const tlv_trace *t, uint64_t bytes)
{
    s->trace_id = t->cache_id && t->cache_path && bytes == t->cache_id_bytes ? t->cache_id : 0;
    s->trace_values = t->cache_values;
    free(s->cache_path);
    s->cache_path = NULL;
    if (!s->trace_id)
        return;
    size_t n = strlen(t->cache_path);
    const char *ext = ".tlvcache";
    size_t base = n >= strlen(ext) && strcmp(t->cache_path + n - strlen(ext), ext) == 0
                      ? n - strlen(ext) : n;
    s->cache_path = malloc(base + 40);
    if (s->cache_path)
        snprintf(s->cache_path, base + 40, "%.*s-%016llx.tlvshapes", (int)base, t->cache_path,
                 (unsigned long long)s->options_hash);
    else
        s->trace_id = 0;
}

void viz_cache_identify(struct tlv_shapes *s, const tlv_trace *t, const tlv_shapes_options *o)
{
    xxh64_state h;
    xxh64_init(&h);
    hash_text(&h, o->cpu_attribute);
    hash_text(&h, o->running_attribute);
    hash_text(&h, o->running_value);
    uint64_t listing = o->listing_only != 0;
    xxh64_update(&h, &listing, sizeof listing);
    for (size_t i = 0; o->skip_rules && i < o->n_skip_rules; i++)
        if (o->skip_rules[i]) /* NULL entries are ignored by the build too */
            hash_text(&h, o->skip_rules[i]);
    s->options_hash = xxh64_digest(&h);
    tlv_convert_stats cs;
    tlv_converter_stats(t->conv, &cs);
    s->trace_bytes = cs.bytes_read;
    s->trace_finished = t->finished;
    s->identified = 1;
    identify_trace(s, t, cs.bytes_read);
}

static void note(struct tlv_shapes *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct tlv_shapes *s, const char *fmt, ...)
{
    size_t had = strlen(s->cache_note);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->cache_note + had, sizeof s->cache_note - had, fmt, ap);
    va_end(ap);
}

const char *tlv_shapes_cache_note(const tlv_shapes *s) { return s ? s->cache_note : ""; }

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct writer {
    FILE *f;
    uint64_t at;
    xxh64_state hash;
    sc_dir dir[SC_MAX_SECTIONS];
    uint32_t ndir;
    int failed;
} writer;

static void put(writer *w, const void *p, size_t n)
{
    if (!n)
        return;
    xxh64_update(&w->hash, p, n);
    if (fwrite(p, 1, n, w->f) != n && !w->failed)
        w->failed = errno ? errno : EIO;
    w->at += n;
}

static void begin(writer *w, uint32_t id)
{
    static const char zeros[8];
    if (w->ndir > 0)
        w->dir[w->ndir - 1].bytes = w->at - w->dir[w->ndir - 1].offset;
    if (w->at % 8)
        put(w, zeros, 8 - w->at % 8);
    w->dir[w->ndir++] = (sc_dir){id, 0, w->at, 0};
}

static void section(writer *w, uint32_t id, const void *p, size_t n)
{
    begin(w, id);
    put(w, p, n);
}

static void put_u64(writer *w, uint64_t v) { put(w, &v, sizeof v); }
static void put_u32(writer *w, uint32_t v) { put(w, &v, sizeof v); }

/* A pool's texts of ids [first, last): their ends, then them. */
static void put_texts(writer *w, uint32_t ends, uint32_t text, const intern_pool *p,
                      uint32_t first, uint32_t last)
{
    uint64_t end = 0;
    begin(w, ends);
    for (uint32_t i = first; i < last; i++)
        put_u64(w, end += intern_len(p, i));
    begin(w, text);
    for (uint32_t i = first; i < last; i++)
        put(w, intern_str(p, i), intern_len(p, i));
}

/* A pool's texts from id 1 on (id 0 is always ""). */
static void put_pool(writer *w, uint32_t ends, uint32_t text, const intern_pool *p)
{
    put_texts(w, ends, text, p, 1, intern_count(p));
}

static uint64_t text_len(const char *s) { return s ? strlen(s) : UINT64_MAX; }

static void put_prims(writer *w, const struct tlv_shapes *s)
{
    begin(w, S_PRIMS);
    for (size_t i = 0; i < s->nprims; i++) {
        prim p;
        memset(&p, 0, sizeof p);
        memcpy(&p, &s->prims[i], sizeof p);
        p.points = NULL;
        p.text = p.font_family = NULL;
        put(w, &p, sizeof p);
    }
    begin(w, S_POINTS);
    for (size_t i = 0; i < s->nprims; i++)
        put(w, s->prims[i].points, s->prims[i].npoints * sizeof(pos_spec));
    uint64_t at = 0;
    begin(w, S_PRIM_TEXT); /* the sc_prim_text records, then the texts */
    for (size_t i = 0; i < s->nprims; i++) {
        const prim *p = &s->prims[i];
        uint64_t tl = text_len(p->text), fl = text_len(p->font_family);
        sc_prim_text r = {at, tl, at + (p->text ? tl : 0), fl};
        at += (p->text ? tl : 0) + (p->font_family ? fl : 0);
        put(w, &r, sizeof r);
    }
    for (size_t i = 0; i < s->nprims; i++) {
        const prim *p = &s->prims[i];
        if (p->text)
            put(w, p->text, strlen(p->text));
        if (p->font_family)
            put(w, p->font_family, strlen(p->font_family));
    }
}

static void put_rows(writer *w, const struct tlv_shapes *s)
{
    const world *wd = s->trace->w;
    uint64_t at = 0;
    begin(w, S_ROWS);
    for (size_t i = 0; i < s->nrows; i++) {
        const row_def *r = &s->rows[i];
        long res = r->resource ? world_find(wd, r->resource, strlen(r->resource)) : -1;
        if (r->resource && res < 0 && !w->failed)
            w->failed = EINVAL; /* cannot be: a row's resource is the trace's */
        uint64_t ll = strlen(r->label), gl = strlen(r->group);
        sc_row out = {res < 0 ? UINT32_MAX : (uint32_t)res, 0, at, ll, at + ll, gl};
        at += ll + gl;
        put(w, &out, sizeof out);
    }
    begin(w, S_ROW_TEXT);
    for (size_t i = 0; i < s->nrows; i++) {
        put(w, s->rows[i].label, strlen(s->rows[i].label));
        put(w, s->rows[i].group, strlen(s->rows[i].group));
    }
}

static void put_shapes(writer *w, const struct tlv_shapes *s, int *has_frac)
{
    size_t n = store_count(s->store);
    *has_frac = 0;
    begin(w, S_SHAPES);
    for (size_t i = 0; i < n; i++) {
        shape sh;
        store_get(s->store, i, &sh);
        sc_shape out = {sh.from.ticks, sh.to.ticks, sh.row, sh.prim, sh.rule, sh.event,
                        sh.resource, sh.order};
        *has_frac |= sh.from.frac != 0 || sh.to.frac != 0;
        put(w, &out, sizeof out);
    }
    begin(w, S_SHAPE_FRAC);
    for (size_t i = 0; *has_frac && i < n; i++) {
        shape sh;
        store_get(s->store, i, &sh);
        put_u64(w, sh.from.frac);
        put_u64(w, sh.to.frac);
    }
}

static void put_diags(writer *w, const tlv_diags *d)
{
    uint64_t at = 0;
    begin(w, S_DIAGS);
    for (size_t i = 0; i < d->count; i++) {
        const tlv_diag *g = &d->items[i];
        uint64_t fl = g->file ? strlen(g->file) : 0, ml = strlen(g->message);
        sc_diag out = {(uint32_t)g->severity, g->file != NULL, g->line, g->col, at, fl, at + fl, ml};
        at += fl + ml;
        put(w, &out, sizeof out);
    }
    begin(w, S_DIAG_TEXT);
    for (size_t i = 0; i < d->count; i++) {
        if (d->items[i].file)
            put(w, d->items[i].file, strlen(d->items[i].file));
        put(w, d->items[i].message, strlen(d->items[i].message));
    }
}

/* The counts of S_META. */
static void fill_meta(uint64_t *m, const struct tlv_shapes *s, int has_frac)
{
    const tlv_trace *t = s->trace;
    m[N_SHAPES] = store_count(s->store);
    m[N_PRIMS] = s->nprims;
    for (size_t i = 0; i < s->nprims; i++)
        m[N_POINTS] += s->prims[i].npoints;
    m[N_ROWS] = s->nrows;
    m[N_RULES] = s->nrules;
    m[N_NAMES] = intern_count(s->names);
    m[N_JOINED] = intern_count(s->joined);
    m[N_VALUES] = s->nvalues;
    m[N_WHEN] = s->nwhen;
    m[N_FLOWS] = s->nflows;
    m[N_DIAGS] = s->diags.count;
    m[N_ERRORS] = s->diags.errors;
    m[N_WARNINGS] = s->diags.warnings;
    m[N_DROPPED] = s->diags.dropped;
    m[N_HAS_FRAC] = (uint64_t)has_frac;
    m[N_TRACE_RES] = t->w->nres;
    m[N_TRACE_VALUES] = s->trace_values;
    m[N_EXTRA] = intern_count(t->w->values) - s->trace_values;
    m[N_TRACE_EVENTS] = t->nev;
    m[N_STATUS] = (uint64_t)s->status;
}

/* Writes the whole file into `f` (at offset 0); 0 or an errno. */
static int write_file(FILE *f, const struct tlv_shapes *s)
{
    static const char zeros[SC_PAYLOAD_START];
    writer w = {0};
    w.f = f;
    if (fwrite(zeros, 1, sizeof zeros, f) != sizeof zeros)
        return errno ? errno : EIO;
    w.at = SC_PAYLOAD_START;
    xxh64_init(&w.hash);
    /* The counts first, known before the rest is written: the hash goes
     * over the bytes in the order they are written. */
    uint64_t meta[META_N] = {0};
    int has_frac = 0;
    for (size_t i = 0; i < store_count(s->store) && !has_frac; i++) {
        shape sh;
        store_get(s->store, i, &sh);
        has_frac = sh.from.frac || sh.to.frac;
    }
    fill_meta(meta, s, has_frac);
    begin(&w, S_META);
    put(&w, meta, sizeof meta);
    put_pool(&w, S_NAMES_ENDS, S_NAMES_TEXT, s->names);
    put_pool(&w, S_JOINED_ENDS, S_JOINED_TEXT, s->joined);
    begin(&w, S_RULES);
    for (size_t i = 0; i < s->nrules; i++) {
        put_u32(&w, s->rule_name[i]);
        put_u32(&w, s->rule_display[i]);
        put_u32(&w, s->rule_skipped[i]);
    }
    put_prims(&w, s);
    put_rows(&w, s);
    int hf;
    put_shapes(&w, s, &hf);
    size_t n = store_count(s->store);
    section(&w, S_ORDER, s->order, n * sizeof *s->order);
    section(&w, S_VALUES, s->values, s->nvalues * sizeof *s->values);
    section(&w, S_EVENTS, s->events, 2 * s->nvalues * sizeof *s->events);
    section(&w, S_WHEN, s->when_keys, s->nwhen * sizeof *s->when_keys);
    section(&w, S_FLOWS, s->flows, s->nflows * sizeof *s->flows);
    put_diags(&w, &s->diags);
    /* the values builds interned into the trace's world after the trace
     * cache's: the shapes and flows may name them */
    put_texts(&w, S_EXTRA_ENDS, S_EXTRA_TEXT, s->trace->w->values, s->trace_values,
              (uint32_t)meta[N_TRACE_VALUES] + (uint32_t)meta[N_EXTRA]);
    w.dir[w.ndir - 1].bytes = w.at - w.dir[w.ndir - 1].offset;
    if (w.failed)
        return w.failed;
    sc_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, SC_MAGIC, 8);
    h.format = SC_FORMAT;
    h.byte_order = SC_BYTE_ORDER;
    h.nsections = w.ndir;
    h.layout = (uint32_t)(sizeof(prim) | sizeof(flow_rec) << 16);
    h.file_bytes = w.at;
    h.payload_hash = xxh64_digest(&w.hash);
    snprintf(h.version, sizeof h.version, "%s", tlv_version());
    h.trace_id = s->trace_id;
    h.options_hash = s->options_hash;
    h.trace_finished = (uint32_t)s->trace_finished;
    h.header_hash = xxh64(&h, offsetof(sc_header, header_hash));
    if (fflush(f) != 0 || fseek(f, 0, SEEK_SET) != 0 || fwrite(&h, sizeof h, 1, f) != 1 ||
        fwrite(w.dir, sizeof *w.dir, w.ndir, f) != w.ndir || fflush(f) != 0)
        return errno ? errno : EIO;
    return 0;
}

tlv_status tlv_shapes_save_cache(const tlv_shapes *cs)
{
    struct tlv_shapes *s = (struct tlv_shapes *)cs; /* only its note changes */
    if (!s)
        return TLV_ERR_USAGE;
    /* Built before the trace cache was written (a viewer writes it while
     * the shapes are built): theirs if it holds the bytes they were built
     * from, and the trace is as finished as it was then. */
    if (!s->trace_id && s->identified && s->trace_finished == s->trace->finished) {
        identify_trace(s, s->trace, s->trace_bytes);
        if (s->trace_id && strncmp(s->cache_note, "shape cache not used", 20) == 0)
            snprintf(s->cache_note, sizeof s->cache_note,
                     "shape cache miss (built before the trace cache was written)");
    }
    if (!s->trace_id || !s->cache_path) {
        note(s, "%snot written (the trace is not a trace cache's)", s->cache_note[0] ? "; " : "");
        return TLV_ERR_USAGE;
    }
    size_t n = strlen(s->cache_path);
    char *tmp = malloc(n + 8);
    if (!tmp) {
        note(s, "%snot written (out of memory)", s->cache_note[0] ? "; " : "");
        return TLV_ERR_NOMEM;
    }
    memcpy(tmp, s->cache_path, n);
    memcpy(tmp + n, ".XXXXXX", 8);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w+b") : NULL;
    int err = !f ? errno : write_file(f, s);
    if (f && fclose(f) != 0 && !err)
        err = errno;
    else if (!f && fd >= 0)
        close(fd);
    if (!err && rename(tmp, s->cache_path) != 0)
        err = errno;
    const char *sep = s->cache_note[0] ? ": " : "";
    if (err) {
        if (fd >= 0)
            unlink(tmp);
        note(s, "%snot written (cannot write '%s': %s)", sep, s->cache_path, strerror(err));
    } else {
        note(s, "%s%s written", sep, s->cache_path);
    }
    free(tmp);
    return err ? TLV_ERR_IO : TLV_OK;
}

/* ---- reading ------------------------------------------------------------------------------ */

typedef struct span {
    const unsigned char *at;
    uint64_t bytes;
    int present;
} span;

typedef struct sc_file {
    const unsigned char *map;
    size_t bytes;
    sc_header h;
    span sec[S_LAST];
    const uint64_t *meta;
} sc_file;

static int say(char *why, size_t whysz, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int say(char *why, size_t whysz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whysz, fmt, ap);
    va_end(ap);
    return 0;
}

static void sc_close(sc_file *f)
{
    if (f->map)
        munmap((void *)f->map, f->bytes);
    f->map = NULL;
}

static int check_header(const sc_file *f, char *why, size_t whysz)
{
    const sc_header *h = &f->h;
    if (memcmp(h->magic, SC_MAGIC, 8) != 0)
        return say(why, whysz, "not a tlv shape cache file");
    if (xxh64(h, offsetof(sc_header, header_hash)) != h->header_hash)
        return say(why, whysz, "its header is damaged");
    if (h->format != SC_FORMAT)
        return say(why, whysz, "written in shape cache format %u, this tlv reads %u", h->format,
                   SC_FORMAT);
    if (h->byte_order != SC_BYTE_ORDER || h->layout != (uint32_t)(sizeof(prim) | sizeof(flow_rec) << 16))
        return say(why, whysz, "written on another kind of machine");
    if (!memchr(h->version, '\0', sizeof h->version) || strcmp(h->version, tlv_version()) != 0)
        return say(why, whysz, "written by tlv %.31s, this is tlv %s",
                   memchr(h->version, '\0', sizeof h->version) ? h->version : "(unreadable)",
                   tlv_version());
    if (h->file_bytes != f->bytes)
        return say(why, whysz, "truncated or damaged: %llu bytes where its header says %llu",
                   (unsigned long long)f->bytes, (unsigned long long)h->file_bytes);
    if (h->nsections > SC_MAX_SECTIONS)
        return say(why, whysz, "damaged: %u sections", h->nsections);
    return 1;
}

static int read_directory(sc_file *f, char *why, size_t whysz)
{
    sc_dir dir[SC_MAX_SECTIONS];
    memcpy(dir, f->map + SC_HEADER_BYTES, sizeof dir);
    for (uint32_t i = 0; i < f->h.nsections; i++) {
        const sc_dir *e = &dir[i];
        if (e->id == 0 || e->id >= S_LAST || f->sec[e->id].present)
            return say(why, whysz, "damaged: section %u of id %u", i, e->id);
        if (e->offset < SC_PAYLOAD_START || e->offset % 8 || e->offset > f->bytes ||
            e->bytes > f->bytes - e->offset)
            return say(why, whysz, "damaged: section %u lies outside the file", e->id);
        f->sec[e->id] = (span){f->map + e->offset, e->bytes, 1};
    }
    for (uint32_t id = 1; id < S_LAST; id++)
        if (!f->sec[id].present)
            return say(why, whysz, "damaged: section %u is missing", id);
    if (f->sec[S_META].bytes != META_N * sizeof(uint64_t))
        return say(why, whysz, "damaged: %llu bytes of counts",
                   (unsigned long long)f->sec[S_META].bytes);
    f->meta = (const uint64_t *)f->sec[S_META].at;
    return 1;
}

/* Maps the file and checks its header, directory and payload hash: 1, 0
 * (why says), or -1 when there is none (why: "none yet"). */
static int sc_open(const char *path, sc_file *f, char *why, size_t whysz)
{
    memset(f, 0, sizeof *f);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT)
            return say(why, whysz, "none yet") - 1;
        return say(why, whysz, "cannot open it: %s", strerror(errno));
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
        return say(why, whysz, "not a regular file");
    }
    if ((uint64_t)st.st_size < SC_PAYLOAD_START || (uint64_t)st.st_size > SIZE_MAX) {
        close(fd);
        return say(why, whysz, "truncated or damaged: %llu bytes",
                   (unsigned long long)st.st_size);
    }
    f->bytes = (size_t)st.st_size;
    void *map = mmap(NULL, f->bytes, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (map == MAP_FAILED)
        return say(why, whysz, "cannot map it: %s", strerror(errno));
    f->map = map;
    memcpy(&f->h, f->map, sizeof f->h);
    if (!check_header(f, why, whysz) || !read_directory(f, why, whysz))
        return 0;
    if (xxh64(f->map + SC_PAYLOAD_START, f->bytes - SC_PAYLOAD_START) != f->h.payload_hash)
        return say(why, whysz, "damaged: its contents do not match their checksum");
    return 1;
}

/* ---- checking what it holds ----------------------------------------------------------- */

#define META(f, i) ((f)->meta[i])
#define SEC(f, id) (&(f)->sec[id])

/* Whether section id holds exactly n items of `size` bytes. */
static int holds(const sc_file *f, uint32_t id, uint64_t n, size_t size)
{
    return n <= SEC(f, id)->bytes / size && n * size == SEC(f, id)->bytes;
}

/* n texts' ends: in order, the last the text's size, the text without
 * NUL. */
static int texts_ok(const sc_file *f, uint32_t ends_id, uint32_t text_id, uint64_t n)
{
    if (n > UINT32_MAX || !holds(f, ends_id, n, sizeof(uint64_t)))
        return 0;
    const uint64_t *end = (const uint64_t *)SEC(f, ends_id)->at;
    uint64_t last = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (end[i] < last)
            return 0;
        last = end[i];
    }
    return last == SEC(f, text_id)->bytes && !memchr(SEC(f, text_id)->at, '\0', last);
}

/* A pool's ids 1..n-1 (id 0 is ""). */
static int pool_ok(const sc_file *f, uint32_t ends_id, uint32_t text_id, uint64_t n)
{
    return n >= 1 && texts_ok(f, ends_id, text_id, n - 1);
}

/* A text at [at, at + len) of a section of `bytes`, without NUL. */
static int text_ok(const span *sp, uint64_t at, uint64_t len)
{
    return at <= sp->bytes && len <= sp->bytes - at && !memchr(sp->at + at, '\0', len);
}

static int len_ok(const len_spec *l)
{
    return isfinite(l->value) && isfinite(l->lo) && l->unit <= LEN_VALUE_SIZE &&
           l->anchor <= ANCHOR_END && l->has_lo <= 1; /* figure.c's parse_len sets all */
}

static int pos_ok(const pos_spec *p) { return len_ok(&p->x) && len_ok(&p->y); }

/* A primitive's members within what a parse makes. */
static int prim_ok(const prim *p, const pos_spec *points, uint64_t npoints)
{
    if ((unsigned)p->type > PRIM_TEXT || !pos_ok(&p->location) || !len_ok(&p->size.w) ||
        !len_ok(&p->size.h) || !pos_ok(&p->offset) || !isfinite(p->arc_start) ||
        !isfinite(p->arc_sweep) || !isfinite(p->pen_width) || !isfinite(p->font_size) ||
        (unsigned)p->has_fill > 1 || (unsigned)p->has_pen > 1 ||
        (unsigned)p->dash > DASH_DASHDOTDOT || p->font_style > 15 || p->align.h > 2 ||
        p->align.v > 2 || p->depth_rows < 0 || p->depth_rows > 1000 || p->depth < 0 ||
        (p->depth_rows && p->depth >= p->depth_rows) || (unsigned)p->auto_values > 1)
        return 0;
    uint64_t need = p->type == PRIM_LINE || p->type == PRIM_ARROW ? 2 : 0;
    if (p->type == PRIM_POLYGON ? p->npoints < 3 : p->npoints != need)
        return 0;
    if (p->npoints > npoints)
        return 0;
    for (size_t i = 0; i < p->npoints; i++)
        if (!pos_ok(&points[i]))
            return 0;
    return 1;
}

static int prims_ok(const sc_file *f, uint64_t *text_start)
{
    uint64_t n = META(f, N_PRIMS), np = META(f, N_POINTS);
    if (!holds(f, S_PRIMS, n, sizeof(prim)) || !holds(f, S_POINTS, np, sizeof(pos_spec)))
        return 0;
    const span *tx = SEC(f, S_PRIM_TEXT);
    if (n > tx->bytes / sizeof(sc_prim_text))
        return 0;
    *text_start = n * sizeof(sc_prim_text);
    span texts = {tx->at + *text_start, tx->bytes - *text_start, 1};
    const prim *p = (const prim *)SEC(f, S_PRIMS)->at;
    const pos_spec *pts = (const pos_spec *)SEC(f, S_POINTS)->at;
    const sc_prim_text *pt = (const sc_prim_text *)tx->at;
    uint64_t used = 0;
    for (uint64_t i = 0; i < n; i++) {
        prim q;
        memcpy(&q, &p[i], sizeof q);
        if (!prim_ok(&q, pts + used, np - used))
            return 0;
        used += q.npoints;
        int is_text = q.type == PRIM_TEXT;
        if ((pt[i].text_len != UINT64_MAX) != is_text ||
            (is_text && !text_ok(&texts, pt[i].text_at, pt[i].text_len)) ||
            (pt[i].font_len != UINT64_MAX && !text_ok(&texts, pt[i].font_at, pt[i].font_len)))
            return 0;
    }
    return used == np;
}

static int rows_ok(const sc_file *f, uint64_t nres)
{
    uint64_t n = META(f, N_ROWS);
    if (!holds(f, S_ROWS, n, sizeof(sc_row)) || n > UINT32_MAX)
        return 0;
    const sc_row *r = (const sc_row *)SEC(f, S_ROWS)->at;
    for (uint64_t i = 0; i < n; i++)
        if ((r[i].resource != UINT32_MAX && r[i].resource >= nres) ||
            !text_ok(SEC(f, S_ROW_TEXT), r[i].label_at, r[i].label_len) ||
            !text_ok(SEC(f, S_ROW_TEXT), r[i].group_at, r[i].group_len))
            return 0;
    return 1;
}

static int time_less(int64_t a, uint64_t af, int64_t b, uint64_t bf)
{
    return a < b || (a == b && af < bf);
}

/* Every shape's indexes, in the store's canonical order (row, from,
 * order), as the build's freeze left them. */
static int shapes_ok(const sc_file *f, uint64_t nres)
{
    uint64_t n = META(f, N_SHAPES), nn = META(f, N_NAMES);
    int frac = META(f, N_HAS_FRAC) != 0;
    if (n > UINT32_MAX || META(f, N_HAS_FRAC) > 1 || !holds(f, S_SHAPES, n, sizeof(sc_shape)) ||
        !holds(f, S_SHAPE_FRAC, frac ? 2 * n : 0, sizeof(uint64_t)))
        return 0;
    const sc_shape *sh = (const sc_shape *)SEC(f, S_SHAPES)->at;
    const uint64_t *fr = (const uint64_t *)SEC(f, S_SHAPE_FRAC)->at;
    for (uint64_t i = 0; i < n; i++) {
        const sc_shape *x = &sh[i];
        if (x->row >= META(f, N_ROWS) || x->prim >= META(f, N_PRIMS) || x->rule >= nn ||
            x->event >= nn || (x->resource != UINT32_MAX && x->resource >= nres))
            return 0;
        if (i == 0)
            continue;
        const sc_shape *p = &sh[i - 1];
        uint64_t pf = frac ? fr[2 * (i - 1)] : 0, xf = frac ? fr[2 * i] : 0;
        if (p->row > x->row ||
            (p->row == x->row && (time_less(x->from, xf, p->from, pf) ||
                                  (x->from == p->from && xf == pf && x->order < p->order))))
            return 0;
    }
    return 1;
}

/* The output order: a permutation of the shapes. */
static int order_ok(const sc_file *f)
{
    uint64_t n = META(f, N_SHAPES);
    if (!holds(f, S_ORDER, n, sizeof(uint32_t)))
        return 0;
    const uint32_t *o = (const uint32_t *)SEC(f, S_ORDER)->at;
    uint8_t *seen = calloc(n + 1, 1);
    if (!seen)
        return -1;
    int ok = 1;
    for (uint64_t i = 0; i < n && ok; i++) {
        ok = o[i] < n && !seen[o[i]];
        if (ok)
            seen[o[i]] = 1;
    }
    free(seen);
    return ok;
}

static int values_ok(const sc_file *f, uint64_t ntv, uint64_t nev)
{
    uint64_t n = META(f, N_VALUES);
    if (!holds(f, S_VALUES, n, sizeof(uint32_t)) || n > UINT32_MAX ||
        !holds(f, S_EVENTS, 2 * n, sizeof(uint32_t)))
        return 0;
    const uint32_t *v = (const uint32_t *)SEC(f, S_VALUES)->at;
    const uint32_t *e = (const uint32_t *)SEC(f, S_EVENTS)->at;
    for (uint64_t i = 0; i < n; i++) {
        if (v[i] != UINT32_MAX &&
            ((v[i] & VALUE_OWN) ? (v[i] & ~VALUE_OWN) >= META(f, N_JOINED) : v[i] >= ntv))
            return 0;
        if ((e[2 * i] != UINT32_MAX && e[2 * i] >= nev) ||
            (e[2 * i + 1] != UINT32_MAX && e[2 * i + 1] >= nev))
            return 0;
    }
    return 1;
}

static int flows_ok(const sc_file *f, uint64_t nres, uint64_t ntv, uint64_t nev)
{
    uint64_t n = META(f, N_FLOWS), nn = META(f, N_NAMES), nrows = META(f, N_ROWS);
    if (!holds(f, S_FLOWS, n, sizeof(flow_rec)))
        return 0;
    for (uint64_t i = 0; i < n; i++) {
        flow_rec r;
        memcpy(&r, SEC(f, S_FLOWS)->at + i * sizeof r, sizeof r);
        if (r.event >= nev || r.rule >= nn || r.name >= nn || r.display >= nn ||
            r.from_res >= nres || r.to_res >= nres ||
            (r.from_cpu != UINT32_MAX && r.from_cpu >= ntv) ||
            (r.to_cpu != UINT32_MAX && r.to_cpu >= ntv) ||
            (r.from_row != UINT32_MAX && r.from_row >= nrows) ||
            (r.to_row != UINT32_MAX && r.to_row >= nrows))
            return 0;
    }
    return 1;
}

static int rest_ok(const sc_file *f)
{
    uint64_t nr = META(f, N_RULES), nn = META(f, N_NAMES);
    if (!holds(f, S_RULES, nr, 3 * sizeof(uint32_t)))
        return 0;
    const uint32_t *r = (const uint32_t *)SEC(f, S_RULES)->at;
    for (uint64_t i = 0; i < nr; i++)
        if (r[3 * i] >= nn || r[3 * i + 1] >= nn || r[3 * i + 2] > 1)
            return 0;
    if (!holds(f, S_WHEN, META(f, N_WHEN), sizeof(uint64_t)))
        return 0;
    const uint64_t *w = (const uint64_t *)SEC(f, S_WHEN)->at;
    for (uint64_t i = 1; i < META(f, N_WHEN); i++)
        if (w[i] < w[i - 1])
            return 0;
    uint64_t nd = META(f, N_DIAGS);
    if (!holds(f, S_DIAGS, nd, sizeof(sc_diag)) || nd > 100000 ||
        (META(f, N_STATUS) != TLV_OK && META(f, N_STATUS) != TLV_ERR_RULE) ||
        (META(f, N_STATUS) == TLV_ERR_RULE) != (META(f, N_ERRORS) != 0))
        return 0;
    const sc_diag *d = (const sc_diag *)SEC(f, S_DIAGS)->at;
    for (uint64_t i = 0; i < nd; i++)
        if (d[i].severity > TLV_SEV_WARNING || d[i].has_file > 1 ||
            !text_ok(SEC(f, S_DIAG_TEXT), d[i].file_at, d[i].file_len) ||
            !text_ok(SEC(f, S_DIAG_TEXT), d[i].msg_at, d[i].msg_len))
            return 0;
    return 1;
}

/* Everything the file holds checked against itself and the trace t: 1,
 * 0 (why says what is wrong), -1 out of memory. */
static int contents_ok(const sc_file *f, const tlv_trace *t, uint64_t *prim_text, char *why,
                       size_t whysz)
{
    uint64_t nres = t->w->nres, nev = t->nev;
    uint64_t ntv = META(f, N_TRACE_VALUES) + META(f, N_EXTRA); /* the values it may name */
    if (META(f, N_TRACE_RES) != nres || META(f, N_TRACE_VALUES) != t->cache_values ||
        META(f, N_TRACE_EVENTS) != nev || META(f, N_EXTRA) > UINT32_MAX - t->cache_values)
        return say(why, whysz, "inconsistent: made from a trace of other sizes");
    if (!texts_ok(f, S_EXTRA_ENDS, S_EXTRA_TEXT, META(f, N_EXTRA)))
        return say(why, whysz, "inconsistent: the values the shapes added");
    if (!pool_ok(f, S_NAMES_ENDS, S_NAMES_TEXT, META(f, N_NAMES)) ||
        !pool_ok(f, S_JOINED_ENDS, S_JOINED_TEXT, META(f, N_JOINED)))
        return say(why, whysz, "inconsistent: the names");
    if (!prims_ok(f, prim_text))
        return say(why, whysz, "inconsistent: the primitives");
    if (!rows_ok(f, nres))
        return say(why, whysz, "inconsistent: the rows");
    if (!shapes_ok(f, nres))
        return say(why, whysz, "inconsistent: the shapes");
    int o = order_ok(f);
    if (o <= 0)
        return o < 0 ? -1 : say(why, whysz, "inconsistent: the output order");
    if (!values_ok(f, ntv, nev))
        return say(why, whysz, "inconsistent: the shapes' values and events");
    if (!flows_ok(f, nres, ntv, nev))
        return say(why, whysz, "inconsistent: the flows");
    if (!rest_ok(f))
        return say(why, whysz, "inconsistent: the rules, When keys or errors");
    return 1;
}

/* ---- making the shapes of it ------------------------------------------------------------ */

/* Interns the n texts of a section pair into p, where they must get ids
 * first, first + 1, ...: 0, or 1 when one gets another id (a text there
 * twice, or already in p elsewhere: not what a build made). */
static int restore_texts(intern_pool *p, const sc_file *f, uint32_t ends_id, uint32_t text_id,
                         uint64_t first, uint64_t n)
{
    const uint64_t *end = (const uint64_t *)SEC(f, ends_id)->at;
    const char *text = (const char *)SEC(f, text_id)->at;
    uint64_t at = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (intern_add(p, text + at, (size_t)(end[i] - at)) != first + i)
            return 1;
        at = end[i];
    }
    return 0;
}

static int restore_pool(intern_pool *p, const sc_file *f, uint32_t ends_id, uint32_t text_id,
                        uint64_t n)
{
    return restore_texts(p, f, ends_id, text_id, 1, n - 1);
}

static char *text_copy(const span *sp, uint64_t at, uint64_t len)
{
    return len == UINT64_MAX ? NULL : strndup((const char *)sp->at + at, (size_t)len);
}

static int restore_prims(struct tlv_shapes *s, const sc_file *f, uint64_t text_start)
{
    uint64_t n = META(f, N_PRIMS);
    s->prims = calloc(n + 1, sizeof *s->prims);
    if (!s->prims)
        return -1;
    s->prims_cap = n + 1;
    const span *tx = SEC(f, S_PRIM_TEXT);
    span texts = {tx->at + text_start, tx->bytes - text_start, 1};
    const sc_prim_text *pt = (const sc_prim_text *)tx->at;
    const pos_spec *pts = (const pos_spec *)SEC(f, S_POINTS)->at;
    for (uint64_t i = 0; i < n; i++) {
        prim *p = &s->prims[s->nprims];
        memcpy(p, SEC(f, S_PRIMS)->at + i * sizeof *p, sizeof *p);
        size_t np = p->npoints;
        p->points = NULL;
        p->text = p->font_family = NULL;
        p->npoints = 0;
        s->nprims++; /* freed whole from here on */
        if (np && !(p->points = malloc(np * sizeof *p->points)))
            return -1;
        if (np)
            memcpy(p->points, pts, np * sizeof *p->points);
        p->npoints = np;
        pts += np;
        p->text = text_copy(&texts, pt[i].text_at, pt[i].text_len);
        p->font_family = text_copy(&texts, pt[i].font_at, pt[i].font_len);
        if ((pt[i].text_len != UINT64_MAX && !p->text) ||
            (pt[i].font_len != UINT64_MAX && !p->font_family))
            return -1;
    }
    return 0;
}

static int restore_rows(struct tlv_shapes *s, const sc_file *f)
{
    uint64_t n = META(f, N_ROWS);
    s->rows = calloc(n + 1, sizeof *s->rows);
    if (!s->rows)
        return -1;
    s->rows_cap = n + 1;
    const sc_row *r = (const sc_row *)SEC(f, S_ROWS)->at;
    const span *tx = SEC(f, S_ROW_TEXT);
    for (uint64_t i = 0; i < n; i++, s->nrows++) {
        row_def *d = &s->rows[i];
        d->label = text_copy(tx, r[i].label_at, r[i].label_len);
        d->group = text_copy(tx, r[i].group_at, r[i].group_len);
        d->resource = r[i].resource == UINT32_MAX ? NULL : s->trace->w->res[r[i].resource].name;
        if (!d->label || !d->group) {
            s->nrows++;
            return -1;
        }
    }
    return 0;
}

static int restore_store(struct tlv_shapes *s, const sc_file *f, const tlv_shapes_options *o)
{
    uint64_t n = META(f, N_SHAPES);
    const sc_shape *sh = (const sc_shape *)SEC(f, S_SHAPES)->at;
    const uint64_t *fr = META(f, N_HAS_FRAC) ? (const uint64_t *)SEC(f, S_SHAPE_FRAC)->at : NULL;
    for (uint64_t i = 0; i < n; i++) {
        const sc_shape *x = &sh[i];
        shape y = {{x->from, fr ? fr[2 * i] : 0}, {x->to, fr ? fr[2 * i + 1] : 0}, x->row,
                   x->prim, x->rule, x->event, x->resource, x->order};
        if (store_add(s->store, &y) < 0)
            return -1;
    }
    return viz_freeze_shapes(s, o);
}

/* A copy of section id's bytes (at least one byte allocated), or NULL. */
static void *copy_section(const sc_file *f, uint32_t id)
{
    void *p = malloc(SEC(f, id)->bytes + 8);
    if (p && SEC(f, id)->bytes)
        memcpy(p, SEC(f, id)->at, SEC(f, id)->bytes);
    return p;
}

static int restore_rest(struct tlv_shapes *s, const sc_file *f)
{
    uint64_t nr = META(f, N_RULES);
    const uint32_t *r = (const uint32_t *)SEC(f, S_RULES)->at;
    s->rule_name = malloc((nr + 1) * sizeof *s->rule_name);
    s->rule_display = malloc((nr + 1) * sizeof *s->rule_display);
    s->rule_skipped = malloc(nr + 1);
    if (!s->rule_name || !s->rule_display || !s->rule_skipped)
        return -1;
    for (uint64_t i = 0; i < nr; i++) {
        s->rule_name[i] = r[3 * i];
        s->rule_display[i] = r[3 * i + 1];
        s->rule_skipped[i] = (uint8_t)r[3 * i + 2];
    }
    s->nrules = nr;
    s->order = copy_section(f, S_ORDER);
    s->values = copy_section(f, S_VALUES);
    s->events = copy_section(f, S_EVENTS);
    s->when_keys = copy_section(f, S_WHEN);
    s->flows = copy_section(f, S_FLOWS);
    if (!s->order || !s->values || !s->events || !s->when_keys || !s->flows)
        return -1;
    s->nvalues = s->values_cap = META(f, N_VALUES);
    s->events_cap = 2 * s->nvalues;
    s->nwhen = META(f, N_WHEN);
    s->nflows = s->flows_cap = META(f, N_FLOWS);
    const sc_diag *d = (const sc_diag *)SEC(f, S_DIAGS)->at;
    const span *tx = SEC(f, S_DIAG_TEXT);
    for (uint64_t i = 0; i < META(f, N_DIAGS); i++) {
        char *file = d[i].has_file ? text_copy(tx, d[i].file_at, d[i].file_len) : NULL;
        if (d[i].has_file && !file)
            return -1;
        diags_add(&s->diags, (tlv_severity)d[i].severity, file, (long)d[i].line, (long)d[i].col,
                  "%.*s", (int)d[i].msg_len, (const char *)tx->at + d[i].msg_at);
        free(file);
    }
    s->diags.errors = META(f, N_ERRORS);
    s->diags.warnings = META(f, N_WARNINGS);
    s->diags.dropped = META(f, N_DROPPED);
    s->status = (int)META(f, N_STATUS);
    return s->diags.nomem ? -1 : 0;
}

/* Makes s (new, empty) the shapes the file holds: 0, 1 inconsistent (why
 * says), -1 out of memory. */
static int restore(struct tlv_shapes *s, const sc_file *f, const tlv_shapes_options *o,
                   char *why, size_t whysz)
{
    uint64_t prim_text = 0;
    int ok = contents_ok(f, s->trace, &prim_text, why, whysz);
    if (ok <= 0)
        return ok < 0 ? -1 : 1;
    if (restore_pool(s->names, f, S_NAMES_ENDS, S_NAMES_TEXT, META(f, N_NAMES)) ||
        restore_pool(s->joined, f, S_JOINED_ENDS, S_JOINED_TEXT, META(f, N_JOINED))) {
        say(why, whysz, "inconsistent: a name is there twice");
        return 1;
    }
    /* The builds of this process may have interned the same values after
     * the trace cache's, in the same order, or not yet: either will do. */
    if (restore_texts(s->trace->w->values, f, S_EXTRA_ENDS, S_EXTRA_TEXT,
                      META(f, N_TRACE_VALUES), META(f, N_EXTRA))) {
        say(why, whysz, "the trace's values are not in the order the shapes name them");
        return 1;
    }
    if (restore_prims(s, f, prim_text) < 0 || restore_rows(s, f) < 0 ||
        restore_rest(s, f) < 0 || restore_store(s, f, o) < 0)
        return -1;
    return 0;
}

/* Reads the shape cache into s: 1 a hit, 0 a miss (why says), -1 out of
 * memory. */
static int load(struct tlv_shapes *s, const tlv_shapes_options *o, char *why, size_t whysz)
{
    sc_file f;
    int rc = sc_open(s->cache_path, &f, why, whysz);
    if (rc <= 0) {
        sc_close(&f);
        return 0;
    }
    if (f.h.trace_id != s->trace_id)
        rc = say(why, whysz, "made from another trace: the log or the rules changed");
    else if (f.h.trace_finished != (uint32_t)s->trace_finished)
        rc = say(why, whysz, "made from the trace %s it was finished",
                 s->trace_finished ? "before" : "after");
    else if (f.h.options_hash != s->options_hash)
        rc = say(why, whysz, "made with other options");
    if (rc == 1) {
        int r = restore(s, &f, o, why, whysz);
        rc = r == 0 ? 1 : r == 1 ? 0 : -1;
    }
    sc_close(&f);
    return rc;
}

tlv_status tlv_shapes_build_cached(const tlv_trace *t, const tlv_shapes_options *opts, int save,
                                   tlv_shapes **out)
{
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT; /* the caller's over the defaults */
    abi_read_in(&o, sizeof o, opts, ABI_SHAPES_OPTIONS_0_1);
    struct tlv_shapes *s = viz_shapes_new(t);
    *out = NULL;
    if (!s || !s->names || !s->joined || !s->store) { /* restore() interns into them */
        tlv_shapes_free(s);
        return TLV_ERR_NOMEM;
    }
    viz_cache_identify(s, t, &o);
    char why[256] = "";
    int rc = 0;
    if (!s->trace_id)
        snprintf(why, sizeof why, "the trace is not a trace cache's");
    else if ((rc = load(s, &o, why, sizeof why)) == 1) {
        note(s, "shape cache hit: %s", s->cache_path);
        *out = s;
        if (s->status == TLV_ERR_RULE)
            return last_error_set(&s->lasterr, TLV_ERR_RULE,
                                  "%zu visualization rule error%s (tlv_shapes_diags lists them)",
                                  s->diags.errors, s->diags.errors == 1 ? "" : "s");
        return TLV_OK;
    }
    tlv_shapes_free(s); /* a miss: what was read of it goes */
    if (rc < 0)
        snprintf(why, sizeof why, "out of memory while reading it");
    tlv_status st = tlv_shapes_build(t, opts, out);
    if (!*out)
        return st;
    s = *out;
    if (!s->trace_id) {
        note(s, "shape cache not used (%s)", why);
        return st;
    }
    note(s, "shape cache miss (%s)", why);
    if (save && st != TLV_ERR_NOMEM && st != TLV_ERR_USAGE)
        tlv_shapes_save_cache(s);
    return st;
}
