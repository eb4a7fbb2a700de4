/* cm-file.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one way to a file an option names (--output, --plot, --csv, an
 * export): checked before the card is touched, and opened without ever
 * following a symbolic link, since the folder may be another user's and
 * the program may run as root: a link planted there would make root
 * write where that user cannot. A whole file is written whole or not at
 * all, and, when it replaces one, as the file it replaces was (same mode
 * and owner); a file added to is opened once, before the run.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cm-text.h"

#include "cm-file.h"

static void
set_error (GError     **error,
           GIOErrorEnum code,
           const char  *path,
           const char  *why)
{
  g_autofree char *name = cm_text_dup_clean (path, CM_TEXT_LINE_MAX);

  /* Translators: "Cannot write “out.json”: it is a folder." */
  g_set_error (error, G_IO_ERROR, code, _("Cannot write “%s”: %s"), name, why);
}

/**
 * cm_file_check_writable:
 * @path: a file an option names
 *
 * Whether @path can be written, asked before the card is touched: not
 * empty, not a folder, a device or a symbolic link, in a folder that is
 * there and writable, and writable itself when it exists.
 */
gboolean
cm_file_check_writable (const char  *path,
                        GError     **error)
{
  g_autofree char *folder = NULL;
  struct stat st;

  g_return_val_if_fail (path != NULL, FALSE);

  if (*path == '\0')
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_FILENAME,
                           _("The file name is empty. Name the file to write."));
      return FALSE;
    }
  folder = g_path_get_dirname (path);
  if (lstat (path, &st) == 0)
    {
      if (S_ISDIR (st.st_mode))
        set_error (error, G_IO_ERROR_IS_DIRECTORY, path, _("it is a folder. Name a file in it."));
      else if (S_ISLNK (st.st_mode))
        set_error (error, G_IO_ERROR_NOT_REGULAR_FILE, path,
                   _("it is a symbolic link, which CardMark does not follow. Name the file itself."));
      else if (!S_ISREG (st.st_mode))
        set_error (error, G_IO_ERROR_NOT_REGULAR_FILE, path, _("it is not a regular file (a device or a pipe). Name a file."));
      else if (st.st_nlink != 1)
        set_error (error, G_IO_ERROR_NOT_REGULAR_FILE, path,
                   _("it has several names (hard links). Name a file of its own."));
      else if (access (path, W_OK) != 0)
        set_error (error, G_IO_ERROR_PERMISSION_DENIED, path, _("it is not writable."));
      else
        return TRUE;
      return FALSE;
    }
  if (!g_file_test (folder, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *why = g_strdup_printf (_("the folder “%s” does not exist."), folder);

      set_error (error, G_IO_ERROR_NOT_FOUND, path, why);
      return FALSE;
    }
  if (access (folder, W_OK | X_OK) != 0)
    {
      g_autofree char *why = g_strdup_printf (_("the folder “%s” is not writable."), folder);

      set_error (error, G_IO_ERROR_PERMISSION_DENIED, path, why);
      return FALSE;
    }
  return TRUE;
}

/* Opens @path for writing without following a link: the file that is
 * there, if it is a regular one with one name, or a new one (O_EXCL, so
 * nothing planted in between is used). */
static int
open_nofollow (const char  *path,
               int          flags,
               gboolean    *created,
               GError     **error)
{
  int fd = open (path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | flags);
  struct stat st;

  *created = FALSE;
  if (fd < 0 && errno == ENOENT)
    {
      fd = open (path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | flags, 0644);
      *created = fd >= 0;
    }
  if (fd < 0)
    {
      int errsv = errno;

      if (errsv == ELOOP)
        set_error (error, G_IO_ERROR_NOT_REGULAR_FILE, path,
                   _("it is a symbolic link, which CardMark does not follow. Name the file itself."));
      else
        set_error (error, g_io_error_from_errno (errsv), path, g_strerror (errsv));
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_nlink != 1)
    {
      close (fd);
      set_error (error, G_IO_ERROR_NOT_REGULAR_FILE, path, _("it is not a regular file of its own. Name a file."));
      return -1;
    }
  /* Writes block as writes to a file do. */
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}

/**
 * cm_file_open_append:
 * @path: a file to add lines to (--csv)
 * @created: (out): whether it is new (or empty), to start with a header
 *
 * Returns: a descriptor to append to, or -1 with @error set
 */
int
cm_file_open_append (const char  *path,
                     gboolean    *created,
                     GError     **error)
{
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, -1);
  g_return_val_if_fail (created != NULL, -1);

  if (!cm_file_check_writable (path, error))
    return -1;
  if ((fd = open_nofollow (path, O_APPEND, created, error)) < 0)
    return -1;
  *created = *created || (fstat (fd, &st) == 0 && st.st_size == 0);
  return fd;
}

/**
 * cm_file_set_contents:
 * @path: the file an option names
 *
 * Writes @path whole or not at all, never through a symbolic link.
 */
gboolean
cm_file_set_contents (const char  *path,
                      const char  *data,
                      gssize       length,
                      GError     **error)
{
  struct stat st;
  gboolean replacing;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (!cm_file_check_writable (path, error))
    return FALSE;
  replacing = lstat (path, &st) == 0 && S_ISREG (st.st_mode);

  /* A temporary file renamed into place, so a failure or a full disk
   * keeps the file it was to replace; a rename replaces a link that
   * was planted since, it does not follow it. */
  if (!g_file_set_contents_full (path, data, length, G_FILE_SET_CONTENTS_CONSISTENT,
                                 replacing ? (int) (st.st_mode & 07777) : 0644, error))
    return FALSE;

  if (replacing && (fd = open (path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) >= 0)
    {
      /* The new file is ours and the umask trimmed its mode: give back
       * the owner (only root can) and then the mode, as chown may clear
       * set-id bits; through the descriptor, so no link is followed. */
      if (fchown (fd, st.st_uid, st.st_gid) != 0)
        g_debug ("Could not keep the owner of %s", path);
      if (fchmod (fd, st.st_mode & 07777) != 0)
        g_debug ("Could not keep the mode of %s", path);
      close (fd);
    }

  return TRUE;
}
