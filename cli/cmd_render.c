/*
 * cmd_render.c — `tlv render`: converts a log (or reads a standard-form
 * trace), applies the visualization rules and draws the timeline — row
 * labels, time ruler and every shape — into a PNG image, without a window
 * or display; --rows keeps the rows whose name matches, --row-height sets
 * their height; --texts writes what the frame wrote (labels, ruler ticks,
 * reference, row names) as JSON, the same keys as tlv view's dump-state.
 * Uses only the public API (tlv_view_fit, tlv_render_rgba).
 */
#include "cli/cli.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <png.h>
#include <stdlib.h>
#include <string.h>

static const char render_help[] =
    "usage: tlv render [-R DIR]... -r FILE.res -o OUT.png [--size WxH] [--from T] [--to T]\n"
    "                  [--rows REGEX] [--row-height N] [--per-cpu] [--cpu-attribute NAME]\n"
    "                  [--texts FILE.json] [--absolute-times] [--allow-scripts] [-q] LOG|-\n"
    "\n"
    "Converts LOG with the conversion rules (or reads it as a standard-form trace\n"
    "when the resource file says \"ConvertRules\":[\"\"]), applies the visualization\n"
    "rules, and draws the timeline into a PNG image: one row per resource (labelled\n"
    "with its display name), a time ruler in the trace's TimeScale, and the shapes.\n"
    "No window or display is needed.\n"
    "\n"
    "  -r, -R, --allow-scripts   as for 'tlv convert'\n"
    STD_OPTION_HELP
    UNMATCHED_OPTION_HELP
    CACHE_OPTION_HELP
    "  -o, --output OUT.png      the image to write (required)\n"
    "      --size WxH            image size in pixels (default 1600x900)\n"
    "      --from T, --to T      the time range to show, in trace time units (decimal;\n"
    "                            default the whole trace)\n"
    "      --rows REGEX          draw only the rows whose name (or resource name) matches\n"
    "                            the regular expression (PCRE2), e.g. 'TASK|CPU'\n"
    "      --row-height N        rows N pixels high (4 to 1000; default: the rows share the\n"
    "                            image's height); rows below the image are left out, with a\n"
    "                            note saying how many\n"
    "      --texts FILE.json     also write the texts drawn: labels with their boxes,\n"
    "                            ruler ticks, the ruler's reference, row names\n"
    "                            (the keys of tlv view's dump-state)\n"
    "      --absolute-times      a ruler of absolute times, as the log wrote them, for a\n"
    "                            trace whose times are a clock's (strace, perf: read from\n"
    "                            its start by default; see TimeMode in the reference)\n"
    "      --per-cpu             one row per processor (attribute prcId)\n"
    "      --cpu-attribute NAME  the attribute naming a resource's processor\n"
    THREADS_HELP
    "  -q, --quiet               no summary line\n"
    "\n"
    "Labels with Japanese text need a font with Japanese glyphs (fonts-noto-cjk);\n"
    "without one they are drawn with the plain font and a warning says so. Labels\n"
    "never overlap: where two compete, the longer interval's is drawn and the other\n"
    "is cut with an ellipsis or left out; rows too low for a legible label show none.\n"
    "\n"
    "Exit status: 0 ok; 1 image written, but some lines or rules had errors;\n"
    "2 bad usage, unreadable input, rule files with errors, or the image could not\n"
    "be written.\n";

typedef struct render_args {
    common_args c; /* -R, -r, --allow-scripts, -o, -q, --per-cpu, --cpu-attribute, LOG */
    int width, height;
    int has_from, has_to;
    double from, to;
    const char *rows;      /* --rows REGEX, or NULL */
    int row_height;        /* --row-height, 0 when not given */
    const char *texts;     /* --texts FILE.json, or NULL */
    int absolute_times;    /* --absolute-times */
} render_args;

static int parse_size(const char *s, int *w, int *h)
{
    char x, extra;
    if (sscanf(s, "%d%c%d%c", w, &x, h, &extra) != 3 || (x != 'x' && x != 'X'))
        return -1;
    return *w >= 16 && *h >= 16 && *w <= 16384 && *h <= 16384 ? 0 : -1;
}

