/* cm-chart-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Drawing and export from results or a capacity report: cm-chart.c's
 * entry points for cm-chart-capacity.c.
 */

#pragma once

#include "cm-chart-kit.h"
#include "cm-chart.h"

G_BEGIN_DECLS

void          cm_chart_draw_full       (cairo_t                *cr,
                                        CmChartKind             kind,
                                        GPtrArray              *results,
                                        const CmCapacityReport *capacity,
                                        const char             *capacity_device,
                                        double                  width,
                                        double                  height,
                                        const CmChartStyle     *style);
gboolean      cm_chart_export_full     (const char              *filename,
                                        CmChartKind              kind,
                                        GPtrArray               *results,
                                        const CmCapacityReport  *capacity,
                                        const char              *capacity_device,
                                        const char              *description,
                                        int                      width,
                                        int                      height,
                                        const CmChartStyle      *style,
                                        GError                 **error);

G_END_DECLS
