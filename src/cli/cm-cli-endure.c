/* cm-cli-endure.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli endure DEVICE --destroy-data: the wear test. The work is
 * core's (cm-job-wear.c, cm-wear.c); this turns options into the job's
 * limits, shows its progress, appends each round to --csv and prints the
 * document.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "cm-history.h"
#include "cm-job.h"
#include "cm-verify.h"

#include "cm-cli.h"

typedef struct
{
  GMainLoop  *loop;
  CmResult   *result;
  GError     *error;
  gboolean    tty;
  const char *csv;
  GError     *csv_error;
} Endure;

#define CSV_HEADER "round,write_mb_per_s,read_mb_per_s,sectors,bad_sectors,new_bad_sectors,bytes_written,seconds\n"

static void
progress_cb (CmJob      *job,
             GParamSpec *pspec,
             Endure     *e)
{
  g_autofree char *left = NULL;

  if (!e->tty || cm_job_get_phase (job) == NULL)
    return;
  left = cm_cli_format_duration (cm_job_get_seconds_left (job));
  fprintf (stderr, "\r\033[K%s  %3.0f %%  %s %s", cm_job_get_phase (job),
           cm_job_get_progress (job) * 100, left, _("left"));
  fflush (stderr);
}

/* --csv: one line per round as it ends, after a header when the file is
 * new, so a run left for weeks can be followed and plotted. */
static gboolean
append_csv (const char         *path,
            const CmWearRound  *r,
            GError            **error)
{
  GStatBuf st;
  gboolean fresh = g_stat (path, &st) != 0 || st.st_size == 0;
  FILE *f = g_fopen (path, "a");
  char w[G_ASCII_DTOSTR_BUF_SIZE], rd[G_ASCII_DTOSTR_BUF_SIZE], s[G_ASCII_DTOSTR_BUF_SIZE];
  gboolean ok;

  if (f == NULL)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   _("Cannot add to “%s”: %s"), path, g_strerror (errsv));
      return FALSE;
    }
  if (fresh)
    fputs (CSV_HEADER, f);
  fprintf (f, "%u,%s,%s,%llu,%llu,%llu,%llu,%s\n", r->round,
           g_ascii_formatd (w, sizeof w, "%.2f", r->write_mb_per_s),
           g_ascii_formatd (rd, sizeof rd, "%.2f", r->read_mb_per_s),
           (unsigned long long) r->sectors, (unsigned long long) r->bad_sectors,
           (unsigned long long) r->new_bad_sectors, (unsigned long long) r->bytes_written,
           g_ascii_formatd (s, sizeof s, "%.1f", r->seconds));
  ok = fflush (f) == 0;
  ok = fclose (f) == 0 && ok;
  if (!ok)
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot add to “%s”: %s"), path, g_strerror (errno));
  return ok;
}

static void
round_cb (CmJob             *job,
          const CmWearRound *r,
          gpointer           user_data)
{
  Endure *e = user_data;
  g_autofree char *written = g_format_size (r->bytes_written);

  if (e->tty)
    fprintf (stderr, "\r\033[K");
  fprintf (stderr, _("Round %u: %llu of %llu sectors bad (%llu new), write %.1f MB/s, read %.1f MB/s, %s written so far\n"),
           r->round, (unsigned long long) r->bad_sectors, (unsigned long long) r->sectors,
           (unsigned long long) r->new_bad_sectors, r->write_mb_per_s, r->read_mb_per_s, written);
  if (e->csv != NULL && e->csv_error == NULL && !append_csv (e->csv, r, &e->csv_error))
    cm_cli_print_error (e->csv_error);
}

static void
done_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Endure *e = user_data;

  e->result = cm_job_run_finish (CM_JOB (object), result, &e->error);
  g_main_loop_quit (e->loop);
}

