/*
 * render_labels.c — where the shapes' texts go, so that every one drawn can
 * be read: the texts of a frame are collected first, then placed most
 * important first (the shape under the pointer, then longer intervals) and
 * none is drawn over another — a text that meets one already placed is cut
 * with an ellipsis to the room left, or left out. A text whose box starts
 * before the timeline is drawn at the timeline's start (sticky, so a long
 * bar keeps its name), is kept whole inside its row band (descenders and
 * underscores are not cut at the band's bottom), and is set smaller when its
 * line is taller than the band, down to a legible minimum.
 *
 * Also the record of what a frame drew (render_texts): the placed labels,
 * the ruler's ticks and reference, and the row names, for
 * tlv_renderer_text().
 */
#include "render/render_impl.h"

#include "base/buf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PT_TO_PX (96.0f / 72.0f)
#define MIN_LABEL_PX 7.0f /* smaller texts are not drawn */
#define CELL_W 64         /* the grid of placed texts, in pixels */
#define CELL_H 16

/* ---- what a frame drew ---------------------------------------------------------- */

void texts_clear(render_texts *t)
{
    for (int k = 0; k < TEXT_KINDS; k++)
        t->n[k] = 0;
    t->nchars = 0;
}

void texts_free(render_texts *t)
{
    for (int k = 0; k < TEXT_KINDS; k++)
        free(t->v[k]);
    free(t->chars);
    memset(t, 0, sizeof *t);
}

int texts_add(render_texts *t, text_kind kind, const char *text, SDL_Rect at)
{
    size_t len = strlen(text) + 1;
    if (GROW(t->v[kind], t->cap[kind], t->n[kind] + 1) < 0 ||
        GROW(t->chars, t->chars_cap, t->nchars + len) < 0)
        return -1;
    memcpy(t->chars + t->nchars, text, len);
    t->v[kind][t->n[kind]++] = (drawn_text){t->nchars, at};
    t->nchars += len;
    return 0;
}

const char *texts_get(const render_texts *t, text_kind kind, size_t i, SDL_Rect *at)
{
    if ((unsigned)kind >= TEXT_KINDS || i >= t->n[kind])
        return NULL;
    if (at)
        *at = t->v[kind][i].at;
    return t->chars + t->v[kind][i].text;
}

/* ---- collecting ----------------------------------------------------------------- */

void labels_free(render_labels *L)
{
    free(L->c);
    free(L->cell);
    free(L->node);
    memset(L, 0, sizeof *L);
}

int labels_add(render_labels *L, const label_cand *c)
{
    if (GROW(L->c, L->cap, L->n + 1) < 0)
        return -1;
    L->c[L->n] = *c;
    L->c[L->n].seq = (uint32_t)L->n;
    L->n++;
    return 0;
}

/* The shapes under the pointer first (the shortest, the one the pointer
 * picks out, before those around it), then longer intervals, then the
 * drawing order. */
