/*
 * view_script.c — `tlv view --script FILE`: a text file of commands run one
 * per frame, so that tests drive the viewer like a person and look at what
 * it shows. Coordinates are window coordinates, as a pointer's would be.
 *
 *   key [shift+][ctrl+]NAME      a key press (SDL key names: Right, Up, f, [, F12)
 *   wheel N X Y [shift|ctrl]     N wheel notches (positive: away) at (X, Y)
 *   mouse-move X Y               the pointer moves to (X, Y)
 *   mouse-leave                  the pointer leaves the window
 *   click X Y [right] [shift]    press and release in place
 *   dclick X Y                   a double click
 *   drag X0 Y0 X1 Y1 [right] [shift]   press, move in steps, release
 *   click-row TIME ROW           a click at trace time TIME in the middle of row
 *                                ROW (its label or resource name; the rest of the
 *                                line, spaces and all): selects the shape there. As
 *                                a person would, it first scrolls the rows so that
 *                                ROW is in sight when it is not (wheel, PageUp/Down);
 *                                in per-CPU mode a task that migrated is clicked on
 *                                the row of the processor it was on at TIME. A row
 *                                that is hidden or in a collapsed group, or no such
 *                                row, or TIME outside the view, is an error naming it
 *   move-row TIME ROW            the pointer moves there (hovers the shape), the same way
 *   resize W H                   resize the window (waits until it is done)
 *   marker-add                   as the key m
 *   text STRING                  typed text: the rest of the line, as is (UTF-8)
 *   screenshot PATH              a PNG of this frame
 *   dump-state PATH              the state as JSON (see view_state.c)
 *   wait N                       N frames doing nothing
 *   wait-events N [SECONDS]      until the trace has N events or more (a live log
 *                                growing; fails after SECONDS, 10 by default)
 *   wait-file PATH [SECONDS]     until PATH exists (a test's shell did its part:
 *                                appended to the log, broke a rule file...)
 *   wait-live-idle [SECONDS]     until a followed log is read to its end and shown
 *                                (view_live.c: live_caught_up; fails after SECONDS, 10
 *                                by default)
 *   write-trace PATH             the trace's events as standard-form lines, in the
 *                                trace's (time, line) order
 *   live-hold, live-release      a followed log is not read from the one until the
 *                                other (what its writer does meanwhile is seen at once)
 *   load-resume                  with --load-pause-at: reading goes on (the next
 *                                command runs once the whole log is shown)
 *   quit                         end (the script's end does too)
 *
 * Blank lines and lines starting with # are skipped.
 */
#include "view/core.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_WORDS 8

struct view_script {
    char *path;
    char **lines;
    size_t n, next;
    long wait;            /* frames still to wait */
    size_t wait_events;   /* wait-events: the count waited for (0: none) */
    double wait_until;    /* and when waiting fails */
    char *wait_file;      /* wait-file: the path waited for (NULL: none) */
    int wait_idle;        /* wait-live-idle */
};

static void free_lines(char **lines, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Adds a copy of line to s; -1 when out of memory. */
static int script_add_line(view_script *s, size_t *lcap, const char *line)
{
    if (s->n == *lcap) {
        size_t cap = *lcap ? *lcap * 2 : 64;
        char **t = realloc(s->lines, cap * sizeof *t);
        if (!t)
            return -1;
        s->lines = t;
        *lcap = cap;
    }
    char *copy = strdup(line);
    if (!copy)
        return -1;
    s->lines[s->n++] = copy;
    return 0;
}

/* NULL with the reason said: a script cut short by want of memory would
 * run only its first lines without a word. `input` is the log the view
 * shows, which the out-of-memory message names. */
view_script *script_load(const char *path, const char *input)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (errno == ENOMEM)
            report_nomem("reading the view script for", input);
        else
            fprintf(stderr, "%s view: cannot read the script '%s'\n", prog, path);
        return NULL;
    }
    view_script *s = calloc(1, sizeof *s);
    char *line = NULL;
    size_t cap = 0, lcap = 0;
    ssize_t len;
    int failed = !s;
    errno = 0;
    while (!failed && (len = getline(&line, &cap, f)) >= 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        failed = script_add_line(s, &lcap, line) < 0;
    }
    failed = failed || errno == ENOMEM;
    int read_error = !failed && ferror(f);
    free(line);
    fclose(f);
    if (read_error) {
        script_free(s);
        fprintf(stderr, "%s view: cannot read the script '%s'\n", prog, path);
        return NULL;
    }
    if (!failed && !(s->path = strdup(path)))
        failed = 1;
    if (failed) {
        script_free(s);
        report_nomem("reading the view script for", input);
        return NULL;
    }
    return s;
}

