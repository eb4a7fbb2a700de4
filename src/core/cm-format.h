/* cm-format.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Erasing and formatting a whole card: discard it (and find out whether
 * it honoured that), write one MBR partition laid out as
 * cm-format-layout.c says, make the file system with the distribution's
 * own tools (mkfs.fat, mkfs.exfat) and check it (fsck -n). The report is
 * the document's "format" member.
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "cm-format-layout.h"

G_BEGIN_DECLS

typedef enum
{
  CM_FORMAT_DISCARD_HONOURED,      /* the samples read back erased */
  CM_FORMAT_DISCARD_IGNORED,       /* they still held what was written */
  CM_FORMAT_DISCARD_PARTLY,        /* some did, some did not */
  CM_FORMAT_DISCARD_NOT_SUPPORTED, /* the device refused BLKDISCARD */
} CmFormatDiscard;

typedef struct
{
  CmFormatLayout  layout;          /* as made on the card: through UDisks,
                                    * its file system and cluster are
                                    * mkfs's own choice, read back */
  CmFormatFs      asked_fs;        /* what the specification asks for */
  guint32         asked_cluster;
  gboolean        through_udisks;  /* the file system was made by UDisks'
                                    * Format, as a user who is not root */
  gboolean        through_image;   /* as a user who is not root: made by
                                    * mkfs with CardMark's arguments on an
                                    * image, checked there, copied onto the
                                    * card and read back */
  guint64         copied_bytes;    /* through an image: the bytes copied and
                                    * read back the same */
  guint64         device_bytes;    /* what the card says it holds */
  guint64         used_bytes;      /* what was laid out: less on a fake card */
  char           *size_proof;      /* --size real: what proved the document the
                                    * size came from is of this card ("cid",
                                    * "never-left-reader"); else NULL */
  char           *label;           /* NULL: none given */
  char           *partition;       /* the partition's device; through an
                                    * image, as the kernel names it */
  gboolean        window;          /* it was a loop device over the partition's
                                    * bytes: the kernel showed no partitions */
  guint64         data_start;      /* FAT: where its data area starts, bytes
                                    * from the card's start; 0 for exFAT */
  CmFormatDiscard discard;
  double          discard_seconds;
  guint           discard_samples; /* regions written, discarded and read back */
  guint64         discard_refused_after; /* not-supported: the bytes the reader
                                          * took before it refused a discard
                                          * (0: it refused the first) */
  gboolean        fsck_ran;        /* FALSE: nothing could check it */
  gboolean        fsck_clean;      /* FALSE when it did not run */
  char           *fsck_output;     /* bounded and cleaned; or why it did
                                    * not run */
  double          seconds;
} CmFormatReport;

/* Called in the worker: @phase in words, @fraction 0–1, @seconds_left
 * the phase's time left where a rate was measured, else -1. */
typedef void (*CmFormatProgressFunc) (const char *phase,
                                      double      fraction,
                                      double      seconds_left,
                                      gpointer    user_data);

CmFormatReport *cm_format_run            (int                   fd,
                                          const char           *device,
                                          guint64               device_bytes,
                                          guint64               use_bytes,
                                          guint64               au_bytes,
                                          const char           *label,
                                          gboolean              through_udisks,
                                          CmFormatProgressFunc  progress,
                                          gpointer              user_data,
                                          GCancellable         *cancellable,
                                          GError              **error) G_GNUC_WARN_UNUSED_RESULT;
/* Whether a format by this process goes through UDisks (not root). */
gboolean        cm_format_needs_udisks   (void);
void            cm_format_report_free    (CmFormatReport       *report);
JsonNode       *cm_format_report_to_json (const CmFormatReport *report) G_GNUC_WARN_UNUSED_RESULT;
CmFormatReport *cm_format_report_from_json (JsonNode           *node,
                                          GError              **error) G_GNUC_WARN_UNUSED_RESULT;
const char     *cm_format_discard_to_string (CmFormatDiscard    discard);
/* "FAT32, 32 KiB clusters" */
char           *cm_format_report_dup_layout_text (const CmFormatReport *report) G_GNUC_WARN_UNUSED_RESULT;
char           *cm_format_report_dup_discard_text (const CmFormatReport *report) G_GNUC_WARN_UNUSED_RESULT;
/* "clean (fsck -n found nothing to mend)", "faults found", "not checked: …" */
char           *cm_format_report_dup_check_text (const CmFormatReport *report) G_GNUC_WARN_UNUSED_RESULT;
/* Where the file system is not the one the specification asks for (made
 * through UDisks, whose mkfs chooses): says so; else NULL. */
char           *cm_format_report_dup_choice_text (const CmFormatReport *report) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmFormatReport, cm_format_report_free)

G_END_DECLS
