/*
 * figure.c — the primitives of visualization shapes (spec §9.1): parsing of
 * positions and sizes ("X,Y" with l()/c()/r(), t()/m()/b(), % and px), of
 * colors, and of one primitive object of a .viz "Shapes" entry after ${ARGn}
 * substitution, with every default applied. Resolving them to pixels is in
 * figure_geom.c.
 *
 * Every problem is reported with the member it is in and the text found, so a
 * rule author can fix the file without guessing.
 */
#include "shape/figure.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TYPE_CHOICES "Rectangle, Line, Arrow, Polygon, Pie, Ellipse or Text"
#define COLOR_CHOICES "expected rrggbb or aarrggbb"

/* ---- small text helpers ---------------------------------------------------- */

static void set_err(char *err, size_t errsz, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errsz, const char *fmt, ...)
{
    if (!err || !errsz)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errsz, fmt, ap);
    va_end(ap);
}

/* ASCII only: the C library's classifiers follow the locale. */
static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_letter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

static void trim(const char **s, size_t *n)
{
    while (*n && is_space(**s)) {
        (*s)++;
        (*n)--;
    }
    while (*n && is_space((*s)[*n - 1]))
        (*n)--;
}

static double power_of_ten(int e)
{
    double p = 1;
    for (int i = 0; i < (e < 0 ? -e : e); i++)
        p *= 10;
    return p;
}

/* Scans a decimal number ([+-] digits [. digits] [e [+-] digits]) at the
 * start of s[0..n). Returns the bytes consumed, 0 when there is no number.
 * Hand-written because strtod follows LC_NUMERIC and accepts hex and "inf". */
static size_t scan_number(const char *s, size_t n, double *value)
{
    size_t i = 0;
    int negative = 0;
    if (i < n && (s[i] == '+' || s[i] == '-'))
        negative = s[i++] == '-';
    double mantissa = 0;
    int digits = 0, scale = 0;
    for (; i < n && is_digit(s[i]); i++, digits++)
        mantissa = mantissa * 10 + (s[i] - '0');
    if (i < n && s[i] == '.') {
        for (i++; i < n && is_digit(s[i]); i++, digits++, scale--)
            mantissa = mantissa * 10 + (s[i] - '0');
    }
    if (!digits)
        return 0;
    if (i + 1 < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        int eneg = 0;
        if (j < n && (s[j] == '+' || s[j] == '-'))
            eneg = s[j++] == '-';
        if (j < n && is_digit(s[j])) {
            int e = 0;
            for (; j < n && is_digit(s[j]); j++)
                e = e < 10000 ? e * 10 + (s[j] - '0') : e;
            scale += eneg ? -e : e;
            i = j;
        }
    }
    /* Dividing by an exact power of ten rounds correctly; multiplying by a
     * negative power would not ("0.1" must be the double nearest 0.1). */
    double v = scale < 0 ? mantissa / power_of_ten(scale) : mantissa * power_of_ten(scale);
    /* 0e999 is 0, not 0 x inf = NaN; and a value no float holds (1e39, 1e999,
     * 400 digits) is no number here: lengths and angles are floats, and an
     * infinite one can be neither compared nor drawn. */
    if (mantissa == 0)
        v = 0;
    if (!(fabs(v) <= FLT_MAX))
        return 0;
    *value = negative ? -v : v;
    return i;
}

/* The whole of `text` (spaces around allowed) as a number. */
static int parse_whole_number(const char *text, double *value)
{
    const char *s = text;
    size_t n = strlen(text);
    trim(&s, &n);
    return n && scan_number(s, n, value) == n ? 0 : -1;
}

/* ---- positions and sizes --------------------------------------------------- */

typedef enum axis { AXIS_X, AXIS_Y, AXIS_W, AXIS_H } axis;

static const char *const axis_name[] = {"X", "Y", "width", "height"};
static const char *const axis_anchors[] = {"lcr", "tmb"};

/* A length without anchor: number [% | px], spaces allowed before the unit.
 * `whole` is the text quoted in messages. */
