/*
 * view.h — `tlv view`, the interactive timeline viewer: the state its parts
 * share and each part's entry points. One concept per file:
 *
 *   cmd_view.c      options, the main loop, start and end
 *   view_load.c     rules, conversion with a progress bar in the window, shapes
 *   view_nav.c      the visible range: zoom, pan, fit, history (no SDL)
 *   view_markers.c  named markers in time order (no SDL)
 *   view_marker_edit.c  renaming, recolouring and dragging markers; the span to the cursor
 *   view_prompt.c   the one-line text prompt (go to, search, rename) above the status line
 *   view_goto.c     g: going to an exact range typed in the prompt
 *   view_search.c   searching the trace's events, n/N, the match's highlight
 *   view_input.c    mouse and keyboard (SDL's or the script's) into actions
 *   view_draw.c     the frame: timeline and macro view, overlays, status line
 *   view_text.c     UI fonts (fontconfig, SDL_ttf) and cached text textures
 *   view_hover.c    the shape under the cursor (the tooltip)
 *   view_script.c   --script: one command per frame, screenshot, dump-state
 *   view_state.c    the state as JSON: LOG.tlvsession and dump-state
 *   view_bench.c    --bench: frame times along a scripted path
 *   view_rows.c     hidden rows and rules, collapsed groups, the rows/rules panel
 *   view_log.c      the trace-log panel: standard-form lines following the timeline
 *
 * The timeline itself (labels, ruler, shapes) is drawn by libtlv's
 * tlv_render_rgba into a streaming texture; everything else is drawn on top.
 * Positions are in drawable pixels; SDL's window coordinates (and the
 * script's) are multiplied by the HiDPI ratio on the way in.
 */
#ifndef TLV_VIEW_H
#define TLV_VIEW_H

#include "cli.h"

#include <SDL.h>

#include <stddef.h>
#include <stdint.h>

/* ---- options -------------------------------------------------------------- */

typedef struct view_opts {
    rule_args rules;
    const char *input;          /* the log, or a standard-form trace */
    const char *script;         /* --script FILE, or NULL */
    const char *session;        /* --session FILE, or NULL for LOG.tlvsession */
    const char *cpu_attribute;  /* per-CPU attribute ("prcId" unless given) */
    int no_session;
    int per_cpu;
    int width, height;          /* --size, 0 when not given */
    float ui_scale;             /* --scale, 0 when not given */
    int bench;
} view_opts;

/* ---- navigation (view_nav.c) ------------------------------------------------ */

#define NAV_HISTORY 64

typedef struct nav_view {
    double t0, t1;
    int first_row;
} nav_view;

/* Kinds of navigation steps. Repeated steps of a coalescing kind (the same
 * key pressed again, the wheel turned on) make one entry of history; every
 * other step makes its own. */
typedef enum nav_kind {
    NAV_JUMP = 0,     /* fit, zoom to a selection, centre, marker, macro view */
    NAV_KEY_PAN, NAV_KEY_ZOOM, NAV_WHEEL_PAN, NAV_WHEEL_ZOOM, NAV_DRAG, NAV_ROWS
} nav_kind;

typedef struct view_nav {
    double t0, t1;              /* the visible range, in trace units */
    int first_row;
    double trace_t0, trace_t1;  /* the whole trace (t1 > t0) */
    nav_view history[NAV_HISTORY];
    size_t nhistory;
    int last_kind;              /* -1: the next step always records */
} view_nav;

void nav_init(view_nav *n, double trace_t0, double trace_t1);
/* The trace grew or was reloaded: new bounds, the view left as it is. */
void nav_set_trace(view_nav *n, double trace_t0, double trace_t1);
/* Records the current view in the history before a step of `kind`. */
void nav_begin(view_nav *n, nav_kind kind);
/* Sets the range, kept within the zoom limits and overlapping the trace. */
void nav_set(view_nav *n, double t0, double t1);
/* Multiplies the span by `factor` (< 1 zooms in), keeping `anchor` still. */
void nav_zoom(view_nav *n, double anchor, double factor);
void nav_pan(view_nav *n, double dt);
void nav_center(view_nav *n, double t);
void nav_fit(view_nav *n);
/* Back to the view before the last step; 0 when there is none. */
int nav_back(view_nav *n);

