/*
 * session_read.c — reading LOG.tlvsession leniently: whatever part of the
 * file can be used is used, and every part that cannot (not JSON, cut short,
 * too large, a value of the wrong type or out of range, more markers than
 * are kept, a newer version) is noted as a problem, reported once by
 * session_report (view_state.c) on stderr and in the status line. A file
 * read with any problem is renamed to FILE.bak before the session is saved
 * over it, so nothing is lost. No SDL: the fuzz target tests/fuzz/
 * fuzz_session.c links this file (with view_markers.c) on its own.
 */
#include "view/session.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SESSION_MAX_BYTES (64u << 20) /* a session of this tlv is a few kB */
#define SESSION_MAX_TIME 1e18         /* no trace time (64-bit ticks) lies beyond */
#define SALVAGE_TRIES 16              /* cut points tried in a file cut short */
#define SALVAGE_DEPTH 200             /* nesting followed while looking for them */

void session_problem(view_session *s, const char *fmt, ...)
{
    s->keep_backup = 1; /* what was not read must not be lost */
    if (s->nproblems < SESSION_PROBLEMS_KEPT) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(s->problems[s->nproblems], sizeof s->problems[0], fmt, ap);
        va_end(ap);
    }
    s->nproblems++;
}

/* ---- the values --------------------------------------------------------------------- */

static const char *type_name(const cJSON *v)
{
    return cJSON_IsNumber(v) ? "a number" : cJSON_IsString(v) ? "a string"
         : cJSON_IsBool(v)   ? "a boolean" : cJSON_IsArray(v) ? "an array"
         : cJSON_IsObject(v) ? "an object" : "null";
}

static int is_time(const cJSON *v)
{
    return cJSON_IsNumber(v) && isfinite(v->valuedouble) && fabs(v->valuedouble) <= SESSION_MAX_TIME;
}

/* The number at o.key within [lo, hi] into *out: 1; absent: 0 silently;
 * anything else: 0 with a problem naming `what` it was for. */
static int number_in(view_session *s, const cJSON *o, const char *key, double lo, double hi,
                     double *out)
{
    const cJSON *n = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!n)
        return 0;
    if (!cJSON_IsNumber(n)) {
        session_problem(s, "'%s' is %s, not a number; ignored", key, type_name(n));
        return 0;
    }
    if (!(n->valuedouble >= lo && n->valuedouble <= hi)) {
        session_problem(s, "'%s' is %g, outside %g..%g; ignored", key, n->valuedouble, lo, hi);
        return 0;
    }
    *out = n->valuedouble;
    return 1;
}

static void read_range(view_session *s, const cJSON *vis)
{
    if (!vis)
        return;
    const cJSON *t0 = cJSON_GetObjectItemCaseSensitive(vis, "t0");
    const cJSON *t1 = cJSON_GetObjectItemCaseSensitive(vis, "t1");
    if (!is_time(t0) || !is_time(t1) || !(t1->valuedouble > t0->valuedouble)) {
        session_problem(s, "'visible' is not a time range (an object with numbers t0 < t1 "
                        "within +-1e18); the whole trace is shown");
        return;
    }
    s->has_range = 1;
    s->t0 = t0->valuedouble;
    s->t1 = t1->valuedouble;
}

static void read_window(view_session *s, const cJSON *win)
{
    if (!win)
        return;
    if (!cJSON_IsObject(win)) {
        session_problem(s, "'window' is %s, not an object; ignored", type_name(win));
        return;
    }
    double v;
    if (number_in(s, win, "width", 16, 16384, &v))
        s->width = (int)v;
    if (number_in(s, win, "height", 16, 16384, &v))
        s->height = (int)v;
}

/* ---- markers -------------------------------------------------------------------------- */

typedef struct marker_in {
    const cJSON *item;
    double time;
    size_t index; /* in the file: equal times keep the file's order */
} marker_in;

