/* test-app-fit.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Every page, dialog and window fits a 7-inch screen (800×480) in every
 * language the app speaks, and tells a screen reader what it draws. For
 * English, Spanish, Japanese, Korean and Vietnamese in turn, the test
 * opens the card list, a folder's and a device's card page, the result
 * page of every saved document in tests/data/batch, History listing
 * them, a benchmark's run page, the confirmations a device's rows ask,
 * Preferences, the keyboard shortcuts and the About window, and
 * for each one:
 *   - measures its window: neither its minimum size nor what it was
 *     given once shown may be wider than 800 or taller than 480;
 *   - finds every label cut short with an ellipsis: its whole text must
 *     be in a tooltip and in the accessible description;
 *   - walks every button: one drawn greyed out is reported disabled to
 *     a screen reader (GtkAccessible's state), and none is named by its
 *     raw mnemonic ("_Delete").
 * Runs under Xvfb, with GTK's test accessibility backend.
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>

#include "cm-application.h"
#include "cm-card-item.h"
#include "cm-card-list-page.h"
#include "cm-history.h"
#include "cm-history-page.h"
#include "cm-result-page.h"
#include "cm-run-page.h"
#include "cm-test-app.h"
#include "cm-window.h"

#define SCREEN_WIDTH  800
#define SCREEN_HEIGHT 480

/* English last: GLib decides at its first translation whether to
 * translate at all, and says no for good when that is English (so
 * main() starts in the first of these). */
static const char *languages[] = { "es", "ja", "ko", "vi", "en" };

/* What a window's measure counts around what it is given: the shadow of
 * its frame, measured on an empty window opened at the screen's size. */
static int frame_width, frame_height;

static void
use_language (const char *language)
{
  g_setenv ("LANGUAGE", language, TRUE);
  /* setlocale() makes gettext forget the catalogue it had open. */
  setlocale (LC_ALL, "");
}

/* The widgets under @widget whose minimum width is over @limit, widest
 * first: where an overflow comes from. */
static void
describe_widest (GtkWidget *widget,
                 int        limit,
                 GString   *out,
                 guint      depth)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int min = 0;

      if (!gtk_widget_get_visible (child))
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      if (min <= limit)
        continue;
      g_string_append_printf (out, "\n#%*s %s %d px", (int) depth * 2, "", G_OBJECT_TYPE_NAME (child), min);
      if (GTK_IS_LABEL (child))
        g_string_append_printf (out, " “%s”", gtk_label_get_text (GTK_LABEL (child)));
      describe_widest (child, limit, out, depth + 1);
    }
}

static void
check_fits (GtkWidget  *window,
            const char *what,
            GString    *failures)
{
  int min_width = 0, min_height = 0;
  int width = gtk_widget_get_width (window);
  int height = gtk_widget_get_height (window);

  gtk_widget_measure (window, GTK_ORIENTATION_HORIZONTAL, -1, &min_width, NULL, NULL, NULL);
  gtk_widget_measure (window, GTK_ORIENTATION_VERTICAL, MIN (width, SCREEN_WIDTH), &min_height, NULL, NULL, NULL);
  g_test_message ("%s: %d×%d, at least %d×%d", what, width, height, min_width, min_height);
  if (min_width - frame_width > SCREEN_WIDTH || width > SCREEN_WIDTH)
    {
      g_string_append_printf (failures, "\n%s is %d px wide (at least %d), wider than %d:",
                              what, width, min_width, SCREEN_WIDTH);
      describe_widest (window, SCREEN_WIDTH * 2 / 3, failures, 1);
    }
  if (min_height - frame_height > SCREEN_HEIGHT || height > SCREEN_HEIGHT)
    g_string_append_printf (failures, "\n%s is %d px tall (at least %d), taller than %d",
                            what, height, min_height, SCREEN_HEIGHT);
}

/* Whether @widget or one of its parents up to @top shows @text in its
 * tooltip. */
static gboolean
tooltip_says (GtkWidget  *widget,
              GtkWidget  *top,
              const char *text)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      const char *tooltip = gtk_widget_get_tooltip_text (widget);

      if (tooltip != NULL && strstr (tooltip, text) != NULL)
        return TRUE;
      if (widget == top)
        break;
    }
  return FALSE;
}

static gboolean
described (GtkWidget  *widget,
           GtkWidget  *top,
           const char *text)
{
  for (; widget != NULL; widget = gtk_widget_get_parent (widget))
    {
      g_autofree char *wrong = gtk_test_accessible_check_property (GTK_ACCESSIBLE (widget),
                                                                   GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                                                   text);

      if (wrong == NULL)
        return TRUE;
      if (widget == top)
        break;
    }
  return FALSE;
}

