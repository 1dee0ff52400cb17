/*
 * trace_restore.c — reading a trace cache file back (trace_cache.h,
 * docs/cache.md). Nothing in the file is trusted: the header is checked
 * (magic, its own hash, format, machine, tlv version, size), then the
 * payload's hash, then every count against its section's size and every
 * number that indexes something against what it indexes, before anything
 * of the trace is touched. The world is rebuilt on the side (values
 * interned again in their order, resources created on first use made again
 * by name, as conversion made them) and swapped in only when all of it
 * agrees; so a damaged or hostile file leaves the trace as it was, to be
 * converted instead. The events, the largest part, are mapped from the
 * file as they are (copy-on-write) when large; the rest is copied.
 */
#include "base/xxh64.h"
#include "convert/consistency.h"
#include "convert/convert_impl.h"
#include "trace/trace_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct span {
    const unsigned char *at;
    uint64_t offset, bytes;
    int present;
} span;

struct cache_file {
    int fd;
    const unsigned char *map;
    size_t bytes;
    cache_header h;
    span sec[SEC_LAST];
    const uint64_t *meta;
};

static int say(char *why, size_t whysz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int say(char *why, size_t whysz, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whysz, fmt, ap);
    va_end(ap);
    return 0;
}

void cache_close(cache_file *f)
{
    if (!f)
        return;
    if (f->map)
        munmap((void *)f->map, f->bytes);
    if (f->fd >= 0)
        close(f->fd);
    free(f);
}

const cache_header *cache_header_of(const cache_file *f) { return &f->h; }

/* ---- the header and the directory ------------------------------------------------------- */

static int check_header(const cache_file *f, char *why, size_t whysz)
{
    const cache_header *h = &f->h;
    if (memcmp(h->magic, CACHE_MAGIC, 8) != 0)
        return say(why, whysz, "not a tlv cache file");
    if (xxh64(h, offsetof(cache_header, header_hash)) != h->header_hash)
        return say(why, whysz, "its header is damaged");
    if (h->format != CACHE_FORMAT)
        return say(why, whysz, "written in cache format %u, this tlv reads %u", h->format,
                   CACHE_FORMAT);
    if (h->byte_order != CACHE_BYTE_ORDER || h->header_bytes != CACHE_HEADER_BYTES ||
        h->layout != (uint32_t)(sizeof(trace_event) | sizeof(change) << 8))
        return say(why, whysz, "written on another kind of machine");
    if (memchr(h->version, '\0', sizeof h->version) == NULL ||
        strcmp(h->version, tlv_version()) != 0)
        return say(why, whysz, "written by tlv %.31s, this is tlv %s",
                   memchr(h->version, '\0', sizeof h->version) ? h->version : "(unreadable)",
                   tlv_version());
    if (h->file_bytes != f->bytes)
        return say(why, whysz, "truncated or damaged: %llu bytes where its header says %llu",
                   (unsigned long long)f->bytes, (unsigned long long)h->file_bytes);
    if (h->nsections > CACHE_MAX_SECTIONS)
        return say(why, whysz, "damaged: %u sections", h->nsections);
    return 1;
}

static int read_directory(cache_file *f, char *why, size_t whysz)
{
    cache_dir_entry dir[CACHE_MAX_SECTIONS];
    memcpy(dir, f->map + CACHE_HEADER_BYTES, sizeof dir);
    for (uint32_t i = 0; i < f->h.nsections; i++) {
        const cache_dir_entry *e = &dir[i];
        if (e->id == 0 || e->id >= SEC_LAST || f->sec[e->id].present)
            return say(why, whysz, "damaged: section %u of id %u", i, e->id);
        if (e->offset < CACHE_PAYLOAD_START || e->offset % 8 || e->offset > f->bytes ||
            e->bytes > f->bytes - e->offset)
            return say(why, whysz, "damaged: section %u lies outside the file", e->id);
        f->sec[e->id] = (span){f->map + e->offset, e->offset, e->bytes, 1};
    }
    for (uint32_t id = 1; id < SEC_LAST; id++)
        if (!f->sec[id].present)
            return say(why, whysz, "damaged: section %u is missing", id);
    if (f->sec[SEC_EVENTS].offset % CACHE_PAGE)
        return say(why, whysz, "damaged: the events are not at a page boundary");
    if (f->sec[SEC_META].bytes != META_COUNT * sizeof(uint64_t))
        return say(why, whysz, "damaged: %llu bytes of counts",
                   (unsigned long long)f->sec[SEC_META].bytes);
    f->meta = (const uint64_t *)f->sec[SEC_META].at;
    return 1;
}

