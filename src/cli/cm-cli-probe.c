/* cm-cli-probe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli probe-capacity DEVICE: is the card as large as it says?
 * The check itself is core's (cm-capacity-probe.c); this turns options
 * into it and prints what it reports.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <linux/fs.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-capacity-probe.h"
#include "cm-card-use.h"
#include "cm-chart-capacity.h"
#include "cm-history.h"
#include "cm-job.h"
#include "cm-json.h"
#include "cm-size.h"
#include "cm-target.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"

/* The check reads and writes the card in whole 4 KiB blocks (O_DIRECT):
 * --cache-up-to is rounded up to one before anything is written, as a
 * size such as 1GB is not one. */
#define CACHE_GRAIN 4096

/* What the command was asked, the same for every card. */
typedef struct
{
  guint64     cache_bytes;
  gboolean    json;
  const char *plot;
  CmHistory  *history;
  int         signal_fd;
} Probe;

static int
open_device (const char  *path,
             gboolean     exclusive,
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
  if (!cm_card_check_whole_card (path, CM_CARD_USE_CAPACITY_CHECK, error))
    return -1;

  /* The check itself is opened by its job, after it holds the card; a
   * look at the size beforehand must not stand in its way. */
  if ((fd = open (path, exclusive ? O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC : O_RDONLY | O_CLOEXEC)) < 0)
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
              gboolean                json,
              JsonNode              **several)
{
  g_autofree char *sentence = NULL;

  if (json || several != NULL)
    {
      g_autoptr(JsonNode) root = cm_capacity_report_to_json (report);

      /* What the document's capacity member holds, and which device. */
      json_object_set_string_member (json_node_get_object (root), "device", device);
      if (several != NULL)
        *several = g_steal_pointer (&root);
      else
        cm_cli_print_json (root);
      return;
    }

  sentence = cm_capacity_report_describe (device, report);
  printf ("%s\n", sentence);
}

static void
job_progress_cb (CmJob       *job,
                 GParamSpec  *pspec,
                 CmCliTarget *t)
{
  g_autofree char *text = NULL;

  if (cm_job_get_phase (job) == NULL)
    return;
  text = cm_job_dup_progress_text (job);
  cm_cli_jobs_progress (t, "%s", text);
}

static void
say_saved (CmJob *job)
{
  GFile *saved = cm_job_get_saved_file (job);

  if (saved != NULL)
    fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (saved));
  else if (cm_job_get_save_error (job) != NULL)
    cm_cli_print_error (cm_job_get_save_error (job));
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Probe *probe = user_data;
  g_autofree char *plan = NULL;
  guint64 size = 0;
  int fd;

  /* What the job will open, checked first for the plan's sentence. */
  if ((fd = open_device (t->target, FALSE, &size, &t->error)) < 0)
    return;
  close (fd);

  plan = cm_capacity_describe_plan (size, probe->cache_bytes);
  cm_cli_jobs_say (t, "%s\n", plan);
  t->job = cm_job_new_of_kind (&cm_job_kind_capacity, t->target);
  g_object_set (cm_job_get_options (t->job), "cache-bytes", probe->cache_bytes, NULL);
  cm_job_set_history (t->job, probe->history);
  g_signal_connect (t->job, "notify::progress", G_CALLBACK (job_progress_cb), t);
  g_signal_connect (t->job, "notify::phase", G_CALLBACK (job_progress_cb), t);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  /* INT, TERM, HUP and QUIT stop the check, which puts the card's data back. */
  return cm_cli_watch_end_signals_saying (((Probe *) user_data)->signal_fd, cancellable,
                                          _("Cancelling: putting the card's data back…"));
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Probe *probe = user_data;
  const CmCapacityReport *report;
  g_autoptr(GError) error = NULL;

  if (t->error != NULL)
    {
      if (g_error_matches (t->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        fprintf (stderr, "cardmark-cli: %s%s%s\n", t->several ? t->target : "", t->several ? ": " : "",
                 _("Capacity check cancelled. The card's data was put back."));
      else
        cm_cli_print_error (t->error);
      /* Core says what to do; the command that does it is this face's. */
      if (g_error_matches (t->error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_INTERRUPTED))
        /* Translators: %s is the card's device, "/dev/sdb" */
        fprintf (stderr, _("Put the card's data back with “cardmark-cli probe-capacity --restore %s”.\n"), t->target);
      return CM_EXIT_FAILED;
    }

  report = cm_result_get_capacity (t->result);
  print_report (t->target, report, probe->json, json);
  say_saved (t->job);
  if (probe->plot != NULL && !cm_chart_export_capacity (probe->plot, report, t->target, 800, 480, NULL, &error))
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  return CM_EXIT_OK;
}

/* --restore: a job of its own (kind "restore"), which holds the card's
 * lock while it writes the journal's blocks back. */
static void
restore_prepare (CmCliTarget *t,
                 gpointer     user_data)
{
  t->job = cm_job_new_of_kind (&cm_job_kind_restore, t->target);
}

static int
restore_finish (CmCliTarget  *t,
                JsonNode    **json,
                gpointer      user_data)
{
  GPtrArray *notes;

  if (t->error != NULL)
    {
      cm_cli_print_error (t->error);
      return CM_EXIT_FAILED;
    }
  printf ("%s\n", cm_result_get_summary (t->result));
  notes = cm_result_get_notes (t->result);
  for (guint i = 0; i < notes->len; i++)
    printf ("%s\n", (const char *) g_ptr_array_index (notes, i));
  return CM_EXIT_OK;
}

static guint
restore_watch (GCancellable *cancellable,
               gpointer      user_data)
{
  /* A restore half done is worse than one finished: it ends first. */
  return cm_cli_watch_end_signals_saying (((Probe *) user_data)->signal_fd, cancellable,
                                          _("Finishing putting the card's data back first…"));
}

static int
restore (const char *device)
{
  const CmCliJobsFuncs funcs = { restore_prepare, restore_finish, restore_watch, NULL, cm_job_kind_restore.name, NULL };
  Probe probe = { 0, FALSE, NULL, NULL, -1 };
  char *devices[] = { (char *) device, NULL };
  int status;

  probe.signal_fd = cm_cli_block_end_signals ();
  status = cm_cli_jobs_run (&funcs, devices, 1, FALSE, &probe);
  close (probe.signal_fd);
  return status;
}

static int
run_probe (char       **devices,
           int          n_devices,
           guint64      cache_bytes,
           gboolean     json,
           const char  *plot)
{
  g_autoptr(CmHistory) history = cm_cli_history_new ();
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, cm_job_kind_capacity.name, NULL };
  Probe probe = { cache_bytes, json, plot, history, -1 };
  int status;

  probe.signal_fd = cm_cli_block_end_signals ();
  status = cm_cli_jobs_run (&funcs, devices, n_devices, json, &probe);
  close (probe.signal_fd);
  return status;
}

