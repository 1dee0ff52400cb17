/*
 * render.h — drawing a view of the shapes: row labels, a time ruler in the
 * trace's TimeScale, and every primitive, into an RGBA pixel buffer (no
 * window or display needed). The same drawing code serves the interactive
 * viewer.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_RENDER_H
#define TLV_RENDER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What to draw: a time range over a set of rows, at a pixel size. */
typedef struct tlv_view {
    double t0, t1;       /* visible time range in trace units, t1 > t0 */
    int width, height;   /* pixels */
    int label_width;     /* pixels for row labels; 0 = automatic */
    int ruler_height;    /* pixels for the time ruler; 0 = automatic */
    int row_height;      /* pixels per row; 0 = fit every row in the height */
    int first_row;       /* index of the top visible row (vertical scroll) */
    float scale;         /* HiDPI factor for fonts and pens; 0 = 1 */
} tlv_view;

/* Sets the view to the whole trace at width x height. */
TLV_API void tlv_view_fit(tlv_view *view, const tlv_shapes *shapes, int width, int height);

/* Fonts (found through fontconfig, with CJK glyphs when labels need them)
 * and caches for drawing. One renderer per thread. */
typedef struct tlv_renderer tlv_renderer;

TLV_API tlv_status tlv_renderer_new(tlv_renderer **out);
TLV_API void tlv_renderer_free(tlv_renderer *r);

/* Warnings such as "no font with Japanese glyphs found; labels drawn with
 * DejaVu Sans". */
TLV_API const tlv_diags *tlv_renderer_diags(const tlv_renderer *r);

/* Draws the view into `pixels`: height rows of `stride` bytes, each pixel 4
 * bytes R, G, B, A (A = 255). Returns TLV_OK, TLV_ERR_USAGE (bad view) or
 * TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_render_rgba(tlv_renderer *r, const tlv_shapes *shapes,
                                   const tlv_view *view, uint8_t *pixels, size_t stride);

/* The x pixel of time t in the view, and the time at pixel x (inverse). */
TLV_API double tlv_view_x(const tlv_view *view, double t);
TLV_API double tlv_view_time(const tlv_view *view, double x);

#ifdef __cplusplus
}
#endif

#endif
