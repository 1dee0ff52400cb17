/*
 * trace.c — tlv_trace: a converted trace kept in memory for drawing. A
 * converter feeds it; each event is stored compactly (names and values
 * interned in the converter's world) with the state sequence at which it
 * happened, so "the state just before this event" is a history look-up.
 * finish() sorts the events by (time, line order). Also answers attribute
 * queries at a time on the trace's state histories.
 */
#include "base/abi.h"
#include "convert/convert_impl.h"
#include "trace/trace_cache.h"
#include "trace/trace_impl.h"
#include "base/time_human.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Keeps the fraction of event `order`'s time: the column is made at the
 * first fraction that is not 0, as long as the events array, zeroed. */
static int keep_fraction(tlv_trace *t, size_t order, uint64_t frac)
{
    if (!t->frac && !frac)
        return 0;
    if (t->frac_cap < t->cap) {
        uint64_t *f = realloc(t->frac, t->cap * sizeof *f);
        if (!f)
            return -1;
        memset(f + t->frac_cap, 0, (t->cap - t->frac_cap) * sizeof *f);
        t->frac = f;
        t->frac_cap = t->cap;
    }
    t->frac[order] = frac;
    return 0;
}

/* Room for one more event. Large, the events grow in a temporary file
 * (bulk.h) rather than in anonymous memory: the pages the shapes and queries
 * read come back from the page cache, and the kernel can write them out and
 * drop them when it needs the room. In memory when no file can be had. */
static int grow_events(tlv_trace *t)
{
    return BULK_GROW(t->ev_file, t->ev, t->cap, t->nev + 1, t->file_min);
}

/* Gives back what growing reserved, in memory or in the file. */
static void shrink_events(tlv_trace *t) { BULK_SHRINK(t->ev_file, t->ev, t->cap, t->nev); }

static int record_event(void *user, const tlv_event *e)
{
    tlv_trace *t = user;
    world *w = t->w;
    /* An attribute change already counted its own sequence number. */
    uint32_t seq = e->kind == TLV_EVENT_ATTRIBUTE ? w->next_seq - 1 : w->next_seq;
    if (t->nev >= UINT32_MAX - 1 || e->nargs > TRACE_MAX_ARGS)
        return 1;
    /* Stopping the converter alone would read as the caller's stop: a
     * reader pushing on its own thread (the viewer's loader) would show
     * the events so far as the whole trace. */
    if (grow_events(t) < 0 || keep_fraction(t, t->nev, e->time.frac) < 0 ||
        (e->kind != TLV_EVENT_ATTRIBUTE && GROW(t->args, t->args_cap, t->nargs + e->nargs + 1) < 0) ||
        numcol_add(&t->lines, (uint32_t)e->input_line) < 0) {
        t->record_nomem = 1;
        return 1;
    }
    if (numcol_add(&t->seqs, seq) < 0) {
        numcol_drop_last(&t->lines);
        t->record_nomem = 1;
        return 1;
    }
    trace_event *te = &t->ev[t->nev];
    memset(te, 0, sizeof *te);
    te->ticks_lo = (uint32_t)(uint64_t)e->time.ticks;
    te->ticks_hi = (uint32_t)((uint64_t)e->time.ticks >> 32);
    /* the converter's ids of what it resolved, else looked up (intern.h) */
    const converter_event_ids *ids = converter_sink_ids(t->conv);
    te->res = (uint32_t)ids->res;
    te->kind = (uint8_t)e->kind & 0xFFu;
    te->name = ids->name != UINT32_MAX ? ids->name : intern_add(w->values, e->name, strlen(e->name));
    te->order = (uint32_t)t->nev;
    int lost = te->name == UINT32_MAX; /* a name or value not interned: out of memory */
    if (e->kind == TLV_EVENT_ATTRIBUTE) {
        te->value = ids->value != UINT32_MAX ? ids->value
                                             : intern_add(w->values, e->value, strlen(e->value));
        lost |= te->value == UINT32_MAX;
    } else {
        te->value = (uint32_t)t->nargs;
        te->nargs = (uint32_t)e->nargs & TRACE_MAX_ARGS;
        for (size_t i = 0; i < e->nargs; i++) {
            uint32_t id = ids->args ? ids->args[i]
                                    : intern_add(w->values, e->args[i], strlen(e->args[i]));
            lost |= id == UINT32_MAX;
            t->args[t->nargs++] = id;
        }
    }
    if (lost) { /* an event without its text: the trace is incomplete, as above */
        t->record_nomem = 1;
        return 1;
    }
    t->nev++;
    return 0;
}

