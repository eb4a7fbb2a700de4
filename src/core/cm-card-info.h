/* cm-card-info.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define CM_TYPE_CARD_INFO (cm_card_info_get_type ())

G_DECLARE_FINAL_TYPE (CmCardInfo, cm_card_info, CM, CARD_INFO, GObject)

CmCardInfo  *cm_card_info_new                 (void) G_GNUC_WARN_UNUSED_RESULT;
CmCardInfo  *cm_card_info_new_from_json       (JsonNode    *node,
                                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;
JsonNode    *cm_card_info_to_json             (CmCardInfo  *self) G_GNUC_WARN_UNUSED_RESULT;

/* The classes the card declares in its own registers, e.g. "C10", "U3",
 * "V30", "A2"; empty when unknown. */
GStrv        cm_card_info_dup_declared_classes (CmCardInfo *self) G_GNUC_WARN_UNUSED_RESULT;
guint64      cm_card_info_get_au_size_bytes   (CmCardInfo  *self);

G_END_DECLS
