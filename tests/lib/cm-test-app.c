/* cm-test-app.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "cm-chart-view.h"
#include "cm-run-page.h"
#include "cm-test-app.h"

static gboolean
timeout_cb (gpointer data)
{
  gboolean *timed_out = data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @condition holds or @seconds have passed;
 * returns whether it holds. */
gboolean
cm_test_wait_for (CmTestCondition condition,
                  gpointer        data,
                  double          seconds)
{
  gboolean timed_out = FALSE;
  guint id = g_timeout_add ((guint) (seconds * 1000), timeout_cb, &timed_out);

  while ((condition == NULL || !condition (data)) && !timed_out)
    g_main_context_iteration (NULL, TRUE);

  if (!timed_out)
    g_source_remove (id);
  return condition != NULL && condition (data);
}

/* Runs the main loop for @seconds, so that layout and drawing catch up. */
void
cm_test_settle (double seconds)
{
  cm_test_wait_for (NULL, NULL, seconds);
}

static void
after_paint_cb (GdkFrameClock *clock,
                guint         *n_paints)
{
  (*n_paints)++;
}

static gboolean
is_mapped (gpointer widget)
{
  return gtk_widget_get_mapped (widget);
}

static gboolean
painted_twice (gpointer n_paints)
{
  return *(guint *) n_paints >= 2;
}

/* Runs the main loop until @widget is on screen and its window has drawn
 * two frames after this call (the first may be the one already queued),
 * so layout is done whatever the speed of the build; returns whether
 * that happened within @seconds. */
gboolean
cm_test_wait_drawn (GtkWidget *widget,
                    double     seconds)
{
  GdkFrameClock *clock;
  guint n_paints = 0;
  gulong id;
  gboolean drawn;

  if (!cm_test_wait_for (is_mapped, widget, seconds))
    return FALSE;

  clock = gtk_widget_get_frame_clock (widget);
  id = g_signal_connect (clock, "after-paint", G_CALLBACK (after_paint_cb), &n_paints);
  gtk_widget_queue_draw (widget);
  drawn = cm_test_wait_for (painted_twice, &n_paints, seconds);
  g_signal_handler_disconnect (clock, id);

  return drawn;
}

/* Renders @widget, a realized window, the way it is on screen and saves
 * it to @path. */
void
cm_test_save_png (GtkWidget  *widget,
                  const char *path)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  int width = gdk_paintable_get_intrinsic_width (paintable);
  int height = gdk_paintable_get_intrinsic_height (paintable);

  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  node = gtk_snapshot_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_assert_true (gdk_texture_save_to_png (texture, path));
}

/* Scrolls the page so that @widget is at the top, to see it in a
 * screenshot. */
void
cm_test_scroll_to (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *content;
  double x, y;

  g_assert_nonnull (scrolled);
  content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  g_assert_true (gtk_widget_translate_coordinates (widget, content, 0, 0, &x, &y));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)), y - 12);
}

/* Destroys @window and checks that nothing kept it alive: no page,
 * signal handler or pending callback still holds it. */
void
cm_test_destroy_window (GtkWindow *window)
{
  g_object_ref (window);
  gtk_window_destroy (window);
  cm_test_settle (0.05);
  g_assert_finalize_object (window);
}

void
cm_test_app_init (int    *argc,
                  char ***argv)
{
  gtk_test_init (argc, argv, NULL);
  adw_init ();
  g_object_set (gtk_settings_get_default (), "gtk-enable-animations", FALSE, NULL);
}

CmWindow *
cm_test_window_new (CmApplication **app)
{
  g_autoptr(GError) error = NULL;
  CmWindow *window;

  *app = cm_application_new (G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (*app), NULL, &error));
  g_assert_no_error (error);

  window = cm_window_new (GTK_APPLICATION (*app));
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

typedef struct
{
  CmWindow   *window;
  const char *name;
  gboolean    idle;
} PageWanted;

static gboolean
page_shown (gpointer data)
{
  PageWanted *wanted = data;
  GtkWidget *page;

  if (g_strcmp0 (cm_window_get_page_name (wanted->window), wanted->name) != 0)
    return FALSE;
  if (wanted->idle && cm_window_get_running (wanted->window))
    return FALSE;
  page = cm_window_get_page (wanted->window, wanted->name);
  return page == NULL || (gtk_widget_get_mapped (page) && gtk_widget_get_height (page) > 0);
}

gboolean
cm_test_wait_page (CmWindow   *window,
                   const char *name,
                   double      seconds)
{
  PageWanted wanted = { window, name, FALSE };

  return cm_test_wait_for (page_shown, &wanted, seconds);
}

gboolean
cm_test_wait_page_idle (CmWindow   *window,
                        const char *name,
                        double      seconds)
{
  PageWanted wanted = { window, name, TRUE };

  return cm_test_wait_for (page_shown, &wanted, seconds);
}

typedef struct
{
  CmWindow *window;
  guint     n_points;
} PointsWanted;

static gboolean
run_points_shown (gpointer data)
{
  PointsWanted *wanted = data;
  GtkWidget *page = cm_window_get_page (wanted->window, "run");

  return page != NULL && cm_chart_view_get_n_points (cm_run_page_get_chart (CM_RUN_PAGE (page))) >= wanted->n_points;
}

