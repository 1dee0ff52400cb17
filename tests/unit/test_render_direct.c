/*
 * test_render_direct.c — the renderer's fast paths give the same pixels as
 * the plain ones: a frame drawn in place into a caller's buffer with a
 * stride wider than a row, or through a copy when the buffer is not word
 * aligned, equals the frame drawn into a plain buffer (alpha 255 everywhere,
 * the bytes between rows untouched); and render_raster.c's triangles equal
 * what SDL's software renderer draws for the same SDL_RenderGeometry batch
 * (random triangles, pairs that make rectangles, translucent and opaque,
 * clipped), on the SDL release whose behaviour it reproduces.
 */
#include "check.h"
#include "base/json.h"
#include "render/render_impl.h"
#include "viz/viz_impl.h"

#include <math.h>
#include <stdint.h>

/* ---- a scene of every kind of primitive ---------------------------------------- */

static void add_prim(struct tlv_shapes *s, const char *json)
{
    tj_error err;
    tj_node *n = tj_parse(json, strlen(json), &err);
    char msg[256] = "";
    CHECK(n != NULL);
    if (GROW(s->prims, s->prims_cap, s->nprims + 1) < 0)
        abort();
    CHECK(prim_parse(n, NULL, 0, &s->prims[s->nprims], msg, sizeof msg) == 0);
    s->nprims++;
    tj_free(n);
}

static void add_row(struct tlv_shapes *s, const char *label)
{
    if (GROW(s->rows, s->rows_cap, s->nrows + 1) < 0)
        abort();
    row_def *r = &s->rows[s->nrows++];
    r->label = xstrdup(label);
    r->resource = NULL;
    r->group = xstrdup("Task");
}

static struct tlv_shapes *scene(void)
{
    static const struct {
        uint32_t row;
        long from, to;
        const char *json;
    } specs[] = {
        {0, 100, 200, "{\"Type\":\"Rectangle\",\"Fill\":\"6600ff00\",\"Pen\":{\"Color\":\"ff00ff00\"}}"},
        {1, 0, 300, "{\"Type\":\"Line\",\"Points\":[\"0,10%\",\"100%,90%\"],\"Pen\":{\"Color\":\"80ff0000\"}}"},
        {0, 220, 300, "{\"Type\":\"Text\",\"Text\":\"hello\",\"Font\":{\"Size\":12}}"},
        {1, 0, 60, "{\"Type\":\"Arrow\",\"Points\":[\"0,70%\",\"100%,20%\"],"
                   "\"Pen\":{\"Color\":\"0000ff\",\"Width\":3}}"},
        {1, 200, 300, "{\"Type\":\"Pie\",\"Location\":\"10px,10px\",\"Size\":\"60px,60px\","
                      "\"Arc\":[0,90],\"Fill\":\"aa0000ff\",\"Pen\":{\"Alpha\":0}}"},
        {0, 0, 80, "{\"Type\":\"Line\",\"Points\":[\"0,90%\",\"100%,30%\"],"
                   "\"Pen\":{\"Color\":\"800080\",\"DashStyle\":\"Dash\"}}"},
        {0, 20, 60, "{\"Type\":\"Ellipse\",\"Size\":\"100%,50%\",\"Fill\":\"c0ffff00\","
                    "\"Pen\":{\"Color\":\"000000\"}}"},
        {1, 160, 200, "{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"100%,50%\",\"0,100%\","
                      "\"50%,50%\"],\"Fill\":\"00ffff\",\"Pen\":{\"Color\":\"40000000\"}}"},
        {1, 80, 140, "{\"Type\":\"Text\",\"Text\":\"a text\",\"Font\":{\"Size\":12}}"},
    };
    struct tlv_shapes *s = calloc(1, sizeof *s);
    s->radix = 10;
    s->time_scale = "us";
    s->start.ticks = 0;
    s->end.ticks = 300;
    s->store = store_new();
    add_row(s, "Row zero");
    add_row(s, "Row one");
    for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
        add_prim(s, specs[i].json);
        shape sh = {{specs[i].from, 0}, {specs[i].to, 0}, specs[i].row, (uint32_t)i, 0, 0, UINT32_MAX,
                    (uint32_t)i};
        CHECK(store_add(s->store, &sh) == 0);
    }
    CHECK(summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks) == 0);
    return s;
}

