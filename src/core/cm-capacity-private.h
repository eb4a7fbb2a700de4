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
/* Places the check never writes whose SHA-256s name the card. */
#define CM_CAPACITY_N_FINGERPRINT 4

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
                                                  GArray             *fingerprint_offsets,
                                                  const guint8       *fingerprint,
                                                  GError            **error);
gboolean           cm_capacity_journal_save_chunk (CmCapacityJournal *journal,
                                                   guint64            offset,
                                                   const guint8      *data,
                                                   gsize              length,
                                                   GError           **error);
char              *cm_capacity_journal_discard   (CmCapacityJournal  *journal) G_GNUC_WARN_UNUSED_RESULT;
void               cm_capacity_journal_close     (CmCapacityJournal  *journal);

/* FALSE, with an error saying what to do, when the journal at @path
 * stands in the way of a new check of the card in @device: damaged, for
 * another card under the same name, or this card's to restore first. */
gboolean           cm_capacity_journal_check_pending (int          fd,
                                                      const char  *device,
                                                      guint64      size,
                                                      const char  *path,
                                                      GError     **error);
/* Whether @contents would be read as a journal (for the fuzz target). */
gboolean           cm_capacity_journal_validate  (GBytes             *contents,
                                                  GError            **error);
char              *cm_capacity_fingerprint_text  (const guint8       *fingerprint,
                                                  gsize               n) G_GNUC_WARN_UNUSED_RESULT;

void               cm_capacity_test_stop         (const char         *phase,
                                                  guint               count);

G_END_DECLS
