/* cm-result-part.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a kind puts on its document's page (cm-result-part.h).
 */

#include "config.h"

#include "cm-result-part.h"

/* The chart of a kind that is not a benchmark, in its own group. */
CmChartView *
cm_result_part_add_chart (CmResultPart *part,
                          CmChartKind   kind,
                          const char   *title,
                          const char   *description)
{
  GtkWidget *chart = cm_chart_view_new (kind);

  g_return_val_if_fail (part != NULL, NULL);

  adw_preferences_group_set_title (part->chart_group, title);
  adw_preferences_group_set_description (part->chart_group, description);
  adw_preferences_group_add (part->chart_group, chart);
  gtk_widget_set_visible (GTK_WIDGET (part->chart_group), TRUE);
  part->chart = CM_CHART_VIEW (chart);
  return part->chart;
}

/* One fact of the document: "Sectors corrupted  12". */
GtkWidget *
cm_result_part_add_fact (CmResultPart *part,
                         const char   *title,
                         const char   *value)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *label = gtk_label_new (value);

  g_return_val_if_fail (part != NULL, NULL);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_set_valign (label, GTK_ALIGN_CENTER);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (part->facts_group, row);
  gtk_widget_set_visible (GTK_WIDGET (part->facts_group), TRUE);
  return row;
}

void
cm_result_part_add_count (CmResultPart *part,
                          const char   *title,
                          guint64       count)
{
  g_autofree char *value = g_strdup_printf ("%" G_GUINT64_FORMAT, count);

  cm_result_part_add_fact (part, title, value);
}

void
cm_result_part_add_size (CmResultPart *part,
                         const char   *title,
                         guint64       bytes)
{
  g_autofree char *value = g_format_size (bytes);

  cm_result_part_add_fact (part, title, value);
}
