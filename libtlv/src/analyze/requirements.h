/*
 * requirements.h — the inside of tlv_requirements (tlv/verify.h): a
 * requirements file read into one record per requirement, with the
 * position of every value, for verify.c to check against a trace and to
 * report in file:line:col when the trace has no such resource.
 */
#ifndef TLV_REQUIREMENTS_H
#define TLV_REQUIREMENTS_H

#include "base/diag.h"

#include <stddef.h>

typedef enum req_check { RC_RESPONSE, RC_LATENCY, RC_STATE, RC_CPU, RC_FOLLOWED, RC_NEVER } req_check;

typedef enum req_stat { STAT_MAX, STAT_MEAN, STAT_PCT } req_stat;

/* Where a value is in the file. */
typedef struct req_pos {
    long line, col;
} req_pos;

/* A duration as written: `value` in units of 10^exp seconds, or in the
 * trace's TimeScale when !has_unit. */
typedef struct req_dur {
    double value;
    int exp;
    int has_unit;
    req_pos pos;
    const char *key;           /* "Max", "Window", "Within": for errors */
    char text[48];             /* as written (cut short), for errors */
} req_dur;

/* The largest duration a requirement takes is 2^63 - 1 ns (292 years): a
 * bound past it is an error, not a bound no trace can break. Whether
 * `value` units of 10^exp seconds are over it; and the largest in those
 * units, as exact decimal text ("9223372036854.775807" for ms). */
int req_duration_too_large(double value, int exp);
const char *req_largest_duration(int exp, char *buf, size_t size);

/* A member of a requirement that is text, with where it is (NULL when
 * not given). */
typedef struct req_text {
    char *s;
    req_pos pos;
} req_text;

typedef struct requirement {
    char *name;
    req_check check;
    req_pos pos;               /* of its name */
    req_text resource;         /* a resource's or a type's name; NULL: every one */
    req_text kind;             /* response/latency: the instance kind */
    req_text iname;            /* ...: the instances' name ("Name") */
    req_stat stat;
    double pct;                /* STAT_PCT: the percentile */
    req_dur max;               /* response, latency, state: the bound */
    req_text attribute;        /* state, never: the attribute (NULL: "state") */
    req_text state;            /* state, never: the value */
    req_text processor;        /* cpu: "CPU 1" or "1"; NULL: every processor */
    req_dur window;            /* cpu */
    double max_share;          /* cpu: 0..1 */
    req_text event;            /* followed, never: the event pattern */
    req_text followed_by;      /* followed */
    req_dur within;            /* followed */
} requirement;

struct tlv_requirements {
    char *path;
    char *res_file;            /* "ResourceFile", resolved from the file's folder; or NULL */
    tlv_diags diags;
    requirement *v;
    size_t n, cap;
};

/* The names of the checks, by req_check. */
extern const char *const req_check_names[];

#endif
