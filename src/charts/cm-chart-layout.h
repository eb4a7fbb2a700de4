/* cm-chart-layout.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The geometry of a chart, worked out from the data before anything is
 * painted: axis ranges and ticks, bar and line coordinates, and a box for
 * every label. Plain structs (cm-chart-kit.h), so tests can check where
 * things land.
 */

#pragma once

#include <pango/pango.h>

#include "cm-chart-kit.h"
#include "cm-chart-kinds.h"

G_BEGIN_DECLS

CmChartLayout *cm_chart_layout_new      (CmChartKind             kind,
                                         GPtrArray              *results,
                                         double                  width,
                                         double                  height,
                                         PangoContext           *context,
                                         gboolean                with_title) G_GNUC_WARN_UNUSED_RESULT;
/* From results, or for the capacity map from a capacity report. */
CmChartLayout *cm_chart_layout_new_full (CmChartKind             kind,
                                         GPtrArray              *results,
                                         const CmCapacityReport *capacity,
                                         const char             *capacity_device,
                                         double                  width,
                                         double                  height,
                                         PangoContext           *context,
                                         gboolean                with_title) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
