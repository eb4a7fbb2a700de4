/* cm-verify-run.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's worker: writes the files (or the device) until full,
 * then has cm-verify-read.c read everything back and sort each sector,
 * keeping its progress in a state file (named after the card's size and
 * identity) as it goes, so a run that was cancelled or lost its card
 * carries on where it stopped.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cm-engine.h"
#include "cm-test-table.h"
#include "cm-verify-private.h"

#define CHUNK CM_VERIFY_CHUNK
#define MIN_CHUNK 4096
#define MAX_POINTS 500         /* speed points per direction */
#define MAX_REGIONS 256
#define REGION_GAP (1024 * 1024)
#define PROGRESS_EVERY_US (G_USEC_PER_SEC / 4)
#define STATE_VERSION 1

static void
run_free (CmVerifyRun *run)
{
  g_clear_object (&run->self);
  g_clear_pointer (&run->context, g_main_context_unref);
  g_clear_object (&run->cancellable);
  g_free (run->started);
  g_clear_pointer (&run->regions, g_array_unref);
  g_clear_pointer (&run->write_points, g_array_unref);
  g_clear_pointer (&run->read_points, g_array_unref);
  g_clear_pointer (&run->lengths, g_array_unref);
  g_clear_pointer (&run->numbers, g_array_unref);
  g_free (run->buffer);
  g_free (run->buffer2);
  g_free (run);
}

guint64
cm_verify_run_file_base (CmVerifyRun *run,
                         guint        index)
{
  return (guint64) (g_array_index (run->numbers, guint, index) - 1) * run->self->file_bytes;
}

void
cm_verify_run_add_region (CmVerifyRun *run,
                          guint64      start,
                          guint64      end)
{
  CmRegion *last = run->regions->len > 0 ? &g_array_index (run->regions, CmRegion, run->regions->len - 1) : NULL;
  CmRegion region = { start, end };

  if (last != NULL && start >= last->start && start <= last->end + REGION_GAP)
    {
      last->end = MAX (last->end, end);
      return;
    }
  /* Past the bound, the last region grows to take the rest: the chart
   * and the report still show where trouble starts and how far it goes. */
  if (last != NULL && run->regions->len >= MAX_REGIONS)
    {
      last->end = MAX (last->end, end);
      return;
    }
  g_array_append_val (run->regions, region);
}

/* The state file. */

static void
set_u64_list (GKeyFile   *key_file,
              const char *key,
              GArray     *array,
              gsize       element_words)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  for (guint i = 0; i < array->len * element_words; i++)
    {
      guint64 value = element_words == 1 && g_array_get_element_size (array) == sizeof (guint)
                      ? ((guint *) array->data)[i] : ((guint64 *) array->data)[i];
      char text[32];

      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, value);
      g_strv_builder_add (builder, text);
    }
  strv = g_strv_builder_end (builder);
  g_key_file_set_string_list (key_file, "verify", key, (const char * const *) strv, g_strv_length (strv));
}

static void
get_u64_list (GKeyFile   *key_file,
              const char *key,
              GArray     *array)
{
  gsize n = 0;
  g_auto(GStrv) strv = g_key_file_get_string_list (key_file, "verify", key, &n, NULL);

  for (gsize i = 0; i < n; i++)
    {
      guint64 value = g_ascii_strtoull (strv[i], NULL, 10);

      if (g_array_get_element_size (array) == sizeof (guint))
        {
          guint small = (guint) value;
          g_array_append_val (array, small);
        }
      else
        g_array_append_val (array, value);
    }
}

static void
set_points (GKeyFile   *key_file,
            const char *key,
            GArray     *points)
{
  if (points->len > 0)
    g_key_file_set_double_list (key_file, "verify", key, (double *) points->data, points->len * 2);
}

static void
get_points (GKeyFile   *key_file,
            const char *key,
            GArray     *points)
{
  gsize n = 0;
  g_autofree double *values = g_key_file_get_double_list (key_file, "verify", key, &n, NULL);

  if (values != NULL)
    g_array_append_vals (points, values, n / 2);
}

