/* cm-app-history.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-item.h"
#include "cm-history.h"

G_BEGIN_DECLS

CmHistory *cm_app_history_dup (void) G_GNUC_WARN_UNUSED_RESULT;
/* Called with the result found, or NULL. */
typedef void (*CmAppHistoryFoundFunc) (gpointer  owner,
                                       CmResult *last);

void       cm_app_history_find_last        (CmCardItem            *item,
                                            const char            *kind,
                                            GCancellable          *cancellable,
                                            CmAppHistoryFoundFunc  found,
                                            gpointer               owner);
guint      cm_app_history_get_finding      (void);
char      *cm_app_history_dup_earlier      (CmResult            *result,
                                            const char          *answer) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
