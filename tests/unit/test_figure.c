/*
 * test_figure.c — the primitives of visualization shapes (figure.h, spec
 * §9.1): parsing of positions and sizes in every form with their exact error
 * messages, resolving lengths (l(100%) == r(0%) == c(50%) == the right edge),
 * colors, prim_parse of each primitive type with its defaults and every
 * member, ${ARGn} substitution, the Alpha override, every kind of mistake
 * with its exact message, and the pixel box and points for a sample area.
 * When the TLV 2.0.1 corpus is present, every primitive of every Shapes
 * section of its .viz files must parse.
 */
#include "check.h"

#include "base/buf.h"
#include "shape/figure.h"
#include "base/json.h"

#include <dirent.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Floats are compared exactly: every expected value below is representable
 * and computed without rounding. */
#define CHECK_F(a, b)                                                          \
    do {                                                                       \
        double fa_ = (a), fb_ = (b);                                           \
        if (fa_ != fb_) {                                                      \
            fprintf(stderr, "%s:%d: %s == %.9g, expected %.9g\n", __FILE__,    \
                    __LINE__, #a, fa_, fb_);                                   \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

#define CHECK_LEN(l, v, u, a)                                                  \
    do {                                                                       \
        CHECK_F((l).value, (v));                                               \
        CHECK_INT((l).unit, (u));                                              \
        CHECK_INT((l).anchor, (a));                                            \
    } while (0)

/* ---- helpers ---------------------------------------------------------------- */

static tj_node *json(const char *text)
{
    tj_error e;
    tj_node *n = tj_parse(text, strlen(text), &e);
    if (!n) {
        fprintf(stderr, "bad test JSON %s: %ld:%ld %s\n", text, e.line, e.col, e.message);
        exit(1);
    }
    return n;
}

/* Parses a primitive given as JSON text; the caller prim_free()s it. */
static int parse_with(const char *text, const char *const *args, size_t nargs, prim *p,
                      char *err, size_t errsz)
{
    tj_node *n = json(text);
    int rc = prim_parse(n, args, nargs, p, err, errsz);
    tj_free(n);
    return rc;
}

static int parse(const char *text, prim *p)
{
    char err[300] = "";
    int rc = parse_with(text, NULL, 0, p, err, sizeof err);
    if (rc < 0)
        fprintf(stderr, "unexpected error for %s: %s\n", text, err);
    return rc;
}

static void expect_prim_error_args(int line, const char *text, const char *const *args,
                                   size_t nargs, const char *message)
{
    prim p;
    char err[300] = "";
    int rc = parse_with(text, args, nargs, &p, err, sizeof err);
    if (rc != -1 || strcmp(err, message) != 0) {
        fprintf(stderr, "%s:%d: %s gave %d \"%s\", expected -1 \"%s\"\n", __FILE__, line, text,
                rc, err, message);
        check_failures++;
    }
    /* A failed parse owns nothing. */
    CHECK(p.points == NULL && p.text == NULL && p.font_family == NULL);
    if (rc == 0)
        prim_free(&p);
}

#define EXPECT_PRIM_ERROR(text, message) expect_prim_error_args(__LINE__, text, NULL, 0, message)
#define EXPECT_PRIM_ERROR_ARGS(text, args, message)                            \
    expect_prim_error_args(__LINE__, text, args, sizeof args / sizeof *args, message)

static void expect_pos_error(int line, const char *text, const char *message)
{
    pos_spec p = {{7, LEN_PCT, ANCHOR_END, 0, 0}, {7, LEN_PCT, ANCHOR_END, 0, 0}};
    char err[200] = "";
    int rc = geom_parse_position(text, &p, err, sizeof err);
    if (rc != -1 || strcmp(err, message) != 0) {
        fprintf(stderr, "%s:%d: position '%s' gave %d \"%s\", expected -1 \"%s\"\n", __FILE__,
                line, text, rc, err, message);
        check_failures++;
    }
    /* The output is untouched on error. */
    CHECK(p.x.value == 7 && p.x.unit == LEN_PCT && p.y.anchor == ANCHOR_END);
}

static void expect_size_error(int line, const char *text, const char *message)
{
    size_spec s;
    char err[200] = "";
    int rc = geom_parse_size(text, &s, err, sizeof err);
    if (rc != -1 || strcmp(err, message) != 0) {
        fprintf(stderr, "%s:%d: size '%s' gave %d \"%s\", expected -1 \"%s\"\n", __FILE__,
                line, text, rc, err, message);
        check_failures++;
    }
}

#define EXPECT_POS_ERROR(text, message) expect_pos_error(__LINE__, text, message)
#define EXPECT_SIZE_ERROR(text, message) expect_size_error(__LINE__, text, message)

static pos_spec pos(const char *text)
{
    pos_spec p;
    memset(&p, 0, sizeof p);
    char err[200] = "";
    if (geom_parse_position(text, &p, err, sizeof err) < 0) {
        fprintf(stderr, "position '%s' failed: %s\n", text, err);
        check_failures++;
    }
    return p;
}

static size_spec size(const char *text)
{
    size_spec s;
    memset(&s, 0, sizeof s);
    char err[200] = "";
    if (geom_parse_size(text, &s, err, sizeof err) < 0) {
        fprintf(stderr, "size '%s' failed: %s\n", text, err);
        check_failures++;
    }
    return s;
}

/* ---- positions and sizes ---------------------------------------------------- */

static void test_position_forms(void)
{
    pos_spec p = pos("10,20");
    CHECK_LEN(p.x, 10, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 20, LEN_PX, ANCHOR_START);

    p = pos("10px,20px");
    CHECK_LEN(p.x, 10, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 20, LEN_PX, ANCHOR_START);

    p = pos("50%,80%");
    CHECK_LEN(p.x, 50, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.y, 80, LEN_PCT, ANCHOR_START);

    p = pos("-5,2.5%");
    CHECK_LEN(p.x, -5, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 2.5, LEN_PCT, ANCHOR_START);

    p = pos("+3,.5px");
    CHECK_LEN(p.x, 3, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 0.5, LEN_PX, ANCHOR_START);

    p = pos("  -0.25% ,\t 7 px  ");
    CHECK_LEN(p.x, -0.25, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.y, 7, LEN_PX, ANCHOR_START);

    p = pos("l(10),t(5px)");
    CHECK_LEN(p.x, 10, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 5, LEN_PX, ANCHOR_START);

    p = pos("c(-10%),m(0)");
    CHECK_LEN(p.x, -10, LEN_PCT, ANCHOR_CENTER);
    CHECK_LEN(p.y, 0, LEN_PX, ANCHOR_CENTER);

    p = pos("r(5px),b(2.5%)");
    CHECK_LEN(p.x, 5, LEN_PX, ANCHOR_END);
    CHECK_LEN(p.y, 2.5, LEN_PCT, ANCHOR_END);

    p = pos("l(100%),b(-1.5)");
    CHECK_LEN(p.x, 100, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.y, -1.5, LEN_PX, ANCHOR_END);

    p = pos(" r ( 5 px ) , m( 25 % ) ");
    CHECK_LEN(p.x, 5, LEN_PX, ANCHOR_END);
    CHECK_LEN(p.y, 25, LEN_PCT, ANCHOR_CENTER);

    /* Forms seen in the TLV 2.0.1 rule files. */
    p = pos("l(0),80%");
    CHECK_LEN(p.x, 0, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 80, LEN_PCT, ANCHOR_START);
    p = pos("r(0),0");
    CHECK_LEN(p.x, 0, LEN_PX, ANCHOR_END);
    CHECK_LEN(p.y, 0, LEN_PX, ANCHOR_START);

    /* A mixed anchored X with a plain Y and the reverse. */
    p = pos("40,t(10%)");
    CHECK_LEN(p.x, 40, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.y, 10, LEN_PCT, ANCHOR_START);
}

static void test_position_errors(void)
{
    EXPECT_POS_ERROR("10", "expected 'X,Y', found '10'");
    EXPECT_POS_ERROR("", "expected 'X,Y', found ''");
    EXPECT_POS_ERROR("1,2,3", "expected 'X,Y', found '1,2,3'");
    EXPECT_POS_ERROR("10em,0", "unknown unit 'em' in '10em'");
    EXPECT_POS_ERROR("0, 5 pt ", "unknown unit 'pt' in '5 pt'");
    EXPECT_POS_ERROR("5%%,0", "unknown unit '%%' in '5%%'");
    EXPECT_POS_ERROR("5PX,0", "unknown unit 'PX' in '5PX'");
    EXPECT_POS_ERROR(",5", "missing X in ',5'");
    EXPECT_POS_ERROR("5, ", "missing Y in '5, '");
    EXPECT_POS_ERROR("abc,0", "expected a number in 'abc'");
    EXPECT_POS_ERROR("y,", "expected a number in 'y'");
    EXPECT_POS_ERROR("0,%", "expected a number in '%'");
    EXPECT_POS_ERROR("-,0", "expected a number in '-'");
    EXPECT_POS_ERROR("t(5),0", "unknown X anchor 't' in 't(5)' (expected l, c or r)");
    EXPECT_POS_ERROR("0,l(5)", "unknown Y anchor 'l' in 'l(5)' (expected t, m or b)");
    EXPECT_POS_ERROR("L(5),0", "unknown X anchor 'L' in 'L(5)' (expected l, c or r)");
    EXPECT_POS_ERROR("l(5,0", "missing ')' in 'l(5'");
    EXPECT_POS_ERROR("l(5)x,0", "unexpected 'x' after ')' in 'l(5)x'");
    EXPECT_POS_ERROR("0,b(5)%", "unexpected '%' after ')' in 'b(5)%'");
    EXPECT_POS_ERROR("l(),0", "expected a number in 'l()'");
    EXPECT_POS_ERROR("l(5em),0", "unknown unit 'em' in 'l(5em)'");
    EXPECT_POS_ERROR("c(r(5)),0", "expected a number in 'c(r(5))'");
}

static void test_sizes(void)
{
    size_spec s = size("100%,80%");
    CHECK_LEN(s.w, 100, LEN_PCT, ANCHOR_START);
    CHECK_LEN(s.h, 80, LEN_PCT, ANCHOR_START);

    s = size(" 30px , 2.5 ");
    CHECK_LEN(s.w, 30, LEN_PX, ANCHOR_START);
    CHECK_LEN(s.h, 2.5, LEN_PX, ANCHOR_START);

    s = size("-5,12.5%");
    CHECK_LEN(s.w, -5, LEN_PX, ANCHOR_START);
    CHECK_LEN(s.h, 12.5, LEN_PCT, ANCHOR_START);

    EXPECT_SIZE_ERROR("10", "expected 'W,H', found '10'");
    EXPECT_SIZE_ERROR("1,2,3", "expected 'W,H', found '1,2,3'");
    EXPECT_SIZE_ERROR("l(5),10", "anchors are not allowed in sizes: 'l(5)'");
    EXPECT_SIZE_ERROR("10,b(0)", "anchors are not allowed in sizes: 'b(0)'");
    EXPECT_SIZE_ERROR(",1", "missing width in ',1'");
    EXPECT_SIZE_ERROR("1,", "missing height in '1,'");
    EXPECT_SIZE_ERROR("1,2pt", "unknown unit 'pt' in '2pt'");
    EXPECT_SIZE_ERROR("wide,1", "expected a number in 'wide'");
}

static void test_error_buffer_limits(void)
{
    pos_spec p;
    char small[8];
    memset(small, 'x', sizeof small);
    CHECK_INT(geom_parse_position("10", &p, small, sizeof small), -1);
    CHECK_STR(small, "expecte");
    CHECK_INT(geom_parse_position("10", &p, NULL, 0), -1);
    CHECK_INT(geom_parse_position(NULL, &p, NULL, 0), -1);
}

static void test_resolve(void)
{
    /* An axis from 100 to 300. */
    const float o = 100, e = 200;
    len_spec l;
    l = (len_spec){5, LEN_PX, ANCHOR_START, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 105);
    l = (len_spec){5, LEN_PX, ANCHOR_END, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 295);
    l = (len_spec){10, LEN_PCT, ANCHOR_CENTER, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 220);
    l = (len_spec){-10, LEN_PX, ANCHOR_CENTER, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 190);
    l = (len_spec){50, LEN_PCT, ANCHOR_START, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 200);
    l = (len_spec){-5, LEN_PX, ANCHOR_START, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 95);
    l = (len_spec){-5, LEN_PX, ANCHOR_END, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 305);
    l = (len_spec){2.5f, LEN_PCT, ANCHOR_START, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 105);
    l = (len_spec){25, LEN_PCT, ANCHOR_END, 0, 0};
    CHECK_F(geom_resolve(&l, o, e), 250);

    /* Spec: l(100%), r(0%) and c(50%) all name the right edge. */
    pos_spec a = pos("l(100%),t(100%)"), b = pos("r(0%),b(0%)"), c = pos("c(50%),m(50%)");
    CHECK_F(geom_resolve(&a.x, o, e), 300);
    CHECK_F(geom_resolve(&b.x, o, e), 300);
    CHECK_F(geom_resolve(&c.x, o, e), 300);
    CHECK_F(geom_resolve(&a.y, 10, 30), 40);
    CHECK_F(geom_resolve(&b.y, 10, 30), 40);
    CHECK_F(geom_resolve(&c.y, 10, 30), 40);
    /* ...and l(0), r(100%), c(-50%) the left edge. */
    a = pos("l(0),0"), b = pos("r(100%),0"), c = pos("c(-50%),0");
    CHECK_F(geom_resolve(&a.x, o, e), 100);
    CHECK_F(geom_resolve(&b.x, o, e), 100);
    CHECK_F(geom_resolve(&c.x, o, e), 100);
}

/* ---- colors and names ------------------------------------------------------- */

static void test_colors(void)
{
    uint32_t c = 0;
    /* Six digits are opaque: a deliberate difference (TLV 2.0.1 read them as
     * fully transparent without an Alpha member; docs/reference.md §11). */
    CHECK_INT(color_parse("ff0000", &c), 0);
    CHECK_INT(c, 0xffff0000u);
    CHECK_INT(color_parse("6600ff00", &c), 0);
    CHECK_INT(c, 0x6600ff00u);
    CHECK_INT(color_parse("00000000", &c), 0);
    CHECK_INT(c, 0);
    CHECK_INT(color_parse("FFcc0A", &c), 0);
    CHECK_INT(c, 0xffffcc0au);
    c = 1;
    CHECK_INT(color_parse("", &c), -1);
    CHECK_INT(color_parse("ff00zz", &c), -1);
    CHECK_INT(color_parse("fff", &c), -1);
    CHECK_INT(color_parse("ff00000", &c), -1);
    CHECK_INT(color_parse("ff0000000", &c), -1);
    CHECK_INT(color_parse("#ff0000", &c), -1);
    CHECK_INT(color_parse(" ff0000", &c), -1);
    CHECK_INT(color_parse(NULL, &c), -1);
    CHECK_INT(c, 1);
}

static void test_type_names(void)
{
    CHECK_STR(prim_type_name(PRIM_RECTANGLE), "Rectangle");
    CHECK_STR(prim_type_name(PRIM_LINE), "Line");
    CHECK_STR(prim_type_name(PRIM_ARROW), "Arrow");
    CHECK_STR(prim_type_name(PRIM_POLYGON), "Polygon");
    CHECK_STR(prim_type_name(PRIM_PIE), "Pie");
    CHECK_STR(prim_type_name(PRIM_ELLIPSE), "Ellipse");
    CHECK_STR(prim_type_name(PRIM_TEXT), "Text");
}

/* ---- prim_parse: types and defaults ----------------------------------------- */

static void check_default_geometry_and_style(const prim *p)
{
    CHECK_LEN(p->location.x, 0, LEN_PX, ANCHOR_START);
    CHECK_LEN(p->location.y, 0, LEN_PX, ANCHOR_START);
    CHECK_LEN(p->size.w, 100, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p->size.h, 100, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p->offset.x, 0, LEN_PX, ANCHOR_START);
    CHECK_LEN(p->offset.y, 0, LEN_PX, ANCHOR_START);
    CHECK_F(p->arc_start, 0);
    CHECK_F(p->arc_sweep, 90);
    CHECK_INT(p->fill, 0xffffffffu);
    CHECK_INT(p->pen_color, 0xff000000u);
    CHECK_F(p->pen_width, 1);
    CHECK_INT(p->dash, DASH_SOLID);
    CHECK_INT(p->font_color, 0xff000000u);
    CHECK(p->font_family == NULL);
    CHECK_F(p->font_size, 8);
    CHECK_INT(p->font_style, 0);
    CHECK_INT(p->align.h, 1);
    CHECK_INT(p->align.v, 1);
}

static void test_closed_shapes(void)
{
    static const struct {
        const char *json;
        prim_type type;
    } cases[] = {
        {"{\"Type\":\"Rectangle\"}", PRIM_RECTANGLE},
        {"{\"Type\":\"Pie\"}", PRIM_PIE},
        {"{\"Type\":\"Ellipse\"}", PRIM_ELLIPSE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        prim p;
        if (parse(cases[i].json, &p) < 0) {
            check_failures++;
            continue;
        }
        CHECK_INT(p.type, cases[i].type);
        CHECK_INT(p.has_fill, 1);
        CHECK_INT(p.has_pen, 0); /* no Pen, no outline (TLV 2.0.1) */
        CHECK(p.points == NULL);
        CHECK_INT(p.npoints, 0);
        CHECK(p.text == NULL);
        check_default_geometry_and_style(&p);
        prim_free(&p);
    }
}

static void test_lines(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Line\",\"Points\":[\"l(0),80%\",\"r(0),80%\"]}", &p), 0);
    CHECK_INT(p.type, PRIM_LINE);
    CHECK_INT(p.has_fill, 0);
    CHECK_INT(p.has_pen, 1);
    CHECK_INT(p.npoints, 2);
    CHECK_LEN(p.points[0].x, 0, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.points[0].y, 80, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.points[1].x, 0, LEN_PX, ANCHOR_END);
    CHECK_LEN(p.points[1].y, 80, LEN_PCT, ANCHOR_START);
    CHECK(p.text == NULL);
    check_default_geometry_and_style(&p);
    prim_free(&p);
    CHECK(p.points == NULL);

    CHECK_INT(parse("{\"Type\":\"Arrow\",\"Points\":[\"0,80%\",\"0,0\"],"
                    "\"Pen\":{\"Color\":\"ffff0000\",\"Width\":1}}", &p), 0);
    CHECK_INT(p.type, PRIM_ARROW);
    CHECK_INT(p.has_fill, 0);
    CHECK_INT(p.has_pen, 1);
    CHECK_INT(p.npoints, 2);
    CHECK_LEN(p.points[0].y, 80, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.points[1].y, 0, LEN_PX, ANCHOR_START);
    CHECK_INT(p.pen_color, 0xffff0000u);
    prim_free(&p);
}

static void test_polygon(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Polygon\",\"Size\":\"100%,100%\","
                    "\"Points\":[\"0%,90%\",\"100%,90%\",\"100%,10%\",\"0%,10%\"]}", &p), 0);
    CHECK_INT(p.type, PRIM_POLYGON);
    CHECK_INT(p.has_fill, 1);
    CHECK_INT(p.has_pen, 0);
    CHECK_INT(p.npoints, 4);
    CHECK_LEN(p.points[1].x, 100, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.points[3].y, 10, LEN_PCT, ANCHOR_START);
    check_default_geometry_and_style(&p);
    prim_free(&p);

    CHECK_INT(parse("{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"r(0),0\",\"c(0),b(0)\"]}", &p), 0);
    CHECK_INT(p.npoints, 3);
    CHECK_LEN(p.points[2].x, 0, LEN_PX, ANCHOR_CENTER);
    CHECK_LEN(p.points[2].y, 0, LEN_PX, ANCHOR_END);
    prim_free(&p);
}

