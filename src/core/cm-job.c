/* cm-job.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One card job — a benchmark, a capacity check, a verify — put together
 * once for the app and the CLI. The job does what every kind shares: it
 * finds the card UDisks shows for the target, takes the card's lock (so
 * a second job on it, from this process or another, is refused with one
 * sentence), reads the card, the host and the reader once, follows the
 * state, progress, phase and time left, and at the end describes the
 * document the same way for every kind, lets the kind judge it, and
 * keeps it in the history. What a kind does itself is in its own file
 * (cm-job-bench.c, cm-job-capacity.c, cm-job-verify.c), listed in the
 * table of cm-job-kinds.c.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-duration.h"
#include "cm-card-lock.h"
#include "cm-card-use.h"
#include "cm-card-same.h"
#include "cm-host.h"
#include "cm-target.h"
#include "cm-test-hooks.h"
#include "cm-job-kind.h"

#include "cm-job.h"

G_DEFINE_QUARK (cm-job-error-quark, cm_job_error)

struct _CmJob
{
  GObject          parent_instance;

  const CmJobKind *kind;
  char            *path;       /* the target as given; NULL for a device */
  CmDevice        *device;
  CmDeviceMonitor *monitor;
  gboolean         prefer_udisks;

  /* Every kind. */
  GObject         *options;    /* the kind's own (CmJobKind.options_type) */
  gboolean         destroy_data;
  char            *name;
  char            *brand;
  CmHistory       *history;
  /* The classes printed on the card, that its document is judged on. */
  GStrv            claims;

  /* The run. */
  CmJobState       state;
  double           progress;
  double           seconds_left;
  char            *phase;
  GCancellable    *cancellable;
  CmCardLock      *lock;
  char            *sighting;  /* the card as it was when the job began */
  CmCardInfo      *card;
  CmHostFacts     *host;
  GPtrArray       *notes;
  CmRunner        *runner;
  CmVerify        *verify;
  CmResult        *result;
  GError          *error;
  GFile           *saved;
  GError          *save_error;
};

G_DEFINE_FINAL_TYPE (CmJob, cm_job, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_KIND,
  PROP_TITLE,
  PROP_STATE,
  PROP_PROGRESS,
  PROP_SECONDS_LEFT,
  PROP_PHASE,
  PROP_RESULT,
  PROP_RUNNER,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  BUS_PAUSED,
  TEST_STARTED,
  SAMPLE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const char *
cm_job_state_to_string (CmJobState state)
{
  switch (state)
    {
    case CM_JOB_STATE_WAITING:
      return "waiting";
    case CM_JOB_STATE_RUNNING:
      return "running";
    case CM_JOB_STATE_PAUSED:
      return "paused";
    case CM_JOB_STATE_DONE:
      return "done";
    case CM_JOB_STATE_FAILED:
      return "failed";
    case CM_JOB_STATE_CANCELLED:
      return "cancelled";
    default:
      g_return_val_if_reached (NULL);
    }
}

static void
cm_job_finalize (GObject *object)
{
  CmJob *self = CM_JOB (object);

  g_free (self->path);
  g_clear_object (&self->device);
  g_clear_object (&self->monitor);
  g_clear_object (&self->options);
  g_free (self->name);
  g_free (self->brand);
  g_clear_object (&self->history);
  g_strfreev (self->claims);
  g_free (self->phase);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->lock, cm_card_lock_release);
  g_clear_pointer (&self->sighting, g_free);
  g_clear_object (&self->card);
  g_clear_pointer (&self->host, cm_host_facts_free);
  g_clear_pointer (&self->notes, g_ptr_array_unref);
  g_clear_object (&self->runner);
  g_clear_object (&self->verify);
  g_clear_object (&self->result);
  g_clear_error (&self->error);
  g_clear_object (&self->saved);
  g_clear_error (&self->save_error);

  G_OBJECT_CLASS (cm_job_parent_class)->finalize (object);
}

