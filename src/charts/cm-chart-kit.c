/* cm-chart-kit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The kit's geometry: text measured by Pango, axes and round ticks,
 * panels, the legend, line series, and the two passes that lay out a
 * whole chart. Nothing here paints (cm-chart-kit-paint.c does): every
 * position is decided first, so that labels can be kept apart and tests
 * can check where marks land. What a chart shows is each layout file's
 * business (cm-chart-layout-*.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "cm-chart-kit-private.h"

/* Geometry. */

gboolean
cm_chart_rect_intersects (const CmChartRect *a,
                          const CmChartRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

double
cm_chart_axis_to_pixel (const CmChartAxis *axis,
                        double             value)
{
  double t;

  if (axis->log)
    {
      value = MAX (value, axis->min);
      t = (log10 (value) - log10 (axis->min)) / (log10 (axis->max) - log10 (axis->min));
    }
  else
    {
      t = (value - axis->min) / (axis->max - axis->min);
    }
  return axis->pixel_min + t * (axis->pixel_max - axis->pixel_min);
}

PangoFontDescription *
cm_chart_text_font (CmChartTextRole role)
{
  PangoFontDescription *font = pango_font_description_from_string ("Sans");
  double size = 11.5;

  switch (role)
    {
    case CM_CHART_TEXT_TITLE:
      size = 16;
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      break;
    case CM_CHART_TEXT_PANEL_TITLE:
      size = 13;
      pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
      break;
    case CM_CHART_TEXT_MESSAGE:
      size = 14;
      break;
    case CM_CHART_TEXT_VALUE:
    case CM_CHART_TEXT_TICK:
    case CM_CHART_TEXT_THRESHOLD:
      size = 11;
      break;
    case CM_CHART_TEXT_SUBTITLE:
    case CM_CHART_TEXT_AXIS_TITLE:
    case CM_CHART_TEXT_CATEGORY:
    case CM_CHART_TEXT_LEGEND:
    default:
      break;
    }
  pango_font_description_set_absolute_size (font, size * PANGO_SCALE);
  return font;
}

void
cm_chart_measure (CmChartBuilder  *b,
                  CmChartTextRole  role,
                  gboolean         bold,
                  const char      *text,
                  double          *width,
                  double          *height)
{
  g_autoptr(PangoLayout) layout = pango_layout_new (b->context);
  PangoFontDescription *font = cm_chart_text_font (role);
  PangoRectangle logical;

  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_extents (layout, NULL, &logical);
  *width = (double) logical.width / PANGO_SCALE;
  *height = (double) logical.height / PANGO_SCALE;
  pango_font_description_free (font);
}

static void
text_clear (gpointer data)
{
  CmChartText *text = data;

  g_free (text->text);
}

/* Places @str with its anchor at (@x, @y); @xalign and @yalign say which
 * point of the box the anchor is (0 left/top, 0.5 centre, 1 right/bottom).
 * When @avoid is set, a text that would overlap another is left out. */
gboolean
cm_chart_place_text (CmChartBuilder  *b,
                     CmChartTextRole  role,
                     const char      *str,
                     double           x,
                     double           y,
                     double           xalign,
                     double           yalign,
                     int              ink,
                     gboolean         bold,
                     gboolean         avoid,
                     CmChartRect     *box_out)
{
  CmChartText text = { role, NULL, { 0 }, ink, bold };
  GArray *texts = b->layout->texts;

  cm_chart_measure (b, role, bold, str, &text.box.width, &text.box.height);
  text.box.x = x - xalign * text.box.width;
  text.box.y = y - yalign * text.box.height;

  if (avoid)
    for (guint i = 0; i < texts->len; i++)
      if (cm_chart_rect_intersects (&text.box, &g_array_index (texts, CmChartText, i).box))
        return FALSE;

  text.text = g_strdup (str);
  g_array_append_val (texts, text);
  if (box_out != NULL)
    *box_out = text.box;
  return TRUE;
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

CmChartPanel *
cm_chart_panel_frame (CmChartBuilder    *b,
                      const CmChartRect *area,
                      CmChartPanelSpec  *spec)
{
  CmChartPanel *panel = panel_new (spec);
  double title_w, title_h, tick_w, tick_h, left, right, top, bottom;
  CmChartRect *plot = &panel->plot;

  cm_chart_measure (b, CM_CHART_TEXT_PANEL_TITLE, TRUE, spec->title, &title_w, &title_h);
  cm_chart_measure (b, CM_CHART_TEXT_TICK, FALSE, "0", &tick_w, &tick_h);
  cm_chart_place_text (b, CM_CHART_TEXT_PANEL_TITLE, spec->title, area->x, area->y, 0, 0,
                       CM_CHART_INK_FG, TRUE, FALSE, NULL);

  top = title_h + tick_h / 2 + GAP;
  bottom = tick_h + GAP + (spec->x_title != NULL ? tick_h + 2 : 0);
  axis_build (&panel->y, spec->y_log, NULL, spec->y_min, spec->y_max,
              MAX (3, (area->height - top - bottom) / 55));

  plot->y = area->y + top;
  plot->height = MAX (area->height - top - bottom, 10);
  panel->y.pixel_min = plot->y + plot->height;
  panel->y.pixel_max = plot->y;

  /* The class labels' gutter depends on whether their lines are so close
   * that labels move off them, which the y axis alone decides. */
  left = widest_label (b, CM_CHART_TEXT_TICK, NULL, &panel->y) + GAP;
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

/* Title and legend. */

static double
place_title (CmChartBuilder *b,
             const char     *title)
{
  CmChartRect box;
  g_autofree char *str = NULL;

  double w, h;

  if (b->capacity_device != NULL)
    str = g_strdup_printf ("%s · %s", title, b->capacity_device);
  else if (b->results->len == 1)
    str = g_strdup_printf ("%s · %s", title, cm_chart_result_name (g_ptr_array_index (b->results, 0)));
  else
    str = g_strdup (title);
  cm_chart_measure (b, CM_CHART_TEXT_TITLE, TRUE, str, &w, &h);
  if (w <= b->layout->width - 2 * MARGIN || b->results->len != 1)
    {
      cm_chart_place_text (b, CM_CHART_TEXT_TITLE, str, MARGIN, MARGIN, 0, 0, CM_CHART_INK_FG, TRUE, FALSE, &box);
      return box.y + box.height + GAP;
    }
  /* Too wide for one line: the card's name goes underneath. */
  cm_chart_place_text (b, CM_CHART_TEXT_TITLE, title, MARGIN, MARGIN, 0, 0, CM_CHART_INK_FG, TRUE, FALSE, &box);
  cm_chart_place_text (b, CM_CHART_TEXT_SUBTITLE, cm_chart_result_name (g_ptr_array_index (b->results, 0)),
                       MARGIN, box.y + box.height, 0, 0, CM_CHART_INK_MUTED, FALSE, FALSE, &box);
  return box.y + box.height + GAP;
}

void
cm_chart_legend_add (CmChartBuilder *b,
                     const char     *text,
                     int             ink,
                     gboolean        light,
                     gboolean        line,
                     gboolean        dashed)
{
  CmChartLegendItem item = { { 0 }, ink, light, dashed, FALSE, line };
  char *copy = g_strdup (text);

  g_array_append_val (b->layout->legend, item);
  g_array_append_val (b->legend_texts, copy);
}

/* A legend entry for each direction that has a series: "Read" and "Write"
 * for one card, "<card> read" and "<card> write" for several. @present
 * holds a CmChartDirection bit set per result. Writes are told apart from
 * reads by a dashed line, or a lighter mark, when the colour is the card's. */
void
cm_chart_legend_directions (CmChartBuilder *b,
                            const guint    *present,
                            gboolean        line)
{
  for (guint r = 0; r < b->results->len; r++)
    {
      const char *name = cm_chart_result_name (g_ptr_array_index (b->results, r));

      if (present[r] & CM_CHART_READ)
        {
          g_autofree char *read = b->multi ? g_strdup_printf (_("%s read"), name) : g_strdup (_("Read"));

          cm_chart_legend_add (b, read, cm_chart_series_ink (b, r, 0), FALSE, line, FALSE);
        }
      if (present[r] & CM_CHART_WRITE)
        {
          g_autofree char *write = b->multi ? g_strdup_printf (_("%s write"), name) : g_strdup (_("Write"));

          cm_chart_legend_add (b, write, cm_chart_series_ink (b, r, 1), b->multi && !line, line, b->multi && line);
        }
    }
}

/* Flows the legend into rows at the bottom; returns its top. */
static double
place_legend (CmChartBuilder *b)
{
  GArray *legend = b->layout->legend;
  double row_h = 0, x = MARGIN, rows = 1, y, w, h;
  const double swatch_w = 22, item_gap = 18;

  if (legend->len == 0)
    return b->layout->height - MARGIN;

  cm_chart_measure (b, CM_CHART_TEXT_LEGEND, FALSE, "Mg", &w, &row_h);
  for (guint i = 0; i < legend->len; i++)
    {
      cm_chart_measure (b, CM_CHART_TEXT_LEGEND, FALSE, g_array_index (b->legend_texts, char *, i), &w, &h);
      row_h = MAX (row_h, h);
      if (x > MARGIN && x + swatch_w + GAP + w > b->layout->width - MARGIN)
        {
          rows++;
          x = MARGIN;
        }
      x += swatch_w + GAP + w + item_gap;
    }

  y = b->layout->height - MARGIN - rows * (row_h + 4);
  x = MARGIN;
  for (guint i = 0; i < legend->len; i++)
    {
      CmChartLegendItem *item = &g_array_index (legend, CmChartLegendItem, i);
      const char *text = g_array_index (b->legend_texts, char *, i);
      CmChartRect box;

      cm_chart_measure (b, CM_CHART_TEXT_LEGEND, FALSE, text, &w, &h);
      if (x > MARGIN && x + swatch_w + GAP + w > b->layout->width - MARGIN)
        {
          y += row_h + 4;
          x = MARGIN;
        }
      item->swatch.x = x;
      item->swatch.y = y + row_h / 2 - (item->line ? 1.5 : 6);
      item->swatch.width = swatch_w;
      item->swatch.height = item->line ? 3 : 12;
      cm_chart_place_text (b, CM_CHART_TEXT_LEGEND, text, x + swatch_w + GAP, y, 0, 0, CM_CHART_INK_FG,
                           FALSE, FALSE, &box);
      x = box.x + box.width + item_gap;
    }
  return b->layout->height - MARGIN - rows * (row_h + 4) - GAP;
}

void
cm_chart_split_area (const CmChartRect *area,
                     guint              n,
                     guint              i,
                     CmChartRect       *out)
{
  const double gap = 24;

  /* Side by side when there is room, stacked on narrow screens. */
  if (area->width >= 520 || area->width > area->height * 1.4)
    {
      out->width = (area->width - gap * (n - 1)) / n;
      out->height = area->height;
      out->x = area->x + i * (out->width + gap);
      out->y = area->y;
    }
  else
    {
      out->width = area->width;
      out->height = (area->height - gap * (n - 1)) / n;
      out->x = area->x;
      out->y = area->y + i * (out->height + gap);
    }
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

static void
reset (CmChartBuilder *b)
{
  g_ptr_array_set_size (b->layout->panels, 0);
  g_array_set_size (b->layout->texts, 0);
  g_array_set_size (b->layout->legend, 0);
  g_array_set_size (b->legend_texts, 0);
}

static void
free_string (gpointer data)
{
  g_free (*(char **) data);
}

/* The legend must be placed before the panels, which take the room left,
 * but the panels decide what goes into the legend: so lay out once to
 * learn the legend, then again with its height known. */
static void
layout_twice (CmChartBuilder    *b,
              const char        *title,
              const char        *empty_message,
              gboolean           has_data,
              CmChartLayoutFunc  layout_func,
              gboolean           with_title)
{
  CmChartRect area;
  double top = MARGIN, bottom;

  if (with_title)
    top = place_title (b, title);
  area = (CmChartRect) { MARGIN, top, b->layout->width - 2 * MARGIN, b->layout->height - top - MARGIN };
  if (!has_data || !layout_func (b, &area))
    {
      reset (b);
      b->layout->empty = TRUE;
      if (with_title)
        place_title (b, title);
      cm_chart_place_text (b, CM_CHART_TEXT_MESSAGE, empty_message,
                           b->layout->width / 2, b->layout->height / 2, 0.5, 0.5, CM_CHART_INK_MUTED, FALSE, FALSE, NULL);
      return;
    }

  {
    g_autoptr(GArray) legend = g_array_copy (b->layout->legend);
    g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

    for (guint i = 0; i < b->legend_texts->len; i++)
      g_ptr_array_add (names, g_strdup (g_array_index (b->legend_texts, char *, i)));
    reset (b);
    if (with_title)
      top = place_title (b, title);
    for (guint i = 0; i < legend->len; i++)
      {
        CmChartLegendItem *item = &g_array_index (legend, CmChartLegendItem, i);

        cm_chart_legend_add (b, g_ptr_array_index (names, i), item->ink, item->light, item->line, item->dashed);
      }
    bottom = place_legend (b);
    /* The panels add their legend entries again; keep the placed ones. */
    legend = g_array_copy (b->layout->legend);
    g_ptr_array_set_size (names, 0);
    for (guint i = 0; i < b->legend_texts->len; i++)
      g_ptr_array_add (names, g_strdup (g_array_index (b->legend_texts, char *, i)));

    area = (CmChartRect) { MARGIN, top, b->layout->width - 2 * MARGIN, bottom - top };
    layout_func (b, &area);

    g_array_set_size (b->layout->legend, 0);
    g_array_append_vals (b->layout->legend, legend->data, legend->len);
  }
}

CmChartLayout *
cm_chart_build (CmChartKind             kind,
                const char             *title,
                const char             *empty_message,
                gboolean                has_data,
                CmChartLayoutFunc       layout_func,
                GPtrArray              *results,
                const CmCapacityReport *capacity,
                const char             *capacity_device,
                const CmChartLive      *live,
                double                  width,
                double                  height,
                PangoContext           *context,
                gboolean                with_title)
{
  PangoContext *own = NULL;
  CmChartLayout *layout;
  CmChartBuilder b = { 0 };

  if (context == NULL)
    context = own = pango_font_map_create_context (pango_cairo_font_map_get_default ());

  layout = g_new0 (CmChartLayout, 1);
  layout->kind = kind;
  layout->width = width;
  layout->height = height;
  layout->panels = g_ptr_array_new_with_free_func (panel_free);
  layout->texts = g_array_new (FALSE, TRUE, sizeof (CmChartText));
  g_array_set_clear_func (layout->texts, text_clear);
  layout->legend = g_array_new (FALSE, TRUE, sizeof (CmChartLegendItem));

  b.layout = layout;
  b.context = context;
  b.results = results;
  b.multi = results->len > 1;
  b.capacity = capacity;
  b.capacity_device = capacity_device;
  b.live = live;
  b.legend_texts = g_array_new (FALSE, TRUE, sizeof (char *));
  g_array_set_clear_func (b.legend_texts, free_string);

  layout_twice (&b, title, empty_message, has_data, layout_func, with_title);

  g_array_unref (b.legend_texts);
  g_clear_object (&own);
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
