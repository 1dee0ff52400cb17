/*
 * verify.h — timing requirements as code: a requirements file (JSON, the
 * rule files' dialect; docs/timing.md) checked against a trace, each
 * requirement passing or failing with its worst case and where it happened
 * (resource, time, log line) — what `tlv verify` prints and writes as JUnit
 * XML and JSON, and the viewer shows as a marker layer.
 *
 * Checks ("Check" of a requirement):
 *   "response", "latency"  an actor's instances (tlv/instances.h): their
 *                          maximum, mean or a percentile <= "Max"
 *   "state"     a resource never in one value of an attribute longer than "Max"
 *   "cpu"       a processor's busy share <= "Max" (a percentage) in every
 *               window of length "Window"
 *   "followed"  an event always followed by another within "Within"
 *   "never"     a state never entered, or an event never happening
 *
 * Include <tlv/tlv.h> rather than this file.
 */
#ifndef TLV_VERIFY_H
#define TLV_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A requirements file, read and checked for form (not yet against a trace). */
typedef struct tlv_requirements tlv_requirements;

/* Reads a requirements file. *out is set (and must be freed) unless memory
 * ran out; every problem is a diagnostic with its file, line and column
 * (tlv_requirements_diags). Returns TLV_OK, TLV_ERR_IO (unreadable),
 * TLV_ERR_SYNTAX (not JSON), TLV_ERR_RULE (a requirement is wrong: an
 * unknown check or member, a missing bound, a duration that does not read)
 * or TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_requirements_load(const char *path, tlv_requirements **out);
/* The same from `len` bytes of text; `name` names it in diagnostics. */
TLV_API tlv_status tlv_requirements_parse(const char *text, size_t len, const char *name,
                                          tlv_requirements **out);
TLV_API void tlv_requirements_free(tlv_requirements *reqs);
TLV_API const tlv_diags *tlv_requirements_diags(const tlv_requirements *reqs);
/* The file's "ResourceFile" (the resource file of the logs it is for),
 * relative to the folder of the requirements file unless absolute; NULL
 * when it names none. */
TLV_API const char *tlv_requirements_resource_file(const tlv_requirements *reqs);
/* The requirements, in file order: their number, and the name of one. */
TLV_API size_t tlv_requirements_count(const tlv_requirements *reqs);
TLV_API const char *tlv_requirements_name(const tlv_requirements *reqs, size_t i);

/* The outcome of checking requirements against one trace. */
typedef struct tlv_verdicts tlv_verdicts;

/* Checks every requirement against the finished trace. `inst` are its
 * instances, or NULL to compute them with the default options. Durations
 * with units ("2 ms") need the trace's TimeScale to be s, ms, us or ns.
 * Returns TLV_OK with *out set, TLV_ERR_RULE (a requirement names no
 * resource, type, processor or attribute of the trace, or a unit the
 * TimeScale cannot take; *out is set and its diagnostics say where, file,
 * line and column), TLV_ERR_USAGE (a NULL argument, a trace with
 * unordered events) or TLV_ERR_NOMEM. */
TLV_API tlv_status tlv_requirements_verify(const tlv_requirements *reqs, const tlv_trace *trace,
                                           const tlv_instances *inst, tlv_verdicts **out);
TLV_API void tlv_verdicts_free(tlv_verdicts *v);
TLV_API const tlv_diags *tlv_verdicts_diags(const tlv_verdicts *v);

/* The verdict on one requirement. Strings live as long as the verdicts. */
typedef struct tlv_verdict {
    const char *name;          /* the requirement's name */
    const char *check;         /* "response", "latency", "state", "cpu", "followed", "never" */
    int passed;
    const char *message;       /* one line: what was measured, against what bound, where */
    double worst;              /* the worst value found: a duration in TimeScale
                                  units, a busy share 0..1, or a count ("never");
                                  -1 when nothing was measured */
    double bound;              /* the bound, in the same units */
    const char *resource;      /* where the worst case is: its resource (or
                                  processor, "CPU 1"), or NULL */
    tlv_time time;             /* when it began */
    uint64_t line;             /* its log line; 0 when none (an initial value) */
    size_t violations;         /* how many instances, intervals, windows or events broke it */
    long file_line;            /* the requirement's line in its file */
} tlv_verdict;

/* The verdicts, in the order of the requirements. */
TLV_API size_t tlv_verdicts_count(const tlv_verdicts *v);
#define tlv_verdicts_get(v, i, out) tlv_verdicts_get_sized((v), (i), (out), sizeof *(out))
TLV_API void tlv_verdicts_get_sized(const tlv_verdicts *v, size_t i, tlv_verdict *out,
                                    size_t size);
/* How many requirements failed. */
TLV_API size_t tlv_verdicts_failed(const tlv_verdicts *v);

/* One thing that broke a failed requirement, for showing it on a timeline:
 * an instance, an interval in a state, a window, an event and its
 * deadline. */
typedef struct tlv_violation {
    size_t requirement;        /* index of the verdict */
    const char *resource;      /* its resource or processor name, or NULL */
    tlv_time start, end;       /* the stretch of time (end == start for an instant) */
    uint64_t line;             /* the log line where it began; 0 when none */
    double value;              /* its measure, as the verdict's worst */
} tlv_violation;

/* Every violation of the failed requirements, by requirement then time (at
 * most 100000 per requirement; the verdict counts them all). */
TLV_API size_t tlv_verdicts_violation_count(const tlv_verdicts *v);
#define tlv_verdicts_violation(v, i, out) tlv_verdicts_violation_sized((v), (i), (out), sizeof *(out))
TLV_API void tlv_verdicts_violation_sized(const tlv_verdicts *v, size_t i, tlv_violation *out,
                                          size_t size);

#ifdef __cplusplus
}
#endif

#endif
