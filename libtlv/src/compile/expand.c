/*
 * expand.c — compiled templates with macros (see expand.h). xplan_build runs
 * macro.c's brace-matching over the template once, with each substituted
 * segment standing in as an opaque run of ordinary characters, and records
 * what it did as a list of steps; xplan_run replays the steps for a line.
 * Whatever the build cannot decide from the template alone makes it give up
 * (no plan), never guess.
 */
#include "compile/expand.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef enum xop_kind {
    X_LIT,   /* plan->text[a, a + b) */
    X_SEG,   /* template segment a (a group, $&, $`, $', $_) */
    X_OPEN,  /* a macro begins: its argument starts here */
    X_CLOSE, /* the innermost macro ends: macro b, memo site a */
    X_GROUP  /* a segment of one capture group: group a (X_SEG made direct) */
} xop_kind;

typedef struct xop {
    uint8_t kind;
    uint32_t a, b;
} xop;

enum { P_NONE = -1, P_OPEN = -2, P_CLOSE = -3 };

/* Literal text[off, off + len), then `action`: a group number (>= 0) to
 * copy, or one of P_NONE, P_OPEN, P_CLOSE. */
typedef struct piece {
    uint32_t off, len;
    int32_t action;
} piece;

struct xplan {
    xop *ops;
    size_t nops, cap;
    char *text;       /* the literal bytes the steps copy */
    size_t ntext, text_cap;
    size_t site0, nsites; /* its memo sites: site0 .. site0 + nsites - 1 */
    uint32_t *macros; /* the macro of each site, in site order */
    /* A flat plan of literals and one-group segments only, as pieces (a
     * literal, then one action) for xplan_pre's straight copy; NULL otherwise. */
    struct piece *pieces;
    size_t npieces, lit_total, group_refs;
    int flat;         /* no macro inside another's argument (xplan_pre applies) */
};

#define XPLAN_MAX_DEPTH 64

void xplan_free(xplan *p)
{
    if (!p)
        return;
    free(p->ops);
    free(p->text);
    free(p->macros);
    free(p->pieces);
    free(p);
}

static int add_op(xplan *p, xop_kind kind, uint32_t a, uint32_t b)
{
    if (GROW(p->ops, p->cap, p->nops + 1) < 0)
        return -1;
    p->ops[p->nops++] = (xop){(uint8_t)kind, a, b};
    return 0;
}

/* Appends one literal byte, extending the previous X_LIT when it is last. */
static int add_char(xplan *p, char c)
{
    if (GROW(p->text, p->text_cap, p->ntext + 1) < 0)
        return -1;
    p->text[p->ntext++] = c;
    xop *last = p->nops ? &p->ops[p->nops - 1] : NULL;
    if (last && last->kind == X_LIT && last->a + last->b == p->ntext - 1) {
        last->b++;
        return 0;
    }
    return add_op(p, X_LIT, (uint32_t)(p->ntext - 1), 1);
}

/* The template as a sequence of cells: a literal byte, or (seg >= 0) one
 * substituted segment. */
typedef struct cell {
    char c;
    long seg;
} cell;

static cell *cells_of(const tmpl *t, size_t *n)
{
    size_t count = 0;
    for (size_t i = 0; i < t->nsegs; i++)
        count += t->segs[i].kind == SEG_LITERAL ? t->segs[i].len : 1;
    cell *v = malloc((count ? count : 1) * sizeof *v);
    if (!v)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < t->nsegs; i++) {
        const tmpl_seg *s = &t->segs[i];
        if (s->kind != SEG_LITERAL) {
            v[k++] = (cell){0, (long)i};
            continue;
        }
        for (size_t j = 0; j < s->len; j++)
            v[k++] = (cell){t->text[s->off + j], -1};
    }
    *n = count;
    return v;
}

typedef struct frame {
    int macro; /* -1: a plain brace inside a macro */
} frame;

/* Replays macro_expand's scan (macro.c) over the cells. Returns 1 with the
 * plan filled, 0 when the template cannot have a plan, -1 on no memory. */
