/* cm-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The main window walks through the pages of CmWindowPage: the card
 * list, one card, the running test and its result, and the history
 * beside them. This file decides which page shows and what Back goes
 * to; the actions and the run they start are in cm-window-actions.c.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <gio/gunixmounts.h>
#include <sys/stat.h>

#include "cm-app-history.h"
#include "cm-accessible.h"
#include "cm-backend.h"
#include "cm-journal-watch.h"
#include "cm-summary.h"
#include "cm-toast.h"

#include "cm-window-private.h"

G_DEFINE_FINAL_TYPE (CmWindow, cm_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_RUNNING,
  PROP_CAN_START,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* The pages. */

/* A document a card's page made (a capacity check's, a verify's, a wear
 * test's): its page, from which Back returns to the card. A check that
 * ends while the user looks at something else does not take them away
 * from it: the card's row keeps the answer, and its Show. */
static void
show_saved_result_cb (CmWindow   *self,
                      CmResult   *result,
                      CmCardPage *page)
{
  if (page != self->card_page || _cm_window_get_visible_page (self) != CM_WINDOW_PAGE_CARD)
    return;
  _cm_window_show_result (self, result);
}

static void
open_item (CmWindow   *self,
           CmCardItem *item)
{
  CmCardPage *page;
  CmJob *job = cm_job_list_lookup (cm_job_list_get_default (), item);

  /* The card whose benchmark runs: its run page again. */
  if (job != NULL && job == self->job && self->run_page != NULL)
    {
      _cm_window_show_page (self, CM_WINDOW_PAGE_RUN);
      return;
    }

  page = cm_card_page_new (item);
  g_signal_connect_object (page, "notify::job", G_CALLBACK (_cm_window_actions_update), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (page, "show-result", G_CALLBACK (show_saved_result_cb), self, G_CONNECT_SWAPPED);
  /* A job started from the card's page before goes on: the page shows it
   * again. */
  if (job != NULL)
    cm_card_page_follow_job (page, job);
  cm_card_page_set_profile (page, g_settings_get_enum (self->settings, "last-profile"));
  cm_card_page_set_method (page, g_settings_get_enum (self->settings, "last-method"));
  _cm_window_replace_page (self, CM_WINDOW_PAGE_CARD, GTK_WIDGET (page));
  _cm_window_show_page (self, CM_WINDOW_PAGE_CARD);
}

static void
item_activated_cb (CmWindow       *self,
                   CmCardItem     *item,
                   CmCardListPage *page)
{
  open_item (self, item);
}

static void visible_page_changed_cb (CmWindow   *self,
                                     GParamSpec *pspec,
                                     GtkStack   *stack);

/* A run just finished is its kind's ("Capacity check"); a benchmark is
 * @fallback. */
static const char *
result_subtitle (CmWindow   *self,
                 const char *fallback)
{
  CmResult *result = _cm_window_get_visible_result (self);
  const char *kind = result != NULL ? cm_result_get_kind (result) : NULL;

  if (cm_job_kind_measures_speed (kind))
    return fallback;
  return cm_job_kind_get_title (kind);
}

/* The title says where one is: the card and what is being done with it,
 * a result's card, or the history. */
static void
visible_page_changed_cb (CmWindow   *self,
                         GParamSpec *pspec,
                         GtkStack   *stack)
{
  CmWindowPage page = _cm_window_get_visible_page (self);
  const char *card;

  /* What a page made since it was added (History's rows) too. */
  if (gtk_stack_get_visible_child (stack) != NULL)
    cm_accessible_fix_mnemonics (gtk_stack_get_visible_child (stack));
  card = self->card_page != NULL ? cm_card_item_get_name (cm_card_page_get_item (self->card_page)) : NULL;

  /* The run page is the benchmark's card, whichever card page is made. */
  if (page == CM_WINDOW_PAGE_RUN && self->run_item != NULL)
    card = cm_card_item_get_name (self->run_item);

  if (page == CM_WINDOW_PAGE_SAVED || (page == CM_WINDOW_PAGE_RESULT && card == NULL))
    {
      g_autofree char *title = cm_summary_dup_card_title (_cm_window_get_visible_result (self));

      adw_window_title_set_title (self->window_title, title);
      adw_window_title_set_subtitle (self->window_title,
                                     page == CM_WINDOW_PAGE_SAVED ? _("Saved result") : result_subtitle (self, _("Result")));
    }
  else if (page == CM_WINDOW_PAGE_HISTORY &&
           g_strcmp0 (cm_history_page_get_view (self->history_page), "compare") == 0)
    {
      adw_window_title_set_title (self->window_title, _("Compare"));
      adw_window_title_set_subtitle (self->window_title, _("Ticked results side by side"));
    }
  else if (page == CM_WINDOW_PAGE_HISTORY)
    {
      adw_window_title_set_title (self->window_title, _("History"));
      adw_window_title_set_subtitle (self->window_title, _("Saved results"));
    }
  else if (page == CM_WINDOW_PAGE_CARDS || card == NULL)
    {
      adw_window_title_set_title (self->window_title, _("CardMark"));
      adw_window_title_set_subtitle (self->window_title, _("Pick a card to test"));
    }
  else
    {
      adw_window_title_set_title (self->window_title, card);
      if (page == CM_WINDOW_PAGE_RUN)
        adw_window_title_set_subtitle (self->window_title, _("Testing"));
      else if (page == CM_WINDOW_PAGE_RESULT)
        adw_window_title_set_subtitle (self->window_title, result_subtitle (self, _("Result")));
      else
        adw_window_title_set_subtitle (self->window_title, NULL);
    }

  _cm_window_actions_update (self);
}

/* The cards. */

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
  CmCardPage *page = self->card_page;
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
      _cm_window_cancel_bench (self);
      return;
    }

  if (self->cancellable == NULL && page != NULL
      && cm_card_item_get_kind (cm_card_page_get_item (page)) == CM_CARD_KIND_DEVICE
      && fresh == NULL)
    {
      if (_cm_window_get_visible_page (self) == CM_WINDOW_PAGE_CARD)
        {
          _cm_window_show_page (self, CM_WINDOW_PAGE_CARDS);
          cm_toast_show (GTK_WIDGET (self->toast_overlay), _("The card was removed."));
        }
      _cm_window_drop_card_page (self);
    }
}

