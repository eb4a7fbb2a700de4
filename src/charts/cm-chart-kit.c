/* cm-chart-kit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kit's geometry: axes and round ticks, panels and line series,
 * with text measured and placed by cm-chart-kit-place.c. Nothing here paints (cm-chart-kit-paint.c
 * does): every position is decided first, so that labels can be kept
 * apart and tests can check where marks land. The title, the legend and
 * the two passes over a whole chart are in cm-chart-kit-build.c; what a
 * chart shows is each layout file's business (cm-chart-layout-*.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "cm-chart-kit-private.h"

static void
text_clear (gpointer data)
{
  CmChartText *text = data;

  g_free (text->text);
}

/* Axis ranges and round ticks. */

static double
nice_step (double range,
           double target)
{
  double raw = range / MAX (target, 1);
  double magnitude = pow (10, floor (log10 (raw)));
  double n = raw / magnitude;

  if (n <= 1)
    return magnitude;
  if (n <= 2)
    return 2 * magnitude;
  if (n <= 5)
    return 5 * magnitude;
  return 10 * magnitude;
}

static void
axis_linear (CmChartAxis *axis,
             double       min,
             double       max,
             double       target)
{
  double step;
  guint n;

  if (!(max > min))
    max = min + 1;
  step = nice_step (max - min, target);
  axis->min = floor (min / step + 1e-9) * step;
  axis->max = ceil (max / step - 1e-9) * step;
  n = (guint) llround ((axis->max - axis->min) / step);
  for (guint i = 0; i <= n; i++)
    {
      double v = axis->min + i * step;

      g_array_append_val (axis->ticks, v);
    }
}

static void
axis_log (CmChartAxis *axis,
          double       min,
          double       max)
{
  static const double all[] = { 1, 2, 5 };
  int lo, hi;

  min = MAX (min, 1e-3);
  max = MAX (max, min * 1.01);
  lo = (int) floor (log10 (min) + 1e-9);
  hi = (int) ceil (log10 (max) - 1e-9);
  if (hi <= lo)
    hi = lo + 1;
  axis->log = TRUE;
  axis->min = pow (10, lo);
  axis->max = pow (10, hi);
  for (int d = lo; d <= hi; d++)
    for (guint i = 0; i < (hi - lo > 2 ? 1 : G_N_ELEMENTS (all)); i++)
      {
        double v = all[i] * pow (10, d);

        if (v <= axis->max * (1 + 1e-9))
          g_array_append_val (axis->ticks, v);
      }
}

static void
axis_fixed (CmChartAxis *axis,
            GArray      *ticks,
            gboolean     log,
            double       min,
            double       max)
{
  axis->log = log;
  axis->min = min;
  axis->max = max;
  g_array_append_vals (axis->ticks, ticks->data, ticks->len);
}

static int
decimals_for (const CmChartAxis *axis)
{
  double step;

  if (axis->ticks->len < 2)
    return 0;
  step = g_array_index (axis->ticks, double, 1) - g_array_index (axis->ticks, double, 0);
  return step >= 1 ? 0 : (int) ceil (-log10 (step) - 1e-9);
}

static char *
format_value (const CmChartAxis *axis,
              double             v)
{
  switch (axis->format)
    {
    case CM_CHART_FORMAT_LATENCY:
      if (v < 1000)
        return g_strdup_printf (_("%g µs"), v);
      if (v < 1e6)
        return g_strdup_printf (_("%g ms"), v / 1000);
      return g_strdup_printf (_("%g s"), v / 1e6);
    case CM_CHART_FORMAT_NINES:
      return g_strdup_printf ("%g", 100 * (1 - pow (10, -v)));
    case CM_CHART_FORMAT_BLOCK_SIZE:
      if (v >= MiB)
        return g_strdup_printf (_("%gM"), v / MiB);
      if (v >= 1024)
        return g_strdup_printf (_("%gK"), v / 1024);
      return g_strdup_printf (_("%g B"), v);
    case CM_CHART_FORMAT_PERCENT:
      /* Translators: a share of the card on a chart's axis, "0.1 %". */
      return g_strdup_printf (_("%g %%"), v);
    case CM_CHART_FORMAT_NUMBER:
    default:
      return g_strdup_printf ("%.*f", decimals_for (axis), v);
    }
}

