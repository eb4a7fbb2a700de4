/* cm-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window walks through four pages: the card list, one card,
 * the running test and its result. A run is a bench (src/core): the
 * window starts it with its cancellable, keeps the computer awake, and
 * navigates; the run page follows the bench's runner.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <gio/gunixmounts.h>
#include <sys/stat.h>

#include "cm-backend.h"
#include "cm-card-list-page.h"
#include "cm-card-page.h"
#include "cm-history-page.h"
#include "cm-journal-watch.h"
#include "cm-summary.h"
#include "cm-result-page.h"
#include "cm-run-page.h"
#include "cm-toast.h"

#include "cm-window.h"

struct _CmWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  GListModel           *devices;
  CmResult             *last_result;
  CmHistory            *history;
  char                 *before_history;  /* the page History was opened from */

  /* The run in progress, if any. */
  GCancellable         *cancellable;
  CmBench              *bench;
  CmCardItem           *run_item;
  guint                 inhibit_cookie;
  gboolean              card_removed;

  CmJournalWatch       *journal_watch;   /* offers to undo an interrupted capacity check */

  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkButton            *back_button;
  GtkStack             *stack;
  CmCardListPage       *card_list_page;
  AdwStatusPage        *error_page;
};

G_DEFINE_FINAL_TYPE (CmWindow, cm_window, ADW_TYPE_APPLICATION_WINDOW)

static void update_actions (CmWindow *self);
static CmResult *visible_result (CmWindow *self);


static void
show_page (CmWindow   *self,
           const char *name,
           GtkWidget  *page)
{
  GtkWidget *old = gtk_stack_get_child_by_name (self->stack, name);

  if (page != NULL && old != page)
    {
      if (old != NULL)
        gtk_stack_remove (self->stack, old);
      gtk_stack_add_named (self->stack, page, name);
    }

  gtk_stack_set_visible_child_name (self->stack, name);
  update_actions (self);
}

static void
show_error (CmWindow   *self,
            const char *title,
            const char *description)
{
  adw_status_page_set_title (self->error_page, title);
  adw_status_page_set_description (self->error_page, description);
  show_page (self, "error", NULL);
}

static CmCardPage *
get_card_page (CmWindow *self)
{
  GtkWidget *page = gtk_stack_get_child_by_name (self->stack, "card");

  return page != NULL ? CM_CARD_PAGE (page) : NULL;
}

static void
visible_page_changed_cb (CmWindow   *self,
                         GParamSpec *pspec,
                         GtkStack   *stack)
{
  const char *name = gtk_stack_get_visible_child_name (stack);
  CmCardPage *card_page = get_card_page (self);
  const char *card = card_page != NULL ? cm_card_item_get_name (cm_card_page_get_item (card_page)) : NULL;

  if (g_strcmp0 (name, "saved") == 0 || (g_strcmp0 (name, "result") == 0 && card == NULL))
    {
      g_autofree char *title = cm_summary_dup_card_title (visible_result (self));

      adw_window_title_set_title (self->window_title, title);
      adw_window_title_set_subtitle (self->window_title,
                                     g_strcmp0 (name, "saved") == 0 ? _("Saved result") : _("Result"));
    }
  else if (g_strcmp0 (name, "history") == 0)
    {
      adw_window_title_set_title (self->window_title, _("History"));
      adw_window_title_set_subtitle (self->window_title, _("Saved results"));
    }
  else if (g_strcmp0 (name, "cards") == 0 || card == NULL)
    {
      adw_window_title_set_title (self->window_title, _("CardMark"));
      adw_window_title_set_subtitle (self->window_title, _("Pick a card to test"));
    }
  else
    {
      adw_window_title_set_title (self->window_title, card);
      if (g_strcmp0 (name, "run") == 0)
        adw_window_title_set_subtitle (self->window_title, _("Testing"));
      else if (g_strcmp0 (name, "result") == 0)
        adw_window_title_set_subtitle (self->window_title, _("Result"));
      else
        adw_window_title_set_subtitle (self->window_title, NULL);
    }

  update_actions (self);
}

