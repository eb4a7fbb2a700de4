/* test-app-window.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's window driven as a user (or a script) would: the card list
 * follows its model, a test on a real folder reaches the result page,
 * cancel comes back quickly and leaves nothing, a pulled card ends the
 * run with its own message. Runs under Xvfb.
 *
 * With CARDMARK_SCREENSHOT_DIR set, each page is also saved as a PNG.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "cm-application.h"
#include "cm-job-list.h"
#include "cm-backend.h"
#include "cm-card-item.h"
#include "cm-card-list-page.h"
#include "cm-card-page.h"
#include "cm-result-page.h"
#include "cm-run-page.h"
#include "cm-test-app.h"
#include "cm-test-table.h"
#include "cm-toast.h"
#include "cm-window.h"

static void
save_screenshot (CmWindow   *window,
                 const char *name)
{
  const char *dir = g_getenv ("CARDMARK_SCREENSHOT_DIR");
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  cm_test_settle (0.4);
  file = g_strdup_printf ("app-%s.png", name);
  path = g_build_filename (dir, file, NULL);
  cm_test_save_png (GTK_WIDGET (window), path);
}

static guint
count_scratch_files (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint n = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_prefix (name, ".cardmark-"))
      n++;

  return n;
}

typedef struct
{
  CmApplication *app;
  CmWindow      *window;
  char          *folder;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->window = cm_test_window_new (&f->app);
  /* CARDMARK_SCREENSHOT_SIZE=1280x800: the screenshots at another size. */
  if (g_getenv ("CARDMARK_SCREENSHOT_SIZE") != NULL)
    {
      int width = 800, height = 480;

      if (sscanf (g_getenv ("CARDMARK_SCREENSHOT_SIZE"), "%dx%d", &width, &height) == 2)
        gtk_window_set_default_size (GTK_WINDOW (f->window), width, height);
    }

  /* Not /tmp, which may be a tmpfs that refuses O_DIRECT. */
  f->folder = g_dir_make_tmp ("cardmark-app-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  g_assert_cmpint (g_rmdir (f->folder), ==, 0);
  g_free (f->folder);
  g_clear_object (&f->app);
}

static void
test_list_follows_model (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  g_autoptr(CmCardItem) a = cm_card_item_new_device ("/dev/sdx", "SanDisk Ultra", 32000000000, "USB 3 reader", NULL);
  g_autoptr(CmCardItem) b = cm_card_item_new_device ("/dev/mmcblk9", "SD card", 64000000000, "Pi slot", f->folder);

  cm_window_set_devices (f->window, G_LIST_MODEL (store));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  g_assert_cmpuint (cm_card_list_page_get_n_rows (list), ==, 0);
  save_screenshot (f->window, "empty");

  g_list_store_append (store, a);
  g_list_store_append (store, b);
  g_assert_cmpuint (cm_card_list_page_get_n_rows (list), ==, 2);
  save_screenshot (f->window, "cards");

  g_list_store_remove (store, 0);
  g_assert_cmpuint (cm_card_list_page_get_n_rows (list), ==, 1);
  g_list_store_remove (store, 0);
  g_assert_cmpuint (cm_card_list_page_get_n_rows (list), ==, 0);
}

typedef struct
{
  CmCardListPage *list;
  guint           index;
} RowAt;

static gboolean
row_settled (gpointer data)
{
  RowAt *at = data;

  return !cm_card_list_page_row_just_moved (at->list, at->index);
}

/* A card going away moves the rows below it; a click that lands on a row
 * that has just moved was aimed at another card, and opens nothing. */