static void
axis_init (CmChartAxis   *axis,
           CmChartFormat  format)
{
  memset (axis, 0, sizeof *axis);
  axis->format = format;
  axis->ticks = g_array_new (FALSE, FALSE, sizeof (double));
}

static void
axis_build (CmChartAxis *axis,
            gboolean     log,
            GArray      *fixed,
            double       min,
            double       max,
            double       target)
{
  if (fixed != NULL)
    axis_fixed (axis, fixed, log, min, max);
  else if (log)
    axis_log (axis, min, max);
  else
    axis_linear (axis, min, max, target);
}

/* Panels. */

static void
bar_clear (gpointer data)
{
  g_free (((CmChartBar *) data)->test);
}

static void
threshold_clear (gpointer data)
{
  g_free (((CmChartThreshold *) data)->label);
}

static void
series_free (gpointer data)
{
  CmChartSeries *series = data;

  g_array_unref (series->points);
  g_free (series);
}

static void
panel_free (gpointer data)
{
  CmChartPanel *panel = data;

  g_array_unref (panel->x.ticks);
  g_array_unref (panel->y.ticks);
  g_array_unref (panel->bars);
  g_array_unref (panel->thresholds);
  g_ptr_array_unref (panel->series);
  g_array_unref (panel->markers);
  g_free (panel);
}

static CmChartPanel *
panel_new (const CmChartPanelSpec *spec)
{
  CmChartPanel *panel = g_new0 (CmChartPanel, 1);

  axis_init (&panel->x, spec->x_format);
  axis_init (&panel->y, spec->y_format);
  panel->categorical = spec->n_groups > 0;
  panel->bars = g_array_new (FALSE, TRUE, sizeof (CmChartBar));
  g_array_set_clear_func (panel->bars, bar_clear);
  panel->thresholds = g_array_new (FALSE, TRUE, sizeof (CmChartThreshold));
  g_array_set_clear_func (panel->thresholds, threshold_clear);
  panel->series = g_ptr_array_new_with_free_func (series_free);
  panel->markers = g_array_new (FALSE, TRUE, sizeof (CmChartMarker));
  return panel;
}

static double
widest_label (CmChartBuilder    *b,
              CmChartTextRole    role,
              GArray            *labels_or_null,
              const CmChartAxis *axis)
{
  double widest = 0, w, h;

  if (axis != NULL)
    for (guint i = 0; i < axis->ticks->len; i++)
      {
        g_autofree char *label = format_value (axis, g_array_index (axis->ticks, double, i));

        cm_chart_measure (b, role, FALSE, label, &w, &h);
        widest = MAX (widest, w);
      }
  if (labels_or_null != NULL)
    for (guint i = 0; i < labels_or_null->len; i++)
      {
        CmChartThresholdSpec *t = &g_array_index (labels_or_null, CmChartThresholdSpec, i);

        cm_chart_measure (b, role, t->claimed, t->label, &w, &h);
        widest = MAX (widest, w);
      }
  return widest;
}

static int
compare_threshold (gconstpointer a,
                   gconstpointer b)
{
  double va = ((const CmChartThresholdSpec *) a)->value, vb = ((const CmChartThresholdSpec *) b)->value;

  return (va > vb) - (va < vb);
}

/* The room above and below a panel's plot: its title, and its x axis'
 * labels and title. */
static void
panel_margins (CmChartBuilder         *b,
               const CmChartRect      *area,
               const CmChartPanelSpec *spec,
               double                 *top,
               double                 *bottom)
{
  double title_w, title_h, tick_w, tick_h;

  cm_chart_measure (b, CM_CHART_TEXT_PANEL_TITLE, TRUE, spec->title, &title_w, &title_h);
  cm_chart_measure (b, CM_CHART_TEXT_TICK, FALSE, "0", &tick_w, &tick_h);
  *top = title_h + tick_h / 2 + GAP;
  *bottom = tick_h + GAP + (spec->x_title != NULL ? tick_h + 2 : 0);
}

/* The room the y axis' labels of a panel framed in @area would take on
 * its left, so that panels stacked one above another can share it. */
