/*
 * viz_when.c — When instants: each event matching When draws from its time
 * to the next matching event on the same resource (or the trace's end); the
 * shapes remember which (rule, event) pairs were When events, whose
 * [from, to] is not a duration.
 */
#include "viz/viz_build.h"

#include <stdlib.h>
#include <string.h>

void viz_apply_when(builder *b, const event_def *d, const char *target_name, long target)
{
    subst_ctx sc = {target_name, NULL, NULL, 1, tlv_trace_end(b->t), 0};
    pattern p;
    if (viz_expand(b, &sc, d->when, 1) < 0 || viz_pattern_compile(b, buf_str(&b->a), &p) < 0)
        return;
    scan_list l = viz_scan_for(b, &p, target);
    for (size_t k = 0; k < l.n; k++) {
        size_t i = viz_at(&l, k);
        const vevent *e = &b->ev[i];
        if (!viz_pattern_matches(b, &p, e))
            continue;
        b->cur_line = e->line;
        /* until the next occurrence on the same resource */
        long j = -1;
        const uint32_t *ri = b->per_res[e->res];
        scan_list same = {ri, b->per_res_n[e->res]};
        for (size_t m = viz_after(&same, i); m < same.n; m++)
            if (viz_pattern_matches(b, &p, &b->ev[same.idx[m]])) {
                j = (long)same.idx[m];
                break;
            }
        sc.from = e;
        viz_draw_interval(b, d, &sc, e->time, j >= 0 ? b->ev[j].time : sc.end, target);
    }
    viz_pattern_free(&p);
}

static int cmp_u64(const void *pa, const void *pb)
{
    uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;
    return a < b ? -1 : a > b;
}

static uint64_t when_key(uint32_t rule_name, uint32_t event_name)
{
    return (uint64_t)rule_name << 32 | event_name;
}

/* Remembers which (rule, event) pairs are When events: a shape keeps only
 * the names, and readers need to know its [from, to] is not a duration. */
int viz_note_when_events(builder *b)
{
    struct tlv_shapes *s = b->s;
    size_t n = 0;
    for (size_t i = 0; i < b->nrules; i++)
        for (size_t e = 0; e < b->rules[i].nevents; e++)
            n += b->rules[i].events[e].when != NULL;
    s->when_keys = malloc((n + 1) * sizeof *s->when_keys);
    if (!s->when_keys)
        return -1;
    for (size_t i = 0; i < b->nrules; i++)
        for (size_t e = 0; e < b->rules[i].nevents; e++) {
            const event_def *d = &b->rules[i].events[e];
            if (d->when)
                s->when_keys[s->nwhen++] = when_key(
                    b->rules[i].name_id, intern_add(s->names, d->name, strlen(d->name)));
        }
    qsort(s->when_keys, s->nwhen, sizeof *s->when_keys, cmp_u64);
    return 0;
}

/* Whether shapes of this rule and event (interned names) are When shapes. */
int viz_shape_is_when(const struct tlv_shapes *s, uint32_t rule, uint32_t event)
{
    uint64_t key = when_key(rule, event);
    return s->nwhen && bsearch(&key, s->when_keys, s->nwhen, sizeof key, cmp_u64);
}
