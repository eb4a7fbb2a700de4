/* cm-queue-row.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * "Command queueing" on a card's page, for a card that claims A2 or sits
 * in a slot that can queue: Check… asks, red, whether to overwrite the
 * card, then starts a queue check (cm-job-queue.c) with its default
 * options; the row says its progress, then its answer ("Queueing on,
 * safe so far · …"), which opens as the result page. What every kind's
 * row does is CmKindRow's (cm-kind-row.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-host.h"
#include "cm-job-queue.h"
#include "cm-queue-host.h"

#include "cm-queue-row.h"

struct _CmQueueRow
{
  CmKindRow parent_instance;
};

G_DEFINE_FINAL_TYPE (CmQueueRow, cm_queue_row, CM_TYPE_KIND_ROW)

static gboolean
claims_a2 (CmCardItem *item)
{
  CmCardInfo *info = cm_card_item_get_card_info (item);
  g_auto(GStrv) classes = info != NULL ? cm_card_info_dup_declared_classes (info) : NULL;

  return classes != NULL && g_strv_contains ((const char * const *) classes, "A2");
}

static gboolean
slot_can_queue (CmCardItem *item)
{
  const char *device = cm_card_item_get_device (item);
  g_autofree char *block = device != NULL ? g_path_get_basename (device) : NULL;
  g_autoptr(CmQueueHost) host = NULL;

  if (block == NULL || !g_str_has_prefix (block, "mmcblk"))
    return FALSE;
  host = cm_queue_host_read (block);
  return host->slot == CM_QUEUEING_YES || host->now == CM_QUEUEING_YES || host->kind == CM_QUEUE_HOST_PI5;
}

/**
 * cm_queue_row_wanted:
 *
 * Whether the card's page has the row: a whole card that claims A2, or
 * sits in a slot that can queue commands.
 */
gboolean
cm_queue_row_wanted (CmCardItem *item)
{
  g_return_val_if_fail (CM_IS_CARD_ITEM (item), FALSE);

  return cm_card_item_get_kind (item) == CM_CARD_KIND_DEVICE && (claims_a2 (item) || slot_can_queue (item));
}

static void
cm_queue_row_fill (CmKindRow *row)
{
  g_autofree char *answer = cm_kind_row_dup_last_answer (row);

  cm_kind_row_set_subtitle (row, answer != NULL ? answer
                                                : _("Is command queueing on for this card, and safe? Checking overwrites the card."));
}

static void
confirm_cb (CmQueueRow *self,
            const char *response)
{
  g_autoptr(CmJob) job = NULL;

  if (g_strcmp0 (response, "check") != 0 || cm_kind_row_get_busy (CM_KIND_ROW (self)))
    return;
  job = cm_kind_row_new_job (CM_KIND_ROW (self), CM_METHOD_RAW_WRITE);
  /* The user's consent, given in the dialog. */
  cm_job_set_destroy_data (job, TRUE);
  cm_kind_row_start_job (CM_KIND_ROW (self), job);
}

static void
cm_queue_row_activate (CmKindRow *row)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (row));
  g_autofree char *size = g_format_size (cm_card_item_get_size (cm_kind_row_get_item (row)));
  g_autofree char *body = NULL;
  GtkWidget *dialog;

  /* Translators: %s is the card's size, "32.0 GB" */
  body = g_strdup_printf (_("Everything on this %s card will be destroyed: for five minutes CardMark writes and reads "
                            "back small blocks with many commands in flight, while it watches the kernel log for the "
                            "card's errors."), size);
  dialog = adw_message_dialog_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                   _("Erase the Card and Check Its Queue?"), body);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "check", _("_Erase and Check"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "check", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_cb), row, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
cm_queue_row_class_init (CmQueueRowClass *klass)
{
  CmKindRowClass *row_class = CM_KIND_ROW_CLASS (klass);

  row_class->kind = &cm_job_kind_queue;
  row_class->fill = cm_queue_row_fill;
  row_class->activate = cm_queue_row_activate;
}

static void
cm_queue_row_init (CmQueueRow *self)
{
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self), _("Command Queueing"));
  cm_kind_row_set_action (CM_KIND_ROW (self), _("_Check…"),
                          _("Check whether command queueing is on for this card, and safe; this erases the card"));
}

/**
 * cm_queue_row_fill_part:
 *
 * The result page's part of a queue check: what the check's report says,
 * line by line ("Host: …", "Commands: …"), each as a fact titled by what
 * comes before its colon.
 */
void
cm_queue_row_fill_part (CmResultPart *part,
                        CmResult     *result)
{
  g_autoptr(GPtrArray) lines = cm_job_queue_dup_lines (result);

  for (guint i = 0; i < lines->len; i++)
    {
      g_autofree char *line = g_strdup (g_ptr_array_index (lines, i));
      char *colon = strchr (line, ':');

      if (colon == NULL)
        continue;
      *colon = '\0';
      /* Long values wrap under their title, as the format's erase does. */
      adw_action_row_set_subtitle (ADW_ACTION_ROW (cm_result_part_add_fact (part, g_strstrip (line), "")),
                                   g_strstrip (colon + 1));
    }
}

GtkWidget *
cm_queue_row_new (CmCardItem *item)
{
  CmQueueRow *self;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  self = g_object_new (CM_TYPE_QUEUE_ROW, NULL);
  cm_kind_row_set_item (CM_KIND_ROW (self), item);
  return GTK_WIDGET (self);
}
