/*
 * view_hover.c — the shape under the cursor, for the tooltip: the row under
 * the pointer (tlv_view_row_at), its shapes within a few pixels of the
 * pointer's time (tlv_shapes_query), and of those the one a person means —
 * one that spans the pointer before one that is merely near, the shortest
 * of those (an event inside a long state), the last drawn (the one on top)
 * on a tie. The text primitive drawn for the same event supplies the value.
 * And the same for a shape a panel selects at an exact time (an instance's
 * start: view_select_shape), as a click on it would.
 */
#include "view/core.h"

#include <math.h>
#include <string.h>

#define HOVER_REACH 3          /* pixels either side of the pointer */
#define MAX_CANDIDATES 256

typedef struct hover_query {
    double t, reach;
    tlv_shape_info c[MAX_CANDIDATES];
    size_t n;
} hover_query;

static int collect(void *user, const tlv_shape_info *sh)
{
    hover_query *q = user;
    if (q->n == MAX_CANDIDATES)
        return 1;
    q->c[q->n++] = *sh;
    return 0;
}

/* How well a shape matches the pointer: spanning it (class 0, by length)
 * beats being near it (class 1, by distance); class 2 is out of reach. */
typedef struct match {
    int cls;
    double value;
} match;

static match match_of(const hover_query *q, const tlv_shape_info *sh, int radix)
{
    double f = tlv_time_to_double(sh->from, radix), g = tlv_time_to_double(sh->to, radix);
    double dist = q->t < f ? f - q->t : q->t > g ? q->t - g : 0;
    if (dist > q->reach)
        return (match){2, 0};
    if (dist == 0 || g - f < q->reach) /* a point event counts as spanning */
        return (match){0, g - f};
    return (match){1, dist};
}

/* Whether m is at least as good as best (ties go to the later drawn). */
static int at_least(match m, match best)
{
    return m.cls < best.cls || (m.cls == best.cls && m.value <= best.value);
}

static tlv_time bound(double t, int up)
{
    double r = up ? ceil(t) : floor(t);
    r = r < -9.2e18 ? -9.2e18 : r > 9.2e18 ? 9.2e18 : r;
    return (tlv_time){(int64_t)r, 0};
}

static const char *same_event_text(const hover_query *q, const tlv_shape_info *best)
{
    if (best->text)
        return best->text;
    for (size_t i = 0; i < q->n; i++) {
        const tlv_shape_info *c = &q->c[i];
        if (c->text && *c->text && strcmp(c->rule, best->rule) == 0 &&
            strcmp(c->event, best->event) == 0 && tlv_time_cmp(c->from, best->from) == 0 &&
            tlv_time_cmp(c->to, best->to) == 0)
            return c->text;
    }
    return NULL;
}

static void fill_hover(view_app *a, long row, const hover_query *q, const tlv_shape_info *best)
{
    view_hover *h = &a->hover;
    const char *text = same_event_text(q, best);
    h->valid = 1;
    h->row = row;
    snprintf(h->rule, sizeof h->rule, "%s", best->rule ? best->rule : "");
    snprintf(h->event, sizeof h->event, "%s", best->event ? best->event : "");
    snprintf(h->resource, sizeof h->resource, "%s", best->resource ? best->resource : "");
    snprintf(h->text, sizeof h->text, "%s", text ? text : "");
    h->from = tlv_time_to_double(best->from, a->radix);
    h->to = tlv_time_to_double(best->to, a->radix);
    h->start = best->from;
    view_exact_text(a, best->from, h->start_text, sizeof h->start_text);
    view_exact_text(a, best->to, h->end_text, sizeof h->end_text);
    snprintf(h->value, sizeof h->value, "%s", best->value ? best->value : "");
    h->end = best->to;
    h->from_event = best->from_event;
    h->to_event = best->to_event;
    h->is_when = best->is_when;
}

void view_hover_update(view_app *a)
{
    a->hover.valid = 0;
    if (!a->shapes || a->drag != DRAG_NONE || !input_over_timeline(a, a->mx, a->my))
        return;
    tlv_view v;
    view_main_view(a, &v);
    long row = tlv_view_row_at(&v, a->shapes, a->my);
    if (row < 0)
        return;
    static hover_query q; /* large; the viewer has one thread */
    q.n = 0;
    q.t = tlv_view_time(&v, a->mx);
    q.reach = HOVER_REACH * a->scale * (v.t1 - v.t0) / fmax(1, v.width - v.label_width);
    tlv_shapes_query(a->shapes, (size_t)row, bound(q.t - q.reach, 0), bound(q.t + q.reach, 1),
                     collect, &q);
    const tlv_shape_info *best = NULL;
    match best_match = {2, 0};
    for (size_t i = 0; i < q.n; i++) {
        match m = match_of(&q, &q.c[i], a->radix);
        if (m.cls < 2 && at_least(m, best_match)) {
            best_match = m;
            best = &q.c[i];
        }
    }
    if (best)
        fill_hover(a, row, &q, best);
}

/* A shape that begins at t (not an instant) beats one that only spans it;
 * among those, the shortest. */
int view_select_shape(view_app *a, size_t row, tlv_time t)
{
    if (!a->shapes || row >= tlv_shapes_row_count(a->shapes))
        return 0;
    static hover_query q; /* large; the viewer has one thread */
    q.n = 0;
    q.t = tlv_time_to_double(t, a->radix);
    q.reach = 0;
    tlv_shapes_query(a->shapes, row, t, t, collect, &q);
    const tlv_shape_info *best = NULL;
    int best_starts = 0;
    double best_len = 0;
    for (size_t i = 0; i < q.n; i++) {
        const tlv_shape_info *sh = &q.c[i];
        if (tlv_time_cmp(sh->from, t) > 0 || (tlv_time_cmp(sh->to, t) < 0 && !sh->is_when))
            continue;
        int starts = tlv_time_cmp(sh->from, t) == 0 && !sh->is_when;
        double len = tlv_time_to_double(tlv_time_sub(sh->to, sh->from, a->radix), a->radix);
        if (!best || starts > best_starts || (starts == best_starts && len < best_len)) {
            best = sh;
            best_starts = starts;
            best_len = len;
        }
    }
    if (!best)
        return 0;
    fill_hover(a, (long)row, &q, best);
    view_panels_note(a, VIEW_NOTE_CLICK);
    return 1;
}
