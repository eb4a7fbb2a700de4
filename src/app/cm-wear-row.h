/* cm-wear-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-kind-row.h"
#include "cm-result-part.h"

G_BEGIN_DECLS

#define CM_TYPE_WEAR_ROW (cm_wear_row_get_type ())

G_DECLARE_FINAL_TYPE (CmWearRow, cm_wear_row, CM, WEAR_ROW, CmKindRow)

GtkWidget *cm_wear_row_new     (CmCardItem *item) G_GNUC_WARN_UNUSED_RESULT;
CmJob     *cm_wear_row_new_job (CmCardItem *item,
                                gboolean    carry_on,
                                guint64     maker_bytes) G_GNUC_WARN_UNUSED_RESULT;
void       cm_wear_row_fill_part (CmResultPart *part,
                                  CmResult     *result);

G_END_DECLS