static void test_text(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Text\"}", &p), 0);
    CHECK_INT(p.type, PRIM_TEXT);
    CHECK_INT(p.has_fill, 0);
    CHECK_INT(p.has_pen, 0);
    CHECK_STR(p.text, "");
    check_default_geometry_and_style(&p);
    prim_free(&p);
    CHECK(p.text == NULL);

    CHECK_INT(parse("{\"Type\":\"Text\",\"Size\":\"100%,40%\","
                    "\"Font\":{\"Align\":\"TopLeft\", \"Size\":7},\"Text\":\"CPUロック状態\"}", &p), 0);
    CHECK_STR(p.text, "CPUロック状態");
    CHECK_F(p.font_size, 7);
    CHECK_INT(p.align.h, 0);
    CHECK_INT(p.align.v, 0);
    CHECK_LEN(p.size.h, 40, LEN_PCT, ANCHOR_START);
    prim_free(&p);

    /* A number is text as written. */
    CHECK_INT(parse("{\"Type\":\"Text\",\"Text\":42.50}", &p), 0);
    CHECK_STR(p.text, "42.50");
    prim_free(&p);

    /* Only Text primitives carry text. */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Text\":\"ignored\"}", &p), 0);
    CHECK(p.text == NULL);
    prim_free(&p);
}