static void free_scene(struct tlv_shapes *s)
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

/* ---- frames into differently laid out buffers ----------------------------------- */

#define FILLER 0xA5

/* Renders v into a buffer `offset` bytes into an allocation, rows `stride`
 * apart, everything else FILLER; checks the bytes beyond each row kept it
 * and every alpha is 255, and copies the rows to `out` (w * 4 a row). */
static void render_into(tlv_renderer *r, const struct tlv_shapes *s, const tlv_view *v,
                        size_t offset, size_t stride, uint8_t *out)
{
    size_t size = offset + stride * (size_t)v->height;
    uint8_t *buf = malloc(size);
    memset(buf, FILLER, size);
    CHECK(tlv_render_rgba(r, s, v, buf + offset, stride) == TLV_OK);
    size_t row = (size_t)v->width * 4, kept = 0, opaque = 0;
    for (int y = 0; y < v->height; y++) {
        const uint8_t *p = buf + offset + (size_t)y * stride;
        memcpy(out + (size_t)y * row, p, row);
        for (size_t i = row; i < stride; i++)
            kept += p[i] == FILLER;
        for (size_t i = 3; i < row; i += 4)
            opaque += p[i] == 255;
    }
    for (size_t i = 0; i < offset; i++)
        kept += buf[i] == FILLER;
    CHECK(kept == offset + (stride - row) * (size_t)v->height);
    CHECK(opaque == (size_t)v->width * (size_t)v->height);
    free(buf);
}

static void check_layouts(tlv_renderer *r, const struct tlv_shapes *s, const tlv_view *v)
{
    size_t n = (size_t)v->width * 4 * (size_t)v->height;
    uint8_t *plain = malloc(n), *other = malloc(n);
    render_into(r, s, v, 0, (size_t)v->width * 4, plain);
    const struct {
        size_t offset, pad;
    } layouts[] = {{0, 36}, {1, 0}, {3, 7}, {0, 2}, {0, 0}, {0, 36}};
    for (size_t i = 0; i < sizeof layouts / sizeof *layouts; i++) {
        render_into(r, s, v, layouts[i].offset, (size_t)v->width * 4 + layouts[i].pad, other);
        if (memcmp(plain, other, n) != 0) {
            fprintf(stderr, "frame %dx%d at offset %zu, stride + %zu differs from the plain one\n",
                    v->width, v->height, layouts[i].offset, layouts[i].pad);
            check_failures++;
        }
    }
    /* and a frame is not a blank one: the scene's shapes are there */
    size_t white = 0;
    for (size_t i = 0; i < n; i += 4)
        white += plain[i] == 255 && plain[i + 1] == 255 && plain[i + 2] == 255;
    CHECK(white < n / 4);
    free(plain);
    free(other);
}

static void test_layouts(void)
{
    struct tlv_shapes *s = scene();
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    tlv_view v;
    tlv_view_fit(&v, s, 400, 160);
    check_layouts(r, s, &v);
    v.t0 = 25; /* zoomed in: the arrow and the lines become large triangles */
    v.t1 = 45;
    check_layouts(r, s, &v);
    tlv_view_fit(&v, s, 123, 57); /* odd sizes */
    check_layouts(r, s, &v);
    tlv_renderer_free(r);
    free_scene(s);
}

/* ---- texts measured once ------------------------------------------------------------ */

/* A renderer keeps how texts measure and where they are cut from frame to
 * frame: frames drawn by one renderer, moving between a view where the
 * texts fit and ones where they are cut with an ellipsis (at two widths),
 * equal the same frames from a fresh renderer each. */
