/*
 * test_cache.c — the trace cache (tlv_trace_load_file_cached,
 * docs/cache.md): a load from the cache gives what converting gives
 * (events, resources, states, counts, diagnostics, status, last error,
 * unmatched lines, the consistency report, and the shapes built from it),
 * on the project's TOPPERS
 * samples and on a log with unmatched lines, bytes that are not text and
 * no last line end; a miss on every part of the key, each named; a log
 * that grew is read from the cache up to where it ended; truncated,
 * damaged, hostile (consistent checksums, inconsistent contents), foreign
 * version and format caches are misses, the log converted all the same
 * and the cache written anew; a cache folder that cannot be written
 * changes nothing but the note; loads that cannot use a cache say why;
 * a reader that pushes the log itself (the viewer: resume_cached, then
 * save_cache) sees what converting gives, its names taken from the empty
 * trace still valid; two threads load one log through one cache at once.
 * The shape cache: shapes read back are those built (every shape, row,
 * rule, flow, error and what a search finds), plain and per CPU; a file
 * cut at each section's start, a flipped byte, and indexes out of range
 * in a file whose hashes match are misses that say why, the shapes built
 * and the file written anew. Also XXH64's published test values.
 */
#include "check.h"
#include "scratch.h"
#include "text.h"
#include "base/xxh64.h"
#include "trace/trace_cache.h"

#include <tlv/tlv.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char cache_dir[PATH_MAX / 2];

/* ---- what a load gives, as text -------------------------------------------------------- */

static void note_unmatched(void *user, uint64_t line, const char *s, size_t n)
{
    text_add(user, "unmatched %llu: %.*s\n", (unsigned long long)line, (int)n, s);
}

static void describe(tlv_trace *t, tlv_status st, const text *unmatched, text *out)
{
    tlv_converter *c = tlv_trace_converter(t);
    tlv_convert_stats cs;
    tlv_converter_stats(c, &cs);
    text_add(out, "status %d '%s' '%s'\n", (int)st, tlv_trace_last_error(t),
             tlv_converter_last_error(c));
    text_add(out, "stats %llu %llu %llu %llu %llu\n", (unsigned long long)cs.bytes_read,
             (unsigned long long)cs.lines_read, (unsigned long long)cs.lines_matched,
             (unsigned long long)cs.events, (unsigned long long)cs.error_lines);
    const tlv_diags *d = tlv_converter_diags(c);
    text_add(out, "diags %zu errors %zu dropped %zu\n", tlv_diags_count(d), tlv_diags_errors(d),
             tlv_diags_dropped(d));
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char line[1024];
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
        text_add(out, "  %s\n", line);
    }
    text_add(out, "inconsistent %llu listed %zu\n",
             (unsigned long long)tlv_converter_inconsistency_count(c),
             tlv_converter_inconsistency_listed(c));
    for (size_t i = 0; i < tlv_converter_inconsistency_listed(c); i++) {
        tlv_inconsistency x;
        tlv_converter_inconsistency(c, i, &x);
        text_add(out, "  %llu %lld %s %s %s\n", (unsigned long long)x.line, (long long)x.time.ticks,
                 x.resource ? x.resource : "-", x.check, x.message);
    }
    for (size_t i = 0; i < tlv_converter_consistency_check_count(c); i++) {
        tlv_consistency_check k;
        tlv_converter_consistency_check(c, i, &k);
        text_add(out, "  check %s %llu %llu\n", k.check, (unsigned long long)k.count,
                 (unsigned long long)k.first_line);
    }
    for (size_t i = 0; i < 256; i++)
        if (tlv_converter_rule_matches(c, i))
            text_add(out, "rule %zu: %llu\n", i, (unsigned long long)tlv_converter_rule_matches(c, i));
    for (size_t r = 0; r < tlv_trace_resource_count(t); r++) {
        const char *label = tlv_trace_resource_label(t, r);
        text_add(out, "res %s %s %s\n", tlv_trace_resource_name(t, r),
                 tlv_trace_resource_type(t, r), label ? label : "-");
    }
    size_t n = tlv_trace_event_count(t);
    for (size_t i = 0; i < n; i++) {
        tlv_event e;
        tlv_trace_event(t, i, &e);
        char line[512];
        tlv_event_format(&e, 10, line, sizeof line);
        text_add(out, "%s @%llu #%llu\n", line, (unsigned long long)e.input_line,
                 (unsigned long long)e.seq);
        if (e.kind == TLV_EVENT_ATTRIBUTE && i % 7 == 0) { /* the state there, and at the end */
            const char *v1 = NULL, *v2 = NULL;
            tlv_trace_attr_at(t, e.resource, e.name, &e.time, &v1);
            tlv_trace_attr_at(t, e.resource, e.name, NULL, &v2);
            text_add(out, "  = %s, at the end %s\n", v1 ? v1 : "?", v2 ? v2 : "?");
        }
    }
    if (unmatched && unmatched->s)
        text_add(out, "%s", unmatched->s);
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.threads = 1;
    tlv_shapes *s = NULL;
    tlv_status vs = tlv_shapes_build(t, &o, &s);
    text_add(out, "shapes %d %zu rows %zu\n", (int)vs, tlv_shapes_count(s), tlv_shapes_row_count(s));
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        text_add(out, "%s|%s|%s|%zu|%lld|%lld|%s|%s|%zu|%zu\n", sh.rule, sh.event,
                 sh.resource ? sh.resource : "-", sh.row, (long long)sh.from.ticks,
                 (long long)sh.to.ticks, sh.type, sh.text ? sh.text : "-", sh.from_event,
                 sh.to_event);
    }
    tlv_shapes_free(s);
}