double
cm_chart_panel_left_gutter (CmChartBuilder         *b,
                            const CmChartRect      *area,
                            const CmChartPanelSpec *spec)
{
  CmChartAxis axis;
  double top, bottom, left;

  panel_margins (b, area, spec, &top, &bottom);
  axis_init (&axis, spec->y_format);
  axis_build (&axis, spec->y_log, NULL, spec->y_min, spec->y_max,
              MAX (3, (area->height - top - bottom) / 55));
  left = MAX (widest_label (b, CM_CHART_TEXT_TICK, NULL, &axis) + GAP, spec->min_left);
  g_array_unref (axis.ticks);
  return left;
}

CmChartPanel *
cm_chart_panel_frame (CmChartBuilder    *b,
                      const CmChartRect *area,
                      CmChartPanelSpec  *spec)
{
  CmChartPanel *panel = panel_new (spec);
  double left, right, top, bottom;
  CmChartRect *plot = &panel->plot;

  cm_chart_place_text (b, CM_CHART_TEXT_PANEL_TITLE, spec->title, area->x, area->y, 0, 0,
                       CM_CHART_INK_FG, TRUE, FALSE, NULL);

  panel_margins (b, area, spec, &top, &bottom);
  axis_build (&panel->y, spec->y_log, NULL, spec->y_min, spec->y_max,
              MAX (3, (area->height - top - bottom) / 55));

  plot->y = area->y + top;
  plot->height = MAX (area->height - top - bottom, 10);
  panel->y.pixel_min = plot->y + plot->height;
  panel->y.pixel_max = plot->y;

  /* The class labels' gutter depends on whether their lines are so close
   * that labels move off them, which the y axis alone decides. */
  left = MAX (widest_label (b, CM_CHART_TEXT_TICK, NULL, &panel->y) + GAP, spec->min_left);
  right = 8;
  if (spec->thresholds != NULL && spec->thresholds->len > 0)
    {
      g_array_sort (spec->thresholds, compare_threshold);
      right = cm_chart_thresholds_gutter (b, panel, spec->thresholds,
                                          widest_label (b, CM_CHART_TEXT_THRESHOLD, spec->thresholds, NULL));
    }
  plot->x = area->x + left;
  plot->width = MAX (area->width - left - right, 10);

  for (guint i = 0; i < panel->y.ticks->len; i++)
    {
      double v = g_array_index (panel->y.ticks, double, i);
      g_autofree char *label = format_value (&panel->y, v);

      cm_chart_place_text (b, CM_CHART_TEXT_TICK, label, plot->x - GAP, cm_chart_axis_to_pixel (&panel->y, v),
                           1, 0.5, CM_CHART_INK_MUTED, FALSE, TRUE, NULL);
    }

  if (!panel->categorical)
    {
      axis_build (&panel->x, spec->x_log, spec->x_fixed_ticks, spec->x_min, spec->x_max,
                  MAX (2, plot->width / 80));
      panel->x.pixel_min = plot->x;
      panel->x.pixel_max = plot->x + plot->width;
      for (guint i = 0; i < panel->x.ticks->len; i++)
        {
          double v = g_array_index (panel->x.ticks, double, i);
          g_autofree char *label = format_value (&panel->x, v);

          cm_chart_place_text (b, CM_CHART_TEXT_TICK, label, cm_chart_axis_to_pixel (&panel->x, v),
                               plot->y + plot->height + GAP / 2, 0.5, 0, CM_CHART_INK_MUTED, FALSE, TRUE, NULL);
        }
      if (spec->x_title != NULL)
        cm_chart_place_text (b, CM_CHART_TEXT_AXIS_TITLE, spec->x_title, plot->x + plot->width,
                             area->y + area->height, 1, 1, CM_CHART_INK_MUTED, FALSE, TRUE, NULL);
    }

  g_ptr_array_add (b->layout->panels, panel);
  return panel;
}

/* A panel with no axes to speak of: the capacity map's grid. */
CmChartPanel *
cm_chart_panel_new_plain (CmChartBuilder    *b,
                          const CmChartRect *plot)
{
  CmChartPanelSpec spec = { 0 };
  CmChartPanel *panel = panel_new (&spec);

  panel->plot = *plot;
  panel->categorical = TRUE;
  g_ptr_array_add (b->layout->panels, panel);
  return panel;
}

/* Line charts. */

static void
series_spec_clear (gpointer data)
{
  g_array_unref (((CmChartSeriesSpec *) data)->xy);
}

