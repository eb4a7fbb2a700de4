/* cm-power-part.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-result-part.h"

G_BEGIN_DECLS

void cm_power_part_fill (CmResultPart *part,
                         CmResult     *result);

G_END_DECLS
