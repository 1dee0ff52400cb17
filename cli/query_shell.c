/*
 * query_shell.c — `tlv query` on a terminal without SQL: an interactive
 * shell, as sqlite3 has (libedit's line editing and history, kept in
 * ~/.tlv_query_history; a statement runs once it is complete, over several
 * lines if need be; .tables, .schema, .mode, .help, .quit). Without a
 * terminal, the SQL is read from standard input and run as a script.
 */
#include "cli/cli.h"

#include <editline/readline.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char shell_help[] =
    ".tables              the tables and views\n"
    ".schema [NAME]       the CREATE statements (of NAME)\n"
    ".mode table|csv|json how results are printed\n"
    ".help                this text\n"
    ".quit                leave (Ctrl+D too)\n"
    "SQL statements end with ';' and may span lines; Ctrl+C stops a running one.\n";

/* The history file: ~/.tlv_query_history, or NULL without a home. */
static char *history_path(void)
{
    const char *home = getenv("HOME");
    if (!home || !*home)
        return NULL;
    size_t n = strlen(home) + 32;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/.tlv_query_history", home);
    return p;
}

/* A CREATE statement as sqlite3 shows it, on its own lines; control
 * characters but line ends and tabs escaped (a schema is the database's
 * text, which may be hostile). */
static int print_schema(void *unused, int n, char **values, char **names)
{
    (void)unused;
    (void)names;
    for (const char *p = n > 0 && values[0] ? values[0] : ""; *p; p++) {
        unsigned char ch = (unsigned char)*p;
        if (ch < 32 && ch != '\n' && ch != '\t')
            printf("\\x%02x", ch);
        else
            putchar(ch);
    }
    putchar('\n');
    return 0;
}

/* A dot command; returns 1 to leave the shell. */
static int dot_command(const char *line, query_shell_ctx *ctx)
{
    char word[32] = "", arg[256] = "";
    sscanf(line, " %31s %255s", word, arg);
    if (strcmp(word, ".quit") == 0 || strcmp(word, ".exit") == 0)
        return 1;
    if (strcmp(word, ".help") == 0) {
        fputs(shell_help, stdout);
    } else if (strcmp(word, ".tables") == 0) {
        ctx->run(ctx, "SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') "
                      "AND name NOT LIKE 'sqlite_%' ORDER BY name");
    } else if (strcmp(word, ".schema") == 0) {
        char *sql = sqlite3_mprintf("SELECT sql || ';' FROM sqlite_schema WHERE sql IS NOT NULL"
                                    " AND (%Q = '' OR name = %Q) ORDER BY type DESC, name",
                                    arg, arg);
        if (sql && sqlite3_exec(ctx->db, sql, print_schema, NULL, NULL) != SQLITE_OK)
            fprintf(stderr, "%s query: %s\n", prog, sqlite3_errmsg(ctx->db));
        sqlite3_free(sql);
    } else if (strcmp(word, ".mode") == 0) {
        if (ctx->set_mode(ctx, arg) < 0)
            fprintf(stderr, "%s query: .mode table, csv or json, not '%s'\n", prog, arg);
    } else {
        fprintf(stderr, "%s query: unknown command '%s' (.help lists them)\n", prog, word);
    }
    return 0;
}

/* Appends line to the statement being typed. */
static char *append(char *sql, const char *line)
{
    size_t have = sql ? strlen(sql) : 0, n = strlen(line);
    char *s = realloc(sql, have + n + 2);
    if (!s)
        return free(sql), NULL;
    memcpy(s + have, line, n);
    s[have + n] = '\n';
    s[have + n + 1] = '\0';
    return s;
}

static int interactive(query_shell_ctx *ctx)
{
    char *hist = history_path();
    using_history();
    if (hist)
        read_history(hist);
    printf("tlv %s: SQL over '%s'. End statements with ';'; .help for help, .quit to leave.\n",
           tlv_version(), ctx->input);
    char *sql = NULL, *line;
    int status = 0;
    while ((line = readline(sql ? "   ...> " : "tlv> ")) != NULL) {
        if (!sql && line[strspn(line, " \t")] == '.') {
            add_history(line);
            int quit = dot_command(line, ctx);
            free(line);
            if (quit)
                break;
            continue;
        }
        sql = append(sql, line);
        free(line);
        if (!sql) {
            status = report_nomem("reading the query", NULL);
            break;
        }
        if (sqlite3_complete(sql)) {
            /* the whole statement, on one line, for the up arrow */
            for (char *p = sql; *p; p++)
                *p = *p == '\n' && p[1] ? ' ' : *p;
            sql[strcspn(sql, "\n")] = '\0';
            add_history(sql);
            status = ctx->run(ctx, sql) < 0 ? EXIT_USAGE : status;
            free(sql);
            sql = NULL;
        }
    }
    free(sql);
    if (!line)
        putchar('\n'); /* after the prompt Ctrl+D left */
    if (hist)
        write_history(hist);
    free(hist);
    return status == EXIT_USAGE ? EXIT_USAGE : EXIT_OK;
}

/* The whole of a stream, or NULL (said) when it cannot be read. */
char *query_read_all(FILE *f, const char *name)
{
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    size_t k;
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t)
                free(s);
            s = t;
        }
    }
    if (!s)
        return report_nomem("reading the query", name), NULL;
    if (ferror(f)) {
        fprintf(stderr, "%s query: cannot read '%s'\n", prog, name);
        free(s);
        return NULL;
    }
    s[n] = '\0';
    return s;
}

int query_shell(query_shell_ctx *ctx)
{
    if (isatty(STDIN_FILENO))
        return interactive(ctx);
    char *sql = query_read_all(stdin, "standard input");
    if (!sql)
        return EXIT_USAGE;
    int rc = ctx->run(ctx, sql) < 0 ? EXIT_USAGE : EXIT_OK;
    free(sql);
    return rc;
}