void
cm_verify_run_save_state (CmVerifyRun *run)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autofree char *folder = g_path_get_dirname (run->self->state_path);
  g_autoptr(GError) error = NULL;

  g_key_file_set_integer (key_file, "verify", "version", STATE_VERSION);
  g_key_file_set_string (key_file, "verify", "path", run->self->path);
  g_key_file_set_string (key_file, "verify", "started", run->started);
  g_key_file_set_uint64 (key_file, "verify", "file-bytes", run->self->file_bytes);
  g_key_file_set_integer (key_file, "verify", "phase", run->phase);
  g_key_file_set_integer (key_file, "verify", "files", run->n_files);
  g_key_file_set_integer (key_file, "verify", "current-file", run->cur_file);
  g_key_file_set_uint64 (key_file, "verify", "current-offset", run->cur_offset);
  g_key_file_set_boolean (key_file, "verify", "full", run->full);
  g_key_file_set_boolean (key_file, "verify", "write-failed", run->write_failed);
  g_key_file_set_uint64 (key_file, "verify", "planned-bytes", run->planned_bytes);
  g_key_file_set_uint64 (key_file, "verify", "written-bytes", run->written_bytes);
  g_key_file_set_double (key_file, "verify", "write-seconds", run->write_seconds);
  g_key_file_set_uint64 (key_file, "verify", "read-bytes", run->read_bytes);
  g_key_file_set_double (key_file, "verify", "read-seconds", run->read_seconds);
  g_key_file_set_uint64 (key_file, "verify", "ok", run->counts.ok);
  g_key_file_set_uint64 (key_file, "verify", "corrupted", run->counts.corrupted);
  g_key_file_set_uint64 (key_file, "verify", "changed", run->counts.changed);
  g_key_file_set_uint64 (key_file, "verify", "overwritten", run->counts.overwritten);
  g_key_file_set_uint64 (key_file, "verify", "unreadable", run->unreadable);
  set_u64_list (key_file, "regions", run->regions, 2);
  set_u64_list (key_file, "lengths", run->lengths, 1);
  set_u64_list (key_file, "numbers", run->numbers, 1);
  set_points (key_file, "write-points", run->write_points);
  set_points (key_file, "read-points", run->read_points);

  if (g_mkdir_with_parents (folder, 0700) != 0 ||
      !g_key_file_save_to_file (key_file, run->self->state_path, &error))
    g_warning ("Could not save the verify's progress to %s: %s", run->self->state_path,
               error ? error->message : g_strerror (errno));
  run->last_save = g_get_monotonic_time ();
}

static gboolean
load_state (CmVerifyRun *run,
            GError     **error)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_autoptr(GError) local_error = NULL;

  if (!g_key_file_load_from_file (key_file, run->self->state_path, G_KEY_FILE_NONE, &local_error) ||
      g_key_file_get_integer (key_file, "verify", "version", NULL) != STATE_VERSION)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("The saved progress in %s cannot be read (%s). Delete it and run verify without --resume."),
                   run->self->state_path, local_error ? local_error->message : _("another version"));
      return FALSE;
    }

  g_free (run->started);
  run->started = g_key_file_get_string (key_file, "verify", "started", NULL);
  run->self->file_bytes = g_key_file_get_uint64 (key_file, "verify", "file-bytes", NULL);
  run->phase = g_key_file_get_integer (key_file, "verify", "phase", NULL);
  run->n_files = g_key_file_get_integer (key_file, "verify", "files", NULL);
  run->cur_file = g_key_file_get_integer (key_file, "verify", "current-file", NULL);
  run->cur_offset = g_key_file_get_uint64 (key_file, "verify", "current-offset", NULL);
  run->full = g_key_file_get_boolean (key_file, "verify", "full", NULL);
  run->write_failed = g_key_file_get_boolean (key_file, "verify", "write-failed", NULL);
  run->planned_bytes = g_key_file_get_uint64 (key_file, "verify", "planned-bytes", NULL);
  run->written_bytes = g_key_file_get_uint64 (key_file, "verify", "written-bytes", NULL);
  run->write_seconds = g_key_file_get_double (key_file, "verify", "write-seconds", NULL);
  run->read_bytes = g_key_file_get_uint64 (key_file, "verify", "read-bytes", NULL);
  run->read_seconds = g_key_file_get_double (key_file, "verify", "read-seconds", NULL);
  run->counts.ok = g_key_file_get_uint64 (key_file, "verify", "ok", NULL);
  run->counts.corrupted = g_key_file_get_uint64 (key_file, "verify", "corrupted", NULL);
  run->counts.changed = g_key_file_get_uint64 (key_file, "verify", "changed", NULL);
  run->counts.overwritten = g_key_file_get_uint64 (key_file, "verify", "overwritten", NULL);
  run->unreadable = g_key_file_get_uint64 (key_file, "verify", "unreadable", NULL);
  get_u64_list (key_file, "regions", run->regions);
  g_array_set_size (run->regions, run->regions->len / 2);
  get_u64_list (key_file, "lengths", run->lengths);
  get_u64_list (key_file, "numbers", run->numbers);
  get_points (key_file, "write-points", run->write_points);
  get_points (key_file, "read-points", run->read_points);

  if (run->self->file_bytes < CHUNK || run->self->file_bytes % CHUNK != 0 ||
      run->lengths->len != run->n_files || run->numbers->len != run->n_files ||
      run->phase > CM_VERIFY_PHASE_READ + 1 || run->cur_file > run->n_files)
    {
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOTHING,
                   _("The saved progress in %s is damaged. Delete it and run verify without --resume."),
                   run->self->state_path);
      return FALSE;
    }
  return TRUE;
}

