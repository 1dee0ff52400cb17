/*
 * test_time.c — exact times (libtlv/src/time.c): parsing in radixes 2..36,
 * fractions and their floor form for negatives, the 64-bit limits, error
 * reasons, ordering, differences, conversion to double, and the canonical
 * text form.
 */
#include "check.h"

#include "tlv/tlv.h"

#include <stdint.h>
#include <string.h>

#define SCALE10 1000000000000000000ull /* 10^18 */
#define SCALE16 (1ull << 60)           /* 16^15 */
#define SCALE2 (1ull << 62)            /* 2^62 */
#define SCALE36 4738381338321616896ull /* 36^12 */

static tlv_time parse_ok(const char *text, int radix)
{
    tlv_time t = {12345, 678};
    const char *why = NULL;
    tlv_status st = tlv_time_parse(text, strlen(text), radix, &t, &why);
    if (st != TLV_OK) {
        fprintf(stderr, "parse of \"%s\" in radix %d failed: %s\n", text, radix,
                why ? why : "(null)");
        check_failures++;
    }
    return t;
}

/* The reason a parse fails, or "(ok)" when it does not. */
static const char *parse_error(const char *text, int radix)
{
    tlv_time t = {7, 0};
    const char *why = "(unset)";
    tlv_status st = tlv_time_parse(text, strlen(text), radix, &t, &why);
    if (st == TLV_OK)
        return "(ok)";
    CHECK_INT(st, TLV_ERR_SYNTAX);
    CHECK_INT(t.ticks, 7); /* the output is left alone on failure */
    return why;
}

static const char *format(tlv_time t, int radix, char *buf)
{
    size_t n = tlv_time_format(t, radix, buf, 160);
    CHECK_INT(n, strlen(buf));
    return buf;
}

static tlv_time mk(int64_t ticks, uint64_t frac)
{
    tlv_time t = {ticks, frac};
    return t;
}

#define CHECK_TIME(t, ticks_, frac_)                                           \
    do {                                                                       \
        tlv_time tt_ = (t);                                                    \
        CHECK_INT(tt_.ticks, (ticks_));                                        \
        CHECK(tt_.frac == (uint64_t)(frac_));                                  \
    } while (0)

static void test_integers(void)
{
    CHECK_TIME(parse_ok("0", 10), 0, 0);
    CHECK_TIME(parse_ok("-0", 10), 0, 0);
    CHECK_TIME(parse_ok("1926099", 10), 1926099, 0);
    CHECK_TIME(parse_ok("00012", 10), 12, 0);
    CHECK_TIME(parse_ok("-42", 10), -42, 0);
    CHECK_TIME(parse_ok("101", 2), 5, 0);
    CHECK_TIME(parse_ok("-1111", 2), -15, 0);
    CHECK_TIME(parse_ok("ff", 16), 255, 0);
    CHECK_TIME(parse_ok("FF", 16), 255, 0);
    CHECK_TIME(parse_ok("DeadBeef", 16), 0xdeadbeefll, 0);
    CHECK_TIME(parse_ok("z", 36), 35, 0);
    CHECK_TIME(parse_ok("Zz", 36), 35 * 36 + 35, 0);
    CHECK_TIME(parse_ok("10", 36), 36, 0);
}

