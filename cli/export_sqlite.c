/*
 * export_sqlite.c — a trace as a SQLite database, for `tlv export --format
 * sqlite` and `tlv query`: resources, events, rows, the drawn intervals,
 * counters and their samples, flows, and the markers of a viewer session,
 * with indexes for time-range queries. The schema is documented in
 * docs/sql.md (and python/tlv/sql.py writes the same one); times are REAL
 * numbers in the trace's TimeScale units, ids count from 0 like the API's
 * indexes (an event's id is its tlv_trace_event index).
 */
#include "cli/export.h"
#include "view/session.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

static const char schema[] =
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
    "CREATE TABLE resources(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE,\n"
    "  display_name TEXT NOT NULL, type TEXT NOT NULL, attributes TEXT NOT NULL);\n"
    "CREATE TABLE events(id INTEGER PRIMARY KEY, ts REAL NOT NULL,\n"
    "  resource_id INTEGER NOT NULL REFERENCES resources(id), kind TEXT NOT NULL,\n"
    "  name TEXT NOT NULL, value TEXT, args TEXT, line INTEGER NOT NULL);\n"
    "CREATE TABLE rows(id INTEGER PRIMARY KEY, label TEXT NOT NULL,\n"
    "  resource_id INTEGER REFERENCES resources(id), grp TEXT);\n"
    "CREATE TABLE intervals(id INTEGER PRIMARY KEY, rule TEXT NOT NULL, event TEXT NOT NULL,\n"
    "  resource_id INTEGER REFERENCES resources(id), row_id INTEGER NOT NULL REFERENCES rows(id),\n"
    "  ts REAL NOT NULL, end_ts REAL NOT NULL, dur REAL NOT NULL, value TEXT, text TEXT,\n"
    "  instant INTEGER NOT NULL);\n"
    "CREATE TABLE counters(id INTEGER PRIMARY KEY,\n"
    "  resource_id INTEGER NOT NULL REFERENCES resources(id), attribute TEXT NOT NULL,\n"
    "  display_name TEXT NOT NULL, min REAL, max REAL, mean REAL, time_mean REAL);\n"
    "CREATE TABLE counter_samples(counter_id INTEGER NOT NULL REFERENCES counters(id),\n"
    "  ts REAL NOT NULL, value REAL NOT NULL);\n"
    "CREATE TABLE flows(id INTEGER PRIMARY KEY, rule TEXT NOT NULL, name TEXT NOT NULL,\n"
    "  display_name TEXT NOT NULL, ts REAL NOT NULL,\n"
    "  from_resource_id INTEGER REFERENCES resources(id),\n"
    "  to_resource_id INTEGER REFERENCES resources(id), from_processor TEXT, to_processor TEXT,\n"
    "  event_id INTEGER REFERENCES events(id));\n"
    "CREATE TABLE markers(id INTEGER PRIMARY KEY, ts REAL NOT NULL, name TEXT NOT NULL,\n"
    "  color TEXT);\n";

/* Made after the rows are in: building an index once is faster than
 * keeping it up to date row by row. */
static const char indexes[] =
    "CREATE INDEX events_by_ts ON events(ts);\n"
    "CREATE INDEX events_by_resource ON events(resource_id, ts);\n"
    "CREATE INDEX intervals_by_ts ON intervals(ts, end_ts);\n"
    "CREATE INDEX intervals_by_end ON intervals(end_ts);\n"
    "CREATE INDEX intervals_by_resource ON intervals(resource_id, ts);\n"
    "CREATE INDEX counter_samples_by_counter ON counter_samples(counter_id, ts);\n"
    "CREATE INDEX flows_by_ts ON flows(ts);\n";

typedef struct writer {
    sqlite3 *db;
    const sql_source *src;
    const char *what;
    int radix;
    const char **names; /* resource names sorted, for ids by name */
    size_t *ids;
    size_t nres;
    int failed;
} writer;

/* ---- SQLite's allocator: counts failures (export.h) ------------------------------------ */

static unsigned long sql_failures;