static void test_texts_measured_once(void)
{
    struct tlv_shapes *s = scene();
    tlv_view views[3];
    tlv_view_fit(&views[0], s, 400, 160);
    tlv_view_fit(&views[1], s, 400, 160);
    views[1].t0 = 0, views[1].t1 = 1500; /* "hello" gets 21 px: cut */
    tlv_view_fit(&views[2], s, 400, 160);
    views[2].t0 = 0, views[2].t1 = 900;
    size_t size = (size_t)400 * 4 * 160;
    uint8_t *fresh[3], *frame = malloc(size);
    for (int i = 0; i < 3; i++) {
        tlv_renderer *r;
        CHECK(tlv_renderer_new(&r) == TLV_OK);
        fresh[i] = malloc(size);
        render_into(r, s, &views[i], 0, 400 * 4, fresh[i]);
        tlv_renderer_free(r);
    }
    CHECK(memcmp(fresh[0], fresh[1], size) != 0); /* the views do differ */
    tlv_renderer *r;
    CHECK(tlv_renderer_new(&r) == TLV_OK);
    static const int order[] = {0, 1, 2, 0, 2, 1, 1, 0};
    for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
        render_into(r, s, &views[order[k]], 0, 400 * 4, frame);
        if (memcmp(frame, fresh[order[k]], size) != 0) {
            fprintf(stderr, "frame %zu (view %d) differs from a fresh renderer's\n", k, order[k]);
            check_failures++;
        }
    }
    tlv_renderer_free(r);
    for (int i = 0; i < 3; i++)
        free(fresh[i]);
    free(frame);
    free_scene(s);
}

/* ---- triangles against SDL's ------------------------------------------------------ */

static uint32_t lcg(uint32_t *state)
{
    *state = *state * 1664525u + 1013904223u;
    return *state >> 8;
}

static SDL_Vertex vertex(float x, float y, SDL_Color c)
{
    SDL_Vertex v = {{x, y}, c, {0, 0}};
    return v;
}

/* A batch like the renderer's: loose triangles, pairs of triangles that make
 * an axis-aligned rectangle (or nearly), fans sharing a vertex, the one
 * pixel wide sides of boxes' outlines; coordinates
 * a little beyond the target, at whole and half pixels. */
static size_t make_batch(uint32_t *seed, int w, int h, SDL_Vertex *v)
{
    static const uint8_t alphas[] = {255, 128, 37, 200, 1};
    size_t n = 0;
    for (int k = 0; k < 60; k++) {
        SDL_Color c = {(Uint8)lcg(seed), (Uint8)lcg(seed), (Uint8)lcg(seed), alphas[lcg(seed) % 5]};
        float x0 = (float)(lcg(seed) % (unsigned)(2 * w + 20)) / 2 - 5, y0 = (float)(lcg(seed) % (unsigned)(2 * h + 20)) / 2 - 5;
        float x1 = (float)(lcg(seed) % (unsigned)(2 * w + 20)) / 2 - 5, y1 = (float)(lcg(seed) % (unsigned)(2 * h + 20)) / 2 - 5;
        float x2 = (float)(lcg(seed) % (unsigned)(2 * w + 20)) / 2 - 5, y2 = (float)(lcg(seed) % (unsigned)(2 * h + 20)) / 2 - 5;
        switch (lcg(seed) % 5) {
        case 0: /* a rectangle as two triangles p q r, p r s */
        case 1: {
            float sx = lcg(seed) % 3 == 0 ? x1 + 0.5f : x1; /* sometimes not quite */
            v[n++] = vertex(x0, y0, c);
            v[n++] = vertex(x1, y0, c);
            v[n++] = vertex(x1, y1, c);
            v[n++] = vertex(x0, y0, c);
            v[n++] = vertex(sx, y1, c);
            v[n++] = vertex(x0, y1, c);
            break;
        }
        case 2: /* a fan of two */
            v[n++] = vertex(x0, y0, c);
            v[n++] = vertex(x1, y1, c);
            v[n++] = vertex(x2, y2, c);
            v[n++] = vertex(x0, y0, c);
            v[n++] = vertex(x2, y2, c);
            v[n++] = vertex(x1, y2, c);
            break;
        case 3: { /* the side of a box's outline: a mitred quad a pixel wide (or a half) */
            float xr = x0 + (lcg(seed) % 2 ? 1.0f : 0.5f), d = xr - x0;
            v[n++] = vertex(x0, y1 + d, c);
            v[n++] = vertex(x0, y0 - d, c);
            v[n++] = vertex(xr, y0 + d, c);
            v[n++] = vertex(x0, y1 + d, c);
            v[n++] = vertex(xr, y0 + d, c);
            v[n++] = vertex(xr, y1 - d, c);
            break;
        }
        default:
            v[n++] = vertex(x0, y0, c);
            v[n++] = vertex(x1, y1, c);
            v[n++] = vertex(x2, y2, c);
        }
    }
    return n;
}

