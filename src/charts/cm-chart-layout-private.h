/* cm-chart-layout-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the layout's files share: the builder that carries a layout under
 * construction, the specs a chart describes its panels with, and the
 * helpers that measure and place text, frame panels and place class lines.
 */

#pragma once

#include <pango/pango.h>

#include "cm-capacity-probe.h"
#include "cm-chart-layout.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define MARGIN 12.0
#define GAP 6.0
#define MiB (1024.0 * 1024.0)
#define MAX_CURVE_POINTS 400
#define MAX_NINES 5              /* 99.999 % */

/* The two directions a latency or sweep chart draws, as bits. */
typedef enum
{
  CM_CHART_READ = 1 << 0,
  CM_CHART_WRITE = 1 << 1,
} CmChartDirection;

typedef struct
{
  CmChartLayout *layout;
  PangoContext  *context;
  GPtrArray     *results;
  gboolean       multi;
  GArray        *legend_texts;  /* char *, parallel to layout->legend */
  const CmCapacityReport *capacity;   /* the capacity map's data, or NULL */
  const char    *capacity_device;
} CmChartBuilder;

/* A threshold before it is placed: its value and what it is called. */
typedef struct
{
  double    value;
  char     *label;
  gboolean  claimed;
  int       ink;
  int       group;    /* bar group it spans, or -1 for the whole plot */
} CmChartThresholdSpec;

typedef struct
{
  const char    *title;
  const char    *x_title;
  CmChartFormat  x_format;
  CmChartFormat  y_format;
  gboolean       x_log;
  gboolean       y_log;
  double         x_min, x_max;
  double         y_min, y_max;
  GArray        *x_fixed_ticks;
  guint          n_groups;      /* > 0: a bar chart */
  GArray        *thresholds;    /* CmChartThresholdSpec */
} CmChartPanelSpec;

typedef struct
{
  GArray   *xy;        /* double pairs, data units */
  int       ink;
  gboolean  dashed;
  gboolean  points_only;
  gboolean  hollow;
} CmChartSeriesSpec;

/* Text. */
void                  cm_chart_measure                (CmChartBuilder     *b,
                                                       CmChartTextRole     role,
                                                       gboolean            bold,
                                                       const char         *text,
                                                       double             *width,
                                                       double             *height);
gboolean              cm_chart_place_text             (CmChartBuilder     *b,
                                                       CmChartTextRole     role,
                                                       const char         *str,
                                                       double              x,
                                                       double              y,
                                                       double              xalign,
                                                       double              yalign,
                                                       int                 ink,
                                                       gboolean            bold,
                                                       gboolean            avoid,
                                                       CmChartRect        *box_out);

/* Panels and the legend. */
CmChartPanel         *cm_chart_panel_frame            (CmChartBuilder     *b,
                                                       const CmChartRect  *area,
                                                       CmChartPanelSpec   *spec);
void                  cm_chart_split_area             (const CmChartRect  *area,
                                                       guint               n,
                                                       guint               i,
                                                       CmChartRect        *out);
void                  cm_chart_legend_add             (CmChartBuilder     *b,
                                                       const char         *text,
                                                       int                 ink,
                                                       gboolean            light,
                                                       gboolean            line,
                                                       gboolean            dashed);
void                  cm_chart_legend_directions      (CmChartBuilder     *b,
                                                       const guint        *present,
                                                       gboolean            line);

/* Class lines (cm-chart-layout-thresholds.c). */
GArray               *cm_chart_threshold_specs_new    (void) G_GNUC_WARN_UNUSED_RESULT;
int                   cm_chart_status_ink             (CmStatus            status);
void                  cm_chart_class_threshold        (CmChartBuilder     *b,
                                                       GArray             *specs,
                                                       double              value,
                                                       const char * const *always,
                                                       const char * const *optional,
                                                       const char         *suffix,
                                                       int                 group);
void                  cm_chart_speed_class_thresholds (CmChartBuilder     *b,
                                                       GArray             *specs);
double                cm_chart_thresholds_max         (GArray             *specs);
double                cm_chart_thresholds_gutter      (CmChartBuilder     *b,
                                                       const CmChartPanel *panel,
                                                       GArray             *specs,
                                                       double              widest);
void                  cm_chart_place_thresholds       (CmChartBuilder     *b,
                                                       CmChartPanel       *panel,
                                                       GArray             *specs,
                                                       double              group_width);

/* Line series. */
GArray               *cm_chart_series_specs_new       (void) G_GNUC_WARN_UNUSED_RESULT;
CmChartSeriesSpec    *cm_chart_series_add             (GArray             *specs,
                                                       int                 ink,
                                                       gboolean            dashed,
                                                       gboolean            points_only);
void                  cm_chart_series_point           (CmChartSeriesSpec  *spec,
                                                       double              x,
                                                       double              y);
void                  cm_chart_series_extent          (GArray             *specs,
                                                       double             *x_min,
                                                       double             *x_max,
                                                       double             *y_min,
                                                       double             *y_max);
void                  cm_chart_layout_series          (CmChartPanel       *panel,
                                                       GArray             *specs);
int                   cm_chart_series_ink             (CmChartBuilder     *b,
                                                       guint               result,
                                                       guint               series);

/* One builder per chart; FALSE when there is nothing to draw. */
void                  cm_chart_layout_summary         (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
gboolean              cm_chart_layout_write_over_time (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
gboolean              cm_chart_layout_position        (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
gboolean              cm_chart_layout_latency         (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
gboolean              cm_chart_layout_sweep           (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
gboolean              cm_chart_layout_verify          (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
gboolean              cm_chart_layout_capacity_map    (CmChartBuilder     *b,
                                                       const CmChartRect  *area);
CmChartPanel         *cm_chart_panel_new_plain        (CmChartBuilder     *b,
                                                       const CmChartRect  *plot);
CmChartLayout        *cm_chart_layout_new_full        (CmChartKind             kind,
                                                       GPtrArray              *results,
                                                       const CmCapacityReport *capacity,
                                                       const char             *capacity_device,
                                                       double                  width,
                                                       double                  height,
                                                       PangoContext           *context,
                                                       gboolean                with_title);

G_END_DECLS
