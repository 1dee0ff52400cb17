/*
 * view_loader.c — opening a log progressively: the window shows its first
 * frame at once, a thread of its own reads and converts the log while the
 * view stays usable (pan, zoom, select) for what is read so far, and the
 * status line says how far it got (percent of the bytes, lines).
 *
 * The reading thread pushes a few milliseconds of the log at a time into
 * the trace and makes it readable (tlv_trace_update) under the write side of
 * a lock; the window's thread holds the read side whenever it is not waiting
 * for input, so it always sees a trace in order. Shapes are rebuilt on a
 * third thread (read side too) each time the events doubled, until 40% of
 * a file is read — so all partial builds together cost less than the final
 * one, not one per chunk — and once more at the end, with the options of a
 * one-shot open: the view then equals one. Reading waits while shapes are built (the builder reads
 * the trace reading would grow). When the log is read, what a one-shot
 * open reports is reported, and the log stays open for live follow
 * (view_live.c).
 *
 * For tests (--load-pause-at BYTES): reading stops after BYTES until the
 * script says load-resume; the script runs only when the shapes show all
 * that was read (and without the option, only once the log is loaded).
 */
#define _GNU_SOURCE /* pthread_rwlockattr_setkind_np: writers must not starve */
#include "view/core.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (256 * 1024)
#define SLICE 0.008 /* seconds of converting per hold of the lock */
#define PARTIAL_UNTIL 0.4 /* of a file's bytes: partial pictures until then */

typedef struct build_job {
    tlv_shapes_options o;
    char **skip;             /* a copy of the hidden rules: the window may change its own */
    size_t events;           /* the trace's events when the build began */
    unsigned gen;            /* a->shapes_gen then: another build since makes it stale */
    int per_cpu;
    tlv_shapes *out;
    double secs;             /* how long the build took */
    SDL_Thread *thread;
    SDL_atomic_t done;
} build_job;

typedef struct view_loader {
    view_app *a;
    pthread_rwlock_t lock;
    int main_holds;          /* the window's thread holds the read side */
    SDL_Thread *thread;
    SDL_atomic_t stop, done, building, resume;
    view_input in;           /* the reading thread's until done */
    unsigned long long pause_at; /* --load-pause-at (0: none) */
    unsigned long long bytes;    /* read so far (atomic reads: SDL_AtomicGet is int-sized) */
    SDL_atomic_t paused;     /* stopped at pause_at */
    tlv_status status;       /* of the whole read, when done */
    int read_error;          /* errno of a failed read, or 0 */
    build_job *job;
    size_t next_build;       /* events at which the shapes are rebuilt next */
    size_t built_events;     /* events the installed shapes show */
    double progress_drawn;   /* when the status line's progress was last redrawn */
    double convert_s;        /* seconds spent converting (the reading thread's) */
    unsigned long long cached; /* log bytes read from the trace cache, not converted */
} view_loader;

/* ---- the reading thread -------------------------------------------------------------- */

/* Reads up to `max` bytes; returns as read(2), EINTR retried. */
static ssize_t read_some(int fd, char *buf, size_t max)
{
    ssize_t n;
    do
        n = read(fd, buf, max);
    while (n < 0 && errno == EINTR);
    return n;
}

/* Converts for about SLICE seconds under the write lock. Returns 1 at the
 * end of the log (or of what a FIFO holds now), 0 to go on, -1 on a read
 * error. */
static int convert_slice(view_loader *l, char *buf)
{
    tlv_converter *conv = tlv_trace_converter(l->a->trace);
    view_input *in = &l->in;
    double start = now_seconds();
    int end = 0;
    do {
        size_t want = CHUNK;
        if (l->pause_at && !SDL_AtomicGet(&l->resume)) {
            if (in->offset >= l->pause_at)
                break;
            if (l->pause_at - in->offset < want)
                want = (size_t)(l->pause_at - in->offset);
        }
        ssize_t n = read_some(in->fd, buf, want);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            end = 1; /* a FIFO or pipe: live follow reads on */
        } else if (n < 0) {
            l->read_error = errno;
            end = -1;
        } else if (n == 0) {
            in->eof = 1;
            end = 1;
        } else {
            tlv_converter_push_bytes(conv, buf, (size_t)n);
            view_input_took(in, buf, (size_t)n); /* offset, line end, bytes kept */
        }
    } while (!end && now_seconds() - start < SLICE);
    l->convert_s += now_seconds() - start;
    if (end)
        l->status = view_convert_end(l->a, l->a->trace, in);
    else if (tlv_trace_update(l->a->trace) != TLV_OK)
        end = -1, l->status = TLV_ERR_NOMEM;
    __atomic_store_n(&l->bytes, in->offset, __ATOMIC_RELEASE);
    return end;
}

