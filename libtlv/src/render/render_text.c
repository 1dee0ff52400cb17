/*
 * render_text.c — text for the renderer: fonts found through fontconfig (a
 * private FcConfig per render_fonts), a Japanese-capable
 * font picked when a string has CJK characters the plain font lacks, SDL_ttf
 * fonts cached per (file, face, pixel size, style), one-line drawing cut
 * with an ellipsis, and a cache of rendered text textures that lives from
 * one frame to the next on the same SDL_Renderer (a trace repeats the same
 * few words thousands of times).
 *
 * Missing fonts are not errors: text is drawn with what exists, or not at
 * all, and one warning per kind of problem goes to the diags.
 *
 * Threads: renderers on separate threads share what SDL_ttf, FreeType and
 * fontconfig keep per process, so every call that reaches it takes
 * shared_lock (see there); drawing with a font this render_fonts opened
 * touches only that font and runs unlocked.
 */
#include "render/render_impl.h"

#include "base/buf.h"

#include <SDL_ttf.h>
#include <fontconfig/fontconfig.h>

#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A font file face as fontconfig resolved it. state: 0 not looked up yet,
 * 1 found, -1 none. */
typedef struct face_ref {
    int state;
    char *path;
    int index;
    char *family;
} face_ref;

typedef struct named_face {
    char *request;        /* the Font.Family asked for */
    face_ref face;
} named_face;

typedef struct font_entry {
    const face_ref *face;
    int px;
    unsigned style;
    TTF_Font *font;       /* NULL: opening failed (not retried) */
} font_entry;

typedef struct tex_entry {
    char *text;           /* NULL = empty slot */
    TTF_Font *font;
    uint32_t rgb;
    SDL_Texture *tex;
    int w, h;
    unsigned long used;   /* frame number of the last use */
} tex_entry;

#define TEX_CACHE_MAX 8192 /* most textures kept; further texts are drawn uncached */

/* How a text measures, whole or cut to a width with an ellipsis. SDL_ttf
 * measures by walking every glyph, and a frame measures each label it draws
 * (the same few words thousands of times), which was a quarter of a frame:
 * so the answers are kept from frame to frame like the textures. */
typedef struct fit_entry {
    char *text;           /* NULL = empty slot */
    TTF_Font *font;
    int width;            /* -1: the whole text; else the width it was cut to */
    int middle;           /* cut in the middle (else at the end) */
    char *cut;            /* the cut text (NULL: whole, or nothing fits) */
    int w, h;             /* the size of what is drawn */
    unsigned long used;   /* frame number of the last use */
} fit_entry;

#define FIT_CACHE_MAX 16384

struct render_fonts {
    tlv_diags *diags;
    int nomem;            /* SDL_ttf, FreeType or SDL ran out of memory (render_fonts_out_of_memory) */
    int ttf_ok;
    FcConfig *fc;
    face_ref sans, cjk;
    named_face *named;
    size_t nnamed, named_cap;
    font_entry *fonts;
    size_t nfonts, fonts_cap;
    tex_entry *tex;       /* open addressing; cap is a power of two */
    size_t ntex, tex_cap;
    fit_entry *fit;       /* the same */
    size_t nfit, fit_cap;
    char *spill;          /* a cut text the full cache could not keep */
    SDL_Renderer *ren;
    unsigned long frame;
    int warned_cjk, warned_none;
};

/* ---- process-wide state ------------------------------------------------------- */

/* The library's only process-wide object, because the libraries under it
 * have process-wide state that is not safe to use from two threads at once:
 * - SDL_ttf keeps one FreeType library and counts TTF_Init/TTF_Quit callers
 *   in a plain int, so two renderers made or freed at the same time could
 *   both initialise it, or free it under the other;
 * - FreeType allows several threads on one library only "as long as a mutex
 *   lock is used around FT_New_Face and FT_Done_Face" (TTF_OpenFontIndex,
 *   TTF_CloseFont);
 * - fontconfig shares its font caches between every FcConfig of the process;
 * - SDL shares one SDL_PixelFormat per format between all surfaces and
 *   textures, made by the first and freed by the last. SDL 2.26 guards that
 *   list with a spin lock, older SDL 2.0 did not; pinning the formats we use
 *   while any renderer lives keeps them from being made or freed while
 *   another thread draws (and keeps ThreadSanitizer, which cannot see SDL's
 *   lock, quiet about it).
 * A static initializer needs no set-up call, so embedding code has nothing
 * to call first. */
