/* cm-format-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-kind-row.h"
#include "cm-result-part.h"

G_BEGIN_DECLS

#define CM_TYPE_FORMAT_ROW (cm_format_row_get_type ())

G_DECLARE_FINAL_TYPE (CmFormatRow, cm_format_row, CM, FORMAT_ROW, CmKindRow)

GtkWidget *cm_format_row_new         (CmCardItem  *item) G_GNUC_WARN_UNUSED_RESULT;
char      *cm_format_row_dup_why_not (CmFormatRow *self) G_GNUC_WARN_UNUSED_RESULT;
void       cm_format_row_fill_part (CmResultPart *part,
                                    CmResult     *result);

G_END_DECLS
