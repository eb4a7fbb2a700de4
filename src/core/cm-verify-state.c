/* cm-verify-state.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the verify's writer (cm-verify-run.c) and reader
 * (cm-verify-read.c) share: the run's state, the file it is kept in
 * between runs, progress and speed points, and how a .h2w file on the
 * card is opened. Both halves call this; it calls neither.
 *
 * The state file is trusted for nothing it cannot prove: it ends with a
 * SHA-256 of everything before it, names the card it belongs to, and
 * every number in it is bounded by that card. That it belongs to the
 * card in hand is proved by reading back (cm_verify_read_prove).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cm-state-file.h"
#include "cm-verify-private.h"

#define CHUNK CM_VERIFY_CHUNK
#define MAX_POINTS 500         /* speed points per direction, as the run makes them */
#define MAX_REGIONS 256
#define REGION_GAP (1024 * 1024)
#define PROGRESS_EVERY_US (G_USEC_PER_SEC / 4)
#define STATE_VERSION 2
#define STATE_MAX_BYTES (1024 * 1024)
#define MAX_SECONDS (100.0 * 365 * 24 * 3600)


CmVerifyRun *
cm_verify_run_new (CmVerify     *self,
                   GCancellable *cancellable)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  CmVerifyRun *run = g_new0 (CmVerifyRun, 1);

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
  run->skipped = g_ptr_array_new_with_free_func (g_free);
  run->resumed_file = -1;
  return run;
}

void
cm_verify_run_free (CmVerifyRun *run)
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
  g_clear_pointer (&run->skipped, g_ptr_array_unref);
  g_strfreev (run->write_shared);
  g_strfreev (run->read_shared);
  g_free (run->buffer);
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

/* The state file: writing. */

/* The state as the file holds it, checksum included. Only the files
 * that hold data are named: a file the run was about to start is not
 * one yet, so the numbers and lengths always match the count. */
char *
cm_verify_state_to_data (CmVerifyRun *run,
                         gsize       *length)
{
  g_autoptr(GKeyFile) key_file = g_key_file_new ();
  g_key_file_set_integer (key_file, "verify", "version", STATE_VERSION);
  g_key_file_set_string (key_file, "verify", "card", run->self->identity);
  g_key_file_set_uint64 (key_file, "verify", "card-bytes", run->self->card_bytes);
  g_key_file_set_integer (key_file, "verify", "mode", run->self->mode);
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
  cm_state_file_set_u64_list (key_file, "verify", "regions", run->regions, run->regions->len * 2);
  cm_state_file_set_u64_list (key_file, "verify", "lengths", run->lengths, MIN (run->lengths->len, run->n_files));
  cm_state_file_set_u64_list (key_file, "verify", "numbers", run->numbers, MIN (run->numbers->len, run->n_files));
  cm_state_file_set_double_list (key_file, "verify", "write-points", (double *) run->write_points->data, run->write_points->len * 2);
  cm_state_file_set_double_list (key_file, "verify", "read-points", (double *) run->read_points->data, run->read_points->len * 2);
  return cm_state_file_seal (key_file, length);
}

/* Written whole or not at all (a new file renamed over the old) and
 * synced, so a stop at any moment, a kill -9 too, leaves the last state
 * or the one before. A --read-only run keeps none: there is nothing to
 * carry on. FALSE with @error when it could not be saved. */
gboolean
cm_verify_run_save_state_or_fail (CmVerifyRun  *run,
                                  GError      **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  run->last_save = g_get_monotonic_time ();
  if (run->self->flags & CM_VERIFY_FLAGS_READ_ONLY)
    return TRUE;

  data = cm_verify_state_to_data (run, &length);
  return cm_state_file_write (run->self->state_path, data, length, error);
}

/* Saved as the run goes: once the first save before any write has
 * worked (cm-verify-run.c), a later one that fails only costs the
 * progress since the last. */
void
cm_verify_run_save_state (CmVerifyRun *run)
{
  g_autoptr(GError) error = NULL;

  if (!cm_verify_run_save_state_or_fail (run, &error))
    g_warning ("Could not save the verify's progress to %s: %s", run->self->state_path, error->message);
}

/* The state file: reading, each value within what the card allows
 * (cm-state-file.c reads them). */

