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

/* This process's resident memory now, in MB (Linux), or 0. */
static double
rss_mb (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return g_ascii_strtod (line + strlen ("VmRSS:"), NULL) / 1024;
}

/* The main-loop stall meter, as test-app-simcard's: a 10 ms timer that
 * remembers the longest gap between two of its ticks, and the window's
 * frames meanwhile. */
typedef struct
{
  gint64 last;
  gint64 worst;
  guint  ticks;
  guint  frames;
} Stall;

static gboolean
stall_tick_cb (gpointer data)
{
  Stall *stall = data;
  gint64 now = g_get_monotonic_time ();

  if (stall->last != 0)
    stall->worst = MAX (stall->worst, now - stall->last);
  stall->last = now;
  stall->ticks++;
  return G_SOURCE_CONTINUE;
}

static void
frame_cb (GdkFrameClock *clock,
          Stall         *stall)
{
  stall->frames++;
}

static void
stall_start (Stall *stall)
{
  *stall = (Stall) { .last = g_get_monotonic_time () };
}

/* The gap up to now counts too: a stall that lasts to the end. */
static double
stall_worst_ms (Stall *stall)
{
  stall_tick_cb (stall);
  return stall->worst / 1000.0;
}

/* Each batch of a streamed load, as it comes. */
typedef struct
{
  GArray  *sizes;   /* guint: the items of each batch */
  guint    n_items;
  guint    n_problems;
  guint    n_total;
  gboolean ordered; /* n_read grew with every batch */
  guint    n_read;
  gboolean done;
} Batches;

static void
batch_cb (const CmHistoryBatch *batch,
          gpointer              user_data)
{
  Batches *seen = user_data;

  if (batch->n_documents > 0)
    return;
  g_array_append_val (seen->sizes, batch->items->len);
  seen->n_items += batch->items->len;
  seen->n_problems += batch->problems->len;
  seen->ordered = seen->ordered && batch->n_read >= seen->n_read &&
                  batch->n_read == seen->n_items + seen->n_problems;
  seen->n_read = batch->n_read;
  seen->n_total = batch->n_total;
}

static void
streamed_cb (GObject      *source,
             GAsyncResult *result,
             gpointer      user_data)
{
  Batches *seen = user_data;
  g_autoptr(GError) error = NULL;

  g_assert_true (cm_history_items_stream_finish (CM_HISTORY (source), result, &error));
  g_assert_no_error (error);
  seen->done = TRUE;
}

static gboolean
is_done (gpointer data)
{
  return ((Batches *) data)->done;
}

/* The page's count says how far its load is, and the page's search has
 * settled. */
