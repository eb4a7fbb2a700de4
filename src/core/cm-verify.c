/* cm-verify.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Verify every byte: fill the card with data that names its own place,
 * read all of it back, count what came back wrong, F3's way and in F3's
 * files (1.h2w, 2.h2w, … of 1 GiB each), so f3read checks what CardMark
 * wrote and the other way round; or, with leave to destroy its data, the
 * whole device.
 *
 * This file is the object the faces hold: it decides the mode and checks
 * the run may go ahead (cm_verify_prepare), and runs it as a GTask. The
 * pattern is in cm-verify-pattern.c, the run's shared state and its
 * state file in cm-verify-state.c, the worker in cm-verify-run.c, the
 * reading back in cm-verify-read.c.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cm-bench.h"
#include "cm-card-use.h"
#include "cm-device-monitor.h"
#include "cm-device-private.h"
#include "cm-state-file.h"
#include "cm-target.h"
#include "cm-test-hooks.h"
#include "cm-verify-private.h"

#include "cm-verify.h"

#define CHUNK CM_VERIFY_CHUNK

G_DEFINE_QUARK (cm-verify-error-quark, cm_verify_error)

/* The object. */


G_DEFINE_FINAL_TYPE (CmVerify, cm_verify, G_TYPE_OBJECT)

enum {
  PROGRESS,
  PAUSED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
release_lock (CmVerify *self)
{
  /* Unlocked first: the folder's descriptor shares the lock's. */
  if (self->lock_fd >= 0)
    {
      flock (self->lock_fd, LOCK_UN);
      close (self->lock_fd);
    }
  self->lock_fd = -1;
}

static void
cm_verify_finalize (GObject *object)
{
  CmVerify *self = (CmVerify *) object;

  g_clear_pointer (&self->path, g_free);
  g_clear_pointer (&self->state_folder, g_free);
  g_clear_pointer (&self->folder, g_free);
  g_clear_pointer (&self->device, g_free);
  g_clear_pointer (&self->state_path, g_free);
  g_clear_pointer (&self->identity, g_free);
  g_clear_object (&self->target);
  if (self->device_fd >= 0)
    close (self->device_fd);
  if (self->dir_fd >= 0)
    close (self->dir_fd);
  release_lock (self);

  G_OBJECT_CLASS (cm_verify_parent_class)->finalize (object);
}

static void
cm_verify_class_init (CmVerifyClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = cm_verify_finalize;

  /**
   * CmVerify::progress:
   * @phase: a #CmVerifyPhase
   * @fraction: of the whole run, 0–1
   * @mb_per_s: the current phase's rate
   * @seconds_left: an estimate for the whole run, or -1
   *
   * A few times a second, on the main context that started the run.
   */
  signals[PROGRESS] = g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                                    G_TYPE_UINT, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_DOUBLE);

