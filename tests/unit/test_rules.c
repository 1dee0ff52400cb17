/*
 * test_rules.c — loading and checking rule sets through the public API
 * (tlv_rules_load, tlv_rules_check): target lookup across the files of a
 * directory and across directories, every kind of problem a user can make
 * in a resource file or a rule file with its exact message and position,
 * the standard-form marker, external-process targets, colors and display
 * names; and, when ../shared/corpus is present, that every rule and
 * resource file of TLV 2.0.1 loads cleanly.
 *
 * Rule files are written into a fresh temporary directory at run time.
 */
#include "check.h"
#include "scratch.h"

#include "tlv/tlv.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir_a[PATH_MAX + 8], dir_b[PATH_MAX + 8];

/* ---- helpers ---------------------------------------------------------------- */

static const char *path_of(const char *rel)
{
    static char paths[8][PATH_MAX + 64];
    static int next;
    char *p = paths[next++ % 8];
    snprintf(p, PATH_MAX + 64, "%s/%s", tmpdir, rel);
    return p;
}

/* 1-based line and column (in characters) of the first `needle` in text,
 * plus `skip` characters. */
static void pos_of(const char *text, const char *needle, int skip, long *line, long *col)
{
    const char *at = strstr(text, needle);
    if (!at) {
        fprintf(stderr, "fixture error: '%s' not found\n", needle);
        exit(1);
    }
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            ++*line;
            *col = 1;
        } else if (((unsigned char)*p & 0xC0) != 0x80) {
            ++*col;
        }
    }
    *col += skip;
}

static void dump(const tlv_rules *r)
{
    const tlv_diags *d = tlv_rules_diags(r);
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char text[2048];
        tlv_diag_format(tlv_diags_get(d, i), text, sizeof text);
        fprintf(stderr, "    diag %zu: %s\n", i, text);
    }
}

/* The i-th diagnostic as "file:line:col: error: message". */
static const char *diag(const tlv_rules *r, size_t i)
{
    static char text[4096];
    const tlv_diag *g = tlv_diags_get(tlv_rules_diags(r), i);
    if (!g)
        return "(no such diagnostic)";
    tlv_diag_format(g, text, sizeof text);
    return text;
}

static const char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static const char *fmt(const char *f, ...)
{
    static char text[4][4096];
    static int next;
    char *t = text[next++ % 4];
    va_list ap;
    va_start(ap, f);
    vsnprintf(t, 4096, f, ap);
    va_end(ap);
    return t;
}

#define CHECK_NDIAGS(r, n)                                                     \
    do {                                                                       \
        size_t nd_ = tlv_diags_count(tlv_rules_diags(r));                      \
        if (nd_ != (size_t)(n)) {                                              \
            fprintf(stderr, "%s:%d: %zu diagnostics, expected %d:\n", __FILE__, \
                    __LINE__, nd_, (int)(n));                                  \
            dump(r);                                                           \
            check_failures++;                                                  \
        }                                                                      \
    } while (0)

/* Loads tmpdir/res with the given search directories (NULL-terminated),
 * ignoring the environment and the installed rules. */
static tlv_status load_opts(const char *res, int allow_scripts, tlv_rules **out, ...)
{
    const char *dirs[8];
    size_t n = 0;
    va_list ap;
    va_start(ap, out);
    for (const char *d; n < 8 && (d = va_arg(ap, const char *));)
        dirs[n++] = d;
    va_end(ap);
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = n;
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    o.allow_scripts = allow_scripts;
    *out = NULL;
    tlv_status st = tlv_rules_load(path_of(res), &o, out);
    CHECK(*out != NULL);
    return st;
}

#define load(res, out, ...) load_opts((res), 0, (out), __VA_ARGS__, (const char *)NULL)

/* ---- fixtures ---------------------------------------------------------------- */

static const char types1_resh[] =
    "{\n"
    "  \"hdr\": {\n"
    "    \"Task\": {\n"
    "      \"DisplayName\": \"Task\",\n"
    "      \"Attributes\": {\n"
    "        \"state\": {\"VariableType\": \"String\", \"Default\": \"DORMANT\"},\n"
    "        \"id\": {\"VariableType\": \"Number\", \"AllocationType\": \"Static\"}\n"
    "      },\n"
    "      \"Behaviors\": {\"go\": {\"Arguments\": {\"x\": \"String\"}}}\n"
    "    }\n"
    "  }\n"
    "}\n";

/* The same target in a second file of the same directory: merges. */
static const char types2_resh[] =
    "\xEF\xBB\xBF{\r\n"
    "  \"hdr\": {\r\n"
    "    \"Cpu\": {\"Attributes\": {\"load\": {\"VariableType\": \"Number\", \"Default\": 0},},},\r\n"
    "  },\r\n"
    "  \"unused\": {\"Junk\": 5}\r\n"
    "}\r\n";

