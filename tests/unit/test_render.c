/*
 * test_render.c — the headless renderer: time text on the ruler, the view's
 * pixel mapping and public layout (rows at a pixel), and pixels of frames drawn from hand-made shapes (a
 * translucent rectangle blended over its row, a red line, an arrow with a
 * head, a pie in the right quadrant, an ellipse, a concave polygon, a dashed
 * line with gaps, text in labels, cells and ruler), a caller's row list (hidden,
 * reordered and blank bands), the per-column summary of a row of 100,000
 * shapes, and the font fallbacks (no Japanese font, no font at all) through
 * private fontconfig configurations.
 */
#include "check.h"
#include "base/json.h"
#include "render/render_impl.h"
#include "viz/viz_impl.h"

#include <math.h>
#include <png.h>
#include <stdint.h>
#include <unistd.h>

/* ---- building shapes by hand ---------------------------------------------- */

typedef struct spec {
    uint32_t row;
    long from, to;
    const char *json;     /* one primitive */
} spec;

static void add_prim(struct tlv_shapes *s, const char *json)
{
    tj_error err;
    tj_node *n = tj_parse(json, strlen(json), &err);
    char msg[256] = "";
    CHECK(n != NULL);
    if (GROW(s->prims, s->prims_cap, s->nprims + 1) < 0)
        abort();
    int rc = prim_parse(n, NULL, 0, &s->prims[s->nprims], msg, sizeof msg);
    if (rc != 0)
        fprintf(stderr, "prim_parse(%s): %s\n", json, msg);
    CHECK(rc == 0);
    s->nprims++;
    tj_free(n);
}

static void add_row(struct tlv_shapes *s, const char *label, const char *group)
{
    if (GROW(s->rows, s->rows_cap, s->nrows + 1) < 0)
        abort();
    row_def *r = &s->rows[s->nrows++];
    r->label = xstrdup(label);
    r->resource = NULL;
    r->group = group ? xstrdup(group) : NULL;
}

static void add_shape(struct tlv_shapes *s, uint32_t row, long from, long to, uint32_t prim,
                      uint32_t order)
{
    shape sh = {{from, 0}, {to, 0}, row, prim, 0, 0, UINT32_MAX, order};
    CHECK(store_add(s->store, &sh) == 0);
}

static void freeze(struct tlv_shapes *s)
{
    CHECK(summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks) == 0);
}

static struct tlv_shapes *new_shapes(long start, long end)
{
    struct tlv_shapes *s = calloc(1, sizeof *s);
    s->radix = 10;
    s->time_scale = "us";
    s->start.ticks = start;
    s->end.ticks = end;
    s->store = store_new();
    return s;
}

static void free_shapes(struct tlv_shapes *s)
{
    for (size_t i = 0; i < s->nprims; i++)
        prim_free(&s->prims[i]);
    free(s->prims);
    for (size_t i = 0; i < s->nrows; i++) {
        free(s->rows[i].label);
        free(s->rows[i].group);
    }
    free(s->rows);
    store_free(s->store);
    summary_looks_free(&s->looks);
    free(s);
}

/* The main scene, 300 us long: see the checks in test_scene. */
static struct tlv_shapes *scene(const char *label0)
{
    static const spec specs[] = {
        {0, 100, 200, "{\"Type\":\"Rectangle\",\"Fill\":\"6600ff00\",\"Pen\":{\"Color\":\"ff00ff00\"}}"},
        {1, 0, 300, "{\"Type\":\"Line\",\"Points\":[\"0,40%\",\"100%,40%\"],\"Pen\":{\"Color\":\"ff0000\"}}"},
        {0, 220, 300, "{\"Type\":\"Text\",\"Text\":\"hello\",\"Font\":{\"Size\":12}}"},
        {1, 0, 60, "{\"Type\":\"Arrow\",\"Points\":[\"0,70%\",\"100%,70%\"],"
                   "\"Pen\":{\"Color\":\"0000ff\",\"Width\":3}}"},
        {1, 200, 300, "{\"Type\":\"Pie\",\"Location\":\"10px,10px\",\"Size\":\"60px,60px\","
                      "\"Arc\":[0,90],\"Fill\":\"0000ff\",\"Pen\":{\"Alpha\":0}}"},
        {0, 0, 80, "{\"Type\":\"Line\",\"Points\":[\"0,90%\",\"100%,90%\"],"
                   "\"Pen\":{\"Color\":\"800080\",\"DashStyle\":\"Dash\"}}"},
        {0, 20, 60, "{\"Type\":\"Ellipse\",\"Size\":\"100%,50%\",\"Fill\":\"ffff00\","
                    "\"Pen\":{\"Alpha\":0}}"},
        {1, 160, 200, "{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"100%,50%\",\"0,100%\","
                      "\"50%,50%\"],\"Fill\":\"00ffff\",\"Pen\":{\"Alpha\":0}}"},
        {1, 80, 140, "{\"Type\":\"Text\",\"Size\":\"100%,30%\",\"Text\":\"a text far too long "
                     "for its box\",\"Font\":{\"Size\":12,\"Align\":\"TopLeft\"}}"},
    };
    struct tlv_shapes *s = new_shapes(0, 300);
    add_row(s, label0, "Task");
    add_row(s, "Line row", "Task");
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        add_prim(s, specs[i].json);
        add_shape(s, specs[i].row, specs[i].from, specs[i].to, (uint32_t)i, (uint32_t)i);
    }
    freeze(s);
    return s;
}

/* ---- pixels ------------------------------------------------------------------ */

typedef struct image {
    int w, h;
    uint8_t *px;
} image;

static const uint8_t *at(const image *im, int x, int y) { return im->px + ((size_t)y * im->w + x) * 4; }

static int near(int a, int b) { return abs(a - b) <= 2; }

static int is_rgb(const image *im, int x, int y, int r, int g, int b)
{
    const uint8_t *p = at(im, x, y);
    return near(p[0], r) && near(p[1], g) && near(p[2], b) && p[3] == 255;
}

#define CHECK_RGB(im, x, y, r, g, b)                                                           \
    do {                                                                                       \
        const uint8_t *p_ = at(im, x, y);                                                      \
        if (!is_rgb(im, x, y, r, g, b)) {                                                      \
            fprintf(stderr, "%s:%d: pixel (%d,%d) is %d,%d,%d,%d, expected %d,%d,%d\n",        \
                    __FILE__, __LINE__, x, y, p_[0], p_[1], p_[2], p_[3], r, g, b);            \
            check_failures++;                                                                  \
        }                                                                                      \
    } while (0)

