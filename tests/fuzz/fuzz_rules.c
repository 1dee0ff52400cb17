/*
 * fuzz_rules.c — libFuzzer target: hostile rule files. The input is a .cnv
 * file, a line "%%", a .viz file, a line "%%", and a log (missing parts are
 * empty). With the fixed .resh and .res of tests/fuzz/rules, the rules are
 * loaded from a private directory, checked as `tlv check` would, and, when
 * they load, convert the log and draw it.
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
    snprintf(dir, sizeof dir, "%s/tlv-fuzz-rules-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        abort();
    atexit(remove_dir);
    copy_fixed("fz.resh");
    copy_fixed("fz.res");
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *p = (const char *)data, *end = p + size, *cnv, *viz, *log;
    size_t ncnv = part(&p, end, &cnv), nviz = part(&p, end, &viz);
    size_t nlog = (size_t)(end - p);
    log = p;
    if (fuzz_write(dir, "fz.cnv", cnv, ncnv) < 0 || fuzz_write(dir, "fz.viz", viz, nviz) < 0)
        abort();
    char *res = fuzz_path(dir, "fz.res");
    const char *dirs[] = {dir};
    tlv_rules_options o;
    tlv_rules_options_init(&o);
    o.search_dirs = dirs;
    o.n_search_dirs = 1;
    o.rules_path_env = "";
    o.no_default_dirs = 1;
    tlv_rules *checked = NULL;
    tlv_rules_check(res, NULL, 0, &o, &checked);
    tlv_rules_free(checked);
    free(res);
    tlv_rules *rules = fuzz_load_rules(dir);
    if (rules)
        fuzz_convert_and_draw(rules, log, nlog, nlog / 2, nlog & 1);
    tlv_rules_free(rules);
    return 0;
}
