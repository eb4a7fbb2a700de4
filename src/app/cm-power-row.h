/* cm-power-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-kind-row.h"

G_BEGIN_DECLS

#define CM_TYPE_POWER_ROW (cm_power_row_get_type ())

G_DECLARE_FINAL_TYPE (CmPowerRow, cm_power_row, CM, POWER_ROW, CmKindRow)

GtkWidget *cm_power_row_new           (CmCardItem *item) G_GNUC_WARN_UNUSED_RESULT;
void       cm_power_row_set_test_area (guint64     area);

G_END_DECLS
