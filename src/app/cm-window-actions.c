/* cm-window-actions.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The window's actions, which of them apply to the page on screen, and
 * the run that Start begins: a "bench" job (src/core) does the run; the
 * application holds it (and keeps the computer awake meanwhile); the
 * window follows it on the run page and shows the page for how it went.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-card-same.h"
#include "cm-job-list.h"
#include "cm-backend.h"
#include "cm-history-index.h"
#include "cm-maker-form.h"
#include "cm-summary.h"
#include "cm-toast.h"
#include "cm-verify-row.h"
#include "cm-wear-row.h"

#include "cm-window-private.h"

/* The job of the page on screen: the benchmark its run page follows, or
 * the one running on the card whose page, result or error shows. */
CmJob *
_cm_window_get_shown_job (CmWindow *self)
{
  CmJob *job = NULL;

  switch (_cm_window_get_visible_page (self))
    {
    case CM_WINDOW_PAGE_RUN:
      job = self->job;
      break;
    case CM_WINDOW_PAGE_CARD:
    case CM_WINDOW_PAGE_RESULT:
    case CM_WINDOW_PAGE_ERROR:
      if (self->card_page != NULL)
        job = cm_job_list_lookup (cm_job_list_get_default (), cm_card_page_get_item (self->card_page));
      break;
    case CM_WINDOW_PAGE_CARDS:
    case CM_WINDOW_PAGE_HISTORY:
    case CM_WINDOW_PAGE_SAVED:
    case CM_WINDOW_N_PAGES:
    default:
      break;
    }
  return job != NULL && cm_job_is_active (job) ? job : NULL;
}

/* Why Test Again cannot start, or NULL: the card's page goes when its
 * card does, and a job of the card (a verify, a capacity check, a wear
 * test, another benchmark) holds it until it ends; that job says so in
 * the words core uses when it finds a card's lock held. */
static char *
dup_again_reason (CmWindow *self)
{
  CmJob *job;

  if (self->card_page == NULL)
    return g_strdup (_("The card is no longer connected."));
  job = cm_job_list_lookup (cm_job_list_get_default (), cm_card_page_get_item (self->card_page));
  if (job != NULL && cm_job_is_active (job))
    return cm_job_dup_busy_text (job);
  return NULL;
}

/* Whether a card in the list is the one in @device now. */
static gboolean
listed (CmWindow   *self,
        const char *device)
{
  for (guint i = 0; device != NULL && i < g_list_model_get_n_items (self->devices); i++)
    {
      g_autoptr(CmCardItem) item = g_list_model_get_item (self->devices, i);

      if (g_strcmp0 (cm_card_item_get_device (item), device) == 0)
        return TRUE;
    }
  return FALSE;
}

/* A saved benchmark's card, to test again from History: its device for
 * a raw test, its folder for a safe one; a saved check, verify, wear
 * test or health read's device; NULL when it is not here now. */
static const char *
saved_card_path (CmWindow *self)
{
  CmResult *result = _cm_window_get_visible_page (self) == CM_WINDOW_PAGE_SAVED
                     ? _cm_window_get_visible_result (self) : NULL;
  const char *path;

  if (result == NULL)
    return NULL;
  /* A check, verify, wear test or health read: only on a card in the
   * list (a device node outlives a card taken out of its reader). */
  if (!cm_job_kind_measures_speed (cm_result_get_kind (result)))
    return cm_card_page_can_test_again (cm_result_get_kind (result)) && listed (self, cm_result_get_device (result))
           ? cm_result_get_device (result) : NULL;
  path = g_strcmp0 (cm_result_get_target_mode (result), "file") == 0 || cm_result_get_device (result) == NULL
         ? cm_result_get_target_path (result) : cm_result_get_device (result);
  return path != NULL && g_file_test (path, G_FILE_TEST_EXISTS) ? path : NULL;
}

/* Whether @item is the card @result (a check, verify, wear test or
 * health read) was of, as the history tells a card
 * (cm_history_entry_is_of_card()). */
