/* cm-health-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Health" on a card's page: Ask starts a "health" job (cm-job-health.c)
 * in the application, which asks the card how worn it says it is
 * (CMD56, read-only, seconds); the row then says its answer, "12 % of
 * its life used", or why it is not known. A card behind a USB reader
 * cannot be asked, and the row says so without asking. After a restart
 * the row says the card's last answer, dated, until it is asked again.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-app-history.h"
#include "cm-job-list.h"
#include "cm-backend.h"
#include "cm-history.h"
#include "cm-outcome.h"

#include "cm-health-row.h"

struct _CmHealthRow
{
  AdwActionRow  parent_instance;

  CmCardItem   *item;
  CmJob        *job;          /* the read that runs, watched */
  gboolean      asked;        /* asked in this session */
  GCancellable *finding;      /* the last answer, looked up after a restart */

  GtkSpinner   *spinner;
  GtkButton    *button;
};

G_DEFINE_FINAL_TYPE (CmHealthRow, cm_health_row, ADW_TYPE_ACTION_ROW)

static gboolean
behind_usb_reader (CmCardItem *item)
{
  const char *reader = cm_card_item_get_reader (item);

  return reader != NULL && strstr (reader, "USB") != NULL;
}

static void
set_busy (CmHealthRow *self,
          gboolean     busy)
{
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->button), !busy);
}

static void
job_state_cb (CmHealthRow *self)
{
  CmResult *result;
  g_autoptr(CmOutcome) outcome = NULL;

  self->asked = TRUE;
  switch (cm_job_get_state (self->job))
    {
    case CM_JOB_STATE_DONE:
      result = cm_job_get_result (self->job);
      outcome = cm_result_dup_outcome (result);
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self),
                                   outcome->answer != NULL ? outcome->answer : outcome->badge);
      break;
    case CM_JOB_STATE_FAILED:
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), cm_job_get_error (self->job)->message);
      break;
    case CM_JOB_STATE_CANCELLED:
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Not asked"));
      break;
    case CM_JOB_STATE_WAITING:
    case CM_JOB_STATE_RUNNING:
    case CM_JOB_STATE_PAUSED:
    default:
      return;
    }
  set_busy (self, FALSE);
  g_clear_object (&self->job);
}

static void
job_progress_cb (CmHealthRow *self)
{
}

/* The card's last answer from before this session, dated so it is not
 * read as today's, unless it was asked in this one. */
static void
last_found (gpointer  owner,
            CmResult *last)
{
  CmHealthRow *self = owner;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *earlier = NULL;

  g_clear_object (&self->finding);
  if (last == NULL || self->asked || self->job != NULL)
    return;
  outcome = cm_result_dup_outcome (last);
  earlier = cm_app_history_dup_earlier (last, outcome->answer != NULL ? outcome->answer : outcome->badge);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), earlier);
}

/**
 * cm_health_row_ask:
 *
 * Starts the health read of the row's card, as Ask does.
 */
void
cm_health_row_ask (CmHealthRow *self)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();

  g_return_if_fail (CM_IS_HEALTH_ROW (self));

  if (self->job != NULL)
    return;
  self->job = cm_backend_new_job (&cm_job_kind_health, NULL, self->item, CM_METHOD_RAW_READ);
  cm_job_set_name (self->job, cm_card_item_get_name (self->item));
  cm_job_set_history (self->job, history);
  cm_job_watch (self->job, G_CALLBACK (job_progress_cb), G_CALLBACK (job_state_cb), self);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Asking the card how worn it is"));
  set_busy (self, TRUE);
  cm_job_list_start (cm_job_list_get_default (), self->job);
}

static void
button_clicked_cb (CmHealthRow *self)
{
  cm_health_row_ask (self);
}

CmJob *
cm_health_row_get_job (CmHealthRow *self)
{
  g_return_val_if_fail (CM_IS_HEALTH_ROW (self), NULL);
  return self->job;
}

static void
cm_health_row_dispose (GObject *object)
{
  CmHealthRow *self = CM_HEALTH_ROW (object);

  /* The application holds a running read; the row only stops watching. */
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_cancellable_cancel (self->finding);
  g_clear_object (&self->finding);
  g_clear_object (&self->item);
  G_OBJECT_CLASS (cm_health_row_parent_class)->dispose (object);
}

static void
cm_health_row_class_init (CmHealthRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = cm_health_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-health-row.ui");
  gtk_widget_class_bind_template_child (widget_class, CmHealthRow, spinner);
  gtk_widget_class_bind_template_child (widget_class, CmHealthRow, button);
  gtk_widget_class_bind_template_callback (widget_class, button_clicked_cb);
}

static void
cm_health_row_init (CmHealthRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

GtkWidget *
cm_health_row_new (CmCardItem *item)
{
  CmHealthRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_HEALTH_ROW, NULL);
  self->item = g_object_ref (item);
  if (behind_usb_reader (item))
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("This reader cannot ask the card"));
      gtk_widget_set_visible (GTK_WIDGET (self->button), FALSE);
    }
  else
    {
      adw_action_row_set_subtitle (ADW_ACTION_ROW (self), _("Not asked yet"));
      /* After a restart: what the card answered last time. */
      self->finding = g_cancellable_new ();
      cm_app_history_find_last (item, cm_job_kind_health.name, self->finding, last_found, self);
    }
  return GTK_WIDGET (self);
}
