/* cm-card-same.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-info.h"
#include "cm-result.h"

G_BEGIN_DECLS

/* What proves that a document is of the card in a reader now. */
typedef enum
{
  CM_CARD_PROOF_NONE,    /* nothing: another card, as far as anyone knows */
  CM_CARD_PROOF_CID,     /* its CID: serial, and name, maker and date */
  CM_CARD_PROOF_READER,  /* it never left its reader since (no media change) */
} CmCardProof;

const char  *cm_card_proof_to_string (CmCardProof  proof);
char        *cm_card_dup_sighting    (const char  *device) G_GNUC_WARN_UNUSED_RESULT;
CmCardProof  cm_card_same            (CmResult    *was,
                                      CmCardInfo  *is,
                                      const char  *device);

void         cm_card_set_sighting_for_testing (const char *device,
                                               const char *sighting);

G_END_DECLS
