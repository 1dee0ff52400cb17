/*
 * test_export.c — `tlv export --format chrome` as Perfetto and
 * chrome://tracing read it: runs the built tlv (TLV_BIN) on the mini rule set
 * of the e2e tests (with and without per-CPU rows) and, when the TLV 2.0.1
 * corpus is present, on its ASP log; parses the output with cJSON and checks
 * that every event is well formed, that the events of each thread nest (the
 * viewers drop complete events that do not), that every thread and process
 * is named, and that the intervals match `tlv shapes` one to one: as many
 * events as distinct (rule, event, resource, row, from, to) shape groups.
 */
#include "check.h"

#include <cjson/cJSON.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp[] = "/tmp/tlv-test-export-XXXXXX";

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t n = 0, cap = 1 << 16;
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
    fclose(f);
    if (s)
        s[n] = '\0';
    return s;
}

/* Runs `tlv ARGS -o OUT`; returns the output's text or NULL. */
static char *run_tlv(const char *args, const char *out)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "\"%s\" %s -o %s/%s 2>%s/stderr", getenv("TLV_BIN"), args, tmp,
             out, tmp);
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "exit status %d: %s\n", rc, cmd);
    CHECK(rc == 0);
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmp, out);
    return read_all(path);
}

/* Distinct shape groups in `tlv shapes` output: lines equal but for the
 * primitive's own fields (type, text, fill, pen). */
static size_t count_groups(char *jsonl)
{
    size_t n = 0, cap = 0;
    char **keys = NULL;
    for (char *line = strtok(jsonl, "\n"); line; line = strtok(NULL, "\n")) {
        cJSON *o = cJSON_Parse(line);
        CHECK(o != NULL);
        if (!o)
            continue;
        char key[1024];
        const cJSON *res = cJSON_GetObjectItem(o, "resource");
        snprintf(key, sizeof key, "%s|%s|%s|%g|%.17g|%.17g",
                 cJSON_GetObjectItem(o, "rule")->valuestring,
                 cJSON_GetObjectItem(o, "event")->valuestring,
                 cJSON_IsString(res) ? res->valuestring : "-",
                 cJSON_GetObjectItem(o, "row")->valuedouble,
                 cJSON_GetObjectItem(o, "from")->valuedouble,
                 cJSON_GetObjectItem(o, "to")->valuedouble);
        cJSON_Delete(o);
        int seen = 0;
        for (size_t i = 0; i < n && !seen; i++)
            seen = strcmp(keys[i], key) == 0;
        if (seen)
            continue;
        if (n == cap)
            keys = realloc(keys, (cap = cap ? cap * 2 : 64) * sizeof *keys);
        keys[n++] = strdup(key);
    }
    for (size_t i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    return n;
}

typedef struct counts {
    size_t complete, instant, thread_names, process_names;
} counts;

static int number(const cJSON *o, const char *key, double *out)
{
    const cJSON *v = cJSON_GetObjectItem(o, key);
    if (!cJSON_IsNumber(v))
        return 0;
    *out = v->valuedouble;
    return 1;
}

/* Whether a thread (pid, tid) has a thread_name event. */
static int named(const cJSON *events, double pid, double tid)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        const cJSON *name = cJSON_GetObjectItem(e, "name");
        double p, t;
        if (cJSON_IsString(name) && strcmp(name->valuestring, "thread_name") == 0 &&
            number(e, "pid", &p) && number(e, "tid", &t) && p == pid && t == tid)
            return 1;
    }
    return 0;
}

static void check_event(const cJSON *events, const cJSON *e, counts *c)
{
    const cJSON *ph = cJSON_GetObjectItem(e, "ph");
    const cJSON *name = cJSON_GetObjectItem(e, "name");
    double pid = -1, tid = -1, ts, dur;
    CHECK(cJSON_IsString(ph) && cJSON_IsString(name));
    CHECK(number(e, "pid", &pid) && number(e, "tid", &tid));
    if (!cJSON_IsString(ph) || !cJSON_IsString(name))
        return;
    if (strcmp(ph->valuestring, "M") == 0) {
        c->thread_names += strcmp(name->valuestring, "thread_name") == 0;
        c->process_names += strcmp(name->valuestring, "process_name") == 0;
        CHECK(cJSON_IsObject(cJSON_GetObjectItem(e, "args")));
        return;
    }
    CHECK(number(e, "ts", &ts));
    CHECK(cJSON_IsString(cJSON_GetObjectItem(e, "cat")));
    CHECK(named(events, pid, tid));
    if (strcmp(ph->valuestring, "X") == 0) {
        c->complete++;
        CHECK(number(e, "dur", &dur) && dur > 0);
    } else {
        CHECK_STR(ph->valuestring, "i");
        CHECK_STR(cJSON_GetObjectItem(e, "s")->valuestring, "t");
        c->instant++;
    }
}

