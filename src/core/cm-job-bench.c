/* cm-job-bench.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The benchmark as a kind of card job: a CmBench (cm-bench.c) made from
 * the job's settings; its runner's progress is the job's, the test it
 * runs is the phase, and the finished document is judged against the
 * classes on the label.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-test-table.h"
#include "cm-verdict.h"
#include "cm-job-kind.h"
#include "cm-summary.h"

static void
progress_cb (CmRunner *runner,
             double    fraction,
             double    seconds_left,
             CmJob    *job)
{
  cm_job_report (job, fraction, seconds_left, NULL);
}

static void
test_started_cb (CmRunner   *runner,
                 guint       index,
                 const char *name,
                 CmJob      *job)
{
  const char *label = cm_test_table_get_label (name);

  cm_job_report (job, cm_job_get_progress (job), cm_job_get_seconds_left (job),
                 label != NULL ? g_dgettext (GETTEXT_PACKAGE, label) : name);
  cm_job_report_test_started (job, index, cm_runner_get_n_tests (runner), name);
}

static void
sample_cb (CmRunner   *runner,
           const char *test,
           double      t,
           double      mb_per_s,
           double      iops,
           CmJob      *job)
{
  cm_job_report_sample (job, test, t, mb_per_s, iops);
}

static void
waiting_cb (CmRunner   *runner,
            const char *holder,
            CmJob      *job)
{
  g_autofree char *phase = g_strdup_printf (_("Waiting for the card in %s to finish its speed test"), holder);

  cm_job_report (job, cm_job_get_progress (job), -1, phase);
  /* As a bulk job's pause is told: whoever shows the job says it once. */
  g_signal_emit_by_name (job, "bus-paused", holder);
}

static void
started_cb (CmBench  *bench,
            CmRunner *runner,
            CmJob    *job)
{
  cm_job_set_runner (job, runner);
  g_signal_connect_object (runner, "progress", G_CALLBACK (progress_cb), job, 0);
  g_signal_connect_object (runner, "test-started", G_CALLBACK (test_started_cb), job, 0);
  g_signal_connect_object (runner, "waiting", G_CALLBACK (waiting_cb), job, 0);
  g_signal_connect_object (runner, "sample", G_CALLBACK (sample_cb), job, 0);
}

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  CmResult *result = cm_bench_run_finish (CM_BENCH (object), res, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  g_autoptr(CmBench) bench = NULL;

  if (cm_job_get_path (job) == NULL)
    bench = cm_bench_new_for_device (device, cm_job_get_method (job));
  else
    {
      bench = cm_bench_new_for_path (cm_job_get_path (job), cm_job_get_raw (job), cm_job_get_allow_write (job));
      cm_bench_set_device (bench, device);
    }
  cm_bench_set_card (bench, cm_job_get_card (job));
  cm_bench_set_profile (bench, cm_job_get_profile (job));
  cm_bench_set_only (bench, cm_job_get_only (job));
  cm_bench_set_sustained_limit (bench, cm_job_get_sustained_limit (job));
  cm_bench_set_prefer_udisks (bench, cm_job_get_prefer_udisks (job));
  g_signal_connect_object (bench, "started", G_CALLBACK (started_cb), job, 0);
  cm_job_report (job, 0, -1, _("Opening the card"));
  cm_bench_run_async (bench, g_task_get_cancellable (task), done_cb, task);
}

static void
judge (CmJob    *job,
       CmResult *result)
{
  cm_verdict_judge (result, cm_job_get_claims (job), "label");
}

/* The classes it was judged on: Meets, Marginal (retest), Below or Not
 * judged, and the banner's sentence. */
static CmOutcome *
outcome (CmResult *result)
{
  CmStatus status = CM_STATUS_NOT_JUDGED;
  g_autofree char *banner = cm_summary_dup_banner (result, &status);
  CmOutcome *outcome;

  if (banner == NULL)
    /* Translators: a benchmark's answer when it judged no class */
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("No class judged"), NULL);
  outcome = cm_outcome_new (status == CM_STATUS_MEETS ? CM_OUTCOME_PASS
                            : status == CM_STATUS_BELOW ? CM_OUTCOME_FAIL
                            : CM_OUTCOME_NOT_JUDGED,
                            status, cm_summary_status_label (status), banner);
  return outcome;
}

const CmJobKind cm_job_kind_bench = {
  .name = "bench",
  .title = N_("Benchmark"),
  .doing = N_("a benchmark"),
  .writes = FALSE,
  /* Translators: what stopping it does, after "Benchmark of /dev/sdb: " */
  .on_stop = N_("throws away what it measured"),
  .run = run,
  .judge = judge,
  .outcome = outcome,
  .describe = cm_verdict_dup_summary,
  .measures_speed = TRUE,
};