static gboolean
same_card (CmResult   *result,
           CmCardItem *item)
{
  g_autoptr(CmHistoryEntry) was = cm_history_entry_new_for_result (result);
  CmCardInfo *is = cm_card_item_get_card_info (item);

  /* The size first (cheap, and a card of another size is another), then
   * the one rule: its CID, or it never left its reader since. */
  return cm_history_entry_is_of_card (was, is != NULL ? cm_card_info_get_serial (is) : NULL,
                                      cm_card_item_get_size (item)) &&
         cm_card_same (result, is, cm_card_item_get_device (item)) != CM_CARD_PROOF_NONE;
}

/* Opens the saved benchmark's card with what it was tested with: its
 * classes, method and profile; a saved check, verify, wear test or
 * health read starts again there, asking first as its row does. FALSE
 * when that card is not here. */
static gboolean
open_saved_card (CmWindow *self)
{
  g_autoptr(CmResult) result = NULL;
  g_autoptr(GPtrArray) claims = g_ptr_array_new ();
  const char *path = saved_card_path (self);
  CmMethod method;

  if (path == NULL)
    return FALSE;
  result = g_object_ref (_cm_window_get_visible_result (self));
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-path", "s", path);
  if (self->card_page == NULL || _cm_window_get_visible_page (self) != CM_WINDOW_PAGE_CARD)
    return FALSE;
  if (!cm_job_kind_measures_speed (cm_result_get_kind (result)))
    return same_card (result, cm_card_page_get_item (self->card_page)) &&
           cm_card_page_test_again (self->card_page, result);
  for (guint i = 0; i < cm_result_get_claims (result)->len; i++)
    {
      CmClaim *claim = g_ptr_array_index (cm_result_get_claims (result), i);

      if (g_strcmp0 (claim->source, "figures") != 0)
        g_ptr_array_add (claims, claim->klass);
    }
  g_ptr_array_add (claims, NULL);
  cm_card_page_set_claims (self->card_page, (const char * const *) claims->pdata);
  if (cm_method_from_string (cm_result_get_target_mode (result), &method))
    cm_card_page_set_method (self->card_page, method);
  cm_card_page_set_profile (self->card_page, g_strcmp0 (cm_result_get_profile (result), "full") == 0
                                             ? CM_PROFILE_FULL : CM_PROFILE_QUICK);
  return TRUE;
}

/* The card page of the result on screen, when that result left its card
 * erased and the card is still here: Erase and Format… goes there. */
static CmCardPage *
erased_card_page (CmWindow *self)
{
  CmResult *result = _cm_window_get_visible_result (self);

  if (result == NULL || self->card_page == NULL || !cm_job_kind_left_card_erased (result) ||
      g_strcmp0 (cm_result_get_device (result), cm_card_item_get_device (cm_card_page_get_item (self->card_page))) != 0)
    return NULL;
  return self->card_page;
}

/* Which actions apply, from the page on screen and the job of its card;
 * the application's Start and Cancel follow :can-start and :running.
 * Every job goes on while the user looks at other cards; the window
 * follows one benchmark at a time on its run page. */
void
_cm_window_actions_update (CmWindow *self)
{
  CmWindowPage page = _cm_window_get_visible_page (self);
  gboolean benching = self->cancellable != NULL;
  gboolean running = _cm_window_get_shown_job (self) != NULL;
  gboolean has_result = _cm_window_get_visible_result (self) != NULL;
  gboolean can_go_back = page != CM_WINDOW_PAGE_CARDS;
  gboolean can_start = !benching && !running
                       && ((self->card_page != NULL && cm_card_page_get_job (self->card_page) == NULL
                            && (page == CM_WINDOW_PAGE_CARD || page == CM_WINDOW_PAGE_RESULT))
                           || saved_card_path (self) != NULL);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.back", can_go_back);
  gtk_widget_set_visible (GTK_WIDGET (self->back_button), can_go_back);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-json", has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-summary", has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-folder", !benching);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-history", !benching);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.ask-cancel", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.erase-format",
                                 !running && erased_card_page (self) != NULL);
  if (self->result_page != NULL)
    {
      g_autofree char *why_not = dup_again_reason (self);

      cm_result_page_set_again_reason (self->result_page, why_not);
    }
  /* A saved result whose card is not here: Test Again says why it is off. */
  if (self->saved_page != NULL && cm_result_page_get_offers_again (self->saved_page))
    cm_result_page_set_again_reason (self->saved_page,
                                     page == CM_WINDOW_PAGE_SAVED && saved_card_path (self) == NULL
                                     ? _("The card of this result is not connected: put it in to test it again.")
                                     : NULL);

  _cm_window_set_run_state (self, running, can_start);
}

