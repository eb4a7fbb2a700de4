/* cm-format-layout.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * How a card is laid out when it is formatted, as the SD File System
 * Specification asks: from the card's size and allocation unit, where
 * its one partition starts and ends, which file system it holds and
 * how large the clusters are. Pure: no I/O, unit-tested.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CM_FORMAT_FS_FAT12,
  CM_FORMAT_FS_FAT16,
  CM_FORMAT_FS_FAT32,
  CM_FORMAT_FS_EXFAT,
} CmFormatFs;

typedef struct
{
  CmFormatFs fs;
  guint64    start;     /* bytes from the card's start to the partition's */
  guint64    length;    /* the partition's bytes */
  guint32    cluster;   /* bytes per cluster */
  guint64    boundary;  /* the specification's boundary unit, bytes */
  guint8     mbr_type;  /* the partition's type in the MBR */
} CmFormatLayout;

#define CM_FORMAT_MIN_START (4 * 1024 * 1024)
#define CM_FORMAT_MIN_SIZE  (16 * 1024 * 1024)

gboolean    cm_format_layout_plan    (guint64         size,
                                      guint64         au_size,
                                      CmFormatLayout *layout,
                                      GError        **error);
const char *cm_format_fs_to_string   (CmFormatFs      fs);
gboolean    cm_format_fs_from_string (const char     *str,
                                      CmFormatFs     *fs);
guint8      cm_format_fs_mbr_type    (CmFormatFs      fs);
/* The 512-byte MBR with the layout's one partition; @disk_id its
 * signature. */
void        cm_format_layout_mbr     (const CmFormatLayout *layout,
                                      guint32               disk_id,
                                      guint8                mbr[512]);
/* Whether @label fits @fs (FAT: 11 characters, exFAT: 15; printable
 * ASCII without the characters FAT forbids); an error says why not. */
gboolean    cm_format_check_label    (const char     *label,
                                      CmFormatFs      fs,
                                      GError        **error);

G_END_DECLS
