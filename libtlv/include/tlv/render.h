/*
 * render.h — drawing a view of the shapes: row labels, a time ruler in the
 * trace's TimeScale, and every primitive, into an RGBA pixel buffer (no
 * window or display needed). The same drawing code serves the interactive
 * viewer.
 *
 * These functions are the renderer library, libtlv-render (SDL2, SDL2_ttf,
 * fontconfig), apart from the core libtlv so that programs that only convert
 * link no GUI library: include this file and link both (pkg-config
 * libtlv-render, or CMake tlv::render, brings libtlv along).
 */
#ifndef TLV_RENDER_H
#define TLV_RENDER_H

#include "tlv/tlv.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An entry of tlv_view.rows that draws an empty band: no label, no shapes,
 * only the band's background, for the caller to draw on (a collapsed group,
 * say). */
#define TLV_VIEW_ROW_BLANK ((size_t)-1)

/* What to draw: a time range over a set of rows, at a pixel size.
 *
 * The bands drawn, top to bottom, are the rows of `rows` (row indexes of the
 * shapes, each < tlv_shapes_row_count, or TLV_VIEW_ROW_BLANK), so that a
 * caller can hide rows or reorder them; `rows` NULL draws every row in
 * order, which is what a zero-initialized view or tlv_view_fit gives. The
 * array is the caller's and is only read during the calls given the view.
 * first_row, row_height 0 (fit) and the layout below count positions in this
 * list, not row indexes. A group's name is drawn where a band's group
 * differs from the band above it. */
typedef struct tlv_view {
    size_t struct_size;  /* the caller's sizeof (see "ABI" in tlv.h): set by
                            tlv_view_fit or TLV_VIEW_INIT; 0 = the 0.1 layout */
    double t0, t1;       /* visible time range in trace units, t1 > t0 */
    int width, height;   /* pixels */
    int label_width;     /* pixels for row labels; 0 = automatic */
    int ruler_height;    /* pixels for the time ruler; 0 = automatic */
    int row_height;      /* pixels per row; 0 = fit every listed row in the height */
    int first_row;       /* position in the list of the top visible band (vertical scroll) */
    float scale;         /* HiDPI factor for fonts and pens; 0 = 1 */
    const size_t *rows;  /* the rows to draw, top to bottom; NULL = all, in order */
    size_t row_count;    /* entries of rows (ignored when rows is NULL) */
} tlv_view;

/* Sets the view to the whole trace at width x height. */
#define tlv_view_fit(view, shapes, width, height) \
    tlv_view_fit_sized((view), sizeof *(view), (shapes), (width), (height))
TLV_API void tlv_view_fit_sized(tlv_view *view, size_t size, const tlv_shapes *shapes, int width,
                                int height);

/* A zeroed view with its struct_size, to fill by hand. */
#define TLV_VIEW_INIT {sizeof(tlv_view), 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0}

/* Fonts (found through fontconfig, with CJK glyphs when labels need them)
 * and caches for drawing. A renderer is used by one thread at a time;
 * separate renderers may draw at once on separate threads (the font
 * libraries' process-wide state is guarded inside libtlv), each with its
 * own shapes. */
typedef struct tlv_renderer tlv_renderer;

/* Makes a renderer: loads the fonts (fontconfig finds them; a missing font
 * is a warning in tlv_renderer_diags, not a failure). *out is NULL on
 * failure. Returns TLV_OK or TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_renderer_new(tlv_renderer **out);
/* Frees the renderer and its fonts (NULL is allowed). The shapes it drew
 * are not touched. */
TLV_API void tlv_renderer_free(tlv_renderer *r);

/* The message of the last tlv_render_rgba on `r` that failed ("" when none
 * has), naming what was wrong, e.g. "tlv_render_rgba: view rows[2] is 9,
 * not a row (there are 4) nor TLV_VIEW_ROW_BLANK". */
TLV_API const char *tlv_renderer_last_error(const tlv_renderer *r);

/* Warnings such as "no font with Japanese glyphs found; labels drawn with
 * DejaVu Sans". */
TLV_API const tlv_diags *tlv_renderer_diags(const tlv_renderer *r);

/* Draws the view into `pixels`: height rows of `stride` bytes, each pixel 4
 * bytes R, G, B, A (A = 255). Returns TLV_OK, TLV_ERR_USAGE (bad view, or an
 * entry of view->rows that is neither a row of the shapes nor
 * TLV_VIEW_ROW_BLANK) or TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_render_rgba(tlv_renderer *r, const tlv_shapes *shapes,
                                   const tlv_view *view, uint8_t *pixels, size_t stride);

/* ---- what a frame drew ----------------------------------------------------
 *
 * Texts compete for room: a shape's text never covers another. The texts
 * of the shape under the pointer (tlv_renderer_set_focus) win, then those
 * of longer intervals; a text that meets one placed before is cut with an
 * ellipsis to the room left, or not drawn. A text whose box starts before
 * the timeline is drawn at the timeline's start (a long bar keeps its
 * name), a text is never cut at its row band's edges, and a text taller
 * than its band is drawn smaller, down to a legible minimum. A row with
 * more than about two shapes a pixel in view is drawn from summaries, yet
 * still gets the texts of its shapes at least 8 px wide (scaled): a long
 * call keeps its name beside a thousand short ones. */

