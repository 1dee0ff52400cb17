/*
 * embed.c — a small program built against an installed libtlv: it loads a
 * resource file and its rules, converts a log fed line by line on standard
 * input (the push API, as for a live log), and prints how long each task ran:
 * the sum of the intervals during which the task's "state" attribute was
 * RUNNING, in the trace's TimeScale. A task still running at the end counts
 * up to the last event's time.
 *
 *   embed [-R RULES_DIR]... FILE.res < LOG
 *
 * Build: see README.md in this directory.
 */
#define _POSIX_C_SOURCE 200809L /* getline */

#include <tlv/tlv.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIRS 16

/* Per-resource bookkeeping, indexed like the rule set's resources. */
typedef struct task {
    const char *name;
    int is_task;        /* of type "Task": the only ones reported */
    int running;
    double since;       /* when it last became RUNNING */
    double total;
} task;

typedef struct run {
    const tlv_rules *rules;
    task *tasks;
    size_t ntasks;
    int started;
    double first, last; /* times of the first and last events */
} run;

static task *find_task(run *r, const char *name)
{
    for (size_t i = 0; i < r->ntasks; i++)
        if (strcmp(r->tasks[i].name, name) == 0)
            return &r->tasks[i];
    return NULL;
}

/* Called by the converter for each event, in input order. A task that was
 * RUNNING from the start (its initial value) counts from the first event. */
static int on_event(void *user, const tlv_event *e)
{
    run *r = user;
    double now = tlv_time_to_double(e->time, tlv_rules_time_radix(r->rules));
    if (!r->started) {
        r->started = 1;
        r->first = now;
        for (size_t i = 0; i < r->ntasks; i++)
            r->tasks[i].since = now;
    }
    r->last = now;
    if (e->kind != TLV_EVENT_ATTRIBUTE || strcmp(e->name, "state") != 0)
        return 0;
    task *t = find_task(r, e->resource);
    if (!t)
        return 0;
    int running = strcmp(e->value, "RUNNING") == 0;
    if (t->running && !running)
        t->total += now - t->since;
    else if (!t->running && running)
        t->since = now;
    t->running = running;
    return 0;
}

/* Reads each resource's type and initial state before any line is fed. */
static int init_tasks(run *r, tlv_converter *conv)
{
    r->ntasks = tlv_rules_resource_count(r->rules);
    r->tasks = calloc(r->ntasks ? r->ntasks : 1, sizeof *r->tasks);
    if (!r->tasks)
        return -1;
    for (size_t i = 0; i < r->ntasks; i++) {
        task *t = &r->tasks[i];
        t->name = tlv_rules_resource_name(r->rules, i);
        t->is_task = strcmp(tlv_rules_resource_type(r->rules, i), "Task") == 0;
        const char *state;
        if (tlv_converter_attr_at(conv, t->name, "state", NULL, &state) == TLV_OK)
            t->running = strcmp(state, "RUNNING") == 0;
    }
    return 0;
}

static void print_diags(const tlv_diags *d)
{
    char text[1024];
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        fprintf(stderr, "%s\n", text);
    }
}

/* Feeds standard input one line at a time, as a live log would arrive. */
static tlv_status feed_stdin(tlv_converter *conv)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    tlv_status worst = TLV_OK;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        if (n > 0 && line[n - 1] == '\n')
            n--;
        tlv_status st = tlv_converter_push_line(conv, line, (size_t)n);
        if (st != TLV_OK)
            worst = st;
    }
    free(line);
    tlv_status st = tlv_converter_finish(conv);
    return st != TLV_OK ? st : worst;
}

static void report(const run *r)
{
    const char *unit = tlv_rules_time_scale(r->rules);
    for (size_t i = 0; i < r->ntasks; i++) {
        const task *t = &r->tasks[i];
        if (!t->is_task)
            continue;
        double total = t->total + (t->running ? r->last - t->since : 0);
        printf("%s %.15g %s\n", t->name, total, unit);
    }
}

static tlv_rules *load(int argc, char **argv)
{
    const char *dirs[MAX_DIRS];
    size_t ndirs = 0;
    const char *res = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-R") == 0 && i + 1 < argc && ndirs < MAX_DIRS)
            dirs[ndirs++] = argv[++i];
        else
            res = argv[i];
    }
    if (!res) {
        fprintf(stderr, "usage: embed [-R RULES_DIR]... FILE.res < LOG\n");
        return NULL;
    }
    tlv_rules_options opts;
    tlv_rules_options_init(&opts);
    opts.search_dirs = dirs;
    opts.n_search_dirs = ndirs;
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_load(res, &opts, &rules);
    print_diags(tlv_rules_diags(rules));
    if (st != TLV_OK) {
        fprintf(stderr, "embed: %s: %s\n", res, tlv_status_string(st));
        tlv_rules_free(rules);
        return NULL;
    }
    return rules;
}

int main(int argc, char **argv)
{
    tlv_rules *rules = load(argc, argv);
    if (!rules)
        return 2;
    run r = {.rules = rules};
    tlv_converter *conv = NULL;
    int rc = 2;
    if (tlv_converter_new(rules, &conv) == TLV_OK && init_tasks(&r, conv) == 0) {
        tlv_converter_set_source_name(conv, "<stdin>");
        tlv_converter_set_event_fn(conv, on_event, &r);
        tlv_status st = feed_stdin(conv);
        print_diags(tlv_converter_diags(conv));
        report(&r);
        rc = st == TLV_OK ? 0 : 1;
    }
    free(r.tasks);
    tlv_converter_free(conv);
    tlv_rules_free(rules);
    return rc;
}
