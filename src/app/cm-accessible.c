/* cm-accessible.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What screen readers are told, where GTK 4.8 tells them wrong. A button
 * with a mnemonic ("_Start Test") gets its raw label, underscore and all,
 * as its accessible label, and its text again through the label that
 * names it: Orca reads "underscore Start Test Start Test". Without the
 * raw label, the button is named by what labels it: its text, or the
 * title of the row it is the activatable widget of. (GTK 4.10 no longer
 * does this; tests/app-a11y checks the names.)
 */

#include "config.h"

#include "cm-accessible.h"

#define FIXED_KEY "cm-accessible-fixed"

static void
reset_label (GtkWidget *button)
{
  if (gtk_button_get_use_underline (GTK_BUTTON (button)))
    gtk_accessible_reset_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL);
}

/* GTK sets the label again each time the button's label changes. */
static void
label_changed_cb (GtkWidget  *button,
                  GParamSpec *pspec)
{
  reset_label (button);
}

static void
fix_button (GtkWidget *button)
{
  if (g_object_get_data (G_OBJECT (button), FIXED_KEY) == NULL)
    {
      g_object_set_data (G_OBJECT (button), FIXED_KEY, GINT_TO_POINTER (TRUE));
      g_signal_connect (button, "notify::label", G_CALLBACK (label_changed_cb), NULL);
      g_signal_connect (button, "notify::use-underline", G_CALLBACK (label_changed_cb), NULL);
    }
  reset_label (button);
}

/* Every button with a mnemonic under @widget (itself included) is named
 * by its text alone, now and when its label changes. */
void
cm_accessible_fix_mnemonics (GtkWidget *widget)
{
  g_return_if_fail (GTK_IS_WIDGET (widget));

  if (GTK_IS_BUTTON (widget))
    fix_button (widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    cm_accessible_fix_mnemonics (child);
}
