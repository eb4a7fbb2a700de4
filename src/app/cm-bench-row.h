/* cm-bench-row.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-item.h"

G_BEGIN_DECLS

#define CM_TYPE_BENCH_ROW (cm_bench_row_get_type ())

G_DECLARE_FINAL_TYPE (CmBenchRow, cm_bench_row, CM, BENCH_ROW, AdwActionRow)

GtkWidget *cm_bench_row_new        (CmCardItem *item) G_GNUC_WARN_UNUSED_RESULT;
CmResult  *cm_bench_row_get_result (CmBenchRow *self);
void       cm_bench_row_look_up    (CmBenchRow *self);

G_END_DECLS
