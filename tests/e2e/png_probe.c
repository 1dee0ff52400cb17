/*
 * png_probe.c — reads pixels of PNG files for the end-to-end tests (the
 * viewer's screenshots), so that shell tests can assert on them without
 * other tools:
 *
 *   png_probe FILE size                          prints "W H"
 *   png_probe FILE pixel X Y                     prints the colour "rrggbb"
 *   png_probe FILE count X0 Y0 X1 Y1 RRGGBB      pixels of that colour in [X0,X1) x [Y0,Y1)
 *   png_probe FILE colors X0 Y0 X1 Y1            distinct colours in the rectangle
 *   png_probe FILE diff OTHER                    pixels that differ (sizes must agree)
 *
 * Exit status 0, or 2 on bad usage or an unreadable file.
 */
#include <png.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct image {
    int w, h;
    uint8_t *px; /* RGBA */
} image;

static int load(const char *path, image *img)
{
    png_image p;
    memset(&p, 0, sizeof p);
    p.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_file(&p, path)) {
        fprintf(stderr, "png_probe: %s: %s\n", path, p.message);
        return -1;
    }
    p.format = PNG_FORMAT_RGBA;
    img->w = (int)p.width;
    img->h = (int)p.height;
    img->px = malloc(PNG_IMAGE_SIZE(p));
    if (!img->px || !png_image_finish_read(&p, NULL, img->px, 0, NULL)) {
        fprintf(stderr, "png_probe: %s: %s\n", path, img->px ? p.message : "out of memory");
        png_image_free(&p);
        return -1;
    }
    return 0;
}

static uint32_t rgb_at(const image *img, int x, int y)
{
    const uint8_t *p = img->px + ((size_t)y * (size_t)img->w + (size_t)x) * 4;
    return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

/* Parses X0 Y0 X1 Y1 and clips them to the image. */
static int rect(const image *img, char **a, int *r)
{
    for (int i = 0; i < 4; i++)
        r[i] = atoi(a[i]);
    r[0] = r[0] < 0 ? 0 : r[0];
    r[1] = r[1] < 0 ? 0 : r[1];
    r[2] = r[2] > img->w ? img->w : r[2];
    r[3] = r[3] > img->h ? img->h : r[3];
    return 0;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? -1 : a > b;
}

static long distinct(const image *img, const int *r)
{
    size_t n = 0;
    uint32_t *v = malloc(((size_t)img->w * (size_t)img->h + 1) * sizeof *v);
    if (!v)
        return -1;
    for (int y = r[1]; y < r[3]; y++)
        for (int x = r[0]; x < r[2]; x++)
            v[n++] = rgb_at(img, x, y);
    qsort(v, n, sizeof *v, cmp_u32);
    long d = 0;
    for (size_t i = 0; i < n; i++)
        d += i == 0 || v[i] != v[i - 1];
    free(v);
    return d;
}

static int run(const image *img, int argc, char **argv)
{
    const char *op = argv[2];
    int r[4];
    if (strcmp(op, "size") == 0 && argc == 3) {
        printf("%d %d\n", img->w, img->h);
    } else if (strcmp(op, "pixel") == 0 && argc == 5) {
        int x = atoi(argv[3]), y = atoi(argv[4]);
        if (x < 0 || y < 0 || x >= img->w || y >= img->h)
            return 2;
        printf("%06x\n", (unsigned)rgb_at(img, x, y));
    } else if (strcmp(op, "count") == 0 && argc == 8 && rect(img, argv + 3, r) == 0) {
        uint32_t want = (uint32_t)strtoul(argv[7], NULL, 16);
        long n = 0;
        for (int y = r[1]; y < r[3]; y++)
            for (int x = r[0]; x < r[2]; x++)
                n += rgb_at(img, x, y) == want;
        printf("%ld\n", n);
    } else if (strcmp(op, "colors") == 0 && argc == 7 && rect(img, argv + 3, r) == 0) {
        printf("%ld\n", distinct(img, r));
    } else if (strcmp(op, "diff") == 0 && argc == 4) {
        image other;
        if (load(argv[3], &other) < 0 || other.w != img->w || other.h != img->h)
            return 2;
        long n = 0;
        for (int y = 0; y < img->h; y++)
            for (int x = 0; x < img->w; x++)
                n += rgb_at(img, x, y) != rgb_at(&other, x, y);
        free(other.px);
        printf("%ld\n", n);
    } else {
        fprintf(stderr, "png_probe: bad usage (see the comment in png_probe.c)\n");
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    image img;
    if (argc < 3 || load(argv[1], &img) < 0)
        return 2;
    int rc = run(&img, argc, argv);
    free(img.px);
    return rc;
}
