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
 *
 * A button greyed out because a row or box around it is insensitive is
 * drawn insensitive, but GTK 4.8 reports only the button's own
 * sensitivity: Orca called a greyed Check Capacity… available. The
 * buttons here report what is drawn. Dialogs (AdwMessageDialog's
 * responses are mnemonic buttons) get the same, when they are shown.
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

/* What is drawn: insensitive through the button itself or any parent. */
static void
sync_disabled (GtkWidget *button)
{
  gtk_accessible_update_state (GTK_ACCESSIBLE (button),
                               GTK_ACCESSIBLE_STATE_DISABLED, !gtk_widget_is_sensitive (button),
                               -1);
}

static void
state_flags_changed_cb (GtkWidget     *button,
                        GtkStateFlags  previous)
{
  if ((previous ^ gtk_widget_get_state_flags (button)) & GTK_STATE_FLAG_INSENSITIVE)
    sync_disabled (button);
}

/* gtk_widget_set_sensitive() sets the state from the button's own
 * sensitivity, even while a parent keeps it greyed out. */
static void
sensitive_changed_cb (GtkWidget  *button,
                      GParamSpec *pspec)
{
  sync_disabled (button);
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
      g_signal_connect (button, "state-flags-changed", G_CALLBACK (state_flags_changed_cb), NULL);
      g_signal_connect (button, "notify::sensitive", G_CALLBACK (sensitive_changed_cb), NULL);
    }
  reset_label (button);
  sync_disabled (button);
}

/* Every button under @widget (itself included) is named by its text
 * alone, without its mnemonic, and reported disabled when it is drawn
 * greyed out, now and when its label or state changes. */
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

static void
window_mapped_cb (GtkWidget *window)
{
  cm_accessible_fix_mnemonics (window);
}

static void
toplevels_changed_cb (GListModel *toplevels,
                      guint       position,
                      guint       removed,
                      guint       added)
{
  for (guint i = position; i < position + added; i++)
    {
      g_autoptr(GtkWidget) window = g_list_model_get_item (toplevels, i);

      if (g_object_get_data (G_OBJECT (window), FIXED_KEY) != NULL)
        continue;
      g_object_set_data (G_OBJECT (window), FIXED_KEY, GINT_TO_POINTER (TRUE));
      /* A message dialog's buttons are added after it is made, before
       * it is shown. */
      g_signal_connect (window, "map", G_CALLBACK (window_mapped_cb), NULL);
    }
}

/* Every window the process opens, dialogs included, gets
 * cm_accessible_fix_mnemonics() each time it is shown. */
void
cm_accessible_watch_windows (void)
{
  static gboolean watching;
  GListModel *toplevels;

  if (watching)
    return;
  watching = TRUE;
  toplevels = gtk_window_get_toplevels ();
  g_signal_connect (toplevels, "items-changed", G_CALLBACK (toplevels_changed_cb), NULL);
  toplevels_changed_cb (toplevels, 0, 0, g_list_model_get_n_items (toplevels));
}

/* A row of buttons that wraps: the flow box holds each button in a
 * child of its own, which is no Tab stop of its own (the button is) and
 * takes no room, spacing included, while its button is hidden. */
void
cm_accessible_flow_buttons (GtkFlowBox *box)
{
  g_return_if_fail (GTK_IS_FLOW_BOX (box));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (box));
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *button = gtk_flow_box_child_get_child (GTK_FLOW_BOX_CHILD (child));

      gtk_widget_set_focusable (child, FALSE);
      g_object_bind_property (button, "visible", child, "visible", G_BINDING_SYNC_CREATE);
    }
}