/* The result on screen: the run just finished, or one from the history. */
static CmResult *
visible_result (CmWindow *self)
{
  GtkWidget *page = gtk_stack_get_visible_child (self->stack);

  return CM_IS_RESULT_PAGE (page) ? cm_result_page_get_result (CM_RESULT_PAGE (page)) : NULL;
}

static void
update_actions (CmWindow *self)
{
  const char *name = gtk_stack_get_visible_child_name (self->stack);
  gboolean running = self->cancellable != NULL;
  gboolean has_result = visible_result (self) != NULL;
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  CmCardPage *card_page = get_card_page (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.back",
                                 !running && g_strcmp0 (name, "cards") != 0);
  gtk_widget_set_visible (GTK_WIDGET (self->back_button), !running && g_strcmp0 (name, "cards") != 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-json", has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-summary", has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-folder", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.show-history", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.ask-cancel", running);

  if (app != NULL)
    {
      GAction *start = g_action_map_lookup_action (G_ACTION_MAP (app), "start-test");
      GAction *cancel = g_action_map_lookup_action (G_ACTION_MAP (app), "cancel-test");

      if (G_IS_SIMPLE_ACTION (start))
        g_simple_action_set_enabled (G_SIMPLE_ACTION (start),
                                     !running && card_page != NULL
                                     && !cm_card_page_get_checking_capacity (card_page)
                                     && (g_strcmp0 (name, "card") == 0 || g_strcmp0 (name, "result") == 0));
      if (G_IS_SIMPLE_ACTION (cancel))
        g_simple_action_set_enabled (G_SIMPLE_ACTION (cancel), running);
    }
}

static void
open_item (CmWindow   *self,
           CmCardItem *item)
{
  CmCardPage *page = cm_card_page_new (item);

  g_signal_connect_object (page, "notify::checking-capacity", G_CALLBACK (update_actions), self,
                           G_CONNECT_SWAPPED);
  cm_card_page_set_profile (page, g_settings_get_enum (self->settings, "last-profile"));
  cm_card_page_set_method (page, g_settings_get_enum (self->settings, "last-method"));
  show_page (self, "card", GTK_WIDGET (page));
}

static void
item_activated_cb (CmWindow       *self,
                   CmCardItem     *item,
                   CmCardListPage *page)
{
  if (self->cancellable == NULL)
    open_item (self, item);
}

/* The run: the bench does it; the window starts it, keeps the computer
 * awake meanwhile, and shows the page for how it went. */

static void
end_run (CmWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (self->inhibit_cookie != 0 && app != NULL)
    gtk_application_uninhibit (app, self->inhibit_cookie);
  self->inhibit_cookie = 0;

  if (self->bench != NULL)
    g_signal_handlers_disconnect_by_data (self->bench, self);
  g_clear_object (&self->bench);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_item);
}

static void
bench_started_cb (CmWindow *self,
                  CmRunner *runner,
                  CmBench  *bench)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  CmCardPage *card_page = get_card_page (self);
  g_auto(GStrv) claims = card_page != NULL ? cm_card_page_dup_claims (card_page) : NULL;
  CmRunPage *run_page;

  run_page = cm_run_page_new (cm_card_item_get_name (self->run_item), (const char * const *) claims);
  cm_run_page_follow (run_page, runner);
  show_page (self, "run", GTK_WIDGET (run_page));

  if (app != NULL)
    self->inhibit_cookie = gtk_application_inhibit (app, GTK_WINDOW (self),
                                                    GTK_APPLICATION_INHIBIT_SUSPEND,
                                                    _("A card is being tested"));
}

static void
show_removed (CmWindow *self)
{
  GtkWidget *card_page = gtk_stack_get_child_by_name (self->stack, "card");

  if (card_page != NULL)
    gtk_stack_remove (self->stack, card_page);
  show_error (self, _("The Card Was Removed"),
              _("The card went away during the test, so there is no result. Put it back, wait until it appears in the list, and start the test again."));
}