/* Another directory with the same target, and one of its own. */
static const char types_b_resh[] =
    "{\n"
    "  \"hdr\": {\"BOnly\": {\"Attributes\": {}}},\n"
    "  \"bhdr\": {\"Task\": {\"Attributes\": {\"state\": {\"VariableType\": \"String\"}}}}\n"
    "}\n";

static const char conv_cnv[] =
    "{\n"
    "  \"cv\": {\n"
    "    \"^(?<t>\\d+) go$\": \"[${t}]T1.go(1)\"\n"
    "  },\n"
    "  \"notrequested\": {\"(\": 42}\n"
    "}\n";

static const char script_cnv[] =
    "{\n"
    "  \"ext\": {\"$STYLE\": \"script\", \"fileName\": \"ruby\", \"arguments\": \"{0} -x\",\n"
    "           \"script\": \"puts 1\"}\n"
    "}\n";

static const char good_res[] =
    "{\n"
    "  \"TimeScale\": \"ns\",\n"
    "  \"TimeRadix\": 16,\n"
    "  \"ResourceHeaders\": [\"hdr\"],\n"
    "  \"ConvertRules\": [\"cv\"],\n"
    "  \"Resources\": {\n"
    "    \"T1\": {\"Type\": \"Task\", \"DisplayName\": \"\xE3\x82\xBF\xE3\x82\xB9\xE3\x82\xAF" "1\", \"Attributes\": {\"id\": 1}},\n"
    "    \"C1\": {\"Type\": \"Cpu\", \"Color\": \"00Ff80\"},\n"
    "    \"T2\": {\"Type\": \"Task\", \"Attributes\": {\"id\": 2, \"state\": \"READY\"}}\n"
    "  }\n"
    "}\n";

static void setup(void)
{
    make_tmpdir("rules");
    snprintf(dir_a, sizeof dir_a, "%s/a", tmpdir);
    snprintf(dir_b, sizeof dir_b, "%s/b", tmpdir);
    write_file("a/types1.resh", types1_resh);
    write_file("a/types2.resh", types2_resh);
    write_file("a/conv.cnv", conv_cnv);
    write_file("a/script.cnv", script_cnv);
    write_file("a/notes.txt", "{ this is not a rule file");
    write_file("b/types.resh", types_b_resh);
    write_file("good.res", good_res);
}

/* ---- tests ------------------------------------------------------------------- */

static void test_merge_and_resources(void)
{
    tlv_rules *r;
    CHECK_INT(load("good.res", &r, dir_a, dir_b), TLV_OK);
    CHECK_NDIAGS(r, 0);
    CHECK_STR(tlv_rules_time_scale(r), "ns");
    CHECK_INT(tlv_rules_time_radix(r), 16);
    CHECK_INT(tlv_rules_is_standard_form(r), 0);
    CHECK_INT(tlv_rules_resource_count(r), 3);
    CHECK_STR(tlv_rules_resource_name(r, 0), "T1");
    CHECK_STR(tlv_rules_resource_name(r, 1), "C1");
    CHECK_STR(tlv_rules_resource_name(r, 2), "T2");
    CHECK(tlv_rules_resource_name(r, 3) == NULL);
    /* Task from types1.resh, Cpu from types2.resh: one target, two files */
    CHECK_STR(tlv_rules_resource_type(r, 0), "Task");
    CHECK_STR(tlv_rules_resource_type(r, 1), "Cpu");
    CHECK_STR(tlv_rules_resource_type(r, 2), "Task");
    /* display names: as given, else the name */
    CHECK_STR(tlv_rules_resource_display_name(r, 0), "\xE3\x82\xBF\xE3\x82\xB9\xE3\x82\xAF" "1");
    CHECK_STR(tlv_rules_resource_display_name(r, 1), "C1");
    CHECK_STR(tlv_rules_resource_display_name(r, 2), "T2");
    /* colors: given, else the palette in resource order */
    CHECK_INT(tlv_rules_resource_color(r, 0), 0x1f77b4);
    CHECK_INT(tlv_rules_resource_color(r, 1), 0x00ff80);
    CHECK_INT(tlv_rules_resource_color(r, 2), 0xff7f0e);
    tlv_rules_free(r);

    /* the same every run */
    CHECK_INT(load("good.res", &r, dir_a, dir_b), TLV_OK);
    CHECK_INT(tlv_rules_resource_color(r, 0), 0x1f77b4);
    CHECK_INT(tlv_rules_resource_color(r, 2), 0xff7f0e);
    tlv_rules_free(r);

    /* defaults when TimeScale and TimeRadix are not given */
    write_file("defaults.res", "{\"ResourceHeaders\":[\"hdr\"],\"Resources\":{}}");
    CHECK_INT(load("defaults.res", &r, dir_a), TLV_OK);
    CHECK_NDIAGS(r, 0);
    CHECK_STR(tlv_rules_time_scale(r), "us");
    CHECK_INT(tlv_rules_time_radix(r), 10);
    CHECK_INT(tlv_rules_resource_count(r), 0);
    tlv_rules_free(r);

    /* a quoted radix is accepted */
    write_file("radix_str.res", "{\"TimeRadix\":\"8\",\"ResourceHeaders\":[\"hdr\"]}");
    CHECK_INT(load("radix_str.res", &r, dir_a), TLV_OK);
    CHECK_INT(tlv_rules_time_radix(r), 8);
    tlv_rules_free(r);
}