static int parse_plain_len(const char *s, size_t n, const char *whole, size_t whole_n,
                           len_spec *out, char *err, size_t errsz)
{
    double v;
    size_t used = scan_number(s, n, &v);
    if (!used) {
        set_err(err, errsz, "expected a number in '%.*s'", (int)whole_n, whole);
        return -1;
    }
    const char *unit = s + used;
    size_t un = n - used;
    trim(&unit, &un);
    if (un == 0 || (un == 2 && memcmp(unit, "px", 2) == 0)) {
        out->unit = LEN_PX;
    } else if (un == 1 && unit[0] == '%') {
        out->unit = LEN_PCT;
    } else {
        set_err(err, errsz, "unknown unit '%.*s' in '%.*s'", (int)un, unit, (int)whole_n, whole);
        return -1;
    }
    out->value = (float)v;
    return 0;
}

/* An anchored length "a(Len)" whose letter is s[0] and whose '(' is at
 * s[open]. */
static int parse_anchored_len(const char *s, size_t n, size_t open, axis ax, len_spec *out,
                              char *err, size_t errsz)
{
    if (ax == AXIS_W || ax == AXIS_H) {
        set_err(err, errsz, "anchors are not allowed in sizes: '%.*s'", (int)n, s);
        return -1;
    }
    const char *letters = axis_anchors[ax];
    const char *found = memchr(letters, s[0], 3);
    if (!found) {
        set_err(err, errsz, "unknown %s anchor '%c' in '%.*s' (expected %c, %c or %c)",
                axis_name[ax], s[0], (int)n, s, letters[0], letters[1], letters[2]);
        return -1;
    }
    /* The last ')' closes, so "c(r(5))" complains about its contents. */
    const char *close = NULL;
    for (size_t i = n; i > open && !close; i--)
        if (s[i - 1] == ')')
            close = s + i - 1;
    if (!close) {
        set_err(err, errsz, "missing ')' in '%.*s'", (int)n, s);
        return -1;
    }
    if (close != s + n - 1) {
        set_err(err, errsz, "unexpected '%.*s' after ')' in '%.*s'",
                (int)(s + n - close - 1), close + 1, (int)n, s);
        return -1;
    }
    const char *inner = s + open + 1;
    size_t in = (size_t)(close - inner);
    trim(&inner, &in);
    out->anchor = (len_anchor)(found - letters); /* "lcr"/"tmb" follow the enum order */
    return parse_plain_len(inner, in, s, n, out, err, errsz);
}

/* Where `v` lies in [lo, hi], as a percentage: of the height above it for a
 * Y position (hi at the top), of the height below it for a size. */
static float value_percent(double v, double lo, double hi, axis ax)
{
    double f = (v - lo) / (hi - lo);
    f = f < 0 ? 0 : f > 1 ? 1 : f;
    return (float)(100.0 * (ax == AXIS_Y ? 1 - f : f));
}

/* The first comma of s[0..n) outside parentheses, or NULL; with unbalanced
 * parentheses simply the first comma (the sides then say what is wrong). */
static const char *top_comma(const char *s, size_t n)
{
    int depth = 0;
    const char *found = NULL;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')')
            depth--;
        else if (s[i] == ',' && depth == 0 && !found)
            found = s + i;
    }
    return depth == 0 ? found : memchr(s, ',', n);
}

