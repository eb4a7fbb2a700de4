/* cm-chart-layout-sweep.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The block-size sweep: throughput against block size on a log axis.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-test-table.h"
#include "cm-chart-kind-info.h"

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return (da > db) - (da < db);
}

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  static const char * const prefixes[] = { CM_TEST_SWEEP_READ_PREFIX, CM_TEST_SWEEP_WRITE_PREFIX };
  g_autoptr(GArray) specs = cm_chart_series_specs_new ();
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree guint *present = g_new0 (guint, b->results->len);
  CmChartPanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_BLOCK_SIZE, CM_CHART_FORMAT_NUMBER };
  CmChartPanel *panel;
  double x_min, x_max, y_min;

  for (guint r = 0; r < b->results->len; r++)
    for (guint d = 0; d < G_N_ELEMENTS (prefixes); d++)
      {
        g_autoptr(GPtrArray) tests = cm_chart_sweep_tests (g_ptr_array_index (b->results, r), prefixes[d]);
        CmChartSeriesSpec *series;

        if (tests->len == 0)
          continue;
        /* prefixes lists read, then write, as CmChartDirection does. */
        present[r] |= 1 << d;
        series = cm_chart_series_add (specs, cm_chart_test_series_ink (b, r, prefixes[d]), b->multi && d == 1, FALSE);
        for (guint i = 0; i < tests->len; i++)
          {
            CmTestResult *test = g_ptr_array_index (tests, i);
            double size = test->block_size;
            gboolean seen = FALSE;

            cm_chart_series_point (series, size, test->mb_per_s);
            for (guint t = 0; t < ticks->len; t++)
              seen |= g_array_index (ticks, double, t) == size;
            if (!seen)
              g_array_append_val (ticks, size);
          }
      }
  if (specs->len == 0)
    return FALSE;

  cm_chart_legend_directions (b, present, prefixes, TRUE);

  g_array_sort (ticks, compare_double);
  cm_chart_series_extent (specs, &x_min, &x_max, &y_min, &spec.y_max);
  spec.title = _("Throughput, MB/s");
  spec.x_title = _("block size");
  spec.x_log = TRUE;
  spec.x_fixed_ticks = ticks;
  spec.x_min = x_min / 1.6;
  spec.x_max = x_max * 1.6;
  spec.y_max *= 1.08;
  panel = cm_chart_panel_frame (b, area, &spec);
  cm_chart_layout_series (panel, specs);
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  g_autoptr(GPtrArray) read = cm_chart_sweep_tests (result, CM_TEST_SWEEP_READ_PREFIX);
  g_autoptr(GPtrArray) write = cm_chart_sweep_tests (result, CM_TEST_SWEEP_WRITE_PREFIX);

  return read->len > 0 || write->len > 0;
}

static void
describe (GString  *out,
          CmResult *result)
{
  static const char * const prefixes[] = { CM_TEST_SWEEP_READ_PREFIX, CM_TEST_SWEEP_WRITE_PREFIX };
  const char *whats[] = { _("Read"), _("Write") };

  for (guint d = 0; d < G_N_ELEMENTS (prefixes); d++)
    {
      g_autoptr(GPtrArray) tests = cm_chart_sweep_tests (result, prefixes[d]);

      if (tests->len == 0)
        continue;
      g_string_append_printf (out, " %s:", whats[d]);
      for (guint i = 0; i < tests->len; i++)
        {
          CmTestResult *test = g_ptr_array_index (tests, i);
          g_autofree char *size = g_format_size_full (test->block_size, G_FORMAT_SIZE_IEC_UNITS);

          g_string_append_printf (out, _(" %s blocks %.1f MB/s%s"), size, test->mb_per_s,
                                  i + 1 < tests->len ? "," : ".");
        }
    }
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_sweep = {
  .title = N_("Speed by block size"),
  .empty_message = N_("No block-size sweep to show. Run the full profile to measure one."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 260,
  .export_label = N_("_Block Size Chart…"),
  .export_height = 560,
};
