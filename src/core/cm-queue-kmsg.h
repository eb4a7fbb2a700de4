/* cm-queue-kmsg.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the kernel logs about a card's host while a queue check runs:
 * CQE recoveries, timeouts, spurious task completions, resets and I/O
 * errors, each with its time.
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  CM_QUEUE_EVENT_RECOVERY,      /* "mmc0: running CQE recovery" */
  CM_QUEUE_EVENT_TIMEOUT,       /* "mmc0: cqhci: timeout for tag 3" */
  CM_QUEUE_EVENT_SPURIOUS_TCN,  /* "mmc0: cqhci: spurious TCN for tag 12" */
  CM_QUEUE_EVENT_RESET,         /* "mmc0: … reset …" */
  CM_QUEUE_EVENT_IO_ERROR,      /* "I/O error, dev mmcblk0, sector …" */
  CM_QUEUE_N_EVENTS,
} CmQueueEvent;

/* One event: what, and when, in the kernel's seconds since boot (or the
 * check's, once cm_queue_kmsg_stop() returned it); -1 when not told. */
typedef struct
{
  CmQueueEvent event;
  double       at;
} CmQueueEventAt;

const char *cm_queue_event_to_string   (CmQueueEvent  event);
gboolean    cm_queue_event_from_string (const char   *str,
                                        CmQueueEvent *event);

gboolean    cm_queue_kmsg_parse_line   (const char   *line,
                                        const char   *host,
                                        const char   *block,
                                        CmQueueEventAt *event);
char       *cm_queue_kmsg_host_of      (const char   *block) G_GNUC_WARN_UNUSED_RESULT;

typedef struct _CmQueueKmsg CmQueueKmsg;

CmQueueKmsg *cm_queue_kmsg_start       (const char   *host,
                                        const char   *block) G_GNUC_WARN_UNUSED_RESULT;
const char  *cm_queue_kmsg_get_source  (CmQueueKmsg  *self);
GArray      *cm_queue_kmsg_stop        (CmQueueKmsg  *self) G_GNUC_WARN_UNUSED_RESULT;

G_END_DECLS
