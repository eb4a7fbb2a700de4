/* cm-job-wear.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test's options (cm_job_get_options() of a "wear" job):
 *   rounds       rounds to run, 0 no limit
 *   seconds      time to run, 0 no limit (it also ends when half the card
 *                is bad, or when it is stopped)
 *   maker-bytes  what the maker says the card takes before it wears out,
 *                in bytes written, 0 not said
 *   resume       carry on from the saved state of a stopped test
 *   carry-on     carry on from one when one is saved, else start
 * and, not a property, a function told each round as it ends.
 */

#pragma once

#include <glib-object.h>

#include "cm-endurance.h"
#include "cm-job.h"

G_BEGIN_DECLS

#define CM_TYPE_JOB_WEAR_OPTIONS (cm_job_wear_options_get_type ())

G_DECLARE_FINAL_TYPE (CmJobWearOptions, cm_job_wear_options, CM, JOB_WEAR_OPTIONS, GObject)

/* Called on the job's thread as each round ends, with its figures (the
 * CLI's --csv). */
typedef void (*CmJobWearRoundFunc) (CmJob             *job,
                                    const CmWearRound *round,
                                    gpointer           user_data);

void cm_job_wear_options_set_round_func (CmJobWearOptions   *self,
                                         CmJobWearRoundFunc  func,
                                         gpointer            user_data);

G_END_DECLS
