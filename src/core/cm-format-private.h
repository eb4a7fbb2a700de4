/* cm-format-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What cm-format.c and its routes for a user who is not root
 * (cm-format-image.c, cm-format-udisks.c) share.
 */

#pragma once

#include "cm-format.h"

G_BEGIN_DECLS

gboolean  cm_format_io_at            (int              fd,
                                      gboolean         write,
                                      guint8          *buf,
                                      gsize            len,
                                      guint64          offset,
                                      GError         **error);
guint8   *cm_format_aligned_buffer   (gsize            len);
gboolean  cm_format_sync             (int              fd,
                                      const char      *sentence,
                                      GError         **error);
gboolean  cm_format_sync_boot        (int              fd,
                                      GError         **error);
char     *cm_format_clean_output     (const char      *text);
gboolean  cm_format_read_boot        (int              fd,
                                      CmFormatReport  *report,
                                      GError         **error);
gboolean  cm_format_exfat_set_offset (int              fd,
                                      guint64          base,
                                      CmFormatReport  *report,
                                      GError         **error);
/* As a user who is not root: the image of the partition, made and
 * checked by cm-format.c, copied onto the card and read back
 * (cm-format-image.c). */
gboolean  cm_format_image_copy       (int                    card,
                                      int                    image,
                                      CmFormatReport        *report,
                                      CmFormatProgressFunc   progress,
                                      gpointer               user_data,
                                      double                 from,
                                      double                 to,
                                      GCancellable          *cancellable,
                                      GError               **error);
/* Steps 3 and 4 as a user who is not root, where no image can be made:
 * the partition's file system made and checked through UDisks
 * (cm-format-udisks.c). */
gboolean  cm_format_udisks_make_fs   (int              fd,
                                      CmFormatReport  *report,
                                      GCancellable    *cancellable,
                                      GError         **error);

G_END_DECLS