/* Progress, on the main context. */

typedef struct
{
  CmVerify *self;
  guint     phase;
  double    fraction;
  double    mb_per_s;
  double    seconds_left;
} Progress;

static gboolean
emit_progress_cb (gpointer data)
{
  Progress *p = data;

  cm_verify_emit_progress (p->self, p->phase, p->fraction, p->mb_per_s, p->seconds_left);
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->self);
  g_free (p);
}

void
cm_verify_run_report_progress (CmVerifyRun *run,
                               gboolean     force)
{
  gint64 now = g_get_monotonic_time ();
  Progress *p;
  double write_rate, read_rate, total, done, left;

  if (!force && now - run->last_progress < PROGRESS_EVERY_US)
    return;
  run->last_progress = now;

  write_rate = run->write_seconds > 0 ? run->written_bytes / run->write_seconds : 0;
  read_rate = run->read_seconds > 0 ? run->read_bytes / run->read_seconds : write_rate;
  total = run->planned_bytes * 2.0;
  done = MIN (run->written_bytes, run->planned_bytes) + run->read_bytes;
  if (run->phase == CM_VERIFY_PHASE_WRITE)
    left = write_rate > 0 ? (run->planned_bytes - MIN (run->written_bytes, run->planned_bytes)) / write_rate +
                            run->planned_bytes / (read_rate > 0 ? read_rate : write_rate) : -1;
  else
    left = read_rate > 0 ? (run->planned_bytes - MIN (run->read_bytes, run->planned_bytes)) / read_rate : -1;

  p = g_new0 (Progress, 1);
  p->self = g_object_ref (run->self);
  p->phase = run->phase;
  p->fraction = total > 0 ? CLAMP (done / total, 0, 1) : 0;
  p->mb_per_s = (run->phase == CM_VERIFY_PHASE_WRITE ? write_rate : read_rate) / 1e6;
  p->seconds_left = left;
  g_main_context_invoke_full (run->context, G_PRIORITY_DEFAULT, emit_progress_cb, p, progress_free);
}

/* One point of the speed chart every run->bucket bytes. */
void
cm_verify_run_account (CmVerifyRun *run,
                       GArray      *points,
                       guint64      offset,
                       guint64      bytes,
                       double       seconds)
{
  if (run->point_bytes == 0)
    run->point_start = offset;
  run->point_bytes += bytes;
  run->point_seconds += seconds;
  if (run->point_bytes >= run->bucket)
    {
      CmPosition p = { (double) run->point_start, run->point_seconds > 0 ? run->point_bytes / run->point_seconds / 1e6 : 0 };

      g_array_append_val (points, p);
      run->point_bytes = 0;
      run->point_seconds = 0;
    }
}

void
cm_verify_run_flush_point (CmVerifyRun *run,
                           GArray      *points)
{
  if (run->point_bytes > 0 && run->point_seconds > 0)
    {
      CmPosition p = { (double) run->point_start, run->point_bytes / run->point_seconds / 1e6 };

      g_array_append_val (points, p);
    }
  run->point_bytes = 0;
  run->point_seconds = 0;
}

gboolean
cm_verify_is_removed (int errsv)
{
  return errsv == ENODEV || errsv == ENXIO || errsv == ENOMEDIUM;
}

/* Whether the card under the run went away: its node is gone, its size is
 * 0 (a reader whose card was pulled), or, for a loop device, its backing
 * file no longer answers (a simulated card whose daemon is gone). An I/O
 * error then means "put it back and carry on", not "the card is failing". */