/* The run. */

static void
end_run (CmWindow *self)
{
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_item);
}

static void
bench_started_cb (CmWindow   *self,
                  GParamSpec *pspec,
                  CmJob      *job)
{
  g_auto(GStrv) claims = self->card_page != NULL ? cm_card_page_dup_claims (self->card_page) : NULL;
  CmRunPage *run_page;

  /* Once the run began (its runner is there): the page follows the job. */
  if (cm_job_get_runner (job) == NULL)
    return;
  run_page = cm_run_page_new (cm_card_item_get_name (self->run_item), (const char * const *) claims);
  cm_run_page_follow (run_page, job);
  _cm_window_show_run (self, run_page);
}

static void
show_removed (CmWindow *self)
{
  _cm_window_drop_card_page (self);
  _cm_window_show_error (self, _("The Card Was Removed"),
                         _("The card went away during the test, so there is no result. Put it back, wait until it appears in the list, and start the test again."));
}

static void
show_failure (CmWindow     *self,
              const GError *error,
              gboolean      started)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      /* Another program's writes, reverted by the raw test's own, make
       * a failed test, not a result: its data may be lost. */
      if (g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_OTHER_WRITER))
        _cm_window_show_error (self, _("Another Program Wrote to the Card"), error->message);
      else if (started)
        _cm_window_show_error (self, _("The Test Could Not Finish"), error->message);
      else
        {
          _cm_window_show_page (self, CM_WINDOW_PAGE_CARD);
          cm_toast_show (GTK_WIDGET (self->toast_overlay), error->message);
        }
      return;
    }

  _cm_window_show_page (self, CM_WINDOW_PAGE_CARD);
  cm_toast_show (GTK_WIDGET (self->toast_overlay),
                 started ? _("Test cancelled. Nothing was left behind on the card.") : _("Test cancelled."));
}

/* Every finished run is kept; when that fails the result is still shown
 * and can be exported by hand. */
static void
tell_save_error (CmWindow *self,
                 CmJob    *job)
{
  const GError *error = cm_job_get_save_error (job);
  g_autofree char *message = NULL;

  if (error == NULL)
    return;

  message = g_strdup_printf (_("The result could not be kept in the history: %s. Use Export to save it."),
                             error->message);
  cm_toast_show (GTK_WIDGET (self->toast_overlay), message);
}

/* The benchmark ended: its result, or why there is none. */
static void
bench_state_cb (CmWindow   *self,
                GParamSpec *pspec,
                CmJob      *job_)
{
  g_autoptr(CmJob) job = g_object_ref (job_);
  const GError *error = cm_job_get_error (job);
  CmResult *result = cm_job_get_state (job) == CM_JOB_STATE_DONE ? cm_job_get_result (job) : NULL;
  gboolean started = cm_job_get_runner (job) != NULL;
  gboolean removed = self->card_removed
                     || g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED);

  if (cm_job_is_active (job))
    return;

  end_run (self);

  /* The user went on to another card: the run page is not on screen, so
   * the result waits for them on the result page and in the history. */
  if (_cm_window_get_visible_page (self) != CM_WINDOW_PAGE_RUN && started && result != NULL)
    {
      g_set_object (&self->last_result, result);
      tell_save_error (self, job);
      _cm_window_keep_result (self, result);
      return;
    }

  if (removed && started)
    show_removed (self);
  else if (result == NULL)
    show_failure (self, error, started);
  else
    {
      g_set_object (&self->last_result, result);
      tell_save_error (self, job);
      _cm_window_show_result (self, result);
    }
}

