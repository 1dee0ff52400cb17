/*
 * viz_cond.c — the conditions of visualization rules: a key of a Figures
 * object (spec §9.2) is substituted and macro-expanded, then compiled and
 * evaluated by the world; its figures are drawn only when it holds. (The
 * [condition] of an event pattern belongs to viz_pattern.c.)
 */
#include "viz_build.h"

#include <stdio.h>

/* Whether the condition key `key` holds for the interval or instant of `c`;
 * a key that does not expand or compile is reported and does not hold. */
int viz_condition_holds(builder *b, const subst_ctx *c, const char *key)
{
    if (viz_expand(b, c, key, 0) < 0)
        return 0;
    char err[200];
    const cond *k = world_cond(b->w, buf_str(&b->a), b->a.len, err, sizeof err);
    if (!k) {
        char msg[400];
        snprintf(msg, sizeof msg, "condition \"%s\": %s", buf_str(&b->a), err);
        viz_error(b, msg, NULL);
        return 0;
    }
    return cond_eval(k, NULL, NULL);
}