static int simulate(xplan *p, const cell *v, size_t n, size_t *next_site)
{
    frame stack[XPLAN_MAX_DEPTH];
    size_t depth = 0, macros_open = 0, macros_seen = 0;
    for (size_t i = 0; i < n;) {
        if (v[i].seg >= 0) {
            if (add_op(p, X_SEG, (uint32_t)v[i].seg, 0) < 0)
                return -1;
            i++;
            continue;
        }
        char c = v[i].c;
        if (c == '$') {
            size_t j = i + 1;
            while (j < n && v[j].seg < 0 && macro_name_char(v[j].c))
                j++;
            if (j < n && v[j].seg >= 0)
                return 0; /* a substituted text could continue the name */
            size_t nl = j > i + 1 && j < n && v[j].c == '{' ? j - i - 1 : 0;
            if (nl) {
                char name[32];
                if (nl >= sizeof name)
                    return 0;
                for (size_t k = 0; k < nl; k++)
                    name[k] = v[i + 1 + k].c;
                int id = macro_id(name, nl);
                if (id < 0 || depth == XPLAN_MAX_DEPTH)
                    return 0; /* the general path reports it */
                stack[depth++].macro = id;
                macros_open++;
                macros_seen++;
                if (add_op(p, X_OPEN, 0, 0) < 0)
                    return -1;
                i = j + 1;
                continue;
            }
        } else if (depth > 0 && c == '{') {
            if (depth == XPLAN_MAX_DEPTH)
                return 0;
            stack[depth++].macro = -1;
        } else if (depth > 0 && c == '}') {
            frame f = stack[--depth];
            if (f.macro >= 0) {
                macros_open--;
                if (add_op(p, X_CLOSE, (uint32_t)(*next_site)++, (uint32_t)f.macro) < 0)
                    return -1;
                i++;
                continue;
            }
        }
        if (add_char(p, c) < 0)
            return -1;
        i++;
    }
    if (macros_open || !macros_seen)
        return 0;
    return 1;
}

/* Builds p->pieces when every step is a literal, a one-group segment or a
 * macro's bounds. Returns 0, or -1 when memory ran out. */
static int make_pieces(xplan *p)
{
    for (size_t i = 0; i < p->nops; i++)
        if (p->ops[i].kind == X_SEG)
            return 0;
    p->pieces = malloc((p->nops + 1) * sizeof *p->pieces);
    if (!p->pieces)
        return -1;
    piece cur = {0, 0, P_NONE};
    for (size_t i = 0; i < p->nops; i++) {
        const xop *o = &p->ops[i];
        if (o->kind == X_LIT && cur.len == 0) { /* a literal starts the piece */
            cur.off = o->a;
            cur.len = o->b;
            continue;
        }
        if (o->kind == X_LIT) { /* two literals in a row (add_char joins them: not expected) */
            p->lit_total += cur.len;
            p->pieces[p->npieces++] = cur;
            cur = (piece){o->a, o->b, P_NONE};
            continue;
        }
        cur.action = o->kind == X_GROUP ? (int32_t)o->a : o->kind == X_OPEN ? P_OPEN : P_CLOSE;
        if (o->kind == X_GROUP)
            p->group_refs++;
        p->lit_total += cur.len;
        p->pieces[p->npieces++] = cur;
        cur = (piece){0, 0, P_NONE};
    }
    if (cur.len) {
        p->lit_total += cur.len;
        p->pieces[p->npieces++] = cur;
    }
    return 0;
}

/* Whether the template's own text escapes a '$', '{' or '}' (macro.c then
 * reads it as text, which the plan's macro places would not know). */
static int escapes_structure(const tmpl *t)
{
    for (size_t i = 0; i + 1 < t->len; i++)
        if (t->text[i] == '\\' && strchr("${}", t->text[++i]))
            return 1;
    return 0;
}

