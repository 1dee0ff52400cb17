/*
 * viz_cond.c — the conditions of visualization rules: a key of a Figures
 * object (spec §9.2) is substituted and macro-expanded, then compiled and
 * evaluated by the world; its figures are drawn only when it holds. (The
 * [condition] of an event pattern belongs to viz_pattern.c.)
 *
 * A key is evaluated for every interval its rule draws (the TOPPERS state
 * rules ask up to six, "${FROM_VAL}==RUNNING" ..., of each of a million
 * intervals at 1M lines), and most keys read only interned values
 * (${FROM_VAL}, ${TO_ARG1}, ${TARGET}...): the answer for the same values is
 * the same. So a key whose placeholders are all such is remembered per
 * builder by (key, the ids its placeholders stand for): substituting,
 * looking the condition up and evaluating it happen once per distinct
 * combination. A key with a time (${FROM_TIME}) or more placeholders than
 * remembered is evaluated every time; so is one whose substituted text
 * still has a '$' (a macro, or a value holding one: expanded each time), and
 * one that does not compile (its error is reported each time, with the line).
 */
#include "viz/viz_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEMO_PARTS 4       /* placeholders of a key that can be remembered */
#define MEMO_KEYS 64       /* keys planned per builder (the rules have few) */
#define MEMO_SLOTS 4096    /* answers remembered (a power of two); emptied when full */

/* One placeholder of a key, as subst_one (viz_subst.c) reads it. */
enum { PH_TARGET, PH_FROM, PH_TO, PH_BARE };
enum { PART_VAL, PART_TARGET, PART_ARG, PART_NONE };

typedef struct placeholder {
    unsigned char where; /* PH_* */
    unsigned char part;  /* PART_*: what of the event */
    unsigned char is_value; /* a TO_ part that reads "(open)" when open_label */
    unsigned long arg;   /* ARGn's n */
} placeholder;

typedef struct key_plan {
    const char *key;     /* the key's text (its address identifies it) */
    int memo;            /* remembered at all */
    size_t n;
    placeholder ph[MEMO_PARTS];
} key_plan;

typedef struct answer {
    const char *key;     /* NULL: free */
    uint64_t tok[MEMO_PARTS];
    uint32_t flags;
    int value;
} answer;

struct cond_memo {
    key_plan plans[MEMO_KEYS];
    size_t nplans;
    answer *slots;       /* MEMO_SLOTS */
    size_t used;
};

/* What a "${FROM_x}" / "${TO_x}" / bare part names, as put_event_part reads it. */
static int parse_part(const char *part, size_t n, placeholder *ph)
{
    ph->part = PART_NONE;
    if (n == 6 && memcmp(part, "TARGET", 6) == 0)
        ph->part = PART_TARGET;
    else if (n == 3 && memcmp(part, "VAL", 3) == 0)
        ph->part = PART_VAL;
    else if (n == 4 && memcmp(part, "TIME", 4) == 0)
        return -1; /* a time: not remembered */
    else if (n > 3 && memcmp(part, "ARG", 3) == 0) {
        ph->part = PART_ARG;
        ph->arg = strtoul(part + 3, NULL, 10);
    }
    return 0;
}

/* The placeholders of key, as subst_one finds them; plan->memo 0 when the
 * key cannot be remembered. */
static void plan_key(const char *key, key_plan *plan)
{
    memset(plan, 0, sizeof *plan);
    plan->key = key;
    size_t len = strlen(key);
    for (size_t i = 0; i < len; i++) {
        if (key[i] != '$' || i + 1 >= len || key[i + 1] != '{')
            continue;
        const char *end = memchr(key + i + 2, '}', len - i - 2);
        if (!end)
            continue;
        const char *name = key + i + 2;
        size_t n = (size_t)(end - name);
        if (memchr(name, '$', n))
            return; /* "${FROM_${TARGET}}": what is substituted depends on the context */
        placeholder ph = {0};
        int known = 1;
        if (n == 6 && memcmp(name, "TARGET", 6) == 0) {
            ph.where = PH_TARGET;
        } else if (n > 5 && memcmp(name, "FROM_", 5) == 0) {
            ph.where = PH_FROM;
            if (parse_part(name + 5, n - 5, &ph) < 0)
                return;
        } else if (n > 3 && memcmp(name, "TO_", 3) == 0) {
            ph.where = PH_TO;
            ph.is_value = (n == 6 && memcmp(name + 3, "VAL", 3) == 0) ||
                          (n > 6 && memcmp(name + 3, "ARG", 3) == 0);
            if (parse_part(name + 3, n - 3, &ph) < 0)
                return;
        } else if ((n == 3 && memcmp(name, "VAL", 3) == 0) ||
                   (n == 4 && memcmp(name, "TIME", 4) == 0) ||
                   (n > 3 && memcmp(name, "ARG", 3) == 0)) {
            ph.where = PH_BARE;
            if (parse_part(name, n, &ph) < 0)
                return;
        } else {
            known = 0; /* stays as it is, whatever the context */
        }
        if (!known)
            continue;
        if (plan->n == MEMO_PARTS)
            return;
        plan->ph[plan->n++] = ph;
        i += n + 2;
    }
    plan->memo = 1;
}

