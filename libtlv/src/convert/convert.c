/*
 * convert.c — the conversion engine (spec §8): every input line is tried
 * against every rule in file order; each rule that matches expands its
 * outputs (templates by Regex.Replace, then macros against the current
 * state, then parsed as standard form) and the resulting events update the
 * state at once, so later outputs of the same line see them. A failing line
 * is reported with its number, the rule's regex and the reason, and the run
 * goes on with the next line.
 */
#include "base/abi.h"
#include "rules/rules_impl.h"

#include "base/buf.h"
#include "lang/cond.h"
#include "convert/consistency.h"
#include "convert/convert_impl.h"
#include "base/diag.h"
#include "convert/evcache.h"
#include "compile/expand.h"
#include "compile/macro.h"
#include "convert/pipeline.h"
#include "convert/rawmatch.h"
#include "convert/script.h"
#include "lang/stdform.h"
#include "base/utf8.h"
#include "world/world.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KEPT_DIAGS 1000
/* Lines with bytes that are not text listed one by one; a garbage log would
 * otherwise fill the kept diagnostics and hide the conversion errors. */
#define MAX_LISTED_NONTEXT 100
/* Lines longer than this are skipped and reported rather than held: a device
 * that never sends a line end must not take all the memory (the converter
 * is tested with 10 MB lines). */
#define MAX_LINE ((size_t)64 << 20)

enum { LINE_HELD, LINE_TOO_LONG, LINE_NO_MEMORY };

/* A condition of a choice, after substitution and macros, is a text such as
 * "RUNNING==DORMANT && RUNNABLE==RUNNABLE" whose value depends on nothing
 * else; each condition template remembers its last few texts and values,
 * which the next lines mostly repeat (the TOPPERS task rule has 13
 * conditions, whose texts take a handful of values: a task's state before
 * and after). One text per template missed on about half of the "becomes"
 * lines and hashed the text for the world's cache instead. */
#define COND_MEMO_BITS 8
#define COND_MEMO_WAYS 4
#define EVENT_HINT_BITS 8
typedef struct cond_memo {
    const tmpl *t; /* NULL: empty */
    uint32_t n;
    int value;     /* 0 or 1 */
    char text[64];
} cond_memo;
#define MAX_ARGS STD_MAX_ARGS
/* "[time]" of a line: radix 2 needs the most, 129 bytes (tlv.h) */
#define LINE_TIME_MAX 140

struct tlv_converter {
    const struct tlv_rules *rules;
    world w;
    tlv_diags diags;
    char *source;
    tlv_event_fn fn;
    void *user;
    tlv_event_fn sink;
    void *sink_user;
    converter_event_ids sink_ids; /* of the event being delivered */
    tlv_line_fn line_fn;
    void *line_user;
    buf line;           /* the event's standard-form line for line_fn */
    size_t line_head;   /* its "[time]" part's length */
    tlv_time line_time; /* the time last formatted, and its "[time]": */
    char line_time_text[LINE_TIME_MAX]; /* events come in runs of one time */
    size_t line_time_len; /* 0: none yet */
    const char *time_head; /* the event's "[time]" as formatted, found by the matching */
    size_t time_head_len;  /* side (rm_pre.head_canon); NULL: format it */
    rm_matcher matcher; /* the serial path's */
    rm_batch one;       /* the serial path's line and its matches */
    match_list cur;     /* the matches being applied (a view into a batch) */
    const rm_batch *hit_batch; /* the batch and hit being applied, for the */
    const rm_hit *hit;         /* templates the matching side expanded ahead */
    pipeline *pipe;     /* the matching thread, started on first use */
    int threads;        /* tlv_converter_set_threads: 1 serial, 2 pipelined */
    size_t batch_lines; /* the pipeline's lines per batch (0: its default) */
    uint64_t piped_lines; /* lines matched by the pipeline's thread */
    buf pending;   /* unfinished line of push_bytes */
    buf sub;       /* template after substitution */
    buf expanded;  /* after macros */
    buf err;
    buf scratch;   /* unescaped parts of a standard-form line */
    buf evtext;    /* NUL-terminated copies for the event callback */
    buf condtext;  /* a rule condition after substitution and macros */
    std_line sl;
    std_time_memo time_memo;
    evcache *events;            /* parsed event texts (NULL: none kept) */
    cached_event applied;       /* what apply_to resolved, for the cache */
    ref_result targets;
    const cnv_rule *rule; /* the rule being applied, for messages */
    macro_memo *memo;
    macro_host host;            /* macros read c->w through it */
    int line_plain;             /* the line holds no '$', '{', '}': compiled templates apply */
    int slow;                   /* fast paths off (tests compare both ways) */
    int std_input;              /* read as standard form whatever the rules say */
    int first_looks_std;        /* -1 not seen; else: the first non-blank line parses as
                                   standard form (a trace given where a log was expected) */
    buf script_input;   /* raw lines kept for external-process rules */
    int script_timeout_ms;
    const script_rule *script; /* the script whose output is being read */
    uint64_t script_line;
    tlv_convert_stats stats;
    cond_memo cond_memo[1 << COND_MEMO_BITS][COND_MEMO_WAYS]; /* most recent first */
    uint32_t event_hint[1 << EVENT_HINT_BITS]; /* by template: evcache_find_hinted's hint */
    int stopped;
    int pending_cr; /* the last byte pushed was CR: a following LF ends nothing */
    buf text;       /* a line whose non-text bytes were read as U+FFFD */
    uint64_t nontext_lines; /* lines that had such bytes */
    int dropping;   /* LINE_TOO_LONG, LINE_NO_MEMORY: the unfinished line is given up */
    tlv_unmatched_fn unmatched;  /* told each non-blank line no rule matched */
    void *unmatched_user;
    uint64_t *rule_matches;      /* per conversion rule: lines it matched */
    unsigned char *tail_warned;  /* per conversion rule: the tail trap was reported */
    last_error lasterr; /* tlv_converter_last_error */
    consistency *consistency; /* the consistency report (consistency.h) */
};

