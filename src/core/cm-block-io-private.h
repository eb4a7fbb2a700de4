/* cm-block-io-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The seam tests use to make the one read/write loop (cm-block-io.c) meet
 * short and interrupted transfers, which a regular file never gives.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* One pread (@write FALSE) or pwrite: what it returns, errno as it sets. */
typedef gssize (*CmBlockIoCall) (int       fd,
                                 gboolean  write,
                                 guint8   *buffer,
                                 gsize     length,
                                 guint64   offset);

void _cm_block_io_set_call_for_testing (CmBlockIoCall call);

G_END_DECLS
