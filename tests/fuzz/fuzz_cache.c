/*
 * fuzz_cache.c — libFuzzer target: the trace cache file (docs/cache.md,
 * trace_restore.c), which a hostile or damaged file must never get past
 * unchecked. At start a genuine cache is made: the fixed rule set
 * (tests/fuzz/rules) loads the convert target's all_rules.log through
 * tlv_trace_load_file_cached. Each input is a list of edits to that genuine
 * file, so that mutations start from a valid file and reach the deep checks:
 *
 *   byte 0     bit 0 clear: the header's and the payload's hashes are made
 *              right again after the edits (else the edits stay as they are)
 *              bit 1 set: the file is cut to the length in the next 4 bytes
 *              (little-endian, modulo its size + 1)
 *   then       records: a kind byte and a 4-byte offset (modulo the size),
 *              then 1, 4 or 8 bytes (kind % 3: a byte XORed in, a 32-bit or
 *              a 64-bit number written there, little-endian)
 *
 * The edited file replaces the cache and the log is loaded again. Whatever
 * the bytes: the load returns what the first one did (a cache it cannot use
 * means converting);
 * when it did not use the cache, the trace is the genuine one, event for
 * event; when it did, every event, its attributes and the shapes are read.
 */
#include "fuzz_cachefile.h"
#include "fuzz_util.h"
#include "base/xxh64.h"
#include "trace/trace_cache.h"

#include <stddef.h>

static tlv_rules *rules;
static char dir[64], log_path[128], cache_path[512];
static unsigned char *genuine;
static size_t genuine_size;
static char *reference;
static tlv_status reference_status;

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_cache: %s\n", what);
    abort();
}

/* Every event of the trace formatted, one a line, and its end time. */
static char *trace_text(tlv_trace *t)
{
    size_t n = tlv_trace_event_count(t), cap = 256 * (n + 1), len = 0;
    char *s = malloc(cap);
    if (!s)
        fail("out of memory");
    for (size_t i = 0; i < n; i++) {
        tlv_event ev;
        tlv_trace_event(t, i, &ev);
        char line[200];
        tlv_event_format(&ev, 10, line, sizeof line);
        len += (size_t)snprintf(s + len, cap - len, "%s\n", line);
    }
    char end[64];
    tlv_time_format(tlv_trace_end(t), 10, end, sizeof end);
    snprintf(s + len, cap - len, "end %s\n", end);
    return s;
}

static tlv_trace *load(void)
{
    tlv_trace *t = NULL;
    if (tlv_trace_new(rules, &t) != TLV_OK)
        fail("no trace");
    tlv_status st = tlv_trace_load_file_cached(t, log_path, dir);
    if (!reference)
        reference_status = st;
    else if (st != reference_status)
        fail("the load's status is not the genuine one's");
    return t;
}

static void find_cache_file(void)
{
    if (fuzz_find_file(dir, ".tlvcache", cache_path, sizeof cache_path) != 0)
        fail("no cache file was written");
}

static void remove_folder(void) { fuzz_remove_folder(dir); }

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    rules = fuzz_fixed_rules("fuzz_cache");
    snprintf(dir, sizeof dir, "/tmp/fuzz_cache.XXXXXX");
    if (!mkdtemp(dir))
        fail("no temporary folder");
    atexit(remove_folder);
    size_t n;
    unsigned char *log = fuzz_read_all(TLV_FUZZ_RULES_DIR "/../seeds/convert/all_rules.log", &n);
    if (!log || fuzz_write(dir, "all_rules.log", log, n) != 0)
        fail("cannot copy seeds/convert/all_rules.log");
    free(log);
    snprintf(log_path, sizeof log_path, "%s/all_rules.log", dir);
    tlv_trace *t = load();
    reference = trace_text(t);
    tlv_trace_free(t);
    find_cache_file();
    genuine = fuzz_read_all(cache_path, &genuine_size);
    if (!genuine || genuine_size < CACHE_PAYLOAD_START)
        fail("the genuine cache cannot be read");
    return 0;
}

/* Applies the input's edits to a copy of the genuine file; its new size. */
static size_t edit(unsigned char *f, const uint8_t *data, size_t size)
{
    size_t n = fuzz_apply_edits(f, genuine_size, data, size);
    if (!(data[0] & 1) && n >= CACHE_PAYLOAD_START) {
        cache_header h;
        memcpy(&h, f, sizeof h);
        h.payload_hash = xxh64(f + CACHE_PAYLOAD_START, n - CACHE_PAYLOAD_START);
        h.header_hash = xxh64(&h, offsetof(cache_header, header_hash));
        memcpy(f, &h, sizeof h);
    }
    return n;
}

static void read_everything(tlv_trace *t)
{
    free(trace_text(t));
    const char *v;
    tlv_time mid = tlv_trace_end(t);
    tlv_trace_attr_at(t, "TASK1", "state", &mid, &v);
    tlv_shapes_options so;
    memset(&so, 0, sizeof so);
    tlv_shapes *shapes = NULL;
    tlv_shapes_build(t, &so, &shapes);
    if (shapes) {
        size_t seen = 0;
        for (size_t r = 0; r < tlv_shapes_row_count(shapes); r++)
            tlv_shapes_query(shapes, r, tlv_trace_start(t), tlv_trace_end(t), fuzz_count_shape,
                             &seen);
    }
    tlv_shapes_free(shapes);
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
    if (fuzz_write(dir, strrchr(cache_path, '/') + 1, f, n) != 0)
        fail("cannot write the edited cache");
    free(f);
    tlv_trace *t = load();
    if (strncmp(tlv_trace_cache_note(t), "cache hit", 9) == 0) {
        read_everything(t);
    } else {
        char *got = trace_text(t);
        if (strcmp(got, reference) != 0)
            fail("converted after a refused cache, the trace differs from the genuine one");
        free(got);
    }
    tlv_trace_free(t);
    return 0;
}
