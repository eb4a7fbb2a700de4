/* cm-chart-capacity.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity map's entry points: the same layout, painter and export
 * as every chart, fed a capacity report instead of results.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-chart-layout.h"
#include "cm-chart-private.h"

#include "cm-chart-capacity.h"

static GPtrArray *
no_results (void)
{
  return g_ptr_array_new ();
}

CmChartLayout *
cm_chart_capacity_layout_new (const CmCapacityReport *report,
                              const char             *device,
                              double                  width,
                              double                  height,
                              PangoContext           *context,
                              gboolean                with_title)
{
  g_autoptr(GPtrArray) results = no_results ();

  g_return_val_if_fail (report != NULL, NULL);

  return cm_chart_layout_new_full (CM_CHART_CAPACITY_MAP, results, report, device, width, height,
                                   context, with_title);
}

void
cm_chart_draw_capacity (cairo_t                *cr,
                        const CmCapacityReport *report,
                        const char             *device,
                        double                  width,
                        double                  height,
                        const CmChartStyle     *style)
{
  g_autoptr(GPtrArray) results = no_results ();

  g_return_if_fail (cr != NULL);
  g_return_if_fail (report != NULL);

  cm_chart_draw_full (cr, CM_CHART_CAPACITY_MAP, results, report, device, width, height, style);
}

gboolean
cm_chart_export_capacity (const char              *filename,
                          const CmCapacityReport  *report,
                          const char              *device,
                          int                      width,
                          int                      height,
                          const CmChartStyle      *style,
                          GError                 **error)
{
  g_autoptr(GPtrArray) results = no_results ();
  g_autofree char *description = NULL;

  g_return_val_if_fail (report != NULL, FALSE);

  description = cm_chart_describe_capacity (report, device);
  return cm_chart_export_full (filename, CM_CHART_CAPACITY_MAP, results, report, device, description,
                               width, height, style, error);
}

/* The text alternative: what the map shows, in sentences. */
char *
cm_chart_describe_capacity (const CmCapacityReport *report,
                            const char             *device)
{
  guint counts[CM_CAPACITY_N_CELL_STATES] = { 0 };
  g_autofree char *cell = NULL;
  g_autofree char *real = NULL;
  GString *out;

  g_return_val_if_fail (report != NULL, NULL);

  for (guint i = 0; i < report->cells->len; i++)
    counts[MIN (g_array_index (report->cells, guint8, i), CM_CAPACITY_N_CELL_STATES - 1)]++;
  cell = g_format_size (report->cell_bytes);
  real = g_format_size (report->real_bytes);

  out = g_string_new (cm_chart_kind_get_title (CM_CHART_CAPACITY_MAP));
  g_string_append_c (out, '.');
  g_string_append_printf (out, _(" %s in %u cells of %s: %u verified, %u no storage, %u read errors, %u write errors."),
                          device != NULL ? device : _("The card"), report->cells->len, cell,
                          counts[CM_CAPACITY_CELL_VERIFIED], counts[CM_CAPACITY_CELL_NO_STORAGE],
                          counts[CM_CAPACITY_CELL_READ_ERROR], counts[CM_CAPACITY_CELL_WRITE_ERROR]);
  if (report->fake)
    g_string_append_printf (out, _(" The verified cells end at %s."), real);
  return g_string_free (out, FALSE);
}
