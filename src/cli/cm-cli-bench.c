/* cm-cli-bench.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli bench TARGET: measure, print, save.
 */

#include "config.h"

#include <errno.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "cm-bench.h"
#include "cm-history.h"
#include "cm-job.h"
#include "cm-size.h"
#include "cm-summary.h"
#include "cm-test-table.h"
#include "cm-verdict.h"

#include "cm-cli.h"
#include "cm-cli-jobs.h"
#include "cm-cli-plot.h"
#include "cm-cli-claims.h"

/* The smallest --sustained-limit: SD's largest allocation unit, so that
 * the sustained write, in blocks of the card's allocation unit, always
 * has room for a block (below one it ran nothing and said "not enough
 * free space"). */
#define MIN_SUSTAINED_LIMIT (G_GUINT64_CONSTANT (64) * 1024 * 1024)

/* What the command was asked, the same for every card. */
typedef struct
{
  gboolean      raw;
  gboolean      allow_write;
  CmProfile     profile;
  GStrv         only;
  guint64       sustained_bytes;
  GStrv         claims;
  const char   *brand;
  CmHistory    *history;
  gboolean      json;
  const char   *output;
  const char   *plot;
  guint         sigterm;
} Bench;

/* One card's run. */
typedef struct
{
  guint         n_tests;
  char         *test;
} BenchCard;

static void
bench_card_free (gpointer data)
{
  BenchCard *card = data;

  g_free (card->test);
  g_free (card);
}

static gboolean
interrupted_cb (gpointer user_data)
{
  fprintf (stderr, "\n%s\n", _("Cancelling…"));
  g_cancellable_cancel (user_data);
  return G_SOURCE_CONTINUE;
}

/* The printers watch the job only: each test it begins and its
 * progress; a wait for another card on the bus is the job's bus-paused,
 * which every command says (cm-cli-jobs.c). */
static void
test_started_cb (CmJob       *job,
                 guint        index,
                 guint        n_tests,
                 const char  *name,
                 CmCliTarget *t)
{
  BenchCard *card = t->data;

  /* The test as people say it, "Sequential write", never its name. */
  g_free (card->test);
  card->test = g_strdup (cm_test_table_get_label (name));
  card->n_tests = n_tests;

  if (!t->tty || t->several)
    cm_cli_jobs_say (t, _("Running %s (%u of %u)…\n"), card->test, index + 1, card->n_tests);
}

static void
progress_cb (CmJob       *job,
             GParamSpec  *pspec,
             CmCliTarget *t)
{
  BenchCard *card = t->data;
  g_autofree char *left = NULL;

  if (card->test == NULL)
    return;
  left = g_strdup_printf (_("about %.0f s left"), MAX (cm_job_get_seconds_left (job), 0));
  cm_cli_jobs_progress (t, "%-20s %3.0f %%  %s", card->test, cm_job_get_progress (job) * 100, left);
}


static const char *
mode_label (const char *mode)
{
  if (g_strcmp0 (mode, "raw-read") == 0)
    return _("read-only raw test");
  if (g_strcmp0 (mode, "raw-write") == 0)
    return _("raw test with writes");
  return _("scratch file");
}

/* Numbers go through cm_cli_pad too, so a column is as wide as its
 * heading in any language. */
static void
append_number (GString    *line,
               const char *format,
               double      value,
               int         width)
{
  g_autofree char *text = g_strdup_printf (format, value);

  g_string_append_c (line, ' ');
  cm_cli_pad (line, text, width, TRUE);
}