/* Maps the file and reads its header and directory: 1, or 0 (why says). */
static int open_file(cache_file *f, const char *path, char *why, size_t whysz)
{
    struct stat sb;
    f->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0)
        return say(why, whysz, errno == ENOENT ? "none yet" : "cannot open it: %s",
                   strerror(errno));
    if (fstat(f->fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        return say(why, whysz, "not a regular file");
    if ((uint64_t)sb.st_size < CACHE_PAYLOAD_START)
        return say(why, whysz, "truncated: %lld bytes", (long long)sb.st_size);
    f->bytes = (size_t)sb.st_size;
    void *map = mmap(NULL, f->bytes, PROT_READ, MAP_PRIVATE, f->fd, 0);
    if (map == MAP_FAILED)
        return say(why, whysz, "cannot map it: %s", strerror(errno));
    f->map = map;
    memcpy(&f->h, f->map, sizeof f->h);
    return check_header(f, why, whysz) && read_directory(f, why, whysz);
}

int cache_open(const char *path, cache_file **out, char *why, size_t whysz)
{
    *out = NULL;
    cache_file *f = calloc(1, sizeof *f);
    if (!f)
        return -1;
    f->fd = -1;
    if (!open_file(f, path, why, whysz)) {
        cache_close(f);
        return 0;
    }
    *out = f;
    return 1;
}

int cache_verify(const cache_file *f, char *why, size_t whysz)
{
    if (xxh64(f->map + CACHE_PAYLOAD_START, f->bytes - CACHE_PAYLOAD_START) != f->h.payload_hash)
        return say(why, whysz, "damaged: its contents do not match their checksum");
    return 1;
}

/* ---- checking the contents ------------------------------------------------------------- */

#define META(f, m) ((f)->meta[m])
#define SEC(f, id) (&(f)->sec[id])

/* Whether section id holds exactly n items of `size` bytes. */
static int holds(const cache_file *f, int id, uint64_t n, size_t size)
{
    return n <= UINT64_MAX / size && SEC(f, id)->bytes == n * size;
}

/* Checks a text pool: n ends, nondecreasing, the last the text's size, no
 * NUL inside. */
static int pool_ok(const cache_file *f, int ends_id, int text_id, uint64_t n)
{
    if (!holds(f, ends_id, n, sizeof(uint64_t)))
        return 0;
    const uint64_t *ends = (const uint64_t *)SEC(f, ends_id)->at;
    uint64_t at = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (ends[i] < at)
            return 0;
        at = ends[i];
    }
    const span *t = SEC(f, text_id);
    return at == t->bytes && (!t->bytes || !memchr(t->at, '\0', t->bytes));
}

static const char *pool_text(const cache_file *f, int ends_id, int text_id, uint64_t i,
                             size_t *len)
{
    const uint64_t *ends = (const uint64_t *)SEC(f, ends_id)->at;
    uint64_t from = i ? ends[i - 1] : 0;
    *len = (size_t)(ends[i] - from);
    return (const char *)SEC(f, text_id)->at + from;
}

static int before(int64_t ta, uint64_t fa, uint32_t sa, int64_t tb, uint64_t fb, uint32_t sb)
{
    return ta != tb ? ta < tb : fa != fb ? fa < fb : sa < sb;
}

static uint64_t frac_scale(int radix)
{
    uint64_t scale = 1;
    while (scale <= (uint64_t)INT64_MAX / (uint64_t)radix)
        scale *= (uint64_t)radix;
    return scale;
}

