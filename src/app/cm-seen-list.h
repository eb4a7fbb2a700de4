/* cm-seen-list.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "cm-card-info.h"
#include "cm-result.h"

G_BEGIN_DECLS

#define CM_TYPE_SEEN_LIST (cm_seen_list_get_type ())

G_DECLARE_FINAL_TYPE (CmSeenList, cm_seen_list, CM, SEEN_LIST, AdwBin)

void       cm_seen_list_look_up_result (CmSeenList *self,
                                        CmResult   *result);
void       cm_seen_list_look_up_card   (CmSeenList *self,
                                        CmCardInfo *card,
                                        const char *brand);

G_END_DECLS