static void
test_stable_click (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (f->window, "cards"));
  g_autoptr(CmCardItem) a = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, "USB 3 reader", NULL);
  g_autoptr(CmCardItem) b = cm_card_item_new_device ("/dev/sdy", "Card", 64000000000, "USB 3 reader", NULL);
  RowAt at = { list, 0 };

  cm_window_set_devices (f->window, G_LIST_MODEL (store));
  g_list_store_append (store, a);
  g_list_store_append (store, b);
  g_assert_true (cm_test_wait_for (row_settled, &at, 5));

  /* The first card goes; the second slides under the pointer. */
  g_list_store_remove (store, 0);
  g_assert_true (cm_card_list_page_row_just_moved (list, 0));
  cm_card_list_page_activate_row (list, 0);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");

  /* Once it has stayed put, a click opens it. */
  g_assert_true (cm_test_wait_for (row_settled, &at, 5));
  cm_card_list_page_activate_row (list, 0);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  g_assert_true (cm_card_page_get_item (CM_CARD_PAGE (cm_window_get_page (f->window, "card"))) == b);
}

/* Two cards of the same make and size: their volume labels tell them
 * apart, first in the row's subtitle; a card without one shows none. */
static void
test_volume_label (void)
{
  g_autoptr(CmCardItem) a = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, "USB 3 reader", NULL);
  g_autoptr(CmCardItem) b = cm_card_item_new_device ("/dev/sdy", "Card", 32000000000, "USB 3 reader", NULL);
  g_autofree char *plain = cm_card_item_dup_subtitle (a);
  g_autofree char *sub_a = NULL;
  g_autofree char *sub_b = NULL;

  cm_card_item_set_volume_label (a, "BOOTFS");
  cm_card_item_set_volume_label (b, "CAMERA");
  sub_a = cm_card_item_dup_subtitle (a);
  sub_b = cm_card_item_dup_subtitle (b);
  g_assert_true (g_str_has_prefix (sub_a, "“BOOTFS” · /dev/sdx"));
  g_assert_true (g_str_has_prefix (sub_b, "“CAMERA” · /dev/sdy"));
  g_assert_null (strstr (plain, "“"));

  cm_card_item_set_volume_label (b, "");
  g_assert_null (cm_card_item_get_volume_label (b));
}

static void
test_card_page_methods (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(CmCardItem) unmounted = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, "USB 2.0 reader", NULL);
  g_autoptr(CmCardItem) mounted = cm_card_item_new_device ("/dev/sdy", "Card", 32000000000, "USB 3 reader", f->folder);
  g_autoptr(CmCardPage) page_u = g_object_ref_sink (cm_card_page_new (unmounted));
  g_autoptr(CmCardPage) page_m = g_object_ref_sink (cm_card_page_new (mounted));
  const char *claims[] = { "U3", "A2", NULL };
  g_auto(GStrv) picked = NULL;

  /* Safe is the default when mounted, and raw writes are never offered then. */
  g_assert_cmpint (cm_card_page_get_method (page_m), ==, CM_METHOD_FILE);
  g_assert_false (cm_card_page_set_method (page_m, CM_METHOD_RAW_WRITE));
  g_assert_true (cm_card_page_set_method (page_u, CM_METHOD_RAW_WRITE));
  g_assert_false (cm_card_page_set_method (page_u, CM_METHOD_FILE));

  cm_card_page_set_claims (page_m, claims);
  picked = cm_card_page_dup_claims (page_m);
  g_assert_true (g_strv_equal ((const char * const *) picked, claims));

  /* The picks are kept for the card: its page made again has them, and
   * another card's page does not. */
  {
    g_autoptr(CmCardPage) again = g_object_ref_sink (cm_card_page_new (mounted));
    g_autoptr(CmCardPage) other = g_object_ref_sink (cm_card_page_new (unmounted));
    g_auto(GStrv) kept = cm_card_page_dup_claims (again);
    g_auto(GStrv) none = cm_card_page_dup_claims (other);

    g_assert_true (g_strv_equal ((const char * const *) kept, claims));
    g_assert_cmpuint (g_strv_length (none), ==, 0);
  }
}