  /**
   * CmVerify::paused:
   * @measurer: (nullable): the card whose speed test on the same bus the
   *   run waits for (or "another program"); %NULL when it carries on
   *
   * On the main context that started the run.
   */
  signals[PAUSED] = g_signal_new ("paused", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
cm_verify_init (CmVerify *self)
{
  const char *test_bytes = cm_test_hook ("CARDMARK_TEST_VERIFY_FILE_BYTES");

  self->device_fd = -1;
  self->dir_fd = -1;
  self->lock_fd = -1;
  self->file_bytes = CM_VERIFY_FILE_BYTES;
  /* Tests use smaller files so that a small simulated card holds
   * several; a real run always writes F3's 1 GiB files. */
  if (test_bytes != NULL && g_ascii_strtoull (test_bytes, NULL, 10) >= CHUNK)
    self->file_bytes = g_ascii_strtoull (test_bytes, NULL, 10) / CHUNK * CHUNK;
}

CmVerify *
cm_verify_new (const char    *path,
               CmVerifyFlags  flags)
{
  CmVerify *self;

  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (CM_TYPE_VERIFY, NULL);
  /* An empty path is no target (canonicalized, it would be the working
   * folder): cm_verify_prepare() refuses it. */
  self->path = path[0] != '\0' ? g_canonicalize_filename (path, NULL) : g_strdup ("");
  self->flags = flags;
  return self;
}

/* A device opened for us (through UDisks, after polkit agreed). The
 * verify takes the descriptor. */
void
cm_verify_set_device_fd (CmVerify *self,
                         int       fd)
{
  g_return_if_fail (CM_IS_VERIFY (self));
  g_return_if_fail (!self->running);

  if (self->device_fd >= 0)
    close (self->device_fd);
  self->device_fd = fd;
}

void
cm_verify_set_state_folder (CmVerify   *self,
                            const char *folder)
{
  g_return_if_fail (CM_IS_VERIFY (self));
  g_return_if_fail (!self->prepared);

  g_free (self->state_folder);
  self->state_folder = g_strdup (folder);
}

CmVerifyMode
cm_verify_get_mode (CmVerify *self)
{
  g_return_val_if_fail (CM_IS_VERIFY (self), CM_VERIFY_MODE_FILES);

  return self->mode;
}

const char *
cm_verify_get_folder (CmVerify *self)
{
  g_return_val_if_fail (CM_IS_VERIFY (self), NULL);

  return self->folder;
}

/* Whether the run carries on from a saved state (known once prepared). */
gboolean
cm_verify_get_resuming (CmVerify *self)
{
  g_return_val_if_fail (CM_IS_VERIFY (self), FALSE);

  return (self->flags & CM_VERIFY_FLAGS_RESUME) != 0;
}

const char *
cm_verify_get_state_path (CmVerify *self)
{
  g_return_val_if_fail (CM_IS_VERIFY (self), NULL);

  return self->state_path;
}

gboolean
cm_verify_has_saved_state (CmVerify *self)
{
  g_return_val_if_fail (CM_IS_VERIFY (self), FALSE);

  return self->state_path != NULL && g_file_test (self->state_path, G_FILE_TEST_EXISTS);
}

/* Preparing: which mode, which card, and whether we may. */

/* A filesystem's id comes from its UUID on ext4 and its serial on FAT. */
static char *
folder_identity (const struct statvfs *st)
{
  return g_strdup_printf ("files-%" G_GUINT64_FORMAT "-%lx",
                          (guint64) st->f_blocks * st->f_frsize, (unsigned long) st->f_fsid);
}

static gboolean
set_state_path (CmVerify  *self,
                char      *identity)
{
  g_autofree char *file = g_strconcat (identity, ".ini", NULL);

  g_free (self->identity);
  self->identity = identity;
  if (self->state_folder == NULL)
    self->state_folder = cm_state_file_folder ("verify");
  g_free (self->state_path);
  self->state_path = g_build_filename (self->state_folder, file, NULL);
  /* The app carries on with a card it sees again. */
  if ((self->flags & CM_VERIFY_FLAGS_CARRY_ON) && !(self->flags & CM_VERIFY_FLAGS_READ_ONLY) &&
      cm_verify_has_saved_state (self))
    self->flags |= CM_VERIFY_FLAGS_RESUME;
  return TRUE;
}

/* The mount points of a device and whether the system runs from it. */
static GPtrArray *
device_mounts (const char *device,
               gboolean   *system)
{
  g_autoptr(CmCardUse) use = cm_card_use_new (device);
  GPtrArray *mounts = g_ptr_array_new_with_free_func (g_free);

  for (const char * const *p = cm_card_use_get_mount_points (use); *p != NULL; p++)
    g_ptr_array_add (mounts, g_strdup (*p));
  *system = cm_card_use_get_system (use);
  return mounts;
}

/**
 * cm_verify_peek_stopped:
 * @path: a card's device, or a folder on a mounted card
 * @mode: whether @path is verified whole or in files
 * @device_bytes: the device's size, in device mode
 * @state_folder: (nullable): where stopped runs are kept; NULL for the
 *   default, the one a run uses
 *
 * How far the stopped verify saved for @path got, 0–1, as its progress
 * said; -1 when none is saved or the saved one does not hold up (its
 * checksum, its card, its bounds, read as a run reads them). That the
 * card in hand holds what it wrote is proved only when carrying on.
 */
double
cm_verify_peek_stopped (const char   *path,
                        CmVerifyMode  mode,
                        guint64       device_bytes,
                        const char   *state_folder)
{
  return cm_verify_peek_stopped_in (path, mode, device_bytes, state_folder, NULL);
}

/**
 * cm_verify_peek_stopped_in:
 * @phase: (out) (optional): whether it stopped writing or reading back
 *
 * cm_verify_peek_stopped(), and the phase it stopped in.
 */
double
cm_verify_peek_stopped_in (const char    *path,
                           CmVerifyMode   mode,
                           guint64        device_bytes,
                           const char    *state_folder,
                           CmVerifyPhase *phase)
{
  g_autoptr(CmVerify) self = NULL;
  CmVerifyRun *run;
  struct statvfs st;
  double fraction = -1;

  g_return_val_if_fail (path != NULL, -1);

  self = cm_verify_new (path, 0);
  self->mode = mode;
  self->state_folder = g_strdup (state_folder);
  if (mode == CM_VERIFY_MODE_DEVICE)
    {
      self->card_bytes = device_bytes;
      set_state_path (self, cm_state_file_card_identity (self->path, device_bytes));
    }
  else if (statvfs (self->path, &st) == 0)
    {
      self->card_bytes = (guint64) st.f_blocks * st.f_frsize;
      set_state_path (self, folder_identity (&st));
    }
  if (self->card_bytes < CM_VERIFY_SECTOR || !cm_verify_has_saved_state (self))
    return -1;

  run = cm_verify_run_new (self, NULL);
  if (cm_verify_state_load (run, NULL))
    {
      fraction = cm_verify_run_get_fraction (run);
      if (phase != NULL)
        *phase = run->phase == CM_VERIFY_PHASE_WRITE ? CM_VERIFY_PHASE_WRITE : CM_VERIFY_PHASE_READ;
    }
  cm_verify_run_free (run);
  return fraction;
}

/* One verify of a folder at a time, across processes: an flock on a
 * descriptor of the folder, held until the run is over. (The job's card
 * lock keeps out every other job of the card too.) Takes @fd. */
static gboolean
take_lock (CmVerify  *self,
           int        fd,
           GError   **error)
{
  if (fd >= 0 && flock (fd, LOCK_EX | LOCK_NB) == 0)
    {
      self->lock_fd = fd;
      return TRUE;
    }
  if (fd >= 0)
    close (fd);
  if (errno == EWOULDBLOCK)
    g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_BUSY,
                 _("A check of this card is already running (on %s). Wait for it to end, or stop it, then try again."),
                 self->folder != NULL ? self->folder : self->path);
  else
    g_propagate_error (error, cm_target_error_from_errno (errno, self->path));
  return FALSE;
}

static gboolean
prepare_device (CmVerify  *self,
                GError   **error)
{
  g_autoptr(GError) local_error = NULL;
  gboolean system = FALSE;
  g_autoptr(GPtrArray) mounts = device_mounts (self->path, &system);

  if (system)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_REFUSED,
                   _("%s holds the system this computer runs from, so CardMark will not verify it."), self->path);
      return FALSE;
    }

  /* A mounted card is verified through its filesystem, in files that
   * leave everything else alone, unless the whole device was asked for. */
  if (mounts->len > 0 || (self->device_fd < 0 && cm_card_in_use (self->path, NULL, NULL, NULL, NULL)))
    {
      if (self->flags & CM_VERIFY_FLAGS_DESTROY_DATA || mounts->len == 0)
        {
          g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_REFUSED,
                       _("%s is mounted, so CardMark will not overwrite it. Unmount it first, or verify a folder on it."),
                       self->path);
          return FALSE;
        }
      self->mode = CM_VERIFY_MODE_FILES;
      self->device = g_strdup (self->path);
      self->folder = g_strdup (g_ptr_array_index (mounts, 0));
      return TRUE;
    }

  if (self->flags & CM_VERIFY_FLAGS_READ_ONLY)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("Checking the .h2w files already written needs the folder they are in; %s is a device that is not mounted."), self->path);
      return FALSE;
    }
  if (!(self->flags & CM_VERIFY_FLAGS_DESTROY_DATA))
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NEEDS_CONSENT,
                   _("Verifying the whole of %s overwrites everything on it. Confirm that its data may be destroyed, "
                     "or mount it and verify a folder on it instead."), self->path);
      return FALSE;
    }

  self->mode = CM_VERIFY_MODE_DEVICE;
  self->device = g_strdup (self->path);
  /* A device is held by its job's card lock (cm-card-lock.c), not by an
   * flock on the device itself: udev takes a shared one while it probes
   * a device that was just written, which would refuse the verify. */
  if (self->device_fd >= 0)
    self->target = cm_target_new_for_fd (self->device_fd, self->path, TRUE, &local_error);
  else
    self->target = cm_target_new_for_path (self->path, TRUE, &local_error);
  self->device_fd = -1;  /* the target has it now, or closed it */
  if (self->target == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  if (cm_target_get_write_protected (self->target))
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_READ_ONLY,
                   _("The card is write-protected. Slide the lock switch up and try again."));
      return FALSE;
    }
  self->card_bytes = cm_target_get_size (self->target);
  if (self->card_bytes < CM_VERIFY_SECTOR)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("%s holds no data (0 bytes), so there is nothing to verify. Put a card in the reader and try again."),
                   self->path);
      return FALSE;
    }
  return set_state_path (self, cm_state_file_card_identity (self->path, self->card_bytes));
}

