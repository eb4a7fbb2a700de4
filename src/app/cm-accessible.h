/* cm-accessible.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void cm_accessible_fix_mnemonics (GtkWidget *widget);

G_END_DECLS
