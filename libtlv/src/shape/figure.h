/*
 * figure.h — the primitives of visualization shapes (spec §9.1): their
 * geometry (positions and sizes relative to a shape's area, with l()/c()/r()
 * and t()/m()/b() anchors, % and px units) and style (fill, pen, font, text),
 * parsed from a .viz "Shapes" entry after ${ARGn} substitution, and resolved
 * to pixels for a given area.
 */
#ifndef TLV_FIGURE_H
#define TLV_FIGURE_H

#include "base/buf.h"
#include "base/json.h"

#include <stddef.h>
#include <stdint.h>

typedef enum prim_type {
    PRIM_RECTANGLE, PRIM_LINE, PRIM_ARROW, PRIM_POLYGON, PRIM_PIE, PRIM_ELLIPSE, PRIM_TEXT
} prim_type;

/* One length: `value` in pixels (px or no unit) or percent of the area's
 * width/height, measured from an anchor. */
typedef enum len_unit {
    LEN_PX, LEN_PCT,
    /* v(VALUE) without bounds: `value` is the raw VALUE until the row's
     * range is known and prim_fit_values() turns it into LEN_PCT. */
    LEN_VALUE_POS, LEN_VALUE_SIZE
} len_unit;
typedef enum len_anchor {
    ANCHOR_START, /* l() / t(), or no anchor: from the left/top edge */
    ANCHOR_CENTER, /* c() / m() */
    ANCHOR_END     /* r() / b(): measured leftwards/upwards from the right/bottom edge */
} len_anchor;

typedef struct len_spec {
    float value;
    unsigned char unit;    /* len_unit */
    unsigned char anchor;  /* len_anchor */
    unsigned short has_lo; /* v(VALUE,LO): (a short: no padding, for lengths are
                              compared and hashed as bytes, summary.c) */
    float lo;              /* the fixed low bound */
} len_spec;

typedef struct pos_spec {
    len_spec x, y;
} pos_spec;

typedef struct size_spec {
    len_spec w, h;   /* anchors are not allowed in sizes */
} size_spec;

/* Values as heights (a tlv extension): in a Y position, v(VALUE,LO,HI) is
 * where VALUE lies in the area's height, LO at the bottom and HI at the top;
 * in a height, the share of the area's height from LO up to VALUE. Values
 * outside [LO, HI] are drawn at the nearest edge. v(VALUE) takes LO and HI
 * from the values of the row (prim_value_range, prim_fit_values); v(VALUE,LO)
 * takes HI from them and keeps LO at the bottom (a counter's baseline: 0
 * bytes in use is an empty row, not a half-full one). */

/* Parses "X,Y" (spec §9.1: Len = number [% | px]; X may be l(Len) c(Len)
 * r(Len), Y t(Len) m(Len) b(Len); numbers may be negative or fractional;
 * spaces allowed around parts). Returns 0, or -1 with a message in err such
 * as "expected 'X,Y', found '10'" or "unknown unit 'em' in '10em'". */
int geom_parse_position(const char *text, pos_spec *out, char *err, size_t errsz);

/* Parses "W,H" (no anchors). */
int geom_parse_size(const char *text, size_spec *out, char *err, size_t errsz);

/* Resolves a length along an axis whose area starts at `origin` (pixels) and
 * is `extent` pixels long: l(5px)=origin+5, r(5px)=origin+extent-5,
 * c(10%)=origin+extent/2+0.1*extent. */
float geom_resolve(const len_spec *l, float origin, float extent);

/* A resolved pixel rectangle. */
typedef struct frect {
    float x, y, w, h;
} frect;

typedef enum dash_style { DASH_SOLID, DASH_DASH, DASH_DOT, DASH_DASHDOT, DASH_DASHDOTDOT } dash_style;

typedef enum font_style_bits {
    FONT_BOLD = 1, FONT_ITALIC = 2, FONT_UNDERLINE = 4, FONT_STRIKEOUT = 8
} font_style_bits;

/* Text alignment: horizontal 0 left, 1 center, 2 right; vertical 0 top,
 * 1 middle, 2 bottom. */
typedef struct text_align {
    uint8_t h, v;
} text_align;

/* A primitive with every member resolved (defaults applied). Colors are
 * 0xAARRGGBB; an alpha member overrides the color's alpha. */
typedef struct prim {
    prim_type type;
    pos_spec location;       /* default 0,0 */
    size_spec size;          /* default 100%,100% */
    pos_spec offset;         /* default 0,0 */
    pos_spec *points;        /* Line/Arrow: 2; Polygon: >= 3 */
    size_t npoints;
    float arc_start, arc_sweep; /* Pie, degrees; default 0, 90 */
    int has_fill;            /* Rectangle, Polygon, Pie, Ellipse: always (default ffffff) */
    uint32_t fill;
    int has_pen;             /* Line, Arrow: always; closed shapes: with a Pen; Text: no */
    uint32_t pen_color;      /* default ff000000 */
    float pen_width;         /* default 1 */
    dash_style dash;         /* default solid */
    char *text;              /* Text: the string (NULL for other types) */
    uint32_t font_color;     /* default ff000000 */
    char *font_family;       /* NULL = system sans */
    float font_size;         /* points, default 8 */
    unsigned font_style;     /* font_style_bits */
    text_align align;        /* default middle center */
    int depth, depth_rows;   /* "Depth", "DepthRows": drawn in sub-row `depth` of
                                `depth_rows` equal sub-rows of the area (0 rows: none) */
    int auto_values;         /* some length is v(VALUE) without bounds */
} prim;

/* Parses one primitive object of a "Shapes" array. `args` (nargs of them)
 * replace ${ARG0}, ${ARG1}, ... in every string member first (a missing
 * argument becomes ""). Returns 0, or -1 with a message in err naming the
 * member, e.g. "Fill: 'ff00zz' is not a color (expected rrggbb or
 * aarrggbb)", "Type: unknown primitive 'Circle' (expected Rectangle, Line,
 * Arrow, Polygon, Pie, Ellipse or Text)", "Points: a Line needs 2 points".
 * Unknown members are ignored. */
int prim_parse(const tj_node *obj, const char *const *args, size_t nargs, prim *out,
               char *err, size_t errsz);

void prim_free(prim *p);

/* Widens [*lo, *hi] to hold the raw values of p's v(VALUE) lengths without
 * bounds; returns whether p has any. */
int prim_value_range(const prim *p, double *lo, double *hi);

/* Turns p's v(VALUE) lengths without bounds into percentages of the range
 * [lo, hi] (a range without width is widened by 1 each way). */
void prim_fit_values(prim *p, double lo, double hi);

/* Parses "rrggbb" or "aarrggbb" (hexadecimal; rrggbb means opaque). */
int color_parse(const char *text, uint32_t *argb);

/* Name of a primitive type as written in .viz files ("Rectangle", ...). */
const char *prim_type_name(prim_type t);

/* The pixel box a primitive is drawn in for a shape whose area is `area`:
 * Location/Size (+ Offset) resolved against the area. */
frect prim_box(const prim *p, frect area);

/* The pixel coordinates of point i of a Line/Arrow/Polygon, resolved against
 * the primitive's box (prim_box), plus Offset. */
void prim_point(const prim *p, size_t i, frect box, float *x, float *y);

#endif