tlv_status tlv_converter_new(const tlv_rules *rules, tlv_converter **out)
{
    tlv_converter *c = calloc(1, sizeof *c);
    *out = c;
    if (!c)
        return TLV_ERR_NOMEM;
    c->rules = rules;
    diags_init(&c->diags, MAX_KEPT_DIAGS);
    int matcher_ok = rm_matcher_init(&c->matcher, rules) == 0;
    c->rule_matches = calloc(rules->nrules + 1, sizeof *c->rule_matches);
    c->tail_warned = calloc(rules->nrules + 1, 1);
    c->first_looks_std = -1;
    c->memo = macro_memo_new();
    c->events = evcache_new(); /* optional: without it every text is parsed */
    c->script_timeout_ms = 60000;
    c->consistency = consistency_new(rules, rules->in_time_order);
    tlv_converter_set_threads(c, 0);
    if (!matcher_ok || !c->rule_matches || !c->tail_warned || !c->consistency ||
        !c->memo || world_init(&c->w, &rules->model, &rules->dyn, rules->radix) < 0) {
        tlv_converter_free(c);
        *out = NULL;
        return TLV_ERR_NOMEM;
    }
    c->w.time_scale = rules->time_scale;
    world_macro_host(&c->w, &c->host);
    return TLV_OK;
}

void tlv_converter_free(tlv_converter *c)
{
    if (!c)
        return;
    world_free(&c->w);
    diags_free(&c->diags);
    free(c->source);
    pipeline_free(c->pipe);
    rm_matcher_free(&c->matcher);
    rm_batch_free(&c->one);
    buf_free(&c->pending);
    buf_free(&c->sub);
    buf_free(&c->expanded);
    buf_free(&c->err);
    buf_free(&c->scratch);
    buf_free(&c->evtext);
    buf_free(&c->condtext);
    buf_free(&c->line);
    free(c->targets.items);
    free(c->rule_matches);
    free(c->tail_warned);
    macro_memo_free(c->memo);
    consistency_free(c->consistency);
    evcache_free(c->events);
    buf_free(&c->script_input);
    buf_free(&c->text);
    free(c);
}

void tlv_converter_set_source_name(tlv_converter *c, const char *name)
{
    free(c->source);
    c->source = xstrdup(name);
}

void tlv_converter_set_event_fn(tlv_converter *c, tlv_event_fn fn, void *user)
{
    c->fn = fn;
    c->user = user;
}

void tlv_converter_set_line_fn(tlv_converter *c, tlv_line_fn fn, void *user)
{
    c->line_fn = fn;
    c->line_user = user;
}

world *converter_world(tlv_converter *c) { return &c->w; }

const converter_event_ids *converter_sink_ids(const tlv_converter *c) { return &c->sink_ids; }

void converter_set_sink(tlv_converter *c, tlv_event_fn fn, void *user)
{
    c->sink = fn;
    c->sink_user = user;
}

const tlv_diags *tlv_converter_diags(const tlv_converter *c) { return &c->diags; }

const char *tlv_converter_last_error(const tlv_converter *c) { return c ? c->lasterr.text : ""; }

void tlv_converter_stats_sized(const tlv_converter *c, tlv_convert_stats *out, size_t size)
{
    tlv_convert_stats s = c->stats;
    s.matching_cpu_ns = c->pipe ? pipeline_cpu_ns(c->pipe) : 0;
    abi_write_out(out, size, &s, sizeof s); /* an older layout gets its prefix */
}

/* Records a problem of the current line (col 0: the whole line), naming the
 * external-process rule's output line or the conversion rule involved. */
static void line_diag(tlv_converter *c, tlv_severity sev, long col, const char *why)
{
    char where[48] = "";
    if (c->script && col)
        snprintf(where, sizeof where, ", column %ld", col);
    if (c->script)
        diags_add(&c->diags, sev, c->source, 0, 0, "external-process rule '%s', output line %llu%s: %s",
                  c->script->target, (unsigned long long)c->script_line, where, why);
    else if (c->rule)
        diags_add(&c->diags, sev, c->source, (long)c->stats.lines_read, col,
                  "rule \"%s\": %s", c->rule->regex, why);
    else
        diags_add(&c->diags, sev, c->source, (long)c->stats.lines_read, col, "%s", why);
    if (sev == TLV_SEV_ERROR) /* the failing push's message, even past the kept diagnostics */
        last_error_set(&c->lasterr, TLV_ERR_CONVERT, "%s:%llu: %s%s%s%s", c->source ? c->source : "<input>",
                       (unsigned long long)c->stats.lines_read, c->rule ? "rule \"" : "",
                       c->rule ? c->rule->regex : "", c->rule ? "\": " : "", why);
}

/* Input pushed after the event function stopped the conversion. */
static tlv_status refuse_stopped(tlv_converter *c)
{
    return last_error_set(&c->lasterr, TLV_ERR_USAGE,
                          "the event function stopped the conversion; no more input is taken");
}

/* A conversion error for the current line: "rule "REGEX": why". */
static void line_error(tlv_converter *c, const char *why) { line_diag(c, TLV_SEV_ERROR, 0, why); }

/* The event's line, as tlv_event_format writes it, in c->line: "[time]"
 * (kept from the event before when the time is the same) and the tail,
 * remembered with the event text (e->tail) or formatted. Returns 0, or -1
 * with c->err set when memory ran out. */
static int format_line(tlv_converter *c, const tlv_event *ev, const cached_event *e)
{
    if (!c->line_time_len || ev->time.ticks != c->line_time.ticks ||
        ev->time.frac != c->line_time.frac) {
        char *t = c->line_time_text;
        if (c->time_head && c->time_head_len <= sizeof c->line_time_text) {
            memcpy(t, c->time_head, c->time_head_len);
            c->line_time = ev->time;
            c->line_time_len = c->time_head_len;
            goto head_done;
        }
        size_t n = tlv_time_format(ev->time, c->w.radix, t + 1, sizeof c->line_time_text - 2);
        if (n + 2 >= sizeof c->line_time_text) { /* cannot happen: every radix fits */
            c->line_time_len = 0;
            goto no_memory;
        }
        t[0] = '[';
        t[n + 1] = ']';
        c->line_time = ev->time;
        c->line_time_len = n + 2;
    }
head_done:
    buf_clear(&c->line);
    if (buf_append(&c->line, c->line_time_text, c->line_time_len) < 0)
        goto no_memory;
    c->line_head = c->line_time_len;
    int rc;
    if (e && e->tail)
        rc = buf_append(&c->line, e->tail, e->tail_len);
    else if (ev->kind == TLV_EVENT_ATTRIBUTE)
        rc = std_format_attr_tail(&c->line, ev->resource, ev->name, ev->value);
    else
        rc = std_format_behavior_tail(&c->line, ev->resource, ev->name, ev->args, ev->nargs);
    if (rc == 0)
        return 0;
no_memory:
    buf_clear(&c->err);
    buf_puts(&c->err, "out of memory");
    return -1;
}

static int reads_standard_form(const tlv_converter *c);

