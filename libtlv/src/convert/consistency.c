/*
 * consistency.c — the converter's consistency report (consistency.h): each
 * event applied is tested against the "Impossible" entries of its
 * resource's type, with the state just before it (the world's histories
 * answer "at this time, before this change"), and, for logs whose lines
 * come in time order, each line's earliest event against the previous
 * line's. A contradiction is counted for its entry and listed (the first
 * MAX_LISTED) with its log line and a message made from the entry's
 * "Says". The events stay as the rules made them: the report says where the
 * log contradicts itself, the rules decide what to draw.
 */
#include "base/abi.h"
#include "tlv/tlv.h"
#include "convert/consistency.h"

#include "base/buf.h"
#include "lang/cond.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 1000
#define TIME_TEXT 140 /* tlv_time_format in radix 2 needs 130 */

typedef struct listed {
    uint64_t line;
    tlv_time time;
    size_t res;             /* SIZE_MAX: none (time going back) */
    size_t check;
    size_t message;         /* offset into messages */
} listed;

typedef struct check_total {
    char *check;            /* "Type.entry" */
    const char *display;
    uint64_t count, first_line;
} check_total;

struct consistency {
    const struct tlv_rules *rules;
    unsigned char *watched; /* per type: it has entries */
    check_total *checks;    /* one per compiled entry, then time order */
    size_t nchecks;
    int time_order;
    uint64_t count;
    listed *list;
    size_t nlist, list_cap;
    buf messages;           /* NUL-terminated messages */
    buf scratch;            /* If with ${...} substituted */
    /* time order: the line being read and the one before it that had events */
    uint64_t cur_line, prev_line;
    tlv_time cur_min, prev_min;
    int has_cur, has_prev, cur_reported;
};

consistency *consistency_new(const struct tlv_rules *r, int time_order)
{
    consistency *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->rules = r;
    k->time_order = time_order;
    k->watched = calloc(r->model.ntypes + 1, 1);
    k->nchecks = r->nimpossible + (time_order ? 1 : 0);
    k->checks = calloc(k->nchecks + 1, sizeof *k->checks);
    if (!k->watched || !k->checks) {
        consistency_free(k);
        return NULL;
    }
    for (size_t i = 0; i < r->nimpossible; i++) {
        const impossible *c = &r->impossible[i];
        const char *type = r->model.types[c->type].name;
        buf name = BUF_INIT;
        buf_printf(&name, "%s.%s", type, c->def->name);
        k->checks[i].check = xstrdup(buf_str(&name));
        buf_free(&name);
        k->checks[i].display = c->def->display ? c->def->display : c->def->name;
        k->watched[c->type] = 1;
        if (!k->checks[i].check) {
            consistency_free(k);
            return NULL;
        }
    }
    if (time_order) {
        k->checks[r->nimpossible].check = xstrdup("InTimeOrder");
        k->checks[r->nimpossible].display = "time goes back";
    }
    return k;
}

void consistency_free(consistency *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->nchecks && k->checks; i++)
        free(k->checks[i].check);
    free(k->checks);
    free(k->watched);
    free(k->list);
    buf_free(&k->messages);
    buf_free(&k->scratch);
    free(k);
}

int consistency_active(const consistency *k) { return k && k->nchecks > 0; }

/* ---- reporting -------------------------------------------------------------------- */

/* Counts a contradiction of check `check` and lists it, with its message,
 * while there is room. */
static int report(consistency *k, size_t check, uint64_t line, tlv_time t, size_t res,
                  const buf *message)
{
    check_total *c = &k->checks[check];
    if (!c->count++)
        c->first_line = line;
    if (k->count++ >= MAX_LISTED)
        return 0;
    if (GROW(k->list, k->list_cap, k->nlist + 1) < 0)
        return -1;
    size_t off = k->messages.len;
    if (buf_append(&k->messages, message->data, message->len) < 0 ||
        buf_append(&k->messages, "", 1) < 0)
        return -1;
    k->list[k->nlist++] = (listed){line, t, res, check, off};
    return 0;
}

