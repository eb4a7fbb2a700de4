/* cm-run-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A test in progress: which measurement, how far, how long, and the
 * throughput as it happens.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-backend.h"

#include "cm-run-page.h"

struct _CmRunPage
{
  GtkBox          parent_instance;

  GtkLabel       *title_label;
  GtkLabel       *test_label;
  GtkProgressBar *progress_bar;
  GtkLabel       *time_label;
  CmChartView    *chart;
  GtkButton      *cancel_button;
};

G_DEFINE_FINAL_TYPE (CmRunPage, cm_run_page, GTK_TYPE_BOX)

static void
cm_run_page_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), CM_TYPE_RUN_PAGE);

  G_OBJECT_CLASS (cm_run_page_parent_class)->dispose (object);
}

static void
cm_run_page_class_init (CmRunPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_run_page_dispose;

  g_type_ensure (CM_TYPE_CHART_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-run-page.ui");
  gtk_widget_class_bind_template_child (widget_class, CmRunPage, title_label);
  gtk_widget_class_bind_template_child (widget_class, CmRunPage, test_label);
  gtk_widget_class_bind_template_child (widget_class, CmRunPage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, CmRunPage, time_label);
  gtk_widget_class_bind_template_child (widget_class, CmRunPage, chart);
  gtk_widget_class_bind_template_child (widget_class, CmRunPage, cancel_button);
}

static void
cm_run_page_init (CmRunPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_set_size_request (GTK_WIDGET (self->chart), -1, 140);
}

CmRunPage *
cm_run_page_new (const char *title)
{
  CmRunPage *self = g_object_new (CM_TYPE_RUN_PAGE, NULL);
  g_autofree char *text = g_strdup_printf (_("Testing %s"), title);

  gtk_label_set_label (self->title_label, text);
  return self;
}

void
cm_run_page_set_test (CmRunPage  *self,
                      guint       index,
                      guint       n_tests,
                      const char *name)
{
  g_autofree char *text = NULL;

  g_return_if_fail (CM_IS_RUN_PAGE (self));

  /* Translators: "Sequential write (test 1 of 6)" */
  text = g_strdup_printf (_("%s (test %u of %u)"), cm_backend_describe_test (name), index + 1, n_tests);
  gtk_label_set_label (self->test_label, text);
}

void
cm_run_page_set_progress (CmRunPage *self,
                          double     fraction,
                          double     seconds_left)
{
  g_autofree char *text = NULL;
  int left = (int) (seconds_left + 0.5);

  g_return_if_fail (CM_IS_RUN_PAGE (self));

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  if (left >= 60)
    text = g_strdup_printf (_("About %d min %02d s left"), left / 60, left % 60);
  else
    text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "About %d second left", "About %d seconds left", left), left);
  gtk_label_set_label (self->time_label, text);
}

void
cm_run_page_add_sample (CmRunPage  *self,
                        const char *test,
                        double      t,
                        double      mb_per_s)
{
  g_return_if_fail (CM_IS_RUN_PAGE (self));
  cm_chart_view_add_sample (self->chart, cm_backend_describe_test (test), t, mb_per_s);
}

void
cm_run_page_set_cancelling (CmRunPage *self)
{
  g_return_if_fail (CM_IS_RUN_PAGE (self));

  gtk_label_set_label (self->test_label, _("Cancelling and cleaning up…"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
}

CmChartView *
cm_run_page_get_chart (CmRunPage *self)
{
  g_return_val_if_fail (CM_IS_RUN_PAGE (self), NULL);
  return self->chart;
}
