/*
 * clock.c — reading wall-clock times (see clock.h). Times are held as
 * attoseconds in 128 bits, enough for any date of years 0000-9999 with 18
 * fraction digits, so the conversion to the TimeScale is exact.
 */
#include "lang/clock.h"

#include <stdio.h>
#include <string.h>

typedef __int128 wide;

#define ATTO ((wide)1000000000000000000LL)
#define DAY (86400 * ATTO)

int clock_unit_digits(const char *unit, size_t n)
{
    static const char *const units[] = {"s", "ms", "us", "ns"};
    for (int i = 0; i < 4; i++)
        if (strlen(units[i]) == n && memcmp(units[i], unit, n) == 0)
            return 3 * i;
    return -1;
}

typedef struct reader {
    const char *s;
    size_t n, i;
    const char *why;    /* what was wrong, for the message */
    char detail[80];
} reader;

/* Reads between min_digits and max_digits decimal digits. */
static int digits(reader *r, size_t min_digits, size_t max_digits, long *out)
{
    size_t start = r->i;
    long v = 0;
    while (r->i < r->n && r->i - start < max_digits && r->s[r->i] >= '0' && r->s[r->i] <= '9')
        v = v * 10 + (r->s[r->i++] - '0');
    if (r->i - start < min_digits)
        return -1;
    *out = v;
    return 0;
}

static int expect(reader *r, char c)
{
    if (r->i < r->n && r->s[r->i] == c) {
        r->i++;
        return 0;
    }
    return -1;
}

static int in_range(reader *r, const char *what, long v, long lo, long hi)
{
    if (v >= lo && v <= hi)
        return 0;
    snprintf(r->detail, sizeof r->detail, "%s %ld is out of range (%ld-%ld)", what, v, lo, hi);
    return -1;
}

