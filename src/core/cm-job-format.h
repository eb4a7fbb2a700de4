/* cm-job-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-job.h"

G_BEGIN_DECLS

void cm_job_set_format_options (CmJob      *job,
                                const char *label,
                                guint64     use_bytes);

G_END_DECLS
