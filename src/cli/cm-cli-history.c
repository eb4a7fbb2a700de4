/* cm-cli-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli history: past results, oldest first, side by side.
 */

#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cm-batch-report.h"
#include "cm-date.h"
#include "cm-test-table.h"
#include "cm-history.h"
#include "cm-history-index.h"
#include "cm-job.h"
#include "cm-plan.h"
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
  g_autoptr(GString) line = g_string_new (NULL);
  g_autofree char *summary = NULL;
  g_autofree char *when = NULL;
  const char *run;

  /* For people, the reader's own long form; --json keeps ISO 8601. */
  if (entry->started > 0)
    {
      g_autoptr(GDateTime) started = g_date_time_new_from_unix_utc (entry->started);

      when = cm_date_format_time (started);
    }
  cm_cli_pad (line, when != NULL ? when : "", widths[COLUMN_WHEN], FALSE);
  g_string_append_c (line, ' ');
  /* The card as the app's History titles it: brand or maker and product,
   * size, name. */
  cm_cli_pad (line, entry->title != NULL && *entry->title != '\0' ? entry->title : "?", widths[COLUMN_CARD], FALSE);
  g_string_append_c (line, ' ');
  run = cm_history_entry_get_run_label (entry);
  cm_cli_pad (line, run != NULL ? run : "", widths[COLUMN_RUN], FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (entry->figures); i++)
    append_figure (line, entry->figures[i], widths[COLUMN_WRITE + i]);
  summary = cm_cli_dup_printable (entry->verdict != NULL ? entry->verdict : "", FALSE);
  printf ("%s  %s\n", line->str, summary);
}

/* The widest date and time a row can show in the reader's words, so
 * that the When column fits every month's name. */
static int
date_width (void)
{
  int width = 0;

  for (int month = 1; month <= 12; month++)
    {
      g_autoptr(GDateTime) when = g_date_time_new_utc (2000, month, 28, 12, 0, 0);
      g_autofree char *text = cm_date_format_time (when);

      width = MAX (width, cm_cli_text_width (text));
    }
  return width;
}

/* The table's heading lines; its column widths into @widths. */
static void
print_heading (int *widths)
{
  const char *headings[N_COLUMNS] = { _("When"), _("Card"), _("Run"), _("Write"), _("Read"), _("4K write"), _("4K read") };
  const char *units[N_COLUMNS] = { "", "", "", "MB/s", "MB/s", "IOPS", "IOPS" };
  const int min_widths[N_COLUMNS] = { 16, 24, 6, 9, 9, 9, 9 };
  g_autoptr(GString) line = g_string_new (NULL);
  g_autoptr(GString) unit_line = g_string_new (NULL);

  memcpy (widths, min_widths, sizeof min_widths);
  widths[COLUMN_WHEN] = MAX (widths[COLUMN_WHEN], date_width ());
  for (const char * const *kind = cm_job_kinds_list_names (); *kind != NULL; kind++)
    widths[COLUMN_RUN] = MAX (widths[COLUMN_RUN], cm_cli_text_width (cm_job_kind_get_title (*kind)));
  for (CmProfile profile = CM_PROFILE_QUICK; profile <= CM_PROFILE_FULL; profile++)
    widths[COLUMN_RUN] = MAX (widths[COLUMN_RUN], cm_cli_text_width (cm_profile_get_title (profile)));

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
}

/* While the index is read: the table's widths once its heading is
 * printed, and how many rows or documents were printed. */
typedef struct
{
  int      widths[N_COLUMNS];
  guint    n_rows;
} Listing;

static gboolean
name_damaged_cb (CmHistoryEntry *entry,
                 gpointer        user_data)
{
  g_autofree char *message = g_strdup_printf (_("Skipped %s: %s"), entry->path, entry->problem != NULL ? entry->problem : "");

  cm_cli_print_message (message);
  return TRUE;
}

