/* cm-job-power.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The power-cut test as a kind of card job: does the card keep what it
 * said it saved? The run (cm-power.c) goes on a worker thread; its
 * progress and the words a switch by hand says come to the job's
 * thread. Where it stands is kept on the host, so the same test run
 * again on the same card carries on, after a stop, a card that did not
 * come back, or a host that crashed. Its document part is "power"
 * (cm-power-report.h).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "cm-job-kind.h"
#include "cm-power.h"
#include "cm-power-options.h"
#include "cm-power-records.h"
#include "cm-power-report.h"
#include "cm-summary.h"

typedef struct
{
  CmJob        *job;
  GMainContext *context;
  GDateTime    *started;
  CmPowerRun    run;
  GTask        *outer;
  GError       *error;
  gboolean      resumed;
  double        fraction;    /* the last reported, on the worker */
} PowerJob;

static void
power_job_free (PowerJob *p)
{
  g_clear_object (&p->job);
  g_clear_pointer (&p->context, g_main_context_unref);
  g_clear_pointer (&p->started, g_date_time_unref);
  g_free (p->run.device);
  g_clear_pointer (&p->run.state, cm_power_state_free);
  cm_power_switch_clear (&p->run.sw);
  g_clear_error (&p->error);
  g_free (p);
}

typedef struct
{
  CmJob  *job;
  double  fraction;
  double  seconds_left;
  char   *phase;
} Report;

static gboolean
report_in_job (gpointer data)
{
  Report *r = data;

  cm_job_report (r->job, r->fraction, r->seconds_left, r->phase);
  return G_SOURCE_REMOVE;
}

static void
report_free (gpointer data)
{
  Report *r = data;

  g_object_unref (r->job);
  g_free (r->phase);
  g_free (r);
}

static void
send_report (PowerJob *p,
             double    fraction,
             double    seconds_left,
             char     *phase)
{
  Report *r = g_new0 (Report, 1);

  r->job = g_object_ref (p->job);
  r->fraction = fraction;
  r->seconds_left = seconds_left;
  r->phase = phase;
  g_main_context_invoke_full (p->context, G_PRIORITY_DEFAULT, report_in_job, r, report_free);
}

static char *
step_words (CmPowerStep step,
            guint       cut,
            guint       n_cuts)
{
  switch (step)
    {
    case CM_POWER_STEP_CHECK:
      return g_strdup (_("Checking that the switch cuts the card's power"));
    case CM_POWER_STEP_FILL:
      return g_strdup (_("Writing the reference"));
    case CM_POWER_STEP_WRITE:
      /* Translators: a power-cut test's phase: cut 2 of 10 */
      return g_strdup_printf (_("Cut %u of %u: writing records"), cut, n_cuts);
    case CM_POWER_STEP_CUT:
      return g_strdup_printf (_("Cut %u of %u: cutting the power"), cut, n_cuts);
    case CM_POWER_STEP_WAIT:
      return g_strdup_printf (_("Cut %u of %u: waiting for the card to come back"), cut, n_cuts);
    case CM_POWER_STEP_READ:
      return g_strdup_printf (_("Cut %u of %u: reading back"), cut, n_cuts);
    default:
      return g_strdup ("");
    }
}

/* On the worker. Time left: the cuts still to come at the pace of those
 * done in this run, not known before the first. */
static void
progress_cb (CmPowerStep step,
             guint       cut,
             guint       n_cuts,
             double      fraction,
             gpointer    user_data)
{
  PowerJob *p = user_data;
  double elapsed = (g_get_real_time () / (double) G_USEC_PER_SEC) - g_date_time_to_unix (p->started);
  double left = -1;

  p->fraction = fraction;
  if (!p->resumed && fraction > 0.05 && cut > 1)
    left = elapsed / fraction * (1 - fraction);
  send_report (p, fraction, left, step_words (step, cut, n_cuts));
}

static const CmPowerCallbacks callbacks = { progress_cb, NULL };

static void
say_cb (const char *message,
        gpointer    user_data)
{
  PowerJob *p = user_data;

  send_report (p, p->fraction, -1, g_strdup (message));
}

static void
thread_func (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  PowerJob *p = task_data;

  cm_power_run (&p->run, cancellable, &p->error);
  g_task_return_boolean (task, TRUE);
}

static CmPowerReport *
make_report (PowerJob *p)
{
  CmPowerReport *report = cm_power_report_new ();
  CmPowerState *s = p->run.state;

  report->cuts_planned = s->cuts_planned;
  report->area = s->area;
  report->method = g_strdup (cm_power_switch_method_to_string (p->run.sw.method));
  report->stopped = s->cuts->len < s->cuts_planned;
  g_array_append_vals (report->cuts, s->cuts->data, s->cuts->len);
  return report;
}

