/*
 * view_load.c — getting the viewer's trace: loads the rules, converts the
 * log chunk by chunk into a tlv_trace while a progress bar is drawn in the
 * window (the window stays responsive and can be closed), and builds the
 * shapes — again when per-CPU mode is toggled. Every problem goes to stderr
 * with its file and line, and the first few to a banner in the window; the
 * viewer shows whatever loaded.
 */
#include "view.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define CHUNK (256 * 1024)

/* Keeps the first problems of `d` for the window's banner. */
static void note_diags(view_app *a, const tlv_diags *d)
{
    size_t n = tlv_diags_count(d);
    for (size_t i = 0; i < n; i++) {
        const tlv_diag *g = tlv_diags_get(d, i);
        if (g->severity != TLV_SEV_ERROR)
            continue;
        a->load_errors++;
        if (a->banner_lines < (int)(sizeof a->banner / sizeof *a->banner))
            tlv_diag_format(g, a->banner[a->banner_lines++], sizeof a->banner[0]);
    }
    a->load_errors += tlv_diags_dropped(d);
    a->show_banner = a->banner_lines > 0;
}

/* Handles window events while loading; returns -1 when the window was closed. */
static int pump_events(view_app *a)
{
    SDL_Event e;
    while (SDL_PollEvent(&e))
        if (e.type == SDL_QUIT)
            a->quit = 1;
    return a->quit ? -1 : 0;
}

/* Converts the log into a->trace. Returns TLV_OK, TLV_ERR_CONVERT, or
 * TLV_ERR_IO / TLV_ERR_USAGE (closed) with nothing usable. */
static tlv_status convert(view_app *a, FILE *f, unsigned long long total)
{
    tlv_converter *conv = tlv_trace_converter(a->trace);
    int is_stdin = f == stdin;
    tlv_converter_set_source_name(conv, is_stdin ? "<stdin>" : a->opts.input);
    char *chunk = malloc(CHUNK);
    if (!chunk)
        return TLV_ERR_NOMEM;
    unsigned long long done = 0;
    double last = 0;
    size_t n;
    while ((n = fread(chunk, 1, CHUNK, f)) > 0) {
        tlv_converter_push_bytes(conv, chunk, n);
        done += n;
        double t = now_seconds();
        if (t - last >= 0.05) { /* 20 frames a second is enough for a bar */
            last = t;
            view_draw_progress(a, "Converting", total ? (double)done / (double)total : -1);
            if (pump_events(a) < 0)
                break;
        }
    }
    int failed = ferror(f);
    free(chunk);
    if (failed || a->quit)
        return failed ? TLV_ERR_IO : TLV_ERR_USAGE;
    view_draw_progress(a, "Sorting events", 1);
    return tlv_trace_finish(a->trace);
}

int view_load(view_app *a)
{
    a->rules = load_rules(&a->opts.rules);
    if (!a->rules)
        return EXIT_USAGE;
    a->radix = tlv_rules_time_radix(a->rules);
    a->time_scale = tlv_rules_time_scale(a->rules);
    if (tlv_trace_new(a->rules, &a->trace) != TLV_OK)
        return EXIT_USAGE;
    if (reads_standard_form(&a->opts.rules, a->opts.input))
        tlv_converter_set_standard_form(tlv_trace_converter(a->trace), 1);
    int is_stdin = strcmp(a->opts.input, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(a->opts.input, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, a->opts.input, strerror(errno));
        return EXIT_USAGE;
    }
    struct stat st;
    unsigned long long total = !is_stdin && fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)
                                   ? (unsigned long long)st.st_size : 0;
    tlv_status cs = convert(a, f, total);
    if (!is_stdin)
        fclose(f);
    if (cs == TLV_ERR_IO)
        fprintf(stderr, "%s: cannot read the log '%s': %s\n", prog, a->opts.input, strerror(errno));
    if (cs != TLV_OK && cs != TLV_ERR_CONVERT)
        return EXIT_USAGE;
    const tlv_diags *d = tlv_converter_diags(tlv_trace_converter(a->trace));
    print_diags(d, 20);
    note_diags(a, d);
    if (view_build_shapes(a, a->opts.per_cpu) < 0)
        return EXIT_USAGE;
    return cs == TLV_OK && a->load_errors == 0 ? EXIT_OK : EXIT_PARTIAL;
}

int view_build_shapes(view_app *a, int per_cpu)
{
    view_draw_progress(a, per_cpu ? "Building per-CPU rows" : "Building shapes", -1);
    tlv_shapes_options o = {per_cpu ? a->opts.cpu_attribute : NULL, NULL, NULL, NULL, 0};
    rows_skip_rules(a, &o.skip_rules, &o.n_skip_rules); /* hidden rules */
    tlv_shapes *s = NULL;
    tlv_shapes_build(a->trace, &o, &s);
    if (!s) {
        fprintf(stderr, "%s: out of memory building the shapes\n", prog);
        return -1;
    }
    print_diags(tlv_shapes_diags(s), 20);
    note_diags(a, tlv_shapes_diags(s));
    tlv_shapes_free(a->shapes);
    a->shapes = s;
    a->shapes_gen++;
    a->per_cpu = per_cpu;
    rows_refresh(a);
    tlv_view fit;
    tlv_view_fit(&fit, s, 1 << 20, 1024); /* wide enough that the label is not cut */
    a->label_need = fit.label_width;
    int top = view_max_first_row(a);
    a->nav.first_row = a->nav.first_row > top ? top : a->nav.first_row;
    a->hover.valid = 0;
    view_dirty(a);
    return 0;
}