static pthread_mutex_t shared_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long shared_users;      /* live render_fonts; under shared_lock */
static int shared_ttf_ok;
static SDL_PixelFormat *shared_formats[2];

static void shared_enter(void) { pthread_mutex_lock(&shared_lock); }
static void shared_leave(void) { pthread_mutex_unlock(&shared_lock); }

/* Takes one user's reference to the shared state (under shared_lock);
 * returns whether SDL_ttf is usable. */
static int shared_acquire_locked(void)
{
    if (shared_users++ == 0) {
        /* frames are RGBA32, SDL_ttf's blended text ARGB8888 */
        shared_formats[0] = SDL_AllocFormat(SDL_PIXELFORMAT_RGBA32);
        shared_formats[1] = SDL_AllocFormat(SDL_PIXELFORMAT_ARGB8888);
        shared_ttf_ok = TTF_Init() == 0;
    }
    return shared_ttf_ok;
}

/* Drops it; the last user shuts SDL_ttf down (its fonts must be closed). */
static void shared_release_locked(void)
{
    if (--shared_users > 0)
        return;
    if (shared_ttf_ok)
        TTF_Quit();
    shared_ttf_ok = 0;
    for (int i = 0; i < 2; i++) {
        SDL_FreeFormat(shared_formats[i]);
        shared_formats[i] = NULL;
    }
}

/* ---- set-up ------------------------------------------------------------------- */

render_fonts *render_fonts_new(tlv_diags *diags)
{
    render_fonts *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->diags = diags;
    /* SDL_ttf is initialised by the first renderer and shut down by the
     * last, never while another one lives. */
    shared_enter();
    f->ttf_ok = shared_acquire_locked();
    f->fc = FcInitLoadConfigAndFonts();
    shared_leave();
    return f;
}

static void face_free(face_ref *r)
{
    free(r->path);
    free(r->family);
}

static void tex_clear(render_fonts *f, int destroy)
{
    for (size_t i = 0; i < f->tex_cap; i++) {
        if (!f->tex[i].text)
            continue;
        if (destroy)
            SDL_DestroyTexture(f->tex[i].tex);
        free(f->tex[i].text);
        f->tex[i].text = NULL;
    }
    f->ntex = 0;
}

static void fit_free_entry(fit_entry *e)
{
    free(e->text);
    free(e->cut);
    e->text = NULL;
}

static void fit_clear(render_fonts *f)
{
    for (size_t i = 0; i < f->fit_cap; i++)
        if (f->fit[i].text)
            fit_free_entry(&f->fit[i]);
    free(f->fit);
    f->fit = NULL;
    f->nfit = f->fit_cap = 0;
    free(f->spill);
    f->spill = NULL;
}

void render_fonts_free(render_fonts *f)
{
    if (!f)
        return;
    tex_clear(f, f->ren != NULL); /* by contract the renderer is still alive if set */
    fit_clear(f);
    free(f->tex);
    shared_enter();
    for (size_t i = 0; i < f->nfonts; i++)
        if (f->fonts[i].font)
            TTF_CloseFont(f->fonts[i].font);
    if (f->fc)
        FcConfigDestroy(f->fc);
    shared_release_locked();
    shared_leave();
    free(f->fonts);
    for (size_t i = 0; i < f->nnamed; i++) {
        free(f->named[i].request);
        face_free(&f->named[i].face);
    }
    free(f->named);
    face_free(&f->sans);
    face_free(&f->cjk);
    free(f);
}

/* ---- UTF-8 -------------------------------------------------------------------- */

