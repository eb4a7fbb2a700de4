/* cm-chart-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thin drawing area around src/charts: a result chart is cm_chart_draw ()
 * on the widget's cairo_t, in the app's light or dark style, described for
 * screen readers by cm_chart_describe ().
 *
 * The live view during a run is the one chart drawn here: a line per test
 * as its samples arrive. The library's write-over-time chart shows only
 * the sequential write, so during the other five tests of a run (or all of
 * a read-only raw run) it would stand still; the live line shows whatever
 * is being measured now.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-chart-capacity.h"
#include "cm-verdict.h"

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
  GPtrArray       *results;  /* CmResult */
  GPtrArray       *series;   /* Series, live view only */
  CmCapacityReport *capacity; /* capacity map only */
  char            *capacity_device;
  GStrv            claims;   /* classes whose write line the live view draws */
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
  /* The GNOME palette's blue, orange, green, purple, red, brown, yellow
   * and teal: a quick run's six tests never share a colour, and a test
   * keeps its colour for the whole run. Each reads on light and dark. */
  static const double palette[][3] = {
    { 0.21, 0.52, 0.89 }, { 1.00, 0.47, 0.00 }, { 0.15, 0.64, 0.41 },
    { 0.57, 0.25, 0.67 }, { 0.88, 0.11, 0.14 }, { 0.60, 0.42, 0.27 },
    { 0.90, 0.65, 0.04 }, { 0.13, 0.56, 0.64 },
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

/* The legend's entries, wrapped into rows @width wide; returns the
 * number of rows and, when @cr is set, draws them from @y down. */
static guint
draw_legend (CmChartView *self,
             cairo_t     *cr,
             double       left,
             double       width,
             double       y,
             double       row_height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double x = left;
  guint rows = self->series->len > 0 ? 1 : 0;

  for (guint i = 0; i < self->series->len; i++)
    {
      Series *s = g_ptr_array_index (self->series, i);
      g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (widget, s->test);
      int w, h;

      pango_layout_get_pixel_size (layout, &w, &h);
      if (x > left && x + 12 + w > left + width)
        {
          x = left;
          y += row_height;
          rows++;
        }
      if (cr != NULL)
        {
          set_series_color (cr, i);
          cairo_rectangle (cr, x, y + row_height / 2.0 - 4, 8, 8);
          cairo_fill (cr);
          set_color (cr, widget, 0.8);
          cairo_move_to (cr, x + 12, y + row_height / 2.0 - h / 2.0);
          pango_cairo_show_layout (cr, layout);
        }
      x += 12 + w + 18;
    }
  return rows;
}

/* The claimed classes' write speeds as dashed lines, the classes that
 * share a figure on one line: "U3 · V30". */
static void
draw_class_lines (CmChartView *self,
                  cairo_t     *cr,
                  double       left,
                  double       top,
                  double       pw,
                  double       ph,
                  double       max_y)
{
  GtkWidget *widget = GTK_WIDGET (self);
  g_autoptr(GHashTable) lines = g_hash_table_new_full (g_double_hash, g_double_equal, g_free, g_free);
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; self->claims != NULL && self->claims[i] != NULL; i++)
    {
      double write_mb_s = 0;
      char *names;

      if (!cm_verdict_get_minimums (self->claims[i], &write_mb_s, NULL, NULL) || write_mb_s <= 0)
        continue;
      names = g_hash_table_lookup (lines, &write_mb_s);
      names = names != NULL ? g_strdup_printf ("%s · %s", names, self->claims[i]) : g_strdup (self->claims[i]);
      g_hash_table_replace (lines, g_memdup2 (&write_mb_s, sizeof write_mb_s), names);
    }

  cairo_save (cr);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
  g_hash_table_iter_init (&iter, lines);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      double mb_s = *(double *) key;
      double y;

      if (mb_s > max_y)
        continue;
      y = round (top + ph - ph * mb_s / max_y) + 0.5;
      set_color (cr, widget, 0.45);
      cairo_move_to (cr, left, y);
      cairo_line_to (cr, left + pw, y);
      cairo_stroke (cr);
      /* At the left end, where the lines start low and leave room. */
      set_color (cr, widget, 0.7);
      draw_text (cr, widget, value, left + 4, y - 9, 0);
    }
  cairo_restore (cr);
}

