/*
 * bench_mem.c — what a trace and its shapes hold in memory, and what
 * building the shapes costs next to converting (the baseline, measured in
 * the same run): the library's own accounting (tlv_trace_memory,
 * tlv_shapes_memory) part by part, in bytes per event, checked against
 * malloc's count of bytes in use and the process's resident set.
 *
 *   bench_mem [-R DIR]... -r FILE.res [--per-cpu] LOG
 *
 * Goals (issue 16): trace + shapes <= 64 bytes per event at 10M lines; the
 * shapes built in <= 1x the conversion time. Run by tests/bench/bench_mem.sh
 * (and tests/bench/bench_scale.sh); not a unit test.
 */
#include "bench_util.h"

#include <tlv/tlv.h>

#include <malloc.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Bytes malloc has handed out and not had back (glibc). */
static size_t heap_in_use(void)
{
    struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
}

static size_t status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    size_t kb = 0, n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0)
            kb = strtoull(line + n, NULL, 10);
    if (f)
        fclose(f);
    return kb;
}

static size_t nevents;

/* The peak of the anonymous resident set (and of the whole), sampled every
 * 5 ms while it runs: VmHWM counts the file pages mapped too, which the
 * kernel can drop, and anonymous memory is what a machine without swap must
 * find room for. */
typedef struct sampler {
    atomic_int stop;
    size_t anon_kb, file_kb; /* at the anonymous peak */
    size_t total_kb;         /* the peak of anonymous + file */
} sampler;

