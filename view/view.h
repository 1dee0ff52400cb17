/*
 * view.h — `tlv view`, the interactive timeline viewer: its core (the view
 * state and its operations) and the interface of its panels. The core knows
 * no panel; each panel is a module that depends on the core only, never on
 * another panel, and is registered with the core (see "panels" below).
 *
 * The core, one concept per file:
 *   view_nav.c      the visible range: zoom, pan, fit, history (no SDL)
 *   view_markers.c  named markers in time order (no SDL)
 *   view_rows.c     which rows are shown: hidden rows and rules, collapsed groups, bands
 *   view_tracks.c   tracks: CPU load (libtlv's tlv_stats) and counters drawn as graphs
 *   view_hover.c    the shape under the cursor
 *   view_core.c     the panels' registry and dispatch; the prompt request; marker moves
 *   view_input.c    mouse and keyboard (SDL's or the script's) into actions
 *   view_draw.c     the frame: timeline and macro view, overlays, status line
 *   view_text.c     UI fonts (fontconfig, SDL_ttf) and cached text textures
 *   view_state.c    the state as JSON: LOG.tlvsession and dump-state
 *   view_load.c     rules, conversion with a progress bar in the window, shapes
 *   view_loader.c   opening a log progressively: read on a thread, shown as it fills in
 *   view_live.c     a log read on while it grows; follow mode; reloading
 *   view_range.c    the selected range and the two-point measurement
 *   view_breakdown.c  what each shown row spent inside the range
 *   view_sizes.c    label column width, row height, ruler time axis; texts drawn (dump-state)
 * The panels (view_panels.h lists their constructors), one file each:
 *   panel_prompt.c  the one-line text prompt above the status line
 *   panel_marker_edit.c  renaming, recolouring, nudging markers; the span to the cursor
 *   panel_goto.c    g: going to an exact range typed in the prompt
 *   panel_search.c  searching the trace's events, n/N, the match's highlight
 *   panel_rows.c    the rows/rules panel (r), group marks and collapsed bands, x
 *   panel_log.c     the trace-log panel (l): standard-form lines following the timeline
 *   panel_tooltip.c the tooltip of the shape under the cursor
 *   panel_breakdown.c  the range panel (b): the breakdown as a sortable table
 *   panel_legend.c  L: the legend of the colours in view
 *   panel_details.c the selected shape and its details panel (i, , and .)
 *   panel_flows.c   flows drawn as arrows over the shapes (o)
 * And around them:
 *   cmd_view.c      options, the main loop, start and end; registers the panels
 *   view_script.c   --script: one command per frame, screenshot, dump-state
 *   view_bench.c    --bench: frame times along a scripted path
 *
 * The timeline itself (labels, ruler, shapes) is drawn by libtlv's
 * tlv_render_rgba into a streaming texture; everything else is drawn on top.
 * Positions are in drawable pixels; SDL's window coordinates (and the
 * script's) are multiplied by the HiDPI ratio on the way in.
 */
#ifndef TLV_VIEW_H
#define TLV_VIEW_H

#include "common/common.h"

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
    unsigned long long load_pause_at; /* --load-pause-at BYTES (tests), 0 when not given */
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
/* Sets the range, kept within the zoom limits and the trace's bounds. */
void nav_set(view_nav *n, double t0, double t1);
/* Where the range may lie: the trace and a small margin past each end. */
void nav_bounds(const view_nav *n, double *lo, double *hi);
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
    char layer[32];             /* its layer, as TLV had them ("": the default one) */
} view_marker;

#define MARKER_LAYERS_HIDDEN 16

typedef struct view_markers {
    view_marker *v;             /* sorted by time */
    size_t n, cap;
    long selected;              /* index, or -1 */
    unsigned next_id;           /* for the next default name "M<id>" */
    char layer[32];             /* the layer new markers go to */
    char hidden[MARKER_LAYERS_HIDDEN][32]; /* layers hidden as a whole */
    int nhidden;
} view_markers;

/* Adds a marker (name NULL: "M1", "M2", ...) and selects it. Returns its
 * index, or -1 when memory ran out. */
