/*
 * view_panels.h — the viewer's panels: one row each in VIEW_PANELS, in the
 * order they see mouse input (cli/cmd_view.c registers them in it). A row
 * X(NAME) stands for the constructor NAME_panel_new of
 * view/panels/panel_NAME.c, declared here; adding a panel is that file and
 * its row. Only cmd_view.c and the panels include this: a panel never knows
 * another (see "panels" in view.h), and the view's core knows none.
 */
#ifndef TLV_VIEW_PANELS_H
#define TLV_VIEW_PANELS_H

#include "view/view.h"

#define VIEW_PANELS(X)                                                                    \
    X(prompt)      /* the one-line prompt: holds the keyboard while open */              \
    X(marker_edit) /* renaming, recolouring, nudging the selected marker */              \
    X(goto)        /* g: an exact range typed in the prompt */                          \
    X(compare)     /* --compare B: run B's timeline right under A's; Shift+B aligns */  \
    X(diff)        /* Shift+C: --compare's diff table, as tlv diff prints it */          \
    X(search)      /* /: searching the events, n/N, the matches' list */                 \
    X(rows)        /* r: the rows and rules panel; group marks and collapsed bands */    \
    X(legend)      /* Shift+L: the colours in view */                                   \
    X(log)         /* l: the trace-log panel */                                          \
    X(flows)       /* o: flows as arrows */                                              \
    X(tracks)      /* u: CPU-load and counter tracks */                                  \
    X(details)     /* i: the selected shape's details */                                 \
    X(tooltip)     /* the shape under the pointer */                                     \
    X(breakdown)   /* b: the range's breakdown table */                                  \
    X(latency)     /* p: response-time histograms and percentiles per actor */          \
    X(violations)  /* --requirements: the violations as the marker layer "violations" */ \
    X(markers)     /* Shift+M: the marker list by layer */

#define VIEW_PANEL_DECLARE(name) view_panel *name##_panel_new(void);
VIEW_PANELS(VIEW_PANEL_DECLARE)
#undef VIEW_PANEL_DECLARE

#endif
