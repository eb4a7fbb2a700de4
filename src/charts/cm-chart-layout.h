/* cm-chart-layout.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The geometry of a chart, worked out from the data before anything is
 * painted: axis ranges and ticks, bar and line coordinates, and a box for
 * every label. Plain structs, so tests can check where things land.
 */

#pragma once

#include <pango/pango.h>

#include "cm-chart.h"

G_BEGIN_DECLS

typedef struct
{
  double x;
  double y;
  double width;
  double height;
} CmChartRect;

gboolean cm_chart_rect_intersects (const CmChartRect *a,
                                   const CmChartRect *b);

/* What colour a mark takes; the painter maps inks to a palette. */
typedef enum
{
  CM_CHART_INK_FG,
  CM_CHART_INK_MUTED,
  CM_CHART_INK_GRID,
  CM_CHART_INK_MEETS,
  CM_CHART_INK_MARGINAL,
  CM_CHART_INK_BELOW,
  CM_CHART_INK_NOT_JUDGED,
  CM_CHART_INK_SERIES, /* + card or series index */
} CmChartInk;

typedef enum
{
  CM_CHART_FORMAT_NUMBER,
  CM_CHART_FORMAT_LATENCY,    /* µs values shown as µs, ms or s */
  CM_CHART_FORMAT_NINES,      /* percentile on a -log10 (1 - p) axis */
  CM_CHART_FORMAT_BLOCK_SIZE, /* bytes shown as 4K, 64K, 4M */
} CmChartFormat;

typedef struct
{
  double         min;
  double         max;
  gboolean       log;
  double         pixel_min;   /* where min lands */
  double         pixel_max;   /* where max lands */
  CmChartFormat  format;
  GArray        *ticks;       /* double, values in data units */
} CmChartAxis;

double cm_chart_axis_to_pixel (const CmChartAxis *axis,
                               double             value);

typedef struct
{
  CmChartRect  rect;
  double       value;
  int          ink;
  gboolean     light;         /* queue depth 32 */
  double       mark;          /* the sustained figure a class reads, or 0 */
  double       mark_y;
  char        *test;
  guint        result;        /* index into the results */
} CmChartBar;

typedef struct
{
  double x;
  double y;
} CmChartPoint;

typedef struct
{
  double        value;
  double        x0;
  double        x1;
  double        y;
  char         *label;          /* "U3/V30" */
  gboolean      claimed;        /* on the label or declared by the card */
  int           ink;
  CmChartRect   label_box;
  gboolean      leader;         /* a leader joins line and label: some label sits off its line */
  CmChartPoint  leader_start;   /* at the line's height, where it leaves the plot */
  CmChartPoint  leader_end;     /* at the label's left edge */
} CmChartThreshold;

typedef struct
{
  int          ink;
  gboolean     dashed;
  gboolean     points_only;
  gboolean     hollow;
  GArray      *points;        /* CmChartPoint, pixels */
} CmChartSeries;

typedef struct
{
  CmChartPoint point;
  int          ink;
} CmChartMarker;

typedef struct
{
  CmChartRect  plot;
  CmChartAxis  x;
  CmChartAxis  y;
  gboolean     categorical;   /* bars: x has no ticks */
  GArray      *bars;          /* CmChartBar */
  GArray      *thresholds;    /* CmChartThreshold */
  GPtrArray   *series;        /* CmChartSeries */
  GArray      *markers;       /* CmChartMarker */
} CmChartPanel;

typedef enum
{
  CM_CHART_TEXT_TITLE,
  CM_CHART_TEXT_SUBTITLE,
  CM_CHART_TEXT_PANEL_TITLE,
  CM_CHART_TEXT_TICK,
  CM_CHART_TEXT_AXIS_TITLE,
  CM_CHART_TEXT_CATEGORY,
  CM_CHART_TEXT_VALUE,
  CM_CHART_TEXT_THRESHOLD,
  CM_CHART_TEXT_LEGEND,
  CM_CHART_TEXT_MESSAGE,
} CmChartTextRole;

typedef struct
{
  CmChartTextRole  role;
  char            *text;
  CmChartRect      box;
  int              ink;
  gboolean         bold;
} CmChartText;

typedef struct
{
  CmChartRect  swatch;
  int          ink;
  gboolean     light;
  gboolean     dashed;
  gboolean     hollow;
  gboolean     line;          /* a line sample instead of a block */
} CmChartLegendItem;

typedef struct
{
  CmChartKind  kind;
  double       width;
  double       height;
  gboolean     empty;         /* nothing to show; texts hold the message */
  GPtrArray   *panels;        /* CmChartPanel */
  GArray      *texts;         /* CmChartText */
  GArray      *legend;        /* CmChartLegendItem */
} CmChartLayout;

CmChartLayout *cm_chart_layout_new  (CmChartKind    kind,
                                     GPtrArray     *results,
                                     double         width,
                                     double         height,
                                     PangoContext  *context,
                                     gboolean       with_title) G_GNUC_WARN_UNUSED_RESULT;
void           cm_chart_layout_free (CmChartLayout *layout);

/* The font a text role is set in; shared by layout and painter. */
PangoFontDescription *cm_chart_text_font (CmChartTextRole role) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmChartLayout, cm_chart_layout_free)

G_END_DECLS
