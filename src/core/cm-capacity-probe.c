/* cm-capacity-probe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Finds cards that claim more capacity than they have. Such a card maps
 * every offset past its real size back onto real storage (or drops the
 * write), so a block written far out overwrites one near the start.
 *
 * The card is cut into a few hundred cells of a power-of-two size; the
 * first 4 KiB block of every cell is the place checked. The check
 *
 *  1. reads those blocks and saves them to a journal on the computer's
 *     disk (cm-capacity-journal.c), fsynced, before writing anything,
 *     with the card's fingerprint: the SHA-256s of a few places nothing
 *     below writes (fingerprint_places);
 *  2. writes a signature naming its own offset into each, from the top
 *     down, so where two places share storage the lower one wins and the
 *     higher one shows the damage;
 *  3. pushes the signatures out of any cache the card's controller has:
 *     it rewrites the first CACHE bytes of the card with their own bytes
 *     (each chunk read, kept in the journal, written back), skipping the
 *     checked blocks. A controller that answers reads of the last N bytes
 *     written from its cache, N ≤ CACHE, then holds none of the
 *     signatures. Since the cells are a power of two in size, so is any
 *     wrap-around a fake card does at a multiple of the cell size: the
 *     filler then never lands on a checked block, even through the wrap;
 *  4. reads every checked block back: its own signature (verified),
 *     something else (no storage), or an error;
 *  5. writes every original block back, cancelled or not, and removes the
 *     journal.
 *
 * The real capacity is where the verified cells end.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "cm-duration.h"
#include "cm-block-io.h"
#include "cm-capacity-private.h"
#include "cm-engine.h"
#include "cm-target.h"

#define BLOCK CM_CAPACITY_BLOCK
#define MAX_CELLS 400
#define MIN_CELL (64 * 1024)
#define CHUNK (4 * 1024 * 1024)
/* A block read or written at a random place costs about what 64 KiB of
 * streaming does on a card: the unit progress and estimates count in. */
#define OP_COST (64 * 1024)
/* What keeping a chunk in the journal costs the computer: a SHA-256, a
 * write and an fdatasync, about 100 MB/s on an SSD. */
#define JOURNAL_MB_S 100.0

/* The smallest power of two that cuts @size into at most MAX_CELLS. */
static guint64
cell_size_for (guint64 size)
{
  guint64 cell = MIN_CELL;

  while ((size + cell - 1) / cell > MAX_CELLS)
    cell *= 2;
  return cell;
}

/* The filler's end: @cache bytes of it, not counting the checked blocks
 * it steps over, but never past the card. */
static guint64
filler_end (guint64 size,
            guint64 cell,
            guint64 cache)
{
  guint64 end = cache + (cache / cell + 1) * BLOCK;

  return MIN (end, size);
}

/* Seconds the check takes on a card that writes and reads at these rates
 * (MB/s, 10^6 bytes): the filler read, kept in the journal (checksummed
 * and fsynced, counted at JOURNAL_MB_S) and rewritten, and four random
 * block operations per cell. */
double
cm_capacity_estimate_seconds (guint64 size,
                              guint64 cache_bytes,
                              double  write_mb_s,
                              double  read_mb_s)
{
  guint64 cell = cell_size_for (size);
  guint64 n_cells = (size + cell - 1) / cell;
  double filler = filler_end (size, cell, cache_bytes);

  return filler / (read_mb_s * 1e6) + filler / (write_mb_s * 1e6) + filler / (JOURNAL_MB_S * 1e6) +
         2.0 * n_cells * OP_COST / (read_mb_s * 1e6) + 2.0 * n_cells * OP_COST / (write_mb_s * 1e6);
}

/* What the check will do and how long it takes, said before it starts. */
char *
cm_capacity_describe_plan (guint64 size,
                           guint64 cache_bytes)
{
  guint64 cell = cell_size_for (size);
  guint64 end = filler_end (size, cell, cache_bytes);
  /* A card smaller than the cache asked for: its whole size is what is ruled out. */
  g_autofree char *cache = g_format_size (MIN (cache_bytes, end));
  g_autofree char *filler = g_format_size (end);
  g_autofree char *duration = cm_duration_format (cm_capacity_estimate_seconds (size, cache_bytes, 20, 20));

  return g_strdup_printf (_("Rules out controller caches up to %s by reading and rewriting the first %s of the card: "
                            "about %s on a card that reads and writes 20 MB/s."),
                          cache, filler, duration);
}

