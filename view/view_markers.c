/*
 * view_markers.c — the viewer's markers: named times kept in time order,
 * with one selected (the one added or jumped to last), the lookups the
 * [ and ] keys need, and the edits: rename, recolour, move. Markers belong
 * to layers (TLV 2.0.1's marker hierarchy), each shown or hidden as a whole.
 * No SDL.
 */
#include "view/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marker colours, taken in turn (0xRRGGBB). */
static const uint32_t palette[] = {0xD62728, 0x1F77B4, 0x2CA02C, 0x9467BD, 0xFF7F0E, 0x8C564B};

/* Copies the first n bytes of src into dst[size], NUL-terminated, cut at a
 * character boundary when they do not fit: a name cut at 47 bytes in the
 * middle of a UTF-8 character made the saved session and the SQLite export
 * hold invalid UTF-8 (issue 32.7). */
static void copy_cut(char *dst, size_t size, const char *src, size_t n)
{
    if (n > size - 1) {
        n = size - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--; /* src[n] continues a character: the cut goes before it starts */
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

long markers_add(view_markers *m, double time, const char *name)
{
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        view_marker *v = realloc(m->v, cap * sizeof *v);
        if (!v)
            return -1;
        m->v = v;
        m->cap = cap;
    }
    unsigned id = ++m->next_id;
    size_t i = m->n;
    while (i > 0 && m->v[i - 1].time > time) /* after equal times: stable */
        i--;
    memmove(m->v + i + 1, m->v + i, (m->n - i) * sizeof *m->v);
    view_marker *k = &m->v[i];
    memset(k, 0, sizeof *k);
    if (name)
        copy_cut(k->name, sizeof k->name, name, strlen(name));
    else
        snprintf(k->name, sizeof k->name, "M%u", id);
    k->time = time;
    k->color = palette[(id - 1) % (sizeof palette / sizeof *palette)];
    copy_cut(k->layer, sizeof k->layer, m->layer, strlen(m->layer));
    m->n++;
    m->selected = (long)i;
    return (long)i;
}

void markers_remove(view_markers *m, size_t i)
{
    if (i >= m->n)
        return;
    memmove(m->v + i, m->v + i + 1, (m->n - i - 1) * sizeof *m->v);
    m->n--;
    if (m->selected == (long)i)
        m->selected = -1;
    else if (m->selected > (long)i)
        m->selected--;
}

int markers_layer_shown(const view_markers *m, const char *layer)
{
    for (int i = 0; i < m->nhidden; i++)
        if (strcmp(m->hidden[i], layer) == 0)
            return 0;
    return 1;
}

int markers_shown(const view_markers *m, size_t i)
{
    return i < m->n && markers_layer_shown(m, m->v[i].layer);
}

int markers_toggle_layer(view_markers *m, const char *layer)
{
    for (int i = 0; i < m->nhidden; i++)
        if (strcmp(m->hidden[i], layer) == 0) {
            memmove(m->hidden[i], m->hidden[i + 1], (size_t)(m->nhidden - i - 1) * sizeof m->hidden[0]);
            m->nhidden--;
            return 1;
        }
    if (m->nhidden == MARKER_LAYERS_HIDDEN)
        return 1; /* as many hidden as can be: this one stays shown */
    snprintf(m->hidden[m->nhidden++], sizeof m->hidden[0], "%s", layer);
    if (m->selected >= 0 && !markers_shown(m, (size_t)m->selected))
        m->selected = -1;
    return 0;
}

long markers_prev(const view_markers *m, double t, double eps)
{
    for (size_t i = m->n; i > 0; i--)
        if (m->v[i - 1].time < t - eps && markers_shown(m, i - 1))
            return (long)(i - 1);
    return -1;
}

long markers_next(const view_markers *m, double t, double eps)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].time > t + eps && markers_shown(m, i))
            return (long)i;
    return -1;
}

void markers_clear(view_markers *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
    m->selected = -1;
}

void markers_rename(view_markers *m, size_t i, const char *name)
{
    if (i >= m->n)
        return;
    copy_cut(m->v[i].name, sizeof m->v[i].name, name, strlen(name));
}

void markers_rename_in_layer(view_markers *m, size_t i, const char *text)
{
    const char *slash = strrchr(text, '/');
    if (i >= m->n)
        return;
    if (!slash) {
        markers_rename(m, i, text);
        return;
    }
    copy_cut(m->v[i].layer, sizeof m->v[i].layer, text, (size_t)(slash - text));
    snprintf(m->layer, sizeof m->layer, "%s", m->v[i].layer);
    markers_rename(m, i, slash + 1);
}

uint32_t markers_recolor(view_markers *m, size_t i)
{
    if (i >= m->n)
        return 0;
    size_t n = sizeof palette / sizeof *palette, k = 0;
    while (k < n && palette[k] != m->v[i].color) /* a colour not in the palette starts it over */
        k++;
    m->v[i].color = palette[k < n ? (k + 1) % n : 0];
    return m->v[i].color;
}

size_t markers_move(view_markers *m, size_t i, double time)
{
    if (i >= m->n)
        return i;
    view_marker k = m->v[i];
    int selected = m->selected == (long)i;
    markers_remove(m, i);
    k.time = time;
    size_t j = m->n; /* back in time order, after equal times as markers_add */
    while (j > 0 && m->v[j - 1].time > time)
        j--;
    memmove(m->v + j + 1, m->v + j, (m->n - j) * sizeof *m->v); /* the slot freed above */
    m->v[j] = k;
    m->n++;
    if (selected)
        m->selected = (long)j;
    else if (m->selected >= (long)j)
        m->selected++;
    return j;
}