gboolean
cm_test_wait_run_points (CmWindow *window,
                         guint     n_points,
                         double    seconds)
{
  PointsWanted wanted = { window, n_points };

  return cm_test_wait_for (run_points_shown, &wanted, seconds);
}

/* Read, and its first row on screen: rows are made for what is shown. */
static gboolean
history_loaded (gpointer page)
{
  return !cm_history_page_get_loading (page) &&
         (cm_history_page_get_n_results (page) == 0 || !gtk_widget_get_mapped (page) ||
          cm_history_page_get_row (page, 0) != NULL);
}

gboolean
cm_test_wait_history_loaded (CmHistoryPage *page,
                             double         seconds)
{
  return cm_test_wait_for (history_loaded, page, seconds);
}

GtkWidget *
cm_test_find_mapped (GtkWidget *root,
                     gboolean (*match) (GtkWidget *widget))
{
  if (!gtk_widget_get_mapped (root))
    return NULL;
  if (match (root))
    return root;
  for (GtkWidget *child = gtk_widget_get_first_child (root); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cm_test_find_mapped (child, match);

      if (found != NULL)
        return found;
    }
  return NULL;
}

AdwActionRow *
cm_test_find_row_titled (GtkWidget  *widget,
                         const char *title)
{
  if (ADW_IS_ACTION_ROW (widget) && g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return ADW_ACTION_ROW (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL; child = gtk_widget_get_next_sibling (child))
    {
      AdwActionRow *found = cm_test_find_row_titled (child, title);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* With CARDMARK_SCREENSHOT_DIR set, saves @window as
 * app-NAME-WIDTHxHEIGHT[-dark].png there at 800×480 and 1280×800, light
 * and dark, then leaves it at 800×480 in the default scheme. */
void
cm_test_save_screenshot (GtkWidget  *window,
                         const char *name,
                         int         width,
                         int         height,
                         gboolean    dark)
{
  const char *dir = g_getenv ("CARDMARK_SCREENSHOT_DIR");
  AdwStyleManager *style = adw_style_manager_get_default ();
  g_autofree char *file = NULL;
  g_autofree char *path = NULL;

  if (dir == NULL)
    return;

  adw_style_manager_set_color_scheme (style, dark ? ADW_COLOR_SCHEME_FORCE_DARK : ADW_COLOR_SCHEME_FORCE_LIGHT);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  cm_test_settle (0.5);
  file = g_strdup_printf ("app-%s-%dx%d%s.png", name, width, height, dark ? "-dark" : "");
  path = g_build_filename (dir, file, NULL);
  cm_test_save_png (window, path);
  adw_style_manager_set_color_scheme (style, ADW_COLOR_SCHEME_DEFAULT);
}

void
cm_test_save_screenshots (GtkWidget  *window,
                          const char *name)
{
  if (g_getenv ("CARDMARK_SCREENSHOT_DIR") == NULL)
    return;

  cm_test_save_screenshot (window, name, 800, 480, FALSE);
  cm_test_save_screenshot (window, name, 800, 480, TRUE);
  cm_test_save_screenshot (window, name, 1280, 800, FALSE);
  cm_test_save_screenshot (window, name, 1280, 800, TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 480);
}

static char *data_home;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

const char *
cm_test_data_home_make (void)
{
  g_assert_null (data_home);
  data_home = g_dir_make_tmp ("cardmark-xdg-XXXXXX", NULL);
  g_assert_nonnull (data_home);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);
  return data_home;
}

void
cm_test_data_home_empty (void)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_assert_nonnull (data_home);
  dir = g_dir_open (data_home, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (data_home, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_unlink (child);
    }
}

void
cm_test_data_home_remove (void)
{
  if (data_home == NULL)
    return;
  remove_tree (data_home);
  g_clear_pointer (&data_home, g_free);
}

GtkWidget *
cm_test_find_by_css_class (GtkWidget  *widget,
                           const char *css)
{
  if (gtk_widget_has_css_class (widget, css))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cm_test_find_by_css_class (child, css);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
cm_test_find_type (GtkWidget *widget,
                   GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = cm_test_find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

GtkWidget *
cm_test_visible_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        return GTK_WIDGET (window);
    }
  return NULL;
}

gboolean
cm_test_dialog_shown (gpointer unused)
{
  return cm_test_visible_dialog () != NULL;
}

gboolean
cm_test_dialog_gone (gpointer unused)
{
  return cm_test_visible_dialog () == NULL;
}

void
cm_test_collect_labels (GtkWidget *widget,
                        GString   *out,
                        gboolean   visible_only)
{
  if (visible_only && !gtk_widget_get_visible (widget))
    return;
  if (GTK_IS_LABEL (widget))
    {
      g_string_append (out, gtk_label_get_label (GTK_LABEL (widget)));
      g_string_append_c (out, '\n');
    }
  if (gtk_widget_get_tooltip_text (widget) != NULL)
    {
      g_string_append (out, gtk_widget_get_tooltip_text (widget));
      g_string_append_c (out, '\n');
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    cm_test_collect_labels (child, out, visible_only);
}