static void test_palette(void)
{
    /* 22 colorless resources: the palette has 20 colors and then repeats;
     * a resource with its own color does not use a palette slot */
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{\"ResourceHeaders\":[\"hdr\"],\"Resources\":{"
                                "\"X\":{\"Type\":\"Cpu\",\"Color\":\"010203\"}");
    for (int i = 0; i < 22; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, ",\"R%d\":{\"Type\":\"Cpu\"}", i);
    snprintf(text + n, sizeof text - n, "}}");
    write_file("palette.res", text);
    tlv_rules *r;
    CHECK_INT(load("palette.res", &r, dir_a), TLV_OK);
    CHECK_INT(tlv_rules_resource_count(r), 23);
    CHECK_INT(tlv_rules_resource_color(r, 0), 0x010203);
    CHECK_INT(tlv_rules_resource_color(r, 1), 0x1f77b4);
    CHECK_INT(tlv_rules_resource_color(r, 2), 0xff7f0e);
    CHECK_INT(tlv_rules_resource_color(r, 3), 0x2ca02c);
    CHECK_INT(tlv_rules_resource_color(r, 20), 0x9edae5);
    CHECK_INT(tlv_rules_resource_color(r, 21), 0x1f77b4);
    CHECK_INT(tlv_rules_resource_color(r, 22), 0xff7f0e);
    /* all 20 palette colors are distinct */
    int dup = 0;
    for (size_t i = 1; i <= 20; i++)
        for (size_t j = i + 1; j <= 20; j++)
            dup += tlv_rules_resource_color(r, i) == tlv_rules_resource_color(r, j);
    CHECK_INT(dup, 0);
    tlv_rules_free(r);
}

static void test_directory_override(void)
{
    tlv_rules *r;
    /* b first: "hdr" comes from b alone, which has no Task and no Cpu */
    CHECK_INT(load("good.res", &r, dir_b, dir_a), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 3);
    long l, c;
    pos_of(good_res, "\"Task\", \"Disp", 0, &l, &c);
    CHECK_STR(diag(r, 0), fmt("%s:%ld:%ld: error: resource 'T1': type 'Task' is not declared in "
                              "the resource headers", path_of("good.res"), l, c));
    pos_of(good_res, "\"Cpu\"", 0, &l, &c);
    CHECK_STR(diag(r, 1), fmt("%s:%ld:%ld: error: resource 'C1': type 'Cpu' is not declared in "
                              "the resource headers", path_of("good.res"), l, c));
    CHECK_INT(tlv_rules_resource_count(r), 0);
    tlv_rules_free(r);

    /* a first: BOnly (only in b's "hdr") is not seen */
    static const char bonly_res[] =
        "{\"ResourceHeaders\": [\"hdr\"],\n"
        " \"Resources\": {\"X\": {\"Type\": \"BOnly\"}}}\n";
    write_file("bonly.res", bonly_res);
    CHECK_INT(load("bonly.res", &r, dir_a, dir_b), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 1);
    pos_of(bonly_res, "\"BOnly\"", 0, &l, &c);
    CHECK_STR(diag(r, 0), fmt("%s:%ld:%ld: error: resource 'X': type 'BOnly' is not declared in "
                              "the resource headers", path_of("bonly.res"), l, c));
    tlv_rules_free(r);
    CHECK_INT(load("bonly.res", &r, dir_b, dir_a), TLV_OK);
    CHECK_NDIAGS(r, 0);
    CHECK_STR(tlv_rules_resource_type(r, 0), "BOnly");
    tlv_rules_free(r);

    /* a target only the later directory has is found there, while the
     * earlier directory still supplies the targets it has */
    write_file("both.res", "{\"ResourceHeaders\": [\"hdr\", \"bhdr\"],\n"
                           " \"Resources\": {\"C\": {\"Type\": \"Cpu\"}}}\n");
    CHECK_INT(load("both.res", &r, dir_a, dir_b), TLV_OK);
    CHECK_NDIAGS(r, 0);
    tlv_rules_free(r);
    /* ... and with b first, "hdr" is b's: no Cpu, and bhdr's Task has no id */
    CHECK_INT(load("both.res", &r, dir_b, dir_a), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 1);
    tlv_rules_free(r);
}

