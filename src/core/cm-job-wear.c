/* cm-job-wear.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The wear test as a kind of card job: the rounds of cm-wear.c on the
 * whole unmounted card, in a worker thread, with their progress and each
 * finished round handed to the job's thread. Only with leave to destroy
 * the card's data (the job's consent, asked by the job for a kind that
 * needs a whole card), never on a card in use.
 * A test that is stopped after a round or more keeps the rounds it
 * finished, in its document; one stopped before ends cancelled.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "cm-health-transport.h"
#include "cm-job-open.h"
#include "cm-job-kind.h"
#include "cm-summary.h"
#include "cm-target.h"
#include "cm-wear-state.h"

#include "cm-job-wear.h"

/* The options, the kind's own (cm-job-wear.h). */

struct _CmJobWearOptions
{
  GObject             parent_instance;

  guint               rounds;
  double              seconds;
  guint64             maker_bytes;
  gboolean            resume;
  gboolean            carry_on;
  CmJobWearRoundFunc  round_func;
  gpointer            round_data;
};

G_DEFINE_FINAL_TYPE (CmJobWearOptions, cm_job_wear_options, G_TYPE_OBJECT)

enum {
  OPT_0,
  OPT_ROUNDS,
  OPT_SECONDS,
  OPT_MAKER_BYTES,
  OPT_RESUME,
  OPT_CARRY_ON,
  N_OPTS
};

static GParamSpec *options_props[N_OPTS];

