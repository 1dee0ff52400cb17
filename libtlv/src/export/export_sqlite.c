/*
 * export_sqlite.c — the sqlite format: a trace as a SQLite database, for
 * `tlv export --format sqlite`, `tlv query` and the Python package (one
 * writer, one schema): resources, events, rows, the drawn intervals,
 * counters and their samples, flows, and the markers of a viewer session,
 * with indexes for time-range queries; and the tables a Perfetto user knows
 * (slice, thread, process, counter, sched, args, ...: integer nanoseconds
 * from the trace's time origin, tlv_trace_time_origin: its first event). The schema is documented in
 * docs/sql.md; times are REAL numbers in the trace's TimeScale units, ids
 * count from 0 like the API's indexes (an event's id is its tlv_trace_event
 * index). Every failure is the exporter's message: SQLite's own words, or
 * running out of memory (a value SQLite could not bind, a JSON text that
 * could not be made), never a row silently left out.
 */
#include "export/export_impl.h"
#include "export/json_line.h"

#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    "  color TEXT);\n"
    "CREATE TABLE instance(id INTEGER PRIMARY KEY,\n"
    "  resource_id INTEGER NOT NULL REFERENCES resources(id), kind TEXT NOT NULL,\n"
    "  name TEXT NOT NULL, ts REAL NOT NULL, end_ts REAL NOT NULL, dur REAL NOT NULL,\n"
    "  execution REAL, preemptions INTEGER NOT NULL, interruptions INTEGER NOT NULL,\n"
    "  line INTEGER NOT NULL, end_line INTEGER NOT NULL,\n"
    "  start_event_id INTEGER NOT NULL REFERENCES events(id),\n"
    "  end_event_id INTEGER NOT NULL REFERENCES events(id));\n";

/* The tables a Perfetto trace_processor user knows (docs/sql.md), with
 * times in integer nanoseconds from the trace's time origin (its first
 * event; `metadata` says where that is): a thread per row with intervals,
 * a thread track per lane of it (layout.c), a slice per interval (its id is
 * the interval's), a process per group of rows (or Linux pid), a counter
 * track per counter, the per-CPU running slices, and the slices' args.
 * The actors' instances (timing analysis) are in `instance`, with the
 * tables above. */
static const char perfetto_schema[] =
    "CREATE TABLE metadata(name TEXT PRIMARY KEY, key_type TEXT NOT NULL, int_value INTEGER,\n"
    "  str_value TEXT);\n"
    "CREATE TABLE trace_bounds(start_ts INTEGER NOT NULL, end_ts INTEGER NOT NULL);\n"
    "CREATE TABLE process(upid INTEGER PRIMARY KEY, pid INTEGER, name TEXT);\n"
    "CREATE TABLE thread(utid INTEGER PRIMARY KEY, tid INTEGER, name TEXT,\n"
    "  upid INTEGER REFERENCES process(upid));\n"
    "CREATE TABLE track(id INTEGER PRIMARY KEY, name TEXT, type TEXT NOT NULL);\n"
    "CREATE TABLE thread_track(id INTEGER PRIMARY KEY REFERENCES track(id), name TEXT,\n"
    "  utid INTEGER NOT NULL REFERENCES thread(utid));\n"
    "CREATE TABLE counter_track(id INTEGER PRIMARY KEY REFERENCES track(id), name TEXT,\n"
    "  upid INTEGER REFERENCES process(upid), counter_id INTEGER REFERENCES counters(id));\n"
    "CREATE TABLE slice(id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, dur INTEGER NOT NULL,\n"
    "  track_id INTEGER NOT NULL REFERENCES track(id), category TEXT, name TEXT,\n"
    "  depth INTEGER NOT NULL, parent_id INTEGER REFERENCES slice(id), arg_set_id INTEGER);\n"
    "CREATE TABLE counter(id INTEGER PRIMARY KEY, ts INTEGER NOT NULL,\n"
    "  track_id INTEGER NOT NULL REFERENCES track(id), value REAL NOT NULL);\n"
    "CREATE TABLE sched(id INTEGER PRIMARY KEY, ts INTEGER NOT NULL, dur INTEGER NOT NULL,\n"
    "  cpu INTEGER, utid INTEGER REFERENCES thread(utid), end_state TEXT, priority INTEGER);\n"
    "CREATE VIEW sched_slice AS SELECT * FROM sched;\n"
    /* a view: the intervals hold the args already (a table of them doubled
     * the export's size and time) */
    "CREATE VIEW args(arg_set_id, flat_key, key, int_value, string_value, real_value,\n"
    "  value_type) AS\n"
    "  SELECT id, 'args.event', 'args.event', NULL, event, NULL, 'string' FROM intervals\n"
    "  UNION ALL SELECT i.id, 'args.resource', 'args.resource', NULL, r.name, NULL, 'string'\n"
    "    FROM intervals i JOIN resources r ON r.id = i.resource_id\n"
    "  UNION ALL SELECT id, 'args.value', 'args.value', NULL, value, NULL, 'string'\n"
    "    FROM intervals WHERE value IS NOT NULL\n"
    "  UNION ALL SELECT id, 'args.text', 'args.text', NULL, text, NULL, 'string'\n"
    "    FROM intervals WHERE text IS NOT NULL;\n";

/* Made after the rows are in: building an index once is faster than
 * keeping it up to date row by row. */