void script_free(view_script *s)
{
    if (!s)
        return;
    free_lines(s->lines, s->n);
    free(s->wait_file);
    free(s->path);
    free(s);
}

/* ---- parsing ------------------------------------------------------------------------ */

/* Splits line (modified) into words; returns their count. */
static int split(char *line, char **w)
{
    int n = 0;
    for (char *p = line; *p && n < MAX_WORDS;) {
        while (isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        w[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p)
            *p++ = '\0';
    }
    return n;
}

static int number(const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    return end != s && !*end && isfinite(*out);
}

/* Reads `count` numbers from w[0..]; window coordinates become pixels when
 * `pixels`. */
static int numbers(const view_app *a, char **w, int count, double *out, int pixels)
{
    double r = pixels && a->win_w > 0 ? (double)a->px_w / a->win_w : 1;
    for (int i = 0; i < count; i++) {
        if (!number(w[i], &out[i]))
            return -1;
        out[i] *= r;
    }
    return 0;
}

/* Trailing words: right, middle, shift, ctrl. */
static int options(char **w, int n, int *button, int *mods)
{
    *button = SDL_BUTTON_LEFT;
    *mods = 0;
    for (int i = 0; i < n; i++) {
        if (strcmp(w[i], "right") == 0)
            *button = SDL_BUTTON_RIGHT;
        else if (strcmp(w[i], "middle") == 0)
            *button = SDL_BUTTON_MIDDLE;
        else if (strcmp(w[i], "shift") == 0)
            *mods |= VIEW_MOD_SHIFT;
        else if (strcmp(w[i], "ctrl") == 0)
            *mods |= VIEW_MOD_CTRL;
        else if (strcmp(w[i], "shift+ctrl") == 0 || strcmp(w[i], "ctrl+shift") == 0)
            *mods |= VIEW_MOD_SHIFT | VIEW_MOD_CTRL;
        else
            return -1;
    }
    return 0;
}

/* "shift+ctrl+Up" into a key and modifiers. */
static int key_spec(const char *spec, SDL_Keycode *key, int *mods)
{
    *mods = 0;
    for (;;) {
        if (strncmp(spec, "shift+", 6) == 0 && spec[6]) {
            *mods |= VIEW_MOD_SHIFT;
            spec += 6;
        } else if (strncmp(spec, "ctrl+", 5) == 0 && spec[5]) {
            *mods |= VIEW_MOD_CTRL;
            spec += 5;
        } else {
            break;
        }
    }
    *key = SDL_GetKeyFromName(spec);
    return *key == SDLK_UNKNOWN ? -1 : 0;
}

/* ---- commands ------------------------------------------------------------------------- */

static int cmd_pointer(view_app *a, char **w, int n)
{
    double p[4];
    int button, mods;
    if (strcmp(w[0], "mouse-move") == 0 && n == 3 && numbers(a, w + 1, 2, p, 1) == 0) {
        input_motion(a, p[0], p[1]);
    } else if (strcmp(w[0], "wheel") == 0 && n >= 4 && numbers(a, w + 1, 1, p, 0) == 0 &&
               numbers(a, w + 2, 2, p + 1, 1) == 0 && options(w + 4, n - 4, &button, &mods) == 0) {
        input_motion(a, p[1], p[2]);
        input_wheel(a, p[1], p[2], p[0], mods);
    } else if (strcmp(w[0], "click") == 0 && n >= 3 && numbers(a, w + 1, 2, p, 1) == 0 &&
               options(w + 3, n - 3, &button, &mods) == 0) {
        input_motion(a, p[0], p[1]);
        input_button(a, p[0], p[1], button, 1, mods, 1);
        input_button(a, p[0], p[1], button, 0, mods, 1);
    } else if (strcmp(w[0], "dclick") == 0 && n == 3 && numbers(a, w + 1, 2, p, 1) == 0) {
        input_motion(a, p[0], p[1]);
        for (int c = 1; c <= 2; c++) {
            input_button(a, p[0], p[1], SDL_BUTTON_LEFT, 1, 0, c);
            input_button(a, p[0], p[1], SDL_BUTTON_LEFT, 0, 0, c);
        }
    } else if (strcmp(w[0], "drag") == 0 && n >= 5 && numbers(a, w + 1, 4, p, 1) == 0 &&
               options(w + 5, n - 5, &button, &mods) == 0) {
        input_motion(a, p[0], p[1]);
        input_button(a, p[0], p[1], button, 1, mods, 1);
        for (int i = 1; i <= 8; i++) /* in steps, as a hand would */
            input_motion(a, p[0] + (p[2] - p[0]) * i / 8, p[1] + (p[3] - p[1]) * i / 8);
        input_button(a, p[2], p[3], button, 0, mods, 1);
    } else {
        return -1;
    }
    return 0;
}

/* The row named `name` (its label or its resource) at time t: in per-CPU mode
 * a task that migrated has a row under each processor, and the one of the
 * processor it was on at t is meant. -1 when no row has that name. */
static long named_row(const view_app *a, const char *name, double t)
{
    size_t n = a->shapes ? tlv_shapes_row_count(a->shapes) : 0;
    for (size_t r = 0; r < n; r++) {
        tlv_row_info info;
        tlv_shapes_row(a->shapes, r, &info);
        if (info.resource && (strcmp(info.resource, name) == 0 ||
                              (info.label && strcmp(info.label, name) == 0)))
            return view_resource_row(a, info.resource, view_exact_time(a, t));
        if (info.label && strcmp(info.label, name) == 0)
            return (long)r;
    }
    return -1;
}

/* The pixel (x, y) at trace time TIME in the middle of the band of row
 * `name`, scrolled into sight first; 0, or -2 with the reason printed. */
static int row_point(view_app *a, const char *name, const char *time, double *x, double *y,
                     const char *cmd)
{
    double t, top, h;
    const view_script *s = a->core->script;
    if (!number(time, &t)) {
        fprintf(stderr, "%s:%zu: %s: '%s' is not a time\n", s->path, s->next, cmd, time);
        return -2;
    }
    long row = named_row(a, name, t);
    tlv_view v;
    if (row < 0) {
        fprintf(stderr, "%s:%zu: %s: no row is named '%s'\n", s->path, s->next, cmd, name);
        return -2;
    }
    if (!view_reveal_row(a, (size_t)row)) {
        fprintf(stderr, "%s:%zu: %s: row '%s' is hidden or in a collapsed group\n", s->path,
                s->next, cmd, name);
        return -2;
    }
    view_main_view(a, &v); /* as scrolled */
    if (!(t >= v.t0 && t <= v.t1)) {
        fprintf(stderr, "%s:%zu: %s: time %s is outside the view (%.17g to %.17g)\n", s->path,
                s->next, cmd, time, v.t0, v.t1);
        return -2;
    }
    view_row_band(a, &v, (size_t)row, &top, &h);
    *x = tlv_view_x(&v, t);
    *y = top + h / 2;
    return 0;
}

static int cmd_row(view_app *a, char **w, int n)
{
    double x, y;
    char name[512] = "";
    for (int i = 2; i < n; i++) /* the row's name may have spaces */
        snprintf(name + strlen(name), sizeof name - strlen(name), "%s%s", i > 2 ? " " : "", w[i]);
    if (n < 3)
        return -1;
    int rc = row_point(a, name, w[1], &x, &y, w[0]);
    if (rc < 0)
        return rc;
    input_motion(a, x, y);
    if (strcmp(w[0], "click-row") == 0) {
        input_button(a, x, y, SDL_BUTTON_LEFT, 1, 0, 1);
        input_button(a, x, y, SDL_BUTTON_LEFT, 0, 0, 1);
    }
    return 0;
}

/* Resizes the window and waits (up to 2 s) until the window system did. */
static int cmd_resize(view_app *a, char **w, int n)
{
    double p[2];
    if (n != 3 || numbers(a, w + 1, 2, p, 0) < 0 || p[0] < 16 || p[1] < 16 || p[0] > 16384 ||
        p[1] > 16384)
        return -1;
    SDL_SetWindowSize(a->core->win, (int)p[0], (int)p[1]);
    double until = now_seconds() + 2;
    int ww = 0, wh = 0;
    do {
        SDL_PumpEvents();
        SDL_GetWindowSize(a->core->win, &ww, &wh);
        if (ww == (int)p[0] && wh == (int)p[1])
            break;
        SDL_Delay(5);
    } while (now_seconds() < until);
    SDL_FlushEvents(SDL_WINDOWEVENT, SDL_WINDOWEVENT);
    view_update_size(a);
    return 0;
}

/* The trace's events, one standard-form line each; 0, or -2 (printed). */
static int write_trace(const view_app *a, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "%s view: cannot write '%s': %s\n", prog, path, strerror(errno));
        return -2;
    }
    char line[4096];
    size_t n = tlv_trace_event_count(a->trace);
    for (size_t i = 0; i < n; i++) {
        tlv_event e;
        tlv_trace_event(a->trace, i, &e);
        size_t len = tlv_event_format(&e, a->radix, line, sizeof line);
        if (len >= sizeof line) { /* a long line: formatted again at its length */
            char *big = malloc(len + 1);
            if (big)
                tlv_event_format(&e, a->radix, big, len + 1);
            fprintf(f, "%s\n", big ? big : line);
            free(big);
        } else {
            fprintf(f, "%s\n", line);
        }
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "%s view: cannot write '%s': %s\n", prog, path, strerror(errno));
        return -2;
    }
    return 0;
}

