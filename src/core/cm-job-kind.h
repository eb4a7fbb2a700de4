/* cm-job-kind.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a kind of card job reads from the job and reports to it; its row
 * (CmJobKind) is in cm-job-kinds.h, with the table's API. The job
 * (cm-job.c) does what every kind shares: it takes the card's lock,
 * reads the card, the host and the reader once, follows the state and
 * progress, describes the finished document, judges its claims and
 * keeps it. A kind only runs: it opens the target through cm-job-open.h, reports progress
 * with cm_job_report(), and returns a CmResult (or an error) on @task.
 */

#pragma once

#include "cm-job.h"
#include "cm-job-kinds.h"

G_BEGIN_DECLS


/* What a kind reads from the job. Its own part of the document is
 * cm_result_get_part() / cm_result_set_part(). */
const char      *cm_job_get_path           (CmJob      *job);
CmHistory       *cm_job_get_history        (CmJob      *job);
CmCardInfo      *cm_job_get_card           (CmJob      *job);
gboolean         cm_job_get_prefer_udisks  (CmJob      *job);
/* A kind that runs tests one after another: each test it begins, and
 * the throughput as it goes (CmJob::test-started, CmJob::sample). */
void             cm_job_report_test_started (CmJob     *job,
                                             guint      index,
                                             guint      n_tests,
                                             const char *name);
void             cm_job_report_sample      (CmJob      *job,
                                            const char *test,
                                            double      t,
                                            double      mb_per_s,
                                            double      iops);
/* A bulk job waits for a card on its bus that measures. */
void             cm_job_report_bus_pause   (CmJob      *job,
                                            const char *measurer);
CmDeviceMonitor *cm_job_get_monitor        (CmJob      *job);
const char      *cm_job_get_device_path    (CmJob      *job);
const char * const *cm_job_get_claims      (CmJob      *job);

void             cm_job_set_runner         (CmJob      *job,
                                            CmRunner   *runner);
void             cm_job_set_verify         (CmJob      *job,
                                            CmVerify   *verify);
/* @phase in words; @seconds_left < 0 while not known. */
void             cm_job_report             (CmJob      *job,
                                            double      fraction,
                                            double      seconds_left,
                                            const char *phase);

G_END_DECLS
