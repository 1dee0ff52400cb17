/*
 * trace_cache.h — the trace cache file, shared by the modules that make it
 * (trace_save.c), read it back (trace_restore.c) and decide when to do
 * which (trace_cache.c): its header, its directory of sections and what
 * each section holds. docs/cache.md describes the same format for readers
 * outside the library (a fuzzer, a curious person with a hex dump).
 */
#ifndef TLV_TRACE_CACHE_H
#define TLV_TRACE_CACHE_H

#include "trace/trace_impl.h"

#include <stddef.h>
#include <stdint.h>

#define CACHE_MAGIC "TLVCACHE"
#define CACHE_FORMAT 1u
#define CACHE_BYTE_ORDER 0x01020304u
#define CACHE_HEADER_BYTES 256u
#define CACHE_MAX_SECTIONS 40u
#define CACHE_DIR_ENTRY_BYTES 24u
#define CACHE_PAYLOAD_START (CACHE_HEADER_BYTES + CACHE_MAX_SECTIONS * CACHE_DIR_ENTRY_BYTES)
#define CACHE_PAGE 4096u        /* the events start at a multiple: mapped as they are */
#define CACHE_KEY_SPAN ((size_t)1 << 20) /* the log's first and last MB are hashed */

/* flags */
#define CACHE_STANDARD_FORM 1u  /* the log was read as a standard-form trace */
#define CACHE_ENDS_WITH_LF 2u   /* its last byte is a line end: a longer log
                                   whose prefix it is can go on from it */
#define CACHE_UNFINISHED 4u     /* made before the trace was finished (a viewer
                                   reading on): a load goes on from it as from
                                   a prefix, and then finishes */

/* The first 256 bytes, every field at its natural alignment, no padding. */
typedef struct cache_header {
    char magic[8];
    uint32_t format;
    uint32_t byte_order;
    uint32_t header_bytes;
    uint32_t nsections;
    uint64_t file_bytes;
    uint64_t payload_hash;      /* XXH64 of bytes [CACHE_PAYLOAD_START, file_bytes) */
    char version[32];           /* tlv_version(), NUL-padded */
    /* the key: what the cache was made from */
    uint64_t log_bytes;
    int64_t log_mtime_sec;
    int64_t log_mtime_nsec;
    uint64_t log_head_hash;     /* XXH64 of the log's first min(1 MB, size) bytes */
    uint64_t log_tail_hash;     /* XXH64 of its last min(1 MB, size) bytes */
    uint64_t rules_hash;        /* every rule file's path and bytes (trace_cache.c) */
    uint32_t flags;
    uint32_t layout;            /* sizeof(trace_event) | sizeof(change) << 8 */
    uint8_t reserved[120];
    uint64_t header_hash;       /* XXH64 of the bytes before it */
} cache_header;

typedef struct cache_dir_entry {
    uint32_t id;
    uint32_t reserved;
    uint64_t offset;            /* from the start of the file, a multiple of 8 */
    uint64_t bytes;
} cache_dir_entry;

/* Section ids (the order they are written in). */
enum cache_section {
    SEC_META = 1,       /* uint64_t[META_COUNT] */
    SEC_VALUE_ENDS,     /* uint64_t per interned value: where its text ends in */
    SEC_VALUE_TEXT,     /* the values' bytes, one after another, no NULs */
    SEC_RES,            /* cache_res per resource */
    SEC_RES_ENDS,       /* uint64_t per resource: where its name ends in */
    SEC_RES_TEXT,       /* the resources' names */
    SEC_HIST,           /* cache_hist per (resource, attribute of its type) */
    SEC_CHANGES,        /* change[], the histories' one after another */
    SEC_RUNS,           /* uint32_t[], the histories' run starts */
    SEC_HFRAC,          /* uint64_t[], the fractions of the histories that have some */
    SEC_EVENTS,         /* trace_event[nev], at a multiple of CACHE_PAGE */
    SEC_FRAC,           /* uint64_t[nev] by event order, when any time has a fraction */
    SEC_LINES_BASE,     /* the input lines' numcol: base[], off[], apart[] */
    SEC_LINES_OFF,
    SEC_LINES_APART,
    SEC_SEQS_BASE,      /* the state sequence numbers' numcol */
    SEC_SEQS_OFF,
    SEC_SEQS_APART,
    SEC_ARGS,           /* uint32_t[nargs]: interned behavior arguments */
    SEC_RULE_MATCHES,   /* uint64_t per conversion rule */
    SEC_TAIL_WARNED,    /* uint8_t per conversion rule */
    SEC_DIAGS,          /* cache_diag per diagnostic kept */
    SEC_DIAG_TEXT,
    SEC_UNMATCHED,      /* cache_unmatched per line no rule matched */
    SEC_UNMATCHED_TEXT,
    SEC_TEXTS,          /* the converter's and the trace's last error texts */
    SEC_CONSISTENCY,    /* the consistency report (consistency_pack) */
    SEC_LAST
};

