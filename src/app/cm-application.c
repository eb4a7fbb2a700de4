/* cm-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application: one window, the actions scripts can call over D-Bus
 * (gapplication action io.github.cardmark.CardMark start-test), and the
 * card jobs. Every job (a benchmark, a capacity check, a verify) is
 * started here and kept in one list until it ends, whichever page
 * started it: pages and rows only watch a job, so a job goes on when its
 * page is left and is found again when the page is opened again. While
 * any job runs the computer is kept awake and the application is held,
 * so that quitting waits for a job to put the card's data back or save
 * its state.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cm-window.h"

#include "cm-application.h"

struct _CmApplication
{
  AdwApplication parent_instance;

  GListStore    *jobs;            /* CmJob, each until it ends */
  guint          inhibit_cookie;
  gboolean       inhibiting;      /* asked, whether or not a session manager answered */
};

G_DEFINE_FINAL_TYPE (CmApplication, cm_application, ADW_TYPE_APPLICATION)

static CmWindow *
get_window (CmApplication *self,
            gboolean       create)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL && create)
    window = GTK_WINDOW (cm_window_new (GTK_APPLICATION (self)));

  return window != NULL ? CM_WINDOW (window) : NULL;
}

/* CARDMARK_REPORT_STARTUP=1: how long after the process started the
 * window was first mapped, from the kernel's start time of the process,
 * so that loading libraries counts too. */
static void
report_startup_cb (GtkWidget *window,
                   gpointer   user_data)
{
  g_autofree char *stat = NULL;
  unsigned long long start_ticks = 0;
  struct timespec now;
  const char *p;

  g_signal_handlers_disconnect_by_func (window, report_startup_cb, user_data);
  if (!g_file_get_contents ("/proc/self/stat", &stat, NULL, NULL) || (p = strrchr (stat, ')')) == NULL)
    return;

  /* Field 22, starttime, in clock ticks since boot. */
  if (sscanf (p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu",
              &start_ticks) != 1)
    return;
  clock_gettime (CLOCK_BOOTTIME, &now);
  g_printerr ("cardmark: window mapped %.3f s after the process started\n",
              now.tv_sec + now.tv_nsec / 1e9 - (double) start_ticks / sysconf (_SC_CLK_TCK));
}

static void
cm_application_activate (GApplication *app)
{
  CmWindow *window = get_window (CM_APPLICATION (app), TRUE);

  if (g_getenv ("CARDMARK_REPORT_STARTUP") != NULL && !gtk_widget_get_mapped (GTK_WIDGET (window)))
    g_signal_connect (window, "map", G_CALLBACK (report_startup_cb), NULL);
  gtk_window_present (GTK_WINDOW (window));
}

static void
cm_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  CmWindow *window = get_window (CM_APPLICATION (app), TRUE);

  for (int i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_file_get_path (files[i]);

      if (path != NULL && cm_window_open_path (window, path))
        break;
    }

  gtk_window_present (GTK_WINDOW (window));
}

static void
open_target_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  CmWindow *window = get_window (user_data, TRUE);

  cm_window_open_path (window, g_variant_get_string (param, NULL));
  gtk_window_present (GTK_WINDOW (window));
}

static void
start_test_action (GSimpleAction *action,
                   GVariant      *param,
                   gpointer       user_data)
{
  CmWindow *window = get_window (user_data, FALSE);

  if (window != NULL)
    cm_window_start_test (window);
}

static void
cancel_test_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  CmWindow *window = get_window (user_data, FALSE);

  if (window != NULL)
    cm_window_cancel_test (window);
}