static void
show_failure (CmWindow *self,
              GError   *error,
              gboolean  started)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (started)
        show_error (self, _("The Test Could Not Finish"), error->message);
      else
        {
          show_page (self, "card", NULL);
          cm_toast_show (GTK_WIDGET (self->toast_overlay), error->message);
        }
      return;
    }

  show_page (self, "card", NULL);
  cm_toast_show (GTK_WIDGET (self->toast_overlay),
                 started ? _("Test cancelled. Nothing was left behind on the card.") : _("Test cancelled."));
}

/* Every finished run is kept; when that fails the result is still shown
 * and can be exported by hand. */
static void
tell_save_error (CmWindow *self,
                 CmBench  *bench)
{
  const GError *error = cm_bench_get_save_error (bench);
  g_autofree char *message = NULL;

  if (error == NULL)
    return;

  message = g_strdup_printf (_("The result could not be kept in the history: %s. Use Export to save it."),
                             error->message);
  cm_toast_show (GTK_WIDGET (self->toast_overlay), message);
}

static void
run_done_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(CmWindow) self = user_data;
  g_autoptr(CmBench) bench = g_object_ref (CM_BENCH (object));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_bench_run_finish (bench, res, &error);
  gboolean started = cm_bench_get_runner (bench) != NULL;
  gboolean removed = self->card_removed
                     || g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED);

  end_run (self);

  if (removed && started)
    show_removed (self);
  else if (result == NULL)
    show_failure (self, error, started);
  else
    {
      g_set_object (&self->last_result, result);
      tell_save_error (self, bench);
      show_page (self, "result", GTK_WIDGET (cm_result_page_new (result)));
    }
}

static void
really_start (CmWindow *self)
{
  CmCardPage *page = get_card_page (self);
  g_auto(GStrv) claims = NULL;

  g_assert (page != NULL);
  g_assert (self->cancellable == NULL);

  g_settings_set_enum (self->settings, "last-profile", cm_card_page_get_profile (page));
  g_settings_set_enum (self->settings, "last-method", cm_card_page_get_method (page));

  self->cancellable = g_cancellable_new ();
  self->card_removed = FALSE;
  self->run_item = g_object_ref (cm_card_page_get_item (page));
  claims = cm_card_page_dup_claims (page);

  self->bench = cm_backend_new_bench (self->devices, self->run_item, cm_card_page_get_method (page));
  cm_bench_set_profile (self->bench, cm_card_page_get_profile (page));
  cm_bench_set_claims (self->bench, (const char * const *) claims);
  cm_bench_set_brand (self->bench, cm_card_page_get_brand (page));
  cm_bench_set_history (self->bench, self->history);
  g_signal_connect_object (self->bench, "started", G_CALLBACK (bench_started_cb), self, G_CONNECT_SWAPPED);
  update_actions (self);

  cm_bench_run_async (self->bench, self->cancellable, run_done_cb, g_object_ref (self));
}

static void
confirm_write_cb (AdwMessageDialog *dialog,
                  const char       *response,
                  CmWindow         *self)
{
  if (g_strcmp0 (response, "write") == 0 && self->cancellable == NULL && get_card_page (self) != NULL)
    really_start (self);
}

void
cm_window_start_test (CmWindow *self)
{
  CmCardPage *page;
  GtkWidget *dialog;

  g_return_if_fail (CM_IS_WINDOW (self));

  page = get_card_page (self);
  /* One thing at a time on a card: the action is off meanwhile. */
  if (self->cancellable != NULL || (page != NULL && cm_card_page_get_checking_capacity (page)))
    return;
  if (page == NULL)
    {
      cm_toast_show (GTK_WIDGET (self->toast_overlay), _("Pick a card first."));
      return;
    }

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

void
cm_window_cancel_test (CmWindow *self)
{
  GtkWidget *page;

  g_return_if_fail (CM_IS_WINDOW (self));

  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

  g_cancellable_cancel (self->cancellable);
  page = gtk_stack_get_child_by_name (self->stack, "run");
  if (page != NULL)
    cm_run_page_set_cancelling (CM_RUN_PAGE (page));
}

/* The item in @model for the same card or folder as @item (which may be
 * @item itself), or NULL. */
static CmCardItem *
find_item (GListModel *model,
           CmCardItem *item)
{
  guint n = g_list_model_get_n_items (model);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmCardItem) other = g_list_model_get_item (model, i);

      if (other == item || (cm_card_item_get_kind (item) == CM_CARD_KIND_DEVICE &&
                            g_strcmp0 (cm_card_item_get_device (other), cm_card_item_get_device (item)) == 0))
        return other;  /* the model keeps its reference */
    }

  return NULL;
}

