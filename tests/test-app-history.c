/* test-app-history.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The result page's charts and the history: a finished run shows charts
 * whose text alternative carries the measured figures, is saved in the
 * history under XDG_DATA_HOME, and two saved runs can be compared on one
 * chart. A file in the history that is not a result is listed and left
 * alone. Runs under Xvfb.
 *
 * With CARDMARK_SCREENSHOT_DIR set, the result page and the comparison
 * are saved as PNGs at 800×480 and 1280×800, light and dark.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cm-application.h"
#include "cm-backend.h"
#include "cm-batch-report.h"
#include "cm-card-info.h"
#include "cm-card-page.h"
#include "cm-chart.h"
#include "cm-chart-view.h"
#include "cm-history-page.h"
#include "cm-plan.h"
#include "cm-result-page.h"
#include "cm-summary.h"
#include "cm-test-app.h"
#include "cm-test-table.h"
#include "cm-verify.h"
#include "cm-window.h"

static const char *data_home;

static GFile *
history_folder (void)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();

  return g_object_ref (cm_history_get_folder (history));
}

static GPtrArray *
list_history (void)
{
  g_autoptr(GFile) folder = history_folder ();
  g_autofree char *path = g_file_get_path (folder);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_build_filename (path, name, NULL));
  return names;
}

static void
clear_history (void)
{
  g_autoptr(GPtrArray) files = list_history ();

  for (guint i = 0; i < files->len; i++)
    g_assert_cmpint (g_unlink (g_ptr_array_index (files, i)), ==, 0);
}

typedef struct
{
  CmApplication *app;
  CmWindow      *window;
  char          *folders[2];
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  clear_history ();

  f->window = cm_test_window_new (&f->app);

  for (guint i = 0; i < G_N_ELEMENTS (f->folders); i++)
    {
      f->folders[i] = g_dir_make_tmp ("cardmark-history-XXXXXX", &error);
      g_assert_no_error (error);
    }
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  for (guint i = 0; i < G_N_ELEMENTS (f->folders); i++)
    {
      g_assert_cmpint (g_rmdir (f->folders[i]), ==, 0);
      g_free (f->folders[i]);
    }
  g_clear_object (&f->app);
}

/* A tiny-plan run on @folder through the window, as a user starts it. */
static CmResult *
run_on (Fixture    *f,
        const char *folder)
{
  const char *claims[] = { "C10", NULL };

  g_assert_true (cm_window_open_path (f->window, folder));
  cm_card_page_set_claims (CM_CARD_PAGE (cm_window_get_page (f->window, "card")), claims);
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
  g_assert_true (cm_window_get_running (f->window));
  g_assert_true (cm_test_wait_page_idle (f->window, "result", 60));
  g_assert_nonnull (cm_window_get_last_result (f->window));
  return cm_window_get_last_result (f->window);
}

static CmChartView *
lookup_chart (GPtrArray   *charts,
              CmChartKind  kind)
{
  for (guint i = 0; i < charts->len; i++)
    {
      CmChartKind other;

      if (cm_chart_view_get_chart_kind (g_ptr_array_index (charts, i), &other) && other == kind)
        return g_ptr_array_index (charts, i);
    }
  g_assert_not_reached ();
}

static void
assert_contains_figure (const char *text,
                        const char *format,
                        double      value)
{
  g_autofree char *figure = g_strdup_printf (format, value);

  g_test_message ("looking for “%s”", figure);
  g_assert_nonnull (strstr (text, figure));
}

static void
test_result_charts (Fixture       *f,
                    gconstpointer  data)
{
  CmResult *result = run_on (f, f->folders[0]);
  CmResultPage *page = CM_RESULT_PAGE (cm_window_get_page (f->window, "result"));
  g_autoptr(GPtrArray) charts = cm_result_page_dup_charts (page);
  CmTestResult *write = cm_result_lookup_test (result, "seq-write");
  CmTestResult *read = cm_result_lookup_test (result, "seq-read");
  CmTestResult *rand = cm_result_lookup_test (result, "rand-read-4k");
  g_autofree char *summary = NULL;
  g_autofree char *over_time = NULL;
  g_autofree char *latency = NULL;

  g_assert_nonnull (write);
  g_assert_nonnull (read);
  g_assert_nonnull (rand);

  /* Each chart shows this result, and says in words what it shows. */
  for (guint i = 0; i < charts->len; i++)
    {
      CmChartView *chart = g_ptr_array_index (charts, i);

      g_assert_cmpuint (cm_chart_view_get_results (chart)->len, ==, 1);
      g_assert_true (g_ptr_array_index (cm_chart_view_get_results (chart), 0) == result);
    }

  summary = cm_chart_view_dup_description (lookup_chart (charts, CM_CHART_SUMMARY));
  g_test_message ("summary: %s", summary);
  assert_contains_figure (summary, "%.1f MB/s", write->mb_per_s);
  assert_contains_figure (summary, "%.1f MB/s", read->mb_per_s);
  assert_contains_figure (summary, "%.0f IOPS", rand->iops);
  g_assert_true (cm_chart_view_has_data (lookup_chart (charts, CM_CHART_SUMMARY)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (lookup_chart (charts, CM_CHART_SUMMARY))));

  over_time = cm_chart_view_dup_description (lookup_chart (charts, CM_CHART_WRITE_OVER_TIME));
  g_test_message ("over time: %s", over_time);
  g_assert_cmpuint (write->samples->len, >, 0);
  g_assert_true (cm_chart_view_has_data (lookup_chart (charts, CM_CHART_WRITE_OVER_TIME)));
  g_assert_nonnull (strstr (over_time, "MB/s"));

  latency = cm_chart_view_dup_description (lookup_chart (charts, CM_CHART_LATENCY));
  g_test_message ("latency: %s", latency);
  g_assert_cmpuint (rand->scatter->len, >, 0);
  g_assert_nonnull (strstr (latency, "ms"));

  /* The tiny plan has no block size sweep or surface read: those stay
   * hidden rather than showing empty frames. */
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (gtk_widget_get_parent (gtk_widget_get_parent (
    GTK_WIDGET (lookup_chart (charts, CM_CHART_SWEEP)))))));

  cm_test_save_screenshots (GTK_WIDGET (f->window), "result");
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      cm_test_scroll_to (gtk_widget_get_parent (gtk_widget_get_parent (gtk_widget_get_parent (
        GTK_WIDGET (lookup_chart (charts, CM_CHART_SUMMARY))))));
      cm_test_save_screenshots (GTK_WIDGET (f->window), "result-charts");
      cm_test_scroll_to (gtk_widget_get_parent (gtk_widget_get_parent (gtk_widget_get_parent (
        GTK_WIDGET (lookup_chart (charts, CM_CHART_LATENCY))))));
      cm_test_save_screenshots (GTK_WIDGET (f->window), "result-latency");
    }
}

