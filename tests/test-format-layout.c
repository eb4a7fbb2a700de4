/* test-format-layout.c
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The format's layout against what the SD File System Specification
 * and the FAT specification ask of it, for cards across the range.
 */

#include "config.h"

#include <glib.h>
#include <string.h>

#include "cm-format-layout.h"

#define MiB (G_GUINT64_CONSTANT (1024) * 1024)
#define GiB (1024 * MiB)

/* Sizes real cards have: a little under their label, in decimal bytes. */
static const guint64 sizes[] = {
  16 * MiB, 31 * MiB, 64 * MiB, 128 * MiB, 256 * MiB, 255852544, 1000 * MiB, 1 * GiB,
  1977614336, 2 * GiB, 2 * GiB + 512, 3965190144, 4 * GiB, 7948206080, 15931539456,
  31914983424, 32 * GiB, 34 * GiB, 63864569856, 128 * GiB, 127865454592, 255869321216,
  512 * GiB, 1024 * GiB, 2048 * GiB,
};

/* The FAT specification's own rule: the count of clusters decides the
 * type, so a FAT16 partition must hold 4085 to 65524 clusters, a FAT12
 * fewer, a FAT32 more. Counted roughly (the FATs and root take little). */
static void
test_fat_cluster_counts (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      CmFormatLayout l;
      guint64 clusters;

      g_assert_true (cm_format_layout_plan (sizes[i], 0, &l, NULL));
      clusters = l.length / l.cluster;
      g_test_message ("%" G_GUINT64_FORMAT " bytes: %s, %u-byte clusters, %" G_GUINT64_FORMAT " clusters",
                      sizes[i], cm_format_fs_to_string (l.fs), l.cluster, clusters);
      switch (l.fs)
        {
        case CM_FORMAT_FS_FAT12:
          g_assert_cmpuint (clusters, <, 4085);
          break;
        case CM_FORMAT_FS_FAT16:
          g_assert_cmpuint (clusters, >=, 4085);
          g_assert_cmpuint (clusters, <, 65525);
          break;
        case CM_FORMAT_FS_FAT32:
          g_assert_cmpuint (clusters, >=, 65525);
          break;
        case CM_FORMAT_FS_EXFAT:
        default:
          break;
        }
    }
}

/* SDSC up to 2 GiB, SDHC up to 32 GiB (C_SIZE below 0xFFFF), SDXC above. */
static void
test_types (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    {
      CmFormatLayout l;

      g_assert_true (cm_format_layout_plan (sizes[i], 0, &l, NULL));
      if (sizes[i] <= 2 * GiB)
        g_assert_true (l.fs == CM_FORMAT_FS_FAT12 || l.fs == CM_FORMAT_FS_FAT16);
      else if (sizes[i] <= 32 * GiB)
        g_assert_cmpint (l.fs, ==, CM_FORMAT_FS_FAT32);
      else
        g_assert_cmpint (l.fs, ==, CM_FORMAT_FS_EXFAT);
      if (sizes[i] > 64 * MiB && sizes[i] <= 2 * GiB)
        g_assert_cmpint (l.fs, ==, CM_FORMAT_FS_FAT16);
      /* The floor: 32 KiB clusters from 4 GB up, 128 KiB on SDXC. */
      if (sizes[i] >= 4000000000)
        g_assert_cmpuint (l.cluster, >=, 32 * 1024);
      if (sizes[i] > 32 * GiB)
        g_assert_cmpuint (l.cluster, >=, 128 * 1024);
    }
}

/* The partition starts on 4 MiB or more, on its boundary unit and on the
 * card's allocation unit, ends on the card or before, and its length is
 * whole clusters and whole boundary units. */
static void
test_alignment (void)
{
  static const guint64 aus[] = { 0, 16 * 1024, 4 * MiB, 8 * MiB, 12 * MiB, 16 * MiB, 64 * MiB };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++)
    for (guint j = 0; j < G_N_ELEMENTS (aus); j++)
      {
        CmFormatLayout l;

        if (!cm_format_layout_plan (sizes[i], aus[j], &l, NULL))
          g_assert_cmpuint (sizes[i], <, 16 * MiB);
        g_assert_cmpuint (l.start, >=, 4 * MiB);
        g_assert_cmpuint (l.start % (4 * MiB), ==, 0);
        g_assert_cmpuint (l.start % l.boundary, ==, 0);
        if (aus[j] > 0)
          g_assert_cmpuint (l.start, >=, aus[j]);
        if (aus[j] > 0 && (4 * MiB) % aus[j] != 0)
          g_assert_cmpuint (l.start % aus[j], ==, 0);
        g_assert_cmpuint (l.start + l.length, <=, sizes[i]);
        g_assert_cmpuint (l.length % l.cluster, ==, 0);
        g_assert_cmpuint (l.length % l.boundary, ==, 0);
        /* Ends within one boundary unit of the card's end, or of the
         * most an MBR can address (2^32 - 1 sectors). */
        g_assert_cmpuint (MIN (sizes[i], G_GUINT64_CONSTANT (0xffffffff) * 512) - (l.start + l.length), <,
                          MAX (l.boundary, l.cluster));
        g_assert_cmpuint ((l.start + l.length) / 512, <=, G_MAXUINT32);
      }
}