static void
check_label (GtkLabel   *label,
             GtkWidget  *top,
             const char *what,
             GString    *failures)
{
  const char *text = gtk_label_get_text (label);

  if (gtk_label_get_ellipsize (label) == PANGO_ELLIPSIZE_NONE
      || !pango_layout_is_ellipsized (gtk_label_get_layout (label)) || *text == '\0')
    return;
  if (!tooltip_says (GTK_WIDGET (label), top, text))
    g_string_append_printf (failures, "\n%s: “%s” is cut short and no tooltip says it whole", what, text);
  else if (!described (GTK_WIDGET (label), top, text))
    g_string_append_printf (failures, "\n%s: “%s” is cut short and its accessible description does not say it",
                            what, text);
}

/* What a screen reader is told of a button is what is drawn: greyed out
 * is disabled, and its name is its text, without the mnemonic's
 * underscore. */
static void
check_button (GtkButton  *button,
              const char *what,
              GString    *failures)
{
  const char *label = gtk_button_get_label (button);
  gboolean sensitive = gtk_widget_is_sensitive (GTK_WIDGET (button));
  g_autofree char *wrong = gtk_test_accessible_check_state (GTK_ACCESSIBLE (button),
                                                            GTK_ACCESSIBLE_STATE_DISABLED,
                                                            !sensitive);

  if (wrong != NULL && (!sensitive || gtk_test_accessible_has_state (GTK_ACCESSIBLE (button),
                                                                     GTK_ACCESSIBLE_STATE_DISABLED)))
    g_string_append_printf (failures, "\n%s: the button “%s” is drawn %s but a screen reader hears %s",
                            what, label ? label : G_OBJECT_TYPE_NAME (button),
                            sensitive ? "available" : "greyed out",
                            sensitive ? "disabled" : "available");
  if (label != NULL && gtk_button_get_use_underline (button) && strchr (label, '_') != NULL)
    {
      g_autofree char *raw = gtk_test_accessible_check_property (GTK_ACCESSIBLE (button),
                                                                 GTK_ACCESSIBLE_PROPERTY_LABEL, label);

      if (raw == NULL)
        g_string_append_printf (failures, "\n%s: the button “%s” is named with its mnemonic", what, label);
    }
}

static void
check_widgets (GtkWidget  *widget,
               GtkWidget  *top,
               const char *what,
               GString    *failures)
{
  if (!gtk_widget_get_mapped (widget))
    return;
  if (GTK_IS_LABEL (widget))
    check_label (GTK_LABEL (widget), top, what, failures);
  if (GTK_IS_BUTTON (widget))
    check_button (GTK_BUTTON (widget), what, failures);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    check_widgets (child, top, what, failures);
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static void
after_paint_cb (GdkFrameClock *clock,
                guint         *n_paints)
{
  (*n_paints)++;
}

static gboolean
painted (gpointer n_paints)
{
  return *(guint *) n_paints > 0;
}

/* Waits until @window is on screen and laid out again from scratch. */
static void
wait_laid_out (GtkWidget *window)
{
  GdkFrameClock *clock;
  guint n_paints = 0;
  gulong id;

  g_assert_true (cm_test_wait_for (is_mapped, window, 10));
  clock = gtk_widget_get_frame_clock (window);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &n_paints);
  gtk_widget_queue_resize (window);
  g_assert_true (cm_test_wait_for (painted, &n_paints, 10));
  g_signal_handler_disconnect (clock, id);
}

/* With CARDMARK_SCREENSHOT_DIR set, @window is saved as it is now, at
 * 800×480 and 1280×800, light and dark: app-fit-es-the-card-list-….png */
static void
save_screenshots (GtkWidget  *window,
                  const char *what)
{
  g_autofree char *name = NULL;

  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") == NULL)
    return;
  name = g_strconcat ("fit-", what, NULL);
  for (char *p = name; *p != '\0'; p++)
    if (!g_ascii_isalnum (*p) && *p != '-')
      *p = '-';
  cm_test_save_screenshots (window, name);
}

/* Everything checked of one window as it is on screen now. */
static void
check_window (GtkWidget  *window,
              const char *what,
              GString    *failures)
{
  wait_laid_out (window);
  check_fits (window, what, failures);
  check_widgets (window, window, what, failures);
  save_screenshots (window, what);
}

static void
check_page (CmWindow   *window,
            const char *name,
            const char *what,
            GString    *failures)
{
  g_assert_true (cm_test_wait_page (window, name, 10));
  check_window (GTK_WIDGET (window), what, failures);
}