/* The section of the result page's menus that offers chart exports; a
 * new reference. */
static GMenuModel *
find_export_charts (GtkWidget *widget)
{
  if (GTK_IS_MENU_BUTTON (widget))
    {
      GMenuModel *menu = gtk_menu_button_get_menu_model (GTK_MENU_BUTTON (widget));

      for (int i = 0; menu != NULL && i < g_menu_model_get_n_items (menu); i++)
        {
          GMenuModel *section = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION);
          g_autofree char *action = NULL;

          if (section != NULL && g_menu_model_get_n_items (section) > 0 &&
              g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_ACTION, "s", &action) &&
              g_str_equal (action, "result.export-chart"))
            return section;
          g_clear_object (&section);
        }
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GMenuModel *found = find_export_charts (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The Export menu's chart entries are the table's: its labels, for the
 * kinds the page shows with data, and the image is the table's size. */
static void
check_export_menu (CmResultPage *page)
{
  g_autoptr(GMenuModel) section = find_export_charts (GTK_WIDGET (page));
  guint n_offered = 0;

  g_assert_nonnull (section);
  for (int i = 0; i < g_menu_model_get_n_items (section); i++)
    {
      g_autofree char *label = NULL, *action = NULL, *target = NULL;
      CmChartKind kind;

      g_assert_true (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_LABEL, "s", &label));
      g_assert_true (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_ACTION, "s", &action));
      g_assert_cmpstr (action, ==, "result.export-chart");
      g_assert_true (g_menu_model_get_item_attribute (section, i, G_MENU_ATTRIBUTE_TARGET, "s", &target));
      g_test_message ("export entry %s: %s", target, label);
      g_assert_true (cm_chart_kind_from_string (target, &kind));
      g_assert_cmpstr (label, ==, cm_chart_kind_get_export_label (kind));
      n_offered++;
    }
  /* A result of the quick profile has a speed chart and a latency chart
   * at least. */
  g_assert_cmpuint (n_offered, >=, 2);
  g_assert_cmpstr (cm_chart_kind_get_export_label (CM_CHART_SUMMARY), !=, NULL);
}

static void
test_export_chart (Fixture       *f,
                   gconstpointer  data)
{
  CmResultPage *page;
  const char *extensions[] = { "png", "svg", "pdf" };
  const char *magic[] = { "\x89PNG", "<?xml", "%PDF" };

  run_on (f, f->folders[0]);
  page = CM_RESULT_PAGE (cm_window_get_page (f->window, "result"));
  check_export_menu (page);

  for (guint i = 0; i < G_N_ELEMENTS (extensions); i++)
    {
      g_autofree char *name = g_strdup_printf ("chart.%s", extensions[i]);
      g_autofree char *path = g_build_filename (f->folders[1], name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autofree char *contents = NULL;
      gsize length;

      g_assert_true (cm_result_page_export_chart (page, CM_CHART_SUMMARY, file, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_cmpuint (length, >, 1000);
      g_assert_true (memcmp (contents, magic[i], strlen (magic[i])) == 0);
      if (i == 0)
        {
          int width = 0, height = 0;

          g_assert_nonnull (gdk_pixbuf_get_file_info (path, &width, &height));
          g_assert_cmpint (width, ==, CM_CHART_EXPORT_WIDTH);
          g_assert_cmpint (height, ==, cm_chart_kind_get_export_height (CM_CHART_SUMMARY));
        }
      g_assert_cmpint (g_unlink (path), ==, 0);
    }

  /* An extension no chart format has is refused, with a reason. */
  {
    g_autofree char *path = g_build_filename (f->folders[1], "chart.bmp", NULL);
    g_autoptr(GFile) file = g_file_new_for_path (path);
    g_autoptr(GError) error = NULL;

    g_assert_false (cm_result_page_export_chart (page, CM_CHART_SUMMARY, file, &error));
    g_assert_nonnull (error);
    g_test_message ("bmp: %s", error->message);
    g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  }
}

static void
test_saved_in_history (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) before = list_history ();
  g_autoptr(GPtrArray) after = NULL;
  g_autoptr(CmResult) saved = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prefix = g_build_filename (data_home, NULL);
  CmResult *result;

  g_assert_cmpuint (before->len, ==, 0);
  result = run_on (f, f->folders[0]);

  after = list_history ();
  g_assert_cmpuint (after->len, ==, 1);
  g_test_message ("saved as %s", (char *) g_ptr_array_index (after, 0));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (after, 0), prefix));

  file = g_file_new_for_path (g_ptr_array_index (after, 0));
  saved = cm_result_new_from_file (file, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (cm_result_lookup_test (saved, "seq-write")->mb_per_s, ==,
                     cm_result_lookup_test (result, "seq-write")->mb_per_s);
  g_assert_cmpstr (cm_result_get_name (saved), ==, cm_result_get_name (result));
  g_assert_cmpuint (cm_result_get_claims (saved)->len, ==, 1);

  /* Test Again from the saved result in History: its card (the folder),
   * as it was tested, with its class picked again though the card's page
   * has none picked now. */
  {
    const char *none[] = { NULL };
    CmHistoryPage *history;
    g_auto(GStrv) picked = NULL;

    g_assert_true (cm_window_open_path (f->window, f->folders[0]));
    cm_card_page_set_claims (CM_CARD_PAGE (cm_window_get_page (f->window, "card")), none);
    gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
    history = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
    g_assert_true (cm_test_wait_history_loaded (history, 10));
    cm_history_page_open (history, 0);
    g_assert_true (cm_test_wait_page (f->window, "saved", 10));
    g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
    g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
    g_assert_true (cm_window_get_running (f->window));
    picked = cm_card_page_dup_claims (CM_CARD_PAGE (cm_window_get_page (f->window, "card")));
    g_assert_true (g_strv_contains ((const char * const *) picked, "C10"));
    g_assert_true (cm_test_wait_page_idle (f->window, "result", 60));
  }
}

static void
test_empty_history (Fixture       *f,
                    gconstpointer  data)
{
  CmHistoryPage *page;

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "history");
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, 0);
  g_assert_cmpstr (cm_history_page_get_view (page), ==, "empty");
  g_assert_false (cm_history_page_compare (page));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
}

