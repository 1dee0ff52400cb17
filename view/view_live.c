/*
 * view_live.c — a log that is still being written (a serial capture,
 * `strace -o` of a running program, a FIFO, standard input): between frames
 * the rest of it is read and pushed into the trace (tlv_converter_push_bytes,
 * then tlv_trace_update), and the shapes rebuilt — at most every so often,
 * as a rebuild costs the whole trace's time — so the view grows while one
 * looks. Follow mode keeps the newest time in view; panning away from it
 * stops following. Also reloading (F5, Ctrl+R): the rules and the log read
 * again from disk, keeping the view, and opening another log (Ctrl+O); a
 * reload whose rules have errors says so in the window and keeps the last
 * good trace.
 */
#include "view/core.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define READ_BUDGET (8u << 20) /* bytes per frame, so that frames keep coming */
#define MIN_REBUILD 0.25       /* seconds between rebuilds of the shapes, at least */
#define LINE_END_WAIT 1.0      /* seconds an unfinished last line waits for its end */

/* What depends on event indexes or shapes starts again from the new trace. */
static void trace_changed(view_app *a)
{
    view_panels_note(a, VIEW_NOTE_TRACE_CHANGED); /* the search's matches were old indexes */
    a->hover.valid = 0;
}

int live_active(const view_app *a) { return a->core->live.in.fd >= 0; }

int live_wait_ms(const view_app *a) { return live_active(a) ? 100 : 500; }

/* The view was at the newest time when that end was in it (to a pixel's worth). */
static int end_in_view(const view_app *a, double end)
{
    double span = a->nav.t1 - a->nav.t0;
    return end <= a->nav.t1 + span * 1e-3 && end >= a->nav.t0;
}

/* Shows the trace as read so far: new bounds and shapes; a view of the
 * whole trace stays one, and in follow mode the view moves on by as much as
 * the trace grew. */
static void show_growth(view_app *a)
{
    double old_start = a->nav.trace_t0, old_end = a->nav.trace_t1;
    int whole = !a->core->live.had_events || (a->nav.t0 <= old_start && a->nav.t1 >= old_end);
    double start = tlv_time_to_double(tlv_trace_start(a->trace), a->radix);
    double end = tlv_time_to_double(tlv_trace_end(a->trace), a->radix);
    double t = now_seconds();
    view_refresh_shapes(a);
    a->core->live.build_cost = now_seconds() - t;
    int was_at_end = end_in_view(a, old_end);
    nav_set_trace(&a->nav, start, end);
    if (!a->core->live.had_events) {
        nav_set(&a->nav, a->nav.trace_t0, a->nav.trace_t1);
    } else if (a->core->follow && was_at_end) {
        nav_set(&a->nav, a->nav.t0 + (end - old_end), a->nav.t1 + (end - old_end));
    } else if (whole && !a->core->follow) {
        nav_set(&a->nav, a->nav.trace_t0, a->nav.trace_t1);
    }
    a->core->live.had_events = tlv_trace_event_count(a->trace) > 0;
    view_dirty(a);
}

static int load_anew(view_app *a, const char *path, int with_rules);

/* Whether the file holds `len` bytes equal to `bytes` at `at`. */
static int same_bytes(int fd, unsigned long long at, const char *bytes, size_t len)
{
    char now[4096];
    if (len > sizeof now)
        len = sizeof now;
    return len == 0 || (pread(fd, now, len, (off_t)at) == (ssize_t)len && memcmp(now, bytes, len) == 0);
}

/* What became of a followed file since it was read: NULL when it only grew
 * (or stayed), else what happened, for the status line. The view shows the
 * file the path names, from its start: a file replaced at the path
 * (logrotate's rename and create), cut shorter (copytruncate, a writer that
 * starts again) or rewritten in place (cut and written past the point read
 * between two looks: its first bytes or those last read differ) is read
 * again from its start. An unfinished last line taken as it was and then
 * continued is read again too, so that it is not shown as two lines. */
static const char *file_change(const view_app *a, struct stat *st)
{
    const view_input *in = &a->core->live.in;
    struct stat p;
    if (stat(a->opts.input, &p) == 0 &&
        ((unsigned long long)p.st_dev != in->dev || (unsigned long long)p.st_ino != in->ino))
        return "the log was replaced (rotated)";
    if (fstat(in->fd, st) != 0)
        return NULL;
    if ((unsigned long long)st->st_size < in->offset)
        return "the log got shorter (cut, or its writer started again)";
    if (!same_bytes(in->fd, 0, in->head, in->head_len) ||
        !same_bytes(in->fd, in->offset - in->tail_len, in->tail, in->tail_len))
        return "the log was rewritten";
    if (in->provisional && (unsigned long long)st->st_size > in->offset)
        return "the unfinished last line went on";
    return NULL;
}

/* Reads the log at its path again from its start, keeping the rules and
 * the view; says why in the status line. */
