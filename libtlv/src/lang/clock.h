/*
 * clock.h — wall-clock times in logs (a tlv extension, the $CLOCK{} macro):
 * "HH:MM:SS[.fraction]" (ltrace -tt, syslog, serial consoles) and
 * "YYYY-MM-DD[ T]HH:MM:SS[.fraction][Z]", and "SECONDS[.fraction]" since
 * 1970 (strace/ltrace -ttt), turned exactly into a number of seconds,
 * milliseconds, microseconds or nanoseconds (the trace's TimeScale).
 *
 * A time with a date counts from 1970-01-01 00:00:00 (no time zone is
 * applied). A time without one counts from the midnight of the first line,
 * and crosses midnight by itself: a time more than 12 hours before the
 * previous one is taken to be on the next day, so a log running from 23:59
 * to 00:01 keeps going forward (and one more than 23 hours after it is back
 * on the previous day: a line written just before midnight, after one
 * written just after it). A leap second, 23:59:60.x, counts as 00:00:00.x
 * of the next day, as POSIX time does.
 */
#ifndef TLV_CLOCK_H
#define TLV_CLOCK_H

#include "base/buf.h"

#include <stddef.h>
#include <stdint.h>

/* What a conversion remembers for midnight wraps: the last time without a
 * date, as seconds and attoseconds (10^-18 s) since the first midnight. */
typedef struct clock_wrap {
    int seen;
    int64_t sec;
    uint64_t atto;
} clock_wrap;

/* Fraction digits of `unit` relative to a second: "s" 0, "ms" 3, "us" 6,
 * "ns" 9; -1 for any other word. */
int clock_unit_digits(const char *unit, size_t n);

/* Converts the clock time text[0..len) into `unit_digits` (from
 * clock_unit_digits) and appends it to out: the whole units, then a '.' and
 * the fraction when there is one, without trailing zeros ("43200123456.789").
 * `wrap` (NULL: no wrap) is read and updated for times without a date.
 * Returns 0, or -1 with the reason appended to err, e.g. "'12:61:00' is not
 * a clock time: minute 61 is out of range (0-59)". */
int clock_convert(const char *text, size_t len, int unit_digits, clock_wrap *wrap, buf *out,
                  buf *err);

#endif
