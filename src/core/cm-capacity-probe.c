/* cm-capacity-probe.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Finds cards that claim more capacity than they have. Such a card maps
 * every offset past its real size back onto real storage (or drops the
 * write), so a block written far out overwrites one near the start.
 *
 * The probe reads a few hundred 4 KiB blocks spread over the device and
 * keeps their bytes, writes a signature naming its own offset into each
 * (from the highest offset down, so where two places share storage the
 * lower one wins and the higher one shows the damage), reads them all
 * back, and finally writes every original block back, also from the
 * top down, so the card keeps its content. A block that does not read
 * back its own signature marks where the real storage ends.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "cm-capacity-probe.h"
#include "cm-engine.h"
#include "cm-target.h"

#define BLOCK 4096
#define EVEN_STEPS 256
#define MAGIC "CardMark capacity probe"

static int
compare_desc (gconstpointer a,
              gconstpointer b)
{
  guint64 x = *(const guint64 *) a;
  guint64 y = *(const guint64 *) b;

  return (x < y) - (x > y);
}

/* Evenly spaced places, plus both sides of every power of two: fake
 * cards are mostly built around a real size of 2^n bytes. */
static GArray *
choose_positions (guint64 size)
{
  GArray *positions = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint64 last = (size - BLOCK) / BLOCK * BLOCK;

  for (guint i = 0; i < EVEN_STEPS; i++)
    {
      guint64 offset = size / EVEN_STEPS * i / BLOCK * BLOCK;
      g_array_append_val (positions, offset);
    }

  for (guint64 p = 1024 * 1024; p < size; p *= 2)
    {
      guint64 below = p - BLOCK;
      g_array_append_val (positions, below);
      g_array_append_val (positions, p);
    }

  g_array_append_val (positions, last);
  g_array_sort (positions, compare_desc);

  /* Drop duplicates (sorted, so they are neighbours). */
  for (guint i = positions->len; i > 1; i--)
    if (g_array_index (positions, guint64, i - 1) == g_array_index (positions, guint64, i - 2))
      g_array_remove_index (positions, i - 1);

  return positions;
}

static void
make_signature (guint8       *block,
                const guint8 *nonce,
                guint64       offset)
{
  guint64 state = offset ^ 0x9E3779B97F4A7C15ULL;

  for (guint i = 0; i < BLOCK; i += 8)
    {
      state ^= state << 13;
      state ^= state >> 7;
      state ^= state << 17;
      memcpy (block + i, &state, 8);
    }

  memcpy (block, MAGIC, sizeof MAGIC);
  memcpy (block + 32, nonce, 16);
  memcpy (block + 48, &offset, 8);
}

static gboolean
transfer (int       fd,
          gboolean  write,
          guint8   *block,
          guint64   offset,
          int      *errsv)
{
  gssize done = write ? pwrite (fd, block, BLOCK, offset) : pread (fd, block, BLOCK, offset);

  if (done == BLOCK)
    return TRUE;

  *errsv = done < 0 ? errno : EIO;
  return FALSE;
}

static void
report_progress (CmCapacityProgressFunc progress,
                 gpointer               user_data,
                 double                 fraction)
{
  if (progress != NULL)
    progress (fraction, user_data);
}

/* Puts every original block back, whatever happened before. */
static gboolean
restore (int      fd,
         GArray  *positions,
         guint8  *originals,
         guint    n_saved,
         GError **error)
{
  gboolean ok = TRUE;
  int errsv = 0;

  for (guint i = 0; i < n_saved; i++)
    ok &= transfer (fd, TRUE, originals + (gsize) i * BLOCK, g_array_index (positions, guint64, i), &errsv);

  if (fdatasync (fd) != 0 && ok)
    {
      ok = FALSE;
      errsv = errno;
    }

  if (!ok)
    g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                 _("Some of the card's original data could not be written back (%s). Copy what you need off the card now."),
                 g_strerror (errsv));
  return ok;
}

