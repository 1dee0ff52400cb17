/*
 * fuzz_session.c — libFuzzer target: the viewer's session reader
 * (view/session_read.c: session_parse, then session_check_parts against
 * the keys this tlv writes). Whatever the bytes, reading ends with a session
 * or with a problem noted; what was read is within its limits (markers in
 * time order, finite times within +-1e18, at most SESSION_MAX_MARKERS, names
 * and layers cut to their fields, window sizes within 16..16384, a range
 * with t0 < t1), and a problem always means the file is kept as .bak.
 */
#include "view/session.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *prog = "tlv"; /* cli.c's, which this target does not link */

/* The top-level keys of a session this tlv writes (their types matter). */
static const char mine_text[] =
    "{\"tlv_session\":1,\"visible\":{\"t0\":0,\"t1\":1},\"first_row\":0,\"per_cpu\":false,"
    "\"window\":{\"width\":800,\"height\":600},\"markers\":[],\"hidden_marker_layers\":[],"
    "\"label_column\":0,\"row_height\":0,\"hidden_rows\":[],\"hidden_rules\":[],"
    "\"collapsed_groups\":[],\"rows_panel\":false,\"log_panel\":false,\"details_panel\":{}}";

static void check(const view_session *s, int rc)
{
    if ((rc == 0) != (s->loaded == 1) || (rc < 0 && !s->nproblems))
        __builtin_trap();
    if ((s->nproblems > 0) != (s->keep_backup == 1))
        __builtin_trap();
    const view_markers *m = &s->markers;
    if (m->n > SESSION_MAX_MARKERS || m->selected != -1)
        __builtin_trap();
    for (size_t i = 0; i < m->n; i++) {
        const view_marker *k = &m->v[i];
        if (!isfinite(k->time) || fabs(k->time) > 1e18 || (i && m->v[i - 1].time > k->time) ||
            strlen(k->name) >= sizeof k->name || strlen(k->layer) >= sizeof k->layer ||
            k->color > 0xFFFFFF)
            __builtin_trap();
    }
    if (s->has_range && !(isfinite(s->t0) && isfinite(s->t1) && s->t0 < s->t1))
        __builtin_trap();
    if ((s->width && (s->width < 16 || s->width > 16384)) ||
        (s->height && (s->height < 16 || s->height > 16384)) || s->first_row < 0 ||
        s->label_w < 0 || s->label_w > 16384 || s->row_h < 0 || s->row_h > 1000)
        __builtin_trap();
    for (int i = 0; i < s->nproblems && i < SESSION_PROBLEMS_KEPT; i++)
        if (!s->problems[i][0])
            __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    cJSON *mine = cJSON_Parse(mine_text);
    if (!text || !mine)
        abort();
    memcpy(text, data, size);
    text[size] = '\0';
    view_session s;
    memset(&s, 0, sizeof s);
    s.markers.selected = -1;
    int rc = session_parse(text, size, &s);
    if (s.loaded)
        session_check_parts(&s, mine);
    check(&s, rc);
    session_free(&s);
    cJSON_Delete(mine);
    free(text);
    return 0;
}
