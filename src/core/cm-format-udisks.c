/* cm-format-udisks.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Steps 3 and 4 of an erase and format (cm-format.c) for a user who is
 * not root. The card is open through UDisks (OpenDevice), so the erase
 * and the partition table, written through that handle, are as root's;
 * what needs root after them (making the kernel reread the table,
 * opening the partition) is asked of UDisks instead:
 *
 * - a loop device over the partition's bytes of the card, set up by
 *   UDisks from the card's own handle (Manager.LoopSetup with the
 *   partition's offset and size): it works whether or not the kernel
 *   shows partitions, and needs no partition device;
 * - the file system made on it by UDisks' Format, with the label asked
 *   for: UDisks runs mkfs with arguments of its own, so the type and the
 *   cluster size are mkfs's choice. They are read back from the boot
 *   sector on the card and reported as what was made;
 * - UDisks' Filesystem.Check where it can check the type (the manager's
 *   CanCheck); where it cannot, the report says the file system was not
 *   checked, and why;
 * - the loop device deleted, and the boot sector told where the
 *   partition starts (an exFAT's boot regions, a FAT's hidden sectors),
 *   as root's mkfs arguments and window do.
 *
 * Blocking D-Bus calls: this runs in the job's worker thread.
 */

#include "config.h"

#include <errno.h>
#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>
#include <udisks/udisks.h>
#include <unistd.h>

#include "cm-format-private.h"
#include "cm-target.h"

#define CM_UDISKS_NAME    "org.freedesktop.UDisks2"
#define CM_UDISKS_MANAGER "/org/freedesktop/UDisks2/Manager"

/* UDisks' answer, as a sentence: the remote error's own words, cleaned. */
static void
set_udisks_error (GError     **error,
                  GError      *remote,
                  const char  *doing)
{
  g_autofree char *words = NULL;

  if (g_error_matches (remote, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, remote);
      return;
    }
  g_dbus_error_strip_remote_error (remote);
  words = cm_format_clean_output (remote->message);
  /* Translators: the first %s is a step, "make the file system", the second UDisks' words */
  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
               _("UDisks could not %s: %s. The card is erased and its partition table written; "
                 "format it again, or format it as root."), doing, g_strstrip (words));
  g_error_free (remote);
}

/* UDisks' name for the file system type. */
static const char *
udisks_type (CmFormatFs fs)
{
  return fs == CM_FORMAT_FS_EXFAT ? "exfat" : "vfat";
}

/* Asks UDisks whether it can check @type; NULL when it can, else why
 * not, in words. */
static char *
why_not_checked (UDisksManager *manager,
                 const char    *type,
                 const char    *name,
                 GCancellable  *cancellable)
{
  g_autoptr(GVariant) available = NULL;
  g_autoptr(GError) error = NULL;
  gboolean can = FALSE;
  const char *util = NULL;

  if (udisks_manager_call_can_check_sync (manager, type, &available, cancellable, &error))
    g_variant_get (available, "(b&s)", &can, &util);
  if (can)
    return NULL;
  if (util != NULL && *util != '\0')
    /* Translators: why a format's file system was not checked; %s is a program, fsck.vfat */
    return g_strdup_printf (_("UDisks cannot check it here, as %s is not installed"), util);
  /* Translators: why a format's file system was not checked; %s is exFAT or FAT */
  return g_strdup_printf (_("UDisks cannot check %s file systems on this computer"), name);
}

/* The partition's type in the MBR says what mkfs made (a FAT32 where
 * the specification asked for FAT16), so that nothing reading the table
 * expects another file system. */
static gboolean
set_mbr_type (int              fd,
              CmFormatReport  *report,
              GError         **error)
{
  g_autofree guint8 *head = NULL;
  guint8 type = cm_format_fs_mbr_type (report->layout.fs);

  if (type == report->layout.mbr_type)
    return TRUE;
  head = cm_format_aligned_buffer (4096);
  if (!cm_format_io_at (fd, FALSE, head, 4096, 0, error))
    return FALSE;
  head[446 + 4] = type;
  if (!cm_format_io_at (fd, TRUE, head, 4096, 0, error))
    return FALSE;
  report->layout.mbr_type = type;
  return TRUE;
}

/* mkfs.fat on a loop device records no sectors before its partition:
 * the boot sector (and a FAT32's backup of it) is told, as root's -h
 * does. Nothing else in it depends on that field. */
static gboolean
fat_set_hidden (int              fd,
                CmFormatReport  *report,
                GError         **error)
{
  g_autofree guint8 *head = cm_format_aligned_buffer (4096);
  guint32 hidden = report->layout.start / 512;
  guint copies[2] = { 0, 0 };

  if (!cm_format_io_at (fd, FALSE, head, 4096, report->layout.start, error))
    return FALSE;
  /* A FAT32's backup boot sector: BPB_BkBootSec, in sectors. */
  if (report->layout.fs == CM_FORMAT_FS_FAT32)
    copies[1] = head[50] | head[51] << 8;
  for (guint i = 0; i < G_N_ELEMENTS (copies); i++)
    {
      guint64 at = report->layout.start + (guint64) copies[i] * 512;
      guint64 block = at / 4096 * 4096;
      guint8 *bs;

      if (i > 0 && (copies[i] == 0 || copies[i] == 0xffff))
        break;
      if (!cm_format_io_at (fd, FALSE, head, 4096, block, error))
        return FALSE;
      bs = head + (at - block);
      bs[28] = hidden & 0xff, bs[29] = (hidden >> 8) & 0xff, bs[30] = (hidden >> 16) & 0xff, bs[31] = hidden >> 24;
      if (!cm_format_io_at (fd, TRUE, head, 4096, block, error))
        return FALSE;
    }
  return cm_format_sync_boot (fd, error);
}

