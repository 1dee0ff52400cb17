/*
 * view_load.c — getting the viewer's trace: loads the rules, converts the
 * log chunk by chunk into a tlv_trace while a progress bar is drawn in the
 * window (the window stays responsive and can be closed), and builds the
 * shapes — again when per-CPU mode is toggled. Every problem goes to stderr
 * with its file and line, and the first few to a banner in the window; the
 * viewer shows whatever loaded. A log that may still grow (every log but
 * one read with external-process rules) is not finished: it stays open and
 * view_live.c reads on.
 *
 * A log no rule matched says so in the window too (the usual cause is the
 * wrong resource file). Closing the window while loading is the user's
 * choice: the viewer ends with status 0. Rebuilding the shapes (per-CPU
 * mode toggled, a rule hidden) runs on a thread of its own while the window
 * keeps showing the old view under a moving bar.
 */
#include "view/core.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHUNK (256 * 1024)

static int pump_events(view_app *a);

/* A log no rule matched (usually the wrong resource file) says so in the
 * window's banner, as errors do, and on stderr. */
static void note_nothing_matched(view_app *a)
{
    tlv_convert_stats st;
    tlv_converter_stats(tlv_trace_converter(a->trace), &st);
    if (!st.lines_read || st.lines_matched || reads_standard_form(&a->opts.rules, a->opts.input))
        return;
    char text[200];
    snprintf(text, sizeof text, "no rule matched any of the %llu lines of %s — is -r the right "
             "resource file?", (unsigned long long)st.lines_read, a->opts.input);
    fprintf(stderr, "%s view: %s\n", prog, text);
    a->core->load_errors++;
    if (a->core->banner_lines < (int)(sizeof a->core->banner / sizeof *a->core->banner))
        snprintf(a->core->banner[a->core->banner_lines++], sizeof a->core->banner[0], "%s", text);
    a->core->show_banner = 1;
}

/* A log without events says so (the window would show a made-up span of
 * an empty timeline without a word): in the status line, and over the
 * timeline while it has none (view_draw.c). */
static void note_no_events(view_app *a)
{
    a->core->no_events[0] = '\0';
    if (tlv_trace_event_count(a->trace))
        return;
    tlv_convert_stats st;
    tlv_converter_stats(tlv_trace_converter(a->trace), &st);
    const view_input *in = &a->core->live.in;
    const char *name = strcmp(a->opts.input, "-") ? a->opts.input : "standard input";
    if (!st.lines_read)
        snprintf(a->core->no_events, sizeof a->core->no_events, "%s",
                 in->fd >= 0 && !in->is_file && !in->eof ? "nothing read from it yet"
                                                         : "the log is empty");
    else
        snprintf(a->core->no_events, sizeof a->core->no_events,
                 "%llu line%s read, none made an event", (unsigned long long)st.lines_read,
                 st.lines_read == 1 ? "" : "s");
    view_message(a, "no events in %s: %s", name, a->core->no_events);
}

void view_note_diags(view_app *a, const tlv_diags *d, size_t from)
{
    size_t n = tlv_diags_count(d);
    for (size_t i = from; i < n; i++) {
        const tlv_diag *g = tlv_diags_get(d, i);
        if (g->severity != TLV_SEV_ERROR)
            continue;
        a->core->load_errors++;
        if (a->core->banner_lines < (int)(sizeof a->core->banner / sizeof *a->core->banner))
            tlv_diag_format(g, a->core->banner[a->core->banner_lines++], sizeof a->core->banner[0]);
    }
    if (from == 0)
        a->core->load_errors += tlv_diags_dropped(d);
    a->core->show_banner = a->core->banner_lines > 0;
}

/* Handles window events while loading; returns -1 when the window was closed. */
static int pump_events(view_app *a)
{
    SDL_Event e;
    while (SDL_PollEvent(&e))
        if (e.type == SDL_QUIT)
            a->core->quit = 1;
    return a->core->quit ? -1 : 0;
}

int view_open_input(const char *path, view_input *in)
{
    memset(in, 0, sizeof *in);
    int is_stdin = strcmp(path, "-") == 0;
    /* Non-blocking: a FIFO opens before its writer does, and reading stops
     * where the data so far ends instead of waiting for more. */
    in->fd = is_stdin ? dup(0) : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (in->fd < 0)
        return -1;
    struct stat st;
    if (fstat(in->fd, &st) == 0 && S_ISREG(st.st_mode)) {
        in->is_file = 1;
        in->size = (unsigned long long)st.st_size;
        in->dev = (unsigned long long)st.st_dev;
        in->ino = (unsigned long long)st.st_ino;
    } else {
        fcntl(in->fd, F_SETFL, fcntl(in->fd, F_GETFL) | O_NONBLOCK);
    }
    return 0;
}

