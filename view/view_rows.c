/*
 * view_rows.c — which rows the timeline shows (the core's rows model): rows
 * hidden one by one, groups (runs of rows of one resource type, or of one
 * processor in per-CPU mode) collapsed into one band, and visualization
 * rules hidden. The rows/rules panel (panel_rows.c) shows and changes them.
 *
 * The bands computed here are given to the renderer as tlv_view.rows; a
 * collapsed group is one blank band ("▸ Task (5 rows)", drawn by the panel).
 * A hidden rule is left out by rebuilding the shapes without it
 * (tlv_shapes_options.skip_rules): the store's per-column summaries of
 * zoomed-out rows could not be filtered at draw time. Everything is kept by
 * name (resource, group, rule), so it survives the per-CPU toggle and goes
 * into the session file.
 */
#include "view/core.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

/* ---- names kept ------------------------------------------------------------------ */

static long set_find(const name_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->v[i], name) == 0)
            return (long)i;
    return -1;
}

int set_has(const name_set *s, const char *name) { return set_find(s, name) >= 0; }

void set_add(name_set *s, const char *name)
{
    if (set_has(s, name))
        return;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        char **v = realloc(s->v, cap * sizeof *v);
        if (!v)
            return;
        s->v = v;
        s->cap = cap;
    }
    char *copy = strdup(name);
    if (copy)
        s->v[s->n++] = copy;
}

void set_remove(name_set *s, const char *name)
{
    long i = set_find(s, name);
    if (i < 0)
        return;
    free(s->v[i]);
    memmove(&s->v[i], &s->v[i + 1], (s->n - (size_t)i - 1) * sizeof *s->v);
    s->n--;
}

int set_toggle(name_set *s, const char *name)
{
    if (set_has(s, name)) {
        set_remove(s, name);
        return 0;
    }
    set_add(s, name);
    return set_has(s, name);
}

void set_free(name_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
    memset(s, 0, sizeof *s);
}

/* ---- groups and bands -------------------------------------------------------------- */

void rows_free(view_rows *r)
{
    if (!r)
        return;
    set_free(&r->hidden_rows);
    set_free(&r->hidden_rules);
    set_free(&r->collapsed);
    set_free(&r->order);
    free(r->perm);
    free(r->groups);
    free(r->bands);
    free(r->band_group);
    free(r->band_track);
    memset(r, 0, sizeof *r);
}

/* The name a row is kept by: its resource, else its label ("CPU 1", a rule's). */
const char *rows_key(const tlv_shapes *s, size_t row)
{
    tlv_row_info i;
    tlv_shapes_row(s, row, &i);
    return i.resource ? i.resource : i.label ? i.label : "";
}

const char *rows_label(const tlv_shapes *s, size_t row)
{
    tlv_row_info i;
    tlv_shapes_row(s, row, &i);
    return i.label ? i.label : "";
}

int view_grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    size_t cap2 = *cap ? *cap : 16;
    while (cap2 < need)
        cap2 *= 2;
    void *q = realloc(*p, cap2 * size);
    if (!q)
        return -1;
    *p = q;
    *cap = cap2;
    return 0;
}

/* Runs of consecutive rows with the same group name. */
static int find_groups(view_rows *r, const tlv_shapes *s)
{
    r->ngroups = 0;
    size_t n = tlv_shapes_row_count(s);
    for (size_t row = 0; row < n; row++) {
        tlv_row_info i;
        tlv_shapes_row(s, row, &i);
        const char *g = i.group ? i.group : "";
        view_group *last = r->ngroups ? &r->groups[r->ngroups - 1] : NULL;
        if (last && *g && strcmp(last->name, g) == 0) {
            last->count++;
            continue;
        }
        if (view_grow((void **)&r->groups, &r->groups_cap, r->ngroups + 1,
                      sizeof *r->groups) < 0)
            return -1;
        r->groups[r->ngroups++] = (view_group){g, row, 1, 0, 0};
    }
    for (size_t k = 0; k < r->ngroups; k++) {
        view_group *g = &r->groups[k];
        g->collapsible = *g->name && (g->count > 1 || strcmp(rows_label(s, g->first), g->name) != 0);
        for (size_t row = g->first; row < g->first + g->count; row++)
            g->shown += !set_has(&r->hidden_rows, rows_key(s, row));
    }
    return 0;
}

size_t rows_at(const view_rows *r, size_t pos)
{
    return r->perm && pos < r->perm_cap ? r->perm[pos] : pos;
}

/* Where row `key` (shape row `row`) goes in the user's order. */
static size_t row_rank(const view_rows *r, const char *key, size_t row)
{
    for (size_t i = 0; i < r->order.n; i++)
        if (strcmp(r->order.v[i], key) == 0)
            return i;
    return r->order.n + row;
}