static int by_time(const void *pa, const void *pb)
{
    const marker_in *a = pa, *b = pb;
    if (a->time != b->time)
        return a->time < b->time ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

static int is_color(const char *s)
{
    size_t n = strspn(s, "0123456789abcdefABCDEF");
    return n == 6 && !s[n];
}

/* How often a kind of damage was met among the markers, and where first. */
typedef struct damage {
    size_t n, first;
} damage;

static void count(damage *d, size_t i)
{
    if (!d->n++)
        d->first = i;
}

static void report(view_session *s, const damage *d, size_t total, const char *what)
{
    if (d->n)
        session_problem(s, "'markers': %zu of %zu %s (the first: markers[%zu])", d->n, total, what,
                        d->first);
}

/* Sorted once, then added in time order: a million markers in any order
 * cost a sort, not a million insertions. */
static void read_markers(view_session *s, const cJSON *arr)
{
    view_markers *m = &s->markers;
    m->selected = -1;
    if (!arr)
        return;
    if (!cJSON_IsArray(arr)) {
        session_problem(s, "'markers' is %s, not an array; ignored", type_name(arr));
        return;
    }
    size_t total = (size_t)cJSON_GetArraySize(arr), n = 0, i = 0;
    marker_in *in = malloc((total < SESSION_MAX_MARKERS ? total : SESSION_MAX_MARKERS) *
                           sizeof *in + 1);
    if (!in) {
        session_problem(s, "'markers': out of memory reading %zu markers; ignored", total);
        return;
    }
    damage bad = {0}, extra = {0}, long_name = {0}, bad_color = {0}, bad_layer = {0};
    const cJSON *it;
    cJSON_ArrayForEach(it, arr) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(it, "name");
        const cJSON *time = cJSON_GetObjectItemCaseSensitive(it, "time");
        if (!cJSON_IsObject(it) || !cJSON_IsString(name) || !is_time(time))
            count(&bad, i);
        else if (n == SESSION_MAX_MARKERS)
            count(&extra, i);
        else
            in[n++] = (marker_in){it, time->valuedouble, i};
        i++;
    }
    qsort(in, n, sizeof *in, by_time);
    for (size_t k = 0; k < n; k++) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(in[k].item, "name");
        const cJSON *color = cJSON_GetObjectItemCaseSensitive(in[k].item, "color");
        const cJSON *layer = cJSON_GetObjectItemCaseSensitive(in[k].item, "layer");
        long j = markers_add(m, in[k].time, name->valuestring);
        if (j < 0) {
            session_problem(s, "'markers': out of memory after %zu markers; the rest ignored", k);
            break;
        }
        view_marker *v = &m->v[j];
        if (strlen(name->valuestring) >= sizeof v->name)
            count(&long_name, in[k].index);
        if (cJSON_IsString(color) && is_color(color->valuestring))
            v->color = (uint32_t)strtoul(color->valuestring, NULL, 16);
        else if (color)
            count(&bad_color, in[k].index);
        if (cJSON_IsString(layer) && strlen(layer->valuestring) < sizeof v->layer)
            snprintf(v->layer, sizeof v->layer, "%s", layer->valuestring);
        else if (layer)
            count(&bad_layer, in[k].index);
    }
    free(in);
    m->selected = -1;
    report(s, &bad, total, "are not objects with a name and a time within +-1e18; skipped");
    char what[96];
    snprintf(what, sizeof what, "are beyond the %d markers kept; skipped", SESSION_MAX_MARKERS);
    report(s, &extra, total, what);
    snprintf(what, sizeof what, "have names longer than %zu bytes; cut", sizeof m->v[0].name - 1);
    report(s, &long_name, total, what);
    report(s, &bad_color, total, "have a colour that is not RRGGBB in hex; a default used");
    snprintf(what, sizeof what, "have a layer that is not a string of at most %zu bytes; the "
             "default layer used", sizeof m->v[0].layer - 1);
    report(s, &bad_layer, total, what);
}

