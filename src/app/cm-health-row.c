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
 * What every kind's row does is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-health-row.h"

struct _CmHealthRow
{
  CmKindRow parent_instance;
};

G_DEFINE_FINAL_TYPE (CmHealthRow, cm_health_row, CM_TYPE_KIND_ROW)

static gboolean
behind_usb_reader (CmCardItem *item)
{
  const char *reader = cm_card_item_get_reader (item);

  return reader != NULL && strstr (reader, "USB") != NULL;
}

static void
cm_health_row_fill (CmKindRow *row)
{
  g_autofree char *answer = NULL;

  if (behind_usb_reader (cm_kind_row_get_item (row)))
    {
      cm_kind_row_set_subtitle (row, _("This reader cannot ask the card"));
      gtk_widget_set_visible (cm_kind_row_get_button (row), FALSE);
      return;
    }
  answer = cm_kind_row_dup_last_answer (row);
  cm_kind_row_set_subtitle (row, answer != NULL ? answer : _("Not asked yet"));
}

/* Seconds: the row says what it does, not how far. */
static void
cm_health_row_progress (CmKindRow *row,
                        CmJob     *job)
{
  cm_kind_row_set_subtitle (row, _("Asking the card how worn it is"));
}

/* A done read's answer is the row's last result; the others say why
 * there is none. The answer is shown on the row, not opened. */
static void
cm_health_row_ended (CmKindRow *row,
                     CmJob     *job)
{
  if (cm_job_get_state (job) == CM_JOB_STATE_FAILED)
    cm_kind_row_set_subtitle (row, cm_job_get_error (job)->message);
  else if (cm_job_get_state (job) == CM_JOB_STATE_CANCELLED)
    cm_kind_row_set_subtitle (row, _("Not asked"));
}

/* Starts the health read of the row's card. */
static void
cm_health_row_activate (CmKindRow *row)
{
  g_autoptr(CmJob) job = NULL;

  job = cm_kind_row_new_job (row, CM_METHOD_RAW_READ);
  cm_kind_row_start_job (row, job);
}

static void
cm_health_row_class_init (CmHealthRowClass *klass)
{
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  row_class->kind = &cm_job_kind_health;
  row_class->fill = cm_health_row_fill;
  row_class->activate = cm_health_row_activate;
  row_class->progress = cm_health_row_progress;
  row_class->ended = cm_health_row_ended;
}

static void
cm_health_row_init (CmHealthRow *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Health"));
  cm_kind_row_set_stop_label (CM_KIND_ROW (self), NULL);
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Ask"), _("Ask the card how worn it is; this only reads"));
}

GtkWidget *
cm_health_row_new (CmCardItem *item)
{
  CmHealthRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_HEALTH_ROW, NULL);
  cm_kind_row_set_item (CM_KIND_ROW (self), item);
  return GTK_WIDGET (self);
}
