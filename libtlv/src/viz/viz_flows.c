/*
 * viz_flows.c — flows: the "Flows" member of a visualization rule names,
 * for each event matching a When pattern, a source and a target resource
 * (and optionally their processors), making one causal link at the event's
 * time — a task activating or waking another, a handler releasing a task, a
 * migration, a fork. Kept in the shapes by time, read with tlv_shapes_flow*.
 */
#include "base/abi.h"
#include "viz/viz_build.h"

#include <stdlib.h>
#include <string.h>

static void read_flow(builder *b, viz_rule *r, const tj_node *f, const char *file)
{
    if (f->type != TJ_OBJECT) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, f->line, f->col,
                  "rule '%s': flow '%s' must be an object, found %s", r->name, f->key,
                  tj_type_name(f->type));
        return;
    }
    flow_def *d = &r->flows[r->nflows];
    memset(d, 0, sizeof *d);
    d->ev.name = f->key;
    d->ev.when = viz_str_member(f, "When");
    d->ev.file = file;
    d->ev.line = f->key_line;
    d->ev.col = f->key_col;
    d->display = viz_str_member(f, "DisplayName");
    d->from = viz_str_member(f, "From");
    d->to = viz_str_member(f, "To");
    d->from_cpu = viz_str_member(f, "FromProcessor");
    d->to_cpu = viz_str_member(f, "ToProcessor");
    d->condition = viz_str_member(f, "Condition");
    if (!d->ev.when || !d->to) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, f->key_line, f->key_col,
                  "rule '%s', flow '%s': needs \"When\" (an event pattern) and \"To\" (the "
                  "resource it points to)",
                  r->name, f->key);
        return;
    }
    r->nflows++;
}

void viz_read_flows(builder *b, viz_rule *r, const tj_node *flows, const char *file)
{
    if (flows->type != TJ_OBJECT) {
        diags_add(&b->s->diags, TLV_SEV_ERROR, file, flows->line, flows->col,
                  "rule '%s': \"Flows\" must be an object of flows, found %s", r->name,
                  tj_type_name(flows->type));
        return;
    }
    r->flows = calloc(flows->count + 1, sizeof *r->flows);
    if (!r->flows)
        return;
    for (const tj_node *f = flows->child; f; f = f->next)
        if (!tj_shadowed(f))
            read_flow(b, r, f, file);
}

/* ---- applying ------------------------------------------------------------------------------ */

/* One end of a flow, as the rule's texts give it for one event. */
typedef struct flow_end {
    buf name;           /* the resource reference expanded */
    long res;
    uint32_t cpu;       /* world value id, or UINT32_MAX */
} flow_end;

/* Expands `text` into out, trimmed; returns its length, or -1 when it does
 * not expand (reported). */
static long expand_trimmed(builder *b, const subst_ctx *sc, const char *text, buf *out)
{
    if (viz_expand(b, sc, text, 0) < 0)
        return -1;
    const char *s = buf_str(&b->a);
    size_t n = b->a.len;
    viz_trim(&s, &n);
    buf_clear(out);
    return buf_append(out, s, n) < 0 ? -1 : (long)n;
}

/* The end's resource: the expanded reference (NULL: the event's own). 0
 * when the reference is blank (no flow), 1 when known, -1 when it does not
 * expand. */
static int expand_end(builder *b, const subst_ctx *sc, const vevent *e, const char *text,
                      flow_end *end)
{
    end->res = (long)e->res;
    end->cpu = UINT32_MAX;
    buf_clear(&end->name);
    if (!text)
        return buf_puts(&end->name, b->w->res[e->res].name) < 0 ? -1 : 1;
    long n = expand_trimmed(b, sc, text, &end->name);
    return n < 0 ? -1 : n > 0;
}

/* Finds the end's resource and expands its processor (NULL: none). */
static int resolve_end(builder *b, const subst_ctx *sc, const char *cpu_text, const char *what,
                       flow_end *end)
{
    end->res = world_find(b->w, buf_str(&end->name), end->name.len);
    if (end->res < 0) {
        buf_clear(&b->err);
        buf_printf(&b->err, "%s '%s' is not a resource", what, buf_str(&end->name));
        viz_error(b, buf_str(&b->err), NULL);
        return -1;
    }
    if (!cpu_text)
        return 0;
    buf cpu = BUF_INIT;
    long n = expand_trimmed(b, sc, cpu_text, &cpu);
    if (n > 0)
        end->cpu = intern_add(b->w->values, buf_str(&cpu), (size_t)n);
    buf_free(&cpu);
    return n < 0 ? -1 : 0;
}

/* The row an end is drawn on: its processor's in per-CPU mode when the rule
 * names one, else the resource's own. */
static uint32_t end_row(const builder *b, const flow_end *end, tlv_time at)
{
    uint32_t row = end->cpu != UINT32_MAX ? viz_cpu_row(b, end->cpu) : UINT32_MAX;
    return row != UINT32_MAX ? row : viz_res_row_at(b, (size_t)end->res, at);
}

