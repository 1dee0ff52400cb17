/*
 * time.c — exact trace times (tlv_time, see tlv.h): parsing a time written in
 * any radix 2..36, ordering, conversion to double, and the canonical text
 * form. A time is whole ticks plus a fixed-point fraction of radix^F, so
 * times written in the trace's radix are held without rounding.
 *
 * Parsing accepts fraction digits beyond F when every extra digit is '0'
 * (they add nothing to the value); any other excess is an error rather than
 * a silent rounding.
 */
#include "tlv/tlv.h"

#include <string.h>

#define MAX_INT64_MAGNITUDE ((uint64_t)INT64_MAX + 1u) /* |INT64_MIN| */

/* Longest text tlv_time_format can produce (radix 2: '-', 64 integer
 * digits, '.', 62 fraction digits), plus the NUL. */
#define TIME_TEXT_MAX 130

static int radix_is_valid(int radix) { return radix >= 2 && radix <= 36; }

/* The value of `c` as a digit, or -1; letters are case-insensitive. */
static int digit_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z')
        return c - 'A' + 10;
    return -1;
}

/* radix^F, the fraction scale, and F itself (the digit count). */
static uint64_t fraction_scale(int radix, int *digits)
{
    uint64_t scale = 1;
    int n = 0;
    while (scale <= (uint64_t)INT64_MAX / (uint64_t)radix) {
        scale *= (uint64_t)radix;
        n++;
    }
    if (digits)
        *digits = n;
    return scale;
}

int tlv_time_cmp(tlv_time a, tlv_time b)
{
    if (a.ticks != b.ticks)
        return a.ticks < b.ticks ? -1 : 1;
    if (a.frac != b.frac)
        return a.frac < b.frac ? -1 : 1;
    return 0;
}

/* Wraps rather than overflows (unsigned arithmetic): the documented range
 * is the caller's to keep, and a wrap is not undefined behavior. */
tlv_time tlv_time_sub(tlv_time a, tlv_time b, int radix)
{
    tlv_time d;
    uint64_t ticks = (uint64_t)a.ticks - (uint64_t)b.ticks;
    if (a.frac >= b.frac) {
        d.frac = a.frac - b.frac;
    } else {
        uint64_t scale = radix_is_valid(radix) ? fraction_scale(radix, NULL) : 0;
        d.frac = a.frac + (scale - b.frac);
        ticks--;
    }
    d.ticks = (int64_t)ticks;
    return d;
}

/* to - from for to >= from: whole ticks as an unsigned number (always
 * enough: two 64-bit times are less than 2^64 apart) and the fraction. */
static uint64_t span_parts(tlv_time from, tlv_time to, int radix, uint64_t *frac)
{
    uint64_t ticks = (uint64_t)to.ticks - (uint64_t)from.ticks;
    if (to.frac >= from.frac) {
        *frac = to.frac - from.frac;
    } else {
        uint64_t scale = radix_is_valid(radix) ? fraction_scale(radix, NULL) : 0;
        *frac = to.frac + (scale - from.frac);
        ticks--; /* to > from here, so at least one whole tick lies between */
    }
    return ticks;
}

double tlv_time_span(tlv_time from, tlv_time to, int radix)
{
    if (tlv_time_cmp(to, from) < 0)
        return -tlv_time_span(to, from, radix);
    uint64_t frac;
    uint64_t ticks = span_parts(from, to, radix, &frac);
    if (!radix_is_valid(radix) || frac == 0)
        return (double)ticks;
    return (double)ticks + (double)frac / (double)fraction_scale(radix, NULL);
}

int tlv_time_span_fits(tlv_time from, tlv_time to, int radix, uint64_t *ticks)
{
    uint64_t frac;
    uint64_t whole = tlv_time_cmp(to, from) >= 0 ? span_parts(from, to, radix, &frac) : 0;
    if (ticks)
        *ticks = whole;
    return whole <= (uint64_t)INT64_MAX;
}