int xplan_build(tmpl *t, size_t *next_site)
{
    t->plan = NULL;
    if (escapes_structure(t))
        return 0; /* the general path expands it */
    size_t n = 0;
    cell *v = cells_of(t, &n);
    xplan *p = calloc(1, sizeof *p);
    if (!v || !p) {
        free(v);
        free(p);
        return -1;
    }
    size_t site = *next_site;
    int rc = simulate(p, v, n, &site);
    free(v);
    if (rc <= 0) {
        xplan_free(p);
        return rc < 0 ? -1 : 0;
    }
    for (size_t i = 0; i < p->nops; i++) { /* one group: no lookup through the segment */
        xop *o = &p->ops[i];
        const tmpl_seg *sg = o->kind == X_SEG ? &t->segs[o->a] : NULL;
        if (sg && sg->kind == SEG_GROUP && sg->len == 1 && !sg->escape)
            *o = (xop){X_GROUP, t->groups[sg->off], (uint32_t)sg->top};
    }
    p->site0 = *next_site;
    p->nsites = site - *next_site;
    p->flat = 1;
    p->macros = malloc(p->nsites * sizeof *p->macros);
    if (!p->macros) {
        xplan_free(p);
        return -1;
    }
    for (size_t i = 0, depth = 0; i < p->nops; i++) {
        const xop *o = &p->ops[i];
        if (o->kind == X_OPEN && depth++ > 0)
            p->flat = 0;
        if (o->kind == X_CLOSE) {
            depth--;
            p->macros[o->a - p->site0] = o->b;
        }
    }
    if (p->flat && make_pieces(p) < 0) {
        xplan_free(p);
        return -1;
    }
    *next_site = site;
    t->plan = p;
    t->plan_site0 = p->site0;
    t->free_plan = xplan_free;
    return 0;
}

/* Group g's text, as tmpl_put_seg puts a one-group segment (nothing when
 * unset), escaped when it lands outside macro calls of a std_line template. */
static inline int put_group(const tmpl *t, buf *out, const char *subject, const PCRE2_SIZE *ov,
                            uint32_t g, uint32_t top)
{
    PCRE2_SIZE a = ov[2 * g], b = ov[2 * g + 1];
    if (a == PCRE2_UNSET || b < a)
        return 0;
    return top ? tmpl_put_text(t, out, subject + a, b - a) : buf_append(out, subject + a, b - a);
}

/* Appends what a text step (X_LIT, X_SEG, X_GROUP) of t's plan puts. */
static inline int put_text_op(const tmpl *t, const xop *o, const char *subject, size_t len,
                              const PCRE2_SIZE *ov, buf *out)
{
    if (o->kind == X_LIT)
        return buf_append(out, t->plan->text + o->a, o->b);
    if (o->kind == X_GROUP)
        return put_group(t, out, subject, ov, o->a, o->b);
    return tmpl_put_seg(t, o->a, subject, len, ov, out);
}

int xplan_plain_subject(const char *s, size_t n)
{
    return !memchr(s, '$', n) && !memchr(s, '{', n) && !memchr(s, '}', n);
}

int xplan_run(const tmpl *t, const macro_host *host, macro_memo *memo, const char *subject,
              size_t len, const PCRE2_SIZE *ov, buf *out, buf *err)
{
    const xplan *p = t->plan;
    size_t open[XPLAN_MAX_DEPTH], depth = 0;
    char mem[256];
    buf val;
    buf_init_borrowed(&val, mem, sizeof mem);
    buf_clear(out);
    int rc = tmpl_put_text(t, out, subject, ov[0]);
    for (size_t i = 0; i < p->nops && rc == 0; i++) {
        const xop *o = &p->ops[i];
        switch (o->kind) {
        case X_LIT:
        case X_SEG:
        case X_GROUP: rc = put_text_op(t, o, subject, len, ov, out); break;
        case X_OPEN: open[depth++] = out->len; break;
        case X_CLOSE: {
            size_t start = open[--depth];
            val.len = 0;
            rc = macro_eval_site(host, memo, o->a, (int)o->b, out->data + start, out->len - start,
                                 &val, err);
            if (rc == 0) {
                out->len = start;
                rc = depth == 0 ? tmpl_put_text(t, out, val.data, val.len)
                                : buf_append(out, val.data, val.len);
            }
            break;
        }
        }
    }
    if (rc == 0)
        rc = tmpl_put_text(t, out, subject + ov[1], len - ov[1]);
    buf_free(&val);
    return rc;
}

