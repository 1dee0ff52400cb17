/*
 * fuzz_shapecache.c — libFuzzer target: the shape cache file (docs/cache.md,
 * "The shapes"; viz_cache.c), the second file a hostile or damaged cache
 * folder holds, which must never be trusted unchecked. At start the fixed
 * rule set (tests/fuzz/rules) loads the convert target's all_rules.log
 * through tlv_trace_load_file_cached, and tlv_shapes_build_cached writes the
 * genuine shape cache beside the trace cache. Each input is a list of edits
 * to that genuine file, as fuzz_cache's are to the trace cache:
 *
 *   byte 0     bit 0 clear: the header's and the payload's hashes are made
 *              right again after the edits (else the edits stay as they are)
 *              bit 1 set: the file is cut to the length in the next 4 bytes
 *              (little-endian, modulo its size + 1)
 *   then       records: a kind byte and a 4-byte offset (modulo the size),
 *              then 1, 4 or 8 bytes (kind % 3: a byte XORed in, a 32-bit or
 *              a 64-bit number written there, little-endian)
 *
 * The edited file replaces the shape cache and the shapes are asked again
 * from the same (cached) trace. Whatever the bytes: the build returns the
 * genuine status; when the file was refused, the shapes are the genuine
 * ones, shape for shape; when it was used, every row, rule, shape and flow
 * is read; and a file whose hashed bytes were changed without mending the
 * hashes is never used.
 */
#include "fuzz_cachefile.h"
#include "fuzz_util.h"
#include "base/xxh64.h"

#include <stddef.h>

/* The shape cache's layout as viz_cache.c writes it: a 128-byte header
 * whose payload hash is at byte 32 and whose own hash (of the 120 bytes
 * before it) ends it, then a directory of 24 sections of 24 bytes, then
 * the payload. */
#define SC_PAYLOAD_HASH_AT 32u
#define SC_HEADER_HASH_AT 120u
#define SC_PAYLOAD_START (128u + 24u * 24u)

static tlv_rules *rules;
static char dir[64], log_path[128], shapes_path[512];
static unsigned char *genuine;
static size_t genuine_size;
static char *reference;
static tlv_status reference_status;

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_shapecache: %s\n", what);
    abort();
}

static size_t append(char **s, size_t *cap, size_t len, const char *text)
{
    size_t n = strlen(text);
    if (len + n + 1 > *cap) {
        *cap = (len + n + 1) * 2;
        *s = realloc(*s, *cap);
        if (!*s)
            fail("out of memory");
    }
    memcpy(*s + len, text, n + 1);
    return len + n;
}

static const char *or_null(const char *s) { return s ? s : "(null)"; }

/* Every row, rule, shape and flow of the shapes, one a line. */
static char *shapes_text(const tlv_shapes *s)
{
    char *out = NULL, line[1024];
    size_t cap = 0, len = append(&out, &cap, 0, "");
    for (size_t r = 0; r < tlv_shapes_row_count(s); r++) {
        tlv_row_info ri;
        tlv_shapes_row(s, r, &ri);
        snprintf(line, sizeof line, "row %s|%s|%s\n", or_null(ri.label), or_null(ri.resource),
                 or_null(ri.group));
        len = append(&out, &cap, len, line);
    }
    for (size_t i = 0; i < tlv_shapes_rule_count(s); i++) {
        tlv_rule_info ru;
        tlv_shapes_rule(s, i, &ru);
        snprintf(line, sizeof line, "rule %s|%s|%d\n", or_null(ru.name), or_null(ru.display_name),
                 ru.skipped);
        len = append(&out, &cap, len, line);
    }
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info si;
        tlv_shapes_get(s, i, &si);
        char from[64], to[64];
        tlv_time_format(si.from, 10, from, sizeof from);
        tlv_time_format(si.to, 10, to, sizeof to);
        snprintf(line, sizeof line, "shape %s|%s|%s|%zu|%s|%s|%s|%s|%x%d|%x%d|%d|%s|%zu|%zu\n",
                 or_null(si.rule), or_null(si.event), or_null(si.resource), si.row, from, to,
                 or_null(si.type), or_null(si.text), (unsigned)si.fill, si.has_fill,
                 (unsigned)si.pen, si.has_pen, si.is_when, or_null(si.value), si.from_event,
                 si.to_event);
        len = append(&out, &cap, len, line);
    }
    for (size_t i = 0; i < tlv_shapes_flow_count(s); i++) {
        tlv_flow_info fl;
        tlv_shapes_flow(s, i, &fl);
        snprintf(line, sizeof line, "flow %s|%s|%s|%s|%s|%zu|%zu|%zu\n", or_null(fl.rule),
                 or_null(fl.name), or_null(fl.from_resource), or_null(fl.to_resource),
                 or_null(fl.display_name), fl.from_row, fl.to_row, fl.event);
        len = append(&out, &cap, len, line);
    }
    const tlv_diags *d = tlv_shapes_diags(s);
    snprintf(line, sizeof line, "diags %zu\n", d ? tlv_diags_count(d) : 0);
    append(&out, &cap, len, line);
    return out;
}

