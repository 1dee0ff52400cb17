/*
 * tlv.h — the public API of libtlv, the trace-log converter library.
 *
 * libtlv reads TraceLogVisualizer (TLV 2.0.1) rule files unchanged, converts
 * any text log into a standard-form trace, and answers questions about the
 * attribute state of the trace's resources at any time.
 *
 * Conventions, for every function declared here:
 *  - Handles are opaque and owned by the caller once returned; each has a
 *    matching *_free() that accepts NULL.
 *  - Functions that can fail return a tlv_status. TLV_OK is zero. The details
 *    (file, line, column, message) of every problem found are kept as
 *    diagnostics on the handle the call was made on, read with *_diags().
 *  - Every call on a handle that returns a status other than TLV_OK also
 *    leaves a one-line message on that handle, read with its *_last_error()
 *    (tlv_converter_last_error, tlv_trace_last_error, tlv_shapes_last_error,
 *    tlv_renderer_last_error), e.g. "tlv_trace_attr_at: no resource 'foo'
 *    in the trace". It is "" until a call fails, and a later successful call
 *    leaves it alone: read it right after the failing call. Calls that fail
 *    without a handle to keep it on (a NULL handle; *_new running out of
 *    memory) return the status only. Loading rules reports through
 *    tlv_rules_diags() instead (a loaded tlv_rules is never written).
 *  - Strings are UTF-8 and NUL-terminated. A `const char *` returned by the
 *    library stays valid as long as the handle it came from, unless said
 *    otherwise.
 *  - Threads. There is no global state: separate handles may be used from
 *    separate threads at the same time. One handle must not be used by two
 *    threads at once — this holds for calls taking a `const` handle too,
 *    since a failing query records its message in the handle. The one
 *    exception is tlv_rules: once tlv_rules_load() (or tlv_rules_check())
 *    has returned, nothing writes to it until tlv_rules_free(), so any
 *    number of threads may use it at the same time, each through its own
 *    converters, traces, shapes and renderers made from it, and may call the
 *    tlv_rules_* query functions on it concurrently (see rules.h).
 *  - The library never prints and never exits.
 *
 * ABI: how the API grows without breaking compiled programs (until 1.0 the
 * SONAME follows the minor version too; from 1.0 these rules hold within a
 * major version):
 *  - Handles are opaque: they grow freely.
 *  - Structs the caller fills and passes by pointer (tlv_rules_options,
 *    tlv_shapes_options, tlv_stats_options, tlv_view) begin with
 *    `size_t struct_size`, set by their init function or macro
 *    (tlv_rules_options_init, TLV_SHAPES_OPTIONS_INIT, TLV_STATS_OPTIONS_INIT,
 *    tlv_view_fit, TLV_VIEW_INIT) to the caller's sizeof. New members are only
 *    ever added at the end; the library reads the members that struct_size
 *    covers and uses the defaults for the rest, so a program built against
 *    older headers keeps working. struct_size 0 (a zero-initialized struct)
 *    means the 0.1 layout. Always start from the init macro or function.
 *  - Structs the library fills for the caller (tlv_event from
 *    tlv_trace_event, tlv_shape_info, tlv_row_info, tlv_rule_info,
 *    tlv_flow_info, tlv_convert_stats, tlv_state_stat, tlv_cpu_stat,
 *    tlv_counter_info, tlv_view_layout) also only grow at the end, and are
 *    filled through *_sized functions told the caller's sizeof; the
 *    documented names (tlv_shapes_get, ...) are macros that pass it. The
 *    library writes no byte past that size. Bindings without the C
 *    preprocessor (ctypes, FFI) call the *_sized functions with the size of
 *    their own declaration of the struct.
 *  - Structs the library owns and hands out by pointer (tlv_diag, the
 *    tlv_event given to a tlv_event_fn, the tlv_shape_info given to a
 *    tlv_shape_fn) only grow at the end: older programs read the prefix
 *    they know. Arrays the library returns (tlv_breakdown_entry,
 *    tlv_counter_sample) are frozen: their element layout never changes,
 *    new data comes through new functions.
 *  - Enumerations only gain values; functions are never removed or changed
 *    within a major version (tests/unit/test_abi.c compiles against older
 *    layouts and checks both directions).
 */