long markers_add(view_markers *m, double time, const char *name);
void markers_remove(view_markers *m, size_t i);
/* Whether layer `layer` is shown, and whether marker i is (its layer is). */
int markers_layer_shown(const view_markers *m, const char *layer);
int markers_shown(const view_markers *m, size_t i);
/* Hides a shown layer, shows a hidden one; returns 1 when it is shown now. */
int markers_toggle_layer(view_markers *m, const char *layer);
/* The last shown marker before t - eps, the first after t + eps; -1 when none. */
long markers_prev(const view_markers *m, double t, double eps);
long markers_next(const view_markers *m, double t, double eps);
void markers_clear(view_markers *m);
/* Renames marker i (cut to the name's size at a UTF-8 boundary). */
void markers_rename(view_markers *m, size_t i, const char *name);
/* "LAYER/NAME" (the last '/' splits): renames marker i and moves it to layer
 * LAYER ("/NAME": the default layer), where new markers then go too. */
void markers_rename_in_layer(view_markers *m, size_t i, const char *text);
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
    DRAG_NONE, DRAG_PAN, DRAG_SELECT, DRAG_RANGE, DRAG_MARKER, DRAG_MACRO_MOVE, DRAG_MACRO_LEFT, DRAG_MACRO_RIGHT,
    DRAG_LABEL_EDGE             /* the label column's right edge: its width */
} drag_mode;

/* The shape under the cursor, as the tooltip shows it. */
typedef struct view_hover {
    int valid;
    long row;
    char rule[96], event[96], resource[96], text[160];
    double from, to;
    tlv_time start;             /* exact `from`, for finding its event */
    char start_text[200], end_text[200]; /* exact times, with the unit */
    char value[160];            /* the value or state it draws (tlv_shape_info.value) */
    tlv_time end;               /* exact `to` */
    size_t from_event, to_event;/* the trace events that opened and closed it, or
                                   TLV_NO_EVENT */
    int is_when;                /* an instant: [from, to] is not a duration */
} view_hover;

typedef struct view_app view_app;

/* A request for a line of text (the prompt panel edits and draws it):
 * Enter hands the text to on_enter, which returns 0 (accepted: the prompt
 * closes) or -1 (bad text: it stays open, the status line says why). */
typedef int (*view_prompt_fn)(view_app *a, void *user, const char *text);

typedef struct view_prompt {
    int open;
    const char *label;          /* "Go to:", ... */
    char text[256];             /* UTF-8, NUL-terminated */
    size_t caret;               /* byte offset in text, on a character boundary */
    size_t anchor;              /* the selection is between anchor and caret (none when
                                   equal); typing replaces it */
    view_prompt_fn on_enter;
    void *user;                 /* for on_enter */
} view_prompt;

#define VIEW_MAX_PANELS 32