static void
print_table (CmResult *result)
{
  GPtrArray *tests = cm_result_get_tests (result);
  GPtrArray *notes = cm_result_get_notes (result);
  /* Latencies in milliseconds, as people time a card. */
  const char *headings[] = { _("Test"), "MB/s", "IOPS", _("p50 ms"), _("p99 ms"), _("max ms"), _("Sustained") };
  int widths[] = { 20, 9, 9, 9, 9, 9, 10 };
  g_autoptr(GString) line = g_string_new (NULL);

  printf ("%s  %s  (%s)\n", _("Target:"), cm_result_get_target_path (result),
          mode_label (cm_result_get_target_mode (result)));

  for (guint i = 0; i < tests->len; i++)
    widths[0] = MAX (widths[0], cm_cli_text_width (cm_test_table_get_label (((CmTestResult *) g_ptr_array_index (tests, i))->name)));
  for (guint i = 0; i < G_N_ELEMENTS (headings); i++)
    {
      widths[i] = MAX (widths[i], cm_cli_text_width (headings[i]));
      if (i > 0)
        g_string_append_c (line, ' ');
      cm_cli_pad (line, headings[i], widths[i], i > 0);
    }
  printf ("%s\n", line->str);

  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);

      g_string_truncate (line, 0);
      cm_cli_pad (line, cm_test_table_get_label (t->name), widths[0], FALSE);
      if (t->error != NULL)
        {
          printf ("%s %s\n", line->str, t->error);
          continue;
        }

      append_number (line, "%.2f", t->mb_per_s, widths[1]);
      append_number (line, "%.0f", t->iops, widths[2]);
      append_number (line, "%.2f", t->latency_us[0] / 1000, widths[3]);
      append_number (line, "%.2f", t->latency_us[2] / 1000, widths[4]);
      append_number (line, "%.2f", t->latency_us[3] / 1000, widths[5]);
      if (cm_test_result_get_sustained_mb_per_s (t) > 0)
        append_number (line, "%.2f", cm_test_result_get_sustained_mb_per_s (t), widths[6]);
      printf ("%s\n", line->str);
    }

  cm_cli_print_claims (result);

  for (guint i = 0; i < notes->len; i++)
    printf ("%s %s\n", _("Note:"), (const char *) g_ptr_array_index (notes, i));
}

static gboolean
history_error (GError     **error,
               GFile       *folder,
               const char  *reason)
{
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
               _("Cannot write to the history folder “%s”: %s"),
               g_file_peek_path (folder), reason);
  return FALSE;
}

/* --save: the history folder (the app's too) must exist or be creatable,
 * and writable, before minutes are spent measuring. */
static gboolean
check_history (CmHistory  *history,
               GError    **error)
{
  GFile *folder = cm_history_get_folder (history);
  const char *path = g_file_peek_path (folder);
  int errsv;

  if (g_mkdir_with_parents (path, 0777) != 0 ||
      g_access (path, W_OK | X_OK) != 0)
    {
      errsv = errno;
      return history_error (error, folder, g_strerror (errsv));
    }

  return TRUE;
}

static gboolean
check_outputs (const char  *output,
               const char  *plot,
               CmHistory   *history,
               GError     **error)
{
  if (output != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (output);

      /* A URI with no local path is left to GIO to judge. */
      if (g_file_peek_path (file) != NULL && !cm_cli_check_writable (g_file_peek_path (file), error))
        return FALSE;
    }
  if (plot != NULL && !cm_cli_check_writable (plot, error))
    return FALSE;
  if (history != NULL && !check_history (history, error))
    return FALSE;

  return TRUE;
}

/* The result is printed first, so that a file that cannot be written
 * afterwards never loses a run; each file is still tried. */
static int
write_outputs (CmResult   *result,
               gboolean    json,
               JsonNode  **several,
               CmJob      *job,
               CmHistory  *history,
               const char *output,
               const char *plot)
{
  g_autoptr(GError) error = NULL;
  int status = CM_EXIT_OK;

  if (several != NULL)
    *several = cm_result_to_json (result);
  else if (json)
    {
      g_autofree char *data = cm_result_to_data (result, NULL);

      printf ("%s\n", data);
    }
  else
    print_table (result);
  fflush (stdout);

  if (history != NULL)
    {
      GFile *saved = cm_job_get_saved_file (job);

      if (saved != NULL)
        fprintf (stderr, _("Saved to %s\n"), g_file_peek_path (saved));
      else
        {
          g_autoptr(GError) history_failed = NULL;

          history_error (&history_failed, cm_history_get_folder (history),
                         cm_job_get_save_error (job)->message);
          cm_cli_print_error (history_failed);
          status = CM_EXIT_FAILED;
        }
    }

  if (output != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (output);

      if (!cm_result_save (result, file, &error))
        {
          cm_cli_print_error (error);
          g_clear_error (&error);
          status = CM_EXIT_FAILED;
        }
    }

  if (plot != NULL && !cm_cli_plot_result (result, plot, &error))
    {
      cm_cli_print_error (error);
      g_clear_error (&error);
      status = CM_EXIT_FAILED;
    }

  return status;
}

