/* test-app-keyboard.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app with the keyboard alone, on a real folder: Tab moves the focus
 * (the window's own "move-focus", which is what Tab is bound to), Enter
 * activates what has it (gtk_widget_activate, as GTK's Enter bindings
 * do) and Escape is the window's win.escape, which its Escape key is
 * bound to. From the card list to a result and back, a History row
 * opened, Compare, a run cancelled; and each class button on a card's
 * page is one Tab stop.
 *
 * Runs under Xvfb.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "cm-application.h"
#include "cm-bench.h"
#include "cm-card-item.h"
#include "cm-card-page.h"
#include "cm-history-page.h"
#include "cm-result-page.h"
#include "cm-run-page.h"
#include "cm-test-app.h"
#include "cm-verdict.h"
#include "cm-window.h"

#define MAX_TABS 400

typedef struct
{
  CmApplication *app;
  CmWindow      *window;
  char          *folder;
  GListStore    *devices;
} Fixture;

typedef gboolean (*FocusWanted) (GtkWidget  *focus,
                                 gconstpointer data);

/* Keys. */

static GtkWidget *
focus_in (GtkWindow *window)
{
  return gtk_root_get_focus (GTK_ROOT (window));
}

static void
press_tab (GtkWindow *window)
{
  g_signal_emit_by_name (window, "move-focus", GTK_DIR_TAB_FORWARD);
}

/* Tab until the focus is on a widget @wanted takes; NULL when a whole
 * round of the window does not reach one. */
static GtkWidget *
tab_to (GtkWindow     *window,
        FocusWanted    wanted,
        gconstpointer  data)
{
  for (guint i = 0; i < MAX_TABS; i++)
    {
      GtkWidget *focus;

      press_tab (window);
      focus = focus_in (window);
      if (focus != NULL && gtk_widget_is_drawable (focus) && wanted (focus, data))
        return focus;
    }
  return NULL;
}

static void
press_enter (GtkWindow *window)
{
  GtkWidget *focus = focus_in (window);

  /* A button's activation shows it pressed for a moment, then clicks:
   * what follows is waited for. */
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_activate (focus));
}

static void
press_escape (Fixture *f)
{
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.escape", NULL);
  cm_test_settle (0.05);
}

/* What the focus may be on. */

static const char *
button_label (GtkWidget *widget)
{
  if (GTK_IS_BUTTON (widget))
    return gtk_button_get_label (GTK_BUTTON (widget));
  return NULL;
}

static gboolean
is_button (GtkWidget     *focus,
           gconstpointer  label)
{
  return g_strcmp0 (button_label (focus), label) == 0;
}

static gboolean
is_row_in_page (GtkWidget     *focus,
                gconstpointer  page)
{
  return GTK_IS_LIST_BOX_ROW (focus) && gtk_widget_is_ancestor (focus, GTK_WIDGET (page));
}

/* History's rows are a list view's: Tab reaches each row's Open button. */
static gboolean
is_open_button_in (GtkWidget     *focus,
                   gconstpointer  page)
{
  return GTK_IS_BUTTON (focus) && g_strcmp0 (gtk_widget_get_tooltip_text (focus), "Open This Result") == 0 &&
         gtk_widget_is_ancestor (focus, GTK_WIDGET (page));
}

static gboolean
is_enabled_check_in (GtkWidget     *focus,
                     gconstpointer  page)
{
  return GTK_IS_CHECK_BUTTON (focus) && gtk_widget_is_sensitive (focus) &&
         !gtk_check_button_get_active (GTK_CHECK_BUTTON (focus)) &&
         gtk_widget_is_ancestor (focus, GTK_WIDGET (page));
}

/* Conditions. */

static gboolean
on_page (Fixture    *f,
         const char *name)
{
  return g_strcmp0 (cm_window_get_page_name (f->window), name) == 0;
}

/* Running, or already over: a tiny plan on a fast disk can end
 * between two looks. */
static gboolean
started (gpointer data)
{
  Fixture *f = data;

  return cm_window_get_running (f->window) || on_page (f, "run") || on_page (f, "result") ||
         on_page (f, "error");
}

static gboolean
compare_shown (gpointer history)
{
  return g_strcmp0 (cm_history_page_get_view (history), "compare") == 0;
}

static gboolean
check_active (gpointer check)
{
  return gtk_check_button_get_active (check);
}

/* Fixture. */

static void
fixture_set_up (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmCardItem) item = NULL;

  cm_test_data_home_empty ();
  f->window = cm_test_window_new (&f->app);

  /* Not /tmp, which may be a tmpfs that refuses O_DIRECT. */
  f->folder = g_dir_make_tmp ("cardmark-keys-XXXXXX", &error);
  g_assert_no_error (error);
  item = cm_card_item_new_folder (f->folder);
  f->devices = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_list_store_append (f->devices, item);
  cm_window_set_devices (f->window, G_LIST_MODEL (f->devices));
  cm_test_settle (0.2);
}

static void
fixture_tear_down (Fixture       *f,
                   gconstpointer  data)
{
  cm_test_destroy_window (GTK_WINDOW (f->window));
  g_assert_cmpint (g_rmdir (f->folder), ==, 0);
  g_free (f->folder);
  g_clear_object (&f->devices);
  g_clear_object (&f->app);
}

/* Steps, each by keys alone. */

static void
open_card (Fixture *f)
{
  GtkWidget *cards = cm_window_get_page (f->window, "cards");

  g_assert_true (on_page (f, "cards"));
  g_assert_nonnull (tab_to (GTK_WINDOW (f->window), is_row_in_page, cards));
  press_enter (GTK_WINDOW (f->window));
  g_assert_true (cm_test_wait_page (f->window, "card", 60));
}

