/* cm-job-verify.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify as a kind of card job: a CmVerify (cm-verify.c) for
 * the job's target — a folder, a mounted card's folder, or the whole
 * device, opened through UDisks when the app asks — whose progress is
 * the job's. A verify that is stopped keeps its state; the job ends
 * cancelled and the next verify of the card carries on.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-job-open.h"
#include "cm-target.h"
#include "cm-job-kind.h"
#include "cm-summary.h"

#include "cm-job-verify.h"

/* The options, the kind's own (cm-job-verify.h): each a flag of
 * CmVerifyFlags, but the leave to overwrite a whole device, which is the
 * job's. */

struct _CmJobVerifyOptions
{
  GObject        parent_instance;

  CmVerifyFlags  flags;
};

G_DEFINE_FINAL_TYPE (CmJobVerifyOptions, cm_job_verify_options, G_TYPE_OBJECT)

enum {
  OPT_0,
  OPT_RESUME,
  OPT_KEEP,
  OPT_READ_ONLY,
  OPT_CARRY_ON,
  N_OPTS
};

static GParamSpec *options_props[N_OPTS];

static CmVerifyFlags
option_flag (guint prop_id)
{
  switch (prop_id)
    {
    case OPT_RESUME:
      return CM_VERIFY_FLAGS_RESUME;
    case OPT_KEEP:
      return CM_VERIFY_FLAGS_KEEP;
    case OPT_READ_ONLY:
      return CM_VERIFY_FLAGS_READ_ONLY;
    case OPT_CARRY_ON:
      return CM_VERIFY_FLAGS_CARRY_ON;
    default:
      return CM_VERIFY_FLAGS_NONE;
    }
}

static void
cm_job_verify_options_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  CmJobVerifyOptions *self = CM_JOB_VERIFY_OPTIONS (object);

  if (option_flag (prop_id) == CM_VERIFY_FLAGS_NONE)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  g_value_set_boolean (value, (self->flags & option_flag (prop_id)) != 0);
}

static void
cm_job_verify_options_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  CmJobVerifyOptions *self = CM_JOB_VERIFY_OPTIONS (object);

  if (option_flag (prop_id) == CM_VERIFY_FLAGS_NONE)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      return;
    }
  if (g_value_get_boolean (value))
    self->flags |= option_flag (prop_id);
  else
    self->flags &= ~option_flag (prop_id);
}

static void
cm_job_verify_options_class_init (CmJobVerifyOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = cm_job_verify_options_get_property;
  object_class->set_property = cm_job_verify_options_set_property;

  options_props[OPT_RESUME] = g_param_spec_boolean ("resume", NULL, NULL, FALSE, flags);
  options_props[OPT_KEEP] = g_param_spec_boolean ("keep", NULL, NULL, FALSE, flags);
  options_props[OPT_READ_ONLY] = g_param_spec_boolean ("read-only", NULL, NULL, FALSE, flags);
  options_props[OPT_CARRY_ON] = g_param_spec_boolean ("carry-on", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_OPTS, options_props);
}

static void
cm_job_verify_options_init (CmJobVerifyOptions *self)
{
}

/* The flags the verify runs with: the options' own, and the leave to
 * overwrite the whole device only when the job has it. */
static CmVerifyFlags
job_flags (CmJob *job)
{
  CmJobVerifyOptions *options = cm_job_get_options (job);

  return options->flags | (cm_job_get_destroy_data (job) ? CM_VERIFY_FLAGS_DESTROY_DATA : 0);
}

/* The kind. */

static void
progress_cb (CmVerify *verify,
             guint     phase,
             double    fraction,
             double    mb_per_s,
             double    seconds_left,
             CmJob    *job)
{
  cm_job_report (job, fraction, seconds_left,
                 phase == CM_VERIFY_PHASE_WRITE ? _("Writing") : _("Reading back"));
}

static void
paused_cb (CmVerify   *verify,
           const char *measurer,
           CmJob      *job)
{
  if (measurer != NULL)
    cm_job_report_bus_pause (job, measurer);
}

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  CmResult *result = cm_verify_run_finish (CM_VERIFY (object), res, &error);

  if (result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, result, g_object_unref);
}