gboolean
cm_verify_run_card_gone (CmVerifyRun *run)
{
  const char *path = run->self->mode == CM_VERIFY_MODE_DEVICE ? run->self->device : run->self->folder;
  g_autofree char *sys = NULL;
  g_autofree char *size = NULL;
  g_autofree char *backing = NULL;
  g_autofree char *size_path = NULL;
  g_autofree char *backing_path = NULL;
  struct stat st, backing_st;
  dev_t dev;

  if (path == NULL || stat (path, &st) != 0)
    return TRUE;
  dev = S_ISBLK (st.st_mode) ? st.st_rdev : st.st_dev;
  sys = g_strdup_printf ("/sys/dev/block/%u:%u", major (dev), minor (dev));
  size_path = g_build_filename (sys, "size", NULL);
  if (g_file_get_contents (size_path, &size, NULL, NULL) && g_ascii_strtoull (size, NULL, 10) == 0)
    return TRUE;
  /* A partition's loop device is its parent. */
  backing_path = g_build_filename (sys, "loop", "backing_file", NULL);
  if (!g_file_test (backing_path, G_FILE_TEST_EXISTS))
    {
      g_free (backing_path);
      backing_path = g_build_filename (sys, "..", "loop", "backing_file", NULL);
    }
  if (g_file_get_contents (backing_path, &backing, NULL, NULL))
    return stat (g_strchomp (backing), &backing_st) != 0;
  return FALSE;
}

gboolean
cm_verify_run_stop_error (CmVerifyRun *run,
                          int          errsv,
                          GError     **error)
{
  cm_verify_run_save_state (run);
  if (cm_verify_is_removed (errsv))
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED,
                 _("The card was removed. Put it back and carry on with --resume: what was done is kept."));
  else
    g_propagate_error (error, cm_target_error_from_errno (errsv, NULL));
  return FALSE;
}

gboolean
cm_verify_run_cancelled (CmVerifyRun *run,
                         GError     **error)
{
  if (!g_cancellable_is_cancelled (run->cancellable))
    return FALSE;
  cm_verify_run_save_state (run);
  g_cancellable_set_error_if_cancelled (run->cancellable, error);
  return TRUE;
}

int
cm_verify_run_open_file (CmVerifyRun *run,
                         const char  *path,
                         int          flags)
{
  int fd = -1;

  if (run->direct)
    {
      fd = open (path, flags | O_DIRECT | O_CLOEXEC, 0644);
      /* tmpfs and some FUSE filesystems refuse O_DIRECT. */
      if (fd >= 0 || errno != EINVAL)
        return fd;
      run->direct = FALSE;
    }
  return open (path, flags | O_CLOEXEC, 0644);
}

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
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
  g_autofree char *path = device ? NULL : cm_verify_file_path (self, index);
  guint64 base = cm_verify_run_file_base (run, index);
  gsize chunk = CHUNK;
  guint64 pos = run->cur_offset;
  int fd;

  if (device)
    fd = cm_target_get_fd (self->target);
  else if ((fd = cm_verify_run_open_file (run, path, O_WRONLY | O_CREAT)) < 0)
    {
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

  while (pos < length)
    {
      gsize n = MIN (chunk, length - pos);
      gint64 start;
      gssize done;

      if (cm_verify_run_cancelled (run, error))
        goto fail;

      /* The time counted includes making the pattern: the rate is the
       * one the run goes at, which the time left is worked out from. */
      start = g_get_monotonic_time ();
      cm_verify_fill (run->buffer, n, base + pos);
      done = pwrite (fd, run->buffer, n, device ? base + pos : pos);
      if (done > 0 && !run->direct && fdatasync (fd) != 0)
        done = -1;

      if (done < 0 && errno == EINTR)
        continue;
      if (done < 0 && errno == ENOSPC && !device)
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
          int errsv = errno;

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
        g_unlink (path);
    }
  else
    fdatasync (fd);
  if (pos < length && !device)
    run->full = TRUE;
  return TRUE;

fail:
  if (!device)
    close (fd);
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
      g_autofree char *path = g_strdup_printf ("%s/%u.h2w", run->self->folder, number);
      struct stat st;
      guint64 length;

      if (stat (path, &st) != 0 || !S_ISREG (st.st_mode))
        continue;
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
      g_autofree char *path = g_strdup_printf ("%s/%u.h2w", run->self->folder, g_array_index (run->numbers, guint, i));

      g_unlink (path);
    }
}

