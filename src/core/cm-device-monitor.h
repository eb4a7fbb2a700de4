/* cm-device-monitor.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "cm-device.h"

G_BEGIN_DECLS

#define CM_TYPE_DEVICE_MONITOR (cm_device_monitor_get_type ())

/* The cards and card readers connected now, as a GListModel of CmDevice
 * kept current by UDisks' signals: a reader appears when plugged in, a
 * card's size and mounts change when it is inserted or mounted.
 *
 * Listed: native SD slots (mmcblkN, not eMMC), drives with removable
 * media (card readers, empty ones too) or flash media, and, with
 * show-loop, attached loop devices. Whole disks only, never partitions. */
G_DECLARE_FINAL_TYPE (CmDeviceMonitor, cm_device_monitor, CM, DEVICE_MONITOR, GObject)

CmDeviceMonitor *cm_device_monitor_new        (GError         **error) G_GNUC_WARN_UNUSED_RESULT;

void             cm_device_monitor_set_show_loop (CmDeviceMonitor *self,
                                                  gboolean         show_loop);

/* The whole-disk device holding PATH: a block device (/dev/loop3), one
 * of its partitions (/dev/sdb1 gives /dev/sdb) or a file or folder on a
 * mounted one. Works for any device UDisks knows, listed or not. Returns
 * a new reference, or NULL when UDisks knows no such device. */
CmDevice        *cm_device_monitor_lookup     (CmDeviceMonitor *self,
                                               const char      *path) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
