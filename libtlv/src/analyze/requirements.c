/*
 * requirements.c — reading a requirements file (tlv/verify.h): the rule
 * files' JSON dialect (base/json.h), one object "Requirements" of named
 * requirements, each with a "Check" and the members that check takes.
 * Everything that can be known without a trace is checked here — unknown
 * checks and members, missing or malformed bounds, durations, percentages,
 * percentiles and event patterns — and reported with its file, line and
 * column; names of resources are checked against the trace (verify.c).
 */
#include "analyze/requirements.h"

#include "base/buf.h"
#include "base/json.h"
#include "lang/evpattern.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const req_check_names[] = {"response", "latency", "state", "cpu", "followed",
                                       "never"};
#define NCHECKS 6

/* The members each check takes (besides "Check" and "Description"). */
static const char *const members_of[NCHECKS] = {
    "Resource Kind Name Statistic Max",
    "Resource Kind Name Statistic Max",
    "Resource Attribute State Max",
    "Processor Window Max",
    "Event FollowedBy Within",
    "Resource Attribute State Event",
};

typedef struct reader {
    struct tlv_requirements *r;
    const char *file;
    const char *name;          /* the requirement being read */
} reader;

static void err(reader *rd, const tj_node *at, long col_offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* An error at node `at`'s value (col_offset further), or at its key when
 * col_offset is AT_KEY. */
#define AT_KEY (-1000)

static void err(reader *rd, const tj_node *at, long col_offset, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    long line = col_offset == AT_KEY ? at->key_line : at->line;
    long col = col_offset == AT_KEY ? at->key_col : at->col + col_offset;
    if (rd->name)
        diags_add(&rd->r->diags, TLV_SEV_ERROR, rd->file, line, col, "requirement '%s': %s",
                  rd->name, msg);
    else
        diags_add(&rd->r->diags, TLV_SEV_ERROR, rd->file, line, col, "%s", msg);
}

static int takes(req_check c, const char *member)
{
    const char *list = members_of[c];
    size_t n = strlen(member);
    for (const char *s = list; *s;) {
        size_t k = strcspn(s, " ");
        if (k == n && strncmp(s, member, n) == 0)
            return 1;
        s += k + (s[k] == ' ');
    }
    return 0;
}

/* A text member: a string (or a number, for a processor "1"). */
static int read_text(reader *rd, const tj_node *def, const char *key, req_text *out)
{
    const tj_node *v = tj_get(def, key);
    if (!v)
        return 0;
    if (v->type != TJ_STRING && v->type != TJ_NUMBER) {
        err(rd, v, 0, "\"%s\" must be a string, found %s", key, tj_type_name(v->type));
        return -1;
    }
    out->s = strdup(v->str);
    out->pos = (req_pos){v->line, v->col + (v->type == TJ_STRING)};
    return out->s ? 1 : -1;
}

/* The exponent of a unit of time (10^exp seconds), or 1 when unknown. */
static int unit_exp(const char *u, size_t n)
{
    static const struct {
        const char *name;
        int exp;
    } units[] = {{"s", 0}, {"ms", -3}, {"us", -6}, {"\xc2\xb5s", -6}, {"ns", -9}};
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strlen(units[i].name) == n && strncmp(units[i].name, u, n) == 0)
            return units[i].exp;
    return 1;
}

int req_duration_too_large(double value, int exp)
{
    return value * pow(10, exp + 9) > 9223372036854775807.0;
}

const char *req_largest_duration(int exp, char *buf, size_t size)
{
    static const char digits[] = "9223372036854775807"; /* 2^63 - 1 ns */
    int decimals = exp + 9, whole = (int)strlen(digits) - decimals;
    if (decimals <= 0)
        snprintf(buf, size, "%s", digits);
    else
        snprintf(buf, size, "%.*s.%s", whole, digits, digits + whole);
    return buf;
}

static const char *unit_name(int exp)
{
    return exp == 0 ? "s" : exp == -3 ? "ms" : exp == -6 ? "us" : "ns";
}