void view_input_took(view_input *in, const char *p, size_t n)
{
    if (in->offset < sizeof in->head) {
        size_t k = sizeof in->head - (size_t)in->offset;
        k = k < n ? k : n;
        memcpy(in->head + in->offset, p, k);
        in->head_len = (size_t)in->offset + k;
    }
    size_t keep = sizeof in->tail - (n < sizeof in->tail ? n : sizeof in->tail);
    keep = keep < in->tail_len ? keep : in->tail_len;
    memmove(in->tail, in->tail + in->tail_len - keep, keep);
    size_t take = n - (n > sizeof in->tail - keep ? n - (sizeof in->tail - keep) : 0);
    memcpy(in->tail + keep, p + n - take, take);
    in->tail_len = keep + take;
    in->offset += (unsigned long long)n;
    in->line_open = p[n - 1] != '\n' && p[n - 1] != '\r';
}

int view_input_skip(view_input *in, unsigned long long bytes)
{
    char head[sizeof in->head], tail[sizeof in->tail];
    size_t nh = bytes < sizeof head ? (size_t)bytes : sizeof head;
    size_t nt = bytes < sizeof tail ? (size_t)bytes : sizeof tail;
    if (pread(in->fd, head, nh, 0) != (ssize_t)nh ||
        pread(in->fd, tail, nt, (off_t)(bytes - nt)) != (ssize_t)nt ||
        lseek(in->fd, (off_t)bytes, SEEK_SET) != (off_t)bytes)
        return -1;
    view_input_took(in, head, nh); /* the head, then the tail where it ends */
    in->offset = bytes - nt;
    view_input_took(in, tail, nt);
    return 0;
}

long view_read_input(view_app *a, view_input *in, tlv_trace *trace, size_t budget)
{
    static char chunk[CHUNK];
    tlv_converter *conv = tlv_trace_converter(trace);
    size_t done = 0;
    while (done < budget) {
        ssize_t n = read(in->fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break; /* a FIFO or pipe with nothing more for now */
        if (n < 0)
            return -1;
        if (n == 0) {
            in->eof = 1; /* for now: a file may grow, a FIFO get a new writer */
            break;
        }
        in->eof = 0;
        tlv_converter_push_bytes(conv, chunk, (size_t)n);
        view_input_took(in, chunk, (size_t)n);
        done += (size_t)n;
        double t = now_seconds();
        if (a && t - in->progress_at >= 0.05) { /* 20 frames a second is enough for a bar */
            in->progress_at = t;
            view_draw_progress(a, "Converting",
                               in->size ? (double)in->offset / (double)in->size : -1);
            if (pump_events(a) < 0)
                break;
        }
    }
    return (long)done;
}

tlv_rules *view_load_rules(view_app *a)
{
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = a->opts.rules.dirs;
    o.n_search_dirs = a->opts.rules.ndirs;
    o.allow_scripts = a->opts.rules.allow_scripts;
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_load(a->opts.rules.res_path, &o, &rules);
    if (st == TLV_ERR_NOMEM) {
        tlv_rules_free(rules);
        report_nomem("reading the rules of", a->opts.rules.res_path);
        return NULL;
    }
    print_diags(tlv_rules_diags(rules), 50);
    if (st == TLV_OK && outputs_overwrite_inputs(&a->opts.rules, rules)) {
        tlv_rules_free(rules);
        return NULL;
    }
    if (st != TLV_OK) {
        a->core->banner_lines = 0;
        a->core->load_errors = 0;
        view_note_diags(a, tlv_rules_diags(rules), 0);
        tlv_rules_free(rules);
        return NULL;
    }
    return rules;
}

tlv_status view_convert_begin(view_app *a, const char *path, tlv_rules *rules, tlv_trace **out,
                              view_input *in)
{
    *out = NULL;
    if (view_open_input(path, in) < 0) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, path, strerror(errno));
        return TLV_ERR_IO;
    }
    tlv_trace *trace;
    if (tlv_trace_new(rules, &trace) != TLV_OK) {
        view_close_input(in);
        report_nomem("converting", path);
        return TLV_ERR_NOMEM;
    }
    tlv_converter *conv = tlv_trace_converter(trace);
    if (reads_standard_form(&a->opts.rules, path))
        tlv_converter_set_standard_form(conv, 1);
    tlv_converter_set_source_name(conv, strcmp(path, "-") == 0 ? "<stdin>" : path);
    unmatched_end(&a->core->unmatched, 0); /* a reload starts over */
    if (unmatched_begin(&a->core->unmatched, &a->opts.rules, conv) < 0) {
        view_close_input(in);
        tlv_trace_free(trace);
        return TLV_ERR_IO;
    }
    in->progress_at = 0;
    *out = trace;
    return TLV_OK;
}