/* Loads log with res (rules from rdir): plainly (cached 0) or through the
 * cache; describes it into out, and gives the cache note in note. */
static void load(const char *res, const char *rdir, const char *log, int cached, int std,
                 text *out, char *note, size_t notesz)
{
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res, rdir, &rules), TLV_OK);
    tlv_trace *t;
    tlv_trace_new(rules, &t);
    if (std)
        tlv_converter_set_standard_form(tlv_trace_converter(t), 1);
    text unmatched = {0};
    tlv_converter_set_unmatched_fn(tlv_trace_converter(t), note_unmatched, &unmatched);
    tlv_status st = cached ? tlv_trace_load_file_cached(t, log, cache_dir)
                           : tlv_trace_load_file(t, log);
    describe(t, st, &unmatched, out);
    if (note)
        snprintf(note, notesz, "%s", tlv_trace_cache_note(t));
    free(unmatched.s);
    tlv_trace_free(t);
    tlv_rules_free(rules);
}

/* Loads through the cache and checks: the same as converting, and a note
 * that starts with `want`. */
static void expect(const char *res, const char *rdir, const char *log, int std, const char *want)
{
    text plain = {0}, cached = {0};
    char note[600];
    load(res, rdir, log, 0, std, &plain, NULL, 0);
    load(res, rdir, log, 1, std, &cached, note, sizeof note);
    if (strncmp(note, want, strlen(want)) != 0) {
        fprintf(stderr, "%s: note '%s', expected it to start with '%s'\n", log, note, want);
        check_failures++;
    }
    if (!plain.s || !cached.s || strcmp(plain.s, cached.s) != 0) {
        fprintf(stderr, "%s (%s): the cached load differs from converting\n", log, note);
        check_failures++;
        if (getenv("KEEP")) {
            write_file("plain.txt", plain.s ? plain.s : "");
            write_file("cached.txt", cached.s ? cached.s : "");
        }
    }
    free(plain.s);
    free(cached.s);
}

/* ---- the cache file, changed on purpose -------------------------------------------------- */

/* The only cache file of cache_dir, into path. */
static void the_cache_file(char *path, size_t size)
{
    DIR *d = opendir(cache_dir);
    path[0] = '\0';
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, ".tlvcache") && !strstr(e->d_name, ".tlvcache."))
            snprintf(path, size, "%s/%.255s", cache_dir, e->d_name);
    if (d)
        closedir(d);
}

static void clear_cache(void)
{
    remove_tree(cache_dir);
    mkdir(cache_dir, 0700);
}

static unsigned char *read_cache(size_t *n)
{
    char path[PATH_MAX + 300];
    the_cache_file(path, sizeof path);
    return (unsigned char *)read_all(path, n);
}

