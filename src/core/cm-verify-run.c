/* cm-verify-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's worker: writes the files (or the device) until full,
 * then has cm-verify-read.c read everything back and sort each sector,
 * keeping its progress in a state file (cm-verify-state.c, named after
 * the card's size and identity) as it goes, so a run that was cancelled
 * or lost its card carries on where it stopped, once the card proves it
 * holds what the stopped run wrote.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cm-engine.h"
#include "cm-test-hooks.h"
#include "cm-test-table.h"
#include "cm-verify-private.h"

#define CHUNK CM_VERIFY_CHUNK
#define MIN_CHUNK 4096
#define MAX_POINTS 500         /* speed points per direction */

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

/* A test hook: CARDMARK_VERIFY_STOP_AT=MOMENT stops the process
 * (SIGSTOP) at a named moment, so a test can kill it there instead of
 * hoping to catch it. */
static void
test_stop (const char *moment)
{
  if (g_strcmp0 (cm_test_hook ("CARDMARK_VERIFY_STOP_AT"), moment) == 0)
    raise (SIGSTOP);
}

/* Writes stretch @index from run->cur_offset to @length (or until the
 * filesystem is full). FALSE with @error when the run must stop. */
static gboolean
write_one (CmVerifyRun *run,
           guint        index,
           guint64      length,
           GError     **error)
{
  CmVerify *self = run->self;
  gboolean device = self->mode == CM_VERIFY_MODE_DEVICE;
  guint number = g_array_index (run->numbers, guint, index);
  g_autofree char *name = g_strdup_printf ("%u.h2w", number);
  guint64 base = cm_verify_run_file_base (run, index);
  gsize chunk = CHUNK;
  guint64 pos = run->cur_offset;
  g_autoptr(CmVerifyIo) io = NULL;
  GError *open_error = NULL;
  int fd;

  if (device)
    fd = cm_target_get_fd (self->target);
  else if ((fd = cm_verify_run_open_file (run, number, O_WRONLY | O_CREAT, &open_error)) < 0)
    {
      if (open_error != NULL)
        {
          cm_verify_run_save_state (run);
          g_propagate_error (error, open_error);
          return FALSE;
        }
      if (errno == ENOSPC)
        {
          run->full = TRUE;
          return TRUE;
        }
      return cm_verify_run_stop_error (run, errno, error);
    }
  else if (ftruncate (fd, pos) != 0)  /* what an interrupted write left past the saved point */
    {
      int errsv = errno;
      close (fd);
      return cm_verify_run_stop_error (run, errsv, error);
    }

  io = cm_verify_io_new (fd);
  while (pos < length)
    {
      gsize n = MIN (chunk, length - pos);
      CmVerifyPlace here = { device ? base + pos : pos, n, base + pos };
      CmVerifyPlace next = { here.offset + n, MIN (chunk, length - pos - n), here.pattern + n };
      gint64 start;
      gssize done;
      int errsv;

      if (cm_verify_run_cancelled (run, error))
        goto fail;
      cm_bus_share_yield (run->bus, run->cancellable);

      /* The time counted includes making the pattern: the rate is the
       * one the run goes at, which the time left is worked out from. */
      start = g_get_monotonic_time ();
      done = cm_verify_io_write (io, &here, &next, &errsv);
      if (done > 0 && !run->direct && fdatasync (fd) != 0)
        {
          done = -1;
          errsv = errno;
        }

      if (done < 0 && errsv == ENOSPC && !device)
        {
          /* Fill the last bit of room in smaller pieces. */
          if (n > MIN_CHUNK)
            {
              chunk = MAX (MIN_CHUNK, n / 2 / MIN_CHUNK * MIN_CHUNK);
              continue;
            }
          run->full = TRUE;
          break;
        }
      if (done < 0)
        {
          if (!cm_verify_is_removed (errsv) && cm_verify_run_card_gone (run))
            errsv = ENODEV;
          if (cm_verify_is_removed (errsv) || errsv == EROFS || errsv == EPERM)
            {
              cm_verify_run_stop_error (run, errsv, error);
              goto fail;
            }
          /* The card refuses this place: what was written before is read
           * back, and the report names where it stopped. */
          cm_verify_run_add_region (run, base + pos, base + pos + n);
          run->unreadable += n / CM_VERIFY_SECTOR;
          run->write_failed = TRUE;
          break;
        }

      done = done / CM_VERIFY_SECTOR * CM_VERIFY_SECTOR;
      cm_verify_run_account (run, run->write_points, base + pos, done, seconds_since (start));
      pos += done;
      run->written_bytes += done;
      run->write_seconds += seconds_since (start);
      run->cur_offset = pos;
      run->n_files = index + 1;
      g_array_set_size (run->lengths, run->n_files);
      g_array_index (run->lengths, guint64, index) = pos;
      if ((gsize) done < n)
        {
          run->full = TRUE;
          break;
        }
      cm_verify_run_report_progress (run, FALSE);
      if (g_get_monotonic_time () - run->last_save > CM_VERIFY_SAVE_EVERY_US)
        cm_verify_run_save_state (run);
    }

  if (!device)
    {
      if (fdatasync (fd) != 0 && !cm_verify_is_removed (errno) && !cm_verify_run_card_gone (run))
        run->write_failed = TRUE;
      close (fd);
      if (pos == 0)
        unlinkat (self->dir_fd, name, 0);
    }
  else
    fdatasync (fd);
  if (pos < length && !device)
    run->full = TRUE;
  return TRUE;

fail:
  /* A file stopped before its first byte is no file: the state does not
   * name it, so none is left behind either. */
  if (!device)
    {
      close (fd);
      if (pos == 0)
        unlinkat (self->dir_fd, name, 0);
    }
  return FALSE;
}

