/* cm-job-bench.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The benchmark kind's options (cm_job_get_options() of a "bench" job):
 *   method           a CmMethod, for a card from the device list
 *   raw              a path's whole device, even when mounted
 *   allow-write      …writing and putting back its bytes
 *   profile          a CmProfile
 *   only             the tests to run (names in the test table), NULL all
 *   sustained-limit  bytes a sustained write may write, 0 the plan's own
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

#define CM_TYPE_JOB_BENCH_OPTIONS (cm_job_bench_options_get_type ())

G_DECLARE_FINAL_TYPE (CmJobBenchOptions, cm_job_bench_options, CM, JOB_BENCH_OPTIONS, GObject)

G_END_DECLS