static int parse_time(const char *opt, const char *s, double *out)
{
    char *end;
    *out = strtod(s, &end);
    if (end == s || *end || !isfinite(*out)) {
        usage_error("render", "%s needs a time in trace units, got '%s'", opt, s);
        return -1;
    }
    /* Trace times are 64-bit ticks: a range beyond them shows nothing, and
     * one from -1e308 to 1e308 is infinitely wide. */
    if (fabs(*out) > 9223372036854775808.0) {
        usage_error("render", "%s needs a time within the 64-bit range of trace times "
                    "(-9223372036854775808 to 9223372036854775807), got '%s'", opt, s);
        return -1;
    }
    return 0;
}

/* render's own options. */
static int render_option(void *own, int argc, char **argv, int *i)
{
    render_args *a = own;
    const char *s = argv[*i];
    if (strcmp(s, "--absolute-times") == 0) {
        a->absolute_times = 1;
        return 1;
    }
    if (*i + 1 >= argc)
        return 0; /* the others take a value */
    if (strcmp(s, "--size") == 0) {
        if (parse_size(argv[++*i], &a->width, &a->height) < 0) {
            usage_error("render", "--size needs WxH, 16 to 16384 pixels each, got '%s'", argv[*i]);
            return -1;
        }
    } else if (strcmp(s, "--from") == 0) {
        a->has_from = 1;
        return parse_time(s, argv[++*i], &a->from) < 0 ? -1 : 1;
    } else if (strcmp(s, "--to") == 0) {
        a->has_to = 1;
        return parse_time(s, argv[++*i], &a->to) < 0 ? -1 : 1;
    } else if (strcmp(s, "--texts") == 0) {
        a->texts = argv[++*i];
    } else if (strcmp(s, "--rows") == 0) {
        a->rows = argv[++*i];
    } else if (strcmp(s, "--row-height") == 0) {
        char *end;
        long n = strtol(argv[++*i], &end, 10);
        if (end == argv[*i] || *end || n < 4 || n > 1000) {
            usage_error("render", "--row-height needs a number of pixels from 4 to 1000, got '%s'",
                        argv[*i]);
            return -1;
        }
        a->row_height = (int)n;
    } else {
        return 0;
    }
    return 1;
}

/* render's own options: getopt_long's, `tlv completion`'s and the man page's. */
static const cli_option render_own[] = {
    {"size", 0, "WxH"},
    {"from", 0, "T"},
    {"to", 0, "T"},
    {"rows", 0, "REGEX"},
    {"row-height", 0, "PIXELS"},
    {"texts", 0, "FILE"},
    {"absolute-times", 0, NULL},
    {NULL, 0, NULL},
};

const command_options render_options = {
    "render", render_help, NULL,
    OPT_RULES | OPT_UNMATCHED | OPT_CACHE | OPT_OUTPUT | OPT_QUIET | OPT_PER_CPU | OPT_CPU_ATTRIBUTE | OPT_THREADS,
    render_own, render_option, NULL};

static int parse_render_args(render_args *a, int argc, char **argv)
{
    memset(a, 0, sizeof *a);
    a->width = 1600;
    a->height = 900;
    if (parse_options(&render_options, &a->c, a, argc, argv) < 0 ||
        need_resource_file("render", &a->c) < 0)
        return -1;
    if (!a->c.output) {
        usage_error("render", "an output image is needed: -o OUT.png");
        return -1;
    }
    if (need_input("render", &a->c) < 0)
        return -1;
    if (a->has_from && a->has_to && !(a->to > a->from)) {
        usage_error("render", "--to must be later than --from");
        return -1;
    }
    a->c.rules.more_outputs[0] = a->texts; /* refused over an input, like -o */
    a->c.rules.more_output_opts[0] = "--texts";
    return 0;
}

/* Writes the image through open_output (a temporary file renamed when
 * complete), so a failed render or a full disk never leaves a truncated PNG
 * under the final name nor destroys an older one. */
