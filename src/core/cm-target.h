/* cm-target.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-method.h"

G_BEGIN_DECLS

#define CM_TARGET_ERROR (cm_target_error_quark ())

typedef enum
{
  CM_TARGET_ERROR_NOT_FOUND,
  CM_TARGET_ERROR_NOT_SUPPORTED,
  CM_TARGET_ERROR_PERMISSION,
  CM_TARGET_ERROR_NO_SPACE,
  CM_TARGET_ERROR_READ_ONLY,
  CM_TARGET_ERROR_MOUNTED,
  CM_TARGET_ERROR_IO,
  CM_TARGET_ERROR_REMOVED,
  CM_TARGET_ERROR_TOO_SMALL,
  CM_TARGET_ERROR_OTHER_WRITER,  /* another program wrote to the card during a raw write test */
  CM_TARGET_ERROR_NOT_WHOLE,     /* a partition, or on a disk this computer uses: no whole card */
  CM_TARGET_ERROR_HELD_OPEN,     /* another program has the card open */
} CmTargetError;

GQuark cm_target_error_quark (void);

#define CM_TYPE_TARGET (cm_target_get_type ())

G_DECLARE_FINAL_TYPE (CmTarget, cm_target, CM, TARGET, GObject)

CmTarget     *cm_target_new_for_path        (const char    *path,
                                             gboolean       allow_write,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;
CmTarget     *cm_target_new_for_fd          (int            fd,
                                             const char    *device,
                                             gboolean       writable,
                                             GError       **error) G_GNUC_WARN_UNUSED_RESULT;

gboolean      cm_target_open_area           (CmTarget      *self,
                                             guint64        area_bytes,
                                             GError       **error);
void          cm_target_close               (CmTarget      *self);

CmMethod      cm_target_get_mode            (CmTarget      *self);
const char   *cm_target_get_path            (CmTarget      *self);
const char   *cm_target_get_device          (CmTarget      *self);
int           cm_target_get_fd              (CmTarget      *self);
gboolean      cm_target_get_direct_io       (CmTarget      *self);
gboolean      cm_target_get_write_protected (CmTarget      *self);
guint64       cm_target_get_area_bytes      (CmTarget      *self);
guint64       cm_target_get_size            (CmTarget      *self);
guint64       cm_target_dup_free_bytes      (CmTarget      *self);
guint64       cm_target_get_max_file_bytes  (CmTarget      *self);
gboolean      cm_target_can_write           (CmTarget      *self);
gboolean      cm_target_get_bytes_written   (CmTarget      *self,
                                             guint64       *bytes);

guint         cm_target_remove_stale_scratch (const char   *folder);
GError       *cm_target_error_from_errno    (int            errsv,
                                             const char    *path) G_GNUC_WARN_UNUSED_RESULT;
GError       *cm_target_error_empty_path    (void) G_GNUC_WARN_UNUSED_RESULT;
GError       *cm_target_error_wrong_kind    (const char    *path,
                                             gboolean       need_device) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