static gboolean
chart_has_size (gpointer widget)
{
  return gtk_widget_get_mapped (widget) &&
         gtk_widget_get_width (widget) > 200 &&
         gtk_widget_get_height (widget) > 100;
}

/* The batch report on screen has a line per card (@n_cards), each in the
 * page's table, and Export CSV writes what core makes of it. */
static void
assert_batch_exported (Fixture       *f,
                       CmHistoryPage *page,
                       guint          n_cards)
{
  GPtrArray *batch = cm_history_page_get_batch (page);
  g_autofree char *path = g_build_filename (f->folders[0], "batch.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) shown = g_string_new (NULL);
  g_autofree char *expected = NULL;
  g_autofree char *written = NULL;

  g_assert_nonnull (batch);
  g_assert_cmpuint (batch->len, ==, n_cards);
  cm_test_collect_labels (GTK_WIDGET (page), shown, TRUE);
  for (guint i = 0; i < batch->len; i++)
    {
      const CmBatchRow *row = g_ptr_array_index (batch, i);

      g_test_message ("batch: %s | %s", row->card, row->verdict);
      g_assert_nonnull (strstr (shown->str, row->card));
    }
  g_assert_true (cm_history_page_export_csv (page, file, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &written, NULL, NULL));
  expected = cm_batch_report_dup_csv (batch);
  g_assert_cmpstr (written, ==, expected);
  g_assert_cmpint (g_unlink (path), ==, 0);
}

/* The window's title, as the header bar shows it. */
static const char *
window_title (GtkWidget *widget)
{
  if (ADW_IS_WINDOW_TITLE (widget))
    return adw_window_title_get_title (ADW_WINDOW_TITLE (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *title = window_title (child);

      if (title != NULL)
        return title;
    }
  return NULL;
}

static const char *
titlebar_title (CmWindow *window)
{
  return window_title (GTK_WIDGET (window));
}

static void
test_compare (Fixture       *f,
              gconstpointer  data)
{
  const char *broken_text = "{ \"schema\": 1, \"tests\": [ this is not JSON";
  g_autoptr(GFile) folder = history_folder ();
  g_autofree char *folder_path = g_file_get_path (folder);
  g_autofree char *broken = g_build_filename (folder_path, "broken.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *names = NULL;
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  /* Two runs of one card, as a user compares a card with itself after a
   * while: the same folder twice. Two folders would be two cards only
   * where nothing tells their disk (no UDisks, an overlay root); on a
   * laptop both are on its one disk. */
  CmResult *first = g_object_ref (run_on (f, f->folders[0]));
  CmResult *second = g_object_ref (run_on (f, f->folders[0]));
  CmHistoryPage *page;
  CmChartView *summary, *over_time;
  GPtrArray *shown;

  g_assert_true (g_file_set_contents (broken, broken_text, -1, NULL));

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "history");
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  /* The files are read off the main loop: the page is still reading
   * when the action returns, and fills in once they are read. */
  g_assert_true (cm_history_page_get_loading (page));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, 2);
  g_assert_cmpstr (cm_history_page_get_view (page), ==, "list");

  /* The file that is not a result is listed, and still there as it was. */
  g_assert_cmpuint (cm_history_page_get_problems (page)->len, ==, 1);
  g_test_message ("problem: %s", (char *) g_ptr_array_index (cm_history_page_get_problems (page), 0));
  g_assert_nonnull (strstr (g_ptr_array_index (cm_history_page_get_problems (page), 0), "broken.json"));
  g_assert_true (g_file_get_contents (broken, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, broken_text);

  /* One ticked is not a comparison. */
  cm_history_page_set_picked (page, 0, TRUE);
  g_assert_false (cm_history_page_compare (page));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history");

  cm_history_page_set_picked (page, 1, TRUE);
  g_assert_cmpstr (titlebar_title (f->window), ==, "History");
  g_assert_true (cm_history_page_compare (page));
  g_assert_cmpstr (cm_history_page_get_view (page), ==, "compare");
  /* Issue 27: the title said "History" in Compare. */
  g_assert_cmpstr (titlebar_title (f->window), ==, "Compare");

  summary = cm_history_page_get_chart (page, CM_CHART_SUMMARY);
  over_time = cm_history_page_get_chart (page, CM_CHART_WRITE_OVER_TIME);
  shown = cm_chart_view_get_results (summary);
  g_assert_cmpuint (shown->len, ==, 2);
  g_assert_cmpuint (cm_chart_view_get_results (over_time)->len, ==, 2);
  g_assert_true (cm_chart_view_has_data (summary));
  g_assert_true (cm_chart_view_has_data (over_time));

  /* Each of the two has data of its own, and they are the two runs. */
  for (guint i = 0; i < shown->len; i++)
    {
      g_autoptr(GPtrArray) one = g_ptr_array_new ();

      g_ptr_array_add (one, g_ptr_array_index (shown, i));
      g_assert_true (cm_chart_has_data (CM_CHART_SUMMARY, one));
      g_assert_true (cm_chart_has_data (CM_CHART_WRITE_OVER_TIME, one));
    }
  g_ptr_array_add (both, (gpointer) cm_result_get_name (g_ptr_array_index (shown, 0)));
  g_ptr_array_add (both, (gpointer) cm_result_get_name (g_ptr_array_index (shown, 1)));
  g_assert_cmpstr (g_ptr_array_index (both, 0), ==, cm_result_get_name (first));
  g_assert_cmpstr (g_ptr_array_index (both, 1), ==, cm_result_get_name (second));

  /* The description names both cards. */
  names = cm_chart_view_dup_description (summary);
  g_test_message ("compare: %s", names);
  g_assert_nonnull (strstr (names, cm_result_get_name (first)));
  g_assert_nonnull (strstr (names, cm_result_get_name (second)));

  /* It is drawn: the chart is on screen with a size, however long a
   * slower build takes to lay it out. */
  g_assert_true (cm_test_wait_drawn (GTK_WIDGET (summary), 10));
  g_assert_true (cm_test_wait_for (chart_has_size, summary, 10));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-compare");
  /* The batch report has a line per card: one, whose newest run it
   * shows. */
  assert_batch_exported (f, page, 1);

  /* Back: to the list, then to where History was opened from; Escape
   * (win.escape, its key's action) goes back as the button does. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_cmpstr (cm_history_page_get_view (page), ==, "list");
  g_assert_cmpstr (titlebar_title (f->window), ==, "History");
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "result");

  g_assert_cmpint (g_unlink (broken), ==, 0);
  g_object_unref (first);
  g_object_unref (second);
}

/* A chart has a colour for CM_CHART_MAX_RESULTS cards: once that many
 * are ticked, the rest can't be, until one is unticked. */
/* A full verify's document sits in the history with the runs: listed
 * (not skipped as a problem), saying what came back, and not offered for
 * a speed comparison it has no tests for. */
static void
test_verify_in_history (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(CmResult) verify = NULL;
  g_autoptr(CmVerifySummary) summary = cm_verify_summary_new ();
  g_autoptr(GFile) saved = NULL;
  g_autoptr(GError) error = NULL;
  CmHistoryPage *page;

  run_on (f, f->folders[0]);
  verify = cm_result_new ();  /* started after the run: newer */
  summary->mode = g_strdup ("files");
  summary->n_files = 1;
  summary->written_bytes = summary->checked_bytes = summary->usable_bytes = 1 << 20;
  summary->sectors_ok = (1 << 20) / 512;
  cm_result_set_profile (verify, "verify");
  cm_result_set_target (verify, f->folders[1], "file", NULL, NULL);
  cm_result_set_name (verify, "Verified card");
  cm_result_set_verify (verify, summary);
  cm_result_set_summary (verify, "Every byte came back as written.");
  saved = cm_history_save (history, verify, &error);
  g_assert_no_error (error);

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  for (guint i = 0; i < cm_history_page_get_problems (page)->len; i++)
    g_test_message ("problem: %s", (char *) g_ptr_array_index (cm_history_page_get_problems (page), i));
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, 2);
  g_assert_cmpuint (cm_history_page_get_problems (page)->len, ==, 0);


  /* Newest first: the verify is on top; ticked, it joins the batch
   * report, and the charts draw the benchmark alone. */
  g_assert_true (cm_history_page_set_picked (page, 0, TRUE));
  g_assert_false (cm_history_page_compare (page));
  g_assert_true (cm_history_page_set_picked (page, 1, TRUE));
  g_assert_true (cm_history_page_compare (page));
  g_assert_cmpuint (cm_chart_view_get_results (cm_history_page_get_chart (page, CM_CHART_SUMMARY))->len, ==, 1);
  assert_batch_exported (f, page, 2);
}

/* The documents of a full verify and a capacity check as their jobs
 * keep them: a verify of a whole 64 MiB device that lost its last
 * quarter, and a capacity check of a card that says 64 GB and holds 8. */
#define VERIFY_SIZE    (64 * 1024 * 1024)
#define VERIFY_LOST    (16 * 1024 * 1024)

static CmTestResult *
new_verify_test (const char *name,
                 double      mb_per_s)
{
  CmTestResult *test = cm_test_result_new (name);

  test->bytes = VERIFY_SIZE;
  test->mb_per_s = mb_per_s;
  test->seconds = VERIFY_SIZE / 1e6 / mb_per_s;
  for (guint i = 0; i < 16; i++)
    {
      CmPosition p = { (double) i * VERIFY_SIZE / 16, mb_per_s * (0.9 + 0.01 * (i % 5)) };

      g_array_append_val (test->positions, p);
    }
  return test;
}

static CmResult *
make_verify (void)
{
  CmResult *verify = cm_result_new ();
  g_autoptr(CmVerifySummary) summary = cm_verify_summary_new ();
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  CmRegion lost = { VERIFY_SIZE - VERIFY_LOST, VERIFY_SIZE };

  summary->mode = g_strdup ("device");
  summary->n_files = 1;
  summary->written_bytes = summary->checked_bytes = VERIFY_SIZE;
  summary->usable_bytes = VERIFY_SIZE - VERIFY_LOST;
  summary->lost_bytes = VERIFY_LOST;
  summary->sectors_ok = summary->usable_bytes / 512;
  summary->sectors_overwritten = VERIFY_LOST / 512;
  summary->first_bad_offset = lost.start;
  g_array_append_val (summary->bad_regions, lost);

  cm_card_info_set_brand (card, "SanDisk");
  cm_result_set_kind (verify, "verify");
  cm_result_set_profile (verify, "verify");
  cm_result_set_target (verify, "/dev/loop7", "raw-write", "/dev/loop7", NULL);
  cm_result_set_name (verify, "Loop device on card.img");
  cm_result_set_card (verify, card);
  cm_result_set_verify (verify, summary);
  cm_result_take_test (verify, new_verify_test (CM_TEST_VERIFY_WRITE, 21.5));
  cm_result_take_test (verify, new_verify_test (CM_TEST_VERIFY_READ, 43.2));
  cm_result_set_summary (verify, "16 MB of the card did not keep what was written to it.");
  return verify;
}

static CmResult *
make_capacity (void)
{
  CmResult *capacity = cm_result_new ();
  g_autoptr(CmCapacityReport) report = cm_capacity_report_new ();

  report->reported_bytes = G_GUINT64_CONSTANT (64) * 1000 * 1000 * 1000;
  report->real_bytes = report->last_good_bytes = G_GUINT64_CONSTANT (8) * 1000 * 1000 * 1000;
  report->cache_ruled_out = 256 * 1024 * 1024;
  report->n_positions = 64;
  report->cell_bytes = report->reported_bytes / report->n_positions;
  report->fake = TRUE;
  report->seconds = 20;
  for (guint i = 0; i < report->n_positions; i++)
    {
      guint8 cell = i * report->cell_bytes < report->real_bytes ? CM_CAPACITY_CELL_VERIFIED : CM_CAPACITY_CELL_NO_STORAGE;

      report->n_bad += cell != CM_CAPACITY_CELL_VERIFIED;
      g_array_append_val (report->cells, cell);
    }

  cm_result_set_kind (capacity, "capacity");
  cm_result_set_profile (capacity, "capacity");
  cm_result_set_target (capacity, "/dev/loop8", "raw-write", "/dev/loop8", NULL);
  cm_result_set_name (capacity, "Loop device on fake.img");
  cm_result_set_capacity (capacity, report);
  cm_result_set_summary (capacity, "Fake capacity: the card says it holds 64 GB, but data written past 8 GB does not come back.");
  return capacity;
}

/* No test's internal name, a verify's among them, and no criterion's. */
static void
assert_no_internal_names (const char *text)
{
  const char *others[] = {
    CM_TEST_VERIFY_WRITE, CM_TEST_VERIFY_READ, "sustained-write", "random-read", "random-write", "raw-write",
  };

  for (guint i = 0; i < cm_test_table_get_n_kinds (); i++)
    if (strstr (text, cm_test_table_get_kind (i)->name) != NULL)
      g_error ("“%s” shows the internal name “%s”", text, cm_test_table_get_kind (i)->name);
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    if (strstr (text, others[i]) != NULL)
      g_error ("“%s” shows the internal name “%s”", text, others[i]);
}

/* Opens the History row at @index and checks the page it shows is its
 * kind's own: its answer in the banner, coloured by it; figures that
 * all exist; no internal name anywhere; its chart, with data, and no
 * benchmark chart; a summary to copy that says the same. */
static CmResultPage *
open_and_check (Fixture       *f,
                CmHistoryPage *history,
                guint          index,
                const char    *kind,
                CmChartKind    chart_kind)
{
  CmResultPage *page;
  CmResult *result;
  g_autoptr(GString) shown = g_string_new (NULL);
  g_autoptr(GPtrArray) charts = NULL;
  g_autofree char *answer = NULL;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;
  GtkWidget *banner, *figures;
  CmStatus status;
  CmChartKind first_kind;
  guint n_values = 0;

  /* As Enter on the row, or a click on it, opens it. */
  /* As a click on the row, or Enter, opens it (the list's activation). */
  cm_history_page_open (history, index);
  g_assert_true (cm_test_wait_page (f->window, "saved", 10));
  page = CM_RESULT_PAGE (cm_window_get_page (f->window, "saved"));
  result = cm_result_page_get_result (page);
  g_assert_cmpstr (cm_result_get_kind (result), ==, kind);

  /* The banner says the kind's answer and is coloured by it. */
  answer = cm_summary_dup_answer (result, &status);
  g_assert_nonnull (answer);
  g_assert_cmpint (status, ==, CM_STATUS_BELOW);
  banner = cm_test_find_by_css_class (GTK_WIDGET (page), "verdict-banner");
  cm_test_collect_labels (banner, shown, TRUE);
  g_test_message ("%s banner: %s", kind, shown->str);
  g_assert_nonnull (strstr (shown->str, answer));
  g_assert_null (strstr (shown->str, "no class was picked"));
  g_assert_true (gtk_widget_has_css_class (banner, "below"));

  /* Every headline figure is there: none is "—". */
  figures = cm_test_find_by_css_class (GTK_WIDGET (page), "headline-strip");
  for (GtkWidget *box = gtk_widget_get_first_child (figures); box != NULL; box = gtk_widget_get_next_sibling (box))
    {
      GtkWidget *value = gtk_widget_get_last_child (box);

      g_test_message ("%s figure: %s", kind, gtk_label_get_label (GTK_LABEL (value)));
      g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (value)), !=, "—");
      n_values++;
    }
  g_assert_cmpuint (n_values, >=, 2);

  /* Nothing on the page names a test or a criterion by its internal
   * name, and nothing shown is a "—". */
  g_string_truncate (shown, 0);
  cm_test_collect_labels (GTK_WIDGET (page), shown, TRUE);
  assert_no_internal_names (shown->str);
  g_assert_null (strstr (shown->str, "—\n"));

  /* Its own chart, with data, shown; the benchmark's are not. */
  charts = cm_result_page_dup_charts (page);
  g_assert_true (cm_chart_view_get_chart_kind (g_ptr_array_index (charts, 0), &first_kind));
  g_assert_cmpint (first_kind, ==, chart_kind);
  g_assert_true (cm_chart_view_has_data (g_ptr_array_index (charts, 0)));
  g_assert_true (cm_test_wait_drawn (g_ptr_array_index (charts, 0), 10));
  for (guint i = 1; i < charts->len; i++)
    g_assert_false (gtk_widget_is_visible (g_ptr_array_index (charts, i)));

  /* Copy Summary says the same, about the same card. */
  text = cm_result_dup_text_summary (result);
  title = cm_summary_dup_card_title (result);
  g_test_message ("%s summary:\n%s", kind, text);
  assert_no_internal_names (text);
  g_assert_nonnull (strstr (text, answer));
  g_assert_nonnull (strstr (text, title));
  g_assert_nonnull (strstr (text, cm_job_kind_get_title (kind)));
  g_assert_null (strstr (text, "—\n"));
  return page;
}