static void
cm_job_get_property (GObject    *object,
                     guint       prop_id,
                     GValue     *value,
                     GParamSpec *pspec)
{
  CmJob *self = CM_JOB (object);

  switch (prop_id)
    {
    case PROP_KIND:
      g_value_set_string (value, cm_job_get_kind (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, cm_job_get_title (self));
      break;
    case PROP_STATE:
      g_value_set_uint (value, self->state);
      break;
    case PROP_PROGRESS:
      g_value_set_double (value, self->progress);
      break;
    case PROP_SECONDS_LEFT:
      g_value_set_double (value, self->seconds_left);
      break;
    case PROP_PHASE:
      g_value_set_string (value, self->phase);
      break;
    case PROP_RESULT:
      g_value_set_object (value, self->result);
      break;
    case PROP_RUNNER:
      g_value_set_object (value, self->runner);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_class_init (CmJobClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = cm_job_finalize;
  object_class->get_property = cm_job_get_property;

  properties[PROP_KIND] =
    g_param_spec_string ("kind", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  /* A CmJobState. */
  properties[PROP_STATE] =
    g_param_spec_uint ("state", NULL, NULL, 0, CM_JOB_STATE_CANCELLED, CM_JOB_STATE_WAITING,
                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PROGRESS] =
    g_param_spec_double ("progress", NULL, NULL, 0, 1, 0,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_SECONDS_LEFT] =
    g_param_spec_double ("seconds-left", NULL, NULL, -1, G_MAXDOUBLE, -1,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_PHASE] =
    g_param_spec_string ("phase", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  properties[PROP_RESULT] =
    g_param_spec_object ("result", NULL, NULL, CM_TYPE_RESULT,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /* A benchmark's runner, set when its tests begin: its signals tell
   * each test and sample to whoever shows the run. */
  properties[PROP_RUNNER] =
    g_param_spec_object ("runner", NULL, NULL, CM_TYPE_RUNNER,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * CmJob::bus-paused:
   * @measurer: the card (its device, or "another program") whose speed
   *   test on the same bus a bulk job (verify, wear test) pauses for, or
   *   a benchmark waits for; the phase says so meanwhile
   */
  signals[BUS_PAUSED] = g_signal_new ("bus-paused", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                      0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /**
   * CmJob::test-started:
   * @index: the test's place in the run, from 0
   * @n_tests: how many the run has
   * @name: the test's name in the table of tests ("seq-write")
   *
   * A kind that runs tests one after another (a benchmark) began one.
   */
  signals[TEST_STARTED] = g_signal_new ("test-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                        0, NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_STRING);
  /**
   * CmJob::sample:
   * @test: the test it belongs to
   * @t: seconds into the test
   * @mb_per_s: the rate then
   * @iops: the commands a second then
   *
   * One point of the throughput as the run goes, a few a second.
   */
  signals[SAMPLE] = g_signal_new ("sample", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                                  G_TYPE_STRING, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
}

static void
cm_job_init (CmJob *self)
{
  self->state = CM_JOB_STATE_WAITING;
  self->seconds_left = -1;
  self->notes = g_ptr_array_new_with_free_func (g_free);
}

static CmJob *
job_new (const CmJobKind *kind)
{
  CmJob *self;

  self = g_object_new (CM_TYPE_JOB, NULL);
  self->kind = kind;
  return self;
}

/**
 * cm_job_new_of_kind:
 * @kind: a kind of the table: &cm_job_kind_verify
 * @target: a folder on the card, or its device, as the CLI's TARGET
 *
 * An empty @target is refused when the job runs, never taken as the
 * working folder.
 */
CmJob *
cm_job_new_of_kind (const CmJobKind *kind,
                    const char      *target)
{
  CmJob *self;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (target != NULL, NULL);

  self = job_new (kind);
  self->path = g_strdup (target);
  return self;
}

/* A job on a card the device list shows. */
CmJob *
cm_job_new_of_kind_for_device (const CmJobKind *kind,
                               CmDevice        *device)
{
  CmJob *self;

  g_return_val_if_fail (kind != NULL, NULL);
  g_return_val_if_fail (CM_IS_DEVICE (device), NULL);

  self = job_new (kind);
  self->device = g_object_ref (device);
  return self;
}

/**
 * cm_job_new:
 * @kind: a kind's name as text gives it (a document's, a test's)
 * @target: as cm_job_new_of_kind()
 *
 * For a kind named in text; code names it by pointer.
 */
CmJob *
cm_job_new (const char *kind,
            const char *target)
{
  const CmJobKind *row = cm_job_kinds_lookup (kind);

  g_return_val_if_fail (row != NULL, NULL);

  return cm_job_new_of_kind (row, target);
}

/* As cm_job_new(), on a card the device list shows. */
CmJob *
cm_job_new_for_device (const char *kind,
                       CmDevice   *device)
{
  const CmJobKind *row = cm_job_kinds_lookup (kind);

  g_return_val_if_fail (row != NULL, NULL);

  return cm_job_new_of_kind_for_device (row, device);
}

/* Settings. */

#define SETTER_GUARD(self) \
  g_return_if_fail (CM_IS_JOB (self)); \
  g_return_if_fail ((self)->state == CM_JOB_STATE_WAITING)

/* What the user calls the card; by default the device's name. */
void
cm_job_set_name (CmJob      *self,
                 const char *name)
{
  SETTER_GUARD (self);
  g_free (self->name);
  self->name = g_strdup (name);
}

void
cm_job_set_brand (CmJob      *self,
                  const char *brand)
{
  SETTER_GUARD (self);
  g_free (self->brand);
  self->brand = g_strdup (brand);
}

/* Where the finished document is kept; NULL keeps it nowhere. */
void
cm_job_set_history (CmJob     *self,
                    CmHistory *history)
{
  SETTER_GUARD (self);
  g_set_object (&self->history, history);
}

/* The monitor the device list already has, so that a folder's card is
 * looked up without a second UDisks client. */
void
cm_job_set_monitor (CmJob           *self,
                    CmDeviceMonitor *monitor)
{
  SETTER_GUARD (self);
  g_set_object (&self->monitor, monitor);
}

/* Open whole devices through UDisks even when we could open them
 * ourselves, so that polkit decides (the app does this). */
void
cm_job_set_prefer_udisks (CmJob    *self,
                          gboolean  prefer_udisks)
{
  SETTER_GUARD (self);
  self->prefer_udisks = prefer_udisks;
}

/* The classes printed on the card; NULL judges those it declares. */
void
cm_job_set_claims (CmJob              *self,
                   const char * const *claims)
{
  SETTER_GUARD (self);
  g_strfreev (self->claims);
  self->claims = g_strdupv ((char **) claims);
}

/* The history the job keeps its document in, or NULL. */
CmHistory *
cm_job_get_history (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);
  return self->history;
}

/**
 * cm_job_set_destroy_data:
 *
 * The person's leave to destroy everything on the card: a kind that
 * needs a whole card (CM_JOB_KIND_NEEDS_WHOLE_CARD) is refused without it.
 */
void
cm_job_set_destroy_data (CmJob    *self,
                         gboolean  destroy_data)
{
  SETTER_GUARD (self);
  self->destroy_data = !!destroy_data;
}

gboolean
cm_job_get_destroy_data (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), FALSE);
  return self->destroy_data;
}

/**
 * cm_job_get_options:
 *
 * The kind's own options (CmJobKind.options_type), made with their
 * defaults on the first ask; a face sets them (g_object_set()) before
 * the job runs, the kind reads them as it runs.
 *
 * Returns: (transfer none) (nullable): the options, %NULL for a kind
 *   that has none
 */
gpointer
cm_job_get_options (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  if (self->options == NULL && self->kind->options_type != NULL)
    self->options = g_object_new (self->kind->options_type (), NULL);
  return self->options;
}

/* What a kind reads. */

const char *cm_job_get_path (CmJob *job) { return job->path; }
CmCardInfo *cm_job_get_card (CmJob *job) { return job->card; }
gboolean cm_job_get_prefer_udisks (CmJob *job) { return job->prefer_udisks; }

/* What a kind that runs tests reports, for whoever shows the job. */
void
cm_job_report_test_started (CmJob      *job,
                            guint       index,
                            guint       n_tests,
                            const char *name)
{
  g_signal_emit (job, signals[TEST_STARTED], 0, index, n_tests, name);
}

void
cm_job_report_sample (CmJob      *job,
                      const char *test,
                      double      t,
                      double      mb_per_s,
                      double      iops)
{
  g_signal_emit (job, signals[SAMPLE], 0, test, t, mb_per_s, iops);
}

/* A bulk job waits for @measurer, a card on its bus that measures: its
 * phase says so until its next report. */
void
cm_job_report_bus_pause (CmJob      *job,
                         const char *measurer)
{
  /* Translators: %s is a device, such as /dev/sdc, or "another program" */
  g_autofree char *phase = g_strdup_printf (_("Paused while the card in %s measures its speed"), measurer);

  cm_job_report (job, job->progress, job->seconds_left, phase);
  g_signal_emit (job, signals[BUS_PAUSED], 0, measurer);
}

CmDeviceMonitor *cm_job_get_monitor (CmJob *job) { return job->monitor; }

/* The path a kind that takes a whole card works on: the one it was
 * given, else its device's; NULL when it has neither. */
const char *
cm_job_get_device_path (CmJob *job)
{
  if (cm_job_get_path (job) != NULL)
    return cm_job_get_path (job);
  return job->device != NULL ? cm_device_get_device (job->device) : NULL;
}
const char * const *cm_job_get_claims (CmJob *job) { return (const char * const *) job->claims; }

void
cm_job_set_runner (CmJob    *job,
                   CmRunner *runner)
{
  if (g_set_object (&job->runner, runner))
    g_object_notify_by_pspec (G_OBJECT (job), properties[PROP_RUNNER]);
}

void
cm_job_set_verify (CmJob    *job,
                   CmVerify *verify)
{
  g_set_object (&job->verify, verify);
}

static void
set_state (CmJob      *self,
           CmJobState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

void
cm_job_report (CmJob      *job,
               double      fraction,
               double      seconds_left,
               const char *phase)
{
  fraction = CLAMP (fraction, 0, 1);
  seconds_left = seconds_left < 0 ? -1 : seconds_left;
  /* Another program that shows the card reads it there. */
  cm_card_lock_note_progress (job->lock, job->kind->name, fraction);

  if (job->progress != fraction)
    {
      job->progress = fraction;
      g_object_notify_by_pspec (G_OBJECT (job), properties[PROP_PROGRESS]);
    }
  if (job->seconds_left != seconds_left)
    {
      job->seconds_left = seconds_left;
      g_object_notify_by_pspec (G_OBJECT (job), properties[PROP_SECONDS_LEFT]);
    }
  if (phase != NULL && g_strcmp0 (job->phase, phase) != 0)
    {
      g_free (job->phase);
      job->phase = g_strdup (phase);
      g_object_notify_by_pspec (G_OBJECT (job), properties[PROP_PHASE]);
    }
}

/* Getters. */

/* The document's kind: "bench", "capacity", "verify". */
const char *
cm_job_get_kind (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->kind->name;
}

/* The kind as people say it: "Benchmark". */
const char *
cm_job_get_title (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return g_dgettext (GETTEXT_PACKAGE, self->kind->title);
}

/* The folder or device the job was given, or the card's device. */
const char *
cm_job_get_target (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->path != NULL ? self->path : cm_device_get_device (self->device);
}

/* The card as UDisks shows it, once the job has found it. */
CmDevice *
cm_job_get_device (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->device;
}

CmJobState
cm_job_get_state (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), CM_JOB_STATE_FAILED);

  return self->state;
}

/* Waiting, running or paused: the card is the job's. */
gboolean
cm_job_is_active (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), FALSE);

  return self->state == CM_JOB_STATE_WAITING || self->state == CM_JOB_STATE_RUNNING ||
         self->state == CM_JOB_STATE_PAUSED;
}

double
cm_job_get_progress (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), 0);

  return self->progress;
}

double
cm_job_get_seconds_left (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), -1);

  return self->seconds_left;
}

