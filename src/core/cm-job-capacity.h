/* cm-job-capacity.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity check's options (cm_job_get_options() of a "capacity" job):
 *   cache-bytes  the controller caches to rule out, in bytes (at least 1;
 *                CM_CAPACITY_DEFAULT_CACHE by default)
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CM_TYPE_JOB_CAPACITY_OPTIONS (cm_job_capacity_options_get_type ())

G_DECLARE_FINAL_TYPE (CmJobCapacityOptions, cm_job_capacity_options, CM, JOB_CAPACITY_OPTIONS, GObject)

G_END_DECLS