static void
about_action (GSimpleAction *action,
              GVariant      *param,
              gpointer       user_data)
{
  const char *developers[] = { _("The CardMark contributors"), NULL };
  GtkWidget *about = adw_about_window_new ();

  g_object_set (about,
                "transient-for", gtk_application_get_active_window (user_data),
                "application-name", _("CardMark"),
                "application-icon", APP_ID,
                "version", PACKAGE_VERSION,
                "developer-name", _("The CardMark contributors"),
                "developers", developers,
                "comments", _("Find out whether a microSD card delivers the speed printed on its label."),
                "license-type", GTK_LICENSE_GPL_3_0,
                "translator-credits", _("translator-credits"),
                NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
quit_action (GSimpleAction *action,
             GVariant      *param,
             gpointer       user_data)
{
  g_autoptr(GPtrArray) windows = g_ptr_array_new_with_free_func (g_object_unref);

  for (GList *l = gtk_application_get_windows (user_data); l != NULL; l = l->next)
    g_ptr_array_add (windows, g_object_ref (l->data));

  /* Closing a window while a job runs asks first; stopping cancels
   * every job, and each holds the application until it has put the
   * card's data back or saved its state: the application ends after
   * that. */
  for (guint i = 0; i < windows->len; i++)
    gtk_window_close (g_ptr_array_index (windows, i));
}

static const GActionEntry app_actions[] = {
  { "open-target", open_target_action, "s" },
  { "start-test", start_test_action },
  { "cancel-test", cancel_test_action },
  { "about", about_action },
  { "quit", quit_action },
};

static void
cm_application_startup (GApplication *app)
{
  const char *start_accels[] = { "<Control>Return", NULL };
  const char *quit_accels[] = { "<Control>q", NULL };

  G_APPLICATION_CLASS (cm_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "start-test")), FALSE);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "cancel-test")), FALSE);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.start-test", start_accels);
  /* Escape, like the run page's Cancel, asks first (win.ask-cancel): a
   * key hit by mistake must not throw away minutes of testing. */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
}

/* Start and Cancel, which scripts may call, apply when the window says
 * so: Start where a test can start, Cancel while one runs. */
static void
cm_application_window_added (GtkApplication *app,
                             GtkWindow      *window)
{
  GAction *start = g_action_map_lookup_action (G_ACTION_MAP (app), "start-test");
  GAction *cancel = g_action_map_lookup_action (G_ACTION_MAP (app), "cancel-test");

  GTK_APPLICATION_CLASS (cm_application_parent_class)->window_added (app, window);

  if (!CM_IS_WINDOW (window) || start == NULL || cancel == NULL)
    return;

  g_object_bind_property (window, "can-start", start, "enabled", G_BINDING_SYNC_CREATE);
  g_object_bind_property (window, "running", cancel, "enabled", G_BINDING_SYNC_CREATE);
}

static void
cm_application_dispose (GObject *object)
{
  CmApplication *self = CM_APPLICATION (object);

  g_clear_object (&self->jobs);

  G_OBJECT_CLASS (cm_application_parent_class)->dispose (object);
}

static void
cm_application_class_init (CmApplicationClass *klass)
{
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);
  GtkApplicationClass *gtk_app_class = GTK_APPLICATION_CLASS (klass);
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = cm_application_dispose;
  app_class->startup = cm_application_startup;
  app_class->activate = cm_application_activate;
  app_class->open = cm_application_open;
  gtk_app_class->window_added = cm_application_window_added;
}

static void
cm_application_init (CmApplication *self)
{
  self->jobs = g_list_store_new (CM_TYPE_JOB);
}

CmApplication *
cm_application_new (GApplicationFlags flags)
{
  return g_object_new (CM_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", flags | G_APPLICATION_HANDLES_OPEN,
                       "resource-base-path", "/io/github/cardmark/CardMark",
                       NULL);
}

/* The jobs. */

/* The jobs that run, in the order they started: a CmJob each, from its
 * start until it ends (then it leaves the list). */
GListModel *
cm_application_get_jobs (CmApplication *self)
{
  g_return_val_if_fail (CM_IS_APPLICATION (self), NULL);
  return G_LIST_MODEL (self->jobs);
}