static SDL_Surface *background(int w, int h, uint32_t seed)
{
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_RGBA32);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            uint8_t *p = (uint8_t *)s->pixels + (size_t)y * (size_t)s->pitch + (size_t)x * 4;
            p[0] = (uint8_t)lcg(&seed);
            p[1] = (uint8_t)lcg(&seed);
            p[2] = (uint8_t)lcg(&seed);
            p[3] = 255;
        }
    return s;
}

static void test_triangles_as_sdl(void)
{
    SDL_version sdl;
    SDL_GetVersion(&sdl);
    if (sdl.major != 2 || sdl.minor != 26) {
        printf("note: SDL %d.%d.%d: render_raster.c reproduces SDL 2.26's software renderer; "
               "not compared\n", sdl.major, sdl.minor, sdl.patch);
        return;
    }
    const int w = 97, h = 61;
    const SDL_Rect clips[] = {{0, 0, w, h}, {10, 7, 60, 40}, {-5, 30, 200, 200}};
    uint32_t seed = 12345;
    int differing = 0, drawn = 0;
    for (int round = 0; round < 60; round++) {
        SDL_Vertex v[60 * 6];
        size_t n = make_batch(&seed, w, h, v);
        const SDL_Rect *clip = &clips[round % 3];
        SDL_Surface *want = background(w, h, (uint32_t)round), *got = background(w, h, (uint32_t)round);
        SDL_Renderer *ren = SDL_CreateSoftwareRenderer(want);
        CHECK(ren != NULL);
        SDL_RenderSetClipRect(ren, clip);
        SDL_SetRenderDrawBlendMode(ren, SDL_BLENDMODE_BLEND);
        SDL_RenderGeometry(ren, NULL, v, (int)n, NULL, 0);
        SDL_RenderFlush(ren);
        raster_geometry(got, clip, v, n);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const uint8_t *a = (const uint8_t *)want->pixels + (size_t)y * (size_t)want->pitch + (size_t)x * 4;
                const uint8_t *b = (const uint8_t *)got->pixels + (size_t)y * (size_t)got->pitch + (size_t)x * 4;
                if (a[0] != b[0] || a[1] != b[1] || a[2] != b[2]) {
                    if (differing++ < 5)
                        fprintf(stderr, "round %d pixel (%d,%d): SDL %d,%d,%d, ours %d,%d,%d\n", round,
                                x, y, a[0], a[1], a[2], b[0], b[1], b[2]);
                }
                CHECK(b[3] == 255);
            }
        /* something was drawn, or the comparison proves nothing */
        SDL_Surface *bg = background(w, h, (uint32_t)round);
        drawn += memcmp(bg->pixels, got->pixels, (size_t)got->pitch * (size_t)h) != 0;
        SDL_FreeSurface(bg);
        SDL_DestroyRenderer(ren);
        SDL_FreeSurface(want);
        SDL_FreeSurface(got);
    }
    CHECK(differing == 0);
    CHECK(drawn == 60);
}

/* ---- the shapes drawn on two threads ------------------------------------------------- */

/* Six rows whose shapes reach into their neighbours' bands (boxes taller
 * than the band with thick pens, an arrow three bands down, translucent
 * fills blended over what the rows above drew), texts in every row, and a
 * row of 6,000 boxes that is drawn from summaries when zoomed out; 200
 * primitives of one geometry in other colours, and after them the one
 * primitive reaching four bands up. */