size_t xplan_first_site(const xplan *p) { return p->site0; }

size_t xplan_site_count(const xplan *p) { return p->nsites; }

int xplan_is_flat(const xplan *p) { return p->flat; }

/* xplan_pre for a plan with pieces: one reservation, then straight copies. */
static int pre_pieces(const xplan *p, const char *subject, size_t len, const PCRE2_SIZE *ov,
                      buf *text, uint32_t *spans)
{
    size_t need = ov[0] + (len - ov[1]) + p->lit_total + p->group_refs * len;
    if (buf_reserve(text, need) < 0)
        return -1;
    char *base = text->data + text->len, *d = base;
    copy_short(d, subject, ov[0]);
    d += ov[0];
    for (size_t i = 0; i < p->npieces; i++) {
        const piece *pc = &p->pieces[i];
        if (pc->len) {
            copy_short(d, p->text + pc->off, pc->len);
            d += pc->len;
        }
        if (pc->action >= 0) {
            PCRE2_SIZE a = ov[2 * pc->action], b = ov[2 * pc->action + 1];
            if (a != PCRE2_UNSET && b >= a) {
                copy_short(d, subject + a, b - a);
                d += b - a;
            }
        } else if (pc->action != P_NONE) { /* a macro's argument begins or ends */
            *spans++ = (uint32_t)(d - base);
        }
    }
    copy_short(d, subject + ov[1], len - ov[1]);
    d += len - ov[1];
    *d = '\0';
    text->len = (size_t)(d - text->data);
    return 0;
}

int xplan_pre(const tmpl *t, const char *subject, size_t len, const PCRE2_SIZE *ov, buf *text,
              uint32_t *spans)
{
    const xplan *p = t->plan;
    /* The straight copy puts the log's text as it is: not for a line whose
     * backslashes a std_line template escapes (rare: a line holding one). */
    if (p->pieces && (size_t)(len + p->lit_total) < UINT32_MAX / 2 / (p->group_refs + 1) &&
        !(t->std_line && memchr(subject, '\\', len)))
        return pre_pieces(p, subject, len, ov, text, spans);
    size_t base = text->len, k = 0;
    int rc = tmpl_put_text(t, text, subject, ov[0]);
    for (size_t i = 0; i < p->nops && rc == 0; i++) {
        const xop *o = &p->ops[i];
        switch (o->kind) {
        case X_LIT:
        case X_SEG:
        case X_GROUP: rc = put_text_op(t, o, subject, len, ov, text); break;
        case X_OPEN: spans[k] = (uint32_t)(text->len - base); break;
        case X_CLOSE: spans[k + 1] = (uint32_t)(text->len - base); k += 2; break;
        }
    }
    if (rc == 0)
        rc = tmpl_put_text(t, text, subject + ov[1], len - ov[1]);
    if (rc == 0 && text->len - base > UINT32_MAX)
        rc = -1;
    if (rc < 0)
        text->len = base;
    return rc;
}

int xplan_finish(const tmpl *t, const macro_host *host, macro_memo *memo, const char *pre,
                 size_t n, const uint32_t *spans, buf *out, buf *err)
{
    const xplan *p = t->plan;
    char mem[256];
    buf val;
    buf_init_borrowed(&val, mem, sizeof mem);
    buf_clear(out);
    size_t at = 0;
    int rc = 0;
    for (size_t i = 0; i < p->nsites && rc == 0; i++) {
        const uint32_t *span = spans + 2 * i;
        rc = buf_append(out, pre + at, span[0] - at);
        val.len = 0;
        if (rc == 0)
            rc = macro_eval_site(host, memo, p->site0 + i, (int)p->macros[i], pre + span[0],
                                 span[1] - span[0], &val, err);
        if (rc == 0) /* a flat plan's macros are all outside any other */
            rc = tmpl_put_text(t, out, val.data, val.len);
        at = span[1];
    }
    if (rc == 0)
        rc = buf_append(out, pre + at, n - at);
    buf_free(&val);
    return rc;
}
