/*
 * world.c — run-time resources (declared, or created on first use), their
 * attribute state, and resolving resource references (see world.h).
 */
#include "world/world.h"

#include "base/buf.h"
#include "lang/stdform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cond_cache_entry {
    char *text;
    size_t n;
    cond *c;
};

#define COND_CACHE_MAX 4096

static int add_member(world *w, size_t type, size_t res)
{
    if (GROW(w->members[type], w->members_cap[type], w->nmembers[type] + 1) < 0)
        return -1;
    w->members[type][w->nmembers[type]++] = res;
    return 0;
}


/* Appends a resource of type `type` whose attribute i starts at init[i]
 * (NULL: the type's Default, else empty). */
static long add_resource(world *w, const char *name, size_t n, size_t type, const char *display,
                         uint32_t color, const char *const *init)
{
    const res_type *t = &w->model->types[type];
    if (GROW(w->res, w->res_cap, w->nres + 1) < 0)
        return -1;
    uint32_t id = intern_add(w->names, name, n);
    if (id == UINT32_MAX)
        return -1;
    rt_resource *r = &w->res[w->nres];
    memset(r, 0, sizeof *r);
    r->name = intern_str(w->names, id);
    r->type = type;
    r->display = display ? display : r->name;
    r->color = color;
    r->attrs = calloc(t->nattrs + 1, sizeof *r->attrs);
    if (!r->attrs)
        return -1;
    w->nres++;
    for (size_t i = 0; i < t->nattrs; i++) {
        const char *v = init[i] ? init[i] : t->attrs[i].deflt ? t->attrs[i].deflt : "";
        uint32_t vid = intern_add(w->values, v, strlen(v));
        if (vid == UINT32_MAX)
            return -1;
        r->attrs[i].init = vid;
    }
    return add_member(w, type, w->nres - 1) < 0 ? -1 : (long)w->nres - 1;
}

static int add_declared(world *w, const res_decl *d)
{
    return add_resource(w, d->name, strlen(d->name), d->type, d->display, d->color,
                        (const char *const *)d->init) < 0 ? -1 : 0;
}

/* Expands a declaration's template over the name its pattern matched, into
 * the world's value pool (so the text lives as long as the world). */
static const char *expand_dyn(world *w, const tmpl *t, const char *name, size_t n,
                              pcre2_match_data *md, const dyn_decl *y)
{
    if (!t->text)
        return NULL;
    match_list ml = {pcre2_get_ovector_pointer(md), 1, 1, y->ngroups};
    buf out = BUF_INIT;
    const char *s = NULL;
    if (tmpl_expand(t, name, n, &ml, &out) == 0) {
        uint32_t id = intern_add(w->values, buf_str(&out), out.len);
        s = id == UINT32_MAX ? NULL : intern_str(w->values, id);
    }
    buf_free(&out);
    return s;
}

uint32_t world_decl_attr_last(const world *w, size_t res, int group)
{
    const rt_resource *r = &w->res[res];
    if (!r->decl)
        return UINT32_MAX;
    const dyn_decl *y = &w->dyn->v[r->decl - 1];
    long a = group ? y->group_attr : y->label_attr;
    if (a < 0)
        return UINT32_MAX;
    uint32_t v = history_last(&r->attrs[a]);
    return *intern_str(w->values, v) ? v : UINT32_MAX;
}

const char *world_label(const world *w, size_t res)
{
    uint32_t v = world_decl_attr_last(w, res, 0);
    return v != UINT32_MAX ? intern_str(w->values, v) : w->res[res].display;
}

long world_create(world *w, const char *name, size_t n)
{
    const model *m = w->model;
    pcre2_match_data *md = NULL;
    long di = w->dyn->n ? dyn_match(w->dyn, name, n, &md) : -1;
    if (di < 0)
        return -1;
    const dyn_decl *y = &w->dyn->v[di];
    size_t na = m->types[y->type].nattrs;
    const char **init = calloc(na + 1, sizeof *init);
    long ri = -2;
    if (init) {
        for (size_t i = 0; i < na; i++)
            init[i] = expand_dyn(w, &y->init[i], name, n, md, y);
        const char *display = expand_dyn(w, &y->display, name, n, md, y);
        size_t k = m->palette_used + w->palette_next;
        uint32_t color = model_next_palette_color(m, &k);
        w->palette_next = k - m->palette_used;
        ri = add_resource(w, name, n, y->type, display, color, init);
        if (ri >= 0) {
            w->res[ri].dynamic = 1;
            w->res[ri].decl = (size_t)di + 1;
        }
        else
            ri = -2;
    }
    free(init);
    pcre2_match_data_free(md);
    return ri;
}