static void
get_points (CmStateReader *r,
            const char    *key,
            GArray        *points,
            guint64        span)
{
  gsize n = 0;
  g_autofree double *values = cm_state_reader_double_list (r, key, MAX_POINTS * 4, MAX ((double) span, 1e6), &n);

  if (n % 2 != 0)
    {
      r->ok = FALSE;
      return;
    }
  for (gsize i = 0; i < n; i += 2)
    if (values[i] > span || values[i + 1] > 1e6)
      {
        r->ok = FALSE;
        return;
      }
  if (n > 0)
    g_array_append_vals (points, values, n / 2);
}

/* Whether the files and the place the run stopped fit each other and the
 * card: numbers rising from 1, lengths within a file and the card,
 * offsets within what was written. */
static gboolean
places_fit (CmVerifyRun *run,
            guint64      max_number)
{
  CmVerify *self = run->self;
  guint64 total = 0;

  if (run->numbers->len != run->n_files || run->lengths->len != run->n_files || run->cur_file > run->n_files)
    return FALSE;
  for (guint i = 0; i < run->n_files; i++)
    {
      guint number = g_array_index (run->numbers, guint, i);
      guint64 length = g_array_index (run->lengths, guint64, i);

      if (number < 1 || number > max_number || (i > 0 && number <= g_array_index (run->numbers, guint, i - 1)) ||
          length > self->file_bytes || length % CM_VERIFY_SECTOR != 0)
        return FALSE;
      if (self->mode == CM_VERIFY_MODE_DEVICE &&
          (number != i + 1 || cm_verify_run_file_base (run, i) + length > self->card_bytes))
        return FALSE;
      total += length;
    }
  if (total > self->card_bytes || run->cur_offset % CM_VERIFY_SECTOR != 0)
    return FALSE;

  if (run->phase == CM_VERIFY_PHASE_DONE)
    return run->cur_file == run->n_files && run->cur_offset == 0;
  if (run->phase == CM_VERIFY_PHASE_WRITE)
    return run->cur_file == run->n_files
           ? run->cur_offset == 0
           : run->cur_file + 1 == run->n_files && run->cur_offset == g_array_index (run->lengths, guint64, run->cur_file);
  return run->cur_file == run->n_files
         ? run->cur_offset == 0
         : run->cur_offset <= g_array_index (run->lengths, guint64, run->cur_file);
}

static gboolean
counts_fit (CmVerifyRun *run,
            guint64      span)
{
  guint64 sectors = span / CM_VERIFY_SECTOR;
  guint64 total = 0;
  guint64 values[] = { run->counts.ok, run->counts.corrupted, run->counts.changed, run->counts.overwritten, run->unreadable };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      if (values[i] > sectors - total)
        return FALSE;
      total += values[i];
    }
  for (guint i = 0; i < run->regions->len; i++)
    {
      CmRegion *region = &g_array_index (run->regions, CmRegion, i);

      if (region->start >= region->end)
        return FALSE;
    }
  /* A finished run counted every sector of its files. */
  if (run->phase == CM_VERIFY_PHASE_DONE)
    {
      guint64 written = 0;

      for (guint i = 0; i < run->n_files; i++)
        written += g_array_index (run->lengths, guint64, i);
      if (total * CM_VERIFY_SECTOR < written)
        return FALSE;
    }
  /* Every sector read was counted once. */
  return run->read_bytes <= run->planned_bytes &&
         (total - run->unreadable) * CM_VERIFY_SECTOR <= run->read_bytes;
}

static gboolean
damaged (CmVerifyRun  *run,
         GError      **error)
{
  g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_DAMAGED,
               _("The saved progress in %s is damaged, so it cannot be trusted. Start the verify again "
                 "(delete the .h2w files first), or delete %s."),
               run->self->state_path, run->self->state_path);
  return FALSE;
}

/**
 * cm_verify_state_parse:
 *
 * Reads a state file's @data into @run, whose verify already knows its
 * card (identity, size, mode). Refuses, as damaged, a file whose
 * checksum does not match what it holds or whose numbers do not fit the
 * card; as another card's, one that names another card.
 */
