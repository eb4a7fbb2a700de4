/* cm-card-lock.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One job per card, across processes: every card job (bench, capacity
 * check, verify, wear test), from the app or from cardmark-cli, takes
 * this lock before it opens the card, and a second job on the same card
 * is refused with one sentence.
 *
 * A card is named by its whole device's number (major:minor), found from
 * a device node or from the file system a folder is on, so a folder on
 * /dev/sdb1 and the device /dev/sdb are one card. The lock is an flock()
 * on a file in /run/lock (shared by every user, sticky), which the
 * kernel drops when the process ends, however it ends: a crash never
 * leaves a card locked. The file holds what runs, for the sentence.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-target.h"
#include "cm-text.h"

#include "cm-card-lock.h"

G_DEFINE_QUARK (cm-card-lock-error-quark, cm_card_lock_error)

struct _CmCardLock
{
  int   fd;
  char *key;
  char *file;
};

static char *lock_folder;

void
cm_card_lock_set_folder_for_testing (const char *folder)
{
  g_free (lock_folder);
  lock_folder = g_strdup (folder);
}

/* The whole disk a partition belongs to: /sys/dev/block/M:m/partition
 * exists for partitions, and its parent folder is the disk. */
static dev_t
whole_disk (dev_t dev)
{
  g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u", major (dev), minor (dev));
  g_autofree char *partition = g_build_filename (link, "partition", NULL);
  g_autofree char *real = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *dev_file = NULL;
  g_autofree char *text = NULL;
  unsigned int maj, min;

  if (!g_file_test (partition, G_FILE_TEST_EXISTS) || (real = realpath (link, NULL)) == NULL)
    return dev;
  parent = g_path_get_dirname (real);
  dev_file = g_build_filename (parent, "dev", NULL);
  if (!g_file_get_contents (dev_file, &text, NULL, NULL) || sscanf (text, "%u:%u", &maj, &min) != 2)
    return dev;
  return makedev (maj, min);
}

/**
 * cm_card_lock_dup_key:
 * @path: a card's device, or a folder on it
 *
 * The name the lock goes by: "block-M-m" for the whole disk of a device
 * or of the file system a folder is on, or "fs-M-m" for a file system
 * with no block device under it (tmpfs, FUSE). NULL when @path is not
 * there.
 */
char *
cm_card_lock_dup_key (const char *path)
{
  struct stat st;
  dev_t dev;

  g_return_val_if_fail (path != NULL, NULL);

  if (*path == '\0')
    {
      errno = ENOENT;
      return NULL;
    }
  if (stat (path, &st) != 0)
    return NULL;
  if (S_ISBLK (st.st_mode))
    dev = whole_disk (st.st_rdev);
  else
    {
      g_autofree char *sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_dev), minor (st.st_dev));

      if (!g_file_test (sys, G_FILE_TEST_EXISTS))
        return g_strdup_printf ("fs-%u-%u", major (st.st_dev), minor (st.st_dev));
      dev = whole_disk (st.st_dev);
    }
  return g_strdup_printf ("block-%u-%u", major (dev), minor (dev));
}

/* Whether a lock file can be trusted: a regular file with one name,
 * owned by root or by this user. Root trusts root's files only: a file
 * another user made there, that user can delete (the folder is sticky)
 * while root holds its lock, and the next job makes a new one and runs
 * beside root's. */
static gboolean
is_trusted (const struct stat *st)
{
  uid_t me = geteuid ();

  if (!S_ISREG (st->st_mode) || st->st_nlink != 1)
    return FALSE;
  return st->st_uid == 0 || st->st_uid == me || me != 0;
}

/* Root removes what another user put at @file (a link, a folder, a
 * file whose lock no one holds), so that it can make its own. FALSE,
 * with errno, when it cannot: a lock another job holds stays. */
static gboolean
clear_planted (const char *file,
               int         fd)
{
  struct stat st;

  if (geteuid () != 0)
    return FALSE;
  if (fd >= 0 && flock (fd, LOCK_EX | LOCK_NB) != 0)
    return FALSE;
  if (lstat (file, &st) != 0)
    return errno == ENOENT;
  if (S_ISDIR (st.st_mode))
    {
      /* A folder cannot be unlinked; moved aside, it no longer blocks. */
      g_autofree char *aside = g_strdup_printf ("%s.planted-%" G_GINT64_FORMAT, file, g_get_real_time ());

      return rename (file, aside) == 0;
    }
  return unlink (file) == 0 || errno == ENOENT;
}

/* Opens the lock file without following a link and without O_CREAT on
 * a file another user made (fs.protected_regular refuses that in a
 * sticky folder, even to root): open it if it is there, else make it.
 * O_NONBLOCK so that a planted pipe cannot hold the open. What is not
 * trusted (is_trusted()) root clears and makes anew. */
