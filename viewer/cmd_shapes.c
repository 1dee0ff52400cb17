/*
 * cmd_shapes.c — `tlv shapes`: converts a log (or reads a standard-form
 * trace), applies the visualization rules and prints one JSON object per
 * drawn primitive (JSON Lines, spec §11).
 */
#include "cli.h"
#include "json_line.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char shapes_help[] =
    "usage: tlv shapes [-R DIR]... -r FILE.res [-o OUT] [--per-cpu] [--flows] [--allow-scripts]\n"
    "                  LOG|-\n"
    "\n"
    "Converts LOG with the conversion rules (or reads it as a standard-form trace\n"
    "when the resource file says \"ConvertRules\":[\"\"]), applies the visualization\n"
    "rules, and prints one JSON object per drawn primitive, one per line:\n"
    "  {\"rule\":R,\"event\":E,\"resource\":NAME or null,\"from\":T0,\"to\":T1,\n"
    "   \"type\":\"Rectangle\"...,\"text\":STRING or null,\"fill\":\"aarrggbb\" or null,\n"
    "   \"pen\":\"aarrggbb\" or null,\"row\":N}\n"
    "ordered by rule, event, resource and start time. Times are base-10 numbers in\n"
    "trace time units.\n"
    "\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    "  -o, --output OUT          write to OUT instead of standard output\n"
    "      --per-cpu             group rows per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "      --flows               print the flows (\"Flows\" of the rules) instead, in time\n"
    "                            order: {\"rule\",\"flow\",\"name\",\"from\",\"to\",\n"
    "                            \"from_processor\",\"to_processor\",\"time\",\"line\",\n"
    "                            \"from_row\",\"to_row\"} (null: no processor, no row)\n"
    "\n"
    "Exit status: 0 ok; 1 written, but some lines or rules had errors; 2 bad usage,\n"
    "unreadable input or rule files with errors.\n";

/* One JSON object per line. Millions of shapes: a cJSON tree per shape
 * (allocated, printed, freed) was most of the command's time; json_line
 * writes the same bytes straight into a buffer. */

static void put_color(json_line *b, int has, uint32_t argb)
{
    if (!has) {
        jl_raw(b, "null");
        return;
    }
    char text[11] = "\"";
    for (int i = 0; i < 8; i++)
        text[1 + i] = "0123456789abcdef"[(argb >> (28 - 4 * i)) & 15];
    text[9] = '"';
    text[10] = '\0';
    jl_raw(b, text);
}

static void put_row(json_line *b, size_t row)
{
    if (row == TLV_NO_ROW)
        jl_raw(b, "null");
    else
        jl_number(b, (double)row);
}

/* The keys are plain: their printed form is written as is. The strings
 * are the shapes' names and primitives' texts, few and printed millions of
 * times: escaped once each (jl_memo). */
static void put_shape(json_line *b, jl_memo *m, const tlv_shape_info *sh, int radix)
{
    jl_raw(b, "{\"rule\":");
    jl_string_memo(b, m, sh->rule);
    jl_raw(b, ",\"event\":");
    jl_string_memo(b, m, sh->event);
    jl_raw(b, ",\"resource\":");
    jl_string_memo(b, m, sh->resource);
    jl_raw(b, ",\"from\":");
    jl_time(b, sh->from, radix);
    jl_raw(b, ",\"to\":");
    jl_time(b, sh->to, radix);
    jl_raw(b, ",\"type\":");
    jl_string_memo(b, m, sh->type);
    jl_raw(b, ",\"text\":");
    jl_string_memo(b, m, sh->text);
    jl_raw(b, ",\"fill\":");
    put_color(b, sh->has_fill, sh->fill);
    jl_raw(b, ",\"pen\":");
    put_color(b, sh->has_pen, sh->pen);
    jl_raw(b, ",\"row\":");
    jl_number(b, (double)sh->row);
    jl_raw(b, "}\n");
}

static int print_flow(FILE *out, json_line *b, const tlv_trace *trace, const tlv_flow_info *f,
                      int radix)
{
    tlv_event e;
    tlv_trace_event(trace, f->event, &e);
    jl_key(b, "rule", 1);
    jl_string(b, f->rule);
    jl_key(b, "flow", 0);
    jl_string(b, f->name);
    jl_key(b, "name", 0);
    jl_string(b, f->display_name);
    jl_key(b, "from", 0);
    jl_string(b, f->from_resource);
    jl_key(b, "to", 0);
    jl_string(b, f->to_resource);
    jl_key(b, "from_processor", 0);
    jl_string(b, f->from_processor);
    jl_key(b, "to_processor", 0);
    jl_string(b, f->to_processor);
    jl_key(b, "time", 0);
    jl_time(b, f->time, radix);
    jl_key(b, "line", 0);
    jl_number(b, (double)e.input_line);
    jl_key(b, "from_row", 0);
    put_row(b, f->from_row);
    jl_key(b, "to_row", 0);
    put_row(b, f->to_row);
    jl_raw(b, "}\n");
    return jl_write(b, out);
}

typedef struct shapes_args {
    common_args c; /* -R, -r, --allow-scripts, -o, --per-cpu, --cpu-attribute, LOG */
    int flows;     /* --flows */
} shapes_args;

static int shapes_option(void *own, int argc, char **argv, int *i)
{
    (void)argc;
    if (strcmp(argv[*i], "--flows") != 0)
        return 0;
    ((shapes_args *)own)->flows = 1;
    return 1;
}

/* ---- the shapes, formatted on several threads ------------------------------------------
 * Formatting is most of the writing (a JSON object per shape, millions of
 * them), and every shape's text depends on that shape alone: the shapes are
 * cut into chunks that the threads format into buffers of their own, and
 * the calling thread, which formats too, writes the buffers in order. So
 * the output is the serial one, byte for byte; at most RING chunks wait in
 * memory. */

#define CHUNK_SHAPES 16384
#define RING 8
#define MAX_WRITERS 8

typedef struct ring_slot {
    json_line b;
    int ready;         /* formatted, not written yet */
} ring_slot;

typedef struct par_writer {
    const tlv_shapes *shapes;
    int radix;
    size_t n, nchunks;
    size_t next;       /* the next chunk to format */
    size_t written;    /* chunks written */
    int failed;        /* formatting or writing failed: stop */
    ring_slot ring[RING];
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a chunk formatted, or written */
} par_writer;

/* Formats chunk c into its slot. Returns 0, or -1 when memory ran out. */
static int format_chunk(par_writer *p, jl_memo *m, size_t c)
{
    json_line *b = &p->ring[c % RING].b;
    size_t end = (c + 1) * CHUNK_SHAPES < p->n ? (c + 1) * CHUNK_SHAPES : p->n;
    b->len = 0;
    for (size_t i = c * CHUNK_SHAPES; i < end && !b->failed; i++) {
        tlv_shape_info sh;
        tlv_shapes_get(p->shapes, i, &sh);
        put_shape(b, m, &sh, p->radix);
    }
    return b->failed ? -1 : 0;
}

/* Takes the next chunk to format when its slot is free, else SIZE_MAX.
 * Called with the lock held. */
static size_t take_chunk(par_writer *p)
{
    if (p->failed || p->next >= p->nchunks || p->next >= p->written + RING)
        return SIZE_MAX;
    return p->next++;
}

static void format_taken(par_writer *p, jl_memo *m, size_t c)
{
    pthread_mutex_unlock(&p->mu);
    int rc = format_chunk(p, m, c);
    pthread_mutex_lock(&p->mu);
    p->ring[c % RING].ready = 1;
    if (rc < 0)
        p->failed = -2;
    pthread_cond_broadcast(&p->cv);
}

typedef struct writer_thread {
    par_writer *p;
    jl_memo memo;
    pthread_t thread;
    int started;
} writer_thread;

static void *format_main(void *arg)
{
    writer_thread *w = arg;
    par_writer *p = w->p;
    pthread_mutex_lock(&p->mu);
    while (!p->failed && p->next < p->nchunks) {
        size_t c = take_chunk(p);
        if (c == SIZE_MAX)
            pthread_cond_wait(&p->cv, &p->mu);
        else
            format_taken(p, &w->memo, c);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* The calling thread: writes the chunks in order as they are formatted,
 * formatting chunks itself while the next to write is not ready. */
static int write_in_order(par_writer *p, jl_memo *m, FILE *out)
{
    pthread_mutex_lock(&p->mu);
    while (!p->failed && p->written < p->nchunks) {
        ring_slot *slot = &p->ring[p->written % RING];
        if (slot->ready) {
            pthread_mutex_unlock(&p->mu);
            int rc = jl_write(&slot->b, out);
            pthread_mutex_lock(&p->mu);
            slot->ready = 0;
            p->written++;
            if (rc < 0)
                p->failed = -1;
            pthread_cond_broadcast(&p->cv);
            continue;
        }
        size_t c = take_chunk(p);
        if (c == SIZE_MAX)
            pthread_cond_wait(&p->cv, &p->mu);
        else
            format_taken(p, m, c);
    }
    int rc = p->failed;
    pthread_mutex_unlock(&p->mu);
    return rc;
}

/* Writes the shapes on `threads` threads (the calling thread one of them).
 * Returns 0, -1 when writing failed, -2 when memory ran out. */
static int write_shapes_parallel(FILE *out, const tlv_shapes *shapes, int radix, int threads)
{
    par_writer p = {.shapes = shapes, .radix = radix, .n = tlv_shapes_count(shapes)};
    p.nchunks = (p.n + CHUNK_SHAPES - 1) / CHUNK_SHAPES;
    writer_thread *w = calloc((size_t)threads, sizeof *w);
    if (!w)
        return -2;
    pthread_mutex_init(&p.mu, NULL);
    pthread_cond_init(&p.cv, NULL);
    for (int i = 1; i < threads; i++) { /* without a thread, fewer of them */
        w[i].p = &p;
        w[i].started = pthread_create(&w[i].thread, NULL, format_main, &w[i]) == 0;
    }
    int rc = write_in_order(&p, &w[0].memo, out);
    pthread_mutex_lock(&p.mu);
    if (!p.failed && rc < 0)
        p.failed = rc;
    pthread_cond_broadcast(&p.cv);
    pthread_mutex_unlock(&p.mu);
    for (int i = 0; i < threads; i++) {
        if (i && w[i].started)
            pthread_join(w[i].thread, NULL);
        jl_memo_free(&w[i].memo);
    }
    for (size_t i = 0; i < RING; i++)
        jl_free(&p.ring[i].b);
    pthread_mutex_destroy(&p.mu);
    pthread_cond_destroy(&p.cv);
    free(w);
    return rc;
}

/* The threads that format the shapes: --threads, else the processors
 * online; 1 when there are too few shapes to share. */
static int writer_threads(const shapes_args *a, size_t n)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    int t = a->c.rules.threads > 0 ? a->c.rules.threads : online > 1 ? (int)online : 1;
    if (n <= CHUNK_SHAPES)
        return 1;
    return t > MAX_WRITERS ? MAX_WRITERS : t;
}

/* Writes the shapes, or the flows with --flows. Returns 0, -1 when writing
 * failed, -2 when memory ran out. */
static int write_shapes(FILE *out, const shapes_args *a, const tlv_trace *trace,
                        const tlv_shapes *shapes, int radix)
{
    size_t n = a->flows ? tlv_shapes_flow_count(shapes) : tlv_shapes_count(shapes);
    if (!a->flows && writer_threads(a, n) > 1)
        return write_shapes_parallel(out, shapes, radix, writer_threads(a, n));
    json_line b = {0};
    jl_memo *m = calloc(1, sizeof *m);
    int rc = m ? 0 : -1;
    b.failed = !m;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (a->flows) {
            tlv_flow_info f;
            tlv_shapes_flow(shapes, i, &f);
            rc = print_flow(out, &b, trace, &f, radix);
        } else {
            tlv_shape_info sh;
            tlv_shapes_get(shapes, i, &sh);
            put_shape(&b, m, &sh, radix);
            rc = b.len >= 1 << 16 ? jl_write(&b, out) : b.failed ? -1 : 0;
        }
    }
    if (rc == 0)
        rc = jl_write(&b, out); /* what was left in the buffer */
    int nomem = b.failed;
    if (m)
        jl_memo_free(m);
    free(m);
    jl_free(&b);
    return nomem ? -2 : rc; /* -2: memory ran out (cmd_shapes reports it) */
}

static int parse_shapes_args(shapes_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    if (parse_common_args("shapes", shapes_help, OPT_OUTPUT | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
                          &a->c, shapes_option, a, argc, argv) < 0 ||
        need_resource_file("shapes", &a->c) < 0 || need_input("shapes", &a->c) < 0)
        return -1;
    return 0;
}

int load_trace(const rule_args *ra, const char *input, tlv_rules **rules, tlv_trace **trace)
{
    *trace = NULL;
    *rules = load_rules(ra);
    if (!*rules)
        return EXIT_USAGE;
    if (tlv_trace_new(*rules, trace) != TLV_OK)
        return report_nomem("converting", input);
    if (reads_standard_form(ra, input))
        tlv_converter_set_standard_form(tlv_trace_converter(*trace), 1);
    if (ra->threads)
        tlv_converter_set_threads(tlv_trace_converter(*trace), ra->threads);
    unmatched_log um;
    if (unmatched_begin(&um, ra, tlv_trace_converter(*trace)) < 0)
        return EXIT_USAGE;
    tlv_status st = tlv_trace_load_file(*trace, input);
    if (st == TLV_ERR_NOMEM) {
        unmatched_end(&um, 0);
        return report_nomem("converting", input);
    }
    if (st == TLV_ERR_IO) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, input, strerror(errno));
        unmatched_end(&um, 0);
        return EXIT_USAGE;
    }
    print_diags(tlv_converter_diags(tlv_trace_converter(*trace)), 20);
    if (unmatched_end(&um, ra->unmatched_path != NULL) < 0) /* no summary line to join */
        return EXIT_USAGE;
    return st != TLV_OK ? EXIT_PARTIAL : EXIT_OK;
}

