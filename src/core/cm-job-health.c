/* cm-job-health.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The health read as a kind of card job: CMD56 asked of a card in a
 * built-in slot (cm-health-transport.c), read-only and a few seconds
 * at most, its answer kept as the document's `card.health`. A card
 * behind a USB reader or a loop device cannot be asked: the document
 * says so, and nothing is judged.
 *
 * The card is opened read-only through the one opener every kind uses
 * (cm-job-open.c), but without a CmDevice, so that it never turns to
 * UDisks: the kernel lets only CAP_SYS_RAWIO send CMD56, whoever opened
 * the device, so a descriptor from UDisks would cost a polkit prompt and
 * still be refused. Where this process may not open the card, the
 * pkexec helper asks it instead (cm-health-helper.c).
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "cm-health-helper.h"
#include "cm-job-open.h"
#include "cm-health-transport.h"
#include "cm-target.h"
#include "cm-job-kind.h"

typedef struct
{
  char     *path;
  gboolean  slot;
  char     *replay;
  CmTarget *target;   /* the card, opened read-only; NULL if not allowed */
  CmHealth  health;
  char     *note;
} Read;

static void
read_free (Read *read)
{
  g_free (read->path);
  g_free (read->replay);
  g_clear_object (&read->target);
  g_free (read->note);
  g_free (read);
}

static void
read_thread (GTask        *task,
             gpointer      source,
             gpointer      task_data,
             GCancellable *cancellable)
{
  Read *read = task_data;
  g_autoptr(GError) error = NULL;

  if (read->replay != NULL)
    {
      cm_health_read_replay (read->replay, &read->health);
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (!read->slot)
    {
      cm_health_init_unknown (&read->health, CM_HEALTH_NO_ACCESS);
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* Not allowed to ask is no failure of the card: not known, and why. */
  cm_health_read_as_user (read->target != NULL ? cm_target_get_fd (read->target) : -1,
                          read->path, &read->health, cancellable, &error);
  if (error != NULL)
    read->note = g_strdup (error->message);
  g_task_return_boolean (task, TRUE);
}

static CmResult *
new_result (CmJob *job,
            Read  *read)
{
  CmResult *result = cm_result_new ();
  CmCardInfo *card = cm_job_get_card (job);
  g_autofree char *summary = cm_health_describe (&read->health);

  cm_result_set_profile (result, "health");
  cm_result_set_target (result, read->path, "raw-read", read->path, NULL);
  cm_result_set_summary (result, summary);
  if (read->note != NULL)
    cm_result_add_note (result, read->note);
  /* The job sets its card on the document; one with no registers (a
   * loop device) still gets a card to hold the answer. */
  if (card != NULL)
    cm_card_info_set_health (card, &read->health);
  else
    {
      g_autoptr(CmCardInfo) bare = cm_card_info_new ();

      cm_card_info_set_health (bare, &read->health);
      cm_result_set_card (result, bare);
    }
  return result;
}

static void
read_done_cb (GObject      *object,
              GAsyncResult *res,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  CmJob *job = g_task_get_source_object (task);
  Read *read = g_task_get_task_data (G_TASK (res));
  GError *error = NULL;

  if (!g_task_propagate_boolean (G_TASK (res), &error))
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, new_result (job, read), g_object_unref);
}

static void
start_read (GTask *task,
            Read  *read)
{
  CmJob *job = g_task_get_source_object (task);
  g_autoptr(GTask) thread = g_task_new (job, g_task_get_cancellable (task), read_done_cb, task);

  g_task_set_task_data (thread, read, (GDestroyNotify) read_free);
  g_task_run_in_thread (thread, read_thread);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  GTask *task = user_data;
  Read *read = g_object_steal_data (G_OBJECT (task), "read");
  g_autoptr(GError) error = NULL;

  read->target = cm_job_open_target_finish (res, &error);
  /* Not allowed to open it: the helper asks, as root. */
  if (read->target == NULL && !g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION))
    {
      read_free (read);
      g_task_return_error (task, g_steal_pointer (&error));
      g_object_unref (task);
      return;
    }
  start_read (task, read);
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_path (job);
  Read *read = g_new0 (Read, 1);

  if (device != NULL)
    path = cm_device_get_device (device);
  read->path = g_strdup (path);
  read->slot = device != NULL && cm_device_get_reader_kind (device) == CM_READER_SD_SLOT;
  read->replay = g_strdup (cm_health_replay_folder ());

  cm_job_report (job, 0, -1, _("Asking the card how worn it is"));
  if (read->replay != NULL || !read->slot)
    {
      start_read (task, read);
      return;
    }
  /* Read-only: the command reads the card's own table, not its data. No
   * device, so the opener never asks UDisks (see above). */
  g_object_set_data (G_OBJECT (task), "read", read);
  cm_job_open_target_async (NULL, read->path, FALSE, FALSE, g_task_get_cancellable (task),
                            opened_cb, task);
}

/* "12 % of its life used", in a tone by how worn; else not known. */
static CmOutcome *
outcome (CmResult *result)
{
  CmCardInfo *card = cm_result_get_card (result);
  const CmHealth *health = card != NULL ? cm_card_info_get_health (card) : NULL;
  g_autofree char *said = NULL;
  g_autofree char *badge = NULL;
  CmStatus tone;

  if (health != NULL && health->state == CM_HEALTH_KNOWN && health->life_used_percent < 0)
    {
      /* It answered, with counts but no share of its life. */
      said = cm_health_describe (health);
      /* Translators: a badge: the card told its counts, not its life used */
      return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Life not told"), said);
    }
  if (health == NULL || health->state != CM_HEALTH_KNOWN)
    {
      GPtrArray *notes = cm_result_get_notes (result);
      const char *why = NULL;
      CmHealth unknown;

      if (health == NULL)
        cm_health_init_unknown (&unknown, CM_HEALTH_NOT_KNOWN);
      said = cm_health_describe (health != NULL ? health : &unknown);
      if (health != NULL && health->state == CM_HEALTH_NO_ACCESS)
        why = said;
      /* Why it could not be asked (no password given, a Flatpak), where
       * the read said so. */
      else if (notes != NULL && notes->len > 0)
        why = g_ptr_array_index (notes, 0);
      /* Translators: a badge: the card's wear is not known */
      return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Not known"), why);
    }
  said = cm_health_describe (health);
  if (health->life_used_percent >= 90)
    tone = CM_STATUS_BELOW;
  else if (health->life_used_percent >= 70)
    tone = CM_STATUS_MARGINAL;
  else
    tone = CM_STATUS_MEETS;
  /* Translators: a badge: how much of its life a card used, "12 % used" */
  badge = g_strdup_printf (_("%.0f %% used"), floor (health->life_used_percent));
  return cm_outcome_new (CM_OUTCOME_PASS, tone, badge, said);
}

const CmJobKind cm_job_kind_health = {
  .name = "health",
  .title = N_("Health"),
  .doing = N_("a health read"),
  .writes = FALSE,
  /* Translators: what stopping it does, after "Health of /dev/mmcblk0: " */
  .on_stop = N_("asks nothing more of the card"),
  .run = run,
  .outcome = outcome,
};
