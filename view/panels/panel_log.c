/*
 * panel_log.c — the trace-log panel (key l): the trace's standard-form lines
 * ("[1926099]LOGTASK.state=RUNNING", tlv_event_format) in a band along the
 * bottom, above the overview. It follows the timeline: the cursor over the
 * timeline highlights the last event at or before its time and scrolls it
 * into view; a double-click on a line centres the timeline on that event;
 * a double-click on a shape finds the event at the shape's start on its
 * resource (tlv_trace_seek); every jump (a search's match, n/N, g, a marker,
 * a line of a list) highlights its event's line. The wheel scrolls it.
 *
 * Only the lines in view are formatted, each frame, so a trace of millions
 * of events costs no more than a small one; finding a time's line is a
 * binary search.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOG_LINES 8             /* the panel's height in lines */
#define WHEEL_LINES 3           /* lines a wheel notch scrolls */
#define MAX_LINE 300            /* bytes of a line drawn; the rest is cut */
#define C_BG 0xFFFFFFu
#define C_PANEL 0xF0F0F0u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_HIGHLIGHT 0xFFE2A8u

typedef struct log_panel {
    view_panel base;
    int shown;
    size_t first;               /* the top line */
    long highlighted;           /* an event index, or -1 */
} log_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static size_t event_count(const view_app *a) { return a->trace ? tlv_trace_event_count(a->trace) : 0; }

static int line_height(const view_app *a) { return view_text_height(a->text) + scaled(a, 2); }

/* The panel's strip. */
static const SDL_Rect *area(const log_panel *l, const view_areas *ar)
{
    return view_panel_area(ar, &l->base);
}

/* The top of the first line below the panel's border. */
static int lines_top(const log_panel *l, const view_app *a, const view_areas *ar)
{
    return area(l, ar)->y + scaled(a, 3);
}

static int strip_height(view_panel *p, const view_app *a, int avail)
{
    if (!((log_panel *)p)->shown)
        return 0;
    int h = LOG_LINES * line_height(a) + scaled(a, 5);
    return h > avail / 2 ? avail / 2 : h;
}

static long visible_lines(const log_panel *l, const view_app *a, const view_areas *ar)
{
    const SDL_Rect *r = area(l, ar);
    long n = (r->y + r->h - lines_top(l, a, ar)) / (line_height(a) > 0 ? line_height(a) : 1);
    return n > 0 ? n : 0;
}

/* first within [0, count - visible]. */
static void clamp_first(log_panel *l, view_app *a, long first)
{
    view_areas ar;
    view_areas_of(a, &ar);
    long top = (long)event_count(a) - visible_lines(l, a, &ar);
    first = first > top ? top : first;
    l->first = first > 0 ? (size_t)first : 0;
}

/* Highlights event i and scrolls it to the middle unless it is in view. */
static void show_event(log_panel *l, view_app *a, long i)
{
    view_areas ar;
    view_areas_of(a, &ar);
    long vis = visible_lines(l, a, &ar);
    l->highlighted = i;
    if (i >= 0 && (i < (long)l->first || i >= (long)l->first + vis))
        clamp_first(l, a, i - vis / 2);
    view_dirty(a);
}

static void show_jump(log_panel *l, view_app *a);

/* Opened after a jump (a search's match, a marker...), it shows that line. */
static void toggle(log_panel *l, view_app *a)
{
    l->shown = !l->shown;
    int top = view_max_first_row(a); /* the timeline got shorter or taller */
    a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
    if (l->shown)
        clamp_first(l, a, (long)l->first);
    if (l->shown && a->jump_event >= 0)
        show_jump(l, a);
    view_hover_update(a);
    view_dirty(a);
}

static double event_time(const view_app *a, size_t i)
{
    tlv_event e;
    tlv_trace_event(a->trace, i, &e);
    return tlv_time_to_double(e.time, a->radix);
}

