/* cm-chart-capacity.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity map (CM_CHART_CAPACITY_MAP): the card from start to end as
 * a grid of cells, each verified, no storage, read error or write error.
 * Drawn from a capacity check's report rather than from results.
 */

#pragma once

#include <pango/pango.h>

#include "cm-capacity-probe.h"
#include "cm-chart.h"
#include "cm-chart-kit.h"

G_BEGIN_DECLS

CmChartLayout *cm_chart_capacity_layout_new (const CmCapacityReport *report,
                                             const char             *device,
                                             double                  width,
                                             double                  height,
                                             PangoContext           *context,
                                             gboolean                with_title) G_GNUC_WARN_UNUSED_RESULT;
void           cm_chart_draw_capacity       (cairo_t                *cr,
                                             const CmCapacityReport *report,
                                             const char             *device,
                                             double                  width,
                                             double                  height,
                                             const CmChartStyle     *style);
gboolean       cm_chart_export_capacity     (const char             *filename,
                                             const CmCapacityReport *report,
                                             const char             *device,
                                             int                     width,
                                             int                     height,
                                             const CmChartStyle     *style,
                                             GError                **error);
char          *cm_chart_describe_capacity   (const CmCapacityReport *report,
                                             const char             *device) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
