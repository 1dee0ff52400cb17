/*
 * json_line.c — JSON written into a growing line buffer with cJSON's own
 * printer for strings and numbers (cJSON_PrintPreallocated on a cJSON item
 * that lives on the stack: no allocation), so the bytes are exactly those
 * of a cJSON tree printed unformatted. See json_line.h.
 */
#include "export/json_line.h"
#include "export/export_impl.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Room for n more bytes; 0, or -1 (b->failed set). */
static int reserve(json_line *b, size_t n)
{
    if (b->failed)
        return -1;
    if (b->len + n <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 512;
    while (cap < b->len + n)
        cap *= 2;
    char *p = realloc(b->p, cap);
    if (!p) {
        b->failed = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void jl_raw(json_line *b, const char *text)
{
    size_t n = strlen(text);
    if (n && reserve(b, n) == 0) { /* nothing to copy: the buffer may have no storage yet */
        memcpy(b->p + b->len, text, n);
        b->len += n;
    }
}

void jl_key(json_line *b, const char *key, int first)
{
    jl_raw(b, first ? "{" : ",");
    jl_string(b, key);
    jl_raw(b, ":");
}

/* Prints the stack item at the end of the buffer, given room for `need`. */
static void print_item(json_line *b, cJSON *item, size_t need)
{
    if (reserve(b, need) < 0)
        return;
    if (!cJSON_PrintPreallocated(item, b->p + b->len, (int)(b->cap - b->len), 0)) {
        b->failed = 1;
        return;
    }
    b->len += strlen(b->p + b->len);
}

/* The length of s when cJSON would print it as is between quotes: no byte
 * below 32, no '"' and no backslash (it leaves bytes from 128 on alone);
 * SIZE_MAX otherwise. */
static size_t plain_length(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    for (; *p; p++)
        if (*p < 32 || *p == '"' || *p == '\\')
            return SIZE_MAX;
    return (size_t)(p - (const unsigned char *)s);
}

void jl_string(json_line *b, const char *s)
{
    if (!s) {
        jl_raw(b, "null");
        return;
    }
    size_t plain = plain_length(s); /* most are: copied, not printed by cJSON */
    if (plain != SIZE_MAX) {
        if (reserve(b, plain + 2) == 0) {
            b->p[b->len] = '"';
            memcpy(b->p + b->len + 1, s, plain);
            b->p[b->len + 1 + plain] = '"';
            b->len += plain + 2;
        }
        return;
    }
    cJSON item;
    memset(&item, 0, sizeof item);
    item.type = cJSON_String;
    item.valuestring = (char *)s;
    size_t n = strlen(s);
    if (n > (size_t)INT_MAX / 8) {
        b->failed = 1;
        return;
    }
    print_item(b, &item, 6 * n + 8); /* every byte \u00XX at worst, quotes, NUL */
}

void jl_string_memo(json_line *b, jl_memo *m, const char *s)
{
    uintptr_t h = (uintptr_t)s;
    size_t at = (size_t)((h >> 3) ^ (h >> 12)) % JL_MEMO_SLOTS;
    if (s && m->slot[at].s == s) {
        if (reserve(b, m->slot[at].len) == 0) {
            memcpy(b->p + b->len, m->slot[at].text, m->slot[at].len);
            b->len += m->slot[at].len;
        }
        return;
    }
    size_t start = b->len;
    jl_string(b, s);
    if (!s || b->failed)
        return;
    char *text = malloc(b->len - start); /* none: printed all the same, not kept */
    if (text) {
        memcpy(text, b->p + start, b->len - start);
        free(m->slot[at].text);
        m->slot[at].s = s;
        m->slot[at].text = text;
        m->slot[at].len = b->len - start;
    }
}

void jl_memo_free(jl_memo *m)
{
    for (size_t i = 0; i < JL_MEMO_SLOTS; i++)
        free(m->slot[i].text);
    memset(m, 0, sizeof *m);
}

void jl_int(json_line *b, long long v)
{
    char digits[24], *end = digits + sizeof digits, *p = end;
    unsigned long long u = v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0)
        *--p = '-';
    if (reserve(b, (size_t)(end - p)) == 0) {
        memcpy(b->p + b->len, p, (size_t)(end - p));
        b->len += (size_t)(end - p);
    }
}

void jl_number(json_line *b, double d)
{
    if (d > (double)INT_MIN && d < (double)INT_MAX && d == (double)(int)d) {
        jl_int(b, (int)d); /* cJSON's "%d" of its valueint, without printf */
        return;
    }
    cJSON item;
    memset(&item, 0, sizeof item);
    item.type = cJSON_Number;
    item.valuedouble = d;
    /* as cJSON_CreateNumber sets it */
    item.valueint = d != d ? 0 : d >= INT_MAX ? INT_MAX : d <= (double)INT_MIN ? INT_MIN : (int)d;
    print_item(b, &item, 64);
}

void jl_time(json_line *b, tlv_time t, int radix)
{
    if (t.frac == 0) { /* as time_text, without printf */
        jl_int(b, (long long)t.ticks);
        return;
    }
    char text[160];
    time_text(t, radix, text, sizeof text);
    jl_raw(b, text);
}

int jl_write(json_line *b, FILE *out)
{
    /* an empty buffer may have no storage yet, and fwrite's pointer must not be NULL */
    int rc = b->failed || (b->len && fwrite(b->p, 1, b->len, out) != b->len) ? -1 : 0;
    b->len = 0;
    return rc;
}

void jl_free(json_line *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}
