/* cm-power-hub.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Where a card's USB reader hangs: its hub and port, found in sysfs, as
 * uhubctl names them (`uhubctl -l LOCATION -p PORT -a off`), and whether
 * that hub switches its ports together (a Raspberry Pi 4's own ports:
 * the keyboard goes too).
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  char     *location;   /* "1-1", or "1" for a root hub */
  guint     port;
  gboolean  ganged;     /* the hub switches all its ports at once */
  char     *hub_id;     /* "2109:3431" */
} CmPowerHub;

/* @sysfs: "/sys", or a fixture tree; @device: "/dev/sdb" or "sdb". */
CmPowerHub *cm_power_hub_find  (const char  *sysfs,
                                const char  *device,
                                GError     **error) G_GNUC_WARN_UNUSED_RESULT;
void        cm_power_hub_free  (CmPowerHub  *hub);
/* The uhubctl command that switches the port @on or off. */
char       *cm_power_hub_dup_command (const CmPowerHub *hub,
                                      gboolean          on) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmPowerHub, cm_power_hub_free)

G_END_DECLS