int world_init(world *w, const model *m, const dyn_table *dyn, int radix)
{
    memset(w, 0, sizeof *w);
    w->model = m;
    w->dyn = dyn;
    w->radix = radix;
    w->values = intern_new();
    w->names = intern_new();
    size_t nt = m->ntypes ? m->ntypes : 1;
    w->members = calloc(nt, sizeof *w->members);
    w->nmembers = calloc(nt, sizeof *w->nmembers);
    w->members_cap = calloc(nt, sizeof *w->members_cap);
    if (!w->values || !w->names || !w->members || !w->nmembers || !w->members_cap)
        return -1;
    for (size_t i = 0; i < m->nres; i++)
        if (add_declared(w, &m->res[i]) < 0)
            return -1;
    return 0;
}

static void cache_clear(world *w)
{
    w->cache_generation++; /* what `recent` points to is freed below */
    for (size_t i = 0; i < w->cache_slots; i++) {
        free(w->cache[i].text);
        cond_free(w->cache[i].c);
    }
    memset(w->cache, 0, w->cache_slots * sizeof *w->cache);
    w->cache_used = 0;
}

void world_free(world *w)
{
    for (size_t i = 0; i < w->nres; i++) {
        size_t na = w->model->types[w->res[i].type].nattrs;
        for (size_t j = 0; j < na; j++)
            history_free(&w->res[i].attrs[j]);
        free(w->res[i].attrs);
    }
    free(w->res);
    if (w->members)
        for (size_t i = 0; i < w->model->ntypes; i++)
            free(w->members[i]);
    free(w->members);
    free(w->nmembers);
    free(w->members_cap);
    if (w->cache)
        cache_clear(w);
    free(w->cache);
    free(w->scratch_ref.items);
    free(w->resolved);
    free(w->recent);
    intern_free(w->values);
    intern_free(w->names);
    memset(w, 0, sizeof *w);
}

void world_reader_init(world *r, const world *w)
{
    *r = *w;
    r->cache = NULL;
    r->cache_slots = r->cache_used = 0;
    r->cache_generation = 0;
    r->recent = NULL;
    memset(&r->scratch_ref, 0, sizeof r->scratch_ref);
    r->resolved = NULL;
    r->read_dynamic = 0;
}

void world_reader_free(world *r)
{
    if (r->cache)
        cache_clear(r);
    free(r->cache);
    free(r->scratch_ref.items);
    free(r->resolved);
    free(r->recent);
    memset(r, 0, sizeof *r);
}

long world_find(const world *w, const char *name, size_t n)
{
    uint32_t id = intern_find(w->names, name, n);
    return id == UINT32_MAX || id == 0 ? -1 : (long)id - 1;
}

uint32_t world_attr(world *w, size_t res, size_t attr, const tlv_time *at, uint32_t seq_limit)
{
    if (!w->model->types[w->res[res].type].attrs[attr].is_static)
        w->read_dynamic = 1;
    const history *h = &w->res[res].attrs[attr];
    return at ? history_at(h, *at, seq_limit) : history_last(h);
}

int world_set(world *w, size_t res, size_t attr, tlv_time t, uint32_t val)
{
    if (w->model->types[w->res[res].type].attrs[attr].is_static)
        w->static_changes++;
    return history_set(&w->res[res].attrs[attr], t, w->next_seq++, val);
}

/* Rule conditions after substitution repeat from line to line; the cache
 * probes, so it hashes with a secret key, which costs more than compiling
 * would save on a repeat. This front remembers recent texts in direct-mapped
 * slots (collisions only miss: hash_fast does) and is checked first. */