tlv_status view_convert_end(const view_app *a, tlv_trace *trace, view_input *in)
{
    tlv_status st;
    /* External-process rules read the whole log at its end: such a log is
     * finished now, and every other one stays open for the lines to come. */
    if (a->opts.rules.allow_scripts) {
        view_close_input(in);
        st = tlv_trace_finish(trace);
    } else {
        st = tlv_trace_update(trace);
        tlv_trace_trim(trace); /* what the events reserved for growing: up to half */
        if (st == TLV_OK && tlv_diags_errors(tlv_converter_diags(tlv_trace_converter(trace))))
            st = TLV_ERR_CONVERT;
    }
    return st;
}

tlv_status view_convert(view_app *a, const char *path, tlv_rules *rules, tlv_trace **out,
                        view_input *in)
{
    *out = NULL;
    tlv_trace *trace;
    tlv_status st = view_convert_begin(a, path, rules, &trace, in);
    if (st != TLV_OK)
        return st;
    long got = view_read_input(a, in, trace, (size_t)-1);
    if (got < 0 || a->core->quit) {
        if (got < 0)
            fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, path, strerror(errno));
        view_close_input(in);
        tlv_trace_free(trace);
        return got < 0 ? TLV_ERR_IO : TLV_ERR_USAGE;
    }
    view_draw_progress(a, "Sorting events", 1);
    st = view_convert_end(a, trace, in);
    if (st != TLV_OK && st != TLV_ERR_CONVERT) {
        if (st == TLV_ERR_NOMEM)
            report_nomem("converting", path);
        view_close_input(in);
        tlv_trace_free(trace);
        return st;
    }
    *out = trace;
    return st;
}

void view_close_input(view_input *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
}

/* What a load does once the whole log is read (and converted with status
 * cs): reports what did not go well. */
void view_load_report(view_app *a, tlv_status cs)
{
    if (cs == TLV_ERR_NOMEM) { /* the trace is incomplete: nothing to show */
        report_nomem("converting", a->opts.input);
        a->core->exit_code = EXIT_USAGE;
        a->core->quit = 1;
        return;
    }
    note_nothing_matched(a);
    const tlv_diags *d = tlv_converter_diags(tlv_trace_converter(a->trace));
    print_diags(d, 20);
    /* Named only when asked for (no summary line here); what live follow
     * adds later is counted only. */
    if (unmatched_end(&a->core->unmatched, a->opts.rules.unmatched_path != NULL) < 0)
        a->core->exit_code = EXIT_USAGE;
    view_note_diags(a, d, 0);
    a->core->live.diags_seen = tlv_diags_count(d);
    note_no_events(a);
    /* The log contradicting itself (lost events): once on stderr, and in
     * the status line until the next message. */
    char notice[sizeof a->core->message];
    consistency_summary(tlv_trace_converter(a->trace), a->opts.input);
    if (consistency_notice(tlv_trace_converter(a->trace), notice, sizeof notice))
        view_message(a, "%s", notice);
    if (cs != TLV_OK && cs != TLV_ERR_CONVERT)
        view_message(a, "could not read the whole log: showing what was read");
}

int view_load(view_app *a)
{
    a->core->live.in.fd = -1;
    a->core->rules = view_load_rules(a);
    if (!a->core->rules)
        return EXIT_USAGE;
    a->radix = tlv_rules_time_radix(a->core->rules);
    a->time_scale = tlv_rules_time_scale(a->core->rules);
    /* The log is read on a thread while the window shows what is read
     * (view_loader.c). */
    return loader_start(a);
}

/* ---- building the shapes ------------------------------------------------------------ */

typedef struct build_job {
    const tlv_trace *trace;
    tlv_shapes_options o;
    tlv_shapes *out;
    SDL_atomic_t done;
} build_job;

static int build_thread(void *p)
{
    build_job *j = p;
    tlv_shapes_build(j->trace, &j->o, &j->out);
    SDL_AtomicSet(&j->done, 1);
    return 0;
}

/* The old view with a box in its middle saying `what` over a bar whose
 * block slides to and fro (how long a build takes is not known). */