static void
devices_changed_cb (CmWindow   *self,
                    guint       position,
                    guint       removed,
                    guint       added,
                    GListModel *model)
{
  CmCardPage *page = get_card_page (self);
  CmCardItem *fresh;

  /* The card on the card page changed (mounted, unmounted): the page
   * follows, so that it never offers what no longer fits. */
  fresh = page != NULL ? find_item (model, cm_card_page_get_item (page)) : NULL;
  if (fresh != NULL)
    cm_card_page_update_item (page, fresh);

  if (removed == 0)
    return;

  /* A card pulled mid-run ends the run with a message of its own. */
  if (self->run_item != NULL
      && cm_card_item_get_kind (self->run_item) == CM_CARD_KIND_DEVICE
      && find_item (model, self->run_item) == NULL)
    {
      self->card_removed = TRUE;
      cm_window_cancel_test (self);
      return;
    }

  /* A card that went away takes its page with it, so that Back after an
   * error or a result never shows a card that is not there. */
  if (self->cancellable == NULL && page != NULL
      && cm_card_item_get_kind (cm_card_page_get_item (page)) == CM_CARD_KIND_DEVICE
      && fresh == NULL)
    {
      if (g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "card") == 0)
        {
          show_page (self, "cards", NULL);
          cm_toast_show (GTK_WIDGET (self->toast_overlay), _("The card was removed."));
        }
      gtk_stack_remove (self->stack, GTK_WIDGET (page));
      update_actions (self);
    }
}

/* Actions. */

static void
back_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  const char *name = gtk_stack_get_visible_child_name (self->stack);

  if (self->cancellable != NULL)
    return;

  if (g_strcmp0 (name, "saved") == 0)
    {
      show_page (self, "history", NULL);
      return;
    }

  if (g_strcmp0 (name, "history") == 0)
    {
      GtkWidget *history = gtk_stack_get_child_by_name (self->stack, "history");
      g_autofree char *before = g_steal_pointer (&self->before_history);

      if (cm_history_page_go_back (CM_HISTORY_PAGE (history)))
        {
          self->before_history = g_steal_pointer (&before);
          return;
        }
      if (before != NULL && gtk_stack_get_child_by_name (self->stack, before) != NULL)
        {
          show_page (self, before, NULL);
          return;
        }
      show_page (self, "cards", NULL);
      return;
    }

  if ((g_strcmp0 (name, "result") == 0 || g_strcmp0 (name, "error") == 0) && get_card_page (self) != NULL)
    show_page (self, "card", NULL);
  else
    show_page (self, "cards", NULL);
}

static void
open_result_cb (CmWindow      *self,
                CmResult      *result,
                CmHistoryPage *history)
{
  show_page (self, "saved", GTK_WIDGET (cm_result_page_new (result)));
}

static void
ask_cancel_cb (AdwMessageDialog *dialog,
               const char       *response,
               CmWindow         *self)
{
  if (g_strcmp0 (response, "stop") == 0)
    cm_window_cancel_test (self);
}

/* Escape during a run: stopping throws the run away, so it is asked. */
static void
ask_cancel_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  GtkWidget *dialog;

  if (self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable))
    return;

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

