/* cm-job-open.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way a card job opens its target: a folder (a scratch file is
 * made in it later), or a whole device — directly when this process may,
 * else through UDisks, so that polkit asks the user. Every kind and
 * both faces open cards here.
 */

#include "config.h"

#include <sys/stat.h>

#include "cm-card-use.h"
#include "cm-test-hooks.h"

#include "cm-job-open.h"

typedef struct
{
  CmDevice *device;
  char     *path;
  gboolean  allow_write;
} OpenData;

static void
open_data_free (OpenData *data)
{
  g_clear_object (&data->device);
  g_free (data->path);
  g_free (data);
}

static gboolean
is_block_device (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISBLK (st.st_mode);
}

static void
device_opened_cb (GObject      *object,
                  GAsyncResult *res,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  GError *error = NULL;
  int fd = cm_device_open_finish (CM_DEVICE (object), res, &error);
  CmTarget *target = NULL;

  if (fd >= 0)
    target = cm_target_new_for_fd (fd, cm_device_get_device (data->device), data->allow_write, &error);
  if (target == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, target, g_object_unref);
}

/* Asks UDisks for the device, so polkit can ask the user. UDisks
 * refuses a mounted device but not a partition nor one on the system's
 * disk: the one rule for whole cards is asked first. */
static void
open_through_udisks (GTask *task)
{
  OpenData *data = g_task_get_task_data (task);
  GError *error = NULL;

  if (data->allow_write &&
      !cm_card_check_whole_card (cm_device_get_device (data->device), CM_CARD_USE_RAW_WRITE, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  cm_device_open_async (data->device, data->allow_write, g_task_get_cancellable (task),
                        device_opened_cb, task);
}

static void
open_path_thread (GTask        *task,
                  gpointer      source_object,
                  gpointer      task_data,
                  GCancellable *cancellable)
{
  OpenData *data = task_data;
  GError *error = NULL;
  CmTarget *target = cm_target_new_for_path (data->path, data->allow_write, &error);

  if (target == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, target, g_object_unref);
}

static void
path_opened_cb (GObject      *object,
                GAsyncResult *res,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  OpenData *data = g_task_get_task_data (task);
  g_autoptr(GError) error = NULL;
  CmTarget *target = g_task_propagate_pointer (G_TASK (res), &error);

  /* A device we may not open ourselves is asked of UDisks, except for
   * writes to a mounted one, which UDisks would refuse anyway. */
  if (target == NULL && data->device != NULL &&
      g_error_matches (error, CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION) &&
      !(data->allow_write && cm_card_in_use (data->path, NULL, NULL, NULL, NULL)))
    {
      open_through_udisks (g_steal_pointer (&task));
      return;
    }

  if (target == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, target, g_object_unref);
}

/**
 * cm_job_open_target_async:
 * @device: (nullable): the card as UDisks shows it, when it does
 * @path: the folder or device to open
 * @allow_write: a whole device is opened for writing (never when mounted)
 * @prefer_udisks: open @device through UDisks even when this process
 *   could open it itself, so polkit decides (the app does this)
 *
 * Opens a target for a job; the folder or device is opened in a worker
 * thread, so a slow card never blocks the main context.
 */
void
cm_job_open_target_async (CmDevice            *device,
                          const char          *path,
                          gboolean             allow_write,
                          gboolean             prefer_udisks,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  OpenData *data;

  g_return_if_fail (device == NULL || CM_IS_DEVICE (device));
  g_return_if_fail (path != NULL);

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_job_open_target_async);
  data = g_new0 (OpenData, 1);
  data->device = device != NULL ? g_object_ref (device) : NULL;
  data->path = g_strdup (path);
  data->allow_write = allow_write;
  g_task_set_task_data (task, data, (GDestroyNotify) open_data_free);

  /* CARDMARK_OPEN_VIA_UDISKS lets the tests, who run as root, take the
   * path an ordinary user takes. */
  if (device != NULL && is_block_device (path) &&
      g_strcmp0 (path, cm_device_get_device (device)) == 0 &&
      (prefer_udisks || cm_test_hook ("CARDMARK_OPEN_VIA_UDISKS") != NULL))
    {
      open_through_udisks (g_steal_pointer (&task));
      return;
    }

  {
    GTask *opening = g_task_new (NULL, cancellable, path_opened_cb, g_steal_pointer (&task));

    g_task_set_task_data (opening, data, NULL);
    g_task_run_in_thread (opening, open_path_thread);
    g_object_unref (opening);
  }
}

CmTarget *
cm_job_open_target_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == cm_job_open_target_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
