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
 * Who holds it comes from /proc/locks: another user's program (not
 * root's) is named, never quoted, and a job that is not root's trusts
 * only its own lock files and root's, and removes its own at its end.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <pwd.h>
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
  char *what;
  int   percent;
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
 * owned by root or by this user. A file another user made there, that
 * user can delete (the folder is sticky) while this job holds its lock,
 * and the next job makes a new one and runs beside this one. A card's
 * lock (@strict) is trusted only so; a bus's gate is also trusted by a
 * job that is not root's, as several users' jobs share it and a gate
 * deleted costs a fair measurement, not a card. */
static gboolean
is_trusted (const struct stat *st,
            gboolean           strict)
{
  uid_t me = geteuid ();

  if (!S_ISREG (st->st_mode) || st->st_nlink != 1)
    return FALSE;
  return st->st_uid == 0 || st->st_uid == me || (me != 0 && !strict);
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
 * trusted (is_trusted()) root clears and makes anew; another user's
 * card lock that no one holds, a job that is not root's cannot clear:
 * -1 with EPERM, and @planter says whose it is. A file that is not
 * trusted but held is returned, for the caller's flock() to say busy. */
static int
open_lock_file (const char *file,
                gboolean    strict,
                uid_t      *planter)
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

          if (fstat (fd, &st) == 0 && is_trusted (&st, strict))
            return fd;
          if (clear_planted (file, fd))
            {
              close (fd);
              continue;
            }
          /* Held by another job: the caller's flock() says busy. */
          if (flock (fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
            return fd;
          errsv = EPERM;
          if (planter != NULL)
            *planter = st.st_uid;
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
           * only its maker's own text is its maker's to write. A card's
           * lock that is not root's goes when its job ends
           * (cm_card_lock_release()): another user does not trust it. */
          fchmod (fd, geteuid () == 0 || strict ? 0644 : 0666);
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

  return open_lock_file (file, FALSE, NULL);
}

/**
 * cm_card_lock_read_holder:
 * @fd: a lock file, or a bus's gate
 *
 * What the lock's holder wrote in its first line, cleaned
 * (cm_text_dup_clean()): anyone who can open the file can write it, so
 * it is one bounded line without a control character, whatever was
 * planted. %NULL when empty.
 */
char *
cm_card_lock_read_holder (int fd)
{
  char buffer[CM_TEXT_LINE_MAX * 4 + 1];
  ssize_t n = pread (fd, buffer, sizeof buffer - 1, 0);

  if (n <= 0)
    return NULL;
  buffer[n] = '\0';
  /* The first line is the words; the job's kind and progress follow
   * (cm_card_lock_note_progress()). */
  buffer[strcspn (buffer, "\n")] = '\0';
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

/* The process /proc/locks lists as holding a lock (not waiting for one)
 * on @st's file; 0 when none is listed. */
static GPid
listed_holder (const struct stat *st)
{
  g_autofree char *id = g_strdup_printf ("%02x:%02x:%" G_GUINT64_FORMAT,
                                         major (st->st_dev), minor (st->st_dev), (guint64) st->st_ino);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/locks", &text, NULL, NULL))
    return 0;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char type[16], file[64];
      int pid;

      /* "1: FLOCK  ADVISORY  WRITE 1234 00:1a:5678 0 EOF"; a waiter's
       * line has "->" before its type, and fails the %d. */
      if (sscanf (lines[i], "%*d: %15s %*s %*s %d %63s", type, &pid, file) == 3
          && pid > 0 && strcmp (file, id) == 0)
        return pid;
    }
  return 0;
}

/* The user @pid runs as (its effective id). */
static gboolean
process_uid (GPid   pid,
             uid_t *uid)
{
  g_autofree char *file = g_strdup_printf ("/proc/%d/status", (int) pid);
  g_autofree char *text = NULL;
  const char *line;
  unsigned int real, effective;

  if (!g_file_get_contents (file, &text, NULL, NULL)
      || (line = strstr (text, "\nUid:")) == NULL
      || sscanf (line + strlen ("\nUid:"), "%u %u", &real, &effective) != 2)
    return FALSE;
  *uid = effective;
  return TRUE;
}

static char *
process_program (GPid pid)
{
  g_autofree char *file = g_strdup_printf ("/proc/%d/comm", (int) pid);
  g_autofree char *text = NULL;

  if (!g_file_get_contents (file, &text, NULL, NULL))
    return NULL;
  g_strchomp (text);
  return text[0] != '\0' ? cm_text_dup_clean (text, CM_TEXT_LINE_MAX) : NULL;
}

/**
 * cm_card_lock_find_holder:
 * @fd: a lock file
 * @holder: (out caller-allocates): cleared with cm_lock_holder_clear()
 *
 * Who holds @fd's lock: the process /proc/locks lists, and the user it
 * runs as; when none is listed (the lock is free, or /proc is not
 * there), pid 0 and the file's owner, who may hold it from a process
 * this one cannot see.
 *
 * Returns: %FALSE when @fd cannot be looked at
 */
gboolean
cm_card_lock_find_holder (int           fd,
                          CmLockHolder *holder)
{
  struct stat st;

  g_return_val_if_fail (holder != NULL, FALSE);

  memset (holder, 0, sizeof *holder);
  if (fstat (fd, &st) != 0)
    return FALSE;
  holder->uid = st.st_uid;
  holder->pid = listed_holder (&st);
  if (holder->pid != 0 && !process_uid (holder->pid, &holder->uid))
    {
      /* It ended between the two looks. */
      holder->pid = 0;
      holder->uid = st.st_uid;
    }
  if (holder->pid != 0)
    holder->program = process_program (holder->pid);
  return TRUE;
}

void
cm_lock_holder_clear (CmLockHolder *holder)
{
  g_clear_pointer (&holder->program, g_free);
}

/**
 * cm_lock_holder_is_stranger:
 *
 * Whether @holder is another user than this process's, and not root: a
 * lock such a user holds may be held for ever (a plain `flock`), and its
 * text is that user's words, not a card's.
 */
gboolean
cm_lock_holder_is_stranger (const CmLockHolder *holder)
{
  g_return_val_if_fail (holder != NULL, FALSE);

  return holder->uid != geteuid () && holder->uid != 0;
}

static char *
dup_user_name (uid_t uid)
{
  long size = sysconf (_SC_GETPW_R_SIZE_MAX);
  g_autofree char *buffer = g_malloc (size > 0 ? (gsize) size : 16384);
  struct passwd entry, *found = NULL;

  if (getpwuid_r (uid, &entry, buffer, size > 0 ? (gsize) size : 16384, &found) == 0 && found != NULL)
    return cm_text_dup_clean (found->pw_name, 64);
  /* Translators: a user with no name, by number: "user 1001" */
  return g_strdup_printf (_("user %u"), (unsigned int) uid);
}

/**
 * cm_lock_holder_dup_name:
 *
 * The user who holds a lock, and its process where known: "alice
 * (process 1234)".
 */
char *
cm_lock_holder_dup_name (const CmLockHolder *holder)
{
  g_autofree char *user = NULL;

  g_return_val_if_fail (holder != NULL, NULL);

  user = dup_user_name (holder->uid);
  if (holder->pid == 0)
    return g_steal_pointer (&user);
  /* Translators: who holds a card: "alice (process 1234)" */
  return g_strdup_printf (_("%s (process %d)"), user, (int) holder->pid);
}

/**
 * cm_card_lock_dup_stranger_text:
 * @path: the card's device, or a folder on it
 * @holder: a stranger (cm_lock_holder_is_stranger())
 *
 * Why a card another user's program holds cannot be tested now, naming
 * that user, never with the words it wrote in the lock.
 */
char *
cm_card_lock_dup_stranger_text (const char         *path,
                                const CmLockHolder *holder)
{
  g_autofree char *who = cm_lock_holder_dup_name (holder);

  /* Translators: "…the card in /dev/sdb: alice (process 1234)." */
  return g_strdup_printf (_("Another user's program holds the card in %s: %s. Wait for it to finish or ask them to stop it, then try again."),
                          path, who);
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

/* The error for a lock file that could not be opened: another user's
 * that no one holds (@planter), or what the system said. */
static GError *
open_error (const char *path,
            const char *file,
            int         errsv,
            uid_t       planter)
{
  if (errsv == EPERM && planter != (uid_t) -1)
    {
      g_autofree char *user = dup_user_name (planter);

      return g_error_new (CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_FAILED,
                          _("The lock of the card in %s (%s) was made by another user, %s, who could remove it while this check runs. Ask them or the administrator to delete it, then try again."),
                          path, file, user);
    }
  return g_error_new (CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_FAILED,
                      _("CardMark could not make sure no other check uses this card (%s: %s)."), file, g_strerror (errsv));
}

/* The error for a card whose lock another job holds: its own words, or,
 * when another user's program holds it, that user's name. */
static GError *
busy_error (const char *path,
            int         fd)
{
  CmLockHolder holder;
  g_autofree char *text = NULL;

  if (cm_card_lock_find_holder (fd, &holder) && cm_lock_holder_is_stranger (&holder))
    text = cm_card_lock_dup_stranger_text (path, &holder);
  else
    {
      g_autofree char *words = cm_card_lock_read_holder (fd);

      text = cm_card_lock_dup_busy_text (words);
    }
  cm_lock_holder_clear (&holder);
  return g_error_new_literal (CM_CARD_LOCK_ERROR, CM_CARD_LOCK_ERROR_BUSY, text);
}

/* Whether @fd, just locked, is still the file at @file: a lock file
 * goes when its job ends (cm_card_lock_release()), and one opened just
 * before holds nothing. */
static gboolean
still_named (int         fd,
             const char *file)
{
  struct stat held, named;

  return fstat (fd, &held) == 0 && lstat (file, &named) == 0
         && held.st_dev == named.st_dev && held.st_ino == named.st_ino;
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
  int fd = -1;

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
  for (guint attempt = 0; fd < 0; attempt++)
    {
      uid_t planter = (uid_t) -1;
      int errsv;

      if ((fd = open_lock_file (file, TRUE, &planter)) < 0)
        {
          errsv = errno;
          g_propagate_error (error, open_error (path, file, errsv, planter));
          return NULL;
        }
      if (flock (fd, LOCK_EX | LOCK_NB) != 0)
        {
          errsv = errno;
          if (errsv == EWOULDBLOCK)
            g_propagate_error (error, busy_error (path, fd));
          else
            g_propagate_error (error, open_error (path, file, errsv, (uid_t) -1));
          close (fd);
          return NULL;
        }
      if (!still_named (fd, file) && attempt < 8)
        {
          close (fd);
          fd = -1;
        }
    }
  cm_card_lock_write_holder (fd, what);

  lock = g_new0 (CmCardLock, 1);
  lock->fd = fd;
  lock->what = g_strdup (what);
  lock->percent = -1;
  lock->key = g_steal_pointer (&key);
  lock->file = g_steal_pointer (&file);
  return lock;
}

/* A job that is not root's removes its lock file, still holding it, so
 * that another user, who does not trust it, finds none the next time (a
 * job that opened it meanwhile sees it is gone once it has the lock,
 * still_named()). Root's stays: every user trusts it, and there is one
 * per card. */
void
cm_card_lock_release (CmCardLock *lock)
{
  struct stat st;

  if (lock == NULL)
    return;
  if (geteuid () != 0 && fstat (lock->fd, &st) == 0 && st.st_uid == geteuid ()
      && still_named (lock->fd, lock->file) && unlink (lock->file) != 0)
    g_debug ("Could not remove the card's lock: %s", g_strerror (errno));
  if (ftruncate (lock->fd, 0) != 0)
    g_debug ("Could not clear the card's lock: %s", g_strerror (errno));
  close (lock->fd);
  g_free (lock->key);
  g_free (lock->file);
  g_free (lock->what);
  g_free (lock);
}

/**
 * cm_card_lock_note_progress:
 * @lock: (nullable): the job's lock
 * @kind: the job's kind's name, "wear"
 * @fraction: how far the job is, 0 to 1
 *
 * Writes the job's kind and progress under its words, for another
 * program that shows the card (cm_card_lock_peek()): "wear 42". Only a
 * new whole percent is written.
 */
void
cm_card_lock_note_progress (CmCardLock *lock,
                            const char *kind,
                            double      fraction)
{
  int percent = (int) (CLAMP (fraction, 0, 1) * 100);
  g_autofree char *text = NULL;

  if (lock == NULL || percent == lock->percent)
    return;
  lock->percent = percent;
  text = g_strdup_printf ("%s\n%s %d", lock->what, kind, percent);
  cm_card_lock_write_holder (lock->fd, text);
}

/* A kind's name as a job writes it: a short word of small letters. */
static gboolean
is_kind_name (const char *name)
{
  if (*name == '\0' || strlen (name) > 32)
    return FALSE;
  for (const char *c = name; *c != '\0'; c++)
    if (!g_ascii_islower (*c) && *c != '-' && *c != '_')
      return FALSE;
  return TRUE;
}

/* The second line of a lock: "KIND PERCENT". */
static void
read_progress (int              fd,
               CmCardLockSight *sight)
{
  char buffer[CM_TEXT_LINE_MAX * 4 + 64];
  ssize_t n = pread (fd, buffer, sizeof buffer - 1, 0);
  char kind[33];
  const char *line;
  int percent;

  if (n <= 0)
    return;
  buffer[n] = '\0';
  if ((line = strchr (buffer, '\n')) == NULL)
    return;
  if (sscanf (line + 1, "%32s %d", kind, &percent) != 2 || !is_kind_name (kind) || percent < 0 || percent > 100)
    return;
  sight->kind = g_strdup (kind);
  sight->percent = percent;
}

/**
 * cm_card_lock_peek:
 * @path: a card's device, or a folder on it
 * @sight: (out caller-allocates): cleared with cm_card_lock_sight_clear()
 *
 * Whether another process holds the card's lock now, and what it runs:
 * its process and user, and (from its own user or root) its words, kind
 * and progress. Looks without taking the lock (in /proc/locks), so a
 * job that starts meanwhile is never refused for it.
 */
gboolean
cm_card_lock_peek (const char      *path,
                   CmCardLockSight *sight)
{
  g_autofree char *key = NULL;
  g_autofree char *name = NULL;
  g_autofree char *file = NULL;
  struct stat st;
  int fd;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (sight != NULL, FALSE);

  memset (sight, 0, sizeof *sight);
  sight->percent = -1;
  if ((key = cm_card_lock_dup_key (path)) == NULL)
    return FALSE;
  name = g_strdup_printf ("cardmark-%s.lock", key);
  file = g_build_filename (lock_folder != NULL ? lock_folder : "/run/lock", name, NULL);
  fd = open (file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || !cm_card_lock_find_holder (fd, &sight->holder)
      || sight->holder.pid == 0 || sight->holder.pid == getpid ())
    {
      close (fd);
      cm_card_lock_sight_clear (sight);
      return FALSE;
    }
  if (!cm_lock_holder_is_stranger (&sight->holder))
    {
      sight->words = cm_card_lock_read_holder (fd);
      read_progress (fd, sight);
    }
  close (fd);
  return TRUE;
}

void
cm_card_lock_sight_clear (CmCardLockSight *sight)
{
  cm_lock_holder_clear (&sight->holder);
  g_clear_pointer (&sight->words, g_free);
  g_clear_pointer (&sight->kind, g_free);
  sight->percent = -1;
}