static void test_limits(void)
{
    CHECK_TIME(parse_ok("9223372036854775807", 10), INT64_MAX, 0);
    CHECK_TIME(parse_ok("-9223372036854775808", 10), INT64_MIN, 0);
    CHECK_STR(parse_error("9223372036854775808", 10), "time does not fit in 64 bits");
    CHECK_STR(parse_error("-9223372036854775809", 10), "time does not fit in 64 bits");
    CHECK_STR(parse_error("99999999999999999999999", 10), "time does not fit in 64 bits");
    CHECK_TIME(parse_ok("7fffffffffffffff", 16), INT64_MAX, 0);
    CHECK_TIME(parse_ok("-8000000000000000", 16), INT64_MIN, 0);
    CHECK_STR(parse_error("8000000000000000", 16), "time does not fit in 64 bits");
    CHECK_STR(parse_error("10000000000000000", 16), "time does not fit in 64 bits");
    /* 63 ones is INT64_MAX; a 64th digit overflows. */
    char ones[70];
    memset(ones, '1', 63);
    ones[63] = '\0';
    CHECK_TIME(parse_ok(ones, 2), INT64_MAX, 0);
    ones[63] = '1';
    ones[64] = '\0';
    CHECK_STR(parse_error(ones, 2), "time does not fit in 64 bits");
    CHECK_TIME(parse_ok("1y2p0ij32e8e7", 36), INT64_MAX, 0);
    CHECK_STR(parse_error("1y2p0ij32e8e8", 36), "time does not fit in 64 bits");
    /* The floor of -INT64_MAX-0.5 is below INT64_MIN. */
    CHECK_TIME(parse_ok("-9223372036854775807.5", 10), INT64_MIN, SCALE10 / 2);
    CHECK_STR(parse_error("-9223372036854775808.5", 10), "time does not fit in 64 bits");
    CHECK_TIME(parse_ok("-9223372036854775808.000", 10), INT64_MIN, 0);
}

static void test_fractions(void)
{
    CHECK_TIME(parse_ok("1.5", 10), 1, SCALE10 / 2);
    CHECK_TIME(parse_ok("0.000000000000000001", 10), 0, 1);
    CHECK_TIME(parse_ok("0.999999999999999999", 10), 0, SCALE10 - 1);
    CHECK_TIME(parse_ok("2.50", 10), 2, SCALE10 / 2);
    CHECK_TIME(parse_ok("3.", 10), 3, 0);
    CHECK_TIME(parse_ok(".25", 10), 0, SCALE10 / 4);
    CHECK_TIME(parse_ok("1.8", 16), 1, SCALE16 / 2);
    CHECK_TIME(parse_ok("0.c", 16), 0, SCALE16 / 4 * 3);
    CHECK_TIME(parse_ok("10.1", 2), 2, SCALE2 / 2);
    CHECK_TIME(parse_ok("0.i", 36), 0, SCALE36 / 2);
    /* Digits past the 18th add nothing when they are zeros. */
    CHECK_TIME(parse_ok("1.0000000000000000010000", 10), 1, 1);
    CHECK_STR(parse_error("1.0000000000000000001", 10), "too many fraction digits");
    CHECK_STR(parse_error("0.1234567890123456789", 10), "too many fraction digits");
    CHECK_STR(parse_error("0.1000000000000001", 16), "too many fraction digits");
}

static void test_negative_fractions(void)
{
    CHECK_TIME(parse_ok("-1.5", 10), -2, SCALE10 / 2);
    CHECK_TIME(parse_ok("-0.25", 10), -1, SCALE10 / 4 * 3);
    CHECK_TIME(parse_ok("-0.0", 10), 0, 0);
    CHECK_TIME(parse_ok("-2.000000000000000001", 10), -3, SCALE10 - 1);
    CHECK_TIME(parse_ok("-a.8", 16), -11, SCALE16 / 2);
}

static void test_errors(void)
{
    CHECK_STR(parse_error("", 10), "empty time");
    CHECK_STR(parse_error("-", 10), "time has no digits");
    CHECK_STR(parse_error(".", 10), "time has no digits");
    CHECK_STR(parse_error("-.", 10), "time has no digits");
    CHECK_STR(parse_error("12a", 10), "invalid digit for the radix");
    CHECK_STR(parse_error("2", 2), "invalid digit for the radix");
    CHECK_STR(parse_error("g", 16), "invalid digit for the radix");
    CHECK_STR(parse_error("1.g", 16), "invalid digit for the radix");
    CHECK_STR(parse_error("+1", 10), "invalid digit for the radix");
    CHECK_STR(parse_error(" 1", 10), "invalid digit for the radix");
    CHECK_STR(parse_error("1 ", 10), "invalid digit for the radix");
    CHECK_STR(parse_error("1.2.3", 10), "invalid digit for the radix");
    CHECK_STR(parse_error("--1", 10), "invalid digit for the radix");
    CHECK_STR(parse_error("_", 36), "invalid digit for the radix");
    CHECK_STR(parse_error("1", 1), "radix must be between 2 and 36");
    CHECK_STR(parse_error("1", 37), "radix must be between 2 and 36");
    CHECK_STR(parse_error("1", 0), "radix must be between 2 and 36");

    /* The length bounds the text: what follows is not read. */
    tlv_time t;
    const char *why = NULL;
    CHECK_INT(tlv_time_parse("123xyz", 3, 10, &t, &why), TLV_OK);
    CHECK_TIME(t, 123, 0);
    CHECK_INT(tlv_time_parse("123", 3, 10, &t, NULL), TLV_OK);
    CHECK_INT(tlv_time_parse("x", 1, 10, &t, NULL), TLV_ERR_SYNTAX);
}