/* "v(VALUE)", "v(VALUE,LO)" or "v(VALUE,LO,HI)", whose '(' is at s[open]. */
static int parse_value_len(const char *s, size_t n, size_t open, axis ax, len_spec *out,
                           char *err, size_t errsz)
{
    if (ax != AXIS_Y && ax != AXIS_H) {
        set_err(err, errsz, "v() places a value in the height: not allowed in %s '%.*s'",
                axis_name[ax], (int)n, s);
        return -1;
    }
    if (s[n - 1] != ')') {
        set_err(err, errsz, "missing ')' in '%.*s'", (int)n, s);
        return -1;
    }
    double v[3];
    size_t count = 0;
    int extra = 0;
    const char *p = s + open + 1, *end = s + n - 1;
    while (count < 3) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        const char *stop = comma ? comma : end;
        const char *part = p;
        size_t pn = (size_t)(stop - p);
        trim(&part, &pn);
        if (!pn || scan_number(part, pn, &v[count]) != pn) {
            set_err(err, errsz, "v(): '%.*s' is not a number in '%.*s'", (int)pn, part, (int)n,
                    s);
            return -1;
        }
        count++;
        if (!comma)
            break;
        extra = count == 3;
        p = comma + 1;
    }
    if (extra) {
        set_err(err, errsz, "v() takes VALUE, VALUE,LO or VALUE,LO,HI: '%.*s'", (int)n, s);
        return -1;
    }
    out->anchor = ANCHOR_START;
    if (count <= 2) { /* the row's values give the range (LO, when given, stays in it) */
        out->unit = ax == AXIS_Y ? LEN_VALUE_POS : LEN_VALUE_SIZE;
        out->value = (float)v[0];
        out->has_lo = count == 2;
        out->lo = count == 2 ? (float)v[1] : 0;
        return 0;
    }
    if (!(v[1] < v[2])) {
        set_err(err, errsz, "v(): the low bound must be below the high one in '%.*s'", (int)n, s);
        return -1;
    }
    out->unit = LEN_PCT;
    out->value = value_percent(v[0], v[1], v[2], ax);
    return 0;
}

/* One trimmed side of a pair: a plain or an anchored length. */
static int parse_len(const char *s, size_t n, axis ax, const char *text, len_spec *out,
                     char *err, size_t errsz)
{
    /* Every member set: only v(VALUE,LO) sets the low bound, and lengths are
     * compared, hashed and cached as bytes (summary.c, viz_cache.c, which
     * refused a cache whose unset `lo` happened to be NaN in -O3 builds). */
    *out = (len_spec){0, 0, ANCHOR_START, 0, 0};
    if (n == 0) {
        set_err(err, errsz, "missing %s in '%s'", axis_name[ax], text);
        return -1;
    }
    if (is_letter(s[0])) {
        size_t open = 1;
        while (open < n && is_space(s[open]))
            open++;
        if (open < n && s[open] == '(' && s[0] == 'v' && open == 1)
            return parse_value_len(s, n, open, ax, out, err, errsz);
        if (open < n && s[open] == '(')
            return parse_anchored_len(s, n, open, ax, out, err, errsz);
    }
    return parse_plain_len(s, n, s, n, out, err, errsz);
}

/* "A,B" with exactly one comma; `first` is the axis of A, B's is first + 1. */
static int parse_pair(const char *text, axis first, len_spec *a, len_spec *b, char *err,
                      size_t errsz)
{
    if (!text)
        text = "";
    size_t len = strlen(text);
    const char *comma = top_comma(text, len); /* v(VALUE,LO,HI) holds commas */
    if (!comma || top_comma(comma + 1, len - (size_t)(comma + 1 - text))) {
        set_err(err, errsz, "expected '%s', found '%s'", first == AXIS_X ? "X,Y" : "W,H", text);
        return -1;
    }
    const char *s1 = text, *s2 = comma + 1;
    size_t n1 = (size_t)(comma - text), n2 = strlen(s2);
    trim(&s1, &n1);
    trim(&s2, &n2);
    if (parse_len(s1, n1, first, text, a, err, errsz) < 0)
        return -1;
    return parse_len(s2, n2, (axis)(first + 1), text, b, err, errsz);
}

int geom_parse_position(const char *text, pos_spec *out, char *err, size_t errsz)
{
    pos_spec p;
    if (parse_pair(text, AXIS_X, &p.x, &p.y, err, errsz) < 0)
        return -1;
    *out = p;
    return 0;
}

int geom_parse_size(const char *text, size_spec *out, char *err, size_t errsz)
{
    size_spec s;
    if (parse_pair(text, AXIS_W, &s.w, &s.h, err, errsz) < 0)
        return -1;
    *out = s;
    return 0;
}

/* ---- colors and names ------------------------------------------------------ */

int color_parse(const char *text, uint32_t *argb)
{
    if (!text)
        return -1;
    size_t n = strlen(text);
    if (n != 6 && n != 8)
        return -1;
    uint32_t v = 0;
    for (size_t i = 0; i < n; i++) {
        int h = hex_digit_value((unsigned char)text[i]);
        if (h < 0)
            return -1;
        v = v << 4 | (uint32_t)h;
    }
    *argb = n == 6 ? 0xff000000u | v : v;
    return 0;
}

