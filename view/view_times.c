/*
 * view_times.c — times as the window shows them. A trace whose times are
 * those of a clock or of the wall clock (tlv_trace_time_mode CLOCK or WALL:
 * strace, perf, uftrace) is read from its start, as its ruler is: "123.456
 * ms", not "1795614988020504 us"; its start is given once as a date and
 * time (the status line, the details panel). A plain trace (TOPPERS) and
 * the absolute axis (t) show times as the log wrote them, exactly as
 * before. Durations are the same either way (view_time_text).
 */
#include "view/core.h"

#include <stdio.h>
#include <string.h>

static tlv_time_mode mode_of(const view_app *a)
{
    if (a->shapes)
        return tlv_shapes_time_mode(a->shapes);
    return a->trace ? tlv_trace_time_mode(a->trace) : TLV_TIME_PLAIN;
}

int view_clock_trace(const view_app *a)
{
    tlv_time_mode m = mode_of(a);
    return m == TLV_TIME_CLOCK || m == TLV_TIME_WALL;
}

int view_time_axis(const view_app *a)
{
    if (a->core->time_axis_chosen)
        return a->core->time_axis;
    return view_clock_trace(a) ? 1 : 0;
}

/* The origin the ruler counts from: the shapes' (the renderer's), or the
 * trace's while there are none yet. */
static tlv_time origin_of(const view_app *a)
{
    if (a->shapes)
        return tlv_shapes_time_origin(a->shapes);
    tlv_time zero = {0, 0};
    return a->trace ? tlv_trace_time_origin(a->trace) : zero;
}

int view_times_from_start(const view_app *a)
{
    return view_clock_trace(a) && view_time_axis(a) != 0;
}

double view_time_origin(const view_app *a)
{
    return view_times_from_start(a) ? tlv_time_to_double(origin_of(a), a->radix) : 0;
}

char *view_time_at_text(const view_app *a, double t, double step, char *buf, size_t size)
{
    return view_time_text(a, t - view_time_origin(a), step, buf, size);
}

void view_exact_text(const view_app *a, tlv_time t, char *buf, size_t size)
{
    if (view_times_from_start(a)) {
        tlv_time_format_span(tlv_time_sub(t, origin_of(a), a->radix), a->radix, a->time_scale, buf,
                             size);
        return;
    }
    char num[160];
    tlv_time_format(t, a->radix, num, sizeof num);
    const char *scale = a->time_scale ? a->time_scale : "";
    snprintf(buf, size, "%s%s%s", num, *scale ? " " : "", scale);
}

void view_absolute_time(const view_app *a, tlv_time t, char *buf, size_t size)
{
    if (mode_of(a) != TLV_TIME_WALL ||
        tlv_time_format_date(t, a->radix, a->time_scale, buf, size) == 0) {
        char num[160];
        tlv_time_format_span(t, a->radix, a->time_scale, num, sizeof num);
        snprintf(buf, size, "%s", num);
    }
}

const char *view_other_time(const view_app *a, tlv_time t, char *buf, size_t size)
{
    *buf = '\0';
    if (!view_clock_trace(a))
        return NULL;
    if (view_times_from_start(a)) {
        view_absolute_time(a, t, buf, size);
        return "at";
    }
    tlv_time_format_span(tlv_time_sub(t, origin_of(a), a->radix), a->radix, a->time_scale, buf,
                         size);
    return "from start";
}

void view_start_text(const view_app *a, char *buf, size_t size)
{
    *buf = '\0';
    if (!view_clock_trace(a) || !a->trace || tlv_trace_event_count(a->trace) == 0)
        return;
    char when[96];
    view_absolute_time(a, origin_of(a), when, sizeof when);
    snprintf(buf, size, "start %s", when);
}

size_t view_event_text(const view_app *a, const tlv_event *e, char *buf, size_t size)
{
    size_t n = tlv_event_format(e, a->radix, buf, size);
    if (!view_times_from_start(a) || !size || buf[0] != '[')
        return n;
    /* "[1795614988020504]T1.state=RUN" becomes "[123.456 ms]T1.state=RUN" */
    const char *close = strchr(buf, ']');
    if (!close)
        return n;
    char when[160], rest[1024];
    size_t tail = n - (size_t)(close + 1 - buf); /* the text after the time, uncut */
    view_exact_text(a, e->time, when, sizeof when);
    snprintf(rest, sizeof rest, "%s", close + 1);
    snprintf(buf, size, "[%s]%s", when, rest);
    return strlen(when) + 2 + tail;
}