static void
start_on_folder (Fixture            *f,
                 const char         *plan,
                 const char * const *claims)
{
  cm_bench_set_test_plan (plan);
  g_assert_true (cm_window_open_path (f->window, f->folder));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "card");
  if (claims != NULL)
    cm_card_page_set_claims (CM_CARD_PAGE (cm_window_get_page (f->window, "card")), claims);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
}

static void
test_run_to_result (Fixture       *f,
                    gconstpointer  data)
{
  const char *claims[] = { "C10", NULL };
  CmResult *result;
  GPtrArray *tests;

  cm_bench_set_test_plan ("tiny");
  g_assert_true (cm_window_open_path (f->window, f->folder));
  cm_card_page_set_claims (CM_CARD_PAGE (cm_window_get_page (f->window, "card")), claims);
  save_screenshot (f->window, "card");
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);

  g_assert_true (cm_test_wait_page (f->window, "result", 60));
  g_assert_false (cm_window_get_running (f->window));
  result = cm_window_get_last_result (f->window);
  g_assert_nonnull (result);

  tests = cm_result_get_tests (result);
  g_assert_cmpuint (tests->len, ==, 3);
  for (guint i = 0; i < tests->len; i++)
    {
      const CmTestResult *t = g_ptr_array_index (tests, i);

      g_assert_null (t->error);
      g_assert_cmpfloat (t->mb_per_s, >, 0);
    }

  /* The claim picked on the card page was judged, one way or another. */
  g_assert_cmpuint (cm_result_get_claims (result)->len, ==, 1);
  g_assert_cmpuint (count_scratch_files (f->folder), ==, 0);
  save_screenshot (f->window, "result");

  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    {
      gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 1500);
      save_screenshot (f->window, "result-full");
      adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_FORCE_DARK);
      save_screenshot (f->window, "result-full-dark");
      adw_style_manager_set_color_scheme (adw_style_manager_get_default (), ADW_COLOR_SCHEME_DEFAULT);
    }
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  /* Ticked, so that the run page's chart has a class line to show. */
  const char * const claims[] = { "U3", NULL };
  gint64 cancelled_at, returned_at;

  start_on_folder (f, "slow", claims);
  g_assert_true (cm_window_get_running (f->window));
  g_assert_true (cm_test_wait_run_points (f->window, 2, 30));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "run");
  save_screenshot (f->window, "run");

  /* Back leaves the run page and the benchmark goes on; the card opens
   * on its run again. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.back", NULL));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "cards");
  g_assert_true (cm_job_list_get_busy (cm_job_list_get_default ()));
  g_assert_true (cm_window_open_path (f->window, f->folder));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "run");

  cancelled_at = g_get_monotonic_time ();
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "cancel-test", NULL);
  g_assert_true (cm_test_wait_page_idle (f->window, "card", 5));
  returned_at = g_get_monotonic_time ();

  g_test_message ("cancel took %.3f s", (returned_at - cancelled_at) / 1e6);
  /* How long is printed, not bounded: a busy machine is no failure of
   * the code (tests/perf/main-loop-stall keeps the goals). */
  g_assert_cmpuint (count_scratch_files (f->folder), ==, 0);
  g_assert_null (cm_window_get_last_result (f->window));
}

static void
test_card_pulled (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_autoptr(CmCardItem) card = cm_card_item_new_device ("/dev/cardmark-test", "Test card", 0, "USB 3 reader", f->folder);

  g_list_store_append (store, card);
  cm_window_set_devices (f->window, G_LIST_MODEL (store));
  cm_bench_set_test_plan ("slow");
  g_assert_true (cm_window_open_path (f->window, "/dev/cardmark-test"));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
  g_assert_true (cm_test_wait_run_points (f->window, 2, 30));

  g_list_store_remove (store, 0);
  g_assert_true (cm_test_wait_page (f->window, "error", 5));
  g_assert_false (cm_window_get_running (f->window));
  g_assert_cmpuint (count_scratch_files (f->folder), ==, 0);
  save_screenshot (f->window, "card-pulled");
}