/* ---- markers (view_markers.c) ------------------------------------------------ */

typedef struct view_marker {
    char name[48];
    double time;
    uint32_t color;             /* 0xRRGGBB */
} view_marker;

typedef struct view_markers {
    view_marker *v;             /* sorted by time */
    size_t n, cap;
    long selected;              /* index, or -1 */
    unsigned next_id;           /* for the next default name "M<id>" */
} view_markers;

/* Adds a marker (name NULL: "M1", "M2", ...) and selects it. Returns its
 * index, or -1 when memory ran out. */
long markers_add(view_markers *m, double time, const char *name);
void markers_remove(view_markers *m, size_t i);
/* The last marker before t - eps, the first after t + eps; -1 when none. */
long markers_prev(const view_markers *m, double t, double eps);
long markers_next(const view_markers *m, double t, double eps);
void markers_clear(view_markers *m);
/* Renames marker i (cut to the name's size at a UTF-8 boundary). */
void markers_rename(view_markers *m, size_t i, const char *name);
/* Gives marker i the next colour of the palette; returns it. */
uint32_t markers_recolor(view_markers *m, size_t i);
/* Moves marker i to `time`, keeping the order; returns its new index (it
 * stays selected if it was). */
size_t markers_move(view_markers *m, size_t i, double time);

/* ---- text (view_text.c) -------------------------------------------------------- */

typedef struct view_text view_text;

/* Fonts for UI text of `px` pixels, drawn on `ren`. NULL when SDL_ttf fails;
 * without a font, text is simply not drawn. */
view_text *view_text_new(SDL_Renderer *ren, int px);
void view_text_free(view_text *t);
/* Draws text with its top-left at (x, y); returns its width (0 if none). */
int view_text_draw(view_text *t, const char *s, int x, int y, uint32_t rgb);
int view_text_width(view_text *t, const char *s);
int view_text_height(const view_text *t);

/* ---- the application ---------------------------------------------------------- */

/* What a press of a mouse button started. */
typedef enum drag_mode {
    DRAG_NONE, DRAG_PAN, DRAG_SELECT, DRAG_RANGE, DRAG_MARKER, DRAG_MACRO_MOVE, DRAG_MACRO_LEFT, DRAG_MACRO_RIGHT
} drag_mode;

/* The shape under the cursor, as the tooltip shows it. */
typedef struct view_hover {
    int valid;
    long row;
    char rule[96], event[96], resource[96], text[160];
    double from, to;
    tlv_time start;             /* exact `from`, for finding its event */
    char start_text[200], end_text[200]; /* exact times, with the unit */
} view_hover;

/* The one-line prompt (view_prompt.c): what it asks for, and the text typed. */
typedef enum prompt_kind { PROMPT_NONE, PROMPT_GOTO, PROMPT_SEARCH, PROMPT_RENAME } prompt_kind;

typedef struct view_prompt {
    prompt_kind kind;           /* PROMPT_NONE: closed */
    const char *label;          /* "Go to:", ... */
    char text[256];             /* UTF-8, NUL-terminated */
    size_t caret;               /* byte offset in text, on a character boundary */
    long target;                /* PROMPT_RENAME: the marker's index */
} view_prompt;

/* The last search (view_search.c) and where in its matches the view is. */
typedef struct view_search {
    char query[256];            /* as typed ("" before the first search) */
    int regex;                  /* typed /like this/ */
    size_t *matches;            /* indices of the matching events, in trace order */
    size_t count, cap;
    long current;               /* index in matches of the highlighted one, or -1 */
    double time;                /* its time */
    char text[240];             /* it as "[time unit] RES.attr=value" */
} view_search;

/* Screen areas in pixels. */
typedef struct view_areas {
    SDL_Rect main, macro, status;
    SDL_Rect log;               /* the trace-log panel, between main and macro (h 0: hidden) */
    SDL_Rect range;             /* the range panel, under the log panel (h 0: hidden) */
    int label_w, ruler_h;       /* of the main view */
    int row_height;             /* tlv_view.row_height of the main view (0 = fit) */
} view_areas;