static const char *const type_names[] = {"Rectangle", "Line",    "Arrow", "Polygon",
                                         "Pie",       "Ellipse", "Text"};

const char *prim_type_name(prim_type t)
{
    return (unsigned)t < sizeof type_names / sizeof *type_names ? type_names[t] : "?";
}

static const char *const dash_names[] = {"Solid", "Dash", "Dot", "DashDot", "DashDotDot"};

/* Index = 3 * vertical + horizontal. */
static const char *const align_names[9] = {
    "TopLeft",    "TopCenter",    "TopRight",
    "MiddleLeft", "MiddleCenter", "MiddleRight",
    "BottomLeft", "BottomCenter", "BottomRight",
};

static const struct {
    const char *name;
    unsigned bits;
} font_styles[] = {
    {"Regular", 0}, {"Bold", FONT_BOLD}, {"Italic", FONT_ITALIC},
    {"Underline", FONT_UNDERLINE}, {"Strikeout", FONT_STRIKEOUT},
};

/* ---- ${ARGn} substitution -------------------------------------------------- */

/* Length of "${ARGn}" at s (0 if there is none) and n in *index, saturated so
 * a huge n simply names a missing argument. */
static size_t arg_reference(const char *s, size_t *index)
{
    if (strncmp(s, "${ARG", 5) != 0 || !is_digit(s[5]))
        return 0;
    size_t i = 5, k = 0;
    for (; is_digit(s[i]); i++)
        k = k < 100000 ? k * 10 + (size_t)(s[i] - '0') : k;
    if (s[i] != '}')
        return 0;
    *index = k;
    return i + 1;
}

/* A new string: s with every ${ARGn} replaced (a missing argument by ""). */
static char *substitute_args(const char *s, const char *const *args, size_t nargs)
{
    buf b = BUF_INIT;
    int failed = buf_append(&b, "", 0);
    while (!failed && *s) {
        size_t k, len = arg_reference(s, &k);
        if (len) {
            if (k < nargs && args[k])
                failed = buf_puts(&b, args[k]);
            s += len;
        } else {
            failed = buf_putc(&b, *s++);
        }
    }
    if (failed) {
        buf_free(&b);
        return NULL;
    }
    return b.data;
}

/* ---- reading members ------------------------------------------------------- */

typedef struct parse_ctx {
    const char *const *args;
    size_t nargs;
    char *err;
    size_t errsz;
} parse_ctx;

