/*
 * evmatch.h — event patterns (lang/evpattern.h) compiled against one
 * trace's interned names and values, so that matching a trace event is a
 * few integer compares: what instance kinds (instances.c) and timing
 * requirements (verify.c) match events with. The pattern's resource part is
 * the caller's to resolve (evmatch_resource).
 */
#ifndef TLV_EVMATCH_H
#define TLV_EVMATCH_H

#include "lang/evpattern.h"
#include "trace/trace_impl.h"

#include <stdint.h>

#define EVM_NEVER UINT32_MAX          /* an id no event has */
#define EVM_ANY_ARG (UINT32_MAX - 1)  /* a pattern argument that matches any */

typedef struct evmatch {
    uint32_t name;
    evp_kind kind;
    uint32_t value;
    size_t nargs;
    uint32_t *args;
    /* the resource part, as evmatch_resource resolved it */
    long res;                  /* a resource's index, or -1 */
    long type;                 /* a type's index (any resource of it), or -1 */
} evmatch;

/* Compiles the pattern text against trace t. A name or value the trace
 * never had makes a pattern that never matches; so does a text that does
 * not parse (a substituted value broke it). The resource part is left
 * unresolved (res and type -1: any resource). Returns 0, or -1 when memory
 * ran out. *resource (may be NULL) receives the pattern's resource text,
 * malloc'ed, or NULL when the text did not parse. */
int evmatch_compile(const tlv_trace *t, const char *text, evmatch *out, char **resource);
void evmatch_free(evmatch *m);

/* Resolves a resource text: a resource's name, else a type's name. Returns
 * 0, or -1 when it names neither (res and type stay -1). */
int evmatch_resource(const tlv_trace *t, const char *resource, evmatch *m);

/* Whether trace event e matches (its resource too, when resolved). */
int evmatch_matches(const tlv_trace *t, const evmatch *m, const trace_event *e);

#endif
