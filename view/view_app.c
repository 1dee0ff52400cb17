/*
 * view_app.c — the window's life: `tlv view` once its options are parsed
 * (view_run). Makes the viewer and its panels and checks their keys, opens
 * the window (its size from --size, else the session, else 1280x800), loads
 * the trace with a progress bar, restores the session, then runs the frame
 * loop — waiting for events when idle, one script command per frame under
 * --script — and saves the session on exit.
 */
#include "view/core.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- window ------------------------------------------------------------------- */

/* The window could not be made: says why. SDL tries its render drivers one
 * after the other, and the last one's "Couldn't find matching render driver"
 * hides the software renderer's "Out of memory": asked again. */
static int window_failed(view_app *a)
{
    const char *why = SDL_GetError();
    if (!strstr(why, "Out of memory") && a->core->win && !SDL_GetWindowSurface(a->core->win))
        why = SDL_GetError();
    if (strstr(why, "Out of memory"))
        report_nomem("opening the window for", a->opts.input);
    else
        fprintf(stderr, "%s view: cannot open a window: %s\n", prog, why);
    return -1;
}

/* Without a display SDL falls back to a driver that draws into memory
 * (offscreen, dummy): the window would be seen by no one and never closed,
 * and the viewer would wait for its events forever. Refused, with the way to
 * a picture, unless SDL_VIDEODRIVER asked for it (scripts may run there). */
static int no_display(const view_app *a)
{
    const char *driver = SDL_GetCurrentVideoDriver(), *asked = getenv("SDL_VIDEODRIVER");
    if (!driver || (strcmp(driver, "offscreen") != 0 && strcmp(driver, "dummy") != 0) ||
        (asked && *asked))
        return 0;
    const char *input = strcmp(a->opts.input, "-") ? a->opts.input : "LOG";
    fprintf(stderr,
            "%s view: no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set: "
            "SDL found only its '%s' driver, which shows nothing)\n"
            "%s view: to draw the timeline into a PNG instead: %s render -r %s %s -o out.png\n"
            "%s view: (SDL_VIDEODRIVER=%s runs the window unseen anyway, e.g. for --script)\n",
            prog, driver, prog, prog, a->opts.rules.res_path, input, prog, driver);
    return 1;
}

static int open_window(view_app *a, int w, int h)
{
    /* The timeline is drawn on the CPU anyway; SDL's software renderer
     * straight onto the window (shared memory on X11) presents a frame in a
     * few ms, where an OpenGL path without a GPU (llvmpipe, Xvfb) takes 20-50.
     * SDL_RENDER_DRIVER and SDL_FRAMEBUFFER_ACCELERATION in the environment
     * still choose otherwise. */
    SDL_SetHintWithPriority(SDL_HINT_RENDER_DRIVER, "software", SDL_HINT_DEFAULT);
    SDL_SetHintWithPriority(SDL_HINT_FRAMEBUFFER_ACCELERATION, "0", SDL_HINT_DEFAULT);
    if (SDL_Init(SDL_INIT_VIDEO) != 0)
        return window_failed(a);
    if (no_display(a))
        return -1;
    char title[512];
    snprintf(title, sizeof title, "%s - tlv view", a->opts.input);
    a->core->win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
                              SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    a->ren = a->core->win ? SDL_CreateRenderer(a->core->win, -1, 0) : NULL;
    if (!a->ren)
        return window_failed(a);
    if (tlv_renderer_new(&a->core->tl_ren) != TLV_OK || tlv_renderer_new(&a->core->macro_ren) != TLV_OK)
        return report_nomem("loading the fonts for", a->opts.input), -1;
    view_update_size(a);
    return 0;
}

static void close_window(view_app *a)
{
    view_text_free(a->text);
    SDL_DestroyTexture(a->core->tl_tex);
    SDL_DestroyTexture(a->core->macro_tex);
    tlv_renderer_free(a->core->tl_ren);
    tlv_renderer_free(a->core->macro_ren);
    if (a->ren)
        SDL_DestroyRenderer(a->ren);
    if (a->core->win)
        SDL_DestroyWindow(a->core->win);
    SDL_Quit();
}