static gboolean
print_row_cb (CmHistoryEntry *entry,
              gpointer        user_data)
{
  Listing *listing = user_data;

  if (listing->n_rows++ == 0)
    print_heading (listing->widths);
  print_row (entry, listing->widths);
  return TRUE;
}

/* One document at a time, each opened when its turn comes: a tree of the
 * whole history, printed at once, took 10 GB for 2000 benchmarks. A
 * document gone or damaged since the index saw it is named and left out. */
static gboolean
print_document_cb (CmHistoryEntry *entry,
                   gpointer        user_data)
{
  Listing *listing = user_data;
  g_autoptr(GFile) file = g_file_new_for_path (entry->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  if (result == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("Skipped %s: %s"), entry->path, error->message);

      cm_cli_print_message (message);
      return TRUE;
    }
  node = cm_result_to_json (result);
  text = json_to_string (node, TRUE);
  printf ("%s\n%s", listing->n_rows++ > 0 ? "," : "", text);
  return TRUE;
}

/* A build of more than one batch says how far it is on stderr: redrawn
 * in place on a terminal, a line a batch otherwise (a log). */
static gboolean
show_progress_cb (guint    done,
                  guint    total,
                  gpointer user_data)
{
  gboolean tty = isatty (STDERR_FILENO);

  if (total <= CM_HISTORY_INDEX_BATCH_SIZE)
    return TRUE;
  if (tty)
    fputs ("\r\033[K", stderr);
  /* Translators: while the history's index is built, in documents */
  fprintf (stderr, _("Indexing the history: %u of %u…"), done, total);
  fputs (tty && done < total ? "" : "\n", stderr);
  fflush (stderr);
  return TRUE;
}

/* The index beside the documents, brought up to date; NULL with no
 * history yet, or on an error (set). */
static CmHistoryIndex *
open_index (CmHistory  *history,
            GError    **error)
{
  GFile *folder = cm_history_get_folder (history);
  g_autoptr(CmHistoryIndex) index = NULL;

  if (!g_file_query_exists (folder, NULL))
    return NULL;
  if ((index = cm_history_index_open (folder, error)) == NULL)
    return NULL;
  cm_history_index_set_progress_func (index, show_progress_cb, NULL);
  if (!cm_history_index_refresh (index, error))
    return NULL;
  return g_steal_pointer (&index);
}

/* The table, --json and --csv read only the index beside the documents:
 * 100 000 of them are listed without opening one, and --json opens them
 * one at a time. */
static int
list_from_index (CmHistory *history,
                 gboolean   json,
                 gboolean   csv)
{
  g_autoptr(CmHistoryIndex) index = NULL;
  g_autoptr(GError) error = NULL;
  Listing listing = { { 0 }, 0 };

  if ((index = open_index (history, &error)) == NULL && error != NULL)
    {
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }

  /* Damaged documents are named first, as before. */
  if (index != NULL)
    cm_history_index_foreach (index, TRUE, TRUE, name_damaged_cb, NULL);

  if (json)
    {
      fputs ("[", stdout);
      if (index != NULL)
        cm_history_index_foreach (index, FALSE, TRUE, print_document_cb, &listing);
      fputs ("\n]\n", stdout);
      return CM_EXIT_OK;
    }
  if (csv)
    {
      g_autoptr(GPtrArray) rows = index != NULL ? cm_history_index_build_batch_report (index) : g_ptr_array_new ();
      g_autofree char *text = cm_batch_report_dup_csv (rows);

      fputs (text, stdout);
      return CM_EXIT_OK;
    }

  if (index != NULL)
    cm_history_index_foreach (index, FALSE, TRUE, print_row_cb, &listing);
  if (listing.n_rows == 0)
    printf ("%s\n", _("No saved results yet. Run “cardmark-cli bench TARGET --save” to keep one."));
  return CM_EXIT_OK;
}

/* A document from the store, whole, as this computer's --json prints
 * one, with the machine that sent it: read back through the result
 * format, so text from another machine is cleaned as a document's is. */