/* The log being read (view_load.c): open while it may still grow. */
typedef struct view_input {
    int fd;                     /* -1: closed (read to its end and finished) */
    int is_file;                /* a regular file (else a FIFO, a pipe, a terminal) */
    unsigned long long size;    /* a file's size when opened, for the progress bar */
    unsigned long long offset;  /* bytes read */
    int eof;                    /* the last read found no more bytes */
    int line_open;              /* the last byte read did not end a line */
    double progress_at;         /* when the progress bar was last drawn */
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
} view_live;

typedef struct view_app {
    view_opts opts;
    const char *session_path;   /* NULL: no session file */
    /* the trace */
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    unsigned shapes_gen;        /* counts rebuilds, so textures know they are stale */
    int per_cpu;
    int label_need;             /* label column wanted by the rows, at scale 1 */
    int radix;
    const char *time_scale;
    view_live live;             /* the log, read on while it grows (view_live.c) */
    int follow;                 /* follow mode: the newest time stays in view */
    char *opened_input;         /* a log opened with Ctrl+O (a->opts.input points to it) */
    size_t load_errors;         /* conversion and rule problems, reported on stderr */
    char banner[4][200];        /* the first problems, shown in the window */
    int banner_lines, show_banner, show_help;
    char message[160];          /* the status line's latest message */
    /* window */
    SDL_Window *win;
    SDL_Renderer *ren;
    int win_w, win_h;           /* window coordinates */
    int px_w, px_h;             /* drawable pixels */
    float scale;                /* HiDPI ratio times --scale */
    view_text *text;
    int text_px;
    tlv_renderer *tl_ren, *macro_ren;
    SDL_Texture *tl_tex, *macro_tex;
    int tex_w, tex_h, macro_w, macro_h;
    tlv_view tl_drawn, macro_drawn;   /* what the textures hold */
    unsigned tl_gen, macro_gen;
    double last_render_ms;
    /* navigation and marks */
    view_nav nav;
    view_markers markers;
    view_prompt prompt;
    view_search search;
    int has_sel;
    double sel0, sel1;
    int has_range;              /* the range selected with Ctrl+drag (view_range.c) */
    double range0, range1;      /* range0 < range1 */
    unsigned range_gen;         /* counts changes, so its breakdown knows when it is stale */
    int measure_n;              /* points of the two-point measurement (0..2) */
    double measure[2];
    struct view_breakdown *breakdown; /* of the range (view_breakdown.c) */
    struct breakdown_panel *bdp;      /* its table (panel_breakdown.c) */
    /* pointer */
    double mx, my;              /* pixels */
    int mouse_in;
    drag_mode drag;
    int drag_button, drag_moved;
    int drag_recorded;          /* the history already has this drag's step */
    double drag_x, drag_y;      /* where the press was (macro view: drag_x is its time) */
    double drag_t0, drag_t1;    /* the visible range at the press */
    view_hover hover;
    /* loop */
    int quit, dirty;
    int exit_code;
    struct view_script *script;
    char *shot_path;            /* screenshot to take of the next frame */
    unsigned shot_count;
    /* panels */
    struct view_rows *rows;     /* view_rows.c */
    struct view_log *log;       /* view_log.c */
} view_app;

/* ---- loading (view_load.c) ------------------------------------------------------ */

/* Loads the rules and converts the log, drawing progress in the window.
 * Returns EXIT_OK, EXIT_PARTIAL (loaded with problems) or EXIT_USAGE. */
int view_load(view_app *a);
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

/* ---- live logs and reloading (view_live.c) ------------------------------------------------ */

/* Whether the log is still read for new lines. */
int live_active(const view_app *a);
/* How long the loop may wait for input before polling the log again. */
int live_wait_ms(const view_app *a);
/* Reads what the log gained and shows it (throttled). Returns 1 when the
 * frame must be redrawn. */
int live_poll(view_app *a);
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

/* ---- the frame (view_draw.c) ------------------------------------------------------ */

