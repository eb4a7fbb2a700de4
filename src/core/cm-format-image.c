/* cm-format-image.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * For a user who is not root, the file system is made by mkfs on a
 * sparse image of the partition (cm-format.c) and copied here onto the
 * card, through the card's own handle (open through UDisks):
 *
 * - every data range of the image (SEEK_DATA, SEEK_HOLE), in 4 KiB
 *   blocks, is written at the partition's offset. The holes are not:
 *   mkfs writes every byte the file system needs (boot sectors, FATs,
 *   root directory, exFAT's bitmap and upcase table) explicitly, and
 *   fsck on the card's bytes after an erase that left old data agrees
 *   (tests/cli-format-user.sh);
 * - the card is synced and its cache let go of, then every range copied
 *   is read back from the card and compared with the image, byte for
 *   byte: a card that does not keep what it was given fails here.
 *
 * A stop is heard between pieces. Calls only cm-format-disk.c.
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "cm-format-private.h"
#include "cm-target.h"

#define PIECE  (4 * 1024 * 1024)
#define BLOCK  4096

typedef struct
{
  guint64 start;
  guint64 end;
} Range;

/* The image's data ranges, out to whole 4 KiB blocks, merged; the whole
 * image where the file system cannot say where its holes are. */
static GArray *
data_ranges (int       image,
             guint64   length,
             guint64  *total,
             GError  **error)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (Range));
  guint64 at = 0;

  *total = 0;
  while (at < length)
    {
      off_t data = lseek (image, at, SEEK_DATA);
      off_t hole;
      Range r;

      if (data < 0 && errno == ENXIO)
        break;
      if (data < 0 && errno == EINVAL && ranges->len == 0)
        {
          /* No SEEK_DATA here: all of it. */
          r.start = 0, r.end = length;
          g_array_append_val (ranges, r);
          break;
        }
      if (data < 0 || (hole = lseek (image, data, SEEK_HOLE)) < 0)
        {
          int errsv = errno;

          g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                       _("Cannot read the new file system's image: %s. Make sure the temporary folder "
                         "works and try again."), g_strerror (errsv));
          g_array_unref (ranges);
          return NULL;
        }
      r.start = (guint64) data / BLOCK * BLOCK;
      r.end = MIN (((guint64) hole + BLOCK - 1) / BLOCK * BLOCK, length);
      if (ranges->len > 0 && g_array_index (ranges, Range, ranges->len - 1).end >= r.start)
        g_array_index (ranges, Range, ranges->len - 1).end = MAX (r.end, g_array_index (ranges, Range, ranges->len - 1).end);
      else
        g_array_append_val (ranges, r);
      at = MAX ((guint64) hole, r.end);
    }
  for (guint i = 0; i < ranges->len; i++)
    *total += g_array_index (ranges, Range, i).end - g_array_index (ranges, Range, i).start;
  return ranges;
}

static gboolean
read_image (int       image,
            guint8   *buf,
            gsize     len,
            guint64   at,
            GError  **error)
{
  gsize done = 0;

  while (done < len)
    {
      ssize_t n = pread (image, buf + done, len - done, at + done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          int errsv = n < 0 ? errno : EIO;

          g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                       _("Cannot read the new file system's image: %s. Make sure the temporary folder "
                         "works and try again."), g_strerror (errsv));
          return FALSE;
        }
      done += n;
    }
  return TRUE;
}

/* Both passes: @verify FALSE writes the image's ranges onto the card,
 * TRUE reads them back and compares. */
static gboolean
pass (int                    card,
      int                    image,
      GArray                *ranges,
      guint64                total,
      gboolean               verify,
      CmFormatReport        *report,
      CmFormatProgressFunc   progress,
      gpointer               user_data,
      double                 from,
      double                 to,
      GCancellable          *cancellable,
      GError               **error)
{
  g_autofree guint8 *buf = cm_format_aligned_buffer (PIECE);
  g_autofree guint8 *back = verify ? cm_format_aligned_buffer (PIECE) : NULL;
  /* Translators: a format's phase, as a user who is not root: the file system made on an image is copied onto the card */
  const char *phase = verify ? _("Checking the file system") : _("Writing the file system to the card");
  guint64 done = 0;

  /* The phase is said before the first piece: a file system of a few
   * hundred KiB is one piece, and a slow card takes its time over it. */
  if (progress != NULL)
    progress (phase, from, -1, user_data);
  for (guint i = 0; i < ranges->len; i++)
    {
      Range r = g_array_index (ranges, Range, i);

      for (guint64 at = r.start; at < r.end; at += PIECE)
        {
          gsize len = MIN ((guint64) PIECE, r.end - at);

          if (g_cancellable_set_error_if_cancelled (cancellable, error) ||
              !read_image (image, buf, len, at, error))
            return FALSE;
          if (!verify)
            {
              if (!cm_format_io_at (card, TRUE, buf, len, report->layout.start + at, error))
                return FALSE;
            }
          else
            {
              if (!cm_format_io_at (card, FALSE, back, len, report->layout.start + at, error))
                return FALSE;
              if (memcmp (buf, back, len) != 0)
                {
                  gsize first = 0;
                  g_autofree char *where = NULL;

                  while (first < len && buf[first] == back[first])
                    first++;
                  if (at + first == 0)
                    {
                      g_set_error_literal (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                                           _("The card did not keep the new file system: at its partition's start "
                                             "it read back other bytes than were written. The card may be failing "
                                             "or fake; run a capacity check before trusting it with data."));
                      return FALSE;
                    }
                  where = g_format_size_full (at + first, G_FORMAT_SIZE_IEC_UNITS);
                  /* Translators: %s is where in the partition, "1.0 MiB" */
                  g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                               _("The card did not keep the new file system: %s into its partition it read back "
                                 "other bytes than were written. The card may be failing or fake; run a capacity "
                                 "check before trusting it with data."), where);
                  return FALSE;
                }
            }
          done += len;
          if (progress != NULL)
            progress (phase, from + (to - from) * done / MAX (total, 1), -1, user_data);
        }
    }
  return TRUE;
}

/**
 * cm_format_image_copy:
 * @card: the whole card (O_DIRECT is fine)
 * @image: the partition's image, as mkfs left it
 *
 * Copies @image's data ranges onto the card at the partition's offset,
 * makes sure the card took them, and reads them back: %FALSE, with a
 * sentence, when any byte differs. Progress from @from to @to.
 */
gboolean
cm_format_image_copy (int                    card,
                      int                    image,
                      CmFormatReport        *report,
                      CmFormatProgressFunc   progress,
                      gpointer               user_data,
                      double                 from,
                      double                 to,
                      GCancellable          *cancellable,
                      GError               **error)
{
  g_autoptr(GArray) ranges = NULL;
  guint64 total;
  double middle = from + (to - from) * 2 / 3;

  if ((ranges = data_ranges (image, report->layout.length, &total, error)) == NULL)
    return FALSE;
  if (!pass (card, image, ranges, total, FALSE, report, progress, user_data, from, middle, cancellable, error))
    return FALSE;
  if (!cm_format_sync (card, _("The card did not take the new file system: %s. Check the card and its reader, and try again."), error))
    return FALSE;
  /* Read back from the card, not from a cache of what was written
   * (where the card could not be opened O_DIRECT). */
  posix_fadvise (card, 0, 0, POSIX_FADV_DONTNEED);
  report->copied_bytes = total;
  return pass (card, image, ranges, total, TRUE, report, progress, user_data, middle, to, cancellable, error);
}