#define RECENT_SLOTS 256
#define RECENT_TEXT 80

struct cond_recent {
    uint64_t hash;
    size_t n;                /* 0: empty */
    char text[RECENT_TEXT];
    const cond *c;
    unsigned generation;     /* w->cache_generation when c was valid */
    int value;               /* cond_eval(c, NULL, NULL) when >= 0; -1 not yet known */
};

static const cond *world_cond_cached(world *w, const char *text, size_t n, char *err,
                                     size_t errsz);

/* world_cond; *slot: the recent slot that holds the answer, or NULL. */
static const cond *cond_lookup(world *w, const char *text, size_t n, char *err, size_t errsz,
                               cond_recent **slot)
{
    *slot = NULL;
    if (!w->recent)
        w->recent = calloc(RECENT_SLOTS, sizeof *w->recent);
    if (!w->recent || n == 0 || n > RECENT_TEXT)
        return world_cond_cached(w, text, n, err, errsz);
    uint64_t h = hash_fast(text, n);
    cond_recent *r = &w->recent[h % RECENT_SLOTS];
    if (r->n == n && r->hash == h && r->generation == w->cache_generation &&
        memcmp(r->text, text, n) == 0) {
        *slot = r;
        return r->c;
    }
    const cond *c = world_cond_cached(w, text, n, err, errsz);
    if (c) {
        r->hash = h;
        r->n = n;
        memcpy(r->text, text, n);
        r->c = c;
        r->generation = w->cache_generation;
        r->value = -1;
        *slot = r;
    }
    return c;
}

const cond *world_cond(world *w, const char *text, size_t n, char *err, size_t errsz)
{
    cond_recent *slot;
    return cond_lookup(w, text, n, err, errsz, &slot);
}

int world_cond_value(world *w, const char *text, size_t n, char *err, size_t errsz)
{
    cond_recent *r;
    const cond *c = cond_lookup(w, text, n, err, errsz, &r);
    if (!c)
        return -1;
    if (r && r->value >= 0)
        return r->value;
    int v = cond_eval(c, NULL, NULL);
    if (r && v >= 0)
        r->value = v;
    return v;
}

static const cond *world_cond_cached(world *w, const char *text, size_t n, char *err,
                                     size_t errsz)
{
    if (!w->cache) {
        w->cache_slots = COND_CACHE_MAX * 2;
        w->cache = calloc(w->cache_slots, sizeof *w->cache);
        if (!w->cache) {
            snprintf(err, errsz, "out of memory");
            return NULL;
        }
    }
    size_t mask = w->cache_slots - 1;
    size_t i = (size_t)intern_hash(w->names, text, n) & mask;
    while (w->cache[i].text) {
        if (w->cache[i].n == n && memcmp(w->cache[i].text, text, n) == 0)
            return w->cache[i].c;
        i = (i + 1) & mask;
    }
    cond *c = cond_compile(text, n, err, errsz);
    if (!c)
        return NULL;
    if (w->cache_used >= COND_CACHE_MAX) { /* values from logs never repeat: start over */
        cache_clear(w);
        i = (size_t)intern_hash(w->names, text, n) & mask;
    }
    w->cache[i].text = xstrndup(text, n);
    if (!w->cache[i].text) {
        cond_free(c);
        snprintf(err, errsz, "out of memory");
        return NULL;
    }
    w->cache[i].n = n;
    w->cache[i].c = c;
    w->cache_used++;
    return c;
}

typedef struct lookup_ctx {
    world *w;
    size_t res;
    const tlv_time *at;
    uint32_t seq_limit;
} lookup_ctx;

static int lookup_attr(void *ctx, const char *name, size_t n, const char **val, size_t *vlen)
{
    lookup_ctx *k = ctx;
    const rt_resource *r = &k->w->res[k->res];
    const res_type *t = &k->w->model->types[r->type];
    long ai = model_attr_index(t, name, n);
    if (ai >= 0) {
        uint32_t v = world_attr(k->w, k->res, (size_t)ai, k->at, k->seq_limit);
        *val = intern_str(k->w->values, v);
        *vlen = intern_len(k->w->values, v);
        return 1;
    }
    if (n == 5 && memcmp(name, "_name", 5) == 0) {
        *val = r->name;
        *vlen = strlen(r->name);
        return 1;
    }
    if (n == 5 && memcmp(name, "_type", 5) == 0) {
        *val = t->name;
        *vlen = strlen(t->name);
        return 1;
    }
    return 0;
}

