/* cm-app-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's one history: every job saves into it, so every finished
 * document also goes to the lab's store when one is set (the "store-url"
 * setting, which holds no password), in another thread, and what still
 * waits is known in one place (Preferences).
 */

#include "config.h"

#include <glib/gi18n.h>

#include "cm-card-info.h"
#include "cm-summary.h"

#include "cm-app-history.h"

static CmHistory *shared;
static GSettings *settings;
static guint finding_count;  /* look-ups of a last result not yet answered */

static void
apply_store (void)
{
  g_autofree char *url = g_settings_get_string (settings, "store-url");
  g_autoptr(GError) error = NULL;

  /* A URL the Preferences would not take (edited by hand): no store,
   * and the results still saved here. */
  if (*url == '\0' || cm_store_url_has_password (url) || !cm_history_set_store (shared, url, &error))
    {
      if (error != NULL)
        g_message ("No store: %s", error->message);
      cm_history_set_store (shared, NULL, NULL);
      return;
    }
  cm_history_send_queued_in_background (shared);
}

/**
 * cm_app_history_dup:
 *
 * Returns: (transfer full): the app's history, sending to the store in
 *   the background; the first call sends what waits from before
 */
CmHistory *
cm_app_history_dup (void)
{
  if (shared == NULL)
    {
      shared = cm_history_new_default ();
      cm_history_set_send_in_background (shared, TRUE);
      settings = g_settings_new (APP_ID);
      g_signal_connect (settings, "changed::store-url", G_CALLBACK (apply_store), NULL);
      apply_store ();
    }
  return g_object_ref (shared);
}

typedef struct
{
  CmAppHistoryFoundFunc found;
  gpointer              owner;
} Finding;

static void
found_cb (GObject      *source,
          GAsyncResult *res,
          gpointer      user_data)
{
  g_autofree Finding *finding = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) last = cm_history_find_last_finish (CM_HISTORY (source), res, &error);

  finding_count--;
  /* Cancelled when its owner went: nothing of it is touched. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (error != NULL)
    g_debug ("No earlier result: %s", error->message);
  finding->found (finding->owner, last);
}

/**
 * cm_app_history_find_last:
 * @kind: (nullable): a job kind's name; %NULL for any kind
 * @cancellable: cancelled when @owner goes
 * @found: called with the result, or %NULL when there is none, unless
 *   @cancellable was cancelled
 *
 * The newest result of @kind for @item's card, looked up in another
 * thread: what a card's row (or, of any kind, its row in the card
 * list) shows when the app starts again.
 */
void
cm_app_history_find_last (CmCardItem            *item,
                          const char            *kind,
                          GCancellable          *cancellable,
                          CmAppHistoryFoundFunc  found,
                          gpointer               owner)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  CmCardInfo *info = cm_card_item_get_card_info (item);
  Finding *finding = g_new0 (Finding, 1);

  finding->found = found;
  finding->owner = owner;
  finding_count++;
  cm_history_find_last_async (history, kind, info != NULL ? cm_card_info_get_serial (info) : NULL,
                              cm_card_item_get_device (item), cm_card_item_get_size (item),
                              cancellable, found_cb, finding);
}

/**
 * cm_app_history_get_finding:
 *
 * Returns: how many look-ups of a last result have not been answered
 *   yet: 0 once every row that looked has its answer, or knows there is
 *   none
 */
guint
cm_app_history_get_finding (void)
{
  return finding_count;
}

/* A row's answer for a result from before this session: "On 3 Dec
 * 2026, 09:40: Intact", so it is not read as today's. */
char *
cm_app_history_dup_earlier (CmResult   *result,
                            const char *answer)
{
  g_autofree char *date = cm_summary_dup_date (result);

  if (date == NULL)
    return g_strdup (answer);
  /* Translators: a card's last result of a kind, from before: "On 3 Dec 2026, 09:40: Intact" */
  return g_strdup_printf (_("On %s: %s"), date, answer != NULL ? answer : "");
}
