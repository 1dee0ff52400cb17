/*
 * draw.c — a small program built against the installed renderer library,
 * libtlv-render: it loads a resource file, converts a log file into a trace,
 * builds the shapes and draws the whole trace into an RGBA buffer, written
 * to standard output as a binary PPM image (P6).
 *
 *   draw [-R RULES_DIR]... FILE.res LOG WIDTH HEIGHT > picture.ppm
 *
 * Build: see README.md in this directory (pkg-config libtlv-render, or CMake
 * tlv::render).
 */
#include <tlv/render.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIRS 16

static void print_diags(const tlv_diags *d)
{
    char text[1024];
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        fprintf(stderr, "%s\n", text);
    }
}

/* RGBA rows to a PPM on standard output (alpha is always 255). */
static int write_ppm(const uint8_t *px, int w, int h)
{
    printf("P6\n%d %d\n255\n", w, h);
    for (size_t i = 0; i < (size_t)w * (size_t)h; i++)
        if (fwrite(px + 4 * i, 1, 3, stdout) != 3)
            return -1;
    return fflush(stdout) == 0 ? 0 : -1;
}

static int draw(const tlv_rules *rules, const char *log, int w, int h)
{
    tlv_trace *trace = NULL;
    tlv_shapes *shapes = NULL;
    tlv_renderer *r = NULL;
    uint8_t *px = malloc((size_t)w * (size_t)h * 4);
    int rc = 1;
    if (!px || tlv_trace_new(rules, &trace) != TLV_OK)
        goto out;
    tlv_status st = tlv_trace_load_file(trace, log);
    print_diags(tlv_converter_diags(tlv_trace_converter(trace)));
    if (st != TLV_OK)
        goto out;
    st = tlv_shapes_build(trace, NULL, &shapes);
    print_diags(tlv_shapes_diags(shapes));
    if (st != TLV_OK || tlv_renderer_new(&r) != TLV_OK)
        goto out;
    tlv_view view;
    tlv_view_fit(&view, shapes, w, h);
    st = tlv_render_rgba(r, shapes, &view, px, (size_t)w * 4);
    if (st != TLV_OK) {
        fprintf(stderr, "draw: %s\n", tlv_status_string(st));
        goto out;
    }
    rc = write_ppm(px, w, h) == 0 ? 0 : 1;
out:
    tlv_renderer_free(r);
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    free(px);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dirs[MAX_DIRS], *args[4];
    size_t ndirs = 0, nargs = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-R") == 0 && i + 1 < argc && ndirs < MAX_DIRS)
            dirs[ndirs++] = argv[++i];
        else if (nargs < 4)
            args[nargs++] = argv[i];
    }
    int w = nargs == 4 ? atoi(args[2]) : 0, h = nargs == 4 ? atoi(args[3]) : 0;
    if (w <= 0 || h <= 0 || w > 10000 || h > 10000) {
        fprintf(stderr, "usage: draw [-R RULES_DIR]... FILE.res LOG WIDTH HEIGHT > out.ppm\n");
        return 2;
    }
    tlv_rules_options opts;
    tlv_rules_options_init(&opts);
    opts.search_dirs = dirs;
    opts.n_search_dirs = ndirs;
    tlv_rules *rules = NULL;
    tlv_status st = tlv_rules_load(args[0], &opts, &rules);
    print_diags(tlv_rules_diags(rules));
    int rc = st == TLV_OK ? draw(rules, args[1], w, h) : 2;
    tlv_rules_free(rules);
    return rc;
}