static void read_hidden_layers(view_session *s, const cJSON *arr)
{
    if (!arr)
        return;
    if (!cJSON_IsArray(arr)) {
        session_problem(s, "'hidden_marker_layers' is %s, not an array; ignored", type_name(arr));
        return;
    }
    size_t skipped = 0;
    const cJSON *layer;
    cJSON_ArrayForEach(layer, arr) {
        if (!cJSON_IsString(layer) || strlen(layer->valuestring) >= sizeof s->markers.layer) {
            skipped++;
            continue;
        }
        if (markers_layer_shown(&s->markers, layer->valuestring) &&
            !markers_toggle_layer(&s->markers, layer->valuestring))
            skipped++;
    }
    if (skipped)
        session_problem(s, "'hidden_marker_layers': %zu entries are not layer names (strings of at "
                        "most %zu bytes) or beyond the %d kept; skipped", skipped,
                        sizeof s->markers.layer - 1, MARKER_LAYERS_HIDDEN);
}

static void read_session(view_session *s, const cJSON *o)
{
    read_range(s, cJSON_GetObjectItemCaseSensitive(o, "visible"));
    double v;
    if (number_in(s, o, "first_row", 0, 1e9, &v))
        s->first_row = (int)v;
    const cJSON *per_cpu = cJSON_GetObjectItemCaseSensitive(o, "per_cpu");
    if (per_cpu && !cJSON_IsBool(per_cpu))
        session_problem(s, "'per_cpu' is %s, not a boolean; ignored", type_name(per_cpu));
    s->per_cpu = cJSON_IsTrue(per_cpu);
    read_window(s, cJSON_GetObjectItemCaseSensitive(o, "window"));
    read_markers(s, cJSON_GetObjectItemCaseSensitive(o, "markers"));
    read_hidden_layers(s, cJSON_GetObjectItemCaseSensitive(o, "hidden_marker_layers"));
    if (number_in(s, o, "label_column", 0, 16384, &v))
        s->label_w = (int)v;
    if (number_in(s, o, "row_height", 0, 1000, &v))
        s->row_h = (int)v;
}

/* ---- the file -------------------------------------------------------------------------- */

/* Line and column (from 1) of offset `at` in text. */
static void line_col(const char *text, size_t at, size_t *line, size_t *col)
{
    *line = 1;
    size_t start = 0;
    for (size_t i = 0; i < at; i++)
        if (text[i] == '\n') {
            ++*line;
            start = i + 1;
        }
    *col = at - start + 1;
}

typedef struct cut_point {
    size_t at;                   /* the text before it is kept */
    int depth;
    char closers[SALVAGE_DEPTH]; /* what closes the containers open there, innermost last */
} cut_point;

/* A file cut short (a crash or a full disk while it was copied): the text
 * up to its last complete member or element, with the containers left
 * open closed, parsed. NULL when no such prefix parses to an object. */
static cJSON *salvage(const char *text, size_t len)
{
    cut_point *ring = calloc(SALVAGE_TRIES, sizeof *ring);
    char *buf = malloc(len + SALVAGE_DEPTH + 1);
    cJSON *o = NULL;
    if (!ring || !buf)
        goto done;
    char stack[SALVAGE_DEPTH];
    int depth = 0, in_string = 0;
    size_t ncut = 0;
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = 0;
            continue;
        }
        size_t at;
        if (c == '"') {
            in_string = 1;
            continue;
        } else if (c == '{' || c == '[') {
            if (depth == SALVAGE_DEPTH)
                break;
            stack[depth++] = c == '{' ? '}' : ']';
            at = i + 1;
        } else if (c == '}' || c == ']') {
            if (depth == 0 || stack[--depth] != c)
                break; /* not JSON before the cut: nothing to salvage */
            continue;
        } else if (c == ',' && depth > 0) {
            at = i;
        } else {
            continue;
        }
        cut_point *p = &ring[ncut++ % SALVAGE_TRIES];
        p->at = at;
        p->depth = depth;
        memcpy(p->closers, stack, (size_t)depth);
    }
    for (size_t k = 0; k < ncut && k < SALVAGE_TRIES && !o; k++) {
        const cut_point *p = &ring[(ncut - 1 - k) % SALVAGE_TRIES];
        memcpy(buf, text, p->at);
        size_t n = p->at;
        for (int d = p->depth; d > 0; d--)
            buf[n++] = p->closers[d - 1];
        o = cJSON_ParseWithLength(buf, n);
        if (o && !cJSON_IsObject(o)) {
            cJSON_Delete(o);
            o = NULL;
        }
    }
