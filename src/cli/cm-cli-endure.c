/* cm-cli-endure.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli endure DEVICE --destroy-data: the wear test. The work is
 * core's (cm-job-wear.c, cm-wear.c, cm-wear-state.c); this turns options
 * into the job's limits, shows its progress, appends each round to --csv
 * and prints the document, with the maker's endurance beside it.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-file.h"
#include "cm-history.h"
#include "cm-job.h"
#include "cm-job-wear.h"
#include "cm-verify.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"
#include "cm-cli-kind-options.h"
#include "cm-cli-number.h"

/* What the command was asked, the same for every card. */
typedef struct
{
  gboolean    destroy;
  gboolean    resume;
  guint64     maker_bytes;
  double      seconds;
  gboolean    json;
  const char *csv;
  int         csv_fd;
  gboolean    csv_fresh;
  gboolean    csv_flash;          /* the file has the flash columns */
  GError     *csv_error;
  guint       csv_last_round;     /* the last round this run saw end, or 0 */
  guint64     csv_bytes_before;   /* bytes_written at its end */
  CmHistory  *history;
  CmCliKindOptions *kind_options;   /* --rounds */
  int         signal_fd;
} Endure;

#define CSV_HEADER_FIRST "round,write_mb_per_s,read_mb_per_s,sectors,bad_sectors,new_bad_sectors,bytes_written,seconds"
#define CSV_HEADER CSV_HEADER_FIRST ",flash_bytes_written,write_amplification\n"

/* A file begun before the flash columns keeps its columns, so its lines
 * stay one table. Only its first line is read, and no more of it than
 * the old header and the end of its line: the file may hold the rounds
 * of weeks. @append_fd is the file opened to add to; a file put in its
 * place since is not read. */