/* Whether any job runs. */
gboolean
cm_application_get_busy (CmApplication *self)
{
  guint n;

  g_return_val_if_fail (CM_IS_APPLICATION (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (cm_job_is_active (job))
        return TRUE;
    }
  return FALSE;
}

/* Whether the application asked the session to stay awake (the cookie
 * is 0 where no session manager answers, as under Xvfb). */
gboolean
cm_application_get_inhibiting (CmApplication *self)
{
  g_return_val_if_fail (CM_IS_APPLICATION (self), FALSE);
  return self->inhibiting;
}

/* While any job runs, whatever its kind, the computer stays awake. */
static void
update_inhibit (CmApplication *self)
{
  gboolean busy = cm_application_get_busy (self);

  if (busy == self->inhibiting)
    return;
  self->inhibiting = busy;
  if (busy)
    self->inhibit_cookie = gtk_application_inhibit (GTK_APPLICATION (self),
                                                    gtk_application_get_active_window (GTK_APPLICATION (self)),
                                                    GTK_APPLICATION_INHIBIT_SUSPEND,
                                                    _("A card is being tested"));
  else
    {
      if (self->inhibit_cookie != 0)
        gtk_application_uninhibit (GTK_APPLICATION (self), self->inhibit_cookie);
      self->inhibit_cookie = 0;
    }
}

static void
job_done_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(CmApplication) self = user_data;
  g_autoptr(CmResult) result = NULL;
  guint position;

  /* Whoever started the job watches its state; its result and error stay
   * on the job. */
  result = cm_job_run_finish (CM_JOB (object), res, NULL);
  if (self->jobs != NULL && g_list_store_find (self->jobs, object, &position))
    g_list_store_remove (self->jobs, position);
  update_inhibit (self);
  g_application_release (G_APPLICATION (self));
}

/**
 * cm_application_start_job:
 * @job: a job not started yet
 *
 * Keeps @job in the list and runs it with its own cancellable. Watch its
 * "state" for the end: the job is still in the list when it changes, and
 * leaves it right after. A second job on a card refuses to start, with
 * the lock's sentence as its error.
 */
void
cm_application_start_job (CmApplication *self,
                          CmJob         *job)
{
  g_return_if_fail (CM_IS_APPLICATION (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (cm_job_get_state (job) == CM_JOB_STATE_WAITING);

  g_application_hold (G_APPLICATION (self));
  g_list_store_append (self->jobs, job);
  update_inhibit (self);
  cm_job_run_async (job, NULL, job_done_cb, g_object_ref (self));
}

/* Starts @job in the application of @widget's window; a widget that is
 * in none (a page made by a test) runs it by itself. */
void
cm_application_start_job_from_widget (GtkWidget *widget,
                                      CmJob     *job)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkApplication *app = GTK_IS_WINDOW (root) ? gtk_window_get_application (GTK_WINDOW (root)) : NULL;

  if (CM_IS_APPLICATION (app))
    cm_application_start_job (CM_APPLICATION (app), job);
  else
    cm_job_run_async (job, NULL, NULL, NULL);
}

/* Whether @job works on @item's card: its device, its folder. */
gboolean
cm_application_job_is_for_item (CmJob      *job,
                                CmCardItem *item)
{
  const char *target = cm_job_get_target (job);
  CmDevice *device = cm_job_get_device (job);
  const char *names[] = { cm_card_item_get_device (item), cm_card_item_get_file_folder (item),
                          cm_card_item_get_mount_point (item) };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i] != NULL && (g_strcmp0 (target, names[i]) == 0 ||
                             (device != NULL && g_strcmp0 (cm_device_get_device (device), names[i]) == 0)))
      return TRUE;
  return FALSE;
}

/* The job that runs on @item's card (its device or its folder), or NULL. */
CmJob *
cm_application_lookup_job (CmApplication *self,
                           CmCardItem    *item)
{
  guint n;

  g_return_val_if_fail (CM_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (cm_job_is_active (job) && cm_application_job_is_for_item (job, item))
        return job;  /* the list keeps its reference */
    }
  return NULL;
}

/* Stops every job; each ends in its own time (a verify saves its state,
 * a capacity check puts the card's data back). */
void
cm_application_cancel_jobs (CmApplication *self)
{
  guint n;

  g_return_if_fail (CM_IS_APPLICATION (self));

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      cm_job_cancel (job);
    }
}
