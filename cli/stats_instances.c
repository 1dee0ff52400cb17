/*
 * stats_instances.c — `tlv stats --instances`: per actor, kind and name, the
 * instances' count and response-time distribution (min, p50, p90, p99,
 * max, mean, stddev) and where the worst one began, as a text table or
 * JSON; from libtlv's tlv_instances (tlv/instances.h).
 */
#include "cli/stats_instances.h"

#include "cli/cli.h"
#include "cli/stats_table.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static int wanted(const tlv_instance_group *g, const char *kind)
{
    return !kind || strcmp(g->kind, kind) == 0;
}

static void set_optional(table *t, int row, size_t col, double x)
{
    if (x < 0)
        table_set(t, row, col, "-");
    else
        table_set_num(t, row, col, x);
}

/* "none", and which kinds there are when a --kind found nothing. */
static void print_none(FILE *out, const tlv_instances *in, const char *kind)
{
    if (!kind) {
        fputs("  none\n", out);
        return;
    }
    fprintf(out, "  none of kind '%s' (", kind);
    const char *sep = "", *last = NULL;
    for (size_t i = 0; i < tlv_instances_group_count(in); i++) {
        tlv_instance_group g;
        tlv_instances_group(in, i, &g);
        int seen = last && strcmp(last, g.kind) == 0;
        for (size_t j = 0; j < i && !seen; j++) { /* each kind once, in order of groups */
            tlv_instance_group h;
            tlv_instances_group(in, j, &h);
            seen = strcmp(h.kind, g.kind) == 0;
        }
        if (!seen)
            fprintf(out, "%s%s", *sep ? sep : "kinds here: ", g.kind);
        sep = seen ? sep : ", ";
        last = g.kind;
    }
    fputs(*sep ? ")\n" : "no instances at all)\n", out);
}

static void text_report(FILE *out, const tlv_instances *in, int radix, const char *time_scale,
                        const char *kind)
{
    static const char *const head[] = {"resource", "kind", "name", "count", "min", "p50", "p90",
                                       "p99", "max", "mean", "stddev", "exec max", "preempt",
                                       "worst at", "line", "partial"};
    enum { NCOLS = sizeof head / sizeof *head };
    fprintf(out, "Instances: response time per actor and kind (%s):\n", time_scale);
    table t = {NULL, NCOLS, 0, 0, 3};
    int r = table_add_row(&t);
    for (size_t c = 0; r >= 0 && c < NCOLS; c++)
        table_set(&t, r, c, head[c]);
    size_t shown = 0;
    for (size_t i = 0; i < tlv_instances_group_count(in) && r >= 0; i++) {
        tlv_instance_group g;
        tlv_instances_group(in, i, &g);
        if (!wanted(&g, kind) || (r = table_add_row(&t)) < 0)
            continue;
        shown++;
        table_set(&t, r, 0, g.label);
        table_set(&t, r, 1, g.kind);
        table_set(&t, r, 2, g.name);
        table_set_num(&t, r, 3, (double)g.count);
        table_set_num(&t, r, 15, (double)g.partial);
        if (!g.count) {
            for (size_t c = 4; c < 15; c++)
                table_set(&t, r, c, "-");
            continue;
        }
        const double fig[] = {g.min, g.p50, g.p90, g.p99, g.max, g.mean, g.stddev};
        for (size_t c = 0; c < 7; c++)
            table_set_num(&t, r, 4 + c, fig[c]);
        set_optional(&t, r, 11, g.execution_max);
        table_set_num(&t, r, 12, (double)g.preemptions);
        tlv_instance w;
        tlv_instances_get(in, g.worst, &w);
        char when[160], line[32];
        cli_time_text(w.start, radix, when, sizeof when);
        snprintf(line, sizeof line, "%llu", (unsigned long long)w.start_line);
        table_set(&t, r, 13, when);
        table_set(&t, r, 14, line);
    }
    if (!shown) {
        free(t.cells);
        print_none(out, in, kind);
        return;
    }
    table_print(out, &t);
    fputs("(percentiles nearest-rank; partial: begun before the trace or not ended at its "
          "end, not counted)\n", out);
}

static cJSON *json_time(tlv_time t, int radix)
{
    char text[160];
    cli_time_text(t, radix, text, sizeof text);
    return cJSON_CreateRaw(text);
}

cJSON *instance_json(const tlv_instance *x, int radix)
{
    cJSON *o = cJSON_CreateObject();
    json_put(o, "start", json_time(x->start, radix));
    json_put(o, "end", json_time(x->end, radix));
    cJSON_AddNumberToObject(o, "response", x->response);
    if (x->execution >= 0)
        cJSON_AddNumberToObject(o, "execution", x->execution);
    else
        cJSON_AddNullToObject(o, "execution");
    cJSON_AddNumberToObject(o, "preemptions", (double)x->preemptions);
    cJSON_AddNumberToObject(o, "interruptions", (double)x->interruptions);
    cJSON_AddNumberToObject(o, "line", (double)x->start_line);
    cJSON_AddNumberToObject(o, "endLine", (double)x->end_line);
    return o;
}

cJSON *instance_group_json(const tlv_instances *in, const tlv_instance_group *g, int radix)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "resource", g->resource);
    cJSON_AddStringToObject(o, "label", g->label);
    cJSON_AddStringToObject(o, "kind", g->kind);
    cJSON_AddStringToObject(o, "name", g->name);
    cJSON_AddNumberToObject(o, "count", (double)g->count);
    cJSON_AddNumberToObject(o, "partial", (double)g->partial);
    if (!g->count)
        return o;
    static const char *const names[] = {"min", "p50", "p90", "p99", "max", "mean", "stddev"};
    const double fig[] = {g->min, g->p50, g->p90, g->p99, g->max, g->mean, g->stddev};
    for (size_t c = 0; c < 7; c++)
        cJSON_AddNumberToObject(o, names[c], fig[c]);
    if (g->execution_max >= 0) {
        cJSON_AddNumberToObject(o, "executionMax", g->execution_max);
        cJSON_AddNumberToObject(o, "executionMean", g->execution_mean);
    }
    cJSON_AddNumberToObject(o, "preemptions", (double)g->preemptions);
    cJSON_AddNumberToObject(o, "interruptions", (double)g->interruptions);
    tlv_instance w;
    tlv_instances_get(in, g->worst, &w);
    json_put(o, "worst", instance_json(&w, radix));
    return o;
}

static int json_report(FILE *out, const tlv_instances *in, int radix, const char *time_scale,
                       const char *kind)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "timeScale", time_scale);
    cJSON *arr = cJSON_AddArrayToObject(o, "instances");
    for (size_t i = 0; i < tlv_instances_group_count(in); i++) {
        tlv_instance_group g;
        tlv_instances_group(in, i, &g);
        if (wanted(&g, kind))
            json_push(arr, instance_group_json(in, &g, radix));
    }
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return -1;
    fprintf(out, "%s\n", text);
    free(text);
    return 0;
}

int instances_report(FILE *out, const tlv_instances *in, const tlv_rules *rules,
                     const char *kind, int json)
{
    int radix = tlv_rules_time_radix(rules);
    const char *scale = tlv_rules_time_scale(rules);
    if (json)
        return json_report(out, in, radix, scale, kind);
    text_report(out, in, radix, scale, kind);
    return 0;
}
