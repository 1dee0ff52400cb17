/*
 * test_macro.c — the macro table (compile/macro.c): every row named once,
 * evaluated by exactly one side (its own evaluator, or the world's for a
 * macro that reads the world), its flags as `tlv check` and the world use
 * them, the list of known macros built from it, and macros that read no
 * state expanded without a world.
 */
#include "compile/macro.h"
#include "world/world.h"

#include "check.h"

#include <string.h>

static const char known[] = "$EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, $RES_COLOR, "
                            "$SUM, $CALC, $CLOCK, $OUTCOME";

/* Every row has a name of macro characters, found by macro_id, and one
 * evaluator: the world's when it reads the world, else its own. */
static void test_rows(void)
{
    world w;
    memset(&w, 0, sizeof w);
    macro_host h;
    world_macro_host(&w, &h);
    for (int id = 0; id < M_NMACROS; id++) {
        const macro_def *d = macro_get(id);
        CHECK(d->name && *d->name);
        for (const char *c = d->name; *c; c++)
            CHECK(macro_name_char(*c));
        CHECK_INT(macro_id(d->name, strlen(d->name)), id);
        int world_reads = (d->flags & MACRO_READS_WORLD) != 0;
        if (world_reads != (h.evals[id] != NULL) || world_reads == (d->eval != NULL))
            fprintf(stderr, "macro $%s: evaluated by %s%s\n", d->name, d->eval ? "the table " : "",
                    h.evals[id] ? "the world" : "");
        CHECK_INT(h.evals[id] != NULL, world_reads);
        CHECK_INT(d->eval != NULL, !world_reads);
        if (d->flags & MACRO_TAKES_ATTRIBUTE)
            CHECK(d->flags & MACRO_TAKES_RESOURCE);
    }
}

static void test_lookup(void)
{
    CHECK_INT(macro_id("RES_NAME", 8), M_RES_NAME);
    CHECK_INT(macro_id("RES_NAM", 7), -1);
    CHECK_INT(macro_id("RES_NAMES", 9), -1);
    CHECK(!macro_is_known("EXISTS", 6));
    CHECK_INT(macro_flags("ATTR", 4),
              MACRO_READS_WORLD | MACRO_TAKES_RESOURCE | MACRO_TAKES_ATTRIBUTE);
    CHECK_INT(macro_flags("EXIST", 5), MACRO_READS_WORLD | MACRO_TAKES_RESOURCE);
    CHECK_INT(macro_flags("CLOCK", 5), MACRO_READS_WORLD | MACRO_NOT_REMEMBERED);
    CHECK_INT(macro_flags("SUM", 3), 0);
    CHECK_INT(macro_flags("NOPE", 4), 0);
    buf b = BUF_INIT;
    CHECK_INT(macro_known_list(&b), 0);
    CHECK_STR(buf_str(&b), known);
    buf_free(&b);
}

/* Expands text with a host that answers no world macro. */
static int expand(const char *text, buf *out, buf *err)
{
    static const macro_eval_fn none[M_NMACROS];
    uint32_t seq = 0, changes = 0;
    size_t nres = 0;
    int dyn = 0;
    macro_host h = {NULL, none, &seq, &changes, &nres, &dyn};
    buf_clear(err);
    return macro_expand(&h, NULL, text, strlen(text), out, err);
}

static void test_expand(void)
{
    buf out = BUF_INIT, err = BUF_INIT;
    CHECK_INT(expand("[$SUM{1,2.25}]x=$CALC{$SUM{1,1}*3}", &out, &err), 0);
    CHECK_STR(buf_str(&out), "[3.25]x=6");
    CHECK_INT(expand("$OUTCOME{1==1; 2==3}", &out, &err), 0);
    CHECK_STR(buf_str(&out), "error");
    CHECK_INT(expand("$SUM{1,x}", &out, &err), -1);
    CHECK_STR(buf_str(&err), "$SUM{1,x}: 'x' is not a decimal number");
    CHECK_INT(expand("a $FOO{1}", &out, &err), -1);
    CHECK_STR(buf_str(&err), "unknown macro $FOO (known: $EXIST, $COUNT, $ATTR, $RES_NAME, "
                             "$RES_DISPLAYNAME, $RES_COLOR, $SUM, $CALC, $CLOCK, $OUTCOME)");
#ifdef NDEBUG
    /* A world macro with no evaluator fails with its name (a debug build
     * stops at the assertion instead): never another macro's value. */
    CHECK_INT(expand("$RES_COLOR{A}", &out, &err), -1);
    CHECK_STR(buf_str(&err), "$RES_COLOR{A}: not evaluated here (tlv has no evaluator for this macro)");
#endif
    buf_free(&out);
    buf_free(&err);
}

int main(void)
{
    test_rows();
    test_lookup();
    test_expand();
    return CHECK_DONE();
}
