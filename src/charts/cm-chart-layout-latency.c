/* cm-chart-layout-latency.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The latency chart: every random 4K command over time, and the
 * percentile curve they make.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-test-table.h"
#include "cm-chart-kind-info.h"

static int
compare_float (gconstpointer a,
               gconstpointer b)
{
  float fa = *(const float *) a, fb = *(const float *) b;

  return (fa > fb) - (fa < fb);
}

/* Cuts a percentile curve, whose x grows, at @x_max, ending it on the
 * edge with the latency read between the points either side (on the log
 * scale the axis uses). */
static void
clip_curve (CmChartSeriesSpec *spec,
            double             x_max)
{
  GArray *xy = spec->xy;

  for (guint j = 0; j + 1 < xy->len; j += 2)
    {
      double x = g_array_index (xy, double, j);
      double t, y0, y1;

      if (x <= x_max)
        continue;
      if (j == 0)
        {
          g_array_set_size (xy, 0);
          return;
        }
      t = (x_max - g_array_index (xy, double, j - 2)) / (x - g_array_index (xy, double, j - 2));
      y0 = log10 (g_array_index (xy, double, j - 1));
      y1 = log10 (g_array_index (xy, double, j + 1));
      g_array_index (xy, double, j) = x_max;
      g_array_index (xy, double, j + 1) = pow (10, y0 + t * (y1 - y0));
      g_array_set_size (xy, j + 2);
      return;
    }
}

