/*
 * export_flows.c — the flows format: one JSON object per flow (an arrow
 * between rows, the "Flows" of the visualization rules), one per line, in
 * time order (what `tlv shapes --flows` prints): {"rule","flow","name",
 * "from","to","from_processor","to_processor","time","line","from_row",
 * "to_row"}, null for no processor or no row.
 */
#include "export/export_impl.h"
#include "export/json_line.h"

static void put_row(json_line *b, size_t row)
{
    if (row == TLV_NO_ROW)
        jl_raw(b, "null");
    else
        jl_number(b, (double)row);
}

static int print_flow(FILE *out, json_line *b, const tlv_trace *trace, const tlv_flow_info *f,
                      int radix)
{
    tlv_event e;
    tlv_trace_event(trace, f->event, &e);
    jl_key(b, "rule", 1);
    jl_string(b, f->rule);
    jl_key(b, "flow", 0);
    jl_string(b, f->name);
    jl_key(b, "name", 0);
    jl_string(b, f->display_name);
    jl_key(b, "from", 0);
    jl_string(b, f->from_resource);
    jl_key(b, "to", 0);
    jl_string(b, f->to_resource);
    jl_key(b, "from_processor", 0);
    jl_string(b, f->from_processor);
    jl_key(b, "to_processor", 0);
    jl_string(b, f->to_processor);
    jl_key(b, "time", 0);
    jl_time(b, f->time, radix);
    jl_key(b, "line", 0);
    jl_number(b, (double)e.input_line);
    jl_key(b, "from_row", 0);
    put_row(b, f->from_row);
    jl_key(b, "to_row", 0);
    put_row(b, f->to_row);
    jl_raw(b, "}\n");
    return jl_write(b, out);
}

static tlv_status write_flows(tlv_exporter *ex, FILE *out)
{
    json_line b = {0};
    int rc = 0;
    for (size_t i = 0; i < tlv_shapes_flow_count(ex->shapes) && rc == 0; i++) {
        tlv_flow_info f;
        tlv_shapes_flow(ex->shapes, i, &f);
        rc = print_flow(out, &b, ex->trace, &f, ex->radix);
    }
    int nomem = b.failed;
    jl_free(&b);
    if (nomem)
        return export_fail(ex, TLV_ERR_NOMEM, "out of memory while writing the flows");
    return rc < 0 ? export_fail(ex, TLV_ERR_IO, "writing the flows failed") : TLV_OK;
}

const export_writer export_flows = {write_flows, NULL};