/* ---- prim_parse: every member ----------------------------------------------- */

static void test_geometry_members(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Location\":\"r(10%),b(2px)\","
                    "\"Size\":\"30px,50%\",\"Offset\":\"2,-3%\",\"Unknown\":[1,2]}", &p), 0);
    CHECK_LEN(p.location.x, 10, LEN_PCT, ANCHOR_END);
    CHECK_LEN(p.location.y, 2, LEN_PX, ANCHOR_END);
    CHECK_LEN(p.size.w, 30, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.size.h, 50, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.offset.x, 2, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.offset.y, -3, LEN_PCT, ANCHOR_START);
    prim_free(&p);

    /* Area overrides Location and Size, whichever comes first. */
    CHECK_INT(parse("{\"Type\":\"Ellipse\",\"Location\":\"1,1\",\"Area\":[\"5,6%\",\"7,8%\"],"
                    "\"Size\":\"2,2\"}", &p), 0);
    CHECK_LEN(p.location.x, 5, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.location.y, 6, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.size.w, 7, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.size.h, 8, LEN_PCT, ANCHOR_START);
    prim_free(&p);

    /* Points are only read for Line, Arrow and Polygon. */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Points\":\"nonsense\"}", &p), 0);
    CHECK_INT(p.npoints, 0);
    prim_free(&p);

    /* Later duplicate members win (spec §2). */
    CHECK_INT(parse("{\"Type\":\"Line\",\"Type\":\"Ellipse\"}", &p), 0);
    CHECK_INT(p.type, PRIM_ELLIPSE);
    prim_free(&p);
}

