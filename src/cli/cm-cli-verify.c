/* cm-cli-verify.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli verify TARGET: write every free byte, read it all back.
 * The work is core's (cm-verify.c); this turns options into flags and
 * shows what it reports.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm-card-lock.h"
#include "cm-chart.h"
#include "cm-history.h"
#include "cm-job.h"
#include "cm-outcome.h"
#include "cm-test-table.h"
#include "cm-verify.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"

/* What the command was asked, the same for every card. */
typedef struct
{
  CmVerifyFlags flags;
  CmHistory    *history;
  gboolean      read_only;
  gboolean      json;
  const char   *plot;
  int           signal_fd;
} Verify;

static void
progress_cb (CmVerify    *verify,
             guint        phase,
             double       fraction,
             double       mb_per_s,
             double       seconds_left,
             CmCliTarget *t)
{
  g_autofree char *left = cm_cli_format_duration (seconds_left);

  cm_cli_jobs_progress (t, "%s %3.0f %%  %.1f MB/s  %s %s",
                        phase == CM_VERIFY_PHASE_WRITE ? _("Writing…") : _("Reading back…"),
                        fraction * 100, mb_per_s, left, _("left"));
}

/* The verify's own progress carries its speed, which the line shows. */
static void
verify_started_cb (CmJob       *job,
                   GParamSpec  *pspec,
                   CmCliTarget *t)
{
  CmVerify *verify = cm_job_get_verify (job);
  Verify *v = t->data;

  /* The phase is first told once the verify is prepared. */
  if (verify == NULL)
    return;
  g_signal_handlers_disconnect_by_func (job, verify_started_cb, t);
  g_signal_connect (verify, "progress", G_CALLBACK (progress_cb), t);
  if (v->read_only)
    cm_cli_jobs_say (t, _("Checking the .h2w files in %s…\n"), cm_verify_get_folder (verify));
  else if (cm_verify_get_mode (verify) == CM_VERIFY_MODE_FILES)
    cm_cli_jobs_say (t, _("Verifying the free space of %s…\n"), cm_verify_get_folder (verify));
  else
    cm_cli_jobs_say (t, _("Verifying all of %s…\n"), t->target);
}

static void
print_report (CmResult *result)
{
  const CmVerifySummary *s = cm_result_get_verify (result);
  g_autoptr(CmOutcome) outcome = cm_result_dup_outcome (result);
  CmVerifyFacts facts;
  g_autofree char *ok = NULL;
  g_autofree char *lost = NULL;
  g_autofree char *written = NULL;

  /* The same facts as the answer and the sentence under them. */
  cm_verify_facts_for_result (result, &facts);
  ok = g_format_size (facts.usable_bytes);
  lost = g_format_size (facts.lost_bytes);
  written = g_format_size (facts.written_bytes);
  printf ("%s\n\n", outcome->answer != NULL ? outcome->answer : outcome->badge);
  if (facts.written_bytes > 0)
    printf (_("Written:      %s\n"), written);
  printf (_("Data OK:      %s (%llu sectors)\n"), ok, (unsigned long long) s->sectors_ok);
  printf (_("Data lost:    %s\n"), lost);
  printf (_("  corrupted:   %llu sectors\n"), (unsigned long long) s->sectors_corrupted);
  printf (_("  changed:     %llu sectors\n"), (unsigned long long) s->sectors_changed);
  printf (_("  overwritten: %llu sectors\n"), (unsigned long long) s->sectors_overwritten);
  printf (_("  unreadable:  %llu sectors\n"), (unsigned long long) s->sectors_unreadable);
  if (facts.unreached_bytes > 0)
    {
      g_autofree char *unreached = g_format_size (facts.unreached_bytes);

      printf (_("Not reached:  %s\n"), unreached);
    }
  for (guint i = 0; i < cm_result_get_tests (result)->len; i++)
    {
      CmTestResult *test = g_ptr_array_index (cm_result_get_tests (result), i);
      g_autoptr(GString) line = g_string_new (NULL);

      /* A card that stopped answering gave nothing back: no speed. */
      if (test->bytes == 0)
        continue;
      /* Padded by the width on screen, as the translated lines above are. */
      cm_cli_pad (line, g_str_equal (test->name, CM_TEST_VERIFY_WRITE) ? _("Write speed:") : _("Read speed:"),
                  13, FALSE);
      printf ("%s %.1f MB/s\n", line->str, test->mb_per_s);
    }
  for (guint i = 0; i < s->bad_regions->len && i < 5; i++)
    {
      const CmRegion *r = &g_array_index (s->bad_regions, CmRegion, i);
      g_autofree char *from = g_format_size (r->start);
      g_autofree char *size = g_format_size (r->end - r->start);

      printf (_("Bad region:   from %s, %s (bytes %llu–%llu)\n"),
              from, size, (unsigned long long) r->start, (unsigned long long) r->end);
    }
  if (s->bad_regions->len > 5)
    printf (_("…and %u more bad regions\n"), s->bad_regions->len - 5);
  printf ("\n%s\n", cm_result_get_summary (result));
}