/* The trace cache (docs/cache.md): a log opened before is read from its
 * cache as far as that goes, at once, and converted from there on. Not
 * with --load-pause-at (the tests of progressive loading), --no-cache or a
 * log that is not a regular file. Returns 0, or -1 out of memory. */
static int resume_from_cache(view_loader *l)
{
    view_app *a = l->a;
    if (a->opts.rules.no_cache || !l->in.is_file || l->pause_at)
        return 0;
    uint64_t covered = 0;
    pthread_rwlock_wrlock(&l->lock);
    tlv_status st = tlv_trace_resume_cached(a->trace, a->opts.input, NULL, &covered);
    if (st == TLV_OK && covered && view_input_skip(&l->in, covered) == 0)
        st = tlv_trace_update(a->trace);
    else if (st == TLV_OK && covered) /* unreadable there: the read that follows says so */
        l->read_error = errno;
    pthread_rwlock_unlock(&l->lock);
    __atomic_store_n(&l->bytes, l->in.offset, __ATOMIC_RELEASE);
    l->cached = covered;
    return st == TLV_OK ? 0 : -1;
}

/* At the end of the log: its cache written for the next time, unless it
 * came from there whole (the final build meanwhile runs on). */
static void save_cache(view_loader *l, int end)
{
    view_app *a = l->a;
    if (end != 1 || !l->in.eof || a->opts.rules.no_cache || !l->in.is_file || l->pause_at ||
        (l->cached && l->cached == l->in.offset))
        return;
    pthread_rwlock_rdlock(&l->lock);
    tlv_trace_save_cache(a->trace, a->opts.input, NULL);
    pthread_rwlock_unlock(&l->lock);
}

static int reading_thread(void *p)
{
    view_loader *l = p;
    char *buf = malloc(CHUNK);
    if (!buf || resume_from_cache(l) < 0)
        l->status = TLV_ERR_NOMEM;
    int end = 0;
    while (buf && l->status != TLV_ERR_NOMEM && !SDL_AtomicGet(&l->stop)) {
        int paused = l->pause_at && !SDL_AtomicGet(&l->resume) && l->in.offset >= l->pause_at;
        SDL_AtomicSet(&l->paused, paused);
        if (paused || SDL_AtomicGet(&l->building)) { /* waits without the lock's queue */
            SDL_Delay(2);
            continue;
        }
        pthread_rwlock_wrlock(&l->lock);
        end = convert_slice(l, buf);
        pthread_rwlock_unlock(&l->lock);
        if (end)
            break;
    }
    free(buf);
    SDL_AtomicSet(&l->done, 1);
    save_cache(l, end);
    return 0;
}

/* ---- building the shapes --------------------------------------------------------------- */

static int build_thread(void *p)
{
    view_loader *l = p;
    build_job *j = l->job;
    pthread_rwlock_rdlock(&l->lock);
    double t = now_seconds();
    /* The log read whole: the shapes of a trace read from (or written to)
     * the trace cache may be in the shape cache, written by finish(). */
    if (SDL_AtomicGet(&l->done) && !l->a->opts.rules.no_cache && !l->pause_at)
        tlv_shapes_build_cached(l->a->trace, &j->o, 0, &j->out);
    else
        tlv_shapes_build(l->a->trace, &j->o, &j->out);
    j->secs = now_seconds() - t;
    pthread_rwlock_unlock(&l->lock);
    SDL_AtomicSet(&l->building, 0);
    SDL_AtomicSet(&j->done, 1);
    return 0;
}

static void job_free(build_job *j)
{
    if (!j)
        return;
    if (j->thread)
        SDL_WaitThread(j->thread, NULL);
    tlv_shapes_free(j->out);
    /* (a build without a thread ran under the window's read lock: no wait) */
    for (size_t i = 0; i < j->o.n_skip_rules; i++)
        free(j->skip[i]);
    free(j->skip);
    free(j);
}

