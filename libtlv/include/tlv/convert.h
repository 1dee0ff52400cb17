/*
 * convert.h — converting a raw log into standard-form events with a loaded
 * rule set, line by line (so live logs can be fed as they come), and asking
 * the attribute state of resources at any time of the converted trace.
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_CONVERT_H
#define TLV_CONVERT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tlv_converter tlv_converter;

typedef enum tlv_event_kind {
    TLV_EVENT_ATTRIBUTE = 0, /* Resource.name=value */
    TLV_EVENT_BEHAVIOR = 1   /* Resource.name(args) */
} tlv_event_kind;

/* One standard-form event. Every pointer is valid only during the callback
 * that receives it. */
typedef struct tlv_event {
    tlv_time time;
    const char *resource;     /* resource name */
    tlv_event_kind kind;
    const char *name;         /* attribute or behavior name */
    const char *value;        /* TLV_EVENT_ATTRIBUTE: the new value */
    size_t nargs;             /* TLV_EVENT_BEHAVIOR: arguments */
    const char *const *args;
    uint64_t input_line;      /* 1-based line of the input that produced it */
    uint64_t seq;             /* 0-based position among all events produced */
} tlv_event;

/* Receives each event as it is produced. Return 0 to go on; any other value
 * stops the conversion, which then returns TLV_ERR_USAGE. */
typedef int (*tlv_event_fn)(void *user, const tlv_event *event);

/* Creates a converter for logs of the kind `rules` describes. `rules` must
 * outlive the converter. *out is NULL only on TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_converter_new(const tlv_rules *rules, tlv_converter **out);

/* Frees the converter (NULL is allowed). */
TLV_API void tlv_converter_free(tlv_converter *conv);

/* Names the input in diagnostics ("-" for standard input). Copied. */
TLV_API void tlv_converter_set_source_name(tlv_converter *conv, const char *name);

/* Sets the function that receives events (none by default: events then only
 * update the state). */
TLV_API void tlv_converter_set_event_fn(tlv_converter *conv, tlv_event_fn fn, void *user);

/* Receives each event together with its standard-form line: exactly what
 * tlv_event_format() writes for it (with the rules' time radix), `len`
 * bytes without line end, NUL-terminated, valid only during the call.
 * Return 0 to go on; any other value stops the conversion, as for a
 * tlv_event_fn. */
typedef int (*tlv_line_fn)(void *user, const tlv_event *event, const char *line, size_t len);

/* Sets the function that receives each event as its line (none by default),
 * called after the event function when both are set. For writing a trace:
 * the converter keeps the line's text after the time with each event text
 * it remembers, so most lines cost a copy rather than formatting the
 * event's parts again. */
TLV_API void tlv_converter_set_line_fn(tlv_converter *conv, tlv_line_fn fn, void *user);

/* Converts one input line (without its line end; a trailing CR is ignored).
 * Bytes that are not text (invalid UTF-8, NUL) are read as U+FFFD, with a
 * warning naming the line and the column of the first (the first 100 such
 * lines are listed, the rest counted at tlv_converter_finish()). Returns TLV_OK, TLV_ERR_CONVERT when the line had a conversion error (the
 * diagnostic is recorded and the converter is ready for the next line),
 * TLV_ERR_USAGE when the event function asked to stop, or TLV_ERR_NOMEM
 * when an allocation failed while the line was converted, even one the
 * converter could do without (the line's events may then be missing or
 * incomplete; tlv_converter_last_error() says "out of memory while
 * converting 'SOURCE'", and every later push and tlv_converter_finish()
 * return TLV_ERR_NOMEM too: the conversion is not to be trusted as a
 * trace). */
TLV_API tlv_status tlv_converter_push_line(tlv_converter *conv, const char *line, size_t len);

/* Feeds raw bytes; lines end at LF, CRLF or a bare CR. An unfinished last
 * line is kept until more bytes or tlv_converter_finish(). A line longer
 * than 64 MB is not kept: it is skipped and reported as a conversion error.
 * Returns as tlv_converter_push_line, after converting every complete line:
 * TLV_ERR_NOMEM also when an allocation failed on the converter's matching
 * thread (tlv_converter_set_threads), which is reported on the calling
 * thread the same way. */
