/*
 * export_shapes.c — the shapes format: one JSON object per drawn primitive,
 * one per line (JSON Lines, spec §11; what `tlv shapes` prints), ordered by
 * rule, event, resource and start time, times exact in trace units. Millions
 * of shapes: a cJSON tree per shape (allocated, printed, freed) was most of
 * the time; json_line writes the same bytes straight into a buffer, on
 * several threads (ordered_write).
 */
#include "export/export_impl.h"
#include "export/json_line.h"
#include "export/ordered_write.h"

static void put_color(json_line *b, int has, uint32_t argb)
{
    if (!has) {
        jl_raw(b, "null");
        return;
    }
    char text[11] = "\"";
    for (int i = 0; i < 8; i++)
        text[1 + i] = "0123456789abcdef"[(argb >> (28 - 4 * i)) & 15];
    text[9] = '"';
    text[10] = '\0';
    jl_raw(b, text);
}

/* The keys are plain: their printed form is written as is. The strings
 * are the shapes' names and primitives' texts, few and printed millions of
 * times: escaped once each (jl_memo). */
static void put_shape(json_line *b, jl_memo *m, const tlv_shape_info *sh, int radix)
{
    jl_raw(b, "{\"rule\":");
    jl_string_memo(b, m, sh->rule);
    jl_raw(b, ",\"event\":");
    jl_string_memo(b, m, sh->event);
    jl_raw(b, ",\"resource\":");
    jl_string_memo(b, m, sh->resource);
    jl_raw(b, ",\"from\":");
    jl_time(b, sh->from, radix);
    jl_raw(b, ",\"to\":");
    jl_time(b, sh->to, radix);
    jl_raw(b, ",\"type\":");
    jl_string_memo(b, m, sh->type);
    jl_raw(b, ",\"text\":");
    jl_string_memo(b, m, sh->text);
    jl_raw(b, ",\"fill\":");
    put_color(b, sh->has_fill, sh->fill);
    jl_raw(b, ",\"pen\":");
    put_color(b, sh->has_pen, sh->pen);
    jl_raw(b, ",\"row\":");
    jl_number(b, (double)sh->row);
    jl_raw(b, "}\n");
}

typedef struct shapes_ctx {
    const tlv_shapes *shapes;
    int radix;
} shapes_ctx;

/* Shape i's line (ordered_write's item). */
static void put_shape_at(void *ctx, json_line *b, jl_memo *m, size_t i)
{
    const shapes_ctx *c = ctx;
    tlv_shape_info sh;
    tlv_shapes_get(c->shapes, i, &sh);
    put_shape(b, m, &sh, c->radix);
}

static tlv_status write_shapes(tlv_exporter *ex, FILE *out)
{
    size_t n = tlv_shapes_count(ex->shapes);
    shapes_ctx c = {ex->shapes, ex->radix};
    int rc = ordered_write(out, n, ordered_write_threads(ex->opts.threads, n), put_shape_at, &c);
    if (rc == -2)
        return export_fail(ex, TLV_ERR_NOMEM, "out of memory while writing the shapes");
    return rc < 0 ? export_fail(ex, TLV_ERR_IO, "writing the shapes failed") : TLV_OK;
}

const export_writer export_shapes = {write_shapes, NULL};