static int write_png(const char *path, const char *input, const uint8_t *pixels, int w, int h)
{
    char *tmp_path;
    FILE *f = open_output(path, &tmp_path);
    if (!f)
        return -1;
    remove_tmp_on_signals(tmp_path);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)w;
    img.height = (png_uint_32)h;
    img.format = PNG_FORMAT_RGBA;
    int ok = png_image_write_to_stdio(&img, f, 0, pixels, w * 4, NULL) != 0;
    int saved_errno = errno;
    if (!ok)
        png_image_free(&img);
    /* close_output reports a failed write (a full disk) itself */
    if (close_output(f, path, tmp_path, ok) < 0)
        return -1;
    if (!ok && (saved_errno == ENOMEM || strstr(img.message, "memory")))
        return report_nomem("writing the image of", input), -1;
    if (!ok) {
        fprintf(stderr, "%s: cannot write '%s': %s (%s)\n", prog, path, img.message,
                strerror(saved_errno));
        return -1;
    }
    return 0;
}

/* Applies --from/--to to the fitted view; keeps the range non-empty when
 * only one end was given and lies beyond the other. */
static void apply_range(tlv_view *v, const render_args *a)
{
    double span = v->t1 - v->t0;
    if (a->has_from)
        v->t0 = a->from;
    if (a->has_to)
        v->t1 = a->to;
    if (!(v->t1 > v->t0)) {
        if (a->has_from)
            v->t1 = v->t0 + span;
        else
            v->t0 = v->t1 - span;
    }
}

/* The rows whose name or resource name matches --rows, into *out (the
 * caller frees it). Returns how many, or -1 after printing why (a bad
 * expression, no row matching, no memory). */
static long select_rows(const char *regex, const char *input, const tlv_shapes *shapes, size_t **out)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)regex, PCRE2_ZERO_TERMINATED, 0, &err, &off, NULL);
    if (!re) {
        char msg[160];
        pcre2_get_error_message(err, (PCRE2_UCHAR *)msg, sizeof msg);
        usage_error("render", "--rows '%s' is not a regular expression: %s at offset %zu", regex,
                    msg, (size_t)off);
        return -1;
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    size_t n = tlv_shapes_row_count(shapes), count = 0;
    *out = malloc((n ? n : 1) * sizeof **out);
    for (size_t i = 0; md && *out && i < n; i++) {
        tlv_row_info row;
        tlv_shapes_row(shapes, i, &row);
        const char *names[2] = {row.label, row.resource};
        for (int k = 0; k < 2; k++)
            if (names[k] && pcre2_match(re, (PCRE2_SPTR)names[k], strlen(names[k]), 0, 0, md, NULL) >= 0) {
                (*out)[count++] = i;
                break;
            }
    }
    int nomem = !md || !*out;
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    if (nomem) {
        report_nomem("choosing the rows of", input);
        return -1;
    }
    if (count == 0) {
        usage_error("render", "no row's name matches --rows '%s' (the trace has %zu rows)", regex, n);
        return -1;
    }
    return (long)count;
}

/* The texts of `kind` the last frame drew: strings, or objects with their
 * boxes. */
static cJSON *texts_json(const tlv_renderer *r, tlv_text_kind kind, int boxes)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t i = 0; arr && i < tlv_renderer_text_count(r, kind); i++) {
        int box[4];
        const char *text = tlv_renderer_text(r, kind, i, box);
        if (!boxes) {
            json_push(arr, cJSON_CreateString(text));
            continue;
        }
        cJSON *o = cJSON_CreateObject();
        json_put(o, "text", cJSON_CreateString(text));
        json_put(o, "x", cJSON_CreateNumber(box[0]));
        json_put(o, "y", cJSON_CreateNumber(box[1]));
        json_put(o, "w", cJSON_CreateNumber(box[2]));
        json_put(o, "h", cJSON_CreateNumber(box[3]));
        json_push(arr, o);
    }
    return arr;
}

/* --texts: what the frame drew, with the view it drew, as JSON. Returns 0
 * or -1 (printed). */
