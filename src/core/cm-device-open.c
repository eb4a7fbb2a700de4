/* cm-device-open.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Raw access to a CmDevice through UDisks, so that polkit asks the user
 * instead of the app needing to run as root.
 */

#include "config.h"

#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-device-private.h"
#include "cm-device.h"

GError *
cm_device_error_no_service (void)
{
  return g_error_new_literal (CM_DEVICE_ERROR, CM_DEVICE_ERROR_NO_SERVICE,
                              _("The udisks2 service is not running. Install and start it "
                                "(sudo apt install udisks2) to see cards; testing a folder still works."));
}

GError *
cm_device_error_from_dbus (const GError *error)
{
  g_autofree char *remote = NULL;
  g_autoptr(GError) local = NULL;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || error->domain == CM_DEVICE_ERROR)
    return g_error_copy (error);

  remote = g_dbus_error_get_remote_error (error);
  local = g_error_copy (error);
  g_dbus_error_strip_remote_error (local);

  if (remote != NULL && g_str_has_prefix (remote, "org.freedesktop.UDisks2.Error.NotAuthorized"))
    return g_error_new_literal (CM_DEVICE_ERROR, CM_DEVICE_ERROR_NOT_AUTHORIZED,
                                _("Permission to open the card was refused."));

  if (g_strcmp0 (remote, "org.freedesktop.DBus.Error.UnknownObject") == 0 ||
      g_strcmp0 (remote, "org.freedesktop.DBus.Error.UnknownMethod") == 0 ||
      g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
      strstr (local->message, "No such device") != NULL ||
      strstr (local->message, "No medium found") != NULL ||
      strstr (local->message, "No such file or directory") != NULL)
    return g_error_new_literal (CM_DEVICE_ERROR, CM_DEVICE_ERROR_REMOVED,
                                _("The card was removed."));

  if (g_strcmp0 (remote, "org.freedesktop.UDisks2.Error.DeviceBusy") == 0 ||
      strstr (local->message, "Device or resource busy") != NULL)
    return g_error_new_literal (CM_DEVICE_ERROR, CM_DEVICE_ERROR_BUSY,
                                _("The card is in use. Unmount it (eject it in the file manager) and try again."));

  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
      g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return cm_device_error_no_service ();

  return g_error_new (CM_DEVICE_ERROR, CM_DEVICE_ERROR_FAILED,
                      _("The card could not be opened: %s"), local->message);
}

static int
fd_from_reply (GVariant     *handle,
               GUnixFDList  *fd_list,
               GError      **error)
{
  if (fd_list == NULL || handle == NULL)
    {
      g_set_error_literal (error, CM_DEVICE_ERROR, CM_DEVICE_ERROR_FAILED,
                           _("The card could not be opened: udisks2 sent no file descriptor."));
      return -1;
    }

  return g_unix_fd_list_get (fd_list, g_variant_get_handle (handle), error);
}

static void
open_for_benchmark_cb (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) handle = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(GError) error = NULL;
  int fd;

  if (!udisks_block_call_open_for_benchmark_finish (UDISKS_BLOCK (source), &handle, &fd_list, result, &error))
    {
      g_task_return_error (task, cm_device_error_from_dbus (error));
      return;
    }

  fd = fd_from_reply (handle, fd_list, &error);
  if (fd < 0)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_int (task, fd);
}

/* What one open asks, kept for asking again. */
typedef struct
{
  gboolean     writable;
  UDisksBlock *block;
  int          flags;
  guint        tries;
} Open;

static void
open_free (Open *open)
{
  g_clear_object (&open->block);
  g_free (open);
}

/* A card that is busy for a moment (udev probing it after a write, or
 * the job before this one letting go of it) is asked again, for up to
 * two seconds, before it is called in use. */
#define OPEN_TRIES    20
#define OPEN_RETRY_MS 100

static void open_device_cb (GObject      *source,
                            GAsyncResult *result,
                            gpointer      user_data);

static void
call_open_device (GTask *task)
{
  Open *open = g_task_get_task_data (task);
  GVariantBuilder options;

  open->tries++;
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "flags", g_variant_new_int32 (open->flags));
  udisks_block_call_open_device (open->block,
                                 open->writable ? "rw" : "r",
                                 g_variant_builder_end (&options),
                                 NULL,
                                 g_task_get_cancellable (task),
                                 open_device_cb,
                                 task);
}

static gboolean
open_again_cb (gpointer user_data)
{
  GTask *task = user_data;

  if (g_task_return_error_if_cancelled (task))
    g_object_unref (task);
  else
    call_open_device (task);
  return G_SOURCE_REMOVE;
}

static void
open_device_cb (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) handle = NULL;
  g_autoptr(GUnixFDList) fd_list = NULL;
  g_autoptr(GError) error = NULL;
  Open *open = g_task_get_task_data (task);
  gboolean writable = open->writable;
  GVariantBuilder options;
  int fd;

  if (udisks_block_call_open_device_finish (UDISKS_BLOCK (source), &handle, &fd_list, result, &error))
    {
      fd = fd_from_reply (handle, fd_list, &error);
      if (fd < 0)
        g_task_return_error (task, g_steal_pointer (&error));
      else
        g_task_return_int (task, fd);
      return;
    }

  if (!g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD))
    {
      GError *mapped = cm_device_error_from_dbus (error);

      if (g_error_matches (mapped, CM_DEVICE_ERROR, CM_DEVICE_ERROR_BUSY) && open->tries < OPEN_TRIES)
        {
          g_error_free (mapped);
          g_timeout_add (OPEN_RETRY_MS, open_again_cb, g_steal_pointer (&task));
          return;
        }
      g_task_return_error (task, mapped);
      return;
    }

  /* OpenDevice is missing from this udisksd; OpenForBenchmark opens
   * with O_DIRECT too. */
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "writable", g_variant_new_boolean (writable));
  udisks_block_call_open_for_benchmark (UDISKS_BLOCK (source),
                                        g_variant_builder_end (&options),
                                        NULL,
                                        g_task_get_cancellable (task),
                                        open_for_benchmark_cb,
                                        g_object_ref (task));
}

void
cm_device_open_async (CmDevice            *self,
                      gboolean             writable,
                      GCancellable        *cancellable,
                      GAsyncReadyCallback  callback,
                      gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(UDisksBlock) block = NULL;
  Open *open;
  int flags = O_DIRECT;

  g_return_if_fail (CM_IS_DEVICE (self));
  g_return_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_device_open_async);

  block = udisks_object_get_block (cm_device_get_object (self));
  /* A loop device or reader whose card was pulled stays known to UDisks,
   * with size zero. */
  if (block == NULL || udisks_block_get_size (block) == 0)
    {
      g_task_return_new_error (task, CM_DEVICE_ERROR, CM_DEVICE_ERROR_REMOVED,
                               "%s", _("The card was removed."));
      return;
    }

  /* Writing to a card something else has open would corrupt it. */
  if (writable)
    flags |= O_EXCL;

  open = g_new0 (Open, 1);
  open->writable = writable;
  open->block = g_object_ref (block);
  open->flags = flags;
  g_task_set_task_data (task, open, (GDestroyNotify) open_free);
  call_open_device (g_steal_pointer (&task));
}

int
cm_device_open_finish (CmDevice      *self,
                       GAsyncResult  *result,
                       GError       **error)
{
  g_return_val_if_fail (CM_IS_DEVICE (self), -1);
  g_return_val_if_fail (g_task_is_valid (result, self), -1);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == cm_device_open_async, -1);

  return (int) g_task_propagate_int (G_TASK (result), error);
}