/* The complete events of each thread nest: sorted by start (longest first),
 * each one ends before or with the innermost one still open. */
typedef struct slice {
    double tid, ts, end;
} slice;

static int by_thread_then_start(const void *pa, const void *pb)
{
    const slice *a = pa, *b = pb;
    if (a->tid != b->tid)
        return a->tid < b->tid ? -1 : 1;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->end > b->end ? -1 : a->end < b->end;
}

static void check_nesting(const cJSON *events)
{
    size_t n = 0;
    slice *s = malloc(((size_t)cJSON_GetArraySize(events) + 1) * sizeof *s);
    const cJSON *e;
    cJSON_ArrayForEach(e, events)
    {
        double tid, ts, dur, pid;
        const cJSON *ph = cJSON_GetObjectItem(e, "ph");
        if (cJSON_IsString(ph) && strcmp(ph->valuestring, "X") == 0 && number(e, "tid", &tid) &&
            number(e, "pid", &pid) && number(e, "ts", &ts) && number(e, "dur", &dur))
            s[n++] = (slice){pid * 1e6 + tid, ts, ts + dur};
    }
    qsort(s, n, sizeof *s, by_thread_then_start);
    double open[256];
    size_t depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (i && s[i].tid != s[i - 1].tid)
            depth = 0;
        while (depth && open[depth - 1] <= s[i].ts)
            depth--;
        if (depth && s[i].end > open[depth - 1]) {
            fprintf(stderr, "slice [%g, %g] of thread %g overlaps one ending at %g\n", s[i].ts,
                    s[i].end, s[i].tid, open[depth - 1]);
            check_failures++;
        }
        if (depth < 256)
            open[depth++] = s[i].end;
    }
    free(s);
}

/* Exports with `args`, and checks the result against `tlv shapes` with the
 * same arguments. Returns the counts. */
static counts check_export(const char *args)
{
    counts c = {0};
    char *json = run_tlv(args, "out.json");
    char shapes_args[2048];
    snprintf(shapes_args, sizeof shapes_args, "shapes %s", strstr(args, " ") + 1);
    char *jsonl = run_tlv(shapes_args, "out.jsonl");
    cJSON *root = json ? cJSON_Parse(json) : NULL;
    CHECK(root != NULL);
    const cJSON *events = cJSON_GetObjectItem(root, "traceEvents");
    CHECK(cJSON_IsArray(events));
    const cJSON *e;
    cJSON_ArrayForEach(e, events) check_event(events, e, &c);
    check_nesting(events);
    CHECK(cJSON_IsObject(cJSON_GetObjectItem(root, "otherData")));
    if (jsonl)
        CHECK_INT(c.complete + c.instant, count_groups(jsonl));
    cJSON_Delete(root);
    free(json);
    free(jsonl);
    return c;
}

static void test_mini(const char *src)
{
    char args[2048];
    snprintf(args, sizeof args, "export -R %s/tests/e2e/mini -r %s/tests/e2e/mini/mini.res "
             "%s/tests/e2e/mini/mini.log", src, src, src);
    counts c = check_export(args);
    /* 16 state intervals (3 of them zero-length: instants), 3 calls, 1 irq
     * run, 1 When instant */
    CHECK_INT(c.complete, 13 + 3 + 1);
    CHECK_INT(c.instant, 3 + 1);
    CHECK_INT(c.process_names, 2);  /* Task, Interrupt */
    CHECK_INT(c.thread_names, 5);   /* 4 rows, ctrl's in two lanes */

    strcat(args, " --cpu-attribute cpu");
    c = check_export(args);
    /* and the running bars of the two CPU rows; ctrl's sleep call is cut
     * in two where ctrl moves to CPU 2 (500), each part on its CPU's row */
    CHECK_INT(c.complete, 17 + 7 + 1);
    CHECK_INT(c.process_names, 2);  /* rows grouped by processor */
}

static void test_corpus(const char *src)
{
    const char *corpus = getenv("TLV_CORPUS");
    char path[1024];
    snprintf(path, sizeof path, "%s/logs/asp/asp_short.log", corpus ? corpus : "");
    if (!corpus || access(path, R_OK) != 0) {
        printf("corpus absent: only the mini rule set checked\n");
        return;
    }
    char args[4096];
    snprintf(args, sizeof args, "export -R %s/rules -r %s/logs/asp/asp_short.res %s", corpus,
             corpus, path);
    counts c = check_export(args);
    CHECK(c.complete > 100);
    (void)src;
}

int main(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src || !getenv("TLV_BIN"))
        SKIP("TLV_SOURCE_DIR and TLV_BIN are not set");
    if (!mkdtemp(tmp))
        return 1;
    test_mini(src);
    test_corpus(src);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
        return 1;
    return CHECK_DONE();
}
