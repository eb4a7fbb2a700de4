/* test-app-queue.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The card page's Command Queueing row: there for a card whose registers
 * claim A2 (a real A2 card's, from tests/data/reference), not for a card
 * that claims nothing nor for a folder; its Check… asks first, red, and
 * Cancel starts nothing. A finished check's result page shows its report
 * as facts.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "cm-card-info.h"
#include "cm-card-item.h"
#include "cm-card-page.h"
#include "cm-kind-row.h"
#include "cm-result-page.h"
#include "cm-test-app.h"
#include "cm-test-vectors.h"

#define TITLE "Command Queueing"

static GtkWidget *window;

static CmCardPage *
show_page (CmCardItem *item)
{
  CmCardPage *page = cm_card_page_new (item);

  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  cm_test_settle (0.1);
  return page;
}

static CmCardItem *
device_with_registers (const char *vector)
{
  g_autoptr(GPtrArray) rows = cm_test_vectors_load ();
  const CmTestRow *row = cm_test_vectors_find (rows, vector);
  g_autoptr(CmCardInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  CmCardItem *item = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, NULL, NULL);
  g_autoptr(CmCardInfo) read = NULL;
  g_autoptr(JsonNode) node = NULL;

  g_assert_nonnull (row);
  read = cm_card_info_new_from_registers (row->cid, row->csd, row->scr, row->ssr, &error);
  g_assert_no_error (error);
  /* The vector's card is labelled A2, but its SSR was not recorded: the
   * application class its SSR would give. */
  node = cm_card_info_to_json (read);
  json_object_set_string_member (json_node_get_object (node), "app_class", "A2");
  info = cm_card_info_new_from_json (node, &error);
  g_assert_no_error (error);
  cm_card_item_set_card_info (item, info);
  return item;
}

static void
test_a2_card (void)
{
  g_autoptr(CmCardItem) item = device_with_registers ("p2-lexar-mssd0-128gb");
  CmCardPage *page = show_page (item);
  AdwActionRow *row = cm_test_find_row_titled (GTK_WIDGET (page), TITLE);
  GtkWidget *button;
  GtkWidget *dialog;

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (row)));
  g_assert_nonnull (adw_action_row_get_subtitle (row));
  button = adw_action_row_get_activatable_widget (row);
  g_assert_true (gtk_widget_get_visible (button) && gtk_widget_is_sensitive (button));

  /* It asks first, red; Cancel starts nothing. */
  gtk_widget_activate (button);
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 10));
  dialog = cm_test_visible_dialog ();
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "check"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (cm_test_dialog_gone, NULL, 10));
  g_assert_null (cm_kind_row_get_job (CM_KIND_ROW (row)));
  g_assert_null (cm_card_page_get_job (page));
}

static void
test_no_claim (void)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, NULL, NULL);
  CmCardPage *page = show_page (item);

  g_assert_null (cm_test_find_row_titled (GTK_WIDGET (page), TITLE));
}

static void
test_folder (void)
{
  g_autofree char *folder = g_dir_make_tmp ("cardmark-app-queue-XXXXXX", NULL);
  g_autoptr(CmCardItem) item = cm_card_item_new_folder (folder);
  CmCardPage *page = show_page (item);

  g_assert_null (cm_test_find_row_titled (GTK_WIDGET (page), TITLE));
  gtk_window_set_child (GTK_WINDOW (window), NULL);
  g_rmdir (folder);
}

/* A finished check's page: its report's lines as facts, from its part. */
static void
test_result_part (void)
{
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(JsonNode) part = json_from_string ("{\"native\": false, \"queueing\": false, \"depth\": 32,"
                                               "\"writes\": 900, \"blocks_checked\": 500, \"bad_blocks\": 3,"
                                               "\"bad_offsets\": [4096, 8192, 12288]}", NULL);
  GtkWidget *page;
  AdwActionRow *row;

  cm_result_set_kind (result, "queue");
  cm_result_set_part (result, part);
  page = GTK_WIDGET (cm_result_page_new (result));
  gtk_window_set_child (GTK_WINDOW (window), page);
  cm_test_settle (0.1);
  row = cm_test_find_row_titled (page, "Read back");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "500 blocks, 3 wrong");
  row = cm_test_find_row_titled (page, "Wrong block");
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_action_row_get_subtitle (row), ==, "at byte 4096");
  gtk_window_set_child (GTK_WINDOW (window), NULL);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  cm_test_data_home_make ();
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();
  window = gtk_window_new ();
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/cardmark/app-queue/a2-card", test_a2_card);
  g_test_add_func ("/cardmark/app-queue/no-claim", test_no_claim);
  g_test_add_func ("/cardmark/app-queue/folder", test_folder);
  g_test_add_func ("/cardmark/app-queue/result-part", test_result_part);
  status = g_test_run ();
  cm_test_destroy_window (GTK_WINDOW (window));
  cm_test_data_home_remove ();
  return status;
}
