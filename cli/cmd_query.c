/*
 * cmd_query.c — `tlv query`: SQL over a trace. The trace is a database that
 * `tlv export --format sqlite` wrote, or a log converted on the spot into an
 * in-memory database of the same schema (docs/sql.md). Each statement's
 * result is printed as an aligned table, CSV or JSON, exactly. The SQL comes
 * from the command line, a file, standard input or a shell on a terminal
 * (query_shell.c), and runs on a locked-down connection (sql_guard.c).
 */
#include "cli/cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char query_help[] =
    "usage: tlv query [options] [-R DIR]... -r FILE.res [--per-cpu] [--session FILE]\n"
    "                 [--allow-scripts] LOG|- [SQL]\n"
    "       tlv query [options] TRACE.db [SQL]\n"
    "\n"
    "Runs SQL (one or more statements separated by ';') over a trace and prints\n"
    "what each statement returns. The trace is a database written by\n"
    "'tlv export --format sqlite', or LOG converted with -r FILE.res (and its\n"
    "visualization rules applied) into a database of the same schema in memory.\n"
    "Tables: meta, resources, events, rows, intervals, counters, counter_samples,\n"
    "flows, markers, and Perfetto's (times in integer ns from the first event):\n"
    "slice, thread, process, track, thread_track, counter, counter_track, sched,\n"
    "args, metadata, trace_bounds; see docs/sql.md for the columns and examples.\n"
    "Without SQL (and without --file), the SQL is read from standard input, or\n"
    "typed in a shell on a terminal (history, .tables, .schema, .help).\n"
    "\n"
    "  -f, --format table        aligned columns under a header (the default); NULL\n"
    "                            is shown as NULL\n"
    "  -f, --format csv          RFC 4180 with a header line; NULL is empty\n"
    "  -f, --format json         an array of objects per statement, one per row\n"
    "  -F, --file FILE           read the SQL from FILE ('-': standard input)\n"
    "      --timeout SECONDS     stop a statement that runs longer (exit status 2)\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "      --per-cpu             add a row per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --session FILE        fill the markers table from a 'tlv view' session\n"
    "\n"
    "The SQL reads the trace and writes nothing: ATTACH of a file that does not\n"
    "exist, VACUUM INTO, writing to any file and fts3_tokenizer() are refused.\n"
    "Ctrl+C stops a running statement. Numbers are printed exactly; blobs as\n"
    "X'hex'; on a terminal, control characters are shown escaped (\\n, \\e, \\x07).\n"
    "\n"
    "Exit status: 0 ok; 1 answered, but some lines or rules had errors; 2 bad usage,\n"
    "unreadable input, rule files with errors, an SQL error, a refused statement,\n"
    "or one stopped by --timeout or Ctrl+C.\n";

typedef enum { FMT_TABLE, FMT_CSV, FMT_JSON } out_format;

typedef struct query_args {
    common_args c;
    out_format format;
    const char *session;
    const char *sql;      /* the SQL argument, or NULL */
    const char *file;     /* --file FILE, or NULL */
    double timeout;       /* --timeout SECONDS; 0: none */
} query_args;

/* ---- arguments ----------------------------------------------------------------------- */

static int set_format(query_args *a, const char *v)
{
    if (strcmp(v, "table") == 0)
        a->format = FMT_TABLE;
    else if (strcmp(v, "csv") == 0)
        a->format = FMT_CSV;
    else if (strcmp(v, "json") == 0)
        a->format = FMT_JSON;
    else
        return -1;
    return 0;
}

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
    else if ((strcmp(s, "-F") == 0 || strcmp(s, "--file") == 0) && *i + 1 < argc)
        a->file = argv[++*i];
    else if (strncmp(s, "--file=", 7) == 0)
        a->file = s + 7;
    else if (strcmp(s, "--timeout") == 0 && *i + 1 < argc) {
        char *end;
        a->timeout = strtod(argv[++*i], &end);
        if (*end || !(a->timeout > 0)) {
            usage_error("query", "--timeout needs a positive number of seconds, not '%s'", argv[*i]);
            return -1;
        }
        return 1;
    } else
        return 0;
    if (!v)
        return 1;
    if (set_format(a, v) < 0) {
        usage_error("query", "unknown format '%s' (table, csv or json)", v);
        return -1;
    }
    return 1;
}

/* Whether the last argument is the SQL rather than the trace: it is when it
 * names no file (a trace is one, or "-"), and --file was not given. */