/* Pixels in [x0,x1) x [y0,y1) for which pred holds. */
static int count_if(const image *im, int x0, int y0, int x1, int y1,
                    int (*pred)(const uint8_t *p, const void *arg), const void *arg)
{
    int n = 0;
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++)
            n += pred(at(im, x, y), arg);
    return n;
}

static int dark(const uint8_t *p, const void *arg)
{
    (void)arg;
    return p[0] < 110 && p[1] < 110 && p[2] < 110;
}

static int same_rgb(const uint8_t *p, const void *arg)
{
    const uint8_t *c = arg;
    return near(p[0], c[0]) && near(p[1], c[1]) && near(p[2], c[2]);
}

/* With TLV_TEST_PNG_DIR set, each frame is also saved there, to look at. */
static void save(const image *im)
{
    static int n;
    const char *dir = getenv("TLV_TEST_PNG_DIR");
    if (!dir)
        return;
    char path[512];
    snprintf(path, sizeof path, "%s/render-%d.png", dir, n++);
    png_image img;
    memset(&img, 0, sizeof img);
    img.version = PNG_IMAGE_VERSION;
    img.width = (png_uint_32)im->w;
    img.height = (png_uint_32)im->h;
    img.format = PNG_FORMAT_RGBA;
    if (!png_image_write_to_file(&img, path, 0, im->px, im->w * 4, NULL))
        fprintf(stderr, "cannot save %s: %s\n", path, img.message);
}

static int render(tlv_renderer *r, const struct tlv_shapes *s, const tlv_view *v, image *im)
{
    im->w = v->width;
    im->h = v->height;
    im->px = malloc((size_t)im->w * im->h * 4);
    memset(im->px, 0x5a, (size_t)im->w * im->h * 4); /* garbage: every pixel must be drawn */
    int rc = tlv_render_rgba(r, s, v, im->px, (size_t)im->w * 4);
    save(im);
    return rc;
}

/* A fixed view: labels 200 px, ruler 40 px, rows 80 px, 2 px per us. */
static tlv_view fixed_view(double t0, double t1)
{
    tlv_view v = {sizeof(tlv_view), t0, t1, 800, 200, 200, 40, 80, 0, 1, NULL, 0};
    return v;
}

static int has_warning(const tlv_renderer *r, const char *part)
{
    const tlv_diags *d = tlv_renderer_diags(r);
    for (size_t i = 0; i < tlv_diags_count(d); i++)
        if (strstr(tlv_diags_get(d, i)->message, part))
            return 1;
    return 0;
}

/* ---- the tests ------------------------------------------------------------------ */

static void test_format_time(void)
{
    char b[64];
    CHECK_STR(render_format_time(1250, 0, "us", b, sizeof b), "1.25 ms");
    CHECK_STR(render_format_time(1300, 50, "us", b, sizeof b), "1.3 ms");
    CHECK_STR(render_format_time(0, 50, "us", b, sizeof b), "0 us");
    CHECK_STR(render_format_time(250, 50, "us", b, sizeof b), "250 us");
    CHECK_STR(render_format_time(2.5e9, 0, "ns", b, sizeof b), "2.5 s");
    CHECK_STR(render_format_time(123, 1, "ms", b, sizeof b), "123 ms");
    CHECK_STR(render_format_time(90, 10, "s", b, sizeof b), "90 s");
    CHECK_STR(render_format_time(150, 0, "10ns", b, sizeof b), "1.5 us");
    CHECK_STR(render_format_time(1500, 0, "cycles", b, sizeof b), "1.5k cycles");
    CHECK_STR(render_format_time(500, 100, "cycles", b, sizeof b), "500 cycles");
    CHECK_STR(render_format_time(2e6, 1e6, "cycles", b, sizeof b), "2M cycles");
    CHECK_STR(render_format_time(1000001, 1, "us", b, sizeof b), "1.000001 s");
    CHECK_STR(render_format_time(-500, 100, "us", b, sizeof b), "-500 us");
    CHECK_STR(render_format_time(42, 1, NULL, b, sizeof b), "42");
}

static void test_view_math(void)
{
    tlv_view v = fixed_view(0, 300);
    CHECK(fabs(tlv_view_x(&v, 0) - 200) < 1e-9);
    CHECK(fabs(tlv_view_x(&v, 150) - 500) < 1e-9);
    CHECK(fabs(tlv_view_time(&v, 500) - 150) < 1e-9);
    render_layout l;
    render_layout_of(&v, 2, &l);
    CHECK_INT(l.label_w, 200);
    CHECK_INT(l.ruler_h, 40);
    CHECK_INT(l.end_row, 2);
    CHECK_INT(render_row_at(&l, 10), -1);
    CHECK_INT(render_row_at(&l, 45), 0);
    CHECK_INT(render_row_at(&l, 130), 1);
    v.row_height = 0; /* fit: 160 px for 2 rows */
    render_layout_of(&v, 2, &l);
    CHECK(fabs(l.row_h - 80) < 1e-9);

    struct tlv_shapes *s = scene("Task1");
    tlv_view f;
    tlv_view_fit(&f, s, 1600, 900);
    CHECK(f.t0 == 0 && f.t1 == 300);
    CHECK(f.label_width >= 60 && f.label_width <= 1600 / 3);
    CHECK_INT(f.width, 1600);
    free_shapes(s);
}

