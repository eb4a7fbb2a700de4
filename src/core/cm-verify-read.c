/* cm-verify-read.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's second half: reads back what cm-verify-run.c wrote,
 * one chunk ahead in a thread of its own, sorts each sector (ok,
 * corrupted, changed, overwritten, unreadable), and gives up on a card
 * that stopped answering, counting what it could not read as lost.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "cm-verify-private.h"

#define CHUNK CM_VERIFY_CHUNK
#define FAILED_READS_TO_STOP 8

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
  g_autofree char *path = NULL;
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
      path = g_strdup_printf ("%s/%u.h2w", self->folder, g_array_index (run->numbers, guint, index));
      if ((fd = cm_verify_run_open_file (run, path, O_RDONLY)) < 0)
        {
          int errsv = errno;

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
cm_verify_run_read_phase (CmVerifyRun *run,
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