static int last_is_sql(int argc, char **argv)
{
    struct stat st;
    const char *last = argv[argc - 1];
    for (int i = 1; i < argc - 1; i++)
        if (strcmp(argv[i], "-F") == 0 || strcmp(argv[i], "--file") == 0 ||
            strncmp(argv[i], "--file=", 7) == 0)
            return 0;
    return argc >= 3 && stat(last, &st) != 0 &&
           (last[0] != '-' || strpbrk(last, " \t\n")); /* "-- a comment\nSELECT ..." */
}

/* The argument after the trace: the SQL statement (unless already taken
 * off as the last argument, or read from --file). */
static int query_argument(void *own, const char *arg)
{
    query_args *a = own;
    if (a->sql)
        return 0;
    a->sql = arg;
    return 1;
}

/* query's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option query_own[] = {
    {"format", 'f', "table|csv|json"},
    {"file", 'F', "FILE"},
    {"timeout", 0, "SECONDS"},
    {"session", 0, "FILE"},
    {NULL, 0, NULL},
};

const command_options query_options = {
    "query", query_help, NULL,
    OPT_RULES | OPT_UNMATCHED | OPT_CACHE | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    query_own, query_option, query_argument};

static int parse_query_args(query_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    /* SQL often begins with a comment ("-- the busiest tasks\nSELECT ..."),
     * which getopt would take for a long option: the last argument, when it
     * is no file, is taken off first. */
    int sql = argc >= 2 && last_is_sql(argc, argv);
    if (sql)
        a->sql = argv[argc - 1];
    if (parse_options(&query_options, &a->c, a, sql ? argc - 1 : argc, argv) < 0)
        return -1;
    if (!a->c.input) {
        usage_error("query", "give a trace (a .db file, or -r FILE.res LOG) and an SQL statement");
        return -1;
    }
    if (a->file && a->sql) {
        usage_error("query", "the SQL comes from --file or the command line, not both");
        return -1;
    }
    if ((!a->file || strcmp(a->file, "-") == 0) && !a->sql && strcmp(a->c.input, "-") == 0) {
        usage_error("query", "the log is read from standard input: give the SQL on the command "
                    "line or with --file");
        return -1;
    }
    return 0;
}

/* ---- printing results ------------------------------------------------------------------ */

/* A value as printed: its bytes (text may hold a NUL, printed whole), or
 * NULL for SQL NULL. Exact: integers in full, reals with as many digits as
 * read back the same double (never 1.79552837878328e+15 for an integral
 * time), blobs as X'hex'. */
typedef struct cell {
    char *p;
    size_t len;
    int type;   /* SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB, SQLITE_NULL */
} cell;

typedef struct result {
    int ncols;
    cell *cells; /* row-major, ncols per row */
    size_t nrows, cap;
} result;

static void result_free(result *r)
{
    for (size_t i = 0; i < r->nrows * (size_t)r->ncols; i++)
        free(r->cells[i].p);
    free(r->cells);
}

/* A real as SQLite writes it ("1082473.0", "66.1"), but exact: the fewest
 * digits that read back the same double, integral values in full. */
static void real_text(double d, char *buf, size_t size)
{
    if (d != d) {
        snprintf(buf, size, "NaN");
        return;
    }
    if (d > 1e308 || d < -1e308) {
        snprintf(buf, size, d > 0 ? "Inf" : "-Inf");
        return;
    }
    /* In range before the cast: past 2^63 it is undefined (UBSan aborted tlv
     * query on a dur of 2^64 - 1 ticks). */
    if (d > -1e18 && d < 1e18 && d == (double)(long long)d) {
        snprintf(buf, size, "%lld.0", (long long)d);
        return;
    }
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, d);
        if (strtod(buf, NULL) == d)
            break;
    }
}