int
cm_cli_probe_capacity (int    argc,
                       char **argv)
{
  gboolean json = FALSE;
  gboolean do_restore = FALSE;
  g_autofree char *plot = NULL;
  g_autofree char *cache = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the findings as JSON"), NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, N_("Draw the card's map to FILE.png, .svg or .pdf"), "FILE" },
    { "cache-up-to", 0, 0, G_OPTION_ARG_STRING, &cache,
      N_("Rule out controller caches up to SIZE, rounded up to a whole 4 KiB (default 256M; 1G takes about four times as long)"), "SIZE" },
    { "restore", 0, 0, G_OPTION_ARG_NONE, &do_restore,
      N_("Put back what an interrupted check left on the card, from its journal"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE… — check that cards really hold their capacity"));
  g_autoptr(GError) error = NULL;
  guint64 cache_bytes = CM_CAPACITY_DEFAULT_CACHE;
  int status;
  g_autofree char *description = g_strdup_printf ("%s\n\n%s\n\n%s", _("The probe writes a signature to a few hundred places across the card, rewrites the start of the card with its own "
      "bytes so that no controller cache can answer for the card, reads the signatures back, and then writes the card's "
      "own data back. What it overwrites is kept in a journal first, so an interrupted check can be undone with --restore. "
      "The card must not be mounted."), cm_size_describe_syntax (), cm_cli_jobs_describe ());

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context, description);
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if ((status = cm_cli_check_operands (context, argc, argv, 1, G_MAXINT, _("probe-capacity needs a DEVICE (or several)."))) != CM_EXIT_OK)
    return status;
  if (cache != NULL && !cm_size_parse (cache, "--cache-up-to", 1, &cache_bytes, &error))
    return cm_cli_usage_error (context, error->message);
  if (cache_bytes % CACHE_GRAIN != 0)
    cache_bytes += CACHE_GRAIN - cache_bytes % CACHE_GRAIN;
  if (plot != NULL && !cm_cli_is_chart_name (plot))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot tell the chart format from “%s”. Name the file .png, .svg or .pdf."), plot);

      return cm_cli_usage_error (context, message);
    }
  if (do_restore && (json || plot != NULL || cache != NULL))
    return cm_cli_usage_error (context, _("--restore takes no other option."));
  if (do_restore && argc > 2)
    return cm_cli_usage_error (context, _("--restore puts back one card: give it one DEVICE."));
  if (plot != NULL && argc > 2)
    return cm_cli_usage_error (context, _("--plot draws one card: give it one DEVICE."));
  if (plot != NULL && !cm_cli_check_writable (plot, &error))
    return cm_cli_usage_error (context, error->message);

  if (do_restore)
    return restore (argv[1]);
  return run_probe (argv + 1, argc - 1, cache_bytes, json, plot);
}
