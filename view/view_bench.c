/*
 * view_bench.c — `tlv view --bench`: the frame time a person would feel,
 * measured along a fixed path (zoom into the middle down to a millionth of
 * the trace, pan there, zoom back out, pan at 1/100, scroll rows), each
 * frame drawn in full — timeline re-rendered, overlays, present — and the
 * median, 99th percentile and worst printed; then the same for the CPU time
 * of the viewer's thread, which a machine busy with other work inflates far
 * less than the wall time (the X server's share of presenting is not in it).
 * Each leg of the path is run twice from the same view, in alternating
 * order: as a person sees it by default (the flows' arrows, and in per-CPU
 * mode the CPU load tracks) and without those, the baseline measured in the
 * same run; both are printed, and the p99 of each leg.
 */
#include "view/core.h"

#include <cjson/cJSON.h>

#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define STEPS 60

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double cpu_ms(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

/* Draws and presents one frame; returns its time in ms (and the CPU time
 * of the viewer's thread in *cpu, of the whole process — the renderer's
 * second drawing thread too — in *proc). */
static double timed_frame(view_app *a, double *cpu, double *proc)
{
    double t = now_seconds(), c = cpu_ms(CLOCK_THREAD_CPUTIME_ID), p = cpu_ms(CLOCK_PROCESS_CPUTIME_ID);
    SDL_PumpEvents();
    view_draw_frame(a);
    SDL_RenderPresent(a->ren);
    *cpu = cpu_ms(CLOCK_THREAD_CPUTIME_ID) - c;
    *proc = cpu_ms(CLOCK_PROCESS_CPUTIME_ID) - p;
    return (now_seconds() - t) * 1000;
}

/* Moves along the path; step i of n of each leg. */
static void path_step(view_app *a, int leg, int i)
{
    view_nav *n = &a->nav;
    double c = n->trace_t0 / 2 + n->trace_t1 / 2, span = n->t1 - n->t0;
    switch (leg) {
    case 0: nav_zoom(n, c, pow(1e-6, 1.0 / STEPS)); break;  /* in to a millionth */
    case 1: nav_pan(n, span / 10); break;
    case 2: nav_zoom(n, c, pow(1e6, 1.0 / STEPS)); break;   /* back out */
    case 3:
        if (i == 0)
            nav_set(n, n->trace_t0, n->trace_t0 + (n->trace_t1 - n->trace_t0) / 100);
        else
            nav_pan(n, span / 7);
        break;
    default: {
        int top = view_max_first_row(a);
        n->first_row = top ? (n->first_row + 1) % (top + 1) : 0;
        nav_pan(n, -span / 20);
    }
    }
}

void memory_add_file_backed(void *user, const char *part, size_t bytes)
{
    size_t n = strlen(part), k = strlen(TLV_MEMORY_FILE_BACKED);
    if (n >= k && strcmp(part + n - k, TLV_MEMORY_FILE_BACKED) == 0)
        *(size_t *)user += bytes;
}

/* Kilobytes on a line "key: N kB" of /proc/self/status (0 when absent). */
static double status_kb(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    size_t n = strlen(key);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, key, n) == 0)
            kb = strtod(line + n, NULL);
    if (f)
        fclose(f);
    return kb;
}

/* What the trace and its shapes hold, by the library's accounting, in bytes
 * per event (issue 16's goal: 64), next to the process's resident set; the
 * parts kept in files mapped into memory apart. */
static void print_memory(const view_app *a)
{
    size_t nev = tlv_trace_event_count(a->trace), file = 0;
    size_t t = tlv_trace_memory(a->trace, memory_add_file_backed, &file);
    size_t s = tlv_shapes_memory(a->shapes, memory_add_file_backed, &file);
    long rss_pages = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%*s %ld", &rss_pages) != 1)
        rss_pages = 0;
    if (f)
        fclose(f);
    double per = nev ? 1.0 / (double)nev : 0, page = (double)sysconf(_SC_PAGESIZE);
    printf("bench: memory: trace %.1f + shapes %.1f = %.1f bytes per event (library accounting), "
           "resident set %.1f MB = %.1f bytes per event\n", (double)t * per, (double)s * per,
           (double)(t + s) * per, (double)rss_pages * page / 1e6,
           (double)rss_pages * page * per);
    printf("bench: memory: in memory %.1f + file-backed %.1f bytes per event (library accounting); "
           "resident set: anonymous %.1f + file pages mapped %.1f bytes per event\n",
           (double)(t + s - file) * per, (double)file * per, status_kb("RssAnon:") * 1024 * per,
           status_kb("RssFile:") * 1024 * per);
}