/* GObject. */

static gboolean
close_window_cb (gpointer data)
{
  gtk_window_close (GTK_WINDOW (data));
  return G_SOURCE_REMOVE;
}

static void
ask_close_cb (AdwMessageDialog *dialog,
              const char       *response,
              CmWindow         *self)
{
  if (g_strcmp0 (response, "stop") != 0)
    return;
  self->close_confirmed = TRUE;
  /* After the dialog, which is transient for the window, has gone. */
  g_idle_add_full (G_PRIORITY_DEFAULT_IDLE, close_window_cb, g_object_ref (self), g_object_unref);
}

static void
ask_close (CmWindow *self)
{
  GListModel *jobs = cm_job_list_get_model (cm_job_list_get_default ());
  g_autoptr(GString) body = g_string_new (_("Closing stops every test that runs:"));
  GtkWidget *dialog;

  /* Each job that runs, by its kind and card, and what a stop does to it. */
  for (guint i = 0; i < g_list_model_get_n_items (jobs); i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (jobs, i);
      g_autofree char *line = NULL;

      if (!cm_job_is_active (job))
        continue;
      line = cm_job_dup_stop_text (job);
      g_string_append_printf (body, "\n• %s", line);
    }
  dialog = adw_message_dialog_new (GTK_WINDOW (self), _("Stop Testing and Close?"), body->str);
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "keep", _("_Keep Testing"),
                                    "stop", _("_Stop and Close"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "stop", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "keep");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "keep");
  g_signal_connect_object (dialog, "response", G_CALLBACK (ask_close_cb), self, 0);
  gtk_window_present (GTK_WINDOW (dialog));
}

static gboolean
cm_window_close_request (GtkWindow *window)
{
  CmWindow *self = CM_WINDOW (window);
  CmJobList *jobs = cm_job_list_get_default ();
  int width, height;

  gtk_window_get_default_size (window, &width, &height);
  g_settings_set_int (self->settings, "window-width", width);
  g_settings_set_int (self->settings, "window-height", height);
  g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));

  /* A job runs: stopping throws away what it measured, so it is asked. */
  if (!self->close_confirmed && cm_job_list_get_busy (jobs))
    {
      ask_close (self);
      return TRUE;
    }

  /* Stopping cancels every job; each holds the application until it
   * has put the card's data back or saved its state. */
  _cm_window_cancel_bench (self);
  cm_job_list_cancel_all (jobs);

  return GTK_WINDOW_CLASS (cm_window_parent_class)->close_request (window);
}

static void
cm_window_dispose (GObject *object)
{
  CmWindow *self = CM_WINDOW (object);

  /* The window goes: its jobs stop (they hold the application until they
   * have ended). */
  _cm_window_cancel_bench (self);
  cm_job_list_cancel_all (cm_job_list_get_default ());
  if (self->job != NULL)
    g_signal_handlers_disconnect_by_data (self->job, self);
  g_clear_object (&self->job);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->run_item);
  if (self->devices != NULL)
    g_signal_handlers_disconnect_by_func (self->devices, devices_changed_cb, self);

  /* The stack owns the pages. */
  self->card_page = NULL;
  self->run_page = NULL;
  self->result_page = NULL;
  self->saved_page = NULL;
  self->history_page = NULL;
  gtk_widget_dispose_template (GTK_WIDGET (self), CM_TYPE_WINDOW);

  g_clear_object (&self->journal_watch);
  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_data (self->jobs, self);
  g_clear_object (&self->jobs);
  g_clear_object (&self->devices);
  g_clear_object (&self->last_result);
  g_clear_object (&self->history);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (cm_window_parent_class)->dispose (object);
}