static struct tlv_shapes *reaching_scene(void)
{
    static const char *const prims[] = {
        "{\"Type\":\"Rectangle\",\"Fill\":\"ff4080c0\",\"Pen\":{\"Color\":\"ff000000\"}}",
        "{\"Type\":\"Rectangle\",\"Location\":\"0,-60%\",\"Size\":\"100%,220%\","
        "\"Fill\":\"6000ff00\",\"Pen\":{\"Color\":\"a0ff0000\",\"Width\":5}}",
        "{\"Type\":\"Arrow\",\"Points\":[\"0,50%\",\"100%,350%\"],\"Pen\":{\"Color\":\"c00000ff\","
        "\"Width\":3}}",
        "{\"Type\":\"Line\",\"Points\":[\"0,-80%\",\"100%,180%\"],\"Pen\":{\"Color\":\"800080\","
        "\"DashStyle\":\"Dash\",\"Width\":2}}",
        "{\"Type\":\"Text\",\"Text\":\"a label\",\"Font\":{\"Size\":10}}",
        "{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"100%,0\",\"100%,100%\",\"0,100%\"],"
        "\"Fill\":\"80ffa000\"}",
        "{\"Type\":\"Ellipse\",\"Location\":\"0,-30%\",\"Size\":\"100%,160%\",\"Fill\":\"70ff00ff\","
        "\"Pen\":{\"Color\":\"000000\",\"Width\":2}}",
    };
    struct tlv_shapes *s = calloc(1, sizeof *s);
    s->radix = 10;
    s->time_scale = "us";
    s->end.ticks = 60000;
    s->store = store_new();
    static const char *const labels[] = {"R0", "R1", "R2", "R3", "R4", "R5"};
    for (int i = 0; i < 6; i++)
        add_row(s, labels[i]);
    for (size_t i = 0; i < sizeof prims / sizeof *prims; i++)
        add_prim(s, prims[i]);
    for (int i = 0; i < 200; i++) { /* prims 7..206: prim 0's geometry in other colours */
        char json[160];
        snprintf(json, sizeof json, "{\"Type\":\"Rectangle\",\"Fill\":\"ff%06x\","
                 "\"Pen\":{\"Color\":\"ff000000\"}}", (unsigned)i * 40503u & 0xFFFFFFu);
        add_prim(s, json);
    }
    /* prim 207, last: the only one reaching four bands up */
    add_prim(s, "{\"Type\":\"Arrow\",\"Points\":[\"0,50%\",\"100%,-400%\"],"
                "\"Pen\":{\"Color\":\"c0008000\",\"Width\":2}}");
    uint32_t order = 0, seed = 7;
    for (long t = 0; t < 60000; t += 10) { /* row 2: dense boxes and their texts */
        shape sh = {{t, 0}, {t + 6, 0}, 2, t % 500 == 0 ? 4 : 0, 0, 0, UINT32_MAX, order++};
        CHECK(store_add(s->store, &sh) == 0);
    }
    for (int k = 0; k < 300; k++) { /* the other rows: every primitive, here and there */
        uint32_t row = (uint32_t)(lcg(&seed) % 6), prim = (uint32_t)(lcg(&seed) % 9);
        prim = prim < 7 ? prim : prim == 7 ? 7 + (uint32_t)k % 200 : 207;
        long from = (long)(lcg(&seed) % 59000), len = 20 + (long)(lcg(&seed) % 900);
        shape sh = {{from, 0}, {from + len, 0}, row == 2 ? 3 : row, prim, 0, 0, UINT32_MAX,
                    order++};
        CHECK(store_add(s->store, &sh) == 0);
    }
    CHECK(summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks) == 0);
    /* how far rows reach is measured on one primitive per geometry: 0, 1,
     * 2, 3, 5, 6 (4 is a text, 7..206 are 0's) and 207 */
    CHECK(s->looks.has_reach);
    CHECK_INT(s->looks.nreach, 7);
    return s;
}

/* The shapes drawn on two threads, each a part of the frame's rows, give
 * the pixels and texts of one thread drawing them all, at every zoom,
 * scroll and band height tried, rows reordered too. */