/* The log's trace, read from the trace cache (which the inputs leave as
 * it is) after the first time; the log's own errors make every load's
 * status the first one's. */
static tlv_trace *load_trace(void)
{
    static int loaded;
    static tlv_status first;
    tlv_trace *t = NULL;
    if (tlv_trace_new(rules, &t) != TLV_OK)
        fail("no trace");
    tlv_status st = tlv_trace_load_file_cached(t, log_path, dir);
    if (!loaded)
        first = st;
    else if (st != first || strncmp(tlv_trace_cache_note(t), "cache hit", 9) != 0)
        fail("the trace did not come from its cache as the first time");
    loaded = 1;
    return t;
}

static tlv_status build(const tlv_trace *t, int save, tlv_shapes **out)
{
    tlv_shapes_options so;
    memset(&so, 0, sizeof so);
    *out = NULL;
    return tlv_shapes_build_cached(t, &so, save, out);
}

static void find_shapes_file(void)
{
    if (fuzz_find_file(dir, ".tlvshapes", shapes_path, sizeof shapes_path) != 0)
        fail("no shape cache file was written");
}

static void remove_folder(void) { fuzz_remove_folder(dir); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rules = fuzz_fixed_rules("fuzz_shapecache");
    snprintf(dir, sizeof dir, "/tmp/fuzz_shapecache.XXXXXX");
    if (!mkdtemp(dir))
        fail("no temporary folder");
    atexit(remove_folder);
    size_t n;
    unsigned char *log = fuzz_read_all(TLV_FUZZ_RULES_DIR "/../seeds/convert/all_rules.log", &n);
    if (!log || fuzz_write(dir, "all_rules.log", log, n) != 0)
        fail("cannot copy seeds/convert/all_rules.log");
    free(log);
    snprintf(log_path, sizeof log_path, "%s/all_rules.log", dir);
    tlv_trace *t = load_trace();
    tlv_shapes *s;
    reference_status = build(t, 1, &s);
    if (!s || !strstr(tlv_shapes_cache_note(s), "written"))
        fail("the genuine shape cache was not written");
    reference = shapes_text(s);
    tlv_shapes_free(s);
    tlv_trace_free(t);
    find_shapes_file();
    genuine = fuzz_read_all(shapes_path, &genuine_size);
    if (!genuine || genuine_size < SC_PAYLOAD_START)
        fail("the genuine shape cache cannot be read");
    return 0;
}

static void put_le(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> 8 * i);
}

/* Applies the input's edits to a copy of the genuine file; its new size. */
static size_t edit(unsigned char *f, const uint8_t *data, size_t size)
{
    size_t n = fuzz_apply_edits(f, genuine_size, data, size);
    if (!(data[0] & 1) && n >= SC_PAYLOAD_START) {
        put_le(f + SC_PAYLOAD_HASH_AT, xxh64(f + SC_PAYLOAD_START, n - SC_PAYLOAD_START));
        put_le(f + SC_HEADER_HASH_AT, xxh64(f, SC_HEADER_HASH_AT));
    }
    return n;
}

/* Whether bytes the hashes cover differ from the genuine file's (the
 * directory between header and payload is checked entry by entry, not
 * hashed). */
static int hashed_bytes_changed(const unsigned char *f, size_t n)
{
    if (n != genuine_size)
        return 1;
    return memcmp(f, genuine, SC_HEADER_HASH_AT + 8) != 0 ||
           memcmp(f + SC_PAYLOAD_START, genuine + SC_PAYLOAD_START, n - SC_PAYLOAD_START) != 0;
}

static void read_everything(const tlv_trace *t, const tlv_shapes *s)
{
    free(shapes_text(s));
    size_t seen = 0;
    for (size_t r = 0; r < tlv_shapes_row_count(s); r++)
        tlv_shapes_query(s, r, tlv_trace_start(t), tlv_trace_end(t), fuzz_count_shape, &seen);
    tlv_shapes_flow_seek(s, tlv_trace_end(t));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned char *f = malloc(genuine_size);
    if (!f)
        fail("out of memory");
    memcpy(f, genuine, genuine_size);
    size_t n = edit(f, data, size);
    int tampered = (data[0] & 1) && hashed_bytes_changed(f, n);
    if (fuzz_write(dir, strrchr(shapes_path, '/') + 1, f, n) != 0)
        fail("cannot write the edited shape cache");
    free(f);
    tlv_trace *t = load_trace();
    tlv_shapes *s;
    if (build(t, 0, &s) != reference_status)
        fail("the build's status is not the genuine one's");
    if (!s)
        fail("no shapes");
    if (strncmp(tlv_shapes_cache_note(s), "shape cache hit", 15) == 0) {
        if (tampered)
            fail("a file whose hashes do not match its bytes was used");
        read_everything(t, s);
    } else {
        char *got = shapes_text(s);
        if (strcmp(got, reference) != 0)
            fail("built after a refused shape cache, the shapes differ from the genuine ones");
        free(got);
    }
    tlv_shapes_free(s);
    tlv_trace_free(t);
    return 0;
}
