/* cm-cli-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli history: past results, oldest first, side by side.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "cm-batch-report.h"
#include "cm-test-table.h"
#include "cm-history.h"
#include "cm-job.h"
#include "cm-summary.h"

#include "cm-cli.h"

static double
figure (CmResult   *result,
        const char *test_name,
        gboolean    iops)
{
  CmTestResult *test = cm_result_lookup_test (result, test_name);

  if (test == NULL || test->error != NULL)
    return -1;

  return iops ? test->iops : test->mb_per_s;
}

/* The columns of the table, in terminal columns; the headings of the
 * user's language may widen them. */
enum {
  COLUMN_WHEN,
  COLUMN_CARD,
  COLUMN_RUN,
  COLUMN_WRITE,
  COLUMN_READ,
  COLUMN_RAND_WRITE,
  COLUMN_RAND_READ,
  N_COLUMNS
};

static void
append_figure (GString *line,
               double   value,
               int      width)
{
  g_autofree char *text = value < 0 ? g_strdup ("–") : g_strdup_printf ("%.*f", value < 100 ? 1 : 0, value);

  g_string_append_c (line, ' ');
  cm_cli_pad (line, text, width, TRUE);
}

static void
print_row (CmResult  *result,
           const int *widths)
{
  g_autofree char *when = g_date_time_format (cm_result_get_started (result), "%Y-%m-%d %H:%M");
  /* The card as the app's History titles it: brand or maker and product,
   * size, name. */
  g_autofree char *card = cm_summary_dup_card_title (result);
  gboolean bench = cm_job_kind_measures_speed (cm_result_get_kind (result));
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *verdict = NULL;
  g_autofree char *summary = NULL;
  CmStatus status;

  cm_cli_pad (line, when, widths[COLUMN_WHEN], FALSE);
  g_string_append_c (line, ' ');
  cm_cli_pad (line, card != NULL && *card != '\0' ? card : "?", widths[COLUMN_CARD], FALSE);
  g_string_append_c (line, ' ');
  /* A benchmark by its profile, every other job by its kind. */
  cm_cli_pad (line, bench ? cm_result_get_profile (result) : cm_job_kind_get_title (cm_result_get_kind (result)),
              widths[COLUMN_RUN], FALSE);
  /* A full verify has no sequential tests: its write and read-back
   * rates stand in for them. */
  append_figure (line, figure (result, cm_result_get_verify (result) ? CM_TEST_VERIFY_WRITE : CM_TEST_SEQ_WRITE, FALSE),
                 widths[COLUMN_WRITE]);
  append_figure (line, figure (result, cm_result_get_verify (result) ? CM_TEST_VERIFY_READ : CM_TEST_SEQ_READ, FALSE),
                 widths[COLUMN_READ]);
  append_figure (line, figure (result, CM_TEST_RAND_WRITE_4K, TRUE), widths[COLUMN_RAND_WRITE]);
  append_figure (line, figure (result, CM_TEST_RAND_READ_4K, TRUE), widths[COLUMN_RAND_READ]);
  /* A benchmark's verdict is its summary; a verify's or a capacity
   * check's is its answer in a few words, as History says it. */
  verdict = bench ? g_strdup (cm_result_get_summary (result)) : cm_summary_dup_answer (result, &status);
  summary = cm_cli_dup_printable (verdict != NULL ? verdict : "", FALSE);
  printf ("%s  %s\n", line->str, summary);
}

static void
print_table (GPtrArray *results)
{
  const char *headings[N_COLUMNS] = { _("When"), _("Card"), _("Run"), _("Write"), _("Read"), _("4K write"), _("4K read") };
  const char *units[N_COLUMNS] = { "", "", "", "MB/s", "MB/s", "IOPS", "IOPS" };
  int widths[N_COLUMNS] = { 16, 24, 6, 9, 9, 9, 9 };
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) unit_line = g_string_new (NULL);

  for (const char * const *kind = cm_job_kinds_list_names (); *kind != NULL; kind++)
    widths[COLUMN_RUN] = MAX (widths[COLUMN_RUN], cm_cli_text_width (cm_job_kind_get_title (*kind)));

  for (guint i = 0; i < N_COLUMNS; i++)
    {
      widths[i] = MAX (widths[i], cm_cli_text_width (headings[i]));
      if (i > 0)
        {
          g_string_append_c (line, ' ');
          g_string_append_c (unit_line, ' ');
        }
      cm_cli_pad (line, headings[i], widths[i], i >= COLUMN_WRITE);
      cm_cli_pad (unit_line, units[i], widths[i], i >= COLUMN_WRITE);
    }
  printf ("%s  %s\n", line->str, _("Verdict"));
  printf ("%s\n", unit_line->str);

  for (guint i = 0; i < results->len; i++)
    print_row (g_ptr_array_index (results, i), widths);
}

/* One document at a time: a tree of the whole history, printed at once,
 * took 10 GB for 2000 benchmarks. */
static void
print_json (GPtrArray *results)
{
  fputs ("[", stdout);
  for (guint i = 0; i < results->len; i++)
    {
      g_autoptr(JsonNode) node = cm_result_to_json (g_ptr_array_index (results, i));
      g_autofree char *text = json_to_string (node, TRUE);

      printf ("%s\n%s", i > 0 ? "," : "", text);
    }
  fputs ("\n]\n", stdout);
}

/* The batch report of every saved document, one line per card. */
static void
print_csv (GPtrArray *results)
{
  g_autoptr(GPtrArray) rows = cm_batch_report_build (results);
  g_autofree char *csv = cm_batch_report_dup_csv (rows);

  fputs (csv, stdout);
}

int
cm_cli_history (int    argc,
                char **argv)
{
  gboolean json = FALSE;
  gboolean csv = FALSE;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print the saved result documents as a JSON array"), NULL },
    { "csv", 0, 0, G_OPTION_ARG_NONE, &csv, N_("Print the batch report: one CSV line per card, with its size, verdict, real capacity and lost data"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("— every check kept in the history: benchmarks (with --save), capacity checks, verifies and wear tests"));
  g_autoptr(GError) error = NULL;
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cm_cli_parse_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 1)
    return cm_cli_usage_error (context, _("history takes no arguments."));

  if ((results = cm_history_load (history, &problems, &error)) == NULL)
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }

  for (guint i = 0; i < problems->len; i++)
    cm_cli_print_message (g_ptr_array_index (problems, i));

  if (json)
    {
      print_json (results);
      return CM_EXIT_OK;
    }
  if (csv)
    {
      print_csv (results);
      return CM_EXIT_OK;
    }

  if (results->len == 0)
    {
      printf ("%s\n", _("No saved results yet. Run “cardmark-cli bench TARGET --save” to keep one."));
      return CM_EXIT_OK;
    }

  print_table (results);

  return CM_EXIT_OK;
}
