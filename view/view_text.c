/*
 * view_text.c — text of the viewer's own UI (status line, tooltip, marker
 * names, help): a plain sans-serif face and a Japanese-capable one found
 * through a private fontconfig configuration (as libtlv's renderer does, in
 * a smaller form), opened with SDL_ttf at one pixel size, and a small cache
 * of rendered textures, since the same few strings are drawn every frame.
 */
#include "view/core.h"

#include <SDL_ttf.h>
#include <fontconfig/fontconfig.h>

#include <stdlib.h>
#include <string.h>

#define CACHE_MAX 256

typedef struct cached {
    char *s;
    uint32_t rgb;
    SDL_Texture *tex;
    int w, h;
} cached;

struct view_text {
    SDL_Renderer *ren;
    TTF_Font *sans, *cjk;       /* either may be NULL */
    int height;
    cached cache[CACHE_MAX];
    size_t ncache;
};

/* The file of the best match for "sans-serif" (with Japanese coverage when
 * `lang` is "ja"), or NULL; *index gets the face index. Caller frees. */
static char *find_font(FcConfig *fc, const char *lang, int *index)
{
    FcPattern *pat = FcPatternCreate();
    if (!pat)
        return NULL;
    FcPatternAddString(pat, FC_FAMILY, (const FcChar8 *)"sans-serif");
    if (lang)
        FcPatternAddString(pat, FC_LANG, (const FcChar8 *)lang);
    FcPatternAddBool(pat, FC_SCALABLE, FcTrue);
    FcConfigSubstitute(fc, pat, FcMatchPattern);
    FcDefaultSubstitute(pat);
    FcResult res;
    FcPattern *m = FcFontMatch(fc, pat, &res);
    FcPatternDestroy(pat);
    char *path = NULL;
    FcChar8 *file = NULL;
    FcCharSet *cs = NULL;
    *index = 0;
    /* a "ja" match must really have kana, not just be the nearest font */
    if (m && FcPatternGetString(m, FC_FILE, 0, &file) == FcResultMatch &&
        (!lang || (FcPatternGetCharSet(m, FC_CHARSET, 0, &cs) == FcResultMatch &&
                   FcCharSetHasChar(cs, 0x3042)))) {
        FcPatternGetInteger(m, FC_INDEX, 0, index);
        *index &= 0xFFFF; /* the high bits name a variable-font instance */
        path = strdup((const char *)file);
    }
    if (m)
        FcPatternDestroy(m);
    return path;
}

static TTF_Font *open_font(FcConfig *fc, const char *lang, int px)
{
    int index;
    char *path = find_font(fc, lang, &index);
    TTF_Font *f = path ? TTF_OpenFontIndex(path, px, index) : NULL;
    free(path);
    return f;
}

view_text *view_text_new(SDL_Renderer *ren, int px)
{
    if (TTF_Init() != 0)
        return NULL;
    view_text *t = calloc(1, sizeof *t);
    if (!t) {
        TTF_Quit();
        return NULL;
    }
    t->ren = ren;
    FcConfig *fc = FcInitLoadConfigAndFonts(); /* private: nothing global is touched */
    if (fc) {
        t->sans = open_font(fc, NULL, px);
        t->cjk = open_font(fc, "ja", px);
        FcConfigDestroy(fc);
    }
    TTF_Font *f = t->sans ? t->sans : t->cjk;
    t->height = f ? TTF_FontHeight(f) : px;
    return t;
}

static void cache_clear(view_text *t)
{
    for (size_t i = 0; i < t->ncache; i++) {
        free(t->cache[i].s);
        SDL_DestroyTexture(t->cache[i].tex);
    }
    t->ncache = 0;
}

void view_text_free(view_text *t)
{
    if (!t)
        return;
    cache_clear(t);
    if (t->sans)
        TTF_CloseFont(t->sans);
    if (t->cjk)
        TTF_CloseFont(t->cjk);
    free(t);
    TTF_Quit();
}

int view_text_height(const view_text *t) { return t ? t->height : 0; }

/* The plain face unless it lacks a character of s the Japanese one has. */
static TTF_Font *font_for(view_text *t, const char *s)
{
    if (!t->sans || !t->cjk)
        return t->sans ? t->sans : t->cjk;
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        uint32_t c = *p;
        int n = c < 0x80 ? 0 : (c & 0xE0) == 0xC0 ? 1 : (c & 0xF0) == 0xE0 ? 2 : 3;
        c &= n == 0 ? 0x7F : 0x3F >> n;
        p++;
        for (int i = 0; i < n && (*p & 0xC0) == 0x80; i++, p++)
            c = c << 6 | (*p & 0x3F);
        if (c >= 0x80 && !TTF_GlyphIsProvided32(t->sans, c) && TTF_GlyphIsProvided32(t->cjk, c))
            return t->cjk;
    }
    return t->sans;
}

static cached *lookup(view_text *t, const char *s, uint32_t rgb)
{
    for (size_t i = 0; i < t->ncache; i++)
        if (t->cache[i].rgb == rgb && strcmp(t->cache[i].s, s) == 0)
            return &t->cache[i];
    TTF_Font *f = font_for(t, s);
    if (!f)
        return NULL;
    SDL_Color c = {(uint8_t)(rgb >> 16), (uint8_t)(rgb >> 8), (uint8_t)rgb, 255};
    SDL_Surface *surf = TTF_RenderUTF8_Blended(f, s, c);
    SDL_Texture *tex = surf ? SDL_CreateTextureFromSurface(t->ren, surf) : NULL;
    cached e = {strdup(s), rgb, tex, surf ? surf->w : 0, surf ? surf->h : 0};
    SDL_FreeSurface(surf);
    if (!tex || !e.s) {
        SDL_DestroyTexture(tex);
        free(e.s);
        return NULL;
    }
    if (t->ncache == CACHE_MAX) /* a changing string (the cursor time) fills it: start over */
        cache_clear(t);
    t->cache[t->ncache] = e;
    return &t->cache[t->ncache++];
}

int view_text_draw(view_text *t, const char *s, int x, int y, uint32_t rgb)
{
    if (!t || !s || !*s)
        return 0;
    cached *c = lookup(t, s, rgb);
    if (!c)
        return 0;
    SDL_Rect dst = {x, y, c->w, c->h};
    SDL_RenderCopy(t->ren, c->tex, NULL, &dst);
    return c->w;
}

int view_text_width(view_text *t, const char *s)
{
    if (!t || !s || !*s)
        return 0;
    TTF_Font *f = font_for(t, s);
    int w = 0, h = 0;
    if (!f || TTF_SizeUTF8(f, s, &w, &h) != 0)
        return 0;
    return w;
}