static void *sql_malloc(int n)
{
    sqlite3_int64 *p = malloc((size_t)n + sizeof *p); /* the size first: SQLite asks for it */
    if (!p) {
        sql_failures++;
        return NULL;
    }
    p[0] = n;
    return p + 1;
}

static void sql_free(void *p)
{
    if (p)
        free((sqlite3_int64 *)p - 1);
}

static void *sql_realloc(void *p, int n)
{
    if (!p)
        return sql_malloc(n);
    sqlite3_int64 *q = realloc((sqlite3_int64 *)p - 1, (size_t)n + sizeof *q);
    if (!q) {
        sql_failures++;
        return NULL;
    }
    q[0] = n;
    return q + 1;
}

static int sql_size(void *p) { return p ? (int)((sqlite3_int64 *)p)[-1] : 0; }
static int sql_roundup(int n) { return (n + 7) & ~7; }
static int sql_init(void *unused) { (void)unused; return SQLITE_OK; }
static void sql_shutdown(void *unused) { (void)unused; }

void sql_count_failures(void)
{
    static const sqlite3_mem_methods methods = {sql_malloc, sql_free, sql_realloc, sql_size,
                                                sql_roundup, sql_init, sql_shutdown, NULL};
    sqlite3_config(SQLITE_CONFIG_MALLOC, &methods);
}

unsigned long sql_alloc_failures(void) { return sql_failures; }

static int fail(writer *w, const char *doing)
{
    if (!w->failed && sqlite3_errcode(w->db) == SQLITE_NOMEM)
        report_nomem("writing the database of", w->src->input);
    else if (!w->failed)
        fprintf(stderr, "%s %s: SQLite: %s: %s\n", prog, w->what, doing, sqlite3_errmsg(w->db));
    w->failed = 1;
    return -1;
}

static int exec(writer *w, const char *sql, const char *doing)
{
    return sqlite3_exec(w->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(w, doing);
}

static sqlite3_stmt *prepare(writer *w, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(w->db, sql, -1, &st, NULL) != SQLITE_OK)
        fail(w, sql);
    return st;
}

/* Runs a statement whose parameters are bound, then resets it. */
static void step(writer *w, sqlite3_stmt *st, const char *table)
{
    if (!w->failed && sqlite3_step(st) != SQLITE_DONE)
        fail(w, table);
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
}

static void bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

static double seconds_of(const writer *w, tlv_time t) { return tlv_time_to_double(t, w->radix); }

/* ---- resources, and their ids by name ---------------------------------------------- */

static const char **sort_base;

static int by_name(const void *a, const void *b)
{
    return strcmp(sort_base[*(const size_t *)a], sort_base[*(const size_t *)b]);
}

static int index_resources(writer *w)
{
    const tlv_trace *t = w->src->trace;
    w->nres = tlv_trace_resource_count(t);
    w->names = calloc(w->nres + 1, sizeof *w->names);
    w->ids = calloc(w->nres + 1, sizeof *w->ids);
    if (!w->names || !w->ids)
        return -1;
    const char **byid = calloc(w->nres + 1, sizeof *byid);
    if (!byid)
        return -1;
    for (size_t i = 0; i < w->nres; i++) {
        byid[i] = tlv_trace_resource_name(t, i);
        w->ids[i] = i;
    }
    sort_base = byid;
    qsort(w->ids, w->nres, sizeof *w->ids, by_name);
    for (size_t i = 0; i < w->nres; i++)
        w->names[i] = byid[w->ids[i]];
    free(byid);
    return 0;
}

