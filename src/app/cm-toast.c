/* cm-toast.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <adwaita.h>

#include "cm-toast.h"

/* Toasts show over the bottom of the window, where the pages keep their
 * main buttons (Start Test and the method warning, Cancel): while one
 * shows, the overlay's child leaves the room it takes (.toast-room in
 * style.css), so that it covers nothing. */
#define SHOWING_KEY "cm-toasts-showing"

static void
toast_dismissed_cb (GtkWidget *child)
{
  guint showing = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), SHOWING_KEY));

  g_assert (showing > 0);
  g_object_set_data (G_OBJECT (child), SHOWING_KEY, GUINT_TO_POINTER (showing - 1));
  if (showing == 1)
    gtk_widget_remove_css_class (child, "toast-room");
}

static void
make_room (AdwToastOverlay *overlay,
           AdwToast        *toast)
{
  GtkWidget *child = adw_toast_overlay_get_child (overlay);
  guint showing;

  if (child == NULL)
    return;
  showing = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), SHOWING_KEY));
  g_object_set_data (G_OBJECT (child), SHOWING_KEY, GUINT_TO_POINTER (showing + 1));
  gtk_widget_add_css_class (child, "toast-room");
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), child, G_CONNECT_SWAPPED);
}

/* Shows @message as a toast over the pages that hold @widget; a page on
 * its own (in a test) logs it instead. */
void
cm_toast_show (GtkWidget  *widget,
               const char *message)
{
  GtkWidget *overlay;
  AdwToast *toast;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (message != NULL);

  overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);
  if (overlay == NULL)
    {
      g_message ("%s", message);
      return;
    }
  toast = adw_toast_new (message);
  make_room (ADW_TOAST_OVERLAY (overlay), toast);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}