/* Column c of the current row as a cell; -1 when memory ran out. */
static int cell_of(sqlite3_stmt *st, int c, cell *out)
{
    char num[64];
    const void *src = num;
    size_t len;
    out->type = sqlite3_column_type(st, c);
    out->p = NULL;
    switch (out->type) {
    case SQLITE_NULL:
        out->len = 0;
        return 0;
    case SQLITE_INTEGER:
        len = (size_t)snprintf(num, sizeof num, "%lld", (long long)sqlite3_column_int64(st, c));
        break;
    case SQLITE_FLOAT:
        real_text(sqlite3_column_double(st, c), num, sizeof num);
        len = strlen(num);
        break;
    case SQLITE_BLOB: {
        const unsigned char *b = sqlite3_column_blob(st, c);
        size_t n = (size_t)sqlite3_column_bytes(st, c);
        if (!b && n)
            return -1;
        out->p = malloc(2 * n + 4);
        if (!out->p)
            return -1;
        out->p[0] = 'X';
        out->p[1] = '\'';
        for (size_t i = 0; i < n; i++)
            snprintf(out->p + 2 + 2 * i, 3, "%02x", b[i]);
        out->p[2 + 2 * n] = '\'';
        out->p[3 + 2 * n] = '\0';
        out->len = 2 * n + 3;
        return 0;
    }
    default: /* text, NULs and all */
        src = sqlite3_column_text(st, c);
        len = (size_t)sqlite3_column_bytes(st, c);
        if (!src)
            return -1; /* text that could not be made: no memory */
    }
    out->p = malloc(len + 1);
    if (!out->p)
        return -1;
    memcpy(out->p, src, len);
    out->p[len] = '\0';
    out->len = len;
    return 0;
}

static int result_add_row(result *r, sqlite3_stmt *st)
{
    size_t need = (r->nrows + 1) * (size_t)r->ncols;
    if (need > r->cap) {
        size_t cap = need * 2;
        cell *c = realloc(r->cells, cap * sizeof *c);
        if (!c)
            return -1;
        r->cells = c;
        r->cap = cap;
    }
    int failed = 0;
    for (int i = 0; i < r->ncols; i++)
        failed |= cell_of(st, i, &r->cells[r->nrows * (size_t)r->ncols + (size_t)i]) < 0;
    r->nrows++; /* freed with the others */
    return failed ? -1 : 0;
}

/* On a terminal, control characters are shown escaped (\n, \t, \0, \e,
 * \xNN): a marker name or log text must not move the cursor, ring or
 * retitle the window. Elsewhere the bytes are written as they are. */
static int to_terminal;

static size_t escape_length(unsigned char ch)
{
    if (ch >= 32 && ch != 127)
        return 1;
    return strchr("\n\t\r", ch) && ch ? 2 : ch == 0 || ch == 27 ? 2 : 4;
}

static void put_escaped(const char *s, size_t len, FILE *out)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!to_terminal || escape_length(ch) == 1)
            fputc(ch, out);
        else if (ch == '\n')
            fputs("\\n", out);
        else if (ch == '\t')
            fputs("\\t", out);
        else if (ch == '\r')
            fputs("\\r", out);
        else if (ch == 0)
            fputs("\\0", out);
        else if (ch == 27)
            fputs("\\e", out);
        else
            fprintf(out, "\\x%02x", ch);
    }
}

/* Display width: UTF-8 characters (escapes on a terminal), not bytes. */
static size_t text_width(const char *s, size_t len)
{
    size_t w = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (to_terminal && escape_length(ch) > 1)
            w += escape_length(ch);
        else
            w += (ch & 0xC0) != 0x80;
    }
    return w;
}

static const cell null_cell = {"NULL", 4, SQLITE_NULL};

static const cell *table_cell(const result *r, size_t row, int c)
{
    const cell *v = &r->cells[row * (size_t)r->ncols + (size_t)c];
    return v->type == SQLITE_NULL ? &null_cell : v;
}

static void put_padded(const char *s, size_t len, size_t width, int last)
{
    put_escaped(s, len, stdout);
    size_t w = text_width(s, len);
    for (; !last && w < width; w++)
        putchar(' ');
}

static void print_table(sqlite3_stmt *st, const result *r)
{
    size_t *w = calloc((size_t)r->ncols, sizeof *w);
    if (!w)
        return;
    for (int c = 0; c < r->ncols; c++) {
        const char *name = sqlite3_column_name(st, c);
        w[c] = text_width(name, strlen(name));
        for (size_t i = 0; i < r->nrows; i++) {
            const cell *v = table_cell(r, i, c);
            size_t n = text_width(v->p, v->len);
            w[c] = n > w[c] ? n : w[c];
        }
    }
    for (int c = 0; c < r->ncols; c++) {
        const char *name = sqlite3_column_name(st, c);
        fputs(c ? "  " : "", stdout);
        put_padded(name, strlen(name), w[c], c + 1 == r->ncols);
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
            const cell *v = table_cell(r, i, c);
            fputs(c ? "  " : "", stdout);
            put_padded(v->p, v->len, w[c], c + 1 == r->ncols);
        }
        putchar('\n');
    }
    free(w);
}