gboolean
cm_verify_state_parse (CmVerifyRun  *run,
                       const char   *data,
                       gsize         length,
                       GError      **error)
{
  CmVerify *self = run->self;
  g_autoptr(GKeyFile) key_file = cm_state_file_unseal (data, length, STATE_MAX_BYTES);
  g_autofree char *card = NULL;
  g_autoptr(GArray) ends = g_array_new (FALSE, FALSE, sizeof (guint64));
  CmStateReader r = { key_file, "verify", TRUE };
  guint64 file_bytes, max_number, span;

  if (key_file == NULL || cm_state_reader_u64 (&r, "version", G_MAXUINT) != STATE_VERSION)
    return damaged (run, error);

  card = cm_state_reader_plain_string (&r, "card");
  if (g_strcmp0 (card, self->identity) != 0 || cm_state_reader_u64 (&r, "card-bytes", G_MAXUINT64) != self->card_bytes ||
      cm_state_reader_u64 (&r, "mode", CM_VERIFY_MODE_DEVICE) != (guint64) self->mode)
    {
      if (!r.ok)
        return damaged (run, error);
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD,
                   _("The saved verify in %s does not belong to the card in %s: start a new verify, or delete %s."),
                   self->state_path, self->path, self->state_path);
      return FALSE;
    }

  /* F3's files are 1 GiB; tests make them smaller, never larger. */
  file_bytes = cm_state_reader_u64 (&r, "file-bytes", CM_VERIFY_FILE_BYTES);
  if (!r.ok || file_bytes < CHUNK || file_bytes % CHUNK != 0)
    return damaged (run, error);
  self->file_bytes = file_bytes;
  max_number = self->card_bytes / file_bytes + 1;
  span = max_number * file_bytes;

  g_free (run->started);
  run->started = cm_state_reader_plain_string (&r, "started");
  r.ok = r.ok && run->started != NULL && strlen (run->started) < 64;
  run->phase = cm_state_reader_u64 (&r, "phase", CM_VERIFY_PHASE_DONE);
  run->n_files = cm_state_reader_u64 (&r, "files", max_number);
  run->cur_file = cm_state_reader_u64 (&r, "current-file", max_number);
  run->cur_offset = cm_state_reader_u64 (&r, "current-offset", file_bytes);
  run->full = cm_state_reader_bool (&r, "full");
  run->write_failed = cm_state_reader_bool (&r, "write-failed");
  run->planned_bytes = cm_state_reader_u64 (&r, "planned-bytes", self->card_bytes);
  run->written_bytes = cm_state_reader_u64 (&r, "written-bytes", self->card_bytes);
  run->write_seconds = cm_state_reader_double (&r, "write-seconds", MAX_SECONDS);
  run->read_bytes = cm_state_reader_u64 (&r, "read-bytes", self->card_bytes);
  run->read_seconds = cm_state_reader_double (&r, "read-seconds", MAX_SECONDS);
  run->counts.ok = cm_state_reader_u64 (&r, "ok", span / CM_VERIFY_SECTOR);
  run->counts.corrupted = cm_state_reader_u64 (&r, "corrupted", span / CM_VERIFY_SECTOR);
  run->counts.changed = cm_state_reader_u64 (&r, "changed", span / CM_VERIFY_SECTOR);
  run->counts.overwritten = cm_state_reader_u64 (&r, "overwritten", span / CM_VERIFY_SECTOR);
  run->unreadable = cm_state_reader_u64 (&r, "unreadable", span / CM_VERIFY_SECTOR);
  g_array_set_size (run->regions, 0);
  g_array_set_size (run->lengths, 0);
  g_array_set_size (run->numbers, 0);
  g_array_set_size (run->write_points, 0);
  g_array_set_size (run->read_points, 0);
  cm_state_reader_u64_list (&r, "regions", ends, MAX_REGIONS * 2, span);
  r.ok = r.ok && ends->len % 2 == 0;
  /* Start and end, a CmRegion of two numbers. */
  g_array_append_vals (run->regions, ends->data, ends->len / 2);
  cm_state_reader_u64_list (&r, "lengths", run->lengths, max_number, file_bytes);
  cm_state_reader_u64_list (&r, "numbers", run->numbers, max_number, max_number);
  get_points (&r, "write-points", run->write_points, span);
  get_points (&r, "read-points", run->read_points, span);

  if (!r.ok || !places_fit (run, max_number) || !counts_fit (run, span))
    return damaged (run, error);
  return TRUE;
}

gboolean
cm_verify_state_load (CmVerifyRun  *run,
                      GError      **error)
{
  g_autofree char *data = NULL;
  gsize length = 0;

  if (!cm_state_file_read (run->self->state_path, STATE_MAX_BYTES, &data, &length))
    return damaged (run, error);
  return cm_verify_state_parse (run, data, length, error);
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

  /* By name: the verify owns the signal, and this file only relays. */
  g_signal_emit_by_name (p->self, "progress", p->phase, p->fraction, p->mb_per_s, p->seconds_left);
  return G_SOURCE_REMOVE;
}

static void
progress_free (gpointer data)
{
  Progress *p = data;

  g_object_unref (p->self);
  g_free (p);
}

/* How much of the run is done, 0–1: writing the card is the first half,
 * reading it back the second. */
