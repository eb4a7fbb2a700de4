/* cm-chart.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every chart is a pure function of one or more CmResults and a size,
 * painted with Cairo on any cairo_t: the app's drawing area, a PNG, SVG or
 * PDF file, or the CLI's --plot.
 *
 * The top of src/charts: the kinds are in the table (cm-chart-kinds.h),
 * the geometry and colours in the kit (cm-chart-kit.h).
 */

#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "cm-chart-kinds.h"
#include "cm-chart-kit.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_CHART_ERROR (cm_chart_error_quark ())

typedef enum
{
  CM_CHART_ERROR_FORMAT,
  CM_CHART_ERROR_WRITE,
} CmChartError;

GQuark cm_chart_error_quark (void);

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
