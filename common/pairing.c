/*
 * pairing.c — which resource of one trace is which of another: the key two
 * runs of a program pair their rows by, for tlv diff and tlv view
 * --compare. A resource's name, unless the events labelled it ("make[7915]",
 * "xz[4297] thread 4299"): then its label without the process and thread
 * ids, which differ from run to run ("make", "xz thread"), and " #2", " #3"
 * for the second and third of one key, in the order the trace made them.
 */
#include "common/common.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The label without "[digits]" and without words that are all digits;
 * spaces collapsed. */
static void strip_ids(const char *label, char *out, size_t size)
{
    size_t n = 0;
    for (const char *s = label; *s && n + 1 < size;) {
        if (*s == '[') {
            const char *e = s + 1;
            while (isdigit((unsigned char)*e))
                e++;
            if (*e == ']' && e > s + 1) {
                s = e + 1;
                continue;
            }
        }
        if (isdigit((unsigned char)*s) && (s == label || s[-1] == ' ')) {
            const char *e = s;
            while (isdigit((unsigned char)*e))
                e++;
            if (!*e || *e == ' ') {
                s = e;
                continue;
            }
        }
        if (*s == ' ' && (n == 0 || out[n - 1] == ' ')) {
            s++;
            continue;
        }
        out[n++] = *s++;
    }
    while (n && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

char **pairing_keys(const tlv_trace *t, int by_name)
{
    size_t n = tlv_trace_resource_count(t);
    char **keys = calloc(n + 1, sizeof *keys);
    if (!keys)
        return NULL;
    for (size_t r = 0; r < n; r++) {
        const char *label = by_name ? NULL : tlv_trace_resource_label(t, r);
        char base[256];
        if (label && *label)
            strip_ids(label, base, sizeof base);
        else
            snprintf(base, sizeof base, "%s", tlv_trace_resource_name(t, r));
        if (!*base)
            snprintf(base, sizeof base, "%s", tlv_trace_resource_name(t, r));
        size_t same = 1;
        for (size_t q = 0; q < r; q++) /* " #k" for the k-th of one key */
            if (keys[q] && strncmp(keys[q], base, strlen(base)) == 0 &&
                (keys[q][strlen(base)] == '\0' || strncmp(keys[q] + strlen(base), " #", 2) == 0))
                same++;
        char key[300];
        if (same > 1)
            snprintf(key, sizeof key, "%s #%zu", base, same);
        else
            snprintf(key, sizeof key, "%s", base);
        keys[r] = strdup(key);
        if (!keys[r]) {
            pairing_keys_free(keys, n);
            return NULL;
        }
    }
    return keys;
}

void pairing_keys_free(char **keys, size_t n)
{
    for (size_t i = 0; keys && i < n; i++)
        free(keys[i]);
    free(keys);
}