static void test_two_threads_same_frame(void)
{
    struct tlv_shapes *s = reaching_scene();
    tlv_renderer *one, *two;
    CHECK(tlv_renderer_new(&one) == TLV_OK);
    CHECK(tlv_renderer_new(&two) == TLV_OK);
    render_set_threads(one, 1);
    render_set_threads(two, 2);
    static const size_t order[] = {5, 2, 0, 3, TLV_VIEW_ROW_BLANK, 1, 4};
    int split = 0, frames = 0;
    for (int k = 0; k < 48; k++) {
        tlv_view v;
        tlv_view_fit(&v, s, k % 3 ? 640 : 333, k % 4 ? 300 : 131);
        double span = 60000 / pow(3, k % 8), mid = 30000 + (k % 5) * 3000.0;
        v.t0 = mid - span / 2;
        v.t1 = mid + span / 2;
        v.row_height = k % 6 == 5 ? 0 : 17 + (k % 6) * 9;
        v.first_row = k % 7 == 3 ? 1 : 0;
        if (k % 4 == 1) {
            v.rows = order;
            v.row_count = sizeof order / sizeof *order;
        }
        size_t n = (size_t)v.width * 4 * (size_t)v.height;
        uint8_t *a = malloc(n), *b = malloc(n);
        render_into(one, s, &v, 0, (size_t)v.width * 4, a);
        render_into(two, s, &v, 0, (size_t)v.width * 4, b);
        CHECK_INT(render_drew_on(one), 1);
        split += render_drew_on(two) == 2;
        frames++;
        if (memcmp(a, b, n) != 0) {
            size_t i = 0;
            while (a[i] == b[i])
                i++;
            fprintf(stderr, "view %d (%dx%d, t %g..%g, rows %d px): two threads differ at "
                    "pixel %zu,%zu\n", k, v.width, v.height, v.t0, v.t1, v.row_height,
                    i / 4 % (size_t)v.width, i / 4 / (size_t)v.width);
            check_failures++;
        }
        for (int kind = 0; kind < 4; kind++) {
            CHECK_INT(tlv_renderer_text_count(two, (tlv_text_kind)kind),
                      tlv_renderer_text_count(one, (tlv_text_kind)kind));
            for (size_t i = 0; i < tlv_renderer_text_count(one, (tlv_text_kind)kind); i++) {
                int ba[4], bb[4];
                const char *ta = tlv_renderer_text(one, (tlv_text_kind)kind, i, ba);
                const char *tb = tlv_renderer_text(two, (tlv_text_kind)kind, i, bb);
                CHECK(ta && tb && strcmp(ta, tb) == 0 && memcmp(ba, bb, sizeof ba) == 0);
            }
        }
        free(a);
        free(b);
    }
    fprintf(stderr, "two threads: %d of %d frames split\n", split, frames);
    CHECK(split > frames / 2); /* the split did happen */
    tlv_renderer_free(one);
    tlv_renderer_free(two);
    free_scene(s);
}

/* ---- boxes' outlines drawn straight into the frame -------------------------------- */

/* Boxes of every size from a fraction of a pixel up, with and without
 * fills, pens of widths 1 to 3.5, opaque and translucent; between them
 * lines and rectangles made of two triangles (a Polygon), which pair into a
 * rectangle fill only within one batch of triangles, so that a batch
 * flushed where the plain path would not shows; and a row of 2,000
 * pen-only boxes, more triangles than one batch holds. */
