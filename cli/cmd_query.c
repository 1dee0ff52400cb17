/*
 * cmd_query.c — `tlv query`: SQL over a trace. The trace is a database that
 * `tlv export --format sqlite` wrote, or a log converted on the spot into an
 * in-memory database of the same schema (docs/sql.md). Each statement's
 * result is printed as an aligned table, CSV or JSON.
 */
#include "cli/cli.h"

#include <sqlite3.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

const char query_help[] =
    "usage: tlv query [--format table|csv|json] [-R DIR]... -r FILE.res [--per-cpu]\n"
    "                 [--session FILE] [--allow-scripts] LOG|- SQL\n"
    "       tlv query [--format table|csv|json] TRACE.db SQL\n"
    "\n"
    "Runs SQL (one or more statements separated by ';') over a trace and prints\n"
    "what each statement returns. The trace is a database written by\n"
    "'tlv export --format sqlite', or LOG converted with -r FILE.res (and its\n"
    "visualization rules applied) into a database of the same schema in memory.\n"
    "Tables: meta, resources, events, rows, intervals, counters, counter_samples,\n"
    "flows, markers; see docs/sql.md for the columns and example queries.\n"
    "\n"
    "  -f, --format table        aligned columns under a header (the default); NULL\n"
    "                            is shown as NULL\n"
    "  -f, --format csv          RFC 4180 with a header line; NULL is empty\n"
    "  -f, --format json         an array of objects per statement, one per row\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    "      --per-cpu             add a row per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --session FILE        fill the markers table from a 'tlv view' session\n"
    "\n"
    "Exit status: 0 ok; 1 answered, but some lines or rules had errors; 2 bad usage,\n"
    "unreadable input, rule files with errors, or an SQL error.\n";

typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON } out_format;

typedef struct query_args {
    common_args c;
    out_format format;
    const char *session;
    const char *sql;
} query_args;

/* ---- arguments ----------------------------------------------------------------------- */

static int query_option(void *own, int argc, char **argv, int *i)
{
    query_args *a = own;
    const char *s = argv[*i], *v = NULL;
    if ((strcmp(s, "-f") == 0 || strcmp(s, "--format") == 0) && *i + 1 < argc)
        v = argv[++*i];
    else if (strncmp(s, "--format=", 9) == 0)
        v = s + 9;
    else if (strcmp(s, "--session") == 0 && *i + 1 < argc)
        a->session = argv[++*i];
    else
        return 0;
    if (!v)
        return 1;
    if (strcmp(v, "table") == 0)
        a->format = FMT_TABLE;
    else if (strcmp(v, "csv") == 0)
        a->format = FMT_CSV;
    else if (strcmp(v, "json") == 0)
        a->format = FMT_JSON;
    else {
        usage_error("query", "unknown format '%s' (table, csv or json)", v);
        return -1;
    }
    return 1;
}

/* The SQL is the last argument: taken off before the shared parser sees
 * one input. */
static int parse_query_args(query_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    if (argc < 3 || strcmp(argv[argc - 1], "-h") == 0 || strcmp(argv[argc - 1], "--help") == 0) {
        for (int i = 1; i < argc; i++)
            if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
                fputs(query_help, stdout);
                exit(EXIT_OK);
            }
        usage_error("query", "give a trace (a .db file, or -r FILE.res LOG) and an SQL statement");
        return -1;
    }
    a->sql = argv[argc - 1];
    if (parse_common_args("query", query_help, OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS, &a->c,
                          query_option, a, argc - 1, argv) < 0)
        return -1;
    return need_input("query", &a->c);
}

/* ---- printing results ------------------------------------------------------------------ */

typedef struct result {
    int ncols;
    char **cells; /* row-major, ncols per row; NULL for SQL NULL */
    size_t nrows, cap;
} result;

static void result_free(result *r)
{
    for (size_t i = 0; i < r->nrows * (size_t)r->ncols; i++)
        free(r->cells[i]);
    free(r->cells);
}

static int result_add_row(result *r, sqlite3_stmt *st)
{
    size_t need = (r->nrows + 1) * (size_t)r->ncols;
    if (need > r->cap) {
        size_t cap = need * 2;
        char **c = realloc(r->cells, cap * sizeof *c);
        if (!c)
            return -1;
        r->cells = c;
        r->cap = cap;
    }
    int failed = 0;
    for (int i = 0; i < r->ncols; i++) {
        const unsigned char *t = sqlite3_column_text(st, i);
        /* On a terminal a control character (a log's ESC) is shown, not obeyed. */
        char *copy = !t ? NULL
                     : is_terminal(stdout) ? term_escape((const char *)t)
                                           : strdup((const char *)t);
        failed |= t ? !copy : sqlite3_column_type(st, i) != SQLITE_NULL; /* NULL text: no memory */
        r->cells[r->nrows * (size_t)r->ncols + (size_t)i] = copy;
    }
    r->nrows++; /* freed with the others */
    return failed ? -1 : 0;
}

