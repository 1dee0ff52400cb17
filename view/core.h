/*
 * core.h — the viewer's core: its private state (struct view_core: the
 * window, the textures, the loader, the live log, the drag in progress, the
 * session, timings, the registered panels and their keys) and the
 * operations only the core calls. Only the files of view/ include it; a panel sees the
 * panel API (view.h) alone, and the command line (cli/cmd_view.c) calls
 * view_run.
 *
 * The core, one concept per file:
 *   view_app.c      the window's life: open, the frame loop, close (view_run)
 *   view_nav.c      the visible range: zoom, pan, fit, history (no SDL)
 *   view_markers.c  named markers in time order (no SDL)
 *   view_rows.c     which rows are shown: hidden rows and rules, collapsed groups, bands
 *   view_tracks.c   tracks: CPU load (libtlv's tlv_stats) and counters drawn as graphs
 *   view_hover.c    the shape under the cursor
 *   view_core.c     the panels' registry and dispatch; the prompt request; marker moves
 *   view_keys.c     the key tables: a key claimed twice, the F1 help built from them
 *   view_input.c    mouse and keyboard (SDL's or the script's) into actions; the core's keys
 *   view_draw.c     the frame: timeline and macro view, overlays, status line
 *   view_text.c     UI fonts (fontconfig, SDL_ttf) and cached text textures
 *   view_state.c    the state as JSON: LOG.tlvsession and dump-state
 *   session_read.c  reading a session file leniently
 *   view_load.c     rules, conversion with a progress bar in the window, shapes
 *   view_loader.c   opening a log progressively: read on a thread, shown as it fills in
 *   view_live.c     a log read on while it grows; follow mode; reloading
 *   view_range.c    the selected range and the two-point measurement
 *   view_breakdown.c  what each shown row spent inside the range
 *   view_sizes.c    label column width, row height, ruler time axis; texts drawn (dump-state)
 *   view_logline.c  a line of the log as written, by its number (the details panel's)
 *   view_times.c    times as the window shows them: from a clock trace's start, its date
 *   view_script.c   --script: one command per frame, screenshot, dump-state
 *   view_bench.c    --bench: frame times along a scripted path
 */
#ifndef TLV_VIEW_CORE_H
#define TLV_VIEW_CORE_H

#include "view/session.h"
#include "view/view.h"

struct cJSON;

/* The log being read (view_load.c): open while it may still grow. */
typedef struct view_input {
    int fd;                     /* -1: closed (read to its end and finished) */
    int is_file;                /* a regular file (else a FIFO, a pipe, a terminal) */
    unsigned long long size;    /* a file's size when opened, for the progress bar */
    unsigned long long offset;  /* bytes read */
    int eof;                    /* the last read found no more bytes */
    int line_open;              /* the last byte read did not end a line */
    double progress_at;         /* when the progress bar was last drawn */
    /* A followed file's identity and bytes, to see it replaced or rewritten
     * (view_live.c); a line end pushed for a last line without one. */
    unsigned long long dev, ino;
    size_t head_len, tail_len;
    char head[4096];            /* its first bytes */
    char tail[256];             /* the last bytes read */
    int provisional;
} view_input;

/* A log read while it grows (view_live.c). */
typedef struct view_live {
    view_input in;
    int pending;                /* bytes pushed that the shapes do not show yet */
    int had_events;             /* the trace shown had events */
    int grew;                   /* bytes came after the first load */
    double last_data;           /* when bytes last came */
    double next_build;          /* the earliest time of the next rebuild */
    double build_cost;          /* seconds the last rebuild took */
    size_t diags_seen;          /* converter diagnostics printed so far */
    int behind;                 /* more than a frame's reading was waiting */
    int closed_noted;           /* the writer's end (a pipe's EOF) was shown */
    int held;                   /* scripts (live-hold): not read until live-release */
} view_live;

/* ---- text (view_text.c) -------------------------------------------------------- */