/* Records the first problem and returns -1, so callers can `return fail(...)`. */
static int fail(parse_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(parse_ctx *c, const char *fmt, ...)
{
    if (c->err && c->errsz) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errsz, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The text of member `m` named `name` after substitution, in *out (to free).
 * Numbers are accepted (as written) when `numbers_ok`, since real files give
 * e.g. "Width":1 and "Width":"1" alike. */
static int member_text(parse_ctx *c, const tj_node *m, const char *name, int numbers_ok,
                       char **out)
{
    *out = NULL; /* defined on failure too: optimising compilers cannot see it is unread */
    if (m->type != TJ_STRING && !(numbers_ok && m->type == TJ_NUMBER))
        return fail(c, "%s: expected %s, found %s", name,
                    numbers_ok ? "a number or a string" : "a string", tj_type_name(m->type));
    *out = m->type == TJ_STRING ? substitute_args(m->str, c->args, c->nargs) : xstrdup(m->str);
    if (!*out)
        return fail(c, "%s: out of memory", name);
    return 0;
}

static int member_color(parse_ctx *c, const tj_node *m, const char *name, uint32_t *argb)
{
    char *text;
    if (member_text(c, m, name, 0, &text) < 0)
        return -1;
    int rc = color_parse(text, argb);
    if (rc < 0)
        fail(c, "%s: '%s' is not a color (" COLOR_CHOICES ")", name, text);
    free(text);
    return rc;
}

/* An Alpha member replaces the alpha byte of *argb. */
static int member_alpha(parse_ctx *c, const tj_node *m, const char *name, uint32_t *argb)
{
    char *text;
    if (member_text(c, m, name, 1, &text) < 0)
        return -1;
    double v;
    int rc = parse_whole_number(text, &v);
    if (rc == 0 && (v < 0 || v > 255 || v != (double)(int)v))
        rc = -1;
    if (rc < 0)
        fail(c, "%s: '%s' is not an alpha value (expected an integer 0-255)", name, text);
    else
        *argb = (*argb & 0x00ffffffu) | (uint32_t)v << 24;
    free(text);
    return rc;
}

/* A number; `what` names the kind of value in the message (NULL: any number). */
static int member_number(parse_ctx *c, const tj_node *m, const char *name, double min,
                         int min_allowed, const char *what, float *out)
{
    char *text;
    if (member_text(c, m, name, 1, &text) < 0)
        return -1;
    double v;
    int rc = parse_whole_number(text, &v);
    if (rc == 0 && what && (v < min || (!min_allowed && v == min)))
        rc = -1;
    if (rc < 0 && what)
        fail(c, "%s: '%s' is not %s (expected a number %s %g)", name, text, what,
             min_allowed ? ">=" : ">", min);
    else if (rc < 0)
        fail(c, "%s: '%s' is not a number", name, text);
    else
        *out = (float)v;
    free(text);
    return rc;
}

/* A member holding one of `names` (n of them); its index in *index. */
static int member_choice(parse_ctx *c, const tj_node *m, const char *name,
                         const char *const *names, size_t n, const char *what,
                         const char *choices, int *index)
{
    char *text;
    if (member_text(c, m, name, 0, &text) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(text, names[i]) == 0) {
            *index = (int)i;
            free(text);
            return 0;
        }
    }
    fail(c, "%s: unknown %s '%s' (expected %s)", name, what, text, choices);
    free(text);
    return -1;
}

static int member_position(parse_ctx *c, const tj_node *m, const char *name, pos_spec *out)
{
    char *text, msg[256];
    if (member_text(c, m, name, 0, &text) < 0)
        return -1;
    int rc = geom_parse_position(text, out, msg, sizeof msg);
    if (rc < 0)
        fail(c, "%s: %s", name, msg);
    free(text);
    return rc;
}

static int member_size(parse_ctx *c, const tj_node *m, const char *name, size_spec *out)
{
    char *text, msg[256];
    if (member_text(c, m, name, 0, &text) < 0)
        return -1;
    int rc = geom_parse_size(text, out, msg, sizeof msg);
    if (rc < 0)
        fail(c, "%s: %s", name, msg);
    free(text);
    return rc;
}

/* "an array of 3 elements" rather than just "an array" when the count is wrong. */
static const char *found_what(const tj_node *m, char *tmp, size_t tmpsz)
{
    if (m->type != TJ_ARRAY)
        return tj_type_name(m->type);
    snprintf(tmp, tmpsz, "an array of %zu element%s", m->count, m->count == 1 ? "" : "s");
    return tmp;
}

/* ---- the members of a primitive -------------------------------------------- */

static void set_defaults(prim *p)
{
    memset(p, 0, sizeof *p);
    p->size.w = (len_spec){100, LEN_PCT, ANCHOR_START, 0, 0};
    p->size.h = (len_spec){100, LEN_PCT, ANCHOR_START, 0, 0};
    p->arc_sweep = 90;
    p->fill = 0xffffffffu;
    p->pen_color = 0xff000000u;
    p->pen_width = 1;
    p->dash = DASH_SOLID;
    p->font_color = 0xff000000u;
    p->font_size = 8;
    p->align = (text_align){1, 1};
}

static int parse_type(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *m = tj_get(obj, "Type");
    if (!m)
        return fail(c, "Type: missing (expected " TYPE_CHOICES ")");
    int t;
    if (member_choice(c, m, "Type", type_names, sizeof type_names / sizeof *type_names,
                      "primitive", TYPE_CHOICES, &t) < 0)
        return -1;
    p->type = (prim_type)t;
    p->has_fill = p->type != PRIM_LINE && p->type != PRIM_ARROW && p->type != PRIM_TEXT;
    /* A line is its pen, so Line and Arrow always have one (black, 1 px by
     * default); a closed shape is outlined only when a Pen is given, as in
     * TLV 2.0.1 (parse_pen). */
    p->has_pen = p->type == PRIM_LINE || p->type == PRIM_ARROW;
    return 0;
}

/* Area = [Location, Size] replaces both members. */
static int parse_area(parse_ctx *c, const tj_node *area, prim *p)
{
    char tmp[64];
    if (area->type != TJ_ARRAY || area->count != 2)
        return fail(c, "Area: expected [Location, Size], found %s",
                    found_what(area, tmp, sizeof tmp));
    if (member_position(c, area->child, "Area[0]", &p->location) < 0)
        return -1;
    return member_size(c, area->child->next, "Area[1]", &p->size);
}

static int parse_geometry(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *m;
    if ((m = tj_get(obj, "Area")) != NULL) {
        if (parse_area(c, m, p) < 0)
            return -1;
    } else {
        if ((m = tj_get(obj, "Location")) != NULL && member_position(c, m, "Location", &p->location) < 0)
            return -1;
        if ((m = tj_get(obj, "Size")) != NULL && member_size(c, m, "Size", &p->size) < 0)
            return -1;
    }
    if ((m = tj_get(obj, "Offset")) != NULL && member_position(c, m, "Offset", &p->offset) < 0)
        return -1;
    return 0;
}

/* Only Line, Arrow and Polygon have points; other types ignore the member. */
static int parse_points(parse_ctx *c, const tj_node *obj, prim *p)
{
    if (p->type != PRIM_LINE && p->type != PRIM_ARROW && p->type != PRIM_POLYGON)
        return 0;
    const tj_node *m = tj_get(obj, "Points");
    if (m && m->type != TJ_ARRAY)
        return fail(c, "Points: expected an array of positions, found %s", tj_type_name(m->type));
    size_t n = m ? m->count : 0;
    if (p->type == PRIM_POLYGON && n < 3)
        return fail(c, "Points: a Polygon needs at least 3 points");
    if (p->type != PRIM_POLYGON && n != 2)
        return fail(c, "Points: %s needs 2 points", p->type == PRIM_LINE ? "a Line" : "an Arrow");
    p->points = calloc(n, sizeof *p->points);
    if (!p->points)
        return fail(c, "Points: out of memory");
    p->npoints = n;
    size_t i = 0;
    for (const tj_node *e = m->child; e; e = e->next, i++) {
        char name[32];
        snprintf(name, sizeof name, "Points[%zu]", i);
        if (member_position(c, e, name, &p->points[i]) < 0)
            return -1;
    }
    return 0;
}

static int parse_arc(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *m = tj_get(obj, "Arc");
    if (!m)
        return 0;
    char tmp[64];
    if (m->type != TJ_ARRAY || m->count != 2)
        return fail(c, "Arc: expected [start, sweep], found %s", found_what(m, tmp, sizeof tmp));
    if (member_number(c, m->child, "Arc[0]", 0, 1, NULL, &p->arc_start) < 0)
        return -1;
    return member_number(c, m->child->next, "Arc[1]", 0, 1, NULL, &p->arc_sweep);
}

static int parse_fill(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *m;
    if ((m = tj_get(obj, "Fill")) != NULL && member_color(c, m, "Fill", &p->fill) < 0)
        return -1;
    /* Alpha after Fill whatever their order in the file: it overrides. */
    if ((m = tj_get(obj, "Alpha")) != NULL && member_alpha(c, m, "Alpha", &p->fill) < 0)
        return -1;
    return 0;
}

static int expect_object(parse_ctx *c, const tj_node *m, const char *name)
{
    if (m->type != TJ_OBJECT)
        return fail(c, "%s: expected an object, found %s", name, tj_type_name(m->type));
    return 0;
}

static int parse_pen(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *pen = tj_get(obj, "Pen"), *m;
    if (!pen)
        return 0;
    if (expect_object(c, pen, "Pen") < 0)
        return -1;
    p->has_pen = p->type != PRIM_TEXT;
    if ((m = tj_get(pen, "Color")) != NULL && member_color(c, m, "Pen.Color", &p->pen_color) < 0)
        return -1;
    if ((m = tj_get(pen, "Alpha")) != NULL && member_alpha(c, m, "Pen.Alpha", &p->pen_color) < 0)
        return -1;
    if ((m = tj_get(pen, "Width")) != NULL &&
        member_number(c, m, "Pen.Width", 0, 1, "a width", &p->pen_width) < 0)
        return -1;
    int dash;
    if ((m = tj_get(pen, "DashStyle")) != NULL) {
        if (member_choice(c, m, "Pen.DashStyle", dash_names, sizeof dash_names / sizeof *dash_names,
                          "dash style", "Solid, Dash, Dot, DashDot or DashDotDot", &dash) < 0)
            return -1;
        p->dash = (dash_style)dash;
    }
    return 0;
}

/* Style may combine names, .NET-style: "Bold, Italic". */
static int member_font_style(parse_ctx *c, const tj_node *m, unsigned *bits)
{
    char *text;
    if (member_text(c, m, "Font.Style", 0, &text) < 0)
        return -1;
    unsigned acc = 0;
    const char *s = text;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        const char *word = s;
        trim(&word, &n);
        size_t i = 0, count = sizeof font_styles / sizeof *font_styles;
        while (i < count && !(strlen(font_styles[i].name) == n && memcmp(font_styles[i].name, word, n) == 0))
            i++;
        if (i == count) {
            fail(c, "Font.Style: unknown style '%.*s' (expected Regular, Bold, Italic, "
                    "Underline or Strikeout)", (int)n, word);
            free(text);
            return -1;
        }
        acc |= font_styles[i].bits;
        if (!comma)
            break;
        s = comma + 1;
    }
    *bits = acc;
    free(text);
    return 0;
}