/* perm: each group's rows in the user's order (insertion sort per group:
 * rows of a group are few, and mostly in order already). */
static int order_rows(view_rows *r, const tlv_shapes *s)
{
    size_t n = tlv_shapes_row_count(s);
    if (view_grow((void **)&r->perm, &r->perm_cap, n ? n : 1, sizeof *r->perm) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        r->perm[i] = i;
    if (!r->order.n)
        return 0;
    for (size_t k = 0; k < r->ngroups; k++) {
        size_t *p = r->perm + r->groups[k].first, c = r->groups[k].count;
        for (size_t i = 1; i < c; i++)
            for (size_t j = i; j > 0 && row_rank(r, rows_key(s, p[j - 1]), p[j - 1]) >
                                            row_rank(r, rows_key(s, p[j]), p[j]); j--) {
                size_t t = p[j];
                p[j] = p[j - 1];
                p[j - 1] = t;
            }
    }
    return 0;
}

int rows_is_collapsed(const view_rows *r, const view_group *g)
{
    return g->collapsible && set_has(&r->collapsed, g->name);
}

static int push_band(view_rows *r, size_t row, size_t g, long track)
{
    if (view_grow((void **)&r->bands, &r->bands_cap, r->nbands + 1, sizeof *r->bands) < 0 ||
        view_grow((void **)&r->band_group, &r->band_group_cap, r->nbands + 1,
                  sizeof *r->band_group) < 0 ||
        view_grow((void **)&r->band_track, &r->band_track_cap, r->nbands + 1,
                  sizeof *r->band_track) < 0)
        return -1;
    r->bands[r->nbands] = row;
    r->band_track[r->nbands] = track;
    r->band_group[r->nbands++] = g;
    return 0;
}

/* The shown tracks, first: blank bands of a group of no name (kept after
 * the real groups, so that group indexes stay those of the rows). */
static int push_tracks(view_app *a)
{
    view_rows *r = &a->rows;
    tracks_refresh(a);
    if (view_grow((void **)&r->groups, &r->groups_cap, r->ngroups + 1, sizeof *r->groups) < 0)
        return -1;
    r->groups[r->ngroups] = (view_group){"", 0, 0, 0, 0}; /* not counted in ngroups */
    for (size_t i = 0; i < a->tracks.n; i++)
        if (tracks_shown(a, i) && push_band(r, TLV_VIEW_ROW_BLANK, r->ngroups, (long)i) < 0)
            return -1;
    return 0;
}

void rows_refresh(view_app *a)
{
    view_rows *r = &a->rows;
    r->built = 0;
    r->nbands = 0;
    if (!a->shapes || find_groups(r, a->shapes) < 0 || order_rows(r, a->shapes) < 0 ||
        push_band(r, 0, 0, -1) < 0)
        return; /* without the list, every row is drawn */
    r->nbands = 0;
    if (push_tracks(a) < 0)
        return;
    for (size_t k = 0; k < r->ngroups; k++) {
        const view_group *g = &r->groups[k];
        if (!g->shown)
            continue;
        if (rows_is_collapsed(r, g)) {
            if (push_band(r, TLV_VIEW_ROW_BLANK, k, -1) < 0)
                return;
            continue;
        }
        for (size_t pos = g->first; pos < g->first + g->count; pos++) {
            size_t row = rows_at(r, pos);
            if (!set_has(&r->hidden_rows, rows_key(a->shapes, row)) && push_band(r, row, k, -1) < 0)
                return;
        }
    }
    r->built = 1;
}

const size_t *rows_list(const view_app *a, size_t *count)
{
    const view_rows *r = &a->rows;
    *count = r->built ? r->nbands : 0;
    return r->built ? r->bands : NULL;
}

size_t rows_band_count(const view_app *a)
{
    const view_rows *r = &a->rows;
    if (r->built)
        return r->nbands;
    return a->shapes ? tlv_shapes_row_count(a->shapes) : 0;
}

void rows_skip_rules(const view_app *a, const char *const **names, size_t *count)
{
    const view_rows *r = &a->rows;
    *names = (const char *const *)r->hidden_rules.v;
    *count = r->hidden_rules.n;
}

/* After a change of what is shown: new bands, textures redrawn, the
 * scroll position kept in range. */
void rows_changed(view_app *a)
{
    rows_refresh(a);
    a->shapes_gen++;
    int top = view_max_first_row(a);
    a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
    view_hover_update(a);
    view_dirty(a);
}

/* ---- changes ---------------------------------------------------------------------------- */

void rows_toggle_group(view_app *a, size_t k)
{
    view_rows *r = &a->rows;
    const view_group *g = &r->groups[k];
    int now = set_toggle(&r->collapsed, g->name);
    view_message(a, "group %s %s", g->name, now ? "collapsed" : "expanded");
    rows_changed(a);
}

void rows_toggle_rule(view_app *a, const char *name)
{
    view_rows *r = &a->rows;
    char *keep = strdup(name); /* name lives in the shapes about to be replaced */
    if (!keep)
        return;
    int hidden = set_toggle(&r->hidden_rules, keep);
    if (view_build_shapes(a, a->per_cpu) < 0)
        set_toggle(&r->hidden_rules, keep); /* the old shapes are kept: undo */
    else
        view_message(a, "rule %s %s", keep, hidden ? "hidden" : "shown");
    free(keep);
}

void rows_toggle_group_rows(view_app *a, size_t k)
{
    view_rows *r = &a->rows;
    const view_group *g = &r->groups[k];
    int show = g->shown < g->count;
    for (size_t row = g->first; row < g->first + g->count; row++) {
        if (show)
            set_remove(&r->hidden_rows, rows_key(a->shapes, row));
        else
            set_add(&r->hidden_rows, rows_key(a->shapes, row));
    }
    view_message(a, "rows of %s %s", g->name, show ? "shown" : "hidden");
    rows_changed(a);
}

void rows_move(view_app *a, size_t row, int dir)
{
    view_rows *r = &a->rows;
    size_t n = a->shapes ? tlv_shapes_row_count(a->shapes) : 0, pos = 0;
    while (pos < n && rows_at(r, pos) != row)
        pos++;
    for (size_t k = 0; pos < n && r->perm && k < r->ngroups; k++) {
        const view_group *g = &r->groups[k];
        if (pos < g->first || pos >= g->first + g->count)
            continue;
        size_t to = dir < 0 ? pos - 1 : pos + 1;
        if ((dir < 0 && pos == g->first) || to >= g->first + g->count)
            return; /* already the first (last) of its group */
        r->perm[pos] = r->perm[to];
        r->perm[to] = row;
        set_free(&r->order); /* the order kept is the one shown now */
        for (size_t i = 0; i < n; i++)
            set_add(&r->order, rows_key(a->shapes, r->perm[i]));
        view_message(a, "row %s moved %s", rows_key(a->shapes, row), dir < 0 ? "up" : "down");
        rows_changed(a);
        return;
    }
}

/* ---- JSON ------------------------------------------------------------------------------ */

static cJSON *names_json(const name_set *s)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; i < s->n; i++)
        json_push(arr, cJSON_CreateString(s->v[i]));
    return arr;
}

