/*
 * utf8.h — telling text from bytes that cannot be text in a log line:
 * invalid UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing above
 * U+10FFFF) and NUL, which no C string and no event can carry. Logs from
 * noisy serial lines and crashed targets have both; the converter reads each
 * such byte as U+FFFD so the rest of the line still converts.
 */
#ifndef TLV_UTF8_H
#define TLV_UTF8_H

#include "base/buf.h"

#include <stddef.h>

/* The offset of the first byte that is not text, or n when every byte is. */
size_t utf8_first_bad(const char *s, size_t n);

/* Appends s to out with every byte that is not text replaced by U+FFFD
 * (EF BF BD); valid sequences are copied unchanged. Returns the number of
 * bytes replaced, or -1 (out unchanged) when memory ran out. */
long utf8_sanitize(const char *s, size_t n, buf *out);

#endif