/* The last event at or before time t, or -1 when every event is later. */
static long event_at_or_before(const view_app *a, double t)
{
    size_t lo = 0, hi = event_count(a);
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (event_time(a, mid) <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (long)lo - 1;
}

static void follow(log_panel *l, view_app *a)
{
    if (!l->shown || a->drag != DRAG_NONE || !input_over_timeline(a, a->mx, a->my))
        return;
    show_event(l, a, event_at_or_before(a, input_time_at(a, a->mx)));
}

/* A jump elsewhere (a search's match, n/N, g, a marker): its event's line,
 * or the line of the last event at or before its time. */
static void show_jump(log_panel *l, view_app *a)
{
    if (!l->shown)
        return;
    long i = a->jump_event >= 0 && (size_t)a->jump_event < event_count(a)
                 ? a->jump_event
                 : event_at_or_before(a, a->jump_time);
    show_event(l, a, i < 0 && event_count(a) ? 0 : i);
}

static void show_shape(log_panel *l, view_app *a)
{
    const view_hover *h = &a->hover;
    size_t n = event_count(a);
    if (!h->valid || !n)
        return;
    size_t i = tlv_trace_seek(a->trace, h->start), found = i < n ? i : n - 1;
    for (size_t j = i; j < n; j++) { /* the events at that time: the shape's resource's */
        tlv_event e;
        tlv_trace_event(a->trace, j, &e);
        if (tlv_time_cmp(e.time, h->start) != 0)
            break;
        if (h->resource[0] && e.resource && strcmp(e.resource, h->resource) == 0) {
            found = j;
            break;
        }
    }
    show_event(l, a, (long)found);
}

static int over_log(const log_panel *l, const view_app *a, double x, double y, view_areas *ar)
{
    view_areas_of(a, ar);
    const SDL_Rect *r = area(l, ar);
    return l->shown && r->h > 0 && x >= 0 && x < r->w && y >= r->y && y < r->y + r->h;
}

static int press(view_panel *p, view_app *a, double x, double y, int button, int clicks)
{
    log_panel *l = (log_panel *)p;
    view_areas ar;
    if (!over_log(l, a, x, y, &ar))
        return 0;
    long i = (long)l->first + (long)floor((y - lines_top(l, a, &ar)) / line_height(a));
    if (button != SDL_BUTTON_LEFT || y < lines_top(l, a, &ar) || i >= (long)event_count(a) ||
        i - (long)l->first >= visible_lines(l, a, &ar))
        return 1;
    l->highlighted = i;
    if (clicks >= 2) { /* go to the event */
        nav_begin(&a->nav, NAV_JUMP);
        nav_center(&a->nav, event_time(a, (size_t)i));
        view_reveal_event_row(a, (size_t)i); /* and its row, where it is drawn */
        view_message(a, "event %ld", i + 1);
    }
    view_dirty(a);
    return 1;
}

static int wheel(view_panel *p, view_app *a, double x, double y, double notches)
{
    log_panel *l = (log_panel *)p;
    view_areas ar;
    if (!over_log(l, a, x, y, &ar))
        return 0;
    clamp_first(l, a, (long)l->first - lround(notches * WHEEL_LINES));
    return 1;
}

/* ---- drawing ------------------------------------------------------------------------ */

static void fill(view_app *a, int x, int y, int w, int h, uint32_t rgb)
{
    SDL_SetRenderDrawBlendMode(a->ren, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(a->ren, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 255);
    SDL_Rect rc = {x, y, w, h};
    SDL_RenderFillRect(a->ren, &rc);
}

/* Event i's standard-form line, cut at a character boundary. */
static void format_line(const view_app *a, size_t i, char *buf, size_t size)
{
    tlv_event e;
    tlv_trace_event(a->trace, i, &e);
    size_t n = view_event_text(a, &e, buf, size);
    if (n >= size) { /* cut: end on a whole character, with an ellipsis */
        size_t k = size - 4;
        while (k > 0 && ((unsigned char)buf[k] & 0xC0) == 0x80)
            k--;
        memcpy(buf + k, "...", 4);
    }
}

static void draw_log(const log_panel *l, view_app *a, const view_areas *ar)
{
    const SDL_Rect *r = area(l, ar);
    if (!l->shown || r->h <= 0)
        return;
    int lh = line_height(a), top = lines_top(l, a, ar), tx = ar->label_w + scaled(a, 6);
    fill(a, r->x, r->y, r->w, r->h, C_BG);
    fill(a, 0, r->y, ar->label_w - 1, r->h, C_PANEL);
    fill(a, ar->label_w - 1, r->y, 1, r->h, C_BORDER);
    fill(a, 0, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER);
    SDL_Rect clip = *r;
    SDL_RenderSetClipRect(a->ren, &clip);
    char count[64];
    snprintf(count, sizeof count, "%zu events", event_count(a));
    view_text_draw(a->text, "Trace log (l)", scaled(a, 6), top, C_DIM);
    view_text_draw(a->text, count, scaled(a, 6), top + lh, C_DIM);
    long vis = visible_lines(l, a, ar);
    for (long k = 0; k < vis && l->first + (size_t)k < event_count(a); k++) {
        size_t i = l->first + (size_t)k;
        char line[MAX_LINE + 4];
        format_line(a, i, line, sizeof line);
        if ((long)i == l->highlighted)
            fill(a, ar->label_w, top + (int)k * lh, r->w - ar->label_w, lh, C_HIGHLIGHT);
        view_text_draw(a->text, line, tx, top + (int)k * lh + scaled(a, 1), C_TEXT);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

/* ---- JSON ------------------------------------------------------------------------------ */

static void save(view_panel *p, const view_app *a, struct cJSON *o)
{
    (void)a;
    cJSON_AddBoolToObject(o, "log_panel", ((log_panel *)p)->shown);
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    const log_panel *l = (log_panel *)p;
    view_areas ar;
    view_areas_of(a, &ar);
    cJSON *j = cJSON_AddObjectToObject(o, "log");
    cJSON_AddBoolToObject(j, "shown", l->shown);
    cJSON_AddNumberToObject(j, "events", (double)event_count(a));
    cJSON_AddNumberToObject(j, "first_line", (double)l->first);
    if (l->highlighted >= 0)
        cJSON_AddNumberToObject(j, "highlighted", (double)l->highlighted);
    else
        cJSON_AddNullToObject(j, "highlighted");
    if (!l->shown)
        return;
    long vis = visible_lines(l, a, &ar);
    cJSON_AddNumberToObject(j, "y", area(l, &ar)->y);
    cJSON_AddNumberToObject(j, "height", area(l, &ar)->h);
    cJSON_AddNumberToObject(j, "lines_top", lines_top(l, a, &ar));
    cJSON_AddNumberToObject(j, "line_height", line_height(a));
    cJSON_AddNumberToObject(j, "visible_lines", (double)vis);
    cJSON *lines = cJSON_AddArrayToObject(j, "lines");
    for (long k = 0; k < vis && l->first + (size_t)k < event_count(a); k++) {
        char line[MAX_LINE + 4];
        format_line(a, l->first + (size_t)k, line, sizeof line);
        json_push(lines, cJSON_CreateString(line));
    }
}

static void load(view_panel *p, view_app *a, const struct cJSON *o)
{
    (void)a;
    ((log_panel *)p)->shown = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "log_panel"));
}

/* ---- the panel's hooks ------------------------------------------------------------------- */

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v;
    if (layer == VIEW_LAYER_PANEL)
        draw_log((log_panel *)p, a, ar);
}

static void toggle_key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    toggle((log_panel *)p, a);
}

/* Shift+L is the legend's. */
static const view_key keys[] = {
    {SDLK_l, VIEW_KEYS_PLAIN | VIEW_KEYS_CTRL | VIEW_KEYS_CTRL_SHIFT, "l: trace-log panel", toggle_key},
    {0, 0, "log: double-click a line to go there    double-click a shape: its event in the log", NULL},
    {0, 0, "the log panel follows every jump    wheel over a panel: scroll it", NULL},
};

static void note(view_panel *p, view_app *a, view_note what)
{
    if (what == VIEW_NOTE_POINTER)
        follow((log_panel *)p, a);
    else if (what == VIEW_NOTE_OPEN_SHAPE)
        show_shape((log_panel *)p, a);
    else if (what == VIEW_NOTE_JUMP)
        show_jump((log_panel *)p, a);
    else if (what == VIEW_NOTE_EVENT)
        show_event((log_panel *)p, a, a->focus_event);
}

view_panel *log_panel_new(void)
{
    log_panel *l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    l->highlighted = -1;
    l->base = (view_panel){.name = "log", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press, .wheel = wheel,
                           .strip_height = strip_height, .note = note, .save = save, .load = load,
                           .dump = dump};
    return &l->base;
}