static void write_cache(const unsigned char *data, size_t n)
{
    char path[PATH_MAX + 300];
    the_cache_file(path, sizeof path);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* Where section id starts in a cache file, and its length. */
static unsigned char *section_of(unsigned char *data, uint32_t id, uint64_t *bytes)
{
    cache_header h;
    memcpy(&h, data, sizeof h);
    for (uint32_t i = 0; i < h.nsections; i++) {
        cache_dir_entry e;
        memcpy(&e, data + CACHE_HEADER_BYTES + i * sizeof e, sizeof e);
        if (e.id == id) {
            *bytes = e.bytes;
            return data + e.offset;
        }
    }
    return NULL;
}

/* Makes the hashes match the changed contents: what a hostile writer does. */
static void rehash(unsigned char *data, size_t n)
{
    cache_header h;
    memcpy(&h, data, sizeof h);
    h.payload_hash = xxh64(data + CACHE_PAYLOAD_START, n - CACHE_PAYLOAD_START);
    h.header_hash = xxh64(&h, offsetof(cache_header, header_hash));
    memcpy(data, &h, sizeof h);
}

typedef void (*damage_fn)(unsigned char *data, size_t *n);

/* Converts log (a miss that writes the cache), damages the cache, and
 * checks that the next load is a miss saying `want`, gives what converting
 * gives, and writes a cache the load after hits. */
static void damaged(const char *res, const char *rdir, const char *log, damage_fn fn,
                    const char *want)
{
    clear_cache();
    expect(res, rdir, log, 0, "cache miss (none yet)");
    size_t n;
    unsigned char *data = read_cache(&n);
    CHECK(data != NULL);
    if (!data)
        return;
    fn(data, &n);
    write_cache(data, n);
    free(data);
    expect(res, rdir, log, 0, want);
    expect(res, rdir, log, 0, "cache hit: ");
}

static void truncate_half(unsigned char *d, size_t *n) { (void)d; *n /= 2; }
static void truncate_short(unsigned char *d, size_t *n) { (void)d; *n = 100; }
static void not_a_cache(unsigned char *d, size_t *n) { (void)n; memcpy(d, "TLVCACHX", 8); }
static void header_byte(unsigned char *d, size_t *n) { (void)n; d[100] ^= 1; }

static void payload_byte(unsigned char *d, size_t *n)
{
    uint64_t b;
    unsigned char *ev = section_of(d, SEC_EVENTS, &b);
    (void)n;
    ev[b / 2] ^= 0x10;
}

static void foreign_version(unsigned char *d, size_t *n)
{
    cache_header h;
    memcpy(&h, d, sizeof h);
    memset(h.version, 0, sizeof h.version);
    strcpy(h.version, "0.0.0-test");
    memcpy(d, &h, sizeof h);
    rehash(d, *n);
}

static void foreign_format(unsigned char *d, size_t *n)
{
    cache_header h;
    memcpy(&h, d, sizeof h);
    h.format = 99;
    memcpy(d, &h, sizeof h);
    rehash(d, *n);
}

static void hostile_event(unsigned char *d, size_t *n)
{
    uint64_t b;
    trace_event *ev = (trace_event *)section_of(d, SEC_EVENTS, &b);
    ev[3].res = 0xFFFFFF;
    rehash(d, *n);
}

static void hostile_args(unsigned char *d, size_t *n)
{
    uint64_t b;
    trace_event *ev = (trace_event *)section_of(d, SEC_EVENTS, &b);
    for (size_t i = 0; i < b / sizeof *ev; i++)
        if (ev[i].kind == TLV_EVENT_BEHAVIOR) {
            ev[i].nargs = 0xFFFFFF; /* past the arguments */
            break;
        }
    rehash(d, *n);
}

static void hostile_value_ends(unsigned char *d, size_t *n)
{
    uint64_t b;
    uint64_t *ends = (uint64_t *)section_of(d, SEC_VALUE_ENDS, &b);
    ends[1] = UINT64_MAX / 2;
    rehash(d, *n);
}

static void hostile_duplicate_value(unsigned char *d, size_t *n)
{
    uint64_t b, tb;
    uint64_t *ends = (uint64_t *)section_of(d, SEC_VALUE_ENDS, &b);
    unsigned char *text = section_of(d, SEC_VALUE_TEXT, &tb);
    /* a value made the same as the one before when they are as long (from
     * the end: the first ones are those of the declared resources, which a
     * new trace has too, a mismatch caught before) */
    for (size_t i = b / 8 - 1; i >= 2; i--)
        if (ends[i] - ends[i - 1] == ends[i - 1] - ends[i - 2] && ends[i] > ends[i - 1]) {
            memcpy(text + ends[i - 1], text + ends[i - 2], ends[i] - ends[i - 1]);
            break;
        }
    rehash(d, *n);
}

static void hostile_column(unsigned char *d, size_t *n)
{
    uint64_t b;
    unsigned char *off = section_of(d, SEC_LINES_OFF, &b);
    off[b - 1] = 255; /* kept apart, with no number apart */
    rehash(d, *n);
}

static void hostile_history(unsigned char *d, size_t *n)
{
    uint64_t b, hb;
    change *c = (change *)section_of(d, SEC_CHANGES, &b);
    cache_hist *h = (cache_hist *)section_of(d, SEC_HIST, &hb);
    size_t at = 0;
    for (size_t i = 0; i < hb / sizeof *h; at += h[i].n, i++)
        if (h[i].n >= 3 && h[i].nruns == 0) {
            c[at + 1].ticks = c[at].ticks - 1000000; /* out of order */
            break;
        }
    rehash(d, *n);
}

static void hostile_order(unsigned char *d, size_t *n)
{
    uint64_t b;
    trace_event *ev = (trace_event *)section_of(d, SEC_EVENTS, &b);
    trace_event x = ev[0];
    ev[0] = ev[b / sizeof *ev - 1]; /* the last first: out of time order */
    ev[b / sizeof *ev - 1] = x;
    rehash(d, *n);
}

/* ---- the log, changed ---------------------------------------------------------------------- */

static void set_mtime(const char *path, time_t sec)
{
    struct timespec ts[2] = {{sec, 0}, {sec, 0}};
    CHECK_INT(utimensat(AT_FDCWD, path, ts, 0), 0);
}

static void poke(const char *path, long at, char c)
{
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0);
    CHECK_INT(pwrite(fd, &c, 1, at), 1);
    close(fd);
}

static void append(const char *path, const char *s)
{
    FILE *f = fopen(path, "ab");
    fputs(s, f);
    fclose(f);
}

static char *copy_text(const char *from)
{
    size_t n;
    char *s = read_all(from, &n);
    CHECK(s != NULL);
    return s;
}

/* ---- two at once ---------------------------------------------------------------------------- */

typedef struct two {
    const char *res, *rdir, *log;
    text out;
} two;

static void *load_thread(void *arg)
{
    two *w = arg;
    load(w->res, w->rdir, w->log, 1, 0, &w->out, NULL, 0);
    return NULL;
}

