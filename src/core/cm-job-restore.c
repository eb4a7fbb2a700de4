/* cm-job-restore.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Putting back what an interrupted capacity check overwrote, as a kind
 * of card job: the card's lock is held while it writes (no other check
 * can start on the card meanwhile), the app keeps the computer awake and
 * lists it on the card's row, and both faces start it the same way. The
 * journal is found and proved to be this card's by cm-capacity-journal.c;
 * the document (kind "restore") says how many blocks came back, and is
 * not kept in the history.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/stat.h>

#include "cm-capacity-probe.h"
#include "cm-job-open.h"
#include "cm-job-kind.h"
#include "cm-target.h"

typedef struct
{
  CmTarget *target;
  char     *device;
} Restore;

static void
restore_free (Restore *r)
{
  if (r->target != NULL)
    cm_target_close (r->target);
  g_clear_object (&r->target);
  g_free (r->device);
  g_free (r);
}

static void
restored_cb (GObject      *object,
             GAsyncResult *res,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Restore *r = g_task_get_task_data (task);
  g_autoptr(CmResult) result = cm_result_new ();
  g_autofree char *note = NULL;
  const char *more = NULL;
  GError *error = NULL;
  guint n = 0;

  if (!cm_capacity_restore_finish (res, &n, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  cm_result_set_target (result, r->device, "raw-write", r->device, NULL);
  cm_result_set_area_bytes (result, cm_target_get_size (r->target));
  if (!cm_capacity_restore_get_found (res, &more))
    {
      /* Translators: %s is a device, "/dev/sdb" */
      note = g_strdup_printf (_("No interrupted capacity check of the card in %s: nothing to put back."), r->device);
      cm_result_set_summary (result, note);
      cm_result_set_profile (result, "nothing");
      g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
      return;
    }
  if (more != NULL)
    cm_result_add_note (result, more);
  /* Translators: %u blocks of 4 KiB, %s a device, "/dev/sdb" */
  note = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "Put back %u block the interrupted capacity check had overwritten: the card in %s holds its own data again.",
                                       "Put back %u blocks the interrupted capacity check had overwritten: the card in %s holds its own data again.",
                                       n),
                          n, r->device);
  cm_result_set_summary (result, note);
  g_task_return_pointer (task, g_steal_pointer (&result), g_object_unref);
}

static void
opened_cb (GObject      *object,
           GAsyncResult *res,
           gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Restore *r = g_task_get_task_data (task);
  CmJob *job = g_task_get_source_object (task);
  GCancellable *cancellable = g_task_get_cancellable (task);
  GError *error = NULL;

  r->target = cm_job_open_target_finish (res, &error);
  if (r->target == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  cm_job_report (job, 0.1, -1, _("Putting back the card's own data"));
  cm_capacity_restore_async (cm_target_get_fd (r->target), r->device, cm_target_get_size (r->target),
                             cancellable, restored_cb, g_steal_pointer (&task));
}

static void
run (CmJob *job,
     GTask *task)
{
  CmDevice *device = cm_job_get_device (job);
  const char *path = cm_job_get_path (job) != NULL ? cm_job_get_path (job) : cm_device_get_device (device);
  Restore *r = g_new0 (Restore, 1);
  struct stat st;

  r->device = g_strdup (path);
  g_task_set_task_data (task, r, (GDestroyNotify) restore_free);
  if (stat (path, &st) == 0 && !S_ISBLK (st.st_mode))
    {
      g_task_return_new_error (task, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                               _("%s is not a device. Putting back a capacity check's data needs the card's device, such as /dev/sdb."),
                               path);
      g_object_unref (task);
      return;
    }
  cm_job_report (job, 0, -1, _("Opening the card"));
  cm_job_open_target_async (device, path, TRUE, cm_job_get_prefer_udisks (job),
                            g_task_get_cancellable (task), opened_cb, task);
}

/* Put back: the card's data is its own again; or there was nothing. */
static CmOutcome *
outcome (CmResult *result)
{
  if (g_strcmp0 (cm_result_get_profile (result), "nothing") == 0)
    /* Translators: a badge: there was no interrupted check to undo */
    return cm_outcome_new (CM_OUTCOME_NOT_JUDGED, CM_STATUS_NOT_JUDGED, _("Nothing to put back"),
                           cm_result_get_summary (result));
  /* Translators: a badge: an interrupted check's data was put back */
  return cm_outcome_new (CM_OUTCOME_PASS, CM_STATUS_MEETS, _("Put back"), cm_result_get_summary (result));
}

const CmJobKind cm_job_kind_restore = {
  .name = "restore",
  .title = N_("Restore"),
  .doing = N_("putting back a capacity check's data"),
  .writes = TRUE,
  /* Translators: what stopping it does, after "Restore of /dev/sdb: " */
  .on_stop = N_("keeps the journal, to finish later"),
  .run = run,
  .outcome = outcome,
};
