/*
 * stats_instances.h — the instances report of `tlv stats --instances`, and
 * the JSON of an instance and of a group, which `tlv verify` and `tlv diff`
 * write too.
 */
#ifndef TLV_CLI_STATS_INSTANCES_H
#define TLV_CLI_STATS_INSTANCES_H

#include <tlv/tlv.h>

#include <cjson/cJSON.h>
#include <stdio.h>

/* Writes the groups of `in` (only those of kind `kind` when not NULL) as a
 * text table or JSON. Returns 0, or -1 when the JSON could not be made. */
int instances_report(FILE *out, const tlv_instances *in, const tlv_rules *rules,
                     const char *kind, int json);

/* {"start", "end", "response", "execution", "preemptions", "interruptions",
 * "line", "endLine"}: times exact (time_text). */
cJSON *instance_json(const tlv_instance *x, int radix);
/* {"resource", "label", "kind", "name", "count", "partial", "min", "p50",
 * "p90", "p99", "max", "mean", "stddev", "executionMax", "executionMean",
 * "preemptions", "interruptions", "worst": instance_json}. */
cJSON *instance_group_json(const tlv_instances *in, const tlv_instance_group *g, int radix);

#endif
