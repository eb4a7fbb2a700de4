/* cm-chart-layout-summary.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The summary chart: sequential MB/s and random 4K IOPS as bars.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-test-table.h"
#include "cm-verdict.h"
#include "cm-chart-kind-info.h"

/* The space kept between the figures of two bars. */
#define VALUE_SPACE 3.0

/* The summary: sequential MB/s and random 4K IOPS as bars. */

typedef struct
{
  const char *label;
  const char *tests[2];   /* queue depth 1, then 32 (or NULL) */
} Group;

static const Group seq_groups[] = {
  { N_("Write"), { CM_TEST_SEQ_WRITE, NULL } },
  { N_("Read"), { CM_TEST_SEQ_READ, NULL } },
};

static const Group rand_groups[] = {
  { N_("Write"), { CM_TEST_RAND_WRITE_4K, CM_TEST_RAND_WRITE_4K_QD32 } },
  { N_("Read"), { CM_TEST_RAND_READ_4K, CM_TEST_RAND_READ_4K_QD32 } },
};

static double
test_figure (CmTestResult *test,
             gboolean      iops)
{
  return iops ? test->iops : test->mb_per_s;
}

static int
bar_ink (CmChartBuilder *b,
         CmResult       *result,
         guint           index,
         const char     *test)
{
  CmStatus status;

  if (b->multi)
    return CM_CHART_INK_SERIES + index;
  if (cm_chart_test_status (result, test, &status))
    return cm_chart_status_ink (status);
  /* The classes judge the long write when there is one (methodology.md). */
  if (g_strcmp0 (test, CM_TEST_SEQ_WRITE) == 0 && cm_chart_test_status (result, CM_TEST_SEQ_WRITE_SUSTAINED, &status))
    return cm_chart_status_ink (status);
  return CM_CHART_INK_SERIES;
}

/* On the sequential write bar, the sustained rate the classes judge. */
static double
sustained_mark (CmResult     *result,
                CmTestResult *test)
{
  CmTestResult *sustained;

  if (g_strcmp0 (test->name, CM_TEST_SEQ_WRITE) != 0)
    return 0;
  sustained = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE_SUSTAINED);
  return cm_test_result_get_sustained_mb_per_s (sustained != NULL ? sustained : test);
}

/* "7617" IOPS as "7.6k", "23.4" MB/s as it is: short enough that the
 * figures of neighbouring bars stay apart. */
static char *
dup_value_label (double   value,
                 gboolean iops)
{
  if (iops && value >= 100000)
    return g_strdup_printf ("%.0fk", value / 1000);
  if (iops && value >= 1000)
    return g_strdup_printf ("%.1fk", value / 1000);
  return g_strdup_printf (iops || value >= 100 ? "%.0f" : "%.1f", value);
}

/* Whether @box keeps a little space from every text placed so far. */
static gboolean
value_fits (CmChartBuilder    *b,
            const CmChartRect *box)
{
  CmChartRect grown = { box->x - VALUE_SPACE, box->y - 1, box->width + 2 * VALUE_SPACE, box->height + 2 };
  GArray *texts = b->layout->texts;

  for (guint i = 0; i < texts->len; i++)
    if (cm_chart_rect_intersects (&grown, &g_array_index (texts, CmChartText, i).box))
      return FALSE;
  return TRUE;
}

/* Above the bar; where a neighbour's figure is in the way, a line higher,
 * then inside the bar's top: with several cards the bars are narrower
 * than their figures, so figures take turns on two or three lines. */
static void
place_value (CmChartBuilder *b,
             CmChartBar     *bar,
             gboolean        iops)
{
  g_autofree char *label = dup_value_label (bar->value, iops);
  double x = bar->rect.x + bar->rect.width / 2;
  double w, h;

  cm_chart_measure (b, CM_CHART_TEXT_VALUE, FALSE, label, &w, &h);
  for (guint line = 0; line < 4; line++)
    {
      /* Lines 0 to 2 above the bar, line 3 just inside its top. */
      double bottom = line < 3 ? bar->rect.y - 2 - line * h : bar->rect.y + 2 + h;
      CmChartRect box = { x - w / 2, bottom - h, w, h };

      if (box.y >= 0 && value_fits (b, &box))
        {
          cm_chart_place_text (b, CM_CHART_TEXT_VALUE, label, x, bottom, 0.5, 1, CM_CHART_INK_FG, FALSE, FALSE, NULL);
          return;
        }
    }
}

