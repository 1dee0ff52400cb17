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

#include "buf.h"
#include "macro.h"
#include "template.h"

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

/* True when none of '$', '{', '}' occurs in s. */
int xplan_plain_subject(const char *s, size_t n);

#endif