static int histories_ok(const cache_file *f, const world *w, char *why, size_t whysz)
{
    uint64_t nres = META(f, M_NRES), nvalues = META(f, M_NVALUES), nhist = 0;
    const cache_res *res = (const cache_res *)SEC(f, SEC_RES)->at;
    for (uint64_t r = 0; r < nres; r++)
        nhist += w->model->types[res[r].type].nattrs;
    if (nhist != META(f, M_NHIST) || !holds(f, SEC_HIST, nhist, sizeof(cache_hist)) ||
        !holds(f, SEC_CHANGES, META(f, M_NCHANGES), sizeof(change)) ||
        !holds(f, SEC_RUNS, META(f, M_NRUNS), sizeof(uint32_t)) ||
        !holds(f, SEC_HFRAC, META(f, M_NHFRAC), sizeof(uint64_t)))
        return say(why, whysz, "inconsistent: the histories' sizes");
    const cache_hist *hs = (const cache_hist *)SEC(f, SEC_HIST)->at;
    const change *c = (const change *)SEC(f, SEC_CHANGES)->at;
    const uint32_t *runs = (const uint32_t *)SEC(f, SEC_RUNS)->at;
    const uint64_t *fr = (const uint64_t *)SEC(f, SEC_HFRAC)->at;
    uint64_t nc = 0, nr = 0, nf = 0, scale = frac_scale(w->radix);
    for (uint64_t i = 0; i < nhist; i++) {
        const cache_hist *h = &hs[i];
        if (h->init >= nvalues || h->nruns > HISTORY_MAX_RUNS || h->has_frac > 1 ||
            h->n > META(f, M_NCHANGES) - nc || h->nruns > META(f, M_NRUNS) - nr ||
            (h->has_frac && h->n > META(f, M_NHFRAC) - nf) || (h->nruns && runs[nr] != 0))
            return say(why, whysz, "inconsistent: history %llu", (unsigned long long)i);
        for (uint32_t k = 0; k < h->nruns; k++)
            if (runs[nr + k] >= h->n || (k && runs[nr + k] <= runs[nr + k - 1]))
                return say(why, whysz, "inconsistent: the runs of history %llu",
                           (unsigned long long)i);
        for (uint32_t j = 0, run = 0; j < h->n; j++) {
            const change *x = &c[nc + j];
            uint64_t xf = h->has_frac ? fr[nf + j] : 0;
            if (x->val >= nvalues || xf >= scale)
                return say(why, whysz, "inconsistent: a change of history %llu",
                           (unsigned long long)i);
            int starts = run + 1 < h->nruns && runs[nr + run + 1] == j;
            run += (uint32_t)starts;
            if (j && !starts &&
                before(x->ticks, xf, x->seq, c[nc + j - 1].ticks,
                       h->has_frac ? fr[nf + j - 1] : 0, c[nc + j - 1].seq))
                return say(why, whysz, "inconsistent: history %llu is out of order",
                           (unsigned long long)i);
        }
        nc += h->n;
        nr += h->nruns;
        nf += h->has_frac ? h->n : 0;
    }
    return 1;
}

static int numcol_ok(const cache_file *f, int first_id, uint64_t n, uint64_t napart)
{
    if (!holds(f, first_id, (n + NUMCOL_BLOCK - 1) / NUMCOL_BLOCK, sizeof(uint32_t)) ||
        !holds(f, first_id + 1, n, 1) || !holds(f, first_id + 2, napart, sizeof(uint64_t)))
        return 0;
    const uint8_t *off = SEC(f, first_id + 1)->at;
    const uint64_t *apart = (const uint64_t *)SEC(f, first_id + 2)->at;
    uint64_t seen = 0;
    for (uint64_t i = 0; i < n; i++) {
        if (off[i] != 255)
            continue;
        /* every number kept apart has its entry, in index order */
        if (seen >= napart || (apart[seen] >> 32) != i)
            return 0;
        seen++;
    }
    return seen == napart;
}

