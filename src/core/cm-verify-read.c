/* cm-verify-read.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's second half: reads back what cm-verify-run.c wrote,
 * one chunk ahead in a thread of its own, sorts each sector (ok,
 * corrupted, changed, overwritten, unreadable), and gives up on a card
 * that stopped answering, counting what it could not read as lost. And,
 * before a stopped run carries on, proves the card is the one it wrote
 * to (cm_verify_read_prove).
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "cm-engine.h"

#include "cm-verify-private.h"

#define CHUNK CM_VERIFY_CHUNK
#define FAILED_READS_TO_STOP 8
#define PROOF_SAMPLES 16       /* places read back before a resume is believed */
#define PROOF_BYTES 4096       /* one aligned block each, for O_DIRECT */

/* A card that stopped answering: everything not read yet is lost. */
static void
give_up (CmVerifyRun *run,
         guint        index,
         guint64      pos)
{
  for (guint i = index; i < run->n_files; i++)
    {
      guint64 length = g_array_index (run->lengths, guint64, i);
      guint64 from = i == index ? pos : 0;

      if (length > from)
        {
          cm_verify_run_add_region (run, cm_verify_run_file_base (run, i) + from, cm_verify_run_file_base (run, i) + length);
          run->unreadable += (length - from) / CM_VERIFY_SECTOR;
        }
    }
  run->gave_up = TRUE;
}

static void
check_chunk (CmVerifyRun  *run,
             const guint8 *buffer,
             gsize         length,
             guint64       offset)
{
  if (cm_verify_check (buffer, length, offset, &run->counts))
    return;

  /* Rare: name the sectors that came back wrong. */
  for (gsize s = 0; s < length; s += CM_VERIFY_SECTOR)
    if (!cm_verify_sector_is_ok (buffer + s, offset + s))
      cm_verify_run_add_region (run, offset + s, offset + s + CM_VERIFY_SECTOR);
}

/* Reading runs one chunk ahead in a thread of its own, so the card is
 * never idle while a chunk is checked: on a fast card, checking 4 MiB
 * takes a few percent of reading it. */
typedef struct
{
  guint8  *buffer;
  guint64  pos;       /* in the file (or stretch) */
  gsize    n;
  gssize   done;
  int      errsv;
  gint64   start;
} Chunk;

typedef struct
{
  int          fd;
  guint64      base;    /* added to pos for pread: the stretch's place on a device */
  guint64      from;
  guint64      length;
  GAsyncQueue *free_chunks;
  GAsyncQueue *read_chunks;
  CmBusShare  *bus;
  GCancellable *cancellable;
  int          stop;
} Reader;

static gpointer
reader_thread (gpointer data)
{
  Reader *r = data;

  for (guint64 pos = r->from; pos < r->length && !g_atomic_int_get (&r->stop); )
    {
      Chunk *c = g_async_queue_pop (r->free_chunks);

      if (g_atomic_int_get (&r->stop))
        {
          g_async_queue_push (r->free_chunks, c);
          break;
        }
      c->pos = pos;
      c->n = MIN (CHUNK, r->length - pos);
      cm_bus_share_yield (r->bus, r->cancellable);
      c->start = g_get_monotonic_time ();
      do
        c->done = pread (r->fd, c->buffer, c->n, r->base + pos);
      while (c->done < 0 && errno == EINTR);
      c->errsv = c->done < 0 ? errno : 0;
      pos += c->n;
      g_async_queue_push (r->read_chunks, c);
      if (c->done == 0)
        break;
    }
  return NULL;
}

/* Handles one chunk the reader read; FALSE when reading this stretch
 * must end here (@error set when the whole run must). */