/* Screen areas in pixels. */
typedef struct view_areas {
    SDL_Rect main, macro, status;
    SDL_Rect strip[VIEW_MAX_PANELS]; /* by panel index: its strip between main and
                                        macro, in registration order (h 0: none) */
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

/* ---- rows shown: the model (view_rows.c) ---------------------------------------------------- */

/* Names kept by the rows model (resources, groups, rules). */
typedef struct name_set {
    char **v;
    size_t n, cap;
} name_set;

int set_has(const name_set *s, const char *name);
void set_add(name_set *s, const char *name);
void set_remove(name_set *s, const char *name);
/* Adds or removes; returns 1 when the name is in the set afterwards. */
int set_toggle(name_set *s, const char *name);
void set_free(name_set *s);

/* A run of consecutive rows with the same group name. */
typedef struct view_group {
    const char *name;         /* "" for a row of no group; lives as long as the shapes */
    size_t first, count;      /* rows [first, first + count) */
    size_t shown;             /* of those, not hidden */
    int collapsible;          /* has a name of its own (not a lone rule row's label) */
} view_group;

/* Which rows the timeline shows: rows hidden one by one, groups collapsed
 * into one band, rules hidden (left out of the shapes). Kept by name. */
typedef struct view_rows {
    name_set hidden_rows, hidden_rules, collapsed;
    name_set order;           /* row keys in the order the user put them (rows panel ▲▼;
                                 a row moves within its group) */
    size_t *perm;             /* perm[i]: the row shown i-th (groups keep their places) */
    size_t perm_cap;
    view_group *groups;
    size_t ngroups, groups_cap;
    size_t *bands;            /* row indexes or TLV_VIEW_ROW_BLANK (a collapsed group) */
    size_t *band_group;       /* each band's group */
    long *band_track;         /* each band's track (a->tracks.v index), or -1 */
    size_t nbands, bands_cap, band_group_cap, band_track_cap;
    int built;                /* bands are those of a->shapes */
} view_rows;

/* ---- tracks: rows drawn as graphs (view_tracks.c) ------------------------------------------- */

typedef enum track_kind { TRACK_LOAD, TRACK_COUNTER } track_kind;

/* A track: the busy share of a processor (or of all, the whole system)
 * computed by libtlv as `tlv stats` does, or a counter attribute's value. */
typedef struct view_track {
    track_kind kind;
    char name[160];           /* "CPU 1 load", "CPU load", "T123 heap": the key it is kept by */
    char label[160];          /* what it is called on the screen: a counter's resource as
                                 its row is labelled ("heap[4092] inuse"), else the name */
    size_t index;             /* LOAD: tlv_stats cpu or TLV_STATS_ALL_CPUS; COUNTER: counter */
    double min, max;          /* the range drawn (load: 0 and 1) */
    int offered;              /* COUNTER: an attribute whose values are all numbers but
                                 that the rule set does not declare a counter: listed in
                                 the rows panel, shown only when checked there */
} view_track;

/* Tracks shown above the rows: load tracks in per-CPU mode while `load_on`
 * (key u, on at first), declared counter tracks always, offered ones when
 * checked; any of them hidden by name, in the order of `order` (names;
 * tracks not named come after, in the order made). */
typedef struct view_tracks {
    tlv_stats *stats;
    tlv_counters *counters;
    const tlv_trace *of;      /* the trace they were computed for, */
    size_t of_events;         /* with this many events */
    view_track *v;
    size_t n, cap;
    name_set hidden, order;
    name_set offered_shown;   /* offered tracks checked in the rows panel */
    int load_on;
} view_tracks;

/* Recomputes the tracks when the trace changed; puts them in order. */
void tracks_refresh(view_app *a);
void tracks_free(view_tracks *t);
/* Whether track i is shown (a band above the rows); whether its check box
 * in the rows panel is checked (the load tracks' also while u has them off). */
int tracks_shown(const view_app *a, size_t i);
int tracks_checked(const view_app *a, size_t i);
/* Moves track i one place up (dir < 0) or down; hides or shows it. */
void tracks_move(view_app *a, size_t i, int dir);
void tracks_toggle(view_app *a, size_t i);
/* The value of track i over [t0, t1] split into ncols columns (load: the
 * busy share 0..1; counter: the value at each column's end, NAN before the
 * first sample), and the extremes within each column (NULL: not wanted). */
void tracks_values(const view_app *a, size_t i, double t0, double t1, double *out, double *lo,
                   double *hi, size_t ncols);

struct view_panel;

struct view_app {
    view_opts opts;
    const char *session_path;   /* NULL: no session file */
    /* the trace */
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    unsigned shapes_gen;        /* counts rebuilds, so textures know they are stale */
    long rebuild_frames;        /* frames drawn (old view, moving bar) during the last rebuild */
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
    size_t ren_diags_seen;      /* the timeline renderer's warnings shown (fonts) */
    SDL_Texture *tl_tex, *macro_tex;
    int tex_w, tex_h, macro_w, macro_h;
    tlv_view tl_drawn, macro_drawn;   /* what the textures hold */
    unsigned tl_gen, macro_gen;
    double last_render_ms;
    /* navigation and marks */
    view_nav nav;
    view_markers markers;
    view_prompt prompt;
    view_rows rows;
    view_tracks tracks;
    int flows_shown;            /* the flows' arrows (panel_flows.c, key o) */
    int has_sel;
    double sel0, sel1;
    int has_range;              /* the range selected with Ctrl+drag (view_range.c) */
    double range0, range1;      /* range0 < range1 */
    unsigned range_gen;         /* counts changes, so its breakdown knows when it is stale */
    int measure_n;              /* points of the two-point measurement (0..2) */
    double measure[2];
    struct view_breakdown *breakdown; /* of the range (view_breakdown.c) */
    double jump_time;           /* the last jump (view_jumped) */
    long jump_event;
    /* pointer */
    double mx, my;              /* pixels */
    int mouse_in;
    drag_mode drag;
    int drag_button, drag_moved;
    int drag_recorded;          /* the history already has this drag's step */
    double drag_x, drag_y;      /* where the press was (macro view: drag_x is its time) */
    double drag_t0, drag_t1;    /* the visible range at the press */
    view_hover hover;
    /* sizes the user chose (view_sizes.c), at scale 1; 0: automatic */
    int label_w_user, row_h_user;
    int time_axis;              /* the ruler reads: 0 absolute, 1 from the trace's start,
                                   2 from the selected marker (view_sizes.c) */
    struct {                    /* what the timeline's renderer was last told */
        int relative;
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
    long focus_event;           /* the trace event the last jump went to, or -1 */
    /* panels, in registration order (view_add_panel) */
    struct view_panel *panels[VIEW_MAX_PANELS];
    size_t npanels;
    unmatched_log unmatched;    /* lines no rule matched (unmatched.c) */
    /* opening the log progressively (view_loader.c) */
    struct view_loader *loader; /* NULL once the log is read and shown */
    struct view_session *pending_session; /* applied when the log is loaded */
    struct {                    /* seconds from now_seconds(), 0 until it happened */
        double start, first_frame, loaded;
        double convert_s, final_build_s;   /* converting alone; the last shape build */
    } times;
};

/* ---- loading (view_load.c) ------------------------------------------------------ */
/* Notes n bytes p read from `in` (pushed into the trace by the caller):
 * the offset, whether a line is open, the first and last bytes kept. */
void view_input_took(view_input *in, const char *p, size_t n);
/* Notes that the first `bytes` of the file were taken from the trace cache
 * (tlv_trace_resume_cached), not read: reading goes on from there, and the
 * first and last bytes are what view_input_took would have kept. Returns 0,
 * or -1 when the file cannot be read there. */
int view_input_skip(view_input *in, unsigned long long bytes);

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
/* Lines of text in a framed box of `bg` near (x, y), kept inside the window. */
void view_text_box(view_app *a, const char *const *lines, int n, int x, int y, uint32_t bg);

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
view_script *script_load(const char *path, const char *input);
void script_free(view_script *s);
/* Runs the next command. Returns 1 to go on, 0 at the end, -1 on an error
 * (printed with the script's file and line). */
int script_step(view_app *a);

/* ---- rows shown: operations (view_rows.c) ------------------------------------------------ */

struct cJSON;

void rows_free(view_rows *r);
/* Recomputes the bands (the rows drawn, a collapsed group as one blank band)
 * from the shapes and what is hidden; call after the shapes change. */
void rows_refresh(view_app *a);
/* The bands for tlv_view.rows (NULL: every row), and their number. */
const size_t *rows_list(const view_app *a, size_t *count);
size_t rows_band_count(const view_app *a);
/* The hidden rules, for tlv_shapes_options.skip_rules. */
void rows_skip_rules(const view_app *a, const char *const **names, size_t *count);
/* The name a row is kept by: its resource, else its label; and its label. */
const char *rows_key(const tlv_shapes *s, size_t row);
const char *rows_label(const tlv_shapes *s, size_t row);
int rows_is_collapsed(const view_rows *r, const view_group *g);
/* After a change of what is hidden or collapsed: new bands, textures
 * redrawn, the scroll position kept in range. */
void rows_changed(view_app *a);
/* Collapses or expands group k; hides or shows every row of group k (all
 * shown when any was hidden); hides or shows a rule (rebuilding the shapes). */
void rows_toggle_group(view_app *a, size_t k);
void rows_toggle_group_rows(view_app *a, size_t k);
void rows_toggle_rule(view_app *a, const char *name);
/* The row at place `pos` in the user's order (groups[k] spans places
 * [first, first + count)); moves row `row` one place up (dir < 0) or down
 * within its group. */
size_t rows_at(const view_rows *r, size_t pos);
void rows_move(view_app *a, size_t row, int dir);
/* JSON: what the session keeps (into o), what dump-state adds, reading it back. */
void rows_state_json(const view_app *a, struct cJSON *o);
void rows_dump_json(const view_app *a, struct cJSON *o);
void rows_session_read(view_app *a, const struct cJSON *o);

/* ---- state as JSON (view_state.c) ------------------------------------------------------- */

/* Writes the full state (dump-state) to path. Returns 0 or -1 (printed). */
int state_dump(const view_app *a, const char *path);
/* The session: read before the window opens (size), applied after loading
 * (range, rows, markers, per-CPU), written on exit. Read leniently
 * (session_read.c): what can be used is, every part that cannot is a
 * problem, reported once (session_report) and the file kept as PATH.bak. */
#define SESSION_VERSION 1
#define SESSION_MAX_MARKERS 100000 /* more than a person places; the rest reported */
#define SESSION_PROBLEMS_KEPT 8    /* problems kept in full; the rest counted */
typedef struct view_session {
    int loaded;
    int has_range;
    double t0, t1;
    int first_row, per_cpu, width, height;
    int label_w, row_h;         /* the user's label column and row height, 0: automatic */
    view_markers markers;
    struct cJSON *doc;          /* the file, for the panels' parts */
    const char *path;
    int newer;                  /* written by a newer tlv */
    int keep_backup;            /* the file held more than was read (any problem):
                                   session_write keeps it as PATH.bak first */
    int nproblems;              /* problems met, the first SESSION_PROBLEMS_KEPT kept */
    char problems[SESSION_PROBLEMS_KEPT][320];
} view_session;
/* Returns 0 (read or absent: s->loaded says which) or -1 (unusable: a
 * problem noted). Nothing is printed: session_apply reports. */
int session_read(const char *path, view_session *s);
/* The same from text[0..len); s must be zeroed but for markers.selected = -1. */
int session_parse(const char *text, size_t len, view_session *s);
/* Notes the parts of s->doc read by no one: keys missing from `mine` (the
 * session as this tlv writes it) and values of another type than there. */
void session_check_parts(view_session *s, const struct cJSON *mine);
/* Notes a problem (printf format) and that the file must be kept. */
void session_problem(view_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Applies what was read (also when nothing could be) and reports its
 * problems once: on stderr and in the status line. */
void session_apply(view_app *a, view_session *s);
/* What the panels keep (hidden rows and rules, ...): before loading, so the
 * shapes are built once, without the hidden rules. */
void session_apply_panels(view_app *a, const view_session *s);
void session_free(view_session *s);
int session_write(const view_app *a, const char *path);
/* Before writing over a session file read only in part (s->keep_backup):
 * renames it to PATH.bak, so that no information is lost. */
void session_keep_backup(const view_session *s, const char *path);

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
/* dump-state's "range": null, or {t0, t1, length, rows: {ROW: [{value, total,
 * count, min, mean, max, rule, share}]}}. */
void breakdown_dump_json(const view_app *a, struct cJSON *o);
/* The lines as CSV (a header line, then the lines in `order`, indexes into
 * breakdown_lines, or as they are when NULL); NULL when memory ran out. */
char *breakdown_csv(const view_app *a, const size_t *order, size_t n);

/* ---- bench (view_bench.c) ------------------------------------------------------------- */

/* Pans and zooms along a fixed path, printing frame times. Returns EXIT_OK. */
int view_bench(view_app *a);
/* A tlv_memory_fn adding up, into the size_t `user` points to, the bytes of
 * the parts kept in files mapped into memory (TLV_MEMORY_FILE_BACKED). */
void memory_add_file_backed(void *user, const char *part, size_t bytes);

/* ---- shared helpers ------------------------------------------------------------------ */

/* A time as readable text with the trace's unit ("1.25 ms"); `step` as for
 * tlv_view_time_text (the spacing that must stay visible, 0: 3 decimals). */
char *view_time_text(const view_app *a, double t, double step, char *buf, size_t size);
/* Shows a short message in the status line until the next one. */
void view_message(view_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Makes room for `need` elements of `size` bytes in *p (capacity *cap,
 * doubled as needed). Returns 0, or -1 when memory ran out (*p unchanged). */
int view_grow(void **p, size_t *cap, size_t need, size_t size);
/* Marks the frame for redrawing. */
static inline void view_dirty(view_app *a) { a->dirty = 1; }

/* ---- the core's operations for panels (view_core.c) --------------------------------------- */

/* Opens the prompt with `label` and the text `initial` (NULL: empty); keys
 * and text then go to the prompt panel until Enter (on_enter) or Esc. */
void view_prompt_open(view_app *a, const char *label, const char *initial,
                      view_prompt_fn on_enter, void *user);
void view_prompt_close(view_app *a);
/* Where row `row` of the shapes is drawn in view v: the top y and height of
 * its band (pixels); 0 when it has no band (hidden, collapsed), else 1 (the
 * band may be scrolled out of sight). O(bands). */
int view_row_band(const view_app *a, const tlv_view *v, size_t row, double *y, double *h);
/* Scrolls the rows so that row `row` of the shapes is wholly in sight,
 * centring its band when it was not (nothing moves when it is); 0 when it
 * has no band (hidden, or in a collapsed group), else 1. */
int view_reveal_row(view_app *a, size_t row);
/* The row of the shapes where `resource` is drawn at time t: its row, or in
 * per-CPU mode, where a task that migrated has a row under each processor it
 * was on, the one under the processor it was on at t (its CPU attribute then,
 * a change at t included). -1 when it has no row. */
long view_resource_row(const view_app *a, const char *resource, tlv_time t);
/* Scrolls the rows so that the row where trace event i is drawn (its
 * resource's, by view_resource_row) is in sight; 0 when it has none shown. */
int view_reveal_event_row(view_app *a, size_t i);
/* Centres the timeline on trace event i, makes it a->focus_event and tells
 * the panels (the trace-log panel scrolls to it). */
void view_show_event(view_app *a, size_t i);
/* The selected marker, or NULL. */
const view_marker *view_selected_marker(const view_app *a);
/* After the selected marker moved: says where to in the status line. */
void view_marker_moved(view_app *a);
/* After a jump (a search's match, n/N, g, a marker, a line of a list):
 * records where to — time t, and the event's index in the trace or -1 —
 * for the panels that follow (the trace log highlights its line), and
 * notes VIEW_NOTE_JUMP. */
void view_jumped(view_app *a, double t, long event);

/* ---- panels --------------------------------------------------------------------------------
 *
 * A panel is a module of the viewer with its own state, drawn over or beside
 * the timeline, that reacts to input and keeps its part of the session. It
 * includes only view.h (and view_panels.h, for its constructor's declaration):
 * it uses the core (view_app, nav_*, markers_*, rows_*, view_*), never another
 * panel, and exports only its constructor. The core calls its hooks; every
 * hook may be NULL. A hook that handles input returns 1 when it used the
 * event (then no one else sees it), 0 to leave it to the next panel and then
 * the core.
 * Panels see input in registration order (cmd_view.c), before the core.
 *
 * To add a panel: write panel_NAME.c with a struct that begins with a
 * view_panel, its hooks, and a constructor; declare the constructor in
 * view_panels.h and register it in cmd_view.c. For example:
 *
 *     typedef struct clock_panel {
 *         view_panel base;            // first: the hooks get &base
 *         int shown;
 *     } clock_panel;
 *
 *     static int clock_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
 *     {
 *         clock_panel *c = (clock_panel *)p;
 *         if (key != SDLK_t || mods)
 *             return 0;
 *         c->shown = !c->shown;
 *         view_dirty(a);
 *         return 1;
 *     }
 *
 *     static void clock_draw(view_panel *p, view_app *a, view_layer layer,
 *                            const tlv_view *v, const view_areas *ar)
 *     {
 *         if (layer == VIEW_LAYER_PANEL && ((clock_panel *)p)->shown)
 *             view_label(a, "12:00", ar->label_w, ar->ruler_h, 0, 0xFFFFFF, 255);
 *     }
 *
 *     static void clock_save(view_panel *p, const view_app *a, struct cJSON *o)
 *     {
 *         cJSON_AddBoolToObject(o, "clock_panel", ((clock_panel *)p)->shown);
 *     }
 *
 *     view_panel *clock_panel_new(void)
 *     {
 *         clock_panel *c = calloc(1, sizeof *c);
 *         if (c)
 *             c->base = (view_panel){.name = "clock", .key = clock_key,
 *                                    .draw = clock_draw, .save = clock_save};
 *         return c ? &c->base : NULL;   // the core free()s it (or calls destroy)
 *     }
 *
 * A panel that needs a band of its own between the timeline and the overview
 * gives strip_height; its area is then view_panel_area(ar, p). dump-state
 * keys a panel adds must be new ones.
 */

/* When, in drawing a frame, a panel's draw hook is called (once per layer,
 * in this order; the core draws its own parts in between). */
typedef enum view_layer {
    VIEW_LAYER_BANDS,     /* over the timeline, under the selection (collapsed groups) */
    VIEW_LAYER_TIMELINE,  /* over the selection, under the markers (the search's highlight) */
    VIEW_LAYER_RULER,     /* over the markers, under the cursor line (marker to cursor) */
    VIEW_LAYER_PANEL,     /* after the overview: strips and side panels */
    VIEW_LAYER_STATUS,    /* after the status line (the prompt just above it) */
    VIEW_LAYER_POPUP,     /* after the load problems' banner, under the help (the tooltip) */
    VIEW_LAYER_COUNT
} view_layer;

/* What happened, for panels that follow the view. */
typedef enum view_note {
    VIEW_NOTE_POINTER,    /* the pointer moved (a->mx, a->my) */
    VIEW_NOTE_OPEN_SHAPE, /* the timeline was double-clicked; a->hover is the shape
                             there (the view is about to centre on it) */
    VIEW_NOTE_TRACE_CHANGED, /* the trace grew or was reloaded: event indexes are new */
    VIEW_NOTE_JUMP,       /* the view jumped to a->jump_time, an event's when
                             a->jump_event >= 0 (view_jumped) */
    VIEW_NOTE_CLICK,      /* the timeline was clicked in place (no drag, no marker
                             there); a->hover is the shape there, or not valid */
    VIEW_NOTE_EVENT,      /* the view jumped to trace event a->focus_event */
    VIEW_NOTE_RELEASE,    /* a mouse button was let go (ends a panel's own drag) */
    VIEW_NOTE_SHAPES,     /* the shapes were rebuilt (per-CPU, a rule hidden) */
} view_note;

typedef struct view_panel view_panel;
struct view_panel {
    const char *name;
    int index;            /* set by view_add_panel: its place in a->panels */
    /* Draws its part of the frame at `layer`; v is the main view. */
    void (*draw)(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar);
    /* A key (VIEW_MOD_* mods) or typed text (UTF-8). */
    int (*key)(view_panel *p, view_app *a, SDL_Keycode key, int mods);
    int (*text)(view_panel *p, view_app *a, const char *utf8);
    /* A mouse button pressed at (x, y) pixels (clicks: 2 for a double click). */
    int (*press)(view_panel *p, view_app *a, double x, double y, int button, int clicks);
    /* Wheel notches at (x, y); positive is away from the user. */
    int (*wheel)(view_panel *p, view_app *a, double x, double y, double notches);
    /* Whether it covers (x, y) of the main view (the timeline is not under the pointer then). */
    int (*covers)(view_panel *p, const view_app *a, double x, double y);
    /* The height of its strip out of `avail` pixels, 0 when it has none. */
    int (*strip_height)(view_panel *p, const view_app *a, int avail);
    void (*note)(view_panel *p, view_app *a, view_note what);
    /* Its part of the session file (written, read back), and of dump-state. */
    void (*save)(view_panel *p, const view_app *a, struct cJSON *o);
    void (*load)(view_panel *p, view_app *a, const struct cJSON *o);
    void (*dump)(view_panel *p, const view_app *a, struct cJSON *o);
    /* Frees it (NULL: free(p)). */
    void (*destroy)(view_panel *p);
};

/* Registers p. Returns 0, or -1 when p is NULL (its constructor ran out of
 * memory) or there are too many (p is destroyed). */
int view_add_panel(view_app *a, view_panel *p);
void view_free_panels(view_app *a);
/* p's strip (see strip_height). */
const SDL_Rect *view_panel_area(const view_areas *ar, const view_panel *p);

/* Dispatch to the panels, in registration order (the core's side of the hooks). */
void view_panels_draw(view_app *a, view_layer layer, const tlv_view *v, const view_areas *ar);
int view_panels_key(view_app *a, SDL_Keycode key, int mods);
int view_panels_text(view_app *a, const char *utf8);
int view_panels_press(view_app *a, double x, double y, int button, int clicks);
int view_panels_wheel(view_app *a, double x, double y, double notches);
int view_panels_cover(const view_app *a, double x, double y);
void view_panels_note(view_app *a, view_note what);
void view_panels_save(const view_app *a, struct cJSON *o);
void view_panels_load(view_app *a, const struct cJSON *o);
void view_panels_dump(const view_app *a, struct cJSON *o);

#endif
