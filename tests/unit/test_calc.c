/*
 * test_calc.c — the $CALC{} evaluator (calc.c) and the $CLOCK{} time reader
 * (clock.c): grammar, precision, every error message, and midnight wraps.
 */
#include "lang/calc.h"
#include "check.h"
#include "lang/clock.h"

static buf out, err;

/* The result text, or "ERR: message". */
static const char *calc(const char *text)
{
    buf_clear(&out);
    buf_clear(&err);
    if (calc_eval(text, strlen(text), &out, &err) < 0) {
        buf_clear(&out);
        buf_printf(&out, "ERR: %s", buf_str(&err));
    }
    return buf_str(&out);
}

static void test_grammar(void)
{
    CHECK_STR(calc("1+2"), "3");
    CHECK_STR(calc("2+3*4"), "14");           /* precedence */
    CHECK_STR(calc("(2+3)*4"), "20");
    CHECK_STR(calc("10-4-3"), "3");           /* left to right */
    CHECK_STR(calc("100/10/5"), "2");
    CHECK_STR(calc("17%5"), "2");
    CHECK_STR(calc("-17%5"), "-2");           /* the dividend's sign */
    CHECK_STR(calc("17%-5"), "2");
    CHECK_STR(calc("-3"), "-3");
    CHECK_STR(calc("--3"), "3");
    CHECK_STR(calc("+3"), "3");
    CHECK_STR(calc("2*-3"), "-6");
    CHECK_STR(calc("-(2+3)"), "-5");
    CHECK_STR(calc("  4 *  ( 1 + 1 ) "), "8");
    CHECK_STR(calc("((((7))))"), "7");
    CHECK_STR(calc("0x1f"), "31");
    CHECK_STR(calc("0X1F+1"), "32");
    CHECK_STR(calc("0x7fffffffffffffff"), "9223372036854775807");
    CHECK_STR(calc("007"), "7");
    CHECK_STR(calc(".5+1"), "1.5");
    CHECK_STR(calc("5.+1"), "6");
    CHECK_STR(calc("4096*3"), "12288");       /* calloc(n, size) */
    CHECK_STR(calc("1700000000.000126-1700000000.000001"), "0.000125");
}

static void test_precision(void)
{
    /* + - % keep the most precise operand's digits, as $SUM does */
    CHECK_STR(calc("1.50+1"), "2.50");
    CHECK_STR(calc("0.1+0.2"), "0.3");        /* exact, unlike a double */
    CHECK_STR(calc("1.000-1"), "0.000");
    CHECK_STR(calc("7.5%2"), "1.5");
    CHECK_STR(calc("-0.5+0.5"), "0.0");
    /* * is exact and / rounds to 6 digits (or the operands'), no trailing zeros */
    CHECK_STR(calc("1.5*2"), "3");
    CHECK_STR(calc("0.000126*1000000"), "126");
    CHECK_STR(calc("0.001*0.001"), "0.000001");
    CHECK_STR(calc("1.25*1.25"), "1.5625");
    CHECK_STR(calc("10/4"), "2.5");
    CHECK_STR(calc("1/3"), "0.333333");
    CHECK_STR(calc("2/3"), "0.666667");       /* half away from zero */
    CHECK_STR(calc("-2/3"), "-0.666667");
    CHECK_STR(calc("1/0.000000001"), "1000000000");
    CHECK_STR(calc("1/3.00000000"), "0.33333333"); /* the operand's 8 digits */
    CHECK_STR(calc("4096/0.000126"), "32507936.507937");
    CHECK_STR(calc("7/7"), "1");
    CHECK_STR(calc("0.123456789012345678*1"), "0.123456789012345678");
    /* a product with more digits than fit is rounded to fewer fraction digits */
    CHECK_STR(calc("0.123456789*0.123456789*0.123456789"), "0.001881676371789155");
    CHECK_STR(calc("999999999999999999"), "999999999999999999");
    CHECK_STR(calc("0x7fffffffffffffff-1"), "9223372036854775806");
    CHECK_STR(calc("-0x7fffffffffffffff-1"), "-9223372036854775808");
    CHECK_STR(calc("(-0x7fffffffffffffff-1)%-1"), "0");
    CHECK_STR(calc("(-0x7fffffffffffffff-1)/-1"), "ERR: the result is too large (column 24)");
    CHECK_STR(calc("-(-0x7fffffffffffffff-1)"), "ERR: the result is too large (column 1)");
}

