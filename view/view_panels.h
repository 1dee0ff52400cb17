/*
 * view_panels.h — the constructors of the viewer's panels, for cmd_view.c,
 * which registers them (view_add_panel) in this order: input goes to them
 * in it, the prompt first (it takes every key while open). Only cmd_view.c
 * includes this: a panel never knows another (see "panels" in view.h).
 */
#ifndef TLV_VIEW_PANELS_H
#define TLV_VIEW_PANELS_H

#include "view/view.h"

view_panel *prompt_panel_new(void);      /* panel_prompt.c */
view_panel *marker_edit_panel_new(void); /* panel_marker_edit.c */
view_panel *goto_panel_new(void);        /* panel_goto.c */
view_panel *search_panel_new(void);      /* panel_search.c */
view_panel *rows_panel_new(void);        /* panel_rows.c */
view_panel *log_panel_new(void);         /* panel_log.c */
view_panel *tooltip_panel_new(void);     /* panel_tooltip.c */
view_panel *flows_panel_new(void);       /* panel_flows.c */
view_panel *tracks_panel_new(void);      /* panel_tracks.c */
view_panel *details_panel_new(void);     /* panel_details.c */
view_panel *breakdown_panel_new(void);   /* panel_breakdown.c */
view_panel *markers_panel_new(void);     /* panel_markers.c */
view_panel *legend_panel_new(void);      /* panel_legend.c */

#endif