static int member_align(parse_ctx *c, const tj_node *m, text_align *align)
{
    int i;
    if (member_choice(c, m, "Font.Align", align_names, 9, "alignment",
                      "TopLeft, TopCenter, TopRight, MiddleLeft, MiddleCenter, MiddleRight, "
                      "BottomLeft, BottomCenter or BottomRight", &i) < 0)
        return -1;
    align->v = (uint8_t)(i / 3);
    align->h = (uint8_t)(i % 3);
    return 0;
}

/* An empty Family (e.g. from an empty argument) means the system font. */
static int member_family(parse_ctx *c, const tj_node *m, char **family)
{
    char *text;
    if (member_text(c, m, "Font.Family", 0, &text) < 0)
        return -1;
    if (!*text) {
        free(text);
        text = NULL;
    }
    *family = text;
    return 0;
}

static int parse_font(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *font = tj_get(obj, "Font"), *m;
    if (!font)
        return 0;
    if (expect_object(c, font, "Font") < 0)
        return -1;
    if ((m = tj_get(font, "Color")) != NULL && member_color(c, m, "Font.Color", &p->font_color) < 0)
        return -1;
    if ((m = tj_get(font, "Alpha")) != NULL && member_alpha(c, m, "Font.Alpha", &p->font_color) < 0)
        return -1;
    if ((m = tj_get(font, "Family")) != NULL && member_family(c, m, &p->font_family) < 0)
        return -1;
    if ((m = tj_get(font, "Size")) != NULL &&
        member_number(c, m, "Font.Size", 0, 0, "a font size", &p->font_size) < 0)
        return -1;
    if ((m = tj_get(font, "Style")) != NULL && member_font_style(c, m, &p->font_style) < 0)
        return -1;
    if ((m = tj_get(font, "Align")) != NULL && member_align(c, m, &p->align) < 0)
        return -1;
    return 0;
}