tlv_status tlv_trace_new(const tlv_rules *rules, tlv_trace **out)
{
    tlv_trace *t = calloc(1, sizeof *t);
    *out = t;
    if (!t)
        return TLV_ERR_NOMEM;
    t->rules = rules;
    t->file_min = BULK_MIN_BYTES;
    if (tlv_converter_new(rules, &t->conv) != TLV_OK) {
        free(t);
        *out = NULL;
        return TLV_ERR_NOMEM;
    }
    t->w = converter_world(t->conv);
    converter_set_sink(t->conv, record_event, t);
    return TLV_OK;
}

void tlv_trace_free(tlv_trace *t)
{
    if (!t)
        return;
    trace_cache_free(t);
    free(t->cache_path);
    tlv_converter_free(t->conv);
    BULK_RELEASE(t->ev_file, t->ev);
    free(t->frac);
    numcol_free(&t->lines);
    numcol_free(&t->seqs);
    free(t->args);
    free(t->arg_text);
    free(t);
}

tlv_converter *tlv_trace_converter(tlv_trace *t) { return t->conv; }

static int by_time_then_order(const tlv_trace *t, const trace_event *x, const trace_event *y)
{
    int c = tlv_time_cmp(trace_time(t, x), trace_time(t, y));
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int is_sorted(const tlv_trace *t, const trace_event *ev, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (by_time_then_order(t, &ev[i - 1], &ev[i]) > 0)
            return 0;
    return 1;
}

/* Sorts ev[0..n) by time then order, using tmp[0..n): a merge sort, as the
 * comparison needs the trace (the fractions) and qsort passes none. */
static void sort_events(const tlv_trace *t, trace_event *ev, trace_event *tmp, size_t n)
{
    trace_event *src = ev, *dst = tmp;
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = by_time_then_order(t, &src[j], &src[i]) < 0 ? src[j++] : src[i++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        trace_event *swap = src;
        src = dst;
        dst = swap;
    }
    if (src != ev)
        memcpy(ev, src, n * sizeof *ev);
}

/* Puts the events recorded since the last sort into place: sorts them
 * (multi-core logs interleave processors), then merges them with the sorted
 * ones when some go before the last of those — from the back, so only the
 * new events need a copy. */
static int sort_new_events(tlv_trace *t)
{
    size_t ntail = t->nev - t->nsorted;
    if (ntail == 0)
        return 0;       /* also keeps a trace with no events (ev NULL) clear of pointer arithmetic */
    trace_event *tail = t->ev + t->nsorted;
    trace_event *copy = NULL;
    if (!is_sorted(t, tail, ntail)) {
        copy = malloc(ntail * sizeof *copy);
        if (!copy)
            return -1;
        sort_events(t, tail, copy, ntail);
    }
    if (t->nsorted && by_time_then_order(t, &t->ev[t->nsorted - 1], tail) > 0) {
        if (!copy && !(copy = malloc(ntail * sizeof *copy)))
            return -1;
        memcpy(copy, tail, ntail * sizeof *copy);
        size_t i = t->nsorted, j = ntail, k = t->nev;
        while (j > 0) {
            if (i > 0 && by_time_then_order(t, &t->ev[i - 1], &copy[j - 1]) > 0)
                t->ev[--k] = t->ev[--i];
            else
                t->ev[--k] = copy[--j];
        }
    }
    free(copy);
    t->nsorted = t->nev;
    return 0;
}

/* Gives the arguments recorded since the last time their text. */
static int resolve_new_args(tlv_trace *t)
{
    const char **text = realloc(t->arg_text, (t->nargs + 1) * sizeof *text);
    if (!text)
        return -1;
    t->arg_text = text;
    for (size_t i = t->narg_text; i < t->nargs; i++)
        t->arg_text[i] = intern_str(t->w->values, t->args[i]);
    t->narg_text = t->nargs;
    return 0;
}

/* Gives back what growing reserved in the events, their arguments and the
 * histories (up to half of each): at the end of the input, and while a log
 * keeps growing whenever it has doubled since the last time, which keeps the
 * cost of the copies in proportion to the events. */
static void shrink_to_fit(tlv_trace *t, int at_end)
{
    if (!at_end && t->nev < 2 * t->nshrunk)
        return;
    shrink_events(t);
    if (t->frac)
        SHRINK(t->frac, t->frac_cap, t->nev);
    numcol_shrink(&t->lines);
    numcol_shrink(&t->seqs);
    SHRINK(t->args, t->args_cap, t->nargs);
    world_shrink(t->w);
    t->nshrunk = t->nev;
}

void tlv_trace_trim(tlv_trace *t)
{
    if (t)
        shrink_to_fit(t, 1);
}

tlv_status tlv_trace_update(tlv_trace *t)
{
    if (t->record_nomem)
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while keeping the events");
    if (converter_out_of_memory(t->conv)) /* the events so far are incomplete */
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "%s", tlv_converter_last_error(t->conv));
    ALLOC_WATCH;
    if (sort_new_events(t) < 0 || resolve_new_args(t) < 0 || ALLOC_FAILED_SINCE())
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while ordering the events");
    shrink_to_fit(t, 0);
    return TLV_OK;
}

