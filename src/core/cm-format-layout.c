/* cm-format-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SD File System Specification's layout (Part 2, its tables of
 * format parameters, as the SD Association's formatter applies them):
 * SDSC cards (up to 2 GiB) FAT12 or FAT16, SDHC (up to 32 GiB, the
 * CSD's C_SIZE below 0xFFFF) FAT32 with 32 KiB clusters, SDXC exFAT with
 * 128 KiB clusters and more. The partition starts on a boundary unit, at
 * least 4 MiB and at least the card's allocation unit, and ends on one.
 */

#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "cm-format-layout.h"
#include "cm-target.h"

#define KiB G_GUINT64_CONSTANT (1024)
#define MiB (1024 * KiB)
#define GiB (1024 * MiB)

typedef struct
{
  guint64    up_to;     /* the card's size, bytes, at most */
  CmFormatFs fs;
  guint32    cluster;
  guint64    boundary;
} Row;

static const Row table[] = {
  {   64 * MiB, CM_FORMAT_FS_FAT12,  16 * KiB,  16 * KiB },
  {  256 * MiB, CM_FORMAT_FS_FAT16,  16 * KiB,  32 * KiB },
  {    1 * GiB, CM_FORMAT_FS_FAT16,  16 * KiB,  64 * KiB },
  {    2 * GiB, CM_FORMAT_FS_FAT16,  32 * KiB,  64 * KiB },
  {   32 * GiB, CM_FORMAT_FS_FAT32,  32 * KiB,   4 * MiB },
  {  128 * GiB, CM_FORMAT_FS_EXFAT, 128 * KiB,  16 * MiB },
  {  512 * GiB, CM_FORMAT_FS_EXFAT, 256 * KiB,  32 * MiB },
  { 2048 * GiB, CM_FORMAT_FS_EXFAT, 512 * KiB,  64 * MiB },
};

/* An MBR counts sectors in 32 bits. */
#define MBR_MAX_BYTES (G_GUINT64_CONSTANT (0xffffffff) * 512)

/* The MBR's partition type for @fs. */
guint8
cm_format_fs_mbr_type (CmFormatFs fs)
{
  switch (fs)
    {
    case CM_FORMAT_FS_FAT12:
      return 0x01;
    case CM_FORMAT_FS_FAT16:
      return 0x06;
    case CM_FORMAT_FS_FAT32:
      return 0x0c;  /* FAT32 with LBA */
    case CM_FORMAT_FS_EXFAT:
      return 0x07;
    default:
      g_assert_not_reached ();
    }
}

static guint64
gcd (guint64 a,
     guint64 b)
{
  while (b != 0)
    {
      guint64 t = a % b;

      a = b;
      b = t;
    }
  return a;
}

static guint64
lcm (guint64 a,
     guint64 b)
{
  return a / gcd (a, b) * b;
}

/**
 * cm_format_layout_plan:
 * @size: the bytes to lay out: the card's size, or on a fake card the
 *   bytes that really hold data
 * @au_size: the card's allocation unit from its SSR, 0 when not known
 * @layout: (out): the layout
 *
 * Returns: %FALSE, with @error set, for a card too small to format.
 */
