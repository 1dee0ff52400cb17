/*
 * test_numcol.c — the column of slowly growing numbers (libtlv/src/numcol.c)
 * the trace keeps its events' input lines and state sequence numbers in:
 * every number reads back as appended — those a byte holds, and those kept
 * apart (a fall, a jump of 255 or more, the largest numbers) — also after
 * taking the last one back and after shrinking; and it holds ordinary
 * numbers in well under 2 bytes each.
 */
#include "check.h"

#include "base/numcol.h"

#include <stdint.h>

/* Line-like numbers: mostly steps of 0..3, now and then a fall or a jump. */
static uint32_t number(size_t i)
{
    if (i % 997 == 500)
        return 7;                 /* falls below its block's base */
    if (i % 1009 == 3)
        return UINT32_MAX - (uint32_t)i; /* huge */
    return (uint32_t)(i * 2 + i / 3 + (i % 5 == 0 ? 300 : 0)); /* +300: a jump */
}

int main(void)
{
    numcol c = {0};
    const size_t n = 100000;
    for (size_t i = 0; i < n; i++)
        CHECK_INT(numcol_add(&c, number(i)), 0);
    CHECK_INT(c.n, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += numcol_get(&c, i) != number(i);
    CHECK_INT(bad, 0);
    CHECK(c.napart > 0);

    /* taking back the last, kept apart or not, then appending another */
    numcol_drop_last(&c);
    CHECK_INT(numcol_add(&c, UINT32_MAX), 0);
    CHECK_INT(numcol_get(&c, n - 1), UINT32_MAX);
    size_t apart = c.napart;
    numcol_drop_last(&c);
    CHECK_INT(c.napart, apart - 1);
    CHECK_INT(numcol_add(&c, number(n - 1)), 0);
    CHECK_INT(numcol_get(&c, n - 1), number(n - 1));

    numcol_shrink(&c);
    bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += numcol_get(&c, i) != number(i);
    CHECK_INT(bad, 0);
    numcol_free(&c);

    /* input lines, one to three events a line: about 1.25 bytes a number */
    for (size_t i = 0; i < n; i++)
        CHECK_INT(numcol_add(&c, (uint32_t)(i / 2 + i / 7)), 0);
    numcol_shrink(&c);
    CHECK_INT(c.napart, 0);
    CHECK(numcol_bytes(&c) <= n * 5 / 4 + 16);
    for (size_t i = 0; i < n; i += 777)
        CHECK_INT(numcol_get(&c, i), (uint32_t)(i / 2 + i / 7));
    numcol_free(&c);
    CHECK_INT(numcol_bytes(&c), 0);
    return CHECK_DONE();
}
