/* cm-chart-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns results into chart geometry. Nothing here paints: every position
 * is decided first, with the text measured by Pango, so that labels can be
 * kept apart and tests can check where marks land.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "cm-stats.h"
#include "cm-verdict.h"

#include "cm-chart-private.h"
#include "cm-chart-layout.h"

#define MARGIN 12.0
#define GAP 6.0
#define MiB (1024.0 * 1024.0)
#define MAX_CURVE_POINTS 400

typedef struct
{
  CmChartLayout *layout;
  PangoContext  *context;
  GPtrArray     *results;
  gboolean       multi;
  GArray        *legend_texts;  /* char *, parallel to layout->legend */
} Builder;

/* A threshold before it is placed: its value and what it is called. */
typedef struct
{
  double    value;
  char     *label;
  gboolean  claimed;
  int       ink;
  int       group;    /* bar group it spans, or -1 for the whole plot */
} ThresholdSpec;

typedef struct
{
  const char    *title;
  const char    *x_title;
  CmChartFormat  x_format;
  CmChartFormat  y_format;
  gboolean       x_log;
  gboolean       y_log;
  double         x_min, x_max;
  double         y_min, y_max;
  GArray        *x_fixed_ticks;
  guint          n_groups;      /* > 0: a bar chart */
  GArray        *thresholds;    /* ThresholdSpec */
} PanelSpec;

/* Helpers shared with the painter and the text alternative. */

const char *
cm_chart_result_name (CmResult *result)
{
  const char *name = cm_result_get_name (result);

  if (name != NULL && *name != '\0')
    return name;
  if (cm_result_get_device (result) != NULL)
    return cm_result_get_device (result);
  return _("Unnamed card");
}

CmTestResult *
cm_chart_lookup_test (CmResult   *result,
                      const char *name)
{
  CmTestResult *test = cm_result_lookup_test (result, name);

  if (test == NULL || test->error != NULL)
    return NULL;
  return test;
}

/* The worst status of the criteria that read @test. */
gboolean
cm_chart_test_status (CmResult   *result,
                      const char *test,
                      CmStatus   *status)
{
  GPtrArray *claims = cm_result_get_claims (result);
  gboolean found = FALSE;

  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);

      for (guint j = 0; claim->criteria != NULL && j < claim->criteria->len; j++)
        {
          CmCriterion *c = g_ptr_array_index (claim->criteria, j);

          if (g_strcmp0 (c->test, test) != 0)
            continue;
          if (!found || cm_verdict_status_rank (c->status) > cm_verdict_status_rank (*status))
            *status = c->status;
          found = TRUE;
        }
    }
  return found;
}

CmClaim *
cm_chart_find_claim (CmResult   *result,
                     const char *klass)
{
  GPtrArray *claims = cm_result_get_claims (result);

  for (guint i = 0; i < claims->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (claims, i);

      if (g_strcmp0 (claim->klass, klass) == 0)
        return claim;
    }
  return NULL;
}

static int
compare_block_size (gconstpointer a,
                    gconstpointer b)
{
  const CmTestResult *ta = *(CmTestResult * const *) a;
  const CmTestResult *tb = *(CmTestResult * const *) b;

  return (ta->block_size > tb->block_size) - (ta->block_size < tb->block_size);
}

/* The sweep tests of one direction, smallest block first. The size comes
 * from block_size, never from the name. */
GPtrArray *
cm_chart_sweep_tests (CmResult   *result,
                      const char *prefix)
{
  GPtrArray *tests = cm_result_get_tests (result);
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < tests->len; i++)
    {
      CmTestResult *test = g_ptr_array_index (tests, i);

      if (g_str_has_prefix (test->name, prefix) && test->error == NULL && test->block_size > 0)
        g_ptr_array_add (found, test);
    }
  g_ptr_array_sort (found, compare_block_size);
  return found;
}

