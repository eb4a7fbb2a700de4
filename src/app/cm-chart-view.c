/* cm-chart-view.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A thin drawing area around src/charts: a result chart is cm_chart_draw ()
 * on the widget's cairo_t, in the app's light or dark style, described for
 * screen readers by cm_chart_describe (). Its `kind` (a CmChartKind, set
 * by nick in .ui files) says which chart; a view made without one is the
 * live view during a run: cm_chart_draw_live () (src/charts/cm-chart-live.h)
 * on the samples so far.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-chart-capacity.h"
#include "cm-chart-live.h"

#include "cm-chart-view.h"

struct _CmChartView
{
  GtkDrawingArea   parent_instance;

  CmChartKind      kind;
  gboolean         has_kind; /* FALSE: the live view */
  GPtrArray       *results;  /* CmResult */
  CmChartLive     *live;     /* live view only */
  CmCapacityReport *capacity; /* capacity map only */
  char            *capacity_device;
};

G_DEFINE_FINAL_TYPE (CmChartView, cm_chart_view, GTK_TYPE_DRAWING_AREA)

enum {
  PROP_0,
  PROP_KIND,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The classes whose write speed the live view draws as lines. */
void
cm_chart_view_set_claims (CmChartView        *self,
                          const char * const *claims)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));

  cm_chart_live_set_claims (self->live, claims);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* How many tests the live view has a line for. */
guint
cm_chart_view_get_n_series (CmChartView *self)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), 0);
  return cm_chart_live_get_n_series (self->live);
}

/* How many rows the live legend takes at @width pixels. */
guint
cm_chart_view_get_legend_rows (CmChartView *self,
                               int          width)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), 0);
  return cm_chart_live_legend_rows (self->live, width);
}

gboolean
cm_chart_view_get_chart_kind (CmChartView *self,
                              CmChartKind *kind)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), FALSE);

  if (!self->has_kind)
    return FALSE;
  *kind = self->kind;
  return TRUE;
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

  cm_chart_style_init (&style);
  style.dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
  style.show_title = FALSE;
  style.transparent = TRUE;
  style.scale = 1;
  if (!cm_chart_view_get_chart_kind (self, &kind))
    cm_chart_draw_live (cr, self->live, width, height, &style);
  else if (kind == CM_CHART_CAPACITY_MAP && self->capacity != NULL)
    cm_chart_draw_capacity (cr, self->capacity, self->capacity_device, width, height, &style);
  else
    cm_chart_draw (cr, kind, self->results, width, height, &style);
}

/* Its name is the chart's title; its description, the figures in
 * words, is its text alternative. */
static void
update_description (CmChartView *self)
{
  g_autofree char *text = cm_chart_view_dup_description (self);
  CmChartKind kind;
  const char *name = cm_chart_view_get_chart_kind (self, &kind) ? cm_chart_kind_get_title (kind)
                                                                : _("Speed as the test runs");

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, name,
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

/* The live view is short: it sits above the run's progress. */
#define LIVE_HEIGHT 180

static void
cm_chart_view_constructed (GObject *object)
{
  CmChartView *self = CM_CHART_VIEW (object);

  G_OBJECT_CLASS (cm_chart_view_parent_class)->constructed (object);

  /* The live view until a kind is set. */
  if (!self->has_kind)
    {
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self), LIVE_HEIGHT);
      update_description (self);
    }
}

static void
set_kind (CmChartView *self,
          CmChartKind  kind)
{
  g_return_if_fail (kind < CM_CHART_N_KINDS);

  if (self->has_kind && self->kind == kind)
    return;
  self->kind = kind;
  self->has_kind = TRUE;
  gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self),
                                       cm_chart_kind_get_widget_height_for (kind, self->results));
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KIND]);
}

static void
cm_chart_view_finalize (GObject *object)
{
  CmChartView *self = CM_CHART_VIEW (object);

  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->live, cm_chart_live_free);
  g_clear_pointer (&self->capacity, cm_capacity_report_free);
  g_clear_pointer (&self->capacity_device, g_free);

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
      g_value_set_enum (value, self->kind);
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
      set_kind (self, g_value_get_enum (value));
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

  /* The chart it shows, by nick in templates (`summary`, `capacity-map`).
   * Not a construct property, which GObject would always set to its
   * default: a view whose kind is never set is the live view, and reading
   * the kind then gives the default, which means nothing. */
  properties[PROP_KIND] =
    g_param_spec_enum ("kind", NULL, NULL, CM_TYPE_CHART_KIND, CM_CHART_SUMMARY,
                       G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "chart");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
cm_chart_view_init (CmChartView *self)
{
  self->results = g_ptr_array_new_with_free_func (g_object_unref);
  self->live = cm_chart_live_new ();
  gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (self), draw_cb, NULL, NULL);
  gtk_widget_add_css_class (GTK_WIDGET (self), "chart-frame");

  /* The charts pick their palette from the app's style, not the theme's
   * foreground colour, so they redraw when it flips. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (dark_changed_cb), self, G_CONNECT_SWAPPED);
}

GtkWidget *
cm_chart_view_new (CmChartKind kind)
{
  g_return_val_if_fail (kind < CM_CHART_N_KINDS, NULL);
  return g_object_new (CM_TYPE_CHART_VIEW, "kind", kind, NULL);
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

  /* Some results draw a panel more (the wear chart's write amplification). */
  if (self->has_kind)
    gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (self),
                                         cm_chart_kind_get_widget_height_for (self->kind, self->results));
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
    return cm_chart_describe_live (self->live);
  if (kind == CM_CHART_CAPACITY_MAP && self->capacity != NULL)
    return cm_chart_describe_capacity (self->capacity, self->capacity_device);
  /* Said in words, not left to a title that reads like a chart. */
  if (self->results->len == 0 || !cm_chart_view_has_data (self))
    /* Translators: a chart's text alternative when it has nothing to show, "Write speed over time: nothing measured." */
    return g_strdup_printf (_("%s: nothing measured."), cm_chart_kind_get_title (kind));
  return cm_chart_describe (kind, self->results);
}

/* Live view: one more throughput sample of the test named @test
 * ("seq-write"), @t seconds into it. */
void
cm_chart_view_add_sample (CmChartView *self,
                          const char  *test,
                          double       t,
                          double       mb_per_s)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));
  g_return_if_fail (test != NULL);

  cm_chart_live_add_sample (self->live, test, t, mb_per_s);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
cm_chart_view_get_n_points (CmChartView *self)
{
  g_return_val_if_fail (CM_IS_CHART_VIEW (self), 0);
  return cm_chart_live_get_n_points (self->live);
}

/* The capacity map's data; a copy is kept. */
void
cm_chart_view_set_capacity (CmChartView            *self,
                            const CmCapacityReport *report,
                            const char             *device)
{
  g_return_if_fail (CM_IS_CHART_VIEW (self));
  g_return_if_fail (self->has_kind && self->kind == CM_CHART_CAPACITY_MAP);

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
