/*
 * impossible.c — reading what a rule set declares impossible for a type:
 * the "Impossible" member of a .resh type, an object of named entries
 *
 *   "switchedInTwice": {"DisplayName": "...", "When": "state=RUNNING",
 *                       "If": "state==RUNNING", "Says": "..."}
 *
 * kept as written (model.h, impossible_def). Data only: rules/impossible.c
 * checks the names and conditions against the type and compiles them.
 */
#include "model/model.h"

#include "base/buf.h"

#include <stdlib.h>
#include <string.h>

static void free_def(impossible_def *e)
{
    free(e->name);
    free(e->display);
    free(e->when);
    free(e->cond);
    free(e->says);
}

void model_free_impossible(res_type *t)
{
    for (size_t i = 0; i < t->nimpossible; i++)
        free_def(&t->impossible[i]);
    free(t->impossible);
    t->impossible = NULL;
    t->nimpossible = t->impossible_cap = 0;
}

/* A string member, copied; NULL when absent. A wrong type is an error. */
static char *text_member(const tj_node *obj, const char *key, const char *type,
                         const char *file, tlv_diags *d, long *line, long *col)
{
    const tj_node *v = tj_get(obj, key);
    if (!v)
        return NULL;
    if (v->type != TJ_STRING) {
        diags_add(d, TLV_SEV_ERROR, file, v->line, v->col,
                  "type '%s': Impossible '%s': \"%s\" must be a string, found %s", type,
                  obj->key, key, tj_type_name(v->type));
        return NULL;
    }
    if (line) {
        *line = v->line;
        *col = v->col;
    }
    return xstrdup(v->str);
}

static impossible_def *find_or_add(res_type *t, const char *name)
{
    for (size_t i = 0; i < t->nimpossible; i++) /* a name NULL: memory ran out copying it */
        if (t->impossible[i].name && strcmp(t->impossible[i].name, name) == 0) {
            free_def(&t->impossible[i]);
            memset(&t->impossible[i], 0, sizeof t->impossible[i]);
            return &t->impossible[i];
        }
    if (GROW(t->impossible, t->impossible_cap, t->nimpossible + 1) < 0)
        return NULL;
    impossible_def *e = &t->impossible[t->nimpossible++];
    memset(e, 0, sizeof *e);
    return e;
}

static void read_entry(res_type *t, const tj_node *m, const char *file, tlv_diags *d)
{
    if (m->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, m->line, m->col,
                  "type '%s': Impossible '%s' must be an object with \"When\" (and \"If\", "
                  "\"Says\", \"DisplayName\"), found %s",
                  t->name, m->key, tj_type_name(m->type));
        return;
    }
    /* The name first: an entry is found by it, so none may be left without
     * one when memory runs out (the load then fails with TLV_ERR_NOMEM). */
    char *name = xstrdup(m->key);
    if (!name)
        return;
    impossible_def *e = find_or_add(t, m->key);
    if (!e) {
        free(name);
        return;
    }
    e->name = name;
    e->file = file;
    e->line = m->key_line;
    e->col = m->key_col;
    e->display = text_member(m, "DisplayName", t->name, file, d, NULL, NULL);
    e->when = text_member(m, "When", t->name, file, d, &e->when_line, &e->when_col);
    e->cond = text_member(m, "If", t->name, file, d, &e->cond_line, &e->cond_col);
    e->says = text_member(m, "Says", t->name, file, d, NULL, NULL);
    if (!e->when && !tj_get(m, "When"))
        diags_add(d, TLV_SEV_ERROR, file, m->line, m->col,
                  "type '%s': Impossible '%s' has no \"When\" (the event that must not "
                  "happen: \"attr\", \"attr=VALUE\" or \"behavior()\")",
                  t->name, m->key);
}

void model_read_impossible(res_type *t, const tj_node *obj, const char *file, tlv_diags *d)
{
    if (obj->type != TJ_OBJECT) {
        diags_add(d, TLV_SEV_ERROR, file, obj->line, obj->col,
                  "type '%s': Impossible must be an object of named entries, found %s", t->name,
                  tj_type_name(obj->type));
        return;
    }
    for (const tj_node *m = obj->child; m; m = m->next)
        if (!tj_shadowed(m))
            read_entry(t, m, file, d);
}