static int write_texts(const char *path, const char *input, const tlv_renderer *r,
                       const tlv_view *v)
{
    cJSON *o = cJSON_CreateObject();
    cJSON *view = cJSON_CreateObject();
    json_put(view, "t0", cJSON_CreateNumber(v->t0));
    json_put(view, "t1", cJSON_CreateNumber(v->t1));
    json_put(view, "width", cJSON_CreateNumber(v->width));
    json_put(view, "height", cJSON_CreateNumber(v->height));
    json_put(o, "view", view);
    json_put(o, "labels", texts_json(r, TLV_TEXT_LABEL, 1));
    json_put(o, "ticks", texts_json(r, TLV_TEXT_TICK, 0));
    const char *ref = tlv_renderer_text(r, TLV_TEXT_REFERENCE, 0, NULL);
    json_put(o, "time_reference", ref ? cJSON_CreateString(ref) : cJSON_CreateNull());
    json_put(o, "row_names", texts_json(r, TLV_TEXT_ROW, 1));
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    if (!text)
        return report_nomem("writing the texts of", input), -1;
    char *tmp_path;
    FILE *f = open_output(path, &tmp_path);
    int ok = f && fprintf(f, "%s\n", text) >= 0;
    cJSON_free(text);
    if (!f)
        return -1;
    return close_output(f, path, tmp_path, ok);
}

/* Draws with r and writes the image. Returns EXIT_OK or EXIT_USAGE. */
static int render_to_png(const render_args *a, tlv_renderer *r, const tlv_shapes *shapes)
{
    tlv_view view;
    tlv_view_fit(&view, shapes, a->width, a->height);
    apply_range(&view, a);
    size_t *rows = NULL;
    if (a->rows) {
        long n = select_rows(a->rows, a->c.input, shapes, &rows);
        if (n < 0) {
            free(rows);
            return EXIT_USAGE;
        }
        view.rows = rows;
        view.row_count = (size_t)n;
    }
    view.row_height = a->row_height;
    tlv_view_layout layout;
    tlv_view_get_layout(&view, shapes, &layout);
    size_t whole = (size_t)((a->height - layout.ruler_height) / (layout.row_height > 0 ? layout.row_height : 1));
    if (layout.row_count > whole && !a->c.quiet)
        fprintf(stderr, "%s: note: %zu of %zu rows do not fit in %d pixels at %d pixels a row "
                "(use --size, --rows or --row-height)\n", prog, layout.row_count - whole,
                layout.row_count, a->height, (int)layout.row_height);
    size_t stride = (size_t)a->width * 4;
    uint8_t *pixels = malloc(stride * (size_t)a->height);
    tlv_status st = pixels ? TLV_OK : TLV_ERR_NOMEM;
    double start = now_seconds();
    if (st == TLV_OK)
        st = tlv_render_rgba(r, shapes, &view, pixels, stride);
    double secs = now_seconds() - start;
    print_diags(tlv_renderer_diags(r), 0);
    int rc = EXIT_OK;
    if (st == TLV_ERR_NOMEM) {
        rc = report_nomem("drawing", a->c.input);
    } else if (st != TLV_OK) {
        fprintf(stderr, "%s: cannot draw the image: %s\n", prog, tlv_status_string(st));
        rc = EXIT_USAGE;
    } else if (write_png(a->c.output, a->c.input, pixels, a->width, a->height) < 0 ||
               (a->texts && write_texts(a->texts, a->c.input, r, &view) < 0)) {
        rc = EXIT_USAGE;
    } else if (!a->c.quiet) {
        fprintf(stderr, "%s: wrote %s (%dx%d, %zu rows, %zu shapes, drawn in %.2f s)\n", prog,
                a->c.output, a->width, a->height, layout.row_count,
                tlv_shapes_count(shapes), secs);
    }
    free(pixels);
    free(rows);
    return rc;
}

int cmd_render(int argc, char **argv)
{
    render_args a;
    if (parse_render_args(&a, argc, argv) < 0)
        return EXIT_USAGE;
    /* The fonts first: fontconfig reads its configuration while memory is
     * plentiful (it does not cope with running out; docs/robustness.md). */
    tlv_renderer *r = NULL;
    if (tlv_renderer_new(&r) != TLV_OK)
        return report_nomem("loading the fonts for", a.c.input);
    tlv_renderer_set_absolute_times(r, a.absolute_times);
    tlv_rules *rules;
    tlv_trace *trace;
    tlv_shapes *shapes;
    int rc = load_trace_and_shapes(&a.c.rules, a.c.input, a.c.cpu_attribute, 0, &rules, &trace,
                                   &shapes); /* drawn: everything */
    if (rc != EXIT_USAGE) {
        int drawn = render_to_png(&a, r, shapes);
        rc = drawn == EXIT_OK ? rc : drawn;
    }
    tlv_renderer_free(r);
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return rc;
}
