/* cm-outcome-badge.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-outcome.h"

G_BEGIN_DECLS

void       cm_outcome_badge_update (GtkWidget       *badge,
                                    const CmOutcome *outcome);

G_END_DECLS