done:
    free(ring);
    free(buf);
    return o;
}

/* The keys read_session checks itself. */
static const char *const checked[] = {"tlv_session", "visible", "first_row", "per_cpu", "window",
                                      "markers", "hidden_marker_layers", "label_column",
                                      "row_height"};

static int same_type(const cJSON *a, const cJSON *b)
{
    return cJSON_IsNull(a) || cJSON_IsNull(b) || (a->type & 0xFF) == (b->type & 0xFF) ||
           (cJSON_IsBool(a) && cJSON_IsBool(b));
}

/* One value of the file (`path` names it) against what this tlv writes
 * there: its type, then, in an object, the members both have (a member
 * this tlv leaves out may be one it writes only sometimes), and in an
 * array (the session's arrays but the markers hold names) its entries. */
static void check_value(view_session *s, const char *path, const cJSON *it, const cJSON *m,
                        int depth)
{
    if (!same_type(it, m)) {
        session_problem(s, "'%.80s' is %s where this tlv writes %s; ignored", path, type_name(it),
                        type_name(m));
    } else if (cJSON_IsObject(it) && depth < 4) {
        const cJSON *c;
        cJSON_ArrayForEach(c, it) {
            const cJSON *mc = c->string ? cJSON_GetObjectItemCaseSensitive(m, c->string) : NULL;
            char sub[200];
            snprintf(sub, sizeof sub, "%s.%.80s", path, c->string ? c->string : "");
            if (mc)
                check_value(s, sub, c, mc, depth + 1);
        }
    } else if (cJSON_IsArray(it) && (!m->child || cJSON_IsString(m->child))) {
        size_t bad = 0, n = 0;
        const cJSON *c;
        cJSON_ArrayForEach(c, it)
            bad += !cJSON_IsString(c), n++;
        if (bad)
            session_problem(s, "'%.80s': %zu of %zu entries are not names (strings); skipped",
                            path, bad, n);
    }
}

void session_check_parts(view_session *s, const cJSON *mine)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, s->doc) {
        const cJSON *m = it->string ? cJSON_GetObjectItemCaseSensitive(mine, it->string) : NULL;
        size_t k = 0;
        while (it->string && k < sizeof checked / sizeof *checked && strcmp(checked[k], it->string))
            k++;
        if (it->string && k < sizeof checked / sizeof *checked)
            continue;
        if (m)
            check_value(s, it->string, it, m, 0);
        else if (!s->newer) /* a newer version's own keys: reported as a whole */
            session_problem(s, "'%.80s' is not a setting this tlv knows; ignored",
                            it->string ? it->string : "");
    }
}

/* The version this file says it was written by; problems noted. */
static void read_version(view_session *s, const cJSON *o)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "tlv_session");
    if (!v)
        return; /* a salvaged file: its version was in the part lost */
    if (!cJSON_IsNumber(v) || !(v->valuedouble >= 1) || v->valuedouble != floor(v->valuedouble)) {
        session_problem(s, "'tlv_session' is not a version number; read as version %d",
                        SESSION_VERSION);
    } else if (v->valuedouble > SESSION_VERSION) {
        s->newer = 1;
        session_problem(s, "written by a newer tlv (session version %g, this one reads %d); what "
                        "this version knows is used", v->valuedouble, SESSION_VERSION);
    }
}

