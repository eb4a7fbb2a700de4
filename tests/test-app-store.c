/* test-app-store.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Preferences, the lab's store (issue 35): an address with a password in
 * it is refused and kept nowhere; the password given in its own row goes
 * to libpq's password file (0600) and is in no setting and no row after;
 * with a store that does not answer, a saved result waits, the window
 * keeps answering meanwhile (the send is in another thread), and the
 * status says how many wait and why; with nothing listening it says it
 * could not reach the store, never that every result is in it (issue
 * 49), and the password row's show/hide button has a name. A result page names the card's
 * earlier result of the same CID serial, and warns of a cloned CID when
 * one of them had another size; so does a card's page, before any
 * check of it. Runs under Xvfb.
 *
 * With CARDMARK_SCREENSHOT_DIR set, the window is saved at 800×480 and
 * 1280×800, light and dark.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cm-app-history.h"
#include "cm-card-info.h"
#include "cm-card-page.h"
#include "cm-history-index.h"
#include "cm-result-page.h"
#include "cm-preferences.h"
#include "cm-store.h"
#include "cm-summary.h"
#include "cm-test-app.h"

static const char *data_home;

static const char *
status_text (CmPreferences *preferences)
{
  GtkWidget *row = cm_test_find_by_css_class (GTK_WIDGET (preferences), "cm-store-status");

  g_assert_nonnull (row);
  return adw_action_row_get_subtitle (ADW_ACTION_ROW (row));
}

typedef struct
{
  CmPreferences *preferences;
  const char    *words;
} StatusSays;

static gboolean
status_says (gpointer data)
{
  StatusSays *says = data;
  const char *text = status_text (says->preferences);

  return text != NULL && strstr (text, says->words) != NULL;
}

/* The password row's show/hide button: the button with its eye icon. */
static GtkWidget *
find_peek_button (GtkWidget *widget)
{
  const char *icon = GTK_IS_BUTTON (widget) ? gtk_button_get_icon_name (GTK_BUTTON (widget)) : NULL;

  if (icon != NULL && g_str_has_prefix (icon, "view-"))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_peek_button (child);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* Every key's value, to show the password is in none. */
static char *
all_settings (GSettings *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;
  GString *out = g_string_new (NULL);

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      g_string_append_printf (out, "%s=%s\n", keys[i], text);
    }
  return g_string_free (out, FALSE);
}

static CmResult *
some_result (void)
{
  CmResult *result = cm_result_new ();

  cm_result_set_target (result, "/dev/loop9", "raw-read", "/dev/loop9", NULL);
  cm_result_set_name (result, "Test card");
  cm_result_set_profile (result, "quick");
  cm_result_take_test (result, cm_test_result_new ("seq-read"));
  return result;
}