static int events_ok(const cache_file *f, const tlv_trace *t, char *why, size_t whysz)
{
    uint64_t nev = META(f, M_NEV), nargs = META(f, M_NARGS), nres = META(f, M_NRES),
             nvalues = META(f, M_NVALUES);
    if (nev >= UINT32_MAX - 1 || nargs > UINT32_MAX || META(f, M_HAS_FRAC) > 1 ||
        !holds(f, SEC_EVENTS, nev, sizeof(trace_event)) ||
        !holds(f, SEC_FRAC, META(f, M_HAS_FRAC) ? nev : 0, sizeof(uint64_t)) ||
        !holds(f, SEC_ARGS, nargs, sizeof(uint32_t)) || META(f, M_LINES_N) != nev ||
        META(f, M_SEQS_N) != nev ||
        !numcol_ok(f, SEC_LINES_BASE, nev, META(f, M_LINES_NAPART)) ||
        !numcol_ok(f, SEC_SEQS_BASE, nev, META(f, M_SEQS_NAPART)))
        return say(why, whysz, "inconsistent: the events' sizes");
    const uint32_t *args = (const uint32_t *)SEC(f, SEC_ARGS)->at;
    for (uint64_t i = 0; i < nargs; i++)
        if (args[i] >= nvalues)
            return say(why, whysz, "inconsistent: argument %llu", (unsigned long long)i);
    const trace_event *ev = (const trace_event *)SEC(f, SEC_EVENTS)->at;
    const uint64_t *frac = META(f, M_HAS_FRAC) ? (const uint64_t *)SEC(f, SEC_FRAC)->at : NULL;
    uint64_t scale = frac_scale(t->w->radix);
    for (uint64_t i = 0; i < nev; i++) {
        const trace_event *e = &ev[i];
        int attr = e->kind == TLV_EVENT_ATTRIBUTE;
        if (e->res >= nres || e->name >= nvalues || e->order >= nev ||
            (e->kind != TLV_EVENT_ATTRIBUTE && e->kind != TLV_EVENT_BEHAVIOR) ||
            (attr && (e->value >= nvalues || e->nargs)) ||
            (!attr && (e->value > nargs || e->nargs > nargs - e->value)) ||
            (frac && frac[e->order] >= scale))
            return say(why, whysz, "inconsistent: event %llu", (unsigned long long)i);
        if (i) {
            const trace_event *p = &ev[i - 1];
            int64_t tp = (int64_t)((uint64_t)p->ticks_hi << 32 | p->ticks_lo),
                    te = (int64_t)((uint64_t)e->ticks_hi << 32 | e->ticks_lo);
            if (before(te, frac ? frac[e->order] : 0, e->order, tp, frac ? frac[p->order] : 0,
                       p->order))
                return say(why, whysz, "inconsistent: the events are out of order at %llu",
                           (unsigned long long)i);
        }
    }
    return 1;
}

static int texts_ok(const cache_file *f, char *why, size_t whysz)
{
    uint64_t nd = META(f, M_NDIAGS), nu = META(f, M_NUNMATCHED);
    if (!holds(f, SEC_DIAGS, nd, sizeof(cache_diag)) || META(f, M_PRE_NDIAGS) > nd ||
        !holds(f, SEC_UNMATCHED, nu, sizeof(cache_unmatched)) ||
        META(f, M_CONV_ERROR_LEN) >= sizeof(((last_error *)0)->text) ||
        META(f, M_TRACE_ERROR_LEN) >= sizeof(((last_error *)0)->text) ||
        SEC(f, SEC_TEXTS)->bytes != META(f, M_CONV_ERROR_LEN) + META(f, M_TRACE_ERROR_LEN) ||
        memchr(SEC(f, SEC_TEXTS)->at, '\0', SEC(f, SEC_TEXTS)->bytes))
        return say(why, whysz, "inconsistent: the diagnostics' sizes");
    const cache_diag *d = (const cache_diag *)SEC(f, SEC_DIAGS)->at;
    uint64_t dt = SEC(f, SEC_DIAG_TEXT)->bytes;
    const unsigned char *text = SEC(f, SEC_DIAG_TEXT)->at;
    for (uint64_t i = 0; i < nd; i++)
        if (d[i].severity > TLV_SEV_WARNING || d[i].file_kind > DIAG_FILE_TEXT ||
            d[i].file_at > dt || d[i].file_len > dt - d[i].file_at || d[i].msg_at > dt ||
            d[i].msg_len > dt - d[i].msg_at || memchr(text + d[i].file_at, '\0', d[i].file_len) ||
            memchr(text + d[i].msg_at, '\0', d[i].msg_len))
            return say(why, whysz, "inconsistent: diagnostic %llu", (unsigned long long)i);
    const cache_unmatched *u = (const cache_unmatched *)SEC(f, SEC_UNMATCHED)->at;
    uint64_t ut = SEC(f, SEC_UNMATCHED_TEXT)->bytes;
    for (uint64_t i = 0; i < nu; i++)
        if (u[i].at > ut || u[i].len > ut - u[i].at)
            return say(why, whysz, "inconsistent: unmatched line %llu", (unsigned long long)i);
    return 1;
}

