/*
 * fuzz_consistency.c — libFuzzer target: hostile consistency declarations
 * (issue 27: a type's "Impossible" entries in a .resh, a resource file's
 * "InTimeOrder") and logs that contradict them. The input is a .resh file,
 * a line "%%", a resource file, a line "%%", and a log; with the fixed .cnv
 * and .viz of tests/fuzz/rules the rules are checked as `tlv check` does
 * and, when they load, convert the log. Beyond "no crash, no leak": every
 * listed contradiction names a line of the log and a declared check, no
 * more are listed than counted, and the checks' counts add up to the count.
 */
#include "fuzz_util.h"

#include <unistd.h>

static char dir[4096];

static void copy_fixed(const char *name)
{
    char *path = fuzz_path(TLV_FUZZ_RULES_DIR, name);
    FILE *f = fopen(path, "rb");
    free(path);
    char text[1 << 16];
    size_t n = f ? fread(text, 1, sizeof text, f) : 0;
    if (f)
        fclose(f);
    if (!n || fuzz_write(dir, name, text, n) < 0)
        abort();
}

static void remove_dir(void)
{
    const char *names[] = {"fz.cnv", "fz.viz", "fz.resh", "fz.res"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char *path = fuzz_path(dir, names[i]);
        unlink(path);
        free(path);
    }
    rmdir(dir);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/tlv-fuzz-consistency-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    copy_fixed("fz.cnv");
    copy_fixed("fz.viz");
    return 0;
}

/* The next part of the input, up to a line "%%". */
static size_t part(const char **p, const char *end, const char **start)
{
    *start = *p;
    const char *q = *p;
    while (q < end && !(end - q >= 4 && memcmp(q, "\n%%\n", 4) == 0))
        q++;
    size_t n = (size_t)(q - *p);
    *p = q < end ? q + 4 : end;
    return n;
}

static void check_consistency(const tlv_converter *conv, size_t nlines)
{
    uint64_t count = tlv_converter_inconsistency_count(conv);
    size_t listed = tlv_converter_inconsistency_listed(conv);
    if (listed > count)
        __builtin_trap();
    for (size_t i = 0; i < listed; i++) {
        tlv_inconsistency in;
        tlv_converter_inconsistency(conv, i, &in);
        if (!in.check || !in.message || in.line == 0 || in.line > nlines + 1)
            __builtin_trap();
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < tlv_converter_consistency_check_count(conv); i++) {
        tlv_consistency_check c;
        tlv_converter_consistency_check(conv, i, &c);
        if (!c.check || !c.display_name || (c.count && !c.first_line) ||
            (!c.count && c.first_line))
            __builtin_trap();
        sum += c.count;
    }
    if (sum != count)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size, *resh, *res, *log;
    size_t nresh = part(&p, end, &resh), nres = part(&p, end, &res);
    size_t nlog = (size_t)(end - p);
    log = p;
    if (fuzz_write(dir, "fz.resh", resh, nresh) < 0 || fuzz_write(dir, "fz.res", res, nres) < 0)
        abort();
    char *res_path = fuzz_path(dir, "fz.res");
    const char *dirs[] = {dir};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    o.rules_path_env = "";
    o.no_default_dirs = 1;
    tlv_rules *checked = NULL;
    tlv_rules_check(res_path, NULL, 0, &o, &checked);
    tlv_rules_free(checked);
    free(res_path);
    tlv_rules *rules = fuzz_load_rules(dir);
    if (rules) {
        tlv_trace *trace = fuzz_convert_split(rules, log, nlog, nlog / 2);
        if (trace) {
            size_t nlines = 0;
            for (size_t i = 0; i < nlog; i++)
                nlines += log[i] == '\n' || log[i] == '\r';
            check_consistency(tlv_trace_converter(trace), nlines);
        }
        tlv_trace_free(trace);
    }
    tlv_rules_free(rules);
    return 0;
}