static void
cm_job_wear_options_get_property (GObject    *object,
                                  guint       prop_id,
                                  GValue     *value,
                                  GParamSpec *pspec)
{
  CmJobWearOptions *self = CM_JOB_WEAR_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_ROUNDS:
      g_value_set_uint (value, self->rounds);
      break;
    case OPT_SECONDS:
      g_value_set_double (value, self->seconds);
      break;
    case OPT_MAKER_BYTES:
      g_value_set_uint64 (value, self->maker_bytes);
      break;
    case OPT_RESUME:
      g_value_set_boolean (value, self->resume);
      break;
    case OPT_CARRY_ON:
      g_value_set_boolean (value, self->carry_on);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_wear_options_set_property (GObject      *object,
                                  guint         prop_id,
                                  const GValue *value,
                                  GParamSpec   *pspec)
{
  CmJobWearOptions *self = CM_JOB_WEAR_OPTIONS (object);

  switch (prop_id)
    {
    case OPT_ROUNDS:
      self->rounds = g_value_get_uint (value);
      break;
    case OPT_SECONDS:
      self->seconds = g_value_get_double (value);
      break;
    case OPT_MAKER_BYTES:
      self->maker_bytes = g_value_get_uint64 (value);
      break;
    case OPT_RESUME:
      self->resume = g_value_get_boolean (value);
      break;
    case OPT_CARRY_ON:
      self->carry_on = g_value_get_boolean (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_wear_options_class_init (CmJobWearOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS;

  object_class->get_property = cm_job_wear_options_get_property;
  object_class->set_property = cm_job_wear_options_set_property;

  /* The CLI's --rounds: its help line and its bounds. */
  options_props[OPT_ROUNDS] =
    g_param_spec_uint ("rounds", NULL, N_("Stop after N rounds, earlier runs included (default: no limit)"),
                       0, 1000000, 0, flags);
  options_props[OPT_SECONDS] = g_param_spec_double ("seconds", NULL, NULL, 0, G_MAXDOUBLE, 0, flags);
  options_props[OPT_MAKER_BYTES] = g_param_spec_uint64 ("maker-bytes", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  options_props[OPT_RESUME] = g_param_spec_boolean ("resume", NULL, NULL, FALSE, flags);
  options_props[OPT_CARRY_ON] = g_param_spec_boolean ("carry-on", NULL, NULL, FALSE, flags);
  g_object_class_install_properties (object_class, N_OPTS, options_props);
}

static void
cm_job_wear_options_init (CmJobWearOptions *self)
{
}

/**
 * cm_job_wear_options_set_round_func:
 * @func: (nullable): called on the job's thread as each round ends
 *
 * Set before the job runs.
 */
void
cm_job_wear_options_set_round_func (CmJobWearOptions   *self,
                                    CmJobWearRoundFunc  func,
                                    gpointer            user_data)
{
  g_return_if_fail (CM_IS_JOB_WEAR_OPTIONS (self));

  self->round_func = func;
  self->round_data = user_data;
}

/* The kind. */

typedef struct
{
  CmJob        *job;
  GMainContext *context;
  CmTarget     *target;
  char         *device;
  GDateTime    *started;
  CmWearLimits  limits;
  CmWearState  *state;
  gboolean      resume;
  GTask        *outer;       /* the job's, for the CmResult */
  CmEndurance  *endurance;
  GError       *error;
  /* The card's own health (CMD56), asked around each round where the
   * card can be asked; the last answer goes to the document's card. */
  gboolean      ask_health;
  char         *replay;
  CmHealth      health;
} WearJob;

static void
wear_job_free (WearJob *w)
{
  g_clear_object (&w->job);
  g_clear_pointer (&w->context, g_main_context_unref);
  g_clear_object (&w->target);
  g_free (w->device);
  g_free (w->replay);
  g_clear_pointer (&w->started, g_date_time_unref);
  g_clear_pointer (&w->state, cm_wear_state_free);
  g_clear_pointer (&w->endurance, cm_endurance_free);
  g_clear_error (&w->error);
  g_free (w);
}

typedef struct
{
  CmJob       *job;
  guint        round;
  gboolean     reading;
  guint64      bad_sectors;   /* so far in the round */
  double       fraction;
  double       seconds_left;
  gboolean     is_round;
  CmWearRound  done;
  gboolean     is_pause;
  char        *measurer;   /* is_pause: whom it waits for, NULL when done waiting */
} Report;

static void
round_done (CmJob             *job,
            const CmWearRound *round)
{
  CmJobWearOptions *options = cm_job_get_options (job);

  if (options->round_func != NULL)
    options->round_func (job, round, options->round_data);
}

static gboolean
report_in_job (gpointer data)
{
  Report *r = data;

  if (r->is_round)
    round_done (r->job, &r->done);
  else if (r->is_pause)
    {
      if (r->measurer != NULL)
        cm_job_report_bus_pause (r->job, r->measurer);
    }
  else
    {
      g_autofree char *phase = NULL;

      if (r->reading && r->bad_sectors > 0)
        /* Translators: a wear test's phase; %llu counts 512-byte sectors */
        phase = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Round %u: reading back, %llu bad sector so far",
                                              "Round %u: reading back, %llu bad sectors so far", r->bad_sectors),
                                 r->round, (unsigned long long) r->bad_sectors);
      else if (r->reading)
        /* Translators: a wear test's phase */
        phase = g_strdup_printf (_("Round %u: reading back, no bad sector so far"), r->round);
      else
        phase = g_strdup_printf (_("Round %u: writing"), r->round);

      cm_job_report (r->job, r->fraction, r->seconds_left, phase);
    }
  return G_SOURCE_REMOVE;
}

static void
report_free (gpointer data)
{
  Report *r = data;

  g_object_unref (r->job);
  g_free (r->measurer);
  g_free (r);
}

static void
progress_cb (guint    round,
             gboolean reading,
             double   fraction,
             double   seconds_left,
             guint64  bad_sectors,
             gpointer user_data)
{
  WearJob *w = user_data;
  Report *r = g_new0 (Report, 1);

  r->job = g_object_ref (w->job);
  r->round = round;
  r->reading = reading;
  r->bad_sectors = bad_sectors;
  r->fraction = fraction;
  r->seconds_left = seconds_left;
  g_main_context_invoke_full (w->context, G_PRIORITY_DEFAULT, report_in_job, r, report_free);
}

static void
round_done_cb (const CmWearRound *round,
               gpointer           user_data)
{
  WearJob *w = user_data;
  Report *r = g_new0 (Report, 1);

  r->job = g_object_ref (w->job);
  r->is_round = TRUE;
  r->done = *round;
  g_main_context_invoke_full (w->context, G_PRIORITY_DEFAULT, report_in_job, r, report_free);
}

static void
paused_cb (const char *measurer,
           gpointer    user_data)
{
  WearJob *w = user_data;
  Report *r = g_new0 (Report, 1);

  r->job = g_object_ref (w->job);
  r->is_pause = TRUE;
  r->measurer = g_strdup (measurer);
  g_main_context_invoke_full (w->context, G_PRIORITY_DEFAULT, report_in_job, r, report_free);
}

/* On the worker thread, before and after each round. */
static gint64
flash_written_cb (int      fd,
                  gpointer user_data)
{
  WearJob *w = user_data;
  CmHealth health;

  if (w->replay != NULL)
    cm_health_read_replay (w->replay, &health);
  else if (w->ask_health)
    cm_health_read_card (fd, &health, NULL);
  else
    return -1;
  if (health.state != CM_HEALTH_KNOWN)
    return -1;
  w->health = health;
  return health.flash_bytes_written;
}

static const CmWearCallbacks callbacks = { progress_cb, round_done_cb, paused_cb, flash_written_cb };

static void
thread_func (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  WearJob *w = task_data;

  w->endurance = cm_wear_run (cm_target_get_fd (w->target), cm_target_get_size (w->target),
                              w->state, w->resume, &w->limits, &callbacks, w, cancellable, &w->error);
  g_task_return_boolean (task, TRUE);
}

static CmResult *
make_result (WearJob *w)
{
  CmResult *result = cm_result_new ();
  g_autofree char *summary = cm_endurance_describe (w->endurance);

  cm_result_set_started (result, w->started);
  cm_result_set_profile (result, "wear");
  cm_result_set_target (result, w->device, "raw-write", w->device, NULL);
  cm_result_set_direct_io (result, TRUE);
  cm_result_set_area_bytes (result, cm_target_get_size (w->target));
  cm_result_set_endurance (result, w->endurance);
  cm_result_set_summary (result, summary);
  if (w->health.state == CM_HEALTH_KNOWN && cm_job_get_card (w->job) != NULL)
    cm_card_info_set_health (cm_job_get_card (w->job), &w->health);
  else if (w->health.state == CM_HEALTH_KNOWN)
    {
      g_autoptr(CmCardInfo) bare = cm_card_info_new ();

      cm_card_info_set_health (bare, &w->health);
      cm_result_set_card (result, bare);
    }
  if (g_strcmp0 (w->endurance->stopped, "cancelled") == 0)
    cm_result_add_note (result, _("The wear test was stopped before its end; the rounds it finished are kept here."));
  else if (g_strcmp0 (w->endurance->stopped, "half-bad") == 0)
    cm_result_add_note (result, _("The wear test ended because half of the card came back wrong in one round."));
  cm_result_add_shared_bus_note (result, (const char * const *) w->endurance->shared_bus_with, NULL);
  if (w->error != NULL && !g_error_matches (w->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    cm_result_add_note (result, w->error->message);
  if (cm_wear_state_exists (w->state))
    cm_result_add_note (result, _("Where the wear test stopped is kept, so it can carry on from there."));
  return result;
}

/* Rounds finished make a document however the run ended; none, the
 * error (or the stop) is the job's end. */
static void
done_cb (GObject      *object,
         GAsyncResult *res,
         gpointer      user_data)
{
  WearJob *w = user_data;
  GTask *outer = w->outer;

  cm_target_close (w->target);
  if (w->endurance == NULL || w->endurance->rounds->len == 0)
    {
      GError *error;

      /* Stopped in round 1: say that where it stood is kept, when it is. */
      if (w->error != NULL && !g_error_matches (w->error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        error = g_steal_pointer (&w->error);
      else if (cm_wear_state_exists (w->state))
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                     _("The wear test was stopped before its first round ended. Where it stood is kept, "
                                       "so it can carry on from there."));
      else
        error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_CANCELLED,
                                     _("The wear test was stopped before its first round ended."));

      g_task_return_error (outer, error);
    }
  else
    g_task_return_pointer (outer, make_result (w), g_object_unref);
  g_object_unref (outer);
}

/* Whether to carry on from a saved state: when asked to resume (or the
 * app's carry-on, when one is saved). A saved state is never dropped silently:
 * a new test while one is saved is refused, saying how to carry on. */
static gboolean
choose_start (CmJob     *job,
              CmTarget  *target,
              gboolean  *resume,
              GError   **error)
{
  CmJobWearOptions *options = cm_job_get_options (job);
  g_autoptr(CmWearState) state = cm_wear_state_new (cm_target_get_path (target), cm_target_get_size (target), NULL);
  g_autofree char *where = NULL;

  *resume = options->resume || (options->carry_on && cm_wear_state_exists (state));
  if (*resume || !cm_wear_state_exists (state))
    return TRUE;
  where = cm_wear_state_describe (state);
  if (where == NULL)
    g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_SAVED,
                 _("A stopped wear test of %s is saved in %s, but it cannot be read back. Nothing was written: "
                   "delete %s to start over."),
                 cm_target_get_path (target), cm_wear_state_get_path (state), cm_wear_state_get_path (state));
  else
    g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_SAVED,
                 _("A stopped wear test of %s is saved (it stopped in %s). Nothing was written: carry on with "
                   "it, or delete %s to start over."),
                 cm_target_get_path (target), where, cm_wear_state_get_path (state));
  return FALSE;
}

/* When the test began: a test carried on keeps its first start, so its
 * document takes the place of the one its stop saved (cm_history_save). */
static GDateTime *
start_time (CmWearState *state,
            gboolean     resume)
{
  gint64 saved = resume ? cm_wear_state_get_started (state) : 0;

  return g_date_time_new_from_unix_utc (saved > 0 ? saved : g_get_real_time () / G_USEC_PER_SEC);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  GTask *task = user_data;
  CmJob *job = g_task_get_source_object (task);
  g_autoptr(GTask) worker = NULL;
  GError *error = NULL;
  CmTarget *target = cm_job_open_target_finish (res, &error);
  CmJobWearOptions *options = cm_job_get_options (job);
  gboolean resume = FALSE;
  WearJob *w;

  if (target == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }
  if (cm_target_get_write_protected (target))
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                               _("%s is write-protected, so the wear test cannot write to it. Slide the card's lock switch up, or use another card."),
                               cm_target_get_path (target));
      g_object_unref (target);
      g_object_unref (task);
      return;
    }

  if (!choose_start (job, target, &resume, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (target);
      g_object_unref (task);
      return;
    }

  w = g_new0 (WearJob, 1);
  w->resume = resume;
  w->state = cm_wear_state_new (cm_target_get_path (target), cm_target_get_size (target), NULL);
  w->job = g_object_ref (job);
  w->context = g_main_context_ref_thread_default ();
  w->target = target;
  w->device = g_strdup (cm_target_get_path (target));
  w->ask_health = cm_job_get_device (job) != NULL &&
                  cm_device_get_reader_kind (cm_job_get_device (job)) == CM_READER_SD_SLOT;
  w->replay = g_strdup (cm_health_replay_folder ());
  cm_health_init_unknown (&w->health, CM_HEALTH_NOT_KNOWN);
  w->started = start_time (w->state, resume);
  w->limits.started = g_date_time_to_unix (w->started);
  w->limits.maker_bytes = options->maker_bytes;
  w->limits.rounds = options->rounds;
  w->limits.seconds = options->seconds;
  w->outer = task;

  cm_job_report (job, 0, -1, _("Round 1: writing"));
  worker = g_task_new (job, g_task_get_cancellable (task), done_cb, w);
  g_task_set_check_cancellable (worker, FALSE);
  g_task_set_task_data (worker, w, (GDestroyNotify) wear_job_free);
  g_task_run_in_thread (worker, thread_func);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_device_path (job);

  /* A whole card nothing uses, and the leave to destroy its data: the
   * job checked them (CM_JOB_KIND_NEEDS_WHOLE_CARD). The app opens the
   * device through UDisks, so that polkit can ask. */
  cm_job_report (job, 0, -1, _("Opening the card"));
  cm_job_open_target_async (device, path, TRUE, cm_job_get_prefer_udisks (job),
                            g_task_get_cancellable (task), opened_cb, task);
}

/* Lasted N rounds, Data lost from round N, or Stopped: a test stopped
 * by hand or by a pulled card before it lost data is no pass. */
static CmOutcome *
outcome (CmResult *result)
{
  const CmEndurance *endurance = cm_result_get_endurance (result);
  g_autofree char *badge = NULL;
  g_autofree char *answer = NULL;
  CmOutcome *outcome;
  guint rounds;

  if (endurance == NULL)
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not judged"), NULL);
  rounds = endurance->rounds->len;
  if (cm_endurance_lost_data (endurance))
    {
      guint first = cm_endurance_get_first_error_round (endurance);

      /* Translators: a badge: the round a wear test first lost data in */
      badge = g_strdup_printf (_("Data lost from round %u"), first);
      /* Translators: a wear test's answer: the round data was first lost in, and how many ran */
      answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Data lost from round %u · %u round run",
                                             "Data lost from round %u · %u rounds run", rounds), first, rounds);
      outcome = cm_outcome_new (CM_OUTCOME_FAIL, CM_STATUS_BELOW, badge, answer);
      outcome->exit_status = 4;
      return outcome;
    }
  if (g_strcmp0 (endurance->stopped, "cancelled") == 0 || g_strcmp0 (endurance->stopped, "card-gone") == 0 ||
      g_strcmp0 (endurance->stopped, "failed") == 0)
    {
      if (g_strcmp0 (endurance->stopped, "failed") == 0)
        /* Translators: a wear test's answer when the card refused the work */
        answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Stopped: the card failed after %u round · no data lost so far",
                                               "Stopped: the card failed after %u rounds · no data lost so far",
                                               rounds), rounds);
      else if (g_strcmp0 (endurance->stopped, "card-gone") == 0)
        /* Translators: a wear test's answer when the card was pulled out */
        answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Stopped: the card went away after %u round · no data lost so far",
                                               "Stopped: the card went away after %u rounds · no data lost so far",
                                               rounds), rounds);
      else
        /* Translators: a wear test's answer when it was stopped by hand */
        answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "Stopped after %u round · no data lost so far",
                                               "Stopped after %u rounds · no data lost so far", rounds), rounds);
      /* Translators: a badge: a job that was stopped before its end */
      outcome = cm_outcome_new (CM_OUTCOME_STOPPED, CM_STATUS_NOT_JUDGED, _("Stopped"), answer);
      /* A card that went away, or refused the work, is a run that
       * failed (DESIGN, "CLI"). */
      if (g_strcmp0 (endurance->stopped, "cancelled") != 0)
        outcome->exit_status = 1;
      return outcome;
    }
  /* Translators: a badge: how many rounds a wear test's card lasted */
  badge = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Lasted %u round", "Lasted %u rounds", rounds), rounds);
  /* Translators: a wear test's answer */
  answer = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Every round came back whole · %u round",
                                         "Every round came back whole · %u rounds", rounds), rounds);
  return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, badge, answer);
}