static int contents_ok(const cache_file *f, const tlv_trace *t, char *why, size_t whysz)
{
    const world *w = t->w;
    uint64_t nres = META(f, M_NRES), nvalues = META(f, M_NVALUES);
    if (nvalues >= UINT32_MAX || !pool_ok(f, SEC_VALUE_ENDS, SEC_VALUE_TEXT, nvalues))
        return say(why, whysz, "inconsistent: the values' sizes");
    if (nres >= UINT32_MAX || META(f, M_NDECL) != w->model->nres || nres < META(f, M_NDECL) ||
        !pool_ok(f, SEC_RES_ENDS, SEC_RES_TEXT, nres) || !holds(f, SEC_RES, nres, sizeof(cache_res)))
        return say(why, whysz, "inconsistent: the resources' sizes");
    const cache_res *res = (const cache_res *)SEC(f, SEC_RES)->at;
    for (uint64_t r = 0; r < nres; r++) {
        const cache_res *x = &res[r];
        int dynamic_ok = x->dynamic == 1 && x->decl >= 1 && x->decl <= w->dyn->n &&
                         x->type == w->dyn->v[x->decl - 1].type;
        if (x->type >= w->model->ntypes ||
            (r < META(f, M_NDECL) ? x->dynamic || x->decl : !dynamic_ok))
            return say(why, whysz, "inconsistent: resource %llu", (unsigned long long)r);
    }
    if (META(f, M_NRULES) != t->rules->nrules ||
        !holds(f, SEC_RULE_MATCHES, META(f, M_NRULES), sizeof(uint64_t)) ||
        !holds(f, SEC_TAIL_WARNED, META(f, M_NRULES), 1) || META(f, M_CLOCK_SEEN) > 1 ||
        META(f, M_FIRST_LOOKS_STD) > 2 || META(f, M_NEXT_SEQ) > UINT32_MAX ||
        META(f, M_STATIC_CHANGES) > UINT32_MAX ||
        (META(f, M_STATUS) != TLV_OK && META(f, M_STATUS) != TLV_ERR_CONVERT))
        return say(why, whysz, "inconsistent: the converter's counts");
    return histories_ok(f, w, why, whysz) && events_ok(f, t, why, whysz) &&
           texts_ok(f, why, whysz);
}

/* ---- rebuilding ------------------------------------------------------------------------- */

/* The world of the cache, made beside t's: 1 made, 0 inconsistent (why
 * says), -1 out of memory. */