char *
cm_capacity_progress_describe (const CmCapacityProgress *progress)
{
  const char *phase = NULL;
  g_autofree char *left = NULL;

  switch (progress->phase)
    {
    case CM_CAPACITY_PHASE_SAVING:
      phase = _("Saving what will be overwritten");
      break;
    case CM_CAPACITY_PHASE_SIGNING:
      phase = _("Writing signatures");
      break;
    case CM_CAPACITY_PHASE_FLUSHING:
      phase = _("Pushing the signatures out of the card's cache");
      break;
    case CM_CAPACITY_PHASE_READING:
      phase = _("Reading the signatures back");
      break;
    case CM_CAPACITY_PHASE_RESTORING:
      phase = _("Putting the card's data back");
      break;
    default:
      g_assert_not_reached ();
    }

  if (progress->seconds_left < 0)
    return g_strdup_printf (_("%s, %d %% done…"), phase, (int) (progress->fraction * 100));
  left = cm_duration_format (progress->seconds_left);
  /* Translators: "Writing signatures, 40 % done, 25 seconds left" */
  return g_strdup_printf (_("%s, %d %% done, %s left"), phase, (int) (progress->fraction * 100), left);
}

/* The run. */

typedef struct
{
  int                     fd;
  guint64                 size;
  guint64                 cell;
  guint                   n;            /* cells */
  guint64                 filler_end;
  guint64                 filler_written;
  GArray                 *offsets;      /* guint64, top down */
  guint8                 *originals;
  GArray                 *fp_offsets;   /* guint64 */
  guint8                 *fingerprint;  /* a SHA-256 each */
  guint8                 *cells;        /* CmCapacityCell, by index in offsets */
  guint8                  nonce[16];
  CmCapacityJournal      *journal;
  GCancellable           *cancellable;
  CmCapacityProgressFunc  progress;
  gpointer                user_data;
  gint64                  started;
  double                  work_total;
  double                  work_done;
  gint64                  last_report;
} Run;

static void
report_progress (Run             *run,
                 CmCapacityPhase  phase,
                 double           work,
                 gboolean         force)
{
  gint64 now = g_get_monotonic_time ();
  CmCapacityProgress progress = { phase, 0, -1 };
  double elapsed = (now - run->started) / 1e6;

  run->work_done += work;
  if (run->progress == NULL || (!force && now - run->last_report < 100000))
    return;
  run->last_report = now;
  progress.fraction = MIN (run->work_done / run->work_total, 1.0);
  if (progress.fraction > 0.02 && elapsed > 1)
    progress.seconds_left = elapsed * (1 - progress.fraction) / progress.fraction;
  run->progress (&progress, run->user_data);
}

/* The one loop (cm-block-io.c): all of @length, or why not in @errsv. */
static gboolean
transfer (int      fd,
          gboolean write,
          guint8  *buffer,
          gsize    length,
          guint64  offset,
          int     *errsv)
{
  return cm_block_io_transfer (fd, write, buffer, length, offset, errsv) == (gssize) length && *errsv == 0;
}

static GError *
card_error (int errsv)
{
  if (errsv == ENOSPC)
    return g_error_new (CM_TARGET_ERROR, CM_TARGET_ERROR_NO_SPACE,
                        _("The card stopped taking data before its end (it accepted only part of a write). "
                          "It may be smaller than it says, or failing; check its capacity again after reinserting it."));
  return cm_target_error_from_errno (errsv, NULL);
}

static int
compare_desc (gconstpointer a,
              gconstpointer b)
{
  guint64 x = *(const guint64 *) a;
  guint64 y = *(const guint64 *) b;

  return (x < y) - (x > y);
}

static void
choose_cells (Run *run)
{
  run->cell = cell_size_for (run->size);
  run->n = (run->size + run->cell - 1) / run->cell;
  run->offsets = g_array_sized_new (FALSE, FALSE, sizeof (guint64), run->n);
  for (guint i = 0; i < run->n; i++)
    {
      guint64 offset = MIN ((guint64) i * run->cell, (run->size - BLOCK) / BLOCK * BLOCK);

      g_array_append_val (run->offsets, offset);
    }
  g_array_sort (run->offsets, compare_desc);
  run->cells = g_new0 (guint8, run->n);
}

static gboolean
is_checked (Run     *run,
            guint64  offset)
{
  for (guint i = 0; i < run->n; i++)
    if (g_array_index (run->offsets, guint64, i) == offset)
      return TRUE;
  return FALSE;
}

