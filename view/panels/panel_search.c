/*
 * panel_search.c — the / key's search through the trace's events. Each event
 * is matched as the text RESOURCE.attribute=value or RESOURCE.behavior(args)
 * (so a query can name a resource, an attribute or behavior, a value or an
 * argument, or a piece of the whole): plain text matches anywhere, ignoring
 * ASCII case; text written /like this/ is a PCRE2 regular expression
 * (/like this/i ignores case). Every match is found at once, so that the
 * status line can say "match 3/17"; Enter shows the first at or after the
 * cursor (or the view's start), n and N the next and previous, wrapping
 * around. The view is centred on the match, keeping its zoom, and the match
 * is highlighted: a line at its time and its resource's row outlined. A
 * search also opens the results list, a band along the bottom: each match's
 * time, row and event (the first RESULTS_CAP, with the total), the current
 * one highlighted; a click on a line goes there, the wheel scrolls it, its
 * x button or Esc closes it.
 */
#include "view/view.h"

#include <cjson/cJSON.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define C_MATCH 0xE4007Cu /* a magenta no marker, selection or shape rule uses */
#define EVENT_TEXT 4096   /* longer events are matched on their first 4 KB */
#define RESULTS_CAP 1000  /* matches listed at most */
#define LIST_LINES 7      /* the results band's height in lines */
#define C_BG 0xFFFFFFu
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_CURRENT 0xFBD3EAu

/* The last search and where in its matches the view is. */
typedef struct view_search {
    view_panel base;
    char query[256];            /* as typed ("" before the first search) */
    int regex;                  /* typed /like this/ */
    size_t *matches;            /* indices of the matching events, in trace order */
    size_t count, cap;
    long current;               /* index in matches of the highlighted one, or -1 */
    double time;                /* its time */
    char text[240];             /* it as "[time unit] RES.attr=value" */
    int list_shown;             /* the results list */
    size_t list_first;          /* its top line */
} view_search;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

/* ---- matching ----------------------------------------------------------------------- */

static void add(char *buf, size_t size, size_t *len, const char *s)
{
    while (s && *s && *len + 1 < size)
        buf[(*len)++] = *s++;
    buf[*len] = '\0';
}

/* The event as RES.name=value or RES.name(a,b), unescaped, cut to size. */
static void event_text(const tlv_event *e, char *buf, size_t size)
{
    size_t len = 0;
    add(buf, size, &len, e->resource);
    add(buf, size, &len, ".");
    add(buf, size, &len, e->name);
    if (e->kind == TLV_EVENT_ATTRIBUTE) {
        add(buf, size, &len, "=");
        add(buf, size, &len, e->value);
        return;
    }
    add(buf, size, &len, "(");
    for (size_t i = 0; i < e->nargs; i++) {
        add(buf, size, &len, i ? "," : "");
        add(buf, size, &len, e->args[i]);
    }
    add(buf, size, &len, ")");
}

/* ASCII case-insensitive substring search. */
static int contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++) {
        size_t i = 0;
        while (i < n && hay[i] && tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
            i++;
        if (i == n)
            return 1;
    }
    return n == 0;
}

typedef struct matcher {
    const char *text;           /* plain text, or NULL */
    pcre2_code *re;
    pcre2_match_data *md;
} matcher;

/* "/re/" or "/re/i" into a compiled expression; anything else is text.
 * Returns 0, or -1 with the reason in the message. */