TLV_API tlv_status tlv_converter_push_bytes(tlv_converter *conv, const char *data, size_t len);

/* How many threads convert the lines given to tlv_converter_push_bytes():
 * 1, the serial path, converts on the calling thread alone; 2 adds a
 * matching thread that reads the lines ahead and finds their rule matches
 * (the regular expressions) while the calling thread applies them in input
 * order (templates, macros, state, events). Events, their order, the
 * diagnostics, the statistics and every callback (which always runs on the
 * calling thread) are the same byte for byte either way. 0 (the default)
 * means 2 when the machine has more than one processor online, else 1; any
 * other value above 1 means 2. Only runs of complete lines of at least
 * 16 KB in one push go through the matching thread, which is started on
 * first use (if it cannot be, the serial path is used); standard-form input
 * and tlv_converter_push_line() are always converted serially. May be
 * called at any time between pushes. */
TLV_API void tlv_converter_set_threads(tlv_converter *conv, int threads);

/* Converts the unfinished last line, if any, and runs external-process
 * rules (when allowed): each gets the resource data as JSON, a line "---",
 * and every raw line on its standard input, and its standard output is read
 * as standard-form lines (so with such rules the raw log is kept in memory).
 * Adds warnings (which change no status) when the unfinished last line
 * matched no rule (a truncated log) and when no line matched any rule.
 * Returns TLV_OK, or TLV_ERR_CONVERT when any line of the whole conversion
 * had an error (the output is then partial), or TLV_ERR_NOMEM when memory
 * ran out at any point of the conversion (the events delivered are then not
 * to be trusted as a trace; tlv_converter_last_error says "out of memory
 * while converting 'SOURCE'"). */
TLV_API tlv_status tlv_converter_finish(tlv_converter *conv);

/* on != 0: reads the input as a standard-form trace (one event per line,
 * spec section 6), as if the resource file said "ConvertRules":[""], instead
 * of converting it with the rules' conversion rules (which, external
 * processes included, are then not used). For viewing or drawing a trace
 * that `tlv convert` wrote. Call before the first line. */
TLV_API void tlv_converter_set_standard_form(tlv_converter *conv, int on);

/* How long an external-process rule may run before it is killed and
 * reported (default 60000 ms). */
TLV_API void tlv_converter_set_script_timeout(tlv_converter *conv, int milliseconds);

/* Receives each line of the input that no conversion rule matched, as it
 * is read: its 1-based line number and its text (without line end; valid
 * only during the call). Blank lines, and the lines of a standard-form input
 * (a line that does not parse there is an error), are not reported. */
typedef void (*tlv_unmatched_fn)(void *user, uint64_t line, const char *text, size_t len);

/* Sets the function told of unmatched lines (none by default). */
TLV_API void tlv_converter_set_unmatched_fn(tlv_converter *conv, tlv_unmatched_fn fn,
                                            void *user);

/* How many input lines conversion rule i (in the order of
 * tlv_rules_cnv_rule) has matched so far; 0 when i is out of range. */
TLV_API uint64_t tlv_converter_rule_matches(const tlv_converter *conv, size_t i);

/* Problems found so far: conversion errors name the input line, the rule's
 * regex and the macro that failed. At most 1000 are kept; see
 * tlv_diags_dropped() and tlv_diags_errors() for the totals. */
TLV_API const tlv_diags *tlv_converter_diags(const tlv_converter *conv);

/* The message of the last call on `conv` that returned a status other than
 * TLV_OK ("" when none has), valid until the next failing call: for
 * TLV_ERR_CONVERT the line's error as "SOURCE:LINE: rule "REGEX": why"; for
 * TLV_ERR_USAGE what was wrong (an unknown resource or attribute, input
 * after the event function stopped the conversion). */
TLV_API const char *tlv_converter_last_error(const tlv_converter *conv);

typedef struct tlv_convert_stats {
    uint64_t bytes_read;
    uint64_t lines_read;
    uint64_t lines_matched;   /* lines that at least one rule matched */
    uint64_t events;          /* events produced */
    uint64_t error_lines;     /* lines with a conversion error */
    /* added after 0.1.0: CPU time the matching thread (tlv_converter_set_threads)
     * has spent, in nanoseconds; 0 when it never ran. The calling thread's
     * share is the process's CPU time minus this. */
    uint64_t matching_cpu_ns;
} tlv_convert_stats;

