/* cm-history.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-result.h"
#include "cm-store.h"

G_BEGIN_DECLS

#define CM_TYPE_HISTORY (cm_history_get_type ())

/* The largest file the history reads. A result holds at most a few
 * thousand latency points per test: well under a megabyte. */
#define CM_HISTORY_MAX_FILE_BYTES (64 * 1024 * 1024)

G_DECLARE_FINAL_TYPE (CmHistory, cm_history, CM, HISTORY, GObject)

CmHistory  *cm_history_new           (GFile       *folder) G_GNUC_WARN_UNUSED_RESULT;
CmHistory  *cm_history_new_default   (void) G_GNUC_WARN_UNUSED_RESULT;
GFile      *cm_history_get_folder    (CmHistory   *self);
GFile      *cm_history_save          (CmHistory   *self,
                                      CmResult    *result,
                                      GError     **error) G_GNUC_WARN_UNUSED_RESULT;
GPtrArray  *cm_history_load          (CmHistory   *self,
                                      GPtrArray  **problems,
                                      GError     **error) G_GNUC_WARN_UNUSED_RESULT;
gboolean    cm_history_delete        (CmHistory   *self,
                                      CmResult    *result,
                                      GError     **error);
gboolean   cm_history_delete_file    (CmHistory   *self,
                                      GFile       *file,
                                      GError     **error);
GFile      *cm_history_get_file      (CmResult    *result);
gboolean    cm_history_set_store     (CmHistory   *self,
                                      const char  *url,
                                      GError     **error);
CmStore    *cm_history_get_store     (CmHistory   *self);
const GError *cm_history_get_store_error (CmHistory *self);
guint       cm_history_send_queued   (CmHistory   *self);
void        cm_history_set_send_in_background (CmHistory *self,
                                               gboolean   background);
void        cm_history_send_queued_in_background (CmHistory *self);
guint       cm_history_count_queued  (CmHistory   *self);
CmStoreSeen *cm_history_dup_seen     (CmHistory   *self,
                                      CmResult    *result,
                                      GError     **error) G_GNUC_WARN_UNUSED_RESULT;
void        cm_history_dup_seen_async  (CmHistory           *self,
                                        CmResult            *result,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
CmStoreSeen *cm_history_dup_seen_for_card (CmHistory   *self,
                                          CmCardInfo  *card,
                                          const char  *brand,
                                          GError     **error) G_GNUC_WARN_UNUSED_RESULT;
void        cm_history_dup_seen_for_card_async (CmHistory           *self,
                                                CmCardInfo          *card,
                                                const char          *brand,
                                                GCancellable        *cancellable,
                                                GAsyncReadyCallback  callback,
                                                gpointer             user_data);
CmStoreSeen *cm_history_dup_seen_finish (CmHistory          *self,
                                        GAsyncResult        *result,
                                        GError             **error) G_GNUC_WARN_UNUSED_RESULT;
CmResult   *cm_history_find_last     (CmHistory            *self,
                                      const char           *kind,
                                      const char           *serial,
                                      const char           *device,
                                      guint64               device_bytes,
                                      GError              **error) G_GNUC_WARN_UNUSED_RESULT;
void        cm_history_find_last_async (CmHistory          *self,
                                        const char         *kind,
                                        const char         *serial,
                                        const char         *device,
                                        guint64             device_bytes,
                                        GCancellable       *cancellable,
                                        GAsyncReadyCallback callback,
                                        gpointer            user_data);
CmResult   *cm_history_find_last_finish (CmHistory         *self,
                                         GAsyncResult      *result,
                                         GError           **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
