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
#include "cm-history-index.h"
#include "cm-job.h"
#include "cm-store.h"
#include "cm-summary.h"

#include "cm-cli.h"

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
print_row (CmHistoryEntry *entry,
           const int      *widths)
{
  g_autoptr(GDateTime) started = g_date_time_new_from_unix_local (entry->started);
  g_autofree char *when = g_date_time_format (started, "%Y-%m-%d %H:%M");
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *summary = NULL;

  cm_cli_pad (line, when, widths[COLUMN_WHEN], FALSE);
  g_string_append_c (line, ' ');
  /* The card as the app's History titles it: brand or maker and product,
   * size, name. */
  cm_cli_pad (line, entry->title != NULL && *entry->title != '\0' ? entry->title : "?", widths[COLUMN_CARD], FALSE);
  g_string_append_c (line, ' ');
  cm_cli_pad (line, entry->run != NULL ? entry->run : "", widths[COLUMN_RUN], FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    append_figure (line, entry->figures[i], widths[COLUMN_WRITE + i]);
  summary = cm_cli_dup_printable (entry->verdict != NULL ? entry->verdict : "", FALSE);
  printf ("%s  %s\n", line->str, summary);
}

static void
print_table (GPtrArray *entries)
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

  /* Oldest first. */
  for (guint i = entries->len; i > 0; i--)
    print_row (g_ptr_array_index (entries, i - 1), widths);
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

/* The table reads only the index beside the documents: 100 000 of them
 * are listed without opening one. */
static int
list_from_index (CmHistory *history)
{
  GFile *folder = cm_history_get_folder (history);
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;
  guint n_listed = 0;

  if (g_file_query_exists (folder, NULL) &&
      ((index = cm_history_index_open (folder, &error)) == NULL ||
       !cm_history_index_refresh (index, &error)))
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  entries = index != NULL ? cm_history_index_query (index, 0, G_MAXUINT) : g_ptr_array_new ();

  /* Damaged documents come last from the index: named first, as before. */
  while (entries->len > 0 && ((CmHistoryEntry *) g_ptr_array_index (entries, entries->len - 1))->damaged)
    {
      CmHistoryEntry *entry = g_ptr_array_index (entries, entries->len - 1);
      g_autofree char *message = g_strdup_printf (_("Skipped %s: %s"), entry->path, entry->problem);

      cm_cli_print_message (message);
      g_ptr_array_remove_index (entries, entries->len - 1);
    }
  n_listed = entries->len;

  if (n_listed == 0)
    {
      printf ("%s\n", _("No saved results yet. Run “cardmark-cli bench TARGET --save” to keep one."));
      return CM_EXIT_OK;
    }
  print_table (entries);
  return CM_EXIT_OK;
}

/* history --store: the lab's results, from every machine, in the same
 * table; the machine each ran on ends its line. */
static int
list_from_store (void)
{
  /* This machine's results that wait for the store go first, so the
   * list is whole. */
  g_autoptr(CmHistory) history = cm_cli_history_new ();
  CmStore *store = cm_history_get_store (history);
  g_autoptr(GPtrArray) entries = NULL;
  g_autoptr(GError) error = NULL;

  if ((entries = cm_store_list (store, &error)) == NULL)
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  if (entries->len == 0)
    {
      /* Translators: "The store postgresql://lab@db/cards holds no results yet." */
      printf (_("The store %s holds no results yet.\n"), cm_store_get_safe_url (store));
      return CM_EXIT_OK;
    }
  for (guint i = 0; i < entries->len; i++)
    {
      CmHistoryEntry *entry = g_ptr_array_index (entries, i);
      /* Translators: a result's verdict and the machine it ran on: "Meets A1 · on lab-pi-3" */
      char *verdict = g_strdup_printf (_("%s · on %s"), entry->verdict != NULL ? entry->verdict : "",
                                       entry->machine != NULL ? entry->machine : "?");

      g_free (entry->verdict);
      entry->verdict = verdict;
    }
  print_table (entries);
  return CM_EXIT_OK;
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
  if (!cm_cli_parse_store_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 1)
    return cm_cli_usage_error (context, _("history takes no arguments."));
  if (cm_cli_get_store_url () != NULL && (json || csv))
    return cm_cli_usage_error (context, _("--store lists the store’s table; --json and --csv read this computer’s history. Give one or the other."));
  if (cm_cli_get_store_url () != NULL)
    return list_from_store ();

  if (!json && !csv)
    return list_from_index (history);

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