/* Fills *out with the counts so far (cheap; may be called after any push). */
#define tlv_converter_stats(conv, out) tlv_converter_stats_sized((conv), (out), sizeof *(out))
TLV_API void tlv_converter_stats_sized(const tlv_converter *conv, tlv_convert_stats *out,
                                       size_t size);

/* The value of resource.attr at time *at (NULL: after every event converted
 * so far), as the conversion macros see it. Returns TLV_OK and sets *value
 * (valid until the next push or finish), or TLV_ERR_USAGE for an unknown
 * resource or attribute. O(log n) in the number of changes of that
 * attribute. */
TLV_API tlv_status tlv_converter_attr_at(tlv_converter *conv, const char *resource,
                                         const char *attr, const tlv_time *at,
                                         const char **value);

/* ---- consistency ----------------------------------------------------------
 * Real recorders lose events and garble lines; the converter notices events
 * that contradict the state the trace is in: what the rule set declares
 * impossible for its resources ("Impossible" entries of the resource
 * headers: a task switched out that was not running, switched in on a
 * second processor, a resource entering a state it cannot re-enter) and,
 * when the resource file says "InTimeOrder": true, a line whose time goes
 * back (docs/reference.md, "Consistency"). Each is reported with its log
 * line; the events themselves are applied as the rules say. */

/* One contradiction. Strings live as long as the converter. */
typedef struct tlv_inconsistency {
    uint64_t line;          /* the log line (1-based) whose event contradicts */
    tlv_time time;          /* the event's time */
    const char *resource;   /* its resource's name; NULL for time going back */
    const char *check;      /* what it contradicts: "Type.entry" for an
                               "Impossible" entry, "InTimeOrder" for time */
    const char *message;    /* what happened, e.g. "T2001 (spin[2001])
                               state=UNKNOWN: still running on CPU 1 when ..." */
} tlv_inconsistency;

/* Contradictions found so far (all of them), and how many are listed: the
 * first 1000 in log order. */
TLV_API uint64_t tlv_converter_inconsistency_count(const tlv_converter *conv);
TLV_API size_t tlv_converter_inconsistency_listed(const tlv_converter *conv);
/* Listed contradiction i (< tlv_converter_inconsistency_listed) in *out. */
#define tlv_converter_inconsistency(conv, i, out)                                              \
    tlv_converter_inconsistency_sized((conv), (i), (out), sizeof *(out))
TLV_API void tlv_converter_inconsistency_sized(const tlv_converter *conv, size_t i,
                                               tlv_inconsistency *out, size_t size);

/* One check the rule set declares, with its exact count (like Perfetto's
 * `stats` table, and with the first line where it failed). */
typedef struct tlv_consistency_check {
    const char *check;        /* "Type.entry", or "InTimeOrder" */
    const char *display_name; /* the entry's DisplayName, else its name */
    uint64_t count;           /* events that contradicted it so far */
    uint64_t first_line;      /* the first one's log line; 0 when none */
} tlv_consistency_check;

/* The declared checks (every "Impossible" entry of the types, then
 * "InTimeOrder" when the resource file asks for it): their number, and
 * check i in *out. */
TLV_API size_t tlv_converter_consistency_check_count(const tlv_converter *conv);
#define tlv_converter_consistency_check(conv, i, out)                                          \
    tlv_converter_consistency_check_sized((conv), (i), (out), sizeof *(out))
TLV_API void tlv_converter_consistency_check_sized(const tlv_converter *conv, size_t i,
                                                   tlv_consistency_check *out, size_t size);

/* Writes the event's canonical standard-form line, without line end, e.g.
 * "[1926099]LOGTASK.state=RUNNING" with the time in `radix` and ',' '(' ')'
 * '\' escaped in values and arguments. Returns the length the full line
 * needs, like snprintf. */
TLV_API size_t tlv_event_format(const tlv_event *event, int radix, char *buf, size_t size);

#ifdef __cplusplus
}
#endif

#endif
