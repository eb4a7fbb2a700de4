/* test-app-rows.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * After a restart (issue 33), a card's page shows each kind's last
 * result of that card from the history — capacity check, verify, wear
 * test — in the kind's own words, dated so it is not read as today's,
 * and a card of another size in the same reader is not taken for it. The documents are real ones a run
 * wrote (tests/data/batch); the page is a new one, as after a restart.
 * Runs under Xvfb.
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>

#include "cm-app-history.h"
#include "cm-card-info.h"
#include "cm-card-page.h"
#include "cm-history-index.h"
#include "cm-summary.h"
#include "cm-test-app.h"

#define DEVICE "/dev/sdx"

static const char *data_home;

/* A document of tests/data/batch, as if of the card in DEVICE; returns
 * the size the history's index gives it. */
static guint64
save_as_this_card (CmHistory  *history,
                   const char *name,
                   char      **answer)
{
  g_autofree char *path = g_build_filename (g_getenv ("CARDMARK_SHARED"), "batch", name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
  g_autoptr(CmHistoryEntry) entry = NULL;
  g_autoptr(GFile) saved = NULL;
  CmStatus status;

  g_assert_no_error (error);
  cm_result_set_target (result, DEVICE, cm_result_get_target_mode (result), DEVICE, NULL);
  /* A card without a CID serial, told by its reader and its size. */
  {
    g_autoptr(JsonNode) node = json_from_string ("{\"capacity_bytes\": 67108864}", NULL);
    g_autoptr(CmCardInfo) card = cm_card_info_new_from_json (node, &error);

    g_assert_no_error (error);
    cm_result_set_card (result, card);
  }
  saved = cm_history_save (history, result, &error);
  g_assert_no_error (error);
  entry = cm_history_entry_new_for_result (result);
  *answer = cm_summary_dup_answer (result, &status);
  return entry->size_bytes;
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
         g_str_has_prefix (row_subtitle (cm_card_page_get_wear_row (page)), "On ");
}

static void
test_rows_after_restart (void)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autofree char *capacity = NULL, *verify = NULL, *wear = NULL;
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmCardItem) other = NULL;
  g_autoptr(GString) labels = g_string_new (NULL);
  GtkWidget *window = gtk_window_new ();
  CmCardPage *page;
  guint64 size;

  size = save_as_this_card (history, "good-capacity.json", &capacity);
  /* The three were of one 64 MiB card. */
  g_assert_cmpuint (save_as_this_card (history, "fake-verify.json", &verify), ==, size);
  g_assert_cmpuint (save_as_this_card (history, "good-wear.json", &wear), ==, size);

  item = cm_card_item_new_device (DEVICE, "Card", size, NULL, NULL);
  page = cm_card_page_new (item);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  gtk_window_present (GTK_WINDOW (window));
  /* The three look-ups at once, each in its own thread, on an index not
   * yet made: one makes it while the others wait for it. */
  g_assert_true (cm_test_wait_for (rows_filled, page, 60));

  /* Each in its own kind's words, as its run said it. */
  g_test_message ("capacity: %s", cm_card_page_get_capacity_subtitle (page));
  g_test_message ("verify: %s", row_subtitle (cm_card_page_get_verify_row (page)));
  g_test_message ("wear: %s", row_subtitle (cm_card_page_get_wear_row (page)));
  g_assert_true (g_str_has_suffix (cm_card_page_get_capacity_subtitle (page), capacity));
  g_assert_true (g_str_has_suffix (row_subtitle (cm_card_page_get_verify_row (page)), verify));
  g_assert_true (g_str_has_suffix (row_subtitle (cm_card_page_get_wear_row (page)), wear));
  cm_test_save_screenshots (window, "card-rows-after-restart");
  cm_test_destroy_window (GTK_WINDOW (window));

  /* In the same reader, a card of another size is another card. */
  other = cm_card_item_new_device (DEVICE, "Card", size * 2, NULL, NULL);
  window = gtk_window_new ();
  page = cm_card_page_new (other);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_present (GTK_WINDOW (window));
  /* Its look-ups end (the history is read) without a result: waited for
   * by a page of the first card made after it, whose rows do fill. */
  {
    g_autoptr(CmCardPage) probe = g_object_ref_sink (cm_card_page_new (item));

    g_assert_true (cm_test_wait_for (rows_filled, probe, 60));
  }
  cm_test_settle (0.2);
  g_assert_false (g_str_has_prefix (cm_card_page_get_capacity_subtitle (page), "On "));
  g_assert_false (g_str_has_prefix (row_subtitle (cm_card_page_get_verify_row (page)), "On "));
  cm_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it keeps. */
  data_home = cm_test_data_home_make ();

  cm_test_app_init (&argc, &argv);

  g_test_add_func ("/cardmark/app-rows/after-restart", test_rows_after_restart);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
