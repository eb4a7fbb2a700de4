/* cm-verify-read.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The full verify's second half: reads back what cm-verify-run.c wrote,
 * one chunk ahead (cm-verify-io.c), sorts each sector (ok,
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

#include "cm-block-io.h"
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

/* Names the sectors of a chunk that came back wrong (rare). */
static void
name_bad_sectors (CmVerifyRun  *run,
                  const guint8 *data,
                  gsize         length,
                  guint64       offset)
{
  for (gsize s = 0; s < length; s += CM_VERIFY_SECTOR)
    if (!cm_verify_sector_is_ok (data + s, offset + s))
      cm_verify_run_add_region (run, offset + s, offset + s + CM_VERIFY_SECTOR);
}

static void
add_counts (CmVerifyCounts       *to,
            const CmVerifyCounts *counts)
{
  to->ok += counts->ok;
  to->corrupted += counts->corrupted;
  to->changed += counts->changed;
  to->overwritten += counts->overwritten;
}

/* Handles one chunk read back (and checked) at @pos of stretch @index;
 * FALSE when reading this stretch must end here (@error set when the
 * whole run must). */
static gboolean
take_chunk (CmVerifyRun        *run,
            guint               index,
            guint64             pos,
            gsize               n,
            const CmVerifyRead *c,
            gint64              start,
            guint              *failures,
            GError            **error)
{
  guint64 base = cm_verify_run_file_base (run, index);
  gssize done = c->done;

  if (done < 0 && (cm_verify_is_removed (c->errsv) || cm_verify_run_card_gone (run)))
    return cm_verify_run_stop_error (run, ENODEV, error);
  if (done < 0)
    {
      cm_verify_run_add_region (run, base + pos, base + pos + n);
      run->unreadable += n / CM_VERIFY_SECTOR;
      run->cur_offset = pos + n;
      if (++*failures < FAILED_READS_TO_STOP)
        return TRUE;
      give_up (run, index, pos + n);
      return FALSE;
    }

  *failures = 0;
  done = done / CM_VERIFY_SECTOR * CM_VERIFY_SECTOR;
  if (done > 0)
    {
      /* Chunks overlap in time (one is read while the last is checked):
       * each counts from where the previous one's time ended, so the
       * seconds add up to the time the reading took. */
      gint64 from = MAX (start, run->read_mark);
      double seconds;

      add_counts (&run->counts, &c->counts);
      if (!c->intact)
        name_bad_sectors (run, c->data, done, base + pos);
      run->read_mark = g_get_monotonic_time ();
      seconds = (run->read_mark - from) / (double) G_USEC_PER_SEC;
      /* The chart's point is the card's own speed at this place: the
       * time this chunk's read took, not the time between two chunks
       * (which holds the next one's read, ahead, and none for the last). */
      cm_verify_run_account (run, run->read_points, base + pos, done, c->seconds);
      run->read_seconds += seconds;
      run->read_bytes += done;
      run->cur_offset = pos + done;
    }
  if ((gsize) done < n)
    {
      /* The file is shorter than written: the rest is lost. */
      give_up (run, index, pos + done);
      run->gave_up = FALSE;
      return FALSE;
    }
  cm_verify_run_report_progress (run, FALSE);
  if (g_get_monotonic_time () - run->last_save > CM_VERIFY_SAVE_EVERY_US)
    cm_verify_run_save_state (run);
  return TRUE;
}

/* The chunk at @pos of a stretch @length long, from @base on the card
 * (where a device is read at @base + @pos, a file at @pos). */
static CmVerifyPlace
place_at (gboolean device,
          guint64  base,
          guint64  pos,
          guint64  length)
{
  CmVerifyPlace place = { device ? base + pos : pos, MIN (CHUNK, length - MIN (pos, length)), base + pos };

  return place;
}

static gboolean
read_one (CmVerifyRun *run,
          guint        index,
          GError     **error)
{
  CmVerify *self = run->self;
  gboolean device = self->mode == CM_VERIFY_MODE_DEVICE;
  guint64 base = cm_verify_run_file_base (run, index);
  guint64 length = g_array_index (run->lengths, guint64, index);
  g_autoptr(CmVerifyIo) io = NULL;
  GError *open_error = NULL;
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

  /* The next chunk is read while this one is checked, so the card is
   * never idle while the pattern is checked. */
  io = cm_verify_io_new (fd);
  while (more && run->cur_offset < length)
    {
      guint64 pos = run->cur_offset;
      CmVerifyPlace here = place_at (device, base, pos, length);
      CmVerifyPlace next = place_at (device, base, pos + here.length, length);
      CmVerifyRead chunk;
      gint64 start;

      if (cm_verify_run_cancelled (run, error))
        {
          ok = FALSE;
          break;
        }
      /* Every read command follows a pause for a card on the bus that
       * measures (this call reads the next chunk ahead); the pause is
       * left out of the rate, as start comes after it. */
      cm_bus_share_yield (run->bus, run->cancellable);
      start = g_get_monotonic_time ();
      cm_verify_io_read (io, &here, &next, &chunk);
      more = take_chunk (run, index, pos, here.length, &chunk, start, &failures, error);
      ok = more || (error == NULL || *error == NULL);
    }

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
  run->phase = CM_VERIFY_PHASE_DONE;
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

  int errsv;

  /* Near the end of a file less than PROOF_BYTES is there: a sector is
   * enough. */
  done = cm_block_io_transfer (fd, FALSE, run->buffer, PROOF_BYTES, device ? base + pos : pos, &errsv);
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

  /* A run stopped once it had its verdict has nothing left to write or
   * read, and may have removed its files already: its sealed counts are
   * the card's, read back by that run. */
  if (run->phase == CM_VERIFY_PHASE_DONE)
    return TRUE;
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
                 "(%u of %u places checked). Start a new verify (delete the .h2w files first), or delete %s."),
               self->folder != NULL ? self->folder : self->path, ours, samples, self->state_path);
  return FALSE;
}
