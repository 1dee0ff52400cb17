/*
 * export_counters.c — counter attributes (tlv/counters.h) in a Chrome Trace
 * Event export: one "ph":"C" event per sample, which Perfetto UI and
 * chrome://tracing draw as a graph, in a process of their own named
 * "Counters", one track per resource and attribute ("heap (A)").
 */
#include "cli.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int emit_event(FILE *out, cJSON *o, int *first)
{
    char *text = o ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    if (!text)
        return -1;
    int rc = fprintf(out, "%s%s", *first ? "\n" : ",\n", text) < 0 ? -1 : 0;
    *first = 0;
    free(text);
    return rc;
}

static cJSON *process_name(size_t pid)
{
    cJSON *o = cJSON_CreateObject(), *args = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", "process_name");
    cJSON_AddStringToObject(o, "ph", "M");
    cJSON_AddNumberToObject(o, "pid", (double)pid);
    cJSON_AddNumberToObject(o, "tid", 0);
    cJSON_AddStringToObject(args, "name", "Counters");
    cJSON_AddItemToObject(o, "args", args);
    return o;
}

static cJSON *counter_event(const char *name, const tlv_counter_info *in, double ts, double v,
                            size_t pid)
{
    cJSON *o = cJSON_CreateObject(), *args = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "ph", "C");
    cJSON_AddNumberToObject(o, "ts", ts);
    cJSON_AddNumberToObject(o, "pid", (double)pid);
    cJSON_AddNumberToObject(o, "tid", 0);
    cJSON_AddNumberToObject(args, in->attribute, v);
    cJSON_AddItemToObject(o, "args", args);
    return o;
}

int export_chrome_counters(FILE *out, const tlv_trace *trace, size_t pid, double us, int radix,
                           int *first)
{
    tlv_counters *cs;
    if (tlv_counters_compute(trace, &cs) != TLV_OK)
        return -1;
    int rc = 0;
    if (tlv_counters_count(cs))
        rc = emit_event(out, process_name(pid), first);
    for (size_t i = 0; i < tlv_counters_count(cs) && rc == 0; i++) {
        tlv_counter_info in;
        tlv_counters_get(cs, i, &in);
        char name[512];
        snprintf(name, sizeof name, "%s (%s)", in.display_name, in.resource);
        size_t n;
        const tlv_counter_sample *s = tlv_counters_samples(cs, i, &n);
        for (size_t k = 0; k < n && rc == 0; k++)
            rc = emit_event(out, counter_event(name, &in, tlv_time_to_double(s[k].time, radix) * us,
                                               s[k].value, pid),
                            first);
    }
    tlv_counters_free(cs);
    return rc;
}