static int make_world(const cache_file *f, const world *old, world *w, char *why, size_t whysz)
{
    if (world_init(w, old->model, old->dyn, old->radix) < 0)
        return -1;
    w->time_scale = old->time_scale;
    uint64_t nvalues = META(f, M_NVALUES), nres = META(f, M_NRES);
    for (uint64_t i = 0; i < nvalues; i++) {
        size_t len;
        const char *s = pool_text(f, SEC_VALUE_ENDS, SEC_VALUE_TEXT, i, &len);
        uint32_t id = intern_add(w->values, s, len);
        if (id == UINT32_MAX)
            return -1;
        if (id != i)
            return say(why, whysz, "inconsistent: value %llu is there twice",
                       (unsigned long long)i);
    }
    const cache_res *res = (const cache_res *)SEC(f, SEC_RES)->at;
    for (uint64_t r = 0; r < nres; r++) {
        size_t len;
        const char *name = pool_text(f, SEC_RES_ENDS, SEC_RES_TEXT, r, &len);
        long got = r < w->nres ? world_find(w, name, len) : world_create(w, name, len);
        if (got == -2)
            return -1;
        if (got != (long)r || w->res[r].type != res[r].type || w->res[r].color != res[r].color)
            return say(why, whysz, "inconsistent: resource %llu ('%.*s')",
                       (unsigned long long)r, (int)(len < 64 ? len : 64), name);
    }
    if (intern_count(w->values) != nvalues || w->palette_next != META(f, M_PALETTE_NEXT))
        return say(why, whysz, "inconsistent: the resources made on first use");
    const cache_hist *hs = (const cache_hist *)SEC(f, SEC_HIST)->at;
    const change *c = (const change *)SEC(f, SEC_CHANGES)->at;
    const uint32_t *runs = (const uint32_t *)SEC(f, SEC_RUNS)->at;
    const uint64_t *fr = (const uint64_t *)SEC(f, SEC_HFRAC)->at;
    size_t i = 0;
    for (size_t r = 0; r < w->nres; r++)
        for (size_t a = 0; a < w->model->types[w->res[r].type].nattrs; a++, i++) {
            history *h = &w->res[r].attrs[a];
            const cache_hist *x = &hs[i];
            if (h->init != x->init)
                return say(why, whysz, "inconsistent: the initial value of history %zu", i);
            h->c = malloc((x->n ? x->n : 1) * sizeof *h->c);
            h->frac = x->has_frac ? calloc(x->n ? x->n : 1, sizeof *h->frac) : NULL;
            h->runs = x->nruns ? malloc(HISTORY_MAX_RUNS * sizeof *h->runs) : NULL;
            if (!h->c || (x->has_frac && !h->frac) || (x->nruns && !h->runs))
                return -1;
            memcpy(h->c, c, x->n * sizeof *c);
            if (h->frac)
                memcpy(h->frac, fr, x->n * sizeof *fr);
            if (h->runs)
                memcpy(h->runs, runs, x->nruns * sizeof *runs);
            h->n = h->cap = x->n;
            h->nruns = x->nruns;
            c += x->n;
            runs += x->nruns;
            fr += x->has_frac ? x->n : 0;
        }
    w->next_seq = (uint32_t)META(f, M_NEXT_SEQ);
    w->static_changes = (uint32_t)META(f, M_STATIC_CHANGES);
    w->clock.seen = (int)META(f, M_CLOCK_SEEN);
    w->clock.sec = (int64_t)META(f, M_CLOCK_SEC);
    w->clock.atto = META(f, M_CLOCK_ATTO);
    return 1;
}

/* Whether t's world can take the cache's: what it holds (the declared
 * resources and the values their creation interned, and any value interned
 * since by a reader of the empty trace) is the start of the cache's. */
static int world_fits(const cache_file *f, const world *w, char *why, size_t whysz)
{
    uint32_t n = intern_count(w->values);
    if (n > META(f, M_NVALUES) || w->nres != META(f, M_NDECL))
        return say(why, whysz, "the trace's values are not the cache's");
    for (uint32_t i = 0; i < n; i++) {
        size_t len;
        const char *s = pool_text(f, SEC_VALUE_ENDS, SEC_VALUE_TEXT, i, &len);
        if (len != intern_len(w->values, i) || memcmp(s, intern_str(w->values, i), len) != 0)
            return say(why, whysz, "the trace's values are not the cache's");
    }
    return 1;
}

/* Makes t's world `real` the one built beside it (`made`, from the cache
 * file): the values and the resources made on first use added to it (the
 * same ids and indexes: world_fits and make_world checked), the histories
 * moved over (made keeps real's empty ones, for world_free). The world
 * itself stays where it is: what a reader took from it (a resource's
 * name, a value's text) stays valid. Returns 0, or -1 out of memory. */
static int adopt_world(world *real, world *made)
{
    for (uint32_t i = intern_count(real->values); i < intern_count(made->values); i++)
        if (intern_add(real->values, intern_str(made->values, i), intern_len(made->values, i)) != i)
            return -1;
    for (size_t r = real->nres; r < made->nres; r++)
        if (world_create(real, made->res[r].name, strlen(made->res[r].name)) != (long)r)
            return -1;
    for (size_t r = 0; r < real->nres; r++)
        for (size_t a = 0; a < real->model->types[real->res[r].type].nattrs; a++) {
            history h = real->res[r].attrs[a];
            real->res[r].attrs[a] = made->res[r].attrs[a];
            made->res[r].attrs[a] = h;
        }
    real->next_seq = made->next_seq;
    real->static_changes = made->static_changes;
    real->clock = made->clock;
    return real->palette_next == made->palette_next ? 0 : -1;
}

/* The trace's arrays, made beside t's. */
typedef struct arrays {
    trace_event *ev;
    bulk ev_file;
    uint64_t *frac;
    numcol lines, seqs;
    uint32_t *args;
} arrays;

