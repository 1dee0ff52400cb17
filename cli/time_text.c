/*
 * time_text.c — a trace time, and a duration, as a base-10 number for the
 * JSON and CSV that tlv export and tlv shapes write.
 */
#include "cli/cli.h"

#include <stdio.h>
#include <string.h>

void time_text(tlv_time t, int radix, char *buf, size_t size)
{
    if (t.frac == 0)
        snprintf(buf, size, "%lld", (long long)t.ticks);
    else if (radix == 10)
        tlv_time_format(t, 10, buf, size);
    else /* a fraction in another radix has no exact decimal form of bounded length */
        snprintf(buf, size, "%.17g", tlv_time_to_double(t, radix));
}

/* A duration of 2^63 ticks or more (from near -2^63 to near 2^63) does not
 * fit a tlv_time, where tlv_time_sub wrapped it to a negative number (CSV
 * durations of -1); it always fits 64 unsigned bits, so it is written whole. */
void span_text(tlv_time from, tlv_time to, int radix, char *buf, size_t size)
{
    uint64_t ticks;
    if (tlv_time_span_fits(from, to, radix, &ticks)) {
        time_text(tlv_time_sub(to, from, radix), radix, buf, size);
        return;
    }
    tlv_time rest = tlv_time_sub(to, from, radix);
    char frac[160] = "";
    if (rest.frac && radix == 10) {
        tlv_time_format((tlv_time){0, rest.frac}, 10, frac, sizeof frac); /* "0.25" */
        memmove(frac, frac + 1, strlen(frac)); /* ".25" */
    } else if (rest.frac) {
        snprintf(buf, size, "%.17g", tlv_time_span(from, to, radix));
        return;
    }
    snprintf(buf, size, "%llu%s", (unsigned long long)ticks, frac);
}