/* Only a Text primitive has text; a missing Text member draws nothing. */
static int parse_text(parse_ctx *c, const tj_node *obj, prim *p)
{
    if (p->type != PRIM_TEXT)
        return 0;
    const tj_node *m = tj_get(obj, "Text");
    if (m)
        return member_text(c, m, "Text", 1, &p->text);
    p->text = xstrdup("");
    return p->text ? 0 : fail(c, "Text: out of memory");
}

/* "Depth" (a sub-row, e.g. a call depth from an argument) and "DepthRows"
 * (how many sub-rows; default 4). Depths beyond the last draw in the last. */
static int parse_depth(parse_ctx *c, const tj_node *obj, prim *p)
{
    const tj_node *d = tj_get(obj, "Depth"), *rows = tj_get(obj, "DepthRows");
    float depth = 0, nrows = 4;
    if (rows && member_number(c, rows, "DepthRows", 1, 1, "a number of rows", &nrows) < 0)
        return -1;
    if (!d)
        return 0;
    if (member_number(c, d, "Depth", 0, 1, "a depth", &depth) < 0)
        return -1;
    p->depth_rows = nrows > 1000 ? 1000 : (int)nrows;
    p->depth = depth >= (float)p->depth_rows ? p->depth_rows - 1 : (int)depth;
    return 0;
}