/* Decodes the code point at *s and advances; malformed bytes give U+FFFD. */
static uint32_t utf8_next(const char **s)
{
    const unsigned char *p = (const unsigned char *)*s;
    uint32_t c = p[0];
    int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : (c & 0xF8) == 0xF0 ? 3 : -1;
    if (n < 0) {
        *s += 1;
        return 0xFFFD;
    }
    c &= n == 0 ? 0x7F : 0x3F >> n;
    for (int i = 1; i <= n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *s += i;
            return 0xFFFD;
        }
        c = c << 6 | (p[i] & 0x3F);
    }
    *s += n + 1;
    return c;
}

/* Characters that need a CJK font: Hangul, CJK radicals through unified
 * ideographs (kana and CJK punctuation included), compatibility ideographs,
 * vertical and full-width forms, and the supplementary ideograph planes. */
static int is_cjk(uint32_t c)
{
    return (c >= 0x1100 && c <= 0x11FF) || (c >= 0x2E80 && c <= 0x9FFF) ||
           (c >= 0xA960 && c <= 0xA97F) || (c >= 0xAC00 && c <= 0xD7AF) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) ||
           (c >= 0xFF00 && c <= 0xFFEF) || (c >= 0x20000 && c <= 0x3FFFF);
}

static int has_cjk(const char *text)
{
    for (const char *s = text; *s;)
        if (is_cjk(utf8_next(&s)))
            return 1;
    return 0;
}

/* ---- fontconfig --------------------------------------------------------------- */

/* Whether the matched font has every CJK character of `text`. */
static int covers_cjk(FcPattern *m, const char *text)
{
    FcCharSet *cs;
    if (FcPatternGetCharSet(m, FC_CHARSET, 0, &cs) != FcResultMatch)
        return 0;
    if (!FcCharSetHasChar(cs, 0x3042) || !FcCharSetHasChar(cs, 0x4E00))
        return 0; /* not Japanese at all (hiragana A, ideograph one) */
    for (const char *s = text; *s;) {
        uint32_t c = utf8_next(&s);
        if (is_cjk(c) && !FcCharSetHasChar(cs, c))
            return 0;
    }
    return 1;
}

/* Resolves `family` (with Japanese coverage for `cjk_text` when not NULL)
 * into out. */
static void fc_find_locked(render_fonts *f, const char *family, const char *cjk_text,
                           face_ref *out)
{
    out->state = -1;
    FcPattern *pat = f->fc ? FcPatternCreate() : NULL;
    if (!pat)
        return;
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)(family ? family : "sans-serif"));
    if (cjk_text)
        FcPatternAddString(pat, FC_LANG, (const FcChar8 *)"ja");
    FcPatternAddBool(pat, FC_SCALABLE, FcTrue);
    FcConfigSubstitute(f->fc, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *m = FcFontMatch(f->fc, pat, &res);
    FcPatternDestroy(pat);
    FcChar8 *file = NULL, *fam = NULL;
    int index = 0;
    if (m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch &&
        (!cjk_text || covers_cjk(m, cjk_text))) {
        FcPatternGetInteger(m, FC_INDEX, 0, &index);
        FcPatternGetString(m, FC_FAMILY, 0, &fam);
        out->path = xstrdup((const char *)file);
        out->family = xstrdup(fam ? (const char *)fam : "?");
        out->index = index & 0xFFFF; /* the high bits name a variable-font instance */
        out->state = out->path && out->family ? 1 : -1;
    }
    if (m)
        FcPatternDestroy(m);
}

static void fc_find(render_fonts *f, const char *family, const char *cjk_text, face_ref *out)
{
    shared_enter();
    fc_find_locked(f, family, cjk_text, out);
    shared_leave();
}

static const face_ref *sans_face(render_fonts *f)
{
    if (f->sans.state == 0)
        fc_find(f, NULL, NULL, &f->sans);
    if (f->sans.state < 0 && !f->warned_none) {
        f->warned_none = 1;
        diags_add(f->diags, TLV_SEV_WARNING, NULL, 0, 0,
                  "no font found through fontconfig (install fonts-dejavu-core); text is not drawn");
    }
    return f->sans.state > 0 ? &f->sans : NULL;
}

