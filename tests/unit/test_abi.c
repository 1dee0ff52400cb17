/*
 * test_abi.c — the ABI policy of tlv.h, checked as a program built against
 * other headers would meet it. "Old" layouts are declared here as such a
 * program's compiler saw them: the structs as they are now without their
 * last member(s). Output structs: a *_sized call given an old layout fills
 * exactly that prefix, the same values as a full call, and writes no byte
 * past it. Input structs: an old options struct (struct_size set to its
 * own size) is read only that far — garbage behind it is ignored and the
 * missing members take their defaults; struct_size 0 reads the 0.1 layout;
 * a newer, longer struct works with its unknown tail ignored; the init
 * function touches no byte past the caller's size. Uses tests/e2e/mini.
 */
#include "check.h"
#include "scratch.h"

#include <tlv/render.h>
#include <tlv/tlv.h>

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define GUARD 0xA5

/* ---- old layouts, as an older program's headers declared them --------------- */

typedef struct old_shape_info { /* before `value` */
    const char *rule, *event, *resource;
    size_t row;
    tlv_time from, to;
    const char *type, *text;
    uint32_t fill;
    int has_fill;
    uint32_t pen;
    int has_pen;
    int is_when;
} old_shape_info;

typedef struct old_shapes_options { /* before skip_rules */
    size_t struct_size;
    const char *cpu_attribute, *running_attribute, *running_value;
} old_shapes_options;

typedef struct old_view { /* before rows and row_count */
    size_t struct_size;
    double t0, t1;
    int width, height, label_width, ruler_height, row_height, first_row;
    float scale;
} old_view;

/* ---- checks ------------------------------------------------------------------ */

/* A buffer of `full` bytes of guard, given to a fill as an old layout of
 * `old` bytes: the prefix must equal `expect` and the rest stay guard. */
static void check_prefix(const char *what, const unsigned char *buf, size_t old, size_t full,
                         const void *expect)
{
    if (memcmp(buf, expect, old) != 0) {
        fprintf(stderr, "%s: the old layout's members differ from a full call's\n", what);
        check_failures++;
    }
    for (size_t i = old; i < full; i++)
        if (buf[i] != GUARD) {
            fprintf(stderr, "%s: byte %zu written past the old layout's %zu\n", what, i, old);
            check_failures++;
            return;
        }
}

/* Fills T through FN(args..., out, size) both whole and as a layout ending
 * before member LAST, and checks the second against the first. */
