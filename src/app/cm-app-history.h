/* cm-app-history.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-history.h"

G_BEGIN_DECLS

CmHistory *cm_app_history_dup (void) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