static void
cm_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  CmWindow *self = CM_WINDOW (object);

  switch (prop_id)
    {
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_CAN_START:
      g_value_set_boolean (value, self->can_start);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* Start and Cancel follow the jobs of the application, whichever page
 * started them; the card list shows them. */
static void
application_changed_cb (CmWindow *self)
{
  if (self->jobs != NULL)
    return;
  self->jobs = g_object_ref (cm_job_list_get_model (cm_job_list_get_default ()));
  g_signal_connect_object (self->jobs, "items-changed",
                           G_CALLBACK (_cm_window_actions_update), self, G_CONNECT_SWAPPED);
  cm_card_list_page_set_jobs (self->card_list_page, self->jobs);
  _cm_window_actions_update (self);
}

static void
open_path_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  cm_window_open_path (CM_WINDOW (widget), g_variant_get_string (param, NULL));
}

static void
cm_window_class_init (CmWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = cm_window_dispose;
  object_class->get_property = cm_window_get_property;
  window_class->close_request = cm_window_close_request;

  /* Whether the card of the page on screen is being tested. */
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* Whether a test can start from the page on screen. */
  properties[PROP_CAN_START] =
    g_param_spec_boolean ("can-start", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The pages changed (cm-window-pages.c): the title and the actions
   * follow. */
  g_signal_new ("pages-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  g_type_ensure (CM_TYPE_CARD_LIST_PAGE);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/cardmark/CardMark/ui/cm-window.ui");
  gtk_widget_class_bind_template_child (widget_class, CmWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, back_button);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, card_list_page);
  gtk_widget_class_bind_template_child (widget_class, CmWindow, error_page);
  gtk_widget_class_bind_template_callback (widget_class, item_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, _cm_window_test_items);
  gtk_widget_class_bind_template_callback (widget_class, _cm_window_verify_items);
  gtk_widget_class_bind_template_callback (widget_class, _cm_window_wear_items);
  gtk_widget_class_bind_template_callback (widget_class, visible_page_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.open-path", "s", open_path_action);
  _cm_window_class_actions_init (klass);
}

static void
pages_changed_cb (CmWindow *self)
{
  visible_page_changed_cb (self, NULL, self->stack);
}

static void
show_loop_changed_cb (CmWindow   *self,
                      const char *key,
                      GSettings  *settings)
{
  cm_backend_set_show_loop (self->devices, g_settings_get_boolean (settings, key));
}

/* The shortcuts' descriptions wrap at a width a column of a 7-inch
 * screen holds: GtkShortcutsWindow never wraps them, and two columns of
 * Japanese were wider than 800 pixels. */
static void
wrap_shortcut_titles (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_ancestor (widget, GTK_TYPE_SHORTCUTS_SHORTCUT) != NULL)
    {
      gtk_label_set_wrap (GTK_LABEL (widget), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (widget), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_max_width_chars (GTK_LABEL (widget), 30);
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    wrap_shortcut_titles (child);
}

/* The application gives the window its shortcuts window once it is
 * added to it, after init. */
static void
cm_window_realize_cb (CmWindow *self)
{
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (GTK_APPLICATION_WINDOW (self));

  if (overlay != NULL)
    wrap_shortcut_titles (GTK_WIDGET (overlay));
}

static void
cm_window_init (CmWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GListModel) devices = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  cm_accessible_fix_mnemonics (GTK_WIDGET (self));
  cm_accessible_watch_windows ();
  g_signal_connect (self, "realize", G_CALLBACK (cm_window_realize_cb), NULL);

  self->settings = g_settings_new (APP_ID);
  self->history = cm_app_history_dup ();
  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  _cm_window_actions_init (self);
  g_signal_connect (self, "pages-changed", G_CALLBACK (pages_changed_cb), NULL);
  g_signal_connect (self, "notify::application", G_CALLBACK (application_changed_cb), NULL);
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
  return self->running;
}

/* For tests: the name of the page on screen, as page_name() gives it. */
const char *
cm_window_get_page_name (CmWindow *self)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  return _cm_window_page_name (_cm_window_get_visible_page (self));
}

/* For tests: the page called @name, or NULL if it has not been made. */
GtkWidget *
cm_window_get_page (CmWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (CmWindowPage page = 0; page < CM_WINDOW_N_PAGES; page++)
    if (g_str_equal (name, _cm_window_page_name (page)))
      return _cm_window_page_widget (self, page);

  return NULL;
}

CmResult *
cm_window_get_last_result (CmWindow *self)
{
  g_return_val_if_fail (CM_IS_WINDOW (self), NULL);
  return self->last_result;
}