static void test_arc(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Pie\",\"Arc\":[30,\"-45.5\"]}", &p), 0);
    CHECK_F(p.arc_start, 30);
    CHECK_F(p.arc_sweep, -45.5);
    prim_free(&p);
    CHECK_INT(parse("{\"Type\":\"Pie\",\"Arc\":[\" 180 \",360]}", &p), 0);
    CHECK_F(p.arc_start, 180);
    CHECK_F(p.arc_sweep, 360);
    prim_free(&p);
}

static void test_fill_and_pen(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Fill\":\"6600ff00\","
                    "\"Pen\":{\"Color\":\"ff6666\",\"Alpha\":\"128\",\"Width\":2.5,"
                    "\"DashStyle\":\"DashDotDot\"}}", &p), 0);
    CHECK_INT(p.fill, 0x6600ff00u);
    CHECK_INT(p.pen_color, 0x80ff6666u);
    CHECK_F(p.pen_width, 2.5);
    CHECK_INT(p.dash, DASH_DASHDOTDOT);
    prim_free(&p);

    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Fill\":\"00ff00\",\"Pen\":{\"Width\":\"0\"}}", &p), 0);
    CHECK_INT(p.fill, 0xff00ff00u);
    CHECK_INT(p.pen_color, 0xff000000u);
    CHECK_F(p.pen_width, 0);
    CHECK_INT(p.has_pen, 1);
    prim_free(&p);

    /* A Pen given, even empty, outlines a closed shape: black, 1 px. */
    CHECK_INT(parse("{\"Type\":\"Ellipse\",\"Pen\":{}}", &p), 0);
    CHECK_INT(p.has_pen, 1);
    CHECK_INT(p.pen_color, 0xff000000u);
    CHECK_F(p.pen_width, 1);
    prim_free(&p);

    static const struct {
        const char *name;
        dash_style dash;
    } dashes[] = {{"Solid", DASH_SOLID}, {"Dash", DASH_DASH}, {"Dot", DASH_DOT},
                  {"DashDot", DASH_DASHDOT}, {"DashDotDot", DASH_DASHDOTDOT}};
    for (size_t i = 0; i < sizeof dashes / sizeof *dashes; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"Type\":\"Line\",\"Points\":[\"0,0\",\"1,1\"],"
                 "\"Pen\":{\"DashStyle\":\"%s\"}}", dashes[i].name);
        CHECK_INT(parse(text, &p), 0);
        CHECK_INT(p.dash, dashes[i].dash);
        prim_free(&p);
    }
}

