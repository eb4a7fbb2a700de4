/* cm-accessible.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void cm_accessible_fix_mnemonics (GtkWidget *widget);
void cm_accessible_watch_windows (void);
void cm_accessible_flow_buttons  (GtkFlowBox *box);

G_END_DECLS
