/*
 * panel_prompt.c — the viewer's one-line text prompt ("Go to:", "Search:",
 * "Rename marker:"), drawn as a line just above the status line. Panels ask
 * for it through the core (view_prompt_open), which hands the request to
 * this panel (its prompt hook); the panel keeps the text, edits and draws
 * it. While it is open it holds the keyboard (view_grab_keys), so that every
 * key and all typed text go to it: text is inserted at the
 * caret, Backspace and Delete remove whole UTF-8 characters, Left/Right/
 * Home/End move the caret, Enter hands the text to what asked for it and
 * Esc cancels. A prompt opened with a text (renaming) has it selected:
 * typing replaces it, Backspace or Delete clears it, an arrow keeps it and
 * moves the caret. When the text is not valid the prompt stays open with it, so
 * that it can be corrected, and the status line says what was expected.
 */
#include "view/view.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define C_PROMPT_BG 0xFFFFFFu
#define C_PROMPT_LABEL 0x286EDCu
#define C_PROMPT_TEXT 0x202020u
#define C_PROMPT_BORDER 0x909090u
#define C_PROMPT_SELECTION 0xB4D5FEu

/* The line being edited. */
typedef struct view_prompt {
    int open;
    const char *label;          /* "Go to:", ... */
    char text[256];             /* UTF-8, NUL-terminated */
    size_t caret;               /* byte offset in text, on a character boundary */
    size_t anchor;              /* the selection is between anchor and caret (none when
                                   equal); typing replaces it */
    view_prompt_fn on_enter;
    void *user;                 /* for on_enter */
} view_prompt;

typedef struct prompt_panel {
    view_panel base;
    view_prompt pr;
} prompt_panel;

static int scaled(const view_app *a, double v) { return (int)lround(v * a->scale); }

static int continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

static void erase(view_prompt *p, size_t from, size_t to);

/* Removes the selected text, if any; returns whether there was one. */
static int erase_selection(view_prompt *p)
{
    if (p->anchor == p->caret)
        return 0;
    size_t from = p->anchor < p->caret ? p->anchor : p->caret, to = p->anchor ^ p->caret ^ from;
    erase(p, from, to);
    return 1;
}

static void insert(view_app *a, view_prompt *p, const char *utf8)
{
    if (utf8[0] && (unsigned char)utf8[0] >= 0x20 && utf8[0] != 0x7F)
        erase_selection(p);
    size_t len = strlen(p->text), add = 0;
    while (utf8[add] && (unsigned char)utf8[add] >= 0x20 && utf8[add] != 0x7F)
        add++; /* control characters (a pasted line end) end the text */
    if (!add)
        return;
    if (len + add >= sizeof p->text) {
        view_message(a, "the text can be at most %zu bytes long", sizeof p->text - 1);
        return;
    }
    memmove(p->text + p->caret + add, p->text + p->caret, len - p->caret + 1);
    memcpy(p->text + p->caret, utf8, add);
    p->caret += add;
    p->anchor = p->caret;
    view_dirty(a);
}

/* The byte offset of the character before / after the caret. */
static size_t char_before(const view_prompt *p, size_t at)
{
    while (at > 0 && continuation(p->text[--at]))
        ;
    return at;
}

static size_t char_after(const view_prompt *p, size_t at)
{
    if (p->text[at])
        at++;
    while (p->text[at] && continuation(p->text[at]))
        at++;
    return at;
}

static void erase(view_prompt *p, size_t from, size_t to)
{
    memmove(p->text + from, p->text + to, strlen(p->text + to) + 1);
    p->caret = p->anchor = from;
}

static void close_prompt(prompt_panel *pp, view_app *a)
{
    pp->pr.open = 0;
    view_release_keys(a, &pp->base);
}

/* Enter: the text to whatever asked for it; the prompt closes when it was
 * accepted. */
static void submit(prompt_panel *pp, view_app *a)
{
    view_prompt *p = &pp->pr;
    int rc = p->on_enter ? p->on_enter(a, p->user, p->text) : 0;
    if (rc == 0)
        close_prompt(pp, a);
}

static void edit(prompt_panel *pp, view_app *a, SDL_Keycode key)
{
    view_prompt *p = &pp->pr;
    switch (key) {
    case SDLK_RETURN:
    case SDLK_KP_ENTER:
        submit(pp, a);
        break;
    case SDLK_ESCAPE:
        close_prompt(pp, a);
        view_message_clear(a);
        break;
    case SDLK_BACKSPACE:
        if (!erase_selection(p) && p->caret > 0)
            erase(p, char_before(p, p->caret), p->caret);
        break;
    case SDLK_DELETE:
        if (!erase_selection(p))
            erase(p, p->caret, char_after(p, p->caret));
        break;
    case SDLK_LEFT:
        p->caret = char_before(p, p->caret);
        break;
    case SDLK_RIGHT:
        p->caret = char_after(p, p->caret);
        break;
    case SDLK_HOME:
        p->caret = 0;
        break;
    case SDLK_END:
        p->caret = strlen(p->text);
        break;
    default:
        view_dirty(a);
        return; /* printable keys arrive as text */
    }
    if (key != SDLK_BACKSPACE && key != SDLK_DELETE)
        p->anchor = p->caret; /* moving the caret ends the selection */
    view_dirty(a);
}