static void
really_start (CmWindow *self)
{
  CmCardPage *page = self->card_page;
  g_auto(GStrv) claims = NULL;

  g_assert (page != NULL);
  g_assert (self->cancellable == NULL);

  g_settings_set_enum (self->settings, "last-profile", cm_card_page_get_profile (page));
  g_settings_set_enum (self->settings, "last-method", cm_card_page_get_method (page));

  /* Marks the window's benchmark until it ends; the job has its own. */
  self->cancellable = g_cancellable_new ();
  self->card_removed = FALSE;
  self->run_item = g_object_ref (cm_card_page_get_item (page));
  claims = cm_card_page_dup_claims (page);

  self->job = cm_backend_new_job (&cm_job_kind_bench, self->devices, self->run_item, cm_card_page_get_method (page));
  g_object_set (cm_job_get_options (self->job), "profile", (guint) cm_card_page_get_profile (page), NULL);
  cm_job_set_claims (self->job, (const char * const *) claims);
  cm_job_set_brand (self->job, cm_card_page_get_brand (page));
  cm_job_set_history (self->job, self->history);
  g_signal_connect_object (self->job, "notify::runner", G_CALLBACK (bench_started_cb), self, G_CONNECT_SWAPPED);
  cm_job_watch (self->job, NULL, G_CALLBACK (bench_state_cb), self);
  _cm_window_actions_update (self);

  cm_job_list_start (cm_job_list_get_default (), self->job);
  _cm_window_actions_update (self);
}

/* A job on a card of the list, held by the application, kept in the
 * history. */
static void
start_item_job (CmWindow *self,
                CmJob    *job)
{
  cm_job_set_history (job, self->history);
  cm_job_list_start (cm_job_list_get_default (), job);
}

/* Whether the card runs a job of its own already, which it keeps. */
static gboolean
item_is_busy (CmWindow   *self,
              CmCardItem *item)
{
  return cm_job_list_lookup (cm_job_list_get_default (), item) != NULL;
}

/* "Test N Cards" in the card list: a benchmark on each card at once, by
 * the method that writes nothing to it (a scratch file where it is
 * mounted, else reading the raw card), judged on the classes its
 * registers declare. The rows show each job; core lets one card of a bus
 * measure at a time, and the others say they wait. */
void
_cm_window_test_items (CmWindow  *self,
                       GPtrArray *items)
{
  CmProfile profile = g_settings_get_enum (self->settings, "last-profile");
  guint busy = 0;

  for (guint i = 0; i < items->len; i++)
    {
      CmCardItem *item = g_ptr_array_index (items, i);
      CmCardInfo *info = cm_card_item_get_card_info (item);
      g_auto(GStrv) claims = info != NULL ? cm_card_info_dup_declared_classes (info) : NULL;
      CmMethod method = cm_card_item_get_mounted (item) ? CM_METHOD_FILE : CM_METHOD_RAW_READ;
      g_autoptr(CmJob) job = NULL;

      /* A card busy with a job of its own keeps it. */
      if (item_is_busy (self, item))
        {
          busy++;
          continue;
        }
      job = cm_backend_new_job (&cm_job_kind_bench, self->devices, item, method);
      g_object_set (cm_job_get_options (job), "profile", (guint) profile, NULL);
      cm_job_set_claims (job, (const char * const *) claims);
      start_item_job (self, job);
    }
  if (busy > 0)
    {
      g_autofree char *text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                            "%u card is busy with a test already and keeps it.",
                                                            "%u cards are busy with a test already and keep it.", busy),
                                               busy);

      cm_toast_show (GTK_WIDGET (self->toast_overlay), text);
    }
  _cm_window_actions_update (self);
}