static void test_compare(void)
{
    CHECK(tlv_time_cmp(mk(1, 0), mk(2, 0)) < 0);
    CHECK(tlv_time_cmp(mk(2, 0), mk(1, 0)) > 0);
    CHECK_INT(tlv_time_cmp(mk(5, 7), mk(5, 7)), 0);
    CHECK(tlv_time_cmp(mk(1, 5), mk(1, 6)) < 0);
    CHECK(tlv_time_cmp(mk(1, SCALE10 - 1), mk(2, 0)) < 0);
    CHECK(tlv_time_cmp(mk(INT64_MIN, 0), mk(INT64_MAX, 0)) < 0);
    CHECK(tlv_time_cmp(mk(INT64_MAX, 0), mk(INT64_MIN, 0)) > 0);

    /* Parsed values order like the numbers they write. */
    const char *ascending[] = {"-9223372036854775808", "-2", "-1.5", "-1.25", "-1",
                               "-0.5", "0", "0.000000000000000001", "0.5", "1",
                               "1.25", "1.5", "2", "9223372036854775807"};
    size_t n = sizeof ascending / sizeof ascending[0];
    for (size_t i = 0; i + 1 < n; i++) {
        tlv_time a = parse_ok(ascending[i], 10), b = parse_ok(ascending[i + 1], 10);
        if (tlv_time_cmp(a, b) >= 0 || tlv_time_cmp(b, a) <= 0) {
            fprintf(stderr, "order of %s and %s is wrong\n", ascending[i], ascending[i + 1]);
            check_failures++;
        }
    }
    CHECK_INT(tlv_time_cmp(parse_ok("1.50", 10), parse_ok("1.5", 10)), 0);
    CHECK_INT(tlv_time_cmp(parse_ok("-0", 10), parse_ok("0", 10)), 0);
}

static void test_to_double(void)
{
    CHECK(tlv_time_to_double(mk(42, 0), 10) == 42.0);
    CHECK(tlv_time_to_double(parse_ok("1.5", 10), 10) == 1.5);
    CHECK(tlv_time_to_double(parse_ok("-1.5", 10), 10) == -1.5);
    CHECK(tlv_time_to_double(parse_ok("-0.25", 10), 10) == -0.25);
    CHECK(tlv_time_to_double(parse_ok("1.8", 16), 16) == 1.5);
    CHECK(tlv_time_to_double(parse_ok("0.01", 2), 2) == 0.25);
    CHECK(tlv_time_to_double(parse_ok("0.i", 36), 36) == 0.5);
    CHECK(tlv_time_to_double(mk(INT64_MIN, 0), 10) == -9223372036854775808.0);
}

