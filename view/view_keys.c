/*
 * view_keys.c — the viewer's key tables taken together: the core's
 * (view_core_keys) and each registered panel's (view_panel.keys). A key
 * with a combination of modifiers belongs to one row of one table: two rows
 * claiming it is an error found at start-up (view_keys_check), naming both,
 * rather than one of them silently never running. The F1 help is built from
 * the same rows, so that what it lists is what the keys do. Functions of
 * the tables alone (tests/unit/test_view_keys.c tests them without a window).
 */
#include "view/core.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "Ctrl+Shift+L": the first modifier combination of `mods` (VIEW_KEYS_*)
 * with the key's name; a letter without modifiers in lower case ("l"), as
 * the help writes it. */
static void key_name(SDL_Keycode key, unsigned mods, char *out, size_t size)
{
    int m = 0;
    while (m < 4 && !(mods & (1u << m)))
        m++;
    char name[64];
    snprintf(name, sizeof name, "%s", SDL_GetKeyName(key));
    if (m == 0 && key >= 'a' && key <= 'z')
        name[0] = (char)tolower((unsigned char)name[0]);
    snprintf(out, size, "%s%s%s", m & VIEW_MOD_CTRL ? "Ctrl+" : "", m & VIEW_MOD_SHIFT ? "Shift+" : "",
             name);
}

/* The help that speaks for row i of o: its own, else the nearest one before. */
static const char *help_of(const view_key_owner *o, size_t i)
{
    while (i > 0 && !o->keys[i].help)
        i--;
    return o->keys[i].help ? o->keys[i].help : "no help";
}

/* "the legend panel (L: legend of the colours in view)". */
static void claimant(const view_key_owner *o, size_t i, char *out, size_t size)
{
    if (o->panel)
        snprintf(out, size, "the %s panel (%s)", o->name, help_of(o, i));
    else
        snprintf(out, size, "the viewer's own keys (%s)", help_of(o, i));
}

/* Whether row j of q claims what row i of o does; the message if so. */
static int clash(const view_key_owner *o, size_t i, const view_key_owner *q, size_t j, char *msg,
                 size_t size)
{
    const view_key *k = &o->keys[i], *l = &q->keys[j];
    if (!k->key || k->key != l->key || !(k->mods & l->mods))
        return 0;
    char name[96], first[256], second[256];
    key_name(k->key, k->mods & l->mods, name, sizeof name);
    claimant(o, i, first, sizeof first);
    claimant(q, j, second, sizeof second);
    snprintf(msg, size, "key %s is claimed twice: by %s and by %s", name, first, second);
    return 1;
}

int view_keys_check(const view_key_owner *owners, size_t n, char *msg, size_t size)
{
    for (size_t o = 0; o < n; o++)
        for (size_t i = 0; i < owners[o].nkeys; i++)
            for (size_t q = o; q < n; q++)
                for (size_t j = q == o ? i + 1 : 0; j < owners[q].nkeys; j++)
                    if (clash(&owners[o], i, &owners[q], j, msg, size))
                        return -1;
    return 0;
}

const view_key *view_keys_find(const view_key_owner *owners, size_t n, SDL_Keycode key, int mods,
                               const view_key_owner **owner)
{
    unsigned bit = 1u << (mods & (VIEW_MOD_SHIFT | VIEW_MOD_CTRL));
    for (size_t o = 0; o < n; o++)
        for (size_t i = 0; i < owners[o].nkeys; i++) {
            const view_key *k = &owners[o].keys[i];
            if (k->key && k->key == key && (k->mods & bit) && k->run) {
                *owner = &owners[o];
                return k;
            }
        }
    return NULL;
}

/* ---- the F1 help ------------------------------------------------------------------------ */

#define HELP_GAP "    "

/* Appends `item` to the line being packed (*line, malloc'd) when it fits in
 * `width`; else ends that line in lines[] and starts another. */
static void pack(char **line, const char *item, int width, int (*measure)(void *, const char *),
                 void *user, char **lines, size_t *n, size_t max)
{
    if (*line) {
        size_t len = strlen(*line) + strlen(HELP_GAP) + strlen(item) + 1;
        char *joined = malloc(len);
        if (joined)
            snprintf(joined, len, "%s" HELP_GAP "%s", *line, item);
        int w = joined ? (measure ? measure(user, joined) : (int)len - 1) : width + 1;
        if (w <= width) {
            free(*line);
            *line = joined;
            return;
        }
        free(joined);
        if (*n < max)
            lines[(*n)++] = *line;
        else
            free(*line);
    }
    *line = strdup(item);
}

size_t view_keys_help(const view_key_owner *owners, size_t n, int width,
                      int (*measure)(void *user, const char *s), void *user, char **lines,
                      size_t max)
{
    size_t count = 0;
    char *line = NULL;
    for (size_t o = 0; o < n; o++)
        for (size_t i = 0; i < owners[o].nkeys; i++)
            if (owners[o].keys[i].help)
                pack(&line, owners[o].keys[i].help, width, measure, user, lines, &count, max);
    if (line && count < max)
        lines[count++] = line;
    else
        free(line);
    return count;
}