static int has_auto(const len_spec *l) { return l->unit >= LEN_VALUE_POS; }

static void note_auto_values(prim *p)
{
    p->auto_values = has_auto(&p->location.y) || has_auto(&p->size.h) || has_auto(&p->offset.y);
    for (size_t i = 0; i < p->npoints; i++)
        p->auto_values |= has_auto(&p->points[i].y);
}

static void widen(const len_spec *l, double *lo, double *hi)
{
    if (!has_auto(l))
        return;
    *lo = l->value < *lo ? l->value : *lo;
    *hi = l->value > *hi ? l->value : *hi;
    if (l->has_lo) {
        *lo = l->lo < *lo ? l->lo : *lo;
        *hi = l->lo > *hi ? l->lo : *hi;
    }
}

/* Whether some v(VALUE,LO) length of p has its LO at `at`. */
static int has_lo_at(const len_spec *l, double at) { return has_auto(l) && l->has_lo && l->lo == at; }

int prim_value_range(const prim *p, double *lo, double *hi)
{
    if (!p->auto_values)
        return 0;
    widen(&p->location.y, lo, hi);
    widen(&p->size.h, lo, hi);
    widen(&p->offset.y, lo, hi);
    for (size_t i = 0; i < p->npoints; i++)
        widen(&p->points[i].y, lo, hi);
    return 1;
}

static void fit(len_spec *l, double lo, double hi)
{
    if (!has_auto(l))
        return;
    l->value = value_percent(l->value, lo, hi, l->unit == LEN_VALUE_POS ? AXIS_Y : AXIS_H);
    l->unit = LEN_PCT;
}

void prim_fit_values(prim *p, double lo, double hi)
{
    int floor = has_lo_at(&p->location.y, lo) || has_lo_at(&p->size.h, lo) ||
                has_lo_at(&p->offset.y, lo);
    for (size_t i = 0; i < p->npoints; i++)
        floor |= has_lo_at(&p->points[i].y, lo);
    if (!(lo < hi)) { /* one value: in the middle, or at the bottom when it is the floor */
        lo -= floor ? 0 : 1;
        hi += 1;
    }
    fit(&p->location.y, lo, hi);
    fit(&p->size.h, lo, hi);
    fit(&p->offset.y, lo, hi);
    for (size_t i = 0; i < p->npoints; i++)
        fit(&p->points[i].y, lo, hi);
    p->auto_values = 0;
}

int prim_parse(const tj_node *obj, const char *const *args, size_t nargs, prim *out,
               char *err, size_t errsz)
{
    parse_ctx c = {args, nargs, err, errsz};
    set_defaults(out);
    if (!obj || obj->type != TJ_OBJECT)
        return fail(&c, "a primitive must be an object, found %s",
                    obj ? tj_type_name(obj->type) : "nothing");
    if (parse_type(&c, obj, out) < 0 || parse_geometry(&c, obj, out) < 0 ||
        parse_points(&c, obj, out) < 0 || parse_arc(&c, obj, out) < 0 ||
        parse_fill(&c, obj, out) < 0 || parse_pen(&c, obj, out) < 0 ||
        parse_font(&c, obj, out) < 0 || parse_text(&c, obj, out) < 0 ||
        parse_depth(&c, obj, out) < 0) {
        prim_free(out);
        return -1;
    }
    note_auto_values(out);
    return 0;
}

void prim_free(prim *p)
{
    if (!p)
        return;
    free(p->points);
    free(p->text);
    free(p->font_family);
    p->points = NULL;
    p->npoints = 0;
    p->text = NULL;
    p->font_family = NULL;
}
