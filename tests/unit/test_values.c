/*
 * test_values.c — drawing values as heights and calls at depths (figure.h,
 * tlv extensions): v(VALUE,LO,HI) in Y positions and heights with its
 * clamping and errors, v(VALUE) fitted to a row's range, and "Depth" /
 * "DepthRows" sub-rows in the pixel box.
 */
#include "check.h"

#include "shape/figure.h"
#include "base/json.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

static const char *pos_error(const char *text)
{
    static char err[200];
    pos_spec p;
    err[0] = '\0';
    if (geom_parse_position(text, &p, err, sizeof err) == 0)
        return "(no error)";
    return err;
}

static int near(double a, double b) { return fabs(a - b) < 1e-4; }

/* Parses one primitive object; its pixel box in a 100 x 40 area at (0, 10). */
static int parse(const char *json, prim *p, char *err, size_t errsz)
{
    tj_error e;
    tj_node *n = tj_parse(json, strlen(json), &e);
    if (!n) {
        snprintf(err, errsz, "bad JSON in test");
        return -1;
    }
    int rc = prim_parse(n, NULL, 0, p, err, errsz);
    tj_free(n);
    return rc;
}

static void test_fixed_bounds(void)
{
    pos_spec p = pos("0,v(25,0,100)"); /* a quarter up: 75% from the top */
    CHECK_INT(p.y.unit, LEN_PCT);
    CHECK(near(p.y.value, 75));
    p = pos("0, v( -5 , -10 , 10 )");
    CHECK(near(p.y.value, 75));
    p = pos("0,v(500,0,100)"); /* above the range: the top edge */
    CHECK(near(p.y.value, 0));
    p = pos("0,v(-1,0,100)");  /* below: the bottom */
    CHECK(near(p.y.value, 100));
    size_spec s;
    char err[200];
    CHECK_INT(geom_parse_size("100%,v(25,0,100)", &s, err, sizeof err), 0);
    CHECK_INT(s.h.unit, LEN_PCT);
    CHECK(near(s.h.value, 25));
    p = pos("0,v(7)"); /* no bounds: the row's range, later */
    CHECK_INT(p.y.unit, LEN_VALUE_POS);
    CHECK(near(p.y.value, 7));

    CHECK_STR(pos_error("v(1,0,2),0"), "v() places a value in the height: not allowed in X 'v(1,0,2)'");
    CHECK_STR(pos_error("0,v(abc)"), "v(): 'abc' is not a number in 'v(abc)'");
    CHECK_STR(pos_error("0,v()"), "v(): '' is not a number in 'v()'");
    CHECK_STR(pos_error("0,v(1,2,3,4)"), "v() takes VALUE, VALUE,LO or VALUE,LO,HI: 'v(1,2,3,4)'");
    CHECK_STR(pos_error("0,v(1,x)"), "v(): 'x' is not a number in 'v(1,x)'");
    CHECK_STR(pos_error("0,v(1,5,5)"), "v(): the low bound must be below the high one in 'v(1,5,5)'");
    CHECK_STR(pos_error("0,v(1"), "missing ')' in 'v(1'");
    CHECK_STR(pos_error("0,v(1,0,2),3"), "expected 'X,Y', found '0,v(1,0,2),3'");
}