static char *
test_names (CmPlan *plan)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < cm_plan_get_n_tests (plan); i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", cm_plan_get_test (plan, i)->name);
  return g_string_free (names, FALSE);
}

/* --only "seq-read, rand-read-4k": the names, each one in @plan. */
static GStrv
parse_only (CmPlan      *plan,
            const char  *only,
            GError     **error)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) parts = g_strsplit (only, ",", -1);
  g_auto(GStrv) names = NULL;
  g_autofree char *valid = test_names (plan);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_strstrip (parts[i]);
      if (parts[i][0] == '\0')
        continue;
      if (cm_plan_lookup (plan, parts[i]) == NULL)
        {
          g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                       _("There is no test called “%s” in this profile. Its tests are: %s."),
                       parts[i], valid);
          return NULL;
        }
      g_strv_builder_add (builder, parts[i]);
    }

  names = g_strv_builder_end (builder);
  if (names[0] == NULL)
    {
      g_set_error (error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
                   _("--only needs at least one test name. This profile’s tests are: %s."),
                   valid);
      return NULL;
    }

  return g_steal_pointer (&names);
}

static void
prepare (CmCliTarget *t,
         gpointer     user_data)
{
  Bench *b = user_data;

  t->data = g_new0 (BenchCard, 1);
  t->job = cm_job_new_of_kind (&cm_job_kind_bench, t->target);
  g_object_set (cm_job_get_options (t->job),
                "raw", b->raw,
                "allow-write", b->allow_write,
                "profile", (guint) b->profile,
                "only", b->only,
                "sustained-limit", b->sustained_bytes,
                NULL);
  cm_job_set_claims (t->job, (const char * const *) b->claims);
  cm_job_set_brand (t->job, b->brand);
  cm_job_set_history (t->job, b->history);
  g_signal_connect (t->job, "test-started", G_CALLBACK (test_started_cb), t);
  g_signal_connect (t->job, "notify::progress", G_CALLBACK (progress_cb), t);
}

static guint
watch (GCancellable *cancellable,
       gpointer      user_data)
{
  Bench *b = user_data;

  /* The runner removes SIGINT's source, cm_cli_bench() SIGTERM's. */
  b->sigterm = g_unix_signal_add (SIGTERM, interrupted_cb, cancellable);
  return g_unix_signal_add (SIGINT, interrupted_cb, cancellable);
}

static int
finish (CmCliTarget  *t,
        JsonNode    **json,
        gpointer      user_data)
{
  Bench *b = user_data;
  int status;

  if (t->error != NULL)
    {
      cm_cli_print_error (t->error);
      return CM_EXIT_FAILED;
    }

  status = write_outputs (t->result, b->json, json, t->job, b->history, b->output, b->plot);
  /* Core's note says a higher limit lets it write further; this face
   * says how. */
  for (guint i = 0; i < cm_result_get_tests (t->result)->len; i++)
    if (((CmTestResult *) g_ptr_array_index (cm_result_get_tests (t->result), i))->reached_limit)
      {
        fprintf (stderr, "%s\n", _("Raise the sustained write's limit with --sustained-limit SIZE to let it write further."));
        break;
      }
  return status;
}