/* A wear test: how many rounds, the round data was first lost in, what
 * was written in all, and the last round's speeds. */
static void
headline (CmResult  *result,
          GPtrArray *figures)
{
  const CmEndurance *endurance = cm_result_get_endurance (result);
  const CmWearRound *last;
  guint first;

  if (endurance == NULL || endurance->rounds->len == 0)
    return;
  last = &g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1);
  first = cm_endurance_get_first_error_round (endurance);
  /* Translators: a wear test's figure: how many rounds of writing the whole card ran */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Rounds"), g_strdup_printf ("%u", endurance->rounds->len));
  /* Translators: a wear test's figure: the round data was first lost in, or "None" */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("First data lost"),
              first > 0 ? g_strdup_printf (_("Round %u"), first) : g_strdup (_("None")));
  /* Translators: a wear test's figure: everything written to the card */
  cm_summary_add_figure (figures, NULL, CM_DIRECTION_WRITE, _("Written in all"), g_format_size (last->bytes_written));
  if (last->read_mb_per_s > 0)
    /* Translators: a wear test's figure: the last round's read-back speed */
    cm_summary_add_figure (figures, NULL, CM_DIRECTION_READ, _("Last read back"), cm_summary_format_rate (last->read_mb_per_s, "MB/s"));
}

