/* cm-cli-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Turns the TARGET of "bench" into a target: a folder is tested in a
 * scratch file; a device that is mounted is tested through its mount
 * point unless --raw says otherwise; an unmounted device is read (and,
 * with --allow-write, written) whole, opened directly when we may, or
 * through UDisks so that polkit can ask. UDisks also tells which reader
 * holds the card, which the verdicts need.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <sys/stat.h>

#include "cm-device-monitor.h"

#include "cm-cli-target.h"

typedef struct
{
  GMainLoop *loop;
  int        fd;
  GError    *error;
} Opening;

static void
opened_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  Opening *opening = user_data;

  opening->fd = cm_device_open_finish (CM_DEVICE (object), result, &opening->error);
  g_main_loop_quit (opening->loop);
}

/* Asks UDisks for the device, so polkit can ask the user. */
static CmTarget *
open_through_udisks (CmDevice  *device,
                     gboolean   writable,
                     GError   **error)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Opening opening = { loop, -1, NULL };

  cm_device_open_async (device, writable, NULL, opened_cb, &opening);
  g_main_loop_run (loop);

  if (opening.fd < 0)
    {
      g_propagate_error (error, opening.error);
      return NULL;
    }

  return cm_target_new_for_fd (opening.fd, cm_device_get_device (device), writable, error);
}

static CmCardInfo *
read_card (CmDevice *device)
{
  const char *sysfs = cm_device_get_sysfs_device_dir (device);
  g_autoptr(GError) error = NULL;
  CmCardInfo *card;

  switch (cm_device_get_reader_kind (device))
    {
    case CM_READER_SD_SLOT:
      if (sysfs != NULL && (card = cm_card_info_new_from_sysfs (sysfs, &error)) != NULL)
        return card;
      return cm_card_info_new_unavailable (error ? error->message : _("The card's registers could not be read."));
    case CM_READER_USB:
      return cm_card_info_new_unavailable (_("The card's registers can't be read through this USB reader."));
    case CM_READER_LOOP:
    case CM_READER_OTHER:
    default:
      return NULL;
    }
}

static gboolean
is_block_device (const char *path)
{
  struct stat st;

  return stat (path, &st) == 0 && S_ISBLK (st.st_mode);
}

static CmDevice *
lookup_device (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(CmDeviceMonitor) monitor = cm_device_monitor_new (&error);

  /* Without UDisks, folders and devices we may open still work; only
   * what UDisks would have told about the reader is missing. */
  if (monitor == NULL)
    {
      g_debug ("%s", error->message);
      return NULL;
    }

  cm_device_monitor_set_show_loop (monitor, TRUE);
  return cm_device_monitor_lookup (monitor, path);
}

gboolean
cm_cli_target_resolve (CmCliTarget  *self,
                       const char   *path,
                       gboolean      raw,
                       gboolean      allow_write,
                       GError      **error)
{
  g_autoptr(GError) local_error = NULL;
  gboolean device = is_block_device (path);
  const char *open_path = path;

  memset (self, 0, sizeof *self);

  if (raw && !device)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("--raw needs a device such as /dev/mmcblk0, not a folder."));
      return FALSE;
    }

  self->device = lookup_device (path);

  /* A mounted card is tested safely through its filesystem unless the
   * user asked for the whole device. */
  if (device && !raw && !allow_write && self->device != NULL && cm_device_get_mounted (self->device))
    {
      open_path = cm_device_get_mount_points (self->device)[0];
      self->note = g_strdup_printf (_("%s is mounted, so CardMark tested a scratch file in %s. Use --raw to read the whole device."),
                                    path, open_path);
    }

  /* CARDMARK_OPEN_VIA_UDISKS lets the tests, who run as root, take the
   * path an ordinary user takes. */
  if (device && open_path == path && self->device != NULL && g_getenv ("CARDMARK_OPEN_VIA_UDISKS") != NULL)
    g_set_error_literal (&local_error, CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION, "");
  else
    self->target = cm_target_new_for_path (open_path, allow_write, &local_error);

  if (self->target == NULL && device && self->device != NULL &&
      g_error_matches (local_error, CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION))
    {
      if (allow_write && cm_target_device_is_mounted (path))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      g_clear_error (&local_error);
      self->target = open_through_udisks (self->device, allow_write, &local_error);
    }

  if (self->target == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  if (self->device != NULL)
    self->card = read_card (self->device);

  return TRUE;
}

void
cm_cli_target_describe (CmCliTarget *self,
                        CmResult    *result)
{
  g_autofree char *host = cm_host_dup_model ();

  cm_result_set_host (result, host);
  if (self->note != NULL)
    cm_result_add_note (result, self->note);
  if (self->card != NULL)
    cm_result_set_card (result, self->card);

  if (self->device == NULL)
    return;

  cm_result_set_target (result,
                        cm_result_get_target_path (result),
                        cm_result_get_target_mode (result),
                        cm_device_get_device (self->device),
                        cm_reader_kind_to_string (cm_device_get_reader_kind (self->device)));
  cm_result_set_usb_speed_mbps (result, cm_device_get_usb_speed_mbps (self->device));
  if (cm_result_get_name (result) == NULL)
    cm_result_set_name (result, cm_device_get_name (self->device));
}

void
cm_cli_target_clear (CmCliTarget *self)
{
  g_clear_object (&self->target);
  g_clear_object (&self->device);
  g_clear_object (&self->card);
  g_clear_pointer (&self->note, g_free);
}