/* A duration: a number (the trace's TimeScale) or "NUMBER UNIT". */
static int read_duration(reader *rd, const tj_node *def, const char *key, req_dur *out)
{
    const tj_node *v = tj_get(def, key);
    if (!v)
        return 0;
    out->pos = (req_pos){v->line, v->col};
    out->key = key;
    if (v->str)
        snprintf(out->text, sizeof out->text, "%s", v->str);
    if (v->type == TJ_NUMBER) {
        out->value = v->num;
    } else if (v->type == TJ_STRING) {
        char *end;
        out->value = strtod(v->str, &end);
        while (*end == ' ')
            end++;
        size_t n = strlen(end);
        out->has_unit = n > 0;
        out->exp = n ? unit_exp(end, n) : 0;
        if (end == v->str || out->exp == 1) {
            err(rd, v, end == v->str ? 1 : 1 + (long)(end - v->str),
                "\"%s\": '%s' is not a duration (a number in the trace's TimeScale, or a "
                "number and a unit: s, ms, us, ns)", key, v->str);
            return -1;
        }
    } else {
        err(rd, v, 0, "\"%s\" must be a duration (a number, or a string such as \"2 ms\"), "
            "found %s", key, tj_type_name(v->type));
        return -1;
    }
    if (!(out->value >= 0) || !isfinite(out->value)) {
        err(rd, v, 0, "\"%s\" must be a duration of 0 or more", key);
        return -1;
    }
    if (out->has_unit && req_duration_too_large(out->value, out->exp)) {
        char largest[64];
        err(rd, v, 0, "\"%s\": '%s' is too large: the largest duration is %s %s (2^63 - 1 ns)",
            key, v->str, req_largest_duration(out->exp, largest, sizeof largest),
            unit_name(out->exp));
        return -1;
    }
    return 1;
}

/* "Statistic": "max", "mean" or "pNN" (0 < NN <= 100). */
static int read_statistic(reader *rd, const tj_node *def, requirement *q)
{
    const tj_node *v = tj_get(def, "Statistic");
    q->stat = STAT_MAX;
    if (!v)
        return 0;
    const char *s = v->type == TJ_STRING ? v->str : "";
    char *end = NULL;
    if (strcasecmp(s, "max") == 0)
        return 0;
    if (strcasecmp(s, "mean") == 0) {
        q->stat = STAT_MEAN;
        return 0;
    }
    if ((s[0] == 'p' || s[0] == 'P') && s[1]) {
        q->pct = strtod(s + 1, &end);
        if (!*end && q->pct > 0 && q->pct <= 100) {
            q->stat = STAT_PCT;
            return 0;
        }
    }
    err(rd, v, 0, "\"Statistic\" must be \"max\", \"mean\" or a percentile \"pNN\" (p50, p90, "
        "p99, p99.9), found %s", v->type == TJ_STRING ? v->str : tj_type_name(v->type));
    return -1;
}

/* The cpu check's "Max": a share, "80%" or 80. */
static int read_share(reader *rd, const tj_node *def, requirement *q)
{
    const tj_node *v = tj_get(def, "Max");
    if (!v)
        return 0;
    char *end = NULL;
    double x = v->type == TJ_NUMBER ? v->num : v->type == TJ_STRING ? strtod(v->str, &end) : -1;
    if (end && (end == v->str || strcmp(end, "%") != 0))
        x = -1;
    if (!(x >= 0 && x <= 100)) {
        err(rd, v, 0, "\"Max\" of a cpu check must be a percentage from 0 to 100 (80 or "
            "\"80%%\"), found %s", v->type == TJ_STRING ? v->str : tj_type_name(v->type));
        return -1;
    }
    q->max_share = x / 100;
    return 1;
}

/* An event pattern: it must parse, with its variables as they will be. */
static int check_pattern(reader *rd, const tj_node *def, const char *key, const req_text *t)
{
    if (!t->s)
        return 0;
    evpattern p;
    char why[200];
    size_t col = 1;
    int rc = evpattern_parse(t->s, strlen(t->s), &p, why, sizeof why, &col);
    if (rc == 0)
        evpattern_free(&p);
    else if (rc == -1)
        err(rd, tj_get(def, key), (long)col, "\"%s\": %s", key, why);
    return rc;
}

static void free_text(req_text *t)
{
    free(t->s);
    t->s = NULL;
}

static void free_req(requirement *q)
{
    free(q->name);
    req_text *texts[] = {&q->resource, &q->kind,  &q->iname,       &q->attribute, &q->state,
                         &q->processor, &q->event, &q->followed_by};
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        free_text(texts[i]);
}

/* A member the check needs: `rc` is what reading it returned (1 read, 0
 * missing: reported here, -1 wrong: reported already). */
static int need(reader *rd, const tj_node *def, int rc, const char *what)
{
    if (rc > 0)
        return 0;
    if (rc == 0)
        err(rd, def, AT_KEY, "%s", what);
    return -1;
}