static gboolean
write_phase (CmVerifyRun *run,
             GError     **error)
{
  CmVerify *self = run->self;
  guint64 size = self->mode == CM_VERIFY_MODE_DEVICE ? cm_target_get_size (self->target) : 0;

  while (!run->full && !run->write_failed)
    {
      guint64 length = self->file_bytes;
      guint number = run->cur_file + 1;

      if (self->mode == CM_VERIFY_MODE_DEVICE)
        {
          guint64 base = (guint64) run->cur_file * self->file_bytes;

          if (base >= size)
            break;
          length = MIN (length, (size - base) / CM_VERIFY_SECTOR * CM_VERIFY_SECTOR);
        }
      if (run->numbers->len <= run->cur_file)
        g_array_append_val (run->numbers, number);

      if (!write_one (run, run->cur_file, length, error))
        return FALSE;
      /* A new file the full filesystem had no room for is no file. */
      g_array_set_size (run->numbers, run->n_files);
      g_array_set_size (run->lengths, run->n_files);
      if (run->cur_offset >= length)
        {
          run->cur_file++;
          run->cur_offset = 0;
          cm_verify_run_save_state (run);
        }
    }

  cm_verify_run_flush_point (run, run->write_points);
  if (run->n_files == 0 && self->mode == CM_VERIFY_MODE_FILES)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NO_SPACE,
                   _("%s has no free space to verify. Free some space, or verify the whole card."), self->folder);
      return FALSE;
    }

  run->phase = CM_VERIFY_PHASE_READ;
  run->cur_file = 0;
  run->cur_offset = 0;
  run->planned_bytes = 0;
  for (guint i = 0; i < run->n_files; i++)
    run->planned_bytes += g_array_index (run->lengths, guint64, i);
  cm_verify_run_save_state (run);
  return TRUE;
}