/* Display width: UTF-8 characters, not bytes. */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++)
        w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void print_table(sqlite3_stmt *st, const result *r)
{
    size_t *w = calloc((size_t)r->ncols, sizeof *w);
    if (!w)
        return;
    for (int c = 0; c < r->ncols; c++) {
        w[c] = text_width(sqlite3_column_name(st, c));
        for (size_t i = 0; i < r->nrows; i++) {
            const char *v = r->cells[i * (size_t)r->ncols + (size_t)c];
            size_t n = text_width(v ? v : "NULL");
            w[c] = n > w[c] ? n : w[c];
        }
    }
    for (int c = 0; c < r->ncols; c++) {
        const char *name = sqlite3_column_name(st, c);
        printf("%s%s%*s", c ? "  " : "", name,
               c + 1 < r->ncols ? (int)(w[c] - text_width(name)) : 0, "");
    }
    putchar('\n');
    for (int c = 0; c < r->ncols; c++) {
        printf("%s", c ? "  " : "");
        for (size_t k = 0; k < w[c]; k++)
            putchar('-');
    }
    putchar('\n');
    for (size_t i = 0; i < r->nrows; i++) {
        for (int c = 0; c < r->ncols; c++) {
            const char *v = r->cells[i * (size_t)r->ncols + (size_t)c];
            v = v ? v : "NULL";
            printf("%s%s%*s", c ? "  " : "", v,
                   c + 1 < r->ncols ? (int)(w[c] - text_width(v)) : 0, "");
        }
        putchar('\n');
    }
    free(w);
}

static void csv_cell(const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s; s++) {
        if (*s == '"')
            putchar('"');
        putchar(*s);
    }
    putchar('"');
}

static void print_csv(sqlite3_stmt *st, const result *r)
{
    for (int c = 0; c < r->ncols; c++) {
        if (c)
            putchar(',');
        csv_cell(sqlite3_column_name(st, c));
    }
    fputs("\r\n", stdout);
    for (size_t i = 0; i < r->nrows; i++) {
        for (int c = 0; c < r->ncols; c++) {
            if (c)
                putchar(',');
            csv_cell(r->cells[i * (size_t)r->ncols + (size_t)c]);
        }
        fputs("\r\n", stdout);
    }
}

/* JSON rows are read from the statement itself, to keep numbers numbers. */
static int run_json(sqlite3_stmt *st, cJSON *rows)
{
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        cJSON *o = cJSON_CreateObject();
        for (int c = 0; c < sqlite3_column_count(st); c++) {
            const char *name = sqlite3_column_name(st, c);
            switch (sqlite3_column_type(st, c)) {
            case SQLITE_INTEGER:
                cJSON_AddNumberToObject(o, name, (double)sqlite3_column_int64(st, c));
                break;
            case SQLITE_FLOAT:
                cJSON_AddNumberToObject(o, name, sqlite3_column_double(st, c));
                break;
            case SQLITE_NULL:
                cJSON_AddNullToObject(o, name);
                break;
            default:
                cJSON_AddStringToObject(o, name, (const char *)sqlite3_column_text(st, c));
            }
        }
        json_push(rows, o);
    }
    return rc;
}

/* An array of rows, one per line. */
static void print_json(const cJSON *rows)
{
    const cJSON *row;
    const char *sep = "";
    fputs("[", stdout);
    cJSON_ArrayForEach(row, rows) {
        char *text = cJSON_PrintUnformatted(row);
        printf("%s\n%s", sep, text ? text : "null");
        free(text);
        sep = ",";
    }
    fputs("\n]\n", stdout);
}

/* Runs every statement of a->sql, printing what each returns. */
static int run_statements(sqlite3 *db, const query_args *a);

/* Runs the statements; running out of memory anywhere (SQLite, cJSON, the
 * result table) is reported as such, not as an SQL error. */
static int run_sql(sqlite3 *db, const query_args *a)
{
    unsigned long sql_failures = sql_alloc_failures(), json_failures = json_alloc_failures();
    int rc = run_statements(db, a);
    if (sql_alloc_failures() != sql_failures || json_alloc_failures() != json_failures ||
        (rc < 0 && sqlite3_errcode(db) == SQLITE_NOMEM)) {
        report_nomem("running the query on", a->c.input);
        return -1;
    }
    return rc;
}

