/*
 * fuzz_export.c — libFuzzer target: the SQLite export of `tlv export
 * --format sqlite` and `tlv query` (libtlv-export's sqlite format,
 * libtlv/src/export/export_sqlite.c). The fuzzed log
 * is converted with the fixed fuzz rule set (tests/fuzz/rules), pushed in
 * two pieces split where the first byte says, its shapes are built (per
 * processor on odd first bytes), and the trace is written into an in-memory
 * database; then the schema's invariants must hold:
 *   - the export succeeds, and every event and resource of the trace is in it;
 *   - every interval's start <= its end, its duration >= 0 and no time is NaN;
 *   - every reference names an existing row (PRAGMA foreign_key_check: an
 *     event's resource, an interval's row and resource, a flow's resources
 *     and event, a counter's resource, a sample's counter);
 *   - the database is sound (PRAGMA integrity_check).
 */
#include "fuzz_util.h"

#include <tlv/export.h>

#include <sqlite3.h>

static tlv_rules *rules;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rules = fuzz_fixed_rules("fuzz_export");
    return 0;
}

/* The single integer a query gives (-1 when it gives none). */
static sqlite3_int64 one_int(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    sqlite3_int64 v = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* True when the statement returns no row at all. */
static int no_rows(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK ? sqlite3_step(st) : SQLITE_ERROR;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

static void check_database(sqlite3 *db, const tlv_trace *trace)
{
    if (one_int(db, "SELECT count(*) FROM events") != (sqlite3_int64)tlv_trace_event_count(trace) ||
        one_int(db, "SELECT count(*) FROM resources") !=
            (sqlite3_int64)tlv_trace_resource_count(trace))
        __builtin_trap();
    if (one_int(db, "SELECT count(*) FROM intervals WHERE NOT (ts <= end_ts) OR NOT (dur >= 0)") != 0)
        __builtin_trap();
    if (one_int(db, "SELECT count(*) FROM events WHERE resource_id NOT IN "
                    "(SELECT id FROM resources)") != 0)
        __builtin_trap();
    if (!no_rows(db, "PRAGMA foreign_key_check"))
        __builtin_trap();
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK ||
        sqlite3_step(st) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
        __builtin_trap();
    sqlite3_finalize(st);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *log = (const char *)data + 1;
    size_t n = size - 1, split = (size_t)data[0] * n / 256;
    tlv_trace *trace = fuzz_convert_split(rules, log, n, split);
    if (!trace)
        return 0;
    tlv_shapes_options so;
    memset(&so, 0, sizeof so);
    so.cpu_attribute = data[0] & 1 ? "prcId" : NULL;
    tlv_shapes *shapes = NULL;
    if (tlv_shapes_build(trace, &so, &shapes) == TLV_OK && shapes) {
        sqlite3 *db = NULL;
        if (sqlite3_open(":memory:", &db) != SQLITE_OK)
            abort();
        tlv_export_options o = TLV_EXPORT_OPTIONS_INIT;
        o.source = "fuzz.log";
        tlv_exporter *ex = NULL;
        if (tlv_exporter_new(rules, trace, shapes, &o, &ex) != TLV_OK ||
            tlv_export_sqlite_db(ex, db) != TLV_OK)
            __builtin_trap(); /* a trace that converted always exports */
        tlv_exporter_free(ex);
        check_database(db, trace);
        sqlite3_close(db);
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    return 0;
}