/* The public layout and hit-testing agree with the frame's own layout. */
static void test_public_layout(void)
{
    struct tlv_shapes *s = scene("Task1");
    size_t nrows = s->nrows;
    tlv_view v = fixed_view(0, 300);
    tlv_view_layout pl;
    tlv_view_get_layout(&v, s, &pl);
    CHECK_INT(pl.label_width, 200);
    CHECK_INT(pl.ruler_height, 40);
    CHECK(fabs(pl.row_height - 80) < 1e-9);
    CHECK_INT(pl.row_count, nrows);
    CHECK_INT(pl.first_row, 0);
    CHECK_INT(pl.end_row, nrows < 2 ? nrows : 2);
    CHECK_INT(tlv_view_row_at(&v, s, 10), -1);
    CHECK_INT(tlv_view_row_at(&v, s, 45), 0);
    CHECK_INT(tlv_view_row_at(&v, s, 40 + 80.0 * (double)nrows), -1);
    v.first_row = 1; /* scrolled by a row: the top band is row 1 */
    tlv_view_get_layout(&v, s, &pl);
    CHECK_INT(pl.first_row, 1);
    CHECK_INT(tlv_view_row_at(&v, s, 45), nrows > 1 ? 1 : -1);
    tlv_view_get_layout(&v, NULL, &pl);
    CHECK_INT(pl.row_count, 0);
    CHECK_INT(pl.end_row, 0);
    CHECK_INT(tlv_view_row_at(&v, NULL, 45), -1);
    free_shapes(s);

    char b[64], tiny[4];
    CHECK_STR(tlv_view_time_text(1250, 0, "us", b, sizeof b), "1.25 ms");
    CHECK_STR(tlv_view_time_text(1500, 0, "cycles", b, sizeof b), "1.5k cycles");
    CHECK_STR(tlv_view_time_text(1250, 0, "us", tiny, sizeof tiny), "1.2");
    CHECK(tlv_view_time_text(1, 0, "us", NULL, 8) == NULL);
}

static void test_scene(void)
{
    struct tlv_shapes *s = scene("Task1");
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    tlv_view v = fixed_view(0, 300);
    image im;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    /* row 0 is y 40..119 on white, row 1 y 120..199 on the alternate band;
     * time t is at x = 200 + 2t; ticks every 50 us (x = 200, 300, ...) */
    const int ar = 0xF3, ag = 0xF4, ab = 0xF6;
    /* the rectangle [100,200] us: x 400..600; 0x66 green over white */
    int a = 0x66, blend = 255 - (255 * a + 127) / 255;
    CHECK_RGB(&im, 457, 80, blend, 255, blend);
    CHECK_RGB(&im, 557, 60, blend, 255, blend);
    CHECK_RGB(&im, 400, 80, 0, 255, 0); /* its pen: the left edge */
    CHECK_RGB(&im, 397, 80, 255, 255, 255);
    CHECK_RGB(&im, 603, 80, 255, 255, 255);
    /* the red line at 40% of row 1: y = 152, all along */
    CHECK_RGB(&im, 333, 152, 255, 0, 0);
    CHECK_RGB(&im, 777, 152, 255, 0, 0);
    CHECK_RGB(&im, 333, 150, ar, ag, ab);
    CHECK_RGB(&im, 333, 154, ar, ag, ab);
    /* the arrow [0,60] us at 70%: a 3 px shaft at y = 176, a head ending at x = 320 */
    static const uint8_t blue[3] = {0, 0, 255};
    CHECK_RGB(&im, 250, 176, 0, 0, 255);
    int shaft = count_if(&im, 260, 166, 261, 187, same_rgb, blue);
    int head = count_if(&im, 316, 166, 317, 187, same_rgb, blue);
    CHECK_INT(shaft, 3);
    CHECK(head > shaft);
    CHECK_RGB(&im, 323, 176, ar, ag, ab);
    /* the pie: centre (640,160), radius 30, 0..90 degrees clockwise = lower right */
    CHECK_RGB(&im, 652, 172, 0, 0, 255);
    CHECK_RGB(&im, 652, 146, ar, ag, ab);
    CHECK_RGB(&im, 628, 172, ar, ag, ab);
    CHECK_RGB(&im, 628, 146, ar, ag, ab);
    /* the ellipse [20,60] in the top half of row 0: centre (280,60), radii 40 x 20 */
    CHECK_RGB(&im, 280, 60, 255, 255, 0);
    CHECK_RGB(&im, 315, 60, 255, 255, 0);
    CHECK_RGB(&im, 245, 45, 255, 255, 255);
    CHECK_RGB(&im, 280, 84, 255, 255, 255);
    /* the concave polygon [160,200] on row 1: (520,120) (600,160) (520,200)
     * (560,160); the notch left of (560,160) stays empty */
    CHECK_RGB(&im, 590, 160, 0, 255, 255);
    CHECK_RGB(&im, 545, 139, 0, 255, 255);
    CHECK_RGB(&im, 545, 181, 0, 255, 255);
    CHECK_RGB(&im, 530, 160, ar, ag, ab);
    /* the dashed line [0,80] at 90% of row 0 (y = 112): 3 on, 1 off */
    static const uint8_t purple[3] = {0x80, 0, 0x80};
    int on = count_if(&im, 210, 112, 250, 113, same_rgb, purple);
    CHECK(on >= 26 && on <= 34);
    CHECK(count_if(&im, 210, 110, 250, 111, same_rgb, purple) == 0);
    /* the ruler: its background, bottom edge, a major and a minor tick */
    CHECK_RGB(&im, 290, 20, 0xF0, 0xF0, 0xF0);
    CHECK_RGB(&im, 290, 39, 0x90, 0x90, 0x90);
    CHECK_RGB(&im, 300, 34, 0x60, 0x60, 0x60);
    CHECK_RGB(&im, 320, 37, 0x60, 0x60, 0x60);
    CHECK_RGB(&im, 320, 34, 0xF0, 0xF0, 0xF0);
    /* background away from shapes and grid lines */
    CHECK_RGB(&im, 237, 60, 255, 255, 255);
    CHECK_RGB(&im, 777, 190, ar, ag, ab);
    CHECK_INT(count_if(&im, 0, 0, 800, 200, dark, NULL) > 0, 1);
    if (has_warning(r, "no font found")) {
        printf("NOTE: no font found through fontconfig: text pixels not checked\n");
    } else {
        CHECK(count_if(&im, 0, 40, 200, 120, dark, NULL) > 10);   /* label "Task1" */
        CHECK(count_if(&im, 0, 120, 200, 200, dark, NULL) > 10);  /* label "Line row" */
        CHECK(count_if(&im, 640, 40, 800, 120, dark, NULL) > 10); /* text "hello" */
        CHECK(count_if(&im, 200, 0, 800, 40, dark, NULL) > 10);   /* ruler values */
        /* the long text [80,140] in x 360..480, y 120..144: cut, not spilt */
        CHECK(count_if(&im, 360, 120, 480, 144, dark, NULL) > 10);
        CHECK(count_if(&im, 360, 120, 366, 144, dark, NULL) > 0); /* aligned left */
        CHECK_INT(count_if(&im, 480, 120, 520, 200, dark, NULL), 0);
        CHECK_INT(count_if(&im, 360, 144, 480, 200, dark, NULL), 0);
        CHECK_INT(tlv_diags_count(tlv_renderer_diags(r)), 0);
    }
    free(im.px);
    /* the same renderer again (caches in use), zoomed into the rectangle:
     * it reaches beyond both edges and is cut to the view, still blended */
    v = fixed_view(120, 180);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 207, 80, blend, 255, blend);
    CHECK_RGB(&im, 457, 80, blend, 255, blend);
    CHECK_RGB(&im, 797, 80, blend, 255, blend);
    free(im.px);
    /* zoomed a million times: the rectangle spans 10^8 px and is still exact */
    v = fixed_view(150, 150.0006);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 457, 80, blend, 255, blend);
    free(im.px);
    /* HiDPI: twice the pens and fonts, same layout */
    v = fixed_view(0, 300);
    v.scale = 2;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 457, 80, blend, 255, blend);
    CHECK_RGB(&im, 333, 152, 255, 0, 0);
    CHECK_RGB(&im, 333, 151, 255, 0, 0); /* a 2 px line now: rows 151 and 152 */
    CHECK_RGB(&im, 333, 154, ar, ag, ab);
    free(im.px);
    /* bad views are refused */
    v = fixed_view(5, 5);
    uint8_t px[16];
    CHECK(tlv_render_rgba(r, s, &v, px, 4) == TLV_ERR_USAGE);
    tlv_renderer_free(r);
    free_shapes(s);
}