static void at_once(const char *res, const char *rdir, const char *log)
{
    text plain = {0};
    load(res, rdir, log, 0, 0, &plain, NULL, 0);
    for (int round = 0; round < 3; round++) {
        if (round == 0)
            clear_cache();
        two w[2] = {{res, rdir, log, {0}}, {res, rdir, log, {0}}};
        pthread_t th[2];
        for (int i = 0; i < 2; i++)
            CHECK_INT(pthread_create(&th[i], NULL, load_thread, &w[i]), 0);
        for (int i = 0; i < 2; i++) {
            pthread_join(th[i], NULL);
            CHECK(w[i].out.s && strcmp(w[i].out.s, plain.s) == 0);
            free(w[i].out.s);
        }
    }
    expect(res, rdir, log, 0, "cache hit: ");
    free(plain.s);
}

/* ---- a reader that pushes the log itself (the viewer) ---------------------------------- */

/* resume_cached, then the log's bytes from where the cache ends pushed as
 * a viewer does (not finished), then save_cache; what the trace shows once
 * finished is what converting shows. A name taken from the empty trace
 * before stays valid (the world is added to, not replaced). */
static void resumed(const char *res, const char *rdir, const char *log, int expect_covered,
                    text *out)
{
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res, rdir, &rules), TLV_OK);
    tlv_trace *t;
    tlv_trace_new(rules, &t);
    text unmatched = {0};
    tlv_converter_set_unmatched_fn(tlv_trace_converter(t), note_unmatched, &unmatched);
    const char *name0 = tlv_trace_resource_name(t, 0);
    char keep[256];
    snprintf(keep, sizeof keep, "%s", name0);
    uint64_t covered = 99;
    CHECK_INT(tlv_trace_resume_cached(t, log, cache_dir, &covered), TLV_OK);
    CHECK(expect_covered ? covered > 0 : covered == 0);
    CHECK_STR(name0, keep);
    size_t n;
    char *all = read_all(log, &n);
    CHECK(all && covered <= n);
    if (all && covered < n)
        tlv_converter_push_bytes(tlv_trace_converter(t), all + covered, n - covered);
    free(all);
    CHECK_INT(tlv_trace_update(t), TLV_OK);
    tlv_trace_save_cache(t, log, cache_dir);
    if (!strstr(tlv_trace_cache_note(t), " written")) {
        fprintf(stderr, "%s: resumed: not saved: %s\n", log, tlv_trace_cache_note(t));
        check_failures++;
    }
    tlv_status st = tlv_trace_finish(t);
    describe(t, st, &unmatched, out);
    free(unmatched.s);
    tlv_trace_free(t);
    tlv_rules_free(rules);
}

static void test_resume(const char *res, const char *rdir, const char *text0)
{
    char log[PATH_MAX + 64];
    snprintf(log, sizeof log, "%s/live.log", tmpdir);
    write_file("live.log", text0);
    clear_cache();
    text plain = {0}, a = {0}, b = {0};
    load(res, rdir, log, 0, 0, &plain, NULL, 0);
    resumed(res, rdir, log, 0, &a); /* no cache yet: all pushed, then saved */
    CHECK(plain.s && a.s && strcmp(plain.s, a.s) == 0);
    expect(res, rdir, log, 0, "cache hit: "); /* a command reads what the reader saved */
    append(log, "[99999998] dispatch to task 2.\nno rule reads this\n");
    free(plain.s);
    plain = (text){0};
    load(res, rdir, log, 0, 0, &plain, NULL, 0);
    resumed(res, rdir, log, 1, &b); /* the cache, then the new lines pushed */
    CHECK(plain.s && b.s && strcmp(plain.s, b.s) == 0);
    free(plain.s);
    free(a.s);
    free(b.s);
}

/* ---- the tests ----------------------------------------------------------------------------- */