static gboolean
is_toast (GtkWidget *widget)
{
  return g_str_equal (gtk_widget_get_css_name (widget), "toast");
}

static gboolean
is_start_button (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_actionable_get_action_name (GTK_ACTIONABLE (widget)), "app.start-test") == 0;
}

static gboolean
is_method_warning (GtkWidget *widget)
{
  return gtk_widget_has_css_class (widget, "method-warning");
}

static gboolean
toast_shows (gpointer data)
{
  return cm_test_find_mapped (data, is_toast) != NULL;
}

static gboolean
has_toast_room (GtkWidget *widget)
{
  return gtk_widget_has_css_class (widget, "toast-room");
}

static gboolean
room_given_back (gpointer data)
{
  return cm_test_find_mapped (data, has_toast_room) == NULL;
}

/* One the app shows (window-actions' show_removed), longer than a line. */
#define LONG_MESSAGE "The card went away during the test, so there is no result. Put it back, wait until it appears in the list, and start the test again."

static gboolean
is_label (GtkWidget *widget)
{
  return GTK_IS_LABEL (widget);
}

/* A long message shows whole: no "…", wrapped inside the toast, and the
 * toast inside the window. */
static void
assert_shown_whole (GtkWidget  *window,
                    GtkWidget  *toast,
                    const char *message)
{
  GtkWidget *label = cm_test_find_mapped (toast, is_label);
  PangoLayout *layout;
  graphene_rect_t rl, rt;

  g_assert_nonnull (label);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, message);
  layout = gtk_label_get_layout (GTK_LABEL (label));
  g_assert_false (pango_layout_is_ellipsized (layout));
  g_assert_cmpint (pango_layout_get_line_count (layout), >, 1);
  g_assert_true (gtk_widget_compute_bounds (label, window, &rl));
  g_assert_true (gtk_widget_compute_bounds (toast, window, &rt));
  g_assert_true (graphene_rect_contains_rect (&rt, &rl));
  g_assert_cmpfloat (rt.origin.x, >=, 0);
  g_assert_cmpfloat (rt.origin.x + rt.size.width, <=, gtk_widget_get_width (window));
  g_assert_cmpfloat (rt.origin.y + rt.size.height, <=, gtk_widget_get_height (window));
}

static void
assert_apart (GtkWidget *window,
              GtkWidget *a,
              GtkWidget *b)
{
  graphene_rect_t ra, rb;

  g_assert_true (gtk_widget_compute_bounds (a, window, &ra));
  g_assert_true (gtk_widget_compute_bounds (b, window, &rb));
  g_test_message ("%.0f,%.0f %.0fx%.0f and %.0f,%.0f %.0fx%.0f", ra.origin.x, ra.origin.y, ra.size.width,
                  ra.size.height, rb.origin.x, rb.origin.y, rb.size.width, rb.size.height);
  g_assert_false (graphene_rect_intersection (&ra, &rb, NULL));
}

/* A toast (here "The card was removed.", "Result saved.") shows at the
 * bottom of the window, where Start Test and the method warning are: it
 * covers neither, at 800×480, and the page gets its room back after. */
static void
test_toast_covers_nothing (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_autoptr(CmCardItem) card = cm_card_item_new_device ("/dev/cardmark-test", "Test card", 32000000000, "USB 3 reader", NULL);
  const char *claims[] = { "U3", NULL };
  GtkWidget *window = GTK_WIDGET (f->window);
  CmCardPage *page;
  GtkWidget *toast, *start, *warning;

  g_list_store_append (store, card);
  cm_window_set_devices (f->window, G_LIST_MODEL (store));
  g_assert_true (cm_window_open_path (f->window, "/dev/cardmark-test"));
  page = CM_CARD_PAGE (cm_window_get_page (f->window, "card"));
  g_assert_true (cm_card_page_set_method (page, CM_METHOD_RAW_READ));
  cm_card_page_set_claims (page, claims);

  cm_toast_show (GTK_WIDGET (page), LONG_MESSAGE);
  g_assert_true (cm_test_wait_for (toast_shows, window, 5));
  cm_test_settle (0.5);
  toast = cm_test_find_mapped (window, is_toast);
  assert_shown_whole (window, toast, LONG_MESSAGE);
  start = cm_test_find_mapped (window, is_start_button);
  warning = cm_test_find_mapped (window, is_method_warning);
  g_assert_nonnull (start);
  g_assert_nonnull (warning);
  assert_apart (window, toast, start);
  assert_apart (window, toast, warning);
  cm_test_save_screenshots (window, "toast");

  /* Once the toast times out, the page has the whole window again. */
  g_assert_true (cm_test_wait_for (room_given_back, window, 15));
}

