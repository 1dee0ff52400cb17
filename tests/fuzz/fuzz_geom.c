/*
 * fuzz_geom.c — libFuzzer target: figure geometry and styles. The input is
 * read as a position, a size and a color (as a C string, as the viz engine
 * passes them), and, when it is TLV JSON, as a primitive object with two
 * ${ARGn} arguments, whose box and points are then resolved.
 */
#include "shape/figure.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void as_primitive(const char *text, size_t len)
{
    tj_error jerr;
    tj_node *root = tj_parse(text, len, &jerr);
    if (!root)
        return;
    const char *args[] = {"50%", "r(3px),b(10%)"};
    prim p;
    char err[300];
    if (prim_parse(root, args, 2, &p, err, sizeof err) == 0) {
        frect area = {10, 20, 300, 40};
        frect box = prim_box(&p, area);
        volatile float sink = box.x + box.y + box.w + box.h;
        for (size_t i = 0; i < p.npoints; i++) {
            float x, y;
            prim_point(&p, i, box, &x, &y);
            sink += x + y;
        }
        (void)sink;
        prim_free(&p);
    }
    tj_free(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    pos_spec pos;
    size_spec sz;
    char err[200];
    uint32_t argb;
    if (geom_parse_position(text, &pos, err, sizeof err) == 0) {
        volatile float sink = geom_resolve(&pos.x, 0, 100) + geom_resolve(&pos.y, 5, 50);
        (void)sink;
    }
    geom_parse_size(text, &sz, err, sizeof err);
    color_parse(text, &argb);
    as_primitive(text, size);
    free(text);
    return 0;
}