static void test_errors(void)
{
    CHECK_STR(calc(""), "ERR: empty expression");
    CHECK_STR(calc("   "), "ERR: empty expression");
    CHECK_STR(calc("3*abc"), "ERR: 'abc' is not a number (column 3)");
    CHECK_STR(calc("12ab+1"), "ERR: '12ab' is not a number (column 1)");
    CHECK_STR(calc("1.2.3"), "ERR: '1.2.3' is not a number (column 1)");
    CHECK_STR(calc("0x"), "ERR: '0x' is not a number (column 1)");
    CHECK_STR(calc("0x1g"), "ERR: '0x1g' is not a number (column 1)");
    CHECK_STR(calc("0x8000000000000000"), "ERR: '0x8000000000000000' is not a number (column 1)");
    /* Whole numbers up to 2^63 - 1: any 64-bit trace time (issue 32.2). */
    CHECK_STR(calc("1234567890123456789"), "1234567890123456789");
    CHECK_STR(calc("9223372036854775807"), "9223372036854775807");
    CHECK_STR(calc("9223372036854775807-1"), "9223372036854775806");
    CHECK_STR(calc("-9223372036854775807-1"), "-9223372036854775808");
    CHECK_STR(calc("9223372036854775807+1"), "ERR: the result is too large (column 20)");
    CHECK_STR(calc("9223372036854775807*2"), "ERR: the result is too large (column 20)");
    CHECK_STR(calc("9223372036854775808"),
              "ERR: '9223372036854775808' has more digits than $CALC holds (a whole number "
              "within 64 bits, or 18 significant digits) (column 1)");
    CHECK_STR(calc("0.1234567890123456789"),
              "ERR: '0.1234567890123456789' has more digits than $CALC holds (a whole number "
              "within 64 bits, or 18 significant digits) (column 1)");
    CHECK_STR(calc("."), "ERR: '.' is not a number (column 1)");
    CHECK_STR(calc("3*"), "ERR: expected a number after '*' (column 2)");
    CHECK_STR(calc("3+"), "ERR: expected a number after '+' (column 2)");
    CHECK_STR(calc("3-"), "ERR: expected a number after '-' (column 2)");
    CHECK_STR(calc("3/"), "ERR: expected a number after '/' (column 2)");
    CHECK_STR(calc("3%"), "ERR: expected a number after '%' (column 2)");
    CHECK_STR(calc("3**2"), "ERR: expected a number after '*' (column 2)");
    CHECK_STR(calc("*2"), "ERR: unexpected '*' (column 1)");
    CHECK_STR(calc(")"), "ERR: unexpected ')' (column 1)");
    CHECK_STR(calc("()"), "ERR: expected a number after '(' (column 1)");
    CHECK_STR(calc("(1+2"), "ERR: missing ')' for this '(' (column 1)");
    CHECK_STR(calc("(1+2 3)"), "ERR: expected an operator or ')' (column 6)");
    CHECK_STR(calc("1+2)"), "ERR: unexpected ')' (column 4)");
    CHECK_STR(calc("1 2"), "ERR: expected an operator before '2' (column 3)");
    CHECK_STR(calc("2(3)"), "ERR: expected an operator before '(' (column 2)");
    CHECK_STR(calc("7/0"), "ERR: division by zero (column 2)");
    CHECK_STR(calc("7/(1-1)"), "ERR: division by zero (column 2)");
    CHECK_STR(calc("7%0.0"), "ERR: division by zero (column 2)");
    CHECK_STR(calc("0x7fffffffffffffff+1"), "ERR: the result is too large (column 19)");
    CHECK_STR(calc("-0x7fffffffffffffff-2"), "ERR: the result is too large (column 20)");
    CHECK_STR(calc("999999999999999999*999999999999999999"),
              "ERR: the result is too large (column 19)");
    CHECK_STR(calc("999999999999999999+0.1"), "ERR: the result is too large (column 19)");
    CHECK_STR(calc("1/0.000000000000000001"), "1000000000000000000");
    CHECK_STR(calc("100/0.000000000000000001"), "ERR: the result is too large (column 4)");
    CHECK_STR(calc("x\xc3\xa9y+1"), "ERR: 'x\xc3\xa9y' is not a number (column 1)");
    CHECK_STR(calc("\xc3\xa9+q"), "ERR: '\xc3\xa9' is not a number (column 1)");
    CHECK_STR(calc("1+\xc3\xa9"), "ERR: '\xc3\xa9' is not a number (column 3)");
    /* long operands are cut in the message */
    CHECK_STR(calc("1+aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"),
              "ERR: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...' is not a "
              "number (column 3)");
    /* depth limits: no stack exhaustion */
    char deep[512];
    memset(deep, '(', 300);
    strcpy(deep + 300, "1");
    CHECK_STR(calc(deep), "ERR: expression nested too deeply (column 101)");
    memset(deep, '-', 300);
    strcpy(deep + 300, "1");
    CHECK_STR(calc(deep), "ERR: expression nested too deeply (column 101)");
    memset(deep, '-', 100);
    strcpy(deep + 100, "1");
    CHECK_STR(calc(deep), "1");
}