static void draw_prompt(const view_prompt *p, view_app *a, int status_y)
{
    if (!p->open)
        return;
    int th = view_text_height(a->text), h = th + scaled(a, 8), y = status_y - h;
    int pad = scaled(a, 6), w = a->px_w;
    view_fill(a, 0, y, w, h, C_PROMPT_BG, 255);
    view_fill(a, 0, y, w, 1, C_PROMPT_BORDER, 255);
    int ty = y + (h - th) / 2;
    int x = pad + view_text_draw(a->text, p->label, pad, ty, C_PROMPT_LABEL) + pad;
    char before[sizeof p->text];
    memcpy(before, p->text, p->caret);
    before[p->caret] = '\0';
    int caret_x = view_text_width(a->text, before);
    int shift = x + caret_x > w - pad ? x + caret_x - (w - pad) : 0; /* keep the caret in sight */
    SDL_Rect clip = {x, y, w - x, h};
    SDL_RenderSetClipRect(a->ren, &clip);
    if (p->anchor != p->caret) { /* the selection's background */
        char upto[sizeof p->text];
        memcpy(upto, p->text, p->anchor);
        upto[p->anchor] = '\0';
        int ax = view_text_width(a->text, upto), x0 = ax < caret_x ? ax : caret_x;
        view_fill(a, x - shift + x0, ty, abs(caret_x - ax), th, C_PROMPT_SELECTION, 255);
    }
    view_text_draw(a->text, p->text, x - shift, ty, C_PROMPT_TEXT);
    SDL_RenderSetClipRect(a->ren, NULL);
    view_fill(a, x - shift + caret_x, ty, scaled(a, 1) > 1 ? scaled(a, 1) : 1, th, C_PROMPT_TEXT, 255);
}

/* ---- the panel's hooks ------------------------------------------------------------------- */

static void draw(view_panel *p, view_app *a, view_layer layer, const tlv_view *v,
                 const view_areas *ar)
{
    (void)v;
    if (layer == VIEW_LAYER_STATUS)
        draw_prompt(&((prompt_panel *)p)->pr, a, ar->status.y);
}

/* view_prompt_open: opens it, holding the keyboard. */
static void open_prompt(view_panel *base, view_app *a, const char *label, const char *initial,
                        view_prompt_fn on_enter, void *user)
{
    view_prompt *p = &((prompt_panel *)base)->pr;
    p->open = 1;
    p->label = label;
    p->on_enter = on_enter;
    p->user = user;
    snprintf(p->text, sizeof p->text, "%s", initial ? initial : "");
    p->caret = strlen(p->text);
    p->anchor = 0; /* the initial text selected: typing replaces it, an arrow keeps it */
    view_grab_keys(a, base);
}

/* While open: every key (editing, Enter, Esc); no key navigates. */
static void key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    (void)mods;
    edit((prompt_panel *)p, a, key);
}

static void text(view_panel *p, view_app *a, const char *utf8)
{
    insert(a, &((prompt_panel *)p)->pr, utf8);
}

static void dump(view_panel *p, const view_app *a, struct cJSON *o)
{
    const view_prompt *pr = &((const prompt_panel *)p)->pr;
    (void)a;
    if (!pr->open) {
        cJSON_AddNullToObject(o, "prompt");
        cJSON_AddNullToObject(o, "prompt_selection");
        return;
    }
    cJSON *j = cJSON_AddObjectToObject(o, "prompt");
    cJSON_AddStringToObject(j, "label", pr->label);
    cJSON_AddStringToObject(j, "text", pr->text);
    cJSON_AddNumberToObject(j, "caret", (double)pr->caret);
    size_t from = pr->anchor < pr->caret ? pr->anchor : pr->caret, to = pr->anchor ^ pr->caret ^ from;
    char sel[sizeof pr->text];
    snprintf(sel, sizeof sel, "%.*s", (int)(to - from), pr->text + from);
    cJSON_AddStringToObject(o, "prompt_selection", sel); /* beside "prompt", whose keys are fixed */
}

view_panel *prompt_panel_new(void)
{
    prompt_panel *p = calloc(1, sizeof *p);
    if (p)
        p->base = (view_panel){.name = "prompt", .draw = draw, .grabbed_key = key,
                               .grabbed_text = text, .prompt = open_prompt, .dump = dump};
    return p ? &p->base : NULL;
}