static void test_xxh64(void)
{
    CHECK(xxh64("", 0) == 0xEF46DB3751D8E999ULL);
    CHECK(xxh64("a", 1) == 0xD24EC4F1A98C6E5BULL);
    CHECK(xxh64("abc", 3) == 0x44BC2CF5AD770999ULL);
    const char *s = "Nobody inspects the spammish repetition";
    CHECK(xxh64(s, strlen(s)) == 0xFBCEA83C8A378BF1ULL);
    /* in pieces as at once, over the 32-byte stripes */
    char big[1000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (char)(i * 7 + 3);
    xxh64_state st;
    xxh64_init(&st);
    for (size_t i = 0; i < sizeof big; i += 13)
        xxh64_update(&st, big + i, i + 13 <= sizeof big ? 13 : sizeof big - i);
    CHECK(xxh64_digest(&st) == xxh64(big, sizeof big));
}

static void sample(const char *res, const char *rdir, const char *log, const char *cpu)
{
    (void)cpu;
    clear_cache();
    expect(res, rdir, log, 0, "cache miss (none yet): ");
    expect(res, rdir, log, 0, "cache hit: ");
}

/* ---- the shape cache ------------------------------------------------------------------- */

static int count_shape(void *user, const tlv_shape_info *sh)
{
    (void)sh;
    ++*(size_t *)user;
    return 0;
}

/* Everything the shapes tell, as text. */
static void describe_shapes(tlv_shapes *s, tlv_status st, text *out)
{
    text_add(out, "status %d '%s' shapes %zu rows %zu rules %zu flows %zu\n", (int)st,
             tlv_shapes_last_error(s), tlv_shapes_count(s), tlv_shapes_row_count(s),
             tlv_shapes_rule_count(s), tlv_shapes_flow_count(s));
    const tlv_diags *d = tlv_shapes_diags(s);
    text_add(out, "diags %zu errors %zu dropped %zu\n", tlv_diags_count(d), tlv_diags_errors(d),
             tlv_diags_dropped(d));
    for (size_t i = 0; i < tlv_diags_count(d); i++) {
        char line[1024];
        tlv_diag_format(tlv_diags_get(d, i), line, sizeof line);
        text_add(out, "  %s\n", line);
    }
    for (size_t i = 0; i < tlv_shapes_row_count(s); i++) {
        tlv_row_info r;
        tlv_shapes_row(s, i, &r);
        text_add(out, "row %s|%s|%s\n", r.label, r.resource ? r.resource : "-", r.group);
    }
    for (size_t i = 0; i < tlv_shapes_rule_count(s); i++) {
        tlv_rule_info r;
        tlv_shapes_rule(s, i, &r);
        text_add(out, "rule %s|%s|%d\n", r.name, r.display_name, r.skipped);
    }
    for (size_t i = 0; i < tlv_shapes_count(s); i++) {
        tlv_shape_info sh;
        tlv_shapes_get(s, i, &sh);
        text_add(out, "%s|%s|%s|%zu|%lld.%llu|%lld.%llu|%s|%s|%x%d|%x%d|%d|%s|%zu|%zu\n", sh.rule,
                 sh.event, sh.resource ? sh.resource : "-", sh.row, (long long)sh.from.ticks,
                 (unsigned long long)sh.from.frac, (long long)sh.to.ticks,
                 (unsigned long long)sh.to.frac, sh.type, sh.text ? sh.text : "-", sh.fill,
                 sh.has_fill, sh.pen, sh.has_pen, sh.is_when, sh.value ? sh.value : "-",
                 sh.from_event, sh.to_event);
    }
    for (size_t i = 0; i < tlv_shapes_flow_count(s); i++) {
        tlv_flow_info f;
        tlv_shapes_flow(s, i, &f);
        text_add(out, "flow %s|%s|%s|%s>%s|%s>%s|%zu>%zu|%lld|%zu\n", f.rule, f.name,
                 f.display_name, f.from_resource, f.to_resource,
                 f.from_processor ? f.from_processor : "-", f.to_processor ? f.to_processor : "-",
                 f.from_row, f.to_row, (long long)f.time.ticks, f.event);
    }
    size_t rows = tlv_shapes_row_count(s); /* what drawing searches: the store's indexes */
    tlv_time t0 = {INT64_MIN / 2, 0}, t1 = {INT64_MAX / 2, 0};
    for (size_t r = 0; r < rows; r++) {
        size_t n = 0;
        tlv_shapes_query(s, r, t0, t1, count_shape, &n);
        text_add(out, "row %zu: %zu found\n", r, n);
    }
}

/* The log through the trace cache and its shapes through the shape cache
 * (cached), or both plainly; per CPU when cpu; the shapes' note in note. */
static void shapes_load(const char *res, const char *rdir, const char *log, const char *cpu,
                        int cached, text *out, char *note, size_t notesz)
{
    tlv_rules *rules;
    CHECK_INT(load_rules_in(res, rdir, &rules), TLV_OK);
    tlv_trace *t;
    tlv_trace_new(rules, &t);
    if (cached)
        tlv_trace_load_file_cached(t, log, cache_dir);
    else
        tlv_trace_load_file(t, log);
    tlv_shapes_options o = TLV_SHAPES_OPTIONS_INIT;
    o.threads = 1;
    o.cpu_attribute = cpu;
    tlv_shapes *s = NULL;
    tlv_status st = cached ? tlv_shapes_build_cached(t, &o, 1, &s) : tlv_shapes_build(t, &o, &s);
    describe_shapes(s, st, out);
    if (note)
        snprintf(note, notesz, "%s", tlv_shapes_cache_note(s));
    tlv_shapes_free(s);
    tlv_trace_free(t);
    tlv_rules_free(rules);
}

/* The shapes through the caches are `plain`'s, and their note starts with
 * `want`. */
static void shapes_expect(const char *res, const char *rdir, const char *log, const char *cpu,
                          const text *plain, const char *want)
{
    text cached = {0};
    char note[600];
    shapes_load(res, rdir, log, cpu, 1, &cached, note, sizeof note);
    if (strncmp(note, want, strlen(want)) != 0) {
        fprintf(stderr, "%s: shape note '%s', expected it to start with '%s'\n", log, note, want);
        check_failures++;
    }
    if (!plain->s || !cached.s || strcmp(plain->s, cached.s) != 0) {
        fprintf(stderr, "%s (%s): the shapes through the cache differ from building\n", log, note);
        check_failures++;
        if (getenv("KEEP")) {
            write_file("splain.txt", plain->s ? plain->s : "");
            write_file("scached.txt", cached.s ? cached.s : "");
        }
    }
    free(cached.s);
}

/* The only shape cache file of cache_dir, into path. */
static void the_shape_file(char *path, size_t size)
{
    DIR *d = opendir(cache_dir);
    path[0] = '\0';
    for (struct dirent *e; d && (e = readdir(d));)
        if (strstr(e->d_name, ".tlvshapes") && !strstr(e->d_name, ".tlvshapes."))
            snprintf(path, size, "%s/%.255s", cache_dir, e->d_name);
    if (d)
        closedir(d);
}

static void put_bytes(const char *path, const unsigned char *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(data, 1, n, f);
        fclose(f);
    }
}

