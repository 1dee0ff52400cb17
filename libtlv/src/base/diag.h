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
    int nomem;         /* an allocation failed: a message said "out of memory"
                        * or an entry could not be kept (tests/oom) */
};

void diags_init(tlv_diags *d, size_t limit);
void diags_free(tlv_diags *d);

/* Records a problem. `file` is copied (NULL allowed); line/col 0 = unknown.
 * Allocation failure drops the entry but still counts it, and sets nomem, as
 * does a message starting with "out of memory": whoever reads the list can
 * tell that a result is incomplete for want of memory. */
void diags_add(tlv_diags *d, tlv_severity sev, const char *file, long line,
               long col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void diags_vadd(tlv_diags *d, tlv_severity sev, const char *file, long line,
                long col, const char *fmt, va_list ap);

/* Whether a message reports an allocation failure: it starts with "out of
 * memory" or ends with ": out of memory" (a reason comes last). */
int is_nomem_message(const char *msg);

/* Warns, at `member`'s key, of each earlier member of its object with the
 * same key (tj_node.earlier), which the later one replaces (spec §2): "WHAT
 * 'KEY' is given again here; the one at line L, column C is not used (the
 * later one wins)". Returns how many there were. */
struct tj_node;
size_t diags_add_duplicates(tlv_diags *d, const char *file, const struct tj_node *member,
                            const char *what);

/* Appends copies of all entries of `src` to `dst`. */
void diags_merge(tlv_diags *dst, const tlv_diags *src);

/* The message of a handle's last failed call (tlv_*_last_error), kept in the
 * handle itself so that recording it cannot fail; long messages are cut. */
typedef struct last_error {
    char text[512];
} last_error;

/* Records the message and returns `st`, so that a failing call can end with
 * `return last_error_set(&h->err, TLV_ERR_USAGE, "...", ...)`. */
tlv_status last_error_set(last_error *e, tlv_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A query on a const handle records its failure all the same: the API lets
 * one thread at a time use a handle, so this write races with nothing. */
#define LAST_ERROR_OF(handle) ((last_error *)&(handle)->lasterr)

#endif