static CmResult *
make_result (PowerJob *p)
{
  g_autoptr(CmPowerReport) report = make_report (p);
  CmResult *result = cm_result_new ();

  cm_result_set_started (result, p->started);
  cm_result_set_profile (result, "power");
  cm_result_set_target (result, p->run.device, "raw-write", p->run.device, NULL);
  cm_result_set_direct_io (result, TRUE);
  cm_result_set_area_bytes (result, p->run.state->area);
  {
    g_autoptr(JsonNode) part = cm_power_report_to_json (report);

    cm_result_set_part (result, part);
  }
  if (p->error != NULL && !g_error_matches (p->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    cm_result_add_note (result, p->error->message);
  if (report->stopped)
    cm_result_add_note (result, _("Where the power-cut test stopped is kept: the same test of the same card carries on from there."));
  return result;
}

static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  PowerJob *p = user_data;
  GTask *outer = p->outer;
  CmPowerState *s = p->run.state;

  if (p->error == NULL)
    cm_power_state_remove (s);
  if (s->cuts->len == 0 && p->error != NULL)
    {
      if (g_error_matches (p->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && cm_power_state_exists (s))
        g_task_return_new_error (outer, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 _("The power-cut test was stopped before its first cut was read back. Where it stood "
                                   "is kept: the same test of the same card carries on from there."));
      /* Stopped while the switch was checked: nothing was written yet. */
      else if (g_error_matches (p->error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && s->run != 0 &&
               s->phase == CM_POWER_PHASE_FILL)
        g_task_return_new_error (outer, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                 _("The power-cut test was stopped before it wrote anything to the card."));
      else
        g_task_return_error (outer, g_steal_pointer (&p->error));
    }
  else
    g_task_return_pointer (outer, make_result (p), g_object_unref);
  g_object_unref (outer);
}

static gboolean
card_size (const char  *path,
           guint64     *size,
           gboolean    *read_only,
           GError     **error)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  int ro = 0;

  if (fd < 0 || ioctl (fd, BLKGETSIZE64, size) != 0 || ioctl (fd, BLKROGET, &ro) != 0)
    {
      int errsv = errno;

      if (fd >= 0)
        close (fd);
      /* It opens the card again after every cut, under whatever name it
       * comes back: not through UDisks yet, so polkit cannot ask. */
      if (errsv == EACCES || errsv == EPERM)
        g_set_error (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED,
                     /* Translators: %s is the device */
                     _("CardMark may not open %s itself, and the power-cut test cannot ask for it yet. Run it as a "
                       "user who may write to the card (root, or one in the disk group)."),
                     path);
      else
        g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv), "%s: %s", path, g_strerror (errsv));
      return FALSE;
    }
  close (fd);
  *read_only = ro != 0;
  return TRUE;
}

/* A saved test of this card is carried on; none, a new one begins. */
static CmPowerState *
load_or_new (CmJob           *job,
             CmPowerOptions  *options,
             const char      *path,
             guint64          size,
             gboolean        *resumed,
             GError         **error)
{
  g_autoptr(CmPowerState) state = cm_power_state_new (path, size, NULL);

  *resumed = cm_power_state_exists (state);
  if (*resumed)
    return cm_power_state_load (state, error) ? g_steal_pointer (&state) : NULL;
  if (cm_power_options_get_area (options) > size)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT,
                   _("The area to test is larger than the card in %s."), path);
      return NULL;
    }
  state->area = cm_power_options_get_area (options) / CM_POWER_SLOT * CM_POWER_SLOT;
  state->cuts_planned = cm_power_options_get_cuts (options);
  state->started = g_get_real_time () / G_USEC_PER_SEC;
  state->cid = cm_power_dup_cid (path);
  return g_steal_pointer (&state);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmPowerOptions *options = cm_job_get_options (job);
  const char *path = cm_job_get_device_path (job);
  g_autoptr(GTask) worker = NULL;
  GError *error = NULL;
  CmPowerState *state;
  gboolean read_only = FALSE, resumed = FALSE;
  guint64 size = 0;
  PowerJob *p;

  if (!card_size (path, &size, &read_only, &error) ||
      (state = load_or_new (job, options, path, size, &resumed, &error)) == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  if (read_only)
    {
      cm_power_state_free (state);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_READ_ONLY,
                               _("%s is write-protected, so the power-cut test cannot write to it. Slide the card's lock switch up, or use another card."),
                               path);
      g_object_unref (task);
      return;
    }

  p = g_new0 (PowerJob, 1);
  p->job = g_object_ref (job);
  p->context = g_main_context_ref_thread_default ();
  p->started = g_date_time_new_from_unix_utc (state->started);
  p->resumed = resumed;
  p->run.device = g_strdup (path);
  p->run.state = state;
  p->run.limit = cm_power_options_get_time_limit (options);
  p->run.sw.method = cm_power_options_get_method (options);
  p->run.sw.off = g_strdup (cm_power_options_get_switch_off (options));
  p->run.sw.on = g_strdup (cm_power_options_get_switch_on (options));
  p->run.sw.say = say_cb;
  p->run.sw.say_data = p;
  p->run.callbacks = &callbacks;
  p->run.user_data = p;
  p->outer = task;

  if (resumed)
    /* Translators: a power-cut test's phase: carrying on a saved test after its cut N */
    cm_job_report (job, 0, -1, _("Carrying on the saved power-cut test"));
  worker = g_task_new (job, g_task_get_cancellable (task), done_cb, p);
  g_task_set_check_cancellable (worker, FALSE);
  g_task_set_task_data (worker, p, (GDestroyNotify) power_job_free);
  g_task_run_in_thread (worker, thread_func);
}

