/* cm-block-io.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The one read/write loop: a whole buffer at an offset of a card, going on
 * after a short transfer or an interrupted call.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gssize   cm_block_io_transfer (int       fd,
                               gboolean  write,
                               guint8   *buffer,
                               gsize     length,
                               guint64   offset,
                               int      *errsv);

gboolean cm_block_io_read_at  (int       fd,
                               guint8   *buffer,
                               gsize     length,
                               guint64   offset,
                               GError  **error);

gboolean cm_block_io_write_at (int           fd,
                               const guint8 *buffer,
                               gsize         length,
                               guint64       offset,
                               GError      **error);

G_END_DECLS