static void test_row_range(void)
{
    prim a, b;
    char err[200];
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Location\":\"0,v(10)\",\"Size\":\"100%,v(10)\"}", &a,
                    err, sizeof err), 0);
    CHECK_INT(parse("{\"Type\":\"Line\",\"Points\":[\"0,v(30)\",\"100%,v(20)\"]}", &b, err,
                    sizeof err), 0);
    CHECK_INT(a.auto_values, 1);
    double lo = INFINITY, hi = -INFINITY;
    CHECK_INT(prim_value_range(&a, &lo, &hi), 1);
    CHECK_INT(prim_value_range(&b, &lo, &hi), 1);
    CHECK(lo == 10 && hi == 30);
    prim_fit_values(&a, lo, hi);
    prim_fit_values(&b, lo, hi);
    CHECK_INT(a.auto_values, 0);
    CHECK(a.location.y.unit == LEN_PCT && near(a.location.y.value, 100)); /* the row's minimum */
    CHECK(near(a.size.h.value, 0));
    CHECK(near(b.points[0].y.value, 0));   /* the maximum: the top */
    CHECK(near(b.points[1].y.value, 50));
    prim_free(&a);
    prim_free(&b);
    /* a row whose values are all the same: the middle */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Location\":\"0,v(4)\"}", &a, err, sizeof err), 0);
    prim_fit_values(&a, 4, 4);
    CHECK(near(a.location.y.value, 50));
    prim_free(&a);
    /* v(VALUE,LO): LO stays in the row's range, at the bottom (a counter's
     * baseline: 0 bytes is an empty row, whatever the row's other values) */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Location\":\"0,v(30,0)\",\"Size\":\"100%,v(30,0)\"}",
                    &a, err, sizeof err), 0);
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Location\":\"0,v(60,0)\",\"Size\":\"100%,v(60,0)\"}",
                    &b, err, sizeof err), 0);
    lo = INFINITY, hi = -INFINITY;
    prim_value_range(&a, &lo, &hi);
    prim_value_range(&b, &lo, &hi);
    CHECK(lo == 0 && hi == 60);
    prim_fit_values(&a, lo, hi);
    CHECK(near(a.location.y.value, 50) && near(a.size.h.value, 50)); /* half of the maximum */
    prim_free(&a);
    prim_free(&b);
    /* a row whose values all sit at LO: at the bottom, empty (v(VALUE) puts
     * such a row in the middle) */
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Location\":\"0,v(0,0)\",\"Size\":\"100%,v(0,0)\"}",
                    &a, err, sizeof err), 0);
    lo = INFINITY, hi = -INFINITY;
    prim_value_range(&a, &lo, &hi);
    prim_fit_values(&a, lo, hi);
    CHECK(near(a.location.y.value, 100) && near(a.size.h.value, 0));
    prim_free(&a);
    /* a primitive without v() has no range */
    CHECK_INT(parse("{\"Type\":\"Rectangle\"}", &a, err, sizeof err), 0);
    CHECK_INT(prim_value_range(&a, &lo, &hi), 0);
    prim_free(&a);
}

static void test_depth(void)
{
    prim p;
    char err[200];
    frect area = {0, 10, 100, 40};
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Depth\":\"1\"}", &p, err, sizeof err), 0);
    frect box = prim_box(&p, area); /* 4 sub-rows of 10 px: the second */
    CHECK(near(box.y, 20) && near(box.h, 10) && near(box.x, 0) && near(box.w, 100));
    prim_free(&p);
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Depth\":9,\"DepthRows\":2,\"Size\":\"100%,50%\"}", &p,
                    err, sizeof err), 0);
    box = prim_box(&p, area); /* deeper than the rows: the last */
    CHECK(near(box.y, 30) && near(box.h, 10));
    prim_free(&p);
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"DepthRows\":2}", &p, err, sizeof err), 0);
    box = prim_box(&p, area); /* no Depth: the whole row */
    CHECK(near(box.y, 10) && near(box.h, 40));
    prim_free(&p);
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Depth\":\"x\"}", &p, err, sizeof err), -1);
    CHECK_STR(err, "Depth: 'x' is not a depth (expected a number >= 0)");
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Depth\":\"-1\"}", &p, err, sizeof err), -1);
    CHECK_STR(err, "Depth: '-1' is not a depth (expected a number >= 0)");
    CHECK_INT(parse("{\"Type\":\"Rectangle\",\"Depth\":1,\"DepthRows\":0}", &p, err, sizeof err), -1);
    CHECK_STR(err, "DepthRows: '0' is not a number of rows (expected a number >= 1)");
}

int main(void)
{
    test_fixed_bounds();
    test_row_range();
    test_depth();
    return check_failures ? 1 : 0;
}