GArray *
cm_chart_series_specs_new (void)
{
  GArray *specs = g_array_new (FALSE, TRUE, sizeof (CmChartSeriesSpec));

  g_array_set_clear_func (specs, series_spec_clear);
  return specs;
}

CmChartSeriesSpec *
cm_chart_series_add (GArray   *specs,
                     int       ink,
                     gboolean  dashed,
                     gboolean  points_only)
{
  CmChartSeriesSpec spec = { g_array_new (FALSE, FALSE, sizeof (double)), ink, dashed, points_only, FALSE };

  g_array_append_val (specs, spec);
  return &g_array_index (specs, CmChartSeriesSpec, specs->len - 1);
}

void
cm_chart_series_point (CmChartSeriesSpec *spec,
                       double             x,
                       double             y)
{
  g_array_append_val (spec->xy, x);
  g_array_append_val (spec->xy, y);
}

void
cm_chart_series_extent (GArray *specs,
                        double *x_min,
                        double *x_max,
                        double *y_min,
                        double *y_max)
{
  *x_min = *y_min = G_MAXDOUBLE;
  *x_max = *y_max = -G_MAXDOUBLE;
  for (guint i = 0; i < specs->len; i++)
    {
      GArray *xy = g_array_index (specs, CmChartSeriesSpec, i).xy;

      for (guint j = 0; j + 1 < xy->len; j += 2)
        {
          *x_min = MIN (*x_min, g_array_index (xy, double, j));
          *x_max = MAX (*x_max, g_array_index (xy, double, j));
          *y_min = MIN (*y_min, g_array_index (xy, double, j + 1));
          *y_max = MAX (*y_max, g_array_index (xy, double, j + 1));
        }
    }
}

void
cm_chart_layout_series (CmChartPanel *panel,
                        GArray       *specs)
{
  for (guint i = 0; i < specs->len; i++)
    {
      CmChartSeriesSpec *spec = &g_array_index (specs, CmChartSeriesSpec, i);
      CmChartSeries *series = g_new0 (CmChartSeries, 1);

      series->ink = spec->ink;
      series->dashed = spec->dashed;
      series->points_only = spec->points_only;
      series->hollow = spec->hollow;
      series->points = g_array_sized_new (FALSE, FALSE, sizeof (CmChartPoint), spec->xy->len / 2);
      for (guint j = 0; j + 1 < spec->xy->len; j += 2)
        {
          CmChartPoint p = {
            cm_chart_axis_to_pixel (&panel->x, g_array_index (spec->xy, double, j)),
            cm_chart_axis_to_pixel (&panel->y, g_array_index (spec->xy, double, j + 1)),
          };

          g_array_append_val (series->points, p);
        }
      g_ptr_array_add (panel->series, series);
    }
}

int
cm_chart_series_ink (CmChartBuilder *b,
                     guint           result,
                     guint           series)
{
  return CM_CHART_INK_SERIES + (b->multi ? result : series);
}

/* A line of @test: the card's colour when the chart tells cards apart,
 * else the test's own (cm_chart_test_ink ()). */
int
cm_chart_test_series_ink (CmChartBuilder *b,
                          guint           result,
                          const char     *test)
{
  return b->multi ? CM_CHART_INK_SERIES + (int) result : cm_chart_test_ink (test);
}

/* An empty layout of @width × @height, for cm_chart_build (). */
CmChartLayout *
cm_chart_layout_alloc (CmChartKind kind,
                       double      width,
                       double      height)
{
  CmChartLayout *layout = g_new0 (CmChartLayout, 1);

  layout->kind = kind;
  layout->width = width;
  layout->height = height;
  layout->panels = g_ptr_array_new_with_free_func (panel_free);
  layout->texts = g_array_new (FALSE, TRUE, sizeof (CmChartText));
  g_array_set_clear_func (layout->texts, text_clear);
  layout->legend = g_array_new (FALSE, TRUE, sizeof (CmChartLegendItem));
  return layout;
}

void
cm_chart_layout_free (CmChartLayout *layout)
{
  if (layout == NULL)
    return;
  g_ptr_array_unref (layout->panels);
  g_array_unref (layout->texts);
  g_array_unref (layout->legend);
  g_free (layout);
}
