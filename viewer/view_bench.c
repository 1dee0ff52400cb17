/*
 * view_bench.c — `tlv view --bench`: the frame time a person would feel,
 * measured along a fixed path (zoom into the middle down to a millionth of
 * the trace, pan there, zoom back out, pan at 1/100, scroll rows), each
 * frame drawn in full — timeline re-rendered, overlays, present — and the
 * median, 99th percentile and worst printed; then the same for the CPU time
 * of the viewer's thread, which a machine busy with other work inflates far
 * less than the wall time (the X server's share of presenting is not in it).
 */
#include "view.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define STEPS 60

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static double thread_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1000 + (double)ts.tv_nsec / 1e6;
}

/* Draws and presents one frame; returns its time in ms (and the thread's
 * CPU time in *cpu). */
static double timed_frame(view_app *a, double *cpu)
{
    double t = now_seconds(), c = thread_cpu_ms();
    SDL_PumpEvents();
    view_draw_frame(a);
    SDL_RenderPresent(a->ren);
    *cpu = thread_cpu_ms() - c;
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

/* What the trace and its shapes hold, by the library's accounting, in bytes
 * per event (issue 16's goal: 64), next to the process's resident set. */
static void print_memory(const view_app *a)
{
    size_t nev = tlv_trace_event_count(a->trace);
    size_t t = tlv_trace_memory(a->trace, NULL, NULL), s = tlv_shapes_memory(a->shapes, NULL, NULL);
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
}

int view_bench(view_app *a)
{
    enum { LEGS = 5 };
    double *ms = malloc(sizeof *ms * LEGS * STEPS), *cpu = malloc(sizeof *cpu * LEGS * STEPS);
    if (!ms || !cpu) {
        free(ms);
        free(cpu);
        return EXIT_USAGE;
    }
    view_update_size(a);
    nav_fit(&a->nav);
    double first_cpu, first = timed_frame(a, &first_cpu);
    size_t n = 0;
    double render = 0;
    for (int leg = 0; leg < LEGS; leg++)
        for (int i = 0; i < STEPS; i++) {
            path_step(a, leg, i);
            ms[n] = timed_frame(a, &cpu[n]);
            n++;
            render += a->last_render_ms;
        }
    qsort(ms, n, sizeof *ms, cmp_double);
    qsort(cpu, n, sizeof *cpu, cmp_double);
    size_t p99 = (size_t)ceil(0.99 * (double)n) - 1;
    printf("bench: %zu frames at %dx%d, %zu rows, %zu shapes: median %.2f ms, p99 %.2f ms, "
           "worst %.2f ms (timeline rendering %.2f ms a frame on average; first frame %.2f ms)\n",
           n, a->px_w, a->px_h, tlv_shapes_row_count(a->shapes), tlv_shapes_count(a->shapes),
           ms[n / 2], ms[p99], ms[n - 1], render / (double)n, first);
    printf("bench: first frame %.2f s after start, trace complete %.2f s after start "
           "(%zu events; converted in %.2f s, final shapes built in %.2f s)\n",
           a->times.first_frame - a->times.start, a->times.loaded - a->times.start,
           tlv_trace_event_count(a->trace), a->times.convert_s, a->times.final_build_s);
    printf("bench: CPU time of the viewer's thread: median %.2f ms, p99 %.2f ms, worst %.2f ms "
           "a frame\n", cpu[n / 2], cpu[p99], cpu[n - 1]);
    print_memory(a);
    free(ms);
    free(cpu);
    return EXIT_OK;
}
