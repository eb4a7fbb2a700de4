/* cm-app-history.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-item.h"
#include "cm-history.h"

G_BEGIN_DECLS

CmHistory *cm_app_history_dup (void) G_GNUC_WARN_UNUSED_RESULT;
void       cm_app_history_find_last_async  (CmCardItem          *item,
                                            const char          *kind,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
CmResult  *cm_app_history_find_last_finish (GAsyncResult        *result,
                                            GError             **error) G_GNUC_WARN_UNUSED_RESULT;
char      *cm_app_history_dup_earlier      (CmResult            *result,
                                            const char          *answer) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
