/* cm-host.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Whether the host sends several commands to the card at once. */
typedef enum
{
  CM_QUEUEING_UNKNOWN,
  CM_QUEUEING_NO,
  CM_QUEUEING_YES,
} CmQueueing;

/* What the computer tells about the slot a card sits in. */
typedef struct
{
  char       *model;       /* /proc/device-tree/model: "Raspberry Pi 4 Model B Rev 1.4" */
  char       *bus_timing;  /* the negotiated timing of a native slot: "SDR104", "DDR50", … */
  CmQueueing  queueing;    /* the slot's command queueing (CQE), where debugfs tells */
} CmHostFacts;

CmHostFacts *cm_host_facts_read        (const char        *sysfs_device_dir) G_GNUC_WARN_UNUSED_RESULT;
CmHostFacts *cm_host_facts_read_from   (const char        *root,
                                        const char        *sysfs_device_dir) G_GNUC_WARN_UNUSED_RESULT;
CmHostFacts *cm_host_facts_copy        (const CmHostFacts *facts) G_GNUC_WARN_UNUSED_RESULT;
void         cm_host_facts_free        (CmHostFacts       *facts);
gboolean     cm_host_facts_is_raspberry_pi (const CmHostFacts *facts);

const char  *cm_queueing_to_string     (CmQueueing         queueing);
gboolean     cm_queueing_from_string   (const char        *str,
                                        CmQueueing        *queueing);

gboolean     cm_bus_timing_get_ceiling (const char        *timing,
                                        double            *low_mb_s,
                                        double            *high_mb_s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmHostFacts, cm_host_facts_free)

G_END_DECLS
