/*
 * panel_compare.c — `tlv view A --compare B` (issue 28.4): run B's timeline
 * as a band right under A's, on A's time axis. B's trace is loaded by the
 * command line (view_opts.compare_trace); here its shapes are built and
 * drawn by libtlv's renderer into a texture of the band's size, over A's
 * visible range shifted by the alignment offset (B's time = A's time +
 * offset): B's start lines up with A's, or, with --align-at EVENT, B's
 * first such event with A's; Shift+B aligns at the event that opened the
 * shape under the pointer (its n-th occurrence in A with the n-th in B).
 * B's rows come in the order of A's bands, paired by common/pairing.c's
 * keys (as tlv diff pairs actors: a thread's label without its ids) and
 * group: a row of A that B lacks is an empty band marked "only in A", B's
 * rows that A lacks come last, marked "only in B". A click on B's band
 * says in the status line what run B's shape there is.
 */
#include "view/view.h"
#include "view/view_panels.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define C_BORDER 0x286EDCu
#define C_TITLE 0x1F4FB4u
#define C_MARK 0xA05A00u
#define C_CURSOR 0x606060u

enum { PAIRED, ONLY_A, ONLY_B };

typedef struct compare_panel {
    view_panel base;            /* first: the hooks get &base */
    tlv_shapes *shapes;         /* B's */
    int shapes_per_cpu;
    tlv_renderer *ren;
    SDL_Texture *tex;
    int tw, th;
    tlv_view drawn;             /* what the texture holds (rows compared by `bands`) */
    unsigned drawn_gen;
    /* the bands: B's rows in A's order */
    size_t *bands;              /* B's rows, or TLV_VIEW_ROW_BLANK */
    unsigned char *mark;        /* per band: PAIRED, ONLY_A, ONLY_B */
    char **band_label;          /* per band: the row's label (for marks and the dump) */
    size_t nbands, cap;
    size_t *of_rows;            /* A's bands they were made for */
    size_t nof, of_cap;
    unsigned of_gen;            /* A's shapes_gen they were made for */
    unsigned bands_gen;         /* counts new bands: the texture is stale */
    /* the alignment */
    double offset;              /* B's time at A's time t is t + offset */
    int aligned;                /* 1: at --align-at's events (or Shift+B's), found in both */
    int align_pending;          /* --align-at waits for A to load */
    char align_text[200];       /* how it is aligned, for the title and dump-state */
    char clicked[400];          /* what the last click on B's band found */
} compare_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static const tlv_trace *trace_b(const view_app *a) { return a->opts.compare_trace; }

/* ---- pairing ------------------------------------------------------------------------- */

/* The key a row pairs by: its group and its resource's pairing key (its
 * label for a rule row). keys: the trace's pairing keys (pairing_keys). */
static void row_key(const tlv_shapes *s, const tlv_trace *t, char **keys, size_t row, char *buf,
                    size_t size)
{
    tlv_row_info i;
    tlv_shapes_row(s, row, &i);
    const char *key = i.resource ? i.resource : i.label ? i.label : "";
    for (size_t k = 0; i.resource && keys && k < tlv_trace_resource_count(t); k++)
        if (strcmp(tlv_trace_resource_name(t, k), i.resource) == 0) {
            key = keys[k];
            break;
        }
    snprintf(buf, size, "%s\n%s", i.group ? i.group : "", key);
}

static void free_bands(compare_panel *p)
{
    for (size_t i = 0; i < p->nbands; i++)
        free(p->band_label[i]);
    p->nbands = 0;
}

static int add_band(compare_panel *p, size_t row, int mark, const char *label)
{
    if (p->nbands == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 64;
        size_t *b = realloc(p->bands, cap * sizeof *b);
        if (b)
            p->bands = b;
        unsigned char *m = realloc(p->mark, cap);
        if (m)
            p->mark = m;
        char **l = realloc(p->band_label, cap * sizeof *l);
        if (l)
            p->band_label = l;
        if (!b || !m || !l)
            return -1;
        p->cap = cap;
    }
    char *copy = strdup(label);
    if (!copy)
        return -1;
    p->bands[p->nbands] = row;
    p->mark[p->nbands] = (unsigned char)mark;
    p->band_label[p->nbands++] = copy;
    return 0;
}