/* Hands the event on: the event function, the line function, the sink. e:
 * the remembered event text it came from, if any; attr: the attribute it
 * changed (just recorded in the world), or -1 for a behavior; value: the
 * interned id of an attribute's value (UINT32_MAX for a behavior). The
 * consistency report sees it first, with the state just before it. */
static int deliver(tlv_converter *c, const rt_resource *r, const tlv_event *proto,
                   const cached_event *e, long attr, uint32_t value)
{
    c->sink_ids = (converter_event_ids){(size_t)(r - c->w.res), UINT32_MAX, value, NULL};
    if (e && e->ids) {
        c->sink_ids.name = e->name_id;
        c->sink_ids.args = e->arg_ids;
    }
    tlv_event ev = *proto;
    ev.resource = r->name;
    ev.input_line = c->stats.lines_read;
    ev.seq = c->stats.events++;
    if (consistency_active(c->consistency) &&
        consistency_event(c->consistency, &c->w, c->sink_ids.res, attr,
                          attr >= 0 ? c->w.next_seq - 1 : c->w.next_seq, &ev,
                          !reads_standard_form(c)) < 0) {
        buf_clear(&c->err);
        buf_puts(&c->err, "out of memory");
        return -1;
    }
    int stop = c->fn && c->fn(c->user, &ev) != 0;
    if (!stop && c->line_fn) {
        if (format_line(c, &ev, e) < 0)
            return -1;
        stop = c->line_fn(c->line_user, &ev, c->line.data, c->line.len) != 0;
    }
    if (stop || (c->sink && c->sink(c->sink_user, &ev) != 0)) {
        c->stopped = 1;
        last_error_set(&c->lasterr, TLV_ERR_USAGE,
                       "the event function stopped the conversion at input line %llu",
                       (unsigned long long)ev.input_line);
        return -1;
    }
    return 0;
}

/* NUL-terminated copies of the parsed parts, for the event. */
static void prepare_event(tlv_converter *c, tlv_event *ev, const char **args)
{
    const std_line *s = &c->sl;
    size_t need = s->name.n + s->value.n + 2;
    for (size_t i = 0; i < s->nargs; i++)
        need += s->args[i].n + 1;
    buf_clear(&c->evtext);
    buf_reserve(&c->evtext, need); /* no reallocation below: pointers stay valid */
    size_t off[MAX_ARGS + 2];
    off[0] = c->evtext.len;
    buf_append(&c->evtext, s->name.s, s->name.n);
    buf_append(&c->evtext, "", 1);
    off[1] = c->evtext.len;
    buf_append(&c->evtext, s->value.s, s->value.n);
    buf_append(&c->evtext, "", 1);
    for (size_t i = 0; i < s->nargs; i++) {
        off[i + 2] = c->evtext.len;
        buf_append(&c->evtext, s->args[i].s, s->args[i].n);
        buf_append(&c->evtext, "", 1);
    }
    memset(ev, 0, sizeof *ev);
    ev->time = s->time;
    ev->kind = s->is_behavior ? TLV_EVENT_BEHAVIOR : TLV_EVENT_ATTRIBUTE;
    ev->name = c->evtext.data + off[0];
    ev->value = s->is_behavior ? NULL : c->evtext.data + off[1];
    for (size_t i = 0; i < s->nargs; i++)
        args[i] = c->evtext.data + off[i + 2];
    ev->nargs = s->nargs;
    ev->args = args;
}

/* Applies the parsed event to one resource: checks the name against the
 * type, updates the state, and hands the event on. */
static int apply_to(tlv_converter *c, size_t res, const tlv_event *ev)
{
    const rt_resource *r = &c->w.res[res];
    const res_type *t = &c->w.model->types[r->type];
    const std_line *s = &c->sl;
    if (!s->is_behavior) {
        long ai = model_attr_index(t, s->name.s, s->name.n);
        if (ai < 0) {
            buf_clear(&c->err);
            buf_printf(&c->err, "resource '%s' (type %s) has no attribute '%.*s'", r->name,
                       t->name, (int)s->name.n, s->name.s);
            return -1;
        }
        uint32_t v = intern_add(c->w.values, s->value.s, s->value.n);
        if (v == UINT32_MAX || world_set(&c->w, res, (size_t)ai, s->time, v) < 0) {
            buf_clear(&c->err);
            buf_puts(&c->err, "out of memory");
            return -1;
        }
        c->applied.attr = ai;
        c->applied.value = v;
    } else if (model_behavior_index(t, s->name.s, s->name.n) < 0) {
        buf_clear(&c->err);
        buf_printf(&c->err, "resource '%s' (type %s) has no behavior '%.*s'", r->name, t->name,
                   (int)s->name.n, s->name.s);
        return -1;
    }
    return deliver(c, r, ev, NULL, s->is_behavior ? -1 : c->applied.attr,
                   s->is_behavior ? UINT32_MAX : c->applied.value);
}

/* Applies a remembered event text at time t, as apply_to would. */
static int apply_cached(tlv_converter *c, const cached_event *e, tlv_time t)
{
    tlv_event ev;
    memset(&ev, 0, sizeof ev);
    ev.time = t;
    ev.kind = e->is_behavior ? TLV_EVENT_BEHAVIOR : TLV_EVENT_ATTRIBUTE;
    ev.name = e->name;
    ev.value = e->value_text;
    ev.args = e->args;
    ev.nargs = e->nargs;
    if (!e->is_behavior && world_set(&c->w, e->res, (size_t)e->attr, t, e->value) < 0) {
        buf_clear(&c->err);
        buf_puts(&c->err, "out of memory");
        return -1;
    }
    return deliver(c, &c->w.res[e->res], &ev, e, e->is_behavior ? -1 : e->attr,
                   e->is_behavior ? UINT32_MAX : e->value);
}

/* Remembers what apply_to resolved for the text after the time. */
static void remember_event(tlv_converter *c, const char *key, size_t n, const tlv_event *ev,
                           size_t res)
{
    cached_event *e = &c->applied;
    e->res = res;
    e->is_behavior = ev->kind == TLV_EVENT_BEHAVIOR;
    e->name = ev->name;
    e->value_text = ev->value;
    e->nargs = ev->nargs;
    if (ev->nargs > EVCACHE_MAX_ARGS)
        return;
    for (size_t i = 0; i < ev->nargs; i++)
        e->args[i] = ev->args[i];
    e->tail = NULL; /* the line apply_to just made for it, after its time */
    if (c->line_fn && c->line.len >= c->line_head) {
        e->tail = c->line.data + c->line_head;
        e->tail_len = c->line.len - c->line_head;
    }
    /* For a sink (a trace keeping the events): the ids of the name and
     * arguments, which the sink has just interned (so the order in which
     * values get their ids is the same), spare it interning them each time. */
    e->ids = 0;
    if (c->sink) {
        e->name_id = intern_add(c->w.values, ev->name, strlen(ev->name));
        e->ids = e->name_id != UINT32_MAX;
        for (size_t i = 0; i < ev->nargs && e->ids; i++) {
            e->arg_ids[i] = intern_add(c->w.values, ev->args[i], strlen(ev->args[i]));
            e->ids = e->arg_ids[i] != UINT32_MAX;
        }
    }
    evcache_put(c->events, key, n, e);
}