/* Re-reads the window's size and scale; 1 when they changed. */
int view_update_size(view_app *a);
void view_areas_of(const view_app *a, view_areas *out);
/* The tlv_view of the main timeline, and of the macro view. */
void view_main_view(const view_app *a, tlv_view *out);
void view_macro_view(const view_app *a, tlv_view *out);
/* The largest first_row that still fills the timeline. */
int view_max_first_row(const view_app *a);
/* Draws the whole frame on a->ren (not presented). Returns 0 or -1. */
int view_draw_frame(view_app *a);
/* Draws a progress screen ("converting", fraction 0..1 or < 0 when unknown)
 * and presents it. */
void view_draw_progress(view_app *a, const char *what, double fraction);
/* Reads the drawn frame and writes it as a PNG. Returns 0 or -1 (printed). */
int view_write_screenshot(view_app *a, const char *path);

/* For overlays drawn by other files: a filled rectangle (alpha < 255
 * blends), and a text on a box of `bg` with its top-left at (x, y), whose
 * width it returns. */
void view_fill(view_app *a, int x, int y, int w, int h, uint32_t rgb, int alpha);
int view_label(view_app *a, const char *s, int x, int y, uint32_t fg, uint32_t bg, int alpha);

/* ---- input (view_input.c) ------------------------------------------------------- */

enum { VIEW_MOD_SHIFT = 1, VIEW_MOD_CTRL = 2 };

void input_key(view_app *a, SDL_Keycode key, int mods);
/* Wheel notches at (x, y); positive is away from the user. */
void input_wheel(view_app *a, double x, double y, double notches, int mods);
void input_motion(view_app *a, double x, double y);
void input_button(view_app *a, double x, double y, int button, int down, int mods, int clicks);
void input_leave(view_app *a);
/* Typed text (UTF-8), as SDL's text input delivers it: into the prompt when
 * it is open; "?" is the help key otherwise. */
void input_text(view_app *a, const char *utf8);
/* Dispatches one SDL event (window coordinates scaled to pixels). */
void input_sdl_event(view_app *a, const SDL_Event *e);
/* The time under x in the main view, and the cursor's (or the view's centre). */
double input_time_at(const view_app *a, double x);
int input_over_timeline(const view_app *a, double x, double y);

/* ---- hover (view_hover.c) --------------------------------------------------------- */

/* Finds the shape under (x, y) of the main view into a->hover. */
void view_hover_update(view_app *a);

/* ---- script (view_script.c) -------------------------------------------------------- */

typedef struct view_script view_script;

/* Reads the script; NULL on error (printed). */
view_script *script_load(const char *path);
void script_free(view_script *s);
/* Runs the next command. Returns 1 to go on, 0 at the end, -1 on an error
 * (printed with the script's file and line). */
int script_step(view_app *a);

/* ---- rows, groups and rules (view_rows.c) ------------------------------------------------ */

struct cJSON;
typedef struct view_rows view_rows;

view_rows *rows_new(void);
void rows_free(view_rows *r);
/* Recomputes the bands (the rows drawn, a collapsed group as one blank band)
 * from the shapes and what is hidden; call after the shapes change. */
void rows_refresh(view_app *a);
/* The bands for tlv_view.rows (NULL: every row), and their number. */
const size_t *rows_list(const view_app *a, size_t *count);
size_t rows_band_count(const view_app *a);
/* The hidden rules, for tlv_shapes_options.skip_rules. */
void rows_skip_rules(const view_app *a, const char *const **names, size_t *count);
/* Input: each returns 1 when it used the event. */
int rows_panel_hit(const view_app *a, double x, double y);
int rows_press(view_app *a, double x, double y, int button);
int rows_wheel(view_app *a, double x, double y, double notches);
void rows_toggle_panel(view_app *a);
/* Collapses or expands the group of the band under the cursor. */
void rows_toggle_group_at_cursor(view_app *a);
/* Collapsed bands and group marks over the timeline; the panel. */
void rows_draw_bands(view_app *a, const tlv_view *v, const view_areas *ar);
void rows_draw_panel(view_app *a, const view_areas *ar);
/* JSON: what the session keeps (into o), what dump-state adds. */
void rows_state_json(const view_app *a, struct cJSON *o);
void rows_dump_json(const view_app *a, struct cJSON *o);
void rows_session_read(view_app *a, const struct cJSON *o);

/* ---- the trace-log panel (view_log.c) ---------------------------------------------------- */

