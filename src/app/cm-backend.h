/* cm-backend.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-bench.h"
#include "cm-job.h"
#include "cm-card-item.h"
#include "cm-plan.h"
#include "cm-result.h"
#include "cm-target.h"

G_BEGIN_DECLS

GListModel *cm_backend_dup_devices      (gboolean               show_loop,
                                         GError              **error) G_GNUC_WARN_UNUSED_RESULT;
void        cm_backend_set_show_loop    (GListModel           *devices,
                                         gboolean              show_loop);
CmJob      *cm_backend_new_job          (const CmJobKind      *kind,
                                         GListModel           *devices,
                                         CmCardItem           *item,
                                         CmMethod              method) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
