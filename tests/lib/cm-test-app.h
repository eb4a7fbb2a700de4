/* cm-test-app.h — what the app tests share: waiting on the main loop for
 * a condition, and saving a window as a PNG.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-application.h"
#include "cm-history-page.h"
#include "cm-window.h"

G_BEGIN_DECLS

typedef gboolean (*CmTestCondition) (gpointer data);

gboolean cm_test_wait_for (CmTestCondition  condition,
                           gpointer         data,
                           double           seconds);
void     cm_test_settle   (double           seconds);
gboolean cm_test_wait_drawn (GtkWidget     *widget,
                             double         seconds);
void     cm_test_save_png (GtkWidget       *widget,
                           const char      *path);
void     cm_test_destroy_window (GtkWindow *window);
void     cm_test_scroll_to      (GtkWidget *widget);

/* GTK for a test program, with libadwaita and without animations: pages
 * switch at once, so that what a test sees is what it asserts. */
void      cm_test_app_init            (int            *argc,
                                       char         ***argv);
/* The app tests' window: a CmApplication of the test's own (registered,
 * not unique) in @app, and a window of it at 800×480 on screen. */
CmWindow *cm_test_window_new          (CmApplication **app);
/* Waits until @window shows its page @name, laid out; _idle also until
 * nothing runs (a run's last page is up and its job over). */
gboolean  cm_test_wait_page           (CmWindow       *window,
                                       const char     *name,
                                       double          seconds);
gboolean  cm_test_wait_page_idle      (CmWindow       *window,
                                       const char     *name,
                                       double          seconds);
/* Waits until @window's run page charts @n_points points or more. */
gboolean  cm_test_wait_run_points     (CmWindow       *window,
                                       guint           n_points,
                                       double          seconds);
/* Waits until @page has read the history. */
gboolean  cm_test_wait_history_loaded (CmHistoryPage  *page,
                                       double          seconds);
/* The first mapped widget under @root (itself included) @match takes. */
GtkWidget *cm_test_find_mapped        (GtkWidget      *root,
                                       gboolean      (*match) (GtkWidget *widget));

/* The first action row titled @title under @widget (itself included),
 * or NULL. */
AdwActionRow *cm_test_find_row_titled (GtkWidget  *widget,
                                       const char *title);

/* The first widget under @widget (itself included) of @type. */
GtkWidget *cm_test_find_type         (GtkWidget  *widget,
                                      GType       type);
/* The message dialog on screen, if any; conditions for cm_test_wait_for()
 * that one is shown, or none is. */
GtkWidget *cm_test_visible_dialog    (void);
gboolean   cm_test_dialog_shown      (gpointer    unused);
gboolean   cm_test_dialog_gone       (gpointer    unused);

/* The first widget under @widget (itself included) with the CSS class. */
GtkWidget *cm_test_find_by_css_class (GtkWidget  *widget,
                                      const char *css);
/* Every label's text and tooltip under @widget, one a line; with
 * @visible_only, only what a person can see. */
void       cm_test_collect_labels    (GtkWidget  *widget,
                                      GString    *out,
                                      gboolean    visible_only);

/* A data folder of the test program's own (XDG_DATA_HOME), made before
 * GLib first reads it, so no history, journal or verify state of an
 * earlier run is found; cm_test_data_home_empty() empties it between
 * tests (a verify state of one test's 64 MiB loop0 would be another
 * test's card's), cm_test_data_home_remove() removes it. */
const char *cm_test_data_home_make   (void);
void        cm_test_data_home_empty  (void);
void        cm_test_data_home_remove (void);

void     cm_test_save_screenshot  (GtkWidget  *window,
                                   const char *name,
                                   int         width,
                                   int         height,
                                   gboolean    dark);
void     cm_test_save_screenshots (GtkWidget  *window,
                                   const char *name);

G_END_DECLS