static void
show_history_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  const char *name = gtk_stack_get_visible_child_name (self->stack);
  GtkWidget *page = gtk_stack_get_child_by_name (self->stack, "history");

  if (self->cancellable != NULL)
    return;

  if (g_strcmp0 (name, "history") != 0)
    {
      g_free (self->before_history);
      self->before_history = g_strdup (name);
    }

  if (page == NULL)
    {
      page = GTK_WIDGET (cm_history_page_new (self->history));
      g_signal_connect_object (page, "open-result", G_CALLBACK (open_result_cb), self, G_CONNECT_SWAPPED);
    }
  else
    cm_history_page_reload (CM_HISTORY_PAGE (page));
  show_page (self, "history", page);
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
      if (path != NULL)
        cm_window_open_path (self, path);
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

  CmResult *result = visible_result (self);

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

static void
copy_summary_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  CmWindow *self = CM_WINDOW (widget);
  g_autofree char *text = NULL;

  CmResult *result = visible_result (self);

  if (result == NULL)
    return;

  text = cm_result_dup_text_summary (result);
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  cm_toast_show (GTK_WIDGET (self->toast_overlay), _("Summary copied."));
}

/* GObject. */

static gboolean
cm_window_close_request (GtkWindow *window)
{
  CmWindow *self = CM_WINDOW (window);
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  /* Closing mid-run cancels; the runner removes its scratch file. */
  cm_window_cancel_test (self);

  return GTK_WINDOW_CLASS (cm_window_parent_class)->close_request (window);
}

static void
cm_window_dispose (GObject *object)
{
  CmWindow *self = CM_WINDOW (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  if (self->devices != NULL)
    g_signal_handlers_disconnect_by_func (self->devices, devices_changed_cb, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_WINDOW);

  g_clear_object (&self->journal_watch);
  g_clear_object (&self->devices);
  g_clear_object (&self->last_result);
  g_clear_object (&self->history);
  g_clear_pointer (&self->before_history, g_free);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cm_window_parent_class)->dispose (object);
}

static void
cm_window_class_init (CmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cm_window_dispose;
  window_class->close_request = cm_window_close_request;

  g_type_ensure (CM_TYPE_CARD_LIST_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CmWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, card_list_page);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, error_page);
  gtk_widget_class_bind_template_callback (widget_class, item_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, visible_page_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.back", NULL, back_action);
  gtk_widget_class_install_action (widget_class, "win.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_install_action (widget_class, "win.export-json", NULL, export_json_action);
  gtk_widget_class_install_action (widget_class, "win.copy-summary", NULL, copy_summary_action);
  gtk_widget_class_install_action (widget_class, "win.ask-cancel", NULL, ask_cancel_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.ask-cancel", NULL);
  gtk_widget_class_install_action (widget_class, "win.show-history", NULL, show_history_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "win.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.choose-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.export-json", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.copy-summary", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_CONTROL_MASK, "win.show-history", NULL);
}

static void
show_loop_changed_cb (CmWindow   *self,
                      const char *key,
                      GSettings  *settings)
{
  cm_backend_set_show_loop (self->devices, g_settings_get_boolean (settings, key));
}

static void
cm_window_init (CmWindow *self)
{
  g_autoptr(GAction) loop_action = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) devices = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APP_ID);
  self->history = cm_history_new_default ();
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  loop_action = g_settings_create_action (self->settings, "show-loop-devices");
  g_action_map_add_action (G_ACTION_MAP (self), loop_action);

  g_signal_connect_object (self->settings, "changed::show-loop-devices",
                           G_CALLBACK (show_loop_changed_cb), self, G_CONNECT_SWAPPED);

  if (DEVELOPMENT)
    gtk_widget_add_css_class (GTK_WIDGET (self), "devel");

  devices = cm_backend_dup_devices (g_settings_get_boolean (self->settings, "show-loop-devices"), &error);
  if (devices == NULL)
    {
      cm_toast_show (GTK_WIDGET (self->toast_overlay), error->message);
      devices = G_LIST_MODEL (g_list_store_new (CM_TYPE_CARD_ITEM));
    }
  cm_window_set_devices (self, devices);
  visible_page_changed_cb (self, NULL, self->stack);
}

CmWindow *
cm_window_new (GtkApplication *application)
{
  return g_object_new (CM_TYPE_WINDOW, "application", application, NULL);
}

void
cm_window_set_devices (CmWindow   *self,
                       GListModel *devices)
{
  g_return_if_fail (CM_IS_WINDOW (self));
  g_return_if_fail (G_IS_LIST_MODEL (devices));

  if (self->devices != NULL)
    g_signal_handlers_disconnect_by_func (self->devices, devices_changed_cb, self);
  g_set_object (&self->devices, devices);
  g_signal_connect_object (devices, "items-changed", G_CALLBACK (devices_changed_cb), self, G_CONNECT_SWAPPED);
  cm_card_list_page_set_model (self->card_list_page, devices);
  if (self->journal_watch == NULL)
    self->journal_watch = cm_journal_watch_new (GTK_WINDOW (self), GTK_WIDGET (self->toast_overlay), devices);
  else
    cm_journal_watch_set_devices (self->journal_watch, devices);
}

CmJournalWatch *
cm_window_get_journal_watch (CmWindow *self)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  return self->journal_watch;
}