static int apply_std_text_as(tlv_converter *c, const char *text, size_t len, const rm_pre *ahead,
                             uint32_t *hint);

/* Parses one standard-form event line and applies it. ahead: the template
 * it was expanded from as the matching side left it, whose time may be read
 * already (rm_pre.timed), or NULL. */
static int apply_std_text(tlv_converter *c, const char *text, size_t len, const rm_pre *ahead,
                          uint32_t *hint)
{
    if (!ahead || !ahead->head_canon || c->slow)
        return apply_std_text_as(c, text, len, ahead, hint);
    /* the expansion begins with the pre text up to its first macro, "[time]" included */
    c->time_head = text;
    c->time_head_len = ahead->rest;
    int rc = apply_std_text_as(c, text, len, ahead, hint);
    c->time_head = NULL;
    return rc;
}

static int apply_std_text_as(tlv_converter *c, const char *text, size_t len, const rm_pre *ahead,
                             uint32_t *hint)
{
    const char *why;
    size_t col, rest = 0;
    int keep = 0;
    if (!c->slow && c->events) {
        tlv_time t;
        int timed = ahead && ahead->timed;
        if (timed) {
            t = ahead->time;
            rest = ahead->rest;
        }
        if (timed || std_parse_time(text, len, c->w.radix, &c->time_memo, &t, &rest) == 0) {
            const cached_event *e =
                hint ? evcache_find_hinted(c->events, text + rest, len - rest, hint)
                     : evcache_find(c->events, text + rest, len - rest);
            if (e)
                return apply_cached(c, e, t);
            keep = 1;
        }
    }
    if (std_parse_line_memo(text, len, c->w.radix, &c->sl, &c->scratch,
                            c->slow ? NULL : &c->time_memo, &why, &col) < 0) {
        buf_clear(&c->err);
        buf_printf(&c->err, "'%.*s' is not a standard-form event: %s (column %zu)", (int)len,
                   text, why, col);
        return -1;
    }
    c->targets.n = 0;
    if (c->sl.has_cond) {
        long ti = model_type_index(c->w.model, c->sl.resource.s, c->sl.resource.n);
        char cerr[200];
        const cond *k = ti < 0 ? NULL : world_cond(&c->w, c->sl.cond.s, c->sl.cond.n, cerr,
                                                    sizeof cerr);
        buf_clear(&c->err);
        if (ti < 0) {
            buf_printf(&c->err, "no resource type named '%.*s'", (int)c->sl.resource.n,
                       c->sl.resource.s);
            return -1;
        }
        if (!k) {
            buf_printf(&c->err, "condition '%.*s': %s", (int)c->sl.cond.n, c->sl.cond.s, cerr);
            return -1;
        }
        if (world_select(&c->w, (size_t)ti, k, &c->sl.time, SEQ_ALL, &c->targets) < 0)
            return -1;
    } else {
        long ri = world_find(&c->w, c->sl.resource.s, c->sl.resource.n);
        if (ri < 0)
            ri = world_create(&c->w, c->sl.resource.s, c->sl.resource.n);
        if (ri < 0) {
            buf_clear(&c->err);
            if (ri == -2)
                buf_puts(&c->err, "out of memory");
            else
                buf_printf(&c->err, "unknown resource '%.*s' in '%.*s'%s", (int)c->sl.resource.n,
                           c->sl.resource.s, (int)len, text,
                           c->w.dyn->n ? " (it matches no pattern of \"DynamicResources\")"
                                            : "");
            return -1;
        }
        c->targets.n = 0;
        if (GROW(c->targets.items, c->targets.cap, 1) < 0)
            return -1;
        c->targets.items[c->targets.n++] = (size_t)ri;
    }
    tlv_event ev;
    const char *args[MAX_ARGS];
    prepare_event(c, &ev, args);
    for (size_t i = 0; i < c->targets.n; i++)
        if (apply_to(c, c->targets.items[i], &ev) < 0)
            return -1;
    if (keep && !c->sl.has_cond)
        remember_event(c, text + rest, len - rest, &ev, c->targets.items[0]);
    return 0;
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t')
            return 0;
    return 1;
}

/* Template → substitution → macros → events. *ahead (when not NULL): what
 * the matching side did of it, or NULL. */
static int expand_template(tlv_converter *c, const tmpl *t, const char *line, size_t len,
                           buf *out, const rm_pre **ahead)
{
    if (ahead)
        *ahead = NULL;
    if (t->plan && c->line_plain && c->cur.nmatch == 1) {
        buf_clear(&c->err);
        const rm_pre *p = rm_pre_of(c->hit_batch, c->hit, &c->matcher.pre[c->hit->rule],
                                    t->plan_site0);
        if (p && ahead)
            *ahead = p;
        if (p) /* the stateless half was done by rawmatch.c, maybe on the matching thread */
            return xplan_finish(t, &c->host, c->memo, c->hit_batch->pretext.data + p->off,
                                p->len, c->hit_batch->spans + p->spans, out, &c->err);
        return xplan_run(t, &c->host, c->memo, line, len, c->cur.ov, out, &c->err);
    }
    buf_clear(&c->sub);
    if (tmpl_expand(t, line, len, &c->cur, &c->sub) < 0)
        return -1;
    if (!memchr(buf_str(&c->sub), '$', c->sub.len)) {
        buf_clear(out);
        return buf_append(out, buf_str(&c->sub), c->sub.len);
    }
    buf_clear(&c->err);
    return (t->std_line ? macro_expand_line : macro_expand)(&c->host, c->memo, buf_str(&c->sub),
                                                            c->sub.len, out, &c->err);
}

/* The set of a choice's condition template in the converter's memo
 * (COND_MEMO_WAYS entries). */
static cond_memo *cond_memo_of(tlv_converter *c, const tmpl *t)
{
    uint64_t h = (uint64_t)(uintptr_t)t * 0x9e3779b97f4a7c15ULL;
    return c->cond_memo[h >> (64 - COND_MEMO_BITS)];
}