static gboolean
take_chunk (CmVerifyRun *run,
            guint        index,
            Chunk       *c,
            guint       *failures,
            GError     **error)
{
  guint64 base = cm_verify_run_file_base (run, index);
  gssize done = c->done;

  if (done < 0 && (cm_verify_is_removed (c->errsv) || cm_verify_run_card_gone (run)))
    return cm_verify_run_stop_error (run, ENODEV, error);
  if (done < 0)
    {
      cm_verify_run_add_region (run, base + c->pos, base + c->pos + c->n);
      run->unreadable += c->n / CM_VERIFY_SECTOR;
      run->cur_offset = c->pos + c->n;
      if (++*failures < FAILED_READS_TO_STOP)
        return TRUE;
      give_up (run, index, c->pos + c->n);
      return FALSE;
    }

  *failures = 0;
  done = done / CM_VERIFY_SECTOR * CM_VERIFY_SECTOR;
  if (done > 0)
    {
      /* Chunks overlap in time (one is read while the last is checked):
       * each counts from where the previous one's time ended, so the
       * seconds add up to the time the reading took. */
      gint64 from = MAX (c->start, run->read_mark);
      double seconds;

      check_chunk (run, c->buffer, done, base + c->pos);
      run->read_mark = g_get_monotonic_time ();
      seconds = (run->read_mark - from) / (double) G_USEC_PER_SEC;
      cm_verify_run_account (run, run->read_points, base + c->pos, done, seconds);
      run->read_seconds += seconds;
      run->read_bytes += done;
      run->cur_offset = c->pos + done;
    }
  if ((gsize) done < c->n)
    {
      /* The file is shorter than written: the rest is lost. */
      give_up (run, index, c->pos + done);
      run->gave_up = FALSE;
      return FALSE;
    }
  cm_verify_run_report_progress (run, FALSE);
  if (g_get_monotonic_time () - run->last_save > CM_VERIFY_SAVE_EVERY_US)
    cm_verify_run_save_state (run);
  return TRUE;
}

static gboolean
read_one (CmVerifyRun *run,
          guint        index,
          GError     **error)
{
  CmVerify *self = run->self;
  gboolean device = self->mode == CM_VERIFY_MODE_DEVICE;
  GError *open_error = NULL;
  Chunk chunks[2] = { { run->buffer }, { run->buffer2 } };
  Reader reader = { 0 };
  GThread *thread;
  guint failures = 0;
  gboolean ok = TRUE, more = TRUE;
  int fd;

  if (device)
    fd = cm_target_get_fd (self->target);
  else
    {
      if ((fd = cm_verify_run_open_file (run, g_array_index (run->numbers, guint, index), O_RDONLY, &open_error)) < 0)
        {
          int errsv = errno;

          /* Replaced by a link: the card is not judged by where it points. */
          if (open_error != NULL)
            {
              cm_verify_run_save_state (run);
              g_propagate_error (error, open_error);
              return FALSE;
            }
          if (cm_verify_is_removed (errsv))
            return cm_verify_run_stop_error (run, errsv, error);
          /* A file that is gone lost all of its data. */
          give_up (run, index, run->cur_offset);
          run->gave_up = FALSE;
          return TRUE;
        }
      if (!run->direct)
        posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
    }

  reader.fd = fd;
  reader.base = device ? cm_verify_run_file_base (run, index) : 0;
  reader.from = run->cur_offset;
  reader.length = g_array_index (run->lengths, guint64, index);
  reader.bus = run->bus;
  reader.cancellable = run->cancellable;
  reader.free_chunks = g_async_queue_new ();
  reader.read_chunks = g_async_queue_new ();
  for (guint i = 0; i < G_N_ELEMENTS (chunks); i++)
    g_async_queue_push (reader.free_chunks, &chunks[i]);
  thread = g_thread_new ("cardmark-verify-read", reader_thread, &reader);

  while (more && run->cur_offset < reader.length)
    {
      Chunk *c;

      if (cm_verify_run_cancelled (run, error))
        {
          ok = FALSE;
          break;
        }
      c = g_async_queue_pop (reader.read_chunks);
      more = take_chunk (run, index, c, &failures, error);
      ok = more || (error == NULL || *error == NULL);
      g_async_queue_push (reader.free_chunks, c);
    }

  g_atomic_int_set (&reader.stop, TRUE);
  g_async_queue_push (reader.free_chunks, &chunks[0]);  /* wakes a reader waiting for a buffer */
  g_thread_join (thread);
  g_async_queue_unref (reader.free_chunks);
  g_async_queue_unref (reader.read_chunks);
  if (!device)
    close (fd);
  return ok;
}

