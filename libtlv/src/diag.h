/*
 * diag.h — the list of problems (tlv_diags) kept on every handle: each with
 * severity, file, line, column and message. Long runs can report an error on
 * every input line, so a list keeps only the first `limit` entries and counts
 * the rest.
 */
#ifndef TLV_DIAG_H
#define TLV_DIAG_H

#include "tlv/tlv.h"

#include <stdarg.h>

struct tlv_diags {
    tlv_diag *items;
    size_t count, cap;
    size_t limit;      /* most entries kept; 0 = no limit */
    size_t dropped;    /* entries not kept because of the limit */
    size_t errors;     /* errors reported, kept or not */
    size_t warnings;   /* warnings reported, kept or not */
};

void diags_init(tlv_diags *d, size_t limit);
void diags_free(tlv_diags *d);

/* Records a problem. `file` is copied (NULL allowed); line/col 0 = unknown.
 * Allocation failure drops the entry silently but still counts it. */
void diags_add(tlv_diags *d, tlv_severity sev, const char *file, long line,
               long col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void diags_vadd(tlv_diags *d, tlv_severity sev, const char *file, long line,
                long col, const char *fmt, va_list ap);

/* Appends copies of all entries of `src` to `dst`. */
void diags_merge(tlv_diags *dst, const tlv_diags *src);

#endif
