/* cm-verify-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"
#include "cm-job.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_TYPE_VERIFY_ROW (cm_verify_row_get_type ())

G_DECLARE_FINAL_TYPE (CmVerifyRow, cm_verify_row, CM, VERIFY_ROW, AdwActionRow)

GtkWidget *cm_verify_row_new        (CmCardItem  *item);
void       cm_verify_row_set_item   (CmVerifyRow *self,
                                     CmCardItem  *item);
gboolean   cm_verify_row_get_busy   (CmVerifyRow *self);
void       cm_verify_row_activate   (CmVerifyRow *self);
CmResult  *cm_verify_row_get_result (CmVerifyRow *self);
double     cm_verify_row_get_stopped (CmVerifyRow *self);
CmJob     *cm_verify_row_get_job    (CmVerifyRow *self);
void       cm_verify_row_follow_job (CmVerifyRow *self,
                                     CmJob       *job);

G_END_DECLS
