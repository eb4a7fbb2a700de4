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

void     cm_test_save_screenshot  (GtkWidget  *window,
                                   const char *name,
                                   int         width,
                                   int         height,
                                   gboolean    dark);
void     cm_test_save_screenshots (GtkWidget  *window,
                                   const char *name);

G_END_DECLS
