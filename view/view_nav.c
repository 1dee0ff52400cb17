/*
 * view_nav.c — the visible time range of the viewer and how it moves: zoom
 * around an anchor, pan, centre, fit, and the history that Backspace walks
 * back. Plain arithmetic on doubles, no SDL, so that scripted tests can
 * predict every range exactly.
 *
 * Limits: the span stays between a billionth of the trace (and enough
 * above a double's resolution at these times to keep pixels apart) and the
 * whole trace with a small margin at each end; the range stays within the
 * trace and those margins, so zooming out stops at the whole trace and
 * panning stops at its ends (a little overscroll shows where it ends), and
 * the view cannot be lost in empty time. Within those bounds a zoom keeps
 * its anchor (the time under the cursor) where it was.
 */
#include "view/view.h"

#include <math.h>
#include <string.h>

#define NAV_MARGIN 0.04 /* overscroll past each end, as a share of the trace */

void nav_init(view_nav *n, double trace_t0, double trace_t1)
{
    memset(n, 0, sizeof *n);
    if (!(trace_t1 > trace_t0))
        trace_t1 = trace_t0 + 1;
    n->trace_t0 = n->t0 = trace_t0;
    n->trace_t1 = n->t1 = trace_t1;
    n->last_kind = -1;
}

void nav_set_trace(view_nav *n, double trace_t0, double trace_t1)
{
    if (!(trace_t1 > trace_t0))
        trace_t1 = trace_t0 + 1;
    n->trace_t0 = trace_t0;
    n->trace_t1 = trace_t1;
}

static int coalesces(int kind) { return kind != NAV_JUMP; }

void nav_begin(view_nav *n, nav_kind kind)
{
    if (coalesces((int)kind) && n->last_kind == (int)kind)
        return;
    n->last_kind = (int)kind;
    if (n->nhistory == NAV_HISTORY) { /* forget the oldest */
        memmove(n->history, n->history + 1, (NAV_HISTORY - 1) * sizeof *n->history);
        n->nhistory--;
    }
    n->history[n->nhistory++] = (nav_view){n->t0, n->t1, n->first_row};
}

static double min_span(const view_nav *n, double t0, double t1)
{
    double trace = (n->trace_t1 - n->trace_t0) * 1e-9;
    double resolution = fmax(fabs(t0), fabs(t1)) * 1e-11;
    return fmax(fmax(trace, resolution), 1e-300);
}

void nav_bounds(const view_nav *n, double *lo, double *hi)
{
    double m = (n->trace_t1 - n->trace_t0) * NAV_MARGIN;
    *lo = n->trace_t0 - m;
    *hi = n->trace_t1 + m;
}

void nav_set(view_nav *n, double t0, double t1)
{
    if (!isfinite(t0) || !isfinite(t1))
        return;
    if (t1 < t0) {
        double t = t0;
        t0 = t1;
        t1 = t;
    }
    double lo, hi;
    nav_bounds(n, &lo, &hi);
    double span = t1 - t0, least = min_span(n, t0, t1);
    if (span >= hi - lo) { /* the whole trace and its margins, no more */
        t0 = lo;
        t1 = hi;
    } else if (span < least) { /* keep the centre */
        double c = t0 / 2 + t1 / 2;
        t0 = c - least / 2;
        t1 = c + least / 2;
    }
    if (t0 < lo) { /* past an end: slide back, keeping the span */
        t1 += lo - t0;
        t0 = lo;
    } else if (t1 > hi) {
        t0 -= t1 - hi;
        t1 = hi;
    }
    n->t0 = t0;
    n->t1 = t1;
}

void nav_zoom(view_nav *n, double anchor, double factor)
{
    if (!(factor > 0) || !isfinite(anchor))
        return;
    nav_set(n, anchor - (anchor - n->t0) * factor, anchor + (n->t1 - anchor) * factor);
}

void nav_pan(view_nav *n, double dt) { nav_set(n, n->t0 + dt, n->t1 + dt); }

void nav_center(view_nav *n, double t)
{
    double half = (n->t1 - n->t0) / 2;
    nav_set(n, t - half, t + half);
}

void nav_fit(view_nav *n)
{
    n->t0 = n->trace_t0;
    n->t1 = n->trace_t1;
    n->first_row = 0;
}

int nav_back(view_nav *n)
{
    if (!n->nhistory)
        return 0;
    nav_view v = n->history[--n->nhistory];
    n->t0 = v.t0;
    n->t1 = v.t1;
    n->first_row = v.first_row;
    n->last_kind = -1;
    return 1;
}
