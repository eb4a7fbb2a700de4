/* cm-toast.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void cm_toast_show (GtkWidget  *widget,
                    const char *message);

G_END_DECLS