/* The shape file's layout (docs/cache.md): a 128-byte header (sections at
 * 16, payload hash at 32, its own hash at 120), then 24 directory entries
 * of {u32 id, u32 0, u64 offset, u64 bytes}; the payload from 704. */
#define SHAPE_HEADER 128u
#define SHAPE_PAYLOAD 704u

static unsigned char *shape_section(unsigned char *d, uint32_t id, uint64_t *bytes)
{
    uint32_t n;
    memcpy(&n, d + 16, 4);
    for (uint32_t i = 0; i < n && i < 24; i++) {
        uint32_t eid;
        uint64_t off;
        memcpy(&eid, d + SHAPE_HEADER + 24 * i, 4);
        memcpy(&off, d + SHAPE_HEADER + 24 * i + 8, 8);
        memcpy(bytes, d + SHAPE_HEADER + 24 * i + 16, 8);
        if (eid == id)
            return d + off;
    }
    return NULL;
}

static void shape_rehash(unsigned char *d, size_t n)
{
    uint64_t h = xxh64(d + SHAPE_PAYLOAD, n - SHAPE_PAYLOAD);
    memcpy(d + 32, &h, 8);
    h = xxh64(d, 120);
    memcpy(d + 120, &h, 8);
}

/* Sets the u32 at `at` of section id to v, hashes made to match. */
static void shape_poke(unsigned char *d, size_t n, uint32_t id, uint64_t at, uint32_t v)
{
    uint64_t bytes;
    unsigned char *sec = shape_section(d, id, &bytes);
    CHECK(sec != NULL && at + 4 <= bytes);
    if (sec && at + 4 <= bytes)
        memcpy(sec + at, &v, 4);
    shape_rehash(d, n);
}

/* Writes the shape file as `data` cut to n bytes, then checks that the
 * next load is a miss saying `want` and gives the shapes building gives;
 * `again`: and that it wrote a file the load after reads (a few cases
 * check that, to keep the test short under the sanitizers). */
static void shape_damaged(const char *res, const char *rdir, const char *log, const char *cpu,
                          const text *plain, const unsigned char *data, size_t n,
                          const char *want, int again)
{
    char path[PATH_MAX + 300];
    the_shape_file(path, sizeof path);
    put_bytes(path, data, n);
    shapes_expect(res, rdir, log, cpu, plain, want);
    if (again)
        shapes_expect(res, rdir, log, cpu, plain, "shape cache hit: ");
}

/* A miss, then a hit; with `damage`, the file damaged every way (truncated
 * at each section's start, a byte flipped, indexes out of range). */
