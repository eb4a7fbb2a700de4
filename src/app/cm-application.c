/* cm-application.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The application: one window, the actions scripts can call over D-Bus
 * (gapplication action io.github.cardmark.CardMark start-test), and the
 * watch over the card jobs (cm-job-list.c): while any job runs the
 * computer is kept awake and the application is held, so that quitting
 * waits for a job to put the card's data back or save its state.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "cm-job-list.h"
#include "cm-preferences.h"
#include "cm-window.h"

#include "cm-application.h"

struct _CmApplication
{
  AdwApplication parent_instance;

  CmJobList     *jobs;            /* the process's, watched */
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
                /* Its own default is taller than a 7-inch screen (480
                 * pixels); its pages scroll. */
                "default-height", 440,
                NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_action (GSimpleAction *action,
                    GVariant      *param,
                    gpointer       user_data)
{
  CmPreferences *preferences = cm_preferences_new (gtk_application_get_active_window (user_data));

  gtk_window_present (GTK_WINDOW (preferences));
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
  { "preferences", preferences_action },
  { "about", about_action },
  { "quit", quit_action },
};

static void
cm_application_startup (GApplication *app)
{
  const char *start_accels[] = { "<Control>Return", NULL };
  const char *quit_accels[] = { "<Control>q", NULL };
  const char *preferences_accels[] = { "<Control>comma", NULL };

  G_APPLICATION_CLASS (cm_application_parent_class)->startup (app);

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions, G_N_ELEMENTS (app_actions), app);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "start-test")), FALSE);
  g_simple_action_set_enabled (G_SIMPLE_ACTION (g_action_map_lookup_action (G_ACTION_MAP (app), "cancel-test")), FALSE);

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.start-test", start_accels);
  /* Escape, like the run page's Cancel, asks first (win.ask-cancel): a
   * key hit by mistake must not throw away minutes of testing. */
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences", preferences_accels);
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

  if (self->jobs != NULL)
    g_signal_handlers_disconnect_by_data (self->jobs, self);
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

static void job_started_cb (CmApplication *self,
                            CmJob         *job);
static void job_ended_cb   (CmApplication *self,
                            CmJob         *job);

static void
cm_application_init (CmApplication *self)
{
  self->jobs = g_object_ref (cm_job_list_get_default ());
  g_signal_connect_swapped (self->jobs, "job-started", G_CALLBACK (job_started_cb), self);
  g_signal_connect_swapped (self->jobs, "job-ended", G_CALLBACK (job_ended_cb), self);
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

/* The jobs: the list's (cm-job-list.c), watched here. */

GListModel *
cm_application_get_jobs (CmApplication *self)
{
  g_return_val_if_fail (CM_IS_APPLICATION (self), NULL);

  return cm_job_list_get_model (self->jobs);
}

gboolean
cm_application_get_busy (CmApplication *self)
{
  g_return_val_if_fail (CM_IS_APPLICATION (self), FALSE);

  return cm_job_list_get_busy (self->jobs);
}

void
cm_application_cancel_jobs (CmApplication *self)
{
  g_return_if_fail (CM_IS_APPLICATION (self));

  cm_job_list_cancel_all (self->jobs);
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
  gboolean busy = cm_job_list_get_busy (self->jobs);

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

/* Each job holds the application, so that quitting waits for it to put
 * the card's data back or save its state. */
static void
job_started_cb (CmApplication *self,
                CmJob         *job)
{
  g_application_hold (G_APPLICATION (self));
  update_inhibit (self);
}

static void
job_ended_cb (CmApplication *self,
              CmJob         *job)
{
  update_inhibit (self);
  g_application_release (G_APPLICATION (self));
}