static void csv_cell(const char *s, size_t len)
{
    if (!s)
        return;
    int quote = 0;
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        put_escaped(s, len, stdout);
        return;
    }
    putchar('"');
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            putchar('"');
        put_escaped(s + i, 1, stdout);
    }
    putchar('"');
}

static void print_csv(sqlite3_stmt *st, const result *r)
{
    for (int c = 0; c < r->ncols; c++) {
        if (c)
            putchar(',');
        const char *name = sqlite3_column_name(st, c);
        csv_cell(name, strlen(name));
    }
    fputs("\r\n", stdout);
    for (size_t i = 0; i < r->nrows; i++) {
        for (int c = 0; c < r->ncols; c++) {
            const cell *v = &r->cells[i * (size_t)r->ncols + (size_t)c];
            if (c)
                putchar(',');
            csv_cell(v->p, v->len);
        }
        fputs("\r\n", stdout);
    }
}

/* A JSON string, as cJSON escapes one (\" \\ \b \f \n \r \t, other
 * control characters \u00XX, a NUL too), bytes from 128 on as they are. */
static void json_string(const char *s, size_t len)
{
    putchar('"');
    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)s[i];
        const char *esc = ch == '"' ? "\\\"" : ch == '\\' ? "\\\\" : ch == '\b' ? "\\b"
                          : ch == '\f' ? "\\f" : ch == '\n' ? "\\n" : ch == '\r' ? "\\r"
                          : ch == '\t' ? "\\t" : NULL;
        if (esc)
            fputs(esc, stdout);
        else if (ch < 32)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

/* A number as JSON: integers in full; reals as cJSON writes them (an
 * integral one without ".0"), exact. */
static void json_number(const cell *v)
{
    if (v->type == SQLITE_FLOAT && v->len > 2 && strcmp(v->p + v->len - 2, ".0") == 0)
        fwrite(v->p, 1, v->len - 2, stdout);
    else if (v->type == SQLITE_FLOAT && (strcmp(v->p, "NaN") == 0 || strstr(v->p, "Inf")))
        fputs("null", stdout); /* JSON has no infinities */
    else
        fwrite(v->p, 1, v->len, stdout);
}

/* An array of rows, one object per line. */
static void print_json(sqlite3_stmt *st, const result *r)
{
    fputs("[", stdout);
    for (size_t i = 0; i < r->nrows; i++) {
        fputs(i ? ",\n{" : "\n{", stdout);
        for (int c = 0; c < r->ncols; c++) {
            const cell *v = &r->cells[i * (size_t)r->ncols + (size_t)c];
            const char *name = sqlite3_column_name(st, c);
            if (c)
                putchar(',');
            json_string(name, strlen(name));
            putchar(':');
            if (v->type == SQLITE_NULL)
                fputs("null", stdout);
            else if (v->type == SQLITE_INTEGER || v->type == SQLITE_FLOAT)
                json_number(v);
            else
                json_string(v->p, v->len);
        }
        putchar('}');
    }
    fputs("\n]\n", stdout);
}

/* Runs every statement of sql, printing what each returns. */
static int run_statements(sqlite3 *db, sql_guard *g, const query_args *a, const char *sql);

/* Runs the statements; running out of memory anywhere (SQLite, the result
 * table) is reported as such, not as an SQL error. */
static int run_sql(sqlite3 *db, sql_guard *g, const query_args *a, const char *sql)
{
    unsigned long sql_failures = sql_alloc_failures();
    int rc = run_statements(db, g, a, sql);
    if (sql_alloc_failures() != sql_failures || (rc < 0 && sqlite3_errcode(db) == SQLITE_NOMEM)) {
        report_nomem("running the query on", a->c.input);
        return -1;
    }
    return rc;
}

/* Why a statement failed: the guard's words when it refused or stopped
 * it, else SQLite's. */