static const char * const latency_tests[] = { CM_TEST_RAND_READ_4K, CM_TEST_RAND_WRITE_4K };

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  static const double marks[] = { 0.5, 0.9, 0.99 };
  g_autoptr(GArray) scatter = cm_chart_series_specs_new ();
  g_autoptr(GArray) curves = cm_chart_series_specs_new ();
  g_autoptr(GArray) nines_ticks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree guint *present = g_new0 (guint, b->results->len);
  CmChartPanelSpec left = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_LATENCY };
  CmChartPanelSpec right = { NULL, NULL, CM_CHART_FORMAT_NINES, CM_CHART_FORMAT_LATENCY };
  CmChartRect left_area, right_area;
  CmChartPanel *panel;
  double x_min, y_min, y_max, max_nines, c_min, c_max, cy_min, cy_max;

  for (guint r = 0; r < b->results->len; r++)
    for (guint d = 0; d < G_N_ELEMENTS (latency_tests); d++)
      {
        CmTestResult *test = cm_chart_lookup_test (g_ptr_array_index (b->results, r), latency_tests[d]);
        int ink = cm_chart_test_series_ink (b, r, latency_tests[d]);
        CmChartSeriesSpec *points, *curve;
        g_autofree float *sorted = NULL;
        guint n, step;

        if (test == NULL || (test->scatter->len == 0 && test->latency_us[0] <= 0))
          continue;
        /* latency_tests lists read, then write, as CmChartDirection does. */
        present[r] |= 1 << d;
        n = test->scatter->len;
        points = cm_chart_series_add (scatter, ink, FALSE, TRUE);
        points->hollow = b->multi && d == 1;
        sorted = g_new (float, MAX (n, 1));
        for (guint i = 0; i < n; i++)
          {
            const CmLatencyPoint *p = &g_array_index (test->scatter, CmLatencyPoint, i);

            cm_chart_series_point (points, p->t, MAX (p->us, 1));
            sorted[i] = MAX (p->us, 1);
          }
        qsort (sorted, n, sizeof (float), compare_float);

        curve = cm_chart_series_add (curves, ink, b->multi && d == 1, FALSE);
        step = MAX (1, n / MAX_CURVE_POINTS);
        for (guint i = 0; i < n; i += step)
          cm_chart_series_point (curve, -log10 (1 - (i + 0.5) / n), sorted[i]);
        if (n > 0)
          cm_chart_series_point (curve, -log10 (0.5 / n), sorted[n - 1]);

        /* The measured percentiles, from every command, as marks. */
        for (guint m = 0; m < G_N_ELEMENTS (marks); m++)
          if (test->latency_us[m] > 0)
            {
              CmChartSeriesSpec *mark = cm_chart_series_add (curves, ink, FALSE, TRUE);

              cm_chart_series_point (mark, -log10 (1 - marks[m]), test->latency_us[m]);
            }
      }
  if (scatter->len == 0)
    return FALSE;

  cm_chart_legend_directions (b, present, latency_tests, FALSE);

  cm_chart_series_extent (scatter, &x_min, &left.x_max, &y_min, &y_max);
  cm_chart_series_extent (curves, &c_min, &c_max, &cy_min, &cy_max);
  /* The axis ends on a whole nine past the slowest command, but no further
   * than 99.999 %: a long run's tail is cut at the plot's edge. */
  max_nines = CLAMP (ceil (c_max - 1e-9), 2, MAX_NINES);
  for (guint i = 0; i < curves->len; i++)
    clip_curve (&g_array_index (curves, CmChartSeriesSpec, i), max_nines);
  y_min = MIN (y_min, cy_min);
  y_max = MAX (y_max, cy_max);

  cm_chart_split_area (area, 2, 0, &left_area);
  cm_chart_split_area (area, 2, 1, &right_area);

  left.title = _("Random 4K latency over time");
  left.x_title = _("time, s");
  left.y_log = TRUE;
  left.y_min = y_min;
  left.y_max = y_max;
  left.x_max = MAX (left.x_max, 1);
  panel = cm_chart_panel_frame (b, &left_area, &left);
  cm_chart_layout_series (panel, scatter);

  for (double v = 0; v <= max_nines; v++)
    g_array_append_val (nines_ticks, v);
  right.title = _("Latency percentiles");
  right.x_title = _("percentile");
  right.y_log = TRUE;
  right.y_min = y_min;
  right.y_max = y_max;
  right.x_fixed_ticks = nines_ticks;
  right.x_min = 0;
  right.x_max = max_nines;
  panel = cm_chart_panel_frame (b, &right_area, &right);
  cm_chart_layout_series (panel, curves);

  /* Name the marks of the first curve: series 1 to 3 follow it. */
  for (guint m = 0; m < G_N_ELEMENTS (marks) && 1 + m < panel->series->len; m++)
    {
      CmChartSeries *mark = g_ptr_array_index (panel->series, 1 + m);
      g_autofree char *label = NULL;
      CmChartPoint p;

      if (!mark->points_only || mark->points->len == 0)
        break;
      p = g_array_index (mark->points, CmChartPoint, 0);
      label = g_strdup_printf ("p%g", marks[m] * 100);
      if (!cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, p.x - 4, p.y - 3, 1, 1, mark->ink, TRUE, TRUE, NULL))
        cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, p.x + 4, p.y + 3, 0, 0, mark->ink, TRUE, TRUE, NULL);
    }
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  CmTestResult *test;

  return ((test = cm_chart_lookup_test (result, CM_TEST_RAND_READ_4K)) != NULL && test->scatter->len > 0) ||
         ((test = cm_chart_lookup_test (result, CM_TEST_RAND_WRITE_4K)) != NULL && test->scatter->len > 0);
}

static void
describe (GString  *out,
          CmResult *result)
{
  static const char * const tests[] = { CM_TEST_RAND_READ_4K, CM_TEST_RAND_WRITE_4K };
  const char *whats[] = { _("Random 4K read latency"), _("Random 4K write latency") };

  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      CmTestResult *test = cm_chart_lookup_test (result, tests[i]);

      if (test == NULL)
        continue;
      g_string_append_printf (out, _(" %s: median %.2f ms, 90th percentile %.2f ms, 99th percentile %.2f ms, slowest %.2f ms."),
                              whats[i], test->latency_us[0] / 1000, test->latency_us[1] / 1000,
                              test->latency_us[2] / 1000, test->latency_us[3] / 1000);
    }
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_latency = {
  .title = N_("Random access latency"),
  .empty_message = N_("No random 4K latency to show."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 280,
  .export_label = N_("_Latency Chart…"),
  .export_height = 560,
};
