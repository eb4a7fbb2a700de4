/* cm-target.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What a run measures: a scratch file in a folder (file mode) or a whole
 * block device (raw mode). The target owns the file descriptor and makes
 * sure nothing is left behind.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-card-use.h"
#include "cm-test-hooks.h"

#include "cm-target.h"

#define SCRATCH_PREFIX ".cardmark-"
#define MIN_AREA (16 * 1024 * 1024)

struct _CmTarget
{
  GObject       parent_instance;

  CmMethod      mode;
  char         *path;
  char         *device;
  int           fd;
  gboolean      owns_fd;
  gboolean      direct_io;
  gboolean      write_protected;
  guint64       size;
  guint64       area_bytes;
};

G_DEFINE_FINAL_TYPE (CmTarget, cm_target, G_TYPE_OBJECT)

G_DEFINE_QUARK (cm-target-error-quark, cm_target_error)

static void
cm_target_finalize (GObject *object)
{
  CmTarget *self = (CmTarget *) object;

  cm_target_close (self);
  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->device, g_free);

  G_OBJECT_CLASS (cm_target_parent_class)->finalize (object);
}

static void
cm_target_class_init (CmTargetClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_target_finalize;
}

static void
cm_target_init (CmTarget *self)
{
  self->fd = -1;
  self->direct_io = TRUE;
}

/* Turns an errno from open or I/O into words that say what to do. @path
 * is what was opened, or NULL for an error while reading or writing the
 * card itself. */
GError *
cm_target_error_from_errno (int         errsv,
                            const char *path)
{
  switch (errsv)
    {
    case ENOENT:
      if (path == NULL)
        break;
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_FOUND,
                          _("There is nothing at %s. Check the path and try again."), path);
    case EACCES:
    case EPERM:
      /* A write to a read-only block device gets EPERM. */
      if (path == NULL)
        return cm_target_error_from_errno (EROFS, NULL);
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_PERMISSION,
                          _("Permission to use %s was refused. Choose a folder you can write to, or run the test as a user allowed to open the card."), path);
    case EROFS:
      if (path == NULL)
        return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                            _("The card is write-protected. Slide its lock switch up and try again."));
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                          _("%s is write-protected. Slide the card's lock switch up, or remount it read-write, and try again."), path);
    case ENOSPC:
    case EDQUOT:
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_NO_SPACE,
                          _("The card is full. Free some space on it and try again."));
    case ENODEV:
    case ENXIO:
    case ESHUTDOWN:
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED,
                          _("The card was removed during the test. Insert it again and restart the test."));
    case EBUSY:
      if (path == NULL)
        return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED,
                            _("The card is in use by another program. Unmount it or close that program first."));
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_MOUNTED,
                          _("%s is in use by another program. Unmount it or close that program first."), path);
    case ELOOP:
      /* O_NOFOLLOW met a link: never the card's own doing. */
      if (path == NULL)
        return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                            _("A file CardMark was to use is a link, and CardMark opens nothing through a link. "
                              "Remove the link and try again."));
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                          _("%s is a link, and CardMark opens nothing through a link. Give the file or folder itself, "
                            "or remove the link, and try again."), path);
    case EIO:
      return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                          _("The card reported an I/O error. It may be failing, or was pulled out; reinsert it and try again, and back up its data."));
    default:
      break;
    }

  if (path == NULL)
    return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                        _("The card reported an error: %s"), g_strerror (errsv));
  return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                      _("Could not use %s: %s"), path, g_strerror (errsv));
}

/* One sentence naming what is at a path that is not what a test needs,
 * so /dev/null or a FIFO is not called a folder. */
static char *
dup_kind_sentence (const char *path)
{
  struct stat st;

  if (stat (path, &st) != 0)
    return g_strdup_printf (_("There is nothing at %s."), path);
  if (S_ISDIR (st.st_mode))
    return g_strdup_printf (_("%s is a folder."), path);
  if (S_ISREG (st.st_mode))
    return g_strdup_printf (_("%s is an ordinary file."), path);
  if (S_ISBLK (st.st_mode))
    return g_strdup_printf (_("%s is a block device."), path);
  if (S_ISCHR (st.st_mode))
    return g_strdup_printf (_("%s is a character device, not a block device like a card."), path);
  if (S_ISFIFO (st.st_mode))
    return g_strdup_printf (_("%s is a named pipe (FIFO)."), path);
  if (S_ISSOCK (st.st_mode))
    return g_strdup_printf (_("%s is a socket."), path);
  return g_strdup_printf (_("%s is neither a folder nor a device."), path);
}