static const char indexes[] =
    "CREATE INDEX events_by_ts ON events(ts);\n"
    "CREATE INDEX events_by_resource ON events(resource_id, ts);\n"
    "CREATE INDEX intervals_by_ts ON intervals(ts, end_ts);\n"
    "CREATE INDEX intervals_by_end ON intervals(end_ts);\n"
    "CREATE INDEX intervals_by_resource ON intervals(resource_id, ts);\n"
    "CREATE INDEX counter_samples_by_counter ON counter_samples(counter_id, ts);\n"
    "CREATE INDEX flows_by_ts ON flows(ts);\n"
    "CREATE INDEX instance_by_resource ON instance(resource_id, kind, name, ts);\n"
    "CREATE INDEX slice_by_track ON slice(track_id, ts);\n"
    "CREATE INDEX counter_by_track ON counter(track_id, ts);\n"
    "CREATE INDEX sched_by_cpu ON sched(cpu, ts);\n";

typedef struct writer {
    sqlite3 *db;
    tlv_exporter *ex;
    int radix;
    struct named_id *byname; /* the resources sorted by name */
    size_t nres;
    tlv_time origin;     /* the time origin of the Perfetto-shaped tables */
    long double ns;      /* nanoseconds per trace unit */
    int failed;
    tlv_status status;  /* of the first failure */
    uint64_t clamped;   /* times and durations past 64-bit nanoseconds */
} writer;

/* Records the first failure: running out of memory, or SQLite's message
 * for what was being done. */
static int fail(writer *w, const char *doing)
{
    if (!w->failed && sqlite3_errcode(w->db) == SQLITE_NOMEM)
        w->status = export_fail(w->ex, TLV_ERR_NOMEM, "out of memory while writing the database");
    else if (!w->failed)
        w->status = export_fail(w->ex, TLV_ERR_IO, "SQLite: %s: %s", doing, sqlite3_errmsg(w->db));
    w->failed = 1;
    return -1;
}

static void fail_nomem(writer *w)
{
    if (!w->failed)
        w->status = export_fail(w->ex, TLV_ERR_NOMEM, "out of memory while writing the database");
    w->failed = 1;
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

/* Binding copies text and may run out of memory: a value not bound would
 * be a NULL in the table, so a failure ends the export. */
static void bound(writer *w, int rc)
{
    if (rc == SQLITE_NOMEM)
        fail_nomem(w);
    else if (rc != SQLITE_OK && !w->failed)
        fail(w, "binding a value");
}

static void bind_text(writer *w, sqlite3_stmt *st, int i, const char *s)
{
    bound(w, s ? sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT) : sqlite3_bind_null(st, i));
}

static void bind_int(writer *w, sqlite3_stmt *st, int i, sqlite3_int64 v)
{
    bound(w, sqlite3_bind_int64(st, i, v));
}

static void bind_double(writer *w, sqlite3_stmt *st, int i, double v)
{
    bound(w, sqlite3_bind_double(st, i, v));
}

static double seconds_of(const writer *w, tlv_time t) { return tlv_time_to_double(t, w->radix); }

/* ---- resources, and their ids by name ---------------------------------------------- */

typedef struct named_id {
    const char *name;
    size_t id;
} named_id;

static int by_name(const void *a, const void *b)
{
    return strcmp(((const named_id *)a)->name, ((const named_id *)b)->name);
}

/* The resources sorted by name, for their ids by name. */
static int index_resources(writer *w)
{
    const tlv_trace *t = w->ex->trace;
    w->nres = tlv_trace_resource_count(t);
    w->byname = calloc(w->nres + 1, sizeof *w->byname);
    if (!w->byname)
        return -1;
    for (size_t i = 0; i < w->nres; i++) {
        w->byname[i].name = tlv_trace_resource_name(t, i);
        w->byname[i].id = i;
    }
    qsort(w->byname, w->nres, sizeof *w->byname, by_name);
    return 0;
}