static int matcher_init(view_app *a, const char *query, matcher *m)
{
    size_t len = strlen(query);
    memset(m, 0, sizeof *m);
    int caseless = len >= 3 && query[0] == '/' && strcmp(query + len - 2, "/i") == 0;
    if (!(len >= 2 && query[0] == '/' && (query[len - 1] == '/' || caseless))) {
        m->text = query;
        return 0;
    }
    size_t body = len - 2 - (size_t)caseless;
    if (body == 0) {
        view_message(a, "the regular expression between the slashes is empty");
        return -1;
    }
    int err;
    PCRE2_SIZE off;
    m->re = pcre2_compile((PCRE2_SPTR)query + 1, body, caseless ? PCRE2_CASELESS : 0, &err, &off, NULL);
    if (!m->re) {
        char msg[160];
        pcre2_get_error_message(err, (PCRE2_UCHAR *)msg, sizeof msg);
        view_message(a, "bad regular expression %s: %s at offset %zu", query, msg, (size_t)off);
        return -1;
    }
    pcre2_jit_compile(m->re, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
    m->md = pcre2_match_data_create_from_pattern(m->re, NULL);
    if (!m->md) {
        pcre2_code_free(m->re);
        view_message(a, "out of memory");
        return -1;
    }
    return 0;
}

static int matcher_match(const matcher *m, const char *s)
{
    if (m->text)
        return contains_nocase(s, m->text);
    return pcre2_match(m->re, (PCRE2_SPTR)s, strlen(s), 0, 0, m->md, NULL) >= 0;
}

static void matcher_free(matcher *m)
{
    pcre2_match_data_free(m->md);
    pcre2_code_free(m->re);
}

static int push(view_search *s, size_t i)
{
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 256;
        size_t *v = realloc(s->matches, cap * sizeof *v);
        if (!v)
            return -1;
        s->matches = v;
        s->cap = cap;
    }
    s->matches[s->count++] = i;
    return 0;
}

/* ---- showing a match ----------------------------------------------------------------- */

static double event_time(const view_search *s, const view_app *a, size_t match)
{
    tlv_event e;
    tlv_trace_event(a->trace, s->matches[match], &e);
    return tlv_time_to_double(e.time, a->radix);
}

/* The row of the current match: its resource's, or in per-CPU mode the one
 * under the processor it was on then (a task that migrated has several). */
static long match_row(const view_search *s, const view_app *a)
{
    if (s->current < 0 || (size_t)s->current >= s->count || !a->shapes)
        return -1;
    tlv_event e;
    tlv_trace_event(a->trace, s->matches[s->current], &e);
    return view_resource_row(a, e.resource, e.time);
}

static void list_reveal(view_search *s, const view_app *a, long i);

static void show(view_search *s, view_app *a, long i, int wrapped)
{
    tlv_event e;
    tlv_trace_event(a->trace, s->matches[i], &e);
    char time[160], text[EVENT_TEXT];
    view_exact_text(a, e.time, time, sizeof time);
    event_text(&e, text, sizeof text);
    s->current = i;
    s->time = tlv_time_to_double(e.time, a->radix);
    size_t len = 0; /* "[time unit] text", cut: the status line is narrower anyway */
    add(s->text, sizeof s->text, &len, "[");
    add(s->text, sizeof s->text, &len, time);
    add(s->text, sizeof s->text, &len, "] ");
    add(s->text, sizeof s->text, &len, text);
    nav_begin(&a->nav, NAV_JUMP);
    nav_center(&a->nav, s->time);
    view_reveal_event_row(a, s->matches[i]);
    view_jumped(a, s->time, (long)s->matches[i]);
    list_reveal(s, a, i);
    view_message(a, "%smatch %ld/%zu: %s", wrapped ? "search wrapped; " : "", i + 1, s->count, s->text);
    view_hover_update(a);
}

/* The first match at or after t (dir > 0), or the last at or before it;
 * wrapping around (and saying so) when there is none that way. */
static void show_from(view_search *s, view_app *a, double t, int dir)
{
    long n = (long)s->count;
    long i;
    if (dir > 0) {
        for (i = 0; i < n && event_time(s, a, (size_t)i) < t; i++)
            ;
        show(s, a, i < n ? i : 0, i == n);
    } else {
        for (i = n - 1; i >= 0 && event_time(s, a, (size_t)i) > t; i--)
            ;
        show(s, a, i >= 0 ? i : n - 1, i < 0);
    }
}