/* The event as "state=RUNNING" or "exit(0)". */
static void put_event(buf *b, const tlv_event *ev)
{
    if (ev->kind == TLV_EVENT_ATTRIBUTE) {
        buf_printf(b, "%s=%s", ev->name, ev->value);
        return;
    }
    buf_printf(b, "%s(", ev->name);
    for (size_t i = 0; i < ev->nargs; i++)
        buf_printf(b, "%s%s", i ? "," : "", ev->args[i]);
    buf_puts(b, ")");
}

/* ${VAL} and ${ARGn} of the event: 1 when `name` is one (its text in *v). */
static int event_var(const tlv_event *ev, const char *name, size_t n, const char **v)
{
    if (n == 3 && memcmp(name, "VAL", 3) == 0) {
        *v = ev->kind == TLV_EVENT_ATTRIBUTE ? ev->value : "";
        return 1;
    }
    if (n > 3 && memcmp(name, "ARG", 3) == 0) {
        size_t i = (size_t)strtoul(name + 3, NULL, 10);
        *v = ev->kind == TLV_EVENT_BEHAVIOR && i < ev->nargs ? ev->args[i] : "";
        return 1;
    }
    return 0;
}

typedef struct subst_ctx {
    world *w;
    size_t res;
    const tlv_event *ev;
    uint32_t seq;
} subst_ctx;

/* Appends text with its ${...} replaced: the event's, and (for Says) the
 * resource's name, the time, and its attributes just before the event. */
static void substitute(buf *out, const char *text, const subst_ctx *s)
{
    const res_type *t = &s->w->model->types[s->w->res[s->res].type];
    for (const char *p = text; *p;) {
        const char *v = strstr(p, "${");
        const char *end = v ? strchr(v + 2, '}') : NULL;
        if (!v || !end) {
            buf_puts(out, p);
            return;
        }
        buf_append(out, p, (size_t)(v - p));
        const char *name = v + 2, *val = NULL;
        size_t n = (size_t)(end - name);
        long a;
        char when[TIME_TEXT];
        if (event_var(s->ev, name, n, &val))
            buf_puts(out, val);
        else if (n == 6 && memcmp(name, "TARGET", 6) == 0)
            buf_puts(out, s->w->res[s->res].name);
        else if (n == 4 && memcmp(name, "TIME", 4) == 0) {
            tlv_time_format(s->ev->time, s->w->radix, when, sizeof when);
            buf_puts(out, when);
        } else if ((a = model_attr_index(t, name, n)) >= 0) {
            uint32_t id = world_attr(s->w, s->res, (size_t)a, &s->ev->time, s->seq);
            buf_puts(out, intern_str(s->w->values, id));
        } else
            buf_append(out, v, (size_t)(end + 1 - v)); /* rules/impossible.c allowed none */
        p = end + 1;
    }
}

/* "T2001 (spin[2001]) state=UNKNOWN: " then the entry's Says, else its name. */
static void describe(buf *b, const impossible *c, const subst_ctx *s)
{
    const rt_resource *r = &s->w->res[s->res];
    buf_clear(b);
    buf_puts(b, r->name);
    const char *label = world_label(s->w, s->res);
    if (label && strcmp(label, r->name) != 0)
        buf_printf(b, " (%s)", label);
    buf_puts(b, " ");
    put_event(b, s->ev);
    buf_puts(b, ": ");
    if (c->def->says)
        substitute(b, c->def->says, s);
    else
        buf_printf(b, "impossible (%s)", c->def->display ? c->def->display : c->def->name);
}

/* ---- the checks ------------------------------------------------------------------- */

static int matches_when(const impossible *c, const res_type *t, long attr, const tlv_event *ev)
{
    if (c->is_behavior)
        return attr < 0 && strcmp(t->behaviors[c->index].name, ev->name) == 0;
    return attr >= 0 && (size_t)attr == c->index && (!c->value || strcmp(c->value, ev->value) == 0);
}

/* Whether the entry's If holds just before the event (1), not (0), or -1:
 * its substituted text does not parse (then it is not reported). */
static int holds(consistency *k, const impossible *c, const subst_ctx *s)
{
    const struct cond *cond = c->cond;
    if (!c->def->cond)
        return 1;
    if (c->cond_subst) {
        char err[200];
        buf_clear(&k->scratch);
        substitute(&k->scratch, c->def->cond, s);
        cond = world_cond(s->w, k->scratch.data, k->scratch.len, err, sizeof err);
        if (!cond)
            return -1;
    }
    return world_test(s->w, s->res, cond, &s->ev->time, s->seq);
}

