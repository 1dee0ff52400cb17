/*
 * sql_alloc.c — SQLite's allocator for the tlv command: it counts failures.
 * SQLite may run out of memory in a call whose error is then not looked at
 * (a value of a result row), so `tlv query` compares the count before and
 * after running the SQL. main() installs it before any other SQLite call;
 * libtlv-export checks its own calls' statuses and needs none of this.
 */
#include "cli/cli.h"

#include <sqlite3.h>
#include <stdlib.h>

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
