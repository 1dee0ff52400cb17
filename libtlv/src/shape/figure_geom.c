/*
 * figure_geom.c — resolving a primitive's lengths, box and points to pixels
 * for a shape's area (spec §9.1). Kept apart from the parsing in figure.c
 * because the renderer library (libtlv-render) needs only this part, without
 * the JSON reader that parsing uses.
 */
#include "shape/figure.h"

float geom_resolve(const len_spec *l, float origin, float extent)
{
    /* Multiplying first keeps whole percentages of whole extents exact. */
    /* v(VALUE) lengths not yet fitted to a row (prim_fit_values) draw at 0. */
    float v = l->unit == LEN_PCT ? l->value * extent / 100.0f
              : l->unit == LEN_PX ? l->value
                                  : 0;
    switch (l->anchor) {
    case ANCHOR_CENTER: return origin + extent / 2 + v;
    case ANCHOR_END: return origin + extent - v;
    case ANCHOR_START: break;
    }
    return origin + v;
}

frect prim_box(const prim *p, frect area)
{
    /* Offset is a displacement, so it is measured from 0 with the area's
     * extent (for %), not from the area's origin. */
    if (p->depth_rows > 0) { /* a sub-row of the area: nested calls */
        area.h /= (float)p->depth_rows;
        area.y += area.h * (float)p->depth;
    }
    frect box;
    box.x = geom_resolve(&p->location.x, area.x, area.w) + geom_resolve(&p->offset.x, 0, area.w);
    box.y = geom_resolve(&p->location.y, area.y, area.h) + geom_resolve(&p->offset.y, 0, area.h);
    box.w = geom_resolve(&p->size.w, 0, area.w);
    box.h = geom_resolve(&p->size.h, 0, area.h);
    return box;
}

void prim_point(const prim *p, size_t i, frect box, float *x, float *y)
{
    if (i >= p->npoints) {
        *x = box.x;
        *y = box.y;
        return;
    }
    /* The box already includes Offset. */
    *x = geom_resolve(&p->points[i].x, box.x, box.w);
    *y = geom_resolve(&p->points[i].y, box.y, box.h);
}
