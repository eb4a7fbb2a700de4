/* test-app-history-scale.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * History at lab scale: 5000 saved results are listed from the index
 * through a list model, with a few dozen row widgets, not 5000; the
 * document is read when its row is activated.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cm-history-item.h"
#include "cm-history-page.h"
#include "cm-summary.h"
#include "cm-test-app.h"

/* 5000 in the suite; tests/perf/history-scale asks for 100 000 through
 * CARDMARK_HISTORY_SCALE_N. */
static guint n_docs = 5000;
#define N_DOCS n_docs

static const char *data_home;

/* The folder's documents: tests/data/result-small.json, each a minute
 * after the one before and with a card name of its own. */
static void
write_documents (GFile *folder)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "data", "result-small.json", NULL);
  g_autofree char *template = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDateTime) start = g_date_time_new_utc (2020, 1, 1, 0, 0, 0);
  g_autofree char *dir = g_file_get_path (folder);
  const char *started = "\"started\": \"2026-12-03T09:27:10.647266Z\"";
  const char *name = "\"name\": null";
  char *at_started, *at_name;

  g_assert_true (g_file_get_contents (src, &template, NULL, &error));
  g_assert_no_error (error);
  at_started = strstr (template, started);
  at_name = strstr (template, name);
  g_assert_nonnull (at_started);
  g_assert_nonnull (at_name);
  g_assert_true (at_started < at_name);
  *at_started = '\0';
  *at_name = '\0';

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  for (guint i = 0; i < N_DOCS; i++)
    {
      g_autoptr(GDateTime) when = g_date_time_add_minutes (start, i);
      g_autofree char *iso = g_date_time_format (when, "%Y-%m-%dT%H:%M:%S.000000Z");
      g_autofree char *stamp = g_date_time_format (when, "%Y%m%d-%H%M%S");
      g_autofree char *doc = g_strdup_printf ("%s\"started\": \"%s\"%s\"name\": \"Card %u\"%s",
                                              template, iso,
                                              at_started + strlen (started), i,
                                              at_name + strlen (name));
      g_autofree char *path = g_strdup_printf ("%s/%s-%06x.json", dir, stamp, i);

      g_assert_true (g_file_set_contents (path, doc, -1, &error));
      g_assert_no_error (error);
    }
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  GListModel **items = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems = NULL;

  *items = cm_history_items_load_finish (CM_HISTORY (source), result, &problems, &error);
  g_assert_no_error (error);
  /* The damaged document is named; the others are listed. */
  g_assert_cmpuint (problems->len, ==, 1);
  g_test_message ("%s", (char *) g_ptr_array_index (problems, 0));
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "20191231-235900-damaged.json"));
}

static gboolean
is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}

static gboolean
page_loaded (gpointer page)
{
  return !cm_history_page_get_loading (page);
}

static gboolean
rows_made (gpointer page)
{
  return cm_history_page_count_row_widgets (page) > 0;
}

static gboolean
row_shown (gpointer page)
{
  return cm_history_page_get_row (page, N_DOCS - 1) != NULL;
}

static gboolean
row_zero_shown (gpointer page)
{
  return cm_history_page_get_row (page, 0) != NULL;
}

static void
opened_cb (CmHistoryPage *page,
           CmResult      *result,
           gpointer       user_data)
{
  CmResult **opened = user_data;

  g_set_object (opened, result);
}

