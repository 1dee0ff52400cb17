/*
 * viz.c — applying visualization rules (spec §9.2) to a trace: the driver of
 * tlv_shapes_build, which reads the rules, builds the events, rows and index,
 * then applies each rule to each of its targets (see viz_build.h for the
 * module of each step). The initial value of every attribute counts as a
 * change at the start of the trace; an interval still open at the end closes
 * at the trace's last time.
 */
#include "base/abi.h"
#include "viz/viz_build.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_KEPT_DIAGS 1000

void viz_error(builder *b, const char *fmt, const char *detail)
{
    char where[64];
    if (b->cur_line)
        snprintf(where, sizeof where, "trace line %u", (unsigned)b->cur_line);
    else
        snprintf(where, sizeof where, "initial values");
    const event_def *e = b->cur_rule ? b->cur_event : NULL;
    buf text = BUF_INIT;
    if (e)
        buf_printf(&text, "rule '%s', event '%s' (%s): %s%s", b->cur_rule->name, e->name, where,
                   fmt, detail ? detail : "");
    else
        buf_printf(&text, "%s%s", fmt, detail ? detail : "");
    if (b->unit) /* a worker's: kept in its unit, reported in order (viz_parallel.c) */
        viz_unit_error(b, e ? e->file : NULL, e ? e->line : 0, e ? e->col : 0, buf_str(&text));
    else
        diags_add(&b->s->diags, TLV_SEV_ERROR, e ? e->file : NULL, e ? e->line : 0,
                  e ? e->col : 0, "%s", text.data ? buf_str(&text) : "out of memory");
    buf_free(&text);
}



static void apply_rule(builder *b, viz_rule *r)
{
    b->cur_rule = r;
    if (r->type == -2)
        return;
    size_t ntargets = r->type >= 0 ? b->w->nmembers[r->type] : 1;
    for (size_t ti = 0; ti < ntargets; ti++) {
        long target = r->type >= 0 ? (long)b->w->members[r->type][ti] : -1;
        const char *tname = target >= 0 ? b->w->res[target].name : NULL;
        for (size_t e = 0; e < r->nevents; e++) {
            b->cur_event = &r->events[e];
            b->cur_line = 0;
            if (r->events[e].when)
                viz_apply_when(b, &r->events[e], tname, target);
            else
                viz_apply_from_to(b, &r->events[e], tname, target);
        }
        viz_apply_flows(b, r, tname, target);
    }
    b->cur_event = NULL;
    b->cur_rule = NULL;
}



static void builder_free(builder *b)
{
    for (size_t i = 0; i < b->nrules; i++) {
        free(b->rules[i].events);
        free(b->rules[i].flows);
    }
    free(b->rules);
    free(b->shapes);
    viz_free_names(b);
    viz_free_events(b);
    free(b->res_row);
    viz_free_absent(b);
    free(b->cpu_attr);
    free(b->cpu_values);
    free(b->cpu_row);
    viz_free_cpu_segments(b);
    intern_free(b->prim_keys);
    free(b->key_first);
    free(b->key_count);
    free(b->prim_row);
    macro_memo_free(b->memo);
    viz_free_cond_memo(b);
    viz_free_refs(b);
    buf_free(&b->a);
    buf_free(&b->b);
    buf_free(&b->err);
}



/* ---- rules left out ------------------------------------------------------------------------ */

int viz_is_skipped(const tlv_shapes_options *o, const char *name)
{
    for (size_t i = 0; o->skip_rules && i < o->n_skip_rules; i++)
        if (o->skip_rules[i] && strcmp(o->skip_rules[i], name) == 0)
            return 1;
    return 0;
}

/* Lists the rules for tlv_shapes_rule: "perCpu" first in per-CPU mode. */
static int list_rules(builder *b)
{
    struct tlv_shapes *s = b->s;
    size_t n = b->nrules + 1;
    s->rule_name = malloc(n * sizeof *s->rule_name);
    s->rule_display = malloc(n * sizeof *s->rule_display);
    s->rule_skipped = malloc(n);
    if (!s->rule_name || !s->rule_display || !s->rule_skipped)
        return -1;
    if (b->opts->cpu_attribute) {
        s->rule_name[0] = s->rule_display[0] = intern_add(s->names, "perCpu", 6);
        s->rule_skipped[0] = (uint8_t)viz_is_skipped(b->opts, "perCpu");
        s->nrules = 1;
    }
    for (size_t i = 0; i < b->nrules; i++, s->nrules++) {
        const viz_rule *r = &b->rules[i];
        const char *d = r->display ? r->display : r->name;
        s->rule_name[s->nrules] = r->name_id;
        s->rule_display[s->nrules] = intern_add(s->names, d, strlen(d));
        s->rule_skipped[s->nrules] = (uint8_t)viz_is_skipped(b->opts, r->name);
    }
    return 0;
}



int viz_threads(const tlv_shapes_options *o)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return o->threads > 0 ? o->threads : online > 1 ? (int)online : 1;
}