/* --read-only: the files f3write (or verify --keep) left. */
static void
take_existing_files (CmVerifyRun *run)
{
  g_autoptr(GArray) numbers = cm_verify_list_h2w (run->self->folder);

  for (guint i = 0; i < numbers->len; i++)
    {
      guint number = g_array_index (numbers, guint, i);
      g_autofree char *name = g_strdup_printf ("%u.h2w", number);
      struct stat st;
      guint64 length;

      /* A link (to anywhere) or anything but a file on the card is named
       * in the result and not read. */
      if (fstatat (run->self->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        continue;
      if (!S_ISREG (st.st_mode) || st.st_dev != run->self->folder_dev)
        {
          g_ptr_array_add (run->skipped, g_steal_pointer (&name));
          continue;
        }
      length = (guint64) st.st_size / CM_VERIFY_SECTOR * CM_VERIFY_SECTOR;
      g_array_append_val (run->numbers, number);
      g_array_append_val (run->lengths, length);
      run->planned_bytes += length;
    }
  run->n_files = run->numbers->len;
  run->phase = CM_VERIFY_PHASE_READ;
}

static void
remove_files (CmVerifyRun *run)
{
  for (guint i = 0; i < run->n_files; i++)
    {
      g_autofree char *name = g_strdup_printf ("%u.h2w", g_array_index (run->numbers, guint, i));

      unlinkat (run->self->dir_fd, name, 0);
    }
}

static CmTestResult *
make_test (const char *name,
           guint64     bytes,
           double      seconds,
           GArray     *points,
           GStrv       shared)
{
  CmTestResult *test = cm_test_result_new (name);

  test->block_size = CHUNK;
  test->queue_depth = 1;
  test->bytes = bytes;
  test->seconds = seconds;
  test->mb_per_s = seconds > 0 ? bytes / seconds / 1e6 : 0;
  test->iops = seconds > 0 ? bytes / (double) CHUNK / seconds : 0;
  test->engine = g_strdup ("psync");
  g_array_append_vals (test->positions, points->data, points->len);
  if (shared != NULL && shared[0] != NULL)
    test->shared_bus_with = g_strdupv (shared);
  return test;
}

static CmResult *
make_result (CmVerifyRun *run)
{
  CmVerify *self = run->self;
  g_autoptr(CmResult) result = cm_result_new ();
  g_autoptr(CmVerifySummary) v = cm_verify_summary_new ();
  g_autoptr(GDateTime) started = g_date_time_new_from_iso8601 (run->started, NULL);
  g_autofree char *summary = NULL;
  gboolean device = self->mode == CM_VERIFY_MODE_DEVICE;
  CmVerifyFacts facts;
  guint64 sectors;

  if (started != NULL)
    cm_result_set_started (result, started);
  cm_result_set_profile (result, "verify");
  cm_result_set_target (result, device ? self->device : self->folder, device ? "raw-write" : "file",
                        self->device, NULL);
  cm_result_set_direct_io (result, run->direct);

  if (run->written_bytes > 0)
    cm_result_take_test (result, make_test (CM_TEST_VERIFY_WRITE, run->written_bytes, run->write_seconds,
                                            run->write_points, run->write_shared));
  cm_result_take_test (result, make_test (CM_TEST_VERIFY_READ, run->read_bytes, run->read_seconds,
                                          run->read_points, run->read_shared));

  v->mode = g_strdup (device ? "device" : "files");
  v->n_files = run->n_files;
  v->written_bytes = run->written_bytes;
  v->sectors_ok = run->counts.ok;
  v->sectors_corrupted = run->counts.corrupted;
  v->sectors_changed = run->counts.changed;
  v->sectors_overwritten = run->counts.overwritten;
  v->sectors_unreadable = run->unreadable;
  sectors = run->counts.ok + run->counts.corrupted + run->counts.changed + run->counts.overwritten + run->unreadable;
  v->checked_bytes = sectors * CM_VERIFY_SECTOR;
  v->usable_bytes = run->counts.ok * CM_VERIFY_SECTOR;
  v->lost_bytes = v->checked_bytes - v->usable_bytes;
  v->complete = !run->write_failed && !run->gave_up;
  g_array_append_vals (v->bad_regions, run->regions->data, run->regions->len);
  if (v->bad_regions->len > 0)
    v->first_bad_offset = (gint64) g_array_index (v->bad_regions, CmRegion, 0).start;
  cm_result_set_verify (result, v);

  /* The card's size says how much of it a run that stopped never reached. */
  if (device)
    cm_result_set_device_bytes (result, cm_target_get_size (self->target));
  cm_verify_facts_init (&facts, v, cm_result_get_device_bytes (result));
  summary = cm_verify_describe (&facts, v);
  cm_result_set_summary (result, summary);
  if (!run->direct)
    cm_result_add_note (result, _("The filesystem refused direct I/O, so CardMark synced every write and dropped the cache before reading back."));
  if (self->flags & CM_VERIFY_FLAGS_READ_ONLY)
    cm_result_add_note (result, _("Only the .h2w files already in the folder were checked; nothing was written."));
  if (run->skipped->len > 0)
    {
      g_autofree char *names = NULL;
      g_autofree char *note = NULL;

      g_ptr_array_add (run->skipped, NULL);
      names = g_strjoinv (", ", (char **) run->skipped->pdata);
      g_ptr_array_remove_index (run->skipped, run->skipped->len - 1);
      note = g_strdup_printf (_("Not read, because they are links or not files on the card: %s."), names);
      cm_result_add_note (result, note);
    }
  else if (!device && (self->flags & CM_VERIFY_FLAGS_KEEP))
    cm_result_add_note (result, _("The .h2w files were kept, so f3read can check them too."));
  if (run->write_failed)
    cm_result_add_note (result, _("The card refused a write, so the verify stopped writing there and read back what it had written."));
  cm_result_add_shared_bus_note (result, (const char * const *) run->write_shared,
                                 (const char * const *) run->read_shared);

  return g_steal_pointer (&result);
}

static void
run_verify (GTask       *task,
            CmVerifyRun *run)
{
  CmVerify *self = run->self;
  GError *error = NULL;
  gboolean read_only = self->flags & CM_VERIFY_FLAGS_READ_ONLY;

  if (read_only)
    take_existing_files (run);
  else if (self->flags & CM_VERIFY_FLAGS_RESUME)
    {
      /* Believed only once the card shows what the stopped run wrote. */
      if (!cm_verify_state_load (run, &error) || !cm_verify_read_prove (run, &error) ||
          !cm_verify_run_check_ahead (run, &error))
        {
          g_task_return_error (task, error);
          return;
        }
      if (run->phase == CM_VERIFY_PHASE_WRITE)
        run->resumed_file = run->cur_file;
    }
  else if (self->mode == CM_VERIFY_MODE_FILES)
    {
      struct statvfs st;

      if (fstatvfs (self->dir_fd, &st) == 0)
        run->planned_bytes = (guint64) st.f_bavail * st.f_frsize;
    }
  else
    run->planned_bytes = cm_target_get_size (self->target);

  run->bucket = MAX ((guint64) CHUNK * 2, run->planned_bytes / MAX_POINTS / CHUNK * CHUNK);
  /* Where the run stands is on the computer's disk before its first
   * write, or a stop could not be carried on: a folder that takes no
   * state is said now, with the card untouched. */
  if (!cm_verify_run_save_state_or_fail (run, &error))
    {
      g_task_return_new_error (task, CM_VERIFY_ERROR, CM_VERIFY_ERROR_REFUSED,
                               _("CardMark cannot keep where the verify stands (%s), so a stop could not be carried "
                                 "on; nothing was written. Make that folder writable, or free some space, and try again."),
                               error->message);
      g_clear_error (&error);
      return;
    }

  if (run->phase == CM_VERIFY_PHASE_WRITE)
    {
      gboolean written = write_phase (run, &error);

      run->write_shared = cm_bus_share_take_neighbours (run->bus);
      if (!written)
        {
          g_task_return_error (task, error);
          return;
        }
    }
  if (!cm_verify_read_phase (run, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  run->read_shared = cm_bus_share_take_neighbours (run->bus);
  cm_verify_run_report_progress (run, TRUE);

  /* The verdict is kept before the files go, so a stop from here on
   * resumes to it rather than to files that are no longer there. */
  if (!read_only)
    {
      g_autoptr(GError) save_error = NULL;
      gboolean kept = cm_verify_run_save_state_or_fail (run, &save_error);

      test_stop ("verdict-kept");
      if (!(self->flags & CM_VERIFY_FLAGS_KEEP) && self->mode == CM_VERIFY_MODE_FILES && kept)
        remove_files (run);
      test_stop ("files-removed");
    }
  /* A run that checked nothing proves nothing about the card. */
  if (run->counts.ok + run->counts.corrupted + run->counts.changed + run->counts.overwritten + run->unreadable == 0)
    {
      if (!read_only)
        g_unlink (self->state_path);
      g_task_return_new_error (task, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                               _("Nothing on %s could be checked, so there is no verdict on the card. "
                                 "Check that a card is in the reader and that the .h2w files are files on it."),
                               self->folder != NULL ? self->folder : self->path);
      return;
    }
  {
    CmResult *result = make_result (run);

    if (!read_only)
      g_unlink (self->state_path);
    g_task_return_pointer (task, result, g_object_unref);
  }
}

typedef struct
{
  CmVerify *self;
  char     *measurer;
} Paused;

static gboolean
emit_paused_cb (gpointer data)
{
  Paused *p = data;

  g_signal_emit_by_name (p->self, "paused", p->measurer);
  return G_SOURCE_REMOVE;
}

static void
paused_free (gpointer data)
{
  Paused *p = data;

  g_object_unref (p->self);
  g_free (p->measurer);
  g_free (p);
}

/* In the worker: the run waits for (or is done waiting for) a card on
 * its bus that measures; said on the main context. */
static void
paused_cb (const char *measurer,
           gpointer    user_data)
{
  CmVerifyRun *run = user_data;
  Paused *p = g_new0 (Paused, 1);

  p->self = g_object_ref (run->self);
  p->measurer = g_strdup (measurer);
  g_main_context_invoke_full (run->context, G_PRIORITY_DEFAULT, emit_paused_cb, p, paused_free);
  if (measurer == NULL)
    cm_verify_run_report_progress (run, TRUE);
}

/* The run moves data on its card's bus from start to end: it pauses
 * while another card there measures, and notes who moved data beside it. */
static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  CmVerifyRun *run = task_data;
  g_autofree char *key = cm_bus_key_for_device (run->self->device);

  run->bus = cm_bus_share_begin (key, run->self->device);
  cm_bus_share_set_paused_func (run->bus, paused_cb, run);
  run_verify (task, run);
  g_clear_pointer (&run->bus, cm_bus_share_end);
}

/* Starts the worker for @task: a run from the start, from the saved
 * state, or over the files already there. */
void
cm_verify_run_in_thread (CmVerify *self,
                         GTask    *task)
{
  CmVerifyRun *run = cm_verify_run_new (self, g_task_get_cancellable (task));

  run->direct = self->mode == CM_VERIFY_MODE_DEVICE ? cm_target_get_direct_io (self->target) : TRUE;
  g_task_set_task_data (task, run, (GDestroyNotify) cm_verify_run_free);

  g_task_run_in_thread (task, run_thread);
}