#define CHECK_OUT(T, LAST, FN, ...)                                            \
    do {                                                                       \
        T whole_;                                                              \
        memset(&whole_, 0, sizeof whole_);                                     \
        FN(__VA_ARGS__, &whole_, sizeof whole_);                               \
        unsigned char buf_[sizeof(T) + 32];                                    \
        memset(buf_, GUARD, sizeof buf_);                                      \
        FN(__VA_ARGS__, (T *)(void *)buf_, offsetof(T, LAST));                 \
        check_prefix(#FN, buf_, offsetof(T, LAST), sizeof buf_, &whole_);      \
    } while (0)

static void check_outputs(tlv_trace *t, tlv_shapes *s, tlv_stats *st, tlv_converter *c)
{
    CHECK_OUT(tlv_event, seq, tlv_trace_event_sized, t, 3);
    CHECK_OUT(tlv_shape_info, value, tlv_shapes_get_sized, s, 1);
    CHECK_OUT(tlv_row_info, group, tlv_shapes_row_sized, s, 0);
    CHECK_OUT(tlv_rule_info, skipped, tlv_shapes_rule_sized, s, 0);
    CHECK_OUT(tlv_state_stat, max, tlv_stats_state_sized, st, 0);
    CHECK_OUT(tlv_cpu_stat, intervals, tlv_stats_cpu_sized, st, 0);
    CHECK_OUT(tlv_convert_stats, error_lines, tlv_converter_stats_sized, c);
    tlv_view v;
    tlv_view_fit(&v, s, 300, 100);
    CHECK_OUT(tlv_view_layout, end_row, tlv_view_get_layout_sized, &v, s);

    /* The old struct itself, as declared by an older program. */
    struct {
        old_shape_info info;
        unsigned char after[32];
    } old;
    memset(&old, GUARD, sizeof old);
    tlv_shapes_get_sized(s, 1, (tlv_shape_info *)(void *)&old.info, sizeof old.info);
    tlv_shape_info now;
    tlv_shapes_get(s, 1, &now);
    CHECK_STR(old.info.rule, now.rule);
    CHECK_STR(old.info.type, now.type);
    CHECK(tlv_time_cmp(old.info.from, now.from) == 0 && tlv_time_cmp(old.info.to, now.to) == 0);
    CHECK(old.after[sizeof old.after - 1] == GUARD);

    /* tlv_view_fit into an old view: its members, and struct_size its size. */
    struct {
        old_view v;
        unsigned char after[32];
    } ov;
    memset(&ov, GUARD, sizeof ov);
    tlv_view_fit_sized((tlv_view *)(void *)&ov.v, sizeof ov.v, s, 300, 100);
    CHECK_INT(ov.v.struct_size, sizeof ov.v);
    CHECK(ov.v.t0 == v.t0 && ov.v.t1 == v.t1 && ov.v.width == 300 && ov.v.scale == 1);
    for (size_t i = sizeof ov.v; i < sizeof ov; i++)
        CHECK(((unsigned char *)&ov)[i] == GUARD);
}

/* Every shape's rule, resource and times, to compare builds. */
static char *describe(const tlv_shapes *s)
{
    size_t n = tlv_shapes_count(s), cap = n * 64 + 1, len = 0;
    char *text = malloc(cap);
    for (size_t i = 0; text && i < n; i++) {
        tlv_shape_info si;
        tlv_shapes_get(s, i, &si);
        len += (size_t)snprintf(text + len, cap - len, "%s/%s@%lld-%lld;", si.rule,
                                si.resource ? si.resource : "-", (long long)si.from.ticks,
                                (long long)si.to.ticks);
        if (len >= cap)
            break;
    }
    return text;
}

static void check_shapes_options(const tlv_trace *t)
{
    tlv_shapes *plain = NULL, *skipped = NULL, *old = NULL, *zero = NULL;
    const char *skip[] = {"taskState"};
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    CHECK_INT(o.struct_size, sizeof o);
    tlv_shapes_build(t, &o, &plain);
    o.skip_rules = skip;
    o.n_skip_rules = 1;
    tlv_shapes_build(t, &o, &skipped);
    char *a = describe(plain), *b = describe(skipped);
    CHECK(strcmp(a, b) != 0); /* skipping a rule shows */

    /* An old program's options: skip_rules is not theirs; what lies behind
     * them in memory (here: a skip list) must not be read. */
    struct {
        old_shapes_options o;
        const char *const *skip_rules;
        size_t n;
    } behind = {{sizeof(old_shapes_options), NULL, NULL, NULL}, skip, 1};
    tlv_shapes_build(t, (const tlv_shapes_options *)(void *)&behind, &old);
    char *c = describe(old);
    CHECK_STR(c, a);

    /* struct_size 0: the 0.1 layout, which has skip_rules. */
    tlv_shapes_options z;
    memset(&z, 0, sizeof z);
    z.skip_rules = skip;
    z.n_skip_rules = 1;
    tlv_shapes_build(t, &z, &zero);
    char *d = describe(zero);
    CHECK_STR(d, b);
    free(a);
    free(b);
    free(c);
    free(d);
    tlv_shapes_free(plain);
    tlv_shapes_free(skipped);
    tlv_shapes_free(old);
    tlv_shapes_free(zero);
}

/* The range readers (tlv_trace_event_range_sized, tlv_shapes_get_range_sized):
 * element k is what the one-at-a-time call gives for first + k, elements lie
 * `size` apart in the caller's (old, shorter) layout and no byte past the
 * last one is written; the count stops at the end. */
static void check_ranges(const tlv_trace *t, const tlv_shapes *s)
{
    size_t nev = tlv_trace_event_count(t), nsh = tlv_shapes_count(s);
    CHECK(nev >= 4 && nsh >= 4);
    enum { K = 3 };
    size_t esz = offsetof(tlv_event, seq); /* an old layout, without seq */
    unsigned char ebuf[K * sizeof(tlv_event) + 32];
    memset(ebuf, GUARD, sizeof ebuf);
    CHECK_INT(tlv_trace_event_range_sized(t, nev - 2, K, (tlv_event *)(void *)ebuf, esz), 2);
    for (size_t k = 0; k < 2; k++) {
        tlv_event one;
        tlv_trace_event(t, nev - 2 + k, &one);
        size_t span = k == 1 ? sizeof ebuf - esz : esz; /* after the last: guard */
        check_prefix("tlv_trace_event_range_sized", ebuf + k * esz, esz, span, &one);
    }
    CHECK_INT(tlv_trace_event_range_sized(t, nev, K, (tlv_event *)(void *)ebuf, esz), 0);

    tlv_shape_info sbuf[K + 1];
    memset(sbuf, GUARD, sizeof sbuf);
    CHECK_INT(tlv_shapes_get_range_sized(s, 1, K, sbuf, sizeof *sbuf), K);
    for (size_t k = 0; k < K; k++) {
        tlv_shape_info one;
        tlv_shapes_get(s, 1 + k, &one);
        CHECK_STR(sbuf[k].rule, one.rule);
        CHECK(tlv_time_cmp(sbuf[k].from, one.from) == 0 && sbuf[k].row == one.row);
    }
    CHECK(((unsigned char *)&sbuf[K])[0] == GUARD);
    CHECK_INT(tlv_shapes_get_range_sized(s, nsh - 1, K, sbuf, sizeof *sbuf), 1);
    CHECK_INT(tlv_shapes_get_range_sized(s, nsh, K, sbuf, sizeof *sbuf), 0);
}

/* A view of an old program (no row list) with a bogus row list behind it
 * draws like a view without one; a newer program's longer view works. */
static void check_view(const tlv_shapes *s)
{
    enum { W = 200, H = 80 };
    static uint8_t want[W * H * 4], got[W * H * 4];
    tlv_renderer *r = NULL;
    CHECK_INT(tlv_renderer_new(&r), TLV_OK);
    tlv_view v;
    tlv_view_fit(&v, s, W, H);
    CHECK_INT(v.struct_size, sizeof v);
    CHECK_INT(tlv_render_rgba(r, s, &v, want, W * 4), TLV_OK);

    static const size_t bogus[] = {999, 998};
    struct {
        old_view v;
        const size_t *rows;
        size_t row_count;
    } behind;
    memset(&behind, 0, sizeof behind);
    memcpy(&behind.v, &v, sizeof behind.v);
    behind.v.struct_size = sizeof behind.v;
    behind.rows = bogus;
    behind.row_count = 2;
    CHECK_INT(tlv_render_rgba(r, s, (const tlv_view *)(void *)&behind, got, W * 4), TLV_OK);
    CHECK(memcmp(want, got, sizeof want) == 0);

    struct {
        tlv_view v;
        double added_later[4]; /* members of a newer header */
    } newer;
    memset(&newer, 0x7f, sizeof newer);
    tlv_view_fit_sized(&newer.v, sizeof newer, s, W, H);
    CHECK_INT(newer.v.struct_size, sizeof newer.v); /* what the library filled */
    newer.v.struct_size = sizeof newer;
    memset(got, 0, sizeof got);
    CHECK_INT(tlv_render_rgba(r, s, &newer.v, got, W * 4), TLV_OK);
    CHECK(memcmp(want, got, sizeof want) == 0);
    CHECK(tlv_view_x(&newer.v, v.t0) == tlv_view_x(&v, v.t0));
    tlv_renderer_free(r);
}

static void check_init(void)
{
    struct {
        size_t struct_size;
        const char *const *search_dirs;
        unsigned char after[32];
    } old;
    memset(&old, GUARD, sizeof old);
    size_t size = offsetof(tlv_rules_options, n_search_dirs);
    tlv_rules_options_init_sized((tlv_rules_options *)(void *)&old, size);
    CHECK_INT(old.struct_size, size);
    CHECK(old.search_dirs == NULL);
    CHECK(old.after[0] == GUARD && old.after[31] == GUARD);
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    CHECK_INT(o.struct_size, sizeof o);

    tlv_stats_options so = TLV_STATS_OPTIONS_INIT;
    CHECK_INT(so.struct_size, sizeof so);
}

int main(void)
{
    const char *src = getenv("TLV_SOURCE_DIR");
    if (!src)
        SKIP("TLV_SOURCE_DIR is not set");
    char dir[1024], res[1100], log[1100];
    snprintf(dir, sizeof dir, "%s/tests/e2e/mini", src);
    snprintf(res, sizeof res, "%s/mini.res", dir);
    snprintf(log, sizeof log, "%s/mini.log", dir);
    tlv_rules *rules = NULL;
    tlv_trace *t = NULL;
    tlv_shapes *s = NULL;
    tlv_stats *st = NULL;
    if (load_rules_in(res, dir, &rules) != TLV_OK || tlv_trace_new(rules, &t) != TLV_OK ||
        tlv_trace_load_file(t, log) != TLV_OK || tlv_shapes_build(t, NULL, &s) != TLV_OK ||
        tlv_stats_compute(t, NULL, &st) != TLV_OK) {
        fprintf(stderr, "cannot convert the mini log\n");
        return 1;
    }
    check_outputs(t, s, st, tlv_trace_converter(t));
    check_ranges(t, s);
    check_shapes_options(t);
    check_view(s);
    check_init();
    tlv_stats_free(st);
    tlv_shapes_free(s);
    tlv_trace_free(t);
    tlv_rules_free(rules);
    return check_failures ? 1 : 0;
}