/* The extras a person sees by default: the flows' arrows and, in per-CPU
 * mode, the CPU load tracks; off for the baseline frames. */
static void set_extras(view_app *a, int on)
{
    cJSON *o = cJSON_CreateObject(); /* the flows panel's state, as the session has it */
    view_panels_save(a, o);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "flows_shown")) != on)
        input_key(a, SDLK_o, 0); /* its key, as a person would */
    cJSON_Delete(o);
    a->tracks.load_on = on;
    rows_changed(a); /* new bands: the next frame renders the timeline again */
}

/* The process's page faults so far: major (read from disk: file pages the
 * kernel had dropped) in *major, minor in *minor. */
static void page_faults(long *major, long *minor)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0)
        ru.ru_majflt = ru.ru_minflt = 0;
    *major = ru.ru_majflt;
    *minor = ru.ru_minflt;
}

typedef struct series {
    double *ms, *cpu, *proc;
    double render;
} series;

static void summary(double *v, size_t n, double *median, double *p99, double *worst)
{
    qsort(v, n, sizeof *v, cmp_double);
    *median = v[n / 2];
    *p99 = v[(size_t)ceil(0.99 * (double)n) - 1];
    *worst = v[n - 1];
}

/* One pass along the path, its figures printed. */
static int bench_pass(view_app *a)
{
    enum { LEGS = 5, N = LEGS * STEPS };
    static const char *const leg_names[LEGS] = {"zoom in", "pan", "zoom out", "pan at 1/100",
                                                "scroll"};
    series s[2]; /* [1]: with the extras, [0]: the baseline, frames interleaved */
    double *buf = malloc(sizeof *buf * N * 6), leg_cpu[LEGS][STEPS];
    if (!buf)
        return EXIT_USAGE;
    for (int k = 0; k < 2; k++)
        s[k] = (series){buf + (size_t)k * 3 * N, buf + (size_t)k * 3 * N + N,
                        buf + (size_t)k * 3 * N + 2 * N, 0};
    view_update_size(a);
    nav_fit(&a->nav);
    set_extras(a, 1);
    long major0, minor0;
    page_faults(&major0, &minor0);
    double first_cpu, first_proc, first = timed_frame(a, &first_cpu, &first_proc);
    size_t n = 0, tracks = 0;
    for (size_t i = 0; i < a->tracks.n; i++)
        tracks += tracks_shown(a, i) && a->tracks.v[i].kind == TRACK_LOAD;
    for (int leg = 0; leg < LEGS; leg++) {
        view_nav start = a->nav, end = start;
        for (int j = 0; j < 2; j++) { /* each leg twice, from the same view; alternating */
            int k = (leg + j) % 2;
            a->nav = start;
            set_extras(a, k);
            double unused, unused_proc;
            timed_frame(a, &unused, &unused_proc); /* the overview is drawn again for the new bands */
            for (int i = 0; i < STEPS; i++) {
                path_step(a, leg, i);
                size_t at = n + (size_t)i;
                s[k].ms[at] = timed_frame(a, &s[k].cpu[at], &s[k].proc[at]);
                s[k].render += a->core->last_render_ms;
                if (k)
                    leg_cpu[leg][i] = s[k].cpu[at];
                if (getenv("TLV_BENCH_FRAMES")) { /* every frame, for profiling */
                    long major, minor;
                    page_faults(&major, &minor);
                    fprintf(stderr, "frame leg %d step %d extras %d span %.6g wall %.2f ms "
                            "cpu %.2f ms render %.2f ms faults %ld major %ld minor\n", leg, i,
                            k, (a->nav.t1 - a->nav.t0) / (a->nav.trace_t1 - a->nav.trace_t0),
                            s[k].ms[at], s[k].cpu[at], a->core->last_render_ms, major, minor);
                }
            }
            if (k)
                end = a->nav;
        }
        a->nav = end;
        n += STEPS;
    }
    double med[2][3], p99[2][3], worst[2][3]; /* [series][wall, cpu, process cpu] */
    for (int k = 0; k < 2; k++) {
        summary(s[k].ms, n, &med[k][0], &p99[k][0], &worst[k][0]);
        summary(s[k].cpu, n, &med[k][1], &p99[k][1], &worst[k][1]);
        summary(s[k].proc, n, &med[k][2], &p99[k][2], &worst[k][2]);
    }
    printf("bench: %zu frames at %dx%d, %zu rows, %zu shapes, %zu load tracks and the flows' "
           "arrows shown: median %.2f ms, p99 %.2f ms, worst %.2f ms (timeline rendering %.2f "
           "ms a frame on average; first frame %.2f ms)\n",
           n, a->px_w, a->px_h, tlv_shapes_row_count(a->shapes), tlv_shapes_count(a->shapes),
           tracks, med[1][0], p99[1][0], worst[1][0], s[1].render / (double)n, first);
    printf("bench: first frame %.2f s after start, trace complete %.2f s after start "
           "(%zu events; converted in %.2f s, final shapes built in %.2f s)\n",
           a->core->times.first_frame - a->core->times.start, a->core->times.loaded - a->core->times.start,
           tlv_trace_event_count(a->trace), a->core->times.convert_s, a->core->times.final_build_s);
    printf("bench: CPU time of the viewer's thread: median %.2f ms, p99 %.2f ms, worst %.2f ms "
           "a frame\n", med[1][1], p99[1][1], worst[1][1]);
    printf("bench: CPU time of the process (the viewer's thread and the renderer's second "
           "drawing thread): median %.2f ms, p99 %.2f ms, worst %.2f ms a frame\n", med[1][2],
           p99[1][2], worst[1][2]);
    printf("bench: baseline, the same path without load tracks and arrows (legs interleaved): "
           "median %.2f ms, p99 %.2f ms; CPU time median %.2f ms, p99 %.2f ms; with/without "
           "p99 CPU time %.2f\n", med[0][0], p99[0][0], med[0][1], p99[0][1],
           p99[1][1] / (p99[0][1] > 0 ? p99[0][1] : 1));
    printf("bench: p99 CPU time by leg:");
    for (int leg = 0; leg < LEGS; leg++) {
        double m, p, w;
        summary(leg_cpu[leg], STEPS, &m, &p, &w);
        printf("%s %s %.2f ms", leg ? "," : "", leg_names[leg], p);
    }
    printf("\n");
    long major1, minor1;
    page_faults(&major1, &minor1);
    printf("bench: page faults during the frames: %ld major (pages read back from disk), "
           "%ld minor\n", major1 - major0, minor1 - minor0);
    print_memory(a);
    free(buf);
    return EXIT_OK;
}

