/* cm-card-use.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* What a caller means to do with a card that must not be in use. */
typedef enum
{
  CM_CARD_USE_RAW_WRITE,
  CM_CARD_USE_CAPACITY_CHECK,
  CM_CARD_USE_DESTRUCTIVE_VERIFY,
  CM_CARD_USE_WEAR_TEST,
  CM_CARD_USE_FORMAT,
  CM_CARD_USE_OVERWRITE,           /* any other kind that overwrites the whole card */
} CmCardUsePurpose;

/* Who uses a card: the mount points of the card, its partitions and
 * whatever is stacked on them (device-mapper, LVM, LUKS, RAID), whether
 * the system runs from one of them, and whether one is swap. */
typedef struct _CmCardUse CmCardUse;

CmCardUse          *cm_card_use_new_at            (const char *device,
                                                   const char *sysfs_root,
                                                   const char *mountinfo,
                                                   const char *swaps) G_GNUC_WARN_UNUSED_RESULT;
CmCardUse          *cm_card_use_new               (const char *device) G_GNUC_WARN_UNUSED_RESULT;
void                cm_card_use_free              (CmCardUse  *use);

gboolean            cm_card_use_get_in_use        (const CmCardUse *use);
gboolean            cm_card_use_get_system        (const CmCardUse *use);
const char * const *cm_card_use_get_mount_points  (const CmCardUse *use);
const char         *cm_card_use_get_why           (const CmCardUse *use);

gboolean            cm_card_in_use                (const char  *device,
                                                   const char  *sysfs_root,
                                                   const char  *mountinfo,
                                                   const char  *swaps,
                                                   char       **why);
gboolean            cm_card_check_not_in_use      (const char        *device,
                                                   CmCardUsePurpose   purpose,
                                                   GError           **error);
gboolean            cm_card_check_whole_card      (const char        *device,
                                                   CmCardUsePurpose   purpose,
                                                   GError           **error);
gboolean            cm_card_check_not_open        (const char        *device,
                                                   GError           **error);

void                cm_card_use_set_roots_for_testing (const char *sysfs_root,
                                                       const char *mountinfo_path,
                                                       const char *swaps_path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmCardUse, cm_card_use_free)

G_END_DECLS