/* A wear test writes the whole card every round. */
static guint64
card_bytes (CmResult *result)
{
  const CmEndurance *endurance = cm_result_get_endurance (result);

  if (endurance == NULL || endurance->rounds->len == 0)
    return 0;
  return g_array_index (endurance->rounds, CmWearRound, 0).sectors * 512;
}

/* What its last round did not read back. */
static gint64
lost_bytes (CmResult *result)
{
  const CmEndurance *endurance = cm_result_get_endurance (result);

  if (endurance == NULL || endurance->rounds->len == 0)
    return -1;
  return g_array_index (endurance->rounds, CmWearRound, endurance->rounds->len - 1).bad_sectors * 512;
}

const CmJobKind cm_job_kind_wear = {
  .name = "wear",
  .title = N_("Wear test"),
  .doing = N_("a wear test"),
  .writes = TRUE,
  .erases = TRUE,
  /* Translators: what stopping it does, after "Wear test of /dev/sdb: " */
  .on_stop = N_("keeps the rounds it finished and where it stopped"),
  .keeps_stopped = TRUE,
  .run = run,
  .outcome = outcome,
  .headline = headline,
  .needs = CM_JOB_KIND_NEEDS_WHOLE_CARD,
  /* Translators: %s is the card's device */
  .consent = N_("The wear test overwrites all of %s, round after round, destroying everything on it and wearing the card out."),
  .options_type = cm_job_wear_options_get_type,
  .card_bytes = card_bytes,
  .lost_bytes = lost_bytes,
};