/* The fingerprint's places: the middle of the first cells past the
 * filler, which neither signing (cell starts) nor the filler writes. A
 * wrap-around at a power of two keeps them off the cell starts. On a card
 * the filler covers whole, the middles of its first cells: the filler
 * writes them, but with their own bytes. */
static void
fingerprint_places (Run *run)
{
  guint64 first = (run->filler_end + run->cell - 1) / run->cell;

  run->fp_offsets = g_array_new (FALSE, FALSE, sizeof (guint64));
  for (guint pass = 0; pass < 2; pass++)
    for (guint64 c = pass == 0 ? first : 0; c < run->n && run->fp_offsets->len < CM_CAPACITY_N_FINGERPRINT; c++)
      {
        guint64 offset = c * run->cell + run->cell / 2;

        if (offset + BLOCK > run->size || is_checked (run, offset) ||
            (pass == 1 && c >= first))
          continue;
        g_array_append_val (run->fp_offsets, offset);
      }
}

static gboolean
read_fingerprint (Run     *run,
                  GError **error)
{
  g_autofree guint8 *block = cm_engine_alloc (BLOCK);
  int errsv = 0;

  fingerprint_places (run);
  run->fingerprint = g_malloc0 ((gsize) run->fp_offsets->len * 32);
  for (guint i = 0; i < run->fp_offsets->len; i++)
    {
      g_autoptr(GChecksum) sum = g_checksum_new (G_CHECKSUM_SHA256);
      gsize digest_len = 32;

      if (!transfer (run->fd, FALSE, block, BLOCK, g_array_index (run->fp_offsets, guint64, i), &errsv))
        {
          g_propagate_error (error, card_error (errsv));
          return FALSE;
        }
      g_checksum_update (sum, block, BLOCK);
      g_checksum_get_digest (sum, run->fingerprint + i * 32, &digest_len);
    }
  return TRUE;
}

/* 1. Keep what is there, in memory and in the journal. */
static gboolean
save_originals (Run         *run,
                const char  *device,
                GFile       *folder,
                GError     **error)
{
  g_autofree char *identity = cm_capacity_card_identity (device, run->size);
  int errsv = 0;

  if (!read_fingerprint (run, error))
    return FALSE;

  run->originals = cm_engine_alloc ((gsize) run->n * BLOCK);
  for (guint i = 0; i < run->n; i++)
    {
      if (g_cancellable_set_error_if_cancelled (run->cancellable, error))
        return FALSE;
      if (!transfer (run->fd, FALSE, run->originals + (gsize) i * BLOCK, BLOCK,
                     g_array_index (run->offsets, guint64, i), &errsv))
        {
          g_propagate_error (error, card_error (errsv));
          return FALSE;
        }
      report_progress (run, CM_CAPACITY_PHASE_SAVING, OP_COST, FALSE);
    }

  run->journal = cm_capacity_journal_create (folder, device, identity, run->size, run->nonce,
                                             run->offsets, run->originals, run->fp_offsets, run->fingerprint, error);
  return run->journal != NULL;
}

/* 2. Sign every place, from the top down. A write the card refuses marks
 *    that place rather than ending the check, unless the card is
 *    write-protected or gone. Returns how many places may have been
 *    written to. */
static guint
sign (Run *run,
      int *fatal)
{
  g_autofree guint8 *block = cm_engine_alloc (BLOCK);
  guint i;

  for (i = 0; i < run->n && !g_cancellable_is_cancelled (run->cancellable); i++)
    {
      guint64 offset = g_array_index (run->offsets, guint64, i);
      int errsv = 0;

      cm_capacity_signature (block, run->nonce, offset);
      if (!transfer (run->fd, TRUE, block, BLOCK, offset, &errsv))
        {
          /* A write-protected card wrote nothing; a card that went away
           * may have written part of this place. */
          if (errsv == EROFS || errsv == EPERM)
            {
              *fatal = errsv;
              return i;
            }
          run->cells[i] = CM_CAPACITY_CELL_WRITE_ERROR;
          if (errsv == ENODEV || errsv == ENXIO)
            {
              *fatal = errsv;
              return i + 1;
            }
        }
      cm_capacity_test_stop ("sign", i + 1);
      report_progress (run, CM_CAPACITY_PHASE_SIGNING, OP_COST, FALSE);
    }
  fdatasync (run->fd);
  return i;
}