/* The id of resource `name`, or -1. */
static long resource_id(const writer *w, const char *name)
{
    size_t lo = 0, hi = w->nres;
    while (name && lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(w->byname[mid].name, name);
        if (c == 0)
            return (long)w->byname[mid].id;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static void bind_resource(writer *w, sqlite3_stmt *st, int i, const char *name)
{
    long id = resource_id(w, name);
    if (id >= 0)
        bind_int(w, st, i, id);
    else
        bound(w, sqlite3_bind_null(st, i));
}

/* A resource's attributes that change in the trace, as a JSON object in
 * the making: the names written so far, to write each once. */
typedef struct attr_object {
    json_line json;
    const char **names;
    size_t n, cap;
} attr_object;

static int attr_seen(const attr_object *o, const char *name)
{
    for (size_t i = 0; i < o->n; i++)
        if (strcmp(o->names[i], name) == 0)
            return 1;
    return 0;
}

/* Adds "name":value (value NULL: null). Returns 0, or -1 for memory. */
static int attr_add(attr_object *o, const char *name, const char *value)
{
    if (o->n == o->cap) {
        size_t cap = o->cap ? o->cap * 2 : 8;
        const char **v = realloc(o->names, cap * sizeof *v);
        if (!v)
            return -1;
        o->names = v;
        o->cap = cap;
    }
    o->names[o->n] = name;
    jl_key(&o->json, name, o->n++ == 0);
    jl_string(&o->json, value);
    return o->json.failed ? -1 : 0;
}

static void attr_objects_free(attr_object *attrs, size_t n)
{
    for (size_t i = 0; attrs && i < n; i++) {
        jl_free(&attrs[i].json);
        free(attrs[i].names);
    }
    free(attrs);
}

/* Each resource's attributes that change in the trace, in the order of
 * their first change, with their values before the first event (the
 * resource file's, or the type's Default; null when its type lacks it).
 * NULL when memory ran out. */
static attr_object *attribute_objects(writer *w)
{
    const tlv_trace *t = w->ex->trace;
    attr_object *attrs = calloc(w->nres + 1, sizeof *attrs);
    if (!attrs)
        return NULL;
    size_t n = tlv_trace_event_count(t);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        tlv_event e;
        tlv_trace_event(t, i, &e);
        long id = e.kind == TLV_EVENT_ATTRIBUTE ? resource_id(w, e.resource) : -1;
        if (id < 0 || attr_seen(&attrs[id], e.name))
            continue;
        const char *v = NULL;
        /* Not "at start - 1": that wrapped to the end of the trace when the
         * first event is at -2^63 (issue 32.2). */
        if (tlv_trace_attr_initial(t, e.resource, e.name, &v) != TLV_OK)
            v = NULL;
        rc = attr_add(&attrs[id], e.name, v);
    }
    for (size_t i = 0; i < w->nres && rc == 0; i++) {
        jl_raw(&attrs[i].json, attrs[i].n ? "}" : "{}");
        jl_raw(&attrs[i].json, ""); /* room for the NUL below */
        rc = attrs[i].json.failed ? -1 : 0;
    }
    if (rc < 0) {
        attr_objects_free(attrs, w->nres);
        return NULL;
    }
    return attrs;
}

/* The text of a json_line (NUL-terminated in place), or NULL for memory. */
static const char *json_text(json_line *b)
{
    if (b->failed)
        return NULL;
    jl_raw(b, " ");
    if (b->failed)
        return NULL;
    b->p[--b->len] = '\0';
    return b->p;
}

static void write_resources(writer *w)
{
    const tlv_trace *t = w->ex->trace;
    const tlv_rules *rules = w->ex->rules;
    attr_object *attrs = attribute_objects(w);
    /* Without their attributes the resources are not written: an error,
     * not an empty table. */
    if (!attrs) {
        fail_nomem(w);
        return;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO resources VALUES(?,?,?,?,?)");
    size_t nrules = tlv_rules_resource_count(rules);
    for (size_t i = 0; st && !w->failed && i < w->nres; i++) {
        const char *name = tlv_trace_resource_name(t, i);
        const char *display = i < nrules ? tlv_rules_resource_display_name(rules, i) : NULL;
        const char *json = json_text(&attrs[i].json);
        if (!json)
            fail_nomem(w);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_text(w, st, 2, name);
        bind_text(w, st, 3, display ? display : name);
        bind_text(w, st, 4, tlv_trace_resource_type(t, i));
        bind_text(w, st, 5, json);
        step(w, st, "resources");
    }
    attr_objects_free(attrs, w->nres);
    sqlite3_finalize(st);
}

/* ---- events ------------------------------------------------------------------------ */

/* A behavior's arguments joined with commas, and as a JSON array (two
 * buffers kept from event to event). */
static void bind_args(writer *w, sqlite3_stmt *st, const tlv_event *e, json_line scratch[2])
{
    json_line *joined = &scratch[0], *json = &scratch[1];
    joined->len = json->len = 0;
    jl_raw(json, "[");
    for (size_t i = 0; i < e->nargs; i++) {
        jl_raw(joined, i ? "," : "");
        jl_raw(joined, e->args[i]);
        jl_raw(json, i ? "," : "");
        jl_string(json, e->args[i]);
    }
    jl_raw(json, "]");
    const char *joined_text = json_text(joined), *json_text_ = json_text(json);
    if (!joined_text || !json_text_) { /* not a NULL in the table for want of memory */
        fail_nomem(w);
        return;
    }
    bind_text(w, st, 6, e->nargs ? joined_text : NULL);
    bind_text(w, st, 7, json_text_);
}

static void write_events(writer *w)
{
    const tlv_trace *t = w->ex->trace;
    sqlite3_stmt *st = prepare(w, "INSERT INTO events VALUES(?,?,?,?,?,?,?,?)");
    size_t n = tlv_trace_event_count(t);
    json_line scratch[2] = {{0}, {0}};
    for (size_t i = 0; st && !w->failed && i < n; i++) {
        tlv_event e;
        tlv_trace_event(t, i, &e);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_double(w, st, 2, seconds_of(w, e.time));
        bind_resource(w, st, 3, e.resource);
        bind_text(w, st, 4, e.kind == TLV_EVENT_ATTRIBUTE ? "attribute" : "behavior");
        bind_text(w, st, 5, e.name);
        if (e.kind == TLV_EVENT_ATTRIBUTE)
            bind_text(w, st, 6, e.value);
        else
            bind_args(w, st, &e, scratch);
        bind_int(w, st, 8, (sqlite3_int64)e.input_line);
        step(w, st, "events");
    }
    jl_free(&scratch[0]);
    jl_free(&scratch[1]);
    sqlite3_finalize(st);
}

/* ---- rows and intervals ---------------------------------------------------------------- */

static void write_rows(writer *w)
{
    const tlv_shapes *s = w->ex->shapes;
    sqlite3_stmt *st = prepare(w, "INSERT INTO rows VALUES(?,?,?,?)");
    for (size_t r = 0; st && r < tlv_shapes_row_count(s); r++) {
        tlv_row_info row;
        tlv_shapes_row(s, r, &row);
        bind_int(w, st, 1, (sqlite3_int64)r);
        bind_text(w, st, 2, row.label);
        bind_resource(w, st, 3, row.resource);
        bind_text(w, st, 4, row.group);
        step(w, st, "rows");
    }
    sqlite3_finalize(st);
}

static void write_intervals(writer *w)
{
    const interval_list *l = export_intervals(w->ex);
    if (!l) {
        fail_nomem(w);
        return;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO intervals VALUES(?,?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; st && !w->failed && i < l->n; i++) {
        const tlv_shape_info *sh = &l->v[i].sh;
        double from = seconds_of(w, sh->from), to = seconds_of(w, sh->to);
        int instant = is_instant(&l->v[i]);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_text(w, st, 2, sh->rule);
        bind_text(w, st, 3, sh->event);
        bind_resource(w, st, 4, sh->resource);
        bind_int(w, st, 5, (sqlite3_int64)sh->row);
        bind_double(w, st, 6, from);
        /* A When event happened at `from`: its interval is an instant. */
        bind_double(w, st, 7, sh->is_when ? from : to);
        bind_double(w, st, 8, instant ? 0 : tlv_time_span(sh->from, sh->to, w->radix)); /* dur >= 0 */
        bind_text(w, st, 9, sh->value);
        bind_text(w, st, 10, l->v[i].text);
        bind_int(w, st, 11, instant);
        step(w, st, "intervals");
    }
    sqlite3_finalize(st);
}

/* ---- counters, flows, markers --------------------------------------------------------------- */

static void write_counters(writer *w)
{
    tlv_counters *cs = NULL;
    if (tlv_counters_compute(w->ex->trace, &cs) != TLV_OK) { /* it fails only for memory */
        fail_nomem(w);
        return;
    }
    sqlite3_stmt *c = prepare(w, "INSERT INTO counters VALUES(?,?,?,?,?,?,?,?)");
    sqlite3_stmt *s = prepare(w, "INSERT INTO counter_samples VALUES(?,?,?)");
    for (size_t i = 0; c && s && !w->failed && i < tlv_counters_count(cs); i++) {
        tlv_counter_info ci;
        tlv_counters_get(cs, i, &ci);
        bind_int(w, c, 1, (sqlite3_int64)i);
        bind_resource(w, c, 2, ci.resource);
        bind_text(w, c, 3, ci.attribute);
        bind_text(w, c, 4, ci.display_name);
        if (ci.nsamples) {
            bind_double(w, c, 5, ci.min);
            bind_double(w, c, 6, ci.max);
            bind_double(w, c, 7, ci.mean);
            bind_double(w, c, 8, ci.time_mean);
        }
        step(w, c, "counters");
        size_t n = 0;
        const tlv_counter_sample *v = tlv_counters_samples(cs, i, &n);
        for (size_t k = 0; k < n && !w->failed; k++) {
            bind_int(w, s, 1, (sqlite3_int64)i);
            bind_double(w, s, 2, seconds_of(w, v[k].time));
            bind_double(w, s, 3, v[k].value);
            step(w, s, "counter_samples");
        }
    }
    sqlite3_finalize(c);
    sqlite3_finalize(s);
    tlv_counters_free(cs);
}

static void write_flows(writer *w)
{
    const tlv_shapes *sh = w->ex->shapes;
    sqlite3_stmt *st = prepare(w, "INSERT INTO flows VALUES(?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; st && !w->failed && i < tlv_shapes_flow_count(sh); i++) {
        tlv_flow_info f;
        tlv_shapes_flow(sh, i, &f);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_text(w, st, 2, f.rule);
        bind_text(w, st, 3, f.name);
        bind_text(w, st, 4, f.display_name);
        bind_double(w, st, 5, seconds_of(w, f.time));
        bind_resource(w, st, 6, f.from_resource);
        bind_resource(w, st, 7, f.to_resource);
        bind_text(w, st, 8, f.from_processor);
        bind_text(w, st, 9, f.to_processor);
        bind_int(w, st, 10, (sqlite3_int64)f.event);
        step(w, st, "flows");
    }
    sqlite3_finalize(st);
}

/* The instances of the actors (tlv/instances.h): one row each, with its
 * response time as dur, its execution time (NULL when the resource has no
 * running state), and the events that began and ended it. */
static void write_instances(writer *w)
{
    tlv_instances *in = NULL;
    if (tlv_instances_compute(w->ex->trace, NULL, &in) != TLV_OK) { /* only for memory */
        fail_nomem(w);
        return;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO instance VALUES(?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; st && !w->failed && i < tlv_instances_count(in); i++) {
        tlv_instance x;
        tlv_instances_get(in, i, &x);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_resource(w, st, 2, x.resource);
        bind_text(w, st, 3, x.kind);
        bind_text(w, st, 4, x.name);
        bind_double(w, st, 5, seconds_of(w, x.start));
        bind_double(w, st, 6, seconds_of(w, x.end));
        bind_double(w, st, 7, x.response);
        if (x.execution >= 0)
            bind_double(w, st, 8, x.execution);
        bind_int(w, st, 9, (sqlite3_int64)x.preemptions);
        bind_int(w, st, 10, (sqlite3_int64)x.interruptions);
        bind_int(w, st, 11, (sqlite3_int64)x.start_line);
        bind_int(w, st, 12, (sqlite3_int64)x.end_line);
        bind_int(w, st, 13, (sqlite3_int64)x.start_event);
        bind_int(w, st, 14, (sqlite3_int64)x.end_event);
        step(w, st, "instance");
    }
    sqlite3_finalize(st);
    tlv_instances_free(in);
}

/* The markers of a viewer session the caller read (tlv_export_options). */
static void write_markers(writer *w)
{
    const tlv_export_options *o = &w->ex->opts;
    sqlite3_stmt *st = o->nmarkers ? prepare(w, "INSERT INTO markers VALUES(?,?,?,?)") : NULL;
    for (size_t i = 0; st && !w->failed && i < o->nmarkers; i++) {
        const tlv_export_marker *m = &o->markers[i];
        char color[8];
        snprintf(color, sizeof color, "%06x", (unsigned)m->color & 0xFFFFFF);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_double(w, st, 2, m->time);
        bind_text(w, st, 3, m->name);
        bind_text(w, st, 4, color);
        step(w, st, "markers");
    }
    sqlite3_finalize(st);
}

static void write_meta(writer *w)
{
    const tlv_exporter *ex = w->ex;
    char generator[64], radix[16], start[32], end[32];
    snprintf(generator, sizeof generator, "tlv %s", tlv_version());
    snprintf(radix, sizeof radix, "%d", w->radix);
    snprintf(start, sizeof start, "%.17g", seconds_of(w, tlv_trace_start(ex->trace)));
    snprintf(end, sizeof end, "%.17g", seconds_of(w, tlv_trace_end(ex->trace)));
    const char *kv[][2] = {{"schema_version", "1"},
                           {"generator", generator},
                           {"source", ex->opts.source ? ex->opts.source : ""},
                           {"time_scale", tlv_rules_time_scale(ex->rules)},
                           {"time_radix", radix},
                           {"start", start},
                           {"end", end}};
    sqlite3_stmt *st = prepare(w, "INSERT INTO meta VALUES(?,?)");
    for (size_t i = 0; st && i < sizeof kv / sizeof kv[0]; i++) {
        bind_text(w, st, 1, kv[i][0]);
        bind_text(w, st, 2, kv[i][1]);
        step(w, st, "meta");
    }
    sqlite3_finalize(st);
}

/* ---- the Perfetto-shaped tables ---------------------------------------------------- */

/* Nanoseconds per trace unit: the TimeScale's, else as many as the chrome
 * format's microseconds per unit make. */
static long double ns_per_unit(const tlv_exporter *ex)
{
    double us = tlv_export_us_per_unit(tlv_rules_time_scale(ex->rules));
    if (us <= 0)
        us = ex->opts.us_per_unit > 0 ? ex->opts.us_per_unit : 1;
    return (long double)us * 1000;
}

/* (ticks + frac / radix^F) exactly enough: F as in tlv.h's tlv_time. */
static long double units_of(tlv_time t, int radix)
{
    uint64_t scale = 1;
    while (scale <= (uint64_t)INT64_MAX / (uint64_t)radix)
        scale *= (uint64_t)radix;
    return (long double)t.ticks + (long double)t.frac / (long double)scale;
}

/* b - a, clamped to 64 bits (two clamped times), counting each clamp. */
static sqlite3_int64 ns_diff(writer *w, sqlite3_int64 a, sqlite3_int64 b)
{
    if (a < 0 && b > INT64_MAX + a) {
        w->clamped++;
        return INT64_MAX;
    }
    if (a > 0 && b < INT64_MIN + a) {
        w->clamped++;
        return INT64_MIN;
    }
    return b - a;
}

/* t in integer nanoseconds from the origin (clamped to 64 bits, counting
 * each clamp). */
static sqlite3_int64 ns_of(writer *w, tlv_time t)
{
    int after = tlv_time_cmp(t, w->origin) >= 0;
    long double units =
        tlv_time_span_fits(after ? w->origin : t, after ? t : w->origin, w->radix, NULL)
            ? units_of(tlv_time_sub(t, w->origin, w->radix), w->radix)
            : tlv_time_span(w->origin, t, w->radix); /* past 2^63 ticks: tlv_time_sub wraps
                                                        (a trace from -2^63 to 2^63 - 1 had
                                                        sched and slice durations < 0) */
    long double v = roundl(units * w->ns);
    if (v >= 9.2e18L || v <= -9.2e18L)
        w->clamped++;
    return v >= 9.2e18L ? INT64_MAX : v <= -9.2e18L ? INT64_MIN : (sqlite3_int64)v;
}

static void write_metadata(writer *w)
{
    const tlv_exporter *ex = w->ex;
    char origin[160], ns[64];
    time_text(w->origin, w->radix, origin, sizeof origin);
    snprintf(ns, sizeof ns, "%.17Lg", w->ns);
    long double abs_ns = roundl(units_of(w->origin, w->radix) * w->ns);
    sqlite3_stmt *st = prepare(w, "INSERT INTO metadata VALUES(?,?,?,?)");
    const char *kv[][2] = {{"trace_time_origin", origin},
                           {"time_mode", tlv_time_mode_name(tlv_trace_time_mode(ex->trace))},
                           {"time_scale", tlv_rules_time_scale(ex->rules)},
                           {"ns_per_unit", ns},
                           {"trace_source", ex->opts.source ? ex->opts.source : ""}};
    for (size_t i = 0; st && i < sizeof kv / sizeof kv[0]; i++) {
        bind_text(w, st, 1, kv[i][0]);
        bind_text(w, st, 2, i == 0 && fabsl(abs_ns) < 9.2e18L ? "int" : "str");
        if (i == 0 && fabsl(abs_ns) < 9.2e18L) /* the origin in ns of the trace's own clock */
            bind_int(w, st, 3, (sqlite3_int64)abs_ns);
        bind_text(w, st, 4, kv[i][1]);
        step(w, st, "metadata");
    }
    sqlite3_finalize(st);
    st = prepare(w, "INSERT INTO trace_bounds VALUES(0,?)");
    if (st)
        bind_int(w, st, 1, ns_of(w, tlv_trace_end(ex->trace)));
    if (st)
        step(w, st, "trace_bounds");
    sqlite3_finalize(st);
}

/* Processes, threads (one per row with intervals: utid = the row's id) and
 * their tracks (one per lane: id = the lane's track). */
static void write_threads(writer *w, const export_layout *c)
{
    const tlv_shapes *s = w->ex->shapes;
    sqlite3_stmt *p = prepare(w, "INSERT INTO process VALUES(?,?,?)");
    for (size_t g = 0; p && !w->failed && g < c->ngroups; g++) {
        bind_int(w, p, 1, (sqlite3_int64)g + 1);
        bind_int(w, p, 2, c->process_id[g]);
        bind_text(w, p, 3, c->process_name[g]);
        step(w, p, "process");
    }
    sqlite3_finalize(p);
    sqlite3_stmt *t = prepare(w, "INSERT INTO thread VALUES(?,?,?,?)");
    sqlite3_stmt *k = prepare(w, "INSERT INTO track VALUES(?,?,'thread_track')");
    sqlite3_stmt *tt = prepare(w, "INSERT INTO thread_track VALUES(?,?,?)");
    for (size_t r = 0; t && k && tt && !w->failed && r < tlv_shapes_row_count(s); r++) {
        if (!c->used[r])
            continue;
        tlv_row_info row;
        tlv_shapes_row(s, r, &row);
        bind_int(w, t, 1, (sqlite3_int64)r);
        bind_int(w, t, 2, layout_tid(c, r, 0));
        bind_text(w, t, 3, row.label);
        bind_int(w, t, 4, (sqlite3_int64)c->pid[r]);
        step(w, t, "thread");
        for (size_t l = 0; l < c->nlanes[r] && !w->failed; l++) {
            char name[512];
            snprintf(name, sizeof name, l ? "%s (%zu)" : "%s", row.label, l + 1);
            bind_int(w, k, 1, (sqlite3_int64)(c->first_tid[r] + l));
            bind_text(w, k, 2, name);
            step(w, k, "track");
            bind_int(w, tt, 1, (sqlite3_int64)(c->first_tid[r] + l));
            bind_text(w, tt, 2, name);
            bind_int(w, tt, 3, (sqlite3_int64)r);
            step(w, tt, "thread_track");
        }
    }
    sqlite3_finalize(t);
    sqlite3_finalize(k);
    sqlite3_finalize(tt);
}

/* Depths and parents: per lane a stack of the slices open, the row's
 * slices taken by start, longest first (as layout.c sorted them). An
 * instant sits in its row's first lane, under the deepest slice there that
 * encloses it. */
typedef struct nesting {
    size_t *depth;
    long *parent; /* an interval's index, or -1 */
} nesting;

static int compute_nesting(const interval_list *l, const export_layout *c, size_t nrows, nesting *nest)
{
    nest->depth = calloc(l->n + 1, sizeof *nest->depth);
    nest->parent = malloc((l->n + 1) * sizeof *nest->parent);
    const interval **stack = malloc((l->n + 1) * sizeof *stack);
    int rc = nest->depth && nest->parent && stack ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < l->n; i++)
        nest->parent[i] = -1;
    for (size_t r = 0; rc == 0 && r < nrows; r++) {
        if (!c->used[r])
            continue;
        interval *const *iv = c->by_row + c->row_start[r];
        for (size_t lane = 0; lane < c->nlanes[r]; lane++) {
            size_t n = 0;
            for (size_t i = 0; i < c->row_slices[r]; i++) {
                if (iv[i]->lane != lane)
                    continue;
                while (n && tlv_time_cmp(stack[n - 1]->sh.to, iv[i]->sh.from) <= 0)
                    n--;
                size_t at = (size_t)(iv[i] - l->v);
                nest->depth[at] = n;
                nest->parent[at] = n ? (long)(stack[n - 1] - l->v) : -1;
                stack[n++] = iv[i];
            }
        }
    }
    free(stack);
    return rc;
}

/* An instant's depth and parent: under the deepest slice of its row's first
 * lane that encloses it. */
static void instant_nesting(const interval_list *l, const export_layout *c, size_t i, nesting *nest)
{
    const interval *iv = &l->v[i];
    interval *const *s = c->by_row + c->row_start[iv->sh.row];
    size_t lo = 0, hi = c->row_slices[iv->sh.row];
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (tlv_time_cmp(s[mid]->sh.from, iv->sh.from) <= 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo, steps = 0; k-- > 0 && steps < 4096; steps++)
        if (s[k]->lane == 0 && tlv_time_cmp(s[k]->sh.to, iv->sh.from) >= 0) {
            size_t at = (size_t)(s[k] - l->v);
            nest->depth[i] = nest->depth[at] + 1;
            nest->parent[i] = (long)at;
            return;
        }
}

static void write_slices(writer *w, const export_layout *c)
{
    const interval_list *l = &w->ex->intervals;
    nesting nest = {0};
    if (compute_nesting(l, c, tlv_shapes_row_count(w->ex->shapes), &nest) < 0) {
        free(nest.depth);
        free(nest.parent);
        fail_nomem(w);
        return;
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO slice VALUES(?,?,?,?,?,?,?,?,?)");
    for (size_t i = 0; st && !w->failed && i < l->n; i++) {
        const interval *iv = &l->v[i];
        const tlv_shape_info *sh = &iv->sh;
        int instant = is_instant(iv);
        if (instant)
            instant_nesting(l, c, i, &nest);
        const char *name = iv->text ? iv->text : sh->value && !sh->is_when ? sh->value : sh->event;
        sqlite3_int64 ts = ns_of(w, sh->from);
        bind_int(w, st, 1, (sqlite3_int64)i);
        bind_int(w, st, 2, ts);
        bind_int(w, st, 3, instant ? 0 : ns_diff(w, ts, ns_of(w, sh->to)));
        bind_int(w, st, 4, (sqlite3_int64)(c->first_tid[sh->row] + (instant ? 0 : iv->lane)));
        bind_text(w, st, 5, sh->rule);
        bind_text(w, st, 6, name);
        bind_int(w, st, 7, (sqlite3_int64)nest.depth[i]);
        if (nest.parent[i] >= 0)
            bind_int(w, st, 8, nest.parent[i]);
        bind_int(w, st, 9, (sqlite3_int64)i);
        step(w, st, "slice");
    }
    sqlite3_finalize(st);
    free(nest.depth);
    free(nest.parent);
}

/* A counter track per counter (ids after the thread tracks), in the process
 * of the resource's first row with intervals. */
static void write_counter_tracks(writer *w, const export_layout *c, size_t ntracks)
{
    tlv_counters *cs = NULL;
    if (tlv_counters_compute(w->ex->trace, &cs) != TLV_OK) {
        fail_nomem(w);
        return;
    }
    const tlv_shapes *s = w->ex->shapes;
    sqlite3_stmt *k = prepare(w, "INSERT INTO track VALUES(?,?,'process_counter_track')");
    sqlite3_stmt *ct = prepare(w, "INSERT INTO counter_track VALUES(?,?,?,?)");
    sqlite3_stmt *v = prepare(w, "INSERT INTO counter(ts, track_id, value) VALUES(?,?,?)");
    for (size_t i = 0; k && ct && v && !w->failed && i < tlv_counters_count(cs); i++) {
        tlv_counter_info ci;
        tlv_counters_get(cs, i, &ci);
        char name[512];
        snprintf(name, sizeof name, "%s %s", ci.resource, ci.display_name);
        size_t upid = 0;
        for (size_t r = 0; !upid && r < tlv_shapes_row_count(s); r++) {
            tlv_row_info row;
            tlv_shapes_row(s, r, &row);
            if (c->used[r] && same_name(row.resource, ci.resource))
                upid = c->pid[r];
        }
        sqlite3_int64 id = (sqlite3_int64)(ntracks + i);
        bind_int(w, k, 1, id);
        bind_text(w, k, 2, name);
        step(w, k, "track");
        bind_int(w, ct, 1, id);
        bind_text(w, ct, 2, name);
        if (upid)
            bind_int(w, ct, 3, (sqlite3_int64)upid);
        bind_int(w, ct, 4, (sqlite3_int64)i);
        step(w, ct, "counter_track");
        size_t n = 0;
        const tlv_counter_sample *sm = tlv_counters_samples(cs, i, &n);
        for (size_t j = 0; j < n && !w->failed; j++) {
            bind_int(w, v, 1, ns_of(w, sm[j].time));
            bind_int(w, v, 2, id);
            bind_double(w, v, 3, sm[j].value);
            step(w, v, "counter");
        }
    }
    sqlite3_finalize(k);
    sqlite3_finalize(ct);
    sqlite3_finalize(v);
    tlv_counters_free(cs);
}

/* The per-CPU running slices: a resource runs while its `state` is
 * RUNNING (as tlv stats counts it), on the processor its `prcId` names
 * (0 when it has none); a migration splits the slice. */
typedef struct runner {
    int running;
    tlv_time since;
    sqlite3_int64 cpu; /* -1: not a number */
} runner;

/* The processor of resource at *at, or before the first event when at is
 * NULL. */
static sqlite3_int64 cpu_of(const tlv_trace *t, const char *resource, const tlv_time *at)
{
    const char *v = NULL;
    if ((at ? tlv_trace_attr_at(t, resource, "prcId", at, &v)
            : tlv_trace_attr_initial(t, resource, "prcId", &v)) != TLV_OK)
        return 0; /* no processor attribute: one processor */
    char *end;
    long long cpu = v && *v ? strtoll(v, &end, 10) : -1;
    return v && *v && !*end ? cpu : -1;
}

static void sched_slice(writer *w, sqlite3_stmt *st, const runner *run, tlv_time end, long utid,
                        const char *end_state)
{
    if (w->failed || tlv_time_cmp(end, run->since) <= 0)
        return;
    sqlite3_int64 ts = ns_of(w, run->since);
    bind_int(w, st, 1, ts);
    bind_int(w, st, 2, ns_diff(w, ts, ns_of(w, end)));
    if (run->cpu >= 0)
        bind_int(w, st, 3, run->cpu);
    if (utid >= 0)
        bind_int(w, st, 4, utid);
    bind_text(w, st, 5, end_state);
    step(w, st, "sched");
}

static void write_sched(writer *w, const export_layout *c)
{
    const tlv_trace *t = w->ex->trace;
    const tlv_shapes *s = w->ex->shapes;
    runner *run = calloc(w->nres + 1, sizeof *run);
    long *utid = malloc((w->nres + 1) * sizeof *utid);
    if (!run || !utid) {
        free(run);
        free(utid);
        fail_nomem(w);
        return;
    }
    for (size_t i = 0; i < w->nres; i++)
        utid[i] = -1;
    for (size_t r = tlv_shapes_row_count(s); r-- > 0;) { /* each resource's first row */
        tlv_row_info row;
        tlv_shapes_row(s, r, &row);
        long id = c->used[r] ? resource_id(w, row.resource) : -1;
        if (id >= 0)
            utid[id] = (long)r;
    }
    tlv_time start = tlv_trace_start(t);
    for (size_t i = 0; i < w->nres; i++) { /* not at start - 1, which wraps at -2^63 */
        const char *v = NULL, *name = tlv_trace_resource_name(t, i);
        if (tlv_trace_attr_initial(t, name, "state", &v) == TLV_OK && v && strcmp(v, "RUNNING") == 0)
            run[i] = (runner){1, start, cpu_of(t, name, NULL)};
    }
    sqlite3_stmt *st = prepare(w, "INSERT INTO sched(ts, dur, cpu, utid, end_state) VALUES(?,?,?,?,?)");
    size_t n = tlv_trace_event_count(t);
    for (size_t i = 0; st && !w->failed && i < n; i++) {
        tlv_event e;
        tlv_trace_event(t, i, &e);
        long id = e.kind == TLV_EVENT_ATTRIBUTE ? resource_id(w, e.resource) : -1;
        if (id < 0)
            continue;
        runner *r = &run[id];
        if (strcmp(e.name, "state") == 0) {
            int now = e.value && strcmp(e.value, "RUNNING") == 0;
            if (r->running && !now)
                sched_slice(w, st, r, e.time, utid[id], e.value);
            if (!r->running && now)
                *r = (runner){1, e.time, cpu_of(t, e.resource, &e.time)};
            r->running = now;
        } else if (strcmp(e.name, "prcId") == 0 && r->running) {
            sqlite3_int64 cpu = cpu_of(t, e.resource, &e.time);
            if (cpu != r->cpu) {
                sched_slice(w, st, r, e.time, utid[id], "RUNNING");
                *r = (runner){1, e.time, cpu};
            }
        }
    }
    for (size_t i = 0; st && i < w->nres; i++)
        if (run[i].running)
            sched_slice(w, st, &run[i], tlv_trace_end(t), utid[i], NULL);
    sqlite3_finalize(st);
    free(run);
    free(utid);
}

static void write_perfetto(writer *w)
{
    const export_layout *c = export_layout_of(w->ex);
    if (!c) {
        fail_nomem(w);
        return;
    }
    size_t ntracks = 0;
    for (size_t r = 0; r < tlv_shapes_row_count(w->ex->shapes); r++)
        ntracks += c->used[r] ? c->nlanes[r] : 0;
    w->origin = tlv_trace_time_origin(w->ex->trace);
    w->ns = ns_per_unit(w->ex);
    write_metadata(w);
    if (!w->failed)
        write_threads(w, c);
    if (!w->failed)
        write_slices(w, c);
    if (!w->failed)
        write_counter_tracks(w, c, ntracks);
    if (!w->failed)
        write_sched(w, c);
}

tlv_status tlv_export_sqlite_db(tlv_exporter *ex, sqlite3 *db)
{
    if (!ex)
        return TLV_ERR_USAGE;
    if (!db)
        return export_fail(ex, TLV_ERR_USAGE, "tlv_export_sqlite_db: no database");
    writer w = {.db = db, .ex = ex, .radix = ex->radix, .status = TLV_OK, .ns = 1};
    ex->warning[0] = '\0';
    /* One transaction, no journal: the file is new, and a failed run is removed. */
    exec(&w, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; BEGIN", "starting");
    exec(&w, schema, "creating the tables");
    exec(&w, perfetto_schema, "creating the tables");
    if (!w.failed && index_resources(&w) < 0)
        fail_nomem(&w);
    void (*const parts[])(writer *) = {write_meta, write_resources, write_events, write_rows,
                                       write_intervals, write_counters, write_flows,
                                       write_instances, write_markers, write_perfetto};
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !w.failed; i++)
        parts[i](&w);
    if (!w.failed)
        exec(&w, indexes, "creating the indexes");
    if (!w.failed)
        exec(&w, "COMMIT", "committing");
    else
        sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
    free(w.byname);
    if (!w.failed && w.clamped)
        snprintf(ex->warning, sizeof ex->warning,
                 "%llu times or durations in slice, sched, counter and trace_bounds lie "
                 "more than 2^63 ns (292 years) from the first event: clamped to "
                 "+-(2^63 - 1) ns (the intervals and events tables hold them exactly)",
                 (unsigned long long)w.clamped);
    return w.failed ? w.status : TLV_OK;
}

/* A new database at `path`. */
static tlv_status write_sqlite_file(tlv_exporter *ex, const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0)
        return export_fail(ex, TLV_ERR_USAGE,
                           "'%s' exists: the database is written to a new file", path);
    sqlite3 *db = NULL;
    int rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    tlv_status status;
    if (rc != SQLITE_OK && (!db || sqlite3_errcode(db) == SQLITE_NOMEM))
        status = export_fail(ex, TLV_ERR_NOMEM, "out of memory while writing the database");
    else if (rc != SQLITE_OK)
        status = export_fail(ex, TLV_ERR_IO, "cannot create '%s': %s", path, sqlite3_errmsg(db));
    else
        status = tlv_export_sqlite_db(ex, db);
    if (sqlite3_close(db) != SQLITE_OK && status == TLV_OK)
        status = export_fail(ex, TLV_ERR_IO, "SQLite: closing '%s': %s", path, sqlite3_errmsg(db));
    return status;
}

const export_writer export_sqlite = {NULL, write_sqlite_file};
