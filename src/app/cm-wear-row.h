/* cm-wear-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_WEAR_ROW (cm_wear_row_get_type ())

G_DECLARE_FINAL_TYPE (CmWearRow, cm_wear_row, CM, WEAR_ROW, AdwActionRow)

GtkWidget *cm_wear_row_new          (CmCardItem *item);
void       cm_wear_row_set_item     (CmWearRow  *self,
                                     CmCardItem *item);
void       cm_wear_row_activate     (CmWearRow  *self);
void       cm_wear_row_follow_job   (CmWearRow  *self,
                                     CmJob      *job);
gboolean   cm_wear_row_get_busy     (CmWearRow  *self);
CmJob     *cm_wear_row_get_job      (CmWearRow  *self);
CmResult  *cm_wear_row_get_result   (CmWearRow  *self);

G_END_DECLS