#ifndef TLV_TLV_H
#define TLV_TLV_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TLV_BUILDING_LIBRARY) && defined(__GNUC__)
#define TLV_API __attribute__((visibility("default")))
#else
#define TLV_API
#endif

/* ------------------------------------------------------------------------ */
/* Versions and status                                                       */

#define TLV_VERSION_MAJOR 0
#define TLV_VERSION_MINOR 1
#define TLV_VERSION_PATCH 0
#define TLV_VERSION_STRING "0.1.0"

/* The version of the library actually linked, e.g. "0.1.0". Static string. */
TLV_API const char *tlv_version(void);

typedef enum tlv_status {
    TLV_OK = 0,
    TLV_ERR_IO,       /* a file could not be opened, read or written */
    TLV_ERR_SYNTAX,   /* a file is not in the expected format */
    TLV_ERR_RULE,     /* a rule or resource definition is wrong */
    TLV_ERR_CONVERT,  /* conversion produced errors; output is partial */
    TLV_ERR_USAGE,    /* the call's arguments are wrong */
    TLV_ERR_SCRIPT,   /* an external-process rule is refused or failed */
    TLV_ERR_NOMEM
} tlv_status;

/* A short English name for a status, e.g. "syntax error". Static string. */
TLV_API const char *tlv_status_string(tlv_status status);

/* ------------------------------------------------------------------------ */
/* Diagnostics                                                               */

typedef enum tlv_severity { TLV_SEV_ERROR = 0, TLV_SEV_WARNING = 1 } tlv_severity;

/* One problem found, with where it was found. `file` is NULL when the problem
 * is not tied to a file; `line` and `col` are 1-based, 0 when unknown. */
typedef struct tlv_diag {
    tlv_severity severity;
    const char *file;
    long line;
    long col;
    const char *message;
} tlv_diag;

/* A list of diagnostics, owned by the handle that returned it. */
typedef struct tlv_diags tlv_diags;

/* Number of diagnostics in the list (0 for NULL). */
TLV_API size_t tlv_diags_count(const tlv_diags *diags);

/* The i-th diagnostic, in the order they were found, or NULL when out of
 * range. Valid until the list's owner is freed or records more. */
TLV_API const tlv_diag *tlv_diags_get(const tlv_diags *diags, size_t i);

/* Problems reported but not kept in the list because it reached its limit
 * (long conversions keep the first entries and count the rest). */
TLV_API size_t tlv_diags_dropped(const tlv_diags *diags);

/* Errors reported in all, kept or dropped (warnings not counted). */
TLV_API size_t tlv_diags_errors(const tlv_diags *diags);

/* Formats one diagnostic as "file:line:col: error: message" (parts that are
 * unknown are left out) into buf, NUL-terminated and cut to size. Returns the
 * length the full text needs, like snprintf. */
TLV_API size_t tlv_diag_format(const tlv_diag *diag, char *buf, size_t size);

/* ------------------------------------------------------------------------ */
/* Time values                                                               */

/* An exact time: `ticks` whole units plus `frac` / radix^F of a unit, where
 * F is the largest count of fraction digits whose scale radix^F fits in 63
 * bits (18 for radix 10). 0 <= frac < radix^F; a negative time keeps frac
 * non-negative (floor), so comparing (ticks, frac) lexicographically orders
 * times. A time with no fraction has frac == 0. */
typedef struct tlv_time {
    int64_t ticks;
    uint64_t frac;
} tlv_time;

/* Compares two times: negative, zero or positive. */
TLV_API int tlv_time_cmp(tlv_time a, tlv_time b);

/* a - b, exact, for times of the same `radix` (a duration when a >= b). The
 * difference must fit in 64-bit ticks: beyond, it wraps (from -2^63 to
 * 2^63 - 1 would be -1). For durations over the whole range of times use
 * tlv_time_span, or tlv_time_span_fits first. */
TLV_API tlv_time tlv_time_sub(tlv_time a, tlv_time b, int radix);

/* to - from as a double, in units of the trace's TimeScale, right over the
 * whole range of times (from -2^63 to 2^63 - 1 is 2^64 - 1 ticks, where
 * tlv_time_sub wraps); negative when to < from. For durations. */
TLV_API double tlv_time_span(tlv_time from, tlv_time to, int radix);

/* Whether to - from (to >= from) fits in 64-bit ticks, so that tlv_time_sub
 * gives it exactly; when it does not, *ticks (if not NULL) gets its whole
 * ticks as an unsigned number (a span never needs more than 64 bits). */