typedef struct view_log view_log;

view_log *log_new(void);
void log_free(view_log *l);
/* The panel's height in pixels when shown (0 when hidden), out of `avail`. */
int log_height(const view_app *a, int avail);
void log_toggle(view_app *a);
/* Highlights the line at the cursor's time when the cursor is over the timeline. */
void log_follow(view_app *a);
/* Scrolls to the event of the shape under the cursor (a->hover) and highlights it. */
void log_show_shape(view_app *a);
int log_press(view_app *a, double x, double y, int button, int clicks);
int log_wheel(view_app *a, double x, double y, double notches);
void log_draw(view_app *a, const view_areas *ar);
void log_state_json(const view_app *a, struct cJSON *o);
void log_dump_json(const view_app *a, struct cJSON *o);
void log_session_read(view_app *a, const struct cJSON *o);

/* ---- state as JSON (view_state.c) ------------------------------------------------------- */

/* Writes the full state (dump-state) to path. Returns 0 or -1 (printed). */
int state_dump(const view_app *a, const char *path);
/* The session: read before the window opens (size), applied after loading
 * (range, rows, markers, per-CPU), written on exit. */
typedef struct view_session {
    int loaded;
    int has_range;
    double t0, t1;
    int first_row, per_cpu, width, height;
    view_markers markers;
    struct cJSON *doc;          /* the file, for the panels' parts */
} view_session;
/* Returns 0 (read or absent: s->loaded says which) or -1 (unreadable, printed). */
int session_read(const char *path, view_session *s);
void session_apply(view_app *a, view_session *s);
/* What the panels keep (hidden rows and rules, ...): before loading, so the
 * shapes are built once, without the hidden rules. */
void session_apply_panels(view_app *a, const view_session *s);
void session_free(view_session *s);
int session_write(const view_app *a, const char *path);

/* ---- prompt (view_prompt.c) ------------------------------------------------------------- */

/* Opens the prompt with `label` and the text `initial` (NULL: empty); keys
 * and text then go to it until Enter or Esc. */
void prompt_open(view_app *a, prompt_kind kind, const char *label, const char *initial);
void prompt_close(view_app *a);
/* A key while the prompt is open: editing, Enter (runs what it asks for; on
 * bad input the prompt stays open and the status line says why) or Esc. */
void prompt_key(view_app *a, SDL_Keycode key, int mods);
void prompt_insert(view_app *a, const char *utf8);
/* Draws the open prompt as a line just above the status line at `status_y`. */
void prompt_draw(view_app *a, int status_y);
/* g (view_goto.c): parses "START END" (or START..END, each maybe with a
 * unit of seconds) and shows that range. Returns 0, or -1 with the reason
 * in the message. */
int goto_range(view_app *a, const char *text);

/* ---- search (view_search.c) ------------------------------------------------------------- */

/* Searches the events for `query` (a substring, or /regex/) and shows the
 * first match at or after the cursor (or the view's start). Returns 0, or -1
 * when the query is bad (the message says why). No match is not an error. */
int search_run(view_app *a, const char *query);
/* n and N: the next (dir > 0) or previous match, wrapping. */
void search_step(view_app *a, int dir);
/* Esc: the highlight goes, the query stays for n and N. */
void search_unhighlight(view_app *a);
/* The highlight: a line at the match's time, its resource's row outlined. */
void search_draw(view_app *a, const tlv_view *v);
void search_free(view_search *s);
/* The row of the highlighted match's resource, or -1 (none, or no row). */
long search_match_row(const view_app *a);

/* ---- marker editing (view_marker_edit.c) ------------------------------------------------- */

/* k, F2 and Enter on the selected marker (recolour, rename), Shift+[ and
 * Shift+] (nudge it a pixel). Returns 1 when `key` was one of them. */
int marker_edit_key(view_app *a, SDL_Keycode key, int mods);
/* The marker whose line or name in the ruler is at (x, y), or -1. */
long marker_hit(view_app *a, double x, double y);
/* Dragging marker `a->markers.selected` (pressed at drag_x when it was at
 * time drag_t0) with the pointer now at x, and letting it go. */
