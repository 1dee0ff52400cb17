/*
 * diag.c — diagnostics lists (see diag.h) and their one-line text form, the
 * "file:line:col: error: message" that every tlv command prints.
 */
#include "base/diag.h"

#include "base/buf.h"
#include "base/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void diags_init(tlv_diags *d, size_t limit)
{
    memset(d, 0, sizeof *d);
    d->limit = limit;
}

void diags_free(tlv_diags *d)
{
    for (size_t i = 0; i < d->count; i++) {
        free((char *)d->items[i].file);
        free((char *)d->items[i].message);
    }
    free(d->items);
    memset(d, 0, sizeof *d);
}

/* Messages quote the text they are about, and a log line can be megabytes
 * long: a thousand kept messages must not hold gigabytes, and the reason,
 * which comes last, must stay readable. Keeps the head and the tail. */
#define MESSAGE_MAX 1600
#define MESSAGE_HEAD 1000
#define MESSAGE_TAIL 500

int is_nomem_message(const char *msg)
{
    static const char oom[] = "out of memory";
    size_t n = strlen(msg), k = sizeof oom - 1;
    return strncmp(msg, oom, k) == 0 || (n >= k + 2 && strcmp(msg + n - k - 2, ": out of memory") == 0);
}

static int is_continuation(char ch) { return ((unsigned char)ch & 0xC0) == 0x80; }

static void elide_middle(buf *msg)
{
    if (msg->len <= MESSAGE_MAX)
        return;
    size_t head = MESSAGE_HEAD, tail = msg->len - MESSAGE_TAIL;
    while (head > 0 && is_continuation(msg->data[head])) /* whole UTF-8 sequences only */
        head--;
    while (tail < msg->len && is_continuation(msg->data[tail]))
        tail++;
    char mid[64];
    int m = snprintf(mid, sizeof mid, " [... %zu bytes ...] ", tail - head);
    memmove(msg->data + head + (size_t)m, msg->data + tail, msg->len - tail + 1);
    memcpy(msg->data + head, mid, (size_t)m);
    msg->len = head + (size_t)m + (msg->len - tail);
}

void diags_vadd(tlv_diags *d, tlv_severity sev, const char *file, long line,
                long col, const char *fmt, va_list ap)
{
    if (sev == TLV_SEV_ERROR)
        d->errors++;
    else
        d->warnings++;
    if (d->limit && d->count >= d->limit) {
        d->dropped++;
        return;
    }
    buf msg = BUF_INIT;
    if (GROW(d->items, d->cap, d->count + 1) < 0 || buf_vprintf(&msg, fmt, ap) < 0) {
        buf_free(&msg);
        d->dropped++;
        d->nomem = 1;
        return;
    }
    if (is_nomem_message(msg.data))
        d->nomem = 1;
    elide_middle(&msg);
    char *file_copy = file ? xstrdup(file) : NULL;
    if (!msg.data || (file && !file_copy)) {
        free(file_copy);
        buf_free(&msg);
        d->dropped++;
        d->nomem = 1;
        return;
    }
    tlv_diag *g = &d->items[d->count++];
    g->severity = sev;
    g->file = file_copy;
    g->line = line;
    g->col = col;
    g->message = msg.data;
}

void diags_add(tlv_diags *d, tlv_severity sev, const char *file, long line,
               long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diags_vadd(d, sev, file, line, col, fmt, ap);
    va_end(ap);
}

size_t diags_add_duplicates(tlv_diags *d, const char *file, const tj_node *member,
                            const char *what)
{
    size_t n = 0;
    for (const tj_node *e = member ? member->earlier : NULL; e; e = e->earlier, n++)
        diags_add(d, TLV_SEV_WARNING, file, member->key_line, member->key_col,
                  "%s '%s' is given again here; the one at line %ld, column %ld is not used "
                  "(the later one wins)",
                  what, member->key, e->key_line, e->key_col);
    return n;
}

void diags_merge(tlv_diags *dst, const tlv_diags *src)
{
    for (size_t i = 0; i < src->count; i++) {
        const tlv_diag *g = &src->items[i];
        diags_add(dst, g->severity, g->file, g->line, g->col, "%s", g->message);
    }
    dst->dropped += src->dropped;
    dst->nomem |= src->nomem;
}

size_t tlv_diags_count(const tlv_diags *diags) { return diags ? diags->count : 0; }

const tlv_diag *tlv_diags_get(const tlv_diags *diags, size_t i)
{
    return diags && i < diags->count ? &diags->items[i] : NULL;
}

size_t tlv_diags_dropped(const tlv_diags *diags) { return diags ? diags->dropped : 0; }

size_t tlv_diags_errors(const tlv_diags *diags) { return diags ? diags->errors : 0; }

/* Written straight into `out`, with no memory of its own: a message is
 * printed when memory is short too (formatted in a growing buffer, the
 * message was lost after "warning: " whenever that buffer could not grow). */
size_t tlv_diag_format(const tlv_diag *g, char *out, size_t size)
{
    const char *sev = g->severity == TLV_SEV_ERROR ? "error: " : "warning: ";
    int n;
    if (g->file && g->line > 0 && g->col > 0)
        n = snprintf(out, size, "%s:%ld:%ld: %s%s", g->file, g->line, g->col, sev, g->message);
    else if (g->file && g->line > 0)
        n = snprintf(out, size, "%s:%ld: %s%s", g->file, g->line, sev, g->message);
    else if (g->file)
        n = snprintf(out, size, "%s: %s%s", g->file, sev, g->message);
    else if (g->line > 0)
        n = snprintf(out, size, "line %ld: %s%s", g->line, sev, g->message);
    else
        n = snprintf(out, size, "%s%s", sev, g->message);
    return n < 0 ? 0 : (size_t)n;
}

tlv_status last_error_set(last_error *e, tlv_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->text, sizeof e->text, fmt, ap);
    va_end(ap);
    return st;
}