/* Fonts for UI text of `px` pixels, drawn on `ren`. NULL when SDL_ttf fails;
 * without a font, text is simply not drawn. */
view_text *view_text_new(SDL_Renderer *ren, int px);
void view_text_free(view_text *t);

/* ---- the core's state ---------------------------------------------------------- */

/* What a press of a mouse button started, beyond view_app.drag. */
typedef struct view_drag {
    int button, moved;
    int recorded;               /* the history already has this drag's step */
    double x, y;                /* where the press was (macro view: x is its time) */
    double t0, t1;              /* the visible range at the press */
} view_drag;

/* The viewer's private state, a->core: what no panel reads. */
struct view_core {
    const char *session_path;   /* NULL: no session file */
    tlv_rules *rules;
    long rebuild_frames;        /* frames drawn (old view, moving bar) during the last rebuild */
    int label_need;             /* label column wanted by the rows, at scale 1 */
    view_live live;             /* the log, read on while it grows (view_live.c) */
    int follow;                 /* follow mode: the newest time stays in view */
    char *opened_input;         /* a log opened with Ctrl+O (a->opts.input points to it) */
    size_t load_errors;         /* conversion and rule problems, reported on stderr */
    char banner[4][200];        /* the first problems, shown in the window */
    int banner_lines, show_banner, show_help;
    char message[160];          /* the status line's latest message */
    char no_events[200];        /* why a log read to its end has no events, or "" */
    struct view_loglines *loglines; /* where the log's lines begin (view_logline.c) */
    /* window */
    SDL_Window *win;
    int text_px;
    tlv_renderer *tl_ren, *macro_ren;
    size_t ren_diags_seen;      /* the timeline renderer's warnings shown (fonts) */
    SDL_Texture *tl_tex, *macro_tex;
    int tex_w, tex_h, macro_w, macro_h;
    tlv_view tl_drawn, macro_drawn;   /* what the textures hold */
    unsigned tl_gen, macro_gen;
    double last_render_ms;
    /* selection and measurement */
    int has_sel;
    double sel0, sel1;
    int measure_n;              /* points of the two-point measurement (0..2) */
    double measure[2];
    struct view_breakdown *breakdown; /* of the range (view_breakdown.c) */
    tlv_instances *instances;   /* the trace's instances (view_instances.c), or NULL */
    const tlv_trace *instances_of; /* the trace they are of, */
    size_t instances_events;    /* with this many events */
    view_drag drag;             /* the drag in progress (its mode: a->drag) */
    /* sizes the user chose (view_sizes.c), at scale 1; 0: automatic */
    int label_w_user, row_h_user;
    int time_axis;              /* the ruler reads: 0 absolute, 1 from the trace's start,
                                   2 from the selected marker (view_sizes.c), */
    int time_axis_chosen;       /* once the user chose (t); before, the trace's (view_times.c) */
    struct {                    /* what the timeline's renderer was last told */
        int relative;
        int absolute;
        double origin;
        char name[48];
        int focus;              /* a shape under the pointer: its texts win */
        long row;
        double from, to;
    } told;
    /* loop */
    int quit, dirty;
    int exit_code;
    struct view_script *script;
    char *shot_path;            /* screenshot to take of the next frame */
    unsigned shot_count;
    /* panels, in registration order (view_add_panel) */
    view_panel *panels[VIEW_MAX_PANELS];
    size_t npanels;
    view_panel *grab;           /* the panel holding the keyboard (view_grab_keys), or NULL */
    unmatched_log unmatched;    /* lines no rule matched (unmatched.c) */
    /* opening the log progressively (view_loader.c) */
    struct view_loader *loader; /* NULL once the log is read and shown */
    /* writing the shape cache of the shapes of a whole log (view_loader.c):
     * reads a->shapes and the trace, so neither may change until joined */
    SDL_Thread *shape_saver;
    SDL_atomic_t shape_saver_done;
    struct view_session *pending_session; /* applied when the log is loaded */
    struct {                    /* seconds from now_seconds(), 0 until it happened */
        double start, first_frame, loaded;
        double convert_s, final_build_s;   /* converting alone; the last shape build */
    } times;
};