double tlv_time_to_double(tlv_time t, int radix)
{
    if (!radix_is_valid(radix) || t.frac == 0)
        return (double)t.ticks;
    return (double)t.ticks + (double)t.frac / (double)fraction_scale(radix, NULL);
}

static tlv_status fail(const char **why, const char *reason)
{
    if (why)
        *why = reason;
    return TLV_ERR_SYNTAX;
}

/* Reads the integer digits at *p into *mag, stopping at '.' or the end.
 * Magnitudes up to |INT64_MIN| are accepted here; the sign decides later
 * whether the value fits. */
static const char *parse_integer_part(const char *p, const char *end, int radix,
                                      uint64_t *mag, const char **why)
{
    uint64_t v = 0;
    if (radix == 10) { /* the common case, on every event: no general digit table */
        for (; p < end && *p >= '0' && *p <= '9'; p++) {
            uint64_t d = (uint64_t)(*p - '0');
            if (v > (MAX_INT64_MAGNITUDE - d) / 10) {
                fail(why, "time does not fit in 64 bits");
                return NULL;
            }
            v = v * 10 + d;
        }
    }
    for (; p < end && *p != '.'; p++) {
        int d = digit_value(*p);
        if (d < 0 || d >= radix) {
            fail(why, "invalid digit for the radix");
            return NULL;
        }
        if (v > (MAX_INT64_MAGNITUDE - (uint64_t)d) / (uint64_t)radix) {
            fail(why, "time does not fit in 64 bits");
            return NULL;
        }
        v = v * (uint64_t)radix + (uint64_t)d;
    }
    *mag = v;
    return p;
}

/* Reads fraction digits [p, end) as a numerator over radix^F. */
static tlv_status parse_fraction_part(const char *p, const char *end, int radix,
                                      uint64_t *frac, const char **why)
{
    int max_digits;
    uint64_t scale = fraction_scale(radix, &max_digits);
    uint64_t v = 0;
    int used = 0;
    for (; p < end; p++) {
        int d = digit_value(*p);
        if (d < 0 || d >= radix)
            return fail(why, "invalid digit for the radix");
        if (used == max_digits) {
            if (d != 0)
                return fail(why, "too many fraction digits");
            continue;
        }
        v = v * (uint64_t)radix + (uint64_t)d;
        used++;
    }
    /* Shift the digits read to the scale: 0.5 is 5 * 10^17 / 10^18. */
    uint64_t unit = scale;
    for (; used > 0; used--)
        unit /= (uint64_t)radix;
    *frac = v * unit;
    return TLV_OK;
}

/* Builds the floor representation of -(mag + frac/scale). */
static tlv_status negate(uint64_t mag, uint64_t frac, int radix, tlv_time *out,
                         const char **why)
{
    if (frac == 0) {
        out->ticks = mag == MAX_INT64_MAGNITUDE ? INT64_MIN : -(int64_t)mag;
        out->frac = 0;
        return TLV_OK;
    }
    /* -(m + f) = -(m + 1) + (1 - f): ticks must still fit after the borrow. */
    if (mag == MAX_INT64_MAGNITUDE)
        return fail(why, "time does not fit in 64 bits");
    out->ticks = -(int64_t)mag - 1;
    out->frac = fraction_scale(radix, NULL) - frac;
    return TLV_OK;
}

tlv_status tlv_time_parse(const char *text, size_t len, int radix, tlv_time *out,
                          const char **why)
{
    if (!radix_is_valid(radix))
        return fail(why, "radix must be between 2 and 36");
    if (len == 0)
        return fail(why, "empty time");
    const char *p = text, *end = text + len;
    int negative = *p == '-';
    if (negative)
        p++;
    const char *digits = p;
    uint64_t mag = 0, frac = 0;
    p = parse_integer_part(p, end, radix, &mag, why);
    if (!p)
        return TLV_ERR_SYNTAX;
    int has_point = p < end;
    size_t int_digits = (size_t)(p - digits);
    if (has_point && parse_fraction_part(p + 1, end, radix, &frac, why) != TLV_OK)
        return TLV_ERR_SYNTAX;
    if (int_digits == 0 && (!has_point || p + 1 == end))
        return fail(why, "time has no digits");

    if (negative)
        return negate(mag, frac, radix, out, why);
    if (mag > (uint64_t)INT64_MAX)
        return fail(why, "time does not fit in 64 bits");
    out->ticks = (int64_t)mag;
    out->frac = frac;
    return TLV_OK;
}