static void
start_test (Fixture *f)
{
  GtkWidget *button = tab_to (GTK_WINDOW (f->window), is_button, "_Start Test");

  g_assert_nonnull (button);
  g_test_message ("Start Test on page %s", cm_window_get_page_name (f->window));
  g_assert_true (gtk_widget_is_ancestor (button, cm_window_get_page (f->window, "card")));
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (f->app), "start-test"));
  press_enter (GTK_WINDOW (f->window));
  g_assert_true (cm_test_wait_for (started, f, 10));
  g_test_message ("started: page %s", cm_window_get_page_name (f->window));
}

/* From the list to a result and back to the list. */
static void
run_to_result_and_back (Fixture *f)
{
  open_card (f);
  start_test (f);
  g_assert_true (cm_test_wait_page (f->window, "result", 60));
  press_escape (f);
  g_assert_true (on_page (f, "card"));
  press_escape (f);
  g_assert_true (on_page (f, "cards"));
}

static void
test_keyboard_only (Fixture       *f,
                    gconstpointer  data)
{
  CmHistoryPage *history;
  GtkWidget *dialog;

  cm_bench_set_test_plan ("tiny");
  run_to_result_and_back (f);
  run_to_result_and_back (f);

  /* History (Ctrl+H), a row opened with Enter on its Open button, and
   * Escape back to it. */
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-history", NULL);
  history = CM_HISTORY_PAGE (cm_window_get_page (f->window, "history"));
  g_assert_true (cm_test_wait_history_loaded (history, 10));
  g_assert_cmpuint (cm_history_page_get_n_results (history), ==, 2);
  g_assert_nonnull (tab_to (GTK_WINDOW (f->window), is_open_button_in, history));
  press_enter (GTK_WINDOW (f->window));
  g_assert_true (cm_test_wait_page (f->window, "saved", 60));
  press_escape (f);
  g_assert_true (on_page (f, "history"));

  /* Compare: two ticked with Space (a check button's activation), then
   * Compare, then Escape back to the list. */
  for (guint i = 0; i < 2; i++)
    {
      GtkWidget *check = tab_to (GTK_WINDOW (f->window), is_enabled_check_in, history);

      g_assert_nonnull (check);
      press_enter (GTK_WINDOW (f->window));
      g_assert_true (cm_test_wait_for (check_active, check, 5));
    }
  g_assert_nonnull (tab_to (GTK_WINDOW (f->window), is_button, "C_ompare"));
  press_enter (GTK_WINDOW (f->window));
  g_assert_true (cm_test_wait_for (compare_shown, history, 5));
  press_escape (f);
  g_assert_cmpstr (cm_history_page_get_view (history), !=, "compare");
  g_assert_true (on_page (f, "history"));
  press_escape (f);
  g_assert_true (on_page (f, "cards"));

  /* A run cancelled: Escape asks, and Escape again keeps it going; its
   * Cancel button asks the same, and Stop (Tab to it, Enter) stops it. */
  cm_bench_set_test_plan ("slow");
  open_card (f);
  start_test (f);
  g_assert_true (cm_window_get_running (f->window));
  g_assert_true (cm_test_wait_run_points (f->window, 2, 30));
  press_escape (f);
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 5));
  dialog = cm_test_visible_dialog ();
  g_assert_true (gtk_widget_activate_action (dialog, "window.close", NULL));
  cm_test_settle (0.1);
  g_assert_null (cm_test_visible_dialog ());
  g_assert_true (cm_window_get_running (f->window));

  g_assert_nonnull (tab_to (GTK_WINDOW (f->window), is_button, "_Cancel"));
  press_enter (GTK_WINDOW (f->window));
  g_assert_true (cm_test_wait_for (cm_test_dialog_shown, NULL, 5));
  dialog = cm_test_visible_dialog ();
  g_assert_true (cm_window_get_running (f->window));
  g_assert_nonnull (tab_to (GTK_WINDOW (dialog), is_button, "_Stop"));
  press_enter (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_page_idle (f->window, "card", 10));
}

/* Each class button on a card's page is one Tab stop, not two (the
 * button and the flow box's child around it). */
static void
test_class_tab_stops (Fixture       *f,
                      gconstpointer  data)
{
  const char * const *classes = cm_verdict_get_offered_classes ();
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  GtkWidget *first = NULL;
  guint stops = 0;

  open_card (f);
  for (guint i = 0; i < MAX_TABS; i++)
    {
      GtkWidget *focus;

      press_tab (GTK_WINDOW (f->window));
      focus = focus_in (GTK_WINDOW (f->window));
      if (focus == NULL)
        continue;
      if (focus == first)
        break;
      if (first == NULL)
        first = focus;
      if (gtk_widget_get_ancestor (focus, GTK_TYPE_FLOW_BOX) == NULL)
        continue;
      g_test_message ("class stop: %s %s", G_OBJECT_TYPE_NAME (focus), gtk_widget_get_name (focus));
      g_assert_true (GTK_IS_TOGGLE_BUTTON (focus));
      g_assert_false (g_hash_table_contains (seen, focus));
      g_hash_table_add (seen, focus);
      stops++;
    }
  g_assert_cmpuint (stops, ==, g_strv_length ((char **) classes));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* Before anything asks GLib for the user's data folder, which it keeps:
   * History shows this test's runs only. */
  cm_test_data_home_make ();

  cm_test_app_init (&argc, &argv);

  g_test_add ("/cardmark/app-keyboard/keyboard-only", Fixture, NULL,
              fixture_set_up, test_keyboard_only, fixture_tear_down);
  g_test_add ("/cardmark/app-keyboard/class-tab-stops", Fixture, NULL,
              fixture_set_up, test_class_tab_stops, fixture_tear_down);

  status = g_test_run ();
  cm_test_data_home_remove ();
  return status;
}