/* Starts building the shapes of the trace as it is now (the window's
 * thread holds the read lock, so nothing is pushed meanwhile). */
static void start_build(view_app *a, view_loader *l)
{
    build_job *j = calloc(1, sizeof *j);
    if (!j)
        return;
    j->per_cpu = a->per_cpu;
    view_shapes_options(a, j->per_cpu, &j->o);
    j->skip = calloc(j->o.n_skip_rules + 1, sizeof *j->skip);
    for (size_t i = 0; j->skip && i < j->o.n_skip_rules; i++)
        j->skip[i] = strdup(j->o.skip_rules[i]);
    j->o.skip_rules = (const char *const *)j->skip;
    if (!j->skip)
        j->o.n_skip_rules = 0;
    j->events = tlv_trace_event_count(a->trace);
    j->gen = a->shapes_gen;
    l->job = j;
    SDL_AtomicSet(&l->building, 1);
    j->thread = SDL_CreateThread(build_thread, "tlv-shapes", l);
    if (!j->thread) { /* no thread: build here, reading waits */
        loader_release(a);
        build_thread(l);
        loader_acquire(a);
    }
}

/* The view after the shapes of a larger trace came: new bounds; a view of
 * the whole trace stays one (as in live follow). */
static void show_growth(view_app *a, size_t old_events)
{
    view_nav *n = &a->nav;
    int whole = old_events == 0 || (n->t0 <= n->trace_t0 && n->t1 >= n->trace_t1);
    nav_set_trace(n, tlv_time_to_double(tlv_trace_start(a->trace), a->radix),
                  tlv_time_to_double(tlv_trace_end(a->trace), a->radix));
    if (whole)
        nav_set(n, n->trace_t0, n->trace_t1);
    view_panels_note(a, VIEW_NOTE_TRACE_CHANGED);
}

/* ---- the window's side ------------------------------------------------------------------ */

int loader_start(view_app *a)
{
    view_loader *l = calloc(1, sizeof *l);
    if (!l)
        return EXIT_USAGE;
    l->a = a;
    l->pause_at = a->opts.load_pause_at;
    l->next_build = 1;
    if (view_convert_begin(a, a->opts.input, a->core->rules, &a->trace, &l->in) != TLV_OK) {
        free(l);
        return EXIT_USAGE;
    }
    /* The first frame shows the empty trace: its rows, the status line. */
    tlv_shapes_options o;
    view_shapes_options(a, a->opts.per_cpu, &o);
    tlv_shapes *s = NULL;
    if (tlv_shapes_build(a->trace, &o, &s) == TLV_ERR_NOMEM || !s) {
        tlv_shapes_free(s);
        report_nomem("building the shapes of", a->opts.input);
        free(l);
        return EXIT_USAGE;
    }
    view_install_shapes(a, s, a->opts.per_cpu, 0);
    pthread_rwlockattr_t attr;
    pthread_rwlockattr_init(&attr);
    pthread_rwlockattr_setkind_np(&attr, PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP);
    pthread_rwlock_init(&l->lock, &attr);
    pthread_rwlockattr_destroy(&attr);
    pthread_rwlock_rdlock(&l->lock);
    l->main_holds = 1;
    a->core->loader = l;
    l->thread = SDL_CreateThread(reading_thread, "tlv-read", l);
    if (!l->thread) { /* no thread: the whole log now, as before */
        loader_release(a);
        reading_thread(l);
        loader_acquire(a);
    }
    return EXIT_OK;
}

int loader_active(const view_app *a) { return a->core->loader != NULL; }

void loader_release(view_app *a)
{
    view_loader *l = a->core->loader;
    if (l && l->main_holds) {
        pthread_rwlock_unlock(&l->lock);
        l->main_holds = 0;
    }
}

void loader_acquire(view_app *a)
{
    view_loader *l = a->core->loader;
    if (l && !l->main_holds) {
        pthread_rwlock_rdlock(&l->lock);
        l->main_holds = 1;
    }
}

/* Ends the loader: threads joined, the lock gone (the trace stays). */
static void loader_end(view_app *a)
{
    view_loader *l = a->core->loader;
    loader_release(a);
    SDL_AtomicSet(&l->stop, 1);
    SDL_AtomicSet(&l->resume, 1);
    if (l->thread)
        SDL_WaitThread(l->thread, NULL);
    job_free(l->job);
    pthread_rwlock_destroy(&l->lock);
    a->core->loader = NULL;
    free(l);
}