/* The page's own chart is the one chart offered for export, and exports
 * as a PNG of the export width. */
static void
check_kind_export (Fixture      *f,
                   CmResultPage *page,
                   CmChartKind   kind)
{
  g_autoptr(GMenuModel) section = find_export_charts (GTK_WIDGET (page));
  g_autofree char *target = NULL;
  g_autofree char *path = g_build_filename (f->folders[1], "chart.png", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  int width = 0, height = 0;

  g_assert_nonnull (section);
  g_assert_cmpint (g_menu_model_get_n_items (section), ==, 1);
  g_assert_true (g_menu_model_get_item_attribute (section, 0, G_MENU_ATTRIBUTE_TARGET, "s", &target));
  g_assert_cmpstr (target, ==, cm_chart_kind_to_string (kind));
  g_assert_true (cm_result_page_export_chart (page, kind, file, &error));
  g_assert_no_error (error);
  g_assert_nonnull (gdk_pixbuf_get_file_info (path, &width, &height));
  g_test_message ("%s exported at %d×%d", target, width, height);
  g_assert_cmpint (width, ==, CM_CHART_EXPORT_WIDTH);
  g_assert_cmpint (height, >, 100);
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      g_autofree char *name = g_strdup_printf ("export-%s.png", target);
      g_autofree char *keep = g_build_filename (g_getenv ("CARDMARK_SCREENSHOT_DIR"), name, NULL);

      g_assert_cmpint (g_rename (path, keep), ==, 0);
    }
  else
    g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
test_kinds_from_history (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(CmResult) verify = make_verify ();
  g_autoptr(CmResult) capacity = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) saved_verify = NULL;
  g_autoptr(GFile) saved_capacity = NULL;
  g_autofree char *verify_size = g_format_size (VERIFY_SIZE);
  g_autofree char *capacity_size = g_format_size (G_GUINT64_CONSTANT (64) * 1000 * 1000 * 1000);
  CmHistoryPage *page;
  CmResultPage *result_page;

  saved_verify = cm_history_save (history, verify, &error);
  g_assert_no_error (error);
  capacity = make_capacity ();  /* newer: on top */
  saved_capacity = cm_history_save (history, capacity, &error);
  g_assert_no_error (error);

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, 2);

  /* Each row is titled by the card: its brand, its size and its name,
   * and says the kind and the answer in words. */
  {
    struct { guint index; const char *first; const char *size; const char *name; const char *kind; const char *answer; } rows[] = {
      { 0, NULL, capacity_size, "Loop device on fake.img", "capacity", "Fake" },
      { 1, "SanDisk", verify_size, "Loop device on card.img", "verify", "Data lost" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
      {
        GtkWidget *row = cm_history_page_get_row (page, rows[i].index);
        g_autoptr(GString) shown = g_string_new (NULL);
        g_auto(GStrv) lines = NULL;
        g_autofree char *subtitle = NULL;
        const char *title;

        /* The row's title, then the rest of what it says: the labels
         * after its tick box, in order. */
        for (GtkWidget *w = gtk_widget_get_next_sibling (gtk_widget_get_first_child (row)); w != NULL;
             w = gtk_widget_get_next_sibling (w))
          if (!GTK_IS_BUTTON (w))
            cm_test_collect_labels (w, shown, TRUE);
        lines = g_strsplit (shown->str, "\n", 2);
        title = lines[0];
        subtitle = g_strdup (lines[1] != NULL ? lines[1] : "");
        g_string_truncate (shown, 0);

        g_test_message ("row %u: %s — %s", i, title, subtitle);
        g_assert_nonnull (strstr (title, rows[i].size));
        g_assert_nonnull (strstr (title, rows[i].name));
        /* Brand first; without one, the size. */
        g_assert_true (strstr (title, rows[i].first != NULL ? rows[i].first : rows[i].size) == title);
        g_assert_nonnull (strstr (subtitle, cm_job_kind_get_title (rows[i].kind)));
        g_assert_nonnull (strstr (subtitle, rows[i].answer));
        g_assert_null (strstr (subtitle, "No class judged"));
        cm_test_collect_labels (row, shown, TRUE);
        assert_no_internal_names (shown->str);
        /* Ticked, it joins the batch report. */
        g_assert_true (cm_history_page_set_picked (page, rows[i].index, TRUE));
      }
  }
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-kinds");

  /* The batch report of the two cards, without speed charts: neither
   * is a benchmark. */
  g_assert_true (cm_history_page_compare (page));
  g_assert_cmpuint (cm_chart_view_get_results (cm_history_page_get_chart (page, CM_CHART_SUMMARY))->len, ==, 0);
  {
    GPtrArray *batch = cm_history_page_get_batch (page);
    /* Oldest first: the verify, then the capacity check. */
    const CmBatchRow *lost = g_ptr_array_index (batch, 0);
    const CmBatchRow *fake = g_ptr_array_index (batch, 1);

    g_assert_cmpuint (batch->len, ==, 2);
    g_assert_cmpint (fake->real_bytes, >, 0);
    g_assert_cmpint (fake->real_bytes, <, (gint64) fake->size_bytes);
    g_assert_cmpint (lost->lost_bytes, >, 0);
  }
  assert_batch_exported (f, page, 2);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-batch");
  g_assert_true (cm_history_page_go_back (page));

  result_page = open_and_check (f, page, 1, "verify", CM_CHART_VERIFY);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "verify-from-history");
  check_kind_export (f, result_page, CM_CHART_VERIFY);
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      g_autoptr(GPtrArray) charts = cm_result_page_dup_charts (result_page);

      cm_test_scroll_to (gtk_widget_get_parent (gtk_widget_get_parent (gtk_widget_get_parent (
        g_ptr_array_index (charts, 0)))));
      cm_test_save_screenshots (GTK_WIDGET (f->window), "verify-from-history-chart");
    }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "history");
  result_page = open_and_check (f, page, 0, "capacity", CM_CHART_CAPACITY_MAP);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "capacity-from-history");
  check_kind_export (f, result_page, CM_CHART_CAPACITY_MAP);
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      g_autoptr(GPtrArray) charts = cm_result_page_dup_charts (result_page);

      cm_test_scroll_to (gtk_widget_get_parent (gtk_widget_get_parent (gtk_widget_get_parent (
        g_ptr_array_index (charts, 0)))));
      cm_test_save_screenshots (GTK_WIDGET (f->window), "capacity-from-history-chart");
    }
}