/* What the job does now, in words, or NULL before it starts. */
const char *
cm_job_get_phase (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->phase;
}

CmResult *
cm_job_get_result (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->result;
}

const GError *
cm_job_get_error (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->error;
}

/* The history file the document went to, once the job is done. */
GFile *
cm_job_get_saved_file (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->saved;
}

/* Why the document could not be kept; the job itself still succeeded. */
const GError *
cm_job_get_save_error (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->save_error;
}

/* A benchmark's runner, once its tests begin: its signals tell each
 * test and sample. */
CmRunner *
cm_job_get_runner (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->runner;
}

/* A verify's own object, once it runs (its mode, folder, state). */
CmVerify *
cm_job_get_verify (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return self->verify;
}

/**
 * cm_job_dup_progress_text:
 *
 * The job's progress in one line, the same in the app's card list and
 * the CLI's progress line: "Writing, 40 % done, 25 seconds left".
 */
char *
cm_job_dup_progress_text (CmJob *self)
{
  const char *phase;
  g_autofree char *left = NULL;
  int percent;

  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  phase = self->phase != NULL ? self->phase : cm_job_get_title (self);
  percent = (int) (self->progress * 100);
  if (self->state == CM_JOB_STATE_WAITING)
    return g_strdup (_("Waiting…"));
  if (self->seconds_left < 0)
    /* Translators: "Writing signatures, 40 % done…" */
    return g_strdup_printf (_("%s, %d %% done…"), phase, percent);
  left = cm_duration_format (self->seconds_left);
  /* Translators: "Writing signatures, 40 % done, 25 seconds left" */
  return g_strdup_printf (_("%s, %d %% done, %s left"), phase, percent, left);
}