TLV_API int tlv_time_span_fits(tlv_time from, tlv_time to, int radix, uint64_t *ticks);

/* The time as a double, in units of the trace's TimeScale. */
TLV_API double tlv_time_to_double(tlv_time t, int radix);

/* Parses a time written in `radix` (2..36): an optional '-', digits, and an
 * optional '.' with fraction digits. Returns TLV_OK, or TLV_ERR_SYNTAX with
 * a reason in `why` (static string) for a bad digit, an empty value, a value
 * beyond 64 bits, or more fraction digits than can be held exactly. */
TLV_API tlv_status tlv_time_parse(const char *text, size_t len, int radix,
                                  tlv_time *out, const char **why);

/* Writes the time in `radix` (lower-case digits, no trailing fraction zeros)
 * into buf. Returns the length the full text needs, not counting the NUL, like snprintf (buf should
 * have room for 130 bytes; radix 2 needs the most). */
TLV_API size_t tlv_time_format(tlv_time t, int radix, char *buf, size_t size);

/* ------------------------------------------------------------------------ */
/* Times as people read them                                                 */

/* What a trace's times count from, which decides how they are shown. A
 * resource file may declare it ("TimeMode", docs/reference.md); a trace
 * always has one of PLAIN, CLOCK or WALL (tlv_trace_time_mode). */
typedef enum tlv_time_mode {
    TLV_TIME_AUTO = 0,  /* declared "auto" or not at all: WALL when the trace's first
                           time, in a TimeScale of s, ms, us or ns, is a date from
                           2000 to 2099; PLAIN otherwise */
    TLV_TIME_PLAIN = 1, /* the traced system's own count (a target's timer since its
                           reset, cycles): times are shown as they are */
    TLV_TIME_CLOCK = 2, /* a clock that ran long before the trace (uptime as perf and
                           uftrace print it, the time of day of strace -tt): times are
                           shown from the trace's start. Declared "clock", a trace whose
                           times are dates (as with auto) is WALL */
    TLV_TIME_WALL = 3   /* wall-clock: TimeScale units since 1970-01-01 00:00:00 UTC
                           (strace -ttt, ltrace -ttt, $CLOCK{} of dates): shown from the
                           trace's start, the start itself as a date and time */
} tlv_time_mode;

/* The mode's name as resource files and dump-state write it: "auto", "plain",
 * "clock", "wall-clock" ("" for a value out of range). Static string. */
TLV_API const char *tlv_time_mode_name(tlv_time_mode mode);

/* Writes wall-clock time t (units of `time_scale` since 1970-01-01 00:00:00
 * UTC) as a UTC date and time with every fraction digit the time has, e.g.
 * "2026-11-25 10:36:27.897048 UTC" (us, radix 10). Returns the length the
 * full text needs, like snprintf, or 0 (buf then "") when time_scale is not
 * s, ms, us or ns, or the date is before year 1 or after 9999. */
TLV_API size_t tlv_time_format_date(tlv_time t, int radix, const char *time_scale, char *buf,
                                    size_t size);

/* Writes time t exactly, with the SI unit that suits its size when
 * time_scale is s, ms, us or ns ("1.234567 s", "302 us", "-5.5 ms", "0 s";
 * from ps to s, larger values in s), else as tlv_time_format followed by the
 * scale's word ("1234 cycles"). Meant for durations and times from an origin
 * (tlv_time_sub(t, origin)). In a radix other than 10 the number is written
 * in that radix followed by the TimeScale. Returns the length the full text
 * needs, like snprintf (buf should have room for 160 bytes). */
TLV_API size_t tlv_time_format_span(tlv_time t, int radix, const char *time_scale, char *buf,
                                    size_t size);

#ifdef __cplusplus
}
#endif

#include "tlv/rules.h"
#include "tlv/convert.h"
#include "tlv/trace.h"
#include "tlv/shapes.h"
#include "tlv/breakdown.h"
#include "tlv/stats.h"
#include "tlv/counters.h"
#include "tlv/instances.h"
#include "tlv/verify.h"
/* Drawing shapes into pixels is the separate renderer library, libtlv-render:
 * include <tlv/render.h> and link it (pkg-config libtlv-render, CMake
 * tlv::render). */

#endif