/* The error for a target of the wrong kind: what it is, then what to
 * give instead — a device when @need_device (a raw test), else a folder
 * or a device. */
GError *
cm_target_error_wrong_kind (const char *path,
                            gboolean    need_device)
{
  g_autofree char *kind = NULL;
  const char *advice;

  g_return_val_if_fail (path != NULL, NULL);

  kind = dup_kind_sentence (path);
  if (need_device)
    advice = _("A raw test needs the card's block device, such as /dev/mmcblk0.");
  else
    advice = _("Give a folder on the card for a safe test in a scratch file, or the card's device, such as /dev/mmcblk0.");

  /* Translators: two sentences, the first saying what a path is, the
   * second what to give instead. */
  return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                      C_("two sentences", "%s %s"), kind, advice);
}

/**
 * cm_target_error_empty_path:
 *
 * Returns: the error for a target whose name is empty: the file
 *   functions would take "" for the working folder, and test the
 *   computer's own disk.
 */
GError *
cm_target_error_empty_path (void)
{
  return g_error_new_literal (CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_FOUND,
                              _("No target was given: its name is empty. Give a folder on the card or the card's device, such as /dev/mmcblk0."));
}

static gboolean
set_errno_error (GError     **error,
                 int          errsv,
                 const char  *path)
{
  g_propagate_error (error, cm_target_error_from_errno (errsv, path));
  return FALSE;
}

/**
 * cm_target_get_bytes_written:
 * @self: a raw target
 * @bytes: (out): what the kernel counts as written to the card so far
 *
 * Reads the card's write counter (sectors written, in its sysfs stat) —
 * of the whole card when the target is a partition, so writes through
 * the whole device count too. Comparing it before and after a run with
 * what the run wrote itself shows whether another program wrote to the
 * card meanwhile.
 *
 * Returns: %FALSE when there is no counter (a regular file, no sysfs).
 */
gboolean
cm_target_get_bytes_written (CmTarget *self,
                             guint64  *bytes)
{
  g_autofree char *sysdir = NULL;
  g_autofree char *partition = NULL;
  g_autofree char *stat_path = NULL;
  g_autofree char *contents = NULL;
  guint64 sectors;
  struct stat st;

  g_return_val_if_fail (CM_IS_TARGET (self), FALSE);
  g_return_val_if_fail (bytes != NULL, FALSE);

  if (self->fd < 0 || fstat (self->fd, &st) != 0 || !S_ISBLK (st.st_mode))
    return FALSE;

  sysdir = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_rdev), minor (st.st_rdev));
  partition = g_build_filename (sysdir, "partition", NULL);
  if (g_file_test (partition, G_FILE_TEST_EXISTS))
    stat_path = g_build_filename (sysdir, "..", "stat", NULL);
  else
    stat_path = g_build_filename (sysdir, "stat", NULL);

  /* Fields: reads, merges, sectors, ticks, then writes, merges, sectors. */
  if (!g_file_get_contents (stat_path, &contents, NULL, NULL) ||
      sscanf (contents, "%*u %*u %*u %*u %*u %*u %" G_GUINT64_FORMAT, &sectors) != 1)
    return FALSE;

  *bytes = sectors * 512;
  return TRUE;
}

static gboolean
open_block_device (CmTarget     *self,
                   gboolean      allow_write,
                   GError      **error)
{
  int read_only = 0;
  int fd;

  if (allow_write && !cm_card_check_whole_card (self->path, CM_CARD_USE_RAW_WRITE, error))
    return FALSE;

  fd = open (self->path, O_RDONLY | O_DIRECT | O_CLOEXEC);
  if (fd < 0)
    return set_errno_error (error, errno, self->path);

  if (ioctl (fd, BLKROGET, &read_only) != 0)
    read_only = 0;

  if (allow_write && !read_only)
    {
      int rw_fd = open (self->path, O_RDWR | O_DIRECT | O_EXCL | O_CLOEXEC);

      if (rw_fd < 0)
        {
          int errsv = errno;

          close (fd);
          return set_errno_error (error, errsv, self->path);
        }

      close (fd);
      fd = rw_fd;
    }

  self->fd = fd;
  self->owns_fd = TRUE;
  self->write_protected = allow_write && read_only;
  self->mode = allow_write ? CM_METHOD_RAW_WRITE : CM_METHOD_RAW_READ;
  self->device = g_strdup (self->path);

  if (ioctl (fd, BLKGETSIZE64, &self->size) != 0)
    return set_errno_error (error, errno, self->path);

  return TRUE;
}