int
cm_cli_bench (int    argc,
              char **argv)
{
  g_autofree char *profile_name = NULL;
  g_autofree char *output = NULL;
  g_autofree char *plot = NULL;
  g_auto(GStrv) claims = NULL;
  g_autofree char *brand_arg = NULL;
  g_autofree char *brand = NULL;
  g_autofree char *claims_csv = NULL;
  g_autofree char *only = NULL;
  g_autofree char *sustained_limit = NULL;
  guint64 sustained_bytes = 0;
  g_auto(GStrv) only_names = NULL;
  g_auto(GStrv) claim_classes = NULL;
  gboolean raw = FALSE, allow_write = FALSE, json = FALSE, save = FALSE;
  GOptionEntry entries[] = {
    { "profile", 0, 0, G_OPTION_ARG_STRING, &profile_name, N_("quick (about a minute) or full"), "PROFILE" },
    { "raw", 0, 0, G_OPTION_ARG_NONE, &raw, N_("Test the whole device, read-only unless --allow-write"), NULL },
    { "allow-write", 0, 0, G_OPTION_ARG_NONE, &allow_write, N_("Also write to an unmounted device, putting back what was there"), NULL },
    { "claim", 0, 0, G_OPTION_ARG_STRING_ARRAY, &claims, N_("Classes printed on the card, such as U3,V30,A2"), "CLASS" },
    { "brand", 0, 0, G_OPTION_ARG_FILENAME, &brand_arg, N_("The brand printed on the card"), "NAME" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print only the result document, as JSON"), NULL },
    { "save", 0, 0, G_OPTION_ARG_NONE, &save, N_("Keep the result in the history"), NULL },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("Also write the result document to FILE"), "FILE" },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &plot, N_("Draw the charts to FILE.png, .svg or .pdf"), "FILE" },
    { "only", 0, 0, G_OPTION_ARG_STRING, &only, N_("Run only these tests, such as rand-read-4k,seq-read"), "TEST" },
    { "sustained-limit", 0, 0, G_OPTION_ARG_STRING, &sustained_limit, N_("How far the full profile’s sustained write may go at most, such as 16GiB (default 8GiB, at least 64MiB)"), "SIZE" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("TARGET… — measure cards, several at once"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmPlan) plan = NULL;
  g_autoptr(CmHistory) history = NULL;
  const CmCliJobsFuncs funcs = { prepare, finish, watch, bench_card_free, cm_job_kind_bench.name, NULL };
  CmProfile profile = CM_PROFILE_QUICK;
  Bench bench = { 0 };
  int status;
  g_autofree char *description = g_strdup_printf ("%s\n\n%s\n\n%s",
    _("TARGET is a folder on the card (a safe test in a scratch file) or the card's device (a raw test, read-only unless --allow-write)."),
    cm_size_describe_syntax (), cm_cli_jobs_describe ());

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  g_option_context_set_description (context, description);

  if (!cm_cli_parse_job_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if ((status = cm_cli_check_operands (context, argc, argv, 1, G_MAXINT, _("bench needs a TARGET (or several)."))) != CM_EXIT_OK)
    return status;
  if (profile_name != NULL && !cm_profile_from_string (profile_name, &profile))
    return cm_cli_usage_error (context, _("--profile must be quick or full."));
  if (sustained_limit != NULL &&
      !cm_size_parse (sustained_limit, "--sustained-limit", MIN_SUSTAINED_LIMIT, &sustained_bytes, &error))
    return cm_cli_usage_error (context, error->message);
  if (!cm_cli_option_text ("--brand", brand_arg, &brand, &error))
    return cm_cli_usage_error (context, error->message);

  /* --claim may be given several times, each a list: check before running. */
  claims_csv = claims != NULL ? g_strjoinv (",", claims) : NULL;
  claim_classes = cm_verdict_parse_classes (claims_csv, &error);
  if (error != NULL)
    return cm_cli_usage_error (context, error->message);

  if ((plot != NULL || output != NULL) && argc > 2)
    return cm_cli_usage_error (context, _("--output and --plot are for one card: give them one TARGET."));
  if (plot != NULL && !cm_cli_is_chart_name (plot))
    {
      g_autofree char *message = g_strdup_printf (_("Cannot tell the chart format from “%s”. Name the file .png, .svg or .pdf."), plot);

      return cm_cli_usage_error (context, message);
    }

  /* The tests of a profile do not depend on the card: check the names
   * before touching it. */
  plan = cm_plan_new (profile, 0);
  if (only != NULL && (only_names = parse_only (plan, only, &error)) == NULL)
    return cm_cli_usage_error (context, error->message);
  g_clear_object (&plan);

  /* Everything that is written after the run is checked before it. */
  /* A result for the store is kept in the history too: it waits there
   * while the store cannot be reached. */
  if (save || cm_cli_get_store_url () != NULL)
    history = cm_cli_history_new ();
  if (!check_outputs (output, plot, history, &error))
    return cm_cli_usage_error (context, error->message);

  bench.raw = raw;
  bench.allow_write = allow_write;
  bench.profile = profile;
  bench.only = only_names;
  bench.sustained_bytes = sustained_bytes;
  bench.claims = claim_classes;
  bench.brand = brand;
  bench.history = history;
  bench.json = json;
  bench.output = output;
  bench.plot = plot;
  status = cm_cli_jobs_run (&funcs, argv + 1, argc - 1, json, &bench);
  g_source_remove (bench.sigterm);

  return status;
}
