/* cm-chart-layout-verify.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's chart: write and read speed against the place on the
 * card, with the regions that lost data shaded behind the lines, so a
 * card that slows down or fails at 70 % shows where.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-test-table.h"
#include "cm-verify.h"

#include "cm-chart-kind-info.h"

#define MIN_REGION_PX 2.0

static gboolean
add_positions (GArray       *specs,
               CmTestResult *test,
               double        unit,
               int           ink,
               gboolean      dashed)
{
  CmChartSeriesSpec *series;

  if (test == NULL || test->positions->len == 0)
    return FALSE;
  series = cm_chart_series_add (specs, ink, dashed, FALSE);
  for (guint i = 0; i < test->positions->len; i++)
    {
      const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

      cm_chart_series_point (series, p->offset / unit, p->mb_per_s);
    }
  return TRUE;
}

static void
add_regions (CmChartPanel          *panel,
             const CmVerifySummary *verify,
             double                 unit)
{
  for (guint i = 0; verify != NULL && i < verify->bad_regions->len; i++)
    {
      const CmRegion *r = &g_array_index (verify->bad_regions, CmRegion, i);
      double x0 = cm_chart_axis_to_pixel (&panel->x, MIN (r->start / unit, panel->x.max));
      double x1 = cm_chart_axis_to_pixel (&panel->x, MIN (r->end / unit, panel->x.max));
      CmChartBar bar = { { x0, panel->plot.y, MAX (x1 - x0, MIN_REGION_PX), panel->plot.height },
                         0, CM_CHART_INK_BELOW, TRUE, 0, 0, NULL, 0 };

      g_array_append_val (panel->bars, bar);
    }
}

/* The place on the card in GB, or in MB for cards (and files) under
 * 2 GB, so that a small card's axis has numbers to read. */
/* Where the axis must reach for @result: its lost regions, which may
 * lie past the last speed point, and the whole card when the card
 * stopped before the end, so the part it never reached shows. */
static double
chart_end (CmResult *result)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);
  CmVerifyFacts facts;
  double end = 0;

  for (guint i = 0; verify != NULL && i < verify->bad_regions->len; i++)
    end = MAX (end, (double) g_array_index (verify->bad_regions, CmRegion, i).end);
  if (cm_verify_facts_for_result (result, &facts) && facts.unreached_bytes > 0)
    end = MAX (end, (double) facts.card_bytes);
  return end;
}

static double
position_unit (CmChartBuilder *b)
{
  double most = 0;

  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      const char *tests[] = { CM_TEST_VERIFY_WRITE, CM_TEST_VERIFY_READ };

      for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
        {
          CmTestResult *test = cm_chart_lookup_test (result, tests[t]);

          if (test != NULL && test->positions->len > 0)
            most = MAX (most, g_array_index (test->positions, CmPosition, test->positions->len - 1).offset);
        }
      most = MAX (most, chart_end (result));
    }
  return most < 2e9 ? 1e6 : 1e9;
}

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  g_autoptr(GArray) specs = cm_chart_series_specs_new ();
  CmChartPanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  gboolean any_write = FALSE, any_read = FALSE, any_bad = FALSE;
  CmChartPanel *panel;
  double x_min, y_min;
  double unit = position_unit (b);

  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      const CmVerifySummary *verify = cm_result_get_verify (result);

      any_write |= add_positions (specs, cm_chart_lookup_test (result, CM_TEST_VERIFY_WRITE), unit, cm_chart_series_ink (b, r, 0), FALSE);
      any_read |= add_positions (specs, cm_chart_lookup_test (result, CM_TEST_VERIFY_READ), unit, cm_chart_series_ink (b, r, 1), b->multi);
      any_bad |= verify != NULL && verify->bad_regions->len > 0;
      if (b->multi)
        cm_chart_legend_add_result (b, r, TRUE);
    }
  if (specs->len == 0)
    return FALSE;

  if (!b->multi)
    {
      if (any_write)
        cm_chart_legend_add (b, _("Write"), CM_CHART_INK_SERIES, FALSE, TRUE, FALSE);
      if (any_read)
        cm_chart_legend_add (b, _("Read back"), CM_CHART_INK_SERIES + 1, FALSE, TRUE, FALSE);
    }
  else if (any_read)
    cm_chart_legend_add (b, _("Read back"), CM_CHART_INK_MUTED, FALSE, TRUE, TRUE);
  if (any_bad)
    cm_chart_legend_add (b, _("Data lost"), CM_CHART_INK_BELOW, TRUE, FALSE, FALSE);

  cm_chart_series_extent (specs, &x_min, &spec.x_max, &y_min, &spec.y_max);
  for (guint r = 0; r < b->results->len; r++)
    spec.x_max = MAX (spec.x_max, chart_end (g_ptr_array_index (b->results, r)) / unit);
  spec.title = _("Speed, MB/s");
  spec.x_title = unit < 1e9 ? _("position, MB") : _("position, GB");
  spec.y_max = MAX (spec.y_max * 1.08, 1);
  spec.x_max = MAX (spec.x_max, 0.001);
  panel = cm_chart_panel_frame (b, area, &spec);
  for (guint r = 0; r < b->results->len; r++)
    add_regions (panel, cm_result_get_verify (g_ptr_array_index (b->results, r)), unit);
  cm_chart_layout_series (panel, specs);
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  return cm_result_get_verify (result) != NULL;
}

static void
describe (GString  *out,
          CmResult *result)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);
  CmVerifyFacts facts;
  g_autofree char *usable = NULL;

  if (verify == NULL)
    return;
  usable = g_format_size (verify->usable_bytes);
  for (guint i = 0; i < cm_result_get_tests (result)->len; i++)
    {
      CmTestResult *test = g_ptr_array_index (cm_result_get_tests (result), i);

      if (g_str_equal (test->name, CM_TEST_VERIFY_WRITE))
        g_string_append_printf (out, _(" Written at %.1f MB/s."), test->mb_per_s);
      else if (g_str_equal (test->name, CM_TEST_VERIFY_READ))
        g_string_append_printf (out, _(" Read back at %.1f MB/s."), test->mb_per_s);
    }
  g_string_append_printf (out, _(" %s came back intact."), usable);
  if (cm_verify_facts_for_result (result, &facts) && facts.unreached_bytes > 0)
    {
      g_autofree char *unreached = g_format_size (facts.unreached_bytes);

      /* Translators: %s is a size, "71.3 MB" */
      g_string_append_printf (out, _(" The card stopped first: %s of it was never reached."), unreached);
    }
  if (verify->bad_regions->len > 0)
    g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, " %u region lost data, the first at %.2f GB.",
                                              " %u regions lost data, the first at %.2f GB.", verify->bad_regions->len),
                            verify->bad_regions->len, verify->first_bad_offset / 1e9);
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_verify = {
  .title = N_("Write and read back, across the card"),
  .empty_message = N_("No full verify to show. Run “Verify Every Byte” to measure one."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 240,
  .export_label = N_("_Verify Chart…"),
  .export_height = 560,
};