static const face_ref *named_face_of(render_fonts *f, const char *family)
{
    for (size_t i = 0; i < f->nnamed; i++)
        if (strcmp(f->named[i].request, family) == 0)
            return f->named[i].face.state > 0 ? &f->named[i].face : sans_face(f);
    if (GROW(f->named, f->named_cap, f->nnamed + 1) < 0)
        return sans_face(f);
    named_face *n = &f->named[f->nnamed];
    memset(n, 0, sizeof *n);
    if (!(n->request = xstrdup(family)))
        return sans_face(f);
    f->nnamed++;
    fc_find(f, family, NULL, &n->face);
    return n->face.state > 0 ? &n->face : sans_face(f);
}

/* ---- SDL_ttf fonts ------------------------------------------------------------ */

/* After a failed SDL_ttf or SDL call: was it for want of memory? (SDL says
 * "Out of memory", FreeType's errors through SDL_ttf "out of memory"; SDL_ttf
 * says nothing when it could not make a surface.) A
 * text left out for that reason makes the frame fail, not look complete. */
static void note_failure(render_fonts *f)
{
    const char *e = SDL_GetError(); /* "" too: SDL_ttf gives no reason when a surface cannot be made */
    if (!*e || strstr(e, "Out of memory") || strstr(e, "out of memory"))
        f->nomem = 1;
}

/* SDL_ttf returns NULL without setting an error when its own pixel buffer
 * cannot be allocated, so SDL_GetError() then shows whatever failed before
 * on this thread: a text that measured fine and cannot be rendered is out
 * of memory unless SDL_ttf said why (zero width, too large). */
static void note_render_failure(render_fonts *f)
{
    const char *e = SDL_GetError();
    if (!strstr(e, "zero width") && !strstr(e, "too large") && !strstr(e, "NULL"))
        f->nomem = 1;
}

int render_fonts_out_of_memory(render_fonts *f)
{
    int was = f->nomem;
    f->nomem = 0;
    return was;
}

static TTF_Font *open_font(render_fonts *f, const face_ref *face, int px, unsigned style)
{
    for (size_t i = 0; i < f->nfonts; i++) {
        font_entry *e = &f->fonts[i];
        if (e->face == face && e->px == px && e->style == style)
            return e->font;
    }
    shared_enter(); /* FreeType's FT_New_Face, see shared_lock */
    TTF_Font *font = TTF_OpenFontIndex(face->path, px, face->index);
    if (!font) /* SDL_ttf says "Couldn't load font file" when FreeType ran out of memory too:
                  a font fontconfig listed that fails once is tried again before it counts as broken */
        font = TTF_OpenFontIndex(face->path, px, face->index);
    shared_leave();
    if (!font)
        note_failure(f);
    if (!font && f->nomem)
        return NULL; /* not remembered as a font that cannot be opened */
    if (font) {
        int s = (style & FONT_BOLD ? TTF_STYLE_BOLD : 0) | (style & FONT_ITALIC ? TTF_STYLE_ITALIC : 0) |
                (style & FONT_UNDERLINE ? TTF_STYLE_UNDERLINE : 0) |
                (style & FONT_STRIKEOUT ? TTF_STYLE_STRIKETHROUGH : 0);
        TTF_SetFontStyle(font, s);
    }
    if (GROW(f->fonts, f->fonts_cap, f->nfonts + 1) == 0)
        f->fonts[f->nfonts++] = (font_entry){face, px, style, font};
    else if (font) { /* cannot cache it: do not leak it either */
        shared_enter();
        TTF_CloseFont(font);
        shared_leave();
        font = NULL;
    }
    return font;
}

/* Whether `font` has a glyph for every CJK character of text. */
static int font_has_cjk(TTF_Font *font, const char *text)
{
    for (const char *s = text; *s;) {
        uint32_t c = utf8_next(&s);
        if (is_cjk(c) && !TTF_GlyphIsProvided32(font, c))
            return 0;
    }
    return 1;
}

