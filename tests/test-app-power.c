/* test-app-power.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Power-Cut Test… on a card's page (cm-power-row.c), on a simulated
 * card with a volatile write cache whose power the test cuts through
 * its power file. The red confirmation is built from the kind's options
 * (by hand first, the number of cuts at its default within its bounds,
 * the commands asked for only when they are the way) and its Cancel
 * leaves the card's bytes as they were. By hand, with 2 cuts on a small
 * area, the test plays the person: when the row says to pull the card
 * out it cuts the card's power, when it says to put it back it switches
 * it on, and the test ends with the card's answer, "Kept all it
 * confirmed". A folder has no such row. Runs under Xvfb, as root.
 */

#include "config.h"

#include <adwaita.h>
#include <string.h>
#include <unistd.h>

#include "cm-card-item.h"
#include "cm-card-page.h"
#include "cm-outcome.h"
#include "cm-power-options.h"
#include "cm-power-report.h"
#include "cm-power-row.h"
#include "cm-test-app.h"
#include "cm-test-simcard.h"

#define CARD_SIZE (16 << 20)

typedef struct
{
  GtkWidget  *window;
  GHashTable *card;       /* a simulated card's SIMCARD_* values */
  GPid        guard_pid;  /* and the guard that takes it down */
  int         guard_fd;
} Fixture;

/* Why the tests on a simulated card skip, when they do. */
static char *services_skip_reason;

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  f->window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (f->window), 800, 600);
  gtk_window_present (GTK_WINDOW (f->window));
  f->card = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static void
run_command (const char *command)
{
  const char *argv[] = { "/bin/sh", "-c", command, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  if (f->guard_pid != 0)
    cm_test_simcard_down (g_hash_table_lookup (f->card, "SIMCARD_DIR"), &f->guard_pid, f->guard_fd);
  g_hash_table_unref (f->card);
  cm_test_data_home_empty ();
}

/* A simulated card of CARD_SIZE with a write cache a cut drops: FALSE,
 * after g_test_skip(), where none can be attached. */
static gboolean
simcard_up (Fixture *f)
{
  g_autofree char *size = g_strdup_printf ("%dMiB", CARD_SIZE >> 20);
  const char *argv[] = { "good-a1", "--size", size, "--", "--volatile-cache", NULL };

  if (services_skip_reason != NULL)
    {
      g_test_skip (services_skip_reason);
      return FALSE;
    }
  if (!cm_test_simcard_up (argv, f->card, &f->guard_pid, &f->guard_fd))
    return FALSE;
  run_command ("udevadm settle");
  return TRUE;
}

static const char *
device (Fixture *f)
{
  return g_hash_table_lookup (f->card, "SIMCARD_DEV");
}

/* The card's power, as its reader's would be switched. */
static void
switch_power (Fixture    *f,
              const char *state)
{
  g_autofree char *command = g_strdup_printf ("echo %s > %s/mnt/power", state,
                                              (const char *) g_hash_table_lookup (f->card, "SIMCARD_DIR"));

  run_command (command);
}

static char *
card_sum (Fixture *f)
{
  g_autoptr(GFile) file = g_file_new_for_path (device (f));
  g_autoptr(GError) error = NULL;
  g_autofree char *bytes = NULL;
  gsize length = 0;

  g_assert_true (g_file_load_contents (file, NULL, &bytes, &length, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (length, ==, CARD_SIZE);
  return g_compute_checksum_for_data (G_CHECKSUM_SHA256, (const guint8 *) bytes, length);
}

static GtkWidget *
show_power_row (Fixture *f)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_device (device (f), "Test Card", CARD_SIZE, NULL, NULL);
  CmCardPage *page = cm_card_page_new (item);
  GtkWidget *row;

  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (page));
  cm_test_settle (0.1);
  row = cm_card_page_get_power_row (page);
  g_assert_nonnull (row);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, "Power-Cut Test…");
  return row;
}

static GtkWidget *
open_dialog (GtkWidget *row)
{
  cm_kind_row_activate (CM_KIND_ROW (row));
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 10));
  return cm_test_visible_dialog ();
}

static GParamSpec *
option_spec (const char *name)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (CM_TYPE_POWER_OPTIONS);

  return g_object_class_find_property (G_OBJECT_CLASS (klass), name);
}

static gboolean
row_idle (gpointer row)
{
  return !cm_kind_row_get_busy (CM_KIND_ROW (row));
}