/* The top-level window that is not @except and is shown, if any. */
static GtkWidget *
other_window (GtkWidget *except)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (window != except && gtk_widget_get_visible (window))
        return window;
    }
  return NULL;
}

static gboolean
other_window_shown (gpointer except)
{
  return other_window (except) != NULL;
}

/* The dialog @open_it brings up over @window, checked, then closed. */
static void
check_dialog (GtkWidget  *window,
              const char *what,
              GString    *failures)
{
  GtkWidget *dialog;

  g_assert_true (cm_test_wait_for (other_window_shown, window, 10));
  dialog = other_window (window);
  check_window (dialog, what, failures);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_assert_true (cm_test_wait_for (cm_test_dialog_gone, NULL, 10));
}

static gboolean
is_row_button (GtkWidget *widget)
{
  return GTK_IS_BUTTON (widget) && gtk_widget_is_sensitive (widget)
         && gtk_widget_get_ancestor (widget, ADW_TYPE_ACTION_ROW) != NULL
         && gtk_widget_get_ancestor (widget, ADW_TYPE_EXPANDER_ROW) == NULL;
}

/* The rows of a device's card page that confirm before they write: each
 * one's question. */
static void
check_row_dialogs (CmWindow   *window,
                   const char *language,
                   GString    *failures)
{
  GType types[] = { g_type_from_name ("CmVerifyRow"), g_type_from_name ("CmWearRow"),
                    g_type_from_name ("CmFormatRow") };
  GtkWidget *page = cm_window_get_page (window, "card");

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      GtkWidget *row = types[i] != 0 ? cm_test_find_type (page, types[i]) : NULL;
      GtkWidget *button = row != NULL ? cm_test_find_mapped (row, is_row_button) : NULL;
      g_autofree char *what = NULL;

      if (button == NULL)
        continue;
      what = g_strdup_printf ("%s: the %s's question", language, g_type_name (types[i]));
      g_signal_emit_by_name (button, "clicked");
      if (!cm_test_wait_for (other_window_shown, window, 5))
        continue;
      check_dialog (GTK_WIDGET (window), what, failures);
    }
}

/* A result page on its own window of the screen's size, below a header
 * bar like the app's. */
static void
check_result (const char *file,
              const char *language,
              GString    *failures)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", file, NULL);
  g_autoptr(GFile) gfile = g_file_new_for_path (path);
  g_autoptr(CmResult) result = cm_result_new_from_file (gfile, &error);
  g_autofree char *what = g_strdup_printf ("%s: the result page of %s", language, file);
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);

  g_assert_no_error (error);
  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (cm_result_page_new (result)));
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), SCREEN_WIDTH, SCREEN_HEIGHT);
  gtk_window_present (GTK_WINDOW (window));
  check_window (window, what, failures);
  cm_test_destroy_window (GTK_WINDOW (window));
}

/* A benchmark's run page, part way through, on its own window of the
 * screen's size below a header bar like the app's. */
static void
check_run (const char *language,
           GString    *failures)
{
  const char *claims[] = { "U3", "V30", "A2", NULL };
  g_autofree char *what = g_strdup_printf ("%s: a benchmark's run page", language);
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  CmRunPage *page = cm_run_page_new ("SanDisk Extreme PLUS microSDXC UHS-I", claims);

  gtk_box_append (GTK_BOX (box), adw_header_bar_new ());
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (page));
  adw_window_set_content (ADW_WINDOW (window), box);
  gtk_window_set_default_size (GTK_WINDOW (window), SCREEN_WIDTH, SCREEN_HEIGHT);
  cm_run_page_set_test (page, 4, 6, "rand-write-4k-qd32");
  cm_run_page_set_progress (page, 0.7, 754);
  for (guint i = 0; i < 40; i++)
    cm_run_page_add_sample (page, "rand-write-4k-qd32", i * 0.25, 3 + i % 7);
  gtk_window_present (GTK_WINDOW (window));
  check_window (window, what, failures);
  cm_test_destroy_window (GTK_WINDOW (window));
}