static void
layout_bars (CmChartBuilder *b,
             CmChartPanel   *panel,
             const Group    *groups,
             guint           n_groups,
             gboolean        iops)
{
  double slot = panel->plot.width / n_groups;
  double base = panel->plot.y + panel->plot.height;

  for (guint g = 0; g < n_groups; g++)
    {
      guint n_bars = 0, k = 0;
      double bar_w, x;

      for (guint r = 0; r < b->results->len; r++)
        for (guint q = 0; q < 2; q++)
          if (groups[g].tests[q] != NULL && cm_chart_lookup_test (g_ptr_array_index (b->results, r), groups[g].tests[q]))
            n_bars++;
      bar_w = n_bars > 0 ? MIN (slot * 0.75 / n_bars, 64) : 0;
      x = panel->plot.x + g * slot + (slot - bar_w * n_bars) / 2;

      for (guint r = 0; r < b->results->len; r++)
        for (guint q = 0; q < 2; q++)
          {
            CmResult *result = g_ptr_array_index (b->results, r);
            CmTestResult *test;
            CmChartBar bar = { 0 };
            double top;

            if (groups[g].tests[q] == NULL || (test = cm_chart_lookup_test (result, groups[g].tests[q])) == NULL)
              continue;
            bar.value = test_figure (test, iops);
            top = cm_chart_axis_to_pixel (&panel->y, bar.value);
            bar.rect = (CmChartRect) { x + k * bar_w + 1, top, bar_w - 2, base - top };
            bar.ink = bar_ink (b, result, r, test->name);
            bar.light = q == 1;
            bar.mark = sustained_mark (result, test);
            if (bar.mark > 0)
              bar.mark_y = cm_chart_axis_to_pixel (&panel->y, bar.mark);
            bar.test = g_strdup (test->name);
            bar.result = r;
            g_array_append_val (panel->bars, bar);
            k++;
          }

      cm_chart_place_text (b, CM_CHART_TEXT_CATEGORY, _(groups[g].label), panel->plot.x + (g + 0.5) * slot,
                           base + GAP / 2, 0.5, 0, CM_CHART_INK_FG, FALSE, TRUE, NULL);
    }

  /* A figure for every bar, above it. */
  for (guint i = 0; i < panel->bars->len; i++)
    place_value (b, &g_array_index (panel->bars, CmChartBar, i), iops);
}

static double
groups_max (CmChartBuilder *b,
            const Group    *groups,
            guint           n_groups,
            gboolean        iops,
            gboolean       *any)
{
  double max = 0;

  *any = FALSE;
  for (guint r = 0; r < b->results->len; r++)
    for (guint g = 0; g < n_groups; g++)
      for (guint q = 0; q < 2; q++)
        {
          CmTestResult *test;

          if (groups[g].tests[q] == NULL ||
              (test = cm_chart_lookup_test (g_ptr_array_index (b->results, r), groups[g].tests[q])) == NULL)
            continue;
          max = MAX (max, test_figure (test, iops));
          *any = TRUE;
        }
  return max;
}

static gboolean
any_queue_depth_32 (CmChartBuilder *b)
{
  for (guint r = 0; r < b->results->len; r++)
    for (guint g = 0; g < G_N_ELEMENTS (rand_groups); g++)
      if (cm_chart_lookup_test (g_ptr_array_index (b->results, r), rand_groups[g].tests[1]) != NULL)
        return TRUE;
  return FALSE;
}

static gboolean
any_sustained_mark (CmChartBuilder *b)
{
  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      CmTestResult *test = cm_chart_lookup_test (result, CM_TEST_SEQ_WRITE);

      if (test != NULL && sustained_mark (result, test) > 0)
        return TRUE;
    }
  return FALSE;
}

static void
summary_legend (CmChartBuilder *b)
{
  if (b->multi)
    {
      for (guint r = 0; r < b->results->len; r++)
        cm_chart_legend_add_result (b, r, FALSE);
    }
  else
    {
      static const struct { int ink; const char *label; } inks[] = {
        { CM_CHART_INK_MEETS, N_("Meets the class") },
        { CM_CHART_INK_MARGINAL, N_("Marginal, retest") },
        { CM_CHART_INK_BELOW, N_("Below the class") },
        { CM_CHART_INK_NOT_JUDGED, N_("Not judged here") },
        { CM_CHART_INK_SERIES, N_("No class claimed") },
      };
      CmResult *result = g_ptr_array_index (b->results, 0);
      const char *tests[] = { CM_TEST_SEQ_WRITE, CM_TEST_SEQ_READ, CM_TEST_RAND_WRITE_4K, CM_TEST_RAND_READ_4K,
                              CM_TEST_RAND_WRITE_4K_QD32, CM_TEST_RAND_READ_4K_QD32 };

      for (guint i = 0; i < G_N_ELEMENTS (inks); i++)
        for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
          if (cm_chart_lookup_test (result, tests[t]) != NULL &&
              bar_ink (b, result, 0, tests[t]) == inks[i].ink)
            {
              cm_chart_legend_add (b, _(inks[i].label), inks[i].ink, FALSE, FALSE, FALSE);
              break;
            }
    }
  /* Only the marks some bar carries. */
  if (any_queue_depth_32 (b))
    /* Grey, since it lightens whatever colour its bar has. */
    cm_chart_legend_add (b, _("Lighter: queue depth 32"), CM_CHART_INK_MUTED, TRUE, FALSE, FALSE);
  if (any_sustained_mark (b))
    cm_chart_legend_add (b, _("Sustained write"), CM_CHART_INK_FG, FALSE, TRUE, FALSE);
}

