/* cm-queue-check.h
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The queue check's I/O: random 4 KiB writes of self-checking blocks at
 * a deep queue, mixed with reads, flushes and discards, then every block
 * read back and checked.
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define CM_QUEUE_CHECK_BLOCK 4096
/* Bad blocks a document names; the rest are counted. */
#define CM_QUEUE_CHECK_MAX_NAMED 32

typedef enum
{
  CM_QUEUE_CHECK_PHASE_DEPTH_1,
  CM_QUEUE_CHECK_PHASE_DEEP,
  CM_QUEUE_CHECK_PHASE_READ_BACK,
} CmQueueCheckPhase;

/* Called in the check's thread. */
typedef void (*CmQueueCheckProgress) (CmQueueCheckPhase phase,
                                      double            fraction,
                                      double            seconds_left,
                                      gpointer          user_data);

typedef struct
{
  int                   fd;          /* the card, O_DIRECT, read-write */
  guint64               area_bytes;  /* from byte 0 */
  double                seconds;     /* the whole write and read phase */
  guint                 depth;       /* 1: only the depth-1 part */
  GCancellable         *cancellable;
  CmQueueCheckProgress  progress;
  gpointer              user_data;
} CmQueueCheckSpec;

typedef struct
{
  guint64  writes;
  guint64  reads;
  guint64  flushes;
  guint64  discards;
  guint64  discards_refused;
  double   iops_depth_1;      /* 4 KiB commands a second at depth 1 */
  double   iops_deep;         /* at the spec's depth; 0 when depth is 1 */
  guint64  blocks_checked;    /* read back at the end */
  guint64  bad_blocks;        /* that read back wrong, during or after */
  guint64  bad_during;        /* reads during the run that came back wrong */
  guint64  named[CM_QUEUE_CHECK_MAX_NAMED]; /* the first bad blocks' offsets */
  guint    n_named;
} CmQueueCheckReport;

gboolean cm_queue_check_run (const CmQueueCheckSpec *spec,
                             CmQueueCheckReport     *report,
                             GError                **error);

G_END_DECLS
