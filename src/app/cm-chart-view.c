/* cm-chart-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thin drawing area for the charts. During a run it draws the samples
 * as they arrive, one line per test; afterwards it draws a result. The
 * drawing is plain Cairo so that it can move into src/charts unchanged.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-backend.h"

#include "cm-chart-view.h"

typedef struct
{
  char   *test;
  GArray *points;  /* graphene_point_t: x seconds, y MB/s */
} Series;

struct _CmChartView
{
  GtkDrawingArea   parent_instance;

  CmChartViewKind  kind;
  CmResult        *result;
  GPtrArray       *series;  /* Series */
};

G_DEFINE_FINAL_TYPE (CmChartView, cm_chart_view, GTK_TYPE_DRAWING_AREA)

enum {
  PROP_0,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
series_free (Series *series)
{
  g_free (series->test);
  g_array_unref (series->points);
  g_free (series);
}

static void
set_color (cairo_t  *cr,
           GtkWidget *widget,
           double    alpha)
{
  GdkRGBA color;

  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  cairo_set_source_rgba (cr, color.red, color.green, color.blue, color.alpha * alpha);
}

static void
set_series_color (cairo_t *cr,
                  guint    index)
{
  /* The GNOME palette's blue, orange, green, purple, red. */
  static const double palette[][3] = {
    { 0.21, 0.52, 0.89 }, { 1.00, 0.47, 0.00 }, { 0.15, 0.64, 0.41 },
    { 0.57, 0.25, 0.67 }, { 0.75, 0.11, 0.16 },
  };
  const double *c = palette[index % G_N_ELEMENTS (palette)];

  cairo_set_source_rgb (cr, c[0], c[1], c[2]);
}

static double
nice_ceiling (double value)
{
  double magnitude;

  if (value <= 0)
    return 1;

  magnitude = pow (10, floor (log10 (value)));
  for (guint i = 0; i < 4; i++)
    {
      static const double steps[] = { 1, 2, 5, 10 };

      if (value <= steps[i] * magnitude)
        return steps[i] * magnitude;
    }
  return 10 * magnitude;
}

static void
draw_text (cairo_t    *cr,
           GtkWidget  *widget,
           const char *text,
           double      x,
           double      y,
           double      align)
{
  g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, text);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, x - w * align, y - h / 2.0);
  pango_cairo_show_layout (cr, layout);
}

static void
draw_empty (cairo_t    *cr,
            GtkWidget  *widget,
            int         width,
            int         height,
            const char *message)
{
  set_color (cr, widget, 0.5);
  draw_text (cr, widget, message, width / 2.0, height / 2.0, 0.5);
}

