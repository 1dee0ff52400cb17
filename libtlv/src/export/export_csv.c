/*
 * export_csv.c — the csv format: one RFC 4180 row (CRLF, quoted when
 * needed) per drawn interval: rule,event,resource,start,end,duration,value,
 * times exact in trace units (a clock or wall-clock trace's from its start,
 * unless asked for absolute times); value is the text drawn, else what the
 * event that opened the interval carried.
 */
#include "export/export_impl.h"
#include "export/json_line.h"

#include <tlv/trace.h>

#include <string.h>

/* One byte at the end of the row being built. */
static void put_char(json_line *b, char c)
{
    char one[2] = {c, '\0'};
    jl_raw(b, one);
}

/* RFC 4180: quoted when it holds a comma, a quote or a line end; quotes
 * doubled. Appended to the row's buffer (written a block at a time: no
 * stdio call per field). */
static void csv_field(json_line *b, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        jl_raw(b, s);
        return;
    }
    jl_raw(b, "\"");
    for (; *s; s++) {
        if (*s == '"')
            jl_raw(b, "\"");
        put_char(b, *s);
    }
    jl_raw(b, "\"");
}

/* t from `origin` when `relative` (and the difference fits in 64 bits, as
 * it does in any real recording), else t as the log wrote it. */
static void csv_time(tlv_time t, int relative, tlv_time origin, int radix, char *buf, size_t size)
{
    int after = tlv_time_cmp(t, origin) >= 0;
    if (relative && (after ? tlv_time_span_fits(origin, t, radix, NULL)
                           : tlv_time_span_fits(t, origin, radix, NULL)))
        t = tlv_time_sub(t, origin, radix);
    time_text(t, radix, buf, size);
}

static tlv_status write_csv(tlv_exporter *ex, FILE *out)
{
    const interval_list *l = export_intervals(ex);
    if (!l)
        return TLV_ERR_NOMEM;
    int radix = ex->radix;
    /* 16-digit epochs say nothing to a reader: a clock's times count from
     * the trace's start, as the viewer's do */
    int relative = !ex->opts.absolute_times && tlv_trace_time_mode(ex->trace) != TLV_TIME_PLAIN;
    tlv_time origin = relative ? tlv_trace_time_origin(ex->trace) : (tlv_time){0, 0};
    fputs("rule,event,resource,start,end,duration,value\r\n", out);
    json_line b = {0};
    int failed = 0;
    for (size_t i = 0; i < l->n && !failed; i++) {
        const interval *iv = &l->v[i];
        tlv_time end = iv->sh.is_when ? iv->sh.from : iv->sh.to;
        char text[160];
        csv_field(&b, iv->sh.rule);
        jl_raw(&b, ",");
        csv_field(&b, iv->sh.event);
        jl_raw(&b, ",");
        csv_field(&b, iv->sh.resource);
        jl_raw(&b, ",");
        csv_time(iv->sh.from, relative, origin, radix, text, sizeof text);
        jl_raw(&b, text);
        jl_raw(&b, ",");
        csv_time(end, relative, origin, radix, text, sizeof text);
        jl_raw(&b, text);
        jl_raw(&b, ",");
        span_text(iv->sh.from, end, radix, text, sizeof text);
        jl_raw(&b, text);
        jl_raw(&b, ",");
        csv_field(&b, iv->text ? iv->text : iv->sh.value);
        jl_raw(&b, "\r\n");
        if (b.len >= 1 << 16 || b.failed || i + 1 == l->n) /* a block at a time */
            failed = jl_write(&b, out) < 0 || ferror(out);
    }
    int nomem = b.failed;
    jl_free(&b);
    if (nomem)
        return export_fail(ex, TLV_ERR_NOMEM, "out of memory while writing the export");
    return ferror(out) ? export_fail(ex, TLV_ERR_IO, "writing the export failed") : TLV_OK;
}

const export_writer export_csv = {write_csv, NULL};