/* SEC_META's numbers. */
enum cache_meta {
    M_NVALUES, M_NRES, M_NDECL, M_NEV, M_NARGS, M_HAS_FRAC,
    M_NEXT_SEQ, M_STATIC_CHANGES, M_PALETTE_NEXT, M_CLOCK_SEEN, M_CLOCK_SEC, M_CLOCK_ATTO,
    M_BYTES_READ, M_LINES_READ, M_LINES_MATCHED, M_EVENTS, M_ERROR_LINES,
    M_NONTEXT_LINES, M_FIRST_LOOKS_STD, M_STATUS,
    M_DIAG_ERRORS, M_DIAG_WARNINGS, M_DIAG_DROPPED, M_NDIAGS,
    M_PRE_ERRORS, M_PRE_WARNINGS, M_PRE_DROPPED, M_PRE_NDIAGS,
    M_NUNMATCHED, M_NRULES, M_LINES_N, M_LINES_NAPART, M_SEQS_N, M_SEQS_NAPART,
    M_NHIST, M_NCHANGES, M_NRUNS, M_NHFRAC, M_CONV_ERROR_LEN, M_TRACE_ERROR_LEN,
    META_COUNT
};

typedef struct cache_res {
    uint32_t type, color, dynamic, decl;
} cache_res;

typedef struct cache_hist {
    uint32_t n, init, nruns, has_frac;
} cache_hist;

#define DIAG_FILE_NONE 0u
#define DIAG_FILE_SOURCE 1u     /* the log's name as given: the current one on reading */
#define DIAG_FILE_TEXT 2u

typedef struct cache_diag {
    uint32_t severity, file_kind;
    int64_t line, col;
    uint64_t file_at, file_len, msg_at, msg_len; /* in SEC_DIAG_TEXT */
} cache_diag;

typedef struct cache_unmatched {
    uint64_t line, at, len;     /* in SEC_UNMATCHED_TEXT */
} cache_unmatched;

/* What a conversion left that the trace itself does not hold: the
 * diagnostics' counts before tlv_trace_finish added its summaries (a longer
 * log whose prefix this is goes on from there), the lines no rule matched,
 * and the status the load returned. Filled by trace_cache.c while it
 * converts, read by trace_save.c. */
typedef struct cache_extra {
    size_t pre_errors, pre_warnings, pre_dropped, pre_count;
    cache_unmatched *unmatched;
    size_t nunmatched, unmatched_cap;
    char *unmatched_text;
    size_t unmatched_len, unmatched_text_cap;
    int nomem;                  /* an unmatched line could not be kept */
    tlv_status status;
} cache_extra;

/* trace_cache.c: the lines no rule matched, kept while converting (in
 * tlv_trace.cache_rec); trace_cache_free frees them (tlv_trace_free). */
typedef struct cache_recorder cache_recorder;
void trace_cache_free(tlv_trace *t);

/* The key of a log and rule set, computed by trace_cache.c. */
typedef struct cache_key {
    uint64_t log_bytes;
    int64_t mtime_sec, mtime_nsec;
    uint64_t head_hash, tail_hash, rules_hash;
    uint32_t flags;
} cache_key;

/* trace_save.c: writes the finished trace t into a new file at `path` (by
 * way of a temporary file in the same folder, renamed when complete, so
 * that a reader never sees half a file). Returns 0 (*header_hash: the
 * written header's hash), or -1 with the reason in why. */
int cache_save(const tlv_trace *t, const cache_key *key, const cache_extra *x,
               const char *path, uint64_t *header_hash, char *why, size_t whysz);

/* trace_restore.c: a cache file, mapped. */
typedef struct cache_file cache_file;

/* Opens the cache at `path` and checks its header and directory: 1 (*out
 * set), 0 with the reason in why (none there, not a cache, another format,
 * machine or tlv version, truncated), -1 out of memory. Cheap: the rest
 * is read by cache_verify and cache_restore. */
int cache_open(const char *path, cache_file **out, char *why, size_t whysz);
/* Its header (the key it was made with). */
const cache_header *cache_header_of(const cache_file *f);
/* Whether the payload matches its checksum: 1, or 0 (why says). Reads the
 * whole file. */
int cache_verify(const cache_file *f, char *why, size_t whysz);
/* Makes t (a new trace: nothing pushed) the trace the cache holds; `prefix`
 * leaves out what tlv_trace_finish added, for going on with more lines of
 * a log that grew. `source` is the log's name as now given. Returns 0 and
 * the load's status in *status; 1 when the contents are inconsistent (a
 * hostile or damaged file: t is unchanged, why says what); -1 out of
 * memory with t unchanged; -2 out of memory with t unusable (it ran out
 * once t was the cache's). */
int cache_restore(cache_file *f, tlv_trace *t, const char *source, int prefix,
                  tlv_status *status, char *why, size_t whysz);
/* Tells fn of every line no rule matched, as the conversion did. */
void cache_replay_unmatched(const cache_file *f, tlv_unmatched_fn fn, void *user);
/* Copies the unmatched lines into x (which holds none): 0, or -1 out of
 * memory. */
int cache_copy_unmatched(const cache_file *f, cache_extra *x);
void cache_close(cache_file *f);

#endif