/* Where a search starts: the time under the cursor, else the view's start. */
static double start_time(const view_app *a)
{
    return input_over_timeline(a, a->mx, a->my) ? input_time_at(a, a->mx) : a->nav.t0;
}

/* ---- the search ---------------------------------------------------------------------- */

/* Enter in the "Search:" prompt: searches the events for `query` (a
 * substring, or /regex/) and shows the first match at or after the cursor
 * (or the view's start). Returns 0, or -1 when the query is bad (the message
 * says why). No match is not an error. */
/* Every event matching `query` into s->matches. Returns 0, -1 for a bad
 * query (the message says why) or -2 when memory ran out. */
static int find_all(view_search *s, view_app *a, const char *query)
{
    matcher m;
    if (matcher_init(a, query, &m) < 0)
        return -1;
    s->count = 0;
    s->current = -1;
    s->regex = m.text == NULL;
    size_t n = a->trace ? tlv_trace_event_count(a->trace) : 0;
    char *text = malloc(EVENT_TEXT);
    int nomem = !text;
    for (size_t i = 0; !nomem && i < n; i++) {
        tlv_event e;
        tlv_trace_event(a->trace, i, &e);
        event_text(&e, text, EVENT_TEXT);
        nomem = matcher_match(&m, text) && push(s, i) < 0;
    }
    free(text);
    matcher_free(&m);
    if (nomem)
        s->count = 0;
    return nomem ? -2 : 0;
}

static int run(view_app *a, void *user, const char *query)
{
    view_search *s = user;
    if (!*query) {
        view_message(a, "type the text to search for, or /a regular expression/");
        return -1;
    }
    int rc = find_all(s, a, query);
    if (rc == -1)
        return -1;
    snprintf(s->query, sizeof s->query, "%s", query);
    s->list_shown = 1;
    s->list_first = 0;
    if (rc < 0)
        view_message(a, "out of memory searching for '%s'", query);
    else if (s->count == 0)
        view_message(a, "no event matches '%s'", query);
    else
        show_from(s, a, start_time(a), 1);
    return 0;
}

/* n and N: the next (dir > 0) or previous match, wrapping. */
static void step(view_search *s, view_app *a, int dir)
{
    if (!s->query[0])
        view_message(a, "nothing searched yet (/ searches)");
    else if (s->count == 0)
        view_message(a, "no event matches '%s'", s->query);
    else if (s->current < 0)
        show_from(s, a, start_time(a), dir);
    else if (dir > 0)
        show(s, a, s->current + 1 < (long)s->count ? s->current + 1 : 0, s->current + 1 == (long)s->count);
    else
        show(s, a, s->current > 0 ? s->current - 1 : (long)s->count - 1, s->current == 0);
}


/* ---- the highlight ---------------------------------------------------------------------- */

/* The highlight: a line at the match's time, its resource's row outlined. */
static void draw_match(const view_search *s, view_app *a, const tlv_view *v)
{
    if (s->current < 0 || (size_t)s->current >= s->count)
        return;
    int t = scaled(a, 2) > 2 ? scaled(a, 2) : 2;
    tlv_view_layout l;
    tlv_view_get_layout(v, a->shapes, &l);
    long row = match_row(s, a);
    double top, height; /* its band, wherever tracks and hidden or moved rows put it */
    if (row >= 0 && view_row_band(a, v, (size_t)row, &top, &height) &&
        top + height > l.ruler_height && top < v->height) {
        int y = (int)floor(top);
        int h = (int)floor(height), w = v->width;
        view_fill(a, 0, y, w, t, C_MATCH, 255);
        view_fill(a, 0, y + h - t, w, t, C_MATCH, 255);
        view_fill(a, 0, y, t, h, C_MATCH, 255);
        view_fill(a, w - t, y, t, h, C_MATCH, 255);
    }
    double x = tlv_view_x(v, s->time);
    if (x >= l.label_width && x < v->width)
        view_fill(a, (int)floor(x), 0, t, v->height, C_MATCH, 255);
}