gboolean
cm_verify_read_phase (CmVerifyRun *run,
                      GError     **error)
{
  while (run->cur_file < run->n_files && !run->gave_up)
    {
      if (!read_one (run, run->cur_file, error))
        return FALSE;
      run->cur_file++;
      run->cur_offset = 0;
      cm_verify_run_save_state (run);
    }
  cm_verify_run_flush_point (run, run->read_points);
  run->phase = CM_VERIFY_PHASE_READ + 1;
  return TRUE;
}

/* Proving a saved state. */

/* Whether the block at @pos of stretch @index holds what a run wrote:
 * its own sector, or (a card that wraps) another place's from within
 * what was written. */
static gboolean
block_is_ours (CmVerifyRun *run,
               int          fd,
               guint        index,
               guint64      pos,
               guint64      extent)
{
  gboolean device = run->self->mode == CM_VERIFY_MODE_DEVICE;
  guint64 base = cm_verify_run_file_base (run, index);
  guint64 found = 0;
  gssize done;

  do
    done = pread (fd, run->buffer, PROOF_BYTES, device ? base + pos : pos);
  while (done < 0 && errno == EINTR);
  if (done < CM_VERIFY_SECTOR)
    return FALSE;
  return cm_verify_sector_found (run->buffer, &found) && (found == base + pos || found < extent);
}

/* The file of stretch @index opened for the proof, -1 when it is not
 * there; @error when it is a link or not a file on the card. */
static int
open_for_proof (CmVerifyRun  *run,
                guint         index,
                GError      **error)
{
  if (run->self->mode == CM_VERIFY_MODE_DEVICE)
    return cm_target_get_fd (run->self->target);
  return cm_verify_run_open_file (run, g_array_index (run->numbers, guint, index), O_RDONLY, error);
}

/**
 * cm_verify_read_prove:
 *
 * Before a saved state is believed, reads back a few blocks the stopped
 * run wrote, spread over its files or stretches, and wants most of them
 * to hold the pattern. F3's pattern has no per-run key (that would break
 * f3read reading CardMark's files), so this proves "a card that holds
 * what a verify wrote here", and the state's checksum and the card's
 * identity (size and serial, or filesystem id) do the rest.
 */
gboolean
cm_verify_read_prove (CmVerifyRun  *run,
                      GError      **error)
{
  CmVerify *self = run->self;
  guint64 extent = 0;
  guint samples = 0, ours = 0;

  if (run->buffer == NULL)
    run->buffer = cm_engine_alloc (CHUNK);
  for (guint i = 0; i < run->n_files; i++)
    extent = MAX (extent, cm_verify_run_file_base (run, i) + g_array_index (run->lengths, guint64, i));

  for (guint i = 0; i < run->n_files; i++)
    {
      guint64 length = g_array_index (run->lengths, guint64, i) / PROOF_BYTES * PROOF_BYTES;
      guint64 places[2] = { 0, length - PROOF_BYTES };
      GError *open_error = NULL;
      int fd;

      /* At most PROOF_SAMPLES places, spread evenly over the files. */
      if (length < PROOF_BYTES || (run->n_files > PROOF_SAMPLES / 2 && i % (run->n_files / (PROOF_SAMPLES / 2) + 1) != 0))
        continue;
      fd = open_for_proof (run, i, &open_error);
      if (open_error != NULL)
        {
          g_propagate_error (error, open_error);
          return FALSE;
        }
      for (guint p = 0; p < G_N_ELEMENTS (places) && (p == 0 || places[1] > 0); p++)
        {
          samples++;
          ours += fd >= 0 && block_is_ours (run, fd, i, places[p], extent);
        }
      if (fd >= 0 && self->mode == CM_VERIFY_MODE_FILES)
        close (fd);
    }

  /* Nothing written yet: nothing the card has to show. */
  if (samples == 0 || ours * 2 > samples)
    return TRUE;

  g_set_error (error, CM_VERIFY_ERROR, CM_VERIFY_ERROR_NOT_THIS_CARD,
               _("The saved verify does not belong to the card in %s: it does not hold what that verify wrote "
                 "(%u of %u places checked). Start again without --resume (delete the .h2w files first), or delete %s."),
               self->folder != NULL ? self->folder : self->path, ours, samples, self->state_path);
  return FALSE;
}
