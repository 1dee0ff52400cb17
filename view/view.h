/*
 * view.h — `tlv view`, the interactive timeline viewer: the panel API, what
 * a panel may read and call. The core's private state (the window, the
 * textures, the loader, the live log, the drag in progress, timings) is in
 * view/core.h, which only the core's files (the files of view/) include; a panel
 * (the files of view/panels/) includes this header alone (and view_panels.h, for its
 * constructor's declaration), and scripts/check_layers.sh refuses any other.
 *
 * Here: the options; the view's models a panel reads and changes through
 * their functions (navigation, markers, rows shown, tracks, the selected
 * range and its breakdown); the fields of view_app a panel reads; the
 * drawing helpers; the core's operations for panels (the prompt, jumps, the
 * rows' places); and the panel interface itself, with its key table, at the
 * end (see "panels" there, with how to add one).
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

struct cJSON;

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
    const char *requirements_path; /* --requirements FILE, or NULL */
    tlv_requirements *requirements; /* and what it says, read by the command line */
    const char *compare_path;   /* --compare B: a second run, or NULL */
    tlv_rules *compare_rules;   /* and its rules and trace, loaded by the command line */
    tlv_trace *compare_trace;   /*   (the compare and diff panels read them) */
    const char *align_at;       /* --align-at EVENT, or NULL: B aligned at the starts */
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

/* Draws text with its top-left at (x, y); returns its width (0 if none). */
int view_text_draw(view_text *t, const char *s, int x, int y, uint32_t rgb);
int view_text_width(view_text *t, const char *s);
int view_text_height(const view_text *t);

/* ---- what the view shows --------------------------------------------------------- */

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
typedef struct view_panel view_panel;

#define VIEW_MAX_PANELS 32

/* Screen areas in pixels. */
typedef struct view_areas {
    SDL_Rect main, macro, status;
    SDL_Rect strip[VIEW_MAX_PANELS]; /* by panel index: its strip between main and
                                        macro, in registration order (h 0: none) */
    int label_w, ruler_h;       /* of the main view */
    int row_height;             /* tlv_view.row_height of the main view (0 = fit) */
} view_areas;

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

/* ---- the viewer -------------------------------------------------------------------------------- */

/* What a panel reads of the viewer. A panel changes the models (nav,
 * markers, rows, tracks) through their functions or, for the plain fields
 * (nav.first_row, markers.selected, tracks.load_on), directly; everything
 * else it leaves to the core. The core's own state is a->core (core.h). */
struct view_app {
    view_opts opts;
    /* the trace */
    tlv_trace *trace;
    tlv_shapes *shapes;
    unsigned shapes_gen;        /* counts rebuilds, so textures know they are stale */
    int per_cpu;
    int radix;
    const char *time_scale;
    /* the window */
    SDL_Renderer *ren;
    view_text *text;            /* UI text at the window's scale */
    int win_w, win_h;           /* window coordinates */
    int px_w, px_h;             /* drawable pixels */
    float scale;                /* HiDPI ratio times --scale */
    /* the models */
    view_nav nav;
    view_markers markers;
    view_rows rows;
    view_tracks tracks;
    int has_range;              /* the range selected with Ctrl+drag (view_range.c) */
    double range0, range1;      /* range0 < range1 */
    unsigned range_gen;         /* counts changes, so its breakdown knows when it is stale */
    double jump_time;           /* the last jump (view_jumped) */
    long jump_event;
    long focus_event;           /* the trace event the last jump went to, or -1 */
    /* pointer */
    double mx, my;              /* pixels */
    int mouse_in;
    drag_mode drag;             /* what the pressed button is dragging */
    view_hover hover;
    struct view_core *core;     /* the core's private state (core.h) */
};

/* ---- range and breakdown (view_range.c, view_breakdown.c) ------------------------------------- */

/* The exact trace time nearest below t (for the library's queries). */
tlv_time view_exact_time(const view_app *a, double t);
/* Selects [t0, t1] (in either order; an empty one clears it). */
void range_set(view_app *a, double t0, double t1);

/* One value of one shown row inside the selected range. */
typedef struct breakdown_line {
    size_t row;                 /* index in the shapes */
    const char *name;           /* the row's key: its resource, else its label */
    const char *label;
    tlv_breakdown_entry e;      /* strings live as long as the shapes */
} breakdown_line;

/* The lines, rows top to bottom and each row's largest total first;
 * computed again when the range, the shapes or the rows shown changed.
 * NULL (count 0) without a range. */