static void sql_error(sqlite3 *db, const sql_guard *g)
{
    if (sqlite3_errcode(db) == SQLITE_NOMEM)
        return; /* said by run_sql */
    if (g->refused[0]) /* the authorizer refused it: SQLITE_AUTH, or "not authorized" */
        fprintf(stderr, "%s query: %s\n", prog, g->refused);
    else if (g->stopped && sqlite3_errcode(db) == SQLITE_INTERRUPT && g->deadline > 0 &&
             !sql_guard_interrupted())
        fprintf(stderr, "%s query: the statement ran longer than --timeout %g s: stopped\n", prog,
                g->timeout);
    else if (g->stopped && sqlite3_errcode(db) == SQLITE_INTERRUPT)
        fprintf(stderr, "%s query: %s\n", prog, g->stopped);
    else
        fprintf(stderr, "%s query: SQL error: %s\n", prog, sqlite3_errmsg(db));
}

/* Runs one prepared statement and prints its rows. Returns 0 or -1. */
static int run_one(sqlite3 *db, sql_guard *g, sqlite3_stmt *st, const query_args *a)
{
    result r = {sqlite3_column_count(st), NULL, 0, 0};
    int rc;
    sql_guard_begin(g);
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (result_add_row(&r, st) < 0) {
            sql_guard_end(g);
            result_free(&r);
            return report_nomem("running the query on", a->c.input), -1;
        }
    sql_guard_end(g);
    if (rc == SQLITE_DONE && r.ncols > 0)
        (a->format == FMT_CSV ? print_csv : a->format == FMT_JSON ? print_json : print_table)(st, &r);
    result_free(&r);
    if (rc != SQLITE_DONE) {
        sql_error(db, g);
        return -1;
    }
    return 0;
}

static int run_statements(sqlite3 *db, sql_guard *g, const query_args *a, const char *sql)
{
    to_terminal = isatty(STDOUT_FILENO);
    while (sql && *sql) {
        sqlite3_stmt *st = NULL;
        const char *rest = NULL;
        g->refused[0] = '\0';
        g->stopped = NULL;
        if (sqlite3_prepare_v2(db, sql, -1, &st, &rest) != SQLITE_OK) {
            sql_error(db, g);
            return -1;
        }
        sql = rest;
        if (!st) /* only blanks or a comment were left */
            continue;
        int rc = run_one(db, g, st, a);
        sqlite3_finalize(st);
        if (rc < 0)
            return -1;
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
    else if (tlv_exporter_warning(ex)[0])
        fprintf(stderr, "%s query: warning: %s: %s\n", prog, a->c.input, tlv_exporter_warning(ex));
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

/* The shell's hooks (query_shell.c). */
typedef struct shell_user {
    sqlite3 *db;
    sql_guard *g;
    query_args *a;
} shell_user;

static int shell_run(query_shell_ctx *ctx, const char *sql)
{
    shell_user *u = ctx->user;
    int rc = run_sql(u->db, u->g, u->a, sql);
    fflush(stdout);
    return rc;
}

static int shell_mode(query_shell_ctx *ctx, const char *mode)
{
    return set_format(((shell_user *)ctx->user)->a, mode);
}

/* Runs the SQL of the command line, --file or the shell. Returns an exit
 * status. */
static int answer(sqlite3 *db, query_args *a)
{
    sql_guard g;
    if (sql_guard_install(&g, db, a->timeout) < 0) {
        fprintf(stderr, "%s query: SQLite cannot be locked down: %s\n", prog, sqlite3_errmsg(db));
        return EXIT_USAGE;
    }
    if (a->sql)
        return run_sql(db, &g, a, a->sql) < 0 ? EXIT_USAGE : EXIT_OK;
    if (a->file) {
        FILE *f = strcmp(a->file, "-") == 0 ? stdin : fopen(a->file, "rb");
        if (!f) {
            fprintf(stderr, "%s query: cannot read '%s': %s\n", prog, a->file, strerror(errno));
            return EXIT_USAGE;
        }
        char *sql = query_read_all(f, a->file);
        if (f != stdin)
            fclose(f);
        int rc = !sql || run_sql(db, &g, a, sql) < 0 ? EXIT_USAGE : EXIT_OK;
        free(sql);
        return rc;
    }
    shell_user u = {db, &g, a};
    query_shell_ctx ctx = {a->c.input, db, shell_run, shell_mode, &u};
    return query_shell(&ctx);
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
    if (rc != EXIT_USAGE) {
        int answered = answer(db, &a);
        rc = answered == EXIT_USAGE ? EXIT_USAGE : rc;
    }
    sqlite3_close(db);
    if (fflush(stdout) != 0)
        rc = EXIT_USAGE;
    return rc;
}
