/* cm-cli-claims.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * cardmark-cli's side of the verdicts: --claim, --brand and the table.
 */

#pragma once

#include "cm-result.h"

G_BEGIN_DECLS

int  cm_cli_apply_claims (CmResult    *result,
                          const char  *claims_csv,
                          const char  *brand,
                          GError     **error);
void cm_cli_print_claims (CmResult    *result);

G_END_DECLS