static gboolean
csv_has_flash_columns (const char *path,
                       int         append_fd)
{
  const gsize length = strlen (CSV_HEADER_FIRST);
  char head[sizeof CSV_HEADER_FIRST + 1];
  struct stat read_st, append_st;
  gboolean same;
  ssize_t n;
  int fd;

  if ((fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0)
    return TRUE;
  same = fstat (fd, &read_st) == 0 && fstat (append_fd, &append_st) == 0 &&
         read_st.st_dev == append_st.st_dev && read_st.st_ino == append_st.st_ino;
  do
    n = same ? pread (fd, head, length + 1, 0) : -1;
  while (n < 0 && errno == EINTR);
  close (fd);
  /* The old header, alone on its line or in the file. */
  if (n >= (ssize_t) length && memcmp (head, CSV_HEADER_FIRST, length) == 0 &&
      (n == (ssize_t) length || head[length] == '\n'))
    return FALSE;
  return TRUE;
}

/* ",FLASH,AMPLIFICATION" for the round, empty where the card did not
 * tell; wrote is what the round wrote (0: not known). */
static char *
dup_csv_flash (const CmWearRound *r,
               guint64            wrote)
{
  char a[G_ASCII_DTOSTR_BUF_SIZE] = "";

  if (!r->flash_known)
    return g_strdup (",,");
  if (wrote > 0)
    g_ascii_formatd (a, sizeof a, "%.3f", (double) r->flash_bytes_written / wrote);
  return g_strdup_printf (",%llu,%s", (unsigned long long) r->flash_bytes_written, a);
}

static void
progress_cb (CmJob       *job,
             GParamSpec  *pspec,
             CmCliTarget *t)
{
  g_autofree char *left = NULL;

  if (cm_job_get_phase (job) == NULL)
    return;
  left = cm_cli_format_duration (cm_job_get_seconds_left (job));
  cm_cli_jobs_progress (t, "%s  %3.0f %%  %s %s", cm_job_get_phase (job),
                        cm_job_get_progress (job) * 100, left, _("left"));
}

/* --csv: one line per round as it ends, after a header when the file is
 * new, so a run left for weeks can be followed and plotted. The file was
 * opened before the card was touched (cm_file_open_append()). */
static gboolean
append_csv (Endure             *e,
            const CmWearRound  *r,
            guint64             wrote,
            GError            **error)
{
  char w[G_ASCII_DTOSTR_BUF_SIZE], rd[G_ASCII_DTOSTR_BUF_SIZE], s[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *line = NULL;
  g_autofree char *flash = e->csv_flash ? dup_csv_flash (r, wrote) : g_strdup ("");
  gsize done = 0, length;

  line = g_strdup_printf ("%s%u,%s,%s,%llu,%llu,%llu,%llu,%s%s\n", e->csv_fresh ? CSV_HEADER : "", r->round,
                          g_ascii_formatd (w, sizeof w, "%.2f", r->write_mb_per_s),
                          g_ascii_formatd (rd, sizeof rd, "%.2f", r->read_mb_per_s),
                          (unsigned long long) r->sectors, (unsigned long long) r->bad_sectors,
                          (unsigned long long) r->new_bad_sectors, (unsigned long long) r->bytes_written,
                          g_ascii_formatd (s, sizeof s, "%.1f", r->seconds), flash);
  length = strlen (line);
  while (done < length)
    {
      ssize_t n = write (e->csv_fd, line + done, length - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0 || fdatasync (e->csv_fd) != 0)
        {
          int errsv = n == 0 ? ENOSPC : errno;
          g_autofree char *name = cm_cli_dup_printable (e->csv, FALSE);

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       _("Cannot add to “%s”: %s"), name, g_strerror (errsv));
          return FALSE;
        }
      done += n;
    }
  e->csv_fresh = FALSE;
  return TRUE;
}

/* What the round wrote, or 0 when not known here: a resumed test's first
 * round follows rounds this run did not see. */
static guint64
round_wrote (const Endure      *e,
             const CmWearRound *r)
{
  if (r->round == 1)
    return r->bytes_written;
  if (e->csv_last_round == r->round - 1 && r->bytes_written >= e->csv_bytes_before)
    return r->bytes_written - e->csv_bytes_before;
  return 0;
}

static void
round_cb (CmJob             *job,
          const CmWearRound *r,
          gpointer           user_data)
{
  CmCliTarget *t = user_data;
  Endure *e = t->data;
  g_autofree char *written = g_format_size (r->bytes_written);

  cm_cli_jobs_say (t, _("Round %u: %llu of %llu sectors bad (%llu new), write %.1f MB/s, read %.1f MB/s, %s written so far\n"),
                   r->round, (unsigned long long) r->bad_sectors, (unsigned long long) r->sectors,
                   (unsigned long long) r->new_bad_sectors, r->write_mb_per_s, r->read_mb_per_s, written);
  if (e->csv != NULL && e->csv_error == NULL && !append_csv (e, r, round_wrote (e, r), &e->csv_error))
    cm_cli_print_error (e->csv_error);
  e->csv_last_round = r->round;
  e->csv_bytes_before = r->bytes_written;
}

/* " (12.5 % of the maker's endurance)" after a figure, when the maker said. */
static char *
beside_maker (const CmEndurance *en,
              guint64            bytes)
{
  if (en->maker_bytes == 0)
    return g_strdup ("");
  return g_strdup_printf (_(" (%.1f %% of the maker's endurance)"), 100.0 * bytes / en->maker_bytes);
}

static void
print_report (CmResult *result)
{
  static const char *names[CM_ENDURANCE_N_THRESHOLDS] = {
    N_("First error:"), N_("0.1 % bad:"), N_("1 % bad:"), N_("10 % bad:"), N_("25 % bad:"), N_("50 % bad:"),
  };
  const CmEndurance *en = cm_result_get_endurance (result);

  printf (_("Rounds:       %u\n"), en->rounds->len);
  if (en->maker_bytes > 0)
    {
      g_autofree char *maker = g_format_size (en->maker_bytes);

      printf (_("Maker says:   %s written (%llu bytes)\n"), maker, (unsigned long long) en->maker_bytes);
    }
  for (guint i = 0; i < CM_ENDURANCE_N_THRESHOLDS; i++)
    {
      g_autoptr(GString) line = g_string_new (NULL);
      guint round;
      guint64 bytes;

      cm_cli_pad (line, _(names[i]), 13, FALSE);
      if (cm_endurance_get_threshold (en, i, &round, &bytes))
        {
          g_autofree char *written = g_format_size (bytes);
          g_autofree char *maker = beside_maker (en, bytes);

          printf (_("%s round %u, after %s written%s\n"), line->str, round, written, maker);
        }
      else
        printf (_("%s not reached\n"), line->str);
    }
  printf ("\n%s\n", cm_result_get_summary (result));
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Endure *e = user_data;

  t->data = e;
  t->job = cm_job_new_of_kind (&cm_job_kind_wear, t->target);
  cm_job_set_destroy_data (t->job, e->destroy);
  cm_cli_kind_options_apply (e->kind_options, t->job);
  g_object_set (cm_job_get_options (t->job),
                "resume", e->resume,
                "seconds", e->seconds,
                "maker-bytes", e->maker_bytes,
                NULL);
  cm_job_wear_options_set_round_func (cm_job_get_options (t->job), round_cb, t);
  cm_job_set_history (t->job, e->history);
  g_signal_connect (t->job, "notify::progress", G_CALLBACK (progress_cb), t);
  g_signal_connect (t->job, "notify::phase", G_CALLBACK (progress_cb), t);
  if (e->resume)
    cm_cli_jobs_say (t, _("Wear test of %s: carrying on where it stopped…\n"), t->target);
  else
    cm_cli_jobs_say (t, _("Wear test of %s: every round writes all of it and reads it back…\n"), t->target);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  return cm_cli_watch_end_signals (((Endure *) user_data)->signal_fd, cancellable);
}

/* The command that carries on with a wear test whose place is kept. */
static char *
resume_command (CmCliTarget *t)
{
  /* Translators: %s is the card's device, "/dev/sdb" */
  return g_strdup_printf (_("Where it stopped is kept: carry on with “cardmark-cli endure --resume --destroy-data %s”."),
                          t->target);
}

/* A stopped test is saved and this one did not ask to carry on with it:
 * core says so, and this face says its command, on the same line. */
static void
print_saved_error (CmCliTarget *t)
{
  g_autoptr(GError) error = g_error_copy (t->error);
  /* Translators: %s is the card's device, "/dev/sdb" */
  g_autofree char *command = g_strdup_printf (_("To carry on: “cardmark-cli endure --resume --destroy-data %s”."), t->target);
  char *both = g_strdup_printf ("%s %s", error->message, command);

  g_free (error->message);
  error->message = both;
  cm_cli_print_error (error);
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Endure *e = user_data;
  const CmEndurance *endurance;

  if (t->error != NULL)
    {
      /* A missing --destroy-data is a usage error, found before the
       * card is touched. */
      if (g_error_matches (t->error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT))
        {
          fprintf (stderr, "cardmark-cli: %s\n%s\n", t->error->message, _("Add --destroy-data to go ahead."));
          return CM_EXIT_USAGE;
        }
      else if (g_error_matches (t->error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_SAVED))
        print_saved_error (t);
      else
        cm_cli_print_error (t->error);
      /* The card went away with its place saved: core said so, and this
       * face says the command that carries on. */
      if (g_error_matches (t->error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED))
        {
          g_autofree char *command = resume_command (t);

          fprintf (stderr, "%s\n", command);
        }
      return CM_EXIT_FAILED;
    }

  if (json != NULL)
    *json = cm_result_to_json (t->result);
  else if (e->json)
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

  /* A card that went away, or refused the work, did not finish its test:
   * why, and how to carry on (the document's notes), on this card's
   * line, so that in a run of several the card is named. Its exit status
   * is the outcome's (1, a run that failed). */
  endurance = cm_result_get_endurance (t->result);
  if (endurance != NULL && !cm_endurance_lost_data (endurance) && (g_strcmp0 (endurance->stopped, "card-gone") == 0 || g_strcmp0 (endurance->stopped, "failed") == 0))
    {
      GPtrArray *notes = cm_result_get_notes (t->result);

      for (guint i = 0; notes != NULL && i < notes->len; i++)
        {
          g_autofree char *note = cm_cli_dup_printable (g_ptr_array_index (notes, i), FALSE);

          cm_cli_jobs_say (t, "%s\n", note);
        }
      if (g_strcmp0 (endurance->stopped, "card-gone") == 0)
        {
          g_autofree char *command = resume_command (t);

          cm_cli_jobs_say (t, "%s\n", command);
        }
    }
  return CM_EXIT_OK;
}

/* After a stop that kept its rounds: the command that carries on. */
static char *
resume_hint (CmCliTarget *t,
             gpointer     user_data)
{
  const CmEndurance *endurance = t->result != NULL ? cm_result_get_endurance (t->result) : NULL;

  /* No round ended: a stop still kept where it stood; a failure said
   * what to do itself, and so did a card that went away (its notes). */
  if (t->result == NULL && !g_error_matches (t->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return NULL;
  if (endurance != NULL && g_strcmp0 (endurance->stopped, "card-gone") == 0)
    return NULL;
  return resume_command (t);
}

int
cm_cli_endure (int    argc,
               char **argv)
{
  gboolean destroy = FALSE, json = FALSE, resume = FALSE;
  double hours = 0, tbw = 0, video_hours = 0, video_mbps = 0;
  g_autofree char *csv = NULL;
  const CmCliKindOption wear_options[] = { { "rounds", "N" } };
  g_autoptr(CmCliKindOptions) kind_options = cm_cli_kind_options_new (&cm_job_kind_wear, wear_options,
                                                                      G_N_ELEMENTS (wear_options));
  GOptionEntry entries[] = {
    { "destroy-data", 0, 0, G_OPTION_ARG_NONE, &destroy, N_("Overwrite the whole device again and again, destroying everything on it"), NULL },
    { "hours", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("Start no round after H hours of the test, earlier runs included (default: no limit)"), "H" },
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, N_("Carry on with a wear test that was stopped, from the round and place it stopped"), NULL },
    { "tbw", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("The maker's endurance: TB (10^12 bytes) written, to set the measured figures beside"), "TB" },
    { "video-hours", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("The maker's endurance as hours of video recording (with --video-mbps)"), "H" },
    { "video-mbps", 0, 0, G_OPTION_ARG_CALLBACK, (gpointer) cm_cli_number_option_cb, N_("The bitrate the maker states for those hours, in Mbit/s"), "M" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &csv, N_("Append one line per round to FILE as it ends"), "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("DEVICE… — write and check whole cards round after round, until they wear out"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = NULL;
  g_autofree char *description = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, cm_job_kind_wear.name, resume_hint };
  Endure e = { 0 };
  int status;

  /* The wear test's own options, made from its GParamSpecs. */
  cm_cli_kind_options_add (kind_options, context);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  description = g_strdup_printf ("%s\n\n%s",
    _("A round writes the whole unmounted card with data that differs each round, then reads it all back in a shuffled order "
      "and counts the 512-byte sectors that came back wrong. The test stops after --rounds or --hours, when half the card "
      "comes back wrong, or on Ctrl-C, and keeps the rounds it finished. Where it stopped is saved (on Ctrl-C, a crash or a "
      "pulled card), and --resume carries on from that round and place, once the card shows it is the same one; a new test "
      "of a card with a saved one is refused until you carry on or delete the state. It destroys the card's data and wears "
      "the card: that needs --destroy-data. With the maker's endurance (--tbw, or --video-hours and --video-mbps: "
      "hours × 3600 × Mbit/s × 10^6 ÷ 8 bytes), the bytes written by the first error and each threshold are set beside it. "
      "The result is kept in the history. "
      "Exit status: 0 every round came back whole, 4 data was lost, 5 stopped before its end (Ctrl-C, a signal: "
      "carry on with --resume), 1 the run failed (or the card went away: carry on with --resume), 2 usage."),
    cm_cli_jobs_describe ());
  g_option_context_set_description (context, description);
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc < 2)
    return cm_cli_usage_error (context, _("endure needs a DEVICE, a whole card such as /dev/mmcblk0 (or several)."));
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '\0')
      return cm_cli_usage_error (context, _("The DEVICE is empty. Give the card's device, such as /dev/mmcblk0."));
  /* Left out, a limit is none; given, the table saw it is above 0. */
  cm_cli_number_get ("hours", &hours);
  cm_cli_number_get ("tbw", &tbw);
  cm_cli_number_get ("video-hours", &video_hours);
  cm_cli_number_get ("video-mbps", &video_mbps);
  if (!cm_endurance_maker_bytes_from (tbw, video_hours, video_mbps, &e.maker_bytes, &error))
    return cm_cli_usage_error (context, error->message);
  if (csv != NULL && argc > 2)
    return cm_cli_usage_error (context, _("--csv follows one card: give it one DEVICE."));
  e.csv_fd = -1;
  if (csv != NULL && (e.csv_fd = cm_file_open_append (csv, &e.csv_fresh, &error)) >= 0)
    e.csv_flash = e.csv_fresh || csv_has_flash_columns (csv, e.csv_fd);
  if (csv != NULL && e.csv_fd < 0)
    return cm_cli_usage_error (context, error->message);

  e.kind_options = kind_options;
  e.signal_fd = cm_cli_block_end_signals ();
  history = cm_cli_history_new ();
  e.destroy = destroy;
  e.resume = resume;
  e.seconds = hours * 3600;
  e.json = json;
  e.csv = csv;
  e.history = history;
  status = cm_cli_jobs_run (&funcs, argv + 1, argc - 1, json, &e);
  close (e.signal_fd);
  if (e.csv_fd >= 0 && close (e.csv_fd) != 0 && e.csv_error == NULL)
    {
      g_set_error (&e.csv_error, G_IO_ERROR, G_IO_ERROR_FAILED, _("Cannot add to “%s”: %s"), csv, g_strerror (errno));
      cm_cli_print_error (e.csv_error);
    }
  /* The rounds the file lacks are a failed run, whatever the card did. */
  if (e.csv_error != NULL)
    status = MAX (status, CM_EXIT_FAILED);
  g_clear_error (&e.csv_error);
  return status;
}
