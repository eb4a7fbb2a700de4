/* cm-job-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-same.h"
#include "cm-job.h"

G_BEGIN_DECLS

/* The bytes to lay out: the card's real size, as its last capacity
 * check or verify in the history found it. */
#define CM_FORMAT_USE_REAL_SIZE G_MAXUINT64

void     cm_job_set_format_options (CmJob      *job,
                                    const char *label,
                                    guint64     use_bytes);
void     cm_job_set_format_bench   (CmJob      *job,
                                    gboolean    bench);
GPtrArray *cm_format_dup_speed_lines (CmResult *result) G_GNUC_WARN_UNUSED_RESULT;
guint64  cm_format_find_real_size  (CmHistory   *history,
                                    CmCardInfo  *card,
                                    const char  *device,
                                    guint64      device_bytes,
                                    CmResult   **found,
                                    CmCardProof *proof,
                                    gboolean    *found_whole,
                                    GError     **error);
void     cm_format_find_real_size_async  (CmHistory           *history,
                                          CmCardInfo          *card,
                                          const char          *device,
                                          guint64              device_bytes,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
guint64  cm_format_find_real_size_finish (CmHistory           *history,
                                          GAsyncResult        *result,
                                          CmResult           **found,
                                          GError             **error);
guint64  cm_format_get_said_real_size    (CmResult            *found);

G_END_DECLS
