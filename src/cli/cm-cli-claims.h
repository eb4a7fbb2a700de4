/* cm-cli-claims.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli's side of the verdicts: the table.
 */

#pragma once

#include "cm-result.h"

G_BEGIN_DECLS

void cm_cli_print_claims (CmResult *result);

G_END_DECLS