static void test_alpha_override(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Alpha\":255,\"Fill\":\"6600ff00\"}", &p), 0);
    CHECK_INT(p.fill, 0xff00ff00u);
    prim_free(&p);
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Fill\":\"ff0000\",\"Alpha\":\"0\"}", &p), 0);
    CHECK_INT(p.fill, 0x00ff0000u);
    prim_free(&p);
    /* Without Fill the default white gets the alpha. */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Alpha\":100}", &p), 0);
    CHECK_INT(p.fill, 0x64ffffffu);
    prim_free(&p);
    /* Without Alpha an aarrggbb color keeps its own alpha. */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Fill\":\"660000ff\"}", &p), 0);
    CHECK_INT(p.fill, 0x660000ffu);
    prim_free(&p);
    /* Pen and Font alphas override their colors' alphas. */
    CHECK_INT(parse("{\"Type\":\"Text\",\"Pen\":{\"Alpha\":200,\"Color\":\"ff00ff00\"},"
                    "\"Font\":{\"Color\":\"11223344\",\"Alpha\":\"255\"}}", &p), 0);
    CHECK_INT(p.pen_color, 0xc800ff00u);
    CHECK_INT(p.font_color, 0xff223344u);
    prim_free(&p);
    /* 100.0 is a whole number. */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Alpha\":100.0}", &p), 0);
    CHECK_INT(p.fill, 0x64ffffffu);
    prim_free(&p);
}

static void test_font(void)
{
    prim p;
    CHECK_INT(parse("{\"Type\":\"Text\",\"Text\":\"hello\",\"Font\":{\"Color\":\"00ff00\","
                    "\"Alpha\":100,\"Family\":\"DejaVu Serif\",\"Size\":\"7.5\","
                    "\"Style\":\"Bold, Italic\",\"Align\":\"BottomRight\"}}", &p), 0);
    CHECK_STR(p.text, "hello");
    CHECK_INT(p.font_color, 0x6400ff00u);
    CHECK_STR(p.font_family, "DejaVu Serif");
    CHECK_F(p.font_size, 7.5);
    CHECK_INT(p.font_style, FONT_BOLD | FONT_ITALIC);
    CHECK_INT(p.align.h, 2);
    CHECK_INT(p.align.v, 2);
    prim_free(&p);
    CHECK(p.font_family == NULL);

    static const struct {
        const char *style;
        unsigned bits;
    } styles[] = {
        {"Regular", 0}, {"Bold", FONT_BOLD}, {"Italic", FONT_ITALIC},
        {"Underline", FONT_UNDERLINE}, {"Strikeout", FONT_STRIKEOUT},
        {"Underline,Strikeout", FONT_UNDERLINE | FONT_STRIKEOUT},
        {" Regular , Bold ", FONT_BOLD},
        {"Bold, Italic, Underline, Strikeout", 15},
    };
    for (size_t i = 0; i < sizeof styles / sizeof *styles; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"Type\":\"Text\",\"Font\":{\"Style\":\"%s\"}}",
                 styles[i].style);
        CHECK_INT(parse(text, &p), 0);
        CHECK_INT(p.font_style, styles[i].bits);
        prim_free(&p);
    }

    static const char *const aligns[] = {"TopLeft",    "TopCenter",    "TopRight",
                                         "MiddleLeft", "MiddleCenter", "MiddleRight",
                                         "BottomLeft", "BottomCenter", "BottomRight"};
    for (size_t i = 0; i < 9; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"Type\":\"Text\",\"Font\":{\"Align\":\"%s\"}}", aligns[i]);
        CHECK_INT(parse(text, &p), 0);
        CHECK_INT(p.align.h, i % 3);
        CHECK_INT(p.align.v, i / 3);
        prim_free(&p);
    }

    /* An empty family means the system font. */
    CHECK_INT(parse("{\"Type\":\"Text\",\"Font\":{\"Family\":\"\"}}", &p), 0);
    CHECK(p.font_family == NULL);
    prim_free(&p);
}

/* ---- ${ARGn} ------------------------------------------------------------------ */

