/* cm-card-info.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "cm-device.h"
#include "cm-health.h"

G_BEGIN_DECLS

#define CM_TYPE_CARD_INFO (cm_card_info_get_type ())
#define CM_CARD_INFO_ERROR (cm_card_info_error_quark ())

typedef enum
{
  CM_CARD_INFO_ERROR_INVALID_HEX,
  CM_CARD_INFO_ERROR_WRONG_LENGTH,
  CM_CARD_INFO_ERROR_NOT_FOUND,
  CM_CARD_INFO_ERROR_NO_REGISTERS,
  CM_CARD_INFO_ERROR_INVALID_JSON,
} CmCardInfoError;

GQuark cm_card_info_error_quark (void);

/* A card's identity and the classes it declares, decoded from its SD
 * registers (CID, CSD, SCR and the SD Status, "SSR") as laid out in the
 * SD Physical Layer Simplified Specification (cm-sd-registers.h decodes
 * them; cm-counterfeit.h reads the warning signs of a fake card in them).
 *
 * Every value may be unknown, either because the register holding it was
 * not available or because the field is reserved: getters then return
 * NULL, -1, 0 or FALSE as documented, and the JSON form always carries
 * every key, with null for an unknown value.
 *
 * A class field of the SD Status that is zero is reported as "C0", "U0",
 * "V0" or "A0" ("the card declares none"), so that null keeps meaning
 * "not known". cm_card_info_dup_declared_classes() leaves those out.
 *
 * The JSON form (the `card` member of a result) holds the decoded fields
 * only, not the raw registers. */
G_DECLARE_FINAL_TYPE (CmCardInfo, cm_card_info, CM, CARD_INFO, GObject)

CmCardInfo  *cm_card_info_new                 (void) G_GNUC_WARN_UNUSED_RESULT;
CmCardInfo  *cm_card_info_new_from_registers  (const char  *cid,
                                               const char  *csd,
                                               const char  *scr,
                                               const char  *ssr,
                                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;
CmCardInfo  *cm_card_info_new_from_sysfs      (const char  *device_dir,
                                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;
CmCardInfo  *cm_card_info_new_unavailable     (const char  *reason) G_GNUC_WARN_UNUSED_RESULT;
CmCardInfo  *cm_card_info_new_for_device      (CmDevice    *device) G_GNUC_WARN_UNUSED_RESULT;
CmCardInfo  *cm_card_info_new_from_json       (JsonNode    *node,
                                               GError     **error) G_GNUC_WARN_UNUSED_RESULT;
JsonNode    *cm_card_info_to_json             (CmCardInfo  *self) G_GNUC_WARN_UNUSED_RESULT;

gboolean     cm_card_info_get_registers_available (CmCardInfo *self);
const char  *cm_card_info_get_unavailable_reason  (CmCardInfo *self);

/* The brand printed on the card, as the user gave it. */
const char  *cm_card_info_get_brand           (CmCardInfo  *self);
void         cm_card_info_set_brand           (CmCardInfo  *self,
                                               const char  *brand);

/* CID. The manufacturer ID is -1 when unknown; the strings are NULL. */
int          cm_card_info_get_manufacturer_id (CmCardInfo  *self);
const char  *cm_card_info_get_manufacturer    (CmCardInfo  *self);
const char  *cm_card_info_get_oem_id          (CmCardInfo  *self);
const char  *cm_card_info_get_product_name    (CmCardInfo  *self);
const char  *cm_card_info_get_revision        (CmCardInfo  *self);
const char  *cm_card_info_get_serial          (CmCardInfo  *self);
const char  *cm_card_info_get_manufacture_date (CmCardInfo *self);

/* CSD. Capacity is 0 when unknown; the card type is "SDSC", "SDHC",
 * "SDXC" or "SDUC", known only when decoded from a CSD. */
guint64      cm_card_info_get_capacity_bytes  (CmCardInfo  *self);
const char  *cm_card_info_get_card_type       (CmCardInfo  *self);
gboolean     cm_card_info_get_write_protected (CmCardInfo  *self);
gboolean     cm_card_info_get_write_protect_known (CmCardInfo *self);

/* SCR: "1.0x", "1.10", "2.00", "3.0x", "4.x", "5.x", "6.x" … */
const char  *cm_card_info_get_spec_version    (CmCardInfo  *self);

/* SD Status. */
const char  *cm_card_info_get_speed_class     (CmCardInfo  *self);
const char  *cm_card_info_get_uhs_grade       (CmCardInfo  *self);
const char  *cm_card_info_get_video_class     (CmCardInfo  *self);
const char  *cm_card_info_get_app_class       (CmCardInfo  *self);
guint64      cm_card_info_get_au_size_bytes   (CmCardInfo  *self);

/* PERFORMANCE_ENHANCE, SSR bits 335:328: -1 when unknown. The meaning of
 * its sub-bits (queue depth in 335:331, cache 330, card-initiated
 * maintenance 329, host-initiated maintenance 328) is unverified. */
int          cm_card_info_get_performance_enhance (CmCardInfo *self);
guint        cm_card_info_get_command_queue_depth (CmCardInfo *self);
gboolean     cm_card_info_get_cache_supported     (CmCardInfo *self);

/* The classes the card declares in its own registers, e.g. "C10", "U3",
 * "V30", "A2"; empty when unknown. */
GStrv        cm_card_info_dup_declared_classes (CmCardInfo *self) G_GNUC_WARN_UNUSED_RESULT;

/* What the card says of its own wear (CMD56, cm-health.h): the JSON
 * form's `health` member, there only when the card was asked. */
const CmHealth *cm_card_info_get_health       (CmCardInfo     *self);
void         cm_card_info_set_health          (CmCardInfo     *self,
                                               const CmHealth *health);

G_END_DECLS