static void test_missing_target(void)
{
    static const char res[] =
        "{\n"
        "  \"ResourceHeaders\": [\"hdr\"],\n"
        "  \"ConvertRules\": [\"cv\", \"nope\"],\n"
        "  \"Resources\": {}\n"
        "}\n";
    write_file("missing.res", res);
    tlv_rules *r;
    CHECK_INT(load("missing.res", &r, dir_a, dir_b), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 1);
    long l, c;
    pos_of(res, "\"nope\"", 0, &l, &c);
    CHECK_INT(l, 3);
    CHECK_INT(c, 26);
    CHECK_STR(diag(r, 0),
              fmt("%s:3:26: error: target 'nope' (ConvertRules) is not in any .cnv file of the "
                  "rule path (searched: %s, %s)", path_of("missing.res"), dir_a, dir_b));
    CHECK_INT(tlv_diags_errors(tlv_rules_diags(r)), 1);
    tlv_rules_free(r);

    /* a missing resource header target, and no directory at all */
    static const char res2[] = "{\"ResourceHeaders\": [\"hdr\"]}";
    write_file("nodirs.res", res2);
    CHECK_INT(load("nodirs.res", &r, NULL), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 1);
    CHECK_STR(diag(r, 0),
              fmt("%s:1:22: error: target 'hdr' (ResourceHeaders) is not in any .resh file of the "
                  "rule path (no rule directory is set: use -R DIR or TLV_RULES_PATH)",
                  path_of("nodirs.res")));
    tlv_rules_free(r);

    /* TLV_RULES_PATH given through the options is searched */
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.no_default_dirs = 1;
    char env[2 * PATH_MAX + 32];
    snprintf(env, sizeof env, "%s/none:%s", tmpdir, dir_a);
    o.rules_path_env = env;
    CHECK_INT(tlv_rules_load(path_of("nodirs.res"), &o, &r), TLV_OK);
    CHECK_NDIAGS(r, 0);
    tlv_rules_free(r);
}

static void test_malformed_json(void)
{
    static const char res[] =
        "{\n"
        "  \"TimeScale\": \"us\"\n"
        "  \"TimeRadix\": 10\n"
        "}\n";
    write_file("malformed.res", res);
    tlv_rules *r;
    CHECK_INT(load("malformed.res", &r, dir_a), TLV_ERR_SYNTAX);
    CHECK_NDIAGS(r, 1);
    CHECK_STR(diag(r, 0), fmt("%s:3:3: error: expected ',' or '}' after an object member, found "
                              "'\"'", path_of("malformed.res")));
    tlv_rules_free(r);

    /* columns count characters, not bytes */
    write_file("malformed2.res", "{\"Resources\": {\"\xE3\x82\xBF\": x}}");
    CHECK_INT(load("malformed2.res", &r, dir_a), TLV_ERR_SYNTAX);
    CHECK_STR(diag(r, 0), fmt("%s:1:21: error: expected a value, found 'x'",
                              path_of("malformed2.res")));
    tlv_rules_free(r);

    /* a file that cannot be read */
    CHECK_INT(load("does-not-exist.res", &r, dir_a), TLV_ERR_IO);
    CHECK_NDIAGS(r, 1);
    CHECK_STR(diag(r, 0), fmt("%s: error: cannot read the resource file: No such file or directory",
                              path_of("does-not-exist.res")));
    tlv_rules_free(r);

    /* a resource file that is not an object */
    write_file("array.res", "[1, 2]");
    CHECK_INT(load("array.res", &r, dir_a), TLV_ERR_SYNTAX);
    CHECK_STR(diag(r, 0), fmt("%s:1:1: error: a resource file must hold one JSON object, found an "
                              "array", path_of("array.res")));
    tlv_rules_free(r);

    /* a malformed rule file in the search path, with the target requested */
    static const char bad_cnv[] = "{\n  \"cv\": {\"a\" \"b\"}\n}\n";
    write_file("c/bad.cnv", bad_cnv);
    write_file("c/types.resh", types1_resh);
    write_file("usesc.res", "{\"ResourceHeaders\":[\"hdr\"],\"ConvertRules\":[\"cv\"]}");
    char dir_c[PATH_MAX + 8];
    snprintf(dir_c, sizeof dir_c, "%s/c", tmpdir);
    tlv_status st = load("usesc.res", &r, dir_c);
    CHECK(st == TLV_ERR_SYNTAX || st == TLV_ERR_RULE);
    CHECK_NDIAGS(r, 2);
    CHECK_STR(diag(r, 0), fmt("%s/bad.cnv:2:14: error: expected ':' after the member name, found "
                              "'\"'", dir_c));
    CHECK_STR(diag(r, 1), fmt("%s:1:44: error: target 'cv' (ConvertRules) is not in any .cnv file "
                              "of the rule path (searched: %s)", path_of("usesc.res"), dir_c));
    tlv_rules_free(r);
}

/* Writes a rule file d/NAME.cnv with one target "t" and a .res requesting
 * it; loads it; returns the handle. */