static void test_arguments(void)
{
    static const char *const args[] = {"ff0000", "svc_name", "E_OK", "10%", "Bold"};
    const size_t nargs = sizeof args / sizeof *args;
    prim p;
    char err[300] = "";

    CHECK_INT(parse_with("{\"Type\":\"Rectangle\",\"Size\":\"100%,40%\","
                         "\"Pen\":{\"Color\":\"${ARG0}\",\"Width\":1,\"Alpha\":255,"
                         "\"DashStyle\":\"Dash\"},\"Fill\":\"${ARG0}\",\"Alpha\":100}",
                         args, nargs, &p, err, sizeof err), 0);
    CHECK_INT(p.fill, 0x64ff0000u);
    CHECK_INT(p.pen_color, 0xffff0000u);
    CHECK_INT(p.dash, DASH_DASH);
    prim_free(&p);

    CHECK_INT(parse_with("{\"Type\":\"Text\",\"Text\":\"return ${ARG2}\"}", args, nargs, &p,
                         err, sizeof err), 0);
    CHECK_STR(p.text, "return E_OK");
    prim_free(&p);

    /* Missing arguments become "", adjacent ones concatenate, and anything that
     * is not exactly ${ARGn} stays as written. */
    CHECK_INT(parse_with("{\"Type\":\"Text\",\"Text\":\"[${ARG9}|${ARG1}${ARG2}|${ARGx}|"
                         "${ARG0|$ARG0|${TARGET}|${ARG99999999999999999999}]\"}",
                         args, nargs, &p, err, sizeof err), 0);
    CHECK_STR(p.text, "[|svc_nameE_OK|${ARGx}|${ARG0|$ARG0|${TARGET}|]");
    prim_free(&p);

    CHECK_INT(parse_with("{\"Type\":\"Text\",\"Text\":\"${ARG0}\"}", NULL, 0, &p, err,
                         sizeof err), 0);
    CHECK_STR(p.text, "");
    prim_free(&p);

    /* Positions in Points, Area and Location, Type itself, and nested Font
     * members are substituted too. */
    CHECK_INT(parse_with("{\"Type\":\"Line\",\"Points\":[\"${ARG3},0\",\"r(${ARG3}),100%\"]}",
                         args, nargs, &p, err, sizeof err), 0);
    CHECK_LEN(p.points[0].x, 10, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.points[1].x, 10, LEN_PCT, ANCHOR_END);
    prim_free(&p);

    static const char *const area_args[] = {"ff0000", "TASK1", "0", "50%", "Ellipse"};
    CHECK_INT(parse_with("{\"Type\":\"${ARG4}\",\"Area\":[\"${ARG2},${ARG3}\",\"100%,25%\"],"
                         "\"Font\":{\"Color\":\"${ARG0}\",\"Family\":\"${ARG1}\"}}",
                         area_args, 5, &p, err, sizeof err), 0);
    CHECK_INT(p.type, PRIM_ELLIPSE);
    CHECK_LEN(p.location.x, 0, LEN_PX, ANCHOR_START);
    CHECK_LEN(p.location.y, 50, LEN_PCT, ANCHOR_START);
    CHECK_LEN(p.size.h, 25, LEN_PCT, ANCHOR_START);
    CHECK_INT(p.font_color, 0xffff0000u);
    CHECK_STR(p.font_family, "TASK1");
    prim_free(&p);

    CHECK_INT(parse_with("{\"Type\":\"Text\",\"Font\":{\"Style\":\"${ARG4}\",\"Size\":\"${ARG2}0\"}}",
                         (const char *const[]){"ff0000", "x", "1", "2", "Bold"}, 5, &p, err,
                         sizeof err), 0);
    CHECK_INT(p.font_style, FONT_BOLD);
    CHECK_F(p.font_size, 10);
    prim_free(&p);

    /* An empty or missing argument where a color is expected. */
    static const char *const empty[] = {""};
    EXPECT_PRIM_ERROR_ARGS("{\"Type\":\"Rectangle\",\"Fill\":\"${ARG0}\"}", empty,
                           "Fill: '' is not a color (expected rrggbb or aarrggbb)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Pen\":{\"Color\":\"${ARG0}\"}}",
                      "Pen.Color: '' is not a color (expected rrggbb or aarrggbb)");
    static const char *const bad[] = {"red"};
    EXPECT_PRIM_ERROR_ARGS("{\"Type\":\"Rectangle\",\"Fill\":\"${ARG0}\"}", bad,
                           "Fill: 'red' is not a color (expected rrggbb or aarrggbb)");
    /* The corpus's Area with too few arguments. */
    static const char *const few[] = {"ff0000", "x", "y"};
    EXPECT_PRIM_ERROR_ARGS("{\"Type\":\"Rectangle\",\"Area\":[\"${ARG2},${ARG3}\",\"100%,25%\"]}",
                           few, "Area[0]: expected a number in 'y'");
}

/* ---- prim_parse: mistakes ----------------------------------------------------- */

static void test_type_errors(void)
{
    EXPECT_PRIM_ERROR("{\"Type\":\"Circle\"}",
                      "Type: unknown primitive 'Circle' (expected Rectangle, Line, Arrow, "
                      "Polygon, Pie, Ellipse or Text)");
    EXPECT_PRIM_ERROR("{\"Type\":\"rectangle\"}",
                      "Type: unknown primitive 'rectangle' (expected Rectangle, Line, Arrow, "
                      "Polygon, Pie, Ellipse or Text)");
    EXPECT_PRIM_ERROR("{\"Fill\":\"ffffff\"}",
                      "Type: missing (expected Rectangle, Line, Arrow, Polygon, Pie, Ellipse "
                      "or Text)");
    EXPECT_PRIM_ERROR("{\"Type\":5}", "Type: expected a string, found a number");
    EXPECT_PRIM_ERROR("[\"Rectangle\"]", "a primitive must be an object, found an array");
    EXPECT_PRIM_ERROR("\"Rectangle\"", "a primitive must be an object, found a string");

    prim p;
    char err[100];
    CHECK_INT(prim_parse(NULL, NULL, 0, &p, err, sizeof err), -1);
    CHECK_STR(err, "a primitive must be an object, found nothing");
}

static void test_color_and_number_errors(void)
{
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Fill\":\"ff00zz\"}",
                      "Fill: 'ff00zz' is not a color (expected rrggbb or aarrggbb)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Fill\":\"fff\"}",
                      "Fill: 'fff' is not a color (expected rrggbb or aarrggbb)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Fill\":123456}",
                      "Fill: expected a string, found a number");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Color\":\"black\"}}",
                      "Font.Color: 'black' is not a color (expected rrggbb or aarrggbb)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Alpha\":256}",
                      "Alpha: '256' is not an alpha value (expected an integer 0-255)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Alpha\":\"-1\"}",
                      "Alpha: '-1' is not an alpha value (expected an integer 0-255)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Alpha\":1.5}",
                      "Alpha: '1.5' is not an alpha value (expected an integer 0-255)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Alpha\":\"half\"}",
                      "Alpha: 'half' is not an alpha value (expected an integer 0-255)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Alpha\":true}",
                      "Alpha: expected a number or a string, found a boolean");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Pen\":{\"Alpha\":300}}",
                      "Pen.Alpha: '300' is not an alpha value (expected an integer 0-255)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Alpha\":null}}",
                      "Font.Alpha: expected a number or a string, found null");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Pen\":{\"Width\":\"-1\"}}",
                      "Pen.Width: '-1' is not a width (expected a number >= 0)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Pen\":{\"Width\":\"thin\"}}",
                      "Pen.Width: 'thin' is not a width (expected a number >= 0)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Size\":0}}",
                      "Font.Size: '0' is not a font size (expected a number > 0)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Size\":\"7pt\"}}",
                      "Font.Size: '7pt' is not a font size (expected a number > 0)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Text\":true}",
                      "Text: expected a number or a string, found a boolean");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Family\":1}}",
                      "Font.Family: expected a string, found a number");
}