static void
confirm_verify_items_cb (CmWindow         *self,
                         const char       *response,
                         AdwMessageDialog *dialog)
{
  GPtrArray *items = g_object_get_data (G_OBJECT (dialog), "cm-items");

  if (g_strcmp0 (response, "verify") != 0)
    return;
  for (guint i = 0; i < items->len; i++)
    {
      CmCardItem *item = g_ptr_array_index (items, i);
      g_autoptr(CmJob) job = NULL;

      /* As the card page's own row builds it: a stopped one of the card
       * carries on. */
      if (item_is_busy (self, item) || (job = cm_verify_row_new_job (item, TRUE)) == NULL)
        continue;
      start_item_job (self, job);
    }
  cm_card_list_page_show_running (self->card_list_page, items);
  _cm_window_actions_update (self);
}

static void
confirm_wear_items_cb (CmWindow         *self,
                       const char       *response,
                       AdwMessageDialog *dialog)
{
  GPtrArray *items = g_object_get_data (G_OBJECT (dialog), "cm-items");
  CmMakerForm *form = CM_MAKER_FORM (adw_message_dialog_get_extra_child (dialog));

  if (g_strcmp0 (response, "wear") != 0 || !cm_maker_form_get_valid (form))
    return;
  for (guint i = 0; i < items->len; i++)
    {
      CmCardItem *item = g_ptr_array_index (items, i);
      g_autoptr(CmJob) job = NULL;

      /* As the card page's own row builds it. */
      if (item_is_busy (self, item) ||
          (job = cm_wear_row_new_job (item, TRUE, cm_maker_form_get_maker_bytes (form))) == NULL)
        continue;
      start_item_job (self, job);
    }
  cm_card_list_page_show_running (self->card_list_page, items);
  _cm_window_actions_update (self);
}

/* One card's line in the question for several: what happens to it, or
 * why it is skipped. */
static void
append_item_line (GString    *body,
                  CmCardItem *item,
                  const char *path,
                  gboolean    device,
                  const char *why_not)
{
  g_autofree char *size = g_format_size (cm_card_item_get_size (item));

  g_string_append (body, "\n• ");
  if (path == NULL)
    /* Translators: a card a verify skips, and why: "Loop device (/dev/loop0): This disk holds…" */
    g_string_append_printf (body, _("%s (%s): skipped. %s"), cm_card_item_get_name (item),
                            cm_card_item_get_device (item) ?: "", why_not);
  else if (device)
    /* Translators: "SanDisk Ultra (/dev/sdb, 32.0 GB): everything on it is erased" */
    g_string_append_printf (body, _("%s (%s, %s): everything on it is erased"), cm_card_item_get_name (item),
                            path, size);
  else
    /* Translators: "SanDisk Ultra (/media/pi/CARD): its free space is filled with test files; files stay" */
    g_string_append_printf (body, _("%s (%s): its free space is filled with test files; your files stay"),
                            cm_card_item_get_name (item), path);
}

/* The one question for several cards, @body naming each: Cancel, or
 * @response labelled @label (red when @erases), which @callback takes,
 * with the cards as the dialog's "cm-items". */