/* The Japanese-capable face, looked up the first time a text needs it. */
static const face_ref *cjk_face(render_fonts *f, const char *text, const face_ref *fallback)
{
    if (f->cjk.state == 0)
        fc_find(f, NULL, text, &f->cjk);
    if (f->cjk.state < 0 && !f->warned_cjk) {
        f->warned_cjk = 1;
        diags_add(f->diags, TLV_SEV_WARNING, NULL, 0, 0,
                  "no font with Japanese glyphs found (install fonts-noto-cjk); drawing labels "
                  "with %s", fallback->family);
    }
    return f->cjk.state > 0 ? &f->cjk : NULL;
}

/* The font to draw `text` with, or NULL when there is none. */
static TTF_Font *pick_font(render_fonts *f, const char *text, const text_style *st)
{
    if (!f || !f->ttf_ok)
        return NULL;
    const face_ref *face = st->family ? named_face_of(f, st->family) : sans_face(f);
    if (!face)
        return NULL;
    int px = (int)lroundf(st->px);
    px = px < 4 ? 4 : px > 512 ? 512 : px;
    TTF_Font *font = open_font(f, face, px, st->style);
    if (font && has_cjk(text) && !font_has_cjk(font, text)) {
        const face_ref *cjk = cjk_face(f, text, face);
        TTF_Font *alt = cjk ? open_font(f, cjk, px, st->style) : NULL;
        font = alt ? alt : font;
    }
    return font;
}

int render_text_width(render_fonts *f, const char *text, const text_style *st)
{
    TTF_Font *font = pick_font(f, text, st);
    int w = 0, h = 0;
    if (!font || TTF_SizeUTF8(font, text, &w, &h) != 0)
        return -1;
    return w;
}

/* ---- the texture cache -------------------------------------------------------- */

static size_t tex_hash(TTF_Font *font, uint32_t rgb, const char *text)
{
    uint64_t h = 1469598103934665603ull ^ (uintptr_t)font ^ ((uint64_t)rgb << 32);
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)(h ^ h >> 29);
}

static tex_entry *tex_slot(render_fonts *f, TTF_Font *font, uint32_t rgb, const char *text)
{
    size_t mask = f->tex_cap - 1, i = tex_hash(font, rgb, text) & mask;
    while (f->tex[i].text &&
           !(f->tex[i].font == font && f->tex[i].rgb == rgb && strcmp(f->tex[i].text, text) == 0))
        i = (i + 1) & mask;
    return &f->tex[i];
}

/* Rebuilds the table at `cap` slots, keeping the entries used since frame
 * `keep_from` and destroying the others' textures. */
static int tex_rebuild(render_fonts *f, size_t cap, unsigned long keep_from)
{
    tex_entry *old = f->tex, *t = calloc(cap, sizeof *t);
    size_t old_cap = f->tex_cap;
    if (!t)
        return -1;
    f->tex = t;
    f->tex_cap = cap;
    f->ntex = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].text)
            continue;
        if (old[i].used < keep_from) {
            SDL_DestroyTexture(old[i].tex);
            free(old[i].text);
            continue;
        }
        *tex_slot(f, old[i].font, old[i].rgb, old[i].text) = old[i];
        f->ntex++;
    }
    free(old);
    return 0;
}

void render_text_begin(render_fonts *f, SDL_Renderer *ren)
{
    if (!f)
        return;
    if (f->ren != ren) /* textures belong to one renderer */
        tex_clear(f, f->ren != NULL);
    f->ren = ren;
    f->frame++;
}

/* ---- the measure cache ------------------------------------------------------- */

static char *ellipsize(TTF_Font *font, const char *text, int width); /* drawing, below */
static char *ellipsize_middle(TTF_Font *font, const char *text, int width);

static size_t fit_hash(TTF_Font *font, int width, int middle, const char *text)
{
    uint64_t h = 1469598103934665603ull ^ (uintptr_t)font ^ ((uint64_t)(unsigned)width << 32) ^
                 (uint64_t)middle << 31;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    return (size_t)(h ^ h >> 29);
}

static fit_entry *fit_slot(fit_entry *table, size_t cap, TTF_Font *font, int width, int middle,
                           const char *text)
{
    size_t mask = cap - 1, i = fit_hash(font, width, middle, text) & mask;
    while (table[i].text && !(table[i].font == font && table[i].width == width &&
                              table[i].middle == middle && strcmp(table[i].text, text) == 0))
        i = (i + 1) & mask;
    return &table[i];
}

