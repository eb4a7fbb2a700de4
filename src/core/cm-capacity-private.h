/* cm-capacity-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the capacity check and its journal share.
 */

#pragma once

#include "cm-capacity-probe.h"

G_BEGIN_DECLS

#define CM_CAPACITY_BLOCK 4096

typedef struct _CmCapacityJournal CmCapacityJournal;

void               cm_capacity_signature         (guint8             *block,
                                                  const guint8       *nonce,
                                                  guint64             offset);
gboolean           cm_capacity_shows_signature   (const guint8       *block,
                                                  const guint8       *nonce,
                                                  guint64             offset);

CmCapacityJournal *cm_capacity_journal_create    (GFile              *folder,
                                                  const char         *device,
                                                  const char         *identity,
                                                  guint64             size,
                                                  const guint8       *nonce,
                                                  GArray             *offsets,
                                                  const guint8       *originals,
                                                  GError            **error);
gboolean           cm_capacity_journal_save_chunk (CmCapacityJournal *journal,
                                                   guint64            offset,
                                                   const guint8      *data,
                                                   gsize              length,
                                                   GError           **error);
void               cm_capacity_journal_discard   (CmCapacityJournal  *journal);
void               cm_capacity_journal_close     (CmCapacityJournal  *journal);

void               cm_capacity_test_stop         (const char         *phase,
                                                  guint               count);

G_END_DECLS