void marker_drag_to(view_app *a, double x);
void marker_drag_end(view_app *a);
/* Enter in the "Rename marker:" prompt: renames marker `target`. Returns 0,
 * or -1 (the name is empty or too long; the message says so). */
int marker_rename(view_app *a, long target, const char *name);
/* "M1 +1.25 ms": the time from the selected marker to the cursor; -1 when
 * there is no selected marker or the cursor is not over the timeline. */
int marker_span_text(const view_app *a, char *buf, size_t size);
/* The time from the selected marker to the cursor, drawn at the cursor in the ruler. */
void marker_span_draw(view_app *a, const tlv_view *v, int ruler_h);

/* ---- range and measurement (view_range.c) ---------------------------------------------- */

/* The exact trace time nearest below t (for the library's queries). */
tlv_time view_exact_time(const view_app *a, double t);
/* Selects [t0, t1] (in either order; an empty one clears it). */
void range_set(view_app *a, double t0, double t1);
/* z: shows the selected range (or says how to select one). */
void range_zoom(view_app *a);
/* Ctrl+click: the first, then the second point; a third starts again. */
void measure_click(view_app *a, double t);
/* Esc: no range, no measurement. */
void range_clear(view_app *a);
/* Both over the timeline, their lengths in the ruler. */
void range_draw(view_app *a, const tlv_view *v, const view_areas *ar);

/* ---- the range's breakdown (view_breakdown.c) ------------------------------------------- */

/* One value of one shown row inside the selected range. */
typedef struct breakdown_line {
    size_t row;                 /* index in the shapes */
    const char *name;           /* the row's key: its resource, else its label */
    const char *label;
    tlv_breakdown_entry e;      /* strings live as long as the shapes */
} breakdown_line;

typedef struct view_breakdown view_breakdown;
view_breakdown *breakdown_new(void);
void breakdown_free(view_breakdown *b);
/* The lines, rows top to bottom and each row's largest total first;
 * computed again when the range, the shapes or the rows shown changed.
 * NULL (count 0) without a range. */
const breakdown_line *breakdown_lines(const view_app *a, size_t *count);
void breakdown_invalidate(view_app *a);
/* dump-state's "range": null, or {t0, t1, length, rows: {ROW: [{value, total,
 * count, min, mean, max, rule, share}]}}. */
void breakdown_dump_json(const view_app *a, struct cJSON *o);
/* The lines as CSV (a header line, then the lines in `order`, indexes into
 * breakdown_lines, or as they are when NULL); NULL when memory ran out. */
char *breakdown_csv(const view_app *a, const size_t *order, size_t n);

/* ---- the range panel (panel_breakdown.c) ------------------------------------------------ */

typedef struct breakdown_panel breakdown_panel;
breakdown_panel *bdp_new(void);
void bdp_free(breakdown_panel *p);
/* Its band's height out of `avail` (0 when hidden or without a range). */
int bdp_height(const view_app *a, int avail);
void bdp_show(view_app *a, int on);
void bdp_draw(view_app *a, const SDL_Rect *r);
/* Input: each returns 1 when it used the event. */
int bdp_key(view_app *a, SDL_Keycode key, int mods);
int bdp_press(view_app *a, const SDL_Rect *r, double x, double y, int button);
int bdp_wheel(view_app *a, const SDL_Rect *r, double x, double y, double notches);
void bdp_dump_json(const view_app *a, const SDL_Rect *r, struct cJSON *o);
void bdp_state_json(const view_app *a, struct cJSON *o);
void bdp_session_read(view_app *a, const struct cJSON *o);

/* ---- bench (view_bench.c) ------------------------------------------------------------- */

/* Pans and zooms along a fixed path, printing frame times. Returns EXIT_OK. */
int view_bench(view_app *a);

/* ---- shared helpers ------------------------------------------------------------------ */

/* A time as readable text with the trace's unit ("1.25 ms"); `step` as for
 * tlv_view_time_text (the spacing that must stay visible, 0: 3 decimals). */
char *view_time_text(const view_app *a, double t, double step, char *buf, size_t size);
/* Shows a short message in the status line until the next one. */
void view_message(view_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Marks the frame for redrawing. */
static inline void view_dirty(view_app *a) { a->dirty = 1; }

#endif