gboolean
cm_format_layout_plan (guint64         size,
                       guint64         au_size,
                       CmFormatLayout *layout,
                       GError        **error)
{
  const Row *row = &table[G_N_ELEMENTS (table) - 1];
  guint64 unit;

  g_return_val_if_fail (layout != NULL, FALSE);

  if (size < CM_FORMAT_MIN_SIZE)
    {
      g_autofree char *have = g_format_size (size);

      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("The card holds %s, too little for a partition that starts 4 MiB in. "
                     "Formatting needs at least 16 MiB."), have);
      return FALSE;
    }
  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    if (size <= table[i].up_to)
      {
        row = &table[i];
        break;
      }

  layout->fs = row->fs;
  layout->cluster = row->cluster;
  layout->boundary = row->boundary;
  layout->mbr_type = cm_format_fs_mbr_type (row->fs);
  /* The partition starts on 4 MiB, on the boundary unit and on the
   * allocation unit: their least common multiple (an AU of 12 or 24 MiB
   * is no power of two). */
  unit = lcm (CM_FORMAT_MIN_START, row->boundary);
  if (au_size > 0)
    unit = lcm (unit, au_size);
  layout->start = unit;
  layout->length = MIN (size, MBR_MAX_BYTES) - layout->start;
  layout->length -= layout->length % MAX (row->boundary, (guint64) row->cluster);
  /* FAT32 needs 65525 clusters or more (the FAT specification decides the
   * type by the count): a card just above 2 GiB takes smaller ones. */
  while (layout->fs == CM_FORMAT_FS_FAT32 && layout->length / layout->cluster < 65525 && layout->cluster > 4096)
    layout->cluster /= 2;
  return TRUE;
}

const char *
cm_format_fs_to_string (CmFormatFs fs)
{
  switch (fs)
    {
    case CM_FORMAT_FS_FAT12:
      return "fat12";
    case CM_FORMAT_FS_FAT16:
      return "fat16";
    case CM_FORMAT_FS_FAT32:
      return "fat32";
    case CM_FORMAT_FS_EXFAT:
      return "exfat";
    default:
      g_return_val_if_reached (NULL);
    }
}

gboolean
cm_format_fs_from_string (const char *str,
                          CmFormatFs *fs)
{
  for (CmFormatFs i = CM_FORMAT_FS_FAT12; i <= CM_FORMAT_FS_EXFAT; i++)
    if (g_strcmp0 (str, cm_format_fs_to_string (i)) == 0)
      {
        *fs = i;
        return TRUE;
      }
  return FALSE;
}

static void
put_le32 (guint8  *p,
          guint32  v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = (v >> 24) & 0xff;
}

void
cm_format_layout_mbr (const CmFormatLayout *layout,
                      guint32               disk_id,
                      guint8                mbr[512])
{
  guint8 *entry = mbr + 446;

  g_return_if_fail (layout != NULL && mbr != NULL);

  memset (mbr, 0, 512);
  put_le32 (mbr + 440, disk_id);
  entry[0] = 0x00;  /* not bootable */
  /* CHS addresses mean nothing to a card this size: "use the LBA". */
  entry[1] = 0xfe, entry[2] = 0xff, entry[3] = 0xff;
  entry[4] = layout->mbr_type;
  entry[5] = 0xfe, entry[6] = 0xff, entry[7] = 0xff;
  put_le32 (entry + 8, (guint32) (layout->start / 512));
  put_le32 (entry + 12, (guint32) (layout->length / 512));
  mbr[510] = 0x55;
  mbr[511] = 0xaa;
}

gboolean
cm_format_check_label (const char *label,
                       CmFormatFs  fs,
                       GError    **error)
{
  guint max = fs == CM_FORMAT_FS_EXFAT ? 15 : 11;

  if (label == NULL)
    return TRUE;
  for (const char *p = label; *p != '\0'; p++)
    if (!g_ascii_isprint (*p) || strchr ("\"*+,./:;<=>?[\\]|", *p) != NULL)
      {
        g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                     _("A card's label takes letters, digits, spaces and simple punctuation, "
                       "without any of \" * + , . / : ; < = > ? [ \\ ] |. Choose another label."));
        return FALSE;
      }
  if (strlen (label) > max)
    {
      g_set_error (error, CM_TARGET_ERROR, CM_TARGET_ERROR_NOT_SUPPORTED,
                   _("The label is %u characters long; %s takes at most %u. Choose a shorter label."),
                   (guint) strlen (label), fs == CM_FORMAT_FS_EXFAT ? "exFAT" : "FAT", max);
      return FALSE;
    }
  return TRUE;
}
