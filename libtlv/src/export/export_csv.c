/*
 * export_csv.c — the csv format: one RFC 4180 row (CRLF, quoted when
 * needed) per drawn interval: rule,event,resource,start,end,duration,value,
 * times exact in trace units (a clock or wall-clock trace's from its start,
 * unless asked for absolute times); value is the text drawn, else what the
 * event that opened the interval carried.
 */
#include "export/export_impl.h"

#include <tlv/trace.h>

#include <string.h>

/* RFC 4180: quoted when it holds a comma, a quote or a line end; quotes doubled. */
static void csv_field(FILE *out, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
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
    for (size_t i = 0; i < l->n && !ferror(out); i++) {
        const interval *iv = &l->v[i];
        tlv_time end = iv->sh.is_when ? iv->sh.from : iv->sh.to;
        char start_s[160], end_s[160], dur_s[160];
        csv_time(iv->sh.from, relative, origin, radix, start_s, sizeof start_s);
        csv_time(end, relative, origin, radix, end_s, sizeof end_s);
        span_text(iv->sh.from, end, radix, dur_s, sizeof dur_s);
        csv_field(out, iv->sh.rule);
        fputc(',', out);
        csv_field(out, iv->sh.event);
        fputc(',', out);
        csv_field(out, iv->sh.resource);
        fprintf(out, ",%s,%s,%s,", start_s, end_s, dur_s);
        csv_field(out, iv->text ? iv->text : iv->sh.value);
        fputs("\r\n", out);
    }
    return ferror(out) ? export_fail(ex, TLV_ERR_IO, "writing the export failed") : TLV_OK;
}

const export_writer export_csv = {write_csv, NULL};