/* ---- instances (view_instances.c) ------------------------------------------------ */
void view_instances_free(view_app *a);

/* ---- loading (view_load.c) ------------------------------------------------------ */
/* Notes n bytes p read from `in` (pushed into the trace by the caller):
 * the offset, whether a line is open, the first and last bytes kept. */
void view_input_took(view_input *in, const char *p, size_t n);
/* Notes that the first `bytes` of the file were taken from the trace cache
 * (tlv_trace_resume_cached), not read: reading goes on from there, and the
 * first and last bytes are what view_input_took would have kept. Returns 0,
 * or -1 when the file cannot be read there. */
int view_input_skip(view_input *in, unsigned long long bytes);

/* Waits for the writing of the shape cache, if any (view_loader.c): before
 * the shapes are freed or the trace grows. */
void loader_join_saver(view_app *a);
/* Whether the shape cache is still being written (live follow waits). */
int loader_saving(view_app *a);

/* Loads the rules and starts reading the log (view_loader.c). Returns
 * EXIT_OK or EXIT_USAGE (rules with errors, an unreadable log). */
int view_load(view_app *a);
/* Once the whole log is read (conversion status cs): the problems reported
 * as a one-shot load reports them. */
void view_load_report(view_app *a, tlv_status cs);
/* The options of a shape build in per-CPU mode or not, hidden rules
 * skipped (the names belong to a->rows). */
void view_shapes_options(view_app *a, int per_cpu, tlv_shapes_options *o);
/* Makes s (taken over) the shapes shown; their rule problems reported when
 * `report`. */
void view_install_shapes(view_app *a, tlv_shapes *s, int per_cpu, int report);
/* (Re)builds the shapes, per CPU or not. Returns 0, or -1 (old ones kept). */
int view_build_shapes(view_app *a, int per_cpu);
/* The same without a progress screen or repeating rule problems (live logs). */
int view_refresh_shapes(view_app *a);
/* Counts the error diagnostics of d from index `from` on, keeping the first
 * for the window's banner. */
void view_note_diags(view_app *a, const tlv_diags *d, size_t from);
/* Loads the rules of a->opts.rules; NULL on errors (printed, and put in the
 * banner). */
tlv_rules *view_load_rules(view_app *a);
/* Opens the log at path ("-": standard input) without blocking on a FIFO
 * or pipe. Returns 0, or -1 (errno says why). */
int view_open_input(const char *path, view_input *in);
/* Reads and pushes into the trace what the log holds now, up to `budget`
 * bytes; with a non-NULL `a`, draws progress. Returns the bytes read, or -1
 * on a read error. */
long view_read_input(view_app *a, view_input *in, tlv_trace *trace, size_t budget);
void view_close_input(view_input *in);
/* Converts the log at path with `rules` into a new trace (*out, NULL on
 * failure), leaving `in` open for more (unless the rules run external
 * processes, which need the whole log). Returns TLV_OK, TLV_ERR_CONVERT
 * (loaded with problems), or TLV_ERR_IO / TLV_ERR_USAGE (closed) / NOMEM. */
tlv_status view_convert(view_app *a, const char *path, tlv_rules *rules, tlv_trace **out,
                        view_input *in);
/* view_convert's parts: the log opened and a trace made for it (nothing
 * read yet), and the end of reading (trace updated, or finished when the
 * rules run external processes). */
tlv_status view_convert_begin(view_app *a, const char *path, tlv_rules *rules, tlv_trace **out,
                              view_input *in);
tlv_status view_convert_end(const view_app *a, tlv_trace *trace, view_input *in);

/* ---- opening a log progressively (view_loader.c) ------------------------------------ */

/* Opens a->opts.input into a->trace with empty shapes and starts reading it
 * on a thread. EXIT_OK or EXIT_USAGE. From here until the log is loaded the
 * window's thread holds the trace's read lock except between
 * loader_release() and loader_acquire(). */
