/* cm-cli-probe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli probe-capacity DEVICE: is the card as large as it says?
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <linux/fs.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-capacity-probe.h"
#include "cm-json.h"
#include "cm-target.h"

#include "cm-cli.h"

typedef struct
{
  GMainLoop        *loop;
  GCancellable     *cancellable;
  int               fd;
  guint64           size;
  CmCapacityReport  report;
  GError           *error;
  gboolean          tty;
} Probe;

static void
progress_cb (double   fraction,
             gpointer user_data)
{
  Probe *probe = user_data;

  if (probe->tty)
    {
      fprintf (stderr, "\r\033[K%s %3.0f %%", _("Probing capacity…"), fraction * 100);
      fflush (stderr);
    }
}

static gboolean
probe_done_cb (gpointer user_data)
{
  Probe *probe = user_data;

  g_main_loop_quit (probe->loop);
  return G_SOURCE_REMOVE;
}

static gpointer
probe_thread (gpointer data)
{
  Probe *probe = data;

  cm_capacity_probe (probe->fd, probe->size, probe->cancellable, progress_cb, probe,
                     &probe->report, &probe->error);
  /* Through the main context: a probe that fails at once may end before
   * the main loop runs, and a quit before the run would be lost. */
  g_idle_add (probe_done_cb, probe);
  return NULL;
}

static gboolean
interrupted_cb (gpointer user_data)
{
  Probe *probe = user_data;

  fprintf (stderr, "\n%s\n", _("Cancelling: putting the card's data back…"));
  g_cancellable_cancel (probe->cancellable);
  return G_SOURCE_CONTINUE;
}

static int
open_device (const char  *path,
             guint64     *size,
             GError     **error)
{
  struct stat st;
  int fd;

  if (stat (path, &st) != 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (errno, path));
      return -1;
    }
  if (!S_ISBLK (st.st_mode))
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("%s is not a device. The capacity probe needs the card's device, such as /dev/sdb."), path);
      return -1;
    }
  if (cm_target_device_is_mounted (path))
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED,
                   _("%s is mounted. Unmount it first: the probe writes to the card (and puts everything back)."), path);
      return -1;
    }

  if ((fd = open (path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC)) < 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (errno, path));
      return -1;
    }
  if (ioctl (fd, BLKGETSIZE64, size) != 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (errno, path));
      close (fd);
      return -1;
    }

  return fd;
}

static void
print_report (const char             *device,
              const CmCapacityReport *report,
              gboolean                json)
{
  g_autofree char *sentence = NULL;

  if (json)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autoptr(JsonNode) root = NULL;

      json_builder_begin_object (builder);
      cm_json_add_string (builder, "device", device);
      cm_json_add_int (builder, "reported_bytes", report->reported_bytes);
      cm_json_add_int (builder, "real_bytes", report->real_bytes);
      cm_json_add_int (builder, "last_good_bytes", report->last_good_bytes);
      cm_json_add_boolean (builder, "fake", report->fake);
      cm_json_add_int (builder, "positions", report->n_positions);
      cm_json_add_int (builder, "bad_positions", report->n_bad);
      json_builder_end_object (builder);

      root = json_builder_get_root (builder);
      cm_cli_print_json (root);
      return;
    }

  sentence = cm_capacity_report_describe (device, report);
  printf ("%s\n", sentence);
}

int
cm_cli_probe_capacity (int    argc,
                       char **argv)
{
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the findings as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE — check that the card really holds its capacity"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  Probe probe = { 0 };
  GThread *thread;
  guint sigint, sigterm;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("The probe writes a signature to a few hundred places across the card, reads them back, and then writes the card's own data back. The card must not be mounted."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 2)
    return cm_cli_usage_error (context, _("probe-capacity needs exactly one DEVICE."));

  if ((probe.fd = open_device (argv[1], &probe.size, &error)) < 0)
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }

  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  probe.loop = loop;
  probe.cancellable = cancellable;
  probe.tty = isatty (STDERR_FILENO);
  sigint = g_unix_signal_add (SIGINT, interrupted_cb, &probe);
  sigterm = g_unix_signal_add (SIGTERM, interrupted_cb, &probe);

  thread = g_thread_new ("cardmark-probe", probe_thread, &probe);
  g_main_loop_run (loop);
  g_thread_join (thread);
  g_source_remove (sigint);
  g_source_remove (sigterm);
  close (probe.fd);
  if (probe.tty)
    fprintf (stderr, "\r\033[K");

  if (probe.error != NULL)
    {
      cm_cli_print_error (probe.error);
      g_clear_error (&probe.error);
      return CM_EXIT_FAILED;
    }

  print_report (argv[1], &probe.report, json);
  return probe.report.fake ? CM_EXIT_FAKE : CM_EXIT_OK;
}