static void
test_too_small (void)
{
  g_autoptr(GError) error = NULL;
  CmFormatLayout l;

  g_assert_false (cm_format_layout_plan (8 * MiB, 0, &l, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "16 MiB"));
}

static guint32
le32 (const guint8 *p)
{
  return p[0] | p[1] << 8 | p[2] << 16 | (guint32) p[3] << 24;
}

/* The MBR: one partition, type by file system, start and length in
 * sectors, the signature; nothing else in the partition table. */
static void
test_mbr (void)
{
  static const struct { guint64 size; guint8 type; } cards[] = {
    { 64 * MiB, 0x01 }, { 256 * MiB, 0x06 }, { 4 * GiB, 0x0c }, { 34 * GiB, 0x07 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cards); i++)
    {
      CmFormatLayout l;
      guint8 mbr[512];

      g_assert_true (cm_format_layout_plan (cards[i].size, 0, &l, NULL));
      memset (mbr, 0xaa, sizeof mbr);
      cm_format_layout_mbr (&l, 0x12345678, mbr);
      g_assert_cmpuint (mbr[510], ==, 0x55);
      g_assert_cmpuint (mbr[511], ==, 0xaa);
      g_assert_cmpuint (le32 (mbr + 440), ==, 0x12345678);
      g_assert_cmpuint (mbr[446], ==, 0);
      g_assert_cmpuint (mbr[446 + 4], ==, cards[i].type);
      g_assert_cmpuint (le32 (mbr + 446 + 8), ==, l.start / 512);
      g_assert_cmpuint (le32 (mbr + 446 + 12), ==, l.length / 512);
      for (guint b = 446 + 16; b < 510; b++)
        g_assert_cmpuint (mbr[b], ==, 0);
      for (guint b = 0; b < 440; b++)
        g_assert_cmpuint (mbr[b], ==, 0);
    }
}

static void
test_labels (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_true (cm_format_check_label (NULL, CM_FORMAT_FS_FAT32, NULL));
  g_assert_true (cm_format_check_label ("CARD 01", CM_FORMAT_FS_FAT32, NULL));
  g_assert_true (cm_format_check_label ("ELEVEN CHAR", CM_FORMAT_FS_FAT16, NULL));
  g_assert_false (cm_format_check_label ("TWELVE CHARS", CM_FORMAT_FS_FAT16, &error));
  g_clear_error (&error);
  g_assert_true (cm_format_check_label ("FIFTEEN CHARSxx", CM_FORMAT_FS_EXFAT, NULL));
  g_assert_false (cm_format_check_label ("SIXTEEN CHARSxxx", CM_FORMAT_FS_EXFAT, &error));
  g_clear_error (&error);
  g_assert_false (cm_format_check_label ("A/B", CM_FORMAT_FS_FAT32, &error));
  g_clear_error (&error);
  g_assert_false (cm_format_check_label ("tab\there", CM_FORMAT_FS_EXFAT, &error));
}

static void
test_names (void)
{
  for (CmFormatFs fs = CM_FORMAT_FS_FAT12; fs <= CM_FORMAT_FS_EXFAT; fs++)
    {
      CmFormatFs back;

      g_assert_true (cm_format_fs_from_string (cm_format_fs_to_string (fs), &back));
      g_assert_cmpint (back, ==, fs);
    }
  g_assert_false (cm_format_fs_from_string ("ntfs", &(CmFormatFs) { 0 }));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cardmark/format-layout/fat-cluster-counts", test_fat_cluster_counts);
  g_test_add_func ("/cardmark/format-layout/types", test_types);
  g_test_add_func ("/cardmark/format-layout/alignment", test_alignment);
  g_test_add_func ("/cardmark/format-layout/too-small", test_too_small);
  g_test_add_func ("/cardmark/format-layout/mbr", test_mbr);
  g_test_add_func ("/cardmark/format-layout/labels", test_labels);
  g_test_add_func ("/cardmark/format-layout/names", test_names);
  return g_test_run ();
}
