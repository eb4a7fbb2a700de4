/* cm-format-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_FORMAT_ROW (cm_format_row_get_type ())

G_DECLARE_FINAL_TYPE (CmFormatRow, cm_format_row, CM, FORMAT_ROW, AdwActionRow)

GtkWidget *cm_format_row_new         (CmCardItem  *item) G_GNUC_WARN_UNUSED_RESULT;
void       cm_format_row_set_item    (CmFormatRow *self,
                                      CmCardItem  *item);
void       cm_format_row_activate    (CmFormatRow *self);
void       cm_format_row_follow_job  (CmFormatRow *self,
                                      CmJob       *job);
gboolean   cm_format_row_get_busy    (CmFormatRow *self);
CmJob     *cm_format_row_get_job     (CmFormatRow *self);
CmResult  *cm_format_row_get_result  (CmFormatRow *self);
char      *cm_format_row_dup_why_not (CmFormatRow *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