static tlv_status load_cnv(const char *name, const char *cnv_text, tlv_rules **r)
{
    char rel[256];
    snprintf(rel, sizeof rel, "%s/rules.cnv", name);
    write_file(rel, cnv_text);
    snprintf(rel, sizeof rel, "%s/types.resh", name);
    write_file(rel, types1_resh);
    snprintf(rel, sizeof rel, "%s.res", name);
    write_file(rel, "{\"ResourceHeaders\":[\"hdr\"],\"ConvertRules\":[\"t\"],"
                    "\"Resources\":{\"T1\":{\"Type\":\"Task\"}}}");
    char dir[PATH_MAX + 64];
    snprintf(dir, sizeof dir, "%s/%s", tmpdir, name);
    return load(rel, r, dir);
}

static void test_rule_problems(void)
{
    tlv_rules *r;
    long l, c;
    char cnvpath[PATH_MAX + 64];

    /* a regex that does not compile */
    static const char badre[] =
        "{\"t\": {\n"
        "  \"^(?<t>\\d+) ok$\": \"[${t}]T1.go(1)\",\n"
        "  \"^(?<t>\\d+) [bad$\": \"[${t}]T1.go(2)\"\n"
        "}}\n";
    CHECK_INT(load_cnv("badre", badre, &r), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 1);
    snprintf(cnvpath, sizeof cnvpath, "%s/badre/rules.cnv", tmpdir);
    CHECK_STR(diag(r, 0), fmt("%s:3:3: error: regex \"^(?<t>\\d+) [bad$\" does not compile: "
                              "missing terminating ] for character class at character 17",
                              cnvpath));
    tlv_rules_free(r);

    static const char badre2[] = "{\"t\": {\"x(?<1a>y)\": \"\"}}";
    CHECK_INT(load_cnv("badre2", badre2, &r), TLV_ERR_RULE);
    snprintf(cnvpath, sizeof cnvpath, "%s/badre2/rules.cnv", tmpdir);
    CHECK_STR(diag(r, 0), fmt("%s:1:8: error: regex \"x(?<1a>y)\" does not compile: subpattern "
                              "name must start with a non-digit at character 5", cnvpath));
    tlv_rules_free(r);

    /* an unknown macro, in a template and in a condition */
    static const char badmacro[] =
        "{\"t\": {\n"
        "  \"^(?<t>\\d+) x$\": {\n"
        "     \"$EXISTS{T1}\": \"[${t}]$RESNAME{T1}.go(1)\"\n"
        "  }\n"
        "}}\n";
    CHECK_INT(load_cnv("badmacro", badmacro, &r), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 2);
    snprintf(cnvpath, sizeof cnvpath, "%s/badmacro/rules.cnv", tmpdir);
    pos_of(badmacro, "\"[${t}]$RESNAME", 0, &l, &c);
    CHECK_STR(diag(r, 0), fmt("%s:%ld:%ld: error: unknown macro $RESNAME in \"[${t}]$RESNAME{T1}."
                              "go(1)\" (known: $EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, "
                              "$RES_COLOR, $SUM, $CALC, $CLOCK, $OUTCOME)", cnvpath, l, c));
    pos_of(badmacro, "\"$EXISTS", 0, &l, &c);
    CHECK_STR(diag(r, 1), fmt("%s:%ld:%ld: error: unknown macro $EXISTS in \"$EXISTS{T1}\" "
                              "(known: $EXIST, $COUNT, $ATTR, $RES_NAME, $RES_DISPLAYNAME, "
                              "$RES_COLOR, $SUM, $CALC, $CLOCK, $OUTCOME)", cnvpath, l, c));
    tlv_rules_free(r);

    /* ${foo} that names no group: a warning, the load succeeds */
    static const char unknown_group[] =
        "{\"t\": {\n"
        "  \"^(?<t>\\d+) x$\": [\"[${t}]T1.go(${foo})\"]\n"
        "}}\n";
    CHECK_INT(load_cnv("unkgroup", unknown_group, &r), TLV_OK);
    CHECK_NDIAGS(r, 1);
    snprintf(cnvpath, sizeof cnvpath, "%s/unkgroup/rules.cnv", tmpdir);
    pos_of(unknown_group, "\"[${t}]T1", 0, &l, &c);
    CHECK_STR(diag(r, 0), fmt("%s:%ld:%ld: warning: ${foo} names no group of the rule's regex and "
                              "is kept as text in \"[${t}]T1.go(${foo})\"", cnvpath, l, c));
    CHECK_INT(tlv_diags_errors(tlv_rules_diags(r)), 0);
    tlv_rules_free(r);

    /* an output that is neither string, array nor object */
    static const char badout[] = "{\"t\": {\"^x$\": 5}}";
    CHECK_INT(load_cnv("badout", badout, &r), TLV_ERR_RULE);
    snprintf(cnvpath, sizeof cnvpath, "%s/badout/rules.cnv", tmpdir);
    CHECK_STR(diag(r, 0), fmt("%s:1:15: error: an output must be a string, an array or an object "
                              "of conditions, found a number", cnvpath));
    tlv_rules_free(r);

    /* a target requested but not requested targets with problems are ignored:
     * conv.cnv's "notrequested" would fail; good.res loaded cleanly above */
}