static void draw_rebuild(view_app *a, const char *what, double elapsed)
{
    view_draw_frame(a);
    view_areas ar;
    view_areas_of(a, &ar);
    int th = view_text_height(a->text), pad = (int)lround(10 * a->scale);
    int bw = ar.main.w / 3, bh = (int)lround(8 * a->scale), w = bw + 2 * pad, h = th + bh + 3 * pad;
    int x = (ar.main.w - w) / 2, y = (ar.main.h - h) / 2;
    view_fill(a, x, y, w, h, 0xFFFFFF, 235);
    view_fill(a, x, y, w, 1, 0x909090, 255);
    view_fill(a, x, y + h - 1, w, 1, 0x909090, 255);
    view_text_draw(a->text, what, x + pad, y + pad, 0x202020);
    int by = y + 2 * pad + th, block = bw / 4;
    double phase = fmod(elapsed * 0.8, 2.0), at = phase < 1 ? phase : 2 - phase;
    view_fill(a, x + pad, by, bw, bh, 0xE4E4E4, 255);
    view_fill(a, x + pad + (int)lround(at * (bw - block)), by, block, bh, 0x286EDC, 255);
    SDL_RenderPresent(a->ren);
}

/* Builds the shapes on a thread while the window keeps drawing; NULL when
 * memory ran out. */
static tlv_shapes *build_behind_old_view(view_app *a, const tlv_shapes_options *o, const char *what)
{
    build_job job = {a->trace, *o, NULL, {0}};
    SDL_Thread *t = SDL_CreateThread(build_thread, "tlv-shapes", &job);
    if (!t) {
        tlv_shapes_build(a->trace, o, &job.out);
        return job.out;
    }
    double start = now_seconds();
    a->core->rebuild_frames = 0;
    do { /* about 60 frames a second until the thread is done */
        pump_events(a);
        draw_rebuild(a, what, now_seconds() - start);
        a->core->rebuild_frames++;
        for (int i = 0; i < 16 && !SDL_AtomicGet(&job.done); i++)
            SDL_Delay(1);
    } while (!SDL_AtomicGet(&job.done));
    SDL_WaitThread(t, NULL);
    return job.out;
}

void view_shapes_options(view_app *a, int per_cpu, tlv_shapes_options *o)
{
    tlv_shapes_options init = TLV_SHAPES_OPTIONS_INIT;
    *o = init;
    o->cpu_attribute = per_cpu ? a->opts.cpu_attribute : NULL;
    rows_skip_rules(a, &o->skip_rules, &o->n_skip_rules); /* hidden rules */
}

void view_install_shapes(view_app *a, tlv_shapes *s, int per_cpu, int report)
{
    if (report) { /* a live rebuild would repeat the same rule problems */
        print_diags(tlv_shapes_diags(s), 20);
        view_note_diags(a, tlv_shapes_diags(s), 0);
    }
    loader_join_saver(a); /* it reads the shapes freed here */
    tlv_shapes_free(a->shapes);
    a->shapes = s;
    a->shapes_gen++;
    a->per_cpu = per_cpu;
    rows_refresh(a);
    tlv_view fit;
    tlv_view_fit(&fit, s, 1 << 20, 1024); /* wide enough that the label is not cut */
    a->core->label_need = fit.label_width;
    int top = view_max_first_row(a);
    a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
    a->hover.valid = 0;
    view_panels_note(a, VIEW_NOTE_SHAPES);
    view_dirty(a);
}

/* Builds the shapes of a->trace into a->shapes; progress on the screen when
 * `show`: over the old view when there is one. */
static int build_shapes(view_app *a, int per_cpu, int show)
{
    loader_join_saver(a); /* building interns into the trace's world it reads */
    const char *what = per_cpu ? "Building per-CPU rows" : "Building shapes";
    int behind = show && a->shapes && a->ren && a->core->tl_ren;
    if (show && !behind)
        view_draw_progress(a, what, -1);
    tlv_shapes_options o;
    view_shapes_options(a, per_cpu, &o);
    loader_wait_build(a); /* its shapes come stale: the loader builds anew */
    tlv_shapes *s = NULL;
    if (behind)
        s = build_behind_old_view(a, &o, what);
    else
        tlv_shapes_build(a->trace, &o, &s);
    if (!s || strstr(tlv_shapes_last_error(s), "out of memory")) {
        tlv_shapes_free(s);
        report_nomem("building the shapes of", a->opts.input);
        return -1;
    }
    view_install_shapes(a, s, per_cpu, show);
    return 0;
}

int view_build_shapes(view_app *a, int per_cpu) { return build_shapes(a, per_cpu, 1); }

int view_refresh_shapes(view_app *a) { return build_shapes(a, a->per_cpu, 0); }
