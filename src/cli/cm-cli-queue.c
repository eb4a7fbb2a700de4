/* cm-cli-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli queue-check DEVICE --destroy-data [--minutes N]: is the
 * kernel queueing commands to this card, and is that safe? The work is
 * core's (cm-job-queue.c); this turns options into the job's own
 * options, shows its progress with the time left and prints what it
 * found.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "cm-history.h"
#include "cm-job-kinds.h"
#include "cm-job-queue.h"
#include "cm-size.h"
#include "cm-verify.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"

typedef struct
{
  gboolean    destroy;
  double      minutes;
  guint64     area;
  guint       depth;
  gboolean    json;
  CmHistory  *history;
  int         signal_fd;
} Queue;

static void
progress_cb (CmJob       *job,
             GParamSpec  *pspec,
             CmCliTarget *t)
{
  g_autofree char *left = NULL;
  char *line;

  if (cm_job_get_phase (job) == NULL)
    return;
  /* Each phase once as a line of its own, for a log where the progress
   * line is not drawn. */
  if (g_strcmp0 (cm_job_get_phase (job), g_object_get_data (G_OBJECT (job), "cm-cli-phase")) != 0)
    {
      g_object_set_data_full (G_OBJECT (job), "cm-cli-phase", g_strdup (cm_job_get_phase (job)), g_free);
      cm_cli_jobs_say (t, "%s\n", cm_job_get_phase (job));
    }
  if (cm_job_get_seconds_left (job) < 0)
    line = g_strdup_printf ("%s  %3.0f %%", cm_job_get_phase (job), cm_job_get_progress (job) * 100);
  else
    {
      left = cm_cli_format_duration (cm_job_get_seconds_left (job));
      line = g_strdup_printf ("%s  %3.0f %%  %s %s", cm_job_get_phase (job), cm_job_get_progress (job) * 100,
                              left, _("left"));
    }
  if (g_strcmp0 (line, g_object_get_data (G_OBJECT (job), "cm-cli-line")) == 0)
    {
      g_free (line);
      return;
    }
  g_object_set_data_full (G_OBJECT (job), "cm-cli-line", line, g_free);
  cm_cli_jobs_progress (t, "%s", line);
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Queue *q = user_data;

  t->data = q;
  t->job = cm_job_new_of_kind (&cm_job_kind_queue, t->target);
  cm_job_set_destroy_data (t->job, q->destroy);
  g_object_set (cm_job_get_options (t->job), "minutes", q->minutes, "area", q->area, "depth", q->depth, NULL);
  cm_job_set_history (t->job, q->history);
  g_signal_connect (t->job, "notify::progress", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::phase", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::seconds-left", G_CALLBACK (progress_cb), t);
  cm_cli_jobs_say (t, _("Checking command queueing on %s…\n"), t->target);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  return cm_cli_watch_end_signals_saying (((Queue *) user_data)->signal_fd, cancellable,
                                          _("Stopping the queue check…"));
}

static void
print_report (CmResult *result)
{
  g_autoptr(GPtrArray) lines = cm_job_queue_dup_lines (result);
  g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (result);

  for (guint i = 0; i < lines->len; i++)
    printf ("%s\n", (const char *) g_ptr_array_index (lines, i));
  printf ("\n%s\n", outcome->answer != NULL ? outcome->answer : outcome->badge);
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Queue *q = user_data;
  g_autoptr(CmOutcome) outcome = NULL;

  if (t->error != NULL)
    {
      /* A missing --destroy-data is a usage error, found before the
       * card is touched. */
      if (g_error_matches (t->error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT))
        {
          fprintf (stderr, "cardmark-cli: %s\n%s\n", t->error->message, _("Add --destroy-data to go ahead."));
          return CM_EXIT_USAGE;
        }
      cm_cli_print_error (t->error);
      return g_error_matches (t->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ? CM_OUTCOME_EXIT_STOPPED : CM_EXIT_FAILED;
    }
  if (json != NULL)
    *json = cm_result_to_json (t->result);
  else if (q->json)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (t->result);

      cm_cli_print_json (node);
    }
  else
    print_report (t->result);
  if (cm_job_get_saved_file (t->job) != NULL)
    fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (cm_job_get_saved_file (t->job)));
  else if (cm_job_get_save_error (t->job) != NULL)
    cm_cli_print_error (cm_job_get_save_error (t->job));
  outcome = cm_result_dup_outcome (t->result);
  return outcome->exit_status;
}

/* A value of the kind's own options, checked against the bounds its
 * GParamSpec gives before anything touches the card. */