/* The id of resource `name`, or -1. */
static long resource_id(const writer *w, const char *name)
{
    size_t lo = 0, hi = w->nres;
    while (name && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(w->names[mid], name);
        if (c == 0)
            return (long)w->ids[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static void bind_resource(const writer *w, sqlite3_stmt *st, int i, const char *name)
{
    long id = resource_id(w, name);
    if (id >= 0)
        sqlite3_bind_int64(st, i, id);
    else
        sqlite3_bind_null(st, i);
}

/* Each resource's attributes that change in the trace, with their values
 * before the first event (the resource file's, or the type's Default). */
static cJSON **attribute_objects(writer *w)
{
    const tlv_trace *t = w->src->trace;
    cJSON **attrs = calloc(w->nres + 1, sizeof *attrs);
    if (!attrs)
        return NULL;
    for (size_t i = 0; i < w->nres; i++)
        attrs[i] = cJSON_CreateObject();
    size_t n = tlv_trace_event_count(t);
    for (size_t i = 0; i < n; i++) {
        tlv_event e;
        tlv_trace_event(t, i, &e);
        long id = e.kind == TLV_EVENT_ATTRIBUTE ? resource_id(w, e.resource) : -1;
        if (id < 0 || cJSON_GetObjectItemCaseSensitive(attrs[id], e.name))
            continue;
        const char *v = NULL;
        if (tlv_trace_attr_initial(t, e.resource, e.name, &v) == TLV_OK)
            cJSON_AddStringToObject(attrs[id], e.name, v);
        else
            cJSON_AddNullToObject(attrs[id], e.name);
    }
    return attrs;
}

static void write_resources(writer *w)
{
    const tlv_trace *t = w->src->trace;
    const tlv_rules *rules = w->src->rules;
    cJSON **attrs = attribute_objects(w);
    /* Without their attributes the resources are not written: an error,
     * not an empty table. */
    if (!attrs) {
        report_nomem("writing the database of", w->src->input);
        w->failed = 1;
        return;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO resources VALUES(?,?,?,?,?)");
    size_t nrules = tlv_rules_resource_count(rules);
    for (size_t i = 0; st && i < w->nres; i++) {
        const char *name = tlv_trace_resource_name(t, i);
        const char *display = i < nrules ? tlv_rules_resource_display_name(rules, i) : NULL;
        char *json = cJSON_PrintUnformatted(attrs[i]);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        bind_text(st, 2, name);
        bind_text(st, 3, display ? display : name);
        bind_text(st, 4, tlv_trace_resource_type(t, i));
        bind_text(st, 5, json ? json : "{}");
        step(w, st, "resources");
        free(json);
    }
    for (size_t i = 0; i < w->nres; i++)
        cJSON_Delete(attrs[i]);
    free(attrs);
    sqlite3_finalize(st);
}

/* ---- events ------------------------------------------------------------------------ */

/* A behavior's arguments joined with commas, and as a JSON array. */
static void bind_args(writer *w, sqlite3_stmt *st, const tlv_event *e)
{
    size_t len = 1;
    for (size_t i = 0; i < e->nargs; i++)
        len += strlen(e->args[i]) + 1;
    char *joined = malloc(len);
    cJSON *arr = cJSON_CreateArray();
    if (joined) {
        joined[0] = '\0';
        for (size_t i = 0; i < e->nargs; i++) {
            if (i)
                strcat(joined, ",");
            strcat(joined, e->args[i]);
            json_push(arr, cJSON_CreateString(e->args[i]));
        }
    }
    char *json = cJSON_PrintUnformatted(arr);
    if (!joined || !json) { /* not a NULL in the table for want of memory */
        if (!w->failed)
            report_nomem("writing the database of", w->src->input);
        w->failed = 1;
    }
    bind_text(st, 6, e->nargs ? joined : NULL);
    bind_text(st, 7, json);
    free(json);
    cJSON_Delete(arr);
    free(joined);
}

static void write_events(writer *w)
{
    const tlv_trace *t = w->src->trace;
    sqlite3_stmt *st = prepare(w, "INSERT INTO events VALUES(?,?,?,?,?,?,?,?)");
    size_t n = tlv_trace_event_count(t);
    for (size_t i = 0; st && !w->failed && i < n; i++) {
        tlv_event e;
        tlv_trace_event(t, i, &e);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        sqlite3_bind_double(st, 2, seconds_of(w, e.time));
        bind_resource(w, st, 3, e.resource);
        bind_text(st, 4, e.kind == TLV_EVENT_ATTRIBUTE ? "attribute" : "behavior");
        bind_text(st, 5, e.name);
        if (e.kind == TLV_EVENT_ATTRIBUTE)
            bind_text(st, 6, e.value);
        else
            bind_args(w, st, &e);
        sqlite3_bind_int64(st, 8, (sqlite3_int64)e.input_line);
        step(w, st, "events");
    }
    sqlite3_finalize(st);
}

/* ---- rows and intervals ---------------------------------------------------------------- */

static void write_rows(writer *w)
{
    const tlv_shapes *s = w->src->shapes;
    sqlite3_stmt *st = prepare(w, "INSERT INTO rows VALUES(?,?,?,?)");
    for (size_t r = 0; st && r < tlv_shapes_row_count(s); r++) {
        tlv_row_info row;
        tlv_shapes_row(s, r, &row);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)r);
        bind_text(st, 2, row.label);
        bind_resource(w, st, 3, row.resource);
        bind_text(st, 4, row.group);
        step(w, st, "rows");
    }
    sqlite3_finalize(st);
}

static void write_intervals(writer *w)
{
    interval_list l = {0};
    if (collect_intervals(w->src->shapes, &l) < 0) {
        report_nomem("writing the database of", w->src->input);
        w->failed = 1;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO intervals VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; st && !w->failed && i < l.n; i++) {
        const tlv_shape_info *sh = &l.v[i].sh;
        double from = seconds_of(w, sh->from), to = seconds_of(w, sh->to);
        int instant = is_instant(&l.v[i]);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        bind_text(st, 2, sh->rule);
        bind_text(st, 3, sh->event);
        bind_resource(w, st, 4, sh->resource);
        sqlite3_bind_int64(st, 5, (sqlite3_int64)sh->row);
        sqlite3_bind_double(st, 6, from);
        /* A When event happened at `from`: its interval is an instant. */
        sqlite3_bind_double(st, 7, sh->is_when ? from : to);
        /* tlv_time_span: tlv_time_sub wrapped spans past 2^63 ticks to dur < 0. */
        sqlite3_bind_double(st, 8, instant ? 0 : tlv_time_span(sh->from, sh->to, w->radix));
        bind_text(st, 9, sh->value);
        bind_text(st, 10, l.v[i].text);
        sqlite3_bind_int(st, 11, instant);
        step(w, st, "intervals");
    }
    sqlite3_finalize(st);
    free(l.v);
}

/* ---- counters, flows, markers --------------------------------------------------------------- */

static void write_counters(writer *w)
{
    tlv_counters *cs = NULL;
    if (tlv_counters_compute(w->src->trace, &cs) != TLV_OK) { /* it fails only for memory */
        report_nomem("computing the counters of", w->src->input);
        w->failed = 1;
        return;
    }
    sqlite3_stmt *c = prepare(w, "INSERT INTO counters VALUES(?,?,?,?,?,?,?,?)");
    sqlite3_stmt *s = prepare(w, "INSERT INTO counter_samples VALUES(?,?,?)");
    for (size_t i = 0; c && s && !w->failed && i < tlv_counters_count(cs); i++) {
        tlv_counter_info ci;
        tlv_counters_get(cs, i, &ci);
        sqlite3_bind_int64(c, 1, (sqlite3_int64)i);
        bind_resource(w, c, 2, ci.resource);
        bind_text(c, 3, ci.attribute);
        bind_text(c, 4, ci.display_name);
        if (ci.nsamples) {
            sqlite3_bind_double(c, 5, ci.min);
            sqlite3_bind_double(c, 6, ci.max);
            sqlite3_bind_double(c, 7, ci.mean);
            sqlite3_bind_double(c, 8, ci.time_mean);
        }
        step(w, c, "counters");
        size_t n = 0;
        const tlv_counter_sample *v = tlv_counters_samples(cs, i, &n);
        for (size_t k = 0; k < n && !w->failed; k++) {
            sqlite3_bind_int64(s, 1, (sqlite3_int64)i);
            sqlite3_bind_double(s, 2, seconds_of(w, v[k].time));
            sqlite3_bind_double(s, 3, v[k].value);
            step(w, s, "counter_samples");
        }
    }
    sqlite3_finalize(c);
    sqlite3_finalize(s);
    tlv_counters_free(cs);
}

static void write_flows(writer *w)
{
    const tlv_shapes *sh = w->src->shapes;
    sqlite3_stmt *st = prepare(w, "INSERT INTO flows VALUES(?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; st && !w->failed && i < tlv_shapes_flow_count(sh); i++) {
        tlv_flow_info f;
        tlv_shapes_flow(sh, i, &f);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        bind_text(st, 2, f.rule);
        bind_text(st, 3, f.name);
        bind_text(st, 4, f.display_name);
        sqlite3_bind_double(st, 5, seconds_of(w, f.time));
        bind_resource(w, st, 6, f.from_resource);
        bind_resource(w, st, 7, f.to_resource);
        bind_text(st, 8, f.from_processor);
        bind_text(st, 9, f.to_processor);
        sqlite3_bind_int64(st, 10, (sqlite3_int64)f.event);
        step(w, st, "flows");
    }
    sqlite3_finalize(st);
}

static void write_markers(writer *w)
{
    if (!w->src->session_path)
        return;
    view_session sess;
    if (session_read(w->src->session_path, &sess) < 0 || !sess.loaded) {
        if (!w->failed && sess.loaded == 0)
            fprintf(stderr, "%s %s: no session '%s'\n", prog, w->what, w->src->session_path);
        w->failed = 1;
        session_free(&sess);
        return;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO markers VALUES(?,?,?,?)");
    for (size_t i = 0; st && i < sess.markers.n; i++) {
        const view_marker *m = &sess.markers.v[i];
        char color[8];
        snprintf(color, sizeof color, "%06x", (unsigned)m->color & 0xFFFFFF);
        sqlite3_bind_int64(st, 1, (sqlite3_int64)i);
        sqlite3_bind_double(st, 2, m->time);
        bind_text(st, 3, m->name);
        bind_text(st, 4, color);
        step(w, st, "markers");
    }
    sqlite3_finalize(st);
    session_free(&sess);
}

static void write_meta(writer *w)
{
    const sql_source *src = w->src;
    char generator[64], radix[16], start[32], end[32];
    snprintf(generator, sizeof generator, "tlv %s", tlv_version());
    snprintf(radix, sizeof radix, "%d", w->radix);
    snprintf(start, sizeof start, "%.17g", seconds_of(w, tlv_trace_start(src->trace)));
    snprintf(end, sizeof end, "%.17g", seconds_of(w, tlv_trace_end(src->trace)));
    const char *kv[][2] = {{"schema_version", "1"},
                           {"generator", generator},
                           {"source", src->input ? src->input : ""},
                           {"time_scale", tlv_rules_time_scale(src->rules)},
                           {"time_radix", radix},
                           {"start", start},
                           {"end", end}};
    sqlite3_stmt *st = prepare(w, "INSERT INTO meta VALUES(?,?)");
    for (size_t i = 0; st && i < sizeof kv / sizeof kv[0]; i++) {
        bind_text(st, 1, kv[i][0]);
        bind_text(st, 2, kv[i][1]);
        step(w, st, "meta");
    }
    sqlite3_finalize(st);
}

int sql_write_trace(sqlite3 *db, const sql_source *src, const char *what)
{
    unsigned long failures = sql_alloc_failures(), json_failures = json_alloc_failures();
    writer w = {db, src, what, tlv_rules_time_radix(src->rules), NULL, NULL, 0, 0};
    /* One transaction, no journal: the file is new, and a failed run is removed. */
    exec(&w, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", "starting");
    exec(&w, schema, "creating the tables");
    if (!w.failed && index_resources(&w) < 0) {
        report_nomem("writing the database of", src->input);
        w.failed = 1;
    }
    void (*const parts[])(writer *) = {write_meta, write_resources, write_events, write_rows,
                                       write_intervals, write_counters, write_flows,
                                       write_markers};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !w.failed; i++)
        parts[i](&w);
    exec(&w, indexes, "creating the indexes");
    exec(&w, "COMMIT", "committing");
    free(w.names);
    free(w.ids);
    if (sql_alloc_failures() != failures || json_alloc_failures() != json_failures) {
        /* a value SQLite could not bind, an argument cJSON left out */
        report_nomem("writing the database of", src->input);
        w.failed = 1;
    }
    return w.failed ? -1 : 0;
}
