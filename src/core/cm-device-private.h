/* cm-device-private.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the device layer's files share, and what the tests reach into.
 */

#pragma once

#include "cm-device.h"

G_BEGIN_DECLS

/* The dev_t numbers (as a GArray of dev_t) of the block device named
 * BLOCK_NAME ("sdb"), its partitions and whatever is stacked on them. */
GArray  *cm_device_collect_devs    (const char  *block_name) G_GNUC_WARN_UNUSED_RESULT;

/* Adds to MOUNT_POINTS (of char *) the mount points in MOUNTINFO (the
 * text of /proc/self/mountinfo) of any device in DEVS, and sets SYSTEM
 * when one of them is a mount point the system runs from or a swap area
 * in SWAPS (the text of /proc/swaps) lives on one of them. */
void     cm_device_scan_mounts     (GArray      *devs,
                                    const char  *mountinfo,
                                    const char  *swaps,
                                    GPtrArray   *mount_points,
                                    gboolean    *system);

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