/* The value remembered for template t's condition text, or -1. */
static int cond_memo_get(const cond_memo *set, const tmpl *t, const buf *text)
{
    for (size_t k = 0; k < COND_MEMO_WAYS; k++) {
        const cond_memo *m = &set[k];
        if (m->t == t && m->n == text->len && memcmp(m->text, text->data, m->n) == 0)
            return m->value;
    }
    return -1;
}

/* Remembers the value as the set's most recent entry; the oldest goes. */
static void cond_memo_put(cond_memo *set, const tmpl *t, const buf *text, int value)
{
    if (text->len > sizeof set->text)
        return;
    memmove(set + 1, set, (COND_MEMO_WAYS - 1) * sizeof *set);
    set->t = t;
    set->n = (uint32_t)text->len;
    memcpy(set->text, text->data, text->len);
    set->value = value;
}

static int emit(tlv_converter *c, const out_node *o, const char *line, size_t len)
{
    switch (o->kind) {
    case OUT_TEMPLATE: {
        const rm_pre *ahead;
        if (expand_template(c, &o->t, line, len, &c->expanded, &ahead) < 0)
            return -1;
        if (is_blank(buf_str(&c->expanded), c->expanded.len))
            return 0;
        /* a template's texts repeat: where its last one was remembered */
        uint64_t h = (uint64_t)(uintptr_t)&o->t * 0x9e3779b97f4a7c15ULL;
        return apply_std_text(c, buf_str(&c->expanded), c->expanded.len, ahead,
                              &c->event_hint[h >> (64 - EVENT_HINT_BITS)]);
    }
    case OUT_LIST:
        for (size_t i = 0; i < o->n; i++)
            if (emit(c, &o->items[i], line, len) < 0)
                return -1;
        return 0;
    case OUT_CHOICE:
        for (size_t i = 0; i < o->n; i++) {
            /* the condition is consumed before emit() recurses, so one buffer serves */
            if (expand_template(c, &o->conds[i], line, len, &c->condtext, NULL) < 0)
                return -1;
            /* Substituted conditions repeat ("RUNNING==DORMANT && ..."): compile each
             * distinct text once through the world's cache. */
            char why[200];
            cond_memo *m = cond_memo_of(c, &o->conds[i]);
            int v = c->slow ? -1 : cond_memo_get(m, &o->conds[i], &c->condtext);
            if (v < 0) {
                why[0] = '\0';
                v = c->slow ? -1 : world_cond_value(&c->w, buf_str(&c->condtext), c->condtext.len,
                                                    why, sizeof why);
                if (c->slow) {
                    const cond *k = world_cond(&c->w, buf_str(&c->condtext), c->condtext.len,
                                               why, sizeof why);
                    v = k ? cond_eval(k, NULL, NULL) : -1;
                }
                if (v >= 0)
                    cond_memo_put(m, &o->conds[i], &c->condtext, v);
            }
            if (v < 0) {
                buf_clear(&c->err);
                buf_printf(&c->err, "condition \"%s\" (from \"%s\"): %s",
                           buf_str(&c->condtext), o->conds[i].text, why);
            }
            if (v < 0 || (v > 0 && emit(c, &o->items[i], line, len) < 0))
                return -1;
        }
        return 0;
    }
    return 0;
}

/* The tail trap: a match that stops before the end of the line leaves the
 * rest of the line glued onto every output of the rule (.NET Replace
 * semantics, kept for TLV's rule files). Said once per rule, when the rest
 * is more than blanks (values are trimmed). */
static void warn_tail_trap(tlv_converter *c, size_t rule, const char *line, size_t len)
{
    const match_list *ml = &c->cur;
    size_t end = ml->ov[(ml->nmatch - 1) * 2 * (ml->ngroups + 1) + 1];
    if (end >= len || is_blank(line + end, len - end))
        return;
    c->tail_warned[rule] = 1;
    size_t n = len - end;
    int cut = n > 60;
    if (cut) { /* whole characters */
        n = 60;
        while (n > 0 && ((unsigned char)line[end + n] & 0xC0) == 0x80)
            n--;
    }
    char why[300];
    snprintf(why, sizeof why,
             "the match ends before the end of the line, so '%.*s%s' is kept after each of "
             "its outputs (end the regex with .*$ to drop it); said once per rule",
             (int)n, line + end, cut ? "..." : "");
    line_diag(c, TLV_SEV_WARNING, 0, why);
}

static tlv_status nomem_check(tlv_converter *c, int failed, tlv_status st);

/* Applies the rules that matched the line (l, found by rawmatch.c), in
 * rule order; the first that fails ends the line. */
static tlv_status apply_raw_line(tlv_converter *c, const char *line, size_t len,
                                 const rm_batch *b, const rm_line *l)
{
    if (l->nomem) { /* reading or matching it ran out (rawmatch.c), maybe on the matching thread */
        c->stats.error_lines++;
        return nomem_check(c, 1, TLV_ERR_NOMEM);
    }
    int matched = 0;
    c->line_plain = l->plain;
    for (size_t h = 0; h < l->nhits; h++) {
        const rm_hit *hit = &b->hits[l->hit0 + h];
        const cnv_rule *r = &c->rules->rules[hit->rule];
        c->rule = r;
        if (hit->n < 0) {
            char msg[200];
            pcre2_get_error_message(hit->n, (PCRE2_UCHAR *)msg, sizeof msg);
            c->stats.error_lines++;
            if (hit->n == PCRE2_ERROR_NOMEMORY)
                return nomem_check(c, 1, TLV_ERR_NOMEM);
            line_error(c, msg);
            return TLV_ERR_CONVERT;
        }
        c->rule_matches[hit->rule]++;
        c->cur = (match_list){b->ov + hit->ov, (size_t)hit->n, (size_t)hit->n, r->ngroups};
        c->hit_batch = b;
        c->hit = hit;
        matched = 1;
        if (!c->tail_warned[hit->rule])
            warn_tail_trap(c, hit->rule, line, len);
        buf_clear(&c->err);
        if (emit(c, &r->out, line, len) < 0) {
            if (c->stopped)
                return TLV_ERR_USAGE;
            line_error(c, buf_str(&c->err));
            c->stats.error_lines++;
            c->stats.lines_matched++;
            return TLV_ERR_CONVERT;
        }
    }
    c->rule = NULL;
    c->stats.lines_matched += matched;
    if (!matched && c->unmatched && !is_blank(line, len))
        c->unmatched(c->unmatched_user, c->stats.lines_read, line, len);
    return TLV_OK;
}

