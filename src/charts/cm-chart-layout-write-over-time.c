/* cm-chart-layout-write-over-time.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Write speed over time: the sequential writes' throughput against
 * seconds, with the point where the card's write cache ran out.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-stats.h"
#include "cm-verdict.h"

#include "cm-chart-kind-info.h"

static void
add_samples (CmChartSeriesSpec *spec,
             CmTestResult      *test)
{
  for (guint i = 0; i < test->samples->len; i++)
    {
      const CmSample *s = &g_array_index (test->samples, CmSample, i);

      cm_chart_series_point (spec, (s->t_start + s->t_end) / 2, cm_stats_sample_mb_per_s (s));
    }
}

/* The long sustained write: dashed, in the card's colour or its own. */
static int
sustained_ink (CmChartBuilder *b,
               guint           result)
{
  return cm_chart_test_series_ink (b, result, CM_TEST_SEQ_WRITE_SUSTAINED);
}

/* A ring where @test's rate fell at its cliff (the card's write cache
 * ran out), labelled with how much it took at full speed. */
static void
mark_cliff (CmChartBuilder *b,
            CmChartPanel   *panel,
            CmTestResult   *test,
            int             ink)
{
  g_autofree char *size = NULL;
  g_autofree char *label = NULL;
  CmChartMarker marker;

  if (test == NULL || !test->has_cliff || !test->cliff.found)
    return;

  marker.point.x = cm_chart_axis_to_pixel (&panel->x, test->cliff.t);
  marker.point.y = cm_chart_axis_to_pixel (&panel->y, test->cliff.before_mb_per_s);
  marker.ink = ink;
  g_array_append_val (panel->markers, marker);

  size = g_format_size (test->cliff.full_speed_bytes);
  /* Translators: a mark on the write-over-time chart where the card's
   * write cache ran out; %s is a size, "67.1 MB" */
  label = g_strdup_printf (_("cache full after %s"), size);
  if (!cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, marker.point.x + 6, marker.point.y - 3,
                            0, 1, ink, TRUE, TRUE, NULL))
    cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, marker.point.x + 6, marker.point.y + 3,
                         0, 0, ink, TRUE, TRUE, NULL);
}

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  g_autoptr(GArray) specs = cm_chart_series_specs_new ();
  g_autoptr(GArray) thresholds = cm_chart_threshold_specs_new ();
  CmChartPanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  gboolean any_sustained = FALSE, any_claim = FALSE;
  CmChartPanel *panel;
  double x_min, y_min;

  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      CmTestResult *seq = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE);
      CmTestResult *sustained = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE_SUSTAINED);
      GPtrArray *claims = cm_result_get_claims (result);

      if (seq != NULL && seq->samples->len > 0)
        add_samples (cm_chart_series_add (specs, cm_chart_test_series_ink (b, r, CM_TEST_SEQ_WRITE), FALSE, FALSE), seq);
      if (sustained != NULL && sustained->samples->len > 0)
        {
          add_samples (cm_chart_series_add (specs, sustained_ink (b, r), TRUE, FALSE), sustained);
          any_sustained = TRUE;
        }
      for (guint i = 0; i < claims->len; i++)
        {
          CmClaim *claim = g_ptr_array_index (claims, i);

          any_claim |= cm_chart_claim_is_stated (claim) && cm_chart_class_write_mb_s (claim->klass) > 0;
        }
    }
  if (specs->len == 0)
    return FALSE;

  if (b->multi)
    for (guint r = 0; r < b->results->len; r++)
      cm_chart_legend_add_result (b, r, TRUE);
  else
    cm_chart_legend_add (b, _("Sequential write"), cm_chart_test_ink (CM_TEST_SEQ_WRITE), FALSE, TRUE, FALSE);
  if (any_sustained)
    cm_chart_legend_add (b, _("Long sustained write"), b->multi ? CM_CHART_INK_MUTED : sustained_ink (b, 0),
                         FALSE, TRUE, TRUE);

  if (any_claim)
    {
      /* Only the classes on the label: the line the card must stay above,
       * one line per speed with the classes that share it. */
      static const double speeds[] = { 2, 4, 6, 10, 30, 60, 90 };
      const char * const *all = cm_verdict_get_classes ();

      for (guint v = 0; v < G_N_ELEMENTS (speeds); v++)
        {
          g_autoptr(GPtrArray) names = g_ptr_array_new ();

          for (guint i = 0; all[i] != NULL; i++)
            if (cm_chart_class_write_mb_s (all[i]) == speeds[v])
              g_ptr_array_add (names, (char *) all[i]);
          g_ptr_array_add (names, NULL);
          cm_chart_class_threshold (b, thresholds, speeds[v], NULL, (const char * const *) names->pdata, NULL, -1);
        }
    }
  else
    {
      cm_chart_speed_class_thresholds (b, thresholds);
    }

  spec.title = _("Throughput, MB/s");
  spec.x_title = _("time, s");
  spec.thresholds = thresholds;
  cm_chart_series_extent (specs, &x_min, &spec.x_max, &y_min, &spec.y_max);
  spec.y_max = MAX (spec.y_max * 1.05, cm_chart_thresholds_max (thresholds) * 1.05);
  spec.x_max = MAX (spec.x_max, 1);
  panel = cm_chart_panel_frame (b, area, &spec);
  cm_chart_layout_series (panel, specs);
  cm_chart_place_thresholds (b, panel, thresholds, panel->plot.width);

  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      CmTestResult *sustained = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE_SUSTAINED);

      /* The long write's cliff when it has one, else the short one's. */
      if (sustained != NULL && sustained->has_cliff && sustained->cliff.found)
        mark_cliff (b, panel, sustained, sustained_ink (b, r));
      else
        mark_cliff (b, panel, cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE), cm_chart_test_series_ink (b, r, CM_TEST_SEQ_WRITE));
    }
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  CmTestResult *test;

  return ((test = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE)) != NULL && test->samples->len > 0) ||
         ((test = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE_SUSTAINED)) != NULL && test->samples->len > 0);
}

