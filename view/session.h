/*
 * session.h — the view's session file (LOG.tlvsession) as read: what the
 * window restores (view_state.c applies it) and what `tlv export --format
 * sqlite` takes its markers from (cli/export_sqlite.c). Read leniently by
 * session_read.c; written by the core (view_state.c).
 */
#ifndef TLV_VIEW_SESSION_H
#define TLV_VIEW_SESSION_H

#include "view/view.h"

/* The session: read before the window opens (size), applied after loading
 * (range, rows, markers, per-CPU), written on exit. Read leniently
 * (session_read.c): what can be used is, every part that cannot is a
 * problem, reported once (session_report) and the file kept as PATH.bak. */
#define SESSION_VERSION 1
#define SESSION_MAX_MARKERS 100000 /* more than a person places; the rest reported */
#define SESSION_PROBLEMS_KEPT 8    /* problems kept in full; the rest counted */
typedef struct view_session {
    int loaded;
    int has_range;
    double t0, t1;
    int first_row, per_cpu, width, height;
    int label_w, row_h;         /* the user's label column and row height, 0: automatic */
    view_markers markers;
    struct cJSON *doc;          /* the file, for the panels' parts */
    const char *path;
    int newer;                  /* written by a newer tlv */
    int keep_backup;            /* the file held more than was read (any problem):
                                   session_write keeps it as PATH.bak first */
    int nproblems;              /* problems met, the first SESSION_PROBLEMS_KEPT kept */
    char problems[SESSION_PROBLEMS_KEPT][320];
} view_session;
/* Returns 0 (read or absent: s->loaded says which) or -1 (unusable: a
 * problem noted). Nothing is printed: session_apply reports. */
int session_read(const char *path, view_session *s);
/* The same from text[0..len); s must be zeroed but for markers.selected = -1. */
int session_parse(const char *text, size_t len, view_session *s);
/* Notes the parts of s->doc read by no one: keys missing from `mine` (the
 * session as this tlv writes it) and values of another type than there. */
void session_check_parts(view_session *s, const struct cJSON *mine);
/* Notes a problem (printf format) and that the file must be kept. */
void session_problem(view_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void session_free(view_session *s);
/* Before writing over a session file read only in part (s->keep_backup):
 * renames it to PATH.bak, so that no information is lost. */
void session_keep_backup(const view_session *s, const char *path);

#endif