/* The clock time in `unit`, through `wrap`, or "ERR: message". */
static const char *clock_in(const char *text, const char *unit, clock_wrap *wrap)
{
    buf_clear(&out);
    buf_clear(&err);
    if (clock_convert(text, strlen(text), clock_unit_digits(unit, strlen(unit)), wrap, &out,
                      &err) < 0) {
        buf_clear(&out);
        buf_printf(&out, "ERR: %s", buf_str(&err));
    }
    return buf_str(&out);
}

/* The message for a text that is not a clock time: why, then what is expected. */
static void check_not_clock(const char *text, const char *why)
{
    char want[300];
    snprintf(want, sizeof want,
             "ERR: '%s' is not a clock time: %s; expected HH:MM:SS[.fraction], "
             "YYYY-MM-DD HH:MM:SS[.fraction] or SECONDS[.fraction] since 1970",
             text, why);
    CHECK_STR(clock_in(text, "us", NULL), want);
}

static void test_clock(void)
{
    CHECK_INT(clock_unit_digits("s", 1), 0);
    CHECK_INT(clock_unit_digits("ms", 2), 3);
    CHECK_INT(clock_unit_digits("us", 2), 6);
    CHECK_INT(clock_unit_digits("ns", 2), 9);
    CHECK_INT(clock_unit_digits("cycles", 6), -1);
    CHECK_STR(clock_in("12:00:00.123456", "us", NULL), "43200123456");
    CHECK_STR(clock_in("12:00:00.123456", "ms", NULL), "43200123.456");
    CHECK_STR(clock_in("12:00:00.123456", "s", NULL), "43200.123456");
    CHECK_STR(clock_in("12:00:00.123456789", "us", NULL), "43200123456.789");
    CHECK_STR(clock_in("12:00:00.123456789", "ns", NULL), "43200123456789");
    CHECK_STR(clock_in("12:00:00", "ns", NULL), "43200000000000");
    CHECK_STR(clock_in("9:05:01.5", "ms", NULL), "32701500");
    CHECK_STR(clock_in(" 00:00:00.000000 ", "us", NULL), "0");
    CHECK_STR(clock_in("23:59:60", "s", NULL), "86400"); /* a leap second */
    CHECK_STR(clock_in("00:00:00.123456789012345678", "s", NULL), "0.123456789012345678");
    /* dates count from 1970-01-01 */
    /* seconds since 1970 (strace/ltrace -ttt): exact, never wrapped */
    CHECK_STR(clock_in("1795614997.060677", "us", NULL), "1795614997060677");
    CHECK_STR(clock_in("1795614997.060677", "ns", NULL), "1795614997060677000");
    CHECK_STR(clock_in("1795614997.060677", "ms", NULL), "1795614997060.677");
    CHECK_STR(clock_in("12", "ms", NULL), "12000");
    CHECK_STR(clock_in("0.5", "us", NULL), "500000");
    CHECK_STR(clock_in("999999999999.999999999999999999", "s", NULL),
              "999999999999.999999999999999999");
    CHECK_STR(clock_in("1970-01-01 00:00:01", "s", NULL), "1");
    CHECK_STR(clock_in("1970-01-02T00:00:00.5", "ms", NULL), "86400500");
    CHECK_STR(clock_in("2024-03-01 12:34:56.789012Z", "us", NULL), "1709296496789012");
    CHECK_STR(clock_in("2000-02-29 00:00:00", "s", NULL), "951782400");
    CHECK_STR(clock_in("1969-12-31 23:59:59", "s", NULL), "-1");
    CHECK_STR(clock_in("1969-12-31 23:59:59.25", "s", NULL), "-0.75");
    CHECK_STR(clock_in("0000-01-01 00:00:00", "s", NULL), "-62167219200");
    CHECK_STR(clock_in("2262-04-11 23:47:16.854775807", "ns", NULL), "9223372036854775807");
    CHECK_STR(clock_in("2262-04-11 23:47:16.854775808", "ns", NULL),
              "ERR: '2262-04-11 23:47:16.854775808' is too far from 1970 to count in 64 bits");
    /* errors */
    check_not_clock("12.5.3", "unexpected '.' (column 5)");
    check_not_clock("12.", "it ends too early (column 4)");
    check_not_clock("1234567890123", "unexpected '3' (column 13)"); /* > 12 digits of seconds */
    CHECK_STR(clock_in("1.0000000000000000001", "us", NULL),
              "ERR: '1.0000000000000000001' is not a clock time: more than 18 fraction digits");
    check_not_clock("12:00", "it ends too early (column 6)");
    check_not_clock("", "it is empty");
    check_not_clock("12:00:00.", "it ends too early (column 10)");
    check_not_clock("12:00:00 x", "unexpected ' ' (column 9)");
    check_not_clock("12:00:00Z", "unexpected 'Z' (column 9)");
    check_not_clock("2024-1-01 00:00:00", "unexpected '-' (column 7)");
    check_not_clock("2024-01-01_00:00:00", "unexpected '_' (column 11)");
    check_not_clock("12:00:00\x01", "unexpected byte 0x01 (column 9)");
    CHECK_STR(clock_in("24:00:00", "us", NULL),
              "ERR: '24:00:00' is not a clock time: hour 24 is out of range (0-23)");
    CHECK_STR(clock_in("12:60:00", "us", NULL),
              "ERR: '12:60:00' is not a clock time: minute 60 is out of range (0-59)");
    CHECK_STR(clock_in("12:00:61", "us", NULL),
              "ERR: '12:00:61' is not a clock time: second 61 is out of range (0-60)");
    CHECK_STR(clock_in("2023-02-29 00:00:00", "us", NULL),
              "ERR: '2023-02-29 00:00:00' is not a clock time: day 29 is out of range (1-28)");
    CHECK_STR(clock_in("2023-13-01 00:00:00", "us", NULL),
              "ERR: '2023-13-01 00:00:00' is not a clock time: month 13 is out of range (1-12)");
    CHECK_STR(clock_in("00:00:00.1234567890123456789", "us", NULL),
              "ERR: '00:00:00.1234567890123456789' is not a clock time: more than 18 fraction "
              "digits");
}