static int leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static long days_in_month(long y, long m)
{
    static const long days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 to y-m-d (proleptic Gregorian; H. Hinnant's method). */
static long days_from_civil(long y, long m, long d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD" and the separator after it, into days. */
static int read_date(reader *r, long *days)
{
    long y, m, d;
    if (digits(r, 4, 4, &y) < 0 || expect(r, '-') < 0 || digits(r, 2, 2, &m) < 0 ||
        expect(r, '-') < 0 || digits(r, 2, 2, &d) < 0)
        return -1;
    if (in_range(r, "month", m, 1, 12) < 0 || in_range(r, "day", d, 1, days_in_month(y, m)) < 0)
        return -1;
    if (expect(r, ' ') < 0 && expect(r, 'T') < 0)
        return -1;
    *days = days_from_civil(y, m, d);
    return 0;
}

/* ".fraction" (when there is a '.') into attoseconds. */
static int read_fraction(reader *r, wide *frac)
{
    *frac = 0;
    if (expect(r, '.') == 0) {
        size_t start = r->i;
        wide scale = ATTO;
        while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9') {
            if (r->i - start == 18) {
                snprintf(r->detail, sizeof r->detail, "more than 18 fraction digits");
                return -1;
            }
            scale /= 10;
            *frac += scale * (r->s[r->i++] - '0');
        }
        if (r->i == start)
            return -1;
    }
    return 0;
}

/* "H:MM:SS[.fraction]" into attoseconds since midnight. */
static int read_time_of_day(reader *r, wide *atto)
{
    long h, m, s;
    wide frac;
    if (digits(r, 1, 2, &h) < 0 || expect(r, ':') < 0 || digits(r, 2, 2, &m) < 0 ||
        expect(r, ':') < 0 || digits(r, 2, 2, &s) < 0)
        return -1;
    if (in_range(r, "hour", h, 0, 23) < 0 || in_range(r, "minute", m, 0, 59) < 0 ||
        in_range(r, "second", s, 0, 60) < 0) /* 60: a leap second */
        return -1;
    if (read_fraction(r, &frac) < 0)
        return -1;
    *atto = ((wide)h * 3600 + m * 60 + s) * ATTO + frac;
    return 0;
}

/* "SECONDS[.fraction]" since 1970 (strace/ltrace -ttt, date +%s.%N) into
 * attoseconds. At most 12 digits of seconds: 30000 years. */
static int read_epoch_seconds(reader *r, wide *atto)
{
    long s;
    wide frac;
    if (digits(r, 1, 12, &s) < 0 || read_fraction(r, &frac) < 0)
        return -1;
    *atto = (wide)s * ATTO + frac;
    return 0;
}

/* Whether text[0..len) is a plain number of seconds (digits, then maybe a
 * '.' and more): no ':' and no date. */
static int is_epoch_seconds(const char *text, size_t len)
{
    return len > 0 && text[0] >= '0' && text[0] <= '9' && !memchr(text, ':', len) &&
           !memchr(text, '-', len);
}

/* Puts a time of day on the day of the last one, or the next day when it
 * is more than 12 hours earlier, or the day before when it is more than
 * 23 hours later. A leap second (23:59:60.x, tod >= DAY) counts as the
 * first second of the next day, as POSIX time counts it; so one logged
 * just after midnight is the leap second of the day before, also on the
 * first day: 00:00:00.5 then 23:59:60.7 is 0.2 s later, not a day later.
 * Only a time that would land before the first midnight stays where it is. */
static wide unwrap(clock_wrap *w, wide tod)
{
    if (!w)
        return tod;
    if (w->seen) {
        wide prev = (wide)w->sec * ATTO + w->atto;
        wide day = prev >= 0 ? prev / DAY : 0;
        wide t = day * DAY + tod;
        if (t < prev - DAY / 2)
            t += DAY;
        else if (t > prev + DAY - DAY / 24 && t >= DAY)
            t -= DAY; /* printed just before midnight, logged just after */
        tod = t;
    }
    w->seen = 1;
    w->sec = (int64_t)(tod / ATTO);
    w->atto = (uint64_t)(tod % ATTO);
    return tod;
}

static int format(wide t, int unit_digits, buf *out)
{
    wide per_unit = ATTO;
    for (int i = 0; i < unit_digits; i++)
        per_unit /= 10;
    wide mag = t < 0 ? -t : t;
    wide whole = mag / per_unit, frac = mag % per_unit;
    if (whole > INT64_MAX)
        return -1;
    char tmp[64];
    int n = snprintf(tmp, sizeof tmp, "%s%lld", t < 0 ? "-" : "", (long long)whole);
    if (frac) {
        tmp[n++] = '.';
        for (wide d = per_unit / 10; d > 0 && frac; d /= 10) {
            tmp[n++] = (char)('0' + (int)(frac / d));
            frac %= d;
        }
        tmp[n] = '\0';
    }
    return buf_puts(out, tmp);
}

/* Where and why the reader stopped in a text that is not a clock time: the
 * column (1-based, in the text without the blanks around it) of the first
 * byte it could not take, then what it expected. */
static void explain_stop(const reader *r, buf *err)
{
    unsigned char c = r->i < r->n ? (unsigned char)r->s[r->i] : 0;
    if (!r->n)
        buf_puts(err, "it is empty");
    else if (r->i >= r->n)
        buf_printf(err, "it ends too early (column %zu)", r->i + 1);
    else if (c >= ' ' && c < 127)
        buf_printf(err, "unexpected '%c' (column %zu)", c, r->i + 1);
    else
        buf_printf(err, "unexpected byte 0x%02x (column %zu)", c, r->i + 1);
    buf_puts(err, "; expected HH:MM:SS[.fraction], YYYY-MM-DD HH:MM:SS[.fraction] or "
                  "SECONDS[.fraction] since 1970");
}

int clock_convert(const char *text, size_t len, int unit_digits, clock_wrap *wrap, buf *out,
                  buf *err)
{
    while (len && (*text == ' ' || *text == '\t'))
        text++, len--;
    while (len && (text[len - 1] == ' ' || text[len - 1] == '\t'))
        len--;
    reader r = {text, len, 0, NULL, ""};
    int epoch = is_epoch_seconds(text, len);
    int dated = !epoch && len > 4 && text[4] == '-';
    long days = 0;
    wide tod;
    int ok = epoch ? read_epoch_seconds(&r, &tod) == 0
                   : (!dated || read_date(&r, &days) == 0) && read_time_of_day(&r, &tod) == 0;
    if (ok && dated && r.i < r.n && r.s[r.i] == 'Z')
        r.i++;
    if (!ok || r.i != r.n) {
        int shown = len > 60 ? 60 : (int)len;
        buf_printf(err, "'%.*s%s' is not a clock time: ", shown, text, len > 60 ? "..." : "");
        if (r.detail[0])
            buf_puts(err, r.detail);
        else
            explain_stop(&r, err);
        return -1;
    }
    wide t = epoch ? tod : dated ? (wide)days * DAY + tod : unwrap(wrap, tod);
    if (format(t, unit_digits, out) < 0) {
        buf_printf(err, "'%.*s' is too far from 1970 to count in 64 bits", (int)len, text);
        return -1;
    }
    return 0;
}