void rows_state_json(const view_app *a, struct cJSON *o)
{
    const view_rows *r = &a->rows;
    json_put(o, "hidden_rows", names_json(&r->hidden_rows));
    json_put(o, "hidden_rules", names_json(&r->hidden_rules));
    json_put(o, "collapsed_groups", names_json(&r->collapsed));
    json_put(o, "row_order", names_json(&r->order));
}

static cJSON *bands_json(const view_app *a)
{
    const view_rows *r = &a->rows;
    cJSON *arr = cJSON_CreateArray();
    for (size_t p = 0; r->built && p < r->nbands; p++) {
        cJSON *b = cJSON_CreateObject();
        const view_group *g = &r->groups[r->band_group[p]];
        if (r->band_track[p] >= 0) {
            cJSON_AddStringToObject(b, "track", a->tracks.v[r->band_track[p]].label);
        } else if (r->bands[p] == TLV_VIEW_ROW_BLANK) {
            cJSON_AddStringToObject(b, "collapsed", g->name);
            cJSON_AddNumberToObject(b, "rows", (double)g->shown);
        } else {
            cJSON_AddNumberToObject(b, "row", (double)r->bands[p]);
            cJSON_AddStringToObject(b, "label", rows_label(a->shapes, r->bands[p]));
        }
        cJSON_AddStringToObject(b, "group", g->name);
        json_push(arr, b);
    }
    return arr;
}

void rows_dump_json(const view_app *a, struct cJSON *o)
{
    json_put(o, "bands", bands_json(a));
}

static void read_names(const cJSON *arr, name_set *s)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
        if (cJSON_IsString(it))
            set_add(s, it->valuestring);
}

void rows_session_read(view_app *a, const struct cJSON *o)
{
    view_rows *r = &a->rows;
    if (!o)
        return;
    read_names(cJSON_GetObjectItemCaseSensitive(o, "hidden_rows"), &r->hidden_rows);
    read_names(cJSON_GetObjectItemCaseSensitive(o, "hidden_rules"), &r->hidden_rules);
    read_names(cJSON_GetObjectItemCaseSensitive(o, "collapsed_groups"), &r->collapsed);
    read_names(cJSON_GetObjectItemCaseSensitive(o, "row_order"), &r->order);
}
