/* cm-chart-kit-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The short names the kit and the layout files measure with; kept out of
 * cm-chart-kit.h, which the public headers include.
 */

#pragma once

#include "cm-chart-kit.h"

#define MARGIN 12.0
#define GAP 6.0
#define MiB (1024.0 * 1024.0)
#define MAX_CURVE_POINTS 400
#define MAX_NINES 5              /* 99.999 % */
