/* cm-verify-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-kind-row.h"
#include "cm-result-part.h"

G_BEGIN_DECLS

#define CM_TYPE_VERIFY_ROW (cm_verify_row_get_type ())

G_DECLARE_FINAL_TYPE (CmVerifyRow, cm_verify_row, CM, VERIFY_ROW, CmKindRow)

GtkWidget *cm_verify_row_new         (CmCardItem  *item) G_GNUC_WARN_UNUSED_RESULT;
double     cm_verify_row_get_stopped (CmVerifyRow *self);
CmJob     *cm_verify_row_new_job     (CmCardItem  *item,
                                      gboolean     carry_on) G_GNUC_WARN_UNUSED_RESULT;
void       cm_verify_row_fill_part (CmResultPart *part,
                                    CmResult     *result);

G_END_DECLS