const breakdown_line *breakdown_lines(const view_app *a, size_t *count);
/* The lines as CSV (a header line, then the lines in `order`, indexes into
 * breakdown_lines, or as they are when NULL); NULL when memory ran out. */
char *breakdown_csv(const view_app *a, const size_t *order, size_t n);

/* ---- the frame (view_draw.c) ------------------------------------------------------ */

void view_areas_of(const view_app *a, view_areas *out);
/* The tlv_view of the main timeline. */
void view_main_view(const view_app *a, tlv_view *out);
/* The largest first_row that still fills the timeline. */
int view_max_first_row(const view_app *a);
/* For overlays: a filled rectangle (alpha < 255 blends), and a text on a
 * box of `bg` with its top-left at (x, y), whose width it returns. */
void view_fill(view_app *a, int x, int y, int w, int h, uint32_t rgb, int alpha);
int view_label(view_app *a, const char *s, int x, int y, uint32_t fg, uint32_t bg, int alpha);
/* Lines of text in a framed box of `bg` near (x, y), kept inside the window. */
void view_text_box(view_app *a, const char *const *lines, int n, int x, int y, uint32_t bg);

/* ---- input (view_input.c, view_hover.c) -------------------------------------------------------- */

enum { VIEW_MOD_SHIFT = 1, VIEW_MOD_CTRL = 2 };

/* The time under x in the main view. */
double input_time_at(const view_app *a, double x);
/* Whether (x, y) is over the timeline's shapes (no panel covering it). */
int input_over_timeline(const view_app *a, double x, double y);
/* Finds the shape under (x, y) of the main view into a->hover. */
void view_hover_update(view_app *a);

/* ---- shared helpers ------------------------------------------------------------------ */

/* A time as readable text with the trace's unit ("1.25 ms"); `step` as for
 * tlv_view_time_text (the spacing that must stay visible, 0: 3 decimals). */
char *view_time_text(const view_app *a, double t, double step, char *buf, size_t size);
/* ---- times as the window shows them (view_times.c) ------------------------------------ */

/* Whether the trace's times are those of a clock or of the wall clock
 * (tlv_shapes_time_mode CLOCK or WALL), read from its start by default. */
int view_clock_trace(const view_app *a);
/* The ruler's time axis: 0 absolute, 1 from the trace's start, 2 from the
 * selected marker; the user's choice (t) or, before one, the trace's: 1
 * for a clock trace, 0 otherwise. */
int view_time_axis(const view_app *a);
/* Whether times are shown from the trace's start: a clock trace, not on
 * the absolute axis. */
int view_times_from_start(const view_app *a);
/* What times are shown from: the trace's origin (view_times_from_start),
 * else 0. */
double view_time_origin(const view_app *a);
/* A time (not a duration) as the ruler reads it ("123.5 ms" from the start
 * of a clock trace); `step` as for view_time_text. */
char *view_time_at_text(const view_app *a, double t, double step, char *buf, size_t size);
/* A time exactly, with its unit: from the start ("123.456789 ms") or as the
 * log wrote it ("1926099 us"). */
void view_exact_text(const view_app *a, tlv_time t, char *buf, size_t size);
/* A time as an absolute date and time for a wall-clock trace ("2026-11-25
 * 13:56:28.020504 UTC"), else as the clock read it ("1770.951259 s"). */
void view_absolute_time(const view_app *a, tlv_time t, char *buf, size_t size);
/* For a clock trace, time t the other way than view_exact_text shows it:
 * absolute (view_absolute_time) when times are shown from the start, from
 * the start ("186.647 ms") on the absolute axis; returns what to call it
 * ("at", "from start"). NULL (buf "") for a plain trace. */
const char *view_other_time(const view_app *a, tlv_time t, char *buf, size_t size);
/* "start 2026-11-25 13:56:27.897048 UTC" for a clock trace with events, ""
 * otherwise: the status line's and details panel's one absolute time. */
void view_start_text(const view_app *a, char *buf, size_t size);
/* Event e's standard-form line, its time shown as view_exact_text does
 * ("[123.456 ms]T1.state=RUN" from the start). Returns the full length, as
 * tlv_event_format. */
size_t view_event_text(const view_app *a, const tlv_event *e, char *buf, size_t size);

