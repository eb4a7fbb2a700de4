/* cm-wear-state.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A stopped wear test's state file (cm-wear-state.c): where it stood
 * (CmWearPlace), kept per card, sealed and bounded as the full verify's
 * is (cm-state-file.c), so that `endure --resume` and the app carry on.
 */

#pragma once

#include "cm-wear.h"

G_BEGIN_DECLS

/* The state of the card at @device, of @card_bytes; its file in @folder
 * (NULL: the user's data folder, cardmark/wear). */
CmWearState *cm_wear_state_new       (const char        *device,
                                      guint64            card_bytes,
                                      const char        *folder) G_GNUC_WARN_UNUSED_RESULT;
void         cm_wear_state_free      (CmWearState       *state);
const char  *cm_wear_state_get_path  (CmWearState       *state);
const char  *cm_wear_state_get_device (CmWearState      *state);
gboolean     cm_wear_state_exists    (CmWearState       *state);
gboolean     cm_wear_state_save      (CmWearState       *state,
                                      const CmWearPlace *place,
                                      GError           **error);
/* Fills @place (initialised) from the file; refuses a damaged file, or
 * another card's, with CM_VERIFY_ERROR_DAMAGED or _NOT_THIS_CARD. */
gboolean     cm_wear_state_load      (CmWearState       *state,
                                      CmWearPlace       *place,
                                      GError           **error);
/* The same from a state file's @data (the fuzzer's way in). */
gboolean     cm_wear_state_parse     (CmWearState       *state,
                                      const char        *data,
                                      gsize              length,
                                      CmWearPlace       *place,
                                      GError           **error);
void         cm_wear_state_remove    (CmWearState       *state);
/* Where the saved test stands, in words ("round 3, writing, 40 %"), or
 * NULL when there is no state that loads. */
char        *cm_wear_state_describe  (CmWearState       *state) G_GNUC_WARN_UNUSED_RESULT;
/* When the saved test began (Unix seconds); 0 when none is saved or it
 * does not say. */
gint64       cm_wear_state_get_started (CmWearState     *state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmWearState, cm_wear_state_free)

G_END_DECLS