int session_parse(const char *text, size_t len, view_session *s)
{
    const char *end = NULL;
    cJSON *o = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    int salvaged = 0;
    if (o && end) {
        size_t at = (size_t)(end - text), line, col;
        while (at < len && strchr(" \t\r\n", text[at]) && text[at])
            at++;
        if (at < len) {
            line_col(text, at, &line, &col);
            session_problem(s, "more after the end of the session (line %zu, column %zu); "
                            "ignored", line, col);
        }
    }
    if (!o) {
        size_t at = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        size_t line, col;
        line_col(text, at, &line, &col);
        o = salvage(text, len);
        if (!o) {
            session_problem(s, "not a tlv session file (not JSON: line %zu, column %zu); ignored",
                            line, col);
            return -1;
        }
        salvaged = 1;
        session_problem(s, "cut short or damaged at line %zu, column %zu; what comes before is "
                        "used", line, col);
    }
    if (!cJSON_IsObject(o) || (!salvaged && !cJSON_GetObjectItemCaseSensitive(o, "tlv_session"))) {
        session_problem(s, "not a tlv session file (JSON, but not an object with \"tlv_session\"); "
                        "ignored");
        cJSON_Delete(o);
        return -1;
    }
    read_version(s, o);
    read_session(s, o);
    s->loaded = 1;
    s->doc = o; /* the panels read their parts later */
    return 0;
}

/* The whole file as a NUL-terminated string, or NULL with a problem noted. */
static char *slurp(FILE *f, view_session *s, size_t *len)
{
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > SESSION_MAX_BYTES) {
        session_problem(s, "larger than %u MB (%lld bytes); ignored", SESSION_MAX_BYTES >> 20,
                        (long long)st.st_size);
        return NULL;
    }
    size_t cap = 4096, n;
    char *text = malloc(cap);
    *len = 0;
    while (text && (n = fread(text + *len, 1, cap - *len - 1, f)) > 0) {
        *len += n;
        if (*len + 1 < cap)
            continue;
        char *t = cap <= SESSION_MAX_BYTES ? realloc(text, cap *= 2) : NULL;
        if (!t) {
            session_problem(s, "larger than %u MB or memory ran out; ignored",
                            SESSION_MAX_BYTES >> 20);
            free(text);
        }
        text = t;
    }
    if (text)
        text[*len] = '\0';
    return text;
}

int session_read(const char *path, view_session *s)
{
    memset(s, 0, sizeof *s);
    s->markers.selected = -1;
    s->path = path;
    /* Opened without blocking, and only a regular file is read: a FIFO in
     * its place blocked `tlv view` forever (issue 32.8). */
    int fd = path ? open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) : -1;
    struct stat st;
    if (fd < 0) {
        if (!path || errno == ENOENT)
            return 0; /* no session yet */
        session_problem(s, "cannot be read: %s; not used", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        session_problem(s, "cannot be read: %s; not used", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        session_problem(s, "is not a regular file (%s); not used",
                        S_ISFIFO(st.st_mode) ? "a FIFO" : "a device or other special file");
        close(fd);
        return -1;
    }
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        session_problem(s, "cannot be read: %s; not used", strerror(errno));
        return -1;
    }
    size_t len = 0;
    char *text = slurp(f, s, &len);
    fclose(f);
    int rc = text ? session_parse(text, len, s) : -1;
    free(text);
    return rc;
}

void session_keep_backup(const view_session *s, const char *path)
{
    if (!s->keep_backup || !path)
        return;
    size_t n = strlen(path) + 5;
    char *bak = malloc(n);
    if (!bak)
        return;
    snprintf(bak, n, "%s.bak", path);
    if (rename(path, bak) != 0 && errno != ENOENT)
        fprintf(stderr, "%s view: cannot keep '%s' as '%s': %s\n", prog, path, bak, strerror(errno));
    free(bak);
}

void session_free(view_session *s)
{
    markers_clear(&s->markers);
    cJSON_Delete(s->doc);
    s->doc = NULL;
}
