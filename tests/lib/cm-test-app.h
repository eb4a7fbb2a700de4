/* cm-test-app.h — what the app tests share: waiting on the main loop for
 * a condition, and saving a window as a PNG.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

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