static void
draw_lines (CmChartView *self,
            cairo_t     *cr,
            int          width,
            int          height)
{
  GtkWidget *widget = GTK_WIDGET (self);
  double max_t = 0, max_y = 0;
  double left = 56, right = 16, top = 28, axis = 22, row_height = 20;
  double pw = width - left - right, ph, bottom;
  guint legend_rows;
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

  /* The time under the axis, then the legend in as many rows as it
   * needs: nothing overlaps and nothing is cut at any width. */
  legend_rows = draw_legend (self, NULL, left, pw, 0, row_height);
  bottom = axis + legend_rows * row_height;
  ph = height - top - bottom;

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
  draw_text (cr, widget, label, left + pw, top + ph + axis / 2.0, 1);

  draw_class_lines (self, cr, left, top, pw, ph, max_y);

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

  draw_legend (self, cr, left, pw, top + ph + axis, row_height);
}

/* The classes whose write speed the live view draws as lines. */
void
cm_chart_view_set_claims (CmChartView        *self,
                          const char * const *claims)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));

  g_strfreev (self->claims);
  self->claims = g_strdupv ((char **) claims);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The tests the live view has a line for, in order of their colours. */
guint
cm_chart_view_get_n_series (CmChartView *self)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), 0);
  return self->series->len;
}

/* How many rows the live legend takes at @width pixels. */
guint
cm_chart_view_get_legend_rows (CmChartView *self,
                               int          width)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), 0);
  return draw_legend (self, NULL, 56, width - 56 - 16, 0, 20);
}

gboolean
cm_chart_view_get_chart_kind (CmChartView *self,
                              CmChartKind *kind)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), FALSE);

  switch (self->kind)
    {
    case CM_CHART_VIEW_SUMMARY:
      *kind = CM_CHART_SUMMARY;
      return TRUE;
    case CM_CHART_VIEW_OVER_TIME:
      *kind = CM_CHART_WRITE_OVER_TIME;
      return TRUE;
    case CM_CHART_VIEW_LATENCY:
      *kind = CM_CHART_LATENCY;
      return TRUE;
    case CM_CHART_VIEW_SWEEP:
      *kind = CM_CHART_SWEEP;
      return TRUE;
    case CM_CHART_VIEW_POSITION:
      *kind = CM_CHART_POSITION;
      return TRUE;
    case CM_CHART_VIEW_VERIFY:
      *kind = CM_CHART_VERIFY;
      return TRUE;
    case CM_CHART_VIEW_CAPACITY_MAP:
      *kind = CM_CHART_CAPACITY_MAP;
      return TRUE;
    case CM_CHART_VIEW_LIVE:
    default:
      return FALSE;
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
  CmChartStyle style;
  CmChartKind kind;

  if (!cm_chart_view_get_chart_kind (self, &kind))
    {
      draw_lines (self, cr, width, height);
      return;
    }

  cm_chart_style_init (&style);
  style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  style.show_title = FALSE;
  style.transparent = TRUE;
  style.scale = 1;
  if (kind == CM_CHART_CAPACITY_MAP && self->capacity != NULL)
    cm_chart_draw_capacity (cr, self->capacity, self->capacity_device, width, height, &style);
  else
    cm_chart_draw (cr, kind, self->results, width, height, &style);
}

static void
update_description (CmChartView *self)
{
  g_autofree char *text = cm_chart_view_dup_description (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text,
                                  -1);
}

static void
dark_changed_cb (CmChartView    *self,
                 GParamSpec     *pspec,
                 AdwStyleManager *manager)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static int
content_height (CmChartViewKind kind)
{
  switch (kind)
    {
    case CM_CHART_VIEW_SUMMARY:
      return 300;
    case CM_CHART_VIEW_OVER_TIME:
    case CM_CHART_VIEW_SWEEP:
      return 260;
    case CM_CHART_VIEW_LATENCY:
      return 280;
    case CM_CHART_VIEW_POSITION:
    case CM_CHART_VIEW_VERIFY:
    case CM_CHART_VIEW_CAPACITY_MAP:
      return 240;
    case CM_CHART_VIEW_LIVE:
    default:
      return 180;
    }
}

static void
cm_chart_view_constructed (GObject *object)
{
  CmChartView *self = CM_CHART_VIEW (object);

  G_OBJECT_CLASS (cm_chart_view_parent_class)->constructed (object);

  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self), content_height (self->kind));
  update_description (self);
}