/* The next checked block at or after @from. */
static guint64
next_checked (Run     *run,
              guint64  from)
{
  return (from + run->cell - 1) / run->cell * run->cell;
}

/* 3. Rewrite the start of the card with its own bytes, around the
 *    checked blocks: what a cache of up to that size held, it no longer
 *    holds. Each chunk goes to the journal before it is written. */
static gboolean
flush_cache (Run     *run,
             int     *fatal,
             GError **error)
{
  g_autofree guint8 *chunk = cm_engine_alloc (CHUNK);
  guint n_chunks = 0;

  for (guint64 pos = 0; pos < run->filler_end && !g_cancellable_is_cancelled (run->cancellable);)
    {
      guint64 start = pos, end;
      guint64 checked = next_checked (run, pos);

      /* Step over a checked block. */
      if (checked == pos)
        {
          pos += BLOCK;
          continue;
        }
      end = MIN (MIN (start + CHUNK, checked), run->filler_end);
      if (!transfer (run->fd, FALSE, chunk, end - start, start, fatal))
        return FALSE;
      report_progress (run, CM_CAPACITY_PHASE_FLUSHING, end - start, FALSE);
      if (!cm_capacity_journal_save_chunk (run->journal, start, chunk, end - start, error))
        return FALSE;
      if (!transfer (run->fd, TRUE, chunk, end - start, start, fatal))
        return FALSE;
      run->filler_written += end - start;
      cm_capacity_test_stop ("flush", ++n_chunks);
      report_progress (run, CM_CAPACITY_PHASE_FLUSHING, end - start, FALSE);
      pos = end;
    }
  fdatasync (run->fd);
  return TRUE;
}

/* 4. Read the places back. */
static void
read_back (Run *run)
{
  g_autofree guint8 *block = cm_engine_alloc (BLOCK);
  g_autofree guint8 *expected = cm_engine_alloc (BLOCK);

  for (guint i = 0; i < run->n && !g_cancellable_is_cancelled (run->cancellable); i++)
    {
      guint64 offset = g_array_index (run->offsets, guint64, i);
      int errsv = 0;

      if (run->cells[i] == CM_CAPACITY_CELL_WRITE_ERROR)
        continue;
      cm_capacity_signature (expected, run->nonce, offset);
      if (!transfer (run->fd, FALSE, block, BLOCK, offset, &errsv))
        run->cells[i] = CM_CAPACITY_CELL_READ_ERROR;
      else if (memcmp (block, expected, BLOCK) != 0)
        run->cells[i] = CM_CAPACITY_CELL_NO_STORAGE;
      cm_capacity_test_stop ("read", i + 1);
      report_progress (run, CM_CAPACITY_PHASE_READING, OP_COST, FALSE);
    }
}

/* 5. Put back every block that may have been written, also from the top
 *    down, whatever happened before. */
static gboolean
restore (Run     *run,
         guint    n_signed,
         GError **error)
{
  gboolean ok = TRUE;
  int errsv = 0;

  for (guint i = 0; i < n_signed; i++)
    {
      ok &= transfer (run->fd, TRUE, run->originals + (gsize) i * BLOCK, BLOCK,
                      g_array_index (run->offsets, guint64, i), &errsv);
      cm_capacity_test_stop ("restore", i + 1);
      report_progress (run, CM_CAPACITY_PHASE_RESTORING, OP_COST, FALSE);
    }

  if (fdatasync (run->fd) != 0 && ok)
    {
      ok = FALSE;
      errsv = errno;
    }

  if (!ok)
    {
      g_autoptr(GError) cause = card_error (errsv);

      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                   _("Some of the card's original data could not be written back: %s "
                     "Its journal is kept, so it can be restored again, by hand or at CardMark's next start."),
                   cause->message);
    }
  return ok;
}

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->offsets, g_array_unref);
  g_clear_pointer (&run->originals, g_free);
  g_clear_pointer (&run->fp_offsets, g_array_unref);
  g_clear_pointer (&run->fingerprint, g_free);
  g_clear_pointer (&run->cells, g_free);
  cm_capacity_journal_close (run->journal);
}