static void
test_folder (Fixture       *f,
             gconstpointer  data)
{
  g_autoptr(CmCardItem) item = cm_card_item_new_folder (g_get_tmp_dir ());
  CmCardPage *page = cm_card_page_new (item);

  gtk_window_set_child (GTK_WINDOW (f->window), GTK_WIDGET (page));
  g_assert_null (cm_card_page_get_power_row (page));
}

/* The form: by hand first, the cuts at the option's default within its
 * bounds; commands asked for, and needed, only when they are the way.
 * Cancel leaves the card as it was. */
static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  GParamSpecUInt *cuts = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  GtkAdjustment *adjustment;
  GtkWidget *row, *dialog, *entry;
  AdwComboRow *method;

  if (!simcard_up (f))
    return;
  before = card_sum (f);
  row = show_power_row (f);
  g_assert_true (gtk_widget_get_sensitive (cm_kind_row_get_button (CM_KIND_ROW (row))));
  dialog = open_dialog (row);
  g_assert_cmpint (adw_message_dialog_get_response_appearance (ADW_MESSAGE_DIALOG (dialog), "cut"), ==,
                   ADW_RESPONSE_DESTRUCTIVE);
  g_assert_cmpstr (adw_message_dialog_get_default_response (ADW_MESSAGE_DIALOG (dialog)), ==, "cancel");
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), device (f)));

  method = ADW_COMBO_ROW (cm_test_find_type (dialog, ADW_TYPE_COMBO_ROW));
  g_assert_cmpuint (adw_combo_row_get_selected (method), ==, 0);
  entry = cm_test_find_type (dialog, ADW_TYPE_ENTRY_ROW);
  g_assert_false (gtk_widget_get_visible (entry));
  g_assert_true (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "cut"));
  cuts = G_PARAM_SPEC_UINT (option_spec ("cuts"));
  adjustment = gtk_spin_button_get_adjustment (GTK_SPIN_BUTTON (cm_test_find_type (dialog, GTK_TYPE_SPIN_BUTTON)));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, cuts->default_value);
  g_assert_cmpfloat (gtk_adjustment_get_lower (adjustment), ==, cuts->minimum);
  g_assert_cmpfloat (gtk_adjustment_get_upper (adjustment), ==, cuts->maximum);
  cm_test_save_screenshots (dialog, "power-confirm");

  /* Two commands: the answer waits for both. */
  adw_combo_row_set_selected (method, 1);
  g_assert_true (gtk_widget_get_visible (entry));
  g_assert_false (adw_message_dialog_get_response_enabled (ADW_MESSAGE_DIALOG (dialog), "cut"));
  cm_test_save_screenshots (dialog, "power-confirm-commands");

  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (cm_test_dialog_gone, NULL, 10));
  g_assert_false (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  after = card_sum (f);
  g_assert_cmpstr (before, ==, after);
}

typedef struct
{
  GtkWidget  *row;
  const char *words;
} Asking;

/* The row says @words, or its job ended. */
static gboolean
row_asks (gpointer data)
{
  Asking *asking = data;

  return !cm_kind_row_get_busy (CM_KIND_ROW (asking->row)) ||
         g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (asking->row)), asking->words) == 0;
}

static void
shots_of_row (Fixture    *f,
              GtkWidget  *row,
              const char *name)
{
  const int sizes[][2] = { { 800, 480 }, { 1280, 800 } };

  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      gtk_window_set_default_size (GTK_WINDOW (f->window), sizes[i][0], sizes[i][1]);
      g_assert_true (cm_test_wait_drawn (f->window, 10));
      cm_test_scroll_to (row);
      cm_test_save_screenshot (f->window, name, sizes[i][0], sizes[i][1], FALSE);
      cm_test_save_screenshot (f->window, name, sizes[i][0], sizes[i][1], TRUE);
    }
}

static void
result_cb (GtkWidget  *row,
           CmResult   *result,
           CmResult  **out)
{
  g_set_object (out, result);
}

/* By hand, 2 cuts: the test is the person who pulls the card out and
 * puts it back when the row says so. */