/* Shows a short message in the status line until the next one; clears it. */
void view_message(view_app *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void view_message_clear(view_app *a);
/* Makes room for `need` elements of `size` bytes in *p (capacity *cap,
 * doubled as needed). Returns 0, or -1 when memory ran out (*p unchanged). */
int view_grow(void **p, size_t *cap, size_t need, size_t size);
/* Marks the frame for redrawing. */
void view_dirty(view_app *a);

/* ---- the core's operations for panels (view_core.c) --------------------------------------- */

/* A request for a line of text: Enter hands the text to on_enter, which
 * returns 0 (accepted: the prompt closes) or -1 (bad text: it stays open,
 * the status line says why). */
typedef int (*view_prompt_fn)(view_app *a, void *user, const char *text);
/* Opens the prompt with `label` and the text `initial` (NULL: empty): the
 * panel that offers one (its `prompt` hook) takes the keyboard until Enter
 * (on_enter) or Esc. */
void view_prompt_open(view_app *a, const char *label, const char *initial,
                      view_prompt_fn on_enter, void *user);
/* Panel p takes every key and typed text (its grabbed_key and grabbed_text
 * hooks), and mouse presses are ignored, until it lets go; whether one holds it. */
void view_grab_keys(view_app *a, view_panel *p);
void view_release_keys(view_app *a, view_panel *p);
int view_keys_grabbed(const view_app *a);
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
/* Line `line` (1-based, tlv_event.input_line) of the log as it was
 * written, without its line end, into buf (cut to size): 0, or -1 when it
 * cannot be read again (standard input, a pipe, a file replaced or cut
 * since). view_logline.c. */
int view_log_line(const view_app *a, unsigned long long line, char *buf, size_t size);
/* Selects, as a click on it would, the shape of row `row` of the shapes
 * that begins at exact time t (else the shortest one that spans t): a->hover
 * becomes that shape and the panels hear VIEW_NOTE_CLICK (the details panel
 * selects it). 0 when the row has no shape there. */
int view_select_shape(view_app *a, size_t row, tlv_time t);
/* The trace's instances (tlv/instances.h): computed when first asked for
 * and again after the trace changed; NULL while the log loads (or when
 * memory ran out, said in the status line). */
const tlv_instances *view_instances(view_app *a);
/* The instance of `kind` of `resource` that covers time t (the last begun
 * at or before it that has not ended), its index in view_instances; -1
 * when none does. */
long view_instance_at(view_app *a, const char *resource, const char *kind, tlv_time t);
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
 * it uses the core through this API, never another panel, and exports only
 * its constructor. The core calls its hooks; every hook may be NULL. A hook
 * that handles mouse input returns 1 when it used the event (then no one
 * else sees it), 0 to leave it to the next panel and then the core. Panels
 * see mouse input in registration order (view_panels.h), before the core.
 *
 * Keys are a table: each row a key, the modifier combinations it takes, its
 * line of the F1 help and what it runs. The F1 help is built from the
 * core's table and the panels' tables; a key and modifiers claimed by two
 * rows (of the core or any panel) stops the viewer at start-up with a
 * message naming both. Esc belongs to the core, which clears its selection
 * and then notes VIEW_NOTE_ESCAPE to every panel.
 *
 * To add a panel: write view/panels/panel_NAME.c with a struct that begins
 * with a view_panel, its hooks, its keys and a constructor NAME_panel_new,
 * and add the row X(NAME) to VIEW_PANELS in view_panels.h. For example
 * (tests/e2e/test_layers.sh compiles it as a panel of its own):
 *
 * BEGIN EXAMPLE
 *     #include "view/view.h"
 *     #include "view/view_panels.h"
 *
 *     #include <cjson/cJSON.h>
 *     #include <stdlib.h>
 *
 *     typedef struct clock_panel {
 *         view_panel base;            // first: the hooks get &base
 *         int shown;
 *     } clock_panel;
 *
 *     static void toggle(view_panel *p, view_app *a, SDL_Keycode key, int mods)
 *     {
 *         (void)key, (void)mods;
 *         clock_panel *c = (clock_panel *)p;
 *         c->shown = !c->shown;
 *         view_dirty(a);
 *     }
 *
 *     static const view_key keys[] = {
 *         {SDLK_F3, VIEW_KEYS_PLAIN, "F3: the clock", toggle},
 *     };
 *
 *     static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
 *                      const view_areas *ar)
 *     {
 *         (void)v;
 *         if (layer == VIEW_LAYER_PANEL && ((clock_panel *)p)->shown)
 *             view_label(a, "12:00", ar->label_w, ar->ruler_h, 0, 0xFFFFFF, 255);
 *     }
 *
 *     static void save(view_panel *p, const view_app *a, struct cJSON *o)
 *     {
 *         (void)a;
 *         cJSON_AddBoolToObject(o, "clock_panel", ((clock_panel *)p)->shown);
 *     }
 *
 *     view_panel *clock_panel_new(void)
 *     {
 *         clock_panel *c = calloc(1, sizeof *c);
 *         if (c)
 *             c->base = (view_panel){.name = "clock", .keys = keys, .nkeys = 1,
 *                                    .draw = draw, .save = save};
 *         return c ? &c->base : NULL;   // the core free()s it (or calls destroy)
 *     }
 * END EXAMPLE
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
    VIEW_NOTE_ESCAPE,     /* Esc: the core cleared its selection; clear yours */
} view_note;

