/* cm-power-part.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test's part of a document's page (cm-result-part.h):
 * how many cuts, and each cut in the words the CLI prints it with, the
 * damage to data it was not writing, and where, under it.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-power-part.h"
#include "cm-power-report.h"

void
cm_power_part_fill (CmResultPart *part,
                    CmResult     *result)
{
  g_autoptr(CmPowerReport) report = cm_power_report_from_json (cm_result_get_part (result));

  if (report == NULL)
    return;
  cm_result_part_add_count (part, _("Cuts"), report->cuts->len);
  for (guint i = 0; i < report->cuts->len; i++)
    {
      const CmPowerCut *c = &g_array_index (report->cuts, CmPowerCut, i);
      g_autofree char *line = g_strdup_printf (_("Cut %u: %llu confirmed records kept, %llu lost · in flight: %llu new, %llu old, %llu torn · "
                                                 "back after %.1f s\n"),
                                               i + 1, (unsigned long long) c->kept, (unsigned long long) c->lost,
                                               (unsigned long long) c->fresh, (unsigned long long) c->old,
                                               (unsigned long long) c->torn, c->back_seconds);
      GtkWidget *row = cm_result_part_add_fact (part, g_strchomp (line), "");

      if (c->collateral > 0)
        {
          g_autofree char *hit = g_strdup_printf (_("        %llu sectors it was not writing damaged, the first at byte %llu\n"),
                                                  (unsigned long long) c->collateral,
                                                  (unsigned long long) c->collateral_first);

          adw_action_row_set_subtitle (ADW_ACTION_ROW (row), g_strstrip (hit));
        }
    }
}