static int run_statements(sqlite3 *db, const query_args *a)
{
    const char *sql = a->sql;
    while (sql && *sql) {
        sqlite3_stmt *st = NULL;
        const char *rest = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &st, &rest) != SQLITE_OK) {
            if (sqlite3_errcode(db) != SQLITE_NOMEM)
                fprintf(stderr, "%s query: SQL error: %s\n", prog, sqlite3_errmsg(db));
            return -1;
        }
        sql = rest;
        if (!st) /* only blanks or a comment were left */
            continue;
        int rc;
        if (a->format == FMT_JSON) {
            cJSON *rows = cJSON_CreateArray();
            rc = run_json(st, rows);
            if (rc == SQLITE_DONE && sqlite3_column_count(st) > 0)
                print_json(rows);
            cJSON_Delete(rows);
        } else {
            result r = {sqlite3_column_count(st), NULL, 0, 0};
            while ((rc = sqlite3_step(st)) == SQLITE_ROW)
                if (result_add_row(&r, st) < 0) {
                    result_free(&r);
                    sqlite3_finalize(st);
                    return report_nomem("running the query on", a->c.input), -1;
                }
            if (rc == SQLITE_DONE && r.ncols > 0)
                (a->format == FMT_CSV ? print_csv : print_table)(st, &r);
            result_free(&r);
        }
        if (rc != SQLITE_DONE) {
            if (sqlite3_errcode(db) != SQLITE_NOMEM)
                fprintf(stderr, "%s query: SQL error: %s\n", prog, sqlite3_errmsg(db));
            sqlite3_finalize(st);
            return -1;
        }
        sqlite3_finalize(st);
    }
    return 0;
}

/* ---- the trace's database ----------------------------------------------------------------- */

static int is_sqlite_file(const char *path)
{
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f && strcmp(path, "-") && errno == ENOMEM) /* not to be taken for a log */
        return report_nomem("opening", path), -1;
    char head[16] = {0};
    int yes = f && fread(head, 1, sizeof head, f) == sizeof head &&
              memcmp(head, "SQLite format 3", 16) == 0;
    if (f)
        fclose(f);
    return yes;
}

/* Writes the trace into an in-memory database (libtlv-export's sqlite
 * format). Returns 0, or -1 with the problem said. */
static int export_into(sqlite3 *db, const query_args *a, const tlv_rules *rules,
                       const tlv_trace *trace, const tlv_shapes *shapes)
{
    tlv_export_options o = TLV_EXPORT_OPTIONS_INIT;
    o.source = a->c.input;
    tlv_export_marker *markers = NULL;
    if (session_markers(a->session, "query", &markers, &o.nmarkers) < 0)
        return -1;
    o.markers = markers;
    tlv_exporter *ex = NULL;
    tlv_status st = tlv_exporter_new(rules, trace, shapes, &o, &ex);
    if (st == TLV_OK)
        st = tlv_export_sqlite_db(ex, db);
    if (st == TLV_ERR_NOMEM)
        report_nomem("writing the database of", a->c.input);
    else if (st != TLV_OK)
        fprintf(stderr, "%s query: %s\n", prog, tlv_exporter_last_error(ex));
    tlv_exporter_free(ex);
    session_markers_free(markers, o.nmarkers);
    return st == TLV_OK ? 0 : -1;
}

/* Converts the log into an in-memory database. Returns an exit status. */
static int convert_into(sqlite3 **db, const query_args *a)
{
    if (need_resource_file("query", &a->c) < 0)
        return EXIT_USAGE;
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    int rc = load_trace_and_shapes(&a->c.rules, a->c.input, a->c.cpu_attribute, 1, &rules,
                                   &trace, &shapes); /* listed, never drawn */
    if (rc != EXIT_USAGE) {
        if (sqlite3_open(":memory:", db) != SQLITE_OK) {
            report_nomem("making the database of", a->c.input); /* nothing else can fail */
            rc = EXIT_USAGE;
        } else if (export_into(*db, a, rules, trace, shapes) < 0) {
            rc = EXIT_USAGE;
        }
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}

int cmd_query(int argc, char **argv)
{
    query_args a;
    if (parse_query_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    sqlite3 *db = NULL;
    int rc = EXIT_OK;
    int is_db = is_sqlite_file(a.c.input);
    if (is_db < 0)
        return EXIT_USAGE;
    if (is_db) {
        if (a.c.rules.res_path || a.session) {
            usage_error("query", "'%s' is a database already: -r and --session are for logs",
                        a.c.input);
            return EXIT_USAGE;
        }
        if (sqlite3_open_v2(a.c.input, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
            if (!db || sqlite3_errcode(db) == SQLITE_NOMEM)
                report_nomem("opening", a.c.input);
            else
                fprintf(stderr, "%s query: cannot open '%s': %s\n", prog, a.c.input, sqlite3_errmsg(db));
            rc = EXIT_USAGE;
        }
    } else {
        rc = convert_into(&db, &a);
    }
    if (rc != EXIT_USAGE && run_sql(db, &a) < 0)
        rc = EXIT_USAGE;
    sqlite3_close(db);
    if (fflush(stdout) != 0)
        rc = EXIT_USAGE;
    return rc;
}