static void test_format(void)
{
    char buf[160];
    CHECK_STR(format(mk(0, 0), 10, buf), "0");
    CHECK_STR(format(mk(1926099, 0), 10, buf), "1926099");
    CHECK_STR(format(mk(-42, 0), 10, buf), "-42");
    CHECK_STR(format(mk(255, 0), 16, buf), "ff");
    CHECK_STR(format(mk(5, 0), 2, buf), "101");
    CHECK_STR(format(mk(35 * 36 + 35, 0), 36, buf), "zz");
    CHECK_STR(format(mk(INT64_MAX, 0), 10, buf), "9223372036854775807");
    CHECK_STR(format(mk(INT64_MIN, 0), 10, buf), "-9223372036854775808");
    CHECK_STR(format(mk(INT64_MIN, 0), 16, buf), "-8000000000000000");
    CHECK_STR(format(mk(1, SCALE10 / 2), 10, buf), "1.5");
    CHECK_STR(format(mk(0, 1), 10, buf), "0.000000000000000001");
    CHECK_STR(format(mk(-2, SCALE10 / 2), 10, buf), "-1.5");
    CHECK_STR(format(mk(-1, SCALE10 / 4 * 3), 10, buf), "-0.25");
    CHECK_STR(format(mk(INT64_MIN, SCALE10 / 2), 10, buf), "-9223372036854775807.5");
    CHECK_STR(format(mk(1, SCALE16 / 2), 16, buf), "1.8");
    CHECK_STR(format(mk(0, SCALE36 / 2), 36, buf), "0.i");
    CHECK_STR(format(mk(1, 0), 1, buf), "");

    /* The longest text there is: radix 2, every digit used. */
    tlv_time longest = mk(INT64_MIN, 1);
    size_t n = tlv_time_format(longest, 2, buf, sizeof buf);
    CHECK_INT(n, 1 + 63 + 1 + 62);
    CHECK(buf[0] == '-' && buf[64] == '.' && buf[n - 1] == '1');

    /* Cut like snprintf: the full length comes back, the text is cut. */
    char small[4];
    CHECK_INT(tlv_time_format(mk(123456, 0), 10, small, sizeof small), 6);
    CHECK_STR(small, "123");
    CHECK_INT(tlv_time_format(mk(123456, 0), 10, NULL, 0), 6);
}

/* Parsing the canonical text gives the time back, and canonical text
 * survives a parse and format unchanged. */
static void test_round_trips(void)
{
    static const struct {
        const char *text;
        int radix;
    } canonical[] = {
        {"0", 10},
        {"7", 10},
        {"-7", 10},
        {"1.5", 10},
        {"-1.5", 10},
        {"-0.000000000000000001", 10},
        {"123456789.123456789123456789", 10},
        {"9223372036854775807.999999999999999999", 10},
        {"-9223372036854775808", 10},
        {"-9223372036854775807.000000000000000001", 10},
        {"101.011", 2},
        {"deadbeef.cafe", 16},
        {"-7fffffffffffffff.fffffffffffffff", 16},
        {"zz.zzzzzzzzzzzz", 36},
        {"-1y2p0ij32e8e8", 36},
        {"12.1", 3},
    };
    char buf[160];
    for (size_t i = 0; i < sizeof canonical / sizeof canonical[0]; i++) {
        tlv_time t = parse_ok(canonical[i].text, canonical[i].radix);
        CHECK_STR(format(t, canonical[i].radix, buf), canonical[i].text);
    }
    /* The smallest step in radix 2: 62 fraction digits. */
    char tiny[80] = "-0.";
    memset(tiny + 3, '0', 61);
    strcpy(tiny + 64, "1");
    CHECK_TIME(parse_ok(tiny, 2), -1, SCALE2 - 1);
    CHECK_STR(format(parse_ok(tiny, 2), 2, buf), tiny);
    tiny[64] = '0';
    strcpy(tiny + 65, "1");
    CHECK_STR(parse_error(tiny, 2), "too many fraction digits");

    CHECK_STR(format(parse_ok("00012", 10), 10, buf), "12");
    CHECK_STR(format(parse_ok("1.2500", 10), 10, buf), "1.25");
    CHECK_STR(format(parse_ok("-0", 10), 10, buf), "0");
    CHECK_STR(format(parse_ok("ABC", 16), 16, buf), "abc");

    const tlv_time values[] = {mk(0, 0), mk(-1, 1), mk(-1, SCALE10 - 1), mk(INT64_MIN, 0),
                               mk(INT64_MIN, 1), mk(INT64_MAX, SCALE10 - 1), mk(3, 10)};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        tlv_time back = parse_ok(format(values[i], 10, buf), 10);
        CHECK_INT(tlv_time_cmp(back, values[i]), 0);
    }
}