double
cm_verify_run_get_fraction (CmVerifyRun *run)
{
  double total = run->planned_bytes * 2.0;
  double done = MIN (run->written_bytes, run->planned_bytes) + run->read_bytes;

  return total > 0 ? CLAMP (done / total, 0, 1) : 0;
}

void
cm_verify_run_report_progress (CmVerifyRun *run,
                               gboolean     force)
{
  gint64 now = g_get_monotonic_time ();
  Progress *p;
  double write_rate, read_rate, left;

  if (!force && now - run->last_progress < PROGRESS_EVERY_US)
    return;
  run->last_progress = now;

  write_rate = run->write_seconds > 0 ? run->written_bytes / run->write_seconds : 0;
  read_rate = run->read_seconds > 0 ? run->read_bytes / run->read_seconds : write_rate;
  if (run->phase == CM_VERIFY_PHASE_WRITE)
    left = write_rate > 0 ? (run->planned_bytes - MIN (run->written_bytes, run->planned_bytes)) / write_rate +
                            run->planned_bytes / (read_rate > 0 ? read_rate : write_rate) : -1;
  else
    left = read_rate > 0 ? (run->planned_bytes - MIN (run->read_bytes, run->planned_bytes)) / read_rate : -1;

  p = g_new0 (Progress, 1);
  p->self = g_object_ref (run->self);
  p->phase = run->phase;
  p->fraction = cm_verify_run_get_fraction (run);
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

/* Whether the card under the run went away (cm_state_file_card_gone): an
 * I/O error then means "put it back and carry on", not "the card is
 * failing". */
gboolean
cm_verify_run_card_gone (CmVerifyRun *run)
{
  return cm_state_file_card_gone (run->self->mode == CM_VERIFY_MODE_DEVICE ? run->self->device : run->self->folder);
}

gboolean
cm_verify_run_stop_error (CmVerifyRun *run,
                          int          errsv,
                          GError     **error)
{
  cm_verify_run_save_state (run);
  if (cm_verify_is_removed (errsv))
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_REMOVED,
                 _("The card was removed. Put it back and carry on: what was done is kept."));
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

/* O_NONBLOCK: a FIFO planted under a .h2w name would block the open
 * for ever; it is refused once opened (or ENXIO, for writing). */
static int
open_at (CmVerifyRun *run,
         const char  *name,
         int          flags)
{
  int fd;

  flags |= O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
  if (run->direct)
    {
      fd = openat (run->self->dir_fd, name, flags | O_DIRECT, 0644);
      /* tmpfs and some FUSE filesystems refuse O_DIRECT. */
      if (fd >= 0 || errno != EINVAL)
        return fd;
      run->direct = FALSE;
    }
  return openat (run->self->dir_fd, name, flags, 0644);
}

typedef enum
{
  NOT_A_FILE_LINK,
  NOT_A_FILE_FOLDER,
  NOT_A_FILE_OTHER,       /* a FIFO, a socket, a device node, or on another filesystem */
  NOT_A_FILE_NOT_OURS,    /* a file the run did not make, where it was to make one */
} NotAFile;

static void
set_not_a_file (CmVerifyRun  *run,
                const char   *name,
                NotAFile      what,
                GError      **error)
{
  const char *folder = run->self->folder;

  switch (what)
    {
    case NOT_A_FILE_LINK:
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_A_FILE,
                   _("%s in %s is a link, not a file CardMark wrote: CardMark neither writes through it nor judges "
                     "the card by it, and left it as it is. Remove it, then carry on."),
                   name, folder);
      break;
    case NOT_A_FILE_FOLDER:
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_A_FILE,
                   _("%s in %s is a folder, not a file CardMark wrote: CardMark neither writes in it nor judges "
                     "the card by it, and left it as it is. Remove it, then carry on."),
                   name, folder);
      break;
    case NOT_A_FILE_OTHER:
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_A_FILE,
                   _("%s in %s is not a file on the card that CardMark wrote (a pipe, a device or a file of another "
                     "filesystem): CardMark neither writes to it nor judges the card by it, and left it as it is. "
                     "Remove it, then carry on."),
                   name, folder);
      break;
    case NOT_A_FILE_NOT_OURS:
    default:
      g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_A_FILE,
                   _("%s appeared in %s, and this verify did not make it: CardMark stopped rather than write to it, "
                     "and left it as it is. Remove it, then carry on."),
                   name, folder);
      break;
    }
}

/* What is at @name, when it is not a regular file on the card's
 * filesystem; -1 when it is one (or nothing is there). */