static gboolean
layout (CmChartBuilder    *b,
        const CmChartRect *area)
{
  static const char * const a1[] = { "A1", NULL };
  static const char * const a2[] = { "A2", NULL };
  g_autoptr(GArray) seq_specs = cm_chart_threshold_specs_new ();
  g_autoptr(GArray) rand_specs = cm_chart_threshold_specs_new ();
  CmChartPanelSpec seq = { N_("Sequential, MB/s"), NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartPanelSpec rnd = { N_("Random 4K, IOPS"), NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartRect left, right;
  CmChartPanel *panel;
  gboolean any_seq, any_rand;
  double a1_read, a1_write, a2_read, a2_write, max;

  cm_verdict_get_minimums ("A1", NULL, &a1_read, &a1_write);
  cm_verdict_get_minimums ("A2", NULL, &a2_read, &a2_write);
  summary_legend (b);
  cm_chart_speed_class_thresholds (b, seq_specs);
  cm_chart_class_threshold (b, rand_specs, a1_write, a1, NULL, _("write"), 0);
  cm_chart_class_threshold (b, rand_specs, a1_read, a1, NULL, _("read"), 1);
  cm_chart_class_threshold (b, rand_specs, a2_write, NULL, a2, _("write"), 0);
  cm_chart_class_threshold (b, rand_specs, a2_read, NULL, a2, _("read"), 1);

  cm_chart_split_area (area, 2, 0, &left);
  cm_chart_split_area (area, 2, 1, &right);

  seq.title = _(seq.title);
  seq.n_groups = G_N_ELEMENTS (seq_groups);
  seq.thresholds = seq_specs;
  max = groups_max (b, seq_groups, G_N_ELEMENTS (seq_groups), FALSE, &any_seq);
  seq.y_max = MAX (max * 1.1, cm_chart_thresholds_max (seq_specs) * 1.05);
  panel = cm_chart_panel_frame (b, &left, &seq);
  layout_bars (b, panel, seq_groups, G_N_ELEMENTS (seq_groups), FALSE);
  cm_chart_place_thresholds (b, panel, seq_specs, panel->plot.width / G_N_ELEMENTS (seq_groups));

  rnd.title = _(rnd.title);
  rnd.n_groups = G_N_ELEMENTS (rand_groups);
  rnd.thresholds = rand_specs;
  max = groups_max (b, rand_groups, G_N_ELEMENTS (rand_groups), TRUE, &any_rand);
  rnd.y_max = MAX (max * 1.1, cm_chart_thresholds_max (rand_specs) * 1.05);
  panel = cm_chart_panel_frame (b, &right, &rnd);
  layout_bars (b, panel, rand_groups, G_N_ELEMENTS (rand_groups), TRUE);
  cm_chart_place_thresholds (b, panel, rand_specs, panel->plot.width / G_N_ELEMENTS (rand_groups));
  return TRUE;
}

static gboolean
has_data (CmResult *result)
{
  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *summary = cm_test_table_get_kind (i);

      if (summary->summary && cm_chart_lookup_test (result, summary->name) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
describe_figure (GString    *out,
                 CmResult   *result,
                 const char *test_name,
                 const char *what,
                 gboolean    iops)
{
  CmTestResult *test = cm_chart_lookup_test (result, test_name);
  CmStatus status;

  if (test == NULL)
    return;
  if (iops)
    g_string_append_printf (out, _(" %s %.0f IOPS"), what, test->iops);
  else
    g_string_append_printf (out, _(" %s %.1f MB/s"), what, test->mb_per_s);
  if (cm_chart_test_status (result, test_name, &status))
    g_string_append_printf (out, _(" (%s)"), cm_status_to_string (status));
  g_string_append_c (out, '.');
}

static void
describe (GString  *out,
          CmResult *result)
{
  /* The figures people compare cards by, as the table of tests names them. */
  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    {
      const CmTestKind *kind = cm_test_table_get_kind (i);

      if (kind->summary)
        describe_figure (out, result, kind->name, cm_test_table_get_label (kind->name),
                         kind->headline == CM_FIGURE_IOPS);
    }
  g_string_append (out, _(" Class lines: C10/U1 10 MB/s, U3/V30 30 MB/s, A1 1500 read and 500 write IOPS, A2 4000 read and 2000 write IOPS."));
  cm_chart_describe_claims (out, result);
}

/* This kind's row in the table of kinds (src/charts/cm-chart-kinds.c). */
const CmChartKindInfo cm_chart_kind_summary = {
  .title = N_("Sequential and random speed"),
  .empty_message = N_("No sequential or random tests to show."),
  .has_data = has_data,
  .layout = layout,
  .describe = describe,
  .widget_height = 300,
  .export_label = N_("_Speed Chart…"),
  .export_height = 640,
};