void loader_stop(view_app *a)
{
    if (!a->core->loader)
        return;
    view_close_input(&a->core->loader->in);
    loader_end(a);
}

/* ---- the shape cache, written on a thread of its own ------------------------------------ */

typedef struct saver {
    view_app *a;
    tlv_shapes *s;
} saver;

static int saver_thread(void *p)
{
    saver *v = p;
    tlv_shapes_save_cache(v->s);
    if (v->a->opts.rules.cache_info)
        fprintf(stderr, "%s: %s\n", prog, tlv_shapes_cache_note(v->s));
    SDL_AtomicSet(&v->a->core->shape_saver_done, 1);
    free(v);
    return 0;
}

/* Once the shapes of the whole log are shown: a shape cache hit is said,
 * a miss written on a thread (the view is usable meanwhile). */
static void save_shapes(view_app *a, tlv_shapes *s)
{
    if (a->opts.rules.no_cache || a->opts.load_pause_at)
        return;
    const char *note = tlv_shapes_cache_note(s);
    if (strncmp(note, "shape cache hit", 15) == 0) {
        if (a->opts.rules.cache_info)
            fprintf(stderr, "%s: %s\n", prog, note);
        return;
    }
    saver *v = malloc(sizeof *v);
    if (!v)
        return;
    *v = (saver){a, s};
    SDL_AtomicSet(&a->core->shape_saver_done, 0);
    a->core->shape_saver = SDL_CreateThread(saver_thread, "tlv-shape-cache", v);
    if (!a->core->shape_saver) /* no thread: written now */
        saver_thread(v);
}

void loader_join_saver(view_app *a)
{
    if (a->core->shape_saver)
        SDL_WaitThread(a->core->shape_saver, NULL);
    a->core->shape_saver = NULL;
}

int loader_saving(view_app *a)
{
    if (a->core->shape_saver && SDL_AtomicGet(&a->core->shape_saver_done))
        loader_join_saver(a);
    return a->core->shape_saver != NULL;
}

/* The whole log is read and its shapes built: what a one-shot open does at
 * its end. */
static void finish(view_app *a, view_loader *l, tlv_shapes *s, int per_cpu, double build_s)
{
    view_nav *n = &a->nav;
    int untouched = n->nhistory == 0 && n->t0 <= n->trace_t0 && n->t1 >= n->trace_t1;
    tlv_status st = l->status;
    if (l->read_error) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, a->opts.input,
                strerror(l->read_error));
        view_close_input(&l->in);
    }
    a->core->live.in = l->in;
    l->in.fd = -1;
    a->core->times.loaded = now_seconds();
    a->core->times.convert_s = l->convert_s;
    a->core->times.final_build_s = build_s;
    loader_end(a);
    view_load_report(a, st);
    if (a->opts.rules.cache_info) {
        const char *note = tlv_trace_cache_note(a->trace);
        fprintf(stderr, "%s: %s\n", prog, a->opts.rules.no_cache ? "cache not used (--no-cache)"
                                          : *note ? note : "cache not used");
    }
    view_panels_note(a, VIEW_NOTE_TRACE_CHANGED); /* since the last partial shapes */
    view_install_shapes(a, s, per_cpu, 1);
    save_shapes(a, s);
    /* The panels' saved state (a selected shape...) is found in the
     * shapes of the whole trace, as in a one-shot open. */
    if (a->core->pending_session && a->core->pending_session->loaded)
        view_panels_load(a, a->core->pending_session->doc);
    double t0 = tlv_time_to_double(tlv_trace_start(a->trace), a->radix);
    double t1 = tlv_time_to_double(tlv_trace_end(a->trace), a->radix);
    if (untouched)
        nav_init(n, t0, t1);
    else
        nav_set_trace(n, t0, t1);
    a->core->live.had_events = tlv_trace_event_count(a->trace) > 0;
    if (a->core->pending_session)
        session_apply(a, a->core->pending_session);
    a->core->pending_session = NULL;
}