static gboolean
prepare_folder (CmVerify  *self,
                GError   **error)
{
  g_autoptr(GArray) existing = NULL;
  struct statvfs st;
  struct stat dir_st;

  /* Every .h2w is opened relative to this descriptor, so the folder the
   * checks below were made on is the one written to. */
  self->dir_fd = open (self->folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (self->dir_fd < 0 || fstat (self->dir_fd, &dir_st) != 0 || fstatvfs (self->dir_fd, &st) != 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (errno, self->folder));
      return FALSE;
    }
  self->folder_dev = dir_st.st_dev;
  self->card_bytes = (guint64) st.f_blocks * st.f_frsize;
  if (!take_lock (self, dup (self->dir_fd), error))
    return FALSE;
  set_state_path (self, folder_identity (&st));
  existing = cm_verify_list_h2w (self->folder);

  if (self->flags & CM_VERIFY_FLAGS_READ_ONLY)
    {
      if (existing->len == 0)
        {
          g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                       _("%s holds no .h2w files to check. Write them with f3write, or run a verify that writes them."),
                       self->folder);
          return FALSE;
        }
      return TRUE;
    }

  if (access (self->folder, W_OK) != 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (errno, self->folder));
      return FALSE;
    }

  if (!(self->flags & CM_VERIFY_FLAGS_RESUME) && existing->len > 0)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_FILES_EXIST,
                   _("%s already holds .h2w files from an earlier run. Carry on with the stopped verify, check them as they are, "
                     "or delete them first."), self->folder);
      return FALSE;
    }

  return TRUE;
}