static struct tlv_shapes *outline_scene(void)
{
    static const char *const prims[] = {
        "{\"Type\":\"Rectangle\",\"Fill\":\"ff4080c0\",\"Pen\":{\"Color\":\"ff000000\"}}",
        "{\"Type\":\"Rectangle\",\"Pen\":{\"Color\":\"a0ff0000\",\"Width\":2}}",
        "{\"Type\":\"Rectangle\",\"Location\":\"0,20%\",\"Size\":\"100%,60%\",\"Fill\":\"60ffff00\","
        "\"Pen\":{\"Color\":\"8000a000\",\"Width\":3.5}}",
        "{\"Type\":\"Polygon\",\"Points\":[\"0,0\",\"100%,0\",\"100%,100%\",\"0,100%\"],"
        "\"Fill\":\"80ffa000\"}",
        "{\"Type\":\"Line\",\"Points\":[\"0,30%\",\"100%,70%\"],\"Pen\":{\"Color\":\"800080\"}}",
        "{\"Type\":\"Rectangle\",\"Pen\":{\"Color\":\"ff202020\"}}",
    };
    struct tlv_shapes *s = calloc(1, sizeof *s);
    s->radix = 10;
    s->time_scale = "us";
    s->end.ticks = 100000;
    s->store = store_new();
    static const char *const labels[] = {"A", "B", "C", "D"};
    for (int i = 0; i < 4; i++)
        add_row(s, labels[i]);
    for (size_t i = 0; i < sizeof prims / sizeof *prims; i++)
        add_prim(s, prims[i]);
    uint32_t order = 0, seed = 11;
    for (int k = 0; k < 3000; k++) { /* rows 0-2: everything, lengths 1 to 3000 */
        uint32_t row = (uint32_t)(lcg(&seed) % 3), prim = (uint32_t)(lcg(&seed) % 5);
        long from = (long)(lcg(&seed) % 99000), len = 1 + (long)(lcg(&seed) % 3000);
        shape sh = {{from, 0}, {from + len, 0}, row, prim, 0, 0, UINT32_MAX, order++};
        CHECK(store_add(s->store, &sh) == 0);
    }
    for (long t = 0; t < 100000; t += 50) { /* row 3: pen-only boxes, polygons between */
        shape sh = {{t, 0}, {t + 37, 0}, 3, t % 1000 == 0 ? 3 : 5, 0, 0, UINT32_MAX, order++};
        CHECK(store_add(s->store, &sh) == 0);
    }
    CHECK(summary_freeze(s->store, s->radix, s->prims, s->nprims, &s->looks) == 0);
    return s;
}

/* Outlines drawn straight into the frame give the pixels of the same
 * outlines through the triangle batch, at zooms where boxes are fractions
 * of a pixel wide up to wider than the view, scrolled and cut at its
 * edges. */
static void test_outlines_direct(void)
{
    struct tlv_shapes *s = outline_scene();
    tlv_renderer *plain, *direct;
    CHECK(tlv_renderer_new(&plain) == TLV_OK);
    CHECK(tlv_renderer_new(&direct) == TLV_OK);
    render_set_plain_outlines(plain, 1);
    for (int i = 0; i < 2; i++) {
        tlv_renderer *r = i ? direct : plain;
        render_set_threads(r, 1);
        render_set_rows(r, RENDER_ROWS_DETAILED);
    }
    int differ = 0;
    for (int k = 0; k < 40; k++) {
        tlv_view v;
        tlv_view_fit(&v, s, k % 2 ? 800 : 517, k % 3 ? 240 : 173);
        double span = 100000 / pow(2.1, k % 14), mid = 50000 + (k % 5) * 7123.3;
        v.t0 = mid - span / 2;
        v.t1 = mid + span / 2;
        v.row_height = k % 4 == 3 ? 23 : 0;
        v.first_row = k % 8 == 7 ? 1 : 0;
        size_t n = (size_t)v.width * 4 * (size_t)v.height;
        uint8_t *a = malloc(n), *b = malloc(n);
        render_into(plain, s, &v, 0, (size_t)v.width * 4, a);
        render_into(direct, s, &v, 0, (size_t)v.width * 4, b);
        if (memcmp(a, b, n) != 0) {
            size_t i = 0;
            while (a[i] == b[i])
                i++;
            fprintf(stderr, "view %d (%dx%d, t %g..%g): outlines drawn directly differ at pixel "
                    "%zu,%zu\n", k, v.width, v.height, v.t0, v.t1, i / 4 % (size_t)v.width,
                    i / 4 / (size_t)v.width);
            differ++;
        }
        free(a);
        free(b);
    }
    CHECK_INT(differ, 0);
    tlv_renderer_free(plain);
    tlv_renderer_free(direct);
    free_scene(s);
}

int main(void)
{
    test_layouts();
    test_texts_measured_once();
    test_triangles_as_sdl();
    test_two_threads_same_frame();
    test_outlines_direct();
    return CHECK_DONE();
}
