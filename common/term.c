/*
 * term.c — text from a log or a file, printed on a terminal: its control
 * characters (ESC, BEL, CR, the C1 range) are written as \e, \x07, \r (as
 * `tlv query` writes them), so that a log
 * line, a marker name or a query result cannot move the cursor, retitle the
 * window or hide what comes before it (issue 32.7: they were printed raw by
 * `tlv query` and in messages). Into a file or a pipe the text goes as it
 * is, so that outputs stay byte for byte what they were.
 */
#include "common/common.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int is_terminal(FILE *f)
{
    return f && isatty(fileno(f));
}

/* The length of the control character at s (1 for C0 and DEL, 2 for a C1
 * character in UTF-8), or 0. */
static size_t control_at(const unsigned char *s)
{
    if (s[0] < 0x20 || s[0] == 0x7F)
        return 1;
    return s[0] == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F ? 2 : 0;
}

char *term_escape(const char *s)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        n += control_at(p) ? 4 : 1; /* at most 4 bytes of "\xHH" per byte */
    char *out = malloc(n + 1), *d = out;
    if (!out)
        return NULL;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        size_t k = control_at(p);
        if (!k) {
            *d++ = (char)*p++;
            continue;
        }
        unsigned code = k == 1 ? p[0] : p[1];
        /* As `tlv query` shows them: \n \t \r \0 \e, else \xNN. */
        const char *named = code == '\n' ? "\\n" : code == '\t' ? "\\t" : code == '\r' ? "\\r"
                            : code == 0 ? "\\0" : code == 27 ? "\\e" : NULL;
        if (named && k == 1)
            d += sprintf(d, "%s", named);
        else
            d += sprintf(d, "\\x%02x", code);
        p += k;
    }
    *d = '\0';
    return out;
}

int fputs_term(const char *s, FILE *f)
{
    if (!is_terminal(f))
        return fputs(s, f);
    char *e = term_escape(s);
    int rc = fputs(e ? e : s, f); /* without memory, as it is rather than nothing */
    free(e);
    return rc;
}