static tlv_status convert_std_line(tlv_converter *c, const char *line, size_t len)
{
    c->rule = NULL;
    if (is_blank(line, len))
        return TLV_OK;
    if (apply_std_text(c, line, len, NULL, NULL) < 0) {
        if (c->stopped)
            return TLV_ERR_USAGE;
        line_error(c, buf_str(&c->err));
        c->stats.error_lines++;
        return TLV_ERR_CONVERT;
    }
    c->stats.lines_matched++;
    return TLV_OK;
}

/* Says where a line had bytes that are not text (invalid UTF-8, NUL),
 * which rawmatch.c read as U+FFFD so that the rest of the line still
 * converts and events stay valid UTF-8 C strings. Returns -1 when there was
 * no memory for that (the line is then reported and skipped). */
static int report_nontext(tlv_converter *c, const rm_line *l)
{
    c->rule = NULL;
    if (l->nontext < 0) {
        c->stats.error_lines++;
        nomem_check(c, 1, TLV_ERR_NOMEM);
        return -1;
    }
    if (++c->nontext_lines <= MAX_LISTED_NONTEXT) {
        char why[100];
        snprintf(why, sizeof why, "%ld byte%s not text (invalid UTF-8 or NUL), read as U+FFFD",
                 l->nontext, l->nontext == 1 ? " is" : "s are");
        line_diag(c, TLV_SEV_WARNING, (long)l->bad + 1, why);
    }
    return 0;
}

static int reads_standard_form(const tlv_converter *c)
{
    return c->rules->standard_form || c->std_input;
}

static tlv_status push_line(tlv_converter *c, const char *line, size_t len);

/* An allocation failed while the converter ran (alloc.h), whether or not the
 * code noticed: the conversion is incomplete, and says so once. */
static tlv_status nomem_check(tlv_converter *c, int failed, tlv_status st)
{
    if (failed && !c->diags.nomem) {
        c->rule = NULL;
        line_error(c, "out of memory while converting the line");
    }
    c->diags.nomem |= failed;
    if (!c->diags.nomem)
        return st;
    return last_error_set(&c->lasterr, TLV_ERR_NOMEM, "out of memory while converting '%s'",
                          c->source ? c->source : "<input>");
}

int converter_out_of_memory(const tlv_converter *c) { return c->diags.nomem; }


/* Everything a line goes through before the rules, on whichever path:
 * counted, its non-text bytes reported, kept for external-process rules,
 * and the first one checked for being standard form already. Returns -1
 * when the line is given up. */
static int take_line(tlv_converter *c, const char *line, size_t len, const rm_line *l)
{
    c->stats.lines_read++;
    if (l->nontext && report_nontext(c, l) < 0)
        return -1;
    if (c->rules->nscripts && c->rules->allow_scripts && !c->std_input) {
        buf_append(&c->script_input, line, len);
        buf_putc(&c->script_input, '\n');
    }
    if (!reads_standard_form(c) && c->first_looks_std < 0 && !is_blank(line, len)) {
        const char *why;
        size_t col;
        c->first_looks_std = std_parse_line(line, len, c->w.radix, &c->sl, &c->scratch, &why,
                                            &col) == 0;
    }
    return 0;
}

tlv_status tlv_converter_push_line(tlv_converter *c, const char *line, size_t len)
{
    ALLOC_WATCH;
    tlv_status st = push_line(c, line, len);
    return st == TLV_ERR_USAGE ? st : nomem_check(c, ALLOC_FAILED_SINCE(), st);
}

static tlv_status push_line(tlv_converter *c, const char *line, size_t len)
{
    if (c->stopped)
        return refuse_stopped(c);
    if (len && line[len - 1] == '\r')
        len--;
    int std = reads_standard_form(c);
    rm_batch_clear(&c->one);
    c->matcher.slow = c->slow;
    rm_line *l = rm_add_line(&c->matcher, &c->one, line, 0, len, (size_t)-1, !std);
    if (!l) {
        c->stats.lines_read++;
        c->rule = NULL;
        line_error(c, "out of memory");
        c->stats.error_lines++;
        return TLV_ERR_CONVERT;
    }
    line = rm_line_text(&c->one, l, line);
    len = l->len;
    if (take_line(c, line, len, l) < 0)
        return TLV_ERR_CONVERT;
    if (std)
        return convert_std_line(c, line, len);
    return apply_raw_line(c, line, len, &c->one, l);
}

static tlv_status worse(tlv_status a, tlv_status b)
{
    if (a == TLV_ERR_USAGE || b == TLV_ERR_USAGE)
        return TLV_ERR_USAGE;
    return a != TLV_OK ? a : b;
}

/* Keeps more of an unfinished line, or gives up on it when it grows too
 * long (or memory runs out). */
static void hold(tlv_converter *c, const char *s, size_t n)
{
    if (c->dropping)
        return;
    if (c->pending.len + n > MAX_LINE)
        c->dropping = LINE_TOO_LONG;
    else if (buf_append(&c->pending, s, n) < 0)
        c->dropping = LINE_NO_MEMORY;
    if (c->dropping)
        buf_free(&c->pending);
}

/* The end of a line given up on: counted and reported. */
static tlv_status drop_line(tlv_converter *c)
{
    if (c->stopped)
        return refuse_stopped(c);
    char why[80];
    if (c->dropping == LINE_TOO_LONG)
        snprintf(why, sizeof why, "the line is longer than %zu MB; skipped", MAX_LINE >> 20);
    else
        snprintf(why, sizeof why, "out of memory for the line; skipped");
    c->dropping = LINE_HELD;
    c->stats.lines_read++;
    c->stats.error_lines++;
    c->rule = NULL;
    line_error(c, why);
    return TLV_ERR_CONVERT;
}

static tlv_status push_bytes(tlv_converter *c, const char *data, size_t len);

/* The pipeline's view of a converter: the worst status so far. */
typedef struct run_ctx {
    tlv_converter *c;
    tlv_status st;
} run_ctx;

/* Applies one line that the matching thread read and matched: the pipelined
 * push_line. */
static int apply_matched(void *ctx, const rm_batch *b, const rm_line *l, const char *base)
{
    run_ctx *r = ctx;
    tlv_converter *c = r->c;
    tlv_status st;
    const char *line = rm_line_text(b, l, base);
    c->piped_lines++;
    if (l->too_long) {
        c->dropping = LINE_TOO_LONG;
        st = drop_line(c);
    } else if (take_line(c, line, l->len, l) < 0) {
        st = TLV_ERR_CONVERT;
    } else {
        st = apply_raw_line(c, line, l->len, b, l);
    }
    r->st = worse(r->st, st);
    return st == TLV_ERR_USAGE;
}

