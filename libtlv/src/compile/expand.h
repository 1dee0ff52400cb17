/*
 * expand.h — a conversion template and the macros in it, compiled once into
 * a plan that expands both in one pass (the fast path of convert.c).
 *
 * The general path substitutes the groups into the template, then scans the
 * result for "$NAME{", '{' and '}' (macro.c). When the input line holds none
 * of '$', '{' and '}', no substituted text can change where the macros are,
 * so their places can be found once, from the template alone. The plan is
 * that finding; convert.c uses it only for such lines, and only when the
 * regex matched once (Regex.Replace's one-expansion case). Templates whose
 * macros the general path would reject (unknown names, unclosed braces) or
 * whose structure a substituted group could still change ("$RES${x}{...}")
 * get no plan, so their errors and results come from the general path.
 */
#ifndef TLV_EXPAND_H
#define TLV_EXPAND_H

#include "base/buf.h"
#include "compile/macro.h"
#include "compile/template.h"

#include <stdint.h>

typedef struct xplan xplan;

/* Builds t->plan when the template allows one (else leaves it NULL). Each
 * macro of the plan gets a memo site numbered from *next_site on, which is
 * advanced. Returns 0, or -1 when memory ran out. */
int xplan_build(tmpl *t, size_t *next_site);
void xplan_free(xplan *p);

/* Appends Regex.Replace(subject, re, t) with its macros expanded to out
 * (which is cleared first), for one match `ov` of a subject that holds no
 * '$', '{' or '}'. Returns 0, or -1 with the reason in err, as macro_expand. */
int xplan_run(const tmpl *t, const macro_host *host, macro_memo *memo, const char *subject,
              size_t len, const PCRE2_SIZE *ov, buf *out, buf *err);

/* The plan's memo sites (one per macro, numbered in the order the macros
 * close): first_site .. first_site + site_count - 1. */
size_t xplan_first_site(const xplan *p);
size_t xplan_site_count(const xplan *p);

/* True when no macro of the plan sits in another's argument: then the
 * expansion splits in two halves, xplan_pre and xplan_finish, the first of
 * which reads no state (and so can run on the matching thread, rawmatch.h). */
int xplan_is_flat(const xplan *p);

/* The stateless half of xplan_run for a flat plan: appends to `text` the
 * expansion with each macro call left as its bare argument, and sets
 * spans[2i], spans[2i + 1] to where the argument of site first_site + i
 * begins and ends, counted from where this text begins. Returns 0, or -1
 * when memory ran out (then `text` is as before). */
int xplan_pre(const tmpl *t, const char *subject, size_t len, const PCRE2_SIZE *ov, buf *text,
              uint32_t *spans);

/* The stateful half: out = pre[0, n) with each argument span replaced by
 * its macro's value; the same text, result and errors as xplan_run. */
int xplan_finish(const tmpl *t, const macro_host *host, macro_memo *memo, const char *pre,
                 size_t n, const uint32_t *spans, buf *out, buf *err);

/* True when none of '$', '{', '}' occurs in s. */
int xplan_plain_subject(const char *s, size_t n);

#endif
