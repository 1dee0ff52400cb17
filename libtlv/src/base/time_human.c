/*
 * time_human.c — trace times as people read them (tlv.h, "Times as people
 * read them"): the names of the time modes, whether a time is a wall-clock
 * date, a wall-clock time written as a UTC date and time, and a time written
 * exactly in the SI unit that suits its size. Exact: the decimal digits of
 * tlv_time_format are moved, never rounded through a double, so a 16-digit
 * microsecond epoch keeps every digit.
 */
#include "tlv/tlv.h"

#include <stdio.h>
#include <string.h>

#include "base/time_human.h"

#define SPAN_TEXT_MAX 160

const char *tlv_time_mode_name(tlv_time_mode mode)
{
    switch (mode) {
    case TLV_TIME_AUTO: return "auto";
    case TLV_TIME_PLAIN: return "plain";
    case TLV_TIME_CLOCK: return "clock";
    case TLV_TIME_WALL: return "wall-clock";
    }
    return "";
}

int time_mode_parse(const char *name, tlv_time_mode *out)
{
    for (int m = TLV_TIME_AUTO; m <= TLV_TIME_WALL; m++)
        if (strcmp(name, tlv_time_mode_name((tlv_time_mode)m)) == 0) {
            *out = (tlv_time_mode)m;
            return 0;
        }
    return -1;
}

int time_scale_exponent(const char *scale, int *exp)
{
    static const struct {
        const char *name;
        int exp;
    } units[] = {{"s", 0}, {"ms", -3}, {"us", -6}, {"ns", -9}};
    for (size_t i = 0; scale && i < sizeof units / sizeof *units; i++)
        if (strcmp(scale, units[i].name) == 0) {
            *exp = units[i].exp;
            return 1;
        }
    return 0;
}

/* 2000-01-01 and 2100-01-01 00:00:00 UTC in seconds since 1970: a first
 * time between them is a date, not a count since a reset or a boot (no
 * machine runs 30 years without one, and no target timer starts there). */
#define DATES_FROM 946684800.0
#define DATES_TO 4102444800.0

tlv_time_mode time_mode_of(tlv_time_mode declared, tlv_time start, int radix, const char *scale,
                           int empty)
{
    if (declared == TLV_TIME_PLAIN || declared == TLV_TIME_WALL)
        return declared;
    int exp, date = 0;
    if (!empty && radix == 10 && time_scale_exponent(scale, &exp)) {
        double secs = tlv_time_to_double(start, radix);
        for (int i = 0; i < -exp; i++)
            secs /= 10;
        date = secs >= DATES_FROM && secs < DATES_TO;
    }
    if (date)
        return TLV_TIME_WALL;
    return declared == TLV_TIME_CLOCK ? TLV_TIME_CLOCK : TLV_TIME_PLAIN;
}

/* ---- exact decimal text -------------------------------------------------------- */

/* A decimal number as its digits and where its point is: value =
 * 0.d[0]d[1]... * 10^point (digits without leading or trailing zeros; none
 * for zero). */
typedef struct decimal {
    int negative;
    char d[SPAN_TEXT_MAX];
    int n;
    int point;
} decimal;

/* The decimal of time t in radix 10. */
static void decimal_of(tlv_time t, decimal *out)
{
    char text[SPAN_TEXT_MAX];
    tlv_time_format(t, 10, text, sizeof text);
    const char *p = text;
    memset(out, 0, sizeof *out);
    if (*p == '-') {
        out->negative = 1;
        p++;
    }
    int before_point = 1;
    for (; *p; p++) {
        if (*p == '.') {
            before_point = 0;
            continue;
        }
        if (out->n == 0 && *p == '0') { /* a leading zero: after the point it moves it left */
            out->point -= !before_point;
            continue;
        }
        out->d[out->n++] = *p;
        out->point += before_point;
    }
    while (out->n > 0 && out->d[out->n - 1] == '0')
        out->n--;
    if (out->n == 0) {
        out->negative = 0;
        out->point = 0;
    }
}

/* Writes the decimal times 10^shift, plainly ("1234.5", "0.0012", "0"). */
static void decimal_text(const decimal *x, int shift, char *out, size_t size)
{
    char s[2 * SPAN_TEXT_MAX];
    size_t k = 0;
    int point = x->point + shift;
    if (x->negative)
        s[k++] = '-';
    if (x->n == 0) {
        s[k++] = '0';
    } else if (point <= 0) {
        s[k++] = '0';
        s[k++] = '.';
        for (int i = point; i < 0; i++)
            s[k++] = '0';
        for (int i = 0; i < x->n; i++)
            s[k++] = x->d[i];
    } else {
        for (int i = 0; i < point || i < x->n; i++) {
            if (i == point)
                s[k++] = '.';
            s[k++] = i < x->n ? x->d[i] : '0';
        }
    }
    s[k] = '\0';
    snprintf(out, size, "%s", s);
}

size_t tlv_time_format_span(tlv_time t, int radix, const char *time_scale, char *buf,
                            size_t size)
{
    static const char *const names[] = {"s", "ms", "us", "ns", "ps"};
    const char *scale = time_scale ? time_scale : "";
    char num[2 * SPAN_TEXT_MAX];
    int exp;
    if (radix != 10 || !time_scale_exponent(scale, &exp)) {
        tlv_time_format(t, radix, num, sizeof num);
        return (size_t)snprintf(buf, size, "%s%s%s", num, *scale ? " " : "", scale);
    }
    decimal x;
    decimal_of(t, &x);
    /* the value's order of magnitude in seconds, then the unit at or below it */
    int mag = x.n ? x.point - 1 + exp : 0, unit = 0;
    while (unit < 4 && mag < -3 * unit)
        unit++;
    decimal_text(&x, exp + 3 * unit, num, sizeof num);
    return (size_t)snprintf(buf, size, "%s %s", num, names[unit]);
}

/* ---- dates ---------------------------------------------------------------------- */

/* Days since 1970-01-01 to a proleptic Gregorian civil date (H. Hinnant's
 * days_from_civil, inverted). */
static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

size_t tlv_time_format_date(tlv_time t, int radix, const char *time_scale, char *buf,
                            size_t size)
{
    int exp;
    if (buf && size)
        *buf = '\0';
    if (radix != 10 || !time_scale_exponent(time_scale, &exp))
        return 0;
    /* whole seconds, and the digits below them as an exact decimal text */
    int64_t per_sec = 1;
    for (int i = 0; i < -exp; i++)
        per_sec *= 10;
    int64_t secs = t.ticks / per_sec, sub = t.ticks % per_sec;
    if (sub < 0) {
        secs--;
        sub += per_sec;
    }
    tlv_time below = {sub, t.frac};
    char frac[SPAN_TEXT_MAX];
    decimal x;
    decimal_of(below, &x);
    decimal_text(&x, exp, frac, sizeof frac); /* "0.897048" or "0" */
    int64_t days = secs / 86400, rem = secs % 86400;
    if (rem < 0) {
        days--;
        rem += 86400;
    }
    int64_t year;
    int month, day;
    civil_from_days(days, &year, &month, &day);
    if (year < 1 || year > 9999)
        return 0;
    return (size_t)snprintf(buf, size, "%04d-%02d-%02d %02d:%02d:%02d%s UTC", (int)year, month, day,
                            (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60),
                            strcmp(frac, "0") == 0 ? "" : frac + 1);
}