static void add_flow(builder *b, const viz_rule *r, const flow_def *d, const vevent *e,
                     const flow_end *from, const flow_end *to)
{
    struct tlv_shapes *s = b->s;
    if (GROW(s->flows, s->flows_cap, s->nflows + 1) < 0)
        return;
    const char *display = d->display ? d->display : d->ev.name;
    flow_rec *f = &s->flows[s->nflows];
    f->time = e->time;
    f->line = e->line;
    f->event = (uint32_t)((size_t)(e - b->ev) - b->ninit);
    f->seq = (uint32_t)s->nflows++;
    f->rule = r->name_id;
    f->name = intern_add(s->names, d->ev.name, strlen(d->ev.name));
    f->display = intern_add(s->names, display, strlen(display));
    f->from_res = (uint32_t)from->res;
    f->to_res = (uint32_t)to->res;
    f->from_cpu = from->cpu;
    f->to_cpu = to->cpu;
    f->from_row = end_row(b, from, e->time);
    f->to_row = end_row(b, to, e->time);
}

/* The flow of one event: ends that expand blank make none, nor a Condition
 * that does not hold; ends naming no resource are errors. */
static void flow_for(builder *b, const viz_rule *r, const flow_def *d, const subst_ctx *sc,
                     flow_end *from, flow_end *to)
{
    const vevent *e = sc->from;
    if (expand_end(b, sc, e, d->from, from) <= 0 || expand_end(b, sc, e, d->to, to) <= 0)
        return;
    if (d->condition && !viz_condition_holds(b, sc, d->condition))
        return;
    if (resolve_end(b, sc, d->from_cpu, "From", from) < 0 ||
        resolve_end(b, sc, d->to_cpu, "To", to) < 0)
        return;
    add_flow(b, r, d, e, from, to);
}

static void apply_flow(builder *b, const viz_rule *r, const flow_def *d,
                       const char *target_name, long target)
{
    subst_ctx sc = {target_name, NULL, NULL, 1, tlv_trace_end(b->t), 0};
    pattern p;
    if (viz_expand(b, &sc, d->ev.when, 1) < 0 || viz_pattern_compile(b, buf_str(&b->a), &p) < 0)
        return;
    flow_end from = {BUF_INIT, 0, 0}, to = {BUF_INIT, 0, 0};
    scan_list l = viz_scan_for(b, &p, target);
    for (size_t k = 0; k < l.n; k++) {
        const vevent *e = &b->ev[viz_at(&l, k)];
        if (e->initial || !viz_pattern_matches(b, &p, e))
            continue;
        b->cur_line = e->line;
        sc.from = e;
        flow_for(b, r, d, &sc, &from, &to);
    }
    buf_free(&from.name);
    buf_free(&to.name);
    viz_pattern_free(&p);
}

void viz_apply_flows(builder *b, const viz_rule *r, const char *target_name, long target)
{
    for (size_t i = 0; i < r->nflows; i++) {
        b->cur_event = &r->flows[i].ev;
        b->cur_line = 0;
        apply_flow(b, r, &r->flows[i], target_name, target);
    }
}

/* ---- reading ------------------------------------------------------------------------------- */

static int by_time(const void *pa, const void *pb)
{
    const flow_rec *x = pa, *y = pb;
    int c = tlv_time_cmp(x->time, y->time);
    if (c)
        return c;
    if (x->line != y->line)
        return x->line < y->line ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

int viz_finish_flows(struct tlv_shapes *s)
{
    if (s->nflows > 1)
        qsort(s->flows, s->nflows, sizeof *s->flows, by_time);
    return 0;
}

size_t tlv_shapes_flow_count(const tlv_shapes *s) { return s ? s->nflows : 0; }

static const char *cpu_text(const struct tlv_shapes *s, uint32_t v)
{
    return v == UINT32_MAX ? NULL : intern_str(s->trace->w->values, v);
}

static void flow_info_fill(const tlv_shapes *s, size_t i, tlv_flow_info *out)
{
    memset(out, 0, sizeof *out);
    if (!s || i >= s->nflows)
        return;
    const flow_rec *f = &s->flows[i];
    const world *w = s->trace->w;
    out->rule = intern_str(s->names, f->rule);
    out->name = intern_str(s->names, f->name);
    out->display_name = intern_str(s->names, f->display);
    out->from_resource = w->res[f->from_res].name;
    out->to_resource = w->res[f->to_res].name;
    out->from_processor = cpu_text(s, f->from_cpu);
    out->to_processor = cpu_text(s, f->to_cpu);
    out->from_row = f->from_row == UINT32_MAX ? TLV_NO_ROW : f->from_row;
    out->to_row = f->to_row == UINT32_MAX ? TLV_NO_ROW : f->to_row;
    out->time = f->time;
    out->event = f->event;
}

void tlv_shapes_flow_sized(const tlv_shapes *s, size_t i, tlv_flow_info *out, size_t size)
{
    ABI_FILL_OUT(tlv_flow_info, flow_info_fill, out, size, s, i);
}

size_t tlv_shapes_flow_seek(const tlv_shapes *s, tlv_time t)
{
    size_t lo = 0, hi = s ? s->nflows : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(s->flows[mid].time, t) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void tlv_shapes_flows_query(const tlv_shapes *s, tlv_time t0, tlv_time t1, tlv_flow_fn fn,
                            void *user)
{
    for (size_t i = tlv_shapes_flow_seek(s, t0); s && i < s->nflows; i++) {
        if (tlv_time_cmp(s->flows[i].time, t1) > 0)
            break;
        tlv_flow_info info;
        tlv_shapes_flow(s, i, &info);
        if (fn(user, &info))
            break;
    }
}