static void test_choice_errors(void)
{
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Pen\":{\"DashStyle\":\"Dashed\"}}",
                      "Pen.DashStyle: unknown dash style 'Dashed' (expected Solid, Dash, Dot, "
                      "DashDot or DashDotDot)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Align\":\"Top\"}}",
                      "Font.Align: unknown alignment 'Top' (expected TopLeft, TopCenter, "
                      "TopRight, MiddleLeft, MiddleCenter, MiddleRight, BottomLeft, "
                      "BottomCenter or BottomRight)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Style\":\"Heavy\"}}",
                      "Font.Style: unknown style 'Heavy' (expected Regular, Bold, Italic, "
                      "Underline or Strikeout)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Style\":\"Bold,,Italic\"}}",
                      "Font.Style: unknown style '' (expected Regular, Bold, Italic, "
                      "Underline or Strikeout)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":{\"Style\":\"Bold, Wide\"}}",
                      "Font.Style: unknown style 'Wide' (expected Regular, Bold, Italic, "
                      "Underline or Strikeout)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Pen\":\"red\"}",
                      "Pen: expected an object, found a string");
    EXPECT_PRIM_ERROR("{\"Type\":\"Text\",\"Font\":[]}",
                      "Font: expected an object, found an array");
}

static void test_point_errors(void)
{
    EXPECT_PRIM_ERROR("{\"Type\":\"Line\",\"Points\":[\"0,0\"]}", "Points: a Line needs 2 points");
    EXPECT_PRIM_ERROR("{\"Type\":\"Line\"}", "Points: a Line needs 2 points");
    EXPECT_PRIM_ERROR("{\"Type\":\"Arrow\",\"Points\":[\"0,0\",\"1,1\",\"2,2\"]}",
                      "Points: an Arrow needs 2 points");
    EXPECT_PRIM_ERROR("{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"1,1\"]}",
                      "Points: a Polygon needs at least 3 points");
    EXPECT_PRIM_ERROR("{\"Type\":\"Polygon\"}", "Points: a Polygon needs at least 3 points");
    EXPECT_PRIM_ERROR("{\"Type\":\"Line\",\"Points\":\"0,0\"}",
                      "Points: expected an array of positions, found a string");
    EXPECT_PRIM_ERROR("{\"Type\":\"Line\",\"Points\":[\"0,0\",\"5q,1\"]}",
                      "Points[1]: unknown unit 'q' in '5q'");
    EXPECT_PRIM_ERROR("{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"1,1\",[2,2]]}",
                      "Points[2]: expected a string, found an array");
}

static void test_geometry_errors(void)
{
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Location\":\"10\"}",
                      "Location: expected 'X,Y', found '10'");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Size\":\"10em,1\"}",
                      "Size: unknown unit 'em' in '10em'");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Size\":\"r(1),1\"}",
                      "Size: anchors are not allowed in sizes: 'r(1)'");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Offset\":\"1,l(1)\"}",
                      "Offset: unknown Y anchor 'l' in 'l(1)' (expected t, m or b)");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Location\":[0,0]}",
                      "Location: expected a string, found an array");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Area\":\"0,0\"}",
                      "Area: expected [Location, Size], found a string");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Area\":[\"0,0\"]}",
                      "Area: expected [Location, Size], found an array of 1 element");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Area\":[\"0,0\",\"1,1\",\"2,2\"]}",
                      "Area: expected [Location, Size], found an array of 3 elements");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Area\":[\"0\",\"1,1\"]}",
                      "Area[0]: expected 'X,Y', found '0'");
    EXPECT_PRIM_ERROR("{\"Type\":\"Rectangle\",\"Area\":[\"0,0\",\"l(1),1\"]}",
                      "Area[1]: anchors are not allowed in sizes: 'l(1)'");
    EXPECT_PRIM_ERROR("{\"Type\":\"Pie\",\"Arc\":[1]}",
                      "Arc: expected [start, sweep], found an array of 1 element");
    EXPECT_PRIM_ERROR("{\"Type\":\"Pie\",\"Arc\":\"0,90\"}",
                      "Arc: expected [start, sweep], found a string");
    EXPECT_PRIM_ERROR("{\"Type\":\"Pie\",\"Arc\":[\"a\",1]}", "Arc[0]: 'a' is not a number");
    EXPECT_PRIM_ERROR("{\"Type\":\"Pie\",\"Arc\":[0,{}]}",
                      "Arc[1]: expected a number or a string, found an object");
}

static void test_prim_error_buffer(void)
{
    prim p;
    char small[6];
    CHECK_INT(parse_with("{\"Type\":\"Circle\"}", NULL, 0, &p, small, sizeof small), -1);
    CHECK_STR(small, "Type:");
    CHECK_INT(parse_with("{\"Type\":\"Circle\"}", NULL, 0, &p, NULL, 0), -1);
}

/* ---- to pixels ---------------------------------------------------------------- */