static AdwMessageDialog *
ask_for_items (CmWindow   *self,
               GPtrArray  *items,
               const char *heading,
               const char *body,
               const char *response,
               const char *label,
               gboolean    erases,
               GCallback   callback)
{
  AdwMessageDialog *dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), heading, body));

  adw_message_dialog_add_responses (dialog, "cancel", _("_Cancel"), response, label, NULL);
  adw_message_dialog_set_response_appearance (dialog, response, erases ? ADW_RESPONSE_DESTRUCTIVE : ADW_RESPONSE_SUGGESTED);
  adw_message_dialog_set_default_response (dialog, "cancel");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_object_set_data_full (G_OBJECT (dialog), "cm-items", g_ptr_array_ref (items), (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect_object (dialog, "response", callback, self, G_CONNECT_SWAPPED);
  return dialog;
}

/* "Verify N Cards…": one question for every card, naming each and what
 * happens to it; a card that is erased makes the answer red. */
void
_cm_window_verify_items (CmWindow  *self,
                         GPtrArray *items)
{
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *heading = NULL;
  gboolean any_erased = FALSE;
  guint n = 0;

  for (guint i = 0; i < items->len; i++)
    {
      CmCardItem *item = g_ptr_array_index (items, i);
      const char *why_not = NULL;
      gboolean device;
      const char *path = cm_card_item_get_verify_path (item, &device, &why_not);

      append_item_line (body, item, path, device, why_not);
      any_erased |= path != NULL && device;
      n += path != NULL;
    }
  if (n == 0)
    {
      cm_toast_show (GTK_WIDGET (self->toast_overlay), _("None of these can be verified."));
      return;
    }
  g_string_prepend (body, _("Each card is written and read back, all at once. A large card takes hours; you can stop any of them and carry on later.\n"));
  heading = any_erased ? g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Erase and Verify %u Card?",
                                                       "Erase and Verify %u Cards?", n), n)
                       : g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Verify %u Card?", "Verify %u Cards?", n), n);
  gtk_window_present (GTK_WINDOW (ask_for_items (self, items, heading, body->str, "verify",
                                                 any_erased ? _("_Erase and Verify") : _("_Verify"), any_erased,
                                                 G_CALLBACK (confirm_verify_items_cb))));
}

/* "Wear Test N Cards…": one red question naming every card, with the
 * maker's endurance (the same for every card of the batch) to set the
 * results beside. */
void
_cm_window_wear_items (CmWindow  *self,
                       GPtrArray *items)
{
  g_autoptr(GString) body = g_string_new (NULL);
  g_autofree char *heading = NULL;
  AdwMessageDialog *dialog;
  guint n = 0;

  for (guint i = 0; i < items->len; i++)
    {
      CmCardItem *item = g_ptr_array_index (items, i);
      const char *why_not = NULL;
      const char *device = cm_card_item_get_wear_device (item, &why_not);

      append_item_line (body, item, device, TRUE, why_not);
      n += device != NULL;
    }
  if (n == 0)
    {
      cm_toast_show (GTK_WIDGET (self->toast_overlay), _("None of these can be wear-tested: a wear test needs a whole, unmounted card."));
      return;
    }
  g_string_prepend (body, _("Each card is written whole and read back, round after round, all at once, until you stop it or "
                            "half of it stops keeping data: the test wears the cards out. You can stop any of them and "
                            "carry on later.\n"));
  heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Erase and Wear Out %u Card?",
                                          "Erase and Wear Out %u Cards?", n), n);
  dialog = ask_for_items (self, items, heading, body->str, "wear", _("_Erase and Start"), TRUE,
                          G_CALLBACK (confirm_wear_items_cb));
  cm_maker_form_attach (CM_MAKER_FORM (cm_maker_form_new ()), dialog, "wear", NULL);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
confirm_write_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  CmWindow         *self)
{
  if (g_strcmp0 (response, "write") == 0 && self->can_start)
    really_start (self);
}

