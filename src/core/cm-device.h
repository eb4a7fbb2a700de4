/* cm-device.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <udisks/udisks.h>

G_BEGIN_DECLS

#define CM_TYPE_DEVICE (cm_device_get_type ())
#define CM_TYPE_READER_KIND (cm_reader_kind_get_type ())
#define CM_DEVICE_ERROR (cm_device_error_quark ())

typedef enum
{
  CM_DEVICE_ERROR_NO_SERVICE,
  CM_DEVICE_ERROR_NOT_FOUND,
  CM_DEVICE_ERROR_NOT_AUTHORIZED,
  CM_DEVICE_ERROR_REMOVED,
  CM_DEVICE_ERROR_BUSY,
  CM_DEVICE_ERROR_FAILED,
} CmDeviceError;

/* How the card is attached to the computer, which decides what the
 * reader can show (docs/methodology.md). */
typedef enum
{
  CM_READER_OTHER,
  CM_READER_SD_SLOT,  /* a native slot, mmcblkN */
  CM_READER_USB,      /* a USB card reader or stick */
  CM_READER_LOOP,     /* a loop device, as the tests' simulated card */
} CmReaderKind;

GQuark       cm_device_error_quark      (void);
GType        cm_reader_kind_get_type    (void);

/* "sd-slot", "usb", "loop" or "other", as in the result JSON. */
const char  *cm_reader_kind_to_string   (CmReaderKind kind);
gboolean     cm_reader_kind_from_string (const char   *str,
                                         CmReaderKind *kind);

/* The Raspberry Pi (or other board) model from the device tree, e.g.
 * "Raspberry Pi 4 Model B Rev 1.4"; NULL when there is none. */

/* A whole disk that may hold a card: a card reader (with or without a
 * card in it), a native SD slot, a flash drive or a loop device. Made by
 * CmDeviceMonitor, which keeps its properties current. */
G_DECLARE_FINAL_TYPE (CmDevice, cm_device, CM, DEVICE, GObject)

CmDevice    *cm_device_new              (UDisksClient *client,
                                         UDisksObject *object) G_GNUC_WARN_UNUSED_RESULT;

/* Reads everything again from UDisks, sysfs and the mount table, and
 * notifies the properties that changed. */
void         cm_device_update           (CmDevice     *self);

UDisksObject *cm_device_get_object      (CmDevice     *self);
const char  *cm_device_get_object_path  (CmDevice     *self);
const char  *cm_device_get_device       (CmDevice     *self);
int          cm_device_compare_paths    (const char   *a,
                                         const char   *b);
const char  *cm_device_get_name         (CmDevice     *self);
const char  *cm_device_get_name_detail  (CmDevice     *self);
char        *cm_device_phrase_name      (CmReaderKind  kind,
                                         const char   *detail) G_GNUC_WARN_UNUSED_RESULT;
guint64      cm_device_get_size         (CmDevice     *self);
gboolean     cm_device_get_read_only    (CmDevice     *self);
gboolean     cm_device_get_mounted      (CmDevice     *self);
const char * const *cm_device_get_mount_points (CmDevice *self);
gboolean     cm_device_get_system       (CmDevice     *self);
CmReaderKind cm_device_get_reader_kind  (CmDevice     *self);
guint        cm_device_get_usb_speed_mbps (CmDevice   *self);
gboolean     cm_device_get_has_media    (CmDevice     *self);

/* The sysfs folder holding a native slot's card registers
 * (/sys/block/mmcblkN/device), for cm_card_info_new_from_sysfs();
 * NULL for other readers. */
const char  *cm_device_get_sysfs_device_dir (CmDevice *self);
const char  *cm_device_get_volume_label (CmDevice *self);

/* Opens the whole device through UDisks, so that polkit can ask the user
 * for permission, with O_DIRECT (and O_EXCL when writable). The result is
 * a file descriptor the caller owns, or -1 with an error in
 * CM_DEVICE_ERROR (or G_IO_ERROR_CANCELLED). */
void         cm_device_open_async       (CmDevice            *self,
                                         gboolean             writable,
                                         GCancellable        *cancellable,
                                         GAsyncReadyCallback  callback,
                                         gpointer             user_data);
int          cm_device_open_finish      (CmDevice            *self,
                                         GAsyncResult        *result,
                                         GError             **error);

G_END_DECLS