static int read_again(view_app *a, const char *why)
{
    if (load_anew(a, a->opts.input, 0) < 0)
        return 1; /* the reason is shown; the last trace stays */
    a->core->live.grew = 1;
    view_message(a, "%s: read again from its start (%zu events)", why,
                 tlv_trace_event_count(a->trace));
    return 1;
}

/* Reads what came into the trace: 1 when the poll is done (the log read
 * again or closed), 0 when the shapes may need a rebuild. */
static int read_more(view_app *a, double t)
{
    view_live *l = &a->core->live;
    if (l->in.is_file) {
        struct stat st;
        const char *change = file_change(a, &st);
        if (change)
            return read_again(a, change);
        unsigned long long left = (unsigned long long)st.st_size - l->in.offset;
        if (left > READ_BUDGET) {
            l->behind = 1;
            view_message(a, "catching up with the log: %llu MB to read", (left + (1 << 19)) >> 20);
        }
    }
    long got = view_read_input(NULL, &l->in, a->trace, READ_BUDGET);
    if (got < 0) {
        view_message(a, "cannot read the log any more: %s", strerror(errno));
        view_close_input(&l->in);
        return 1;
    }
    if (got > 0) {
        l->pending = 1;
        l->grew = 1;
        l->last_data = t;
        l->closed_noted = 0;
    } else if (l->in.line_open && t - l->last_data >= LINE_END_WAIT &&
               (l->in.is_file || l->in.eof)) {
        /* The writer stopped in the middle of a line (or died there), or the
         * log simply has no line end at its end: take the line as it is, as
         * a conversion of the file would. A file that goes on is read again
         * (file_change); a pipe only ends so when its writer closed it. */
        tlv_converter_push_bytes(tlv_trace_converter(a->trace), "\n", 1);
        l->in.line_open = 0;
        l->in.provisional = l->in.is_file;
        l->pending = 1;
        if (l->grew || !l->in.is_file) /* a file read whole simply ends so: nothing to say */
            view_message(a, "the last line of the log has no end (yet): shown as it is");
    }
    if (!l->in.is_file && l->in.eof && !l->in.line_open && !l->closed_noted) {
        l->closed_noted = 1;
        view_message(a, "the writer closed the log (%zu events)", tlv_trace_event_count(a->trace));
    }
    return 0;
}

int live_poll(view_app *a)
{
    view_live *l = &a->core->live;
    if (a->core->follow && !end_in_view(a, a->nav.trace_t1)) { /* panned or zoomed away */
        a->core->follow = 0;
        view_message(a, "follow off: the view left the newest time");
        return 1;
    }
    if (!live_active(a) || l->held || loader_saving(a)) /* the trace grows once it is written */
        return 0;
    double t = now_seconds();
    if (read_more(a, t))
        return 1;
    if (!l->pending || t < l->next_build)
        return 0;
    if (tlv_trace_update(a->trace) != TLV_OK) {
        view_message(a, "out of memory reading the log");
        return 1;
    }
    const tlv_diags *d = tlv_converter_diags(tlv_trace_converter(a->trace));
    size_t n = tlv_diags_count(d);
    for (size_t i = l->diags_seen; i < n; i++) {
        char line[512];
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
        fprintf(stderr, "%s\n", line);
    }
    view_note_diags(a, d, l->diags_seen);
    l->diags_seen = n;
    l->pending = 0;
    show_growth(a);
    if (l->behind && l->in.eof) {
        l->behind = 0;
        view_message(a, "caught up with the log (%zu events)", tlv_trace_event_count(a->trace));
    }
    /* Rebuilding costs the whole trace: keep it to a fifth of the time. */
    l->next_build = now_seconds() + fmax(MIN_REBUILD, 4 * l->build_cost);
    trace_changed(a);
    return 1;
}

int live_caught_up(const view_app *a)
{
    const view_live *l = &a->core->live;
    if (!live_active(a))
        return 1;
    if (l->pending || l->in.line_open)
        return 0;
    if (!l->in.is_file)
        return l->in.eof;
    struct stat p;
    return stat(a->opts.input, &p) == 0 && (unsigned long long)p.st_ino == l->in.ino &&
           (unsigned long long)p.st_dev == l->in.dev && (unsigned long long)p.st_size == l->in.offset;
}

void live_toggle_follow(view_app *a)
{
    a->core->follow = !a->core->follow;
    if (a->core->follow) {
        double span = a->nav.t1 - a->nav.t0;
        nav_begin(&a->nav, NAV_JUMP);
        nav_set(&a->nav, a->nav.trace_t1 - span, a->nav.trace_t1);
    }
    view_message(a, "follow %s%s", a->core->follow ? "on" : "off",
                 a->core->follow && !live_active(a) ? " (the log is not growing)" : "");
    view_dirty(a);
}

/* Replaces the trace with one just read (rules too when given), keeping the
 * view where it can. */