static gboolean
check_option (const char  *option,
              const char  *property,
              GValue      *value,
              GError     **error)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (cm_job_kind_queue.options_type ());
  GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), property);
  g_auto(GValue) low = G_VALUE_INIT;
  g_auto(GValue) high = G_VALUE_INIT;
  g_autofree char *low_text = NULL;
  g_autofree char *high_text = NULL;

  if (!g_param_value_validate (pspec, value))
    return TRUE;
  g_value_init (&low, G_PARAM_SPEC_VALUE_TYPE (pspec));
  g_value_init (&high, G_PARAM_SPEC_VALUE_TYPE (pspec));
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      low_text = g_strdup_printf ("%g", G_PARAM_SPEC_DOUBLE (pspec)->minimum);
      high_text = g_strdup_printf ("%g", G_PARAM_SPEC_DOUBLE (pspec)->maximum);
    }
  else if (G_IS_PARAM_SPEC_UINT64 (pspec))
    {
      low_text = g_format_size (G_PARAM_SPEC_UINT64 (pspec)->minimum);
      high_text = g_format_size (G_PARAM_SPEC_UINT64 (pspec)->maximum);
    }
  else
    {
      low_text = g_strdup_printf ("%u", G_PARAM_SPEC_UINT (pspec)->minimum);
      high_text = g_strdup_printf ("%u", G_PARAM_SPEC_UINT (pspec)->maximum);
    }
  /* Translators: the first %s is an option, "--minutes", then its bounds */
  g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("%s must be from %s to %s."),
               option, low_text, high_text);
  return FALSE;
}

static gboolean
parse_options (const char  *minutes,
               const char  *area,
               int          depth,
               Queue       *q,
               GError     **error)
{
  g_auto(GValue) value = G_VALUE_INIT;
  char *end = NULL;

  g_value_init (&value, G_TYPE_DOUBLE);
  q->minutes = 5;
  if (minutes != NULL)
    {
      q->minutes = g_ascii_strtod (minutes, &end);
      if (end == minutes || *end != '\0' || !isfinite (q->minutes))
        {
          /* Translators: %s is what was given to --minutes */
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE, _("--minutes takes a number, such as 5 or 0.5, not “%s”."),
                       minutes);
          return FALSE;
        }
    }
  g_value_set_double (&value, q->minutes);
  if (!check_option ("--minutes", "minutes", &value, error))
    return FALSE;

  q->area = 1024 * 1024 * 1024;
  if (area != NULL && !cm_size_parse (area, "--area", 1024 * 1024, &q->area, error))
    return FALSE;

  g_value_unset (&value);
  g_value_init (&value, G_TYPE_UINT);
  g_value_set_uint (&value, depth < 0 ? 0 : (guint) depth);
  q->depth = (guint) MAX (depth, 0);
  return check_option ("--depth", "depth", &value, error);
}

int
cm_cli_queue_check (int    argc,
                    char **argv)
{
  gboolean destroy = FALSE, json = FALSE;
  g_autofree char *minutes = NULL;
  g_autofree char *area = NULL;
  int depth = 32;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_NONE, &destroy, N_("Overwrite the device and everything on it"), NULL },
    { "minutes", 0, 0, G_OPTION_ARG_STRING, &minutes, N_("How long to write and read (default 5; 0.1 to 1440)"), "N" },
    { "area", 0, 0, G_OPTION_ARG_STRING, &area, N_("How much of the card to write, from its start (default 1 GiB)"), "SIZE" },
    { "depth", 0, 0, G_OPTION_ARG_INT, &depth, N_("How many commands to keep in flight (default 32; 1: no queue)"), "N" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE — check whether command queueing is on for a card, and safe"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, cm_job_kind_queue.name, NULL };
  Queue q = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("Says what is first: the host (a Raspberry Pi 5 or another), its sd_cqe setting, whether the kernel queues "
      "commands to this card now, and whether the kernel's card table allows it or keeps it off. Then, for N "
      "minutes, it writes random 4 KiB blocks that check themselves over the start of the card, with reads, flushes "
      "and discards, a tenth of the time at depth 1 and the rest 32 deep, and reads every block back, while the "
      "kernel log is read for the card's host: CQE recoveries, timeouts, spurious TCN, resets, I/O errors. On a "
      "reader that cannot queue (USB, a loop device) it is the same data check under a deep queue. It destroys the "
      "card's data: that needs --destroy-data. The result is kept in the history. "
      "Exit status: 0 every block held, 4 blocks read back wrong, 3 the kernel logged recoveries or errors, "
      "1 the check failed, 5 stopped, 2 usage."));
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 2)
    return cm_cli_usage_error (context, _("queue-check needs one DEVICE, a whole card such as /dev/mmcblk0."));
  if (argv[1][0] == '\0')
    return cm_cli_usage_error (context, _("The DEVICE is empty. Give the card's device, such as /dev/mmcblk0."));
  if (!parse_options (minutes, area, depth, &q, &error))
    return cm_cli_usage_error (context, error->message);

  q.signal_fd = cm_cli_block_end_signals ();
  history = cm_cli_history_new ();
  q.destroy = destroy;
  q.json = json;
  q.history = history;
  status = cm_cli_jobs_run (&funcs, argv + 1, 1, json, &q);
  close (q.signal_fd);
  return status;
}
