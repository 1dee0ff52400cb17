/*
 * json.h — the reader of "TLV JSON", the permissive JSON dialect the original
 * tool's hand-written rule and resource files use (spec §2): UTF-8 BOM, CR /
 * LF / CRLF line ends, trailing commas and empty elements, and backslash
 * sequences that are not JSON escapes kept verbatim. It builds a tree that
 * keeps member order, duplicate members, and the line and column of every
 * key and value, so that later checks can point at the exact place.
 *
 * Why not cJSON for reading: cJSON rejects this dialect and records no
 * positions; the project uses cJSON for the JSON it writes.
 */
#ifndef TLV_JSON_H
#define TLV_JSON_H

#include <stddef.h>

typedef enum tj_type {
    TJ_NULL, TJ_FALSE, TJ_TRUE, TJ_NUMBER, TJ_STRING, TJ_ARRAY, TJ_OBJECT
} tj_type;

typedef struct tj_node {
    tj_type type;
    char *key;             /* member name inside an object, else NULL */
    char *str;             /* TJ_STRING: decoded text; TJ_NUMBER: source text;
                              TJ_TRUE/TJ_FALSE/TJ_NULL: "true"/"false"/"null" */
    size_t str_len;        /* bytes in str (a \u0000 escape may embed a NUL) */
    double num;            /* TJ_NUMBER: value */
    struct tj_node *child; /* first element/member (TJ_ARRAY, TJ_OBJECT) */
    struct tj_node *next;  /* next sibling, in file order */
    size_t count;          /* number of children */
    long line, col;        /* 1-based position of the value's first character */
    long key_line, key_col;/* position of the member's key (members only) */
    struct tj_node *earlier; /* members: the previous member of the same object
                                with the same key, or NULL (set by tj_parse) */
    int shadowed;          /* members: a later member has the same key */
} tj_node;

/* Error detail from tj_parse. */
typedef struct tj_error {
    long line, col;        /* 1-based; columns count characters (UTF-8 code
                              points), a tab counts 1 */
    char message[200];     /* e.g. "expected ',' or '}' after a member, found 'x'" */
} tj_error;

/* Parses `len` bytes. Returns the root (any JSON value) or NULL with *err
 * filled: malformed input, nesting deeper than TJ_MAX_DEPTH, or no memory
 * ("out of memory"). Line ends: LF, CRLF and bare CR each end one line. */
tj_node *tj_parse(const char *text, size_t len, tj_error *err);

#define TJ_MAX_DEPTH 200

void tj_free(tj_node *root);

/* The last member named `key` of an object (later duplicates win), or NULL
 * (also when obj is NULL or not an object). */
const tj_node *tj_get(const tj_node *obj, const char *key);

/* True when a later member of the same object has the same key as `member`,
 * so `member` is overridden; iterate with this to honour "later wins".
 * Constant time: tj_parse marks the members when it closes each object. */
int tj_shadowed(const tj_node *member);

/* Name of a type for messages: "an object", "a string", "a number", ... */
const char *tj_type_name(tj_type t);

#endif
