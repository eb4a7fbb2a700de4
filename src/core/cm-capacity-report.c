/* cm-capacity-report.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a capacity check found, as the check makes it and a result keeps
 * it: the map of cells and the sizes read from it.
 */

#include "config.h"

#include "cm-capacity-report.h"

const char *
cm_capacity_cell_to_string (CmCapacityCell cell)
{
  switch (cell)
    {
    case CM_CAPACITY_CELL_VERIFIED:
      return "verified";
    case CM_CAPACITY_CELL_NO_STORAGE:
      return "no-storage";
    case CM_CAPACITY_CELL_READ_ERROR:
      return "read-error";
    case CM_CAPACITY_CELL_WRITE_ERROR:
      return "write-error";
    case CM_CAPACITY_N_CELL_STATES:
    default:
      g_return_val_if_reached (NULL);
    }
}

CmCapacityReport *
cm_capacity_report_new (void)
{
  CmCapacityReport *report = g_new0 (CmCapacityReport, 1);

  report->cells = g_array_new (FALSE, TRUE, sizeof (guint8));
  return report;
}

CmCapacityReport *
cm_capacity_report_copy (const CmCapacityReport *report)
{
  CmCapacityReport *copy;

  g_return_val_if_fail (report != NULL, NULL);

  copy = g_memdup2 (report, sizeof *report);
  copy->cells = g_array_copy (report->cells);
  return copy;
}

void
cm_capacity_report_free (CmCapacityReport *report)
{
  if (report == NULL)
    return;
  g_clear_pointer (&report->cells, g_array_unref);
  g_free (report);
}