/* Lost confirmed writes, Damaged data it was not writing, Stopped, or
 * Kept all it confirmed; losing data is a fail however the run ended. */
static CmOutcome *
outcome (CmResult *result)
{
  g_autoptr(CmPowerReport) report = cm_power_report_from_json (cm_result_get_part (result));
  g_autofree char *answer = NULL;
  guint lost_cuts, hit_cuts, done;
  guint64 lost, hit, first;
  CmOutcome *outcome;

  if (report == NULL)
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  done = report->cuts->len;
  lost = cm_power_report_lost (report, &lost_cuts);
  hit = cm_power_report_collateral (report, &hit_cuts, &first);
  if (lost > 0)
    {
      /* Translators: a power-cut test's answer: in how many of the cuts records the card had confirmed were lost */
      answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Lost confirmed writes in %u of %u cuts · %llu record",
                                             "Lost confirmed writes in %u of %u cuts · %llu records", lost),
                                lost_cuts, done, (unsigned long long) lost);
      outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Lost confirmed writes"), answer);
      outcome->exit_status = 4;
      return outcome;
    }
  if (hit > 0)
    {
      /* Translators: a power-cut test's answer: data the card was not writing came back wrong; the last %llu is a byte offset */
      answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "Damaged data it was not writing in %u of %u cuts · %llu sector, at byte %llu",
                                             "Damaged data it was not writing in %u of %u cuts · %llu sectors, the first at byte %llu",
                                             hit),
                                hit_cuts, done, (unsigned long long) hit, (unsigned long long) first);
      outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, _("Damaged other data"), answer);
      outcome->exit_status = 4;
      return outcome;
    }
  if (report->stopped)
    {
      /* Translators: a power-cut test's answer when it was stopped before its last cut */
      answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Stopped after %u cut · nothing lost so far",
                                             "Stopped after %u cuts · nothing lost so far", done), done);
      return cm_outcome_new (CM_OUTCOME_STOPPED, CM_STATUS_NOT_JUDGED, _("Stopped"), answer);
    }
  /* Translators: a power-cut test's answer: the card kept every record it confirmed */
  answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Kept all it confirmed · %u of %u cut",
                                         "Kept all it confirmed · %u of %u cuts", report->cuts_planned),
                            done, report->cuts_planned);
  return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Kept all it confirmed"), answer);
}

/* Cuts, records lost, sectors damaged, and the slowest return. */
static void
headline (CmResult  *result,
          GPtrArray *figures)
{
  g_autoptr(CmPowerReport) report = cm_power_report_from_json (cm_result_get_part (result));
  guint lost_cuts, hit_cuts;
  guint64 first;
  double slowest = 0;

  if (report == NULL)
    return;
  for (guint i = 0; i < report->cuts->len; i++)
    slowest = MAX (slowest, g_array_index (report->cuts, CmPowerCut, i).back_seconds);
  /* Translators: a power-cut test's figure: how many times the power was cut */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Cuts"), g_strdup_printf ("%u", report->cuts->len));
  /* Translators: a power-cut test's figure: records the card confirmed and lost */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Confirmed writes lost"),
                         g_strdup_printf ("%llu", (unsigned long long) cm_power_report_lost (report, &lost_cuts)));
  /* Translators: a power-cut test's figure: sectors it was not writing that came back damaged */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Other sectors damaged"),
                         g_strdup_printf ("%llu", (unsigned long long) cm_power_report_collateral (report, &hit_cuts, &first)));
  /* Translators: a power-cut test's figure: the longest a card took to answer again after a cut, in seconds */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Slowest return"), g_strdup_printf (_("%.1f s"), slowest));
}

const CmJobKind cm_job_kind_power = {
  .name = "power",
  .title = N_("Power-cut test"),
  .doing = N_("a power-cut test"),
  .writes = TRUE,
  .erases = TRUE,
  /* Translators: what stopping it does, after "Power-cut test of /dev/sdb: " */
  .on_stop = N_("keeps the cuts it finished and where it stopped"),
  .keeps_stopped = TRUE,
  .run = run,
  .outcome = outcome,
  .headline = headline,
  .needs = CM_JOB_KIND_NEEDS_WHOLE_CARD,
  /* Translators: %s is the device */
  .consent = N_("The power-cut test overwrites the start of %s and cuts its power again and again, destroying everything on it."),
  .options_type = cm_power_options_get_type,
};