static CmCapacityReport *
make_report (Run *run)
{
  CmCapacityReport *report = cm_capacity_report_new ();

  report->reported_bytes = run->size;
  report->real_bytes = run->size;
  report->cell_bytes = run->cell;
  report->n_positions = run->n;
  report->cache_ruled_out = run->filler_written;
  report->seconds = (g_get_monotonic_time () - run->started) / 1e6;
  g_array_set_size (report->cells, run->n);

  /* Offsets run from the top down; the map from the start up. The lowest
   * place that does not keep its data is where the real storage ends. */
  for (guint i = run->n; i > 0; i--)
    {
      guint64 offset = g_array_index (run->offsets, guint64, i - 1);
      guint8 cell = run->cells[i - 1];

      g_array_index (report->cells, guint8, run->n - i) = cell;
      if (cell == CM_CAPACITY_CELL_VERIFIED)
        {
          if (!report->fake)
            report->last_good_bytes = offset + BLOCK;
          continue;
        }
      report->n_bad++;
      if (cell != CM_CAPACITY_CELL_NO_STORAGE)
        report->n_errors++;
      else if (!report->fake)
        {
          report->fake = TRUE;
          report->real_bytes = (guint64) (run->n - i) * run->cell;
        }
    }
  return report;
}

CmCapacityReport *
cm_capacity_probe (int                     fd,
                   const char             *device,
                   guint64                 size,
                   guint64                 cache_bytes,
                   GCancellable           *cancellable,
                   CmCapacityProgressFunc  progress,
                   gpointer                user_data,
                   GError                **error)
{
  g_autoptr(GFile) journal_folder = NULL;
  g_autofree char *pending = NULL;
  g_autoptr(GError) flush_error = NULL;
  g_autoptr(GError) find_error = NULL;
  CmCapacityReport *report;
  Run run = { 0 };
  guint n_signed;
  int fatal = 0;

  g_return_val_if_fail (fd >= 0, NULL);
  g_return_val_if_fail (device != NULL, NULL);

  if (size < 16 * 1024 * 1024)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_TOO_SMALL, _("The device is too small to probe."));
      return NULL;
    }
  journal_folder = cm_capacity_journal_default_folder ();

  /* Another check's journal first: this one would overwrite its blocks'
   * signatures, and then its originals could never be told apart. */
  pending = cm_capacity_journal_find (journal_folder, device, size, &find_error);
  /* A journal for another card that was in this reader is that card's
   * business, not this one's. */
  if (find_error != NULL && !g_error_matches (find_error, CM_CAPACITY_ERROR, CM_CAPACITY_ERROR_OTHER_CARD))
    {
      g_propagate_error (error, g_steal_pointer (&find_error));
      return NULL;
    }
  if (pending != NULL && !cm_capacity_journal_check_pending (fd, device, size, pending, error))
    return NULL;

  run.fd = fd;
  run.size = size;
  run.cancellable = cancellable;
  run.progress = progress;
  run.user_data = user_data;
  run.started = g_get_monotonic_time ();
  for (guint i = 0; i < 16; i++)
    run.nonce[i] = g_random_int_range (0, 256);
  choose_cells (&run);
  run.filler_end = filler_end (size, run.cell, cache_bytes > 0 ? cache_bytes : CM_CAPACITY_DEFAULT_CACHE);
  run.work_total = 4.0 * run.n * OP_COST + 2.0 * run.filler_end;

  if (!save_originals (&run, device, journal_folder, error))
    {
      run_clear (&run);
      return NULL;
    }

  n_signed = sign (&run, &fatal);
  if (fatal == 0 && flush_cache (&run, &fatal, &flush_error))
    read_back (&run);

  if (!restore (&run, n_signed, error))
    {
      run_clear (&run);
      return NULL;
    }
  report_progress (&run, CM_CAPACITY_PHASE_RESTORING, 0, TRUE);
  {
    /* A journal its folder would not let go is marked put back, and
     * stands in no later check's way. */
    g_autofree char *note = cm_capacity_journal_discard (g_steal_pointer (&run.journal));

    if (note != NULL)
      g_debug ("%s", note);
  }

  if (flush_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&flush_error));
      run_clear (&run);
      return NULL;
    }
  if (fatal != 0)
    {
      g_propagate_error (error, card_error (fatal));
      run_clear (&run);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      run_clear (&run);
      return NULL;
    }

  report = make_report (&run);
  run_clear (&run);

  if (report->fake && report->real_bytes == 0)
    {
      cm_capacity_report_free (report);
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                   _("The start of the card does not keep what is written to it. The card is failing; copy what you can off it."));
      return NULL;
    }
  return report;
}

