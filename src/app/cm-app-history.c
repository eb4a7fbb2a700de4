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

#include "cm-app-history.h"

static CmHistory *shared;
static GSettings *settings;

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
