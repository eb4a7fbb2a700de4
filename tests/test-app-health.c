/* test-app-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Health row of a card's page: a card behind a USB reader is not
 * asked and the row says why; Ask on another card runs the health kind
 * (here through the replay transport, CARDMARK_TEST_GEN_CMD_DIR, on a
 * loop device) and the row says its answer, and after a restart that
 * answer, dated, and a read started elsewhere while it is open. A
 * folder has no Health row.
 * Runs under Xvfb.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>
#include <unistd.h>

#include "cm-app-history.h"
#include "cm-card-item.h"
#include "cm-card-page.h"
#include "cm-health.h"
#include "cm-health-row.h"
#include "cm-job-list.h"
#include "cm-test-app.h"

typedef struct
{
  GtkWidget *window;
  char      *folder;
} Fixture;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->window = gtk_window_new ();
  gtk_window_present (GTK_WINDOW (f->window));
  f->folder = g_dir_make_tmp ("cardmark-app-health-XXXXXX", NULL);
  g_assert_nonnull (f->folder);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  g_rmdir (f->folder);
  g_free (f->folder);
}

static CmCardPage *
show_page (Fixture    *f,
           CmCardItem *item)
{
  CmCardPage *page = cm_card_page_new (item);

  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (page));
  cm_test_settle (0.1);
  return page;
}

/* The row's action: the button a click on the row activates. */
static GtkWidget *
find_button (GtkWidget *row)
{
  return adw_action_row_get_activatable_widget (ADW_ACTION_ROW (row));
}

static void
test_usb_reader (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, "USB 3 reader", NULL);
  CmCardPage *page = show_page (f, item);
  GtkWidget *row = cm_card_page_get_health_row (page);

  g_assert_nonnull (row);
  g_assert_true (gtk_widget_get_mapped (row));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Health");
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "This reader cannot ask the card");
  /* Nothing to ask: no button in sight. */
  g_assert_false (gtk_widget_get_visible (find_button (row)));
}

static void
test_folder (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_folder (f->folder);
  CmCardPage *page = show_page (f, item);

  g_assert_null (cm_card_page_get_health_row (page));
}

static gboolean
answered (gpointer data)
{
  return cm_kind_row_get_job (CM_KIND_ROW (data)) == NULL;
}

static gboolean
nothing_looked_up (gpointer data)
{
  return cm_app_history_get_finding () == 0;
}

static void
put_le32 (guint8  *r,
          guint    offset,
          guint32  value)
{
  for (guint i = 0; i < 4; i++)
    r[offset + i] = (value >> (8 * i)) & 0xFF;
}

static void
test_ask (Fixture       *f,
          gconstpointer  data)
{
  g_autofree char *image = g_build_filename (f->folder, "card.img", NULL);
  g_autofree char *replay = g_build_filename (f->folder, "replay", NULL);
  g_autofree char *reply_file = g_build_filename (replay, "00000001.bin", NULL);
  g_autofree char *device = NULL;
  g_autofree char *command = NULL;
  g_autoptr(CmCardItem) item = NULL;
  g_autoptr(CmJob) job = NULL;
  guint8 reply[CM_HEALTH_REPLY_SIZE];
  CmCardPage *page;
  GtkWidget *row;
  int status = 0;

  if (getuid () != 0)
    {
      g_test_skip ("a loop device needs root");
      return;
    }
  /* A Longsys reply: 77 % of its life left. */
  memset (reply, 0x20, sizeof reply);
  reply[0] = 0x70;
  reply[1] = 0x58;
  put_le32 (reply, 44, 77);
  g_assert_cmpint (g_mkdir (replay, 0700), ==, 0);
  g_assert_true (g_file_set_contents (reply_file, (const char *) reply, sizeof reply, NULL));
  g_assert_true (g_file_set_contents (image, "", 0, NULL));
  g_assert_cmpint (truncate (image, 16 << 20), ==, 0);
  command = g_strdup_printf ("losetup -f --show %s", image);
  g_assert_true (g_spawn_command_line_sync (command, &device, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_strchomp (device);
  g_setenv ("CARDMARK_TEST_GEN_CMD_DIR", replay, TRUE);

  item = cm_card_item_new_device (device, "Card", 16 << 20, "Loop device", NULL);
  page = show_page (f, item);
  row = cm_card_page_get_health_row (page);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "Not asked yet");
  g_assert_true (gtk_widget_get_visible (find_button (row)));
  g_signal_emit_by_name (find_button (row), "clicked");
  g_assert_nonnull (cm_kind_row_get_job (CM_KIND_ROW (row)));
  g_assert_true (cm_test_wait_for (answered, row, 30));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "23 % of its life used");
  g_assert_true (gtk_widget_get_sensitive (find_button (row)));

  /* After a restart (a new page of the card), the row says that answer,
   * dated, from the history: not "Not asked yet". */
  page = show_page (f, item);
  row = cm_card_page_get_health_row (page);
  g_assert_true (cm_test_wait_for (nothing_looked_up, NULL, 30));
  g_test_message ("after a restart: %s", adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_true (g_str_has_prefix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), "On "));
  g_assert_true (g_str_has_suffix (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ": 23 % of its life used"));

  /* A read started elsewhere (another window, which hands it to the
   * card's page as the window does) shows on the row until it ends. */
  job = cm_kind_job_new (&cm_job_kind_health, item, CM_METHOD_RAW_READ);
  cm_job_list_start (cm_job_list_get_default (), job);
  cm_card_page_follow_job (page, job);
  g_assert_true (cm_kind_row_get_job (CM_KIND_ROW (row)) == job);
  g_assert_false (gtk_widget_get_sensitive (find_button (row)));
  g_assert_true (cm_test_wait_for (answered, row, 30));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "23 % of its life used");
  g_assert_true (gtk_widget_get_sensitive (find_button (row)));

  g_unsetenv ("CARDMARK_TEST_GEN_CMD_DIR");
  g_free (command);
  command = g_strdup_printf ("losetup -d %s", device);
  g_assert_true (g_spawn_command_line_sync (command, NULL, NULL, &status, NULL));
  g_unlink (reply_file);
  g_rmdir (replay);
  g_unlink (image);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* The health read keeps its document in the history: a data folder of
   * the test's own, made before anything asks GLib for the user's data
   * folder, which it keeps (GTK does, for its icons). */
  cm_test_data_home_make ();
  g_setenv ("GTK_A11Y", "test", TRUE);
  gtk_test_init (&argc, &argv, NULL);
  adw_init ();

  g_test_add ("/cardmark/app-health/usb-reader", Fixture, NULL, fixture_set_up, test_usb_reader, fixture_tear_down);
  g_test_add ("/cardmark/app-health/folder", Fixture, NULL, fixture_set_up, test_folder, fixture_tear_down);
  g_test_add ("/cardmark/app-health/ask", Fixture, NULL, fixture_set_up, test_ask, fixture_tear_down);
  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
