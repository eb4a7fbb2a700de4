/* test-app-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After a restart (issue 33), a card's page shows each kind's last
 * result of that card from the history — capacity check, verify, wear
 * test, health read and benchmark — in the kind's own words, dated so
 * it is not read as today's, and a card of another size in the same
 * reader is not taken for it. The card is one without registers (a
 * loop device, a card behind a USB reader): no CID serial, no size of
 * its own, told by its reader and the size of its block device, which
 * the documents record. The documents are real ones a run wrote
 * (tests/data/batch), and a health read's; the page is a new one, as
 * after a restart. Runs under Xvfb.
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "cm-app-history.h"
#include "cm-bench-row.h"
#include "cm-card-info.h"
#include "cm-card-list-page.h"
#include "cm-card-page.h"
#include "cm-health.h"
#include "cm-history-index.h"
#include "cm-outcome.h"
#include "cm-summary.h"
#include "cm-card-same.h"
#include "cm-test-app.h"

#define DEVICE "/dev/sdx"
/* How the card in DEVICE is seen: it never left its reader since its
 * documents were made (cm-card-same.h). */
#define SIGHTING "test-boot/7"
/* The card's block device, as a run records it. */
#define DEVICE_BYTES (G_GUINT64_CONSTANT (64) * 1024 * 1024)

static const char *data_home;

/* @result as if of the card in DEVICE, saved; returns the size the
 * history's index gives it. */
static guint64
save_result_as_this_card (CmHistory *history,
                          CmResult  *result)
{
  g_autoptr(CmHistoryEntry) entry = NULL;
  g_autoptr(GFile) saved = NULL;
  g_autoptr(GError) error = NULL;

  CmCardInfo *card = cm_result_get_card (result);

  /* A card without registers: no CID serial, no size of its own; the
   * size of its block device, as a run records it. */
  g_assert_true (card == NULL || (cm_card_info_get_serial (card) == NULL && cm_card_info_get_capacity_bytes (card) == 0));
  cm_result_set_target (result, DEVICE, cm_result_get_target_mode (result), DEVICE, NULL);
  cm_result_set_device_bytes (result, DEVICE_BYTES);
  cm_result_set_sighting (result, SIGHTING);
  saved = cm_history_save (history, result, &error);
  g_assert_no_error (error);
  entry = cm_history_entry_new_for_result (result);
  return entry->size_bytes;
}

/* A document of tests/data/batch, as if of the card in DEVICE. */
static guint64
save_as_this_card (CmHistory  *history,
                   const char *name,
                   char      **answer)
{
  g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SHARED"), "batch", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
  g_autoptr(CmOutcome) outcome = NULL;

  g_assert_no_error (error);
  outcome = cm_result_dup_outcome (result);
  *answer = g_strdup (outcome->answer != NULL ? outcome->answer : outcome->badge);
  return save_result_as_this_card (history, result);
}

/* A health read of the card, as the job keeps it: 12 % of its life
 * used, the day after the other documents. */
static guint64
save_health (CmHistory  *history,
             char      **answer,
             CmResult  **saved)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 12, 4, 9, 29, 0);
  g_autoptr(CmCardInfo) card = cm_card_info_new ();
  g_autoptr(CmOutcome) outcome = NULL;
  CmHealth health;
  guint64 size;

  cm_health_init_unknown (&health, CM_HEALTH_KNOWN);
  health.layout = CM_HEALTH_LAYOUT_SANDISK;
  health.life_used_percent = 12;
  cm_result_set_kind (result, "health");
  cm_result_set_profile (result, "health");
  cm_result_set_started (result, when);
  cm_result_set_target (result, DEVICE, "raw-read", DEVICE, NULL);
  /* Its answer is the card's, kept on a card with no registers. */
  cm_card_info_set_health (card, &health);
  cm_result_set_card (result, card);
  size = save_result_as_this_card (history, result);
  outcome = cm_result_dup_outcome (result);
  *answer = g_strdup (outcome->answer != NULL ? outcome->answer : outcome->badge);
  if (saved != NULL)
    *saved = g_object_ref (result);
  return size;
}

static const char *
row_subtitle (GtkWidget *row)
{
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
}

static gboolean
rows_filled (gpointer data)
{
  CmCardPage *page = data;

  return g_str_has_prefix (cm_card_page_get_capacity_subtitle (page), "On ") &&
         g_str_has_prefix (row_subtitle (cm_card_page_get_verify_row (page)), "On ") &&
         g_str_has_prefix (row_subtitle (cm_card_page_get_wear_row (page)), "On ") &&
         g_str_has_prefix (row_subtitle (cm_card_page_get_health_row (page)), "On ") &&
         g_str_has_prefix (row_subtitle (cm_card_page_get_bench_row (page)), "On ");
}