static void test_shape_cache(const char *res, const char *rdir, const char *log, const char *cpu,
                             int damage)
{
    text plain = {0};
    shapes_load(res, rdir, log, cpu, 0, &plain, NULL, 0);
    clear_cache();
    shapes_expect(res, rdir, log, cpu, &plain, "shape cache miss (none yet): ");
    shapes_expect(res, rdir, log, cpu, &plain, "shape cache hit: ");
    if (!damage) {
        free(plain.s);
        return;
    }
    char path[PATH_MAX + 300];
    the_shape_file(path, sizeof path);
    size_t n;
    unsigned char *data = (unsigned char *)read_all(path, &n);
    CHECK(data != NULL && n > SHAPE_PAYLOAD);
    if (!data || n <= SHAPE_PAYLOAD) {
        free(plain.s);
        return;
    }
    unsigned char *copy = malloc(n);
    /* Cut at every section's start (the end of the one before), and inside
     * the header. */
    uint32_t nsec;
    memcpy(&nsec, data + 16, 4);
    CHECK(nsec == 22);
    for (uint32_t i = 0; i <= nsec && i < 24; i++) {
        uint64_t off = SHAPE_HEADER / 2, bytes = 0;
        if (i < nsec) {
            memcpy(&off, data + SHAPE_HEADER + 24 * i + 8, 8);
            memcpy(&bytes, data + SHAPE_HEADER + 24 * i + 16, 8);
        }
        (void)bytes;
        if (off < n)
            shape_damaged(res, rdir, log, cpu, &plain, data, (size_t)off,
                          "shape cache miss (truncated or damaged: ", i == 0);
    }
    memcpy(copy, data, n); /* a flipped byte in the middle of the shapes */
    uint64_t bytes;
    unsigned char *sh = shape_section(copy, 12, &bytes);
    CHECK(sh != NULL && bytes > 0);
    if (sh && bytes)
        sh[bytes / 2] ^= 0x10;
    shape_damaged(res, rdir, log, cpu, &plain, copy, n,
                  "shape cache miss (damaged: its contents do not match their checksum)", 1);
    memcpy(copy, data, n); /* not a shape file */
    memcpy(copy, "TLVSHAPX", 8);
    shape_damaged(res, rdir, log, cpu, &plain, copy, n,
                  "shape cache miss (not a tlv shape cache file)", 0);
    /* Indexes out of range, in files whose hashes match (a hostile writer). */
    struct {
        uint32_t sec, at, value;
        const char *want;
    } hostile[] = {
        {12, 20, 0xFFFFFFu, "shape cache miss (inconsistent: the shapes)"},       /* a primitive */
        {12, 16, 0xFFFFFFu, "shape cache miss (inconsistent: the shapes)"},       /* a row */
        {14, 0, 0xFFFFFFu, "shape cache miss (inconsistent: the output order)"},
        {10, 0, 0xFFFFFFu, "shape cache miss (inconsistent: the rows)"},           /* a resource */
        {15, 0, 0x7FFFFFF0u, "shape cache miss (inconsistent: the shapes' values and events)"},
        {16, 4, 0x7FFFFFF0u, "shape cache miss (inconsistent: the shapes' values and events)"},
        {6, 0, 0xFFFFFFu, "shape cache miss (inconsistent: the rules, When keys or errors)"},
        {2, 0, 0xFFFFFFu, "shape cache miss (inconsistent: the names)"},
        {1, 0, 0xFFFFFFu, "shape cache miss (inconsistent: "},                     /* a count */
    };
    for (size_t i = 0; i < sizeof hostile / sizeof hostile[0]; i++) {
        memcpy(copy, data, n);
        shape_poke(copy, n, hostile[i].sec, hostile[i].at, hostile[i].value);
        shape_damaged(res, rdir, log, cpu, &plain, copy, n, hostile[i].want, i == 0);
    }
    memcpy(copy, data, n); /* two shapes swapped: out of the store's order */
    sh = shape_section(copy, 12, &bytes);
    if (sh && bytes >= 80) {
        unsigned char tmp[40];
        memcpy(tmp, sh, 40);
        memcpy(sh, sh + 40, 40);
        memcpy(sh + 40, tmp, 40);
        shape_rehash(copy, n);
        if (memcmp(sh, sh + 40, 40) != 0)
            shape_damaged(res, rdir, log, cpu, &plain, copy, n,
                          "shape cache miss (inconsistent: the shapes)", 0);
    }
    free(copy);
    free(data);
    free(plain.s);
}

