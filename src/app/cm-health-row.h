/* cm-health-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-kind-row.h"

G_BEGIN_DECLS

#define CM_TYPE_HEALTH_ROW (cm_health_row_get_type ())

G_DECLARE_FINAL_TYPE (CmHealthRow, cm_health_row, CM, HEALTH_ROW, CmKindRow)

GtkWidget *cm_health_row_new (CmCardItem *item) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
