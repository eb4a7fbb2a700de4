/* cm-job-capacity.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The capacity check as a kind of card job: the whole device opened for
 * writing the way every job opens a card, the check of
 * cm-capacity-probe.c run on it, and its findings kept in a document of
 * kind "capacity" (with the map's cells), so the history lists it beside
 * the card's benchmarks and verifies.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>

#include "cm-capacity-probe.h"
#include "cm-job-open.h"
#include "cm-target.h"
#include "cm-job-kind.h"
#include "cm-summary.h"

#include "cm-job-capacity.h"

/* The options, the kind's own (cm-job-capacity.h). */

struct _CmJobCapacityOptions
{
  GObject  parent_instance;

  guint64  cache_bytes;
};

G_DEFINE_FINAL_TYPE (CmJobCapacityOptions, cm_job_capacity_options, G_TYPE_OBJECT)

enum {
  OPT_0,
  OPT_CACHE_BYTES,
  N_OPTS
};

static GParamSpec *options_props[N_OPTS];

static void
cm_job_capacity_options_get_property (GObject    *object,
                                      guint       prop_id,
                                      GValue     *value,
                                      GParamSpec *pspec)
{
  CmJobCapacityOptions *self = CM_JOB_CAPACITY_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_CACHE_BYTES:
      g_value_set_uint64 (value, self->cache_bytes);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_capacity_options_set_property (GObject      *object,
                                      guint         prop_id,
                                      const GValue *value,
                                      GParamSpec   *pspec)
{
  CmJobCapacityOptions *self = CM_JOB_CAPACITY_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_CACHE_BYTES:
      self->cache_bytes = g_value_get_uint64 (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_capacity_options_class_init (CmJobCapacityOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = cm_job_capacity_options_get_property;
  object_class->set_property = cm_job_capacity_options_set_property;

  options_props[OPT_CACHE_BYTES] =
    g_param_spec_uint64 ("cache-bytes", NULL, NULL, 1, G_MAXUINT64, CM_CAPACITY_DEFAULT_CACHE,
                         G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_OPTS, options_props);
}

static void
cm_job_capacity_options_init (CmJobCapacityOptions *self)
{
  self->cache_bytes = CM_CAPACITY_DEFAULT_CACHE;
}

/* The kind. */

typedef struct
{
  CmTarget *target;
  char     *device;
} Check;

static void
check_free (Check *check)
{
  g_clear_object (&check->target);
  g_free (check->device);
  g_free (check);
}

static void
progress_cb (const CmCapacityProgress *progress,
             gpointer                  user_data)
{
  CmJob *job = user_data;
  g_autofree char *text = cm_capacity_progress_describe (progress);
  const char *comma = strchr (text, ',');
  g_autofree char *phase = comma != NULL ? g_strndup (text, comma - text) : g_strdup (text);

  cm_job_report (job, progress->fraction, progress->seconds_left, phase);
}

static CmResult *
new_result (Check                  *check,
            const CmCapacityReport *report)
{
  CmResult *result = cm_result_new ();
  g_autofree char *summary = cm_capacity_report_describe (check->device, report);

  cm_result_set_profile (result, "capacity");
  cm_result_set_target (result, check->device, "raw-write", check->device, NULL);
  cm_result_set_direct_io (result, cm_target_get_direct_io (check->target));
  cm_result_set_capacity (result, report);
  cm_result_set_summary (result, summary);
  return result;
}

static void
probe_done_cb (GObject      *object,
               GAsyncResult *res,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Check *check = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr(CmCapacityReport) report = cm_capacity_probe_finish (res, &error);

  if (report == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, new_result (check, report), g_object_unref);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CmJob *job = g_task_get_source_object (task);
  Check *check = g_task_get_task_data (task);
  GCancellable *cancellable;
  GError *error = NULL;

  check->target = cm_job_open_target_finish (res, &error);
  if (check->target == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (cm_target_get_write_protected (check->target))
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                               _("The card is write-protected. Slide the lock switch up and try again."));
      return;
    }

  cancellable = g_task_get_cancellable (task);
  cm_capacity_probe_async (cm_target_get_fd (check->target), check->device, cm_target_get_size (check->target),
                           ((CmJobCapacityOptions *) cm_job_get_options (job))->cache_bytes,
                           cancellable, progress_cb, job,
                           probe_done_cb, g_steal_pointer (&task));
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_path (job) != NULL ? cm_job_get_path (job) : cm_device_get_device (device);
  Check *check = g_new0 (Check, 1);
  struct stat st;

  check->device = g_strdup (path);
  g_task_set_task_data (task, check, (GDestroyNotify) check_free);

  if (stat (path, &st) == 0 && !S_ISBLK (st.st_mode))
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                               _("%s is not a device. The capacity probe needs the card's device, such as /dev/sdb."), path);
      g_object_unref (task);
      return;
    }

  cm_job_report (job, 0, -1, _("Opening the card"));
  cm_job_open_target_async (device, path, TRUE, cm_job_get_prefer_udisks (job),
                            g_task_get_cancellable (task), opened_cb, task);
}

