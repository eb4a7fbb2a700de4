/* cm-card-item.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-card-info.h"

G_BEGIN_DECLS

typedef enum
{
  CM_CARD_KIND_DEVICE,
  CM_CARD_KIND_HOME,
  CM_CARD_KIND_FOLDER,
} CmCardKind;

#define CM_TYPE_CARD_ITEM (cm_card_item_get_type ())

G_DECLARE_FINAL_TYPE (CmCardItem, cm_card_item, CM, CARD_ITEM, GObject)

CmCardItem *cm_card_item_new_device      (const char   *device,
                                          const char   *name,
                                          guint64       size,
                                          const char   *reader,
                                          const char   *mount_point) G_GNUC_WARN_UNUSED_RESULT;
CmCardItem *cm_card_item_new_folder      (const char   *folder) G_GNUC_WARN_UNUSED_RESULT;
CmCardItem *cm_card_item_new_home        (void) G_GNUC_WARN_UNUSED_RESULT;

CmCardKind  cm_card_item_get_kind        (CmCardItem   *self);
const char *cm_card_item_get_name        (CmCardItem   *self);
const char *cm_card_item_get_device      (CmCardItem   *self);
const char *cm_card_item_get_mount_point (CmCardItem   *self);
const char *cm_card_item_get_reader      (CmCardItem   *self);
guint64     cm_card_item_get_size        (CmCardItem   *self);
gboolean    cm_card_item_get_mounted     (CmCardItem   *self);
gboolean    cm_card_item_get_is_system   (CmCardItem   *self);
void        cm_card_item_set_is_system   (CmCardItem   *self,
                                          gboolean      is_system);
guint       cm_card_item_get_usb_speed_mbps (CmCardItem *self);
void        cm_card_item_set_usb_speed_mbps (CmCardItem *self,
                                             guint       mbps);
CmCardInfo *cm_card_item_get_card_info   (CmCardItem   *self);
void        cm_card_item_set_card_info   (CmCardItem   *self,
                                          CmCardInfo   *info);
char       *cm_card_item_dup_subtitle    (CmCardItem   *self) G_GNUC_WARN_UNUSED_RESULT;
void        cm_card_item_set_volume_label (CmCardItem  *self,
                                           const char  *label);
const char *cm_card_item_get_volume_label (CmCardItem  *self);
const char *cm_card_item_get_file_folder (CmCardItem   *self);
const char *cm_card_item_get_verify_path (CmCardItem  *self,
                                          gboolean    *device,
                                          const char **why_not);
const char *cm_card_item_get_wear_device (CmCardItem  *self,
                                          const char **why_not);

G_END_DECLS