/* SD Association minimum write speeds (docs/methodology.md). */
double
cm_chart_class_write_mb_s (const char *klass)
{
  static const struct { const char *name; double mb_s; } speeds[] = {
    { "C2", 2 }, { "C4", 4 }, { "C6", 6 }, { "C10", 10 }, { "U1", 10 },
    { "U3", 30 }, { "V6", 6 }, { "V10", 10 }, { "V30", 30 }, { "V60", 60 },
    { "V90", 90 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (speeds); i++)
    if (g_strcmp0 (klass, speeds[i].name) == 0)
      return speeds[i].mb_s;
  return 0;
}

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

static void
measure (Builder         *b,
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
static gboolean
place_text (Builder         *b,
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

  measure (b, role, bold, str, &text.box.width, &text.box.height);
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
panel_new (const PanelSpec *spec)
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
widest_label (Builder         *b,
              CmChartTextRole  role,
              GArray          *labels_or_null,
              const CmChartAxis *axis)
{
  double widest = 0, w, h;

  if (axis != NULL)
    for (guint i = 0; i < axis->ticks->len; i++)
      {
        g_autofree char *label = format_value (axis, g_array_index (axis->ticks, double, i));

        measure (b, role, FALSE, label, &w, &h);
        widest = MAX (widest, w);
      }
  if (labels_or_null != NULL)
    for (guint i = 0; i < labels_or_null->len; i++)
      {
        ThresholdSpec *t = &g_array_index (labels_or_null, ThresholdSpec, i);

        measure (b, role, t->claimed, t->label, &w, &h);
        widest = MAX (widest, w);
      }
  return widest;
}

/* The thresholds' labels go in a gutter right of the plot, at the height
 * of their line, pushed apart where lines are close. */
static void
place_thresholds (Builder      *b,
                  CmChartPanel *panel,
                  GArray       *specs,
                  double        group_width)
{
  double last_bottom = -G_MAXDOUBLE;
  CmChartRect *plot = &panel->plot;

  for (guint i = 0; i < specs->len; i++)
    {
      ThresholdSpec *spec = &g_array_index (specs, ThresholdSpec, specs->len - 1 - i);
      CmChartThreshold t = { 0 };
      CmChartRect box;
      double w, h, top;

      if (spec->value > panel->y.max || spec->value < panel->y.min)
        continue;
      t.value = spec->value;
      t.y = cm_chart_axis_to_pixel (&panel->y, spec->value);
      t.x0 = spec->group < 0 ? plot->x : plot->x + spec->group * group_width;
      t.x1 = spec->group < 0 ? plot->x + plot->width : t.x0 + group_width;
      t.label = g_strdup (spec->label);
      t.claimed = spec->claimed;
      t.ink = spec->ink;
      g_array_append_val (panel->thresholds, t);

      measure (b, CM_CHART_TEXT_THRESHOLD, spec->claimed, spec->label, &w, &h);
      top = MAX (t.y - h / 2, last_bottom + 1);
      if (place_text (b, CM_CHART_TEXT_THRESHOLD, spec->label, plot->x + plot->width + GAP, top,
                      0, 0, spec->ink, spec->claimed, TRUE, &box))
        last_bottom = box.y + box.height;
    }
}

static int
compare_threshold (gconstpointer a,
                   gconstpointer b)
{
  double va = ((const ThresholdSpec *) a)->value, vb = ((const ThresholdSpec *) b)->value;

  return (va > vb) - (va < vb);
}

static CmChartPanel *
panel_frame (Builder         *b,
             const CmChartRect *area,
             PanelSpec       *spec)
{
  CmChartPanel *panel = panel_new (spec);
  double title_w, title_h, tick_w, tick_h, left, right, top, bottom;
  CmChartRect *plot = &panel->plot;

  measure (b, CM_CHART_TEXT_PANEL_TITLE, TRUE, spec->title, &title_w, &title_h);
  measure (b, CM_CHART_TEXT_TICK, FALSE, "0", &tick_w, &tick_h);
  place_text (b, CM_CHART_TEXT_PANEL_TITLE, spec->title, area->x, area->y, 0, 0,
              CM_CHART_INK_FG, TRUE, FALSE, NULL);

  top = title_h + tick_h / 2 + GAP;
  bottom = tick_h + GAP + (spec->x_title != NULL ? tick_h + 2 : 0);
  axis_build (&panel->y, spec->y_log, NULL, spec->y_min, spec->y_max,
              MAX (3, (area->height - top - bottom) / 55));

  left = widest_label (b, CM_CHART_TEXT_TICK, NULL, &panel->y) + GAP;
  right = 8;
  if (spec->thresholds != NULL && spec->thresholds->len > 0)
    {
      g_array_sort (spec->thresholds, compare_threshold);
      right = widest_label (b, CM_CHART_TEXT_THRESHOLD, spec->thresholds, NULL) + 2 * GAP;
    }

  plot->x = area->x + left;
  plot->y = area->y + top;
  plot->width = MAX (area->width - left - right, 10);
  plot->height = MAX (area->height - top - bottom, 10);
  panel->y.pixel_min = plot->y + plot->height;
  panel->y.pixel_max = plot->y;

  for (guint i = 0; i < panel->y.ticks->len; i++)
    {
      double v = g_array_index (panel->y.ticks, double, i);
      g_autofree char *label = format_value (&panel->y, v);

      place_text (b, CM_CHART_TEXT_TICK, label, plot->x - GAP, cm_chart_axis_to_pixel (&panel->y, v),
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

          place_text (b, CM_CHART_TEXT_TICK, label, cm_chart_axis_to_pixel (&panel->x, v),
                      plot->y + plot->height + GAP / 2, 0.5, 0, CM_CHART_INK_MUTED, FALSE, TRUE, NULL);
        }
      if (spec->x_title != NULL)
        place_text (b, CM_CHART_TEXT_AXIS_TITLE, spec->x_title, plot->x + plot->width,
                    area->y + area->height, 1, 1, CM_CHART_INK_MUTED, FALSE, TRUE, NULL);
    }

  g_ptr_array_add (b->layout->panels, panel);
  return panel;
}

/* Title and legend. */

static double
place_title (Builder    *b,
             const char *title)
{
  CmChartRect box;
  g_autofree char *str = NULL;

  double w, h;

  if (b->results->len == 1)
    str = g_strdup_printf ("%s · %s", title, cm_chart_result_name (g_ptr_array_index (b->results, 0)));
  else
    str = g_strdup (title);
  measure (b, CM_CHART_TEXT_TITLE, TRUE, str, &w, &h);
  if (w <= b->layout->width - 2 * MARGIN || b->results->len != 1)
    {
      place_text (b, CM_CHART_TEXT_TITLE, str, MARGIN, MARGIN, 0, 0, CM_CHART_INK_FG, TRUE, FALSE, &box);
      return box.y + box.height + GAP;
    }
  /* Too wide for one line: the card's name goes underneath. */
  place_text (b, CM_CHART_TEXT_TITLE, title, MARGIN, MARGIN, 0, 0, CM_CHART_INK_FG, TRUE, FALSE, &box);
  place_text (b, CM_CHART_TEXT_SUBTITLE, cm_chart_result_name (g_ptr_array_index (b->results, 0)),
              MARGIN, box.y + box.height, 0, 0, CM_CHART_INK_MUTED, FALSE, FALSE, &box);
  return box.y + box.height + GAP;
}

static void
legend_add (Builder    *b,
            const char *text,
            int         ink,
            gboolean    light,
            gboolean    line,
            gboolean    dashed)
{
  CmChartLegendItem item = { { 0 }, ink, light, dashed, FALSE, line };
  char *copy = g_strdup (text);

  g_array_append_val (b->layout->legend, item);
  g_array_append_val (b->legend_texts, copy);
}

/* Flows the legend into rows at the bottom; returns its top. */
static double
place_legend (Builder *b)
{
  GArray *legend = b->layout->legend;
  double row_h = 0, x = MARGIN, rows = 1, y, w, h;
  const double swatch_w = 22, item_gap = 18;

  if (legend->len == 0)
    return b->layout->height - MARGIN;

  measure (b, CM_CHART_TEXT_LEGEND, FALSE, "Mg", &w, &row_h);
  for (guint i = 0; i < legend->len; i++)
    {
      measure (b, CM_CHART_TEXT_LEGEND, FALSE, g_array_index (b->legend_texts, char *, i), &w, &h);
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

      measure (b, CM_CHART_TEXT_LEGEND, FALSE, text, &w, &h);
      if (x > MARGIN && x + swatch_w + GAP + w > b->layout->width - MARGIN)
        {
          y += row_h + 4;
          x = MARGIN;
        }
      item->swatch.x = x;
      item->swatch.y = y + row_h / 2 - (item->line ? 1.5 : 6);
      item->swatch.width = swatch_w;
      item->swatch.height = item->line ? 3 : 12;
      place_text (b, CM_CHART_TEXT_LEGEND, text, x + swatch_w + GAP, y, 0, 0, CM_CHART_INK_FG,
                  FALSE, FALSE, &box);
      x = box.x + box.width + item_gap;
    }
  return b->layout->height - MARGIN - rows * (row_h + 4) - GAP;
}

static void
split_area (const CmChartRect *area,
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

/* Thresholds. */

static void
threshold_add (GArray     *specs,
               double      value,
               const char *label,
               gboolean    claimed,
               int         ink,
               int         group)
{
  ThresholdSpec spec = { value, g_strdup (label), claimed, ink, group };

  g_array_append_val (specs, spec);
}

static void
threshold_spec_clear (gpointer data)
{
  g_free (((ThresholdSpec *) data)->label);
}

static GArray *
threshold_specs_new (void)
{
  GArray *specs = g_array_new (FALSE, TRUE, sizeof (ThresholdSpec));

  g_array_set_clear_func (specs, threshold_spec_clear);
  return specs;
}

static int
status_ink (CmStatus status)
{
  switch (status)
    {
    case CM_STATUS_MEETS:
      return CM_CHART_INK_MEETS;
    case CM_STATUS_MARGINAL:
      return CM_CHART_INK_MARGINAL;
    case CM_STATUS_BELOW:
      return CM_CHART_INK_BELOW;
    case CM_STATUS_NOT_JUDGED:
    default:
      return CM_CHART_INK_NOT_JUDGED;
    }
}

/* Whether any result claims @klass, and the ink to mark it with: the
 * claim's verdict for one card, plain text for several. */
static gboolean
claimed_ink (Builder    *b,
             const char *klass,
             int        *ink)
{
  for (guint i = 0; i < b->results->len; i++)
    {
      CmClaim *claim = cm_chart_find_claim (g_ptr_array_index (b->results, i), klass);

      if (claim != NULL)
        {
          *ink = b->multi ? CM_CHART_INK_FG : status_ink (claim->status);
          return TRUE;
        }
    }
  return FALSE;
}

/* A line for a set of classes sharing one figure; @always are shown even
 * when nobody claims them, @optional only when claimed. */
static void
class_threshold (Builder            *b,
                 GArray             *specs,
                 double              value,
                 const char * const *always,
                 const char * const *optional,
                 const char         *suffix,
                 int                 group)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autofree char *label = NULL;
  g_autofree char *joined = NULL;
  gboolean claimed = FALSE;
  int ink = CM_CHART_INK_MUTED;

  for (guint i = 0; always != NULL && always[i] != NULL; i++)
    {
      g_ptr_array_add (names, (char *) always[i]);
      claimed |= claimed_ink (b, always[i], &ink);
    }
  for (guint i = 0; optional != NULL && optional[i] != NULL; i++)
    if (claimed_ink (b, optional[i], &ink))
      {
        g_ptr_array_add (names, (char *) optional[i]);
        claimed = TRUE;
      }
  if (names->len == 0)
    return;
  g_ptr_array_add (names, NULL);
  joined = g_strjoinv ("/", (char **) names->pdata);
  label = suffix != NULL ? g_strdup_printf ("%s %s", joined, suffix) : g_steal_pointer (&joined);
  threshold_add (specs, value, label, claimed, ink, group);
}

static void
speed_class_thresholds (Builder *b,
                        GArray  *specs)
{
  static const char * const c10[] = { "C10", "U1", NULL };
  static const char * const v10[] = { "V10", NULL };
  static const char * const u3[] = { "U3", "V30", NULL };
  static const char * const v60[] = { "V60", NULL };
  static const char * const v90[] = { "V90", NULL };
  static const char * const c2[] = { "C2", NULL };
  static const char * const c4[] = { "C4", NULL };
  static const char * const c6[] = { "C6", "V6", NULL };

  class_threshold (b, specs, 2, NULL, c2, NULL, -1);
  class_threshold (b, specs, 4, NULL, c4, NULL, -1);
  class_threshold (b, specs, 6, NULL, c6, NULL, -1);
  class_threshold (b, specs, 10, c10, v10, NULL, -1);
  class_threshold (b, specs, 30, u3, NULL, NULL, -1);
  class_threshold (b, specs, 60, NULL, v60, NULL, -1);
  class_threshold (b, specs, 90, NULL, v90, NULL, -1);
}

static double
thresholds_max (GArray *specs)
{
  double max = 0;

  for (guint i = 0; i < specs->len; i++)
    max = MAX (max, g_array_index (specs, ThresholdSpec, i).value);
  return max;
}

/* The summary: sequential MB/s and random 4K IOPS as bars. */

typedef struct
{
  const char *label;
  const char *tests[2];   /* queue depth 1, then 32 (or NULL) */
} Group;

static const Group seq_groups[] = {
  { N_("Write"), { "seq-write", NULL } },
  { N_("Read"), { "seq-read", NULL } },
};

static const Group rand_groups[] = {
  { N_("Write"), { "rand-write-4k", "rand-write-4k-qd32" } },
  { N_("Read"), { "rand-read-4k", "rand-read-4k-qd32" } },
};

static double
test_figure (CmTestResult *test,
             gboolean      iops)
{
  return iops ? test->iops : test->mb_per_s;
}

static int
bar_ink (Builder  *b,
         CmResult *result,
         guint     index,
         const char *test)
{
  CmStatus status;

  if (b->multi)
    return CM_CHART_INK_SERIES + index;
  if (cm_chart_test_status (result, test, &status))
    return status_ink (status);
  /* The classes judge the long write when there is one (methodology.md). */
  if (g_strcmp0 (test, CM_CHART_SEQ_WRITE) == 0 && cm_chart_test_status (result, CM_CHART_SUSTAINED, &status))
    return status_ink (status);
  return CM_CHART_INK_SERIES;
}

/* On the sequential write bar, the sustained rate the classes judge. */
static double
sustained_mark (CmResult     *result,
                CmTestResult *test)
{
  CmTestResult *sustained;

  if (g_strcmp0 (test->name, CM_CHART_SEQ_WRITE) != 0)
    return 0;
  sustained = cm_chart_lookup_test (result, CM_CHART_SUSTAINED);
  return sustained != NULL ? sustained->sustained_mb_per_s : test->sustained_mb_per_s;
}

static void
layout_bars (Builder      *b,
             CmChartPanel *panel,
             const Group  *groups,
             guint         n_groups,
             gboolean      iops)
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

      place_text (b, CM_CHART_TEXT_CATEGORY, _(groups[g].label), panel->plot.x + (g + 0.5) * slot,
                  base + GAP / 2, 0.5, 0, CM_CHART_INK_FG, FALSE, TRUE, NULL);
    }

  /* Figures above the bars, where they fit. */
  for (guint i = 0; i < panel->bars->len; i++)
    {
      CmChartBar *bar = &g_array_index (panel->bars, CmChartBar, i);
      g_autofree char *label = g_strdup_printf (iops ? "%.0f" : "%.1f", bar->value);

      place_text (b, CM_CHART_TEXT_VALUE, label, bar->rect.x + bar->rect.width / 2, bar->rect.y - 2,
                  0.5, 1, CM_CHART_INK_FG, FALSE, TRUE, NULL);
    }
}

static double
groups_max (Builder     *b,
            const Group *groups,
            guint        n_groups,
            gboolean     iops,
            gboolean    *any)
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

static void
summary_legend (Builder *b)
{
  if (b->multi)
    {
      for (guint r = 0; r < b->results->len; r++)
        legend_add (b, cm_chart_result_name (g_ptr_array_index (b->results, r)),
                    CM_CHART_INK_SERIES + r, FALSE, FALSE, FALSE);
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
      const char *tests[] = { "seq-write", "seq-read", "rand-write-4k", "rand-read-4k",
                              "rand-write-4k-qd32", "rand-read-4k-qd32" };

      for (guint i = 0; i < G_N_ELEMENTS (inks); i++)
        for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
          if (cm_chart_lookup_test (result, tests[t]) != NULL &&
              bar_ink (b, result, 0, tests[t]) == inks[i].ink)
            {
              legend_add (b, _(inks[i].label), inks[i].ink, FALSE, FALSE, FALSE);
              break;
            }
    }
  legend_add (b, _("Lighter: queue depth 32"), b->multi ? CM_CHART_INK_MUTED : CM_CHART_INK_SERIES,
              TRUE, FALSE, FALSE);
  legend_add (b, _("Sustained write"), CM_CHART_INK_FG, FALSE, TRUE, FALSE);
}

static void
layout_summary (Builder           *b,
                const CmChartRect *area)
{
  static const char * const a1[] = { "A1", NULL };
  static const char * const a2[] = { "A2", NULL };
  g_autoptr(GArray) seq_specs = threshold_specs_new ();
  g_autoptr(GArray) rand_specs = threshold_specs_new ();
  PanelSpec seq = { N_("Sequential, MB/s"), NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  PanelSpec rnd = { N_("Random 4K, IOPS"), NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartRect left, right;
  CmChartPanel *panel;
  gboolean any_seq, any_rand;
  double max;

  summary_legend (b);
  speed_class_thresholds (b, seq_specs);
  class_threshold (b, rand_specs, 500, a1, NULL, _("write"), 0);
  class_threshold (b, rand_specs, 1500, a1, NULL, _("read"), 1);
  class_threshold (b, rand_specs, 2000, NULL, a2, _("write"), 0);
  class_threshold (b, rand_specs, 4000, NULL, a2, _("read"), 1);

  split_area (area, 2, 0, &left);
  split_area (area, 2, 1, &right);

  seq.title = _(seq.title);
  seq.n_groups = G_N_ELEMENTS (seq_groups);
  seq.thresholds = seq_specs;
  max = groups_max (b, seq_groups, G_N_ELEMENTS (seq_groups), FALSE, &any_seq);
  seq.y_max = MAX (max * 1.1, thresholds_max (seq_specs) * 1.05);
  panel = panel_frame (b, &left, &seq);
  layout_bars (b, panel, seq_groups, G_N_ELEMENTS (seq_groups), FALSE);
  place_thresholds (b, panel, seq_specs, panel->plot.width / G_N_ELEMENTS (seq_groups));

  rnd.title = _(rnd.title);
  rnd.n_groups = G_N_ELEMENTS (rand_groups);
  rnd.thresholds = rand_specs;
  max = groups_max (b, rand_groups, G_N_ELEMENTS (rand_groups), TRUE, &any_rand);
  rnd.y_max = MAX (max * 1.1, thresholds_max (rand_specs) * 1.05);
  panel = panel_frame (b, &right, &rnd);
  layout_bars (b, panel, rand_groups, G_N_ELEMENTS (rand_groups), TRUE);
  place_thresholds (b, panel, rand_specs, panel->plot.width / G_N_ELEMENTS (rand_groups));
}

/* Line charts. */

typedef struct
{
  GArray   *xy;        /* double pairs, data units */
  int       ink;
  gboolean  dashed;
  gboolean  points_only;
  gboolean  hollow;
} SeriesSpec;

static void
series_spec_clear (gpointer data)
{
  g_array_unref (((SeriesSpec *) data)->xy);
}

static GArray *
series_specs_new (void)
{
  GArray *specs = g_array_new (FALSE, TRUE, sizeof (SeriesSpec));

  g_array_set_clear_func (specs, series_spec_clear);
  return specs;
}

static SeriesSpec *
series_add (GArray   *specs,
            int       ink,
            gboolean  dashed,
            gboolean  points_only)
{
  SeriesSpec spec = { g_array_new (FALSE, FALSE, sizeof (double)), ink, dashed, points_only, FALSE };

  g_array_append_val (specs, spec);
  return &g_array_index (specs, SeriesSpec, specs->len - 1);
}

static void
series_point (SeriesSpec *spec,
              double      x,
              double      y)
{
  g_array_append_val (spec->xy, x);
  g_array_append_val (spec->xy, y);
}

static void
series_extent (GArray *specs,
               double *x_min,
               double *x_max,
               double *y_min,
               double *y_max)
{
  *x_min = *y_min = G_MAXDOUBLE;
  *x_max = *y_max = -G_MAXDOUBLE;
  for (guint i = 0; i < specs->len; i++)
    {
      GArray *xy = g_array_index (specs, SeriesSpec, i).xy;

      for (guint j = 0; j + 1 < xy->len; j += 2)
        {
          *x_min = MIN (*x_min, g_array_index (xy, double, j));
          *x_max = MAX (*x_max, g_array_index (xy, double, j));
          *y_min = MIN (*y_min, g_array_index (xy, double, j + 1));
          *y_max = MAX (*y_max, g_array_index (xy, double, j + 1));
        }
    }
}

static void
layout_series (CmChartPanel *panel,
               GArray       *specs)
{
  for (guint i = 0; i < specs->len; i++)
    {
      SeriesSpec *spec = &g_array_index (specs, SeriesSpec, i);
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

static int
series_ink (Builder *b,
            guint    result,
            guint    series)
{
  return CM_CHART_INK_SERIES + (b->multi ? result : series);
}

static void
add_samples (SeriesSpec   *spec,
             CmTestResult *test)
{
  for (guint i = 0; i < test->samples->len; i++)
    {
      const CmSample *s = &g_array_index (test->samples, CmSample, i);

      series_point (spec, (s->t_start + s->t_end) / 2, cm_stats_sample_mb_per_s (s));
    }
}

static gboolean
layout_write_over_time (Builder           *b,
                        const CmChartRect *area)
{
  g_autoptr(GArray) specs = series_specs_new ();
  g_autoptr(GArray) thresholds = threshold_specs_new ();
  PanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  gboolean any_sustained = FALSE, any_claim = FALSE;
  CmChartPanel *panel;
  double x_min, y_min;

  for (guint r = 0; r < b->results->len; r++)
    {
      CmResult *result = g_ptr_array_index (b->results, r);
      CmTestResult *seq = cm_chart_lookup_test (result, CM_CHART_SEQ_WRITE);
      CmTestResult *sustained = cm_chart_lookup_test (result, CM_CHART_SUSTAINED);
      GPtrArray *claims = cm_result_get_claims (result);

      if (seq != NULL && seq->samples->len > 0)
        add_samples (series_add (specs, series_ink (b, r, 0), FALSE, FALSE), seq);
      if (sustained != NULL && sustained->samples->len > 0)
        {
          add_samples (series_add (specs, series_ink (b, r, 1), b->multi, FALSE), sustained);
          any_sustained = TRUE;
        }
      for (guint i = 0; i < claims->len; i++)
        any_claim |= cm_chart_class_write_mb_s (((CmClaim *) g_ptr_array_index (claims, i))->klass) > 0;
    }
  if (specs->len == 0)
    return FALSE;

  if (b->multi)
    for (guint r = 0; r < b->results->len; r++)
      legend_add (b, cm_chart_result_name (g_ptr_array_index (b->results, r)),
                  CM_CHART_INK_SERIES + r, FALSE, TRUE, FALSE);
  else
    legend_add (b, _("Sequential write"), CM_CHART_INK_SERIES, FALSE, TRUE, FALSE);
  if (any_sustained)
    legend_add (b, _("Long sustained write"), b->multi ? CM_CHART_INK_MUTED : CM_CHART_INK_SERIES + 1,
                FALSE, TRUE, b->multi);

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
          class_threshold (b, thresholds, speeds[v], NULL, (const char * const *) names->pdata, NULL, -1);
        }
    }
  else
    {
      speed_class_thresholds (b, thresholds);
    }

  spec.title = _("Throughput, MB/s");
  spec.x_title = _("time, s");
  spec.thresholds = thresholds;
  series_extent (specs, &x_min, &spec.x_max, &y_min, &spec.y_max);
  spec.y_max = MAX (spec.y_max * 1.05, thresholds_max (thresholds) * 1.05);
  spec.x_max = MAX (spec.x_max, 1);
  panel = panel_frame (b, area, &spec);
  layout_series (panel, specs);
  place_thresholds (b, panel, thresholds, panel->plot.width);
  return TRUE;
}

static int
compare_float (gconstpointer a,
               gconstpointer b)
{
  float fa = *(const float *) a, fb = *(const float *) b;

  return (fa > fb) - (fa < fb);
}

static const char * const latency_tests[] = { "rand-read-4k", "rand-write-4k" };

static gboolean
layout_latency (Builder           *b,
                const CmChartRect *area)
{
  static const double marks[] = { 0.5, 0.9, 0.99 };
  g_autoptr(GArray) scatter = series_specs_new ();
  g_autoptr(GArray) curves = series_specs_new ();
  g_autoptr(GArray) nines_ticks = g_array_new (FALSE, FALSE, sizeof (double));
  PanelSpec left = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_LATENCY };
  PanelSpec right = { NULL, NULL, CM_CHART_FORMAT_NINES, CM_CHART_FORMAT_LATENCY };
  CmChartRect left_area, right_area;
  CmChartPanel *panel;
  double x_min, y_min, y_max, max_nines = 2, c_min, c_max, cy_min, cy_max;

  for (guint r = 0; r < b->results->len; r++)
    for (guint d = 0; d < G_N_ELEMENTS (latency_tests); d++)
      {
        CmTestResult *test = cm_chart_lookup_test (g_ptr_array_index (b->results, r), latency_tests[d]);
        int ink = series_ink (b, r, d);
        SeriesSpec *points, *curve;
        g_autofree float *sorted = NULL;
        guint n, step;

        if (test == NULL || (test->scatter->len == 0 && test->latency_us[0] <= 0))
          continue;
        n = test->scatter->len;
        points = series_add (scatter, ink, FALSE, TRUE);
        points->hollow = b->multi && d == 1;
        sorted = g_new (float, MAX (n, 1));
        for (guint i = 0; i < n; i++)
          {
            const CmLatencyPoint *p = &g_array_index (test->scatter, CmLatencyPoint, i);

            series_point (points, p->t, MAX (p->us, 1));
            sorted[i] = MAX (p->us, 1);
          }
        qsort (sorted, n, sizeof (float), compare_float);

        curve = series_add (curves, ink, b->multi && d == 1, FALSE);
        step = MAX (1, n / MAX_CURVE_POINTS);
        for (guint i = 0; i < n; i += step)
          series_point (curve, -log10 (1 - (i + 0.5) / n), sorted[i]);
        if (n > 0)
          {
            series_point (curve, -log10 (0.5 / n), sorted[n - 1]);
            max_nines = MAX (max_nines, MIN (ceil (log10 (n) - 0.3), 4));
          }

        /* The measured percentiles, from every command, as marks. */
        for (guint m = 0; m < G_N_ELEMENTS (marks); m++)
          if (test->latency_us[m] > 0)
            {
              SeriesSpec *mark = series_add (curves, ink, FALSE, TRUE);

              series_point (mark, -log10 (1 - marks[m]), test->latency_us[m]);
            }
      }
  if (scatter->len == 0)
    return FALSE;

  for (guint r = 0; r < (b->multi ? b->results->len : 1); r++)
    {
      g_autofree char *read = b->multi ? g_strdup_printf (_("%s read"), cm_chart_result_name (g_ptr_array_index (b->results, r)))
                                       : g_strdup (_("Read"));
      g_autofree char *write = b->multi ? g_strdup_printf (_("%s write"), cm_chart_result_name (g_ptr_array_index (b->results, r)))
                                        : g_strdup (_("Write"));

      legend_add (b, read, series_ink (b, r, 0), FALSE, FALSE, FALSE);
      legend_add (b, write, series_ink (b, r, 1), b->multi, FALSE, FALSE);
    }

  series_extent (scatter, &x_min, &left.x_max, &y_min, &y_max);
  series_extent (curves, &c_min, &c_max, &cy_min, &cy_max);
  y_min = MIN (y_min, cy_min);
  y_max = MAX (y_max, cy_max);

  split_area (area, 2, 0, &left_area);
  split_area (area, 2, 1, &right_area);

  left.title = _("Random 4K latency over time");
  left.x_title = _("time, s");
  left.y_log = TRUE;
  left.y_min = y_min;
  left.y_max = y_max;
  left.x_max = MAX (left.x_max, 1);
  panel = panel_frame (b, &left_area, &left);
  layout_series (panel, scatter);

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
  panel = panel_frame (b, &right_area, &right);
  layout_series (panel, curves);

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
      if (!place_text (b, CM_CHART_TEXT_VALUE, label, p.x - 4, p.y - 3, 1, 1, mark->ink, TRUE, TRUE, NULL))
        place_text (b, CM_CHART_TEXT_VALUE, label, p.x + 4, p.y + 3, 0, 0, mark->ink, TRUE, TRUE, NULL);
    }
  return TRUE;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double da = *(const double *) a, db = *(const double *) b;

  return (da > db) - (da < db);
}

static gboolean
layout_sweep (Builder           *b,
              const CmChartRect *area)
{
  static const char * const prefixes[] = { "sweep-read-", "sweep-write-" };
  g_autoptr(GArray) specs = series_specs_new ();
  g_autoptr(GArray) ticks = g_array_new (FALSE, FALSE, sizeof (double));
  PanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_BLOCK_SIZE, CM_CHART_FORMAT_NUMBER };
  CmChartPanel *panel;
  double x_min, x_max, y_min;

  for (guint r = 0; r < b->results->len; r++)
    for (guint d = 0; d < G_N_ELEMENTS (prefixes); d++)
      {
        g_autoptr(GPtrArray) tests = cm_chart_sweep_tests (g_ptr_array_index (b->results, r), prefixes[d]);
        SeriesSpec *series;

        if (tests->len == 0)
          continue;
        series = series_add (specs, series_ink (b, r, d), b->multi && d == 1, FALSE);
        for (guint i = 0; i < tests->len; i++)
          {
            CmTestResult *test = g_ptr_array_index (tests, i);
            double size = test->block_size;
            gboolean seen = FALSE;

            series_point (series, size, test->mb_per_s);
            for (guint t = 0; t < ticks->len; t++)
              seen |= g_array_index (ticks, double, t) == size;
            if (!seen)
              g_array_append_val (ticks, size);
          }
      }
  if (specs->len == 0)
    return FALSE;

  for (guint r = 0; r < (b->multi ? b->results->len : 1); r++)
    {
      g_autofree char *read = b->multi ? g_strdup_printf (_("%s read"), cm_chart_result_name (g_ptr_array_index (b->results, r)))
                                       : g_strdup (_("Read"));
      g_autofree char *write = b->multi ? g_strdup_printf (_("%s write"), cm_chart_result_name (g_ptr_array_index (b->results, r)))
                                        : g_strdup (_("Write"));

      legend_add (b, read, series_ink (b, r, 0), FALSE, TRUE, FALSE);
      legend_add (b, write, series_ink (b, r, 1), FALSE, TRUE, b->multi);
    }

  g_array_sort (ticks, compare_double);
  series_extent (specs, &x_min, &x_max, &y_min, &spec.y_max);
  spec.title = _("Throughput, MB/s");
  spec.x_title = _("block size");
  spec.x_log = TRUE;
  spec.x_fixed_ticks = ticks;
  spec.x_min = x_min / 1.6;
  spec.x_max = x_max * 1.6;
  spec.y_max *= 1.08;
  panel = panel_frame (b, area, &spec);
  layout_series (panel, specs);
  return TRUE;
}