static int run_command(view_app *a, char **w, int n)
{
    if (strcmp(w[0], "key") == 0 && n == 2) {
        SDL_Keycode key;
        int mods;
        if (key_spec(w[1], &key, &mods) < 0)
            return -1;
        input_key(a, key, mods);
    } else if (strcmp(w[0], "marker-add") == 0 && n == 1) {
        input_key(a, SDLK_m, 0);
    } else if (strcmp(w[0], "mouse-leave") == 0 && n == 1) {
        input_leave(a);
    } else if (strcmp(w[0], "click-row") == 0 || strcmp(w[0], "move-row") == 0) {
        return cmd_row(a, w, n);
    } else if (strcmp(w[0], "resize") == 0) {
        return cmd_resize(a, w, n);
    } else if (strcmp(w[0], "screenshot") == 0 && n == 2) {
        free(a->core->shot_path);
        if (!(a->core->shot_path = strdup(w[1]))) /* else no screenshot and no word */
            return report_nomem("taking a screenshot of", a->opts.input), -2;
    } else if (strcmp(w[0], "dump-state") == 0 && n == 2) {
        return state_dump(a, w[1]) == 0 ? 0 : -2;
    } else if (strcmp(w[0], "wait") == 0 && n == 2) {
        double frames;
        if (!number(w[1], &frames) || frames < 0)
            return -1;
        a->core->script->wait = (long)frames;
    } else if (strcmp(w[0], "wait-events") == 0 && (n == 2 || n == 3)) {
        double count, seconds = 10;
        if (!number(w[1], &count) || count < 1 || (n == 3 && (!number(w[2], &seconds) ||
                                                               seconds <= 0)))
            return -1;
        a->core->script->wait_events = (size_t)count;
        a->core->script->wait_until = now_seconds() + seconds;
    } else if (strcmp(w[0], "wait-file") == 0 && (n == 2 || n == 3)) {
        double seconds = 10;
        if (n == 3 && (!number(w[2], &seconds) || seconds <= 0))
            return -1;
        free(a->core->script->wait_file);
        a->core->script->wait_file = strdup(w[1]);
        a->core->script->wait_until = now_seconds() + seconds;
    } else if (strcmp(w[0], "wait-live-idle") == 0 && (n == 1 || n == 2)) {
        double seconds = 10;
        if (n == 2 && (!number(w[1], &seconds) || seconds <= 0))
            return -1;
        a->core->script->wait_idle = 1;
        a->core->script->wait_until = now_seconds() + seconds;
    } else if (strcmp(w[0], "write-trace") == 0 && n == 2) {
        return write_trace(a, w[1]);
    } else if (strcmp(w[0], "live-hold") == 0 && n == 1) {
        a->core->live.held = 1;
    } else if (strcmp(w[0], "live-release") == 0 && n == 1) {
        a->core->live.held = 0;
    } else if (strcmp(w[0], "load-resume") == 0 && n == 1) {
        loader_resume(a);
    } else if (strcmp(w[0], "quit") == 0 && n == 1) {
        a->core->quit = 1;
    } else {
        return cmd_pointer(a, w, n);
    }
    return 0;
}