tlv_status tlv_shapes_build(const tlv_trace *t, const tlv_shapes_options *opts,
                            tlv_shapes **out)
{
    ALLOC_WATCH;
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT; /* the caller's over the defaults */
    abi_read_in(&o, sizeof o, opts, ABI_SHAPES_OPTIONS_0_1);
    opts = &o;
    struct tlv_shapes *s = calloc(1, sizeof *s);
    *out = s;
    if (!s)
        return TLV_ERR_NOMEM;
    diags_init(&s->diags, MAX_KEPT_DIAGS);
    s->trace = t;
    atomic_bool *building = &((struct tlv_trace *)t)->building; /* the trace is not const-allocated */
    if (atomic_exchange(building, true))
        return last_error_set(&s->lasterr, TLV_ERR_USAGE,
                              "tlv_shapes_build: another thread is building shapes from this "
                              "trace; build from one trace on one thread at a time");
    s->radix = t->rules->radix;
    s->time_scale = t->rules->time_scale ? t->rules->time_scale : "us";
    s->start = tlv_trace_start(t);
    s->end = tlv_trace_end(t);
    s->time_mode = tlv_trace_time_mode(t);
    s->names = intern_new();
    s->joined = intern_new();
    s->store = store_new();
    builder b = {0};
    b.s = s;
    b.t = t;
    b.w = t->w;
    world_macro_host(b.w, &b.host);
    b.memo = macro_memo_new();
    b.prim_keys = intern_new();
    b.opts = opts;
    tlv_status st = TLV_OK;
    if (!s->names || !s->joined || !s->store || !b.memo || !b.prim_keys) {
        st = TLV_ERR_NOMEM;
        goto done;
    }
    if (!t->rules->nviz)
        diags_add(&s->diags, TLV_SEV_ERROR, t->rules->res_path, 0, 0,
                  "no visualization rules: the resource file requests none in "
                  "\"VisualizeRules\", or none of its targets was found in the rule path");
    viz_read_sources(&b);
    for (size_t i = 0; i < b.nrules; i++) {
        b.rules[i].name_id = intern_add(s->names, b.rules[i].name, strlen(b.rules[i].name));
        for (size_t e = 0; e < b.rules[i].nevents; e++) /* workers only read the names */
            b.rules[i].events[e].name_id =
                intern_add(s->names, b.rules[i].events[e].name, strlen(b.rules[i].events[e].name));
    }
    if (viz_build_events(&b) < 0 || viz_build_index(&b) < 0 || viz_build_rows(&b) < 0 ||
        viz_note_when_events(&b) < 0 || list_rules(&b) < 0) {
        st = TLV_ERR_NOMEM;
        goto done;
    }
    if (opts->cpu_attribute && !viz_is_skipped(opts, "perCpu"))
        viz_draw_running(&b);
    int threads = viz_threads(opts);
    if (threads > 1 && viz_parallel_ok(&b)) {
        if (viz_apply_parallel(&b, threads) < 0)
            st = TLV_ERR_NOMEM;
    } else {
        for (size_t i = 0; i < b.nrules && !ALLOC_FAILED_SINCE(); i++) /* no use going on */
            if (!viz_is_skipped(opts, b.rules[i].name)) /* rows were made for it all the same */
                apply_rule(&b, &b.rules[i]);
    }
    /* A name that could not be interned left shapes naming id UINT32_MAX
     * (viz_draw_running, the parallel workers): finishing would index the
     * name ranks with it, so a failed build stops here. */
    if (st == TLV_OK && ALLOC_FAILED_SINCE())
        st = TLV_ERR_NOMEM;
    if (st == TLV_OK) {
        /* The freeze reads only the shapes: what found the events goes first,
         * so that its memory is not held at the same time as the freeze's. */
        viz_free_events(&b);
        viz_free_absent(&b);
        viz_free_cpu_segments(&b);
        viz_fit_values(&b);
        if (viz_finish_shapes(&b) < 0 || viz_finish_flows(s) < 0)
            st = TLV_ERR_NOMEM;
    }
done:
    builder_free(&b);
    atomic_store(building, false);
    if (ALLOC_FAILED_SINCE() || s->diags.nomem) /* even where the builder did without */
        st = TLV_ERR_NOMEM;
    if (st == TLV_ERR_NOMEM)
        return last_error_set(&s->lasterr, st, "out of memory while building the shapes");
    if (s->diags.errors)
        return last_error_set(&s->lasterr, TLV_ERR_RULE,
                              "%zu visualization rule error%s (tlv_shapes_diags lists them)",
                              s->diags.errors, s->diags.errors == 1 ? "" : "s");
    return TLV_OK;
}

const char *tlv_shapes_last_error(const tlv_shapes *s) { return s ? s->lasterr.text : ""; }

tlv_time_mode tlv_shapes_time_mode(const tlv_shapes *s) { return s ? s->time_mode : TLV_TIME_PLAIN; }

tlv_time tlv_shapes_time_origin(const tlv_shapes *s)
{
    tlv_time zero = {0, 0};
    return s ? s->start : zero;
}
