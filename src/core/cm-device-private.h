/* cm-device-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the device layer's files share, and what the tests reach into.
 */

#pragma once

#include "cm-device.h"

G_BEGIN_DECLS

/* Walks up from DIR (a block device's resolved sysfs folder) to a USB
 * device and reads its speed in Mbit/s; FALSE when no USB device carries
 * it. STOP_AT is the sysfs devices root, "/sys/devices". */
gboolean cm_device_find_usb_speed  (const char  *dir,
                                    const char  *stop_at,
                                    guint       *out_mbps);

/* Turns an error from UDisks or the bus into one in CM_DEVICE_ERROR
 * that says what to do. Cancellation passes through unchanged. */
GError  *cm_device_error_from_dbus (const GError *error) G_GNUC_WARN_UNUSED_RESULT;

/* The error shown wherever devices are listed but udisksd is absent. */
GError  *cm_device_error_no_service (void) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