static void
print_report (CmResult *result)
{
  static const char *names[CM_ENDURANCE_N_THRESHOLDS] = {
    N_("First error:"), N_("0.1 % bad:"), N_("1 % bad:"), N_("10 % bad:"), N_("25 % bad:"), N_("50 % bad:"),
  };
  const CmEndurance *en = cm_result_get_endurance (result);

  printf (_("Rounds:       %u\n"), en->rounds->len);
  for (guint i = 0; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    {
      g_autoptr(GString) line = g_string_new (NULL);
      guint round;
      guint64 bytes;

      cm_cli_pad (line, _(names[i]), 13, FALSE);
      if (cm_endurance_get_threshold (en, i, &round, &bytes))
        {
          g_autofree char *written = g_format_size (bytes);

          printf (_("%s round %u, after %s written\n"), line->str, round, written);
        }
      else
        printf (_("%s not reached\n"), line->str);
    }
  printf ("\n%s\n", cm_result_get_summary (result));
}

int
cm_cli_endure (int    argc,
               char **argv)
{
  gboolean destroy = FALSE, json = FALSE;
  int rounds = 0;
  double hours = 0;
  g_autofree char *csv = NULL;
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_NONE, &destroy, N_("Overwrite the whole device again and again, destroying everything on it"), NULL },
    { "rounds", 0, 0, G_OPTION_ARG_INT, &rounds, N_("Stop after N rounds (default: no limit)"), "N" },
    { "hours", 0, 0, G_OPTION_ARG_DOUBLE, &hours, N_("Start no round after H hours (default: no limit)"), "H" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, N_("Append one line per round to FILE as it ends"), "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE — write and check a whole card round after round, until it wears out"));
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(CmJob) job = NULL;
  g_autoptr(CmHistory) history = NULL;
  Endure e = { 0 };
  guint signal_source;
  int signal_fd;
  gboolean lost;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context,
    _("A round writes the whole unmounted card with data that differs each round, then reads it all back in a shuffled order "
      "and counts the 512-byte sectors that came back wrong. The test stops after --rounds or --hours, when half the card "
      "comes back wrong, or on Ctrl-C, and keeps the rounds it finished. It destroys the card's data and wears the card: "
      "that needs --destroy-data. The result is kept in the history. "
      "Exit status: 0 every round came back whole, 4 data was lost, 1 the run failed, 2 usage."));
  if (!g_option_context_parse (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 2)
    return cm_cli_usage_error (context, _("endure needs exactly one DEVICE, a whole card such as /dev/mmcblk0."));
  if (argv[1][0] == '\0')
    return cm_cli_usage_error (context, _("The DEVICE is empty. Give the card's device, such as /dev/mmcblk0."));
  if (rounds < 0)
    return cm_cli_usage_error (context, _("--rounds must be 1 or more."));
  if (hours < 0 || !(hours < 24 * 365 * 100))
    return cm_cli_usage_error (context, _("--hours must be a number of hours above 0."));
  if (csv != NULL && !cm_cli_check_writable (csv, &error))
    return cm_cli_usage_error (context, error->message);

  signal_fd = cm_cli_block_end_signals ();
  history = cm_history_new_default ();
  job = cm_job_new ("wear", argv[1]);
  cm_job_set_verify_flags (job, destroy ? CM_VERIFY_FLAGS_DESTROY_DATA : CM_VERIFY_FLAGS_NONE);
  cm_job_set_wear_limits (job, (guint) rounds, hours * 3600);
  cm_job_set_wear_round_func (job, round_cb, &e);
  cm_job_set_history (job, history);

  loop = g_main_loop_new (NULL, FALSE);
  cancellable = g_cancellable_new ();
  e.loop = loop;
  e.tty = isatty (STDERR_FILENO);
  e.csv = csv;
  g_signal_connect (job, "notify::progress", G_CALLBACK (progress_cb), &e);
  g_signal_connect (job, "notify::phase", G_CALLBACK (progress_cb), &e);
  signal_source = cm_cli_watch_end_signals (signal_fd, cancellable);

  fprintf (stderr, _("Wear test of %s: every round writes all of it and reads it back…\n"), argv[1]);
  cm_job_run_async (job, cancellable, done_cb, &e);
  g_main_loop_run (loop);
  g_source_remove (signal_source);
  close (signal_fd);
  if (e.tty)
    fprintf (stderr, "\r\033[K");
  g_clear_error (&e.csv_error);

  if (e.error != NULL)
    {
      if (g_error_matches (e.error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT))
        fprintf (stderr, "cardmark-cli: %s\n%s\n", e.error->message, _("Add --destroy-data to go ahead."));
      else
        cm_cli_print_error (e.error);
      g_clear_error (&e.error);
      return CM_EXIT_FAILED;
    }

  if (json)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (e.result);

      cm_cli_print_json (node);
    }
  else
    print_report (e.result);
  if (cm_job_get_saved_file (job) != NULL)
    fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (cm_job_get_saved_file (job)));
  else if (cm_job_get_save_error (job) != NULL)
    cm_cli_print_error (cm_job_get_save_error (job));

  lost = cm_result_get_endurance (e.result) != NULL && cm_endurance_lost_data (cm_result_get_endurance (e.result));
  g_object_unref (e.result);
  return lost ? CM_EXIT_FAKE : CM_EXIT_OK;
}
