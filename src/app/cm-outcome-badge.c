/* cm-outcome-badge.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A document's outcome as a badge at a row's end: its kind's word
 * ("Genuine", "Data lost", "Stopped") in its tone's colour. History and
 * the card list show the same badge for the same outcome.
 */

#include "config.h"

#include "cm-outcome-badge.h"

static const char * const tone_classes[] = {
  [CM_STATUS_MEETS] = "status-meets",
  [CM_STATUS_MARGINAL] = "status-marginal",
  [CM_STATUS_BELOW] = "status-below",
  [CM_STATUS_NOT_JUDGED] = "status-not-judged",
};

void
cm_outcome_badge_update (GtkWidget       *badge,
                         const CmOutcome *outcome)
{
  g_return_if_fail (GTK_IS_LABEL (badge));
  g_return_if_fail (outcome != NULL);

  for (guint i = 0; i < G_N_ELEMENTS (tone_classes); i++)
    gtk_widget_remove_css_class (badge, tone_classes[i]);
  gtk_label_set_label (GTK_LABEL (badge), outcome->badge);
  gtk_widget_add_css_class (badge, tone_classes[MIN (outcome->tone, CM_STATUS_NOT_JUDGED)]);
}
