/* cm-format-disk.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The card's bytes as an erase and format reads and writes them, shared
 * by root's route (cm-format.c) and the UDisks route
 * (cm-format-udisks.c), which call this file and never each other back:
 * reads and writes at an offset, a buffer fit for O_DIRECT, a tool's
 * output cleaned, the boot sector read back, an exFAT told where its
 * partition starts.
 */

#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cm-block-io.h"
#include "cm-format-private.h"
#include "cm-target.h"
#include "cm-text.h"

#define io_at cm_format_io_at
#define aligned_buffer cm_format_aligned_buffer
#define MAX_OUTPUT    4000  /* a tool's words kept, in bytes */

/* A tool's words, bounded and without control characters (but the
 * newlines), before they reach a document, a terminal or a label. */
char *
cm_format_clean_output (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  GString *out = g_string_new (NULL);

  for (const char *p = valid; *p != '\0' && out->len < MAX_OUTPUT; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n' || (!g_unichar_iscntrl (c) && c != 0x7f))
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

gboolean
cm_format_io_at (int       fd,
       gboolean  write,
       guint8   *buf,
       gsize     len,
       guint64   offset,
       GError  **error)
{
  return write ? cm_block_io_write_at (fd, buf, len, offset, error)
               : cm_block_io_read_at (fd, buf, len, offset, error);
}

guint8 *
cm_format_aligned_buffer (gsize len)
{
  void *buf = NULL;

  if (posix_memalign (&buf, 4096, len) != 0)
    g_error ("out of memory");
  return buf;
}

/* The exFAT boot region's checksum (exFAT specification, 3.4): over its
 * first 11 sectors, leaving out VolumeFlags and PercentInUse. */
static guint32
exfat_checksum (const guint8 *region,
                gsize         len)
{
  guint32 sum = 0;

  for (gsize i = 0; i < len; i++)
    if (i != 106 && i != 107 && i != 112)
      sum = ((sum & 1) ? 0x80000000u : 0) + (sum >> 1) + region[i];
  return sum;
}

/* mkfs.exfat takes the partition's offset from the kernel, which knows
 * none for a window (or a loop device UDisks made over the partition):
 * write it (in sectors) into both boot regions, with their checksum, so
 * the boot sector says where it is, as the specification asks. @fd
 * reaches the file system at @base; both regions are read and written
 * at once, in a buffer fit for a card opened O_DIRECT. */
gboolean
cm_format_exfat_set_offset (int              fd,
                            guint64          base,
                            CmFormatReport  *report,
                            GError         **error)
{
  g_autofree guint8 *head = aligned_buffer (4096);
  g_autofree guint8 *regions = NULL;
  guint sector, len;
  guint64 offset;
  guint32 sum;

  if (!io_at (fd, FALSE, head, 4096, base, error))
    return FALSE;
  if (memcmp (head + 3, "EXFAT   ", 8) != 0 || head[108] < 9 || head[108] > 12)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                   _("mkfs.exfat left no exFAT boot sector on %s. Try again; if it fails again, the card may be failing."),
                   report->partition);
      return FALSE;
    }
  sector = 1u << head[108];
  len = 12 * sector;
  /* Both regions: 24 sectors, a whole number of 4 KiB blocks. */
  regions = aligned_buffer (2 * len);
  offset = report->layout.start / sector;
  if (!io_at (fd, FALSE, regions, 2 * len, base, error))
    return FALSE;
  for (guint copy = 0; copy < 2; copy++)
    {
      guint8 *region = regions + copy * len;

      for (guint b = 0; b < 8; b++)
        region[64 + b] = (offset >> (8 * b)) & 0xff;
      sum = exfat_checksum (region, 11 * sector);
      for (guint i = 0; i < sector / 4; i++)
        {
          guint8 *p = region + 11 * sector + 4 * i;

          p[0] = sum & 0xff, p[1] = (sum >> 8) & 0xff, p[2] = (sum >> 16) & 0xff, p[3] = sum >> 24;
        }
    }
  if (!io_at (fd, TRUE, regions, 2 * len, base, error))
    return FALSE;
  return cm_format_sync_boot (fd, error);
}