static gboolean
layout_position (Builder           *b,
                 const CmChartRect *area)
{
  g_autoptr(GArray) specs = series_specs_new ();
  PanelSpec spec = { NULL, NULL, CM_CHART_FORMAT_NUMBER, CM_CHART_FORMAT_NUMBER };
  CmChartPanel *panel;
  double x_min, y_min;

  for (guint r = 0; r < b->results->len; r++)
    {
      CmTestResult *test = cm_chart_lookup_test (g_ptr_array_index (b->results, r), CM_CHART_SURFACE);
      SeriesSpec *series;

      if (test == NULL || test->positions->len == 0)
        continue;
      series = series_add (specs, series_ink (b, r, 0), FALSE, FALSE);
      for (guint i = 0; i < test->positions->len; i++)
        {
          const CmPosition *p = &g_array_index (test->positions, CmPosition, i);

          series_point (series, p->offset / 1e9, p->mb_per_s);
        }
      if (b->multi)
        legend_add (b, cm_chart_result_name (g_ptr_array_index (b->results, r)),
                    CM_CHART_INK_SERIES + r, FALSE, TRUE, FALSE);
    }
  if (specs->len == 0)
    return FALSE;

  series_extent (specs, &x_min, &spec.x_max, &y_min, &spec.y_max);
  spec.title = _("Read speed, MB/s");
  spec.x_title = _("position, GB");
  spec.y_max *= 1.08;
  spec.x_max = MAX (spec.x_max, 0.001);
  panel = panel_frame (b, area, &spec);
  layout_series (panel, specs);
  return TRUE;
}

