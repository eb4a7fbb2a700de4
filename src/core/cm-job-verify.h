/* cm-job-verify.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The verify's options (cm_job_get_options() of a "verify" job):
 *   resume     carry on from the saved state of a stopped run
 *   keep       leave the .h2w files at the end
 *   read-only  check .h2w files already there
 *   carry-on   resume when a stopped run is saved, else start
 * The leave to overwrite a whole device is the job's
 * (cm_job_set_destroy_data()).
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CM_TYPE_JOB_VERIFY_OPTIONS (cm_job_verify_options_get_type ())

G_DECLARE_FINAL_TYPE (CmJobVerifyOptions, cm_job_verify_options, CM, JOB_VERIFY_OPTIONS, GObject)

G_END_DECLS