static void
test_store (void)
{
  g_autoptr(GSettings) settings = g_settings_new (APP_ID);
  const char *pgpass = g_getenv ("PGPASSFILE");
  g_autofree char *contents = NULL;
  g_autofree char *values = NULL;
  g_autoptr(CmHistory) history = NULL;
  g_autoptr(CmResult) result = NULL;
  g_autoptr(GFile) saved = NULL;
  g_autoptr(GError) error = NULL;
  CmPreferences *preferences;
  GtkWidget *url_row, *password_row;
  StatusSays says;
  GStatBuf st;

  if (!cm_store_is_supported ())
    {
      g_test_skip ("built without libpq");
      return;
    }
  preferences = cm_preferences_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (preferences), 800, 480);
  gtk_window_present (GTK_WINDOW (preferences));
  g_assert_true (cm_test_wait_drawn (GTK_WIDGET (preferences), 30));
  says = (StatusSays) { preferences, "No store" };
  g_assert_true (status_says (&says));

  url_row = cm_test_find_by_css_class (GTK_WIDGET (preferences), "cm-store-url");
  password_row = cm_test_find_by_css_class (GTK_WIDGET (preferences), "cm-store-password");
  g_assert_nonnull (url_row);
  g_assert_nonnull (password_row);

  /* An address with a password: refused, kept nowhere. */
  gtk_editable_set_text (GTK_EDITABLE (url_row), "postgresql://lab:s3cret@127.0.0.1:1/cards");
  g_signal_emit_by_name (url_row, "apply");
  says.words = "Leave the password out";
  g_assert_true (status_says (&says));
  values = all_settings (settings);
  g_assert_null (strstr (values, "s3cret"));
  g_clear_pointer (&values, g_free);

  /* Addresses libpq cannot read: refused, and the status echoes none of
   * them, since which part is a password cannot be known (issue 47). */
  for (guint i = 0; i < 2; i++)
    {
      const char *urls[] = { "postgresql://lab:s3cret@[::1/cards", "postgresql://lab:S3cr3t%zz@127.0.0.1:1/cards" };

      gtk_editable_set_text (GTK_EDITABLE (url_row), urls[i]);
      g_signal_emit_by_name (url_row, "apply");
      says.words = "not a URL CardMark can use";
      g_assert_true (status_says (&says));
      g_test_message ("status: %s", status_text (preferences));
      g_assert_null (strstr (status_text (preferences), "s3cret"));
      g_assert_null (strstr (status_text (preferences), "S3cr3t"));
      g_assert_null (strstr (status_text (preferences), "lab"));
    }
  values = all_settings (settings);
  g_assert_null (strstr (values, "S3cr3t"));
  g_clear_pointer (&values, g_free);

  /* Port 1 of this computer: refused at once, as a store that is down. */
  gtk_editable_set_text (GTK_EDITABLE (url_row), "postgresql://lab@127.0.0.1:1/cards?connect_timeout=2");
  g_signal_emit_by_name (url_row, "apply");
  g_assert_cmpstr (g_settings_get_string (settings, "store-url"), ==,
                   "postgresql://lab@127.0.0.1:1/cards?connect_timeout=2");
  /* Nothing waits, but nothing listens there either: the status says so
   * once it has tried, and never that every result is in it. */
  says.words = "cannot be reached";
  g_assert_true (cm_test_wait_for (status_says, &says, 60));
  g_test_message ("status: %s", status_text (preferences));
  g_assert_null (strstr (status_text (preferences), "Every result is in"));

  /* The password row's show/hide button is named for a screen reader,
   * by what it does now. */
  {
    GtkWidget *peek = find_peek_button (password_row);

    g_assert_nonnull (peek);
    gtk_test_accessible_assert_property (GTK_ACCESSIBLE (peek), GTK_ACCESSIBLE_PROPERTY_LABEL, "Show the password");
    g_signal_emit_by_name (peek, "clicked");
    gtk_test_accessible_assert_property (GTK_ACCESSIBLE (peek), GTK_ACCESSIBLE_PROPERTY_LABEL, "Hide the password");
    g_signal_emit_by_name (peek, "clicked");
  }

  gtk_editable_set_text (GTK_EDITABLE (password_row), "s3cret");
  g_signal_emit_by_name (password_row, "apply");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (password_row)), ==, "");
  g_assert_true (g_file_get_contents (pgpass, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "127.0.0.1:1:cards:lab:s3cret\n");
  g_assert_cmpint (g_stat (pgpass, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  values = all_settings (settings);
  g_assert_null (strstr (values, "s3cret"));

  /* A result saved while the store is down: saved here, and waiting. */
  says.words = "waits for the store";
  history = cm_app_history_dup ();
  result = some_result ();
  saved = cm_history_save (history, result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (saved);
  g_assert_true (cm_test_wait_for (status_says, &says, 60));
  g_test_message ("status: %s", status_text (preferences));
  g_assert_nonnull (strstr (status_text (preferences), "127.0.0.1"));

  cm_test_save_screenshots (GTK_WIDGET (preferences), "preferences-store");
  g_settings_set_string (settings, "store-url", "");
  cm_test_destroy_window (GTK_WINDOW (preferences));
}

static CmResult *
card_result (int         day,
             const char *serial,
             guint64     size)
{
  CmResult *result = some_result ();
  g_autoptr(GDateTime) when = g_date_time_new_utc (2026, 11, day, 10, 0, 0);
  g_autofree char *json = g_strdup_printf ("{\"registers_available\": true, \"serial\": \"%s\", "
                                           "\"brand\": \"SanDisk\", \"capacity_bytes\": %" G_GUINT64_FORMAT "}",
                                           serial, size);
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardInfo) card = cm_card_info_new_from_json (node, &error);

  g_assert_no_error (error);
  cm_result_set_started (result, when);
  cm_result_set_card (result, card);
  return result;
}

static gboolean
has_seen_rows (gpointer data)
{
  return cm_test_find_by_css_class (data, "cm-seen-before") != NULL &&
         cm_test_find_by_css_class (data, "cm-seen-warning") != NULL;
}

/* Without a store, this computer's history answers: the page of the
 * newest result says when the card was tested before, and warns that
 * its CID came with another size once. */
static void
test_seen_before (void)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autoptr(CmResult) first = card_result (1, "0x0badcafe", 32000000000);
  g_autoptr(CmResult) second = card_result (2, "0x0badcafe", 64000000000);
  g_autoptr(CmResult) third = card_result (3, "0x0badcafe", 32000000000);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) labels = g_string_new (NULL);
  g_autoptr(GFile) f1 = NULL, f2 = NULL, f3 = NULL;
  GtkWidget *window = gtk_window_new ();
  CmResultPage *page;

  f1 = cm_history_save (history, first, &error);
  g_assert_no_error (error);
  f2 = cm_history_save (history, second, &error);
  g_assert_no_error (error);
  f3 = cm_history_save (history, third, &error);
  g_assert_no_error (error);

  page = cm_result_page_new (third);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (has_seen_rows, page, 60));
  cm_test_collect_labels (GTK_WIDGET (page), labels, TRUE);
  g_test_message ("%s", labels->str);
  g_assert_nonnull (strstr (labels->str, "Tested before"));
  g_assert_nonnull (strstr (labels->str, "0x0badcafe"));
  cm_test_save_screenshots (window, "result-seen-before");
  cm_test_destroy_window (GTK_WINDOW (window));
}