int loader_poll(view_app *a)
{
    view_loader *l = a->core->loader;
    if (!l)
        return 0;
    int redraw = 0;
    double t = now_seconds();
    if (t - l->progress_drawn >= 0.1) {
        l->progress_drawn = t;
        redraw = 1;
    }
    build_job *j = l->job;
    if (j && SDL_AtomicGet(&j->done)) {
        if (j->thread)
            SDL_WaitThread(j->thread, NULL);
        j->thread = NULL;
        l->job = NULL;
        tlv_shapes *s = j->out;
        j->out = NULL;
        int stale = j->gen != a->shapes_gen || !s; /* per-CPU or hidden rules changed since */
        int final = SDL_AtomicGet(&l->done) && j->events == tlv_trace_event_count(a->trace);
        size_t old = l->built_events;
        int per_cpu = j->per_cpu;
        double secs = j->secs;
        job_free(j);
        if (s && strstr(tlv_shapes_last_error(s), "out of memory")) {
            tlv_shapes_free(s);
            report_nomem("building the shapes of", a->opts.input);
            a->core->exit_code = EXIT_USAGE;
            a->core->quit = 1;
            return 1;
        }
        if (stale) {
            tlv_shapes_free(s);
            l->next_build = 1; /* again, with the options of now */
        } else if (final) {
            finish(a, l, s, per_cpu, secs);
            return 1;
        } else {
            view_install_shapes(a, s, per_cpu, 0);
            l->built_events = tlv_trace_event_count(a->trace);
            show_growth(a, old);
        }
        redraw = 1;
    }
    if (!l->job) {
        size_t n = tlv_trace_event_count(a->trace);
        int done = SDL_AtomicGet(&l->done), paused = SDL_AtomicGet(&l->paused);
        /* Past PARTIAL_UNTIL of a file the next picture is the whole one:
         * the partial builds together then cost less than the final one,
         * and the old shapes kept while it is built are fewer. */
        unsigned long long read = __atomic_load_n(&l->bytes, __ATOMIC_ACQUIRE);
        int early = !l->in.size || (double)read < PARTIAL_UNTIL * (double)l->in.size;
        if (done || (early && n >= l->next_build && n > l->built_events) ||
            (paused && n != l->built_events)) {
            l->next_build = n * 2 > l->next_build ? n * 2 : l->next_build;
            start_build(a, l);
        }
    }
    return redraw;
}

int loader_script_waits(const view_app *a)
{
    view_loader *l = a->core->loader;
    if (!l)
        return 0;
    return !(l->pause_at && !SDL_AtomicGet(&l->resume) && SDL_AtomicGet(&l->paused) && !l->job &&
             l->built_events == tlv_trace_event_count(a->trace));
}

void loader_wait_build(view_app *a)
{
    view_loader *l = a->core->loader;
    if (!l || !l->job || !l->job->thread)
        return;
    /* Without the lock: the build may be queued behind the reading thread,
     * which waits for this thread's read lock. */
    loader_release(a);
    SDL_WaitThread(l->job->thread, NULL);
    l->job->thread = NULL;
    loader_acquire(a);
}

void loader_resume(view_app *a)
{
    if (a->core->loader)
        SDL_AtomicSet(&a->core->loader->resume, 1);
}

void loader_progress(const view_app *a, view_load_progress *p)
{
    const view_loader *l = a->core->loader;
    memset(p, 0, sizeof *p);
    p->active = l != NULL;
    p->size = l ? l->in.size : a->core->live.in.size;
    p->bytes = l ? __atomic_load_n(&l->bytes, __ATOMIC_ACQUIRE) : a->core->live.in.offset;
    tlv_convert_stats st;
    tlv_converter_stats(tlv_trace_converter(a->trace), &st);
    p->lines = st.lines_read;
    p->events = tlv_trace_event_count(a->trace);
    p->shown_events = l ? l->built_events : p->events;
}

void loader_status_text(const view_app *a, char *buf, size_t size)
{
    view_load_progress p;
    loader_progress(a, &p);
    if (!p.active) {
        buf[0] = '\0';
        return;
    }
    if (p.size)
        snprintf(buf, size, "loading %.0f%% (%.1f of %.1f MB), %llu lines", 100.0 * (double)p.bytes / (double)p.size,
                 (double)p.bytes / 1048576, (double)p.size / 1048576, (unsigned long long)p.lines);
    else
        snprintf(buf, size, "loading %.1f MB, %llu lines", (double)p.bytes / 1048576,
                 (unsigned long long)p.lines);
}
