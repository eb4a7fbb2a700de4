/* cm-job-queue.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-result.h"

G_BEGIN_DECLS

GPtrArray *cm_job_queue_dup_lines (CmResult *result) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
