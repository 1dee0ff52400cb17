/*
 * view_draw.c — the viewer's frame. The window is split into the main
 * timeline (labels, ruler and shapes, drawn by tlv_render_rgba into a
 * streaming texture only when the view changes), the macro view (the whole
 * trace, drawn the same way when the size or the shapes change) and the
 * status line, with the panels' strips between the timeline and the overview.
 * Everything that follows the pointer — cursor line, selection, markers, the
 * visible-window box, and the panels' layers (view_layer) — is drawn on top
 * with SDL each frame, so that moving the mouse never re-renders the timeline.
 * Also the progress screen shown while loading, and screenshots.
 */
#include "view/core.h"

#include <errno.h>
#include <math.h>
#include <png.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define UI_TEXT_PX 12          /* UI text, pixels at scale 1 */
#define MACRO_H 72             /* macro view height at scale 1 */
#define MACRO_RULER_H 16
#define RULER_H 24
#define MIN_ROW_H 20           /* rows are never squeezed below this; scroll instead */

#define C_PANEL 0xF0F0F0u
#define C_BORDER 0x909090u
#define C_TEXT 0x202020u
#define C_DIM 0x606060u
#define C_SELECT 0xFF8C00u
#define C_BOX 0x286EDCu

/* ---- geometry ----------------------------------------------------------------- */

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

int view_update_size(view_app *a)
{
    int w, h, pw, ph;
    SDL_GetWindowSize(a->core->win, &w, &h);
    if (SDL_GetRendererOutputSize(a->ren, &pw, &ph) != 0) {
        pw = w;
        ph = h;
    }
    float ratio = w > 0 ? (float)pw / (float)w : 1;
    float scale = ratio * (a->opts.ui_scale > 0 ? a->opts.ui_scale : 1);
    int changed = w != a->win_w || h != a->win_h || pw != a->px_w || ph != a->px_h ||
                  scale != a->scale;
    a->win_w = w;
    a->win_h = h;
    a->px_w = pw > 1 ? pw : 1;
    a->px_h = ph > 1 ? ph : 1;
    a->scale = scale > 0 ? scale : 1;
    int px = scaled(a, UI_TEXT_PX);
    if (!a->text || px != a->core->text_px) { /* fonts at the new pixel size */
        view_text_free(a->text);
        a->text = view_text_new(a->ren, px);
        a->core->text_px = px;
    }
    if (changed) {
        int top = view_max_first_row(a);
        a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
        view_dirty(a);
    }
    return changed;
}

void view_areas_of(const view_app *a, view_areas *o)
{
    int w = a->px_w, h = a->px_h;
    int status_h = view_text_height(a->text) + scaled(a, 8);
    int macro_h = scaled(a, MACRO_H);
    macro_h = macro_h > h / 4 ? h / 4 : macro_h;
    status_h = status_h > h / 4 ? h / 4 : status_h;
    int strip_h[VIEW_MAX_PANELS], strips = 0;
    for (int last = 0; last < 2; last++) /* each out of what the others left; strip_last after */
        for (size_t i = 0; i < a->core->npanels; i++) {
            view_panel *p = a->core->panels[i];
            if (!p->strip_last != !last)
                continue;
            strip_h[i] = p->strip_height ? p->strip_height(p, a, h - macro_h - status_h - strips) : 0;
            strips += strip_h[i];
        }
    int main_h = h - macro_h - status_h - strips;
    main_h = main_h < 1 ? 1 : main_h;
    o->main = (SDL_Rect){0, 0, w, main_h};
    memset(o->strip, 0, sizeof o->strip);
    for (size_t i = 0, y = (size_t)main_h; i < a->core->npanels; y += (size_t)strip_h[i], i++)
        o->strip[i] = (SDL_Rect){0, (int)y, w, strip_h[i]};
    o->macro = (SDL_Rect){0, main_h + strips, w, macro_h};
    o->status = (SDL_Rect){0, main_h + strips + macro_h, w, status_h};
    int label = scaled(a, a->core->label_w_user > 0 ? a->core->label_w_user : a->core->label_need > 0 ? a->core->label_need : 60);
    int most = a->core->label_w_user > 0 ? w - scaled(a, 120) : w / 3; /* dragged wider: leave a timeline */
    o->label_w = label > most ? (most > 1 ? most : 1) : label;
    o->ruler_h = scaled(a, RULER_H);
    o->ruler_h = o->ruler_h > main_h ? main_h : o->ruler_h;
    size_t nrows = rows_band_count(a);
    double fit = nrows ? (double)(main_h - o->ruler_h) / (double)nrows : 0;
    int min_row = scaled(a, MIN_ROW_H);
    o->row_height = a->core->row_h_user > 0 ? scaled(a, a->core->row_h_user) : nrows && fit < min_row ? min_row : 0;
}