/* Pairs B's rows with A's bands `rows` (n of them). O(A's bands x B's rows). */
static int pair_rows(compare_panel *p, view_app *a, const size_t *rows, size_t n)
{
    free_bands(p);
    size_t nb = tlv_shapes_row_count(p->shapes);
    char **ka = pairing_keys(a->trace, 0), **kb = pairing_keys(trace_b(a), 0);
    char **bkey = calloc(nb + 1, sizeof *bkey);
    unsigned char *used = calloc(nb + 1, 1);
    int rc = ka && kb && bkey && used ? 0 : -1;
    char key[600];
    for (size_t r = 0; rc == 0 && r < nb; r++) {
        row_key(p->shapes, trace_b(a), kb, r, key, sizeof key);
        rc = (bkey[r] = strdup(key)) ? 0 : -1;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (rows[i] == TLV_VIEW_ROW_BLANK) { /* a collapsed group: a band there too */
            rc = add_band(p, TLV_VIEW_ROW_BLANK, PAIRED, "");
            continue;
        }
        row_key(a->shapes, a->trace, ka, rows[i], key, sizeof key);
        size_t r = 0;
        while (r < nb && (used[r] || strcmp(bkey[r], key) != 0))
            r++;
        if (r < nb)
            used[r] = 1;
        rc = add_band(p, r < nb ? r : TLV_VIEW_ROW_BLANK, r < nb ? PAIRED : ONLY_A,
                      rows_label(a->shapes, rows[i]));
    }
    for (size_t r = 0; rc == 0 && r < nb; r++)
        if (!used[r])
            rc = add_band(p, r, ONLY_B, rows_label(p->shapes, r));
    for (size_t r = 0; bkey && r < nb; r++)
        free(bkey[r]);
    free(bkey);
    free(used);
    pairing_keys_free(ka, tlv_trace_resource_count(a->trace));
    pairing_keys_free(kb, tlv_trace_resource_count(trace_b(a)));
    return rc;
}

/* B's shapes (again in per-CPU mode when A went per CPU) and the bands for
 * A's bands of view v; 0, or -1 when there is nothing to draw yet. */