static int check_time(consistency *k, const tlv_event *ev)
{
    if (ev->input_line != k->cur_line || !k->has_cur) {
        if (k->has_cur) {
            k->prev_line = k->cur_line;
            k->prev_min = k->cur_min;
            k->has_prev = 1;
        }
        k->cur_line = ev->input_line;
        k->cur_min = ev->time;
        k->has_cur = 1;
        k->cur_reported = 0;
    } else if (tlv_time_cmp(ev->time, k->cur_min) < 0)
        k->cur_min = ev->time;
    if (!k->has_prev || k->cur_reported || tlv_time_cmp(ev->time, k->prev_min) >= 0)
        return 0;
    k->cur_reported = 1;
    char now[TIME_TEXT], before[TIME_TEXT];
    tlv_time_format(ev->time, k->rules->radix, now, sizeof now);
    tlv_time_format(k->prev_min, k->rules->radix, before, sizeof before);
    buf_clear(&k->scratch);
    buf_printf(&k->scratch, "time goes back to %s from %s (line %llu)", now, before,
               (unsigned long long)k->prev_line);
    return report(k, k->nchecks - 1, ev->input_line, ev->time, SIZE_MAX, &k->scratch);
}

int consistency_event(consistency *k, world *w, size_t res, long attr, uint32_t seq,
                      const tlv_event *ev, int lines)
{
    if (k->time_order && lines && check_time(k, ev) < 0)
        return -1;
    size_t type = w->res[res].type;
    if (!k->watched[type])
        return 0;
    const res_type *t = &w->model->types[type];
    subst_ctx s = {w, res, ev, seq};
    for (size_t i = 0; i < k->rules->nimpossible; i++) {
        const impossible *c = &k->rules->impossible[i];
        if (c->type != type || !matches_when(c, t, attr, ev) || holds(k, c, &s) != 1)
            continue;
        buf b = BUF_INIT;
        describe(&b, c, &s);
        int rc = report(k, i, ev->input_line, ev->time, res, &b);
        buf_free(&b);
        if (rc < 0)
            return -1;
    }
    return 0;
}

/* ---- reading the report ----------------------------------------------------------- */

uint64_t consistency_count(const consistency *k) { return k ? k->count : 0; }

size_t consistency_listed(const consistency *k) { return k ? k->nlist : 0; }

void consistency_get(const consistency *k, const world *w, size_t i, tlv_inconsistency *out)
{
    memset(out, 0, sizeof *out);
    if (!k || i >= k->nlist)
        return;
    const listed *l = &k->list[i];
    out->line = l->line;
    out->time = l->time;
    out->resource = l->res == SIZE_MAX ? NULL : w->res[l->res].name;
    out->check = k->checks[l->check].check;
    out->message = k->messages.data + l->message;
}

size_t consistency_check_count(const consistency *k) { return k ? k->nchecks : 0; }

void consistency_check_get(const consistency *k, size_t i, tlv_consistency_check *out)
{
    memset(out, 0, sizeof *out);
    if (!k || i >= k->nchecks)
        return;
    out->check = k->checks[i].check;
    out->display_name = k->checks[i].display;
    out->count = k->checks[i].count;
    out->first_line = k->checks[i].first_line;
}

/* ---- kept in the trace cache ------------------------------------------------------------ */

/* The numbers before the checks': how many checks, inconsistencies, listed
 * ones and message bytes, then the time-order state. */
enum { P_NCHECKS, P_COUNT, P_NLIST, P_NMSG, P_CUR_LINE, P_PREV_LINE, P_CUR_TICKS, P_CUR_FRAC,
       P_PREV_TICKS, P_PREV_FRAC, P_HAS_CUR, P_HAS_PREV, P_CUR_REPORTED, P_HEAD };
#define P_CHECK 2   /* per check: count, first line */
#define P_LISTED 6  /* per listed: line, ticks, fraction, resource or UINT64_MAX, check, message */