/* The id a part of event e stands for (+1; 0 for nothing), as
 * put_event_part would write its text. */
static uint64_t event_token(const builder *b, const vevent *e, const placeholder *ph)
{
    if (!e)
        return 0;
    switch (ph->part) {
    case PART_TARGET:
        return (uint64_t)e->res + 1;
    case PART_VAL:
        return e->kind == TLV_EVENT_ATTRIBUTE ? (uint64_t)e->value + 1 : 0;
    case PART_ARG:
        return e->kind == TLV_EVENT_BEHAVIOR && ph->arg < e->nargs
                   ? (uint64_t)viz_args(b, e)[ph->arg] + 1
                   : 0;
    default:
        return 0;
    }
}

#define OPEN_TOKEN (UINT64_C(1) << 63) /* "(open)" */

static uint64_t token(const builder *b, const subst_ctx *c, const placeholder *ph)
{
    switch (ph->where) {
    case PH_TARGET:
        return (uint64_t)(uintptr_t)c->target;
    case PH_FROM:
        return c->is_when ? 0 : event_token(b, c->from, ph);
    case PH_TO:
        if (c->is_when)
            return 0;
        if (!c->to && c->open_label && ph->is_value)
            return OPEN_TOKEN;
        return event_token(b, c->to, ph);
    default:
        return c->is_when ? event_token(b, c->from, ph) : 0;
    }
}

static size_t answer_hash(const char *key, const uint64_t *tok, uint32_t flags)
{
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ULL ^ flags;
    for (size_t i = 0; i < MEMO_PARTS; i++)
        h = (h ^ tok[i]) * 0xbf58476d1ce4e5b9ULL;
    return (size_t)(h ^ h >> 31);
}

static const key_plan *plan_of(struct cond_memo *m, const char *key)
{
    for (size_t i = 0; i < m->nplans; i++)
        if (m->plans[i].key == key)
            return &m->plans[i];
    if (m->nplans == MEMO_KEYS)
        return NULL;
    plan_key(key, &m->plans[m->nplans]);
    return &m->plans[m->nplans++];
}

/* Evaluates the key the long way: substituted (into b->b), expanded,
 * compiled. 1, 0, or -1 (reported). */
static int evaluate(builder *b, const subst_ctx *c, const char *key)
{
    if (viz_expand(b, c, key, 0) < 0)
        return -1;
    char err[200];
    const cond *k = world_cond(b->w, buf_str(&b->a), b->a.len, err, sizeof err);
    if (!k) {
        char msg[400];
        snprintf(msg, sizeof msg, "condition \"%s\": %s", buf_str(&b->a), err);
        viz_error(b, msg, NULL);
        return -1;
    }
    return cond_eval(k, NULL, NULL);
}

/* Whether the condition key `key` holds for the interval or instant of `c`;
 * a key that does not expand or compile is reported and does not hold. */
int viz_condition_holds(builder *b, const subst_ctx *c, const char *key)
{
    struct cond_memo *m = b->cond_memo;
    if (!m && (m = b->cond_memo = calloc(1, sizeof *m)) != NULL &&
        !(m->slots = calloc(MEMO_SLOTS, sizeof *m->slots))) {
        free(m);
        m = b->cond_memo = NULL;
    }
    const key_plan *plan = m ? plan_of(m, key) : NULL;
    if (!plan || !plan->memo) {
        int v = evaluate(b, c, key);
        return v > 0;
    }
    answer a = {key, {0}, (uint32_t)(c->is_when | c->open_label << 1), 0};
    for (size_t i = 0; i < plan->n; i++)
        a.tok[i] = token(b, c, &plan->ph[i]);
    size_t mask = MEMO_SLOTS - 1, at = answer_hash(key, a.tok, a.flags) & mask;
    for (;; at = (at + 1) & mask) {
        const answer *s = &m->slots[at];
        if (!s->key)
            break;
        if (s->key == key && s->flags == a.flags && memcmp(s->tok, a.tok, sizeof a.tok) == 0)
            return s->value;
    }
    int v = evaluate(b, c, key);
    if (v < 0)
        return 0;
    /* b->b holds the substituted text: with a '$' left it was expanded as
     * macros, which are not remembered */
    if (memchr(buf_str(&b->b), '$', b->b.len))
        return v;
    if (m->used + 1 > MEMO_SLOTS / 2) { /* full: start again */
        memset(m->slots, 0, MEMO_SLOTS * sizeof *m->slots);
        m->used = 0;
        at = answer_hash(key, a.tok, a.flags) & mask;
    }
    while (m->slots[at].key)
        at = (at + 1) & mask;
    a.value = v;
    m->slots[at] = a;
    m->used++;
    return v;
}

void viz_free_cond_memo(builder *b)
{
    if (b->cond_memo)
        free(b->cond_memo->slots);
    free(b->cond_memo);
    b->cond_memo = NULL;
}