static void test_resource_problems(void)
{
    static const char res[] =
        "{\n"
        "  \"TimeRadix\": 37,\n"
        "  \"ResourceHeaders\": [\"hdr\"],\n"
        "  \"Resources\": {\n"
        "    \"GHOST\": {\"Type\": \"Phantom\"},\n"
        "    \"T1\": {\"Type\": \"Task\", \"Attributes\": {\"prio\": 3, \"state\": \"READY\"}},\n"
        "    \"T2\": {\"Type\": \"Task\", \"Color\": \"12345g\"},\n"
        "    \"T3\": {\"Type\": \"Task\", \"Color\": \"fff\"},\n"
        "    \"T4\": {\"Attributes\": {}},\n"
        "    \"T5\": {\"Type\": \"Task\", \"Attributes\": {\"state\": [1]}}\n"
        "  }\n"
        "}\n";
    write_file("badres.res", res);
    tlv_rules *r;
    CHECK_INT(load("badres.res", &r, dir_a), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 7);
    const char *p = path_of("badres.res");
    long l, c;
    pos_of(res, "37", 0, &l, &c);
    CHECK_STR(diag(r, 0), fmt("%s:%ld:%ld: error: \"TimeRadix\" must be a whole number from 2 to 36",
                              p, l, c));
    pos_of(res, "\"Phantom\"", 0, &l, &c);
    CHECK_STR(diag(r, 1), fmt("%s:%ld:%ld: error: resource 'GHOST': type 'Phantom' is not declared "
                              "in the resource headers", p, l, c));
    pos_of(res, "\"prio\"", 0, &l, &c);
    CHECK_STR(diag(r, 2), fmt("%s:%ld:%ld: error: resource 'T1': type 'Task' has no attribute "
                              "'prio'", p, l, c));
    pos_of(res, "\"12345g\"", 0, &l, &c);
    CHECK_STR(diag(r, 3), fmt("%s:%ld:%ld: error: resource 'T2': Color '12345g' is not a color "
                              "(expected rrggbb in hexadecimal)", p, l, c));
    pos_of(res, "\"fff\"", 0, &l, &c);
    CHECK_STR(diag(r, 4), fmt("%s:%ld:%ld: error: resource 'T3': Color 'fff' is not a color "
                              "(expected rrggbb in hexadecimal)", p, l, c));
    pos_of(res, "\"T4\"", 0, &l, &c);
    CHECK_STR(diag(r, 5), fmt("%s:%ld:%ld: error: resource 'T4' has no \"Type\"", p, l, c));
    pos_of(res, "[1]", 0, &l, &c);
    CHECK_STR(diag(r, 6), fmt("%s:%ld:%ld: error: resource 'T5': attribute 'state' must be a "
                              "string, number or boolean, found an array", p, l, c));
    CHECK_INT(tlv_diags_errors(tlv_rules_diags(r)), 7);
    tlv_rules_free(r);

    /* other bad radixes */
    static const char *const radixes[] = {"1", "1.5", "\"x16\"", "\"40\"", "true"};
    for (size_t i = 0; i < sizeof radixes / sizeof *radixes; i++) {
        char text[128];
        snprintf(text, sizeof text, "{\"TimeRadix\": %s}", radixes[i]);
        write_file("radix.res", text);
        CHECK_INT(load("radix.res", &r, dir_a), TLV_ERR_RULE);
        CHECK_STR(diag(r, 0), fmt("%s:1:15: error: \"TimeRadix\" must be a whole number from 2 "
                                  "to 36", path_of("radix.res")));
        CHECK_INT(tlv_rules_time_radix(r), 10);
        tlv_rules_free(r);
    }
}

static void test_standard_form(void)
{
    write_file("std.res", "{\"ConvertRules\":[\"\"],\"ResourceHeaders\":[\"hdr\"],"
                          "\"Resources\":{\"T1\":{\"Type\":\"Task\"}}}");
    tlv_rules *r;
    CHECK_INT(load("std.res", &r, dir_a), TLV_OK);
    CHECK_NDIAGS(r, 0);
    CHECK_INT(tlv_rules_is_standard_form(r), 1);
    tlv_rules_free(r);
    /* no ConvertRules at all is not standard form */
    CHECK_INT(load("defaults.res", &r, dir_a), TLV_OK);
    CHECK_INT(tlv_rules_is_standard_form(r), 0);
    tlv_rules_free(r);
}