/* ---- the loop ------------------------------------------------------------------- */

/* Real input is ignored under a script, so that runs are repeatable. */
static void handle_events(view_app *a, int wait)
{
    SDL_Event e;
    if (wait) { /* the reading thread has the trace meanwhile */
        loader_release(a);
        SDL_WaitEventTimeout(NULL, loader_active(a) ? 50 : live_wait_ms(a));
        loader_acquire(a);
    }
    int got = SDL_PollEvent(&e);
    while (got) {
        if (!a->core->script)
            input_sdl_event(a, &e);
        else if (e.type == SDL_QUIT)
            a->core->quit = 1;
        else if (e.type == SDL_WINDOWEVENT)
            view_dirty(a);
        got = SDL_PollEvent(&e);
    }
}

static void present(view_app *a)
{
    view_update_size(a);
    if (view_draw_frame(a) < 0)
        view_message(a, "cannot draw the timeline");
    if (nomem_reported()) { /* out of memory: said on stderr; nothing shown can be trusted */
        a->core->exit_code = EXIT_USAGE;
        a->core->quit = 1;
        return;
    }
    if (a->core->shot_path) {
        if (view_write_screenshot(a, a->core->shot_path) < 0)
            a->core->exit_code = a->core->script ? EXIT_USAGE : a->core->exit_code;
        else if (!a->core->script)
            view_message(a, "saved %s", a->core->shot_path);
        free(a->core->shot_path);
        a->core->shot_path = NULL;
    }
    SDL_RenderPresent(a->ren);
    if (!a->core->times.first_frame)
        a->core->times.first_frame = now_seconds();
    a->core->dirty = 0;
}

/* The frame loop, until the window closes (or, `until_loaded`, until the
 * log is loaded). */
static void run(view_app *a, int until_loaded)
{
    a->core->dirty = 1;
    while (!a->core->quit && !(until_loaded && !loader_active(a))) {
        int scripted = a->core->script && !loader_script_waits(a);
        loader_release(a); /* a moment for the reading thread */
        loader_acquire(a);
        handle_events(a, !scripted && !a->core->dirty && !a->core->shot_path);
        if (loader_poll(a))
            view_dirty(a);
        if (live_poll(a))
            view_dirty(a);
        if (scripted) {
            /* Out of memory ends a scripted view as it ends every command:
             * the script's later steps (a dump-state after a screenshot
             * that failed) would write what looks like a good run's output. */
            int r = nomem_reported() ? 0 : script_step(a);
            if (r < 0)
                a->core->exit_code = EXIT_USAGE;
            if (r <= 0)
                a->core->quit = 1;
        }
        if (a->core->dirty || a->core->shot_path || scripted)
            present(a);
    }
}

/* ---- start and end ---------------------------------------------------------------- */

static char *default_session_path(const view_opts *o)
{
    if (o->no_session || strcmp(o->input, "-") == 0)
        return NULL;
    if (o->session)
        return strdup(o->session);
    size_t n = strlen(o->input) + sizeof ".tlvsession";
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s.tlvsession", o->input);
    return p;
}