int consistency_pack(const consistency *k, buf *out)
{
    uint64_t head[P_HEAD] = {k->nchecks, k->count, k->nlist, k->messages.len, k->cur_line,
                             k->prev_line, (uint64_t)k->cur_min.ticks, k->cur_min.frac,
                             (uint64_t)k->prev_min.ticks, k->prev_min.frac, (uint64_t)k->has_cur,
                             (uint64_t)k->has_prev, (uint64_t)k->cur_reported};
    int rc = buf_append(out, (const char *)head, sizeof head);
    for (size_t i = 0; rc == 0 && i < k->nchecks; i++) {
        uint64_t c[P_CHECK] = {k->checks[i].count, k->checks[i].first_line};
        rc = buf_append(out, (const char *)c, sizeof c);
    }
    for (size_t i = 0; rc == 0 && i < k->nlist; i++) {
        const listed *l = &k->list[i];
        uint64_t x[P_LISTED] = {l->line, (uint64_t)l->time.ticks, l->time.frac,
                                l->res == SIZE_MAX ? UINT64_MAX : (uint64_t)l->res, l->check,
                                l->message};
        rc = buf_append(out, (const char *)x, sizeof x);
    }
    if (rc == 0 && k->messages.len)
        rc = buf_append(out, k->messages.data, k->messages.len);
    return rc < 0 ? -1 : 0;
}

int consistency_unpack(consistency *k, const void *data, size_t n, size_t nres)
{
    uint64_t head[P_HEAD];
    if (n < sizeof head)
        return 1;
    memcpy(head, data, sizeof head);
    const unsigned char *p = (const unsigned char *)data + sizeof head;
    uint64_t nchecks = head[P_NCHECKS], nlist = head[P_NLIST], nmsg = head[P_NMSG];
    if (nchecks != k->nchecks || nlist > MAX_LISTED || nlist > head[P_COUNT] ||
        nmsg > n || head[P_HAS_CUR] > 1 || head[P_HAS_PREV] > 1 || head[P_CUR_REPORTED] > 1 ||
        n - sizeof head != (nchecks * P_CHECK + nlist * P_LISTED) * 8 + nmsg)
        return 1;
    const unsigned char *msg = p + (nchecks * P_CHECK + nlist * P_LISTED) * 8;
    if (nmsg && msg[nmsg - 1] != '\0')
        return 1;
    uint64_t total = 0;
    for (uint64_t i = 0; i < nchecks; i++) {
        uint64_t c[P_CHECK];
        memcpy(c, p + i * sizeof c, sizeof c);
        total += c[0];
    }
    if (total != head[P_COUNT])
        return 1;
    const unsigned char *lp = p + nchecks * P_CHECK * 8;
    for (uint64_t i = 0; i < nlist; i++) {
        uint64_t x[P_LISTED];
        memcpy(x, lp + i * sizeof x, sizeof x);
        if ((x[3] != UINT64_MAX && x[3] >= nres) || x[4] >= nchecks || x[5] >= nmsg)
            return 1;
    }
    k->list = malloc((nlist ? nlist : 1) * sizeof *k->list);
    if (!k->list || (nmsg && buf_append(&k->messages, (const char *)msg, nmsg) < 0))
        return -1;
    k->list_cap = nlist ? nlist : 1;
    for (uint64_t i = 0; i < nchecks; i++) {
        uint64_t c[P_CHECK];
        memcpy(c, p + i * sizeof c, sizeof c);
        k->checks[i].count = c[0];
        k->checks[i].first_line = c[1];
    }
    for (uint64_t i = 0; i < nlist; i++) {
        uint64_t x[P_LISTED];
        memcpy(x, lp + i * sizeof x, sizeof x);
        k->list[i] = (listed){x[0], {(int64_t)x[1], x[2]}, x[3] == UINT64_MAX ? SIZE_MAX : (size_t)x[3],
                              (size_t)x[4], (size_t)x[5]};
    }
    k->nlist = (size_t)nlist;
    k->count = head[P_COUNT];
    k->cur_line = head[P_CUR_LINE];
    k->prev_line = head[P_PREV_LINE];
    k->cur_min = (tlv_time){(int64_t)head[P_CUR_TICKS], head[P_CUR_FRAC]};
    k->prev_min = (tlv_time){(int64_t)head[P_PREV_TICKS], head[P_PREV_FRAC]};
    k->has_cur = (int)head[P_HAS_CUR];
    k->has_prev = (int)head[P_HAS_PREV];
    k->cur_reported = (int)head[P_CUR_REPORTED];
    return 0;
}