static void
cm_chart_view_finalize (GObject *object)
{
  CmChartView *self = CM_CHART_VIEW (object);

  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->capacity, cm_capacity_report_free);
  g_clear_pointer (&self->capacity_device, g_free);
  g_clear_pointer (&self->claims, g_strfreev);

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

  object_class->constructed = cm_chart_view_constructed;
  object_class->finalize = cm_chart_view_finalize;
  object_class->get_property = cm_chart_view_get_property;
  object_class->set_property = cm_chart_view_set_property;

  /* A CmChartViewKind; a plain number so templates can set it. */
  properties[PROP_KIND] =
    g_param_spec_uint ("kind", NULL, NULL, 0, CM_CHART_VIEW_CAPACITY_MAP, CM_CHART_VIEW_LIVE,
                       G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
cm_chart_view_init (CmChartView *self)
{
  self->results = g_ptr_array_new_with_free_func (g_object_unref);
  self->series = g_ptr_array_new_with_free_func ((GDestroyNotify) series_free);
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw_cb, NULL, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "chart-frame");

  /* The charts pick their palette from the app's style, not the theme's
   * foreground colour, so they redraw when it flips. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
cm_chart_view_new (CmChartViewKind kind)
{
  return g_object_new (CM_TYPE_CHART_VIEW, "kind", kind, NULL);
}

CmChartViewKind
cm_chart_view_get_kind (CmChartView *self)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), CM_CHART_VIEW_LIVE);
  return self->kind;
}

/* Shows several results at once (a comparison): one colour per card,
 * with a legend. */
void
cm_chart_view_set_results (CmChartView *self,
                           GPtrArray   *results)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));

  g_ptr_array_set_size (self->results, 0);
  for (guint i = 0; results != NULL && i < results->len; i++)
    g_ptr_array_add (self->results, g_object_ref (g_ptr_array_index (results, i)));

  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
cm_chart_view_set_result (CmChartView *self,
                          CmResult    *result)
{
  g_autoptr(GPtrArray) results = g_ptr_array_new ();

  g_return_if_fail (CM_IS_CHART_VIEW (self));
  g_return_if_fail (result == NULL || CM_IS_RESULT (result));

  if (result != NULL)
    g_ptr_array_add (results, result);
  cm_chart_view_set_results (self, results);
}

GPtrArray *
cm_chart_view_get_results (CmChartView *self)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), NULL);
  return self->results;
}

gboolean
cm_chart_view_has_data (CmChartView *self)
{
  CmChartKind kind;

  g_return_val_if_fail (CM_IS_CHART_VIEW (self), FALSE);

  if (!cm_chart_view_get_chart_kind (self, &kind))
    return cm_chart_view_get_n_points (self) > 0;
  if (kind == CM_CHART_CAPACITY_MAP)
    return self->capacity != NULL;
  return cm_chart_has_data (kind, self->results);
}

/* The chart's figures in words, as screen readers get them. */
char *
cm_chart_view_dup_description (CmChartView *self)
{
  CmChartKind kind;

  g_return_val_if_fail (CM_IS_CHART_VIEW (self), NULL);

  if (!cm_chart_view_get_chart_kind (self, &kind))
    return g_strdup (_("Throughput of each test as it runs, in MB/s against seconds."));
  if (kind == CM_CHART_CAPACITY_MAP && self->capacity != NULL)
    return cm_chart_describe_capacity (self->capacity, self->capacity_device);
  if (self->results->len == 0)
    return g_strdup (cm_chart_kind_get_title (kind));
  return cm_chart_describe (kind, self->results);
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

/* Live view: one more throughput sample of @test, @t seconds into it. */
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
  cm_chart_view_set_results (self, NULL);
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

/* The capacity map's data; a copy is kept. */
void
cm_chart_view_set_capacity (CmChartView            *self,
                            const CmCapacityReport *report,
                            const char             *device)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));
  g_return_if_fail (self->kind == CM_CHART_VIEW_CAPACITY_MAP);

  g_clear_pointer (&self->capacity, cm_capacity_report_free);
  g_clear_pointer (&self->capacity_device, g_free);
  if (report != NULL)
    {
      self->capacity = cm_capacity_report_copy (report);
      self->capacity_device = g_strdup (device);
    }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const CmCapacityReport *
cm_chart_view_get_capacity (CmChartView *self)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), NULL);
  return self->capacity;
}