/* TLV_BENCH_SHOTS=PREFIX: after the frames, screenshots of the whole trace
 * and of a fortieth of it around the middle, in a large and a small window
 * (PREFIX-1920x1080-whole.png, ...): to look at what a 100M-line trace's
 * frames show without loading it again. */
static void bench_screenshots(view_app *a, const char *prefix)
{
    static const int sizes[2][2] = {{1920, 1080}, {640, 400}};
    for (int k = 0; k < 2; k++) {
        SDL_SetWindowSize(a->core->win, sizes[k][0], sizes[k][1]);
        view_update_size(a);
        for (int z = 0; z < 2; z++) {
            view_nav *n = &a->nav;
            nav_fit(n);
            double c = n->trace_t0 / 2 + n->trace_t1 / 2, half = (n->trace_t1 - n->trace_t0) / 80;
            if (z)
                nav_set(n, c - half, c + half);
            view_dirty(a);
            view_draw_frame(a);
            char path[4096];
            snprintf(path, sizeof path, "%s-%dx%d-%s.png", prefix, a->px_w, a->px_h,
                     z ? "fortieth" : "whole");
            if (view_write_screenshot(a, path) == 0)
                fprintf(stderr, "bench: screenshot %s\n", path);
            SDL_RenderPresent(a->ren);
        }
    }
}

int view_bench(view_app *a)
{
    /* TLV_BENCH_REPEAT=N runs the path N times (a profiler attached to a
     * big trace's process sees more frames than one pass gives it). */
    const char *rep = getenv("TLV_BENCH_REPEAT");
    int passes = rep ? atoi(rep) : 1, rc = EXIT_OK;
    if (getenv("TLV_BENCH_FRAMES"))
        fprintf(stderr, "bench: frames start\n");
    for (int i = 0; i < (passes > 1 ? passes : 1) && rc == EXIT_OK; i++)
        rc = bench_pass(a);
    const char *shots = getenv("TLV_BENCH_SHOTS");
    if (shots && *shots)
        bench_screenshots(a, shots);
    return rc;
}
