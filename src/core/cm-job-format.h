/* cm-job-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-same.h"
#include "cm-job.h"

G_BEGIN_DECLS

/* The format's options (cm_job_get_options() of a "format" job):
 *   label  the volume label, NULL none
 *   size   the bytes to lay out: 0 the whole card, a fake card's real
 *          size, or CM_FORMAT_USE_REAL_SIZE
 *   then-bench  measure the card's speed after the erase (a quick raw
 *               benchmark, putting back what it writes), set beside its
 *               last benchmark in the history: what the erase gave back */
#define CM_TYPE_JOB_FORMAT_OPTIONS (cm_job_format_options_get_type ())

G_DECLARE_FINAL_TYPE (CmJobFormatOptions, cm_job_format_options, CM, JOB_FORMAT_OPTIONS, GObject)

/* The bytes to lay out: the card's real size, as its last capacity
 * check or verify in the history found it. */
#define CM_FORMAT_USE_REAL_SIZE G_MAXUINT64

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