gboolean
cm_capacity_probe (int                     fd,
                   guint64                 size,
                   GCancellable           *cancellable,
                   CmCapacityProgressFunc  progress,
                   gpointer                user_data,
                   CmCapacityReport       *report,
                   GError                **error)
{
  g_autoptr(GArray) positions = NULL;
  g_autofree guint8 *originals = NULL;
  g_autofree guint8 *block = cm_engine_alloc (BLOCK);
  g_autofree guint8 *expected = cm_engine_alloc (BLOCK);
  g_autoptr(GArray) bad = g_array_new (FALSE, TRUE, sizeof (gboolean));
  guint8 nonce[16];
  guint n_saved = 0;
  guint n_signed = 0;  /* places the probe may have written to */
  int errsv = 0;
  guint n;

  g_return_val_if_fail (fd >= 0, FALSE);
  g_return_val_if_fail (report != NULL, FALSE);

  if (size < 16 * 1024 * 1024)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_TOO_SMALL, _("The device is too small to probe."));
      return FALSE;
    }

  positions = choose_positions (size);
  n = positions->len;
  originals = cm_engine_alloc ((gsize) n * BLOCK);
  g_array_set_size (bad, n);
  for (guint i = 0; i < 16; i++)
    nonce[i] = g_random_int_range (0, 256);

  /* 1. Keep what is there. */
  for (; n_saved < n; n_saved++)
    {
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      if (!transfer (fd, FALSE, originals + (gsize) n_saved * BLOCK, g_array_index (positions, guint64, n_saved), &errsv))
        {
          g_propagate_error (error, cm_target_error_from_errno (errsv, NULL));
          return FALSE;
        }
      report_progress (progress, user_data, 0.25 * n_saved / n);
    }

  /* 2. Sign every place, from the top down. A write the card refuses
   *    marks that place as bad rather than ending the probe. */
  for (guint i = 0; i < n && !g_cancellable_is_cancelled (cancellable); i++)
    {
      guint64 offset = g_array_index (positions, guint64, i);

      make_signature (block, nonce, offset);
      if (!transfer (fd, TRUE, block, offset, &errsv))
        {
          /* A write-protected card wrote nothing; a card that went away
           * may have written part of this place. */
          if (errsv == EROFS || errsv == EPERM)
            break;
          n_signed = i + 1;
          if (errsv == ENODEV || errsv == ENXIO)
            break;
          g_array_index (bad, gboolean, i) = TRUE;
        }
      n_signed = i + 1;
      report_progress (progress, user_data, 0.25 + 0.25 * (i + 1) / n);
    }
  fdatasync (fd);

  /* 3. Read them back. */
  for (guint i = 0; i < n && errsv != ENODEV && errsv != EROFS && errsv != EPERM &&
                    !g_cancellable_is_cancelled (cancellable); i++)
    {
      guint64 offset = g_array_index (positions, guint64, i);
      int read_errsv = 0;

      make_signature (expected, nonce, offset);
      if (!transfer (fd, FALSE, block, offset, &read_errsv) || memcmp (block, expected, BLOCK) != 0)
        g_array_index (bad, gboolean, i) = TRUE;
      report_progress (progress, user_data, 0.5 + 0.25 * (i + 1) / n);
    }

  /* 4. Put back everything written, cancelled or not. */
  if (!restore (fd, positions, originals, n_signed, error))
    return FALSE;
  report_progress (progress, user_data, 1.0);

  if (errsv == ENODEV || errsv == ENXIO || errsv == EROFS || errsv == EPERM)
    {
      g_propagate_error (error, cm_target_error_from_errno (errsv, NULL));
      return FALSE;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return FALSE;

  memset (report, 0, sizeof *report);
  report->reported_bytes = size;
  report->real_bytes = size;
  report->n_positions = n;

  /* Positions run from the top down: the lowest bad place is where the
   * real storage ends, the good place just below it where it surely
   * still is. */
  for (guint i = n; i > 0; i--)
    {
      guint64 offset = g_array_index (positions, guint64, i - 1);

      if (g_array_index (bad, gboolean, i - 1))
        {
          report->n_bad++;
          if (!report->fake)
            {
              report->fake = TRUE;
              report->real_bytes = offset;
            }
        }
      else if (!report->fake)
        report->last_good_bytes = offset + BLOCK;
    }

  if (report->fake && report->real_bytes == 0)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                   _("The start of the card does not keep what is written to it. The card is failing; copy what you can off it."));
      return FALSE;
    }

  return TRUE;
}

/* The finding in one sentence a person can act on. */
char *
cm_capacity_report_describe (const char             *device,
                             const CmCapacityReport *report)
{
  g_autofree char *reported = g_format_size (report->reported_bytes);
  g_autofree char *real = g_format_size (report->real_bytes);

  if (report->fake)
    return g_strdup_printf (_("Fake capacity: %s says it holds %s, but data written past %s does not come back. "
                              "Use it as a %s card at most, or better, return it."),
                            device, reported, real, real);

  return g_strdup_printf (_("%s holds what it says: all %u places checked across its %s kept their data."),
                          device, report->n_positions, reported);
}
