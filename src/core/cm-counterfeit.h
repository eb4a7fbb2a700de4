/* cm-counterfeit.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "cm-card-info.h"

G_BEGIN_DECLS

/* Warning signs of a counterfeit or over-labelled card, as translated
 * sentences: the card's registers disagree with the brand on its label
 * (cm_card_info_get_brand()) or with the classes printed on the label
 * (claimed_classes, e.g. {"C10", "U3", "A2", NULL}; may be NULL), or
 * declare classes their own SD specification version cannot have. Empty
 * when nothing looks wrong. */
GStrv cm_counterfeit_dup_hints (CmCardInfo         *card,
                                const char * const *claimed_classes) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