/**
 * cm_format_sync:
 * @fd: the whole card
 * @sentence: what to say if the card did not take it: a translated
 *   sentence with one %s, for the reason
 * @error: return location for an error
 *
 * Makes sure the card took what was just written to it (a file
 * descriptor that cannot be synced, EINVAL, has nothing held back).
 *
 * Returns: %FALSE with @sentence in @error if it did not
 */
gboolean
cm_format_sync (int         fd,
                const char *sentence,
                GError    **error)
{
  if (fdatasync (fd) < 0 && errno != EINVAL)
    {
      int errsv = errno;

      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO, sentence, g_strerror (errsv));
      return FALSE;
    }
  return TRUE;
}

/* Makes sure the card took a boot sector just written. */
gboolean
cm_format_sync_boot (int      fd,
                     GError **error)
{
  return cm_format_sync (fd, _("The card did not take the file system's boot sector: %s. Check the card and its reader, and try again."), error);
}

/**
 * cm_format_read_boot:
 * @fd: the whole card (O_DIRECT is fine)
 * @report: its layout's start says where the partition is
 *
 * Reads back the file system the partition holds, from its boot
 * sector: its type, its cluster size and where its data area starts
 * (bytes from the card's start), into @report's layout. Where a tool
 * of UDisks' choosing made it, this is what was made.
 */
gboolean
cm_format_read_boot (int              fd,
                     CmFormatReport  *report,
                     GError         **error)
{
  g_autofree guint8 *bs = aligned_buffer (4096);
  guint per_sector, fats, root_entries, reserved;
  guint64 fat_sectors, sectors, clusters;

  if (!io_at (fd, FALSE, bs, 4096, report->layout.start, error))
    return FALSE;
  if (memcmp (bs + 3, "EXFAT   ", 8) == 0 && bs[108] >= 9 && bs[108] <= 12 && bs[108] + bs[109] <= 25)
    {
      report->layout.fs = CM_FORMAT_FS_EXFAT;
      report->layout.cluster = 1u << (bs[108] + bs[109]);
      report->data_start = 0;
      return TRUE;
    }
  per_sector = bs[11] | bs[12] << 8;
  reserved = bs[14] | bs[15] << 8;
  fats = bs[16];
  root_entries = bs[17] | bs[18] << 8;
  fat_sectors = bs[22] | bs[23] << 8;
  if (fat_sectors == 0)
    fat_sectors = bs[36] | bs[37] << 8 | bs[38] << 16 | (guint32) bs[39] << 24;
  sectors = bs[19] | bs[20] << 8;
  if (sectors == 0)
    sectors = bs[32] | bs[33] << 8 | bs[34] << 16 | (guint32) bs[35] << 24;
  if ((per_sector != 512 && per_sector != 1024 && per_sector != 2048 && per_sector != 4096) ||
      bs[13] == 0 || (bs[13] & (bs[13] - 1)) != 0 || fats == 0 || bs[510] != 0x55 || bs[511] != 0xaa)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_IO,
                   _("The new partition holds no FAT or exFAT boot sector that CardMark can read. Format the card again; "
                     "if it fails again, the card may be failing."));
      return FALSE;
    }
  report->layout.cluster = per_sector * bs[13];
  report->data_start = report->layout.start + ((guint64) reserved + fats * fat_sectors) * per_sector + root_entries * 32;
  /* The FAT's type is its count of clusters (Microsoft's FAT
   * specification), not what its label says. */
  clusters = sectors > (report->data_start - report->layout.start) / per_sector
             ? (sectors - (report->data_start - report->layout.start) / per_sector) / bs[13] : 0;
  report->layout.fs = clusters < 4085 ? CM_FORMAT_FS_FAT12 : clusters < 65525 ? CM_FORMAT_FS_FAT16 : CM_FORMAT_FS_FAT32;
  return TRUE;
}

/* Step 4: nothing to mend, or the format failed. */