gboolean
cm_format_udisks_make_fs (int              fd,
                          CmFormatReport  *report,
                          GCancellable    *cancellable,
                          GError         **error)
{
  const char *type = udisks_type (report->layout.fs);
  g_autoptr(UDisksManager) manager = NULL;
  g_autoptr(UDisksBlock) block = NULL;
  g_autoptr(UDisksLoop) loop = NULL;
  g_autoptr(GUnixFDList) fds = g_unix_fd_list_new ();
  g_autofree char *path = NULL;
  g_autofree char *why = NULL;
  GVariantBuilder options;
  GError *local = NULL;
  gboolean ok = FALSE;

  manager = udisks_manager_proxy_new_for_bus_sync (G_BUS_TYPE_SYSTEM, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                                   CM_UDISKS_NAME, CM_UDISKS_MANAGER, cancellable, &local);
  if (manager == NULL || g_unix_fd_list_append (fds, fd, &local) < 0)
    {
      set_udisks_error (error, local, _("reach the partition"));
      return FALSE;
    }
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  g_variant_builder_add (&options, "{sv}", "offset", g_variant_new_uint64 (report->layout.start));
  g_variant_builder_add (&options, "{sv}", "size", g_variant_new_uint64 (report->layout.length));
  g_variant_builder_add (&options, "{sv}", "no-part-scan", g_variant_new_boolean (TRUE));
  if (!udisks_manager_call_loop_setup_sync (manager, g_variant_new_handle (0), g_variant_builder_end (&options),
                                            fds, &path, NULL, cancellable, &local))
    {
      set_udisks_error (error, local, _("reach the partition"));
      return FALSE;
    }

  block = udisks_block_proxy_new_for_bus_sync (G_BUS_TYPE_SYSTEM, G_DBUS_PROXY_FLAGS_NONE, CM_UDISKS_NAME, path,
                                               cancellable, &local);
  loop = block == NULL ? NULL
         : udisks_loop_proxy_new_for_bus_sync (G_BUS_TYPE_SYSTEM, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                               CM_UDISKS_NAME, path, cancellable, &local);
  if (loop == NULL)
    {
      set_udisks_error (error, local, _("reach the partition"));
      goto out;
    }
  g_free (report->partition);
  report->partition = cm_format_clean_output (udisks_block_get_device (block));
  report->window = TRUE;

  /* mkfs on a large card takes longer than D-Bus's 25 s. */
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (block), G_MAXINT);
  g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
  if (report->label != NULL)
    g_variant_builder_add (&options, "{sv}", "label", g_variant_new_string (report->label));
  if (!udisks_block_call_format_sync (block, type, g_variant_builder_end (&options), cancellable, &local))
    {
      set_udisks_error (error, local, _("make the file system"));
      goto out;
    }

  why = why_not_checked (manager, type, report->layout.fs == CM_FORMAT_FS_EXFAT ? "exFAT" : "FAT", cancellable);
  if (why == NULL)
    {
      g_autoptr(UDisksFilesystem) fs = NULL;
      gboolean consistent = FALSE;

      fs = udisks_filesystem_proxy_new_for_bus_sync (G_BUS_TYPE_SYSTEM, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                                     CM_UDISKS_NAME, path, cancellable, &local);
      if (fs != NULL)
        g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (fs), G_MAXINT);
      g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
      if (fs == NULL ||
          !udisks_filesystem_call_check_sync (fs, g_variant_builder_end (&options), &consistent, cancellable, &local))
        {
          set_udisks_error (error, local, _("check the file system"));
          goto out;
        }
      report->fsck_ran = TRUE;
      report->fsck_clean = consistent;
      report->fsck_output = g_strdup (consistent ? _("UDisks' check found nothing to mend.")
                                                 : _("UDisks' check found faults in the new file system."));
    }
  else
    {
      report->fsck_ran = FALSE;
      report->fsck_clean = FALSE;
      report->fsck_output = g_steal_pointer (&why);
    }
  ok = TRUE;

out:
  if (loop != NULL)
    {
      g_autoptr(GError) ignored = NULL;

      g_variant_builder_init (&options, G_VARIANT_TYPE_VARDICT);
      /* UDisks' loop device holds the card: it goes before the card
       * is read back and handed on. */
      if (!udisks_loop_call_delete_sync (loop, g_variant_builder_end (&options), NULL, &ignored) && ok)
        {
          set_udisks_error (error, g_steal_pointer (&ignored), _("let go of the partition"));
          ok = FALSE;
        }
    }
  if (!ok)
    return FALSE;

  /* What mkfs made, from the card itself. */
  if (!cm_format_read_boot (fd, report, error) || !set_mbr_type (fd, report, error))
    return FALSE;
  if (report->layout.fs == CM_FORMAT_FS_EXFAT)
    return cm_format_exfat_set_offset (fd, report->layout.start, report, error);
  return fat_set_hidden (fd, report, error);
}