/* Runs of at least this many bytes go through the pipeline: below, handing
 * batches over costs more than it saves (and live logs come in small pieces). */
#define PIPELINE_MIN_RUN ((size_t)16 << 10)

/* How many bytes from data[i] on to convert on two threads (complete lines
 * only), or 0 when the serial path takes the next line. Starts the matching
 * thread on first use; when it cannot, the serial path takes over for good. */
static size_t pipelined_run(tlv_converter *c, const char *data, size_t i, size_t len)
{
    if (c->threads < 2 || c->pending.len || c->dropping || reads_standard_form(c) ||
        len - i < (c->batch_lines ? 1 : PIPELINE_MIN_RUN))
        return 0;
    size_t end = len;
    while (end > i && data[end - 1] != '\n')
        end--;
    if (end == i)
        return 0;
    if (!c->pipe && (c->pipe = pipeline_new(c->rules)) != NULL)
        pipeline_set_batch_lines(c->pipe, c->batch_lines);
    if (!c->pipe) {
        c->threads = 1;
        return 0;
    }
    return end - i;
}

/* Converts the complete lines data[0, n) (ending with LF) with the pipeline. */
static tlv_status convert_run(tlv_converter *c, const char *data, size_t n)
{
    run_ctx r = {c, TLV_OK};
    pipeline_run(c->pipe, data, n, MAX_LINE, c->slow, apply_matched, &r);
    return r.st;
}

tlv_status tlv_converter_push_bytes(tlv_converter *c, const char *data, size_t len)
{
    ALLOC_WATCH;
    tlv_status st = push_bytes(c, data, len);
    return st == TLV_ERR_USAGE ? st : nomem_check(c, ALLOC_FAILED_SINCE(), st);
}

static tlv_status push_bytes(tlv_converter *c, const char *data, size_t len)
{
    tlv_status st = TLV_OK;
    c->stats.bytes_read += len;
    size_t i = 0;
    if (len && c->pending_cr && data[0] == '\n') /* the LF of a CRLF split across pushes */
        i = 1;
    c->pending_cr = 0;
    while (i < len && st != TLV_ERR_USAGE) {
        size_t run = pipelined_run(c, data, i, len);
        if (run) {
            st = worse(st, convert_run(c, data + i, run));
            i += run;
            continue;
        }
        size_t end = rm_line_end(data, i, len);
        if (end == len) { /* unfinished: wait for more bytes */
            hold(c, data + i, len - i);
            break;
        }
        if (c->pending.len || c->dropping)
            hold(c, data + i, end - i);
        else if (end - i > MAX_LINE)
            c->dropping = LINE_TOO_LONG;
        if (c->dropping) {
            st = worse(st, drop_line(c));
        } else if (c->pending.len) {
            st = worse(st, tlv_converter_push_line(c, c->pending.data, c->pending.len));
            buf_clear(&c->pending);
        } else {
            st = worse(st, tlv_converter_push_line(c, data + i, end - i));
        }
        if (data[end] == '\r' && end + 1 < len && data[end + 1] == '\n')
            end++;
        else if (data[end] == '\r' && end + 1 == len)
            c->pending_cr = 1;
        i = end + 1;
    }
    return st;
}

void tlv_converter_set_script_timeout(tlv_converter *c, int milliseconds)
{
    c->script_timeout_ms = milliseconds > 0 ? milliseconds : 60000;
}

static int script_output_line(void *ctx, const char *line, size_t len)
{
    tlv_converter *c = ctx;
    c->script_line++;
    rm_batch_clear(&c->one);
    rm_line *l = rm_add_line(&c->matcher, &c->one, line, 0, len, (size_t)-1, 0);
    if (!l || (l->nontext && report_nontext(c, l) < 0))
        return 0;
    line = rm_line_text(&c->one, l, line);
    len = l->len;
    return convert_std_line(c, line, len) == TLV_ERR_USAGE ? -1 : 0;
}

/* Runs every external-process target on the whole log, once it is read. */
static void run_scripts(tlv_converter *c)
{
    if (!c->rules->allow_scripts || !c->rules->nscripts || c->std_input)
        return;
    buf input = BUF_INIT, err = BUF_INIT;
    script_resource_json(c->rules, &input);
    buf_puts(&input, "\n---\n");
    buf_append(&input, buf_str(&c->script_input), c->script_input.len);
    for (size_t i = 0; i < c->rules->nscripts && !c->stopped; i++) {
        const script_rule *s = &c->rules->scripts[i];
        c->script = s;
        c->script_line = 0;
        buf_clear(&err);
        if (script_run(s, buf_str(&input), input.len, c->script_timeout_ms, script_output_line, c,
                       &err) < 0 && !c->stopped)
            diags_add(&c->diags, TLV_SEV_ERROR, s->file, s->line, s->col,
                      "external-process rule '%s' (\"%s %s\"): %s", s->target, s->file_name,
                      s->arguments, buf_str(&err));
        c->script = NULL;
    }
    buf_free(&input);
    buf_free(&err);
}

/* The last line had no line end: when no rule took it, it is most likely
 * the cut-off end of a truncated capture, worth saying so. */
static tlv_status push_last_line(tlv_converter *c)
{
    tlv_convert_stats before = c->stats;
    int blank = is_blank(c->pending.data, c->pending.len);
    tlv_status st = tlv_converter_push_line(c, c->pending.data, c->pending.len);
    if (st == TLV_OK && !blank && !reads_standard_form(c) && c->rules->nrules &&
        c->stats.lines_matched == before.lines_matched)
        diags_add(&c->diags, TLV_SEV_WARNING, c->source, (long)c->stats.lines_read, 0,
                  "the last line has no line end and no rule matched it (a truncated log?)");
    buf_clear(&c->pending);
    return st;
}

/* Summaries of what was not listed line by line, and of a log that no
 * rule read at all (usually the wrong resource file for the log). */
static void summarize(tlv_converter *c)
{
    if (c->nontext_lines > MAX_LISTED_NONTEXT)
        diags_add(&c->diags, TLV_SEV_WARNING, c->source, 0, 0,
                  "%llu more lines had bytes that are not text, read as U+FFFD (not listed)",
                  (unsigned long long)(c->nontext_lines - MAX_LISTED_NONTEXT));
    if (c->stats.lines_read && !c->stats.lines_matched && !c->stats.error_lines &&
        c->rules->nrules && !reads_standard_form(c))
        diags_add(&c->diags, TLV_SEV_WARNING, c->source, 0, 0,
                  "no rule matched any of the %llu lines read%s",
                  (unsigned long long)c->stats.lines_read,
                  c->first_looks_std > 0 ? " (they look like a standard-form trace: tlv reads "
                                           "one with --std, or when its name ends in .std)"
                                         : "");
}