static gboolean
nothing_looked_up (gpointer data)
{
  return cm_app_history_get_finding () == 0;
}

static gboolean
page_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

/* Scrolls the page that holds @widget until @widget is at its foot,
 * for a screenshot. */
static void
scroll_to_bottom_of (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled));
  double x, y;

  g_assert_true (gtk_widget_translate_coordinates (widget, gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
                                                   0, gtk_widget_get_height (widget), &x, &y));
  /* @y is where it shows now, in the part scrolled to. */
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + y + 12 - gtk_adjustment_get_page_size (adjustment));
}

/* The first button in @widget, depth first. */
static GtkWidget *
find_button (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *button = find_button (child);

      if (button != NULL && gtk_widget_get_visible (button))
        return button;
    }
  return NULL;
}

static void
show_result_cb (CmCardPage *page,
                CmResult   *result,
                CmResult  **shown)
{
  g_set_object (shown, result);
}

/* "On 4 Dec 2026, 09:29: ANSWER…": @row's answer of a result from
 * before, its own kind's. */
static void
assert_earlier (const char *kind,
                const char *subtitle,
                const char *answer)
{
  const char *said;

  g_test_message ("%s: %s", kind, subtitle);
  g_assert_true (g_str_has_prefix (subtitle, "On "));
  said = strstr (subtitle, ": ");
  g_assert_nonnull (said);
  g_assert_true (g_str_has_prefix (said + 2, answer));
}