static int push_result(ref_result *r, size_t res)
{
    if (GROW(r->items, r->cap, r->n + 1) < 0)
        return -1;
    r->items[r->n++] = res;
    return 0;
}

int world_test(world *w, size_t res, const cond *c, const tlv_time *at, uint32_t seq_limit)
{
    lookup_ctx k = {w, res, at, seq_limit};
    return cond_eval(c, lookup_attr, &k);
}

int world_select(world *w, size_t type, const cond *c, const tlv_time *at, uint32_t seq_limit,
                 ref_result *r)
{
    lookup_ctx k = {w, 0, at, seq_limit};
    for (size_t i = 0; i < w->nmembers[type]; i++) {
        k.res = w->members[type][i];
        if (!c || cond_eval(c, lookup_attr, &k))
            if (push_result(r, k.res) < 0)
                return -1;
    }
    return 0;
}

/* A long condition is quoted by its start (whole UTF-8 sequences), so that
 * the reason after it still fits the caller's fixed-size message. */
#define QUOTE_MAX 60

static int quote_len(const char *s, size_t n)
{
    if (n <= QUOTE_MAX)
        return (int)n;
    size_t cut = QUOTE_MAX;
    while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return (int)cut;
}

static int resolve_uncached(world *w, const char *text, size_t n, ref_result *r, char *err,
                            size_t errsz)
{
    std_str name, ctext, rest;
    int has_cond = 0;
    const char *why = NULL;
    r->n = 0;
    if (std_parse_resource_ref(text, n, w->radix, &r->has_time, &r->time, &name, &has_cond,
                               &ctext, &rest, &why) < 0) {
        snprintf(err, errsz, "%s in '%.*s'", why, (int)n, text);
        return -1;
    }
    r->rest = rest.s;
    r->rest_len = rest.n;
    const tlv_time *at = r->has_time ? &r->time : NULL;
    if (!has_cond) {
        long ri = world_find(w, name.s, name.n);
        if (ri >= 0)
            return push_result(r, (size_t)ri);
    }
    long ti = model_type_index(w->model, name.s, name.n);
    if (ti < 0) {
        snprintf(err, errsz, has_cond ? "no resource type named '%.*s'"
                                      : "no resource or resource type named '%.*s'",
                 (int)name.n, name.s);
        return -1;
    }
    const cond *c = NULL;
    if (has_cond) {
        char cerr[200];
        c = world_cond(w, ctext.s, ctext.n, cerr, sizeof cerr);
        if (!c) {
            snprintf(err, errsz, "condition '%.*s%s': %s", quote_len(ctext.s, ctext.n), ctext.s,
                     ctext.n > QUOTE_MAX ? "..." : "", cerr);
            return -1;
        }
    }
    if (world_select(w, (size_t)ti, c, at, SEQ_ALL, r) < 0) {
        snprintf(err, errsz, "out of memory");
        return -1;
    }
    return 0;
}

/* Rule outputs resolve the same few references over and over (the TOPPERS
 * task rule asks for Task(id==N) in 13 conditions, on every state change).
 * An answer stays right while the state it read is unchanged: any change
 * when it read a Dynamic attribute, else a Static one; and no resource was
 * created. Answers with many resources are not kept. */
#define RESOLVE_SLOTS 64
#define RESOLVE_ITEMS 8
#define RESOLVE_TEXT 96

typedef struct resolve_entry {
    uint64_t hash;
    size_t n;                /* text length; 0: unused */
    char text[RESOLVE_TEXT];
    uint32_t seq, static_changes;
    size_t nres;
    int dynamic;             /* it read a Dynamic attribute */
    size_t rest_off;         /* where r->rest began in the text */
    int has_time;
    tlv_time time;
    size_t nitems;
    size_t items[RESOLVE_ITEMS];
} resolve_entry;