static void test_midnight(void)
{
    clock_wrap w = {0};
    CHECK_STR(clock_in("23:59:59.900000", "us", &w), "86399900000");
    CHECK_STR(clock_in("23:59:59.800000", "us", &w), "86399800000"); /* unordered: same day */
    CHECK_STR(clock_in("00:00:00.100000", "us", &w), "86400100000"); /* next day */
    CHECK_STR(clock_in("23:59:59.950000", "us", &w), "86399950000"); /* back, not a day on */
    CHECK_STR(clock_in("00:00:01", "us", &w), "86401000000");
    CHECK_STR(clock_in("11:00:00", "us", &w), "126000000000");       /* 11 h later: same day */
    CHECK_STR(clock_in("23:30:00", "us", &w), "171000000000");       /* 12.5 h later: same day */
    CHECK_STR(clock_in("10:00:00", "us", &w), "208800000000");       /* 13.5 h "back": day 3 */
    CHECK_STR(clock_in("2024-01-01 00:00:00", "s", &w), "1704067200"); /* dates do not wrap */
    CHECK_STR(clock_in("10:00:01", "s", &w), "208801");
    /* exactly 12 hours back is not a new day */
    clock_wrap v = {0};
    CHECK_STR(clock_in("12:00:00", "s", &v), "43200");
    CHECK_STR(clock_in("00:00:00", "s", &v), "0");
    CHECK_STR(clock_in("12:00:00.000001", "s", &v), "43200.000001");
    CHECK_STR(clock_in("00:00:00", "s", &v), "86400");
}