void
cm_window_start_test (CmWindow *self)
{
  CmCardPage *page;
  GtkWidget *dialog;

  g_return_if_fail (CM_IS_WINDOW (self));

  /* Test Again on a saved result: its card, as it was tested. */
  if (_cm_window_get_visible_page (self) == CM_WINDOW_PAGE_SAVED)
    {
      gboolean bench = _cm_window_get_visible_result (self) != NULL &&
                       cm_job_kind_measures_speed (cm_result_get_kind (_cm_window_get_visible_result (self)));

      if (!open_saved_card (self))
        {
          g_autofree char *why_not = NULL;

          /* Its reader's page opened: a job of the card holds it, or
           * another card is in the reader. */
          if (_cm_window_get_visible_page (self) == CM_WINDOW_PAGE_CARD)
            why_not = dup_again_reason (self);
          if (why_not == NULL)
            why_not = g_strdup (_cm_window_get_visible_page (self) == CM_WINDOW_PAGE_CARD
                                ? _("This is another card than the one of that result: nothing was started on it.")
                                : _("The card of this result is not connected."));
          cm_toast_show (GTK_WIDGET (self->toast_overlay), why_not);
          return;
        }
      /* Another kind started (or asked to) on the card's page. */
      if (!bench)
        return;
    }
  page = self->card_page;
  if (page == NULL)
    {
      cm_toast_show (GTK_WIDGET (self->toast_overlay), _("Pick a card first."));
      return;
    }
  /* One job at a time on a card (the action is off meanwhile), and one
   * benchmark on screen. */
  _cm_window_actions_update (self);
  if (!self->can_start)
    return;

  if (cm_card_page_get_method (page) != CM_METHOD_RAW_WRITE)
    {
      really_start (self);
      return;
    }

  /* The test area, not the whole card: the words say only what is done. */
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Write to This Card?"),
                                   _("The raw test with writes reads parts of the card and writes the same bytes back. If the card is pulled or the computer loses power during the test, files on it can be lost. Back up anything you need first."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "write", _("_Write to Card"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "write", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_write_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Stops the window's benchmark, wherever the window is. */
void
_cm_window_cancel_bench (CmWindow *self)
{
  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  g_cancellable_cancel (self->cancellable);
  cm_job_cancel (self->job);
  if (self->run_page != NULL)
    cm_run_page_set_cancelling (self->run_page);
}

/* Stops the job of the page on screen, and only that one. */
void
cm_window_cancel_test (CmWindow *self)
{
  CmJob *job;

  g_return_if_fail (CM_IS_WINDOW (self));

  job = _cm_window_get_shown_job (self);
  if (job == NULL)
    return;
  if (job == self->job)
    _cm_window_cancel_bench (self);
  else
    cm_job_cancel (job);
}

/* The actions. */

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  /* A benchmark that runs goes on: its card's row shows it, and its
   * card's page opens on its run again. */
  _cm_window_go_back (CM_WINDOW (widget));
}

static void
ask_cancel_cb (AdwMessageDialog *dialog,
               const char       *response,
               CmWindow         *self)
{
  if (g_strcmp0 (response, "stop") == 0)
    cm_window_cancel_test (self);
}

/* Stopping the job on screen, by Escape or by its Cancel or Stop button
 * alike: one rule, by what stopping loses. A benchmark's figures are
 * thrown away, so that is asked; a verify carries on later, a capacity
 * check puts the card's data back and a wear test keeps its rounds, so
 * they stop at once. */
static void
ask_cancel_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  CmJob *job = _cm_window_get_shown_job (self);
  GtkWidget *dialog;

  if (job == NULL)
    return;
  if (job != self->job)
    {
      cm_window_cancel_test (self);
      return;
    }

  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Stop the Test?"),
                                   _("The figures measured so far are thrown away."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "keep", _("_Keep Testing"),
                                    "stop", _("_Stop"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "keep");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "keep");
  g_signal_connect_object (dialog, "response", G_CALLBACK (ask_cancel_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

/* Escape: ends selection mode; during a run, stops it as its Cancel
 * button does (asking first for a benchmark); else goes back, as the
 * back button would (from History, a result, Compare). */
static void
escape_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);

  /* Selecting cards: Escape ends it, as in GNOME's apps. */
  if (_cm_window_get_visible_page (self) == CM_WINDOW_PAGE_CARDS &&
      cm_card_list_page_get_selection_mode (self->card_list_page))
    cm_card_list_page_set_selection_mode (self->card_list_page, FALSE);
  else if (_cm_window_get_shown_job (CM_WINDOW (widget)) != NULL)
    ask_cancel_action (widget, "win.ask-cancel", NULL);
  else
    gtk_widget_activate_action (widget, "win.back", NULL);
}

static void
show_history_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);

  if (self->cancellable == NULL)
    _cm_window_show_history (self);
}