/* The kinds of texts a frame draws. */
typedef enum tlv_text_kind {
    TLV_TEXT_LABEL = 0,      /* the shapes' texts (Text primitives), as placed */
    TLV_TEXT_TICK = 1,       /* the ruler's tick values, left to right */
    TLV_TEXT_REFERENCE = 2,  /* the time the ticks count from, printed once at the
                                ruler's start (none, or one) */
    TLV_TEXT_ROW = 3         /* the row names of the label column, top to bottom */
} tlv_text_kind;

/* How many texts of `kind` the last tlv_render_rgba on r drew. */
TLV_API size_t tlv_renderer_text_count(const tlv_renderer *r, tlv_text_kind kind);

/* Text i (< the count) of `kind` drawn by the last tlv_render_rgba on r,
 * as drawn ("MAIN_TA…_PRC3" when it was cut), or NULL when i is out of
 * range. When box is not NULL it gets the pixels the text covers: x, y,
 * width, height (its whole line, ascent and descent). The string lives
 * until the next tlv_render_rgba on r. */
TLV_API const char *tlv_renderer_text(const tlv_renderer *r, tlv_text_kind kind, size_t i,
                                      int box[4]);

/* The pointer's position in view pixels, for the next frames: the texts of
 * the shape under it win the room. x or y < 0: no pointer (the default). */
TLV_API void tlv_renderer_set_focus(tlv_renderer *r, double x, double y);

/* A relative time axis for the next frames: the ruler reads times from
 * `origin` (trace units; "+2 ms", "-1 ms") and says "from NAME" at its
 * start. name NULL: the trace's own axis (the default): times from the
 * trace's start for a trace whose times are those of a clock or of the wall
 * clock (tlv_shapes_time_mode CLOCK or WALL: "0 s", "100 ms", as if the
 * trace began at 0), absolute times otherwise or when asked for
 * (tlv_renderer_set_absolute_times). At any zoom, ticks that would need
 * more than 6 digits read as offsets from a reference printed once
 * ("1.5046198 s", then "+12.4 ns"), so neighbouring ticks always differ. */
TLV_API void tlv_renderer_set_time_origin(tlv_renderer *r, const char *name, double origin);

/* on != 0: the trace's own axis reads absolute times for every trace, as
 * the log wrote them ("1795614987.9 s"), instead of times from the start
 * of a CLOCK or WALL trace; 0: the default. A relative axis
 * (tlv_renderer_set_time_origin with a name) is not affected. */
TLV_API void tlv_renderer_set_absolute_times(tlv_renderer *r, int on);

/* The x pixel of time t in the view, and the time at pixel x (inverse). */
TLV_API double tlv_view_x(const tlv_view *view, double t);
TLV_API double tlv_view_time(const tlv_view *view, double x);

/* Where tlv_render_rgba puts the parts of a view over the rows of `shapes`
 * (NULL: no rows), in pixels: the same arithmetic as the frame, without
 * fonts, so that an interactive viewer can hit-test and scroll. */
typedef struct tlv_view_layout {
    int label_width;     /* the label column is x in [0, label_width) */
    int ruler_height;    /* the ruler is y in [0, ruler_height) */
    double row_height;   /* pixels per row band; fractional when rows are fitted */
    size_t row_count;    /* bands: the entries of view->rows, or the rows of the shapes */
    size_t first_row;    /* bands at positions [first_row, end_row) of the list are at */
    size_t end_row;      /* least partly visible; the band at position p starts at
                            y = ruler_height + (p - first_row) * row_height */
} tlv_view_layout;

/* Fills *out for `view` (which must satisfy what tlv_render_rgba asks of
 * it; the result is unspecified otherwise). */
#define tlv_view_get_layout(view, shapes, out) \
    tlv_view_get_layout_sized((view), (shapes), (out), sizeof *(out))
TLV_API void tlv_view_get_layout_sized(const tlv_view *view, const tlv_shapes *shapes,
                                       tlv_view_layout *out, size_t size);

/* The row (an index of the shapes: view->rows[p] for the band at position p)
 * whose band holds pixel row y of the view, or -1 when y is in the ruler,
 * below the last band or on a TLV_VIEW_ROW_BLANK band. */
TLV_API long tlv_view_row_at(const tlv_view *view, const tlv_shapes *shapes, double y);

/* Writes time (or duration) t, in units of `time_scale` (the trace's
 * TimeScale, see tlv_rules_time_scale; NULL for none), as the ruler does:
 * with an SI prefix chosen by magnitude when the scale is a unit of seconds
 * ("us": 1250 -> "1.25 ms"), else with k/M/G and the scale's word. `step` > 0
 * is the spacing of neighbouring values, which decides the decimals kept; 0
 * keeps up to 3. The text is NUL-terminated and cut to `size` (64 bytes are
 * always enough). Returns buf. */
TLV_API char *tlv_view_time_text(double t, double step, const char *time_scale, char *buf,
                                 size_t size);

#ifdef __cplusplus
}
#endif

#endif