int loader_start(view_app *a);
int loader_active(const view_app *a);
/* Lets the reading thread at the trace (before waiting for input), and
 * takes the trace back. No-ops when not loading. */
void loader_release(view_app *a);
void loader_acquire(view_app *a);
/* Each frame: new shapes when the trace doubled, the end of the load.
 * Returns 1 when the frame must be redrawn. */
int loader_poll(view_app *a);
/* Stops reading (closing the window, reloading). */
void loader_stop(view_app *a);
/* Whether a --script must wait: until the log is loaded, or (with
 * --load-pause-at) until the shapes show what was read up to the pause. */
int loader_script_waits(const view_app *a);
/* Waits for the shapes being built for the load (a build of the window's
 * own cannot run beside it: libtlv refuses two builds from one trace). */
void loader_wait_build(view_app *a);
/* load-resume: reading goes on past --load-pause-at. */
void loader_resume(view_app *a);
typedef struct view_load_progress {
    int active;
    unsigned long long bytes, size;  /* size 0: not a file */
    unsigned long long lines;
    size_t events, shown_events;     /* in the trace; in the shapes shown */
} view_load_progress;
void loader_progress(const view_app *a, view_load_progress *p);
/* "loading 45% (12.0 of 26.7 MB), 230112 lines", or "" when loaded. */
void loader_status_text(const view_app *a, char *buf, size_t size);

/* ---- live logs and reloading (view_live.c) ------------------------------------------------ */

/* Whether the log is still read for new lines. */
int live_active(const view_app *a);
/* How long the loop may wait for input before polling the log again. */
int live_wait_ms(const view_app *a);
/* Reads what the log gained and shows it (throttled). Returns 1 when the
 * frame must be redrawn. */
int live_poll(view_app *a);
/* Whether a followed log is read to its end and shown: a file read up to
 * the size of the file its path names, a pipe up to its writer's end, no
 * unfinished last line held back, nothing read but not shown (1 when no log
 * is followed). For scripts (wait-live-idle). */
int live_caught_up(const view_app *a);
/* "LIVE" (reading a growing log) or "FOLLOW" in the status line, ending at
 * x `right`, text at y; returns where it begins (right when none). */
#define LIVE_RGB 0x5A8F5A
#define LIVE_FOLLOW_RGB 0x1E9E3C
int live_badge_draw(view_app *a, int right, int y);
/* The follow key: on, the view jumps to the newest time and stays there. */
void live_toggle_follow(view_app *a);
/* F5 / Ctrl+R: rules and log read again, the view kept. Returns 0, or -1
 * (the last good trace kept; the window says why). */
int view_reload(view_app *a);
/* Ctrl+O: another log, with the same rules. Returns 0 or -1 (as above). */
int view_open_log(view_app *a, const char *path);
/* Ctrl+O: asks for the log's path (the current one to edit), then opens it;
 * a path that cannot be read keeps the prompt open and says why. */
void view_open_prompt(view_app *a);

/* ---- the frame (view_draw.c) ------------------------------------------------------ */

/* Re-reads the window's size and scale; 1 when they changed. */
int view_update_size(view_app *a);
/* The tlv_view of the macro view (the main one's: view_main_view). */
void view_macro_view(const view_app *a, tlv_view *out);
/* Draws the whole frame on a->ren (not presented). Returns 0 or -1. */
int view_draw_frame(view_app *a);
/* Draws a progress screen ("converting", fraction 0..1 or < 0 when unknown)
 * and presents it. */
void view_draw_progress(view_app *a, const char *what, double fraction);
/* Reads the drawn frame and writes it as a PNG. Returns 0 or -1 (printed). */
int view_write_screenshot(view_app *a, const char *path);

/* ---- input (view_input.c) ------------------------------------------------------- */

