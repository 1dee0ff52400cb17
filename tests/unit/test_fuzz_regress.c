/*
 * test_fuzz_regress.c — every crash fuzzing found (tests/fuzz/run.sh), fed
 * again with the exact result it must now give. The crashing inputs
 * themselves live in tests/fuzz/regress/TARGET/ and are also replayed
 * through their fuzz target by ctest (fuzz.TARGET); this file states what
 * the fix means, so that a build whose sanitizers would not notice (gcc's
 * UBSan does not check float-to-int conversions) still proves it.
 */
#include "check.h"

#include "shape/figure.h"

static int parse_prim(const char *json, prim *p, char *err, size_t errsz)
{
    tj_error jerr;
    tj_node *root = tj_parse(json, strlen(json), &jerr);
    if (!root) {
        fprintf(stderr, "not JSON: %s\n", json);
        check_failures++;
        return -2;
    }
    int rc = prim_parse(root, NULL, 0, p, err, errsz);
    tj_free(root);
    return rc;
}

/* fuzz_geom, tests/fuzz/regress/geom/alpha-0e12706-nan: the number scanner
 * computed 0 x 10^12706 as 0 x inf = NaN, and the Alpha check converted the
 * NaN to int (undefined behaviour). Zero with any exponent is zero now, and
 * a value no float can hold is not a number. */
static void test_numbers_beyond_float(void)
{
    prim p;
    char err[300];
    CHECK_INT(parse_prim("{\"Type\":\"Text\",\"x\":\"G\",\"Font\":{\"y\":\"422t\","
                         "\"Alpha\":\"00E12706\"},}", &p, err, sizeof err), 0);
    CHECK_INT(p.font_color >> 24, 0); /* 00E12706 is 0 */
    prim_free(&p);
    CHECK_INT(parse_prim("{\"Type\":\"Text\",\"Font\":{\"Alpha\":\"1e999\"}}", &p, err,
                         sizeof err), -1);
    CHECK_STR(err, "Font.Alpha: '1e999' is not an alpha value (expected an integer 0-255)");
    CHECK_INT(parse_prim("{\"Type\":\"Text\",\"Font\":{\"Size\":\"1e40\"}}", &p, err, sizeof err),
              -1);
    CHECK_STR(err, "Font.Size: '1e40' is not a font size (expected a number > 0)");

    pos_spec pos;
    CHECK_INT(geom_parse_position("0e99999,1e-99999", &pos, err, sizeof err), 0);
    CHECK(pos.x.value == 0 && pos.y.value == 0);
    CHECK_INT(geom_parse_position("3e38,-3e38px", &pos, err, sizeof err), 0);
    CHECK(pos.x.value == 3e38f && pos.y.value == -3e38f);
    CHECK_INT(geom_parse_position("1e39,0", &pos, err, sizeof err), -1);
    CHECK_STR(err, "expected a number in '1e39'");
    size_spec size;
    char digits[420];
    memset(digits, '9', 400);
    strcpy(digits + 400, "%,1");
    CHECK_INT(geom_parse_size(digits, &size, err, sizeof err), -1); /* 400 digits: inf */
}

int main(void)
{
    test_numbers_beyond_float();
    return CHECK_DONE();
}