/* Rebuilds the table at `cap` slots, keeping the entries used since frame
 * `keep_from`. */
static int fit_rebuild(render_fonts *f, size_t cap, unsigned long keep_from)
{
    fit_entry *old = f->fit, *t = calloc(cap, sizeof *t);
    size_t old_cap = f->fit_cap;
    if (!t)
        return -1;
    f->fit = t;
    f->fit_cap = cap;
    f->nfit = 0;
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].text)
            continue;
        if (old[i].used < keep_from) {
            fit_free_entry(&old[i]);
            continue;
        }
        *fit_slot(t, cap, old[i].font, old[i].width, old[i].middle, old[i].text) = old[i];
        f->nfit++;
    }
    free(old);
    return 0;
}

/* The cached answer for (font, width, middle, text), or a free slot to
 * fill (its text NULL), or NULL when the cache is full. */
static fit_entry *fit_find(render_fonts *f, TTF_Font *font, int width, int middle, const char *text)
{
    if (f->nfit + 1 > f->fit_cap / 2 && f->nfit < FIT_CACHE_MAX)
        fit_rebuild(f, f->fit_cap ? f->fit_cap * 2 : 512, 0);
    if (f->nfit + 1 > f->fit_cap / 2)
        return NULL;
    fit_entry *e = fit_slot(f->fit, f->fit_cap, font, width, middle, text);
    if (e->text)
        e->used = f->frame;
    return e;
}

/* Fills the free slot e; 0 when it cannot (no slot, no memory): then the
 * caller still owns cut. */
static int fit_fill(render_fonts *f, fit_entry *e, TTF_Font *font, int width, int middle,
                    const char *text, char *cut, int w, int h)
{
    char *key = e ? xstrdup(text) : NULL;
    if (!key)
        return 0;
    *e = (fit_entry){key, font, width, middle, cut, w, h, f->frame};
    f->nfit++;
    return 1;
}

/* The text to draw in a box `box_w` wide (*drawn: text itself, or its cut
 * with an ellipsis, which lives until the next frame begins) and its size.
 * Returns -1 when nothing is drawn (not measurable, or no room even for
 * the ellipsis). */
static int measure(render_fonts *f, TTF_Font *font, const char *text, float box_w, int middle,
                   const char **drawn, int *w, int *h)
{
    fit_entry *e = fit_find(f, font, -1, 0, text);
    if (e && e->text) {
        *w = e->w;
        *h = e->h;
    } else {
        if (TTF_SizeUTF8(font, text, w, h) != 0) {
            note_failure(f);
            return -1;
        }
        fit_fill(f, e, font, -1, 0, text, NULL, *w, *h);
    }
    *drawn = text;
    if (*w <= box_w)
        return 0;
    int width = box_w > 0 ? (int)floorf(box_w) : 0;
    e = fit_find(f, font, width, middle, text);
    if (e && e->text) {
        *drawn = e->cut;
        *w = e->w;
        *h = e->h;
        return e->cut ? 0 : -1;
    }
    char *cut = middle ? ellipsize_middle(font, text, width) : ellipsize(font, text, width);
    if (cut)
        TTF_SizeUTF8(font, cut, w, h);
    if (!fit_fill(f, e, font, width, middle, text, cut, *w, *h)) {
        free(f->spill); /* the previous spill's text was drawn already */
        f->spill = cut;
    }
    *drawn = cut;
    return cut ? 0 : -1;
}

void render_text_end(render_fonts *f)
{
    if (f && f->ntex)
        tex_rebuild(f, f->tex_cap, f->frame);
    if (f && f->nfit)
        fit_rebuild(f, f->fit_cap, f->frame);
}

void render_text_release(render_fonts *f)
{
    if (!f)
        return;
    tex_clear(f, f->ren != NULL);
    f->ren = NULL;
}