typedef struct
{
  GtkWidget  *page;
  const char *words;
  const char *row;  /* its style class; NULL: the warning */
} WarningSays;

static gboolean
warning_says (gpointer data)
{
  WarningSays *says = data;
  GtkWidget *warning = cm_test_find_by_css_class (says->page, says->row != NULL ? says->row : "cm-seen-warning");

  return warning != NULL &&
         strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (warning)), says->words) != NULL;
}

/* A capacity check of the simulated cards (tests/data/batch), as of
 * this card: one whose outcome has words. */
static CmResult *
capacity_check (int         day,
                const char *serial,
                guint64     size)
{
  g_autoptr(CmResult) card = card_result (day, serial, size);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", "good-capacity.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  CmResult *result = cm_result_new_from_file (file, &error);

  g_assert_no_error (error);
  cm_result_set_started (result, cm_result_get_started (card));
  cm_result_set_card (result, cm_result_get_card (card));
  return result;
}

/* A card in a reader whose CID serial has two results in the history,
 * one of another size: its page says, before any check, when and where
 * it was tested last and with what outcome, and warns of a cloned CID,
 * in the rows a result's page shows. */
static void
test_card_page_seen (void)
{
  g_autoptr(CmHistory) history = cm_app_history_dup ();
  g_autoptr(CmResult) older = card_result (4, "0x0c10ed00", 64000000000);
  g_autoptr(CmResult) newer = capacity_check (5, "0x0c10ed00", 32000000000);
  g_autoptr(CmCardItem) item = cm_card_item_new_device ("/dev/sdx", "Card", 32000000000, "USB 3 reader", NULL);
  g_autoptr(CmCardInfo) info = NULL;
  g_autoptr(CmHistoryEntry) newest = cm_history_entry_new_for_result (newer);
  g_autoptr(GDateTime) when = g_date_time_new_from_unix_local (newest->started);
  /* Dated as the rows below it are: "4 December 2026, 13:05". */
  g_autofree char *date = cm_summary_format_date (when);
  g_autofree char *other_size = g_format_size (64000000000);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) f1 = NULL, f2 = NULL;
  g_autoptr(GString) labels = g_string_new (NULL);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *before, *warning;
  CmCardPage *page;

  f1 = cm_history_save (history, older, &error);
  g_assert_no_error (error);
  f2 = cm_history_save (history, newer, &error);
  g_assert_no_error (error);

  /* The card as its registers tell it: serial and size, no brand. */
  {
    g_autoptr(JsonNode) node = json_from_string ("{\"registers_available\": true, \"serial\": \"0x0c10ed00\", "
                                                 "\"capacity_bytes\": 32000000000}", NULL);

    info = cm_card_info_new_from_json (node, &error);
    g_assert_no_error (error);
  }
  cm_card_item_set_card_info (item, info);
  page = cm_card_page_new (item);
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (page));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (cm_test_wait_for (has_seen_rows, page, 60));

  before = cm_test_find_by_css_class (GTK_WIDGET (page), "cm-seen-before");
  warning = cm_test_find_by_css_class (GTK_WIDGET (page), "cm-seen-warning");
  g_test_message ("%s", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (before)));
  g_test_message ("%s", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (warning)));
  /* Where, when (the newest result) and its outcome. */
  g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (before)), "Tested before on this computer"));
  g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (before)), date));
  g_assert_nonnull (newest->verdict);
  g_assert_true (g_str_has_suffix (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (before)), newest->verdict));
  /* The other size, and the serial it came with. */
  g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (warning)), "0x0c10ed00"));
  g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (warning)), other_size));
  g_assert_true (gtk_widget_is_visible (before));
  g_assert_true (gtk_widget_is_visible (warning));
  cm_test_collect_labels (GTK_WIDGET (page), labels, TRUE);
  g_assert_nonnull (strstr (labels->str, "Cloned card?"));
  cm_test_save_screenshots (window, "card-seen-before");

  /* The user picks the brand on the label: the same CID came as a
   * SanDisk of this size too, the newest result, which the warning now
   * names. */
  {
    WarningSays says = { GTK_WIDGET (page), date };

    g_assert_true (cm_card_page_set_brand (page, "Samsung"));
    g_assert_true (cm_test_wait_for (warning_says, &says, 60));
    warning = cm_test_find_by_css_class (GTK_WIDGET (page), "cm-seen-warning");
    g_test_message ("%s", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (warning)));
    g_assert_nonnull (strstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (warning)), "SanDisk"));
  }

  /* A check of the card ends while the user looks elsewhere: when its
   * page shows again, it names that one as the newest. */
  {
    g_autoptr(CmResult) latest = capacity_check (6, "0x0c10ed00", 32000000000);
    g_autoptr(GFile) f3 = cm_history_save (history, latest, &error);
    g_autoptr(CmHistoryEntry) entry = cm_history_entry_new_for_result (latest);
    g_autoptr(GDateTime) latest_when = g_date_time_new_from_unix_local (entry->started);
    g_autofree char *latest_date = cm_summary_format_date (latest_when);
    WarningSays says = { GTK_WIDGET (page), latest_date, "cm-seen-before" };

    g_assert_no_error (error);
    g_assert_false (warning_says (&says));
    gtk_widget_set_visible (GTK_WIDGET (page), FALSE);
    gtk_widget_set_visible (GTK_WIDGET (page), TRUE);
    g_assert_true (cm_test_wait_for (warning_says, &says, 60));
  }
  cm_test_destroy_window (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it keeps. */
  data_home = cm_test_data_home_make ();
  /* Before any thread: libpq's password file, of this test's own. */
  {
    g_autofree char *pgpass = g_build_filename (data_home, "pgpass", NULL);

    g_setenv ("PGPASSFILE", pgpass, TRUE);
  }

  /* GTK's test accessibility backend, so what a screen reader is told
   * can be read back; "none" keeps no accessible properties at all. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  cm_test_app_init (&argc, &argv);

  g_test_add_func ("/cardmark/app-store/preferences", test_store);
  g_test_add_func ("/cardmark/app-store/seen-before", test_seen_before);
  g_test_add_func ("/cardmark/app-store/card-page-seen", test_card_page_seen);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