/* A tiny benchmark of @card, the only card of @store, to its result. */
static void
run_to_result (Fixture    *f,
               GListStore *store,
               CmCardItem *card)
{
  g_list_store_append (store, card);
  cm_window_set_devices (f->window, G_LIST_MODEL (store));
  cm_bench_set_test_plan ("tiny");
  g_assert_true (cm_window_open_path (f->window, cm_card_item_get_device (card)));
  g_action_group_activate_action (G_ACTION_GROUP (f->app), "start-test", NULL);
  g_assert_true (cm_test_wait_page (f->window, "result", 60));
}

/* A card pulled once its result shows: Test Again goes grey and says why,
 * in words under it, not only by its colour. */
static void
test_card_gone_after_result (Fixture       *f,
                             gconstpointer  data)
{
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_autoptr(CmCardItem) card = cm_card_item_new_device ("/dev/cardmark-test", "Test card", 0, "USB 3 reader", f->folder);
  CmResultPage *page;
  const char *reason;

  run_to_result (f, store, card);
  page = CM_RESULT_PAGE (cm_window_get_page (f->window, "result"));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  g_assert_null (cm_result_page_get_again_reason (page));

  g_list_store_remove (store, 0);
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "result");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  reason = cm_result_page_get_again_reason (page);
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "no longer connected"));
  save_screenshot (f->window, "card-gone-after-result");
}

static gboolean
has_again_reason (gpointer data)
{
  return cm_result_page_get_again_reason (CM_RESULT_PAGE (cm_window_get_page (data, "result"))) != NULL;
}

static gboolean
has_no_again_reason (gpointer data)
{
  return !has_again_reason (data);
}

/* Test Again greys out while another job holds the card, and says which
 * (in the words core uses when a card's lock is held); once that job
 * ends, it is back. */
