/*
 * session_markers.c — the markers of a `tlv view` session file, as
 * libtlv-export takes them (the sqlite format's markers table), for `tlv
 * export --session` and `tlv query --session`.
 */
#include "cli/cli.h"
#include "view/session.h"

#include <stdlib.h>
#include <string.h>

int session_markers(const char *session, const char *cmd, tlv_export_marker **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!session)
        return 0;
    view_session sess;
    if (session_read(session, &sess) < 0 || !sess.loaded) {
        if (sess.loaded == 0)
            fprintf(stderr, "%s %s: no session '%s'\n", prog, cmd, session);
        session_free(&sess);
        return -1;
    }
    tlv_export_marker *m = calloc(sess.markers.n + 1, sizeof *m);
    int ok = m != NULL;
    for (size_t i = 0; ok && i < sess.markers.n; i++) {
        m[i].time = sess.markers.v[i].time;
        m[i].color = sess.markers.v[i].color & 0xFFFFFF;
        m[i].name = strdup(sess.markers.v[i].name);
        *n = i + 1; /* freed so far */
        ok = m[i].name != NULL;
    }
    *out = m;
    session_free(&sess);
    if (!ok) {
        session_markers_free(m, *n);
        *out = NULL;
        *n = 0;
        return report_nomem("reading the session", session), -1;
    }
    return 0;
}

void session_markers_free(tlv_export_marker *m, size_t n)
{
    for (size_t i = 0; m && i < n; i++)
        free((char *)m[i].name);
    free(m);
}