/* ---- the results list -------------------------------------------------------------------- */

static int line_height(const view_app *a) { return view_text_height(a->text) + scaled(a, 2); }

static size_t listed(const view_search *s) { return s->count < RESULTS_CAP ? s->count : RESULTS_CAP; }

static int list_open(const view_search *s) { return s->list_shown && s->query[0]; }

static int strip_height(view_panel *p, const view_app *a, int avail)
{
    if (!list_open((view_search *)p))
        return 0;
    int h = LIST_LINES * line_height(a) + scaled(a, 6);
    return h > avail / 3 ? avail / 3 : h;
}

static const SDL_Rect *list_area(const view_search *s, const view_app *a, view_areas *ar)
{
    view_areas_of(a, ar);
    return view_panel_area(ar, &s->base);
}

static int list_top(const view_app *a, const SDL_Rect *r)
{
    return r->y + scaled(a, 4) + line_height(a); /* under the title line */
}

static size_t list_visible(const view_app *a, const SDL_Rect *r)
{
    int n = (r->y + r->h - list_top(a, r)) / line_height(a);
    return n > 0 ? (size_t)n : 0;
}

static SDL_Rect close_box(const view_app *a, const SDL_Rect *r)
{
    int b = line_height(a) - scaled(a, 2);
    return (SDL_Rect){r->x + r->w - b - scaled(a, 4), r->y + scaled(a, 4), b, b};
}

/* Scrolls the list so that match i is in it. */
static void list_reveal(view_search *s, const view_app *a, long i)
{
    view_areas ar;
    const SDL_Rect *r = list_area(s, a, &ar);
    size_t vis = list_visible(a, r);
    if (i < 0 || (size_t)i >= listed(s) || !vis)
        return;
    if ((size_t)i < s->list_first || (size_t)i >= s->list_first + vis)
        s->list_first = (size_t)i > vis / 2 ? (size_t)i - vis / 2 : 0;
}

/* Match i's cells: its time, its row's label (or its resource), its text. */
static void result_cells(const view_search *s, const view_app *a, size_t i, char *time,
                         size_t tsize, char *row, size_t rsize, char *text, size_t xsize)
{
    tlv_event e;
    tlv_trace_event(a->trace, s->matches[i], &e);
    /* exact: matches are often close together */
    view_exact_text(a, e.time, time, tsize);
    snprintf(row, rsize, "%s", e.resource);
    size_t n = a->shapes ? tlv_shapes_row_count(a->shapes) : 0;
    for (size_t r = 0; r < n; r++) {
        tlv_row_info info;
        tlv_shapes_row(a->shapes, r, &info);
        if (info.resource && strcmp(info.resource, e.resource) == 0) {
            snprintf(row, rsize, "%s", info.label);
            break;
        }
    }
    event_text(&e, text, xsize);
}