static gboolean
print_store_document_cb (const char *id,
                         const char *machine,
                         const char *document,
                         gsize       length,
                         gpointer    user_data)
{
  Listing *listing = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_data (document, length, &error);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *text = NULL;

  if (result == NULL)
    {
      /* Translators: a document in the store that could not be read, by its id */
      g_autofree char *message = g_strdup_printf (_("Skipped %s from %s: %s"), id, machine, error->message);

      cm_cli_print_message (message);
      return TRUE;
    }
  node = cm_result_to_json (result);
  if (machine != NULL)
    json_object_set_string_member (json_node_get_object (node), "machine", machine);
  text = json_to_string (node, TRUE);
  printf ("%s\n%s", listing->n_rows++ > 0 ? "," : "[", text);
  return TRUE;
}

/* A row of the store's table as it comes: the heading before the first,
 * the machine it ran on after its verdict. */
static gboolean
print_store_row_cb (CmHistoryEntry *entry,
                    gpointer        user_data)
{
  Listing *listing = user_data;
  /* Translators: a result's verdict and the machine it ran on: "Meets A1 · on lab-pi-3" */
  char *verdict = g_strdup_printf (_("%s · on %s"), entry->verdict != NULL ? entry->verdict : "",
                                   entry->machine != NULL ? entry->machine : "?");

  g_free (entry->verdict);
  entry->verdict = verdict;
  return print_row_cb (entry, listing);
}

/* history --store: the lab's results, from every machine, in the same
 * table, oldest first, each row printed as the store sends it (100 000
 * rows are never all in memory); the machine each ran on ends its line.
 * --json gives every document, oldest first, one at a time; --csv the
 * batch report of them all. */
static int
list_from_store (gboolean json,
                 gboolean csv)
{
  /* This machine's results that wait for this store go first, so the
   * list is whole; those that still wait are counted. */
  g_autoptr(CmHistory) history = cm_cli_history_new ();
  CmStore *store = cm_history_get_store (history);
  g_autoptr(GError) error = NULL;
  Listing listing = { { 0 }, 0 };

  cm_cli_store_report ();
  if (json)
    {
      /* The array is opened only once the store answers: a store that
       * cannot be reached prints nothing on stdout. */
      if (!cm_store_foreach_document (store, print_store_document_cb, &listing, &error))
        {
          if (listing.n_rows > 0)
            fputs ("\n]\n", stdout);
          cm_cli_print_error (error);
          return CM_EXIT_FAILED;
        }
      printf ("%s]\n", listing.n_rows == 0 ? "[" : "\n");
      return CM_EXIT_OK;
    }
  if (csv)
    {
      g_autoptr(GPtrArray) problems = NULL;
      g_autoptr(GPtrArray) rows = cm_store_build_batch_report (store, &problems, &error);
      g_autofree char *text = NULL;

      if (rows == NULL)
        {
          cm_cli_print_error (error);
          return CM_EXIT_FAILED;
        }
      for (guint i = 0; i < problems->len; i++)
        cm_cli_print_message (g_ptr_array_index (problems, i));
      text = cm_batch_report_dup_csv (rows);
      fputs (text, stdout);
      return CM_EXIT_OK;
    }

  if (!cm_store_foreach_entry (store, print_store_row_cb, &listing, &error))
    {
      fflush (stdout);
      cm_cli_print_error (error);
      return CM_EXIT_FAILED;
    }
  if (listing.n_rows == 0)
    /* Translators: "The store postgresql://lab@db/cards holds no results yet." */
    printf (_("The store %s holds no results yet.\n"), cm_store_get_safe_url (store));
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

  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!cm_cli_parse_store_options (context, &argc, &argv, &error))
    return cm_cli_usage_error (context, error->message);
  if (argc != 1)
    return cm_cli_usage_error (context, _("history takes no arguments."));
  if (json && csv)
    return cm_cli_usage_error (context, _("--json and --csv are two ways to print the same results. Give one or the other."));
  if (cm_cli_get_store_url () != NULL)
    return list_from_store (json, csv);

  return list_from_index (history, json, csv);
}
