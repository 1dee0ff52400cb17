/*
 * view_instances.c — the trace's instances for the panels (libtlv's
 * tlv_instances: response and latency per actor, calls): computed when a
 * panel first asks, kept while the trace stays the same, computed again
 * after it changed (a reload, a live log that grew); and the instance of an
 * actor that covers a time, for the details of a selected shape.
 */
#include "view/core.h"

#include <string.h>

const tlv_instances *view_instances(view_app *a)
{
    struct view_core *c = a->core;
    if (!a->trace || c->loader)
        return NULL; /* while the log loads, the events are not all there */
    size_t n = tlv_trace_event_count(a->trace);
    if (c->instances && c->instances_of == a->trace && c->instances_events == n)
        return c->instances;
    view_instances_free(a);
    if (tlv_instances_compute(a->trace, NULL, &c->instances) != TLV_OK) {
        view_message(a, "instances: %s", tlv_trace_last_error(a->trace));
        return NULL;
    }
    c->instances_of = a->trace;
    c->instances_events = n;
    return c->instances;
}

void view_instances_free(view_app *a)
{
    tlv_instances_free(a->core->instances);
    a->core->instances = NULL;
    a->core->instances_of = NULL;
}

long view_instance_at(view_app *a, const char *resource, const char *kind, tlv_time t)
{
    const tlv_instances *in = view_instances(a);
    long found = -1;
    size_t n = tlv_instances_count(in);
    for (size_t i = 0; i < n; i++) { /* by start: the last one begun at or before t */
        tlv_instance x;
        tlv_instances_get(in, i, &x);
        if (tlv_time_cmp(x.start, t) > 0)
            break;
        if (strcmp(x.resource, resource) == 0 && strcmp(x.kind, kind) == 0 &&
            (tlv_time_cmp(t, x.end) < 0 || tlv_time_cmp(x.start, x.end) == 0))
            found = (long)i;
    }
    return found;
}
