/*
 * evpattern.h — event patterns as instance kinds (a resource header's
 * "Instances") and timing requirements (tlv verify) write them: a
 * standard-form event without its time, whose trailing parts may be left
 * out, with ${NAME} variables substituted before it is read.
 *
 *   Pattern = Resource "." Name [ "=" Value | "(" Args ")" ]
 *
 * "RES.state" matches any change of state, "RES.state=RUNNING" a change to
 * RUNNING, "RES.enterSVC()" the behavior with any arguments,
 * "RES.leaveSVC(act_tsk)" the behavior whose first argument is act_tsk
 * (arguments left out, or left empty, match anything). The resource is a
 * resource's name or a type's name (any resource of that type); the caller
 * decides which. Nothing here knows a trace: matching is the caller's, on
 * the parts parsed here.
 */
#ifndef TLV_EVPATTERN_H
#define TLV_EVPATTERN_H

#include "base/buf.h"

#include <stddef.h>

typedef enum evp_kind {
    EVP_ANY = 0,      /* "RES.name": an attribute change or a behavior */
    EVP_ATTR = 1,     /* "RES.name=value" */
    EVP_BEHAVIOR = 2  /* "RES.name(args)" */
} evp_kind;

/* A parsed pattern. Every string is NUL-terminated in `mem`, owned. */
typedef struct evpattern {
    char *mem;
    const char *resource;
    const char *name;
    evp_kind kind;
    const char *value;     /* EVP_ATTR */
    size_t nargs;          /* EVP_BEHAVIOR: the arguments given */
    const char **args;     /* "" matches any argument */
} evpattern;

/* Parses `text` (n bytes). Returns 0, -1 with a reason in err (e.g.
 * "expected '.' between the resource and the name") and *col the 1-based
 * column it is about, or -2 when memory ran out. */
int evpattern_parse(const char *text, size_t n, evpattern *out, char *err, size_t errsz,
                    size_t *col);
void evpattern_free(evpattern *p);

/* Looks a variable up for evp_subst: sets *value and *len and returns 1 for
 * a known name (`name`, `n` bytes, without "${" and "}"), 0 otherwise. */
typedef int (*evp_lookup)(void *user, const char *name, size_t n, const char **value,
                          size_t *len);

/* Appends `text` to `out` with every ${NAME} the lookup knows replaced by its
 * value — with `escape`, escaped by std_escape's rules, so that a value with
 * commas stays one argument of a pattern; without, as it is (a name for
 * people) — other text, unknown variables included, is kept. Returns 0 or -1
 * (no memory). */
int evp_subst(const char *text, evp_lookup lookup, void *user, int escape, buf *out);

/* The first ${NAME} in text that the lookup does not know, or NULL; *n is
 * set to the length of the whole "${NAME}". For reporting misspelt
 * variables when a rule file is read. */
const char *evp_unknown_var(const char *text, evp_lookup lookup, void *user, size_t *n);

#endif