/* A caller's row list (tlv_view.rows): hidden rows are not drawn and the
 * rows below move up, rows can be reordered, blank bands stay empty, and
 * the layout and hit-testing count positions in the list. */
static void test_row_list(void)
{
    struct tlv_shapes *s = scene("Task1");
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    const int ar = 0xF3, ag = 0xF4, ab = 0xF6;
    int a = 0x66;
    image im;
    /* row 0 hidden: row 1 (the red line at 40%) moves up into band 0 */
    static const size_t only1[] = {1};
    tlv_view v = fixed_view(0, 300);
    v.rows = only1;
    v.row_count = 1;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 333, 72, 255, 0, 0);       /* 40 + 40% of 80 */
    CHECK_RGB(&im, 333, 152, 255, 255, 255);  /* nothing below the last band */
    CHECK_RGB(&im, 457, 80, 255, 255, 255);   /* row 0's rectangle is gone */
    CHECK_RGB(&im, 280, 60, 255, 255, 255);   /* and its ellipse */
    free(im.px);
    tlv_view_layout pl;
    tlv_view_get_layout(&v, s, &pl);
    CHECK_INT(pl.row_count, 1);
    CHECK_INT(pl.end_row, 1);
    CHECK_INT(tlv_view_row_at(&v, s, 45), 1);
    CHECK_INT(tlv_view_row_at(&v, s, 130), -1);
    v.row_height = 0; /* fit: the one listed row takes the whole height */
    tlv_view_get_layout(&v, s, &pl);
    CHECK(fabs(pl.row_height - 160) < 1e-9);
    /* reordered: row 1 on top, row 0 below it on the alternate band */
    static const size_t swapped[] = {1, 0};
    v = fixed_view(0, 300);
    v.rows = swapped;
    v.row_count = 2;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 333, 72, 255, 0, 0);
    CHECK_RGB(&im, 333, 152, ar, ag, ab);
    /* 0x66 green over the alternate band */
    CHECK_RGB(&im, 457, 160, ((255 - a) * ar + 127) / 255, (a * 255 + (255 - a) * ag + 127) / 255,
              ((255 - a) * ab + 127) / 255);
    CHECK_RGB(&im, 457, 80, 255, 255, 255);
    free(im.px);
    CHECK_INT(tlv_view_row_at(&v, s, 45), 1);
    CHECK_INT(tlv_view_row_at(&v, s, 130), 0);
    v.first_row = 1; /* scrolled by one band: row 0 is on top */
    tlv_view_get_layout(&v, s, &pl);
    CHECK_INT(pl.first_row, 1);
    CHECK_INT(tlv_view_row_at(&v, s, 45), 0);
    /* a blank band: no label, no shapes, the band's background */
    static const size_t blank0[] = {TLV_VIEW_ROW_BLANK, 0};
    v = fixed_view(0, 300);
    v.rows = blank0;
    v.row_count = 2;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 333, 72, 255, 255, 255);
    CHECK_RGB(&im, 457, 80, 255, 255, 255);
    CHECK_RGB(&im, 280, 140, 255, 255, 0);    /* row 0's ellipse, one band down */
    if (!has_warning(r, "no font found")) {
        CHECK_INT(count_if(&im, 0, 40, 199, 120, dark, NULL), 0); /* no label */
        CHECK(count_if(&im, 0, 120, 199, 200, dark, NULL) > 10);  /* "Task1" */
    }
    free(im.px);
    CHECK_INT(tlv_view_row_at(&v, s, 45), -1);
    CHECK_INT(tlv_view_row_at(&v, s, 130), 0);
    /* nothing listed: an empty timeline, still drawn */
    v.row_count = 0;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK_RGB(&im, 280, 140, 255, 255, 255);
    free(im.px);
    /* an entry that is not a row is refused */
    static const size_t bad[] = {0, 2};
    v.rows = bad;
    v.row_count = 2;
    uint8_t px[800 * 200 * 4];
    CHECK(tlv_render_rgba(r, s, &v, px, 800 * 4) == TLV_ERR_USAGE);
    tlv_renderer_free(r);
    free_shapes(s);
}

/* No Pen, no outline (TLV 2.0.1's Shape.cs strokes only a given pen): closed
 * shapes without a Pen are their fill alone, edges included; an empty Pen
 * object is a black 1 px outline. */