int script_step(view_app *a)
{
    view_script *s = a->core->script;
    if (s->wait > 0) {
        s->wait--;
        return 1;
    }
    if (s->wait_events) {
        size_t have = tlv_trace_event_count(a->trace);
        if ((have < s->wait_events || a->core->live.pending) && now_seconds() < s->wait_until) {
            SDL_Delay(10); /* the log's writer runs meanwhile */
            return 1;
        }
        if (have < s->wait_events) {
            fprintf(stderr, "%s:%zu: wait-events: %zu events after waiting, not %zu\n", s->path,
                    s->next, have, s->wait_events);
            return -1;
        }
        s->wait_events = 0;
    }
    if (s->wait_idle) {
        int idle = live_caught_up(a);
        if (!idle && now_seconds() < s->wait_until) {
            SDL_Delay(10);
            return 1;
        }
        s->wait_idle = 0;
        if (!idle) {
            fprintf(stderr, "%s:%zu: wait-live-idle: the log is not read to its end after "
                    "waiting\n", s->path, s->next);
            return -1;
        }
    }
    if (s->wait_file) {
        int there = access(s->wait_file, F_OK) == 0;
        if (!there && now_seconds() < s->wait_until) {
            SDL_Delay(10);
            return 1;
        }
        if (!there)
            fprintf(stderr, "%s:%zu: wait-file: no %s after waiting\n", s->path, s->next,
                    s->wait_file);
        free(s->wait_file);
        s->wait_file = NULL;
        if (!there)
            return -1;
    }
    while (s->next < s->n) {
        size_t lineno = ++s->next;
        char line[1024], *w[MAX_WORDS];
        snprintf(line, sizeof line, "%s", s->lines[lineno - 1]);
        int n = split(line, w);
        if (n == 0 || w[0][0] == '#')
            continue;
        int rc = n >= 2 && strcmp(w[0], "text") == 0 /* the words with their spaces */
                     ? (input_text(a, s->lines[lineno - 1] + (w[1] - line)), 0)
                     : run_command(a, w, n);
        if (rc == -1)
            fprintf(stderr, "%s:%zu: cannot run '%s'\n", s->path, lineno, s->lines[lineno - 1]);
        view_dirty(a);
        return rc < 0 ? -1 : 1;
    }
    return 0;
}
