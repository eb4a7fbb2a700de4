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

/* What one turn of a streamed load brings. */
typedef struct
{
  GPtrArray *items;       /* CmHistoryItem, newest first, after the batches before */
  GPtrArray *problems;    /* char *: damaged documents, named */
  guint      n_read;      /* entries read so far, damaged ones too */
  guint      n_total;     /* entries in the index; 0 while it is being built */
  guint      n_documents; /* documents in the folder, told before a first build */
} CmHistoryBatch;

typedef void (*CmHistoryBatchFunc) (const CmHistoryBatch *batch,
                                    gpointer              user_data);

const CmHistoryEntry *cm_history_item_get_entry   (CmHistoryItem *self);
gboolean              cm_history_item_get_picked  (CmHistoryItem *self);
void                  cm_history_item_set_picked  (CmHistoryItem *self,
                                                   gboolean       picked);
char                 *cm_history_item_dup_facts   (CmHistoryItem *self) G_GNUC_WARN_UNUSED_RESULT;
CmResult             *cm_history_item_load_result (CmHistoryItem *self,
                                                   GError       **error) G_GNUC_WARN_UNUSED_RESULT;
char                 *cm_history_item_dup_folded  (const char    *text) G_GNUC_WARN_UNUSED_RESULT;
gboolean              cm_history_item_matches     (CmHistoryItem      *self,
                                                   const char * const *words);

void        cm_history_items_stream_async  (CmHistory           *history,
                                            CmHistoryBatchFunc   func,
                                            gpointer             func_data,
                                            GCancellable        *cancellable,
                                            GAsyncReadyCallback  callback,
                                            gpointer             user_data);
gboolean    cm_history_items_stream_finish (CmHistory           *history,
                                            GAsyncResult        *result,
                                            GError             **error);

void        cm_history_items_load_async  (CmHistory           *history,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
GListModel *cm_history_items_load_finish (CmHistory           *history,
                                          GAsyncResult        *result,
                                          GPtrArray          **problems,
                                          GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