static void test_no_pen_no_outline(void)
{
    static const spec specs[] = {
        {0, 0, 50, "{\"Type\":\"Rectangle\",\"Fill\":\"ff0000\"}"},
        {0, 60, 110, "{\"Type\":\"Ellipse\",\"Fill\":\"00ff00\"}"},
        {0, 120, 170, "{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"100%,50%\",\"0,100%\"],"
                      "\"Fill\":\"0000ff\"}"},
        {0, 180, 230, "{\"Type\":\"Pie\",\"Arc\":[0,270],\"Fill\":\"ffff00\"}"},
        {0, 250, 300, "{\"Type\":\"Rectangle\",\"Fill\":\"ff0000\",\"Pen\":{}}"},
    };
    struct tlv_shapes *s = new_shapes(0, 300);
    add_row(s, "Fills", NULL);
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        add_prim(s, specs[i].json);
        add_shape(s, specs[i].row, specs[i].from, specs[i].to, (uint32_t)i, (uint32_t)i);
    }
    freeze(s);
    for (size_t i = 0; i + 1 < sizeof specs / sizeof *specs; i++)
        CHECK_INT(s->prims[i].has_pen, 0);
    CHECK_INT(s->prims[4].has_pen, 1);
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    tlv_view v = fixed_view(0, 300);
    image im;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    /* the row is y 40..119, time t at x = 200 + 2t */
    CHECK_RGB(&im, 200, 80, 255, 0, 0);  /* the first rectangle's left edge: red */
    CHECK_RGB(&im, 250, 40, 255, 0, 0);  /* its top edge */
    CHECK_RGB(&im, 299, 118, 255, 0, 0); /* its bottom right corner */
    CHECK_INT(count_if(&im, 200, 40, 690, 120, dark, NULL), 0);
    CHECK_RGB(&im, 700, 80, 0, 0, 0);    /* the Pen:{} rectangle: black left edge */
    CHECK_RGB(&im, 750, 80, 255, 0, 0);
    /* its outline: left, top and bottom edges (the right one is off the image) */
    CHECK(count_if(&im, 690, 40, 800, 120, dark, NULL) > 150);
    free(im.px);
    tlv_renderer_free(r);
    free_shapes(s);
}

/* A row with 100,000 one-microsecond rectangles, black-outlined orange. */
static struct tlv_shapes *crowded(void)
{
    struct tlv_shapes *s = new_shapes(0, 100000);
    add_row(s, "Busy", NULL);
    add_prim(s, "{\"Type\":\"Rectangle\",\"Fill\":\"ff8000\",\"Pen\":{\"Color\":\"000000\"}}");
    for (long i = 0; i < 100000; i++)
        add_shape(s, 0, i, i + 1, 0, (uint32_t)i);
    freeze(s);
    return s;
}

static void test_summary(void)
{
    struct tlv_shapes *s = crowded();
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    tlv_view v = fixed_view(0, 100000);
    v.height = 120;
    image im;
    static const uint8_t orange[3] = {0xFF, 0x80, 0};
    CHECK(render(r, s, &v, &im) == TLV_OK);
    /* drawn from the summary: orange columns, none of the 100,000 outlines */
    int n = count_if(&im, 200, 50, 800, 110, same_rgb, orange);
    CHECK(n > 600 * 60 / 2);
    CHECK_INT(count_if(&im, 200, 50, 800, 110, dark, NULL), 0);
    free(im.px);
    /* zoomed in to 100 shapes: drawn one by one, outlines and all */
    v = fixed_view(0, 100);
    v.height = 120;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    CHECK(count_if(&im, 200, 50, 800, 110, dark, NULL) > 1000);
    CHECK(count_if(&im, 200, 50, 800, 110, same_rgb, orange) > 1000);
    free(im.px);
    tlv_renderer_free(r);
    free_shapes(s);
}

/* A dense row like a recorded server's (samples/linux): a lifeline along
 * the bottom, 4,000 short system calls, and 20 signals, each a When shape
 * whose area runs to the next one and draws a 6 px flag, a dotted line and
 * a text at its start. */
static struct tlv_shapes *server_row(void)
{
    struct tlv_shapes *s = new_shapes(0, 100000);
    add_row(s, "server", NULL);
    add_prim(s, "{\"Type\":\"Line\",\"Points\":[\"l(0),90%\",\"r(0),90%\"],"
                "\"Pen\":{\"Color\":\"ff888888\"}}");
    add_prim(s, "{\"Type\":\"Rectangle\",\"Location\":\"0,10%\",\"Size\":\"100%,70%\","
                "\"Fill\":\"ff4477cc\",\"Pen\":{\"Color\":\"ff4477cc\"}}");
    add_prim(s, "{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"6px,0\",\"0,8px\"],"
                "\"Fill\":\"ffff8800\",\"Pen\":{\"Color\":\"ffaa5500\"}}");
    add_prim(s, "{\"Type\":\"Line\",\"Points\":[\"0,0\",\"0,100%\"],"
                "\"Pen\":{\"Color\":\"ffff8800\",\"Width\":2,\"DashStyle\":\"Dot\"}}");
    add_prim(s, "{\"Type\":\"Text\",\"Location\":\"8px,0\",\"Size\":\"140px,35%\","
                "\"Text\":\"SIGCHLD\",\"Font\":{\"Size\":7,\"Align\":\"TopLeft\"}}");
    uint32_t order = 0;
    add_shape(s, 0, 0, 100000, 0, order++);
    for (long i = 0; i < 4000; i++) { /* 10 us calls, 25 us apart */
        long t = i * 25;
        add_shape(s, 0, t, t + 10, 1, order++);
    }
    for (long i = 0; i < 20; i++) {
        long t = 2500 + i * 5000, next = i + 1 < 20 ? t + 5000 : 100000;
        for (uint32_t p = 2; p <= 4; p++)
            add_shape(s, 0, t, next, p, order++);
    }
    freeze(s);
    return s;
}

/* Pixels of the row per colour, 4 bits a channel (4096 bins). */
static void histogram(const image *im, int x0, int y0, int x1, int y1, int *bins)
{
    memset(bins, 0, 4096 * sizeof *bins);
    for (int y = y0; y < y1; y++)
        for (int x = x0; x < x1; x++) {
            const uint8_t *p = at(im, x, y);
            bins[(p[0] >> 4) << 8 | (p[1] >> 4) << 4 | p[2] >> 4]++;
        }
}

static int orange(const uint8_t *p, const void *arg)
{
    (void)arg;
    return p[0] > 200 && p[1] > 100 && p[1] < 170 && p[2] < 80;
}

/* The summary of a row draws what its shapes would at that scale: the same
 * view drawn from the summary and shape by shape gives nearly the same
 * colours (a 6 px flag at the start of an area stays a flag, not a bar over
 * the whole area; a line stays a line; a text draws nothing). */