/* The finding in one sentence a person can act on. */
char *
cm_capacity_report_describe (const char             *device,
                             const CmCapacityReport *report)
{
  g_autofree char *reported = g_format_size (report->reported_bytes);
  g_autofree char *real = g_format_size (report->real_bytes);
  g_autofree char *cache = g_format_size (report->cache_ruled_out);
  g_autofree char *finding = NULL;

  if (report->fake)
    finding = g_strdup_printf (_("Fake capacity: %s says it holds %s, but data written past %s does not come back. "
                                 "Use it as a %s card at most, or better, return it."),
                               device, reported, real, real);
  else
    finding = g_strdup_printf (_("%s holds what it says: all %u places checked across its %s kept their data."),
                               device, report->n_positions, reported);

  if (report->n_errors > 0)
    {
      g_autofree char *errors = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                              "%u place gave a read or write error: the card may be failing.",
                                                              "%u places gave a read or write error: the card may be failing.",
                                                              report->n_errors),
                                                 report->n_errors);
      char *joined = g_strconcat (finding, " ", errors, NULL);

      g_free (finding);
      finding = joined;
    }

  /* Translators: the first %s is the finding, the second a size. */
  return g_strdup_printf (_("%s A controller cache of up to %s was ruled out."), finding, cache);
}

/* In a thread, with progress through the caller's main context. */

typedef struct
{
  int                     fd;
  char                   *device;
  guint64                 size;
  guint64                 cache_bytes;
  CmCapacityProgressFunc  progress;
  gpointer                progress_data;
  GMainContext           *context;
  GTask                  *task;        /* weak: set while the thread runs */
} ProbeData;

typedef struct
{
  GTask              *task;
  CmCapacityProgress  progress;
} ProgressUpdate;

static void
probe_data_free (ProbeData *data)
{
  g_free (data->device);
  g_clear_pointer (&data->context, g_main_context_unref);
  g_free (data);
}

static gboolean
deliver_progress_cb (gpointer user_data)
{
  ProgressUpdate *update = user_data;
  ProbeData *data = g_task_get_task_data (update->task);

  if (!g_task_get_completed (update->task) && data->progress != NULL)
    data->progress (&update->progress, data->progress_data);
  return G_SOURCE_REMOVE;
}

static void
progress_update_free (gpointer user_data)
{
  ProgressUpdate *update = user_data;

  g_object_unref (update->task);
  g_free (update);
}

static void
thread_progress_cb (const CmCapacityProgress *progress,
                    gpointer                  user_data)
{
  GTask *task = user_data;
  ProbeData *data = g_task_get_task_data (task);
  ProgressUpdate *update = g_new0 (ProgressUpdate, 1);

  update->task = g_object_ref (task);
  update->progress = *progress;
  g_main_context_invoke_full (data->context, G_PRIORITY_DEFAULT, deliver_progress_cb,
                              update, progress_update_free);
}

static void
probe_thread (GTask        *task,
              gpointer      source_object,
              gpointer      task_data,
              GCancellable *cancellable)
{
  ProbeData *data = task_data;
  GError *error = NULL;
  CmCapacityReport *report;

  report = cm_capacity_probe (data->fd, data->device, data->size, data->cache_bytes,
                              cancellable, thread_progress_cb, task, &error);
  if (report != NULL)
    g_task_return_pointer (task, report, (GDestroyNotify) cm_capacity_report_free);
  else
    g_task_return_error (task, error);
}

void
cm_capacity_probe_async (int                     fd,
                         const char             *device,
                         guint64                 size,
                         guint64                 cache_bytes,
                         GCancellable           *cancellable,
                         CmCapacityProgressFunc  progress,
                         gpointer                progress_data,
                         GAsyncReadyCallback     callback,
                         gpointer                user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  ProbeData *data = g_new0 (ProbeData, 1);

  g_return_if_fail (fd >= 0);
  g_return_if_fail (device != NULL);

  data->fd = fd;
  data->device = g_strdup (device);
  data->size = size;
  data->cache_bytes = cache_bytes;
  data->progress = progress;
  data->progress_data = progress_data;
  data->context = g_main_context_ref_thread_default ();
  g_task_set_source_tag (task, cm_capacity_probe_async);
  g_task_set_task_data (task, data, (GDestroyNotify) probe_data_free);
  /* Cancelling must not end the task before the card's data is back. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, probe_thread);
}

CmCapacityReport *
cm_capacity_probe_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}