static void draw_list(view_search *s, view_app *a, const view_areas *ar)
{
    const SDL_Rect *r = view_panel_area(ar, &s->base);
    if (!list_open(s) || r->h <= 0)
        return;
    int lh = line_height(a), pad = scaled(a, 6);
    view_fill(a, r->x, r->y, r->w, r->h, C_BG, 255);
    view_fill(a, r->x, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    SDL_Rect clip = *r;
    SDL_RenderSetClipRect(a->ren, &clip);
    char title[400];
    if (s->count > listed(s))
        snprintf(title, sizeof title, "Search results: %zu matches for '%s' (the first %d listed)"
                 "   click a line to go there   n/N next/previous   Esc closes", s->count, s->query,
                 RESULTS_CAP);
    else
        snprintf(title, sizeof title, "Search results: %zu match%s for '%s'   click a line to go "
                 "there   n/N next/previous   Esc closes", s->count, s->count == 1 ? "" : "es",
                 s->query);
    view_text_draw(a->text, title, r->x + pad, r->y + scaled(a, 4), C_DIM);
    SDL_Rect cb = close_box(a, r);
    view_fill(a, cb.x, cb.y, cb.w, cb.h, 0xE0E0E0, 255);
    view_text_draw(a->text, "x", cb.x + (cb.w - view_text_width(a->text, "x")) / 2, cb.y, C_TEXT);
    size_t vis = list_visible(a, r), n = listed(s);
    if (s->list_first + vis > n)
        s->list_first = n > vis ? n - vis : 0;
    int x_row = r->x + pad + r->w / 8, x_text = r->x + pad + r->w * 3 / 10;
    for (size_t k = 0; k < vis && s->list_first + k < n; k++) {
        size_t i = s->list_first + k;
        int y = list_top(a, r) + (int)k * lh;
        if ((long)i == s->current)
            view_fill(a, r->x, y, r->w, lh, C_CURRENT, 255);
        char time[200], row[128], text[300];
        result_cells(s, a, i, time, sizeof time, row, sizeof row, text, sizeof text);
        SDL_Rect c1 = {r->x, y, x_row - r->x - pad, lh}, c2 = {x_row, y, x_text - x_row - pad, lh};
        SDL_RenderSetClipRect(a->ren, &c1);
        view_text_draw(a->text, time, r->x + pad, y + scaled(a, 1), C_TEXT);
        SDL_RenderSetClipRect(a->ren, &c2);
        view_text_draw(a->text, row, x_row, y + scaled(a, 1), C_TEXT);
        SDL_RenderSetClipRect(a->ren, &clip);
        view_text_draw(a->text, text, x_text, y + scaled(a, 1), C_TEXT);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

static int inside(const SDL_Rect *r, double x, double y)
{
    return x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static int press(view_panel *p, view_app *a, double x, double y, int button, int clicks)
{
    view_search *s = (view_search *)p;
    view_areas ar;
    const SDL_Rect *r = list_area(s, a, &ar);
    (void)clicks;
    if (!list_open(s) || !inside(r, x, y))
        return 0;
    SDL_Rect cb = close_box(a, r);
    if (button == SDL_BUTTON_LEFT && inside(&cb, x, y)) {
        s->list_shown = 0;
    } else if (button == SDL_BUTTON_LEFT && y >= list_top(a, r)) {
        size_t i = s->list_first + (size_t)((y - list_top(a, r)) / line_height(a));
        if (i < listed(s))
            show(s, a, (long)i, 0);
    }
    view_dirty(a);
    return 1;
}

static int wheel(view_panel *p, view_app *a, double x, double y, double notches)
{
    view_search *s = (view_search *)p;
    view_areas ar;
    if (!list_open(s) || !inside(list_area(s, a, &ar), x, y))
        return 0;
    long first = (long)s->list_first - (long)lround(notches * 3);
    s->list_first = first < 0 ? 0 : (size_t)first; /* the end is kept when drawing */
    view_dirty(a);
    return 1;
}

/* The list in dump-state: whether it shows, how many are listed, and the
 * lines in view with where to click them (window coordinates). */
static void dump_list(const view_search *s, const view_app *a, cJSON *o)
{
    cJSON *j = cJSON_AddObjectToObject(o, "search_results");
    cJSON_AddBoolToObject(j, "shown", list_open(s));
    cJSON_AddNumberToObject(j, "count", (double)s->count);
    cJSON_AddNumberToObject(j, "listed", (double)listed(s));
    if (!list_open(s))
        return;
    view_areas ar;
    const SDL_Rect *r = list_area(s, a, &ar);
    double k = a->px_w > 0 ? (double)a->win_w / a->px_w : 1;
    SDL_Rect cb = close_box(a, r);
    cJSON *c = cJSON_AddObjectToObject(j, "close");
    cJSON_AddNumberToObject(c, "x", (cb.x + cb.w / 2) * k);
    cJSON_AddNumberToObject(c, "y", (cb.y + cb.h / 2) * k);
    cJSON_AddNumberToObject(j, "first", (double)s->list_first);
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    size_t vis = list_visible(a, r), n = listed(s);
    for (size_t i = s->list_first; i < s->list_first + vis && i < n; i++) {
        char time[200], row[128], text[300];
        result_cells(s, a, i, time, sizeof time, row, sizeof row, text, sizeof text);
        cJSON *l = cJSON_CreateObject();
        cJSON_AddNumberToObject(l, "index", (double)i + 1);
        cJSON_AddStringToObject(l, "time", time);
        cJSON_AddStringToObject(l, "row", row);
        cJSON_AddStringToObject(l, "text", text);
        cJSON_AddNumberToObject(l, "event", (double)s->matches[i]);
        cJSON_AddNumberToObject(l, "y", (list_top(a, r) + (double)(i - s->list_first) * line_height(a) +
                                         line_height(a) / 2.0) * k);
        json_push(lines, l);
    }
}

/* ---- the panel's hooks ------------------------------------------------------------------- */

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    if (layer == VIEW_LAYER_TIMELINE)
        draw_match((view_search *)p, a, v);
    else if (layer == VIEW_LAYER_PANEL)
        draw_list((view_search *)p, a, ar);
}

/* /: the prompt; n and N: the next and previous match. */
static void ask(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    view_prompt_open(a, "Search:", NULL, run, p);
}

static void next(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)key;
    step((view_search *)p, a, mods & VIEW_MOD_SHIFT ? -1 : 1);
}

static const view_key keys[] = {
    {SDLK_SLASH, VIEW_KEYS_ANY, "/: search events (text, or /regex/)", ask},
    {SDLK_n, VIEW_KEYS_ANY, "n/N: next/previous match", next},
    {0, 0, "search results list: click a line to go there, x or Esc closes it", NULL},
};

/* The last search: its query, the number of matches, and the highlighted
 * one (index from 1, time, text, row) or nulls. */
static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    const view_search *s = (view_search *)p;
    dump_list(s, a, o);
    if (!s->query[0]) {
        cJSON_AddNullToObject(o, "search");
        return;
    }
    int cur = s->current >= 0 && (size_t)s->current < s->count;
    cJSON *j = cJSON_AddObjectToObject(o, "search");
    cJSON_AddStringToObject(j, "query", s->query);
    cJSON_AddBoolToObject(j, "regex", s->regex);
    cJSON_AddNumberToObject(j, "count", (double)s->count);
    json_put(j, "index", cur ? cJSON_CreateNumber((double)s->current + 1) : cJSON_CreateNull());
    json_put(j, "time", cur ? cJSON_CreateNumber(s->time) : cJSON_CreateNull());
    json_put(j, "text", cur ? cJSON_CreateString(s->text) : cJSON_CreateNull());
    long row = match_row(s, a);
    json_put(j, "row", row >= 0 ? cJSON_CreateNumber((double)row) : cJSON_CreateNull());
}

/* Esc: the highlight and the list go (the query stays for n and N). */
static void note(view_panel *p, view_app *a, view_note what)
{
    view_search *s = (view_search *)p;
    if (what == VIEW_NOTE_TRACE_CHANGED && s->query[0]) /* its matches were old event indexes */
        find_all(s, a, s->query);
    if (what == VIEW_NOTE_ESCAPE) {
        s->current = -1;
        s->list_shown = 0;
    }
}

static void destroy(view_panel *p)
{
    free(((view_search *)p)->matches);
    free(p);
}

view_panel *search_panel_new(void)
{
    view_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->current = -1;
    s->base = (view_panel){.name = "search", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press,
                           .wheel = wheel, .strip_height = strip_height, .dump = dump,
                           .note = note, .destroy = destroy};
    return &s->base;
}
