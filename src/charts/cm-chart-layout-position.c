/* cm-chart-layout-position.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Read speed across the card: the surface read's speed against the
 * place on the card.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-chart-kind-info.h"

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  g_autoptr(GArray) specs = cm_chart_series_specs_new ();
  CmChartPanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartPanel *panel;
  double x_min, y_min;

  for (guint r = 0; r < b->results->len; r++)
    {
      CmTestResult *test = cm_chart_lookup_test (g_ptr_array_index (b->results, r), CM_TEST_SURFACE_READ);
      CmChartSeriesSpec *series;

      if (test == NULL || test->positions->len == 0)
        continue;
      series = cm_chart_series_add (specs, cm_chart_series_ink (b, r, 0), FALSE, FALSE);
      for (guint i = 0; i < test->positions->len; i++)
        {
          const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

          cm_chart_series_point (series, p->offset / 1e9, p->mb_per_s);
        }
      if (b->multi)
        cm_chart_legend_add_result (b, r, TRUE);
    }
  if (specs->len == 0)
    return FALSE;

  cm_chart_series_extent (specs, &x_min, &spec.x_max, &y_min, &spec.y_max);
  spec.title = _("Read speed, MB/s");
  spec.x_title = _("position, GB");
  spec.y_max *= 1.08;
  spec.x_max = MAX (spec.x_max, 0.001);
  panel = cm_chart_panel_frame (b, area, &spec);
  cm_chart_layout_series (panel, specs);
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  CmTestResult *test = cm_chart_lookup_test (result, CM_TEST_SURFACE_READ);

  return test != NULL && test->positions->len > 0;
}

static void
describe (GString  *out,
          CmResult *result)
{
  CmTestResult *test = cm_chart_lookup_test (result, CM_TEST_SURFACE_READ);
  double lo = G_MAXDOUBLE, hi = 0, at = 0;

  if (test == NULL || test->positions->len == 0)
    return;
  for (guint i = 0; i < test->positions->len; i++)
    {
      const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

      if (p->mb_per_s < lo)
        at = p->offset;
      lo = MIN (lo, p->mb_per_s);
      hi = MAX (hi, p->mb_per_s);
    }
  g_string_append_printf (out, _(" Read speed at %u places: between %.1f and %.1f MB/s, slowest at %.1f GB."),
                          test->positions->len, lo, hi, at / 1e9);
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_position = {
  .title = N_("Read speed across the card"),
  .empty_message = N_("No surface read to show. The full profile measures one on a raw device."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 240,
  .export_label = N_("_Across the Card Chart…"),
  .export_height = 560,
};