static int
open_lock_file (const char *file)
{
  for (guint attempt = 0; attempt < 4; attempt++)
    {
      int fd = open (file, O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      struct stat st;

      if (fd < 0 && errno == EACCES)
        fd = open (file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
      if (fd >= 0)
        {
          int errsv;

          if (fstat (fd, &st) == 0 && is_trusted (&st))
            return fd;
          if (clear_planted (file, fd))
            {
              close (fd);
              continue;
            }
          errsv = errno == EWOULDBLOCK ? EWOULDBLOCK : EPERM;
          /* Held by another job: the caller's flock() says busy. */
          if (errsv == EWOULDBLOCK)
            return fd;
          close (fd);
          errno = errsv;
          return -1;
        }
      if (errno == ELOOP || errno == EISDIR || errno == ENXIO || errno == EACCES)
        {
          int errsv = errno;

          if (clear_planted (file, -1))
            continue;
          errno = errsv;
          return -1;
        }
      if (errno != ENOENT)
        return -1;
      fd = open (file, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
      if (fd >= 0)
        {
          /* Whatever the umask, any user's job must be able to lock it;
           * only root's own text is root's to write. */
          fchmod (fd, geteuid () == 0 ? 0644 : 0666);
          return fd;
        }
      if (errno != EEXIST)
        return -1;
    }
  return -1;
}

/* Opens (or makes) @name in the folder every CardMark's locks are in,
 * for flock(); -1 with errno. The bus's locks (cm-bus.c) live there too. */
int
cm_card_lock_open_file (const char *name)
{
  g_autofree char *file = g_build_filename (lock_folder != NULL ? lock_folder : "/run/lock", name, NULL);

  return open_lock_file (file);
}

/**
 * cm_card_lock_read_holder:
 * @fd: a lock file, or a bus's gate
 *
 * What the lock's holder wrote in it, cleaned (cm_text_dup_clean()):
 * anyone who can open the file can write it, so it is one bounded line
 * without a control character, whatever was planted. %NULL when empty.
 */
char *
cm_card_lock_read_holder (int fd)
{
  char buffer[CM_TEXT_LINE_MAX * 4 + 1];
  ssize_t n = pread (fd, buffer, sizeof buffer - 1, 0);

  if (n <= 0)
    return NULL;
  buffer[n] = '\0';
  /* The one line break the holder writes ends it. */
  if (n > 0 && buffer[n - 1] == '\n')
    buffer[n - 1] = '\0';
  if (buffer[0] == '\0')
    return NULL;
  return cm_text_dup_clean (buffer, CM_TEXT_LINE_MAX);
}

void
cm_card_lock_write_holder (int         fd,
                           const char *what)
{
  g_autofree char *text = g_strdup_printf ("%s\n", what);

  if (ftruncate (fd, 0) == 0 && pwrite (fd, text, strlen (text), 0) < 0)
    g_debug ("Could not note the card's job in its lock: %s", g_strerror (errno));
}

/**
 * cm_card_lock_dup_busy_text:
 * @holder: (nullable): what holds the card, in a sentence: "a full verify"
 *
 * Why a card cannot be tested while @holder runs on it, the same whether
 * another process holds its lock or a job of the same program.
 */
char *
cm_card_lock_dup_busy_text (const char *holder)
{
  return g_strdup_printf (_("This card is busy: %s is running on it. Wait for it to finish or cancel it, then try again."),
                          holder != NULL ? holder : _("another CardMark check"));
}

/**
 * cm_card_lock_take:
 * @path: the card's device, or a folder on it
 * @what: what will run, in words, for the sentence another job shows
 *
 * Takes the card for one job, or says which job has it. Released by
 * cm_card_lock_release() or when the process ends.
 */
CmCardLock *
cm_card_lock_take (const char  *path,
                   const char  *what,
                   GError     **error)
{
  g_autofree char *key = NULL;
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;
  CmCardLock *lock;
  int fd;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (what != NULL, NULL);

  /* A path that is not there gets the sentence every other step gives. */
  if ((key = cm_card_lock_dup_key (path)) == NULL)
    {
      int errsv = errno;

      g_propagate_error (error, *path == '\0' ? cm_target_error_empty_path () : cm_target_error_from_errno (errsv, path));
      return NULL;
    }
  name = g_strdup_printf ("cardmark-%s.lock", key);
  file = g_build_filename (lock_folder != NULL ? lock_folder : "/run/lock", name, NULL);
  if ((fd = open_lock_file (file)) < 0)
    {
      int errsv = errno;

      g_set_error (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_FAILED,
                   _("CardMark could not make sure no other check uses this card (%s: %s)."), file, g_strerror (errsv));
      return NULL;
    }
  if (flock (fd, LOCK_EX | LOCK_NB) != 0)
    {
      int errsv = errno;
      g_autofree char *holder = errsv == EWOULDBLOCK ? cm_card_lock_read_holder (fd) : NULL;

      close (fd);
      if (errsv == EWOULDBLOCK)
        {
          g_autofree char *busy = cm_card_lock_dup_busy_text (holder);

          g_set_error_literal (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY, busy);
        }
      else
        g_set_error (error, CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_FAILED,
                     _("CardMark could not make sure no other check uses this card (%s: %s)."), file, g_strerror (errsv));
      return NULL;
    }
  cm_card_lock_write_holder (fd, what);

  lock = g_new0 (CmCardLock, 1);
  lock->fd = fd;
  lock->key = g_steal_pointer (&key);
  lock->file = g_steal_pointer (&file);
  return lock;
}

/* The file stays: removing it would race with a job that has just
 * opened it and is about to lock it. */
void
cm_card_lock_release (CmCardLock *lock)
{
  if (lock == NULL)
    return;
  if (ftruncate (lock->fd, 0) != 0)
    g_debug ("Could not clear the card's lock: %s", g_strerror (errno));
  close (lock->fd);
  g_free (lock->key);
  g_free (lock->file);
  g_free (lock);
}