static void
check_language (const char *language,
                GString    *failures)
{
  static const char *results[] = { "good-bench.json", "fake-bench.json", "good-capacity.json",
                                   "fake-capacity.json", "fake-verify.json", "good-wear.json" };
  g_autoptr(CmApplication) app = NULL;
  g_autoptr(GListStore) store = g_list_store_new (CM_TYPE_CARD_ITEM);
  g_autoptr(CmCardItem) device = NULL;
  g_autoptr(CmCardItem) other = NULL;
  g_autofree char *folder = g_dir_make_tmp ("cardmark-fit-XXXXXX", NULL);
  g_autofree char *what = NULL;
  CmWindow *window;

  use_language (language);
  window = cm_test_window_new (&app);
  device = cm_card_item_new_device ("/dev/sdx", "SanDisk Extreme PLUS microSDXC UHS-I", 128000000000,
                                    "Realtek RTS5129 USB 3.0 Card Reader", NULL);
  other = cm_card_item_new_device ("/dev/mmcblk0", "SD card", 32000000000, "Pi slot", folder);
  cm_window_set_devices (window, G_LIST_MODEL (store));
  g_list_store_append (store, device);
  g_list_store_append (store, other);

  what = g_strdup_printf ("%s: the card list", language);
  check_page (window, "cards", what, failures);

  /* A card ticked: the action bar's buttons say how many. */
  {
    CmCardListPage *list = CM_CARD_LIST_PAGE (cm_window_get_page (window, "cards"));
    GtkWidget *check;

    cm_card_list_page_set_selection_mode (list, TRUE);
    check = cm_test_find_type (GTK_WIDGET (list), GTK_TYPE_CHECK_BUTTON);
    g_assert_nonnull (check);
    gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
    g_clear_pointer (&what, g_free);
    what = g_strdup_printf ("%s: the card list, choosing cards", language);
    check_page (window, "cards", what, failures);
    cm_card_list_page_set_selection_mode (list, FALSE);
  }

  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: a folder's card page", language);
  g_assert_true (cm_window_open_path (window, folder));
  check_page (window, "card", what, failures);

  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: a device's card page", language);
  g_assert_true (cm_window_open_path (window, "/dev/sdx"));
  check_page (window, "card", what, failures);
  /* Its Profile and Method, in the screenshots too. */
  wait_laid_out (GTK_WIDGET (window));
  cm_test_scroll_to (gtk_widget_get_parent (cm_test_find_type (cm_window_get_page (window, "card"),
                                                               ADW_TYPE_COMBO_ROW)));
  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: a device's card page, scrolled to its Profile", language);
  check_window (GTK_WIDGET (window), what, failures);
  check_row_dialogs (window, language, failures);

  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: History", language);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-history", NULL));
  g_assert_true (cm_test_wait_history_loaded (CM_HISTORY_PAGE (cm_window_get_page (window, "history")), 20));
  check_page (window, "history", what, failures);

  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: Preferences", language);
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  check_dialog (GTK_WIDGET (window), what, failures);

  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: the keyboard shortcuts", language);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-help-overlay", NULL));
  check_dialog (GTK_WIDGET (window), what, failures);

  g_clear_pointer (&what, g_free);
  what = g_strdup_printf ("%s: About", language);
  g_action_group_activate_action (G_ACTION_GROUP (app), "about", NULL);
  check_dialog (GTK_WIDGET (window), what, failures);

  cm_test_destroy_window (GTK_WINDOW (window));
  g_rmdir (folder);

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    check_result (results[i], language, failures);
  check_run (language, failures);
}

/* The batch's documents in the history, for History to list. */
static void
save_batch (void)
{
  static const char *files[] = { "good-bench.json", "fake-bench.json", "good-capacity.json",
                                 "fake-capacity.json", "fake-verify.json", "good-wear.json" };
  g_autoptr(CmHistory) history = cm_history_new_default ();

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "batch", files[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(CmResult) result = cm_result_new_from_file (file, &error);
      g_autoptr(GFile) saved = NULL;

      g_assert_no_error (error);
      saved = cm_history_save (history, result, &error);
      g_assert_no_error (error);
    }
}

/* Every language is checked, and every failure told, before the test
 * fails. */
static void
test_every_language (void)
{
  g_autoptr(GString) failures = g_string_new (NULL);
  GtkWidget *empty = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (empty), SCREEN_WIDTH, SCREEN_HEIGHT);
  gtk_window_present (GTK_WINDOW (empty));
  wait_laid_out (empty);
  frame_width = SCREEN_WIDTH - gtk_widget_get_width (empty);
  frame_height = SCREEN_HEIGHT - gtk_widget_get_height (empty);
  cm_test_destroy_window (GTK_WINDOW (empty));
  save_batch ();

  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    check_language (languages[i], failures);
  if (failures->len > 0)
    {
      g_test_message ("%s", failures->str);
      g_test_fail ();
    }
}

int
main (int   argc,
      char *argv[])
{
  /* GTK's test backend keeps what a screen reader would be told. */
  g_setenv ("GTK_A11Y", "test", TRUE);
  use_language (languages[0]);
  bindtextdomain (GETTEXT_PACKAGE, g_getenv ("CARDMARK_LOCALEDIR") ?: LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  cm_test_app_init (&argc, &argv);

  g_test_add_func ("/cardmark/app-fit/every-language", test_every_language);

  return g_test_run ();
}