static void
folder_chosen_cb (CmWindow             *self,
                  int                   response,
                  GtkFileChooserNative *native)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      path = file != NULL ? g_file_get_path (file) : NULL;
      /* The window's own action (cm-window.c), as a drop or a script. */
      if (path != NULL)
        gtk_widget_activate_action (GTK_WIDGET (self), "win.open-path", "s", path);
      else
        cm_toast_show (GTK_WIDGET (self->toast_overlay), _("That folder is not on a local disk. Pick a folder on the card itself."));
    }

  g_object_unref (native);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *param)
{
  GtkFileChooserNative *native;

  native = gtk_file_chooser_native_new (_("Choose a Folder to Test"), GTK_WINDOW (widget),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Test This Folder"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  g_signal_connect_object (native, "response", G_CALLBACK (folder_chosen_cb), widget, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

static void
export_chosen_cb (CmWindow             *self,
                  int                   response,
                  GtkFileChooserNative *native)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  CmResult *result = g_object_get_data (G_OBJECT (native), "cm-result");

  if (response == GTK_RESPONSE_ACCEPT && result != NULL)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (native));
      if (!cm_result_save (result, file, &error))
        cm_toast_show (GTK_WIDGET (self->toast_overlay), error->message);
      else
        cm_toast_show (GTK_WIDGET (self->toast_overlay), _("Result saved."));
    }

  g_object_unref (native);
}

static void
export_json_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  GtkFileChooserNative *native;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y-%m-%d-%H%M");
  g_autofree char *name = g_strdup_printf ("cardmark-%s.json", stamp);

  CmResult *result = _cm_window_get_visible_result (self);

  if (result == NULL)
    return;

  native = gtk_file_chooser_native_new (_("Export Result"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (native), TRUE);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (native), name);
  g_object_set_data_full (G_OBJECT (native), "cm-result", g_object_ref (result), g_object_unref);
  g_signal_connect_object (native, "response", G_CALLBACK (export_chosen_cb), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (native));
}

/* After a check that erased the card: back to its page, whose Erase and
 * Format row asks (and refuses, saying why, where it may not). */
static void
erase_format_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  CmCardPage *page = erased_card_page (self);

  if (page == NULL)
    return;
  _cm_window_show_page (self, CM_WINDOW_PAGE_CARD);
  cm_card_page_erase_and_format (page);
}

static void
copy_summary_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  g_autofree char *text = NULL;

  CmResult *result = _cm_window_get_visible_result (self);

  if (result == NULL)
    return;

  text = cm_summary_dup_text (result);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  cm_toast_show (GTK_WIDGET (self->toast_overlay), _("Summary copied."));
}

/* The shortcuts here are listed in data/ui/help-overlay.ui; Start's
 * (Ctrl+Return) is the application's, in cm-application.c. */
void
_cm_window_class_actions_init (CmWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "win.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_install_action (widget_class, "win.export-json", NULL, export_json_action);
  gtk_widget_class_install_action (widget_class, "win.copy-summary", NULL, copy_summary_action);
  gtk_widget_class_install_action (widget_class, "win.ask-cancel", NULL, ask_cancel_action);
  gtk_widget_class_install_action (widget_class, "win.escape", NULL, escape_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.escape", NULL);
  gtk_widget_class_install_action (widget_class, "win.show-history", NULL, show_history_action);
  gtk_widget_class_install_action (widget_class, "win.erase-format", NULL, erase_format_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.choose-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.export-json", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.copy-summary", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_CONTROL_MASK, "win.show-history", NULL);
}

/* The actions of an instance: the settings' own, kept in step with the
 * setting both ways. Needs self->settings. */
void
_cm_window_actions_init (CmWindow *self)
{
  g_autoptr(GAction) loop_action = g_settings_create_action (self->settings, "show-loop-devices");

  g_action_map_add_action (G_ACTION_MAP (self), loop_action);
}