static void
test_rows_after_restart (void)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autofree char *capacity = NULL, *verify = NULL, *wear = NULL, *health = NULL, *bench = NULL;
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmCardItem) other = NULL;
  g_autoptr(CmResult) shown = NULL;
  g_autoptr(GPtrArray) figures = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *bench_row;
  CmCardPage *page;
  guint64 size;

  size = save_as_this_card (history, "good-capacity.json", &capacity);
  /* The five were of one card, as big as its block device. */
  g_assert_cmpuint (size, ==, DEVICE_BYTES);
  g_assert_cmpuint (save_as_this_card (history, "fake-verify.json", &verify), ==, size);
  g_assert_cmpuint (save_as_this_card (history, "good-wear.json", &wear), ==, size);
  g_assert_cmpuint (save_as_this_card (history, "good-bench.json", &bench), ==, size);
  g_assert_cmpuint (save_health (history, &health, NULL), ==, size);

  item = cm_card_item_new_device (DEVICE, "Card", size, NULL, NULL);
  page = cm_card_page_new (item);
  g_signal_connect (page, "show-result", G_CALLBACK (show_result_cb), &shown);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  gtk_window_present (GTK_WINDOW (window));
  /* The look-ups at once, each in its own thread, on an index not yet
   * made: one makes it while the others wait for it. */
  g_assert_true (cm_test_wait_for (rows_filled, page, 60));

  /* Each in its own kind's words, as its run said it. */
  assert_earlier ("capacity", cm_card_page_get_capacity_subtitle (page), capacity);
  assert_earlier ("verify", row_subtitle (cm_card_page_get_verify_row (page)), verify);
  assert_earlier ("wear", row_subtitle (cm_card_page_get_wear_row (page)), wear);
  assert_earlier ("health", row_subtitle (cm_card_page_get_health_row (page)), health);
  g_assert_nonnull (strstr (health, "12"));
  bench_row = cm_card_page_get_bench_row (page);
  assert_earlier ("bench", row_subtitle (bench_row), bench);
  g_assert_true (gtk_widget_get_visible (bench_row));
  /* …and the benchmark's first speed, as its page says it. */
  figures = cm_summary_dup_headline (cm_bench_row_get_result (CM_BENCH_ROW (bench_row)));
  for (guint i = 0; i < figures->len; i++)
    {
      CmHeadlineFigure *figure = g_ptr_array_index (figures, i);

      if (figure->measured && !figure->latency)
        {
          g_assert_nonnull (strstr (row_subtitle (bench_row), figure->value));
          break;
        }
    }
  /* Show opens that benchmark. */
  g_signal_emit_by_name (find_button (bench_row), "clicked");
  g_assert_nonnull (shown);
  g_assert_cmpstr (cm_result_get_kind (shown), ==, "bench");
  cm_test_save_screenshots (window, "card-rows-after-restart");
  /* The last benchmark, further down, in the Test group. */
  /* In the colours the session asks for (ADW_DEBUG_COLOR_SCHEME): a
   * change of them lays the page out again, from its top. */
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") != NULL)
    for (guint i = 0; i < 2; i++)
      {
        int width = i == 0 ? 800 : 1280, height = i == 0 ? 480 : 800;
        gboolean dark = adw_style_manager_get_dark (adw_style_manager_get_default ());
        g_autofree char *file = g_strdup_printf ("app-card-rows-bench-%dx%d%s.png", width, height, dark ? "-dark" : "");
        g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SCREENSHOT_DIR"), file, NULL);

        gtk_window_set_default_size (GTK_WINDOW (window), width, height);
        cm_test_settle (0.5);
        scroll_to_bottom_of (bench_row);
        cm_test_settle (0.2);
        cm_test_save_png (window, path);
      }
  cm_test_destroy_window (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (nothing_looked_up, NULL, 60));

  /* In the same reader, a card of another size is another card: every
   * look-up of its page ends without a result. */
  other = cm_card_item_new_device (DEVICE, "Card", size * 2, NULL, NULL);
  window = gtk_window_new ();
  page = cm_card_page_new (other);
  /* Its rows look up as it is made; the last benchmark as it shows. */
  g_assert_cmpuint (cm_app_history_get_finding (), >, 0);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (page_mapped, page, 20));
  g_assert_true (cm_test_wait_for (nothing_looked_up, NULL, 60));
  g_assert_false (g_str_has_prefix (cm_card_page_get_capacity_subtitle (page), "On "));
  g_assert_false (g_str_has_prefix (row_subtitle (cm_card_page_get_verify_row (page)), "On "));
  g_assert_false (g_str_has_prefix (row_subtitle (cm_card_page_get_wear_row (page)), "On "));
  g_assert_false (g_str_has_prefix (row_subtitle (cm_card_page_get_health_row (page)), "On "));
  g_assert_null (cm_bench_row_get_result (CM_BENCH_ROW (cm_card_page_get_bench_row (page))));
  g_assert_false (gtk_widget_get_visible (cm_card_page_get_bench_row (page)));
  cm_test_destroy_window (GTK_WINDOW (window));
  g_clear_object (&other);

  /* A card of the same size put in the reader since (the kernel's disk
   * sequence number moved on) is another card too. */
  cm_card_set_sighting_for_testing (DEVICE, "test-boot/8");
  other = cm_card_item_new_device (DEVICE, "Card", size, NULL, NULL);
  window = gtk_window_new ();
  page = cm_card_page_new (other);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (page_mapped, page, 20));
  g_assert_true (cm_test_wait_for (nothing_looked_up, NULL, 60));
  g_assert_false (g_str_has_prefix (cm_card_page_get_capacity_subtitle (page), "On "));
  g_assert_false (g_str_has_prefix (row_subtitle (cm_card_page_get_verify_row (page)), "On "));
  g_assert_null (cm_bench_row_get_result (CM_BENCH_ROW (cm_card_page_get_bench_row (page))));
  cm_test_destroy_window (GTK_WINDOW (window));
  cm_card_set_sighting_for_testing (DEVICE, SIGHTING);
}

static gboolean
badge_shown (gpointer data)
{
  GtkWidget *badge = g_object_get_data (data, "cm-outcome-label");

  return badge != NULL && gtk_widget_get_visible (badge);
}

/* The row of @page that shows the last result of @kind. */
static const char *
page_row_says (CmCardPage *page,
               const char *kind)
{
  if (g_str_equal (kind, "capacity"))
    return cm_card_page_get_capacity_subtitle (page);
  if (g_str_equal (kind, "verify"))
    return row_subtitle (cm_card_page_get_verify_row (page));
  if (g_str_equal (kind, "wear"))
    return row_subtitle (cm_card_page_get_wear_row (page));
  if (g_str_equal (kind, "health"))
    return row_subtitle (cm_card_page_get_health_row (page));
  return row_subtitle (cm_card_page_get_bench_row (page));
}

/* After a restart the card list shows the card's last result, the same
 * one its page shows under its kind: its badge at the row's end, and
 * its answer, dated, under the card's name. Which document is the
 * newest is read from the documents' own start times. */
