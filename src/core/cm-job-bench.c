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

#include "cm-job-bench.h"

/* The options, the kind's own (cm-job-bench.h). */

struct _CmJobBenchOptions
{
  GObject    parent_instance;

  CmMethod   method;
  gboolean   raw;
  gboolean   allow_write;
  CmProfile  profile;
  GStrv      only;
  guint64    sustained_limit;
};

G_DEFINE_FINAL_TYPE (CmJobBenchOptions, cm_job_bench_options, G_TYPE_OBJECT)

enum {
  OPT_0,
  OPT_METHOD,
  OPT_RAW,
  OPT_ALLOW_WRITE,
  OPT_PROFILE,
  OPT_ONLY,
  OPT_SUSTAINED_LIMIT,
  N_OPTS
};

static GParamSpec *options_props[N_OPTS];

static void
cm_job_bench_options_finalize (GObject *object)
{
  CmJobBenchOptions *self = CM_JOB_BENCH_OPTIONS (object);

  g_strfreev (self->only);
  G_OBJECT_CLASS (cm_job_bench_options_parent_class)->finalize (object);
}

static void
cm_job_bench_options_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  CmJobBenchOptions *self = CM_JOB_BENCH_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_METHOD:
      g_value_set_uint (value, self->method);
      break;
    case OPT_RAW:
      g_value_set_boolean (value, self->raw);
      break;
    case OPT_ALLOW_WRITE:
      g_value_set_boolean (value, self->allow_write);
      break;
    case OPT_PROFILE:
      g_value_set_uint (value, self->profile);
      break;
    case OPT_ONLY:
      g_value_set_boxed (value, self->only);
      break;
    case OPT_SUSTAINED_LIMIT:
      g_value_set_uint64 (value, self->sustained_limit);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_bench_options_set_property (GObject      *object,
                                   guint         prop_id,
                                   const GValue *value,
                                   GParamSpec   *pspec)
{
  CmJobBenchOptions *self = CM_JOB_BENCH_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_METHOD:
      self->method = g_value_get_uint (value);
      break;
    case OPT_RAW:
      self->raw = g_value_get_boolean (value);
      break;
    case OPT_ALLOW_WRITE:
      self->allow_write = g_value_get_boolean (value);
      break;
    case OPT_PROFILE:
      self->profile = g_value_get_uint (value);
      break;
    case OPT_ONLY:
      g_strfreev (self->only);
      self->only = g_value_dup_boxed (value);
      break;
    case OPT_SUSTAINED_LIMIT:
      self->sustained_limit = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_bench_options_class_init (CmJobBenchOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = cm_job_bench_options_finalize;
  object_class->get_property = cm_job_bench_options_get_property;
  object_class->set_property = cm_job_bench_options_set_property;

  /* A CmMethod. */
  options_props[OPT_METHOD] =
    g_param_spec_uint ("method", NULL, NULL, CM_METHOD_FILE, CM_METHOD_RAW_WRITE, CM_METHOD_FILE, flags);
  options_props[OPT_RAW] = g_param_spec_boolean ("raw", NULL, NULL, FALSE, flags);
  options_props[OPT_ALLOW_WRITE] = g_param_spec_boolean ("allow-write", NULL, NULL, FALSE, flags);
  /* A CmProfile. */
  options_props[OPT_PROFILE] =
    g_param_spec_uint ("profile", NULL, NULL, CM_PROFILE_QUICK, CM_PROFILE_FULL, CM_PROFILE_QUICK, flags);
  options_props[OPT_ONLY] = g_param_spec_boxed ("only", NULL, NULL, G_TYPE_STRV, flags);
  options_props[OPT_SUSTAINED_LIMIT] =
    g_param_spec_uint64 ("sustained-limit", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  g_object_class_install_properties (object_class, N_OPTS, options_props);
}

static void
cm_job_bench_options_init (CmJobBenchOptions *self)
{
  self->method = CM_METHOD_FILE;
  self->profile = CM_PROFILE_QUICK;
}

/* The kind. */

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
  CmJobBenchOptions *options = cm_job_get_options (job);
  g_autoptr(CmBench) bench = NULL;

  if (cm_job_get_path (job) == NULL)
    bench = cm_bench_new_for_device (device, options->method);
  else
    {
      bench = cm_bench_new_for_path (cm_job_get_path (job), options->raw, options->allow_write);
      cm_bench_set_device (bench, device);
    }
  cm_bench_set_card (bench, cm_job_get_card (job));
  cm_bench_set_profile (bench, options->profile);
  cm_bench_set_only (bench, (const char * const *) options->only);
  cm_bench_set_sustained_limit (bench, options->sustained_limit);
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
  .options_type = cm_job_bench_options_get_type,
};