int load_trace_and_shapes(const rule_args *ra, const char *input, const char *cpu_attribute,
                          int listing_only, tlv_rules **rules, tlv_trace **trace,
                          tlv_shapes **shapes)
{
    *shapes = NULL;
    int rc = load_trace(ra, input, rules, trace);
    if (rc == EXIT_USAGE)
        return rc;
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.cpu_attribute = cpu_attribute;
    o.threads = ra->threads;
    o.listing_only = listing_only;
    tlv_status vs = tlv_shapes_build(*trace, &o, shapes);
    if (vs == TLV_ERR_NOMEM || !*shapes)
        return report_nomem("building the shapes of", input);
    print_diags(tlv_shapes_diags(*shapes), 20);
    return rc == EXIT_PARTIAL || vs != TLV_OK ? EXIT_PARTIAL : EXIT_OK;
}

int cmd_shapes(int argc, char **argv)
{
    shapes_args a;
    if (parse_shapes_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    int rc = load_trace_and_shapes(&a.c.rules, a.c.input, a.c.cpu_attribute, 1, &rules, &trace,
                                   &shapes);
    if (rc != EXIT_USAGE) {
        char *tmp_path;
        FILE *out = open_output(a.c.output, &tmp_path);
        remove_tmp_on_signals(tmp_path);
        if (!out) {
            rc = EXIT_USAGE;
        } else {
            int w = write_shapes(out, &a, trace, shapes, tlv_rules_time_radix(rules));
            if (w == -2)
                report_nomem("writing the shapes of", a.c.input);
            if (w < 0)
                rc = EXIT_USAGE;
            if (close_output(out, a.c.output, tmp_path, rc != EXIT_USAGE) < 0)
                rc = EXIT_USAGE;
        }
    }
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}
