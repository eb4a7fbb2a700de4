/* cm-job-open.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-device.h"
#include "cm-target.h"

G_BEGIN_DECLS

void      cm_job_open_target_async  (CmDevice            *device,
                                     const char          *path,
                                     gboolean             allow_write,
                                     gboolean             prefer_udisks,
                                     GCancellable        *cancellable,
                                     GAsyncReadyCallback  callback,
                                     gpointer             user_data);
CmTarget *cm_job_open_target_finish (GAsyncResult        *result,
                                     GError             **error) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
