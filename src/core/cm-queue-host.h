/* cm-queue-host.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "cm-host.h"
#include "cm-queue-quirks.h"

G_BEGIN_DECLS

/* Which computer the slot is in, as far as command queueing goes. */
typedef enum
{
  CM_QUEUE_HOST_OTHER,         /* not a Raspberry Pi: a laptop, a reader */
  CM_QUEUE_HOST_RASPBERRY_PI,  /* a Raspberry Pi before the 5 */
  CM_QUEUE_HOST_PI5,           /* BCM2712: Raspberry Pi 5, 500, CM5 */
} CmQueueHostKind;

/* What is, for command queueing to one card in a native slot. */
typedef struct
{
  CmQueueHostKind  kind;
  char            *model;        /* /proc/device-tree/model, or NULL */
  int              sd_cqe;       /* 0, 1 or 2 in force on a Pi 5; -1 when not read */
  CmQueueing       slot;         /* whether the slot can queue (debugfs, root only) */
  CmQueueing       now;          /* whether the kernel queues for this card now */
  guint            queue_depth;  /* the block queue's tags; 0 when not read */
  CmCqeListing     listing;      /* what the kernel's card table says */
  char            *listed_by;    /* the quirk of the entry that decided, or NULL */
} CmQueueHost;

#define CM_TYPE_QUEUE_HOST (cm_queue_host_get_type ())

GType        cm_queue_host_get_type  (void) G_GNUC_CONST;
CmQueueHost *cm_queue_host_read_from (const char        *root,
                                      const char        *block_name) G_GNUC_WARN_UNUSED_RESULT;
CmQueueHost *cm_queue_host_read      (const char        *block_name) G_GNUC_WARN_UNUSED_RESULT;
CmQueueHost *cm_queue_host_copy      (const CmQueueHost *facts) G_GNUC_WARN_UNUSED_RESULT;
void         cm_queue_host_free      (CmQueueHost       *facts);
char        *cm_queue_host_describe  (const CmQueueHost *facts) G_GNUC_WARN_UNUSED_RESULT;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CmQueueHost, cm_queue_host_free)

G_END_DECLS
