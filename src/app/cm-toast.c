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
 * style.css, room for one line; a margin below for the lines a longer
 * message wraps onto), so that it covers nothing. */
#define SHOWING_KEY "cm-toasts-showing"
#define EXTRA_KEY "cm-toasts-extra-height"

/* A toast's own title is one line, cut with "…" past its width: the
 * message wraps instead, at most this wide. */
#define MESSAGE_WIDTH_CHARS 60

/* Long messages stay long enough to read, at three words a second;
 * AdwToast's own five seconds at least. */
#define WORDS_PER_SECOND 3
#define MIN_SECONDS 5
#define MAX_SECONDS 20

static void
toast_dismissed_cb (GtkWidget *child)
{
  guint showing = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), SHOWING_KEY));

  g_assert (showing > 0);
  g_object_set_data (G_OBJECT (child), SHOWING_KEY, GUINT_TO_POINTER (showing - 1));
  if (showing == 1)
    {
      gtk_widget_remove_css_class (child, "toast-room");
      g_object_set_data (G_OBJECT (child), EXTRA_KEY, NULL);
      gtk_widget_set_margin_bottom (child, 0);
    }
}

/* How much taller than one line @label is once it wraps. */
static int
measure_extra_height (GtkWidget *label)
{
  int width, height, line_height;

  gtk_widget_measure (label, GTK_ORIENTATION_HORIZONTAL, -1, NULL, &width, NULL, NULL);
  gtk_widget_measure (label, GTK_ORIENTATION_VERTICAL, width, NULL, &height, NULL, NULL);
  pango_layout_line_get_height (pango_layout_get_line_readonly (gtk_label_get_layout (GTK_LABEL (label)), 0),
                                &line_height);
  return MAX (0, height - PANGO_PIXELS_CEIL (line_height));
}

static void
make_room (AdwToastOverlay *overlay,
           AdwToast        *toast,
           GtkWidget       *label)
{
  GtkWidget *child = adw_toast_overlay_get_child (overlay);
  guint showing;
  int extra;

  if (child == NULL)
    return;
  showing = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (child), SHOWING_KEY));
  g_object_set_data (G_OBJECT (child), SHOWING_KEY, GUINT_TO_POINTER (showing + 1));
  gtk_widget_add_css_class (child, "toast-room");
  /* The overlay shows its toasts one after the other: room for the
   * tallest of those waiting. */
  extra = MAX (measure_extra_height (label),
               GPOINTER_TO_INT (g_object_get_data (G_OBJECT (child), EXTRA_KEY)));
  g_object_set_data (G_OBJECT (child), EXTRA_KEY, GINT_TO_POINTER (extra));
  gtk_widget_set_margin_bottom (child, extra);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), child, G_CONNECT_SWAPPED);
}

/* The message, whole: wrapped over as many lines as it needs. */
static GtkWidget *
message_label_new (const char *message)
{
  GtkWidget *label = gtk_label_new (message);

  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), MESSAGE_WIDTH_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "toast-message");
  return label;
}

static guint
seconds_to_read (const char *message)
{
  g_auto(GStrv) words = g_strsplit_set (message, " \n", -1);
  guint n = 0;

  for (guint i = 0; words[i] != NULL; i++)
    n += words[i][0] != '\0';
  return CLAMP ((n + WORDS_PER_SECOND - 1) / WORDS_PER_SECOND, MIN_SECONDS, MAX_SECONDS);
}

/* Shows @message as a toast over the pages that hold @widget; a page on
 * its own (in a test) logs it instead. */
void
cm_toast_show (GtkWidget  *widget,
               const char *message)
{
  GtkWidget *overlay;
  GtkWidget *label;
  AdwToast *toast;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (message != NULL);

  overlay = gtk_widget_get_ancestor (widget, ADW_TYPE_TOAST_OVERLAY);
  if (overlay == NULL)
    {
      g_message ("%s", message);
      return;
    }
  label = message_label_new (message);
  toast = adw_toast_new (message);
  adw_toast_set_custom_title (toast, label);
  adw_toast_set_timeout (toast, seconds_to_read (message));
  make_room (ADW_TOAST_OVERLAY (overlay), toast, label);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (overlay), toast);
}