static void *copy_of(const span *s)
{
    void *p = malloc(s->bytes ? s->bytes : 1);
    if (p && s->bytes)
        memcpy(p, s->at, s->bytes);
    return p;
}

static int copy_numcol(const cache_file *f, int first_id, numcol *c, uint64_t n,
                       uint64_t napart)
{
    c->base = copy_of(SEC(f, first_id));
    c->off = copy_of(SEC(f, first_id + 1));
    c->apart = copy_of(SEC(f, first_id + 2));
    c->n = c->cap = n;
    c->base_cap = (n + NUMCOL_BLOCK - 1) / NUMCOL_BLOCK;
    c->napart = c->apart_cap = napart;
    return c->base && c->off && c->apart ? 0 : -1;
}

static void free_arrays(arrays *a)
{
    BULK_RELEASE(a->ev_file, a->ev);
    free(a->frac);
    numcol_free(&a->lines);
    numcol_free(&a->seqs);
    free(a->args);
}

/* The events are mapped from the file (private: the trace may write them,
 * the file stays as it is) when at least as large as the trace keeps in a
 * file of its own, else copied. */
static int make_arrays(const cache_file *f, const tlv_trace *t, arrays *a)
{
    memset(a, 0, sizeof *a);
    a->ev_file.fd = -1;
    const span *ev = SEC(f, SEC_EVENTS);
    if (ev->bytes >= t->file_min) {
        void *at = mmap(NULL, ev->bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE, f->fd,
                        (off_t)ev->offset);
        if (at != MAP_FAILED) {
            a->ev_file.at = at;
            a->ev_file.bytes = ev->bytes;
            a->ev = at;
        }
    }
    if (!a->ev && !(a->ev = copy_of(ev)))
        return -1;
    if (META(f, M_HAS_FRAC) && !(a->frac = copy_of(SEC(f, SEC_FRAC))))
        return -1;
    if (copy_numcol(f, SEC_LINES_BASE, &a->lines, META(f, M_LINES_N), META(f, M_LINES_NAPART)) < 0 ||
        copy_numcol(f, SEC_SEQS_BASE, &a->seqs, META(f, M_SEQS_N), META(f, M_SEQS_NAPART)) < 0)
        return -1;
    a->args = copy_of(SEC(f, SEC_ARGS));
    return a->args ? 0 : -1;
}

/* The converter's diagnostics: all of them, or (prefix) those before the
 * finish's summaries, with the counts of then. */
static int restore_diags(const cache_file *f, tlv_converter *conv, const char *source,
                         int prefix)
{
    tlv_diags *d = converter_diags_rw(conv);
    const cache_diag *cd = (const cache_diag *)SEC(f, SEC_DIAGS)->at;
    const char *text = (const char *)SEC(f, SEC_DIAG_TEXT)->at;
    uint64_t n = META(f, prefix ? M_PRE_NDIAGS : M_NDIAGS);
    for (uint64_t i = 0; i < n; i++) {
        const cache_diag *g = &cd[i];
        char *file = g->file_kind == DIAG_FILE_TEXT ? strndup(text + g->file_at, g->file_len)
                                                    : NULL;
        if (g->file_kind == DIAG_FILE_TEXT && !file)
            return -1;
        diags_add(d, (tlv_severity)g->severity,
                  g->file_kind == DIAG_FILE_SOURCE ? source : file, (long)g->line, (long)g->col,
                  "%.*s", (int)g->msg_len, text + g->msg_at);
        free(file);
    }
    d->errors = META(f, prefix ? M_PRE_ERRORS : M_DIAG_ERRORS);
    d->warnings = META(f, prefix ? M_PRE_WARNINGS : M_DIAG_WARNINGS);
    d->dropped = META(f, prefix ? M_PRE_DROPPED : M_DIAG_DROPPED);
    return d->nomem ? -1 : 0;
}