static void
test_scale (void)
{
  g_autofree char *dir = g_build_filename (data_home, "scale-history", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(CmHistory) history = NULL;
  g_autoptr(GListModel) items = NULL;
  g_autoptr(CmResult) opened = NULL;
  g_autoptr(CmHistoryItem) newest = NULL;
  g_autoptr(CmHistoryItem) oldest = NULL;
  g_autofree char *card = NULL;
  CmHistoryPage *page;
  GtkWidget *window;
  guint made;
  gint64 t0;

  write_documents (folder);
  {
    g_autofree char *damaged = g_build_filename (dir, "20191231-235900-damaged.json", NULL);

    g_assert_true (g_file_set_contents (damaged, "{\"schema\": 1, \"started\": ", -1, NULL));
  }
  history = cm_history_new (folder);

  /* No index yet: it is built from the documents in a worker thread. */
  t0 = g_get_monotonic_time ();
  cm_history_items_load_async (history, NULL, loaded_cb, &items);
  g_assert_true (cm_test_wait_for (is_set, &items, 300));
  g_test_message ("listed %u results, index built: %.2f s", N_DOCS, (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, N_DOCS);

  /* Again, from the index as it is. */
  g_clear_object (&items);
  t0 = g_get_monotonic_time ();
  cm_history_items_load_async (history, NULL, loaded_cb, &items);
  g_assert_true (cm_test_wait_for (is_set, &items, 300));
  g_test_message ("listed %u results from the index: %.2f s", N_DOCS, (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpuint (g_list_model_get_n_items (items), ==, N_DOCS);

  /* Newest first. */
  newest = g_list_model_get_item (items, 0);
  oldest = g_list_model_get_item (items, N_DOCS - 1);
  g_assert_cmpint (cm_history_item_get_entry (newest)->started, >, cm_history_item_get_entry (oldest)->started);
  {
    g_autofree char *suffix = g_strdup_printf ("-%06x.json", N_DOCS - 1);

    g_assert_true (g_str_has_suffix (cm_history_item_get_entry (newest)->path, suffix));
  }

  /* History's page lists them from the index too. */
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  t0 = g_get_monotonic_time ();
  page = cm_history_page_new (history);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  g_signal_connect (page, "open-result", G_CALLBACK (opened_cb), &opened);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (page_loaded, page, 300));
  g_test_message ("History's page listed %u results: %.2f s", N_DOCS, (g_get_monotonic_time () - t0) / 1e6);
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, N_DOCS);
  g_assert_cmpuint (cm_history_page_get_problems (page)->len, ==, 1);
  g_assert_true (cm_test_wait_drawn (GTK_WIDGET (page), 30));
  g_assert_true (cm_test_wait_for (rows_made, page, 30));

  /* Rows for what is on screen and around it (GTK 4.8's list view
   * keeps about 200), reused as it scrolls: not one a result. */
  made = cm_history_page_count_row_widgets (page);
  g_test_message ("%u row widgets for %u results", made, N_DOCS);
  g_assert_cmpuint (made, <, N_DOCS / 20);

  /* To the oldest at the bottom: the same rows show other results. */
  cm_history_page_scroll_to (page, N_DOCS - 1);
  g_assert_true (cm_test_wait_for (row_shown, page, 30));
  made = cm_history_page_count_row_widgets (page);
  g_test_message ("%u row widgets after scrolling to the end", made);
  g_assert_cmpuint (made, <, N_DOCS / 20);
  {
    g_autoptr(GString) shown = g_string_new (NULL);

    cm_test_collect_labels (cm_history_page_get_row (page, N_DOCS - 1), shown, FALSE);
    g_test_message ("oldest row: %s", shown->str);
    g_assert_nonnull (strstr (shown->str, "Card 0"));
    g_assert_null (strstr (shown->str, "Card 1\n"));
  }

  /* A tick is the result's, not its row's: given while the newest is
   * off screen, its row shows it once scrolled back; the row that showed
   * the newest before, reused for others, did not keep it. */
  g_assert_true (cm_history_page_set_picked (page, 0, TRUE));
  cm_history_page_scroll_to (page, 0);
  g_assert_true (cm_test_wait_for (row_zero_shown, page, 30));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (gtk_widget_get_first_child (cm_history_page_get_row (page, 0)))));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (gtk_widget_get_first_child (cm_history_page_get_row (page, 1)))));

  /* Opening a row reads that one document. */
  cm_history_page_open (page, N_DOCS - 1);
  g_assert_nonnull (opened);
  card = g_strdup (cm_result_get_name (opened));
  g_assert_cmpstr (card, ==, "Card 0");

  /* The index's verdict and its colour are the document's. */
  {
    CmStatus status;
    g_autofree char *answer = cm_summary_dup_answer (opened, &status);

    g_assert_cmpint (cm_history_item_get_entry (oldest)->tone, ==, status);
  }

  /* For the eyes: the list as it looks (CARDMARK_SCREENSHOT_DIR). */
  cm_test_save_screenshot (window, "history-list", 800, 480, FALSE);
  cm_test_save_screenshot (window, "history-list", 800, 480, TRUE);
  cm_test_save_screenshot (window, "history-list", 1280, 800, FALSE);
  cm_test_save_screenshot (window, "history-list", 1280, 800, TRUE);

  cm_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  if (g_getenv ("CARDMARK_HISTORY_SCALE_N") != NULL)
    n_docs = MAX (100, (guint) g_ascii_strtoull (g_getenv ("CARDMARK_HISTORY_SCALE_N"), NULL, 10));
  data_home = cm_test_data_home_make ();
  cm_test_app_init (&argc, &argv);

  g_test_add_func ("/cardmark/app-history-scale/model", test_scale);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
