/* cm-toast.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "cm-toast.h"

/* Shows @message as a toast over the pages that hold @widget; a page on
 * its own (in a test) logs it instead. */
void
cm_toast_show (GtkWidget  *widget,
               const char *message)
{
  GtkWidget *overlay;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (message != NULL);

  overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);
  if (overlay != NULL)
    adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), adw_toast_new (message));
  else
    g_message ("%s", message);
}