void view_main_view(const view_app *a, tlv_view *v)
{
    view_areas ar;
    view_areas_of(a, &ar);
    memset(v, 0, sizeof *v);
    v->t0 = a->nav.t0;
    v->t1 = a->nav.t1;
    v->width = ar.main.w;
    v->height = ar.main.h;
    v->label_width = ar.label_w;
    v->ruler_height = ar.ruler_h;
    v->row_height = ar.row_height;
    v->first_row = a->nav.first_row;
    v->scale = a->scale;
    v->rows = rows_list(a, &v->row_count);
}

void view_macro_view(const view_app *a, tlv_view *v)
{
    view_areas ar;
    view_areas_of(a, &ar);
    memset(v, 0, sizeof *v);
    v->t0 = a->nav.trace_t0;
    v->t1 = a->nav.trace_t1;
    v->width = ar.macro.w;
    v->height = ar.macro.h > 1 ? ar.macro.h : 1;
    v->label_width = ar.label_w;
    v->ruler_height = scaled(a, MACRO_RULER_H);
    v->ruler_height = v->ruler_height >= v->height ? v->height - 1 : v->ruler_height;
    v->scale = a->scale;
    v->rows = rows_list(a, &v->row_count);
}

int view_max_first_row(const view_app *a)
{
    view_areas ar;
    view_areas_of(a, &ar);
    size_t nrows = rows_band_count(a);
    if (!ar.row_height || !nrows)
        return 0;
    long fits = (ar.main.h - ar.ruler_h) / ar.row_height;
    long top = (long)nrows - (fits > 0 ? fits : 1);
    return top > 0 ? (int)top : 0;
}

/* ---- helpers ------------------------------------------------------------------ */

char *view_time_text(const view_app *a, double t, double step, char *buf, size_t size)
{
    return tlv_view_time_text(t, step, a->time_scale, buf, size);
}

void view_message(view_app *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(a->core->message, sizeof a->core->message, fmt, ap);
    va_end(ap);
    view_dirty(a);
}

void view_message_clear(view_app *a)
{
    a->core->message[0] = '\0';
    view_dirty(a);
}

void view_dirty(view_app *a)
{
    a->core->dirty = 1;
}