static gboolean
count_says (gpointer page)
{
  const char *wanted = g_object_get_data (page, "cm-wanted");

  return !cm_history_page_get_loading (page) && strstr (cm_history_page_get_count_text (page), wanted) != NULL;
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

static CmHistoryPage *shown_page;

static gboolean
row_i_shown (gpointer index)
{
  return cm_history_page_get_row (shown_page, GPOINTER_TO_UINT (index)) != NULL;
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
  g_autofree char *wanted = NULL;
  double before, worst;
  guint made;
  gint64 t0;
  Stall stall;
  guint stall_id;
  gulong frames_id;

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

  /* The same, streamed: the first batch is a screenful, the rest
   * follow in batches, each its own turn of the main loop, the damaged
   * document last; every result once, in order, with how far it is. */
  {
    Batches seen = { .sizes = g_array_new (FALSE, FALSE, sizeof (guint)), .ordered = TRUE };

    cm_history_items_stream_async (history, batch_cb, &seen, NULL, streamed_cb, &seen);
    g_assert_true (cm_test_wait_for (is_done, &seen, 300));
    g_test_message ("streamed %u results in %u batches, the first of %u", seen.n_items, seen.sizes->len,
                    g_array_index (seen.sizes, guint, 0));
    g_assert_cmpuint (seen.n_items, ==, N_DOCS);
    g_assert_cmpuint (seen.n_problems, ==, 1);
    g_assert_cmpuint (seen.n_total, ==, N_DOCS + 1);
    g_assert_true (seen.ordered);
    g_assert_cmpuint (seen.sizes->len, >, 1);
    g_assert_cmpuint (g_array_index (seen.sizes, guint, 0), <, N_DOCS / 10);
    g_array_unref (seen.sizes);
  }

  /* History's page lists them from the index too. */
  /* The model above is kept, so that what the page takes is new memory,
   * not the freed model's again. */
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  before = rss_mb ();
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_drawn (window, 30));
  /* From the page's making to its rows on screen, the main loop's
   * longest stall and the frames drawn: printed, not bounded (a bound
   * fails on a busy machine whatever the app does; tests/perf/
   * history-scale prints these at 100 000). */
  stall_start (&stall);
  stall_id = g_timeout_add (10, stall_tick_cb, &stall);
  frames_id = g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (frame_cb), &stall);
  t0 = g_get_monotonic_time ();
  page = cm_history_page_new (history);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  shown_page = page;
  g_signal_connect (page, "open-result", G_CALLBACK (opened_cb), &opened);
  g_assert_true (cm_test_wait_for (row_zero_shown, page, 300));
  g_test_message ("History's first rows on screen: %.2f s, while it says “%s”", (g_get_monotonic_time () - t0) / 1e6,
                  cm_history_page_get_count_text (page));
  /* For the eyes: the count while it reads (CARDMARK_SCREENSHOT_DIR). */
  if (cm_history_page_get_loading (page))
    cm_test_save_screenshot (window, "history-loading", 800, 480, FALSE);
  g_assert_true (cm_test_wait_for (page_loaded, page, 300));
  g_test_message ("History's page listed %u results: %.2f s, %.1f MB more resident memory", N_DOCS,
                  (g_get_monotonic_time () - t0) / 1e6, rss_mb () - before);
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, N_DOCS);
  g_assert_cmpuint (cm_history_page_get_problems (page)->len, ==, 1);
  /* (cm_test_wait_drawn() waits for two frames; a window with nothing
   * left to do draws one.) */
  g_assert_true (cm_test_wait_for (rows_made, page, 30));
  worst = stall_worst_ms (&stall);
  /* The words tests/perf/main-loop-stall reads (STALL_TEST=history). */
  g_test_message ("worst main-loop stall: %.1f ms over %u ticks, %u frames drawn, while History lists %u results",
                  worst, stall.ticks, stall.frames, N_DOCS);
  g_assert_cmpuint (stall.frames, >, 0);

  g_source_remove (stall_id);
  g_signal_handler_disconnect (gtk_widget_get_frame_clock (window), frames_id);

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

  /* A search by a card's name, typed: the count says how many match,
   * and every row shown is of that card. What of it grows with the
   * history is one pass over the results' words: timed alone here. */
  wanted = g_strdup_printf ("Card %u", N_DOCS / 2);
  {
    g_autofree char *folded = cm_history_item_dup_folded (wanted);
    g_auto(GStrv) words = g_strsplit (folded, " ", -1);
    guint n_match = 0;

    t0 = g_get_monotonic_time ();
    for (guint i = 0; i < g_list_model_get_n_items (items); i++)
      {
        g_autoptr(CmHistoryItem) item = g_list_model_get_item (items, i);

        n_match += cm_history_item_matches (item, (const char * const *) words);
      }
    g_test_message ("one pass of the search over %u results: %.1f ms, %u match",
                    N_DOCS, (g_get_monotonic_time () - t0) / 1e3, n_match);
  }
  g_object_set_data_full (G_OBJECT (page), "cm-wanted", g_strdup (" match"), g_free);
  stall_start (&stall);
  t0 = g_get_monotonic_time ();
  gtk_editable_set_text (GTK_EDITABLE (cm_history_page_get_search_entry (page)), wanted);
  g_assert_true (cm_test_wait_for (count_says, page, 60));
  worst = stall_worst_ms (&stall);
  g_test_message ("searched %u results for “%s”: %u match, %.2f s, worst main-loop stall %.1f ms over %u ticks",
                  N_DOCS, wanted, cm_history_page_get_n_results (page), (g_get_monotonic_time () - t0) / 1e6,
                  worst, stall.ticks);
  g_assert_cmpuint (cm_history_page_get_n_results (page), >=, 1);
  g_assert_cmpuint (cm_history_page_get_n_results (page), <, N_DOCS);
  g_assert_true (cm_test_wait_for (row_zero_shown, page, 30));
  for (guint i = 0; i < cm_history_page_get_n_results (page) && i < 10; i++)
    {
      g_autoptr(GString) shown = g_string_new (NULL);

      cm_history_page_scroll_to (page, i);
      g_assert_true (cm_test_wait_for (row_i_shown, GUINT_TO_POINTER (i), 30));
      cm_test_collect_labels (cm_history_page_get_row (page, i), shown, FALSE);
      g_assert_nonnull (strstr (shown->str, wanted));
    }
  /* Emptied: every result again. */
  stall_start (&stall);
  t0 = g_get_monotonic_time ();
  gtk_editable_set_text (GTK_EDITABLE (cm_history_page_get_search_entry (page)), "");
  g_object_set_data_full (G_OBJECT (page), "cm-wanted", g_strdup (" saved results"), g_free);
  g_assert_true (cm_test_wait_for (count_says, page, 60));
  worst = stall_worst_ms (&stall);
  g_test_message ("search emptied, %u results listed again: %.2f s, worst main-loop stall %.1f ms over %u ticks",
                  cm_history_page_get_n_results (page), (g_get_monotonic_time () - t0) / 1e6,
                  worst, stall.ticks);
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, N_DOCS);
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