static void
test_compare_limit (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GFile) folder = history_folder ();
  CmResult *result = run_on (f, f->folders[0]);
  CmHistoryPage *page;
  guint n = CM_CHART_MAX_RESULTS + 1;

  /* As many saved results as the chart has colours, and one more. */
  for (guint i = 1; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("Card %u", i);
      g_autofree char *file_name = g_strdup_printf ("copy-%u.json", i);
      g_autoptr(GFile) file = g_file_get_child (folder, file_name);
      g_autoptr(GError) error = NULL;

      cm_result_set_name (result, name);
      g_assert_true (cm_result_save (result, file, &error));
      g_assert_no_error (error);
    }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, n);

  for (guint i = 0; i < CM_CHART_MAX_RESULTS; i++)
    g_assert_true (cm_history_page_set_picked (page, i, TRUE));
  g_assert_false (cm_history_page_set_picked (page, CM_CHART_MAX_RESULTS, TRUE));
  g_assert_false (cm_history_page_set_picked (page, 0, FALSE));
  g_assert_true (cm_history_page_set_picked (page, CM_CHART_MAX_RESULTS, TRUE));
  g_assert_true (cm_history_page_compare (page));
}

/* A card whose registers tell its CID serial, with a name of its own. */
static CmResult *
make_named_verify (const char *name,
                   char      **serial)
{
  CmResult *verify = make_verify ();
  g_autoptr(GError) error = NULL;
  /* A Gigastone card's registers (tests/data/reference). */
  g_autoptr(CmCardInfo) card = cm_card_info_new_from_registers ("744a60303030303000000001c9017709",
                                                                "400e00325b590000e8f57f800a4000d1",
                                                                "02b5808300000000", NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (cm_card_info_get_serial (card));
  *serial = g_strdup (cm_card_info_get_serial (card));
  cm_result_set_card (verify, card);
  cm_result_set_name (verify, name);
  return verify;
}

typedef struct
{
  CmHistoryPage *page;
  guint          n;
} Listed;

/* The search has settled on @n results. */
static gboolean
lists_n (gpointer data)
{
  Listed *listed = data;

  return !cm_history_page_get_loading (listed->page) && cm_history_page_get_n_results (listed->page) == listed->n;
}

/* Types @text in History's search, as a person does (the entry waits a
 * moment after the last key), and waits until @n results are listed. */
static void
search_for (CmHistoryPage *page,
            const char    *text,
            guint          n)
{
  Listed listed = { page, n };
  GtkWidget *entry = cm_test_find_type (GTK_WIDGET (page), GTK_TYPE_SEARCH_ENTRY);

  g_assert_true (entry == cm_history_page_get_search_entry (page));
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_assert_true (cm_test_wait_for (lists_n, &listed, 10));
}

/* What row @index says, every label of it. */
static char *
dup_row_text (CmHistoryPage *page,
              guint          index)
{
  GString *shown = g_string_new (NULL);

  cm_history_page_scroll_to (page, index);
  cm_test_settle (0.2);
  g_assert_nonnull (cm_history_page_get_row (page, index));
  cm_test_collect_labels (cm_history_page_get_row (page, index), shown, FALSE);
  return g_string_free (shown, FALSE);
}

/* A benchmark's row says whether it was the quick or the full one, in
 * the words the app has for them. */
static void
test_quick_or_full (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  CmProfile profiles[] = { CM_PROFILE_QUICK, CM_PROFILE_FULL };
  guint found[G_N_ELEMENTS (profiles)] = { 0 };
  CmHistoryPage *page;

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autoptr(CmResult) bench = cm_result_new ();
      g_autoptr(GFile) file = NULL;
      g_autoptr(GError) error = NULL;

      cm_result_set_profile (bench, cm_profile_to_string (profiles[i]));
      cm_result_set_target (bench, "/media/card", "file", NULL, NULL);
      file = cm_history_save (history, bench, &error);
      g_assert_no_error (error);
    }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, G_N_ELEMENTS (profiles));

  for (guint row = 0; row < G_N_ELEMENTS (profiles); row++)
    {
      g_autofree char *text = dup_row_text (page, row);

      g_test_message ("row %u: %s", row, text);
      for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
        found[i] += strstr (text, cm_profile_get_title (profiles[i])) != NULL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    g_assert_cmpuint (found[i], ==, 1);
}