static void *sample(void *arg)
{
    sampler *m = arg;
    while (!atomic_load(&m->stop)) {
        size_t anon = status_kb("RssAnon:"), file = status_kb("RssFile:");
        if (anon > m->anon_kb) {
            m->anon_kb = anon;
            m->file_kb = file;
        }
        if (anon + file > m->total_kb)
            m->total_kb = anon + file;
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
    return NULL;
}

/* Whether a part is kept in a file mapped into memory (TLV_MEMORY_FILE_BACKED)
 * rather than in anonymous memory. */
static int file_backed(const char *part)
{
    size_t n = strlen(part), k = strlen(TLV_MEMORY_FILE_BACKED);
    return n >= k && strcmp(part + n - k, TLV_MEMORY_FILE_BACKED) == 0;
}

static void print_part(void *user, const char *part, size_t bytes)
{
    if (user && file_backed(part))
        *(size_t *)user += bytes;
    printf("  %-26s %9.1f MB %7.1f B/event\n", part, (double)bytes / 1e6,
           (double)bytes / (double)nevents);
}

int main(int argc, char **argv)
{
    const char *dirs[8];
    size_t ndirs = 0;
    const char *res = NULL, *log = NULL, *cpu = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-R") == 0 && i + 1 < argc && ndirs < 8)
            dirs[ndirs++] = argv[++i];
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            res = argv[++i];
        else if (strcmp(argv[i], "--per-cpu") == 0)
            cpu = "prcId";
        else
            log = argv[i];
    }
    if (!res || !log) {
        fprintf(stderr, "usage: bench_mem [-R DIR]... -r FILE.res [--per-cpu] LOG\n");
        return 2;
    }
    tlv_rules *rules = bench_load_rules("bench_mem", res, dirs, ndirs);
    size_t heap0 = heap_in_use();
    sampler peak = {0};
    pthread_t sampler_thread;
    int sampling = pthread_create(&sampler_thread, NULL, sample, &peak) == 0;
    tlv_trace *trace;
    if (tlv_trace_new(rules, &trace) != TLV_OK)
        return 2;
    double t0 = now();
    if (tlv_trace_load_file(trace, log) == TLV_ERR_IO) {
        fprintf(stderr, "bench_mem: cannot read %s\n", log);
        return 2;
    }
    double convert_s = now() - t0;
    size_t heap1 = heap_in_use();
    tlv_shapes_options so = TLV_SHAPES_OPTIONS_INIT;
    so.cpu_attribute = cpu;
    tlv_shapes *shapes;
    t0 = now();
    tlv_shapes_build(trace, &so, &shapes);
    double shapes_s = now() - t0;
    size_t heap2 = heap_in_use();
    atomic_store(&peak.stop, 1);
    if (sampling)
        pthread_join(sampler_thread, NULL);
    nevents = tlv_trace_event_count(trace);
    if (!nevents)
        nevents = 1;
    printf("events %zu, shapes %zu, rows %zu\n", tlv_trace_event_count(trace),
           tlv_shapes_count(shapes), tlv_shapes_row_count(shapes));
    printf("%-30s %8.3f s  (baseline)\n", "convert into a trace", convert_s);
    printf("%-30s %8.3f s  = %.2f x convert   (goal <= 1)  %s\n", "build the shapes", shapes_s,
           shapes_s / convert_s, shapes_s <= convert_s ? "PASS" : "FAIL");
    printf("trace, by the library's accounting:\n");
    size_t tfile = 0, sfile = 0;
    size_t tb = tlv_trace_memory(trace, print_part, &tfile);
    printf("shapes:\n");
    size_t sb = tlv_shapes_memory(shapes, print_part, &sfile);
    double per = (double)(tb + sb) / (double)nevents;
    printf("%-30s %8.1f B/event (trace %.1f + shapes %.1f)  (goal <= 64)  %s\n",
           "accounted, trace + shapes", per, (double)tb / (double)nevents,
           (double)sb / (double)nevents, per <= 64 ? "PASS" : "FAIL");
    double resident = (double)(tb - tfile + sb - sfile) / (double)nevents;
    printf("%-30s %8.1f B/event (trace %.1f + shapes %.1f)  (goal <= 64)  %s\n",
           "  of which in memory", resident, (double)(tb - tfile) / (double)nevents,
           (double)(sb - sfile) / (double)nevents, resident <= 64 ? "PASS" : "FAIL");
    printf("%-30s %8.1f B/event (events %.1f + shapes %.1f): pages resident only while "
           "read, dropped by the kernel when it needs the room\n",
           "  of which file-backed", (double)(tfile + sfile) / (double)nevents,
           (double)tfile / (double)nevents, (double)sfile / (double)nevents);
    printf("%-30s %8.1f B/event (trace %.1f + shapes %.1f)\n", "malloc in use",
           (double)(heap2 - heap0) / (double)nevents, (double)(heap1 - heap0) / (double)nevents,
           (double)(heap2 - heap1) / (double)nevents);
    printf("%-30s %8.1f MB now = %.1f B/event (anonymous %.1f + file pages mapped %.1f), "
           "%.1f MB peak = %.1f B/event peak\n", "resident set",
           (double)status_kb("VmRSS:") / 1e3, (double)status_kb("VmRSS:") * 1e3 / (double)nevents,
           (double)status_kb("RssAnon:") * 1e3 / (double)nevents,
           (double)status_kb("RssFile:") * 1e3 / (double)nevents, (double)status_kb("VmHWM:") / 1e3,
           (double)status_kb("VmHWM:") * 1e3 / (double)nevents);
    if (sampling)
        printf("%-30s %8.1f MB = %.1f B/event (goal <= 80) %s; file pages mapped then %.1f "
               "B/event; peak of anonymous + file %.1f B/event (sampled every 5 ms)\n",
               "peak anonymous resident set", (double)peak.anon_kb / 1e3,
               (double)peak.anon_kb * 1e3 / (double)nevents,
               (double)peak.anon_kb * 1e3 / (double)nevents <= 80 ? "PASS" : "FAIL",
               (double)peak.file_kb * 1e3 / (double)nevents,
               (double)peak.total_kb * 1e3 / (double)nevents);
    tlv_shapes_free(shapes);
    tlv_trace_free(trace);
    tlv_rules_free(rules);
    return 0;
}
