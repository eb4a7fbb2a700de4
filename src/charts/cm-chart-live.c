/* cm-chart-live.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The live chart's samples and its layout: one line per test, in the
 * order the tests started, each in its test's colour (the same in every
 * run and in the result charts), named as people say it.
 * Not a kind of the table (cm-chart-kinds.c): it is drawn from samples
 * as they arrive, never from results, so it cannot be exported.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <pango/pangocairo.h>

#include "cm-test-table.h"
#include "cm-verdict.h"

#include "cm-chart-live.h"

static void
live_series_free (gpointer data)
{
  CmChartLiveSeries *series = data;

  g_free (series->test);
  g_array_unref (series->points);
  g_free (series);
}

CmChartLive *
cm_chart_live_new (void)
{
  CmChartLive *live = g_new0 (CmChartLive, 1);

  live->series = g_ptr_array_new_with_free_func (live_series_free);
  return live;
}

void
cm_chart_live_free (CmChartLive *live)
{
  if (live == NULL)
    return;
  g_ptr_array_unref (live->series);
  g_strfreev (live->claims);
  g_free (live);
}

static CmChartLiveSeries *
lookup_series (CmChartLive *live,
               const char  *test)
{
  CmChartLiveSeries *series;

  for (guint i = 0; i < live->series->len; i++)
    {
      series = g_ptr_array_index (live->series, i);
      if (g_str_equal (series->test, test))
        return series;
    }

  series = g_new0 (CmChartLiveSeries, 1);
  series->test = g_strdup (test);
  series->points = g_array_new (FALSE, FALSE, sizeof (CmChartPoint));
  g_ptr_array_add (live->series, series);
  return series;
}

/* One more throughput sample of the test named @test ("seq-write"),
 * @t seconds into it. */
void
cm_chart_live_add_sample (CmChartLive *live,
                          const char  *test,
                          double       t,
                          double       mb_per_s)
{
  CmChartPoint point = { t, mb_per_s };

  g_return_if_fail (live != NULL);
  g_return_if_fail (test != NULL);

  g_array_append_val (lookup_series (live, test)->points, point);
}

/* The classes whose write speed the chart draws as lines. */
void
cm_chart_live_set_claims (CmChartLive        *live,
                          const char * const *claims)
{
  g_return_if_fail (live != NULL);

  g_strfreev (live->claims);
  live->claims = g_strdupv ((char **) claims);
}

guint
cm_chart_live_get_n_series (const CmChartLive *live)
{
  g_return_val_if_fail (live != NULL, 0);
  return live->series->len;
}

guint
cm_chart_live_get_n_points (const CmChartLive *live)
{
  guint n = 0;

  g_return_val_if_fail (live != NULL, 0);

  for (guint i = 0; i < live->series->len; i++)
    n += ((CmChartLiveSeries *) g_ptr_array_index (live->series, i))->points->len;
  return n;
}

/* The claimed classes' write minimums as lines (A1's and A2's 10 MB/s
 * too: a run writes sequentially before it measures IOPS), the classes
 * that share a figure on one line ("U3/V30"). Every one is drawn, however
 * slow the samples: a write at 20 MB/s shows under U3's 30 MB/s line. */