static const char *
empty_message (CmChartKind kind)
{
  switch (kind)
    {
    case CM_CHART_SUMMARY:
      return _("No sequential or random tests to show.");
    case CM_CHART_WRITE_OVER_TIME:
      return _("No sequential write samples to show.");
    case CM_CHART_LATENCY:
      return _("No random 4K latency to show.");
    case CM_CHART_SWEEP:
      return _("No block-size sweep to show. Run the full profile to measure one.");
    case CM_CHART_POSITION:
      return _("No surface read to show. The full profile measures one on a raw device.");
    case CM_CHART_N_KINDS:
    default:
      return "";
    }
}

static gboolean
layout_kind (Builder           *b,
             const CmChartRect *area)
{
  switch (b->layout->kind)
    {
    case CM_CHART_SUMMARY:
      layout_summary (b, area);
      return TRUE;
    case CM_CHART_WRITE_OVER_TIME:
      return layout_write_over_time (b, area);
    case CM_CHART_LATENCY:
      return layout_latency (b, area);
    case CM_CHART_SWEEP:
      return layout_sweep (b, area);
    case CM_CHART_POSITION:
      return layout_position (b, area);
    case CM_CHART_N_KINDS:
    default:
      return FALSE;
    }
}

static void
reset (Builder *b)
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
layout_twice (Builder  *b,
              gboolean  with_title)
{
  CmChartRect area;
  double top = MARGIN, bottom;

  if (with_title)
    top = place_title (b, _(cm_chart_kind_get_title (b->layout->kind)));
  area = (CmChartRect) { MARGIN, top, b->layout->width - 2 * MARGIN, b->layout->height - top - MARGIN };
  if (!layout_kind (b, &area) || !cm_chart_has_data (b->layout->kind, b->results))
    {
      reset (b);
      b->layout->empty = TRUE;
      if (with_title)
        place_title (b, _(cm_chart_kind_get_title (b->layout->kind)));
      place_text (b, CM_CHART_TEXT_MESSAGE, empty_message (b->layout->kind),
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
      top = place_title (b, _(cm_chart_kind_get_title (b->layout->kind)));
    for (guint i = 0; i < legend->len; i++)
      {
        CmChartLegendItem *item = &g_array_index (legend, CmChartLegendItem, i);

        legend_add (b, g_ptr_array_index (names, i), item->ink, item->light, item->line, item->dashed);
      }
    bottom = place_legend (b);
    /* The panels add their legend entries again; keep the placed ones. */
    legend = g_array_copy (b->layout->legend);
    g_ptr_array_set_size (names, 0);
    for (guint i = 0; i < b->legend_texts->len; i++)
      g_ptr_array_add (names, g_strdup (g_array_index (b->legend_texts, char *, i)));

    area = (CmChartRect) { MARGIN, top, b->layout->width - 2 * MARGIN, bottom - top };
    layout_kind (b, &area);

    g_array_set_size (b->layout->legend, 0);
    g_array_append_vals (b->layout->legend, legend->data, legend->len);
  }
}

CmChartLayout *
cm_chart_layout_new (CmChartKind   kind,
                     GPtrArray    *results,
                     double        width,
                     double        height,
                     PangoContext *context,
                     gboolean      with_title)
{
  PangoContext *own = NULL;
  CmChartLayout *layout;
  Builder b = { 0 };

  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  g_return_val_if_fail (results != NULL, NULL);

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
  b.legend_texts = g_array_new (FALSE, TRUE, sizeof (char *));
  g_array_set_clear_func (b.legend_texts, free_string);

  layout_twice (&b, with_title);

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