static int
not_a_file (CmVerifyRun *run,
            const char  *name)
{
  struct stat st;

  if (fstatat (run->self->dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
    return -1;
  if (S_ISLNK (st.st_mode))
    return NOT_A_FILE_LINK;
  if (S_ISDIR (st.st_mode))
    return NOT_A_FILE_FOLDER;
  if (!S_ISREG (st.st_mode) || st.st_dev != run->self->folder_dev)
    return NOT_A_FILE_OTHER;
  return -1;
}

/**
 * cm_verify_run_check_ahead:
 *
 * Before a resumed run writes again: every N.h2w in the card's folder
 * that the stopped run did not make (a link, a folder, a pipe or a file
 * another user put there since) is named now, with the card untouched,
 * rather than met after the run has written on.
 */
gboolean
cm_verify_run_check_ahead (CmVerifyRun  *run,
                           GError      **error)
{
  g_autoptr(GArray) found = NULL;
  guint made = MIN (run->cur_file, run->numbers->len);
  /* The file carried on in: named in the state before it was made, or
   * (killed between the two) the next number a writing run takes. */
  guint current = run->cur_file < run->numbers->len ? g_array_index (run->numbers, guint, run->cur_file)
                                                    : run->cur_file + 1;

  if (run->self->mode != CM_VERIFY_MODE_FILES || run->phase != CM_VERIFY_PHASE_WRITE)
    return TRUE;

  found = cm_verify_list_h2w (run->self->folder);
  for (guint i = 0; i < found->len; i++)
    {
      guint number = g_array_index (found, guint, i);
      g_autofree char *name = NULL;
      gboolean ours = number == current;
      int what;

      for (guint j = 0; j < made && !ours; j++)
        ours = g_array_index (run->numbers, guint, j) == number;
      if (ours)
        continue;
      name = g_strdup_printf ("%u.h2w", number);
      what = not_a_file (run, name);
      set_not_a_file (run, name, what >= 0 ? what : NOT_A_FILE_NOT_OURS, error);
      return FALSE;
    }
  return TRUE;
}

/**
 * cm_verify_run_open_file:
 *
 * Opens N.h2w (@number) in the card's folder, relative to the folder's
 * descriptor and never through a link; with O_CREAT, only a new file
 * (O_EXCL) unless it is the one a resumed run carries on in. What is
 * opened must be a regular file on the card's filesystem. -1 with
 * @error when it is not; -1 with errno (and no @error) when the open
 * itself failed.
 */
int
cm_verify_run_open_file (CmVerifyRun  *run,
                         guint         number,
                         int           flags,
                         GError      **error)
{
  g_autofree char *name = g_strdup_printf ("%u.h2w", number);
  struct stat st = { 0 };
  int fd;

  if ((flags & O_CREAT) &&
      !(run->resumed_file >= 0 && (guint) run->resumed_file < run->numbers->len &&
        g_array_index (run->numbers, guint, run->resumed_file) == number))
    flags |= O_EXCL;

  fd = open_at (run, name, flags);
  if (fd < 0)
    {
      /* Whatever the open said (ELOOP for a link, EISDIR for a folder,
       * ENXIO for a FIFO, EEXIST for any of them or a file the run did
       * not make): what is there is named, never taken for the card's
       * own error (a pulled card, a write-protected one). */
      int errsv = errno;
      int what = errsv == ENOENT ? -1 : not_a_file (run, name);

      if (what < 0 && errsv == EEXIST)
        what = NOT_A_FILE_NOT_OURS;
      if (what >= 0)
        set_not_a_file (run, name, what, error);
      errno = errsv;
      return -1;
    }
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode) || st.st_dev != run->self->folder_dev)
    {
      close (fd);
      set_not_a_file (run, name, S_ISDIR (st.st_mode) ? NOT_A_FILE_FOLDER : NOT_A_FILE_OTHER, error);
      errno = EPERM;
      return -1;
    }
  /* A run that writes made every file it opens: owned by whoever runs
   * it, with no second name. A file another user put there (or a hard
   * link to one) is not carried on in, nor the card judged by it. */
  if (!(run->self->flags & CM_VERIFY_FLAGS_READ_ONLY) &&
      (st.st_uid != geteuid () || st.st_nlink != 1))
    {
      close (fd);
      set_not_a_file (run, name, NOT_A_FILE_NOT_OURS, error);
      errno = EPERM;
      return -1;
    }
  fcntl (fd, F_SETFL, fcntl (fd, F_GETFL) & ~O_NONBLOCK);
  return fd;
}