/**
 * cm_verify_prepare:
 *
 * Decides the mode (a folder, or a mounted card's folder: files; an
 * unmounted card: the whole device) and checks that the run may go
 * ahead, so a face can ask or explain before anything is written.
 * cm_verify_run_async() prepares too when it was not done.
 */
gboolean
cm_verify_prepare (CmVerify  *self,
                   GError   **error)
{
  struct stat st;
  gboolean ok;

  g_return_val_if_fail (CM_IS_VERIFY (self), FALSE);

  if (self->prepared)
    return TRUE;

  if (self->path[0] == '\0')
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("No target was given. Give a folder on the card, or the card's device, such as /dev/mmcblk0."));
      return FALSE;
    }

  if (stat (self->path, &st) != 0)
    {
      g_propagate_error (error, cm_target_error_from_errno (errno, self->path));
      return FALSE;
    }

  if (S_ISDIR (st.st_mode))
    {
      self->mode = CM_VERIFY_MODE_FILES;
      self->folder = g_strdup (self->path);
      ok = prepare_folder (self, error);
    }
  else if (S_ISBLK (st.st_mode))
    {
      ok = prepare_device (self, error) &&
           (self->mode == CM_VERIFY_MODE_DEVICE || prepare_folder (self, error));
    }
  else
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("%s is not a folder or a card. Give a folder on the card, or the card's device, such as /dev/mmcblk0."),
                   self->path);
      return FALSE;
    }

  if (ok && (self->flags & CM_VERIFY_FLAGS_RESUME) && !cm_verify_has_saved_state (self))
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("There is no stopped verify of this card to carry on. Start a new verify instead."));
      ok = FALSE;
    }

  /* A run that may not go ahead keeps no other out. */
  if (!ok)
    release_lock (self);
  self->prepared = ok;
  return ok;
}

/**
 * cm_verify_run_async:
 *
 * Writes and reads back the card (or only reads, with
 * %CM_VERIFY_FLAGS_READ_ONLY) in a worker thread. Progress comes through
 * #CmVerify::progress on the calling thread's main context. Cancelling,
 * or a card that goes away, keeps the state for a later run with
 * %CM_VERIFY_FLAGS_RESUME.
 */
void
cm_verify_run_async (CmVerify            *self,
                     GCancellable        *cancellable,
                     GAsyncReadyCallback  callback,
                     gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (CM_IS_VERIFY (self));
  g_return_if_fail (!self->running);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, cm_verify_run_async);

  if (!cm_verify_prepare (self, &error))
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  self->running = TRUE;
  cm_verify_run_in_thread (self, task);
}

CmResult *
cm_verify_run_finish (CmVerify      *self,
                      GAsyncResult  *result,
                      GError       **error)
{
  g_return_val_if_fail (CM_IS_VERIFY (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == cm_verify_run_async, NULL);

  self->running = FALSE;
  /* The run is over: another may start. */
  release_lock (self);
  return g_task_propagate_pointer (G_TASK (result), error);
}