static CmTestResult *
make_test (const char *name,
           guint64     bytes,
           double      seconds,
           GArray     *points)
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
  guint64 sectors;

  if (started != NULL)
    cm_result_set_started (result, started);
  cm_result_set_profile (result, "verify");
  cm_result_set_target (result, device ? self->device : self->folder, device ? "raw-write" : "file",
                        self->device, NULL);
  cm_result_set_direct_io (result, run->direct);
  cm_result_set_host_facts (result, self->host);
  if (self->card != NULL)
    cm_result_set_card (result, self->card);
  if (self->card_device != NULL)
    {
      cm_result_set_target (result, cm_result_get_target_path (result), cm_result_get_target_mode (result),
                            cm_device_get_device (self->card_device),
                            cm_reader_kind_to_string (cm_device_get_reader_kind (self->card_device)));
      cm_result_set_usb_speed_mbps (result, cm_device_get_usb_speed_mbps (self->card_device));
    }
  if (self->name != NULL)
    cm_result_set_name (result, self->name);
  else if (self->card_device != NULL)
    cm_result_set_name (result, cm_device_get_name (self->card_device));
  else
    {
      g_autofree char *folder = g_filename_display_basename (self->folder ? self->folder : self->path);

      cm_result_set_name (result, folder);
    }

  if (run->written_bytes > 0)
    cm_result_take_test (result, make_test (CM_TEST_VERIFY_WRITE, run->written_bytes, run->write_seconds, run->write_points));
  cm_result_take_test (result, make_test (CM_TEST_VERIFY_READ, run->read_bytes, run->read_seconds, run->read_points));

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

  summary = cm_verify_describe (v);
  cm_result_set_summary (result, summary);
  if (!run->direct)
    cm_result_add_note (result, _("The filesystem refused direct I/O, so CardMark synced every write and dropped the cache before reading back."));
  if (self->flags & CM_VERIFY_FLAGS_READ_ONLY)
    cm_result_add_note (result, _("Only the .h2w files already in the folder were checked; nothing was written."));
  else if (!device && (self->flags & CM_VERIFY_FLAGS_KEEP))
    cm_result_add_note (result, _("The .h2w files were kept, so f3read can check them too."));
  if (run->write_failed)
    cm_result_add_note (result, _("The card refused a write, so the verify stopped writing there and read back what it had written."));

  return g_steal_pointer (&result);
}

static void
run_thread (GTask        *task,
            gpointer      source,
            gpointer      task_data,
            GCancellable *cancellable)
{
  CmVerifyRun *run = task_data;
  CmVerify *self = run->self;
  GError *error = NULL;
  gboolean read_only = self->flags & CM_VERIFY_FLAGS_READ_ONLY;

  if (read_only)
    take_existing_files (run);
  else if (self->flags & CM_VERIFY_FLAGS_RESUME)
    {
      if (!load_state (run, &error))
        {
          g_task_return_error (task, error);
          return;
        }
    }
  else if (self->mode == CM_VERIFY_MODE_FILES)
    {
      struct statvfs st;

      if (statvfs (self->folder, &st) == 0)
        run->planned_bytes = (guint64) st.f_bavail * st.f_frsize;
    }
  else
    run->planned_bytes = cm_target_get_size (self->target);

  run->bucket = MAX ((guint64) CHUNK * 2, run->planned_bytes / MAX_POINTS / CHUNK * CHUNK);
  run->last_save = g_get_monotonic_time ();
  if (!read_only)
    cm_verify_run_save_state (run);

  if ((run->phase == CM_VERIFY_PHASE_WRITE && !write_phase (run, &error)) ||
      !cm_verify_run_read_phase (run, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  cm_verify_run_report_progress (run, TRUE);

  if (!read_only)
    {
      if (!(self->flags & CM_VERIFY_FLAGS_KEEP) && self->mode == CM_VERIFY_MODE_FILES)
        remove_files (run);
      g_unlink (self->state_path);
    }
  g_task_return_pointer (task, make_result (run), g_object_unref);
}

/* Starts the worker for @task: a run from the start, from the saved
 * state, or over the files already there. */
void
cm_verify_run_in_thread (CmVerify *self,
                         GTask    *task)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  GCancellable *cancellable = g_task_get_cancellable (task);
  CmVerifyRun *run;

  run = g_new0 (CmVerifyRun, 1);
  run->self = g_object_ref (self);
  run->context = g_main_context_ref_thread_default ();
  run->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  run->started = g_date_time_format_iso8601 (now);
  run->phase = CM_VERIFY_PHASE_WRITE;
  run->regions = g_array_new (FALSE, FALSE, sizeof (CmRegion));
  run->write_points = g_array_new (FALSE, FALSE, sizeof (CmPosition));
  run->read_points = g_array_new (FALSE, FALSE, sizeof (CmPosition));
  run->lengths = g_array_new (FALSE, TRUE, sizeof (guint64));
  run->numbers = g_array_new (FALSE, TRUE, sizeof (guint));
  run->buffer = cm_engine_alloc (CHUNK);
  run->buffer2 = cm_engine_alloc (CHUNK);
  run->direct = self->mode == CM_VERIFY_MODE_DEVICE ? cm_target_get_direct_io (self->target) : TRUE;
  g_task_set_task_data (task, run, (GDestroyNotify) run_free);

  g_task_run_in_thread (task, run_thread);
}