void input_key(view_app *a, SDL_Keycode key, int mods);
/* Wheel notches at (x, y); positive is away from the user. */
void input_wheel(view_app *a, double x, double y, double notches, int mods);
void input_motion(view_app *a, double x, double y);
void input_button(view_app *a, double x, double y, int button, int down, int mods, int clicks);
void input_leave(view_app *a);
/* Typed text (UTF-8), as SDL's text input delivers it: to the panel holding
 * the keyboard (the prompt); else "?" is the help key, "/" the search's. */
void input_text(view_app *a, const char *utf8);
/* Dispatches one SDL event (window coordinates scaled to pixels). */
void input_sdl_event(view_app *a, const SDL_Event *e);

/* ---- script (view_script.c) -------------------------------------------------------- */

typedef struct view_script view_script;

/* Reads the script; NULL on error (printed). */
view_script *script_load(const char *path, const char *input);
void script_free(view_script *s);
/* Runs the next command. Returns 1 to go on, 0 at the end, -1 on an error
 * (printed with the script's file and line). */
int script_step(view_app *a);

/* ---- the log's lines (view_logline.c) -------------------------------------------------------- */

void view_loglines_free(struct view_loglines *l);

/* ---- tracks: the core's side (view_tracks.c) ---------------------------------------------- */

/* Recomputes the tracks when the trace changed; puts them in order. */
void tracks_refresh(view_app *a);
void tracks_free(view_tracks *t);

/* ---- rows shown: the core's side (view_rows.c) ------------------------------------------------ */

void rows_free(view_rows *r);
/* Recomputes the bands (the rows drawn, a collapsed group as one blank band)
 * from the shapes and what is hidden; call after the shapes change. */
void rows_refresh(view_app *a);
/* The bands for tlv_view.rows (NULL: every row), and their number. */
const size_t *rows_list(const view_app *a, size_t *count);
size_t rows_band_count(const view_app *a);
/* The hidden rules, for tlv_shapes_options.skip_rules. */
void rows_skip_rules(const view_app *a, const char *const **names, size_t *count);
/* JSON: what the session keeps (into o), what dump-state adds, reading it back. */
void rows_state_json(const view_app *a, struct cJSON *o);
void rows_dump_json(const view_app *a, struct cJSON *o);
void rows_session_read(view_app *a, const struct cJSON *o);

/* ---- state as JSON (view_state.c) ------------------------------------------------------- */

/* Writes the full state (dump-state) to path. Returns 0 or -1 (printed). */
int state_dump(const view_app *a, const char *path);
/* Applies what was read (also when nothing could be) and reports its
 * problems once: on stderr and in the status line. */
void session_apply(view_app *a, view_session *s);
/* What the panels keep (hidden rows and rules, ...): before loading, so the
 * shapes are built once, without the hidden rules. */
void session_apply_panels(view_app *a, const view_session *s);
int session_write(const view_app *a, const char *path);

/* ---- the user's sizes and time axis (view_sizes.c) ------------------------------------- */

/* Whether x is on the label column's right edge (where a drag resizes it). */
int sizes_on_label_edge(const view_app *a, double x, double y);
/* Drags the edge to x; sets the row height `px` (clamped; 0: automatic),
 * or changes it by `steps`. */
void sizes_drag_label_edge(view_app *a, double x);
void sizes_set_row_height(view_app *a, int px);
void sizes_step_row_height(view_app *a, int steps);
/* t: the ruler's next time axis (absolute, from the trace's start, from the
 * selected marker); applies it to the timeline's renderer. */
void sizes_next_time_axis(view_app *a);
/* Gives the timeline's renderer the time axis and the shape under the
 * pointer (whose texts win); 1 when that changed what it draws. */
int sizes_tell_renderer(view_app *a);
/* The full name of the row whose name is cut in the label column under
 * (x, y), or NULL. */
const char *sizes_cut_row_name(const view_app *a, double x, double y);
/* dump-state: the timeline's texts as drawn (labels, ticks, time reference,
 * row names) and the sizes. */
