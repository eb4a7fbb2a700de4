/* cm-job-list.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-card-item.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_JOB_LIST (cm_job_list_get_type ())

G_DECLARE_FINAL_TYPE (CmJobList, cm_job_list, CM, JOB_LIST, GObject)

CmJobList  *cm_job_list_get_default    (void);
GListModel *cm_job_list_get_model      (CmJobList  *self);
void        cm_job_list_start          (CmJobList  *self,
                                        CmJob      *job);
CmJob      *cm_job_list_lookup         (CmJobList  *self,
                                        CmCardItem *item);
gboolean    cm_job_list_get_busy       (CmJobList  *self);
void        cm_job_list_cancel_all     (CmJobList  *self);
gboolean    cm_job_is_for_item         (CmJob      *job,
                                        CmCardItem *item);
char       *cm_job_list_dup_outside_text (CmCardItem *item,
                                          double     *fraction) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