static void test_sub(void)
{
    char buf[160];
    CHECK_TIME(tlv_time_sub(mk(700, 0), mk(250, 0), 10), 450, 0);
    CHECK_TIME(tlv_time_sub(mk(2, SCALE10 / 4), mk(1, SCALE10 / 2), 10), 0, SCALE10 * 3 / 4);
    CHECK_STR(format(tlv_time_sub(parse_ok("1.25", 10), parse_ok("3.5", 10), 10), 10, buf),
              "-2.25");
    CHECK_STR(format(tlv_time_sub(parse_ok("a.8", 16), parse_ok("1.c", 16), 16), 16, buf), "8.c");
    CHECK_TIME(tlv_time_sub(mk(INT64_MIN, 0), mk(1, 0), 10), INT64_MAX, 0); /* wraps, no UB */
}

/* Spans over the whole range (issue 32.2): from -2^63 to 2^63 - 1 is
 * 2^64 - 1 ticks, where tlv_time_sub's -1 made CSV, SQLite, Chrome and
 * stats durations negative. */
static void test_span(void)
{
    uint64_t ticks = 0;
    CHECK(tlv_time_span(mk(250, 0), mk(700, 0), 10) == 450.0);
    CHECK(tlv_time_span(mk(700, 0), mk(250, 0), 10) == -450.0);
    CHECK(tlv_time_span(mk(1, SCALE10 / 2), mk(2, SCALE10 / 4), 10) == 0.75);
    CHECK(tlv_time_span(mk(2, SCALE10 / 4), mk(1, SCALE10 / 2), 10) == -0.75);
    CHECK(tlv_time_span(mk(INT64_MIN, 0), mk(INT64_MAX, 0), 10) == 18446744073709551615.0);
    CHECK(tlv_time_span(mk(INT64_MAX, 0), mk(INT64_MIN, 0), 10) == -18446744073709551615.0);
    CHECK(tlv_time_span(mk(-1, 0), mk(INT64_MAX, 0), 10) == 9223372036854775808.0);
    CHECK(tlv_time_span(mk(INT64_MIN, SCALE10 / 2), mk(INT64_MAX, 0), 10) ==
          18446744073709551614.5);
    CHECK(tlv_time_span(mk(5, 3), mk(5, 3), 10) == 0.0);
    CHECK(tlv_time_span(mk(INT64_MIN, 1), mk(INT64_MIN, 2), 36) > 0);

    CHECK_INT(tlv_time_span_fits(mk(-1, 0), mk(INT64_MAX - 1, 0), 10, &ticks), 1);
    CHECK(ticks == (uint64_t)INT64_MAX);
    CHECK_INT(tlv_time_span_fits(mk(-1, 0), mk(INT64_MAX, 0), 10, &ticks), 0);
    CHECK(ticks == (uint64_t)INT64_MAX + 1);
    CHECK_INT(tlv_time_span_fits(mk(INT64_MIN, 0), mk(INT64_MAX, 0), 10, &ticks), 0);
    CHECK(ticks == UINT64_MAX);
    /* A borrow from the fraction: 2^64 - 2 whole ticks and a half. */
    CHECK_INT(tlv_time_span_fits(mk(INT64_MIN, SCALE10 / 2), mk(INT64_MAX, 0), 10, &ticks), 0);
    CHECK(ticks == UINT64_MAX - 1);
    CHECK_INT(tlv_time_span_fits(mk(0, 0), mk(0, 7), 10, NULL), 1);
}

int main(void)
{
    test_integers();
    test_limits();
    test_fractions();
    test_negative_fractions();
    test_errors();
    test_compare();
    test_to_double();
    test_span();
    test_format();
    test_round_trips();
    test_sub();
    return CHECK_DONE();
}