struct resolve_cache {
    resolve_entry slot[RESOLVE_SLOTS];
};

static uint64_t text_hash(const char *s, size_t n)
{
    /* the fast unkeyed hash: no attacker-chosen keys matter here (a
     * collision only costs a miss), and it reads 8 bytes a step */
    return hash_fast(s, n);
}

static int resolve_current(const resolve_entry *e, const world *w)
{
    if (e->nres != w->nres)
        return 0;
    return e->dynamic ? e->seq == w->next_seq : e->static_changes == w->static_changes;
}

static int resolve_hit(world *w, const resolve_entry *e, const char *text, ref_result *r)
{
    r->n = 0;
    if (GROW(r->items, r->cap, e->nitems ? e->nitems : 1) < 0)
        return -1;
    if (e->nitems)
        memcpy(r->items, e->items, e->nitems * sizeof *r->items);
    r->n = e->nitems;
    r->has_time = e->has_time;
    r->time = e->time;
    r->rest = text + e->rest_off;
    r->rest_len = e->n - e->rest_off;
    w->read_dynamic |= e->dynamic;
    return 0;
}

static void resolve_keep(world *w, resolve_entry *e, uint64_t h, const char *text, size_t n,
                         const ref_result *r, int dynamic)
{
    e->n = 0;
    if (n == 0 || n > RESOLVE_TEXT || r->n > RESOLVE_ITEMS)
        return;
    memcpy(e->text, text, n);
    e->hash = h;
    e->seq = w->next_seq;
    e->static_changes = w->static_changes;
    e->nres = w->nres;
    e->dynamic = dynamic;
    e->rest_off = (size_t)(r->rest - text);
    e->has_time = r->has_time;
    e->time = r->time;
    e->nitems = r->n;
    if (r->n) /* items may be NULL when there are none: memcpy must not see it */
        memcpy(e->items, r->items, r->n * sizeof *r->items);
    e->n = n;
}

int world_resolve(world *w, const char *text, size_t n, ref_result *r, char *err, size_t errsz)
{
    if (!w->resolved)
        w->resolved = calloc(1, sizeof *w->resolved);
    if (!w->resolved)
        return resolve_uncached(w, text, n, r, err, errsz);
    uint64_t h = text_hash(text, n);
    resolve_entry *e = &w->resolved->slot[h % RESOLVE_SLOTS];
    if (e->n == n && e->hash == h && memcmp(e->text, text, n) == 0 && resolve_current(e, w))
        return resolve_hit(w, e, text, r);
    int outer = w->read_dynamic;
    w->read_dynamic = 0;
    int rc = resolve_uncached(w, text, n, r, err, errsz);
    int dynamic = w->read_dynamic;
    w->read_dynamic = outer | dynamic;
    if (rc == 0)
        resolve_keep(w, e, h, text, n, r, dynamic);
    return rc;
}

void world_count_bytes(const world *w, world_bytes *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < w->nres; i++) {
        size_t na = w->model->types[w->res[i].type].nattrs;
        out->resources += na * sizeof *w->res[i].attrs;
        for (size_t j = 0; j < na; j++)
            out->histories += history_bytes(&w->res[i].attrs[j]);
    }
    out->resources += w->res_cap * sizeof *w->res + intern_bytes(w->names);
    if (w->members)
        for (size_t i = 0; i < w->model->ntypes; i++)
            out->resources += w->members_cap[i] * sizeof *w->members[i] +
                              sizeof *w->members + sizeof *w->nmembers + sizeof *w->members_cap;
    out->values = intern_bytes(w->values);
    out->caches = w->cache_slots * sizeof *w->cache + w->scratch_ref.cap * sizeof(size_t) +
                  (w->resolved ? sizeof *w->resolved : 0) +
                  (w->recent ? RECENT_SLOTS * sizeof *w->recent : 0);
}

void world_shrink(world *w)
{
    for (size_t i = 0; i < w->nres; i++) {
        size_t na = w->model->types[w->res[i].type].nattrs;
        for (size_t j = 0; j < na; j++)
            history_shrink(&w->res[i].attrs[j]);
    }
}