static void
start (CmJob *job,
       GTask *task)
{
  CmVerify *verify = cm_job_get_verify (job);
  GError *error = NULL;

  if (!cm_verify_prepare (verify, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  g_signal_connect_object (verify, "progress", G_CALLBACK (progress_cb), job, 0);
  g_signal_connect_object (verify, "paused", G_CALLBACK (paused_cb), job, 0);
  cm_job_report (job, 0, -1, (job_flags (job) & CM_VERIFY_FLAGS_READ_ONLY) ? _("Reading back") : _("Writing"));
  cm_verify_run_async (verify, g_task_get_cancellable (task), done_cb, task);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  GTask *task = user_data;
  CmJob *job = g_task_get_source_object (task);
  GError *error = NULL;
  g_autoptr(CmTarget) target = cm_job_open_target_finish (res, &error);

  if (target == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  /* The verify takes its own descriptor; the target closes its own. */
  cm_verify_set_device_fd (cm_job_get_verify (job), dup (cm_target_get_fd (target)));
  start (job, task);
}

/* What a card from the device list is verified through: its folder
 * while it is mounted, else the whole device. */
static const char *
device_path (CmDevice *device)
{
  const char * const *mounts = cm_device_get_mount_points (device);

  if (mounts != NULL && mounts[0] != NULL)
    return mounts[0];
  return cm_device_get_device (device);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_path (job) != NULL ? cm_job_get_path (job) : device_path (device);
  CmVerifyFlags flags = job_flags (job);
  g_autoptr(CmVerify) verify = cm_verify_new (path, flags);
  struct stat st;

  cm_job_set_verify (job, verify);

  /* The app's whole-device verify asks UDisks for the device, so that
   * polkit can ask the user. */
  if (device != NULL && cm_job_get_prefer_udisks (job) && (flags & CM_VERIFY_FLAGS_DESTROY_DATA) &&
      stat (path, &st) == 0 && S_ISBLK (st.st_mode) && !cm_device_get_mounted (device))
    {
      cm_job_report (job, 0, -1, _("Opening the card"));
      cm_job_open_target_async (device, path, TRUE, TRUE, g_task_get_cancellable (task), opened_cb, task);
      return;
    }

  start (job, task);
}

/* Intact or Data lost, and how much the card kept: the facts the
 * sentence under it (cm_verify_describe) says too. */
static CmOutcome *
outcome (CmResult *result)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);
  CmVerifyFacts facts;
  g_autofree char *usable = NULL;
  g_autofree char *lost = NULL;
  g_autofree char *first = NULL;
  g_autofree char *unreached = NULL;
  g_autofree char *answer = NULL;
  CmOutcome *outcome;

  if (!cm_verify_facts_for_result (result, &facts))
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  usable = g_format_size (facts.usable_bytes);
  lost = g_format_size (facts.lost_bytes);
  first = g_format_size (MAX (facts.first_bad, 0));
  unreached = g_format_size (facts.unreached_bytes);
  if (!cm_verify_summary_lost_data (verify))
    {
      /* Translators: a full verify's answer; %s is a size, "31.9 GB" */
      answer = g_strdup_printf (_("Every byte came back · %s usable"), usable);
      /* Translators: a badge: a full verify read every byte back */
      return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Intact"), answer);
    }
  if (facts.stopped && facts.unreached_bytes > 0)
    /* Translators: a full verify's answer; the first %s is a place on the
     * card, "58.7 MB", the second the size after it never written */
    answer = g_strdup_printf (_("Data lost · the card stopped working at %s, %s never reached"), first, unreached);
  else if (facts.stopped)
    /* Translators: a full verify's answer; %s is a place on the card, "58.7 MB" */
    answer = g_strdup_printf (_("Data lost · the card stopped working at %s"), first);
  else
    /* Translators: a full verify's answer; the first %s is the size that
     * did not keep its data, the second the size that did */
    answer = g_strdup_printf (_("Data lost · %s lost, %s usable"), lost, usable);
  /* Translators: a badge: the card did not give back what was written */
  outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Data lost"), answer);
  outcome->exit_status = 4;
  return outcome;
}

/* A full verify: what is usable and what was lost on the left and
 * right (and what the card never reached), then how fast it wrote and
 * read back, those that it did. */
static void
headline (CmResult  *result,
          GPtrArray *figures)
{
  CmVerifyFacts facts;
  CmTestResult *write = cm_result_lookup_test (result, CM_TEST_VERIFY_WRITE);
  CmTestResult *read = cm_result_lookup_test (result, CM_TEST_VERIFY_READ);

  if (cm_verify_facts_for_result (result, &facts))
    {
      /* Translators: a full verify's figure: the storage that kept its data */
      cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Usable"), g_format_size (facts.usable_bytes));
      /* Translators: a full verify's figure: the storage that did not */
      cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Lost"), g_format_size (facts.lost_bytes));
      if (facts.unreached_bytes > 0)
        /* Translators: a full verify's figure: the storage never written, as the card stopped first */
        cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Never reached"), g_format_size (facts.unreached_bytes));
    }
  if (read != NULL && read->error == NULL && read->mb_per_s > 0)
    /* Translators: a full verify's figure: how fast it read its data back */
    cm_summary_add_figure (figures, CM_TEST_VERIFY_READ, CM_DIRECTION_READ, _("Read back"),
                cm_summary_format_rate (read->mb_per_s, "MB/s"));
  if (write != NULL && write->error == NULL && write->mb_per_s > 0)
    /* Translators: a full verify's figure: how fast it wrote its data */
    cm_summary_add_figure (figures, CM_TEST_VERIFY_WRITE, CM_DIRECTION_WRITE, _("Written"),
                cm_summary_format_rate (write->mb_per_s, "MB/s"));
}

/* A verify of the whole device that lost data: the storage that keeps
 * it ends where the first bad sector is. */
static guint64
real_size (CmResult *result,
           guint64  *reported,
           guint64  *said)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);

  *reported = 0;
  *said = 0;
  if (verify == NULL || g_strcmp0 (verify->mode, "device") != 0 || verify->first_bad_offset <= 0)
    return 0;
  *said = (guint64) verify->first_bad_offset;
  return (guint64) verify->first_bad_offset;
}

/* A verify of the whole device that went to its end went through all of it. */
static guint64
card_bytes (CmResult *result)
{
  const CmVerifySummary *verify = cm_result_get_verify (result);

  if (verify == NULL || g_strcmp0 (verify->mode, "device") != 0 || !verify->complete)
    return 0;
  return verify->checked_bytes;
}

static gint64
lost_bytes (CmResult *result)
{
  CmVerifyFacts facts;

  return cm_verify_facts_for_result (result, &facts) ? (gint64) facts.lost_bytes : -1;
}

const CmJobKind cm_job_kind_verify = {
  .name = "verify",
  .title = N_("Full verify"),
  .doing = N_("a full verify"),
  .writes = TRUE,
  .erases = TRUE,
  /* Translators: what stopping it does, after "Full verify of /dev/sdb: " */
  .on_stop = N_("keeps what it did, to carry on later"),
  .run = run,
  .outcome = outcome,
  .headline = headline,
  .real_size = real_size,
  .options_type = cm_job_verify_options_get_type,
  .card_bytes = card_bytes,
  .lost_bytes = lost_bytes,
};