static int read_members(reader *rd, const tj_node *def, requirement *q)
{
    int bad = 0;
    for (const tj_node *m = def->child; m; m = m->next)
        if (strcmp(m->key, "Check") != 0 && strcmp(m->key, "Description") != 0 &&
            !takes(q->check, m->key)) {
            err(rd, m, AT_KEY, "unknown member '%s' for a %s check (it takes: %s)", m->key,
                req_check_names[q->check], members_of[q->check]);
            bad = 1;
        }
    const tj_node *at = def;
    bad |= read_text(rd, def, "Resource", &q->resource) < 0;
    bad |= read_text(rd, def, "Kind", &q->kind) < 0;
    bad |= read_text(rd, def, "Name", &q->iname) < 0;
    bad |= read_text(rd, def, "Attribute", &q->attribute) < 0;
    bad |= read_text(rd, def, "State", &q->state) < 0;
    bad |= read_text(rd, def, "Processor", &q->processor) < 0;
    bad |= read_text(rd, def, "Event", &q->event) < 0;
    bad |= read_text(rd, def, "FollowedBy", &q->followed_by) < 0;
    if (bad)
        return -1;
    switch (q->check) {
    case RC_RESPONSE:
    case RC_LATENCY:
        bad |= read_statistic(rd, def, q) < 0;
        bad |= need(rd, at, read_duration(rd, def, "Max", &q->max),
                    "a response check needs \"Max\", the longest time allowed") < 0;
        break;
    case RC_STATE:
        bad |= need(rd, at, q->state.s != NULL, "a state check needs \"State\", the value") < 0;
        bad |= need(rd, at, read_duration(rd, def, "Max", &q->max),
                    "a state check needs \"Max\", the longest time allowed in the state") < 0;
        break;
    case RC_CPU:
        bad |= need(rd, at, read_duration(rd, def, "Window", &q->window),
                    "a cpu check needs \"Window\", the length of the windows") < 0;
        bad |= need(rd, at, read_share(rd, def, q),
                    "a cpu check needs \"Max\", the busy percentage allowed") < 0;
        if (!bad && !(q->window.value > 0))
            bad |= need(rd, tj_get(def, "Window"), 0, "\"Window\" must be longer than 0") < 0;
        break;
    case RC_FOLLOWED:
        bad |= need(rd, at, q->event.s != NULL, "a followed check needs \"Event\"") < 0;
        bad |= need(rd, at, q->followed_by.s != NULL,
                    "a followed check needs \"FollowedBy\"") < 0;
        bad |= need(rd, at, read_duration(rd, def, "Within", &q->within),
                    "a followed check needs \"Within\", the longest delay allowed") < 0;
        bad |= check_pattern(rd, def, "Event", &q->event) < 0;
        bad |= check_pattern(rd, def, "FollowedBy", &q->followed_by) < 0;
        break;
    case RC_NEVER:
        bad |= need(rd, at, (q->state.s != NULL) != (q->event.s != NULL),
                    "a never check needs \"State\" (with \"Resource\" and \"Attribute\") or "
                    "\"Event\", one of them") < 0;
        bad |= check_pattern(rd, def, "Event", &q->event) < 0;
        break;
    }
    return bad ? -1 : 0;
}

static void read_requirement(reader *rd, const tj_node *def)
{
    struct tlv_requirements *r = rd->r;
    rd->name = def->key;
    if (def->type != TJ_OBJECT) {
        err(rd, def, 0, "must be an object with a \"Check\", found %s", tj_type_name(def->type));
        return;
    }
    const tj_node *c = tj_get(def, "Check");
    int check = -1;
    for (int i = 0; c && c->type == TJ_STRING && i < NCHECKS; i++)
        if (strcmp(c->str, req_check_names[i]) == 0)
            check = i;
    if (check < 0) {
        err(rd, c ? c : def, 0, "\"Check\" must be one of response, latency, state, cpu, "
            "followed, never; found %s", !c ? "nothing" : c->type == TJ_STRING ? c->str
                                                                             : tj_type_name(c->type));
        return;
    }
    requirement q;
    memset(&q, 0, sizeof q);
    q.check = (req_check)check;
    q.pos = (req_pos){def->key_line, def->key_col};
    q.name = strdup(def->key);
    if (!q.name || read_members(rd, def, &q) < 0 || GROW(r->v, r->cap, r->n + 1) < 0) {
        free_req(&q);
        return;
    }
    r->v[r->n++] = q;
}

/* `rel` from the folder of the file `base`, unless it is absolute. */
static char *resolve_path(const char *base, const char *rel)
{
    const char *slash = strrchr(base, '/');
    if (rel[0] == '/' || !slash)
        return strdup(rel);
    size_t n = (size_t)(slash - base) + 1;
    char *p = malloc(n + strlen(rel) + 1);
    if (p) {
        memcpy(p, base, n);
        strcpy(p + n, rel);
    }
    return p;
}

