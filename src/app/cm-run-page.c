/* cm-run-page.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A test in progress: which measurement, how far, how long, and the
 * throughput as it happens.
 *
 * One chart for the whole run, so that nothing changes design under the
 * user's eyes: a line per test as its samples arrive, a colour each for
 * the run, with the claimed classes' write speeds as dashed lines, so a
 * card's cache running out during the sequential write shows against
 * them while it happens.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-test-table.h"
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

  CmJob          *job;      /* the run it shows */
  gboolean        cancelling;
};

G_DEFINE_FINAL_TYPE (CmRunPage, cm_run_page, GTK_TYPE_BOX)

static void
cm_run_page_dispose (GObject *object)
{
  CmRunPage *self = CM_RUN_PAGE (object);

  gtk_widget_dispose_template (GTK_WIDGET (object), CM_TYPE_RUN_PAGE);
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);

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

/* @claims: the classes the card claims, whose write speeds the chart
 * draws as lines; they are judged when the run ends. */
CmRunPage *
cm_run_page_new (const char         *title,
                 const char * const *claims)
{
  CmRunPage *self = g_object_new (CM_TYPE_RUN_PAGE, NULL);
  g_autofree char *text = g_strdup_printf (_("Testing %s"), title);

  gtk_label_set_label (self->title_label, text);
  cm_chart_view_set_claims (self->chart, claims);

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
  text = g_strdup_printf (_("%s (test %u of %u)"), cm_test_table_get_label (name), index + 1, n_tests);
  gtk_label_set_label (self->test_label, text);
}

void
cm_run_page_set_progress (CmRunPage *self,
                          double     fraction,
                          double     seconds_left)
{
  g_autofree char *text = NULL;
  /* Clamped before the conversion, which is undefined past an int. */
  int left = (int) (CLAMP (seconds_left, -1, 1e8) + 0.5);

  g_return_if_fail (CM_IS_RUN_PAGE (self));

  if (self->cancelling)
    return;

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
  cm_chart_view_add_sample (self->chart, test, t, mb_per_s);
}

void
cm_run_page_set_cancelling (CmRunPage *self)
{
  g_return_if_fail (CM_IS_RUN_PAGE (self));

  self->cancelling = TRUE;
  gtk_label_set_label (self->test_label, _("Cancelling and cleaning up…"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->cancel_button), FALSE);
}

static void
test_started_cb (CmRunPage  *self,
                 guint       index,
                 guint       n_tests,
                 const char *name,
                 CmJob      *job)
{
  if (!self->cancelling)
    cm_run_page_set_test (self, index, n_tests, name);
}

static void
sample_cb (CmRunPage  *self,
           const char *test,
           double      t,
           double      mb_per_s,
           double      iops,
           CmJob      *job)
{
  cm_run_page_add_sample (self, test, t, mb_per_s);
}

static void
progress_cb (CmRunPage *self)
{
  cm_run_page_set_progress (self, cm_job_get_progress (self->job), cm_job_get_seconds_left (self->job));
}

/* Shows how @job's run goes: each test, the progress and the samples,
 * as the job tells them (whatever runs them underneath). */
void
cm_run_page_follow (CmRunPage *self,
                    CmJob     *job)
{
  g_return_if_fail (CM_IS_RUN_PAGE (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (self->job == NULL);

  self->job = g_object_ref (job);
  g_signal_connect_object (job, "test-started", G_CALLBACK (test_started_cb), self, G_CONNECT_SWAPPED);
  cm_job_watch (job, G_CALLBACK (progress_cb), NULL, self);
  g_signal_connect_object (job, "sample", G_CALLBACK (sample_cb), self, G_CONNECT_SWAPPED);
}

CmChartView *
cm_run_page_get_chart (CmRunPage *self)
{
  g_return_val_if_fail (CM_IS_RUN_PAGE (self), NULL);
  return self->chart;
}
