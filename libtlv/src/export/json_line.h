/*
 * json_line.h — JSON objects written straight into a line buffer, for the
 * formats that write millions of them (chrome, shapes): no cJSON
 * tree per object, yet the same bytes as cJSON_PrintUnformatted — strings
 * and numbers go through cJSON's own printer on a stack item, keys and
 * punctuation are copied. Build an object with jl_*, then jl_write() it.
 */
#ifndef TLV_JSON_LINE_H
#define TLV_JSON_LINE_H

#include <tlv/tlv.h>

#include <stddef.h>
#include <stdio.h>

typedef struct json_line {
    char *p;
    size_t len, cap;
    int failed;                 /* memory ran out: jl_write fails */
} json_line;

/* Text copied as is (keys with their quotes, braces, commas, raw numbers). */
void jl_raw(json_line *b, const char *text);
/* An object's key: {"KEY": when `first`, else ,"KEY": (KEY escaped). */
void jl_key(json_line *b, const char *key, int first);
/* A string as cJSON writes it (escaped, quoted); NULL writes null. */
void jl_string(json_line *b, const char *s);
/* An integer in decimal (as printf's %lld). */
void jl_int(json_line *b, long long v);
/* A number as cJSON writes it ("%d" when it is an int, else %1.15g, or
 * %1.17g when that does not read back; null for NaN and infinities). */
void jl_number(json_line *b, double d);
/* A trace time as an exact base-10 number (export_impl.h's time_text). */
void jl_time(json_line *b, tlv_time t, int radix);
/* Strings printed again and again (the names of a handle's tables, whose
 * pointers stay put while the handle lives): the text printed for each
 * pointer, kept once, so that the next time it is copied, not escaped
 * again. The same pointer must keep the same text while the memo is used.
 * Zero-initialise; jl_memo_free frees. */
#define JL_MEMO_SLOTS 512
typedef struct jl_memo {
    struct {
        const char *s;
        char *text;
        size_t len;
    } slot[JL_MEMO_SLOTS];
} jl_memo;
/* As jl_string(b, s), remembered in m. */
void jl_string_memo(json_line *b, jl_memo *m, const char *s);
void jl_memo_free(jl_memo *m);

/* Writes what the buffer holds to out and empties it. 0, or -1 (a write
 * failed, or memory ran out while building). */
int jl_write(json_line *b, FILE *out);
void jl_free(json_line *b);

#endif