/**
 * cm_job_watch:
 * @progress: (nullable): called as @instance's method when the progress,
 *   the phase or the time left changes
 * @ended: (nullable): called as @instance's method when the state changes
 * @instance: a GObject; the handlers go with it
 *
 * What everything that follows a job connects to, in one call: the app
 * follows a job only through it.
 */
void
cm_job_watch (CmJob     *self,
              GCallback  progress,
              GCallback  ended,
              gpointer   instance)
{
  const char *changes[] = { "notify::progress", "notify::phase", "notify::seconds-left" };

  g_return_if_fail (CM_IS_JOB (self));
  g_return_if_fail (G_IS_OBJECT (instance));

  for (guint i = 0; progress != NULL && i < G_N_ELEMENTS (changes); i++)
    g_signal_connect_object (self, changes[i], progress, instance, G_CONNECT_SWAPPED);
  if (ended != NULL)
    g_signal_connect_object (self, "notify::state", ended, instance, G_CONNECT_SWAPPED);
}

/* The job and its progress in one line, as a card's row and the bar
 * over its page say it: "Full verify: Writing, 12 % done, 5 min left". */
char *
cm_job_dup_status_text (CmJob *self)
{
  g_autofree char *progress = NULL;

  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  progress = cm_job_dup_progress_text (self);
  /* Translators: a job and its progress: "Full verify: Writing, 12 % done, 5 min left" */
  return g_strdup_printf (_("%s: %s"), cm_job_get_title (self), progress);
}