/* Writes the digits of v so that they end just before `end`, and returns
 * where they begin; `width` pads with leading zeros (fractions). */
static char *digits_backwards(uint64_t v, int radix, int width, char *end)
{
    static const char digit_chars[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    char *p = end;
    if (radix == 10) { /* every event's time: two digits per division by a constant */
        static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                    "25262728293031323334353637383940414243444546474849"
                                    "50515253545556575859606162636465666768697071727374"
                                    "75767778798081828384858687888990919293949596979899";
        while (v >= 100) {
            unsigned d = (unsigned)(v % 100) * 2;
            v /= 100;
            *--p = pairs[d + 1];
            *--p = pairs[d];
            width -= 2;
        }
        do {
            *--p = (char)('0' + v % 10);
            v /= 10;
            width--;
        } while (v > 0 || width > 0);
        return p;
    }
    do {
        *--p = digit_chars[v % (uint64_t)radix];
        v /= (uint64_t)radix;
        width--;
    } while (v > 0 || width > 0);
    return p;
}

/* The magnitude of t split into whole units and a fraction numerator, undoing
 * the floor representation of negative times. */
static void magnitude(tlv_time t, uint64_t scale, uint64_t *whole, uint64_t *frac)
{
    if (t.ticks >= 0) {
        *whole = (uint64_t)t.ticks;
        *frac = t.frac;
    } else if (t.frac == 0) {
        *whole = 0u - (uint64_t)t.ticks; /* well defined for INT64_MIN too */
        *frac = 0;
    } else {
        *whole = 0u - (uint64_t)(t.ticks + 1);
        *frac = scale - t.frac;
    }
}

/* Composes the text in `tmp` and returns its length. */
static size_t format_into(tlv_time t, int radix, char tmp[TIME_TEXT_MAX])
{
    int frac_digits = 0;
    uint64_t scale = t.frac ? fraction_scale(radix, &frac_digits) : 1;
    if (t.frac >= scale) /* outside the documented range: keep the ticks */
        t.frac = 0;
    uint64_t whole, frac;
    magnitude(t, scale, &whole, &frac);

    char digits[TIME_TEXT_MAX];
    char *end = digits + sizeof digits;
    size_t n = 0;
    if (t.ticks < 0)
        tmp[n++] = '-';
    char *p = digits_backwards(whole, radix, 1, end);
    memcpy(tmp + n, p, (size_t)(end - p));
    n += (size_t)(end - p);
    if (frac) {
        p = digits_backwards(frac, radix, frac_digits, end);
        char *last = end;
        while (last[-1] == '0') /* frac != 0, so a non-zero digit stops this */
            last--;
        tmp[n++] = '.';
        memcpy(tmp + n, p, (size_t)(last - p));
        n += (size_t)(last - p);
    }
    tmp[n] = '\0';
    return n;
}

/* Returns the full length of the text, like snprintf, so a caller can tell
 * when it was cut: radix 2 needs up to 129 bytes, every other radix fits the
 * 90 bytes tlv.h advises. */
size_t tlv_time_format(tlv_time t, int radix, char *buf, size_t size)
{
    char tmp[TIME_TEXT_MAX];
    size_t n = radix_is_valid(radix) ? format_into(t, radix, tmp) : 0;
    if (size > 0) {
        size_t keep = n < size ? n : size - 1;
        memcpy(buf, tmp, keep);
        buf[keep] = '\0';
    }
    return n;
}