/* Genuine or Fake, and the sizes. */
static CmOutcome *
outcome (CmResult *result)
{
  const CmCapacityReport *report = cm_result_get_capacity (result);
  g_autofree char *real = NULL;
  g_autofree char *reported = NULL;
  g_autofree char *answer = NULL;
  CmOutcome *outcome;

  if (report == NULL)
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  real = g_format_size (report->real_bytes);
  reported = g_format_size (report->reported_bytes);
  if (!report->fake)
    {
      /* Translators: a capacity check's answer; %s is a size, "32.0 GB" */
      answer = g_strdup_printf (_("Holds what it says · %s"), reported);
      /* Translators: a badge: the card holds the capacity it reports */
      return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Genuine"), answer);
    }
  /* Translators: a capacity check's answer; the first %s is the size
   * that keeps its data, the second the size the card says it has */
  answer = g_strdup_printf (_("Fake capacity · holds %s, not %s"), real, reported);
  /* Translators: a badge: the card holds less than it reports */
  outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Fake"), answer);
  outcome->exit_status = 4;
  return outcome;
}

/* A capacity check: the size that keeps its data, and the size the card
 * says it has. */
static void
headline (CmResult  *result,
          GPtrArray *figures)
{
  const CmCapacityReport *report = cm_result_get_capacity (result);

  if (report == NULL)
    return;
  /* Translators: a capacity check's figure: the size that keeps its data */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Real size"), g_format_size (report->real_bytes));
  /* Translators: a capacity check's figure: the size the card says it has */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Reported size"), g_format_size (report->reported_bytes));
}

/* A fake card's storage ends somewhere between the last place that kept
 * its data and the first that did not: the last good place's end is
 * the size that surely holds data. */
static guint64
real_size (CmResult *result,
           guint64  *reported,
           guint64  *said)
{
  const CmCapacityReport *report = cm_result_get_capacity (result);

  *reported = report != NULL ? report->reported_bytes : 0;
  *said = 0;
  if (report == NULL || !report->fake || report->last_good_bytes >= report->reported_bytes)
    return 0;
  /* Its words, "Real size", name where the first bad place's cell starts. */
  *said = MAX (report->real_bytes, report->last_good_bytes);
  return report->last_good_bytes;
}

/* What the card says it holds, as the check read it. */
static guint64
card_bytes (CmResult *result)
{
  const CmCapacityReport *report = cm_result_get_capacity (result);

  return report != NULL ? report->reported_bytes : 0;
}

const CmJobKind cm_job_kind_capacity = {
  .name = "capacity",
  .title = N_("Capacity check"),
  .doing = N_("a capacity check"),
  .writes = TRUE,
  /* Translators: what stopping it does, after "Capacity check of /dev/sdb: " */
  .on_stop = N_("puts the card's data back first"),
  .run = run,
  .outcome = outcome,
  .headline = headline,
  .real_size = real_size,
  .options_type = cm_job_capacity_options_get_type,
  .card_bytes = card_bytes,
};