/* The modifier combinations a key row takes: a set of bits 1 << mods. */
#define VIEW_KEYS_PLAIN (1u << 0)
#define VIEW_KEYS_SHIFT (1u << VIEW_MOD_SHIFT)
#define VIEW_KEYS_CTRL (1u << VIEW_MOD_CTRL)
#define VIEW_KEYS_CTRL_SHIFT (1u << (VIEW_MOD_CTRL | VIEW_MOD_SHIFT))
#define VIEW_KEYS_ANY 0xFu

/* One row of a key table. A row with key 0 only adds its help (a mouse
 * gesture); a row with help NULL is said by another row's help ("Left/Right"
 * covers Right). */
typedef struct view_key {
    SDL_Keycode key;
    unsigned mods;              /* VIEW_KEYS_* */
    const char *help;           /* its line of the F1 help: "o: flow arrows" */
    /* Runs it: p is the panel the table is of (NULL for the core's). */
    void (*run)(view_panel *p, view_app *a, SDL_Keycode key, int mods);
} view_key;

struct view_panel {
    const char *name;
    int index;            /* set by view_add_panel: its place in the registry */
    const view_key *keys; /* its key table, nkeys rows */
    size_t nkeys;
    /* Draws its part of the frame at `layer`; v is the main view. */
    void (*draw)(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar);
    /* While it holds the keyboard (view_grab_keys): every key (VIEW_MOD_*
     * mods) and typed text (UTF-8). */
    void (*grabbed_key)(view_panel *p, view_app *a, SDL_Keycode key, int mods);
    void (*grabbed_text)(view_panel *p, view_app *a, const char *utf8);
    /* It offers the prompt (view_prompt_open): opens it. One panel does. */
    void (*prompt)(view_panel *p, view_app *a, const char *label, const char *initial,
                   view_prompt_fn on_enter, void *user);
    /* A mouse button pressed at (x, y) pixels (clicks: 2 for a double click). */
    int (*press)(view_panel *p, view_app *a, double x, double y, int button, int clicks);
    /* Wheel notches at (x, y); positive is away from the user. */
    int (*wheel)(view_panel *p, view_app *a, double x, double y, double notches);
    /* Whether it covers (x, y) of the main view (the timeline is not under the pointer then). */
    int (*covers)(view_panel *p, const view_app *a, double x, double y);
    /* The height of its strip out of `avail` pixels, 0 when it has none. */
    int (*strip_height)(view_panel *p, const view_app *a, int avail);
    /* 1: its strip_height is asked after every other panel's, out of what
     * they left (a band that shares the room with the timeline, as
     * --compare's run B does, whatever other strips are open); the strip is
     * still placed in registration order. */
    int strip_last;
    void (*note)(view_panel *p, view_app *a, view_note what);
    /* Its part of the session file (written, read back), and of dump-state. */
    void (*save)(view_panel *p, const view_app *a, struct cJSON *o);
    void (*load)(view_panel *p, view_app *a, const struct cJSON *o);
    void (*dump)(view_panel *p, const view_app *a, struct cJSON *o);
    /* Frees it (NULL: free(p)). */
    void (*destroy)(view_panel *p);
};

/* p's strip (see strip_height). */
const SDL_Rect *view_panel_area(const view_areas *ar, const view_panel *p);
/* Whether any panel covers (x, y) of the main view. */
int view_panels_cover(const view_app *a, double x, double y);

/* ---- the window (view_app.c) --------------------------------------------------------------- */

/* `tlv view` with parsed options: makes the panels (makers[0..n), in the
 * order they see input), checks their keys, opens the window, loads the log,
 * runs until the window closes or the script ends, saves the session.
 * Returns the exit status. */
int view_run(const view_opts *opts, view_panel *(*const *makers)(void), size_t n);

#endif