static void
save_outputs (CmJob      *job,
              CmResult   *result,
              gboolean    json,
              JsonNode  **several,
              const char *plot)
{
  GFile *saved = cm_job_get_saved_file (job);
  g_autoptr(GError) error = NULL;

  if (several != NULL)
    *several = cm_result_to_json (result);
  else if (json)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (result);

      cm_cli_print_json (node);
    }
  else
    print_report (result);

  if (saved != NULL)
    fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (saved));
  else if (cm_job_get_save_error (job) != NULL)
    cm_cli_print_error (cm_job_get_save_error (job));

  if (plot != NULL)
    {
      g_autoptr(GPtrArray) results = g_ptr_array_new ();

      g_ptr_array_add (results, result);
      if (!cm_chart_export (plot, CM_CHART_VERIFY, results, 1000, 600, &error))
        cm_cli_print_error (error);
    }
}

static gboolean
is_chart_name (const char *name)
{
  return g_str_has_suffix (name, ".png") || g_str_has_suffix (name, ".svg") || g_str_has_suffix (name, ".pdf");
}

/* @text as a shell reads it back: as it is where nothing in it needs
 * quoting (/dev/sdb), else quoted; either way printable. */
static char *
dup_shell_word (const char *text)
{
  g_autofree char *quoted = NULL;

  if (*text != '\0' && strspn (text, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._-+:@,=") == strlen (text))
    return cm_cli_dup_printable (text, TRUE);
  quoted = g_shell_quote (text);
  return cm_cli_dup_printable (quoted, TRUE);
}

static void
explain_stop (CmVerify     *verify,
              const char   *target,
              const GError *error)
{
  g_autofree char *shown = dup_shell_word (target);

  if (g_error_matches (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_FILES_EXIST))
    {
      /* Translators: %s is the folder, as the command needs it */
      fprintf (stderr, _("Carry on with “cardmark-cli verify %s --resume”, or check them as they are with "
                         "“cardmark-cli verify %s --read-only”.\n"), shown, shown);
      return;
    }
  /* A state refused, or another run's, is not one to carry on with: the
   * error said what to do. */
  if (verify == NULL || !cm_verify_has_saved_state (verify) ||
      g_error_matches (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED) ||
      g_error_matches (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD) ||
      g_error_matches (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_BUSY) ||
      g_error_matches (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY))
    return;
  if (cm_verify_get_mode (verify) == CM_VERIFY_MODE_FILES)
    /* Translators: the first %s is the folder as the command needs it,
     * the second where the files are */
    fprintf (stderr, _("What was done is kept. Carry on with “cardmark-cli verify %s --resume”, or delete the .h2w files in %s.\n"),
             shown, cm_verify_get_folder (verify));
  else
    /* Translators: %s is the card's device */
    fprintf (stderr, _("What was done is kept. Carry on with “cardmark-cli verify %s --resume --destroy-data”.\n"), shown);
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Verify *v = user_data;

  t->data = v;
  t->job = cm_job_new_of_kind (&cm_job_kind_verify, t->target);
  g_object_set (cm_job_get_options (t->job),
                "resume", (v->flags & CM_VERIFY_FLAGS_RESUME) != 0,
                "keep", (v->flags & CM_VERIFY_FLAGS_KEEP) != 0,
                "read-only", (v->flags & CM_VERIFY_FLAGS_READ_ONLY) != 0,
                NULL);
  cm_job_set_destroy_data (t->job, (v->flags & CM_VERIFY_FLAGS_DESTROY_DATA) != 0);
  cm_job_set_history (t->job, v->history);
  g_signal_connect (t->job, "notify::phase", G_CALLBACK (verify_started_cb), t);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  return cm_cli_watch_end_signals (((Verify *) user_data)->signal_fd, cancellable);
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Verify *v = user_data;

  if (t->error != NULL)
    {
      /* A missing --destroy-data is a usage error, found before the
       * card is touched. */
      if (g_error_matches (t->error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT))
        {
          fprintf (stderr, "cardmark-cli: %s\n%s\n", t->error->message, _("Add --destroy-data to go ahead."));
          return CM_EXIT_USAGE;
        }
      else
        cm_cli_print_error (t->error);
      explain_stop (t->job != NULL ? cm_job_get_verify (t->job) : NULL, t->target, t->error);
      return CM_EXIT_FAILED;
    }

  save_outputs (t->job, t->result, v->json, json, v->plot);
  return CM_EXIT_OK;
}

int
cm_cli_verify (int    argc,
               char **argv)
{
  gboolean resume = FALSE, keep = FALSE, read_only = FALSE, destroy = FALSE, json = FALSE;
  g_autofree char *plot = NULL;
  GOptionEntry entries[] = {
    { "resume", 0, 0, G_OPTION_ARG_NONE, &resume, N_("Carry on with a verify that was stopped"), NULL },
    { "keep", 0, 0, G_OPTION_ARG_NONE, &keep, N_("Leave the .h2w files on the card at the end"), NULL },
    { "read-only", 0, 0, G_OPTION_ARG_NONE, &read_only, N_("Check the .h2w files already in the folder (from f3write)"), NULL },
    { "destroy-data", 0, 0, G_OPTION_ARG_NONE, &destroy, N_("Overwrite the whole device, destroying everything on it"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the result document as JSON"), NULL },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, N_("Draw speed against position to FILE.png, .svg or .pdf"), "FILE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TARGET… — write every free byte of cards and read it back"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = NULL;
  g_autofree char *description = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, NULL, cm_job_kind_verify.name, NULL };
  CmVerifyFlags flags = CM_VERIFY_FLAGS_NONE;
  Verify v = { 0 };
  int status;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  description = g_strdup_printf ("%s\n\n%s",
    _("In a folder (or a mounted card), verify fills the free space with F3's 1 GB files (1.h2w, 2.h2w, …), reads them back "
      "and removes them. An unmounted card is verified whole, which destroys its data: that needs --destroy-data. "
      "Ctrl-C keeps what was done for --resume. The result is kept in the history. "
      "Exit status: 0 every byte came back, 4 data was lost, 1 the run failed, 2 usage."),
    cm_cli_jobs_describe ());
  g_option_context_set_description (context, description);
  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc < 2)
    return cm_cli_usage_error (context, _("verify needs a TARGET, a folder or a device (or several)."));
  for (int i = 1; i < argc; i++)
    if (argv[i][0] == '\0')
      return cm_cli_usage_error (context, _("The TARGET is empty. Give a folder on the card, or the card's device, such as /dev/mmcblk0."));
  if (plot != NULL && argc > 2)
    return cm_cli_usage_error (context, _("--plot draws one card: give it one TARGET."));
  if (read_only && (destroy || resume))
    return cm_cli_usage_error (context, _("--read-only only reads: it cannot be combined with --destroy-data or --resume."));
  if (plot != NULL && !is_chart_name (plot))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot tell the chart format from “%s”. Name the file .png, .svg or .pdf."), plot);
      return cm_cli_usage_error (context, message);
    }
  if (plot != NULL && !cm_cli_check_writable (plot, &error))
    return cm_cli_usage_error (context, error->message);

  flags |= resume ? CM_VERIFY_FLAGS_RESUME : 0;
  flags |= keep ? CM_VERIFY_FLAGS_KEEP : 0;
  flags |= read_only ? CM_VERIFY_FLAGS_READ_ONLY : 0;
  flags |= destroy ? CM_VERIFY_FLAGS_DESTROY_DATA : 0;
  /* Blocked before any thread starts, so none of them takes one. */
  v.signal_fd = cm_cli_block_end_signals ();
  history = cm_cli_history_new ();
  v.flags = flags;
  v.history = history;
  v.read_only = read_only;
  v.json = json;
  v.plot = plot;
  status = cm_cli_jobs_run (&funcs, argv + 1, argc - 1, json, &v);
  close (v.signal_fd);
  return status;
}
