/*
 * time_text.c — a trace time as a base-10 number for the JSON and text of
 * tlv stats --instances, tlv verify and tlv diff.
 */
#include "cli/cli.h"

#include <stdio.h>

void cli_time_text(tlv_time t, int radix, char *buf, size_t size)
{
    if (t.frac == 0)
        snprintf(buf, size, "%lld", (long long)t.ticks);
    else if (radix == 10)
        tlv_time_format(t, 10, buf, size);
    else /* a fraction in another radix has no exact decimal form of bounded length */
        snprintf(buf, size, "%.17g", tlv_time_to_double(t, radix));
}