tlv_status tlv_trace_finish(tlv_trace *t)
{
    tlv_status st = tlv_converter_finish(t->conv);
    if (t->record_nomem)
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while keeping the events");
    if (st == TLV_ERR_NOMEM)
        return last_error_set(&t->lasterr, st, "%s", tlv_converter_last_error(t->conv));
    if (tlv_trace_update(t) != TLV_OK)
        return TLV_ERR_NOMEM;
    shrink_to_fit(t, 1);
    t->finished = 1;
    if (st != TLV_OK)
        last_error_set(&t->lasterr, st, "%s", tlv_converter_last_error(t->conv));
    return st;
}

tlv_status trace_push_file(tlv_trace *t, const char *path, uint64_t from)
{
    ALLOC_WATCH;
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f && errno == ENOMEM) /* fopen allocates its FILE */
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while opening '%s'", path);
    if (!f)
        return last_error_set(&t->lasterr, TLV_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    if (from && fseeko(f, (off_t)from, SEEK_SET) != 0) {
        int e = errno;
        fclose(f);
        return last_error_set(&t->lasterr, TLV_ERR_IO, "cannot read '%s': %s", path, strerror(e));
    }
    tlv_converter_set_source_name(t->conv, is_stdin ? "<stdin>" : path);
    /* A file is read 16 MB at a time: every push_bytes is one run of the
     * converter's matching thread, with one thread idle at either end of
     * it (see cmd_convert.c's pump). A pipe keeps 1 MB, as does a tight
     * memory limit. */
    struct stat sb;
    int regular = !is_stdin && fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode);
    size_t chunk_size = regular ? (size_t)16 << 20 : (size_t)1 << 20;
    char *chunk = malloc(chunk_size);
    if (!chunk && chunk_size > ((size_t)1 << 20))
        chunk = malloc(chunk_size = (size_t)1 << 20);
    if (!chunk) {
        if (!is_stdin)
            fclose(f);
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while reading '%s'", path);
    }
    uint64_t total = regular ? (uint64_t)sb.st_size : 0;
    size_t n;
    tlv_status st = TLV_OK;
    while (st != TLV_ERR_USAGE && st != TLV_ERR_NOMEM && (n = fread(chunk, 1, chunk_size, f)) > 0) {
        st = tlv_converter_push_bytes(t->conv, chunk, n);
        if (t->progress) {
            tlv_convert_stats cs;
            tlv_converter_stats(t->conv, &cs);
            t->progress(t->progress_user, cs.bytes_read, total, cs.lines_read);
        }
    }
    int failed = ferror(f) ? errno : 0;
    free(chunk);
    if (!is_stdin)
        fclose(f);
    if (failed)
        return last_error_set(&t->lasterr, TLV_ERR_IO, "cannot read '%s': %s", path, strerror(failed));
    if (st == TLV_ERR_NOMEM) /* stop at once: going on would only thrash */
        return last_error_set(&t->lasterr, st, "%s", tlv_converter_last_error(t->conv));
    if (ALLOC_FAILED_SINCE())
        return last_error_set(&t->lasterr, TLV_ERR_NOMEM, "out of memory while reading '%s'", path);
    return TLV_OK;
}

void tlv_trace_set_progress(tlv_trace *t, tlv_progress_fn fn, void *user)
{
    t->progress = fn;
    t->progress_user = user;
}

tlv_status tlv_trace_load_file(tlv_trace *t, const char *path)
{
    tlv_status st = trace_push_file(t, path, 0);
    return st == TLV_OK ? tlv_trace_finish(t) : st;
}

size_t tlv_trace_event_count(const tlv_trace *t) { return t->nev; }

const char *tlv_trace_last_error(const tlv_trace *t) { return t ? t->lasterr.text : ""; }

