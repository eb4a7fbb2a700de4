/* cm-job-list.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The app's card jobs, in one list: every job (a benchmark, a capacity
 * check, a verify, a wear test) is started here and kept until it ends,
 * whichever page or row started it. Pages and rows only watch a job, so
 * a job goes on when its page is left and is found again when the page
 * is opened again. The application watches the list ("busy") to keep
 * the computer awake and itself running while any job runs.
 */

#include "config.h"

#include <glib/gi18n-lib.h>

#include "cm-card-lock.h"
#include "cm-job-kinds.h"

#include "cm-job-list.h"

struct _CmJobList
{
  GObject     parent_instance;

  GListStore *jobs;   /* CmJob, each from its start until it ends */
  gboolean    busy;
};

G_DEFINE_FINAL_TYPE (CmJobList, cm_job_list, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  JOB_STARTED,
  JOB_ENDED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
cm_job_list_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  CmJobList *self = CM_JOB_LIST (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
cm_job_list_finalize (GObject *object)
{
  CmJobList *self = CM_JOB_LIST (object);

  g_clear_object (&self->jobs);

  G_OBJECT_CLASS (cm_job_list_parent_class)->finalize (object);
}

static void
cm_job_list_class_init (CmJobListClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = cm_job_list_get_property;
  object_class->finalize = cm_job_list_finalize;

  /* Whether any job of the list runs. */
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[JOB_STARTED] = g_signal_new ("job-started", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                       0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_JOB);
  signals[JOB_ENDED] = g_signal_new ("job-ended", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                     0, NULL, NULL, NULL, G_TYPE_NONE, 1, CM_TYPE_JOB);
}

static void
cm_job_list_init (CmJobList *self)
{
  self->jobs = g_list_store_new (CM_TYPE_JOB);
}

/* The one list of the process. */
CmJobList *
cm_job_list_get_default (void)
{
  static CmJobList *list;

  if (list == NULL)
    list = g_object_new (CM_TYPE_JOB_LIST, NULL);
  return list;
}

/* The jobs that run, in the order they started. */
GListModel *
cm_job_list_get_model (CmJobList *self)
{
  g_return_val_if_fail (CM_IS_JOB_LIST (self), NULL);

  return G_LIST_MODEL (self->jobs);
}

gboolean
cm_job_list_get_busy (CmJobList *self)
{
  guint n;

  g_return_val_if_fail (CM_IS_JOB_LIST (self), FALSE);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (cm_job_is_active (job))
        return TRUE;
    }
  return FALSE;
}

static void
update_busy (CmJobList *self)
{
  gboolean busy = cm_job_list_get_busy (self);

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
job_done_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(CmJobList) self = user_data;
  g_autoptr(CmResult) result = NULL;
  guint position;

  /* Whoever started the job watches its state; its result and error
   * stay on the job. */
  result = cm_job_run_finish (CM_JOB (object), res, NULL);
  if (g_list_store_find (self->jobs, object, &position))
    g_list_store_remove (self->jobs, position);
  update_busy (self);
  g_signal_emit (self, signals[JOB_ENDED], 0, object);
}

/**
 * cm_job_list_start:
 * @job: a job not started yet
 *
 * Keeps @job in the list and runs it with its own cancellable. Watch its
 * "state" for the end: the job is still in the list when it changes, and
 * leaves it right after. A second job on a card refuses to start, with
 * the lock's sentence as its error.
 */
void
cm_job_list_start (CmJobList *self,
                   CmJob     *job)
{
  g_return_if_fail (CM_IS_JOB_LIST (self));
  g_return_if_fail (CM_IS_JOB (job));
  g_return_if_fail (cm_job_get_state (job) == CM_JOB_STATE_WAITING);

  g_list_store_append (self->jobs, job);
  g_signal_emit (self, signals[JOB_STARTED], 0, job);
  cm_job_run_async (job, NULL, job_done_cb, g_object_ref (self));
  update_busy (self);
}

/* Whether @job works on @item's card: its device, its folder. */
gboolean
cm_job_is_for_item (CmJob      *job,
                    CmCardItem *item)
{
  const char *target = cm_job_get_target (job);
  CmDevice *device = cm_job_get_device (job);
  const char *names[] = { cm_card_item_get_device (item), cm_card_item_get_file_folder (item),
                          cm_card_item_get_mount_point (item) };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (names[i] != NULL && (g_strcmp0 (target, names[i]) == 0 ||
                             (device != NULL && g_strcmp0 (cm_device_get_device (device), names[i]) == 0)))
      return TRUE;
  return FALSE;
}

/* The job that runs on @item's card (its device or its folder), or NULL. */
CmJob *
cm_job_list_lookup (CmJobList  *self,
                    CmCardItem *item)
{
  guint n;

  g_return_val_if_fail (CM_IS_JOB_LIST (self), NULL);
  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      if (cm_job_is_active (job) && cm_job_is_for_item (job, item))
        return job;  /* the list keeps its reference */
    }
  return NULL;
}

/* Stops every job; each ends in its own time (a verify saves its state,
 * a capacity check puts the card's data back). */
void
cm_job_list_cancel_all (CmJobList *self)
{
  guint n;

  g_return_if_fail (CM_IS_JOB_LIST (self));

  n = g_list_model_get_n_items (G_LIST_MODEL (self->jobs));
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(CmJob) job = g_list_model_get_item (G_LIST_MODEL (self->jobs), i);

      cm_job_cancel (job);
    }
}

/**
 * cm_job_list_dup_outside_text:
 * @item: a card
 * @fraction: (out) (optional): how far that job is, 0 to 1; -1 when it
 *   does not say
 *
 * A job another program runs on @item's card (cardmark-cli, another
 * copy of the app), in a line: "Wear test in cardmark-cli, process
 * 1234: 42 % done", or whose it is when another user's program holds
 * it. Looked up in the card's lock (cm_card_lock_peek()), without
 * taking it.
 *
 * Returns: (nullable): %NULL when no other program holds the card
 */
char *
cm_job_list_dup_outside_text (CmCardItem *item,
                              double     *fraction)
{
  const char *path = cm_card_item_get_device (item) != NULL ? cm_card_item_get_device (item)
                                                            : cm_card_item_get_mount_point (item);
  CmCardLockSight sight;
  const CmJobKind *kind;
  const char *program;
  char *text;

  g_return_val_if_fail (CM_IS_CARD_ITEM (item), NULL);

  if (fraction != NULL)
    *fraction = -1;
  if (path == NULL || !cm_card_lock_peek (path, &sight))
    return NULL;
  kind = sight.kind != NULL ? cm_job_kinds_lookup (sight.kind) : NULL;
  /* Translators: a program that holds a card, when its name is not known */
  program = sight.holder.program != NULL ? sight.holder.program : _("another program");
  if (cm_lock_holder_is_stranger (&sight.holder))
    text = cm_card_lock_dup_stranger_text (path, &sight.holder);
  else if (kind != NULL && sight.percent >= 0)
    {
      /* Translators: "Wear test in cardmark-cli, process 1234: 42 % done" */
      text = g_strdup_printf (_("%s in %s, process %d: %d %% done"), g_dgettext (GETTEXT_PACKAGE, kind->title),
                              program, (int) sight.holder.pid, sight.percent);
      if (fraction != NULL)
        *fraction = sight.percent / 100.0;
    }
  else
    text = cm_card_lock_dup_busy_text (sight.words);
  cm_card_lock_sight_clear (&sight);
  return text;
}
