/* cm-chart-kind-info.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A chart kind's row in the table of kinds. Each layout file,
 * cm-chart-layout-NAME.c, defines its row as
 * `const CmChartKindInfo cm_chart_kind_NAME`; src/charts/meson.build lists
 * the names, which makes the enum (cm-chart-kind.h) and the table
 * (cm-chart-kinds-table.h, read by cm-chart-kinds.c) from them.
 */

#pragma once

#include "cm-chart-kit-private.h"
#include "cm-test-table.h"

G_BEGIN_DECLS

typedef struct _CmChartKindInfo
{
  /* Both marked for translation, translated where they are shown. */
  const char         *title;          /* drawn on exports, read first by screen readers */
  const char         *empty_message;  /* shown when there is nothing to draw */
  /* Whether one result holds anything this chart shows. */
  gboolean          (*has_data)       (CmResult          *result);
  /* Lays the chart out in @area; FALSE when there is nothing to draw. */
  CmChartLayoutFunc   layout;
  /* Appends one result's figures in sentences; NULL for none. */
  void              (*describe)       (GString           *out,
                                       CmResult          *result);
  int                 widget_height;  /* the app's preferred height for it, in pixels */
  /* Its height for these results where they need more room than
   * widget_height (a panel only some results have); NULL for none. */
  int               (*widget_height_for) (GPtrArray         *results);
  /* The entry of the result page's Export menu, marked for translation,
   * and the exported image's height at CM_CHART_EXPORT_WIDTH; NULL and 0
   * for a kind the app does not offer to export. */
  const char         *export_label;
  int                 export_height;
} CmChartKindInfo;

G_END_DECLS