/* A leap second (23:59:60.x) counts as the first second of the next day, as
 * POSIX time does. Logged just after midnight it is the leap second of the
 * day before, on the first day too (fuzz_clock found it put a day later there:
 * tests/fuzz/regress/clock/leap-second-day-one). */
static void test_leap_second(void)
{
    clock_wrap w = {0};
    CHECK_STR(clock_in("0:00:00.5", "ms", &w), "500");
    CHECK_STR(clock_in("23:59:60.7", "ms", &w), "700"); /* 0.2 s on, was 86400700 */
    CHECK_STR(clock_in("00:00:00.9", "ms", &w), "900");
    clock_wrap v = {0};
    CHECK_STR(clock_in("23:59:59.5", "ms", &v), "86399500");
    CHECK_STR(clock_in("23:59:60.25", "ms", &v), "86400250"); /* in order before midnight */
    CHECK_STR(clock_in("00:00:00.1", "ms", &v), "86400100");  /* POSIX: 0.15 s back */
    CHECK_STR(clock_in("00:00:01", "ms", &v), "86401000");
    CHECK_STR(clock_in("23:59:60.999999999999999999", "s", &v), "86400.999999999999999999");
    clock_wrap d = {0}; /* a later day: the same rule as before */
    CHECK_STR(clock_in("23:00:00", "s", &d), "82800");
    CHECK_STR(clock_in("0:00:00.5", "s", &d), "86400.5");
    CHECK_STR(clock_in("23:59:60.7", "s", &d), "86400.7");
    CHECK_STR(clock_in("2924-02-29 23:59:60.999", "s", &d), "30110486400.999"); /* dated: as is */
    CHECK_STR(clock_in("2924-02-29 23:59:60.999", "s", NULL), "30110486400.999");
    CHECK_STR(clock_in("0:00:01", "s", &d), "86401");
    /* a time of day's seconds have two digits; a long fraction is an error */
    check_not_clock("0:00:01999999.29", "unexpected '9' (column 8)");
    CHECK_STR(clock_in("0:00:01.9999999999999999999", "s", &d),
              "ERR: '0:00:01.9999999999999999999' is not a clock time: more than 18 fraction "
              "digits");
}

int main(void)
{
    test_grammar();
    test_precision();
    test_errors();
    test_clock();
    test_midnight();
    test_leap_second();
    buf_free(&out);
    buf_free(&err);
    return check_failures ? 1 : 0;
}