static int by_importance(const void *pa, const void *pb)
{
    const label_cand *a = pa, *b = pb;
    if (a->focus != b->focus)
        return a->focus ? -1 : 1;
    if (a->length != b->length)
        return (a->length > b->length) != a->focus ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* ---- the grid of placed texts ---------------------------------------------------- */

static int grid_init(render_labels *L, int width, int height)
{
    L->cols = width / CELL_W + 1;
    L->rows = height / CELL_H + 1;
    size_t n = (size_t)L->cols * (size_t)L->rows;
    if (GROW(L->cell, L->cell_cap, n) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        L->cell[i] = -1;
    L->nnode = 0;
    return 0;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

static int grid_add(render_labels *L, SDL_Rect r)
{
    int c0 = clampi(r.x / CELL_W, 0, L->cols - 1), c1 = clampi((r.x + r.w - 1) / CELL_W, 0, L->cols - 1);
    int r0 = clampi(r.y / CELL_H, 0, L->rows - 1), r1 = clampi((r.y + r.h - 1) / CELL_H, 0, L->rows - 1);
    for (int y = r0; y <= r1; y++)
        for (int x = c0; x <= c1; x++) {
            if (GROW(L->node, L->node_cap, L->nnode + 1) < 0)
                return -1;
            size_t cell = (size_t)y * (size_t)L->cols + (size_t)x;
            L->node[L->nnode] = (grid_node){r, L->cell[cell]};
            L->cell[cell] = (long)L->nnode++;
        }
    return 0;
}

/* Narrows [*g0, *g1) to the room around `anchor` that no placed text
 * takes in pixel rows [y0, y1), keeping `pad` pixels from them. Returns 0
 * when a placed text covers the anchor itself. */
static int grid_room(const render_labels *L, int y0, int y1, int anchor, int pad, int *g0, int *g1)
{
    int c0 = clampi((*g0 - pad) / CELL_W, 0, L->cols - 1), c1 = clampi((*g1 + pad) / CELL_W, 0, L->cols - 1);
    int r0 = clampi(y0 / CELL_H, 0, L->rows - 1), r1 = clampi((y1 - 1) / CELL_H, 0, L->rows - 1);
    for (int y = r0; y <= r1; y++)
        for (int x = c0; x <= c1; x++)
            for (long i = L->cell[(size_t)y * (size_t)L->cols + (size_t)x]; i >= 0; i = L->node[i].next) {
                SDL_Rect b = L->node[i].r;
                if (b.y >= y1 || b.y + b.h <= y0 || b.x >= *g1 + pad || b.x + b.w <= *g0 - pad)
                    continue;
                if (b.x - pad <= anchor && anchor < b.x + b.w + pad)
                    return 0;
                if (b.x + b.w + pad <= anchor)
                    *g0 = *g0 > b.x + b.w + pad ? *g0 : b.x + b.w + pad;
                else
                    *g1 = *g1 < b.x - pad ? *g1 : b.x - pad;
            }
    return 1;
}

/* ---- placing -------------------------------------------------------------------- */

/* Whether a cut text kept too little to tell anything: fewer than two
 * characters before its ellipsis ("T…" is noise, "TA…" a hint). */
static int too_short(const char *s)
{
    size_t len = strlen(s);
    int chars = 0;
    for (size_t i = 0; i < len; i++)
        chars += ((unsigned char)s[i] & 0xC0) != 0x80;
    if (len >= 3 && strcmp(s + len - 3, "...") == 0)
        chars -= 2; /* a font without "…" */
    return chars < 3;
}

/* Places candidate c: fills *st, *text and *at and returns 1, or 0 when it
 * is left out. */
static int place_one(render_labels *L, render_fonts *fonts, float scale, SDL_Rect area,
                     const label_cand *c, text_style *st, const char **text, SDL_Rect *at)
{
    const prim *p = c->p;
    *st = (text_style){p->font_family, p->font_size * PT_TO_PX * scale, p->font_style,
                       p->font_color, p->align, 0};
    /* horizontally the box's visible part: a bar begun off-screen keeps its
     * name at the timeline's start; an instant's text whose instant is off
     * it is left out (pinned there, it would say it happened at the start) */
    if (!isnan(c->at) && c->at < (float)area.x)
        return 0;
    float edge = (float)(area.x + area.w) - 2 * scale; /* glyphs may reach past their advance */
    float ax0 = fmaxf(c->box.x, (float)area.x), ax1 = fminf(c->box.x + c->box.w, edge);
    if (ax1 - ax0 < st->px * 0.5f || c->band_h < 2)
        return 0; /* narrower than a character */
    int w, h;
    if (render_text_fit(fonts, p->text, st, INFINITY, text, &w, &h) < 0)
        return 0;
    if ((float)h > c->band_h) { /* a smaller font whose whole line fits the band */
        st->px = floorf(st->px * c->band_h / (float)h);
        if (st->px < MIN_LABEL_PX * scale || render_text_fit(fonts, p->text, st, INFINITY, text, &w, &h) < 0 ||
            (float)h > c->band_h)
            return 0;
    }
    /* vertically as aligned in its box, moved into the band */
    float vy = st->align.v == 0 ? c->box.y : st->align.v == 1 ? c->box.y + (c->box.h - (float)h) / 2
                                                              : c->box.y + c->box.h - (float)h;
    int band0 = (int)ceilf(c->band_top), band1 = (int)floorf(c->band_top + c->band_h);
    int y = clampi((int)floorf(vy + 0.5f), band0, band1 - h);
    /* horizontally the room left around the anchor by texts placed before */
    int g0 = (int)ceilf(ax0), g1 = (int)floorf(ax1);
    int anchor = st->align.h == 0 ? g0 : st->align.h == 2 ? g1 - 1 : (g0 + g1) / 2;
    int pad = (int)ceilf(3 * scale);
    if (!grid_room(L, y, y + h, anchor, pad, &g0, &g1) || g1 - g0 < st->px)
        return 0;
    if (w > g1 - g0) {
        if (render_text_fit(fonts, p->text, st, (float)(g1 - g0), text, &w, &h) < 0 || too_short(*text))
            return 0;
    }
    int x = st->align.h == 0 ? g0 : st->align.h == 2 ? g1 - w : clampi(anchor - w / 2, g0, g1 - w);
    *at = (SDL_Rect){x, y, w, h};
    return 1;
}

int labels_place(render_labels *L, render_fonts *fonts, float scale, SDL_Rect area, int width,
                 int height, label_draw_fn draw, void *ctx)
{
    if (!L->n || !fonts)
        return 0;
    qsort(L->c, L->n, sizeof *L->c, by_importance);
    if (grid_init(L, width, height) < 0)
        return -1;
    int failed = 0;
    for (size_t i = 0; i < L->n; i++) {
        text_style st;
        const char *text;
        SDL_Rect at;
        if (!place_one(L, fonts, scale, area, &L->c[i], &st, &text, &at))
            continue;
        failed |= grid_add(L, at) < 0;
        draw(ctx, text, &st, at);
    }
    L->n = 0;
    return failed ? -1 : 0;
}

void render_state_free(render_state *st)
{
    labels_free(&st->labels);
    texts_free(&st->texts);
}
