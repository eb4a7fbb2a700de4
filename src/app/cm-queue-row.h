/* cm-queue-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-kind-row.h"
#include "cm-result-part.h"

G_BEGIN_DECLS

#define CM_TYPE_QUEUE_ROW (cm_queue_row_get_type ())

G_DECLARE_FINAL_TYPE (CmQueueRow, cm_queue_row, CM, QUEUE_ROW, CmKindRow)

gboolean   cm_queue_row_wanted (CmCardItem *item);
GtkWidget *cm_queue_row_new    (CmCardItem *item) G_GNUC_WARN_UNUSED_RESULT;
void       cm_queue_row_fill_part (CmResultPart *part,
                                   CmResult     *result);

G_END_DECLS
