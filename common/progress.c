/*
 * progress.c — the progress bar long commands draw on a terminal's standard
 * error (never into a file or pipe), and the monotonic clock it runs on.
 */
#include "common/common.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(progress *p, int enabled, unsigned long long total_bytes)
{
    p->enabled = enabled && isatty(2);
    p->total_bytes = total_bytes;
    p->start = p->last = now_seconds();
}

static void human_bytes(char *out, size_t n, double b)
{
    const char *unit[] = {"B", "KB", "MB", "GB", "TB"};
    int u = 0;
    while (b >= 1024 && u < 4) {
        b /= 1024;
        u++;
    }
    snprintf(out, n, u ? "%.1f %s" : "%.0f %s", b, unit[u]);
}

void progress_update(progress *p, unsigned long long bytes, unsigned long long lines)
{
    if (!p->enabled)
        return;
    double t = now_seconds();
    if (t - p->last < 0.1)
        return;
    p->last = t;
    double el = t - p->start;
    char done[32];
    human_bytes(done, sizeof done, (double)bytes);
    double rate = el > 0 ? (double)lines / el : 0;
    if (p->total_bytes) {
        double f = (double)bytes / (double)p->total_bytes;
        if (f > 1)
            f = 1;
        char bar[31];
        int fill = (int)(f * 30);
        for (int i = 0; i < 30; i++)
            bar[i] = i < fill ? '#' : '.';
        bar[30] = '\0';
        double eta = f > 0 ? el / f - el : 0;
        fprintf(stderr, "\r[%s] %3.0f%% %s  %.0f lines/s  ETA %.0f s   ", bar, f * 100, done,
                rate, eta);
    } else {
        fprintf(stderr, "\r%s  %llu lines  %.0f lines/s   ", done, lines, rate);
    }
    fflush(stderr);
}

void progress_end(progress *p)
{
    if (p->enabled && p->last > p->start)
        fprintf(stderr, "\r%*s\r", 79, "");
}