static void test_summary_tells_the_truth(void)
{
    struct tlv_shapes *s = server_row();
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    tlv_view v = fixed_view(0, 100000); /* 600 px for 4,061 shapes: dense */
    v.height = 120;
    CHECK(store_count_overlapping(s->store, 0, (tlv_time){0, 0}, (tlv_time){100000, 0}) >
          2 * 600);
    image detailed, summary;
    render_set_rows(r, RENDER_ROWS_DETAILED);
    CHECK(render(r, s, &v, &detailed) == TLV_OK);
    render_set_rows(r, RENDER_ROWS_SUMMARY);
    CHECK(render(r, s, &v, &summary) == TLV_OK);
    render_set_rows(r, RENDER_ROWS_AUTO);
    image automatic;
    CHECK(render(r, s, &v, &automatic) == TLV_OK); /* and the default is the summary */
    CHECK(memcmp(automatic.px, summary.px, (size_t)v.width * v.height * 4) == 0);
    static int hd[4096], hs[4096];
    histogram(&detailed, 200, 40, 800, 120, hd);
    histogram(&summary, 200, 40, 800, 120, hs);
    long differ = 0, total = 600 * 80;
    for (int i = 0; i < 4096; i++)
        differ += labs((long)hd[i] - hs[i]);
    differ /= 2; /* pixels that would have to change colour */
    fprintf(stderr, "summary vs detailed: %ld of %ld pixels differ in colour\n", differ, total);
    CHECK(differ * 10 < total);
    /* the flags: as few orange pixels as shape by shape, give or take */
    int od = count_if(&detailed, 200, 40, 800, 120, orange, NULL);
    int os = count_if(&summary, 200, 40, 800, 120, orange, NULL);
    fprintf(stderr, "orange pixels: %d detailed, %d summary\n", od, os);
    CHECK(od > 0 && os > 0);
    CHECK(os < 2 * od + 100);
    free(detailed.px);
    free(summary.px);
    free(automatic.px);
    tlv_renderer_free(r);
    free_shapes(s);
}

/* ---- the texts a frame draws ---------------------------------------------------- */

static int overlap(const int a[4], const int b[4])
{
    return a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3];
}

/* No two texts of `kind` overlap; returns how many there are. */
static size_t check_apart(const tlv_renderer *r, tlv_text_kind kind)
{
    size_t n = tlv_renderer_text_count(r, kind);
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++) {
            int a[4], b[4];
            const char *ta = tlv_renderer_text(r, kind, i, a), *tb = tlv_renderer_text(r, kind, j, b);
            if (overlap(a, b)) {
                fprintf(stderr, "texts overlap: '%s' at %d,%d %dx%d and '%s' at %d,%d %dx%d\n", ta,
                        a[0], a[1], a[2], a[3], tb, b[0], b[1], b[2], b[3]);
                check_failures++;
            }
        }
    return n;
}

/* The label whose text starts with `prefix`, or -1; its box in box. */
static long find_label(const tlv_renderer *r, const char *prefix, int box[4])
{
    for (size_t i = 0; i < tlv_renderer_text_count(r, TLV_TEXT_LABEL); i++)
        if (strncmp(tlv_renderer_text(r, TLV_TEXT_LABEL, i, box), prefix, strlen(prefix)) == 0)
            return (long)i;
    return -1;
}

/* Row 0: texts that compete — a long interval's text and a short one's
 * over it; row 1: a bar over the whole trace named at its start, and a
 * small text box low in the row (underscores and descenders). */
static struct tlv_shapes *crowded_texts(void)
{
    static const spec specs[] = {
        {0, 0, 200, "{\"Type\":\"Text\",\"Text\":\"long_interval_text\",\"Font\":{\"Size\":9,\"Align\":\"MiddleLeft\"}}"},
        {0, 20, 60, "{\"Type\":\"Text\",\"Text\":\"short_one_text\",\"Font\":{\"Size\":9,\"Align\":\"MiddleLeft\"}}"},
        {0, 10, 30, "{\"Type\":\"Text\",\"Size\":\"300px,100%\",\"Text\":\"pushy\",\"Font\":{\"Size\":9,\"Align\":\"MiddleRight\"}}"},
        {1, 0, 300, "{\"Type\":\"Text\",\"Text\":\"whole_bar\",\"Font\":{\"Size\":9,\"Align\":\"MiddleLeft\"}}"},
        {1, 100, 200, "{\"Type\":\"Text\",\"Location\":\"0,60%\",\"Size\":\"100%,40%\",\"Text\":\"dly_tsk\",\"Font\":{\"Size\":7,\"Align\":\"BottomLeft\"}}"},
    };
    struct tlv_shapes *s = new_shapes(0, 300);
    add_row(s, "MAIN_TASK_PRC1", "Task");
    add_row(s, "MAIN_TASK_PRC2", "Task");
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        add_prim(s, specs[i].json);
        add_shape(s, specs[i].row, specs[i].from, specs[i].to, (uint32_t)i, (uint32_t)i);
    }
    freeze(s);
    return s;
}

