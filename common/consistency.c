/*
 * consistency.c — the converter's consistency report (tlv/convert.h) as the
 * commands show it: one summary line after every command that converts, the
 * full listing of `tlv check LOG`, its JSON form, and the short notice the
 * viewer's status line carries.
 */
#include "common/common.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

/* "4 OtherTask.switchedOutNotRunning, 2 OtherTask.lostSwitchOut": the
 * checks that failed, most first. */
static void failed_checks(const tlv_converter *conv, char *out, size_t size)
{
    size_t n = tlv_converter_consistency_check_count(conv), len = 0;
    unsigned char done[256] = {0};
    out[0] = '\0';
    for (size_t k = 0; k < n && k < sizeof done; k++) {
        size_t best = SIZE_MAX;
        uint64_t most = 0;
        for (size_t i = 0; i < n && i < sizeof done; i++) {
            tlv_consistency_check c;
            tlv_converter_consistency_check(conv, i, &c);
            if (!done[i] && c.count > most) {
                most = c.count;
                best = i;
            }
        }
        if (best == SIZE_MAX || len >= size)
            break;
        done[best] = 1;
        tlv_consistency_check c;
        tlv_converter_consistency_check(conv, best, &c);
        len += (size_t)snprintf(out + len, size - len, "%s%llu %s", len ? ", " : "",
                                (unsigned long long)c.count, c.check);
    }
}

void consistency_summary(const tlv_converter *conv, const char *log)
{
    uint64_t n = tlv_converter_inconsistency_count(conv);
    if (!n)
        return;
    char checks[512];
    failed_checks(conv, checks, sizeof checks);
    tlv_inconsistency x;
    tlv_converter_inconsistency(conv, 0, &x);
    fprintf(stderr, "%s: %llu event%s contradict%s the trace's state (%s; tlv check lists them); "
                    "first: %s:%llu: %s\n",
            prog, (unsigned long long)n, n == 1 ? "" : "s", n == 1 ? "s" : "", checks,
            log ? log : "-", (unsigned long long)x.line, x.message);
}

void consistency_print(FILE *out, const tlv_converter *conv, const char *log)
{
    size_t listed = tlv_converter_inconsistency_listed(conv);
    uint64_t n = tlv_converter_inconsistency_count(conv);
    for (size_t i = 0; i < listed; i++) {
        tlv_inconsistency x;
        tlv_converter_inconsistency(conv, i, &x);
        fprintf(out, "%s:%llu: inconsistent: %s [%s]\n", log ? log : "-",
                (unsigned long long)x.line, x.message, x.check);
    }
    if (n > listed)
        fprintf(out, "... and %llu more inconsistent events not listed\n",
                (unsigned long long)(n - listed));
    size_t nchecks = tlv_converter_consistency_check_count(conv);
    if (!nchecks)
        return; /* the rule set declares nothing impossible: nothing to say */
    fprintf(out, "%s check: %llu inconsistent event%s; checks declared by the rule set:\n", prog,
            (unsigned long long)n, n == 1 ? "" : "s");
    for (size_t i = 0; i < nchecks; i++) {
        tlv_consistency_check c;
        tlv_converter_consistency_check(conv, i, &c);
        if (c.count)
            fprintf(out, "  %-40s %8llu  first at line %llu  (%s)\n", c.check,
                    (unsigned long long)c.count, (unsigned long long)c.first_line,
                    c.display_name);
        else
            fprintf(out, "  %-40s %8d  (%s)\n", c.check, 0, c.display_name);
    }
}

static void add_u64(cJSON *o, const char *key, uint64_t v)
{
    json_put(o, key, cJSON_CreateNumber((double)v));
}

struct cJSON *consistency_json(const tlv_converter *conv, int radix)
{
    cJSON *o = cJSON_CreateObject();
    add_u64(o, "count", tlv_converter_inconsistency_count(conv));
    size_t listed = tlv_converter_inconsistency_listed(conv);
    add_u64(o, "listed", listed);
    cJSON *checks = cJSON_CreateArray();
    for (size_t i = 0; i < tlv_converter_consistency_check_count(conv); i++) {
        tlv_consistency_check c;
        tlv_converter_consistency_check(conv, i, &c);
        cJSON *j = cJSON_CreateObject();
        json_put(j, "check", cJSON_CreateString(c.check));
        json_put(j, "display_name", cJSON_CreateString(c.display_name));
        add_u64(j, "count", c.count);
        json_put(j, "first_line", c.first_line ? cJSON_CreateNumber((double)c.first_line)
                                               : cJSON_CreateNull());
        json_push(checks, j);
    }
    json_put(o, "checks", checks);
    cJSON *list = cJSON_CreateArray();
    char when[160];
    for (size_t i = 0; i < listed; i++) {
        tlv_inconsistency x;
        tlv_converter_inconsistency(conv, i, &x);
        cJSON *j = cJSON_CreateObject();
        add_u64(j, "line", x.line);
        tlv_time_format(x.time, radix, when, sizeof when);
        json_put(j, "time", cJSON_CreateString(when)); /* exact, in the trace's radix */
        json_put(j, "resource", x.resource ? cJSON_CreateString(x.resource) : cJSON_CreateNull());
        json_put(j, "check", cJSON_CreateString(x.check));
        json_put(j, "message", cJSON_CreateString(x.message));
        json_push(list, j);
    }
    json_put(o, "inconsistencies", list);
    return o;
}

size_t consistency_notice(const tlv_converter *conv, char *out, size_t size)
{
    uint64_t n = tlv_converter_inconsistency_count(conv);
    if (!n || !size)
        return 0;
    tlv_inconsistency x;
    tlv_converter_inconsistency(conv, 0, &x);
    return (size_t)snprintf(out, size, "%llu inconsistent event%s (first: line %llu) - tlv check",
                            (unsigned long long)n, n == 1 ? "" : "s", (unsigned long long)x.line);
}