int main(void)
{
    test_xxh64();
    make_tmpdir("cache");
    snprintf(cache_dir, sizeof cache_dir, "%.1000s/cache", tmpdir);
    mkdir(cache_dir, 0700);
    const char *src = getenv("TLV_SOURCE_DIR") ? getenv("TLV_SOURCE_DIR") : ".";
    char rdir[PATH_MAX], res[PATH_MAX + 64], sample_log[PATH_MAX + 64];
    snprintf(rdir, sizeof rdir, "%s/rules", src);
    snprintf(res, sizeof res, "%s/samples/asp/sample.res", src);
    snprintf(sample_log, sizeof sample_log, "%s/samples/asp/sample.log", src);

    each_toppers_sample(sample);

    /* Unmatched lines, bytes that are not text, no line end at the end. */
    char *text0 = copy_text(sample_log);
    char log[PATH_MAX + 64];
    snprintf(log, sizeof log, "%s/odd.log", tmpdir);
    write_file("odd.log", text0);
    append(log, "no rule reads this line\n\xff\xfe not text either\n"
                "[99999990] dispatch to task 2.\n[99999991] dispatch to task 2.\n" /* twice */
                "[99999999]: dispatch to task 9.");
    clear_cache();
    expect(res, rdir, log, 0, "cache miss (none yet): ");
    expect(res, rdir, log, 0, "cache hit: ");

    /* The key, part by part. */
    snprintf(log, sizeof log, "%s/key.log", tmpdir);
    write_file("key.log", text0);
    clear_cache();
    expect(res, rdir, log, 0, "cache miss (none yet)");
    append(log, "[99999998] dispatch to task 2.\n[99999999] dispatch to task 2.\n");
    expect(res, rdir, log, 0, "cache hit on the first "); /* grew: the rest converted */
    expect(res, rdir, log, 0, "cache hit: ");
    write_file("key.log", text0); /* shorter */
    expect(res, rdir, log, 0, "cache miss (the log's size changed)");
    set_mtime(log, 1000000000);
    expect(res, rdir, log, 0, "cache miss (the log's modification time changed)");
    expect(res, rdir, log, 0, "cache hit: ");
    poke(log, 1, '9'); /* the first time's first digit: the same size */
    set_mtime(log, 1000000000);
    expect(res, rdir, log, 0, "cache miss (the log's first megabyte changed)");

    /* A log over 2 MB: its last megabyte apart from its first. */
    snprintf(log, sizeof log, "%s/big.log", tmpdir);
    write_file("big.log", "");
    for (int i = 0; i < 200; i++)
        append(log, text0);
    struct stat sb;
    stat(log, &sb);
    CHECK(sb.st_size > 2 * (1 << 20));
    clear_cache();
    expect(res, rdir, log, 0, "cache miss (none yet)");
    poke(log, (long)sb.st_size - 5, '7');
    set_mtime(log, sb.st_mtim.tv_sec);
    expect(res, rdir, log, 0, "cache miss (the log's modification time changed)");
    set_mtime(log, 1000000000);
    expect(res, rdir, log, 0, "cache miss (the log's modification time changed)");
    poke(log, (long)sb.st_size - 5, '8');
    set_mtime(log, 1000000000);
    expect(res, rdir, log, 0, "cache miss (the log's last megabyte changed)");

    /* The rule files: a copy of the resource file, changed. */
    char myres[PATH_MAX + 64];
    snprintf(myres, sizeof myres, "%s/my.res", tmpdir);
    char *res_text = copy_text(res);
    write_file("my.res", res_text);
    free(res_text);
    snprintf(log, sizeof log, "%s/key.log", tmpdir);
    write_file("key.log", text0);
    clear_cache();
    expect(myres, rdir, log, 0, "cache miss (none yet)");
    expect(myres, rdir, log, 0, "cache hit");
    append(myres, "\n");
    expect(myres, rdir, log, 0, "cache miss (the rule files changed)");

    /* Standard form, then converted. */
    snprintf(log, sizeof log, "%s/trace.std", tmpdir);
    write_file("trace.std", "[100]LOGTASK.state=RUNNING\n[200]TASK1.state=RUNNABLE\n"
                            "[300]LOGTASK.state=WAITING\n");
    clear_cache();
    expect(res, rdir, log, 1, "cache miss (none yet)");
    expect(res, rdir, log, 1, "cache hit: ");
    expect(res, rdir, log, 0, "cache miss (the log was read as standard form, now it is converted)");

    /* Damaged and hostile files. */
    snprintf(log, sizeof log, "%s/key.log", tmpdir);
    damaged(res, rdir, log, truncate_half, "cache miss (truncated or damaged: ");
    damaged(res, rdir, log, truncate_short, "cache miss (truncated: 100 bytes)");
    damaged(res, rdir, log, not_a_cache, "cache miss (not a tlv cache file)");
    damaged(res, rdir, log, header_byte, "cache miss (its header is damaged)");
    damaged(res, rdir, log, payload_byte,
            "cache miss (damaged: its contents do not match their checksum)");
    char want[200];
    snprintf(want, sizeof want, "cache miss (written by tlv 0.0.0-test, this is tlv %s)",
             tlv_version());
    damaged(res, rdir, log, foreign_version, want);
    damaged(res, rdir, log, foreign_format,
            "cache miss (written in cache format 99, this tlv reads 1)");
    damaged(res, rdir, log, hostile_event, "cache miss (inconsistent: event 3)");
    damaged(res, rdir, log, hostile_args, "cache miss (inconsistent: event ");
    damaged(res, rdir, log, hostile_value_ends, "cache miss (inconsistent: the values' sizes)");
    damaged(res, rdir, log, hostile_duplicate_value, "cache miss (inconsistent: value ");
    damaged(res, rdir, log, hostile_column, "cache miss (inconsistent: the events' sizes)");
    damaged(res, rdir, log, hostile_history, "cache miss (inconsistent: history ");
    damaged(res, rdir, log, hostile_order, "cache miss (inconsistent: the events are out of order");

    /* A cache folder that cannot be written: no cache, the same trace. */
    char keep[sizeof cache_dir];
    memcpy(keep, cache_dir, sizeof keep);
    if (geteuid() != 0) {
        clear_cache();
        chmod(cache_dir, 0500);
        expect(res, rdir, log, 0, "cache miss (none yet): not written (cannot make a file in "
                                  "the cache folder: Permission denied)");
        chmod(cache_dir, 0700);
    }
    snprintf(cache_dir, sizeof cache_dir, "%.1000s/key.log/cache", tmpdir); /* under a file */
    expect(res, rdir, log, 0, "cache miss (cannot open it: Not a directory): not written (cannot "
                              "make the cache folder");
    memcpy(cache_dir, keep, sizeof keep);

    /* A load that cannot use a cache. */
    expect(res, rdir, tmpdir, 0, "cache not used (not a regular file)");

    /* A reader that pushes the log itself. */
    test_resume(res, rdir, text0);

    /* The shape cache: plain and per CPU (flows). */
    test_shape_cache(res, rdir, sample_log, NULL, 1);
    char fres[PATH_MAX + 64], flog[PATH_MAX + 64];
    snprintf(fres, sizeof fres, "%s/samples/fmp/sample.res", src);
    snprintf(flog, sizeof flog, "%s/samples/fmp/sample.log", src);
    test_shape_cache(fres, rdir, flog, "prcId", 0);

    /* Two at once, through one cache. */
    at_once(res, rdir, sample_log);

    free(text0);
    if (!getenv("KEEP"))
        remove_tree(tmpdir);
    return check_failures ? 1 : 0;
}