static void
test_by_hand (Fixture       *f,
              gconstpointer  data)
{
  const guint n_cuts = 2;
  Asking pull = { NULL, "Pull the card or its reader out now" };
  Asking put_back = { NULL, "Put the card back in" };
  g_autoptr(CmResult) result = NULL;
  g_autoptr(CmOutcome) outcome = NULL;
  g_autoptr(CmPowerReport) report = NULL;
  GtkWidget *row, *dialog, *stop;
  guint pulls = 0;

  if (!simcard_up (f))
    return;
  row = show_power_row (f);
  g_signal_connect (row, "show-result", G_CALLBACK (result_cb), &result);
  pull.row = put_back.row = row;
  cm_power_row_set_test_area (1 << 20);
  dialog = open_dialog (row);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (cm_test_find_type (dialog, GTK_TYPE_SPIN_BUTTON)), n_cuts);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cut");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));

  while (TRUE)
    {
      g_assert_true (cm_test_wait_for (row_asks, &pull, 120));
      if (!cm_kind_row_get_busy (CM_KIND_ROW (row)))
        break;
      g_test_message ("asked to pull the card (%u)", pulls + 1);
      /* Stop is there while it waits on the person. */
      stop = cm_kind_row_get_button (CM_KIND_ROW (row));
      g_assert_true (gtk_widget_get_visible (stop) && gtk_widget_get_sensitive (stop));
      if (pulls == 1)
        shots_of_row (f, row, "power-pull");
      switch_power (f, "off");
      pulls++;
      g_assert_true (cm_test_wait_for (row_asks, &put_back, 120));
      g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
      switch_power (f, "on");
    }
  cm_power_row_set_test_area (0);
  cm_test_settle (0.2);

  g_assert_nonnull (result);
  outcome = cm_result_dup_outcome (result);
  g_test_message ("%s: %s", outcome->badge, outcome->answer);
  g_assert_cmpstr (outcome->badge, ==, "Kept all it confirmed");
  g_assert_cmpint (outcome->status, ==, CM_OUTCOME_PASS);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, outcome->answer);
  report = cm_power_report_from_json (cm_result_get_part (result));
  g_assert_nonnull (report);
  g_assert_cmpuint (report->cuts->len, ==, n_cuts);
  g_assert_cmpstr (report->method, ==, "by-hand");
  /* Once to check that pulling the card cuts it, then once a cut. */
  g_assert_cmpuint (pulls, ==, n_cuts + 1);
  g_assert_true (row_idle (row));
  shots_of_row (f, row, "power-done");
}

/* Stop while the row asks to pull the card, before anything is
 * written: the card is as it was, and the row says it stopped. */
static void
test_stop (Fixture       *f,
           gconstpointer  data)
{
  Asking pull = { NULL, "Pull the card or its reader out now" };
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  GtkWidget *row, *dialog;

  if (!simcard_up (f))
    return;
  before = card_sum (f);
  row = show_power_row (f);
  pull.row = row;
  cm_power_row_set_test_area (1 << 20);
  dialog = open_dialog (row);
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (dialog), "cut");
  gtk_window_close (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (row_asks, &pull, 60));
  g_test_message ("%s", adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_true (cm_kind_row_get_busy (CM_KIND_ROW (row)));
  /* Stop: the row's button, as a click. */
  cm_kind_row_activate (CM_KIND_ROW (row));
  cm_power_row_set_test_area (0);
  g_assert_true (cm_test_wait_for (row_idle, row, 10));
  g_test_message ("%s", adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, "The power-cut test was stopped before it wrote anything to the card.");
  g_assert_null (cm_kind_row_get_result (CM_KIND_ROW (row)));
  after = card_sum (f);
  g_assert_cmpstr (before, ==, after);
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* The test's state and documents: a data folder of its own, before
   * GTK's start reads where it is. */
  cm_test_data_home_make ();
  g_setenv ("GTK_A11Y", "test", TRUE);
  cm_test_app_init (&argc, &argv);

  g_test_add ("/cardmark/app-power/folder", Fixture, NULL, fixture_set_up, test_folder, fixture_tear_down);
  g_test_add ("/cardmark/app-power/cancel", Fixture, NULL, fixture_set_up, test_cancel, fixture_tear_down);
  g_test_add ("/cardmark/app-power/stop", Fixture, NULL, fixture_set_up, test_stop, fixture_tear_down);
  g_test_add ("/cardmark/app-power/by-hand", Fixture, NULL, fixture_set_up, test_by_hand, fixture_tear_down);
  services_skip_reason = cm_test_services_up ();

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