CmTarget *
cm_target_new_for_path (const char  *path,
                        gboolean     allow_write,
                        GError     **error)
{
  g_autoptr(CmTarget) self = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, NULL);

  if (path[0] == '\0')
    {
      g_propagate_error (error, cm_target_error_empty_path ());
      return NULL;
    }
  if (stat (path, &st) != 0)
    return set_errno_error (error, errno, path), NULL;

  self = g_object_new (CM_TYPE_TARGET, NULL);
  self->path = g_canonicalize_filename (path, NULL);

  if (S_ISDIR (st.st_mode))
    {
      self->mode = CM_METHOD_FILE;
      if (access (path, W_OK) != 0)
        return set_errno_error (error, errno, path), NULL;
    }
  else if (S_ISBLK (st.st_mode))
    {
      if (!open_block_device (self, allow_write, error))
        return NULL;
    }
  else
    {
      g_propagate_error (error, cm_target_error_wrong_kind (path, FALSE));
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* A device opened by someone else, typically UDisks on the user's
 * behalf after polkit agreed. The target takes the descriptor. */
CmTarget *
cm_target_new_for_fd (int          fd,
                      const char  *device,
                      gboolean     writable,
                      GError     **error)
{
  g_autoptr(CmTarget) self = g_object_new (CM_TYPE_TARGET, NULL);
  int read_only = 0;
  int flags;

  g_return_val_if_fail (fd >= 0, NULL);

  self->fd = fd;
  self->owns_fd = TRUE;
  self->path = g_strdup (device);
  self->device = g_strdup (device);
  self->mode = writable ? CM_METHOD_RAW_WRITE : CM_METHOD_RAW_READ;

  flags = fcntl (fd, F_GETFL);
  self->direct_io = flags >= 0 && (flags & O_DIRECT) != 0;
  if (ioctl (fd, BLKROGET, &read_only) != 0)
    read_only = 0;
  self->write_protected = writable && (read_only || (flags & O_ACCMODE) == O_RDONLY);

  if (ioctl (fd, BLKGETSIZE64, &self->size) != 0)
    return set_errno_error (error, errno, device), NULL;

  return g_steal_pointer (&self);
}

/* A scratch file left by a crashed run is not locked by anyone; one in
 * use by a running CardMark is. Returns how many were removed. */
guint
cm_target_remove_stale_scratch (const char *folder)
{
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  const char *name;
  guint removed = 0;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      int fd;

      if (!g_str_has_prefix (name, SCRATCH_PREFIX) || strlen (name) != strlen (SCRATCH_PREFIX) + 6)
        continue;

      path = g_build_filename (folder, name, NULL);
      fd = open (path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
      if (fd < 0)
        continue;

      if (flock (fd, LOCK_EX | LOCK_NB) == 0 && g_unlink (path) == 0)
        removed++;
      close (fd);
    }

  return removed;
}

guint64
cm_target_dup_free_bytes (CmTarget *self)
{
  struct statvfs st;

  g_return_val_if_fail (CM_IS_TARGET (self), 0);

  if (self->mode != CM_METHOD_FILE)
    return self->size;

  if (statvfs (self->path, &st) != 0)
    return 0;

  return (guint64) st.f_bavail * st.f_frsize;
}

/* The largest scratch file this filesystem and process may write: FAT32,
 * which most cards up to 32 GB come with, holds files under 4 GiB. In raw
 * modes, the card's size. */
guint64
cm_target_get_max_file_bytes (CmTarget *self)
{
  guint64 max = G_MAXUINT64;
  struct statfs fs;
  struct rlimit limit;

  g_return_val_if_fail (CM_IS_TARGET (self), 0);

  if (self->mode != CM_METHOD_FILE)
    return self->size;

  /* Not _PC_FILESIZEBITS: glibc says 32 bits for every filesystem it
   * doesn't know, exFAT and tmpfs among them. */
  if (fstatfs (self->fd, &fs) == 0 && fs.f_type == MSDOS_SUPER_MAGIC)
    max = G_MAXUINT32;

  if (getrlimit (RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    max = MIN (max, (guint64) limit.rlim_cur);

  return max;
}

static gboolean
create_scratch_file (CmTarget  *self,
                     GError   **error)
{
  g_autofree char *template = g_build_filename (self->path, SCRATCH_PREFIX "XXXXXX", NULL);
  int fd;

  /* CARDMARK_NO_O_DIRECT lets the tests take the fallback on purpose. */
  if (cm_test_hook ("CARDMARK_NO_O_DIRECT") != NULL)
    {
      fd = -1;
      errno = EINVAL;
    }
  else
    fd = g_mkstemp_full (template, O_RDWR | O_DIRECT | O_CLOEXEC, 0600);

  if (fd < 0 && errno == EINVAL)
    {
      /* The filesystem refuses O_DIRECT (tmpfs, some FUSE and network
       * filesystems): fall back to buffered I/O with fdatasync and
       * fadvise, and let the result say so. */
      g_free (template);
      template = g_build_filename (self->path, SCRATCH_PREFIX "XXXXXX", NULL);
      fd = g_mkstemp_full (template, O_RDWR | O_CLOEXEC, 0600);
      self->direct_io = FALSE;
    }

  if (fd < 0)
    return set_errno_error (error, errno, self->path);

  /* The file is unlinked at once and lives on through its descriptor,
   * so even a crash or a kill leaves nothing behind. The lock covers the
   * instant in between, so another CardMark never removes it as stale. */
  flock (fd, LOCK_EX);
  g_unlink (template);

  self->fd = fd;
  self->owns_fd = TRUE;

  return TRUE;
}

/* Gets the target ready for a run over @area_bytes: checks the space and
 * creates the scratch file in file mode, clamps the area to the device
 * in raw mode. */
gboolean
cm_target_open_area (CmTarget  *self,
                     guint64    area_bytes,
                     GError   **error)
{
  g_return_val_if_fail (CM_IS_TARGET (self), FALSE);

  if (self->mode == CM_METHOD_FILE)
    {
      guint64 free_bytes;

      cm_target_remove_stale_scratch (self->path);
      free_bytes = cm_target_dup_free_bytes (self);

      /* Leave a little room so the card never fills up completely. */
      if (free_bytes < area_bytes + area_bytes / 20)
        {
          g_autofree char *need = g_format_size (area_bytes + area_bytes / 20);
          g_autofree char *have = g_format_size (free_bytes);

          g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NO_SPACE,
                       _("Not enough free space in %s: the test needs %s and %s is free. Free some space and try again."),
                       self->path, need, have);
          return FALSE;
        }

      if (self->fd < 0 && !create_scratch_file (self, error))
        return FALSE;

      self->area_bytes = area_bytes;
      return TRUE;
    }

  if (self->size < MIN_AREA)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_TOO_SMALL,
                   _("%s is too small to test."), self->path);
      return FALSE;
    }

  /* Whole 4 MiB blocks only, so every sequential block is full size. */
  self->area_bytes = MIN (area_bytes, self->size) / (4 * 1024 * 1024) * (4 * 1024 * 1024);
  return TRUE;
}

void
cm_target_close (CmTarget *self)
{
  g_return_if_fail (CM_IS_TARGET (self));

  if (self->fd >= 0 && self->owns_fd)
    close (self->fd);
  self->fd = -1;
}

CmMethod
cm_target_get_mode (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), CM_METHOD_FILE);

  return self->mode;
}

const char *
cm_target_get_path (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), NULL);

  return self->path;
}

const char *
cm_target_get_device (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), NULL);

  return self->device;
}

int
cm_target_get_fd (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), -1);

  return self->fd;
}

gboolean
cm_target_get_direct_io (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), FALSE);

  return self->direct_io;
}

gboolean
cm_target_get_write_protected (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), FALSE);

  return self->write_protected;
}

guint64
cm_target_get_area_bytes (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), 0);

  return self->area_bytes;
}

guint64
cm_target_get_size (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), 0);

  return self->size;
}

gboolean
cm_target_can_write (CmTarget *self)
{
  g_return_val_if_fail (CM_IS_TARGET (self), FALSE);

  return self->mode != CM_METHOD_RAW_READ && !self->write_protected;
}