static SDL_Texture *make_texture(render_fonts *f, TTF_Font *font, uint32_t rgb, const char *text,
                                 int *w, int *h)
{
    SDL_Color c = {(Uint8)(rgb >> 16), (Uint8)(rgb >> 8), (Uint8)rgb, 255};
    SDL_Surface *s = TTF_RenderUTF8_Blended(font, text, c);
    if (!s) {
        note_render_failure(f);
        return NULL;
    }
    SDL_Texture *t = SDL_CreateTextureFromSurface(f->ren, s);
    if (!t)
        note_failure(f);
    *w = s->w;
    *h = s->h;
    SDL_FreeSurface(s);
    if (t)
        SDL_SetTextureBlendMode(t, SDL_BLENDMODE_BLEND);
    return t;
}

/* The texture of `text`, cached; *owned is set when the caller must destroy
 * it (the cache is full or out of memory). */
static SDL_Texture *text_texture(render_fonts *f, TTF_Font *font, uint32_t rgb, const char *text,
                                 int *w, int *h, int *owned)
{
    *owned = 0;
    if (f->ntex + 1 > f->tex_cap / 2 && f->ntex < TEX_CACHE_MAX)
        tex_rebuild(f, f->tex_cap ? f->tex_cap * 2 : 256, 0);
    tex_entry *e = f->ntex < f->tex_cap / 2 ? tex_slot(f, font, rgb, text) : NULL;
    if (e && e->text) {
        e->used = f->frame;
        *w = e->w;
        *h = e->h;
        return e->tex;
    }
    SDL_Texture *t = make_texture(f, font, rgb, text, w, h);
    char *key = t && e ? xstrdup(text) : NULL;
    if (!key) {
        *owned = t != NULL;
        return t;
    }
    *e = (tex_entry){key, font, rgb, t, *w, *h, f->frame};
    f->ntex++;
    return t;
}

/* ---- drawing ------------------------------------------------------------------ */

/* The byte length of the first `count` characters of text. */
static size_t prefix_bytes(const char *text, int count)
{
    const char *s = text;
    for (int i = 0; i < count && *s; i++)
        utf8_next(&s);
    return (size_t)(s - text);
}

/* `text` cut to fit `width` pixels with an ellipsis, in a new string, or
 * NULL when not even the ellipsis fits. */
static char *ellipsize(TTF_Font *font, const char *text, int width)
{
    const char *dots = TTF_GlyphIsProvided32(font, 0x2026) ? "\xE2\x80\xA6" : "...";
    int dw = 0, h, extent = 0, count = 0;
    TTF_SizeUTF8(font, dots, &dw, &h);
    if (dw > width)
        return NULL;
    if (TTF_MeasureUTF8(font, text, width - dw, &extent, &count) != 0)
        count = 0;
    size_t n = prefix_bytes(text, count);
    char *out = malloc(n + 4);
    for (;;) { /* kerning may make the joined text a little wider: drop more */
        if (!out)
            return NULL;
        while (n > 0 && text[n - 1] == ' ')
            n--;
        memcpy(out, text, n);
        strcpy(out + n, dots);
        int w = 0;
        if (n == 0 || (TTF_SizeUTF8(font, out, &w, &h) == 0 && w <= width))
            return out;
        while (n > 0 && ((unsigned char)text[n - 1] & 0xC0) == 0x80)
            n--;
        n--;
    }
}

/* The byte offset where the last `count` characters of text start. */
static size_t suffix_start(const char *text, int count)
{
    size_t n = strlen(text);
    for (int i = 0; i < count && n > 0; i++) {
        n--;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80)
            n--;
    }
    return n;
}

static int count_chars(const char *text)
{
    int n = 0;
    for (const char *s = text; *s;) {
        utf8_next(&s);
        n++;
    }
    return n;
}

/* `text` cut in the middle to fit `width` pixels ("MAIN_TA…_PRC3"): its
 * start and its end, which tell apart names that share a prefix. A new
 * string, or NULL when not even the ellipsis fits. */
