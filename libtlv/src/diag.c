/*
 * diag.c — diagnostics lists (see diag.h) and their one-line text form, the
 * "file:line:col: error: message" that every tlv command prints.
 */
#include "diag.h"

#include "buf.h"

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

void diags_vadd(tlv_diags *d, tlv_severity sev, const char *file, long line,
                long col, const char *fmt, va_list ap)
{
    if (sev == TLV_SEV_ERROR)
        d->errors++;
    else
        d->warnings++;
    if ((d->limit && d->count >= d->limit) || GROW(d->items, d->cap, d->count + 1) < 0) {
        d->dropped++;
        return;
    }
    buf msg = BUF_INIT;
    if (buf_vprintf(&msg, fmt, ap) < 0) {
        buf_free(&msg);
        d->dropped++;
        return;
    }
    tlv_diag *g = &d->items[d->count++];
    g->severity = sev;
    g->file = file ? xstrdup(file) : NULL;
    g->line = line;
    g->col = col;
    g->message = msg.data ? msg.data : xstrdup("");
}

void diags_add(tlv_diags *d, tlv_severity sev, const char *file, long line,
               long col, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diags_vadd(d, sev, file, line, col, fmt, ap);
    va_end(ap);
}

void diags_merge(tlv_diags *dst, const tlv_diags *src)
{
    for (size_t i = 0; i < src->count; i++) {
        const tlv_diag *g = &src->items[i];
        diags_add(dst, g->severity, g->file, g->line, g->col, "%s", g->message);
    }
    dst->dropped += src->dropped;
}

size_t tlv_diags_count(const tlv_diags *diags) { return diags ? diags->count : 0; }

const tlv_diag *tlv_diags_get(const tlv_diags *diags, size_t i)
{
    return diags && i < diags->count ? &diags->items[i] : NULL;
}

size_t tlv_diags_dropped(const tlv_diags *diags) { return diags ? diags->dropped : 0; }

size_t tlv_diags_errors(const tlv_diags *diags) { return diags ? diags->errors : 0; }

size_t tlv_diag_format(const tlv_diag *g, char *out, size_t size)
{
    buf b = BUF_INIT;
    if (g->file) {
        buf_puts(&b, g->file);
        if (g->line > 0) {
            buf_printf(&b, ":%ld", g->line);
            if (g->col > 0)
                buf_printf(&b, ":%ld", g->col);
        }
        buf_puts(&b, ": ");
    } else if (g->line > 0) {
        buf_printf(&b, "line %ld: ", g->line);
    }
    buf_puts(&b, g->severity == TLV_SEV_ERROR ? "error: " : "warning: ");
    buf_puts(&b, g->message);
    size_t n = buf_copy_out(&b, out, size);
    buf_free(&b);
    return n;
}