static void
draw_lines (CmChartView *self,
            cairo_t     *cr,
            int          width,
            int          height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double max_t = 0, max_y = 0;
  double left = 56, right = 16, top = 28, bottom = 28;
  double pw = width - left - right, ph = height - top - bottom;
  char label[64];

  for (guint i = 0; i < self->series->len; i++)
    {
      Series *s = g_ptr_array_index (self->series, i);

      for (guint j = 0; j < s->points->len; j++)
        {
          graphene_point_t *p = &g_array_index (s->points, graphene_point_t, j);

          max_t = MAX (max_t, p->x);
          max_y = MAX (max_y, p->y);
        }
    }

  if (self->series->len == 0 || pw < 20 || ph < 20)
    {
      draw_empty (cr, widget, width, height, _("Waiting for the first measurement…"));
      return;
    }

  max_y = nice_ceiling (max_y * 1.05);
  max_t = MAX (max_t, 1);

  /* Grid and axis labels. */
  cairo_set_line_width (cr, 1);
  for (guint i = 0; i <= 4; i++)
    {
      double y = top + ph - ph * i / 4.0;

      set_color (cr, widget, 0.12);
      cairo_move_to (cr, left, round (y) + 0.5);
      cairo_line_to (cr, left + pw, round (y) + 0.5);
      cairo_stroke (cr);
      set_color (cr, widget, 0.6);
      g_snprintf (label, sizeof label, "%g", max_y * i / 4.0);
      draw_text (cr, widget, label, left - 6, y, 1);
    }
  set_color (cr, widget, 0.6);
  draw_text (cr, widget, _("MB/s"), left - 6, top / 2.0, 1);
  g_snprintf (label, sizeof label, _("%.0f s"), max_t);
  draw_text (cr, widget, label, left + pw, height - bottom / 2.0, 1);

  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (guint i = 0; i < self->series->len; i++)
    {
      Series *s = g_ptr_array_index (self->series, i);

      set_series_color (cr, i);
      for (guint j = 0; j < s->points->len; j++)
        {
          graphene_point_t *p = &g_array_index (s->points, graphene_point_t, j);
          double x = left + pw * p->x / max_t;
          double y = top + ph - ph * p->y / max_y;

          if (j == 0)
            cairo_move_to (cr, x, y);
          else
            cairo_line_to (cr, x, y);
        }
      cairo_stroke (cr);

      /* Dots too, so that a test with a single sample still shows. */
      for (guint j = 0; j < s->points->len; j++)
        {
          graphene_point_t *p = &g_array_index (s->points, graphene_point_t, j);

          cairo_arc (cr, left + pw * p->x / max_t, top + ph - ph * p->y / max_y, 3, 0, 2 * G_PI);
          cairo_fill (cr);
        }
    }

  /* A legend along the bottom, one entry per test. */
  {
    double x = left;

    for (guint i = 0; i < self->series->len; i++)
      {
        Series *s = g_ptr_array_index (self->series, i);
        g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, s->test);
        int w, h;

        pango_layout_get_pixel_size (layout, &w, &h);
        set_series_color (cr, i);
        cairo_rectangle (cr, x, height - bottom / 2.0 - 4, 8, 8);
        cairo_fill (cr);
        set_color (cr, widget, 0.8);
        cairo_move_to (cr, x + 12, height - bottom / 2.0 - h / 2.0);
        pango_cairo_show_layout (cr, layout);
        x += w + 28;
      }
  }
}

static void
draw_summary (CmChartView *self,
              cairo_t     *cr,
              int          width,
              int          height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GPtrArray *tests = self->result != NULL ? cm_result_get_tests (self->result) : NULL;
  double max_y = 0, left = 150, right = 80, row_h;
  char label[64];

  if (tests == NULL || tests->len == 0)
    {
      draw_empty (cr, widget, width, height, _("No measurements"));
      return;
    }

  for (guint i = 0; i < tests->len; i++)
    max_y = MAX (max_y, ((CmTestResult *) g_ptr_array_index (tests, i))->mb_per_s);
  max_y = nice_ceiling (max_y);
  row_h = (double) height / tests->len;
  left = MIN (left, width * 0.35);

  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);
      double y = row_h * i;
      double w = MAX (1, (width - left - right) * t->mb_per_s / max_y);

      set_color (cr, widget, 0.8);
      draw_text (cr, widget, cm_backend_describe_test (t->name), left - 8, y + row_h / 2, 1);
      set_series_color (cr, t->name[0] == 's' ? 0 : 1);
      cairo_rectangle (cr, left, y + row_h * 0.2, w, row_h * 0.6);
      cairo_fill (cr);
      set_color (cr, widget, 0.8);
      if (t->error != NULL)
        g_snprintf (label, sizeof label, "%s", _("failed"));
      else
        g_snprintf (label, sizeof label, _("%.1f MB/s"), t->mb_per_s);
      draw_text (cr, widget, label, left + w + 6, y + row_h / 2, 0);
    }
}

static void
draw_cb (GtkDrawingArea *area,
         cairo_t        *cr,
         int             width,
         int             height,
         gpointer        user_data)
{
  CmChartView *self = CM_CHART_VIEW (area);

  switch (self->kind)
    {
    case CM_CHART_VIEW_SUMMARY:
      draw_summary (self, cr, width, height);
      break;
    case CM_CHART_VIEW_LIVE:
    case CM_CHART_VIEW_OVER_TIME:
    default:
      draw_lines (self, cr, width, height);
      break;
    }
}

