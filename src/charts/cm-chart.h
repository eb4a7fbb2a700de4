/* cm-chart.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every chart is a pure function of one or more CmResults and a size,
 * painted with Cairo on any cairo_t: the app's drawing area, a PNG, SVG or
 * PDF file, or the CLI's --plot.
 */

#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "cm-result.h"

G_BEGIN_DECLS

#define CM_CHART_ERROR (cm_chart_error_quark ())

typedef enum
{
  CM_CHART_ERROR_FORMAT,
  CM_CHART_ERROR_WRITE,
} CmChartError;

GQuark cm_chart_error_quark (void);

/* How many results one chart tells apart: one colour each. */
#define CM_CHART_MAX_RESULTS 6

typedef enum
{
  CM_CHART_SUMMARY,          /* sequential MB/s and random 4K IOPS, with class lines */
  CM_CHART_WRITE_OVER_TIME,  /* sequential write throughput against time */
  CM_CHART_LATENCY,          /* random 4K latency: scatter and percentiles */
  CM_CHART_SWEEP,            /* throughput against block size */
  CM_CHART_POSITION,         /* read speed across the card */
  CM_CHART_VERIFY,           /* a full verify: write and read speed by position, lost regions */
  CM_CHART_CAPACITY_MAP,     /* the capacity check's cells; drawn from a
                              * CmCapacityReport (cm-chart-capacity.h), not from results */
  CM_CHART_N_KINDS
} CmChartKind;

const char *cm_chart_kind_to_string   (CmChartKind  kind);
gboolean    cm_chart_kind_from_string (const char  *str,
                                       CmChartKind *kind);
const char *cm_chart_kind_get_title   (CmChartKind  kind);

/* Whether @results hold anything this chart can show. */
gboolean    cm_chart_has_data         (CmChartKind  kind,
                                       GPtrArray   *results);

typedef struct
{
  gboolean dark;        /* light text on a dark background */
  gboolean show_title;  /* chart title and card name on top (exports) */
  gboolean transparent; /* leave the background to the caller (widgets) */
  double   scale;       /* device pixels per unit; PNG export only, a
                         * widget's cairo_t is already scaled */
} CmChartStyle;

void     cm_chart_style_init (CmChartStyle *style);

void     cm_chart_draw       (cairo_t            *cr,
                              CmChartKind         kind,
                              GPtrArray          *results,
                              double              width,
                              double              height,
                              const CmChartStyle *style);

gboolean cm_chart_export     (const char         *filename,
                              CmChartKind         kind,
                              GPtrArray          *results,
                              int                 width,
                              int                 height,
                              GError            **error);
gboolean cm_chart_export_with_style (const char         *filename,
                                     CmChartKind         kind,
                                     GPtrArray          *results,
                                     int                 width,
                                     int                 height,
                                     const CmChartStyle *style,
                                     GError            **error);

char    *cm_chart_describe   (CmChartKind         kind,
                              GPtrArray          *results) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