/**
 * cm_job_dup_busy_text:
 *
 * Why another test of the card cannot start while @self runs on it: the
 * sentence a job that finds the card's lock held says, "This card is
 * busy: a full verify is running on it. …".
 */
char *
cm_job_dup_busy_text (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  return cm_card_lock_dup_busy_text (g_dgettext (GETTEXT_PACKAGE, self->kind->doing));
}

/**
 * cm_job_dup_stop_text:
 *
 * What stopping the job now does, in a line: "Wear test of /dev/sdb:
 * keeps the rounds it finished and where it stopped".
 */
char *
cm_job_dup_stop_text (CmJob *self)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);

  /* Translators: a job that runs and what stopping it does; "Full verify
   * of /dev/sdb: keeps what it did, to carry on later" */
  return g_strdup_printf (_("%s of %s: %s"), cm_job_get_title (self), cm_job_get_target (self),
                          self->kind->on_stop != NULL ? g_dgettext (GETTEXT_PACKAGE, self->kind->on_stop)
                                                      : _("stops"));
}

void
cm_job_cancel (CmJob *self)
{
  g_return_if_fail (CM_IS_JOB (self));

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
}

/* Describing the document: the same card the same way, whatever the
 * kind. */

static void
describe_target (CmJob    *self,
                 CmResult *result)
{
  CmReaderKind reader;

  if (self->device == NULL)
    return;

  reader = cm_bench_get_host_for_testing () != NULL ? CM_READER_SD_SLOT : cm_device_get_reader_kind (self->device);
  cm_result_set_target (result,
                        cm_result_get_target_path (result),
                        cm_result_get_target_mode (result),
                        cm_device_get_device (self->device),
                        cm_reader_kind_to_string (reader));
  cm_result_set_usb_speed_mbps (result, cm_device_get_usb_speed_mbps (self->device));
  if (cm_result_get_device_bytes (result) == 0)
    cm_result_set_device_bytes (result, cm_device_get_size (self->device));
}

