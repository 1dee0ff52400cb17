/*
 * sql_guard.c — the SQLite connection of `tlv query`, locked down (issue
 * 32.5): SQL typed by a user, or read from a file somebody sent, must not
 * crash tlv, read its memory or write files. SQLite's own switches turn
 * off what reaches memory (the two-argument fts3_tokenizer(), which calls
 * through a pointer given in SQL; a schema that could corrupt the
 * database); an authorizer refuses fts3_tokenizer() altogether (its one-
 * argument form hands out an address), ATTACH of a file that does not exist
 * (VACUUM INTO attaches its target the same way) or of any file to the
 * writable in-memory database of a log, and any write to a database that is
 * a file (the trace's own and what is attached to it are opened read-only); a
 * progress handler stops a statement at --timeout or at Ctrl+C (the signal
 * handler only sets a flag).
 */
#include "cli/cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1; /* async-signal-safe: the progress handler looks at it */
}

static void refuse(sql_guard *g, const char *fmt, const char *what)
{
    if (!g->refused[0])
        snprintf(g->refused, sizeof g->refused, fmt, what ? what : "");
}

/* An in-memory or temporary database, or, when the trace's database is a
 * file opened read-only (which SQLite opens attached files like), an
 * existing regular file. */
static int attach_allowed(sql_guard *g, const char *file)
{
    struct stat st;
    if (!file || !*file || strcmp(file, ":memory:") == 0)
        return 1;
    if (!sqlite3_db_readonly(g->db, "main")) {
        refuse(g, "ATTACH of '%s' is refused: with a log, only ':memory:' may be attached "
                  "(attach files to a database written by 'tlv export --format sqlite')", file);
        return 0;
    }
    if (strncmp(file, "file:", 5) == 0) {
        refuse(g, "ATTACH of '%s' is refused: tlv query opens no URI", file);
        return 0;
    }
    if (stat(file, &st) != 0 || !S_ISREG(st.st_mode)) {
        refuse(g, "ATTACH of '%s' is refused: it is not an existing file, and tlv query "
                  "creates none (VACUUM INTO is refused too)", file);
        return 0;
    }
    return 1;
}

/* Whether a write to database `name` stays in memory or in the trace's own
 * database (which is read-only when it is a file). */
static int write_allowed(sql_guard *g, const char *name)
{
    if (!name || strcmp(name, "main") == 0 || strcmp(name, "temp") == 0)
        return 1;
    const char *file = sqlite3_db_filename(g->db, name);
    if (!file || !*file)
        return 1;
    refuse(g, "writing to '%s' is refused: tlv query writes no file", file);
    return 0;
}

static int authorize(void *user, int action, const char *a, const char *b, const char *db_name,
                     const char *trigger)
{
    (void)trigger;
    sql_guard *g = user;
    switch (action) {
    case SQLITE_ATTACH:
        return attach_allowed(g, a) ? SQLITE_OK : SQLITE_DENY;
    case SQLITE_FUNCTION:
        if (b && sqlite3_stricmp(b, "fts3_tokenizer") == 0) {
            refuse(g, "%sfts3_tokenizer() is refused: it reads and hands out memory addresses",
                   "");
            return SQLITE_DENY;
        }
        return SQLITE_OK;
    case SQLITE_INSERT: case SQLITE_UPDATE: case SQLITE_DELETE: case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_VIEW:
    case SQLITE_DROP_TABLE: case SQLITE_DROP_INDEX: case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_VIEW: case SQLITE_ALTER_TABLE: case SQLITE_REINDEX: case SQLITE_ANALYZE:
    case SQLITE_CREATE_VTABLE: case SQLITE_DROP_VTABLE:
        return write_allowed(g, db_name) ? SQLITE_OK : SQLITE_DENY;
    default:
        return SQLITE_OK;
    }
}

/* Every 1000 virtual-machine steps: stop at Ctrl+C or past the deadline. */
static int check_progress(void *user)
{
    sql_guard *g = user;
    if (interrupted) {
        g->stopped = "interrupted (Ctrl+C)";
        return 1;
    }
    if (g->deadline > 0 && now_seconds() > g->deadline) {
        g->stopped = "stopped: it ran longer than --timeout";
        return 1;
    }
    return 0;
}

int sql_guard_install(sql_guard *g, sqlite3 *db, double timeout)
{
    memset(g, 0, sizeof *g);
    g->db = db;
    g->timeout = timeout;
    int off = 0, on = 1;
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, off, (int *)NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)NULL);
    if (rc == SQLITE_OK)
        rc = sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, off, (int *)NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
    if (rc == SQLITE_OK)
        rc = sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, off, (int *)NULL);
#endif
    if (rc == SQLITE_OK)
        rc = sqlite3_set_authorizer(db, authorize, g);
    sqlite3_progress_handler(db, 1000, check_progress, g);
    return rc == SQLITE_OK ? 0 : -1;
}

void sql_guard_begin(sql_guard *g)
{
    g->refused[0] = '\0';
    g->stopped = NULL;
    g->deadline = g->timeout > 0 ? now_seconds() + g->timeout : 0;
    interrupted = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    g->have_old = sigaction(SIGINT, NULL, &g->old) == 0 && g->old.sa_handler != SIG_IGN &&
                  sigaction(SIGINT, &sa, NULL) == 0;
}

void sql_guard_end(sql_guard *g)
{
    if (g->have_old)
        sigaction(SIGINT, &g->old, NULL);
    g->have_old = 0;
}

int sql_guard_interrupted(void) { return interrupted != 0; }