static void test_script_targets(void)
{
    static const char res[] =
        "{\"ResourceHeaders\":[\"hdr\"],\n"
        " \"ConvertRules\":[\"ext\"]}\n";
    write_file("script.res", res);
    tlv_rules *r;
    tlv_status st = load("script.res", &r, dir_a);
    CHECK(st == TLV_ERR_RULE || st == TLV_ERR_SCRIPT);
    CHECK_NDIAGS(r, 1);
    long l, c;
    pos_of(script_cnv, "{\"$STYLE", 0, &l, &c);
    CHECK_STR(diag(r, 0), fmt("%s/script.cnv:%ld:%ld: error: target 'ext' is an external-process "
                              "rule (it runs \"ruby {0} -x\"); it runs only when scripts are "
                              "allowed (tlv: --allow-scripts)", dir_a, l, c));
    tlv_rules_free(r);

    CHECK_INT(load_opts("script.res", 1, &r, dir_a, (const char *)NULL), TLV_OK);
    CHECK_NDIAGS(r, 0);
    tlv_rules_free(r);
}

static void test_check(void)
{
    /* tlv_rules_check lists every problem of every file, not only the first */
    static const char cnv[] =
        "{\"one\": {\"(\": \"x\", \"ok\": \"[1]T.a=${nogroup}\"},\n"
        " \"two\": {\"[\": \"$BAD{x}\"}}\n";
    write_file("chk/x.cnv", cnv);
    const char *files[] = {path_of("chk/x.cnv"), path_of("a/types1.resh"), path_of("a/conv.cnv")};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    tlv_rules *r = NULL;
    CHECK_INT(tlv_rules_check(NULL, files, 2, &o, &r), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 3);
    const char *p = path_of("chk/x.cnv");
    CHECK_STR(diag(r, 0), fmt("%s:1:10: error: regex \"(\" does not compile: missing closing "
                              "parenthesis at character 2", p));
    CHECK_STR(diag(r, 1), fmt("%s:1:26: warning: ${nogroup} names no group of the rule's regex "
                              "and is kept as text in \"[1]T.a=${nogroup}\"", p));
    CHECK_STR(diag(r, 2), fmt("%s:2:10: error: regex \"[\" does not compile: missing terminating ] "
                              "for character class at character 2", p));
    tlv_rules_free(r);

    /* every target of a checked file is checked, requested or not */
    CHECK_INT(tlv_rules_check(NULL, files + 2, 1, &o, &r), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 1);
    tlv_rules_free(r);

    /* a resource file is checked with its targets */
    const char *dirs[] = {dir_a};
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    CHECK_INT(tlv_rules_check(path_of("good.res"), files + 1, 1, &o, &r), TLV_OK);
    CHECK_NDIAGS(r, 0);
    tlv_rules_free(r);
    CHECK_INT(tlv_rules_check(path_of("badres.res"), NULL, 0, &o, &r), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 7);
    tlv_rules_free(r);
}

static void test_check_conditions(void)
{
    /* every condition tlv check can see is parsed: conversion conditions,
     * resource conditions in macros and event lines, figure conditions and
     * event-pattern resource conditions; substitutions read as operands */
    static const char cnv[] =
        "{\"c\": {\"^(?<t>\\\\d+) (?<x>\\\\w+)$\": {\n"
        "  \"${x}==1 &&\": \"[${t}]A.s=1\",\n"
        "  \"(${x}==2\": \"[${t}]A.s=2\",\n"
        "  \"$EXIST{T(s==1 &&)}\": \"[${t}]A.s=3\",\n"
        "  \"${x}==4 && $EXIST{T(s==RUN || q==${x})}\": [\"[${t}]T(s RUN).s=4\"],\n"
        "  \"a b\": \"[${t}]$RES_NAME{T(s==1)}.s=5\"}}}\n";
    static const char viz[] =
        "{\"v\": {\"VisualizeRules\": {\"r\": {\"Target\": \"T\", \"Shapes\": {\"e\": {\n"
        "  \"From\": \"T(s=)).s\", \"To\": \"${TARGET}.s\",\n"
        "  \"Figures\": {\"${FROM_VAL}==RUN\": \"x\", \"${FROM_VAL}==RUN ||\": [{\"!\": \"y\"}]}}}}}}}\n";
    write_file("chk/cond.cnv", cnv);
    write_file("chk/cond.viz", viz);
    const char *files[] = {path_of("chk/cond.cnv"), path_of("chk/cond.viz")};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.no_default_dirs = 1;
    o.rules_path_env = "";
    tlv_rules *r = NULL;
    CHECK_INT(tlv_rules_check(NULL, files, 2, &o, &r), TLV_ERR_RULE);
    CHECK_NDIAGS(r, 8);
    const char *c = path_of("chk/cond.cnv"), *v = path_of("chk/cond.viz");
    CHECK_STR(diag(r, 0), fmt("%s:2:3: error: malformed condition \"${x}==1 &&\": expected an "
                              "operand after '&&'", c));
    CHECK_STR(diag(r, 1), fmt("%s:3:3: error: malformed condition \"(${x}==2\": missing ')'", c));
    CHECK_STR(diag(r, 2), fmt("%s:4:3: error: malformed resource condition \"s==1 &&\": expected "
                              "an operand after '&&'", c));
    CHECK_STR(diag(r, 3), fmt("%s:5:47: error: malformed resource condition \"s RUN\": expected an "
                              "operator such as '==' after 's RUN'", c));
    CHECK_STR(diag(r, 4), fmt("%s:6:3: error: malformed condition \"a b\": expected an operator "
                              "such as '==' after 'a b'", c));
    CHECK_STR(diag(r, 5), fmt("%s:2:11: error: malformed resource condition \"s=\": expected an "
                              "operator such as '==' after 's='", v));
    CHECK_STR(diag(r, 6), fmt("%s:3:40: error: malformed condition \"${FROM_VAL}==RUN ||\": "
                              "expected an operand after '||'", v));
    CHECK_STR(diag(r, 7), fmt("%s:3:65: error: malformed condition \"!\": expected an operand "
                              "after '!'", v));
    for (size_t i = 8; i < tlv_diags_count(tlv_rules_diags(r)); i++)
        fprintf(stderr, "extra: %s\n", diag(r, i));
    tlv_rules_free(r);
}