/* Loads and shows; returns the exit status. */
static int view_main(view_app *a, view_session *sess)
{
    int w = a->opts.width ? a->opts.width : sess->width ? sess->width : 1280;
    int h = a->opts.height ? a->opts.height : sess->height ? sess->height : 800;
    /* An output over the log or the resource file is refused before the
     * window opens (and without a display); the rule files, once read. */
    if (outputs_overwrite_inputs(&a->opts.rules, NULL))
        return EXIT_USAGE;
    if (open_window(a, w, h) < 0)
        return EXIT_USAGE;
    a->opts.per_cpu |= sess->per_cpu; /* build the rows once, in the session's mode */
    session_apply_panels(a, sess);
    int rc = view_load(a);
    if (nomem_reported())
        return EXIT_USAGE;
    if (rc == EXIT_USAGE || a->core->quit)
        return rc == EXIT_USAGE ? rc : EXIT_OK;
    nav_init(&a->nav, tlv_time_to_double(tlv_trace_start(a->trace), a->radix),
             tlv_time_to_double(tlv_trace_end(a->trace), a->radix));
    a->core->pending_session = sess; /* applied once the log is loaded */
    if (a->opts.bench) {
        run(a, 1);
        return a->core->quit ? EXIT_OK : view_bench(a);
    }
    if (a->opts.script && !(a->core->script = script_load(a->opts.script, a->opts.input)))
        return EXIT_USAGE;
    run(a, 0);
    /* A window closed while loading keeps the session as it was: its view
     * and markers were never shown. */
    if (a->core->session_path && !a->core->pending_session) {
        session_keep_backup(sess, a->core->session_path); /* what could not be read is kept */
        session_write(a, a->core->session_path);
    }
    return nomem_reported() ? EXIT_USAGE : a->core->exit_code;
}

/* Registers the panels made by makers[0..n), in that order, and checks that
 * no key is claimed twice. Returns 0, -1 when one could not be made (out of
 * memory: a viewer without its prompt or flows panel would drop what they
 * show without a word; reported), or -2 when keys clash (said on stderr). */
static int add_panels(view_app *a, view_panel *(*const *makers)(void), size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        if (view_add_panel(a, makers[i]()) < 0)
            rc = -1;
    if (rc < 0)
        return report_nomem("opening the viewer on", a->opts.input), -1;
    view_key_owner owners[VIEW_MAX_PANELS + 1];
    char msg[512];
    if (view_keys_check(owners, view_key_owners(a, owners), msg, sizeof msg) < 0) {
        fprintf(stderr, "%s view: %s\n", prog, msg);
        return -2;
    }
    return 0;
}

int view_run(const view_opts *opts, view_panel *(*const *makers)(void), size_t n)
{
    double start = now_seconds();
    view_app *a = calloc(1, sizeof *a);
    struct view_core *c = calloc(1, sizeof *c);
    if (!a || !c) { /* the arguments first, so that the log can be named */
        free(a);
        free(c);
        return report_nomem("opening the viewer on", opts->input);
    }
    int rc = EXIT_USAGE;
    a->core = c;
    c->times.start = start;
    a->opts = *opts;
    a->markers.selected = -1;
    c->live.in.fd = -1;
    a->focus_event = -1;
    a->jump_event = -1; /* no jump yet */
    a->tracks.load_on = 1; /* shown in per-CPU mode (u) */
    c->breakdown = breakdown_new();
    a->mx = a->my = -1;
    int panels = add_panels(a, makers, n);
    if (panels == 0 && !c->breakdown) {
        report_nomem("opening the viewer on", opts->input);
        panels = -1;
    }
    if (panels == 0) {
        char *path = default_session_path(&a->opts);
        c->session_path = path;
        view_session sess;
        session_read(path, &sess);
        rc = view_main(a, &sess);
        session_free(&sess);
        free(path);
    }
    loader_stop(a); /* before the trace it reads into goes */
    script_free(c->script);
    view_close_input(&c->live.in);
    breakdown_free(c->breakdown);
    view_instances_free(a);
    view_loglines_free(c->loglines);
    free(c->opened_input);
    free(c->shot_path);
    markers_clear(&a->markers);
    rows_free(&a->rows);
    tracks_free(&a->tracks);
    view_free_panels(a);
    unmatched_end(&c->unmatched, 0);
    loader_join_saver(a);
    tlv_shapes_free(a->shapes);
    tlv_trace_free(a->trace);
    tlv_rules_free(c->rules);
    close_window(a);
    free(c);
    free(a);
    return rc;
}
