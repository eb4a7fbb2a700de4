/* cm-health-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_HEALTH_ROW (cm_health_row_get_type ())

G_DECLARE_FINAL_TYPE (CmHealthRow, cm_health_row, CM, HEALTH_ROW, AdwActionRow)

GtkWidget *cm_health_row_new      (CmCardItem  *item) G_GNUC_WARN_UNUSED_RESULT;
CmJob     *cm_health_row_get_job  (CmHealthRow *self);
void       cm_health_row_ask      (CmHealthRow *self);

G_END_DECLS
