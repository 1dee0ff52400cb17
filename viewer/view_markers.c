/*
 * view_markers.c — the viewer's markers: named times kept in time order,
 * with one selected (the one added or jumped to last), and the lookups the
 * [ and ] keys need. No SDL.
 */
#include "view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marker colours, taken in turn (0xRRGGBB). */
static const uint32_t palette[] = {0xD62728, 0x1F77B4, 0x2CA02C, 0x9467BD, 0xFF7F0E, 0x8C564B};

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
        snprintf(k->name, sizeof k->name, "%s", name);
    else
        snprintf(k->name, sizeof k->name, "M%u", id);
    k->time = time;
    k->color = palette[(id - 1) % (sizeof palette / sizeof *palette)];
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

long markers_prev(const view_markers *m, double t, double eps)
{
    for (size_t i = m->n; i > 0; i--)
        if (m->v[i - 1].time < t - eps)
            return (long)(i - 1);
    return -1;
}

long markers_next(const view_markers *m, double t, double eps)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].time > t + eps)
            return (long)i;
    return -1;
}

void markers_clear(view_markers *m)
{
    free(m->v);
    memset(m, 0, sizeof *m);
    m->selected = -1;
}