static void fill(SDL_Renderer *r, int x, int y, int w, int h, uint32_t rgb, int alpha)
{
    SDL_SetRenderDrawBlendMode(r, alpha < 255 ? SDL_BLENDMODE_BLEND : SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, (uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, (uint8_t)alpha);
    SDL_Rect rc = {x, y, w, h};
    SDL_RenderFillRect(r, &rc);
}

static void frame_rect(SDL_Renderer *r, int x, int y, int w, int h, int t, uint32_t rgb, int alpha)
{
    fill(r, x, y, w, t, rgb, alpha);
    fill(r, x, y + h - t, w, t, rgb, alpha);
    fill(r, x, y + t, t, h - 2 * t, rgb, alpha);
    fill(r, x + w - t, y + t, t, h - 2 * t, rgb, alpha);
}

void view_fill(view_app *a, int x, int y, int w, int h, uint32_t rgb, int alpha)
{
    fill(a->ren, x, y, w, h, rgb, alpha);
}

static int same_view(const tlv_view *a, const tlv_view *b)
{
    return a->t0 == b->t0 && a->t1 == b->t1 && a->width == b->width && a->height == b->height &&
           a->label_width == b->label_width && a->ruler_height == b->ruler_height &&
           a->row_height == b->row_height && a->first_row == b->first_row && a->scale == b->scale;
}

/* The window's own format when it is 32-bit B, G, R, X/A in memory (X11's
 * usual visual), so that copying the texture to it is a plain copy and not
 * a per-pixel conversion (a fifth of a frame); else RGBA32 as drawn. */
static Uint32 texture_format(const view_app *a)
{
    Uint32 f = SDL_GetWindowPixelFormat(a->core->win);
    return SDL_BYTEORDER == SDL_LIL_ENDIAN && (f == SDL_PIXELFORMAT_RGB888 || f == SDL_PIXELFORMAT_ARGB8888)
               ? f
               : SDL_PIXELFORMAT_RGBA32;
}

/* R, G, B, A bytes to B, G, R, A in place, eight pixels at a time. */
static void swap_red_blue(uint8_t *pixels, int pitch, int w, int h)
{
    typedef uint32_t u32x8 __attribute__((vector_size(32)));
    for (int y = 0; y < h; y++) {
        uint32_t *p = (uint32_t *)(void *)(pixels + (size_t)y * (size_t)pitch);
        int x = 0;
        for (; x + 8 <= w; x += 8) {
            u32x8 v;
            memcpy(&v, p + x, sizeof v);
            v = (v & 0xFF00FF00u) | ((v >> 16) & 0xFFu) | ((v & 0xFFu) << 16);
            memcpy(p + x, &v, sizeof v);
        }
        for (; x < w; x++)
            p[x] = (p[x] & 0xFF00FF00u) | ((p[x] >> 16) & 0xFFu) | ((p[x] & 0xFFu) << 16);
    }
}

/* Draws `v` into *tex (made or remade at its size) unless it already holds
 * it. Returns 0 or -1. */
static int update_texture(view_app *a, tlv_renderer *tr, SDL_Texture **tex, int *tw, int *th,
                          tlv_view *drawn, unsigned *gen, const tlv_view *v)
{
    if (*tex && *tw == v->width && *th == v->height && *gen == a->shapes_gen && same_view(v, drawn))
        return 0;
    Uint32 format = texture_format(a), have = 0;
    if (*tex)
        SDL_QueryTexture(*tex, &have, NULL, NULL, NULL);
    if (!*tex || *tw != v->width || *th != v->height || have != format) {
        SDL_DestroyTexture(*tex);
        *tex = SDL_CreateTexture(a->ren, format, SDL_TEXTUREACCESS_STREAMING, v->width, v->height);
        *tw = v->width;
        *th = v->height;
        if (!*tex)
            return -1;
        /* the frames are opaque: copied, not blended (SDL blends textures
         * with alpha by default, a per-pixel cost on every frame) */
        SDL_SetTextureBlendMode(*tex, SDL_BLENDMODE_NONE);
    }
    void *pixels;
    int pitch;
    if (SDL_LockTexture(*tex, NULL, &pixels, &pitch) != 0)
        return -1;
    tlv_status st = tlv_render_rgba(tr, a->shapes, v, pixels, (size_t)pitch);
    if (st == TLV_ERR_NOMEM) /* the view ends (cmd_view.c): a frame with parts missing would mislead */
        report_nomem("drawing", a->opts.input);
    if (format != SDL_PIXELFORMAT_RGBA32)
        swap_red_blue(pixels, pitch, v->width, v->height);
    SDL_UnlockTexture(*tex);
    *drawn = *v;
    *gen = a->shapes_gen;
    return st == TLV_OK ? 0 : -1;
}

/* The timeline renderer's warnings (no font at all, no Japanese glyphs: it
 * says each once), on stderr and in the status line as they come. */
static void note_renderer_warnings(view_app *a)
{
    const tlv_diags *d = tlv_renderer_diags(a->core->tl_ren);
    size_t n = tlv_diags_count(d);
    for (; a->core->ren_diags_seen < n; a->core->ren_diags_seen++) {
        char line[512];
        tlv_diag_format(tlv_diags_get(d, a->core->ren_diags_seen), line, sizeof line);
        fprintf(stderr, "%s view: %s\n", prog, line);
        view_message(a, "%s", line);
    }
}

/* ---- overlays on the main view ---------------------------------------------------- */

static int time_x(const tlv_view *v, double t)
{
    double x = tlv_view_x(v, t);
    return x < -1e6 ? -1000000 : x > 1e6 ? 1000000 : (int)floor(x);
}

static void draw_selection(view_app *a, const tlv_view *v, const view_areas *ar)
{
    if (!a->core->has_sel)
        return;
    int x0 = time_x(v, fmin(a->core->sel0, a->core->sel1)), x1 = time_x(v, fmax(a->core->sel0, a->core->sel1));
    x0 = x0 < ar->label_w ? ar->label_w : x0;
    x1 = x1 > v->width ? v->width : x1;
    if (x1 < x0)
        return;
    SDL_Renderer *r = a->ren;
    if (a->drag == DRAG_SELECT) /* the band being chosen */
        fill(r, x0, ar->ruler_h, x1 - x0 + 1, v->height - ar->ruler_h, C_SELECT, 50);
    fill(r, x0, ar->ruler_h - scaled(a, 5), x1 - x0 + 1, scaled(a, 5), C_SELECT, 200);
    fill(r, x0, ar->ruler_h, 1, v->height - ar->ruler_h, C_SELECT, 220);
    fill(r, x1, ar->ruler_h, 1, v->height - ar->ruler_h, C_SELECT, 220);
}

/* A text on a box of `bg`, with its top-left at (x, y). */
static void label_box(view_app *a, const char *s, int x, int y, uint32_t fg, uint32_t bg, int alpha)
{
    int pad = scaled(a, 3), w = view_text_width(a->text, s), h = view_text_height(a->text);
    fill(a->ren, x, y, w + 2 * pad, h, bg, alpha);
    view_text_draw(a->text, s, x + pad, y, fg);
}

int view_label(view_app *a, const char *s, int x, int y, uint32_t fg, uint32_t bg, int alpha)
{
    label_box(a, s, x, y, fg, bg, alpha);
    return view_text_width(a->text, s) + 2 * scaled(a, 3);
}

/* Marker lines with their names in the ruler, and the time between
 * neighbours just below the ruler. */
static void draw_markers(view_app *a, const tlv_view *v, const view_areas *ar)
{
    const view_markers *m = &a->markers;
    int th = view_text_height(a->text);
    for (size_t i = 1; i < m->n; i++) { /* spans first: the names go on top */
        long prev = (long)i - 1; /* the time from the previous shown marker of its layer */
        while (prev >= 0 && strcmp(m->v[prev].layer, m->v[i].layer) != 0)
            prev--;
        if (prev < 0 || !markers_shown(m, i))
            continue;
        int x0 = time_x(v, m->v[prev].time), x1 = time_x(v, m->v[i].time);
        if (x1 < ar->label_w || x0 > v->width)
            continue;
        char d[64], text[80];
        view_time_text(a, m->v[i].time - m->v[prev].time, 0, d, sizeof d);
        snprintf(text, sizeof text, "%s", d);
        int cx0 = x0 < ar->label_w ? ar->label_w : x0, cx1 = x1 > v->width ? v->width : x1;
        int y = ar->ruler_h + scaled(a, 2), w = view_text_width(a->text, text) + scaled(a, 6);
        fill(a->ren, cx0, y + th / 2, cx1 - cx0, 1, m->v[i].color, 160);
        if (w + scaled(a, 4) <= cx1 - cx0)
            label_box(a, text, (cx0 + cx1 - w) / 2, y, C_TEXT, 0xFFFFFF, 220);
    }
    SDL_Rect clip = {ar->label_w, 0, v->width - ar->label_w, v->height};
    SDL_RenderSetClipRect(a->ren, &clip);
    for (size_t i = 0; i < m->n; i++) {
        int x = time_x(v, m->v[i].time), sel = (long)i == m->selected;
        if (x < ar->label_w - 200 || x > v->width || !markers_shown(m, i))
            continue;
        fill(a->ren, x - (sel ? 1 : 0), 0, sel ? 3 : 1, v->height, m->v[i].color, 255);
        label_box(a, m->v[i].name, x + 1, 0, 0xFFFFFF, m->v[i].color, sel ? 255 : 200);
    }
    SDL_RenderSetClipRect(a->ren, NULL);
}

static void draw_cursor(view_app *a, const tlv_view *v, const view_areas *ar)
{
    if (!input_over_timeline(a, a->mx, a->my) || a->drag == DRAG_PAN)
        return;
    fill(a->ren, (int)floor(a->mx), ar->ruler_h, 1, v->height - ar->ruler_h, 0x000000, 90);
}

void view_text_box(view_app *a, const char *const *lines, int n, int x, int y, uint32_t bg)
{
    int pad = scaled(a, 5), lh = view_text_height(a->text), w = 0;
    for (int i = 0; i < n; i++) {
        int lw = view_text_width(a->text, lines[i]);
        w = lw > w ? lw : w;
    }
    int bw = w + 2 * pad, bh = n * lh + 2 * pad;
    x = x + bw > a->px_w ? a->px_w - bw : x;
    y = y + bh > a->px_h ? a->px_h - bh : y;
    x = x < 0 ? 0 : x;
    y = y < 0 ? 0 : y;
    fill(a->ren, x, y, bw, bh, bg, 255);
    frame_rect(a->ren, x, y, bw, bh, 1, C_BORDER, 255);
    for (int i = 0; i < n; i++)
        view_text_draw(a->text, lines[i], x + pad, y + pad + i * lh, C_TEXT);
}

/* A log read to its end without a single event: said over the empty
 * timeline, whose ruler shows only a span made up to draw something. */
static void draw_no_events(view_app *a, const view_areas *ar)
{
    if (!a->trace || loader_active(a) || tlv_trace_event_count(a->trace))
        return;
    const char *name = strrchr(a->opts.input, '/');
    char line[512];
    snprintf(line, sizeof line, "No events in %s", strcmp(a->opts.input, "-") == 0 ? "standard input"
                                                     : name ? name + 1 : a->opts.input);
    const char *lines[] = {line, a->core->no_events};
    int n = a->core->no_events[0] ? 2 : 1;
    int w = view_text_width(a->text, line);
    w = n == 2 && view_text_width(a->text, lines[1]) > w ? view_text_width(a->text, lines[1]) : w;
    int x = ar->label_w + (ar->main.w - ar->label_w - w) / 2, y = ar->ruler_h + scaled(a, 40);
    view_text_box(a, lines, n, x > ar->label_w ? x : ar->label_w, y, 0xFFFFFF);
}

static void draw_banner(view_app *a, const view_areas *ar)
{
    if (!a->core->show_banner)
        return;
    char head[120];
    const char *lines[6];
    int n = 0;
    snprintf(head, sizeof head, "%zu problem%s while loading (all on stderr; Esc closes this):",
             a->core->load_errors, a->core->load_errors == 1 ? "" : "s");
    lines[n++] = head;
    for (int i = 0; i < a->core->banner_lines; i++)
        lines[n++] = a->core->banner[i];
    view_text_box(a, lines, n, ar->label_w + scaled(a, 8), ar->ruler_h + scaled(a, 8), 0xFFE8E0);
}

/* The full name of a row whose name the label column cuts, under the pointer. */
static void draw_row_name_tip(view_app *a)
{
    const char *name = a->drag == DRAG_NONE ? sizes_cut_row_name(a, a->mx, a->my) : NULL;
    if (name)
        view_text_box(a, &name, 1, (int)a->mx + scaled(a, 14), (int)a->my + scaled(a, 18), 0xFFFFE8);
}

#define HELP_LINES 64
#define HELP_WIDTH 900       /* the help's widest line, pixels at scale 1 */

static int help_width(void *a, const char *s) { return view_text_width(((view_app *)a)->text, s); }

/* F1: the help of the keys and the mouse, from the core's and the panels'
 * key tables (view_keys.c), in lines as wide as the window allows. */
static void draw_help(view_app *a)
{
    if (!a->core->show_help)
        return;
    view_key_owner owners[VIEW_MAX_PANELS + 1];
    char *lines[HELP_LINES];
    int width = a->px_w - scaled(a, 40 + 40 + 16); /* the box's margins and padding */
    width = width > scaled(a, HELP_WIDTH) ? scaled(a, HELP_WIDTH) : width; /* lines an eye can follow */
    size_t n = view_keys_help(owners, view_key_owners(a, owners), width, help_width, a, lines,
                              HELP_LINES);
    view_text_box(a, (const char *const *)lines, (int)n, scaled(a, 40), scaled(a, 40), 0xFFFFFF);
    for (size_t i = 0; i < n; i++)
        free(lines[i]);
}

/* ---- macro view and status line ---------------------------------------------------- */

static void draw_macro(view_app *a, const view_areas *ar)
{
    tlv_view mv;
    view_macro_view(a, &mv);
    SDL_Renderer *r = a->ren;
    if (update_texture(a, a->core->macro_ren, &a->core->macro_tex, &a->core->macro_w, &a->core->macro_h, &a->core->macro_drawn,
                       &a->core->macro_gen, &mv) == 0) {
        SDL_Rect dst = ar->macro;
        SDL_RenderCopy(r, a->core->macro_tex, NULL, &dst);
    }
    fill(r, 0, ar->macro.y, ar->label_w - 1, ar->macro.h, C_PANEL, 255);
    view_text_draw(a->text, "Overview", scaled(a, 6), ar->macro.y + scaled(a, 2), C_DIM);
    fill(r, 0, ar->macro.y, ar->macro.w, scaled(a, 2) > 1 ? scaled(a, 2) : 1, C_BORDER, 255);
    for (size_t i = 0; i < a->markers.n; i++)
        if (markers_shown(&a->markers, i))
            fill(r, time_x(&mv, a->markers.v[i].time), ar->macro.y, 1, ar->macro.h,
                 a->markers.v[i].color, 200);
    int x0 = time_x(&mv, a->nav.t0), x1 = time_x(&mv, a->nav.t1);
    x0 = x0 < ar->label_w ? ar->label_w : x0;
    x1 = x1 > ar->macro.w - 1 ? ar->macro.w - 1 : x1;
    if (x1 - x0 < 3) { /* always visible, however far zoomed in */
        int c = (x0 + x1) / 2;
        x0 = c - 1;
        x1 = c + 2;
    }
    int top = ar->macro.y + mv.ruler_height;
    fill(r, x0, top, x1 - x0, ar->macro.h - mv.ruler_height, C_BOX, 50);
    frame_rect(r, x0, top, x1 - x0, ar->macro.h - mv.ruler_height, 1, C_BOX, 255);
}

/* Appends printf-style text to buf (NUL-terminated, cut to size). */
static void append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

/* The status line's text: how far the log is loaded (while it is), cursor
 * time (and from the selected marker),
 * selection, visible range, mode, problems, the latest message. */
static void status_text(view_app *a, const tlv_view *v, double px_time, char *text, size_t size)
{
    char t0[64], t1[64];
    text[0] = '\0';
    loader_status_text(a, text, size); /* first: a small window cuts the end */
    if (text[0])
        append(text, size, "   ");
    if (input_over_timeline(a, a->mx, a->my)) {
        double t = input_time_at(a, a->mx);
        append(text, size, "cursor %s", view_time_at_text(a, t, px_time, t0, sizeof t0));
        const view_markers *m = &a->markers;
        if (m->selected >= 0 && (size_t)m->selected < m->n)
            append(text, size, " (%s to cursor %s)", m->v[m->selected].name,
                   view_time_text(a, t - m->v[m->selected].time, px_time, t1, sizeof t1));
    } else {
        append(text, size, "cursor -");
    }
    if (a->core->has_sel)
        append(text, size, "   selection %s",
               view_time_text(a, fabs(a->core->sel1 - a->core->sel0), 0, t0, sizeof t0));
    append(text, size, "   view %s .. %s", view_time_at_text(a, v->t0, px_time, t0, sizeof t0),
           view_time_at_text(a, v->t1, px_time, t1, sizeof t1));
    char start[128];
    view_start_text(a, start, sizeof start); /* the one absolute time of a clock trace */
    if (start[0])
        append(text, size, "   %s", start);
    if (a->per_cpu)
        append(text, size, "   per-CPU");
    if (a->core->load_errors)
        append(text, size, "   %zu problem%s", a->core->load_errors, a->core->load_errors == 1 ? "" : "s");
    if (a->core->message[0])
        append(text, size, "   %s", a->core->message);
}

static void draw_status(view_app *a, const tlv_view *v, const view_areas *ar)
{
    SDL_Renderer *r = a->ren;
    fill(r, ar->status.x, ar->status.y, ar->status.w, ar->status.h, 0xE4E4E4, 255);
    fill(r, ar->status.x, ar->status.y, ar->status.w, 1, C_BORDER, 255);
    char text[700];
    status_text(a, v, (v->t1 - v->t0) / fmax(1, v->width - ar->label_w), text, sizeof text);
    int y = ar->status.y + (ar->status.h - view_text_height(a->text)) / 2;
    const char *help = "F1: help";
    int help_x = ar->status.w - view_text_width(a->text, help) - scaled(a, 6);
    view_text_draw(a->text, help, help_x, y, C_DIM);
    help_x = live_badge_draw(a, help_x, y);
    SDL_Rect clip = {0, ar->status.y, help_x - scaled(a, 12), ar->status.h}; /* not over the help */
    SDL_RenderSetClipRect(r, &clip);
    view_text_draw(a->text, text, scaled(a, 6), y, C_TEXT);
    SDL_RenderSetClipRect(r, NULL);
}

/* ---- the frame ------------------------------------------------------------------------ */

int view_draw_frame(view_app *a)
{
    view_areas ar;
    view_areas_of(a, &ar);
    tlv_view v;
    view_main_view(a, &v);
    SDL_Renderer *r = a->ren;
    double start = now_seconds();
    if (sizes_tell_renderer(a))
        a->core->tl_drawn.width = 0; /* the ruler or the labels change: draw the timeline again */
    int rc = update_texture(a, a->core->tl_ren, &a->core->tl_tex, &a->core->tex_w, &a->core->tex_h, &a->core->tl_drawn,
                            &a->core->tl_gen, &v);
    a->core->last_render_ms = (now_seconds() - start) * 1000;
    note_renderer_warnings(a);
    /* White under what follows; the timeline's texture covers its area (a
     * whole-window clear was a tenth of a frame). */
    SDL_Rect below = {0, ar.main.h, a->px_w, a->px_h - ar.main.h};
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
    if (rc == 0) {
        SDL_RenderFillRect(r, &below);
        SDL_Rect dst = ar.main;
        SDL_RenderCopy(r, a->core->tl_tex, NULL, &dst);
    } else {
        SDL_RenderClear(r);
    }
    view_panels_draw(a, VIEW_LAYER_BANDS, &v, &ar);
    draw_selection(a, &v, &ar);
    range_draw(a, &v, &ar);
    view_panels_draw(a, VIEW_LAYER_TIMELINE, &v, &ar);
    draw_markers(a, &v, &ar);
    view_panels_draw(a, VIEW_LAYER_RULER, &v, &ar);
    draw_cursor(a, &v, &ar);
    draw_macro(a, &ar);
    view_panels_draw(a, VIEW_LAYER_PANEL, &v, &ar);
    draw_status(a, &v, &ar);
    view_panels_draw(a, VIEW_LAYER_STATUS, &v, &ar);
    draw_banner(a, &ar);
    draw_no_events(a, &ar);
    view_panels_draw(a, VIEW_LAYER_POPUP, &v, &ar);
    draw_row_name_tip(a);
    draw_help(a);
    return rc;
}

void view_draw_progress(view_app *a, const char *what, double fraction)
{
    if (!a->ren)
        return;
    view_update_size(a);
    SDL_Renderer *r = a->ren;
    SDL_SetRenderDrawBlendMode(r, SDL_BLENDMODE_NONE);
    SDL_SetRenderDrawColor(r, 255, 255, 255, 255);
    SDL_RenderClear(r);
    int w = a->px_w, h = a->px_h, bw = w / 2, bh = scaled(a, 16);
    int x = (w - bw) / 2, y = h / 2;
    char text[512];
    const char *name = strrchr(a->opts.input, '/');
    if (fraction >= 0)
        snprintf(text, sizeof text, "%s %s: %.0f%%", what, name ? name + 1 : a->opts.input,
                 fraction * 100);
    else
        snprintf(text, sizeof text, "%s %s ...", what, name ? name + 1 : a->opts.input);
    view_text_draw(a->text, text, x, y - view_text_height(a->text) - scaled(a, 6), C_TEXT);
    frame_rect(r, x, y, bw, bh, 1, C_BORDER, 255);
    if (fraction >= 0)
        fill(r, x + 2, y + 2, (int)((bw - 4) * fmin(fraction, 1)), bh - 4, C_BOX, 255);
    SDL_RenderPresent(r);
}

int view_write_screenshot(view_app *a, const char *path)
{
    size_t stride = (size_t)a->px_w * 4;
    uint8_t *pixels = malloc(stride * (size_t)a->px_h);
    if (!pixels) {
        report_nomem("taking a screenshot of", a->opts.input);
        return -1;
    }
    if (SDL_RenderReadPixels(a->ren, NULL, SDL_PIXELFORMAT_RGBA32, pixels, (int)stride) != 0) {
        if (strstr(SDL_GetError(), "memory"))
            report_nomem("taking a screenshot of", a->opts.input);
        else
            fprintf(stderr, "%s view: cannot read the frame: %s\n", prog, SDL_GetError());
        free(pixels);
        return -1;
    }
    for (size_t i = 3; i < stride * (size_t)a->px_h; i += 4)
        pixels[i] = 255; /* the window is opaque; some targets leave alpha 0 */
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)a->px_w;
    img.height = (png_uint_32)a->px_h;
    img.format = PNG_FORMAT_RGBA;
    errno = 0;
    int ok = png_image_write_to_file(&img, path, 0, pixels, (png_int_32)stride, NULL);
    if (!ok && (errno == ENOMEM || strstr(img.message, "memory"))) { /* libpng's words vary */
        report_nomem("writing the screenshot of", a->opts.input);
        png_image_free(&img);
    } else if (!ok) {
        fprintf(stderr, "%s view: cannot write '%s': %s\n", prog, path, img.message);
        png_image_free(&img);
    }
    free(pixels);
    return ok ? 0 : -1;
}