/* What the user called the card, else its device's name, else the name
 * of a folder UDisks does not know. */
static void
describe_name (CmJob    *self,
               CmResult *result)
{
  g_autofree char *folder = NULL;

  if (self->name != NULL)
    cm_result_set_name (result, self->name);
  else if (self->device != NULL)
    cm_result_set_name (result, cm_device_get_name (self->device));
  else
    {
      folder = g_filename_display_basename (self->path);
      cm_result_set_name (result, folder);
    }
}

static void
describe_card (CmJob    *self,
               CmResult *result)
{
  if (self->card != NULL)
    cm_result_set_card (result, self->card);
  if (self->brand == NULL)
    return;

  if (cm_result_get_card (result) == NULL)
    {
      g_autoptr(CmCardInfo) card = cm_card_info_new ();

      cm_result_set_card (result, card);
    }
  cm_card_info_set_brand (cm_result_get_card (result), self->brand);
}

static void
describe (CmJob    *self,
          CmResult *result)
{
  cm_result_set_kind (result, self->kind->name);
  cm_result_set_host_facts (result, self->host);
  for (guint i = 0; i < self->notes->len; i++)
    if (!cm_result_has_note (result, g_ptr_array_index (self->notes, i)))
      cm_result_add_note (result, g_ptr_array_index (self->notes, i));
  describe_target (self, result);
  if (cm_result_get_sighting (result) == NULL)
    cm_result_set_sighting (result, self->sighting);
  describe_name (self, result);
  describe_card (self, result);
}

/* Reading the card once. */

/* Tests give a simulated card (or a folder) a card's registers, so that
 * what is known of a CID (tested before, cloned) can be tested. */
static void
read_test_registers (CmJob *self)
{
  const char *cid = cm_test_hook ("CARDMARK_TEST_CID");
  const char *csd = cm_test_hook ("CARDMARK_TEST_CSD");
  g_autoptr(GError) error = NULL;
  CmCardInfo *card;

  if (cid == NULL || *cid == '\0')
    return;
  if ((card = cm_card_info_new_from_registers (cid, csd, NULL, NULL, &error)) == NULL)
    {
      g_warning ("CARDMARK_TEST_CID: %s", error->message);
      return;
    }
  g_clear_object (&self->card);
  self->card = card;
}

static void
read_card_and_host (CmJob *self)
{
  const CmHostFacts *test_host = cm_bench_get_host_for_testing ();
  const char *sysfs = NULL;

  if (self->device != NULL)
    {
      self->card = cm_card_info_new_for_device (self->device);
      if (cm_device_get_reader_kind (self->device) == CM_READER_SD_SLOT)
        sysfs = cm_device_get_sysfs_device_dir (self->device);
    }
  read_test_registers (self);
  self->host = test_host != NULL ? cm_host_facts_copy (test_host) : cm_host_facts_read (sysfs);
}

/* The card UDisks shows for a path. Without UDisks, folders and devices
 * we may open still work; only what UDisks would have told about the
 * reader is missing. */
static void
find_device (CmJob *self)
{
  g_autoptr(GError) error = NULL;

  if (self->device != NULL)
    return;
  if (self->monitor == NULL)
    {
      self->monitor = cm_device_monitor_new (&error);
      if (self->monitor == NULL)
        {
          g_debug ("%s", error->message);
          return;
        }
      cm_device_monitor_set_show_loop (self->monitor, TRUE);
    }
  self->device = cm_device_monitor_lookup (self->monitor, self->path);
}

static gboolean
take_lock (CmJob   *self,
           GError **error)
{
  g_autofree char *what = NULL;
  const char *path = self->device != NULL ? cm_device_get_device (self->device) : self->path;

  /* Translators: what another job sees: "a verify (cardmark-cli, process 1234)" */
  what = g_strdup_printf (_("%s (%s, process %d)"), g_dgettext (GETTEXT_PACKAGE, self->kind->doing),
                          g_get_prgname () != NULL ? g_get_prgname () : "cardmark", (int) getpid ());
  self->lock = cm_card_lock_take (path, what, error);
  cm_card_lock_note_progress (self->lock, self->kind->name, self->progress);
  return self->lock != NULL;
}

