/* cm-job.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-bench.h"
#include "cm-device.h"
#include "cm-device-monitor.h"
#include "cm-history.h"
#include "cm-job-kinds.h"
#include "cm-result.h"
#include "cm-verify.h"

G_BEGIN_DECLS

#define CM_JOB_ERROR (cm_job_error_quark ())

typedef enum
{
  CM_JOB_ERROR_NO_TARGET,     /* an empty or missing target */
  CM_JOB_ERROR_UNKNOWN_KIND,
  CM_JOB_ERROR_NOTHING,       /* the job had nothing to check */
} CmJobError;

GQuark cm_job_error_quark (void);

typedef enum
{
  CM_JOB_STATE_WAITING,
  CM_JOB_STATE_RUNNING,
  CM_JOB_STATE_PAUSED,
  CM_JOB_STATE_DONE,
  CM_JOB_STATE_FAILED,
  CM_JOB_STATE_CANCELLED,
} CmJobState;

const char *cm_job_state_to_string (CmJobState state);

#define CM_TYPE_JOB (cm_job_get_type ())

G_DECLARE_FINAL_TYPE (CmJob, cm_job, CM, JOB, GObject)

CmJob        *cm_job_new_of_kind       (const CmJobKind     *kind,
                                        const char          *target) G_GNUC_WARN_UNUSED_RESULT;
CmJob        *cm_job_new_of_kind_for_device (const CmJobKind *kind,
                                        CmDevice            *device) G_GNUC_WARN_UNUSED_RESULT;
/* A kind named in text (a document, a test): looked up in the table. */
CmJob        *cm_job_new               (const char          *kind,
                                        const char          *target) G_GNUC_WARN_UNUSED_RESULT;
CmJob        *cm_job_new_for_device    (const char          *kind,
                                        CmDevice            *device) G_GNUC_WARN_UNUSED_RESULT;

/* Every kind. */
void          cm_job_set_name          (CmJob               *self,
                                        const char          *name);
void          cm_job_set_brand         (CmJob               *self,
                                        const char          *brand);
void          cm_job_set_history       (CmJob               *self,
                                        CmHistory           *history);
void          cm_job_set_monitor       (CmJob               *self,
                                        CmDeviceMonitor     *monitor);
void          cm_job_set_prefer_udisks (CmJob               *self,
                                        gboolean             prefer_udisks);
/* Leave to destroy the card's data (a kind that needs a whole card). */
void          cm_job_set_destroy_data  (CmJob               *self,
                                        gboolean             destroy_data);
gboolean      cm_job_get_destroy_data  (CmJob               *self);
/* The kind's own options (CmJobKind.options_type), or NULL. */
gpointer      cm_job_get_options       (CmJob               *self);
/* The classes printed on the card; NULL judges those it declares. */
void          cm_job_set_claims        (CmJob               *self,
                                        const char * const  *claims);

const char   *cm_job_get_kind          (CmJob               *self);
const char   *cm_job_get_title         (CmJob               *self);
const char   *cm_job_get_target        (CmJob               *self);
CmDevice     *cm_job_get_device        (CmJob               *self);
CmJobState    cm_job_get_state         (CmJob               *self);
gboolean      cm_job_is_active         (CmJob               *self);
double        cm_job_get_progress      (CmJob               *self);
double        cm_job_get_seconds_left  (CmJob               *self);
const char   *cm_job_get_phase         (CmJob               *self);
CmResult     *cm_job_get_result        (CmJob               *self);
const GError *cm_job_get_error         (CmJob               *self);
GFile        *cm_job_get_saved_file    (CmJob               *self);
const GError *cm_job_get_save_error    (CmJob               *self);
CmRunner     *cm_job_get_runner        (CmJob               *self);
CmVerify     *cm_job_get_verify        (CmJob               *self);
char         *cm_job_dup_progress_text (CmJob               *self) G_GNUC_WARN_UNUSED_RESULT;
char         *cm_job_dup_status_text   (CmJob               *self) G_GNUC_WARN_UNUSED_RESULT;
char         *cm_job_dup_busy_text     (CmJob               *self) G_GNUC_WARN_UNUSED_RESULT;
char         *cm_job_dup_stop_text     (CmJob               *self) G_GNUC_WARN_UNUSED_RESULT;
void          cm_job_watch             (CmJob               *self,
                                        GCallback            progress,
                                        GCallback            ended,
                                        gpointer             instance);

void          cm_job_run_async         (CmJob               *self,
                                        GCancellable        *cancellable,
                                        GAsyncReadyCallback  callback,
                                        gpointer             user_data);
CmResult     *cm_job_run_finish        (CmJob               *self,
                                        GAsyncResult        *result,
                                        GError             **error) G_GNUC_WARN_UNUSED_RESULT;
void          cm_job_cancel            (CmJob               *self);

G_END_DECLS
