/*
 * nomem.c — running out of memory in the tlv command (issue 19.0): the one
 * message every command prints for it (report_nomem), the counts of
 * allocation failures cJSON would otherwise leave unsaid, and adding to
 * cJSON's trees without leaking what could not be added (common.h). Apart from
 * options.c so that programs built from a few of the command's files (the
 * export fuzz target) have them too.
 */
#include "common/common.h"

#include <cjson/cJSON.h>

#include <stdlib.h>

static int nomem_seen;

int report_nomem(const char *doing, const char *input)
{
    if (!nomem_seen++) {
        if (input)
            fprintf(stderr, "%s: out of memory while %s '%s'\n", prog, doing, input);
        else
            fprintf(stderr, "%s: out of memory while %s\n", prog, doing);
    }
    return EXIT_USAGE;
}

int nomem_reported(void) { return nomem_seen != 0; }

static unsigned long json_failures;

static void *json_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p)
        json_failures++;
    return p;
}

void json_count_failures(void)
{
    cJSON_Hooks hooks = {json_malloc, free};
    cJSON_InitHooks(&hooks);
}

unsigned long json_alloc_failures(void) { return json_failures; }

void json_put(cJSON *object, const char *key, cJSON *item)
{
    if (!cJSON_AddItemToObject(object, key, item))
        cJSON_Delete(item);
}

void json_push(cJSON *array, cJSON *item)
{
    if (!cJSON_AddItemToArray(array, item))
        cJSON_Delete(item);
}