static void read_root(reader *rd, const tj_node *root)
{
    if (root->type != TJ_OBJECT) {
        err(rd, root, 0, "a requirements file is an object {\"Requirements\": {NAME: {...}}}, "
            "found %s", tj_type_name(root->type));
        return;
    }
    const tj_node *reqs = tj_get(root, "Requirements");
    if (!reqs || reqs->type != TJ_OBJECT) {
        err(rd, reqs ? reqs : root, 0, "\"Requirements\" must be an object of named "
            "requirements, found %s", reqs ? tj_type_name(reqs->type) : "nothing");
        return;
    }
    for (const tj_node *def = reqs->child; def; def = def->next) {
        if (tj_shadowed(def))
            continue;
        read_requirement(rd, def);
        rd->name = NULL;
    }
    for (const tj_node *m = root->child; m; m = m->next)
        if (strcmp(m->key, "Requirements") != 0 && strcmp(m->key, "Description") != 0 &&
            strcmp(m->key, "ResourceFile") != 0)
            err(rd, m, AT_KEY, "unknown member '%s' (a requirements file has \"Requirements\", "
                "\"ResourceFile\" and \"Description\")", m->key);
    const tj_node *rf = tj_get(root, "ResourceFile");
    if (rf && (rf->type != TJ_STRING || !*rf->str))
        err(rd, rf, 0, "\"ResourceFile\" must be the path of a resource file, found %s",
            tj_type_name(rf->type));
    else if (rf)
        rd->r->res_file = resolve_path(rd->file, rf->str);
}

static tlv_status status_of(const struct tlv_requirements *r)
{
    if (r->diags.nomem)
        return TLV_ERR_NOMEM;
    return r->diags.errors ? TLV_ERR_RULE : TLV_OK;
}

/* An empty handle named `name` (*out NULL when memory ran out). */
static tlv_status new_requirements(const char *name, struct tlv_requirements **out)
{
    struct tlv_requirements *r = calloc(1, sizeof *r);
    *out = r;
    if (!r)
        return TLV_ERR_NOMEM;
    diags_init(&r->diags, 0);
    r->path = strdup(name ? name : "requirements");
    return r->path ? TLV_OK : TLV_ERR_NOMEM;
}

tlv_status tlv_requirements_parse(const char *text, size_t len, const char *name,
                                  tlv_requirements **out)
{
    if (!out)
        return TLV_ERR_USAGE;
    ALLOC_WATCH;
    tlv_status st = new_requirements(name, out);
    struct tlv_requirements *r = *out;
    if (st != TLV_OK || !text)
        return st != TLV_OK ? st : TLV_ERR_USAGE;
    tj_error e;
    tj_node *root = tj_parse(text, len, &e);
    if (!root) {
        diags_add(&r->diags, TLV_SEV_ERROR, r->path, e.line, e.col, "%s", e.message);
        return r->diags.nomem ? TLV_ERR_NOMEM : TLV_ERR_SYNTAX;
    }
    reader rd = {r, r->path, NULL};
    read_root(&rd, root);
    tj_free(root);
    if (ALLOC_FAILED_SINCE())
        r->diags.nomem = 1;
    return status_of(r);
}

tlv_status tlv_requirements_load(const char *path, tlv_requirements **out)
{
    if (!out)
        return TLV_ERR_USAGE;
    *out = NULL;
    if (!path)
        return TLV_ERR_USAGE;
    buf b = BUF_INIT;
    if (read_file(path, &b) < 0) {
        int why = errno;
        buf_free(&b);
        tlv_status st = new_requirements(path, out);
        if (st != TLV_OK)
            return st;
        diags_add(&(*out)->diags, TLV_SEV_ERROR, path, 0, 0, "cannot read the requirements: %s",
                  strerror(why));
        return why == ENOMEM ? TLV_ERR_NOMEM : TLV_ERR_IO;
    }
    tlv_status st = tlv_requirements_parse(b.data ? b.data : "", b.len, path, out);
    buf_free(&b);
    return st;
}

void tlv_requirements_free(tlv_requirements *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        free_req(&r->v[i]);
    free(r->v);
    free(r->path);
    free(r->res_file);
    diags_free(&r->diags);
    free(r);
}

const char *tlv_requirements_resource_file(const tlv_requirements *r)
{
    return r ? r->res_file : NULL;
}

const tlv_diags *tlv_requirements_diags(const tlv_requirements *r) { return r ? &r->diags : NULL; }

size_t tlv_requirements_count(const tlv_requirements *r) { return r ? r->n : 0; }

const char *tlv_requirements_name(const tlv_requirements *r, size_t i)
{
    return r && i < r->n ? r->v[i].name : NULL;
}