static void test_labels(void)
{
    struct tlv_shapes *s = crowded_texts();
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    image im;
    tlv_view v = fixed_view(0, 300); /* 2 px per us from x = 200; rows 80 px from y = 40 */
    v.row_height = 20;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    if (has_warning(r, "no font found")) {
        printf("NOTE: no font found through fontconfig: labels not checked\n");
        tlv_renderer_free(r);
        free_shapes(s);
        return;
    }
    int box[4];
    CHECK(check_apart(r, TLV_TEXT_LABEL) >= 3);
    /* the longest interval's text is whole, at its start */
    CHECK(find_label(r, "long_interval_text", box) >= 0);
    CHECK_INT(box[0], 200);
    /* the short one starts under it: cut to the room after it, or left out */
    long i = find_label(r, "short", box);
    CHECK(i < 0 || strstr(tlv_renderer_text(r, TLV_TEXT_LABEL, (size_t)i, NULL), "\xE2\x80\xA6"));
    /* a text never covers the whole row band's edge: descenders stay in */
    CHECK(find_label(r, "dly_tsk", box) >= 0);
    CHECK(box[1] >= 60 && box[1] + box[3] <= 80);
    CHECK(box[3] > 8); /* taller than its 8 px box: not cut to it */
    /* the pointer over the short interval (and the long one around it): the
     * short one's text wins, as much as its 80 px interval holds */
    tlv_renderer_set_focus(r, 280, 50);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    check_apart(r, TLV_TEXT_LABEL);
    CHECK(find_label(r, "short_one", box) >= 0);
    CHECK_INT(box[0], 240);
    i = find_label(r, "long", box);
    CHECK(i < 0 || strstr(tlv_renderer_text(r, TLV_TEXT_LABEL, (size_t)i, NULL), "\xE2\x80\xA6"));
    tlv_renderer_set_focus(r, -1, -1);
    /* zoomed into the middle of the bar: its name stays at the view's start */
    v = fixed_view(120, 180);
    v.row_height = 20;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK(find_label(r, "whole_bar", box) >= 0);
    CHECK_INT(box[0], 200);
    /* rows of 10 px: texts drawn smaller, inside the band; of 5 px: none */
    v = fixed_view(0, 300);
    v.row_height = 10;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK(find_label(r, "whole_bar", box) >= 0);
    CHECK(box[1] >= 50 && box[1] + box[3] <= 60);
    v.row_height = 5;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_INT(tlv_renderer_text_count(r, TLV_TEXT_LABEL), 0);
    /* a narrow label column: names cut in the middle stay distinct */
    v = fixed_view(0, 300);
    v.label_width = 90;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_INT(tlv_renderer_text_count(r, TLV_TEXT_ROW), 2);
    const char *a = tlv_renderer_text(r, TLV_TEXT_ROW, 0, NULL), *b = tlv_renderer_text(r, TLV_TEXT_ROW, 1, NULL);
    CHECK(a && b && strcmp(a, b) != 0);
    CHECK(a && strstr(a, "\xE2\x80\xA6") && strncmp(a, "MAIN", 4) == 0 && a[strlen(a) - 1] == '1');
    CHECK(b && b[strlen(b) - 1] == '2');
    CHECK(tlv_renderer_text(r, TLV_TEXT_ROW, 2, NULL) == NULL);
    tlv_renderer_free(r);
    free_shapes(s);
}

/* Tick texts of the last frame are pairwise distinct; returns their count. */
static size_t check_ticks_distinct(const tlv_renderer *r)
{
    size_t n = tlv_renderer_text_count(r, TLV_TEXT_TICK);
    for (size_t i = 0; i + 1 < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (strcmp(tlv_renderer_text(r, TLV_TEXT_TICK, i, NULL), tlv_renderer_text(r, TLV_TEXT_TICK, j, NULL)) == 0) {
                fprintf(stderr, "ticks %zu and %zu both read '%s'\n", i, j, tlv_renderer_text(r, TLV_TEXT_TICK, i, NULL));
                check_failures++;
            }
    return n;
}

static void test_ruler(void)
{
    struct tlv_shapes *s = new_shapes(0, 3000000); /* 3 s in us */
    add_row(s, "Row", NULL);
    freeze(s);
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    image im;
    tlv_view v = fixed_view(0, 300);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    if (has_warning(r, "no font found")) {
        tlv_renderer_free(r);
        free_shapes(s);
        return;
    }
    CHECK(check_ticks_distinct(r) >= 3);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_TICK, 0, NULL), "0 us");
    CHECK_INT(tlv_renderer_text_count(r, TLV_TEXT_REFERENCE), 0);
    /* 1 ns at 1.50461985 s: offsets from a reference printed once */
    v = fixed_view(1504619.85, 1504619.851);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK(check_ticks_distinct(r) >= 3);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_REFERENCE, 0, NULL), "1.5046198 s");
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_TICK, 0, NULL), "+50.2 ns");
    /* a relative axis from a marker at 1 s */
    tlv_renderer_set_time_origin(r, "M1", 1000000);
    v = fixed_view(999900, 1000200);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_REFERENCE, 0, NULL), "from M1");
    CHECK(check_ticks_distinct(r) >= 3);
    int seen_neg = 0, seen_pos = 0;
    for (size_t i = 0; i < tlv_renderer_text_count(r, TLV_TEXT_TICK); i++) {
        const char *t = tlv_renderer_text(r, TLV_TEXT_TICK, i, NULL);
        seen_neg |= t[0] == '-';
        seen_pos |= strcmp(t, "+100 us") == 0;
    }
    CHECK(seen_neg && seen_pos);
    tlv_renderer_set_time_origin(r, NULL, 0);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_TICK, 0, NULL), "999.9 ms");
    tlv_renderer_free(r);
    free_shapes(s);
}

/* The texts of `kind` of the last frame, joined with '|'. */
static const char *texts_of(const tlv_renderer *r, tlv_text_kind kind)
{
    static char out[2048];
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < tlv_renderer_text_count(r, kind) && len < sizeof out; i++)
        len += (size_t)snprintf(out + len, sizeof out - len, "%s%s", i ? "|" : "",
                                tlv_renderer_text(r, kind, i, NULL));
    return out;
}

/* A row drawn from summaries (2,000 short calls in its first tenth) keeps
 * the text of its long call, 4/5 of the view wide (issue 27.7: the label
 * came back only once the view was narrowed), and of its long calls only:
 * the short ones' texts stay out, as they would have no room. The texts are
 * those a detailed drawing of the row places. */
static void test_dense_row_keeps_long_texts(void)
{
    struct tlv_shapes *s = new_shapes(0, 100000);
    add_row(s, "Row", NULL);
    add_prim(s, "{\"Type\":\"Rectangle\",\"Fill\":\"ff8899dd\"}");
    add_prim(s, "{\"Type\":\"Text\",\"Text\":\"futex\",\"Font\":{\"Size\":9}}");
    add_prim(s, "{\"Type\":\"Text\",\"Text\":\"read\",\"Font\":{\"Size\":9}}");
    uint32_t order = 0;
    for (long i = 0; i < 2000; i++) { /* 2 us calls every 5 us */
        add_shape(s, 0, i * 5, i * 5 + 2, 0, order++);
        add_shape(s, 0, i * 5, i * 5 + 2, 2, order++);
    }
    add_shape(s, 0, 15000, 95000, 0, order++); /* the 80 ms call */
    add_shape(s, 0, 15000, 95000, 1, order++);
    freeze(s);
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    tlv_view v = fixed_view(0, 100000); /* 600 px: 3.3 shapes a column */
    image im;
    const char *modes[2];
    for (int k = 0; k < 2; k++) {
        render_set_rows(r, k ? RENDER_ROWS_DETAILED : RENDER_ROWS_AUTO);
        CHECK(render(r, s, &v, &im) == TLV_OK);
        free(im.px);
        static char texts[2][256];
        snprintf(texts[k], sizeof texts[k], "%s", texts_of(r, TLV_TEXT_LABEL));
        modes[k] = texts[k];
    }
    if (!has_warning(r, "no font found")) {
        CHECK_STR(modes[0], "futex");
        CHECK_STR(modes[0], modes[1]); /* as the detailed drawing places them */
        int box[4];
        tlv_renderer_text(r, TLV_TEXT_LABEL, 0, box);
        /* centred on the call: 15..95 ms at 1/6 px a us, x 290..770 */
        CHECK(abs(box[0] + box[2] / 2 - 530) <= 2);
    }
    tlv_renderer_free(r);
    free_shapes(s);
}

