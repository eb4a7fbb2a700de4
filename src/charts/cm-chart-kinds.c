/* cm-chart-kinds.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The table of chart kinds: cm-chart-kinds-table.h, made by
 * src/charts/meson.build from its list of kinds, points at each kind's
 * row in cm-chart-layout-NAME.c. Nothing outside this file asks which
 * kind a chart is to decide what it does: it asks the table.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-chart-kinds-table.h"

#include "cm-chart-kinds.h"

const CmChartKindInfo *
cm_chart_kind_get_info (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  return cm_chart_kinds_table[kind].info;
}

const char *
cm_chart_kind_to_string (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  return cm_chart_kinds_table[kind].name;
}

gboolean
cm_chart_kind_from_string (const char  *str,
                           CmChartKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (cm_chart_kinds_table); i++)
    if (g_strcmp0 (str, cm_chart_kinds_table[i].name) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

const char *
cm_chart_kind_get_title (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  return _(cm_chart_kinds_table[kind].info->title);
}

int
cm_chart_kind_get_widget_height (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, 0);
  return cm_chart_kinds_table[kind].info->widget_height;
}

int
cm_chart_kind_get_widget_height_for (CmChartKind  kind,
                                     GPtrArray   *results)
{
  const CmChartKindInfo *info;

  g_return_val_if_fail (kind < CM_CHART_N_KINDS, 0);
  info = cm_chart_kinds_table[kind].info;
  if (info->widget_height_for != NULL && results != NULL)
    return MAX (info->widget_height, info->widget_height_for (results));
  return info->widget_height;
}

const char *
cm_chart_kind_get_export_label (CmChartKind kind)
{
  const char *label;

  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  label = cm_chart_kinds_table[kind].info->export_label;
  return label != NULL ? _(label) : NULL;
}

int
cm_chart_kind_get_export_height (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, 0);
  return cm_chart_kinds_table[kind].info->export_height;
}

GType
cm_chart_kind_get_type (void)
{
  static gsize type_id = 0;

  if (g_once_init_enter (&type_id))
    {
      GType type = g_enum_register_static (g_intern_static_string ("CmChartKind"),
                                           cm_chart_kind_values);

      g_once_init_leave (&type_id, type);
    }
  return type_id;
}

gboolean
cm_chart_has_data (CmChartKind  kind,
                   GPtrArray   *results)
{
  const CmChartKindInfo *info;

  g_return_val_if_fail (results != NULL, FALSE);
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, FALSE);

  info = cm_chart_kinds_table[kind].info;
  for (guint i = 0; i < results->len; i++)
    if (info->has_data (g_ptr_array_index (results, i)))
      return TRUE;
  return FALSE;
}