static void trace_event_fill(const tlv_trace *t, size_t i, tlv_event *out)
{
    const trace_event *e = &t->ev[i];
    const world *w = t->w;
    memset(out, 0, sizeof *out);
    out->time = trace_time(t, e);
    out->resource = w->res[e->res].name;
    out->kind = (tlv_event_kind)e->kind;
    out->name = intern_str(w->values, e->name);
    out->input_line = trace_line(t, e);
    out->seq = e->order;
    if (e->kind == TLV_EVENT_ATTRIBUTE) {
        out->value = intern_str(w->values, e->value);
    } else {
        out->nargs = e->nargs;
        out->args = t->arg_text ? t->arg_text + e->value : NULL;
    }
}

void tlv_trace_event_sized(const tlv_trace *t, size_t i, tlv_event *out, size_t size)
{
    ABI_FILL_OUT(tlv_event, trace_event_fill, out, size, t, i);
}

size_t tlv_trace_event_range_sized(const tlv_trace *t, size_t first, size_t n, tlv_event *out,
                                   size_t size)
{
    if (!t || first >= t->nev)
        return 0;
    if (n > t->nev - first)
        n = t->nev - first;
    for (size_t k = 0; k < n; k++)
        tlv_trace_event_sized(t, first + k, (tlv_event *)(void *)((char *)out + k * size), size);
    return n;
}

tlv_time tlv_trace_start(const tlv_trace *t)
{
    tlv_time zero = {0, 0};
    return t->nev ? trace_time(t, &t->ev[0]) : zero;
}

tlv_time tlv_trace_end(const tlv_trace *t)
{
    tlv_time zero = {0, 0};
    return t->nev ? trace_time(t, &t->ev[t->nev - 1]) : zero;
}

tlv_time_mode tlv_trace_time_mode(const tlv_trace *t)
{
    if (!t)
        return TLV_TIME_PLAIN;
    return time_mode_of(t->rules->time_mode, tlv_trace_start(t), t->rules->radix,
                        t->rules->time_scale, t->nev == 0);
}

tlv_time tlv_trace_time_origin(const tlv_trace *t)
{
    tlv_time zero = {0, 0};
    return t ? tlv_trace_start(t) : zero;
}

size_t tlv_trace_resource_count(const tlv_trace *t) { return t->w->nres; }

const char *tlv_trace_resource_name(const tlv_trace *t, size_t i)
{
    return i < t->w->nres ? t->w->res[i].name : NULL;
}

const char *tlv_trace_resource_label(const tlv_trace *t, size_t i)
{
    uint32_t v = i < t->w->nres ? world_decl_attr_last(t->w, i, 0) : UINT32_MAX;
    return v == UINT32_MAX ? NULL : intern_str(t->w->values, v);
}

const char *tlv_trace_resource_type(const tlv_trace *t, size_t i)
{
    return i < t->w->nres ? t->w->model->types[t->w->res[i].type].name : NULL;
}

size_t tlv_trace_seek(const tlv_trace *t, tlv_time at)
{
    size_t lo = 0, hi = t->nev;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(trace_time(t, &t->ev[mid]), at) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Reads the history directly rather than through world_attr, which notes
 * Dynamic reads for the converter's macro cache: a query must not disturb
 * a conversion in progress. */
/* The history of resource.attr, or NULL with the last error set for fn. */
static const history *attr_history(const tlv_trace *t, const char *fn, const char *resource,
                                   const char *attr)
{
    const world *w = t->w;
    long ri = world_find(w, resource, strlen(resource));
    if (ri < 0) {
        model_err_no_resource(LAST_ERROR_OF(t), fn, resource);
        return NULL;
    }
    const rt_resource *r = &w->res[ri];
    const res_type *type = &w->model->types[r->type];
    long ai = model_attr_index(type, attr, strlen(attr));
    if (ai < 0) {
        model_err_no_attribute(LAST_ERROR_OF(t), fn, resource, type, attr);
        return NULL;
    }
    return &r->attrs[ai];
}

tlv_status tlv_trace_attr_at(const tlv_trace *t, const char *resource, const char *attr,
                             const tlv_time *at, const char **value)
{
    const history *h = attr_history(t, "tlv_trace_attr_at", resource, attr);
    if (!h)
        return TLV_ERR_USAGE;
    *value = intern_str(t->w->values, at ? history_at(h, *at, SEQ_ALL) : history_last(h));
    return TLV_OK;
}

tlv_status tlv_trace_attr_initial(const tlv_trace *t, const char *resource, const char *attr,
                                  const char **value)
{
    const history *h = attr_history(t, "tlv_trace_attr_initial", resource, attr);
    if (!h)
        return TLV_ERR_USAGE;
    *value = intern_str(t->w->values, h->init);
    return TLV_OK;
}