static void
claim_thresholds (const CmChartLive *live,
                  GArray            *thresholds)
{
  g_autoptr(GHashTable) lines = g_hash_table_new_full (g_double_hash, g_double_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; live->claims != NULL && live->claims[i] != NULL; i++)
    {
      double write_mb_s = 0;
      char *names;

      if (!cm_verdict_get_minimums (live->claims[i], &write_mb_s, NULL, NULL) || write_mb_s <= 0)
        continue;
      names = g_hash_table_lookup (lines, &write_mb_s);
      names = names != NULL ? g_strdup_printf ("%s/%s", names, live->claims[i]) : g_strdup (live->claims[i]);
      g_hash_table_replace (lines, g_memdup2 (&write_mb_s, sizeof write_mb_s), names);
    }

  g_hash_table_iter_init (&iter, lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    cm_chart_threshold_add (thresholds, *(double *) key, value, FALSE, CM_CHART_INK_MUTED, -1);
}

static gboolean
layout_live (CmChartBuilder    *b,
             const CmChartRect *area)
{
  const CmChartLive *live = b->live;
  g_autoptr(GArray) specs = cm_chart_series_specs_new ();
  g_autoptr(GArray) thresholds = cm_chart_threshold_specs_new ();
  CmChartPanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartPanel *panel;
  double x_min, y_min;

  if (live == NULL || cm_chart_live_get_n_points (live) == 0)
    return FALSE;

  for (guint i = 0; i < live->series->len; i++)
    {
      CmChartLiveSeries *series = g_ptr_array_index (live->series, i);
      CmChartSeriesSpec *line;
      gboolean dashed;
      int ink;

      cm_chart_test_look (series->test, &ink, &dashed);
      line = cm_chart_series_add (specs, ink, dashed, FALSE);

      for (guint j = 0; j < series->points->len; j++)
        {
          const CmChartPoint *p = &g_array_index (series->points, CmChartPoint, j);

          cm_chart_series_point (line, p->x, p->y);
        }
      cm_chart_legend_add (b, cm_test_table_get_label (series->test), ink, FALSE, TRUE, dashed);
    }

  cm_chart_series_extent (specs, &x_min, &spec.x_max, &y_min, &spec.y_max);
  spec.title = _("Throughput, MB/s");
  spec.x_title = _("time, s");
  claim_thresholds (live, thresholds);
  spec.y_max = MAX (MAX (spec.y_max, cm_chart_thresholds_max (thresholds)) * 1.05, 1);
  spec.x_max = MAX (spec.x_max, 1);
  spec.thresholds = thresholds;
  panel = cm_chart_panel_frame (b, area, &spec);
  cm_chart_layout_series (panel, specs);
  cm_chart_place_thresholds (b, panel, thresholds, panel->plot.width);
  return TRUE;
}

CmChartLayout *
cm_chart_live_layout_new (const CmChartLive *live,
                          double             width,
                          double             height,
                          PangoContext      *context)
{
  g_autoptr(GPtrArray) no_results = g_ptr_array_new ();

  g_return_val_if_fail (live != NULL, NULL);

  /* The kind is not read: the live chart has no row in the table. */
  return cm_chart_build (0, NULL, _("Waiting for the first measurement…"), TRUE, layout_live,
                         no_results, NULL, NULL, live, width, height, context, FALSE);
}

guint
cm_chart_live_legend_rows (const CmChartLive *live,
                           double             width)
{
  g_autoptr(CmChartLayout) layout = NULL;
  guint rows = 0;
  double last_y = -1;

  g_return_val_if_fail (live != NULL, 0);

  layout = cm_chart_live_layout_new (live, width, 400, NULL);
  for (guint i = 0; i < layout->legend->len; i++)
    {
      double y = g_array_index (layout->legend, CmChartLegendItem, i).swatch.y;

      if (rows == 0 || y > last_y + 0.5)
        rows++;
      last_y = y;
    }
  return rows;
}

void
cm_chart_draw_live (cairo_t            *cr,
                    const CmChartLive  *live,
                    double              width,
                    double              height,
                    const CmChartStyle *style)
{
  g_autoptr(CmChartLayout) layout = NULL;
  PangoContext *context;
  CmChartStyle defaults;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (live != NULL);

  if (style == NULL)
    {
      cm_chart_style_init (&defaults);
      style = &defaults;
    }
  /* Measure text with the target's own font options, so boxes match. */
  context = pango_cairo_create_context (cr);
  layout = cm_chart_live_layout_new (live, width, height, context);
  cm_chart_paint (cr, layout, style);
  g_object_unref (context);
}

char *
cm_chart_describe_live (const CmChartLive *live)
{
  return g_strdup (_("Throughput of each test as it runs, in MB/s against seconds."));
}
