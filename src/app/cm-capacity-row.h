/* cm-capacity-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-chart-view.h"
#include "cm-kind-row.h"
#include "cm-result-part.h"

G_BEGIN_DECLS

#define CM_TYPE_CAPACITY_ROW (cm_capacity_row_get_type ())

G_DECLARE_FINAL_TYPE (CmCapacityRow, cm_capacity_row, CM, CAPACITY_ROW, CmKindRow)

void        cm_capacity_row_set_views   (CmCapacityRow  *self,
                                         GtkProgressBar *progress,
                                         CmChartView    *map);
void        cm_capacity_row_again       (CmCapacityRow  *self,
                                         CmResult       *result);
const char *cm_capacity_row_get_outcome (CmCapacityRow  *self,
                                         gboolean       *fake);
void       cm_capacity_row_fill_part (CmResultPart *part,
                                      CmResult     *result);

G_END_DECLS