static int restore_converter(const cache_file *f, tlv_trace *t, const char *source, int prefix)
{
    const char *texts = (const char *)SEC(f, SEC_TEXTS)->at;
    char conv_error[sizeof t->lasterr.text];
    size_t n = (size_t)META(f, M_CONV_ERROR_LEN);
    memcpy(conv_error, texts, n);
    conv_error[n] = '\0';
    converter_state cs = {0};
    cs.stats.bytes_read = META(f, M_BYTES_READ);
    cs.stats.lines_read = META(f, M_LINES_READ);
    cs.stats.lines_matched = META(f, M_LINES_MATCHED);
    cs.stats.events = META(f, M_EVENTS);
    cs.stats.error_lines = META(f, M_ERROR_LINES);
    cs.nontext_lines = META(f, M_NONTEXT_LINES);
    cs.first_looks_std = (int)META(f, M_FIRST_LOOKS_STD) - 1;
    cs.last_error = prefix ? "" : conv_error;
    cs.rule_matches = (const uint64_t *)SEC(f, SEC_RULE_MATCHES)->at;
    cs.tail_warned = SEC(f, SEC_TAIL_WARNED)->at;
    if (converter_set_state(t->conv, &cs) < 0 || restore_diags(f, t->conv, source, prefix) < 0)
        return -1;
    if (!prefix) {
        size_t m = (size_t)META(f, M_TRACE_ERROR_LEN);
        memcpy(t->lasterr.text, texts + n, m);
        t->lasterr.text[m] = '\0';
    }
    return 0;
}

int cache_restore(cache_file *f, tlv_trace *t, const char *source, int prefix,
                  tlv_status *status, char *why, size_t whysz)
{
    if (!contents_ok(f, t, why, whysz))
        return 1;
    if (!world_fits(f, t->w, why, whysz))
        return 1;
    world w;
    int rc = make_world(f, t->w, &w, why, whysz);
    arrays a;
    if (rc == 1 && make_arrays(f, t, &a) < 0) {
        free_arrays(&a);
        rc = -1;
    }
    /* The report is read last of what is checked: it changes the
     * converter's only when all of it agrees. */
    struct consistency *k = converter_consistency(t->conv);
    const span *ks = SEC(f, SEC_CONSISTENCY);
    if (rc == 1) {
        int kc = k ? consistency_unpack(k, ks->at, (size_t)ks->bytes, (size_t)META(f, M_NRES)) : -1;
        if (kc)
            free_arrays(&a);
        rc = kc == 0 ? 1 : kc == 1 ? (say(why, whysz, "inconsistent: the consistency report"), 0) : -1;
    }
    if (rc != 1) {
        world_free(&w);
        return rc == 0 ? 1 : -1;
    }
    /* Everything agrees: from here on t is the cache's. */
    if (adopt_world(t->w, &w) < 0) {
        world_free(&w);
        free_arrays(&a);
        return -2;
    }
    world_free(&w);
    t->ev = a.ev;
    t->ev_file = a.ev_file;
    t->nev = t->cap = t->nsorted = t->nshrunk = (size_t)META(f, M_NEV);
    t->frac = a.frac;
    t->frac_cap = a.frac ? t->nev : 0;
    t->lines = a.lines;
    t->seqs = a.seqs;
    t->args = a.args;
    t->nargs = t->args_cap = (size_t)META(f, M_NARGS);
    t->finished = !prefix;
    if (restore_converter(f, t, source, prefix) < 0 || tlv_trace_update(t) != TLV_OK)
        return -2;
    *status = prefix ? TLV_OK : (tlv_status)META(f, M_STATUS);
    return 0;
}

/* Calls fn for every line no rule matched, as the conversion did. */
void cache_replay_unmatched(const cache_file *f, tlv_unmatched_fn fn, void *user)
{
    const cache_unmatched *u = (const cache_unmatched *)SEC(f, SEC_UNMATCHED)->at;
    const char *text = (const char *)SEC(f, SEC_UNMATCHED_TEXT)->at;
    for (uint64_t i = 0; fn && i < META(f, M_NUNMATCHED); i++)
        fn(user, u[i].line, text + u[i].at, (size_t)u[i].len);
}

int cache_copy_unmatched(const cache_file *f, cache_extra *x)
{
    const span *u = SEC(f, SEC_UNMATCHED), *text = SEC(f, SEC_UNMATCHED_TEXT);
    x->nunmatched = x->unmatched_cap = (size_t)META(f, M_NUNMATCHED);
    x->unmatched_len = x->unmatched_text_cap = (size_t)text->bytes;
    x->unmatched = copy_of(u);
    x->unmatched_text = copy_of(text);
    return x->unmatched && x->unmatched_text ? 0 : -1;
}