static void test_box_and_points(void)
{
    const frect area = {100, 50, 200, 40};
    prim p;
    frect b;

    CHECK_INT(parse("{\"Type\":\"Rectangle\"}", &p), 0);
    b = prim_box(&p, area);
    CHECK_F(b.x, 100);
    CHECK_F(b.y, 50);
    CHECK_F(b.w, 200);
    CHECK_F(b.h, 40);
    prim_free(&p);

    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Size\":\"100%,80%\"}", &p), 0);
    b = prim_box(&p, area);
    CHECK_F(b.x, 100);
    CHECK_F(b.y, 50);
    CHECK_F(b.w, 200);
    CHECK_F(b.h, 32);
    prim_free(&p);

    /* x = 100 + 10 + 5, y = 50 + 10 - 4 (Offset % of the area's height). */
    CHECK_INT(parse("{\"Type\":\"Polygon\",\"Location\":\"10,25%\",\"Size\":\"50%,20px\","
                    "\"Offset\":\"5,-10%\",\"Points\":[\"0,0\",\"c(0),m(0)\",\"r(10px),b(25%)\"]}",
                    &p), 0);
    b = prim_box(&p, area);
    CHECK_F(b.x, 115);
    CHECK_F(b.y, 56);
    CHECK_F(b.w, 100);
    CHECK_F(b.h, 20);
    float x, y;
    prim_point(&p, 0, b, &x, &y);
    CHECK_F(x, 115);
    CHECK_F(y, 56);
    prim_point(&p, 1, b, &x, &y);
    CHECK_F(x, 165);
    CHECK_F(y, 66);
    prim_point(&p, 2, b, &x, &y);
    CHECK_F(x, 205);
    CHECK_F(y, 71);
    prim_free(&p);

    /* Anchored Location: 10% of 200 in from the right, on the bottom edge. */
    CHECK_INT(parse("{\"Type\":\"Ellipse\",\"Location\":\"r(10%),b(0)\",\"Size\":\"20,10\"}", &p), 0);
    b = prim_box(&p, area);
    CHECK_F(b.x, 280);
    CHECK_F(b.y, 90);
    CHECK_F(b.w, 20);
    CHECK_F(b.h, 10);
    prim_free(&p);

    /* The toppers "runnable" line: the whole width at 80% of the height. */
    CHECK_INT(parse("{\"Type\":\"Line\",\"Points\":[\"l(0),80%\",\"r(0),80%\"]}", &p), 0);
    b = prim_box(&p, area);
    prim_point(&p, 0, b, &x, &y);
    CHECK_F(x, 100);
    CHECK_F(y, 82);
    prim_point(&p, 1, b, &x, &y);
    CHECK_F(x, 300);
    CHECK_F(y, 82);
    prim_free(&p);

    /* Points follow the Offset through the box. */
    CHECK_INT(parse("{\"Type\":\"Arrow\",\"Offset\":\"10%,2\",\"Points\":[\"0,80%\",\"0,0\"]}", &p), 0);
    b = prim_box(&p, area);
    CHECK_F(b.x, 120);
    CHECK_F(b.y, 52);
    prim_point(&p, 0, b, &x, &y);
    CHECK_F(x, 120);
    CHECK_F(y, 84);
    prim_point(&p, 1, b, &x, &y);
    CHECK_F(x, 120);
    CHECK_F(y, 52);
    prim_free(&p);
}

/* ---- the corpus ----------------------------------------------------------------- */

/* Parses every primitive of every Shapes section of one .viz file; returns
 * how many there were. */
static size_t check_viz_file(const char *path)
{
    buf text = BUF_INIT;
    if (read_file(path, &text) < 0) {
        fprintf(stderr, "cannot read %s\n", path);
        check_failures++;
        return 0;
    }
    tj_error e;
    tj_node *root = tj_parse(text.data, text.len, &e);
    buf_free(&text);
    if (!root) {
        fprintf(stderr, "%s:%ld:%ld: %s\n", path, e.line, e.col, e.message);
        check_failures++;
        return 0;
    }
    /* ARG2/ARG3 are positions in the FMP rules' Area, as their rules pass them. */
    static const char *const args[] = {"ff0000", "x", "0", "50%"};
    size_t count = 0;
    for (const tj_node *target = root->child; target; target = target->next) {
        const tj_node *shapes = tj_get(target, "Shapes");
        for (const tj_node *shape = shapes ? shapes->child : NULL; shape; shape = shape->next) {
            for (const tj_node *pn = shape->child; pn; pn = pn->next) {
                prim p;
                char err[300];
                if (prim_parse(pn, args, 4, &p, err, sizeof err) < 0) {
                    fprintf(stderr, "%s:%ld: shape %s: %s\n", path, pn->line, shape->key, err);
                    check_failures++;
                    continue;
                }
                count++;
                prim_free(&p);
            }
        }
    }
    tj_free(root);
    return count;
}

static void test_corpus(void)
{
    buf dir = BUF_INIT;
    const char *env = getenv("TLV_CORPUS");
    const char *src = getenv("TLV_SOURCE_DIR");
    if (env && *env)
        buf_printf(&dir, "%s/rules", env);
    else if (src && *src)
        buf_printf(&dir, "%s/../shared/corpus/tlv-2.0.1/rules", src);
    DIR *d = dir.len ? opendir(dir.data) : NULL;
    if (!d) {
        printf("note: corpus not found (set TLV_CORPUS or TLV_SOURCE_DIR); "
               "skipping the corpus checks\n");
        buf_free(&dir);
        return;
    }
    size_t files = 0, prims = 0;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 4 || strcmp(ent->d_name + n - 4, ".viz") != 0)
            continue;
        buf path = BUF_INIT;
        buf_printf(&path, "%s/%s", dir.data, ent->d_name);
        prims += check_viz_file(path.data);
        files++;
        buf_free(&path);
    }
    closedir(d);
    buf_free(&dir);
    /* TLV 2.0.1 has 11 .viz files holding 39 primitives. */
    CHECK_INT(files, 11);
    CHECK_INT(prims, 39);
    printf("corpus: parsed %zu primitives in %zu .viz files\n", prims, files);
}

int main(void)
{
    test_position_forms();
    test_position_errors();
    test_sizes();
    test_error_buffer_limits();
    test_resolve();
    test_colors();
    test_type_names();
    test_closed_shapes();
    test_lines();
    test_polygon();
    test_text();
    test_geometry_members();
    test_arc();
    test_fill_and_pen();
    test_alpha_override();
    test_font();
    test_arguments();
    test_type_errors();
    test_color_and_number_errors();
    test_choice_errors();
    test_point_errors();
    test_geometry_errors();
    test_prim_error_buffer();
    test_box_and_points();
    test_corpus();
    return CHECK_DONE();
}