static void swap_in(view_app *a, tlv_rules *rules, tlv_trace *trace, view_input *in)
{
    view_close_input(&a->core->live.in);
    loader_join_saver(a);
    tlv_shapes_free(a->shapes);
    a->shapes = NULL;
    tlv_trace_free(a->trace);
    a->trace = trace;
    if (rules) {
        tlv_rules_free(a->core->rules);
        a->core->rules = rules;
        a->radix = tlv_rules_time_radix(rules);
        a->time_scale = tlv_rules_time_scale(rules);
    }
    a->core->live.in = *in;
    a->core->live.pending = 0;
    a->core->live.grew = 0;
    /* The rebuilds' spacing was the old trace's cost: a large log cut or
     * rotated would keep its new lines off the screen for seconds. */
    a->core->live.build_cost = 0;
    a->core->live.next_build = 0;
    a->core->live.diags_seen = tlv_diags_count(tlv_converter_diags(tlv_trace_converter(trace)));
    double t0 = a->nav.t0, t1 = a->nav.t1;
    nav_set_trace(&a->nav, tlv_time_to_double(tlv_trace_start(trace), a->radix),
                  tlv_time_to_double(tlv_trace_end(trace), a->radix));
    nav_set(&a->nav, t0, t1);
}

/* Reads the rules (when `with_rules`) and the log at `path` anew. Returns 0,
 * or -1 with the old trace kept and the reason shown. */
static int load_anew(view_app *a, const char *path, int with_rules)
{
    loader_stop(a); /* a log still being opened is dropped: this one replaces it */
    a->core->pending_session = NULL;
    size_t errors = a->core->load_errors;
    int lines = a->core->banner_lines;
    tlv_rules *rules = with_rules ? view_load_rules(a) : NULL;
    if (with_rules && !rules) {
        view_message(a, "the rules have errors: kept the last good trace");
        a->core->show_banner = 1;
        return -1;
    }
    a->core->load_errors = 0;
    a->core->banner_lines = 0;
    tlv_trace *trace;
    view_input in;
    tlv_status st = view_convert(a, path, rules ? rules : a->core->rules, &trace, &in);
    if (!trace) {
        tlv_rules_free(rules);
        a->core->load_errors = errors;
        a->core->banner_lines = lines;
        view_message(a, st == TLV_ERR_IO ? "cannot read '%s': kept the last trace"
                                         : "could not load '%s': kept the last trace",
                     path);
        return -1;
    }
    const tlv_diags *d = tlv_converter_diags(tlv_trace_converter(trace));
    print_diags(d, 20);
    view_note_diags(a, d, 0);
    swap_in(a, rules, trace, &in);
    view_build_shapes(a, a->per_cpu);
    trace_changed(a);
    return 0;
}

int view_reload(view_app *a)
{
    if (load_anew(a, a->opts.input, 1) < 0)
        return -1;
    view_message(a, "reloaded %s (%zu events)", a->opts.input, tlv_trace_event_count(a->trace));
    return 0;
}

int view_open_log(view_app *a, const char *path)
{
    if (!*path) {
        view_message(a, "no file name given");
        return -1;
    }
    if (strcmp(path, "-") == 0) {
        view_message(a, "standard input can only be given on the command line");
        return -1;
    }
    char *copy = strdup(path);
    if (!copy || load_anew(a, copy, 0) < 0) {
        free(copy);
        return -1;
    }
    free(a->core->opened_input);
    a->core->opened_input = copy;
    a->opts.input = copy;
    markers_clear(&a->markers); /* they were times of the other log */
    nav_begin(&a->nav, NAV_JUMP);
    nav_fit(&a->nav);
    char title[512];
    snprintf(title, sizeof title, "%s - tlv view", copy);
    SDL_SetWindowTitle(a->core->win, title);
    view_message(a, "opened %s (%zu events)", copy, tlv_trace_event_count(a->trace));
    return 0;
}

int live_badge_draw(view_app *a, int right, int y)
{
    /* A file is watched from the start, but is only called live once it grew. */
    if (!a->core->follow && !(live_active(a) && (a->core->live.grew || !a->core->live.in.is_file)))
        return right;
    const char *text = a->core->follow ? "FOLLOW" : "LIVE";
    int w = view_text_width(a->text, text) + (int)(8 * a->scale);
    int x = right - w - (int)(10 * a->scale);
    view_label(a, text, x, y, 0xFFFFFF, a->core->follow ? LIVE_FOLLOW_RGB : LIVE_RGB, 255);
    return x;
}

static int open_entered(view_app *a, void *user, const char *text)
{
    (void)user;
    return view_open_log(a, text);
}

void view_open_prompt(view_app *a)
{
    view_prompt_open(a, "Open log:", strcmp(a->opts.input, "-") ? a->opts.input : "", open_entered,
                     NULL);
}