tlv_status tlv_converter_finish(tlv_converter *c)
{
    ALLOC_WATCH;
    tlv_status st = TLV_OK;
    if (c->dropping)
        st = drop_line(c);
    else if (c->pending.len)
        st = push_last_line(c);
    if (st == TLV_ERR_USAGE)
        return st;
    summarize(c);
    run_scripts(c);
    if (c->stopped)
        return TLV_ERR_USAGE;
    if (ALLOC_FAILED_SINCE() || c->diags.nomem) /* incomplete: not a partial success */
        return nomem_check(c, 1, TLV_ERR_NOMEM);
    if (!c->diags.errors)
        return TLV_OK;
    return last_error_set(&c->lasterr, TLV_ERR_CONVERT,
                          "the conversion had %zu error%s (tlv_converter_diags lists them)",
                          c->diags.errors, c->diags.errors == 1 ? "" : "s");
}

tlv_status tlv_converter_attr_at(tlv_converter *c, const char *resource, const char *attr,
                                 const tlv_time *at, const char **value)
{
    long ri = world_find(&c->w, resource, strlen(resource));
    if (ri < 0)
        return model_err_no_resource(&c->lasterr, "tlv_converter_attr_at", resource);
    const res_type *t = &c->w.model->types[c->w.res[ri].type];
    long ai = model_attr_index(t, attr, strlen(attr));
    if (ai < 0)
        return model_err_no_attribute(&c->lasterr, "tlv_converter_attr_at", resource, t, attr);
    *value = intern_str(c->w.values, world_attr(&c->w, (size_t)ri, (size_t)ai, at, SEQ_ALL));
    return TLV_OK;
}

size_t tlv_event_format(const tlv_event *ev, int radix, char *out, size_t size)
{
    char mem[512];
    buf b;
    /* straight into the caller's memory; a longer line moves to the heap */
    if (size >= 2)
        buf_init_borrowed(&b, out, size);
    else
        buf_init_borrowed(&b, mem, sizeof mem);
    if (ev->kind == TLV_EVENT_ATTRIBUTE)
        std_format_attr(&b, ev->time, radix, ev->resource, ev->name, ev->value);
    else
        std_format_behavior(&b, ev->time, radix, ev->resource, ev->name, ev->args, ev->nargs);
    size_t n = b.data == out ? b.len : buf_copy_out(&b, out, size);
    buf_free(&b);
    return n;
}

void converter_set_fast_paths(tlv_converter *c, int on) { c->slow = !on; }

void converter_set_batch_lines(tlv_converter *c, size_t lines)
{
    c->batch_lines = lines;
    if (c->pipe)
        pipeline_set_batch_lines(c->pipe, lines);
}

uint64_t converter_piped_lines(const tlv_converter *c) { return c->piped_lines; }

void tlv_converter_set_threads(tlv_converter *c, int threads)
{
    if (threads <= 0) /* the default: two when there are two processors to run them */
        threads = sysconf(_SC_NPROCESSORS_ONLN) > 1 ? 2 : 1;
    c->threads = threads > 1 ? 2 : 1;
}

void tlv_converter_set_unmatched_fn(tlv_converter *c, tlv_unmatched_fn fn, void *user)
{
    c->unmatched = fn;
    c->unmatched_user = user;
}

uint64_t tlv_converter_rule_matches(const tlv_converter *c, size_t i)
{
    return i < c->rules->nrules ? c->rule_matches[i] : 0;
}

void tlv_converter_set_standard_form(tlv_converter *c, int on) { c->std_input = on != 0; }

uint64_t tlv_converter_inconsistency_count(const tlv_converter *c)
{
    return c ? consistency_count(c->consistency) : 0;
}

size_t tlv_converter_inconsistency_listed(const tlv_converter *c)
{
    return c ? consistency_listed(c->consistency) : 0;
}

static void get_inconsistency(const tlv_converter *c, size_t i, tlv_inconsistency *out)
{
    consistency_get(c->consistency, &c->w, i, out);
}

void tlv_converter_inconsistency_sized(const tlv_converter *c, size_t i, tlv_inconsistency *out,
                                       size_t size)
{
    ABI_FILL_OUT(tlv_inconsistency, get_inconsistency, out, size, c, i);
}

size_t tlv_converter_consistency_check_count(const tlv_converter *c)
{
    return c ? consistency_check_count(c->consistency) : 0;
}

void tlv_converter_consistency_check_sized(const tlv_converter *c, size_t i,
                                           tlv_consistency_check *out, size_t size)
{
    ABI_FILL_OUT(tlv_consistency_check, consistency_check_get, out, size, c->consistency, i);
}

/* ---- what a trace cache keeps (convert_impl.h) ------------------------------------------- */

void converter_get_state(const tlv_converter *c, converter_state *out)
{
    memset(out, 0, sizeof *out);
    out->stats = c->stats;
    out->stats.matching_cpu_ns = 0;
    out->nontext_lines = c->nontext_lines;
    out->first_looks_std = c->first_looks_std;
    out->source = c->source;
    out->last_error = c->lasterr.text;
    out->rule_matches = c->rule_matches;
    out->tail_warned = c->tail_warned;
}

int converter_set_state(tlv_converter *c, const converter_state *in)
{
    if (!c->rule_matches || !c->tail_warned)
        return -1;
    c->stats = in->stats;
    c->stats.matching_cpu_ns = 0;
    c->nontext_lines = in->nontext_lines;
    c->first_looks_std = in->first_looks_std;
    memcpy(c->rule_matches, in->rule_matches, c->rules->nrules * sizeof *c->rule_matches);
    memcpy(c->tail_warned, in->tail_warned, c->rules->nrules);
    snprintf(c->lasterr.text, sizeof c->lasterr.text, "%s", in->last_error ? in->last_error : "");
    return 0;
}

tlv_diags *converter_diags_rw(tlv_converter *c) { return &c->diags; }

struct consistency *converter_consistency(tlv_converter *c) { return c->consistency; }

int converter_has_listeners(const tlv_converter *c) { return c->fn || c->line_fn; }

int converter_reads_standard_form(const tlv_converter *c) { return reads_standard_form(c); }

tlv_unmatched_fn converter_unmatched_fn(const tlv_converter *c, void **user)
{
    *user = c->unmatched_user;
    return c->unmatched;
}