static void
describe_samples (GString    *out,
                  CmResult   *result,
                  const char *test_name,
                  const char *what)
{
  CmTestResult *test = cm_chart_lookup_test (result, test_name);
  double lo = G_MAXDOUBLE, hi = 0, end = 0;

  if (test == NULL || test->samples->len == 0)
    return;
  for (guint i = 0; i < test->samples->len; i++)
    {
      const CmSample *s = &g_array_index (test->samples, CmSample, i);
      double v = cm_stats_sample_mb_per_s (s);

      lo = MIN (lo, v);
      hi = MAX (hi, v);
      end = MAX (end, s->t_end);
    }
  g_string_append_printf (out, _(" %s over %.0f s: between %.1f and %.1f MB/s, %.1f MB/s on average"),
                          what, end, lo, hi, test->mb_per_s);
  if (cm_test_result_get_sustained_mb_per_s (test) > 0)
    g_string_append_printf (out, _(", %.1f MB/s sustained"), cm_test_result_get_sustained_mb_per_s (test));
  if (test->has_cliff && test->cliff.found)
    {
      g_autofree char *size = g_format_size (test->cliff.full_speed_bytes);

      /* Translators: after "…, 11.9 MB/s sustained"; %s is a size, "67.1 MB" */
      g_string_append_printf (out, _(", falling from %.1f to %.1f MB/s once %s was written (the card’s write cache ran out)"),
                              test->cliff.before_mb_per_s, test->cliff.after_mb_per_s, size);
    }
  g_string_append_c (out, '.');
}

static void
describe (GString  *out,
          CmResult *result)
{
  describe_samples (out, result, CM_TEST_SEQ_WRITE, _("Sequential write"));
  describe_samples (out, result, CM_TEST_SEQ_WRITE_SUSTAINED, _("Long sustained write"));
  cm_chart_describe_claims (out, result);
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_write_over_time = {
  .title = N_("Write speed over time"),
  .empty_message = N_("No sequential write samples to show."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 260,
  .export_label = N_("_Write Over Time Chart…"),
  .export_height = 560,
};