static char *
find_mount_point (const char *device)
{
  GList *mounts = g_unix_mounts_get (NULL);
  char *found = NULL;

  for (GList *l = mounts; l != NULL; l = l->next)
    {
      const char *dev = g_unix_mount_get_device_path (l->data);

      /* The card itself, or its first partition (sdb1, mmcblk0p1). */
      if (found == NULL && g_str_has_prefix (dev, device)
          && (dev[strlen (device)] == '\0' || g_ascii_isdigit (dev[strlen (device)])
              || dev[strlen (device)] == 'p'))
        found = g_strdup (g_unix_mount_get_mount_path (l->data));
    }

  g_list_free_full (mounts, (GDestroyNotify) g_unix_mount_free);
  return found;
}

/* Opens the page of a card given by its device, or of a folder. Returns
 * FALSE, after telling the user why, when @path is neither. */
gboolean
cm_window_open_path (CmWindow   *self,
                     const char *path)
{
  g_autoptr(CmCardItem) item = NULL;
  struct stat st;
  guint n;

  g_return_val_if_fail (CM_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (self->cancellable != NULL)
    {
      cm_toast_show (GTK_WIDGET (self->toast_overlay), _("A test is running. Cancel it first to test another card."));
      return FALSE;
    }

  n = g_list_model_get_n_items (self->devices);
  for (guint i = 0; i < n && item == NULL; i++)
    {
      g_autoptr(CmCardItem) other = g_list_model_get_item (self->devices, i);

      if (g_strcmp0 (cm_card_item_get_device (other), path) == 0
          || g_strcmp0 (cm_card_item_get_mount_point (other), path) == 0)
        item = g_steal_pointer (&other);
    }

  if (item == NULL && stat (path, &st) == 0)
    {
      if (S_ISBLK (st.st_mode))
        {
          g_autofree char *name = g_path_get_basename (path);
          g_autofree char *mount_point = find_mount_point (path);

          item = cm_card_item_new_device (path, name, 0, NULL, mount_point);
        }
      else if (S_ISDIR (st.st_mode))
        item = cm_card_item_new_folder (path);
    }

  if (item == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("%s is not a card or a folder. Give a device such as /dev/mmcblk0, or a folder on the card."), path);

      cm_toast_show (GTK_WIDGET (self->toast_overlay), message);
      return FALSE;
    }

  open_item (self, item);
  return TRUE;
}

gboolean
cm_window_get_running (CmWindow *self)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), FALSE);
  return self->cancellable != NULL;
}

const char *
cm_window_get_page_name (CmWindow *self)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  return gtk_stack_get_visible_child_name (self->stack);
}

GtkWidget *
cm_window_get_page (CmWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  return gtk_stack_get_child_by_name (self->stack, name);
}

CmResult *
cm_window_get_last_result (CmWindow *self)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  return self->last_result;
}
