/*
 * evmatch.c — event patterns compiled against a trace (evmatch.h): names,
 * values and arguments looked up once in the trace's interned values, so
 * that matching compares ids.
 */
#include "analyze/evmatch.h"

#include <stdlib.h>
#include <string.h>

static uint32_t value_id(const tlv_trace *t, const char *s)
{
    return intern_find(t->w->values, s, strlen(s));
}

void evmatch_free(evmatch *m)
{
    free(m->args);
    memset(m, 0, sizeof *m);
    m->res = m->type = -1;
}

int evmatch_compile(const tlv_trace *t, const char *text, evmatch *out, char **resource)
{
    evpattern ep;
    char err[200];
    memset(out, 0, sizeof *out);
    out->res = out->type = -1;
    if (resource)
        *resource = NULL;
    int rc = evpattern_parse(text, strlen(text), &ep, err, sizeof err, NULL);
    if (rc == -2)
        return -1;
    if (rc < 0) {
        out->name = EVM_NEVER;
        return 0;
    }
    out->name = value_id(t, ep.name);
    out->kind = ep.kind;
    out->value = ep.kind == EVP_ATTR ? value_id(t, ep.value) : EVM_NEVER;
    out->nargs = ep.nargs;
    out->args = calloc(ep.nargs ? ep.nargs : 1, sizeof *out->args);
    for (size_t i = 0; out->args && i < ep.nargs; i++)
        out->args[i] = *ep.args[i] ? value_id(t, ep.args[i]) : EVM_ANY_ARG;
    if (resource)
        *resource = strdup(ep.resource);
    int failed = !out->args || (resource && !*resource);
    evpattern_free(&ep);
    return failed ? -1 : 0;
}

int evmatch_resource(const tlv_trace *t, const char *resource, evmatch *m)
{
    m->res = world_find(t->w, resource, strlen(resource));
    if (m->res >= 0)
        return 0;
    m->type = model_type_index(t->w->model, resource, strlen(resource));
    return m->type >= 0 ? 0 : -1;
}

int evmatch_matches(const tlv_trace *t, const evmatch *m, const trace_event *e)
{
    if (e->name != m->name)
        return 0;
    if (m->res >= 0 && e->res != (uint32_t)m->res)
        return 0;
    if (m->type >= 0 && t->w->res[e->res].type != (size_t)m->type)
        return 0;
    if (m->kind == EVP_ATTR)
        return e->kind == TLV_EVENT_ATTRIBUTE && e->value == m->value;
    if (m->kind == EVP_ANY)
        return 1;
    if (e->kind != TLV_EVENT_BEHAVIOR)
        return 0;
    for (size_t i = 0; i < m->nargs; i++)
        if (m->args[i] != EVM_ANY_ARG &&
            (i >= e->nargs || t->args[e->value + i] != m->args[i]))
            return 0;
    return 1;
}