/* ---- the corpus ---------------------------------------------------------------- */

static int corpus_checks(void)
{
    const char *corpus = getenv("TLV_CORPUS");
    char rules_dir[PATH_MAX];
    struct stat st;
    if (!corpus || !*corpus)
        return 0;
    snprintf(rules_dir, sizeof rules_dir, "%s/rules", corpus);
    if (stat(rules_dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;

    tlv_rules_options o;
    tlv_rules_options_init(&o);
    const char *dirs[] = {rules_dir};
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    o.no_default_dirs = 1;
    o.rules_path_env = "";

    /* every resource file of every log directory */
    static const char *const subdirs[] = {"asp", "fmp", "fmp_mig", "tecs", "program_asp",
                                          "program_fmp"};
    size_t nres = 0;
    for (size_t s = 0; s < sizeof subdirs / sizeof *subdirs; s++) {
        char d[PATH_MAX + 64];
        snprintf(d, sizeof d, "%s/logs/%s", corpus, subdirs[s]);
        DIR *dp = opendir(d);
        CHECK(dp != NULL);
        if (!dp)
            continue;
        struct dirent *e;
        while ((e = readdir(dp))) {
            size_t n = strlen(e->d_name);
            if (n < 5 || strcmp(e->d_name + n - 4, ".res") != 0)
                continue;
            char res[2 * PATH_MAX];
            snprintf(res, sizeof res, "%s/%s", d, e->d_name);
            tlv_rules *r = NULL;
            tlv_status status = tlv_rules_load(res, &o, &r);
            if (status != TLV_OK || tlv_diags_count(tlv_rules_diags(r)) != 0) {
                fprintf(stderr, "%s: status %d, %zu diagnostics\n", res, (int)status,
                        tlv_diags_count(tlv_rules_diags(r)));
                dump(r);
                check_failures++;
            }
            if (r && tlv_rules_resource_count(r) == 0) {
                fprintf(stderr, "%s: no resources\n", res);
                check_failures++;
            }
            tlv_rules_free(r);
            nres++;
        }
        closedir(dp);
    }
    CHECK_INT(nres, 14);

    /* every rule file, checked on its own and all together */
    DIR *dp = opendir(rules_dir);
    CHECK(dp != NULL);
    if (!dp)
        return 1;
    char *files[64];
    size_t nfiles = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && nfiles < 64) {
        if (e->d_name[0] == '.')
            continue;
        char path[2 * PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", rules_dir, e->d_name);
        files[nfiles++] = strdup(path);
    }
    closedir(dp);
    CHECK_INT(nfiles, 18);
    for (size_t i = 0; i < nfiles; i++) {
        tlv_rules *r = NULL;
        const char *one[] = {files[i]};
        tlv_status status = tlv_rules_check(NULL, one, 1, &o, &r);
        if (status != TLV_OK || tlv_diags_errors(tlv_rules_diags(r)) != 0) {
            fprintf(stderr, "tlv_rules_check(%s): status %d\n", files[i], (int)status);
            dump(r);
            check_failures++;
        }
        tlv_rules_free(r);
    }
    tlv_rules *r = NULL;
    CHECK_INT(tlv_rules_check(NULL, (const char *const *)files, nfiles, &o, &r), TLV_OK);
    CHECK_INT(tlv_diags_errors(tlv_rules_diags(r)), 0);
    tlv_rules_free(r);
    for (size_t i = 0; i < nfiles; i++)
        free(files[i]);
    return 1;
}

int main(void)
{
    setup();
    test_merge_and_resources();
    test_check_conditions();
    test_palette();
    test_directory_override();
    test_missing_target();
    test_malformed_json();
    test_rule_problems();
    test_resource_problems();
    test_standard_form();
    test_script_targets();
    test_check();
    if (!corpus_checks())
        printf("corpus not found: corpus checks skipped\n");
    remove_tree(tmpdir);
    return CHECK_DONE();
}