static void
test_again_busy (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_autoptr(CmCardItem) card = cm_card_item_new_device ("/dev/cardmark-test", "Test card", 0, "USB 3 reader", f->folder);
  g_autoptr(CmJob) other = NULL;
  g_autofree char *busy = NULL;
  const char *reason;

  run_to_result (f, store, card);
  g_assert_null (cm_result_page_get_again_reason (CM_RESULT_PAGE (cm_window_get_page (f->window, "result"))));

  /* Another benchmark of the card, started as the card list's Test N
   * Cards does, while the result stays on screen. */
  cm_bench_set_test_plan ("slow");
  other = cm_backend_new_job (&cm_job_kind_bench, G_LIST_MODEL (store), card, CM_METHOD_FILE);
  cm_job_list_start (cm_job_list_get_default (), other);
  g_assert_true (cm_test_wait_for (has_again_reason, f->window, 10));
  g_assert_cmpstr (cm_window_get_page_name (f->window), ==, "result");
  g_assert_false (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  reason = cm_result_page_get_again_reason (CM_RESULT_PAGE (cm_window_get_page (f->window, "result")));
  busy = cm_job_dup_busy_text (other);
  g_assert_cmpstr (reason, ==, busy);
  g_assert_nonnull (strstr (reason, "a benchmark"));
  cm_test_save_screenshots (GTK_WIDGET (f->window), "again-busy");

  cm_job_cancel (other);
  g_assert_true (cm_test_wait_for (has_no_again_reason, f->window, 10));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
}

/* The run page keeps one chart for the whole run: the same widget from
 * the sequential write to the last test, a line and a legend entry per
 * test, and a legend that wraps rather than runs off a narrow window. */
static void
test_run_page_charts (void)
{
  const char * const claims[] = { "U3", NULL };
  CmRunPage *page = g_object_ref_sink (cm_run_page_new ("Card", claims));
  CmChartView *chart = cm_run_page_get_chart (page);
  const char *tests[] = {
    CM_TEST_SEQ_WRITE, CM_TEST_SEQ_READ, CM_TEST_RAND_WRITE_4K,
    CM_TEST_RAND_READ_4K, CM_TEST_RAND_WRITE_4K_QD32, CM_TEST_RAND_READ_4K_QD32,
  };

  for (guint i = 0; i < G_N_ELEMENTS (tests); i++)
    {
      cm_run_page_set_test (page, i, G_N_ELEMENTS (tests), tests[i]);
      g_assert_true (cm_run_page_get_chart (page) == chart);
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (chart)));
      cm_run_page_add_sample (page, tests[i], 0.25, 40);
      cm_run_page_add_sample (page, tests[i], 0.5, 20);
      g_assert_cmpuint (cm_chart_view_get_n_series (chart), ==, i + 1);
    }
  g_assert_cmpuint (cm_chart_view_get_n_points (chart), ==, 2 * G_N_ELEMENTS (tests));

  /* Six labels do not fit one row of a 800 px window's chart, nor of a
   * narrower one; more rows, never fewer entries. */
  g_assert_cmpuint (cm_chart_view_get_legend_rows (chart, 760), >=, 2);
  g_assert_cmpuint (cm_chart_view_get_legend_rows (chart, 400), >,
                    cm_chart_view_get_legend_rows (chart, 760));

  g_object_unref (page);
}

int
main (int   argc,
      char *argv[])
{
  /* The screenshots in other languages come from here (LANGUAGE=ja);
   * CARDMARK_LOCALEDIR points at the build's catalogues. */
  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("CARDMARK_LOCALEDIR") ?: LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  cm_test_app_init (&argc, &argv);

  g_test_add_func ("/cardmark/app-window/run-page-charts", test_run_page_charts);
  g_test_add_func ("/cardmark/app-window/volume-label", test_volume_label);
  g_test_add ("/cardmark/app-window/list-follows-model", Fixture, NULL,
              fixture_set_up, test_list_follows_model, fixture_tear_down);
  g_test_add ("/cardmark/app-window/stable-click", Fixture, NULL,
              fixture_set_up, test_stable_click, fixture_tear_down);
  g_test_add ("/cardmark/app-window/card-page-methods", Fixture, NULL,
              fixture_set_up, test_card_page_methods, fixture_tear_down);
  g_test_add ("/cardmark/app-window/run-to-result", Fixture, NULL,
              fixture_set_up, test_run_to_result, fixture_tear_down);
  g_test_add ("/cardmark/app-window/cancel", Fixture, NULL,
              fixture_set_up, test_cancel, fixture_tear_down);
  g_test_add ("/cardmark/app-window/toast-covers-nothing", Fixture, NULL,
              fixture_set_up, test_toast_covers_nothing, fixture_tear_down);
  g_test_add ("/cardmark/app-window/card-gone-after-result", Fixture, NULL,
              fixture_set_up, test_card_gone_after_result, fixture_tear_down);
  g_test_add ("/cardmark/app-window/again-busy", Fixture, NULL,
              fixture_set_up, test_again_busy, fixture_tear_down);
  g_test_add ("/cardmark/app-window/card-pulled", Fixture, NULL,
              fixture_set_up, test_card_pulled, fixture_tear_down);

  return g_test_run ();
}
