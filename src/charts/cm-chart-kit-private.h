/* cm-chart-kit-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the kit's files and the layout files share but the public headers,
 * which include cm-chart-kit.h, should not: short names to measure with
 * (tests/test-charts.c has its own MiB) and the layout's allocation.
 */

#pragma once

#include "cm-chart-kit.h"

#define MARGIN 12.0
#define GAP 6.0
#define MiB (1024.0 * 1024.0)
#define MAX_CURVE_POINTS 400
#define MAX_NINES 5              /* 99.999 % */

CmChartLayout *cm_chart_layout_alloc (CmChartKind kind,
                                      double      width,
                                      double      height) G_GNUC_WARN_UNUSED_RESULT;