void sizes_dump(const view_app *a, struct cJSON *o);

/* ---- range and measurement (view_range.c) ---------------------------------------------- */

/* z: shows the selected range (or says how to select one). */
void range_zoom(view_app *a);
/* Ctrl+click: the first, then the second point; a third starts again. */
void measure_click(view_app *a, double t);
/* Esc: no range, no measurement. */
void range_clear(view_app *a);
/* Both over the timeline, their lengths in the ruler. */
void range_draw(view_app *a, const tlv_view *v, const view_areas *ar);

/* ---- the range's breakdown (view_breakdown.c) ------------------------------------------- */

typedef struct view_breakdown view_breakdown;
view_breakdown *breakdown_new(void);
void breakdown_free(view_breakdown *b);
/* dump-state's "range": null, or {t0, t1, length, rows: {ROW: [{value, total,
 * count, min, mean, max, rule, share}]}}. */
void breakdown_dump_json(const view_app *a, struct cJSON *o);

/* ---- bench (view_bench.c) ------------------------------------------------------------- */

/* Pans and zooms along a fixed path, printing frame times. Returns EXIT_OK. */
int view_bench(view_app *a);
/* A tlv_memory_fn adding up, into the size_t `user` points to, the bytes of
 * the parts kept in files mapped into memory (TLV_MEMORY_FILE_BACKED). */
void memory_add_file_backed(void *user, const char *part, size_t bytes);

/* ---- panels: the core's side (view_core.c) ------------------------------------------------ */

/* Registers p. Returns 0, or -1 when p is NULL (its constructor ran out of
 * memory) or there are too many (p is destroyed). */
int view_add_panel(view_app *a, view_panel *p);
void view_free_panels(view_app *a);

/* Dispatch to the panels, in registration order. */
void view_panels_draw(view_app *a, view_layer layer, const tlv_view *v, const view_areas *ar);
int view_panels_press(view_app *a, double x, double y, int button, int clicks);
int view_panels_wheel(view_app *a, double x, double y, double notches);
void view_panels_note(view_app *a, view_note what);
void view_panels_save(const view_app *a, struct cJSON *o);
void view_panels_load(view_app *a, const struct cJSON *o);
void view_panels_dump(const view_app *a, struct cJSON *o);

/* ---- keys (view_keys.c) ------------------------------------------------------------------ */

/* A table of keys and whose it is: a panel's name, or "view" for the core. */
typedef struct view_key_owner {
    const char *name;
    view_panel *panel;          /* handed to the rows' run; NULL for the core */
    const view_key *keys;
    size_t nkeys;
} view_key_owner;

/* The core's own keys (view_input.c). */
extern const view_key view_core_keys[];
extern const size_t view_core_key_count;

/* The tables in effect (view_core.c): the core's, then each panel's in registration
 * order; at most VIEW_MAX_PANELS + 1. Returns their number. */
size_t view_key_owners(const view_app *a, view_key_owner *out);
/* Whether two rows of `owners` claim one key with one modifier combination:
 * -1 and a message naming the key and both claimants in msg (as "key
 * Shift+L is claimed twice: by the legend panel (L: legend of the colours in
 * view) and by the log panel (l: trace-log panel)"), else 0. */
int view_keys_check(const view_key_owner *owners, size_t n, char *msg, size_t size);
/* The row of `owners` that takes key with mods, or NULL (*owner set). */
const view_key *view_keys_find(const view_key_owner *owners, size_t n, SDL_Keycode key, int mods,
                               const view_key_owner **owner);
/* The F1 help: the rows' help texts, the core's then each panel's, packed
 * into lines no wider than `width` as `measure` says (pixels, or characters
 * with NULL), four spaces apart. Returns the number of lines (at most max),
 * each a malloc'd string in lines[]; the caller frees them. */
size_t view_keys_help(const view_key_owner *owners, size_t n, int width,
                      int (*measure)(void *user, const char *s), void *user, char **lines,
                      size_t max);

#endif