static void
test_list_after_restart (void)
{
  const char *names[] = { "good-capacity.json", "fake-verify.json", "good-wear.json", "good-bench.json" };
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autoptr(GPtrArray) saved = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autofree char *health = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  CmCardListPage *list = g_object_new (CM_TYPE_CARD_LIST_PAGE, NULL);
  CmResult *newest = NULL;
  CmResult *result = NULL;
  CmCardPage *page;
  AdwActionRow *row;
  GtkWidget *label;
  const char *page_says;
  const char *list_says;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SHARED"), "batch", names[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;

      result = cm_result_new_from_file (file, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (save_result_as_this_card (history, result), ==, DEVICE_BYTES);
      g_ptr_array_add (saved, result);
    }
  g_assert_cmpuint (save_health (history, &health, &result), ==, DEVICE_BYTES);
  g_ptr_array_add (saved, result);
  for (guint i = 0; i < saved->len; i++)
    {
      result = g_ptr_array_index (saved, i);
      if (newest == NULL || g_date_time_compare (cm_result_get_started (result), cm_result_get_started (newest)) > 0)
        newest = result;
    }
  outcome = cm_result_dup_outcome (newest);

  /* The app starts again: a new list, a new page, the same card. */
  item = cm_card_item_new_device (DEVICE, "Card", DEVICE_BYTES, NULL, NULL);
  g_list_store_append (store, item);
  cm_card_list_page_set_model (list, G_LIST_MODEL (store));
  page = cm_card_page_new (item);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (list));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));

  row = cm_card_list_page_get_row_for_device (list, DEVICE);
  g_assert_nonnull (row);
  g_assert_true (cm_test_wait_for (badge_shown, row, 60));
  g_assert_true (cm_test_wait_for (rows_filled, page, 60));
  label = g_object_get_data (G_OBJECT (row), "cm-outcome-label");
  page_says = page_row_says (page, cm_result_get_kind (newest));
  list_says = adw_action_row_get_subtitle (row);
  g_test_message ("newest: %s; list: %s [%s]; page: %s", cm_result_get_kind (newest), list_says,
                  gtk_label_get_label (GTK_LABEL (label)), page_says);
  /* The newest document's badge, and the words its page shows for it. */
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, outcome->badge);
  assert_earlier (cm_result_get_kind (newest), page_says, outcome->answer != NULL ? outcome->answer : outcome->badge);
  g_assert_nonnull (strstr (list_says, page_says));
  cm_test_destroy_window (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (nothing_looked_up, NULL, 60));
}

/* Test Again on a saved capacity check, verify or wear test of the card
 * starts it again through its row on the card's page: each writes over
 * the card, so each asks first, in a dialog that offers to go on. A
 * saved format is not started again from a result. */
static void
test_again_asks_first (void)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autoptr(CmCardItem) item = cm_card_item_new_device (DEVICE, "Card", DEVICE_BYTES, NULL, NULL);
  const char *kinds[] = { "capacity", "verify", "wear" };
  GtkWidget *window = gtk_window_new ();
  CmCardPage *page = cm_card_page_new (item);

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_card_page_can_test_again ("health"));
  g_assert_false (cm_card_page_can_test_again ("format"));
  g_assert_false (cm_card_page_can_test_again ("bench"));
  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(CmResult) saved = cm_history_find_last (history, kinds[i], NULL, DEVICE, DEVICE_BYTES, &error);
      GtkWidget *dialog;

      g_assert_no_error (error);
      g_assert_nonnull (saved);
      g_assert_true (cm_card_page_can_test_again (kinds[i]));
      g_assert_true (cm_card_page_test_again (page, saved));
      g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 10));
      dialog = cm_test_visible_dialog ();
      g_test_message ("%s: %s", kinds[i], adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)));
      g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "cancel"));
      /* Nothing starts before the answer. */
      g_assert_null (cm_card_page_get_job (page));
      adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
      gtk_window_close (GTK_WINDOW (dialog));
      g_assert_true (cm_test_wait_for (cm_test_dialog_gone, NULL, 10));
      g_assert_null (cm_card_page_get_job (page));
    }
  cm_test_destroy_window (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (nothing_looked_up, NULL, 60));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it keeps. */
  data_home = cm_test_data_home_make ();

  cm_test_app_init (&argc, &argv);
  cm_card_set_sighting_for_testing (DEVICE, SIGHTING);

  g_test_add_func ("/cardmark/app-rows/after-restart", test_rows_after_restart);
  g_test_add_func ("/cardmark/app-rows/again-asks-first", test_again_asks_first);
  g_test_add_func ("/cardmark/app-rows/list-after-restart", test_list_after_restart);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
