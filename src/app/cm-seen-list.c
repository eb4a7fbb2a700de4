/* cm-seen-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the history, or the lab's store, knows of a card from before:
 * "Tested before on lab-a, …" and, with a warning icon, "Cloned card? …"
 * when its CID serial came with another size or brand. Looked up in
 * another thread (the store may take seconds, or not answer); hidden
 * until there is something to say. A result's page and a card's page
 * show the same rows.
 */

#include "config.h"

#include "cm-app-history.h"
#include "cm-text.h"

#include "cm-seen-list.h"

struct _CmSeenList
{
  AdwBin        parent_instance;

  GtkListBox   *list;
  GCancellable *lookup;
};

G_DEFINE_FINAL_TYPE (CmSeenList, cm_seen_list, ADW_TYPE_BIN)

static void
add_row (CmSeenList *self,
         const char *text,
         gboolean    warning)
{
  g_autofree char *clean = cm_text_dup_clean (text, 0);
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), clean);
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 0);
  gtk_widget_add_css_class (row, warning ? "cm-seen-warning" : "cm-seen-before");
  if (warning)
    {
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");

      gtk_widget_add_css_class (icon, "warning");
      adw_action_row_add_prefix (ADW_ACTION_ROW (row), icon);
    }
  gtk_list_box_append (self->list, row);
}

static void
clear_rows (CmSeenList *self)
{
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->list))) != NULL)
    gtk_list_box_remove (self->list, row);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

static void
seen_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  CmSeenList *self;
  g_autoptr(CmStoreSeen) seen = NULL;
  g_autoptr(GError) error = NULL;

  seen = cm_history_dup_seen_finish (CM_HISTORY (object), res, &error);
  /* Cancelled when the list went or looks again: nothing of it is touched. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self = user_data;
  g_clear_object (&self->lookup);
  clear_rows (self);
  if (seen == NULL)
    {
      if (error != NULL)
        g_debug ("Tested before: %s", error->message);
      return;
    }
  /* A cloned CID is worth seeing first. */
  if (seen->warning != NULL)
    add_row (self, seen->warning, TRUE);
  if (seen->sentence != NULL)
    add_row (self, seen->sentence, FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self), seen->warning != NULL || seen->sentence != NULL);
}

/* Forgets what was being looked up; what is shown stays until the new
 * answer replaces it. A card that names no CID serial cannot have been
 * seen before: nothing is looked up for it, and nothing shown. NULL when
 * there is nothing to look up. */
static CmHistory *
start_over (CmSeenList *self,
            CmCardInfo *card)
{
  const char *serial = card != NULL ? cm_card_info_get_serial (card) : NULL;

  g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  if (serial == NULL || *serial == '\0')
    {
      clear_rows (self);
      return NULL;
    }
  self->lookup = g_cancellable_new ();
  return cm_app_history_dup ();
}

/**
 * cm_seen_list_look_up_result:
 *
 * Shows what was known of @result's card before @result.
 */
void
cm_seen_list_look_up_result (CmSeenList *self,
                             CmResult   *result)
{
  g_autoptr(CmHistory) history = NULL;

  g_return_if_fail (CM_IS_SEEN_LIST (self));
  g_return_if_fail (CM_IS_RESULT (result));

  if ((history = start_over (self, cm_result_get_card (result))) != NULL)
    cm_history_dup_seen_async (history, result, self->lookup, seen_cb, self);
}

/**
 * cm_seen_list_look_up_card:
 * @card: (nullable): the card in a reader now, as its registers tell it
 * @brand: (nullable): the brand the user says is on its label
 *
 * Shows what is known of @card from every earlier result of its CID
 * serial.
 */
void
cm_seen_list_look_up_card (CmSeenList *self,
                           CmCardInfo *card,
                           const char *brand)
{
  g_autoptr(CmHistory) history = NULL;

  g_return_if_fail (CM_IS_SEEN_LIST (self));
  g_return_if_fail (card == NULL || CM_IS_CARD_INFO (card));

  if ((history = start_over (self, card)) != NULL)
    cm_history_dup_seen_for_card_async (history, card, brand, self->lookup, seen_cb, self);
}

static void
cm_seen_list_dispose (GObject *object)
{
  CmSeenList *self = CM_SEEN_LIST (object);

  g_cancellable_cancel (self->lookup);
  g_clear_object (&self->lookup);
  G_OBJECT_CLASS (cm_seen_list_parent_class)->dispose (object);
}

static void
cm_seen_list_class_init (CmSeenListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cm_seen_list_dispose;
}

static void
cm_seen_list_init (CmSeenList *self)
{
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_NONE);
  gtk_widget_add_css_class (GTK_WIDGET (self->list), "boxed-list");
  adw_bin_set_child (ADW_BIN (self), GTK_WIDGET (self->list));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}