static void
cm_chart_view_finalize (GObject *object)
{
  CmChartView *self = CM_CHART_VIEW (object);

  g_clear_object (&self->result);
  g_clear_pointer (&self->series, g_ptr_array_unref);

  G_OBJECT_CLASS (cm_chart_view_parent_class)->finalize (object);
}

static void
cm_chart_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  CmChartView *self = CM_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_uint (value, self->kind);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_chart_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  CmChartView *self = CM_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_KIND:
      self->kind = g_value_get_uint (value);
      gtk_widget_queue_draw (GTK_WIDGET (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_chart_view_class_init (CmChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = cm_chart_view_finalize;
  object_class->get_property = cm_chart_view_get_property;
  object_class->set_property = cm_chart_view_set_property;

  /* A CmChartViewKind; a plain number so templates can set it. */
  properties[PROP_KIND] =
    g_param_spec_uint ("kind", NULL, NULL, 0, CM_CHART_VIEW_OVER_TIME, CM_CHART_VIEW_LIVE,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "chart");
}

static void
cm_chart_view_init (CmChartView *self)
{
  self->series = g_ptr_array_new_with_free_func ((GDestroyNotify) series_free);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw_cb, NULL, NULL);
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self), 180);
  gtk_widget_add_css_class (GTK_WIDGET (self), "chart-frame");
}

GtkWidget *
cm_chart_view_new (CmChartViewKind kind)
{
  return g_object_new (CM_TYPE_CHART_VIEW, "kind", kind, NULL);
}

static Series *
lookup_series (CmChartView *self,
               const char  *test)
{
  Series *series;

  for (guint i = 0; i < self->series->len; i++)
    {
      series = g_ptr_array_index (self->series, i);
      if (g_str_equal (series->test, test))
        return series;
    }

  series = g_new0 (Series, 1);
  series->test = g_strdup (test);
  series->points = g_array_new (FALSE, FALSE, sizeof (graphene_point_t));
  g_ptr_array_add (self->series, series);
  return series;
}

void
cm_chart_view_set_result (CmChartView *self,
                          CmResult    *result)
{
  GPtrArray *tests;

  g_return_if_fail (CM_IS_CHART_VIEW (self));

  g_set_object (&self->result, result);
  g_ptr_array_set_size (self->series, 0);

  /* Over time: the sequential tests' throughput samples. */
  tests = result != NULL ? cm_result_get_tests (result) : NULL;
  for (guint i = 0; tests != NULL && i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);

      if (t->samples == NULL || t->samples->len == 0 || !g_str_has_prefix (t->name, "seq-"))
        continue;

      for (guint j = 0; j < t->samples->len; j++)
        {
          const CmSample *sample = &g_array_index (t->samples, CmSample, j);

          cm_chart_view_add_sample (self, cm_backend_describe_test (t->name), sample->t_end, cm_stats_sample_mb_per_s (sample));
        }
    }

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cm_chart_view_add_sample (CmChartView *self,
                          const char  *test,
                          double       t,
                          double       mb_per_s)
{
  Series *series;
  graphene_point_t point;

  g_return_if_fail (CM_IS_CHART_VIEW (self));
  g_return_if_fail (test != NULL);

  series = lookup_series (self, test);
  point.x = t;
  point.y = mb_per_s;
  g_array_append_val (series->points, point);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cm_chart_view_clear (CmChartView *self)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));

  g_ptr_array_set_size (self->series, 0);
  g_clear_object (&self->result);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
cm_chart_view_get_n_points (CmChartView *self)
{
  guint n = 0;

  g_return_val_if_fail (CM_IS_CHART_VIEW (self), 0);

  for (guint i = 0; i < self->series->len; i++)
    n += ((Series *) g_ptr_array_index (self->series, i))->points->len;
  return n;
}
