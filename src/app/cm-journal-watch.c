/* cm-journal-watch.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A capacity check that was killed, or a computer that lost power during
 * one, leaves the card's original blocks in a journal (src/core,
 * cm-capacity-journal.c). When a card with such a journal is present —
 * at start, or inserted later — this offers to put its data back, once
 * per card and run of the app.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>

#include "cm-backend.h"
#include "cm-capacity-probe.h"
#include "cm-card-item.h"
#include "cm-job-list.h"
#include "cm-toast.h"

#include "cm-journal-watch.h"

struct _CmJournalWatch
{
  GObject       parent_instance;

  GtkWindow    *window;         /* weak */
  GtkWidget    *toast_target;   /* weak */
  GListModel   *devices;
  GHashTable   *offered;        /* devices asked about in this run */
  CmCardItem   *current;        /* asked about or being restored */
  gboolean      restoring;
  guint         idle_id;
};

G_DEFINE_FINAL_TYPE (CmJournalWatch, cm_journal_watch, G_TYPE_OBJECT)

static void look_for_journals (CmJournalWatch *self);

static void
toast (CmJournalWatch *self,
       const char     *message)
{
  if (self->toast_target != NULL)
    cm_toast_show (self->toast_target, message);
}

static void
finish (CmJournalWatch *self)
{
  g_clear_object (&self->current);
  self->restoring = FALSE;
  /* Another card may be waiting. */
  look_for_journals (self);
}

/* The restore job ended: what it put back, or why it could not. */
static void
restore_state_cb (CmJournalWatch *self,
                  GParamSpec     *pspec,
                  CmJob          *job)
{
  CmResult *result = cm_job_get_result (job);

  if (cm_job_is_active (job))
    return;
  g_signal_handlers_disconnect_by_func (job, restore_state_cb, self);
  if (result != NULL)
    toast (self, cm_result_get_summary (result));
  else
    {
      g_autofree char *message = g_strdup_printf (_("The card's data could not be put back yet: %s"),
                                                  cm_job_get_error (job) != NULL ? cm_job_get_error (job)->message
                                                                                 : _("it was stopped"));

      toast (self, message);
    }
  finish (self);
}

static void
response_cb (CmJournalWatch   *self,
             const char       *response,
             AdwMessageDialog *dialog)
{
  /* One answer per dialog, whatever closes it afterwards. */
  g_signal_handlers_disconnect_by_func (dialog, response_cb, self);
  if (g_strcmp0 (response, "restore") != 0 || self->current == NULL)
    {
      toast (self, _("The journal is kept: CardMark offers to put the data back at its next start."));
      finish (self);
      return;
    }
  /* A job like any other: it holds the card's lock, keeps the computer
   * awake and shows on the card's row until it ends. */
  self->restoring = TRUE;
  {
    g_autoptr(CmJob) job = cm_backend_new_job (&cm_job_kind_restore, self->devices, self->current, CM_METHOD_RAW_WRITE);

    cm_job_watch (job, NULL, G_CALLBACK (restore_state_cb), self);
    cm_job_list_start (cm_job_list_get_default (), job);
  }
}

static void
offer (CmJournalWatch *self,
       CmCardItem     *item)
{
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  g_set_object (&self->current, item);
  g_hash_table_add (self->offered, g_strdup (cm_card_item_get_device (item)));
  body = g_strdup_printf (_("A capacity check of %s (%s) was interrupted before it could put back what it had "
                            "overwritten. The original data is kept in a journal on this computer."),
                          cm_card_item_get_name (item), cm_card_item_get_device (item));
  dialog = adw_message_dialog_new (self->window, _("Put Back the Card's Data?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "later", _("_Later"),
                                    "restore", _("_Put Back"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "restore", ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "restore");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "later");
  g_signal_connect_object (dialog, "response", G_CALLBACK (response_cb), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Whether the card in @item has a journal of its own. A journal for
 * another card that was in this reader is not offered here: that card is
 * not present. */
static gboolean
has_journal (CmCardItem *item)
{
  g_autoptr(GFile) folder = cm_capacity_journal_default_folder ();
  g_autofree char *path = NULL;

  if (cm_card_item_get_kind (item) != CM_CARD_KIND_DEVICE || cm_card_item_get_device (item) == NULL ||
      cm_card_item_get_size (item) == 0)
    return FALSE;
  path = cm_capacity_journal_find (folder, cm_card_item_get_device (item), cm_card_item_get_size (item), NULL);
  return path != NULL;
}

static void
look_for_journals (CmJournalWatch *self)
{
  guint n;

  if (self->current != NULL || self->devices == NULL || self->window == NULL)
    return;
  n = g_list_model_get_n_items (self->devices);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (self->devices, i);

      /* A folder in the list has no device: no journal, and no key. */
      if (cm_card_item_get_device (item) == NULL ||
          g_hash_table_contains (self->offered, cm_card_item_get_device (item)) || !has_journal (item))
        continue;
      offer (self, item);
      return;
    }
}

static gboolean
look_idle_cb (gpointer user_data)
{
  CmJournalWatch *self = user_data;

  self->idle_id = 0;
  look_for_journals (self);
  return G_SOURCE_REMOVE;
}

/* After the window is shown, and after the list has settled. */
static void
schedule (CmJournalWatch *self)
{
  if (self->idle_id == 0)
    self->idle_id = g_timeout_add (500, look_idle_cb, self);
}

static void
items_changed_cb (CmJournalWatch *self,
                  guint           position,
                  guint           removed,
                  guint           added,
                  GListModel     *model)
{
  if (added > 0)
    schedule (self);
}

static void
cm_journal_watch_dispose (GObject *object)
{
  CmJournalWatch *self = CM_JOURNAL_WATCH (object);

  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_weak_pointer (&self->window);
  g_clear_weak_pointer (&self->toast_target);
  g_clear_object (&self->devices);
  g_clear_object (&self->current);
  g_clear_pointer (&self->offered, g_hash_table_unref);

  G_OBJECT_CLASS (cm_journal_watch_parent_class)->dispose (object);
}

static void
cm_journal_watch_class_init (CmJournalWatchClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = cm_journal_watch_dispose;
}

static void
cm_journal_watch_init (CmJournalWatch *self)
{
  self->offered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

CmJournalWatch *
cm_journal_watch_new (GtkWindow  *window,
                      GtkWidget  *toast_target,
                      GListModel *devices)
{
  CmJournalWatch *self = g_object_new (CM_TYPE_JOURNAL_WATCH, NULL);

  g_set_weak_pointer (&self->window, window);
  g_set_weak_pointer (&self->toast_target, toast_target);
  cm_journal_watch_set_devices (self, devices);
  return self;
}

void
cm_journal_watch_set_devices (CmJournalWatch *self,
                              GListModel     *devices)
{
  g_return_if_fail (CM_IS_JOURNAL_WATCH (self));

  if (self->devices != NULL)
    g_signal_handlers_disconnect_by_func (self->devices, items_changed_cb, self);
  g_set_object (&self->devices, devices);
  if (devices != NULL)
    g_signal_connect_object (devices, "items-changed", G_CALLBACK (items_changed_cb), self, G_CONNECT_SWAPPED);
  schedule (self);
}

const char *
cm_journal_watch_get_offered (CmJournalWatch *self)
{
  g_return_val_if_fail (CM_IS_JOURNAL_WATCH (self), NULL);
  return self->current != NULL ? cm_card_item_get_device (self->current) : NULL;
}
