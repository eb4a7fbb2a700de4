/* cm-chart-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A chart's layout: the kind's row in the table (cm-chart-kinds.c) says
 * how to lay it out, the kit (cm-chart-kit.c) does the rest.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-chart-kind-info.h"

#include "cm-chart-layout.h"

CmChartLayout *
cm_chart_layout_new (CmChartKind   kind,
                     GPtrArray    *results,
                     double        width,
                     double        height,
                     PangoContext *context,
                     gboolean      with_title)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  g_return_val_if_fail (results != NULL, NULL);

  return cm_chart_layout_new_full (kind, results, NULL, NULL, width, height, context, with_title);
}

CmChartLayout *
cm_chart_layout_new_full (CmChartKind             kind,
                          GPtrArray              *results,
                          const CmCapacityReport *capacity,
                          const char             *capacity_device,
                          double                  width,
                          double                  height,
                          PangoContext           *context,
                          gboolean                with_title)
{
  const CmChartKindInfo *info = cm_chart_kind_get_info (kind);

  return cm_chart_build (kind, cm_chart_kind_get_title (kind), _(info->empty_message),
                         capacity != NULL || cm_chart_has_data (kind, results), info->layout,
                         results, capacity, capacity_device, NULL, width, height, context, with_title);
}
