/* cm-history-item.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

#include "cm-history.h"
#include "cm-history-index.h"

G_BEGIN_DECLS

#define CM_TYPE_HISTORY_ITEM (cm_history_item_get_type ())

G_DECLARE_FINAL_TYPE (CmHistoryItem, cm_history_item, CM, HISTORY_ITEM, GObject)

const CmHistoryEntry *cm_history_item_get_entry   (CmHistoryItem *self);
gboolean              cm_history_item_get_picked  (CmHistoryItem *self);
void                  cm_history_item_set_picked  (CmHistoryItem *self,
                                                   gboolean       picked);
char                 *cm_history_item_dup_facts   (CmHistoryItem *self) G_GNUC_WARN_UNUSED_RESULT;
CmResult             *cm_history_item_load_result (CmHistoryItem *self,
                                                   GError       **error) G_GNUC_WARN_UNUSED_RESULT;

void        cm_history_items_load_async  (CmHistory           *history,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
GListModel *cm_history_items_load_finish (CmHistory           *history,
                                          GAsyncResult        *result,
                                          GPtrArray          **problems,
                                          GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