/* What the kind needs (CmJobKind.needs), said once for every kind, before
 * the card is locked or touched. */
static gboolean
check_needs (CmJob   *self,
             GError **error)
{
  const char *path = cm_job_get_device_path (self);
  struct stat st;

  if (!(self->kind->needs & CM_JOB_KIND_NEEDS_WHOLE_CARD))
    return TRUE;

  if (path == NULL || stat (path, &st) != 0 || !S_ISBLK (st.st_mode))
    {
      /* Translators: the first %s is a path, the second a kind, "The power-cut test" */
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("%s is not a card's device. %s takes a whole unmounted card, such as /dev/mmcblk0."),
                   path != NULL ? path : "", g_dgettext (GETTEXT_PACKAGE, self->kind->title));
      return FALSE;
    }
  if (!self->destroy_data)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT,
                   g_dgettext (GETTEXT_PACKAGE, self->kind->consent), path);
      return FALSE;
    }
  return cm_card_check_whole_card (path, CM_CARD_USE_OVERWRITE, error) &&
         cm_card_check_not_open (path, error);
}

static void
finish (CmJob  *self,
        GTask  *task,
        GError *error)
{
  g_clear_pointer (&self->lock, cm_card_lock_release);
  g_clear_object (&self->cancellable);

  if (error != NULL)
    {
      g_clear_error (&self->error);
      self->error = g_error_copy (error);
      set_state (self, g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED)
                       ? CM_JOB_STATE_CANCELLED : CM_JOB_STATE_FAILED);
      g_task_return_error (task, error);
      return;
    }

  if (self->history != NULL)
    self->saved = cm_history_save (self->history, self->result, &self->save_error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESULT]);
  cm_job_report (self, 1, 0, NULL);
  set_state (self, CM_JOB_STATE_DONE);
  g_task_return_pointer (task, g_object_ref (self->result), g_object_unref);
}

static void
kind_done_cb (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CmJob *self = g_task_get_source_object (task);
  GError *error = NULL;
  CmResult *result = g_task_propagate_pointer (G_TASK (res), &error);

  if (result == NULL)
    {
      finish (self, task, error);
      return;
    }

  describe (self, result);
  if (self->kind->judge != NULL)
    self->kind->judge (self, result);
  self->result = result;
  finish (self, task, NULL);
}

/**
 * cm_job_run_async:
 *
 * Finds the card, takes it, reads it, and runs the kind. A job runs
 * once; cm_job_cancel() (or @cancellable) stops it.
 */
void
cm_job_run_async (CmJob               *self,
                  GCancellable        *cancellable,
                  GAsyncReadyCallback  callback,
                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) inner = NULL;
  GError *error = NULL;

  g_return_if_fail (CM_IS_JOB (self));
  g_return_if_fail (self->state == CM_JOB_STATE_WAITING && self->cancellable == NULL);

  self->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  task = g_task_new (self, self->cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_job_run_async);
  if (self->kind->keeps_stopped || self->kind->says_stop)
    g_task_set_check_cancellable (task, FALSE);

  if (self->path != NULL && *self->path == '\0')
    {
      finish (self, task, cm_target_error_empty_path ());
      return;
    }

  find_device (self);
  if (!check_needs (self, &error) || !take_lock (self, &error))
    {
      finish (self, task, error);
      return;
    }
  read_card_and_host (self);
  /* Seen now, before the run: a card swapped meanwhile is not this one. */
  self->sighting = cm_card_dup_sighting (self->device != NULL ? cm_device_get_device (self->device) : self->path);

  set_state (self, CM_JOB_STATE_RUNNING);
  inner = g_task_new (self, self->cancellable, kind_done_cb, g_steal_pointer (&task));
  if (self->kind->keeps_stopped || self->kind->says_stop)
    g_task_set_check_cancellable (inner, FALSE);
  self->kind->run (self, g_steal_pointer (&inner));
}

CmResult *
cm_job_run_finish (CmJob         *self,
                   GAsyncResult  *result,
                   GError       **error)
{
  g_return_val_if_fail (CM_IS_JOB (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