static gboolean
shows_no_match (gpointer page)
{
  g_autoptr(GString) shown = g_string_new (NULL);

  cm_test_collect_labels (page, shown, TRUE);
  return strstr (shown->str, "No Results Match") != NULL;
}

/* History's search finds a result by its card's name, by its CID serial
 * and by its outcome in words, says how many match, and says so when
 * none does; Ctrl+F's action puts the keyboard in it. The count above
 * the list is right as soon as a result is deleted, searched or not. */
static void
test_search (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(CmHistory) history = cm_history_new_default ();
  g_autoptr(CmResult) verify = make_verify ();
  g_autoptr(CmResult) capacity = make_capacity ();
  g_autofree char *serial = NULL;
  g_autoptr(CmResult) named = make_named_verify ("Blue kitchen card", &serial);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *count = NULL;
  CmResult *saved[] = { verify, capacity, named };
  CmHistoryPage *page;
  GtkWidget *focus;
  guint n;

  for (guint i = 0; i < G_N_ELEMENTS (saved); i++)
    {
      g_autoptr(GFile) file = cm_history_save (history, saved[i], &error);

      g_assert_no_error (error);
    }

  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  page = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (page, 10));
  n = cm_history_page_get_n_results (page);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (saved));

  /* Ctrl+F's action: the keyboard is in the search. */
  gtk_widget_activate_action (GTK_WIDGET (page), "history.search", NULL);
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_nonnull (focus);
  g_assert_true (focus == cm_history_page_get_search_entry (page) ||
                 gtk_widget_is_ancestor (focus, cm_history_page_get_search_entry (page)));

  /* By the card's name, any case. */
  search_for (page, "blue KITCHEN", 1);
  text = dup_row_text (page, 0);
  g_test_message ("found by name: %s", text);
  g_assert_nonnull (strstr (text, "Blue kitchen card"));
  g_assert_nonnull (strstr (cm_history_page_get_count_text (page), "1 result matches"));
  g_clear_pointer (&text, g_free);

  /* By its CID serial: the same result. */
  g_test_message ("serial: %s", serial);
  search_for (page, serial, 1);
  text = dup_row_text (page, 0);
  g_assert_nonnull (strstr (text, "Blue kitchen card"));
  g_clear_pointer (&text, g_free);

  /* By an outcome in words: the capacity check that found a fake. */
  search_for (page, "fake", 1);
  text = dup_row_text (page, 0);
  g_test_message ("found by outcome: %s", text);
  g_assert_nonnull (strstr (text, "Fake"));
  g_clear_pointer (&text, g_free);

  /* Nothing: said so. */
  search_for (page, "no such card anywhere", 0);
  g_assert_true (cm_test_wait_for (shows_no_match, page, 10));
  g_assert_nonnull (strstr (cm_history_page_get_count_text (page), "0 results match"));

  /* Emptied: all again, and a Delete (of the oldest) is counted at once. */
  search_for (page, "", n);
  g_assert_true (cm_history_page_delete (page, n - 1, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, n - 1);
  count = g_strdup_printf ("%u saved result", n - 1);
  g_test_message ("after Delete: %s", cm_history_page_get_count_text (page));
  g_assert_nonnull (strstr (cm_history_page_get_count_text (page), count));

  /* Deleted while searched for: none match, at once. */
  search_for (page, serial, 1);
  g_assert_true (cm_history_page_delete (page, 0, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (cm_history_page_get_n_results (page), ==, 0);
  g_assert_nonnull (strstr (cm_history_page_get_count_text (page), "0 results match"));
  g_assert_true (shows_no_match (page));

  /* For the eyes (CARDMARK_SCREENSHOT_DIR): a search that found one,
   * and one that found none. */
  search_for (page, "fake", 1);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-search");
  search_for (page, "no such card anywhere", 0);
  cm_test_save_screenshots (GTK_WIDGET (f->window), "history-no-match");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it keeps. */
  data_home = cm_test_data_home_make ();
  cm_bench_set_test_plan ("tiny");

  cm_test_app_init (&argc, &argv);

  g_test_add ("/cardmark/app-history/result-charts", Fixture, NULL,
              fixture_set_up, test_result_charts, fixture_tear_down);
  g_test_add ("/cardmark/app-history/export-chart", Fixture, NULL,
              fixture_set_up, test_export_chart, fixture_tear_down);
  g_test_add ("/cardmark/app-history/saved-in-history", Fixture, NULL,
              fixture_set_up, test_saved_in_history, fixture_tear_down);
  g_test_add ("/cardmark/app-history/empty", Fixture, NULL,
              fixture_set_up, test_empty_history, fixture_tear_down);
  g_test_add ("/cardmark/app-history/compare", Fixture, NULL,
              fixture_set_up, test_compare, fixture_tear_down);
  g_test_add ("/cardmark/app-history/verify-in-history", Fixture, NULL,
              fixture_set_up, test_verify_in_history, fixture_tear_down);
  g_test_add ("/cardmark/app-history/kinds-from-history", Fixture, NULL,
              fixture_set_up, test_kinds_from_history, fixture_tear_down);
  g_test_add ("/cardmark/app-history/quick-or-full", Fixture, NULL,
              fixture_set_up, test_quick_or_full, fixture_tear_down);
  g_test_add ("/cardmark/app-history/search", Fixture, NULL,
              fixture_set_up, test_search, fixture_tear_down);
  g_test_add ("/cardmark/app-history/compare-limit", Fixture, NULL,
              fixture_set_up, test_compare_limit, fixture_tear_down);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