static char *ellipsize_middle(TTF_Font *font, const char *text, int width)
{
    const char *dots = TTF_GlyphIsProvided32(font, 0x2026) ? "\xE2\x80\xA6" : "...";
    size_t len = strlen(text);
    char *out = malloc(len + 4), *best = NULL;
    if (!out)
        return NULL;
    int lo = 0, hi = count_chars(text) - 1, w, h;
    while (lo <= hi) { /* the most characters kept that fit: a binary search */
        int keep = (lo + hi) / 2, tail = keep / 2;
        size_t head = prefix_bytes(text, keep - tail), from = suffix_start(text, tail);
        from = from < head ? head : from;
        memcpy(out, text, head);
        strcpy(out + head, dots);
        strcat(out, text + from);
        if (TTF_SizeUTF8(font, out, &w, &h) == 0 && w <= width) {
            free(best);
            best = xstrdup(out);
            lo = keep + 1;
        } else {
            hi = keep - 1;
        }
    }
    free(out);
    return best;
}

static int place(int align, float start, float extent, int size)
{
    float at = align == 0 ? start : align == 1 ? start + (extent - (float)size) / 2 : start + extent - (float)size;
    return (int)floorf(at + 0.5f);
}

int render_text_fit(render_fonts *f, const char *text, const text_style *st, float max_w,
                    const char **drawn, int *w, int *h)
{
    TTF_Font *font = text && *text ? pick_font(f, text, st) : NULL;
    if (!font)
        return -1;
    return measure(f, font, text, max_w, st->elide_middle, drawn, w, h);
}

int render_text_at(render_fonts *f, const char *drawn, const text_style *st, int x, int y,
                   const SDL_Rect *clip)
{
    TTF_Font *font = drawn && *drawn ? pick_font(f, drawn, st) : NULL;
    if (!font || !f->ren)
        return drawn && *drawn ? -1 : 0;
    int w = 0, h = 0, owned;
    SDL_Texture *t = text_texture(f, font, st->argb & 0xFFFFFF, drawn, &w, &h, &owned);
    if (!t)
        return 0;
    SDL_Rect dst = {x, y, w, h}, seen;
    if (!clip || SDL_IntersectRect(&dst, clip, &seen)) {
        SDL_Rect before; /* the caller's clip, put back afterwards */
        int had_clip = SDL_RenderIsClipEnabled(f->ren);
        SDL_RenderGetClipRect(f->ren, &before);
        /* SDL queues these: a failed result is its queue out of memory, and
           the text would be missing from the picture without a word */
        int rc = SDL_RenderSetClipRect(f->ren, clip);
        SDL_SetTextureAlphaMod(t, (Uint8)(st->argb >> 24));
        rc |= SDL_RenderCopy(f->ren, t, NULL, &dst);
        rc |= SDL_RenderSetClipRect(f->ren, had_clip ? &before : NULL);
        if (rc < 0)
            f->nomem = 1;
    }
    if (owned)
        SDL_DestroyTexture(t);
    return 0;
}

static int intersect(const SDL_Rect *a, const SDL_Rect *b, SDL_Rect *out)
{
    if (!b) {
        *out = *a;
        return a->w > 0 && a->h > 0;
    }
    return SDL_IntersectRect(a, b, out) == SDL_TRUE;
}

int render_text(render_fonts *f, const char *text, const text_style *st, frect box,
                const SDL_Rect *clip, text_drawn *out)
{
    if (out)
        out->text = NULL;
    TTF_Font *font = text && *text ? pick_font(f, text, st) : NULL;
    if (!font || !f->ren)
        return text && *text ? -1 : 0;
    int w = 0, h = 0;
    if (measure(f, font, text, box.w, st->elide_middle, &text, &w, &h) < 0)
        return 0;
    SDL_Rect dst = {place(st->align.h, box.x, box.w, w), place(st->align.v, box.y, box.h, h), w, h};
    SDL_Rect b = {(int)floorf(box.x + 0.5f), (int)floorf(box.y + 0.5f), (int)floorf(box.w + 0.5f),
                  (int)floorf(box.h + 0.5f)}, c, seen;
    /* Zoomed in, most texts of long intervals sit far outside the view:
     * skip them before making a texture. */
    if (!intersect(&b, clip, &c) || !SDL_IntersectRect(&dst, &c, &seen))
        return 0;
    if (out) {
        out->text = text;
        out->at = seen;
    }
    return render_text_at(f, text, st, dst.x, dst.y, &c);
}