static int update_bands(compare_panel *p, view_app *a, const tlv_view *v)
{
    if (!trace_b(a) || !a->trace || !a->shapes)
        return -1;
    if (!p->shapes || p->shapes_per_cpu != a->per_cpu) {
        tlv_shapes_free(p->shapes);
        p->shapes = NULL;
        tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
        o.cpu_attribute = a->per_cpu ? a->opts.cpu_attribute : NULL;
        if (tlv_shapes_build(trace_b(a), &o, &p->shapes) == TLV_ERR_NOMEM || !p->shapes) {
            view_message(a, "out of memory building the shapes of %s", a->opts.compare_path);
            return -1;
        }
        p->shapes_per_cpu = a->per_cpu;
        p->nof = (size_t)-1; /* pair anew */
    }
    size_t n = v->rows ? v->row_count : tlv_shapes_row_count(a->shapes);
    if (p->nof == n && p->of_gen == a->shapes_gen && v->rows &&
        memcmp(p->of_rows, v->rows, n * sizeof *v->rows) == 0)
        return 0;
    if (view_grow((void **)&p->of_rows, &p->of_cap, n + 1, sizeof *p->of_rows) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        p->of_rows[i] = v->rows ? v->rows[i] : i;
    if (pair_rows(p, a, p->of_rows, n) < 0) {
        view_message(a, "out of memory pairing the rows of %s", a->opts.compare_path);
        p->nof = (size_t)-1;
        return -1;
    }
    p->nof = n;
    p->of_gen = a->shapes_gen;
    p->bands_gen++;
    return 0;
}

/* ---- alignment ----------------------------------------------------------------------- */

/* An event as --align-at names it: RESOURCE.name=value, or RESOURCE.name
 * (any value, or a behavior); RESOURCE is a name or a pairing key. */
typedef struct event_spec {
    char res[256], name[128], value[256];
    int any_value;
} event_spec;

static int parse_spec(const char *s, event_spec *e)
{
    memset(e, 0, sizeof *e);
    const char *eq = strchr(s, '=');
    size_t head = eq ? (size_t)(eq - s) : strlen(s);
    const char *dot = NULL;
    for (const char *c = s; c < s + head; c++)
        if (*c == '.')
            dot = c;
    if (!dot || dot == s || dot + 1 == s + head)
        return -1;
    snprintf(e->res, sizeof e->res, "%.*s", (int)(dot - s), s);
    snprintf(e->name, sizeof e->name, "%.*s", (int)(s + head - dot - 1), dot + 1);
    e->any_value = !eq;
    if (eq)
        snprintf(e->value, sizeof e->value, "%s", eq + 1);
    return 0;
}

/* The index of the nth (0-based) event of t that matches e among its first
 * `limit` events; -1 when there are fewer. *seen (unless NULL) gets how many
 * matched before it (or in all). Resources match by name or by pairing key. */
static long find_event(const tlv_trace *t, const event_spec *e, size_t nth, size_t limit,
                       size_t *seen_out)
{
    size_t nres = tlv_trace_resource_count(t);
    char **keys = pairing_keys(t, 0);
    const char **names = calloc(nres + 1, sizeof *names); /* the resources that match */
    size_t nn = 0;
    for (size_t k = 0; names && k < nres; k++)
        if (strcmp(tlv_trace_resource_name(t, k), e->res) == 0 ||
            (keys && strcmp(keys[k], e->res) == 0))
            names[nn++] = tlv_trace_resource_name(t, k);
    long found = -1;
    size_t nev = tlv_trace_event_count(t), seen = 0;
    nev = nev < limit ? nev : limit;
    for (size_t i = 0; nn && i < nev && found < 0; i++) {
        tlv_event ev;
        tlv_trace_event(t, i, &ev);
        int res = 0;
        for (size_t k = 0; k < nn && !res; k++) /* interned: one name, one pointer */
            res = names[k] == ev.resource || strcmp(names[k], ev.resource) == 0;
        if (!res || strcmp(ev.name, e->name) != 0 ||
            (!e->any_value && (ev.kind != TLV_EVENT_ATTRIBUTE || strcmp(ev.value, e->value) != 0)))
            continue;
        if (seen == nth)
            found = (long)i;
        else
            seen++;
    }
    if (seen_out)
        *seen_out = seen;
    free(names);
    pairing_keys_free(keys, nres);
    return found;
}

static double event_time(const view_app *a, const tlv_trace *t, long i)
{
    tlv_event ev;
    tlv_trace_event(t, (size_t)i, &ev);
    return tlv_time_to_double(ev.time, a->radix);
}

/* At the starts of both traces. */
static void align_starts(compare_panel *p, view_app *a)
{
    p->aligned = 0;
    p->offset = 0;
    if (a->trace && tlv_trace_event_count(a->trace) && tlv_trace_event_count(trace_b(a)))
        p->offset = tlv_time_to_double(tlv_trace_start(trace_b(a)), a->radix) -
                    tlv_time_to_double(tlv_trace_start(a->trace), a->radix);
    snprintf(p->align_text, sizeof p->align_text, "aligned at the starts");
}

/* At the nth occurrence of event `spec` in each run; the status line says
 * why not when one run lacks it (the alignment stays as it was). */
static int align_at(compare_panel *p, view_app *a, const char *spec, size_t nth)
{
    event_spec e;
    if (parse_spec(spec, &e) < 0) {
        view_message(a, "align: '%s' is not an event RESOURCE.attribute=value or RESOURCE.name",
                     spec);
        return -1;
    }
    long ia = find_event(a->trace, &e, nth, (size_t)-1, NULL);
    long ib = find_event(trace_b(a), &e, nth, (size_t)-1, NULL);
    if (ia < 0 || ib < 0) {
        view_message(a, "align: no event %s%s in run %s (%s); %s", spec,
                     nth ? " that often" : "", ia < 0 ? "A" : "B",
                     ia < 0 ? a->opts.input : a->opts.compare_path, p->align_text);
        return -1;
    }
    p->offset = event_time(a, trace_b(a), ib) - event_time(a, a->trace, ia);
    p->aligned = 1;
    if (nth)
        snprintf(p->align_text, sizeof p->align_text, "aligned at %s #%zu", spec, nth + 1);
    else
        snprintf(p->align_text, sizeof p->align_text, "aligned at %s", spec);
    char off[64];
    view_message(a, "B %s (B = A %s %s)", p->align_text, p->offset < 0 ? "-" : "+",
                 view_time_text(a, fabs(p->offset), 0, off, sizeof off));
    view_dirty(a);
    return 0;
}

/* At the starts once A has events; at --align-at's event once A is loaded
 * (the starts until then). */
static void align_pending(compare_panel *p, view_app *a)
{
    if (!p->align_pending || !a->trace || !tlv_trace_event_count(a->trace))
        return;
    if (!a->opts.align_at) {
        p->align_pending = 0;
        align_starts(p, a);
        return;
    }
    if (!p->aligned)
        align_starts(p, a);
    if (!view_instances(a)) /* NULL while A loads */
        return;
    p->align_pending = 0;
    align_at(p, a, a->opts.align_at, 0);
}

/* Shift+B: at the event that opened the shape under the pointer. */
static void align_key(view_panel *base, view_app *a, SDL_Keycode key, int mods)
{
    (void)key, (void)mods;
    compare_panel *p = (compare_panel *)base;
    if (!trace_b(a)) {
        view_message(a, "Shift+B aligns the run of --compare B: no second run open");
        return;
    }
    view_hover_update(a);
    if (!a->hover.valid || a->hover.from_event == TLV_NO_EVENT) {
        align_starts(p, a);
        view_message(a, "B aligned at the starts (no event under the pointer)");
        view_dirty(a);
        return;
    }
    tlv_event ev;
    tlv_trace_event(a->trace, a->hover.from_event, &ev);
    char spec[600];
    if (ev.kind == TLV_EVENT_ATTRIBUTE)
        snprintf(spec, sizeof spec, "%s.%s=%s", ev.resource, ev.name, ev.value);
    else
        snprintf(spec, sizeof spec, "%s.%s", ev.resource, ev.name);
    event_spec e;
    size_t nth = 0; /* which occurrence in A it is: how many came before */
    if (parse_spec(spec, &e) == 0)
        find_event(a->trace, &e, (size_t)-1, a->hover.from_event, &nth);
    align_at(p, a, spec, nth);
}

/* ---- drawing ------------------------------------------------------------------------- */

static int strip_height(view_panel *base, const view_app *a, int avail)
{
    (void)base;
    return trace_b(a) ? avail / 2 : 0;
}

/* B's view of the band r: A's range shifted, A's label column and ruler. */
static void b_view(const compare_panel *p, const view_app *a, const tlv_view *v,
                   const view_areas *ar, const SDL_Rect *r, tlv_view *out)
{
    tlv_view bv = TLV_VIEW_INIT;
    bv.t0 = v->t0 + p->offset;
    bv.t1 = v->t1 + p->offset;
    bv.width = r->w;
    bv.height = r->h > 1 ? r->h : 1;
    bv.label_width = ar->label_w;
    bv.ruler_height = ar->ruler_h < bv.height ? ar->ruler_h : bv.height - 1;
    bv.row_height = ar->row_height;
    bv.first_row = ar->row_height ? v->first_row : 0;
    bv.scale = a->scale;
    bv.rows = p->bands;
    bv.row_count = p->nbands;
    if (bv.row_height) { /* scrolled as A is, but never past B's last band */
        int fit = (bv.height - bv.ruler_height) / bv.row_height;
        int top = (int)p->nbands - fit;
        top = top < 0 ? 0 : top;
        bv.first_row = bv.first_row > top ? top : bv.first_row;
    }
    *out = bv;
}

/* Renders B into the texture when what it shows changed. */
static int render(compare_panel *p, view_app *a, const tlv_view *bv)
{
    if (p->tex && p->tw == bv->width && p->th == bv->height && p->drawn_gen == p->bands_gen &&
        p->drawn.t0 == bv->t0 && p->drawn.t1 == bv->t1 && p->drawn.first_row == bv->first_row &&
        p->drawn.label_width == bv->label_width && p->drawn.row_height == bv->row_height &&
        p->drawn.scale == bv->scale)
        return 0;
    if (!p->ren && tlv_renderer_new(&p->ren) != TLV_OK)
        return -1;
    if (!p->tex || p->tw != bv->width || p->th != bv->height) {
        if (p->tex)
            SDL_DestroyTexture(p->tex);
        p->tex = SDL_CreateTexture(a->ren, SDL_PIXELFORMAT_RGBA32, SDL_TEXTUREACCESS_STREAMING,
                                   bv->width, bv->height);
        p->tw = bv->width;
        p->th = bv->height;
        if (!p->tex)
            return -1;
        SDL_SetTextureBlendMode(p->tex, SDL_BLENDMODE_NONE); /* opaque: copied */
    }
    void *pixels;
    int pitch;
    if (SDL_LockTexture(p->tex, NULL, &pixels, &pitch) != 0)
        return -1;
    tlv_status st = tlv_render_rgba(p->ren, p->shapes, bv, pixels, (size_t)pitch);
    SDL_UnlockTexture(p->tex);
    if (st != TLV_OK)
        return -1;
    p->drawn = *bv;
    p->drawn_gen = p->bands_gen;
    return 0;
}

/* The band at position pos: its top y in the strip r and height; 0 when it
 * is out of sight. */
static int band_y(const compare_panel *p, const tlv_view *bv, const SDL_Rect *r, size_t pos,
                  double *y, double *h)
{
    tlv_view_layout l;
    tlv_view_get_layout(bv, p->shapes, &l);
    if (pos < l.first_row || pos >= l.end_row)
        return 0;
    *y = r->y + l.ruler_height + (double)(pos - l.first_row) * l.row_height;
    *h = l.row_height;
    return 1;
}

static void draw_marks(compare_panel *p, view_app *a, const tlv_view *bv, const SDL_Rect *r)
{
    int th = view_text_height(a->text);
    for (size_t i = 0; i < p->nbands; i++) {
        double y, h;
        if (p->mark[i] == PAIRED || !band_y(p, bv, r, i, &y, &h))
            continue;
        int ty = (int)(y + (h - th) / 2);
        if (p->mark[i] == ONLY_A) { /* an empty band: its name too */
            char text[300];
            snprintf(text, sizeof text, "%s: only in A", p->band_label[i]);
            view_label(a, text, r->x + bv->label_width + scaled(a, 6), ty, C_MARK, 0xFFF4E0u, 255);
        } else {
            view_label(a, "only in B", r->x + r->w - scaled(a, 8) -
                       view_text_width(a->text, "only in B"), ty, C_MARK, 0xFFF4E0u, 255);
        }
    }
}

static void draw_band(compare_panel *p, view_app *a, const tlv_view *v, const view_areas *ar)
{
    const SDL_Rect *r = view_panel_area(ar, &p->base);
    if (r->h <= 0)
        return;
    align_pending(p, a);
    view_fill(a, r->x, r->y, r->w, r->h, 0xFFFFFFu, 255);
    tlv_view bv;
    if (update_bands(p, a, v) == 0) {
        b_view(p, a, v, ar, r, &bv);
        if (render(p, a, &bv) == 0) {
            SDL_Rect dst = {r->x, r->y, bv.width, bv.height};
            SDL_RenderCopy(a->ren, p->tex, NULL, &dst);
        }
        draw_marks(p, a, &bv, r);
    }
    view_fill(a, r->x, r->y, r->w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    char title[300], off[64];
    snprintf(title, sizeof title, "B: %s  (%s, B = A %s %s)", a->opts.compare_path,
             p->align_text, p->offset < 0 ? "-" : "+",
             view_time_text(a, fabs(p->offset), 0, off, sizeof off));
    view_label(a, title, r->x + scaled(a, 4), r->y + scaled(a, 3), C_TITLE, 0xEAF0FAu, 235);
    if (a->mouse_in && a->mx >= ar->label_w && a->mx < r->w) /* the cursor through both runs */
        view_fill(a, (int)a->mx, r->y, 1, r->h, C_CURSOR, 160);
}

static void draw(view_panel *base, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    compare_panel *p = (compare_panel *)base;
    if (layer == VIEW_LAYER_PANEL && trace_b(a))
        draw_band(p, a, v, ar);
}

/* ---- input --------------------------------------------------------------------------- */

typedef struct hit {
    int radix;
    char text[300];
    double from, to;
    int found;
} hit;

static int take_shape(void *user, const tlv_shape_info *s)
{
    hit *h = user;
    double from = tlv_time_to_double(s->from, h->radix), to = tlv_time_to_double(s->to, h->radix);
    if (h->found && to - from >= h->to - h->from)
        return 0; /* the shortest one there */
    h->found = 1;
    h->from = from;
    h->to = to;
    snprintf(h->text, sizeof h->text, "%s%s%s", s->event, s->value ? " " : "",
             s->value ? s->value : "");
    return 0;
}

/* A click on B's band: what run B shows there, in the status line. */
static int press(view_panel *base, view_app *a, double x, double y, int button, int clicks)
{
    (void)clicks;
    compare_panel *p = (compare_panel *)base;
    view_areas ar;
    view_areas_of(a, &ar);
    const SDL_Rect *r = view_panel_area(&ar, base);
    if (!trace_b(a) || !p->shapes || x < r->x || x >= r->x + r->w || y < r->y ||
        y >= r->y + r->h)
        return 0;
    if (button != SDL_BUTTON_LEFT || x < ar.label_w)
        return 1;
    tlv_view v, bv;
    view_main_view(a, &v);
    b_view(p, a, &v, &ar, r, &bv);
    long row = tlv_view_row_at(&bv, p->shapes, y - r->y);
    if (row < 0) {
        p->clicked[0] = '\0';
        return 1;
    }
    double t = tlv_view_time(&bv, x - r->x);
    tlv_time et = view_exact_time(a, t);
    hit h = {a->radix, {0}, 0, 0, 0};
    tlv_shapes_query(p->shapes, (size_t)row, et, et, take_shape, &h);
    char at[64], f[64], d[64];
    view_time_at_text(a, t, 0, at, sizeof at);
    if (h.found)
        snprintf(p->clicked, sizeof p->clicked, "run B: %s  %s  from %s, %s long",
                 rows_label(p->shapes, (size_t)row), h.text,
                 view_time_at_text(a, h.from, 0, f, sizeof f),
                 view_time_text(a, h.to - h.from, 0, d, sizeof d));
    else
        snprintf(p->clicked, sizeof p->clicked, "run B: %s  nothing at %s",
                 rows_label(p->shapes, (size_t)row), at);
    view_message(a, "%s", p->clicked);
    return 1;
}

static int covers(view_panel *base, const view_app *a, double x, double y)
{
    view_areas ar;
    view_areas_of(a, &ar);
    const SDL_Rect *r = view_panel_area(&ar, base);
    return trace_b(a) && x >= r->x && x < r->x + r->w && y >= r->y && y < r->y + r->h;
}

static void note(view_panel *base, view_app *a, view_note what)
{
    compare_panel *p = (compare_panel *)base;
    if (what == VIEW_NOTE_TRACE_CHANGED || what == VIEW_NOTE_SHAPES) {
        p->nof = (size_t)-1; /* A's rows are new: pair anew */
        if (what == VIEW_NOTE_TRACE_CHANGED && !p->aligned && trace_b(a))
            align_starts(p, a);
    }
}

static const view_key keys[] = {
    {SDLK_b, VIEW_KEYS_SHIFT,
     "Shift+B: --compare: align run B at the event of the shape under the pointer", align_key},
};

/* ---- state --------------------------------------------------------------------------- */

static void dump(view_panel *base, const view_app *ca, cJSON *o)
{
    compare_panel *p = (compare_panel *)base;
    view_app *a = (view_app *)ca; /* the alignment waits for the trace's instances */
    if (!trace_b(a))
        return;
    align_pending(p, a);
    cJSON *j = cJSON_AddObjectToObject(o, "compare_panel");
    cJSON_AddStringToObject(j, "file", a->opts.compare_path);
    cJSON_AddNumberToObject(j, "offset", p->offset);
    cJSON_AddStringToObject(j, "aligned", p->align_text);
    cJSON_AddStringToObject(j, "clicked", p->clicked);
    view_areas ar;
    view_areas_of(a, &ar);
    const SDL_Rect *r = view_panel_area(&ar, base);
    cJSON *area = cJSON_AddObjectToObject(j, "area");
    double k = a->px_w > 0 ? (double)a->win_w / a->px_w : 1; /* pixels to window coordinates */
    cJSON_AddNumberToObject(area, "y", r->y * k);
    cJSON_AddNumberToObject(area, "h", r->h * k);
    tlv_view v, bv;
    view_main_view(a, &v);
    if (update_bands(p, a, &v) < 0)
        return;
    b_view(p, a, &v, &ar, r, &bv);
    cJSON_AddNumberToObject(j, "t0", bv.t0);
    cJSON_AddNumberToObject(j, "t1", bv.t1);
    cJSON *rows = cJSON_AddArrayToObject(j, "rows");
    static const char *const marks[] = {"both", "only in A", "only in B"};
    for (size_t i = 0; i < p->nbands; i++) {
        if (p->bands[i] == TLV_VIEW_ROW_BLANK && p->mark[i] == PAIRED)
            continue; /* a collapsed group */
        cJSON *row = cJSON_CreateObject();
        cJSON_AddStringToObject(row, "label", p->band_label[i]);
        cJSON_AddStringToObject(row, "in", marks[p->mark[i]]);
        double y, h;
        if (band_y(p, &bv, r, i, &y, &h))
            cJSON_AddNumberToObject(row, "y", (y + h / 2) * k);
        json_push(rows, row);
    }
}

static void destroy(view_panel *base)
{
    compare_panel *p = (compare_panel *)base;
    free_bands(p);
    free(p->bands);
    free(p->mark);
    free(p->band_label);
    free(p->of_rows);
    if (p->tex)
        SDL_DestroyTexture(p->tex);
    tlv_renderer_free(p->ren);
    tlv_shapes_free(p->shapes);
    free(p);
}

view_panel *compare_panel_new(void)
{
    compare_panel *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nof = (size_t)-1;
    p->align_pending = 1; /* --align-at, when given, once A is loaded */
    snprintf(p->align_text, sizeof p->align_text, "aligned at the starts");
    p->base = (view_panel){.name = "compare", .keys = keys, .nkeys = sizeof keys / sizeof *keys,
                           .draw = draw, .press = press, .covers = covers,
                           .strip_height = strip_height, .strip_last = 1, /* as tall as A */
                           .note = note, .dump = dump,
                           .destroy = destroy};
    return &p->base;
}
