/* cm-chart-live.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The live chart shown during a run: a line of throughput against time
 * for each test as its samples arrive, and the claimed classes' write
 * speeds. The write-over-time chart shows only the sequential write, so
 * during the other tests of a run (or all of a read-only raw run) it
 * would stand still; the live chart shows whatever is being measured now.
 * Laid out and painted by the kit (cm-chart-kit.h) like every chart.
 */

#pragma once

#include <cairo.h>
#include <pango/pango.h>

#include "cm-chart-kit.h"

G_BEGIN_DECLS

CmChartLive   *cm_chart_live_new          (void);
void           cm_chart_live_free         (CmChartLive        *live);
void           cm_chart_live_add_sample   (CmChartLive        *live,
                                           const char         *test,
                                           double              t,
                                           double              mb_per_s);
void           cm_chart_live_set_claims   (CmChartLive        *live,
                                           const char * const *claims);
guint          cm_chart_live_get_n_series (const CmChartLive  *live);
guint          cm_chart_live_get_n_points (const CmChartLive  *live);

CmChartLayout *cm_chart_live_layout_new   (const CmChartLive  *live,
                                           double              width,
                                           double              height,
                                           PangoContext       *context) G_GNUC_WARN_UNUSED_RESULT;
/* How many rows the legend takes at @width. */
guint          cm_chart_live_legend_rows  (const CmChartLive  *live,
                                           double              width);
void           cm_chart_draw_live         (cairo_t            *cr,
                                           const CmChartLive  *live,
                                           double              width,
                                           double              height,
                                           const CmChartStyle *style);
char          *cm_chart_describe_live     (const CmChartLive  *live) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmChartLive, cm_chart_live_free)

G_END_DECLS
