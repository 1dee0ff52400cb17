/*
 * panel_goto.c — the g key's "Go to:" prompt: an exact visible range typed
 * as "START END", "START..END" or "START, END". Each time is written as the
 * log writes times (in the trace's TimeRadix, exact), in the trace's
 * TimeScale; when that is a unit of seconds a time may also carry its own
 * unit ("1.5 ms"), converted by powers of ten. In a trace whose times are
 * a clock's, read from its start (view_times.c), the times typed count from
 * the start too, as the ruler shows them. The range becomes the view
 * (one step of history, so Backspace returns); bad text changes nothing
 * and the status line says what was expected.
 */
#include "view/view.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Units of seconds as powers of ten. */
static const struct {
    const char *name;
    int exp;
} si_units[] = {{"s", 0}, {"ms", -3}, {"us", -6}, {"\xC2\xB5s", -6}, {"ns", -9}, {"ps", -12}};

static int si_exponent(const char *unit, size_t len, int *exp)
{
    for (size_t i = 0; i < sizeof si_units / sizeof *si_units; i++)
        if (strlen(si_units[i].name) == len && memcmp(si_units[i].name, unit, len) == 0) {
            *exp = si_units[i].exp;
            return 1;
        }
    return 0;
}

static int is_digit_of(char c, int radix)
{
    int d = isdigit((unsigned char)c) ? c - '0'
            : isalpha((unsigned char)c) ? tolower((unsigned char)c) - 'a' + 10
                                        : 99;
    return d < radix;
}

static const char *skip_space(const char *p)
{
    while (isspace((unsigned char)*p))
        p++;
    return p;
}

/* Converts a time in `unit` (len bytes; 0: none) to the trace's units. */
static int in_trace_units(const view_app *a, double v, const char *unit, size_t len, double *out)
{
    const char *scale = a->time_scale ? a->time_scale : "";
    int eu, es;
    if (len == 0 || (strlen(scale) == len && memcmp(scale, unit, len) == 0)) {
        *out = v;
        return 0;
    }
    if (!si_exponent(unit, len, &eu) || !si_exponent(scale, strlen(scale), &es))
        return -1;
    /* multiply or divide by an exact power of ten: 1.5 ms is 1500 us, not 1500.0000000000002 */
    *out = eu >= es ? v * pow(10, eu - es) : v / pow(10, es - eu);
    return 0;
}

/* One time at *p: a number in the trace's radix, maybe followed by a unit.
 * Advances *p past it. */
static int parse_time(const view_app *a, const char **p, double *out)
{
    const char *s = skip_space(*p), *e = s;
    if (*e == '-' || *e == '+')
        e++;
    while (is_digit_of(*e, a->radix) || (*e == '.' && e[1] != '.'))
        e++;
    tlv_time t;
    const char *why;
    if (tlv_time_parse(*s == '+' ? s + 1 : s, (size_t)(e - s) - (*s == '+'), a->radix, &t, &why) != TLV_OK)
        return -1;
    const char *u = skip_space(e), *ue = u;
    while (isalpha((unsigned char)*ue) || (unsigned char)*ue >= 0x80) /* "us", "ms", "µs" */
        ue++;
    if (in_trace_units(a, tlv_time_to_double(t, a->radix), u, (size_t)(ue - u), out) < 0)
        return -1;
    *p = ue > u ? ue : e;
    return 0;
}

/* "START END", "START..END" or "START, END" into two times. */
static int parse_range(const view_app *a, const char *text, double *t0, double *t1)
{
    const char *p = text;
    if (parse_time(a, &p, t0) < 0)
        return -1;
    const char *q = skip_space(p);
    if (strncmp(q, "..", 2) == 0)
        q += 2;
    else if (*q == ',')
        q++;
    else if (q == p)
        return -1; /* two numbers need something between them */
    if (parse_time(a, &q, t1) < 0)
        return -1;
    *t0 += view_time_origin(a);
    *t1 += view_time_origin(a);
    return *skip_space(q) ? -1 : 0;
}

/* The trace's first and last times as the prompt takes them, with the unit
 * when they count from the start. */
static void trace_bounds_text(const view_app *a, char *t0, char *t1, size_t size)
{
    if (view_times_from_start(a)) {
        view_exact_text(a, tlv_trace_start(a->trace), t0, size);
        view_exact_text(a, tlv_trace_end(a->trace), t1, size);
        return;
    }
    tlv_time_format(tlv_trace_start(a->trace), a->radix, t0, size);
    tlv_time_format(tlv_trace_end(a->trace), a->radix, t1, size);
}

/* Enter in the "Go to:" prompt: parses the range and shows it. Returns 0,
 * or -1 with the reason in the message. */
static int goto_range(view_app *a, void *user, const char *text)
{
    (void)user;
    const char *unit = view_times_from_start(a) ? "times from the trace's start"
                       : a->time_scale && *a->time_scale ? a->time_scale : "trace units";
    char s0[160], s1[160];
    trace_bounds_text(a, s0, s1, sizeof s0);
    double t0, t1;
    if (parse_range(a, text, &t0, &t1) < 0) {
        view_message(a, "expected START END in %s, e.g. %s %s", unit, s0, s1);
        return -1;
    }
    if (!(t1 > t0)) {
        view_message(a, "the end must be after the start (START END in %s)", unit);
        return -1;
    }
    if (t1 < a->nav.trace_t0 || t0 > a->nav.trace_t1) {
        view_message(a, "that range is outside the trace (%s .. %s%s%s)", s0, s1,
                     view_times_from_start(a) ? "" : " ", view_times_from_start(a) ? "" : unit);
        return -1;
    }
    nav_begin(&a->nav, NAV_JUMP);
    nav_set(&a->nav, t0, t1);
    view_jumped(a, t0, -1);
    view_message(a, "%s", "");
    view_hover_update(a);
    return 0;
}

/* ---- the panel's hooks ------------------------------------------------------------------- */

static void ask(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)p, (void)key, (void)mods;
    view_prompt_open(a, "Go to:", NULL, goto_range, NULL);
}

static const view_key keys[] = {
    {SDLK_g, VIEW_KEYS_ANY, "g: go to a range (START END)", ask},
};

view_panel *goto_panel_new(void)
{
    view_panel *p = calloc(1, sizeof *p);
    if (p)
        *p = (view_panel){.name = "goto", .keys = keys, .nkeys = sizeof keys / sizeof *keys};
    return p;
}