/* A wall-clock trace (strace -ttt: microseconds since 1970) reads times
 * from its start, as a trace starting at 0 would, whatever the zoom; the
 * absolute times stay one call away, and a plain trace keeps them. */
static void test_ruler_wall_clock(void)
{
    const long start = 1795614987897048; /* 2026-11-25 13:56:27.897048 UTC */
    struct tlv_shapes *s = new_shapes(start, start + 330922);
    s->time_mode = TLV_TIME_WALL;
    add_row(s, "Row", NULL);
    freeze(s);
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    image im;
    tlv_view v = fixed_view((double)start, (double)start + 330922);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    if (has_warning(r, "no font found")) {
        tlv_renderer_free(r);
        free_shapes(s);
        return;
    }
    CHECK_STR(texts_of(r, TLV_TEXT_TICK), "0 ms|100 ms|200 ms|300 ms");
    CHECK_INT(tlv_renderer_text_count(r, TLV_TEXT_REFERENCE), 0);
    /* 2 us at 123.456 ms from the start: the digits that zoom needs, no more */
    v = fixed_view((double)start + 123456, (double)start + 123458);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_INT(tlv_renderer_text_count(r, TLV_TEXT_REFERENCE), 0);
    CHECK_STR(texts_of(r, TLV_TEXT_TICK), "123.456 ms|123.4565 ms|123.457 ms|123.4575 ms");
    /* absolute times when asked: the epoch as the log wrote it */
    tlv_renderer_set_absolute_times(r, 1);
    v = fixed_view((double)start, (double)start + 330922);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_REFERENCE, 0, NULL), "1795614900 s");
    tlv_renderer_set_absolute_times(r, 0);
    /* a marker's axis wins over the trace's */
    tlv_renderer_set_time_origin(r, "M1", (double)start + 100000);
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_REFERENCE, 0, NULL), "from M1");
    CHECK_STR(texts_of(r, TLV_TEXT_TICK), "0 ms|+100 ms|+200 ms");
    tlv_renderer_set_time_origin(r, NULL, 0);
    /* the same times in a plain trace: absolute */
    s->time_mode = TLV_TIME_PLAIN;
    CHECK(render(r, s, &v, &im) == TLV_OK);
    free(im.px);
    CHECK_STR(tlv_renderer_text(r, TLV_TEXT_REFERENCE, 0, NULL), "1795614900 s");
    tlv_renderer_free(r);
    free_shapes(s);
}

/* Writes a fontconfig file that knows only `dir` (may be empty) and points
 * FONTCONFIG_FILE at it. Returns 0 or -1. */
static int private_fontconfig(const char *path, const char *dir, const char *cache)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "<?xml version=\"1.0\"?>\n<fontconfig>\n%s%s%s<cachedir>%s</cachedir>\n</fontconfig>\n",
            *dir ? "<dir>" : "", dir, *dir ? "</dir>\n" : "", cache);
    fclose(f);
    return setenv("FONTCONFIG_FILE", path, 1);
}

static void render_once(const struct tlv_shapes *s, tlv_renderer **out)
{
    CHECK(tlv_renderer_new(out) == TLV_OK);
    tlv_view v = fixed_view(0, 300);
    image im;
    CHECK(render(*out, s, &v, &im) == TLV_OK);
    free(im.px);
}

static void test_font_fallbacks(void)
{
    struct tlv_shapes *s = scene("\xE3\x82\xBF\xE3\x82\xB9\xE3\x82\xAF" "1"); /* タスク1 */
    tlv_renderer *r;
    render_once(s, &r);
    if (!has_warning(r, "no font"))
        printf("a Japanese font is installed: labels drawn with it\n");
    else
        printf("NOTE: %s\n", tlv_diags_get(tlv_renderer_diags(r), 0)->message);
    tlv_renderer_free(r);

    char dir[] = "/tmp/tlv-render-test-XXXXXX", conf[64], cache[64];
    const char *dejavu = "/usr/share/fonts/truetype/dejavu";
    if (!mkdtemp(dir))
        return;
    snprintf(conf, sizeof conf, "%s/fonts.conf", dir);
    snprintf(cache, sizeof cache, "%s/cache", dir);
    if (access(dejavu, R_OK) == 0 && private_fontconfig(conf, dejavu, cache) == 0) {
        render_once(s, &r); /* only DejaVu: no Japanese glyphs */
        CHECK(has_warning(r, "no font with Japanese glyphs found (install fonts-noto-cjk); "
                             "drawing labels with DejaVu"));
        CHECK_INT(tlv_diags_count(tlv_renderer_diags(r)), 1);
        tlv_renderer_free(r);
    } else {
        printf("NOTE: %s missing: the no-Japanese-font fallback is not checked\n", dejavu);
    }
    if (private_fontconfig(conf, "", cache) == 0) {
        render_once(s, &r); /* no fonts at all: no text, one warning */
        CHECK(has_warning(r, "no font found"));
        CHECK_INT(tlv_diags_count(tlv_renderer_diags(r)), 1);
        tlv_renderer_free(r);
    }
    unsetenv("FONTCONFIG_FILE");
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
    free_shapes(s);
}

int main(void)
{
    test_format_time();
    test_view_math();
    test_public_layout();
    test_scene();
    test_no_pen_no_outline();
    test_row_list();
    test_labels();
    test_ruler();
    test_ruler_wall_clock();
    test_dense_row_keeps_long_texts();
    test_summary();
    test_summary_tells_the_truth();
    test_font_fallbacks();
    return CHECK_DONE();
}
